/**
 * Real template files (../shared/corpus-embedded, ../shared/corpus): their template expressions never become
 * false errors, their literal text is still read, and the real mistakes inside are found at their lines. Property:
 * a placeholder written as any scalar value of a corpus KubeletConfiguration never adds an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { parseConfigFile } from '../../server/src/parse/config.ts';
import { maskTemplates, scanTemplates } from '../../server/src/parse/template.ts';
import { parseYamlStream } from '../../server/src/parse/yaml.ts';
import type { ConfigNode } from '../../server/src/parse/types.ts';
import type { Range } from '../../server/src/model/range.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { assertFindingsInside } from '../helpers/ranges.ts';

const EMBEDDED = corpusDir('corpus-embedded');
const CORPUS = corpusDir('corpus');

function embedded(prefix: string): { name: string; text: string } {
  const dir = join(EMBEDDED!, 'files');
  const name = readdirSync(dir).find((n) => n.startsWith(prefix))!;
  return { name, text: readFileSync(join(dir, name), 'utf8') };
}

/** Helm, Go-templated and Terraform-templated YAML files of corpus-embedded (the MANIFEST names them templates). */
const YAML_TEMPLATES = ['010', '014', '021', '028'];

for (const prefix of YAML_TEMPLATES) {
  test(`corpus-embedded ${prefix}: masked, the template reads as YAML without a syntax error (unmasked it does not)`, { skip: !EMBEDDED && 'no ../shared/corpus-embedded' }, () => {
    const { name, text } = embedded(prefix);
    const masked = maskTemplates(text, scanTemplates(text, { dollar: true }), false);
    assert.equal(masked.text.length, text.length);
    assert.deepEqual(parseYamlStream(name, masked.text).problems.map((p) => p.message), []);
    assert.ok(parseYamlStream(name, text).problems.length > 0, 'the raw template is not YAML');
  });
}

/** The real mistakes (MANIFEST.tsv): 021's KubeletConfiguration sets a removed gate and a locked one to false. */
const REAL_ERRORS: Record<string, string[]> = { '021': ['feature-gate-locked', 'feature-gate-removed'] };

for (const prefix of [...YAML_TEMPLATES, '018', '019']) {
  test(`corpus-embedded ${prefix}: no false error, ranges inside`, { skip: !EMBEDDED && 'no ../shared/corpus-embedded' }, () => {
    const { name, text } = embedded(prefix);
    const a = analyze([{ path: name, text }], { kubernetesVersion: '1.35' });
    assertFindingsInside(new Map([[name, text]]), a.findings);
    assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code).sort(), REAL_ERRORS[prefix] ?? []);
  });
}

/**
 * 021's write_files entry /etc/kubernetes/config/kubelet.yaml.template, as the file it is on the node (the
 * block scalar's lines without their six spaces; the `{{- if }}` lines sit at column 0 in the carrier).
 */
function kubeletTemplate021(): string {
  const lines = embedded('021').text.split('\n');
  const from = lines.findIndex((l) => l.includes('path: /etc/kubernetes/config/kubelet.yaml.template')) + 2;
  let to = from;
  while (to < lines.length && !/^ {2}- /.test(lines[to])) to++;
  return lines.slice(from, to).map((l) => l.replace(/^ {6}/, '')).join('\n');
}

