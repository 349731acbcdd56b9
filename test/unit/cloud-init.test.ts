/**
 * The cloud-init carrier (server/src/formats/cloud-init.ts): write_files payloads are analysed as the files they
 * write, and everything about them lands in the #cloud-config file. Each test compares with the same files
 * analysed bare, on disk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { analyze } from '../../server/src/engine.ts';
import { CARRIER_KINDS, detectKind } from '../../server/src/registry.ts';
import { hover } from '../../server/src/features/hover.ts';
import { codeLensesIn, completionAt, hoverAt, inlayHintsIn, refactorActionsAt } from '../../server/src/features/embedded.ts';
import { refactorsAt } from '../../server/src/features/refactors/index.ts';
import { inlayHints } from '../../server/src/features/inlay-hints.ts';
import { codeLenses } from '../../server/src/features/code-lens.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { placeholderBlind } from '../helpers/messages.ts';
import { rangeToHost, readableText } from '../../server/src/embed/to-host.ts';
import { payloadOf } from '../../server/src/features/locate.ts';
import { applyEdits } from '../helpers/edits.ts';
import { corpusDir } from '../helpers/corpus.ts';

const UNIT = `[Service]
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --allow-privileged=true $KUBELET_EXTRA_ARGS
`;
const DROPIN = `[Service]
Environment="KUBELET_EXTRA_ARGS=--max-pods=abc"
EnvironmentFile=-/etc/default/kubelet
`;
const ENV = `KUBELET_EXTRA_ARGS=--cadvisor-port=0
`;
const CONFIG = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration

evictionSoft:
  memory.available: 200Mi
kubeReserved:
  memroy: 1Gi
`;

const BARE: Record<string, string> = {
  '/etc/systemd/system/kubelet.service': UNIT,
  '/etc/systemd/system/kubelet.service.d/20-x.conf': DROPIN,
  '/etc/default/kubelet': ENV,
  '/var/lib/kubelet/config.yaml': CONFIG,
};

const indent = (text: string, n: number) => text.replace(/^(?=.)/gm, ' '.repeat(n));

/** A #cloud-config writing BARE's files as literal block scalars; and where each payload's first line is. */
function carrier(files: Record<string, string>): { text: string; firstLine: Record<string, number> } {
  let text = '#cloud-config\nwrite_files:\n';
  const firstLine: Record<string, number> = {};
  for (const [path, content] of Object.entries(files)) {
    text += `  - path: ${path}\n    permissions: '0644'\n    content: |\n`;
    firstLine[path] = text.split('\n').length - 1;
    text += indent(content, 6);
  }
  return { text: text + 'runcmd:\n  - systemctl daemon-reload\n', firstLine };
}

const HOST = 'nodes/a/user-data';
const bareFiles = () => Object.entries(BARE).map(([p, text]) => ({ path: 'disk' + p, text }));
const key = (f: Finding) => `${f.code} ${f.severity} ${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character} ${f.message}`;

/** Messages name files; the payload `user-data → /etc/...` stands where the disk path `disk/etc/...` stood. */
const samePaths = (m: string) => m.replaceAll(`${HOST} → /`, 'disk/');

test('a #cloud-config first line makes a carrier, whatever the file is called; a payload never makes its carrier a kubelet file', () => {
  assert.equal(detectKind('user-data', '#cloud-config\n'), 'cloud-init');
  assert.equal(detectKind('x/cloud.cfg', '#cloud-config\nwrite_files: []\n'), 'cloud-init');
  assert.equal(detectKind('x.yaml', '## template: jinja\n#cloud-config\n'), 'cloud-init');
  assert.equal(detectKind('x.yaml', carrier(BARE).text), 'cloud-init');
  assert.equal(detectKind('x.yaml', '# a comment\n#cloud-config\n'), undefined); // cloud-init looks at the first line only
});

test('findings inside write_files payloads land at the payload lines of the carrier, exactly where the bare files have them', () => {
  const { text, firstLine } = carrier(BARE);
  const inHost = analyze([{ path: HOST, text }]).findings;
  const bare = analyze(bareFiles()).findings;
  assert.ok(bare.length >= 5, bare.map(key).join('\n'));
  const want = bare
    .map((f) => {
      const target = f.file.slice('disk'.length);
      const l = firstLine[target];
      const r = f.range;
      return `${f.code} ${f.severity} ${r.start.line + l}:${r.start.character + 6}-${r.end.line + l}:${r.end.character + 6} ${f.message}`;
    })
    .sort();
  assert.deepEqual(inHost.map((f) => samePaths(key(f))).sort(), want);
  for (const f of inHost) assert.equal(f.file, HOST);
});

