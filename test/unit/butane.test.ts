/**
 * The Butane carrier (server/src/formats/butane.ts): units, drop-ins and storage.files inline contents are read as
 * the files Ignition writes, and everything about them lands in the Butane config. Field names: coreos/butane
 * base/v0_5/schema.go (Unit.contents/contents_local/dropins, Dropin, File.contents, Resource.inline/local/source).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { applyEdits } from '../helpers/edits.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { carrierProperty, fixesMatchBare } from '../helpers/carrier-property.ts';

const HOST = 'nodes/worker.bu';
const indent = (text: string, n: number) => text.replace(/^(?=.)/gm, ' '.repeat(n));

/** What Ignition would write from a Butane config: target -> content (inline contents and unit contents only). */
export function butaneFiles(text: string): Record<string, string> {
  const doc = parseDocument(text);
  assert.deepEqual(doc.errors, []);
  type U = { name: string; contents?: string; dropins?: { name: string; contents?: string }[] };
  const js = doc.toJS() as { systemd?: { units?: U[] }; storage?: { files?: { path: string; contents?: { inline?: string; source?: string } }[] } };
  const out: Record<string, string> = {};
  for (const u of js.systemd?.units ?? []) {
    if (u.contents !== undefined) out[`/etc/systemd/system/${u.name}`] = u.contents;
    for (const d of u.dropins ?? []) if (d.contents !== undefined) out[`/etc/systemd/system/${u.name}.d/${d.name}`] = d.contents;
  }
  for (const f of js.storage?.files ?? []) if (f.contents?.inline !== undefined) out[f.path] = f.contents.inline;
  // data: URLs (RFC 2397) as Ignition decodes them: base64, or percent-encoded (a plus stays a plus)
  for (const f of js.storage?.files ?? []) {
    const m = /^data:([^,]*),(.*)$/s.exec(f.contents?.source ?? '');
    if (m) out[f.path] = /;base64$/.test(m[1]) ? Buffer.from(m[2], 'base64').toString() : decodeURIComponent(m[2]);
  }
  return out;
}

const WORKER = `variant: fcos
version: 1.5.0
systemd:
  units:
    - name: kubelet.service
      enabled: true
      contents: |
        [Service]
        ExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --cadvisor-port=0 $KUBELET_EXTRA_ARGS
      dropins:
        - name: 20-args.conf
          contents: |
            [Service]
            Environment="KUBELET_EXTRA_ARGS=--kube-reserved=cpu=100m,memroy=1Gi"
storage:
  files:
    - path: /etc/kubernetes/kubelet.yaml
      mode: 0644
      contents:
        inline: |
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          evictionSoft:
            memory.available: 500Mi
`;

test('recognised by variant: and version: at column 0, whatever the file is called; never by an indented line', () => {
  assert.equal(detectKind('worker.bu', WORKER), 'butane');
  assert.equal(detectKind('x/worker.yaml', 'variant: flatcar\nversion: 1.0.0\n'), 'butane');
  assert.equal(detectKind('x.yaml', 'version: "1.4.0"\nvariant: "openshift"\n'), 'butane');
  // A payload holding Butane text, indented, does not make its carrier a Butane config.
  assert.equal(detectKind('x.yaml', 'spec:\n  config: |\n    variant: fcos\n    version: 1.5.0\n'), undefined);
  assert.equal(detectKind('x.yaml', 'variant: fcos\n'), undefined);
  assert.equal(detectKind('chart.yaml', 'variant: premium\nversion: 1.5.0\n'), undefined);
});