test('corpus-embedded 021: the Go-templated KubeletConfiguration: its two real gate mistakes, one info, unknown reservations', { skip: !EMBEDDED && 'no ../shared/corpus-embedded' }, () => {
  const text = kubeletTemplate021();
  const path = 'etc/kubernetes/config/kubelet.yaml.template';
  assert.equal(detectKind(path, text), 'kubelet-config');
  const a = analyze([{ path, text }], { kubernetesVersion: '1.35' });
  const at = (code: string) => a.findings.filter((f) => f.code === code).map((f) => text.split('\n')[f.range.start.line].trim());
  // MANIFEST: SizeMemoryBackedVolumes is removed, ExecProbeTimeout=false is refused once the gate is locked.
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code).sort(), ['feature-gate-locked', 'feature-gate-removed']);
  assert.deepEqual(at('feature-gate-removed'), ['SizeMemoryBackedVolumes: {{ .Cluster.ConfigItems.enable_size_memory_backed_volumes }}']);
  assert.deepEqual(at('feature-gate-locked'), ['ExecProbeTimeout: false']);
  assert.equal(a.findings.filter((f) => f.code === 'config-template').length, 1);
  const mem = a.nodes[0].allocatable.lines.memory;
  assert.deepEqual(mem.unknown, ['kubeReserved.memory', 'systemReserved.memory']);
  assert.equal(a.nodes[0].allocatable.podsUnknown, 'maxPods');
});

test('corpus 079: the Jinja value in a drop-in\'s ExecStartPre stays as systemd reads it, no finding', { skip: !CORPUS && 'no ../shared/corpus' }, () => {
  const dir = join(CORPUS!, 'files');
  const name = readdirSync(dir).find((n) => n.startsWith('079'))!;
  const a = analyze([{ path: name, text: readFileSync(join(dir, name), 'utf8') }]);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
});

/** Every single-line scalar value of the file's KubeletConfiguration documents. */
function scalarRanges(path: string, text: string): Range[] {
  const out: Range[] = [];
  const walk = (n: ConfigNode) => {
    if (n.kind === 'scalar') {
      if (n.span.range.start.line === n.span.range.end.line && n.span.range.end.character > n.span.range.start.character) out.push(n.span.range);
    } else if (n.kind === 'map') for (const e of n.entries) walk(e.value);
    else for (const i of n.items) walk(i);
  };
  for (const d of parseConfigFile(path, text).kubeletConfigs) for (const e of d.root.entries) if (e.key !== 'apiVersion' && e.key !== 'kind') walk(e.value);
  return out;
}

function replaceRange(text: string, r: Range, by: string): string {
  const lines = text.split('\n');
  const l = lines[r.start.line];
  lines[r.start.line] = l.slice(0, r.start.character) + by + l.slice(r.end.character);
  return lines.join('\n');
}

const errorsOf = (path: string, text: string) =>
  new Set(analyze([{ path, text }]).findings.filter((f) => f.severity === 'error').map((f) => `${f.code}@${f.range.start.line}`));

test('property: a placeholder as any scalar value of a corpus KubeletConfiguration never adds an error', { skip: !CORPUS && 'no ../shared/corpus' }, () => {
  const dir = join(CORPUS!, 'files');
  const files = readdirSync(dir)
    .filter((n) => n !== 'MANIFEST.tsv')
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))
    .filter((f) => detectKind(f.name, f.text) === 'kubelet-config' || detectKind(f.name, f.text) === 'kubeadm-config')
    .map((f) => ({ ...f, ranges: scalarRanges(f.name, f.text) }))
    .filter((f) => f.ranges.length > 0);
  assert.ok(files.length >= 10, `only ${files.length} corpus KubeletConfigurations`);
  const forms = ['{{ .value }}', '"{{ .value }}"', '{{- .Values.x | quote }}', '${value}', '"${value}"'];
  fc.assert(
    fc.property(fc.nat(files.length - 1), fc.nat(10_000), fc.nat(forms.length - 1), (fi, ri, k) => {
      const f = files[fi];
      const r = f.ranges[ri % f.ranges.length];
      const before = errorsOf(f.name, f.text);
      const after = errorsOf(f.name, replaceRange(f.text, r, forms[k]));
      const added = [...after].filter((e) => !before.has(e));
      assert.deepEqual(added, [], `${f.name} line ${r.start.line + 1} as ${forms[k]}`);
    }),
    { numRuns: Number(process.env.TPL_RUNS ?? 150), seed: Number(process.env.TPL_SEED ?? 20261201) },
  );
});