test('a payload drop-in joins the payload unit, and the unit reads the payload config and env file it names', () => {
  const a = analyze([{ path: HOST, text: carrier(BARE).text }]);
  assert.deepEqual(a.nodes.map((n) => n.node.id), [`${HOST}//etc/systemd/system/kubelet.service`]);
  assert.deepEqual([...a.nodes[0].node.files].sort(), Object.keys(BARE).map((p) => `${HOST}/${p}`).sort());
  // KUBELET_EXTRA_ARGS of the env file the drop-in names wins over the drop-in's Environment=; evictionSoft is the config's
  assert.ok(a.findings.some((f) => f.code === 'flag-removed' && /cadvisor-port/.test(f.message)));
  assert.ok(!a.findings.some((f) => /max-pods/.test(f.message)));
  assert.ok(a.findings.some((f) => f.code === 'eviction-soft-without-grace'));
});

test('every quick fix applied to the carrier, then re-read, gives the payload the fix gives the bare file', () => {
  const { text } = carrier(BARE);
  const inHost = analyze([{ path: HOST, text }]).findings.filter((f) => f.fixes?.length);
  const bare = analyze(bareFiles()).findings.filter((f) => f.fixes?.length);
  assert.ok(inHost.length >= 3, inHost.map(key).join('\n'));
  assert.equal(inHost.length, bare.length);
  const bareByKey = new Map(bare.map((f) => [`${f.code} ${f.message}`, f]));
  for (const f of inHost) {
    const b = bareByKey.get(samePaths(`${f.code} ${f.message}`));
    assert.ok(b, `no bare finding for ${key(f)}`);
    for (const [i, fix] of f.fixes!.entries()) {
      const fixed = applyEdits(text, fix.edits, HOST);
      const payloads = writeFiles(fixed);
      for (const [target, bareText] of Object.entries(BARE)) {
        const want = applyEdits(bareText, b.fixes![i].edits, 'disk' + target);
        assert.equal(payloads[target], want, `${fix.title} (${f.code}) on ${target}`);
      }
    }
  }
});

/** What cloud-init would write: path -> content of each write_files entry. */
function writeFiles(text: string): Record<string, string> {
  const doc = parseDocument(text);
  assert.deepEqual(doc.errors, []);
  const out: Record<string, string> = {};
  for (const e of (doc.toJS() as { write_files: { path: string; content: string }[] }).write_files) out[e.path] = e.content;
  return out;
}

test('hover inside a payload: the bare file\'s hover, its range moved to the carrier', () => {
  const { text, firstLine } = carrier(BARE);
  const a = analyze([{ path: HOST, text }]);
  const b = analyze(bareFiles());
  const line = firstLine['/etc/systemd/system/kubelet.service'] + 1;
  const col = text.split('\n')[line].indexOf('--config') + 3;
  const h = hoverAt(a, HOST, { line, character: col });
  const bh = hover(b, 'disk/etc/systemd/system/kubelet.service', { line: 1, character: col - 6 });
  assert.ok(h && bh);
  assert.deepEqual(h.contents, bh.contents);
  assert.deepEqual(h.range, { start: { line, character: bh.range!.start.character + 6 }, end: { line, character: bh.range!.end.character + 6 } });
  assert.equal(hoverAt(a, HOST, { line: 0, character: 3 }), null); // the carrier's own text
});

test('completion inside a payload config: items edit the carrier at the payload line, indented for the block', () => {
  const files = { '/var/lib/kubelet/config.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPo\n' };
  const { text, firstLine } = carrier(files);
  const a = analyze([{ path: HOST, text }]);
  const line = firstLine['/var/lib/kubelet/config.yaml'] + 2;
  const items = completionAt(a, HOST, { line, character: 6 + 5 });
  const item = items.find((i) => i.label === 'maxPods');
  assert.ok(item && item.textEdit && 'range' in item.textEdit, JSON.stringify(items.slice(0, 3)));
  assert.equal(item.textEdit.range.start.line, line);
  assert.equal(item.textEdit.range.start.character, 6);
  const fixed = applyEdits(text, [{ file: HOST, ...item.textEdit }], HOST);
  assert.match(writeFiles(fixed)['/var/lib/kubelet/config.yaml'], /^maxPods:/m);
});