test('a unit, its drop-in and the inline config it names form one node; findings at the payload lines', () => {
  const a = analyze([{ path: HOST, text: WORKER }]);
  assert.deepEqual(a.nodes.map((n) => n.node.id), [`${HOST}//etc/systemd/system/kubelet.service`]);
  assert.deepEqual([...a.nodes[0].node.files].sort(), [
    `${HOST}//etc/kubernetes/kubelet.yaml`,
    `${HOST}//etc/systemd/system/kubelet.service`,
    `${HOST}//etc/systemd/system/kubelet.service.d/20-args.conf`,
  ]);
  const lines = WORKER.split('\n');
  const at = (f: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) =>
    lines[f.range.start.line].slice(f.range.start.character, f.range.end.character);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code} ${at(f)}`);
  assert.ok(got.includes('9 flag-removed --cadvisor-port'), got.join('\n'));
  assert.ok(got.some((g) => /^14 reserved-resource-unknown memroy/.test(g)), got.join('\n'));
  assert.ok(got.some((g) => /^24 eviction-soft-without-grace/.test(g)), got.join('\n'));
  for (const f of a.findings) assert.equal(f.file, HOST);
});

test('every quick fix applied to the Butane config leaves valid YAML whose payloads equal the bare files fixed', () => {
  assert.ok(fixesMatchBare(HOST, WORKER, butaneFiles(WORKER), butaneFiles) >= 3);
});

test('contents fetched or built elsewhere (local, contents_local, source, compression, append) are named as not checked', () => {
  const text = `variant: fcos
version: 1.5.0
systemd:
  units:
    - name: kubelet.service
      contents_local: units/kubelet.service
storage:
  files:
    - path: /etc/kubernetes/kubelet.yaml
      contents:
        local: kubelet.yaml
    - path: /etc/default/kubelet
      contents:
        source: https://example.com/kubelet.env
    - path: /var/lib/kubelet/config.yaml
      contents:
        compression: gzip
        source: data:;base64,H4sIAAAAAAAC/w==
    - path: /etc/motd
      contents:
        source: https://example.com/motd
`;
  const f = analyze([{ path: HOST, text }]).findings;
  assert.deepEqual(f.map((x) => `${x.code} ${x.severity} ${x.range.start.line + 1}`), [
    'payload-not-checked information 6',
    'payload-not-checked information 11',
    'payload-not-checked information 14',
    'payload-not-checked information 17',
  ]);
  assert.match(f[0].message, /^\/etc\/systemd\/system\/kubelet\.service is not checked: its content is read from a local file \(contents_local\)/);
  assert.match(f[2].message, /fetched from contents\.source/);
  assert.match(f[3].message, /compressed \(gzip\)/);
});

test('a data: URL in contents.source is the file, as Ignition reads it: percent-encoded edited in place, base64 re-encoded whole', () => {
  const config = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionSoft:\n  memory.available: 500Mi\n';
  const env = 'KUBELET_EXTRA_ARGS=--cadvisor-port=0 --max-pod=20\n';
  const text = `variant: fcos
version: 1.5.0
storage:
  files:
    - path: /var/lib/kubelet/config.yaml
      contents:
        source: data:;base64,${Buffer.from(config).toString('base64')}
    - path: /etc/default/kubelet
      contents:
        source: "data:,${encodeURIComponent(env)}"
`;
  const a = analyze([{ path: HOST, text }]);
  const got = a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`).sort();
  assert.deepEqual(got, ['10 flag-removed', '10 flag-unknown', '7 eviction-soft-without-grace', '7 reservations-missing']);
  // percent-encoded: each character at its escape; base64: at the start of the data
  const typo = a.findings.find((f) => f.code === 'flag-unknown')!;
  assert.equal(text.split('\n')[9].slice(typo.range.start.character, typo.range.end.character), '--max-pod');
  assert.equal(a.findings.find((f) => f.code === 'eviction-soft-without-grace')!.range.start.character, text.split('\n')[6].indexOf('base64,') + 7);
  assert.ok(fixesMatchBare(HOST, text, { '/var/lib/kubelet/config.yaml': config, '/etc/default/kubelet': env }, butaneFiles) >= 2);
  // a URL that is not data: is fetched when Ignition runs; a broken data: URL is said as such
  const bad = analyze([{ path: HOST, text: text.replace('"data:,', '"data:,%zz') }]).findings.filter((f) => f.code === 'payload-not-checked');
  assert.deepEqual(bad.map((f) => `${f.range.start.line + 1} ${f.message}`), ['10 /etc/default/kubelet is not checked: its data URL has a bad escape "%zz".']);
});

test('a Butane config that is not YAML: one syntax error', () => {
  const f = analyze([{ path: HOST, text: 'variant: fcos\nversion: 1.5.0\nsystemd: [\n' }]).findings;
  assert.deepEqual(f.map((x) => `${x.code} ${x.severity}`), ['config-syntax error']);
});