test('inlay hints and code lenses of the payload unit and config show up at their lines in the carrier', () => {
  const { text, firstLine } = carrier(BARE);
  // A capacity, so that there is an inlay hint (none without one).
  const capacity = { cpu: 4000n, memory: 16n << 30n, 'ephemeral-storage': 100n << 30n, hugepages: new Map() };
  const a = analyze([{ path: HOST, text }], { capacity });
  const b = analyze(bareFiles(), { capacity });
  const all = { start: { line: 0, character: 0 }, end: { line: 999, character: 0 } };
  const got = inlayHintsIn(a, HOST, all).map((h) => `${h.position.line}:${h.position.character} ${h.label}`).sort();
  const want = Object.keys(BARE).flatMap((p) =>
    inlayHints(b, 'disk' + p, all).map((h) => `${h.position.line + firstLine[p]}:${h.position.character + 6} ${h.label}`),
  );
  assert.ok(want.length >= 1);
  assert.deepEqual(got, want.sort());
  const lenses = codeLensesIn(a, HOST, 'file:///x/user-data').map((l) => `${l.range.start.line}:${l.range.start.character} ${l.command!.title}`);
  const bareLenses = Object.keys(BARE).flatMap((p) => codeLenses(b, 'disk' + p, 'u').map((l) => `${l.range.start.line + firstLine[p]}:${l.range.start.character + 6} ${l.command!.title}`));
  assert.ok(bareLenses.length >= 1);
  assert.deepEqual(lenses.sort(), bareLenses.sort());
});

test('quoted and plain content: findings at the escaped text, fixes written back escaped', () => {
  const text = `#cloud-config
write_files:
- path: /etc/systemd/system/kubelet.service
  content: "[Service]\\nExecStart=/usr/bin/kubelet --allow-privileged=true \\"--node-labels=a=b\\"\\n"
- path: /etc/default/kubelet
  content: KUBELET_EXTRA_ARGS=--cadvisor-port=0
`;
  const a = analyze([{ path: HOST, text }]);
  const removed = a.findings.filter((f) => f.code === 'flag-removed');
  assert.equal(removed.length, 2, a.findings.map(key).join('\n'));
  const lines = text.split('\n');
  for (const f of removed) {
    const word = f.message.match(/--[a-z-]+/)![0];
    assert.equal(lines[f.range.start.line].slice(f.range.start.character, f.range.start.character + word.length), word);
    for (const fix of f.fixes ?? []) {
      const after = writeFiles(applyEdits(text, fix.edits, HOST));
      assert.doesNotMatch(after[f.range.start.line === 3 ? '/etc/systemd/system/kubelet.service' : '/etc/default/kubelet'], new RegExp(word));
    }
  }
});

test('b64 content is decoded as cloud-init decodes it; gzip content is reported as not checked, never guessed', () => {
  const text = `#cloud-config
write_files:
- path: /etc/systemd/system/kubelet.service.d/20-x.conf
  encoding: b64
  content: W1NlcnZpY2VdCkVudmlyb25tZW50PSJLVUJFTEVUX0VYVFJBX0FSR1M9LS1tYXgtcG9kcz1hYmMiCg==
- path: /etc/systemd/system/kubelet.service.d/30-y.conf
  encoding: gzip
  content: H4sIAAAAAAACA4sOTi0qy0xOjeVyzSvLLMrPy03NK7FV8g51cvVxDYl3jQgJcox3DHIPttXVLbM1UuICAETl9kMxAAAA
`;
  const a = analyze([{ path: HOST, text }]);
  assert.deepEqual(a.findings.map((x) => `${x.code} ${x.severity} ${x.range.start.line}`), ['payload-not-checked information 7']);
  assert.match(a.findings[0].message, /^\/etc\/systemd\/system\/kubelet\.service\.d\/30-y\.conf is not checked: its content is encoded \(gzip\)/);
  // The b64 entry is the drop-in it decodes to.
  assert.equal(a.payloads?.get(`${HOST}//etc/systemd/system/kubelet.service.d/20-x.conf`)?.payload.text, '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--max-pods=abc"\n');
});

test('a payload that template expressions keep from parsing gets one information finding, no syntax errors', () => {
  const text = `#cloud-config
write_files:
- path: /var/lib/kubelet/config.yaml
  content: |
    apiVersion: kubelet.config.k8s.io/v1beta1
    kind: KubeletConfiguration
    {{- if .Values.reserve }}
    kubeReserved: {cpu: 100m}
    {{- end }}
- path: /etc/default/kubelet
  content: |
    {{- if .debug }}
    KUBELET_EXTRA_ARGS=--v=4
    {{- end }}
- path: /etc/systemd/system/kubelet.service.d/30-pre.conf
  content: |
    [Service]
    ExecStartPre={{ prefix }}/bin/prepare --cadvisor-port=0
`;
  const f = analyze([{ path: HOST, text }]).findings;
  // The cloud-config's template directives are read as such (issue #16, docs/templates.md): each payload is checked on
  // its literal lines, and the carrier gets one config-template finding at its first directive.
  assert.deepEqual(f.map((x) => `${x.code} ${x.severity} ${x.range.start.line}`), ['config-template information 6']);
  assert.match(f[0].message, /^Template directives decide which lines this cloud-config has/);
});

test('a cloud-config that is not YAML: one syntax error; with template expressions: one information finding', () => {
  const bad = analyze([{ path: HOST, text: '#cloud-config\nwrite_files:\n  - path: /x\n content: [\n' }]).findings;
  assert.deepEqual(bad.map((x) => `${x.code} ${x.severity}`), ['config-syntax error']);
  // Template expressions that still break the YAML once masked (parse/template.ts): not checked, one finding.
  const tpl = analyze([{ path: HOST, text: '#cloud-config\nwrite_files:\n  - path: /etc/default/kubelet\n    content: {{ .a }}: {{ .b }}: c\n' }]).findings;
  assert.deepEqual(tpl.map((x) => `${x.code} ${x.severity}`), ['payload-not-checked information']);
  // Directives around entries: the entries are read; a path that is an expression is not.
  const loop = analyze([{ path: HOST, text: '#cloud-config\nwrite_files:\n{{ range .files }}\n  - path: /etc/default/kubelet\n    content: "KUBELET_EXTRA_ARGS=--v={{ .v }}\\nKUBELET_ARGS=--max-pods=x"\n  - path: {{ .path }}\n    content: "KUBELET_EXTRA_ARGS=--max-pods=x"\n{{ end }}\n' }]).findings;
  const seen = loop.filter((x) => x.severity !== 'hint');
  assert.deepEqual(seen.map((x) => `${x.code} ${x.severity} ${x.range.start.line}`), ['config-template information 2', 'flag-value-invalid error 4']);
  assert.equal(seen[1].range.start.character, 71, 'at the literal mistake, beside the placeholder');
});

const embedded = corpusDir('corpus-embedded');
test('corpus-embedded 021 (Go-templated cloud-config): a carrier; its placeholders are unknown values, its two real gate mistakes found', { skip: !embedded && 'no ../shared/corpus-embedded' }, () => {
  const name = '021-cloudinit-cloud-config-kubeletconfiguration.yaml';
  const text = readFileSync(join(embedded!, 'files', name), 'utf8');
  assert.equal(detectKind(name, text), 'cloud-init');
  const f = analyze([{ path: name, text }], { kubernetesVersion: '1.35' }).findings;
  // MANIFEST: SizeMemoryBackedVolumes is removed, ExecProbeTimeout=false refused once the gate is locked.
  assert.deepEqual(f.map((x) => `${x.range.start.line + 1} ${x.code}`), ['10 config-template', '70 feature-gate-removed', '72 feature-gate-locked']);
});

test('docs/formats/cloud-init.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/cloud-init.md'), 'utf8');
  const text = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'user-data', text }]);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), ['10 flag-deprecated', '10 reserved-resource-unknown', '16 eviction-soft-without-grace']);
  assert.equal(a.nodes.length, 1);
  // The inlay hint needs a capacity (without one the status bar alone says so).
  const withCapacity = analyze([{ path: 'user-data', text }], { capacity: { cpu: 4000n, memory: 16n << 30n, 'ephemeral-storage': 100n << 30n, hugepages: new Map() } });
  const line6 = inlayHintsIn(withCapacity, 'user-data', { start: { line: 0, character: 0 }, end: { line: 30, character: 0 } }).map((h) => h.position.line + 1);
  assert.ok(line6.includes(6), String(line6));
});