const embedded = corpusDir('corpus-embedded');
for (const name of ['022-butane-fcos-typhoon-worker.yaml', '023-butane-flatcar-typhoon-worker.yaml']) {
  test(`corpus-embedded ${name.slice(0, 3)} (typhoon, Terraform-templated): the container-run kubelet and its inline config are one node`, { skip: !embedded && 'no ../shared/corpus-embedded' }, () => {
    const text = readFileSync(join(embedded!, 'files', name), 'utf8');
    assert.equal(detectKind(name, text), 'butane');
    const a = analyze([{ path: name, text }]);
    assert.equal(a.nodes.length, 1);
    const node = a.nodes[0].node;
    assert.equal(node.id, `${name}//etc/systemd/system/kubelet.service`);
    assert.ok(node.files.includes(`${name}//etc/kubernetes/kubelet.yaml`));
    // The flags after the image are the kubelet's: --config= names the inline file; the podman/docker options are not.
    assert.ok(node.flags.some((f) => f.name === 'bootstrap-kubeconfig'));
    assert.ok(!node.flags.some((f) => f.name === 'privileged' || f.name === 'volume' || f.name === 'v'));
    const scalar = (k: string) => { const s = node.settings.get(k); return s?.kind === 'scalar' ? s.value : undefined; };
    assert.equal(scalar('cgroupDriver'), 'systemd');
    assert.equal(scalar('shutdownGracePeriod'), '45s');
    // No reservations: allocatable memory is capacity less the 100Mi eviction default only (MANIFEST: risk).
    const mem = a.nodes[0].allocatable!.lines.memory;
    assert.equal(mem.kubeReserved + mem.systemReserved, 0n);
    const lines = text.split('\n');
    // The MANIFEST's risk as the tool's rules see it: reservations-missing, in the inline KubeletConfiguration.
    const missing = a.findings.filter((f) => f.code === 'reservations-missing');
    assert.equal(missing.length, 1);
    assert.match(lines[missing[0].range.start.line], /^ {10}kind: KubeletConfiguration$/);
    // No errors or warnings: the Terraform directives (`%{ for }` inside the unit) and placeholders are the template's,
    // and the directives get one note.
    assert.deepEqual(a.findings.filter((x) => x.severity === 'error' || x.severity === 'warning').map((f) => `${f.range.start.line + 1} ${f.code}`), []);
    const note = a.findings.filter((f) => f.code === 'config-template');
    assert.equal(note.length, 1);
    assert.match(lines[note[0].range.start.line], /^ {10}%\{/);
    assert.ok(a.findings.some((f) => f.code === 'flag-deprecated' && /container-runtime-endpoint/.test(f.message)));
  });
}

const corpus = corpusDir('corpus');
const blockable = (t: string) => /^[^\s]/.test(t) && t.endsWith('\n') && !t.endsWith('\n\n') && !/[\r\t]|[ ]\n|[\x00-\x08\x0b-\x1f\x7f\u2028\u2029\ufeff]/.test(t);
test('every corpus node file written by a Butane storage.files inline: the same findings, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes } = carrierProperty(corpus!, {
    host: HOST,
    wrap: (target, text) =>
      `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: ${target}\n      contents:\n` +
      (blockable(text) ? `        inline: |\n${indent(text, 10)}` : `        inline: ${JSON.stringify(text)}\n`),
    read: butaneFiles,
  });
  assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
});

test('every corpus node file as a Butane contents.source data: URL (percent-encoded): the same findings, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes } = carrierProperty(corpus!, {
    host: HOST,
    wrap: (target, text) => `variant: fcos\nversion: 1.5.0\nstorage:\n  files:\n    - path: ${target}\n      contents:\n        source: "data:,${encodeURIComponent(text)}"\n`,
    read: butaneFiles,
  });
  assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
});

test('docs/formats/butane.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/butane.md'), 'utf8');
  const text = page.split('```yaml\n')[1].split('```')[0];
  const a = analyze([{ path: 'worker.bu', text }]);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), ['14 flag-deprecated', '14 reserved-resource-unknown', '24 eviction-soft-without-grace']);
  assert.equal(a.nodes.length, 1);
  assert.equal(a.nodes[0].node.files.length, 3);
});

test('a kubelet run in a container: the words after a kubelet image are its flags; another image is not the kubelet', () => {
  const unit = (exec: string) => analyze([{ path: 'kubelet.service', text: `[Service]\nExecStart=${exec}\n` }]).nodes[0]?.node;
  const podman = unit('/usr/bin/podman run --name kubelet --privileged --pid host -v /run:/run quay.io/poseidon/kubelet:v1.36.1 --max-pods=50');
  assert.deepEqual(podman?.flags.map((f) => `${f.name}=${f.value}`), ['max-pods=50']);
  // An image whose command is given: `kubelet` (the binary's name) is not an argument.
  const nerdctl = unit('/usr/local/bin/nerdctl container run --rm --network=host registry.k8s.io/kubelet:v1.36.0 kubelet --v=2');
  assert.deepEqual(nerdctl?.flags.map((f) => `${f.name}=${f.value}`), ['v=2']);
  const other = unit('/usr/bin/docker run --rm busybox --max-pods=50');
  assert.deepEqual(other?.flags ?? [], []);
});

test('every corpus node file as a Butane unit\'s contents: the same findings, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes } = carrierProperty(corpus!, {
    host: HOST,
    target: (name) => `/etc/systemd/system/${name}`,
    wrap: (target, text) =>
      `variant: flatcar\nversion: 1.0.0\nsystemd:\n  units:\n    - name: ${target.split('/').pop()}\n` +
      (blockable(text) ? `      contents: |\n${indent(text, 8)}` : `      contents: ${JSON.stringify(text)}\n`),
    read: butaneFiles,
  });
  assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
});

test('a Terraform directive in a unit (%{ if }, %{ for }) is the template\'s: no systemd or kubelet finding at it', () => {
  const text = '[Service]\nExecStart=/usr/bin/kubelet \\\n  %{ if cloud_provider != null ~}\n  --cloud-provider=${cloud_provider} \\\n  %{ endif ~}\n  --v=2\n';
  const f = analyze([{ path: 'kubelet.service', text }]).findings;
  assert.deepEqual(f.filter((x) => x.severity === 'error' || x.severity === 'warning').map((x) => `${x.range.start.line + 1} ${x.code} ${x.message}`), []);
});