/** `text` as the content of a write_files entry: a literal block when it can be one, else a double-quoted string. */
function entry(path: string, text: string): { yaml: string; block: boolean } {
  const blockable = /^[^\s]/.test(text) && text.endsWith('\n') && !text.endsWith('\n\n') && !/[\r\t]|[ ]\n|[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\ufeff]/.test(text);
  if (blockable) return { yaml: `  - path: ${path}\n    content: |\n${indent(text, 6)}`, block: true };
  return { yaml: `  - path: ${path}\n    content: ${JSON.stringify(text)}\n`, block: false };
}

const corpus = corpusDir('corpus');
test('every corpus node file written by a cloud-config: the same findings at the mapped places, the same allocatable, the same quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  let blocks = 0;
  let quoted = 0;
  let fixes = 0;
  for (const name of readdirSync(join(corpus!, 'files')).sort()) {
    const text = readFileSync(join(corpus!, 'files', name), 'utf8');
    const bare = analyze([{ path: `disk/${name}`, text }]);
    if (!bare.nodes.length && !bare.findings.length) continue;
    // A script is itself a carrier: its files are paths of its own (shell.test.ts covers scripts in a cloud-config).
    if (CARRIER_KINDS.has(detectKind(name, text)!)) continue;
    const e = entry(`/${name}`, text);
    e.block ? blocks++ : quoted++;
    const host = '#cloud-config\nwrite_files:\n' + e.yaml;
    const inHost = analyze([{ path: HOST, text: host }]);
    assert.deepEqual(inHost.nodes.map((n) => n.allocatable), bare.nodes.map((n) => n.allocatable), name);
    const payload = inHost.files.get(HOST)!.embedded![0];
    assert.equal(payload.text, text, name);
    // Each bare finding, moved through the payload's map, is a carrier finding.
    // (A placeholder is a condition in a file alone and a mistake in a file the carrier writes onto the machine as it
    // holds it, node/placeholders.ts: the same finding at the same place, in other words.)
    const words = placeholderBlind;
    const want = bare.findings.map((f) => `${f.code} ${JSON.stringify(rangeToHost(payload, f.range))} ${words(f, f.message)}`).sort();
    const got = inHost.findings.map((f) => `${f.code} ${JSON.stringify(f.range)} ${words(f, samePaths(f.message))}`).sort();
    assert.deepEqual(got, want, name);
    // Every quick fix, applied to the carrier: a valid cloud-config whose entry is the bare file with the fix.
    const bareByPlace = new Map(bare.findings.map((f) => [`${f.code} ${JSON.stringify(rangeToHost(payload, f.range))} ${words(f, f.message)}`, f]));
    for (const f of inHost.findings) {
      const b = bareByPlace.get(`${f.code} ${JSON.stringify(f.range)} ${words(f, samePaths(f.message))}`)!;
      assert.equal(f.fixes?.length ?? 0, b.fixes?.length ?? 0, `${name}: ${key(f)} lost a fix`);
      for (const [i, fix] of (f.fixes ?? []).entries()) {
        fixes++;
        assert.equal(writeFiles(applyEdits(host, fix.edits, HOST))[`/${name}`], applyEdits(text, b.fixes![i].edits, `disk/${name}`), `${name}: ${fix.title}`);
      }
    }
    if (e.block) {
      // In a literal block every line is the bare line, 4 lines down and 6 columns right.
      for (const f of inHost.findings) assert.ok(f.range.start.line >= 4 && (f.range.start.character >= 6 || host.split('\n')[f.range.start.line].trim() === ''), `${name}: ${key(f)}`);
    }
  }
  assert.ok(blocks > 20 && quoted > 5 && fixes >= 10, `${blocks} block, ${quoted} quoted, ${fixes} fixes`);
});

test('refactors inside a payload (move flags into the config file): applied to the carrier, the entries equal the bare files refactored', () => {
  const files: Record<string, string> = {
    '/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --max-pods=50 --kube-reserved=cpu=100m\n',
    '/var/lib/kubelet/config.yaml': 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDomain: cluster.local\n',
  };
  const { text, firstLine } = carrier(files);
  const a = analyze([{ path: HOST, text }]);
  const b = analyze(Object.entries(files).map(([p, t]) => ({ path: 'disk' + p, text: t })));
  const line = firstLine['/etc/systemd/system/kubelet.service'] + 1;
  const col = text.split('\n')[line].indexOf('--max-pods') + 2;
  const got = refactorActionsAt(a, HOST, { start: { line, character: col }, end: { line, character: col } }, (p) => p);
  const want = refactorsAt(b, 'disk/etc/systemd/system/kubelet.service', { start: { line: 1, character: col - 6 }, end: { line: 1, character: col - 6 } });
  assert.ok(want.length >= 1);
  assert.deepEqual(got.map((x) => x.title), want.map((x) => x.title));
  for (const [i, action] of got.entries()) {
    const edits = Object.entries(action.edit!.changes!).flatMap(([file, es]) => es.map((e) => ({ file, ...e })));
    assert.ok(edits.every((e) => e.file === HOST));
    const after = writeFiles(applyEdits(text, edits, HOST));
    for (const [p, t] of Object.entries(files)) {
      const bareEdits = want[i].edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText }));
      assert.equal(after[p], applyEdits(t, bareEdits, 'disk' + p), `${action.title}: ${p}`);
    }
  }
});

test('two entries for one path: the last one is the file; append: true and a folded block are not guessed at', () => {
  const text = `#cloud-config
write_files:
- path: /etc/default/kubelet
  content: |
    KUBELET_EXTRA_ARGS=--cadvisor-port=0
- path: /etc/default/kubelet
  content: |
    KUBELET_EXTRA_ARGS=--v=2 --cadvisor-port=0
- path: /etc/sysconfig/kubelet
  append: true
  content: |
    KUBELET_EXTRA_ARGS=--cadvisor-port=0
- path: /etc/systemd/system/kubelet.service
  content: >
    [Service]

    ExecStart=/usr/bin/kubelet --cadvisor-port=0
`;
  const f = analyze([{ path: HOST, text }]).findings;
  assert.deepEqual(f.map((x) => `${x.code} ${x.range.start.line}`), ['flag-removed 7', 'payload-not-checked 10', 'reservations-missing 13', 'flag-removed 13']);
  assert.equal(text.split('\n')[7].slice(f[0].range.start.character, f[0].range.end.character), '--cadvisor-port');
  // A folded block's text is not the lines as written: its findings are at the start of the value (the `>`), with no fix.
  assert.equal(text.split('\n')[13].slice(f[2].range.start.character), '>');
  assert.equal(f[2].fixes, undefined);
});

test('a cloud-config with CRLF line ends: findings at the same places, fixes written with CRLF and equal to the bare fixes', () => {
  const { text } = carrier(BARE);
  const crlf = text.replace(/\n/g, '\r\n');
  const lf = analyze([{ path: HOST, text }]).findings;
  const inHost = analyze([{ path: HOST, text: crlf }]).findings;
  assert.deepEqual(inHost.map(key), lf.map(key));
  let checked = 0;
  for (const [n, f] of inHost.entries()) {
    for (const [i, fix] of (f.fixes ?? []).entries()) {
      const fixed = applyEdits(crlf, fix.edits, HOST);
      assert.doesNotMatch(fixed, /[^\r]\n/, `${fix.title}: a bare LF`);
      assert.deepEqual(writeFiles(fixed), writeFiles(applyEdits(text, lf[n].fixes![i].edits, HOST)), fix.title);
      checked++;
    }
  }
  assert.ok(checked >= 3);
});

test('readableText: payload paths read `carrier → /target`, places in them the carrier\'s line; URLs and other paths stay', () => {
  const host = 'nodes/user-data.yaml';
  const text = '#cloud-config\nwrite_files:\n  - path: /etc/kubernetes/kubelet.env\n    content: |\n      KUBELET_ARGS=--max-pods=20\n';
  const a = analyze([{ path: host, text }]);
  const lookup = payloadOf(a);
  const p = `${host}//etc/kubernetes/kubelet.env`;
  assert.ok(lookup(p), 'the env file is a payload');
  assert.equal(readableText(`Node ${p}.`, lookup), `Node ${host} → /etc/kubernetes/kubelet.env.`);
  assert.equal(readableText(`set in ${p} line 1 (see ${p})`, lookup), `set in ${host} line 5 (see ${host} → /etc/kubernetes/kubelet.env)`);
  const other = '--container-runtime-endpoint=unix:///run/containerd/containerd.sock, https://kubernetes.io/docs, other.yaml//etc/x';
  assert.equal(readableText(other, lookup), other);
  assert.equal(readableText('/'.repeat(20000), lookup), '/'.repeat(20000), 'a run of slashes is no path (and is read once)');
});
