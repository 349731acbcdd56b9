/**
 * The Ignition carrier (server/src/formats/ignition.ts): unit and drop-in contents (JSON strings) and data: URL
 * file contents are read as the files Ignition writes; findings land in the JSON at the escapes, and fixes are
 * written back escaped (percent-encoded data) or re-encode the whole data (base64). Decoding here is independent
 * of the carrier's own (decodeURIComponent, Buffer), so it checks the maps.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { hover } from '../../server/src/features/hover.ts';
import { hoverAt } from '../../server/src/features/embedded.ts';
import { applyEdits } from '../helpers/edits.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { carrierProperty, fixesMatchBare } from '../helpers/carrier-property.ts';

const HOST = 'nodes/worker.ign';

/** What Ignition would write: target -> content (data URLs decoded; the JSON must stay valid). */
export function ignitionFiles(text: string): Record<string, string> {
  type R = { source?: string };
  const js = JSON.parse(text) as { systemd?: { units?: { name: string; contents?: string; dropins?: { name: string; contents?: string }[] }[] }; storage?: { files?: { path: string; contents?: R }[] } };
  const out: Record<string, string> = {};
  for (const u of js.systemd?.units ?? []) {
    if (u.contents !== undefined) out[`/etc/systemd/system/${u.name}`] = u.contents;
    for (const d of u.dropins ?? []) if (d.contents !== undefined) out[`/etc/systemd/system/${u.name}.d/${d.name}`] = d.contents;
  }
  for (const f of js.storage?.files ?? []) {
    const m = /^data:([^,]*),(.*)$/s.exec(f.contents?.source ?? '');
    if (!m) continue;
    out[f.path] = /;base64$/.test(m[1]) ? Buffer.from(m[2], 'base64').toString('utf8') : decodeURIComponent(m[2]);
  }
  return out;
}

const pct = (s: string) => encodeURIComponent(s);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

const UNIT = '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml $KUBELET_EXTRA_ARGS\n';
const DROPIN = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--kube-reserved=cpu=100m,memroy=1Gi --cadvisor-port=0"\n';
const CONFIG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionSoft:\n  memory.available: 500Mi\n';

function worker(encode: (s: string) => string, prefix: string): string {
  return JSON.stringify({
    ignition: { version: '3.4.0' },
    systemd: { units: [{ name: 'kubelet.service', enabled: true, contents: UNIT, dropins: [{ name: '20-args.conf', contents: DROPIN }] }] },
    storage: { files: [{ path: '/etc/kubernetes/kubelet.yaml', mode: 420, contents: { source: prefix + encode(CONFIG) } }] },
  }, null, 2) + '\n';
}

test('recognised by a top-level ignition.version, never by an indented or nested one', () => {
  assert.equal(detectKind('worker.ign', worker(pct, 'data:,')), 'ignition');
  assert.equal(detectKind('x/config.json', '{"ignition":{"version":"3.4.0"}}'), 'ignition');
  assert.equal(detectKind('x/config.json', '{"passwd": {}, "ignition": {"version": "2.3.0"}}'), 'ignition');
  assert.equal(detectKind('x/config.json', '{"spec": {"ignition": {"version": "3.4.0"}}}'), undefined);
  assert.equal(detectKind('x/config.json', '{"ignition": "yes"}'), undefined);
});

test('units, drop-ins and a percent-encoded data: URL form one node; findings cover the escapes of the text they name', () => {
  const text = worker(pct, 'data:,');
  const a = analyze([{ path: HOST, text }]);
  assert.deepEqual(a.nodes.map((n) => n.node.files.length), [3]);
  const lines = text.split('\n');
  const at = (f: { range: { start: { line: number; character: number }; end: { line: number; character: number } } }) =>
    lines[f.range.start.line].slice(f.range.start.character, f.range.end.character);
  const got = new Map(a.findings.map((f) => [f.code, at(f)]));
  assert.equal(got.get('flag-removed'), '--cadvisor-port');
  assert.equal(got.get('reserved-resource-unknown'), 'memroy');
  // In the data URL: "evictionSoft:\n  memory.available" is written evictionSoft%3A%0A%20%20memory.available.
  assert.match(got.get('eviction-soft-without-grace')!, /^(evictionSoft|memory\.available)/);
  for (const f of a.findings) assert.equal(f.file, HOST);
});

for (const [label, enc, prefix] of [['percent-encoded', pct, 'data:,'], ['base64', b64, 'data:text/plain;charset=utf-8;base64,']] as const) {
  test(`every quick fix applied to the Ignition JSON (${label} data) leaves valid JSON whose files equal the bare files fixed`, () => {
    const text = worker(enc, prefix);
    const inHost = analyze([{ path: HOST, text }]).findings.filter((f) => f.fixes?.length);
    assert.ok(inHost.some((f) => f.code === 'eviction-soft-without-grace'));
    assert.ok(fixesMatchBare(HOST, text, ignitionFiles(text), ignitionFiles) >= 2);
  });
}

test('base64 data: findings at the start of the data, in the JSON file', () => {
  const text = worker(b64, 'data:;base64,');
  const f = analyze([{ path: HOST, text }]).findings.find((x) => x.code === 'eviction-soft-without-grace')!;
  const line = text.split('\n')[f.range.start.line];
  assert.equal(line.slice(f.range.start.character - 'data:;base64,'.length, f.range.start.character), 'data:;base64,');
});

test('compression, remote sources, append and bad data URLs are named as not checked, never guessed', () => {
  const text = JSON.stringify({
    ignition: { version: '3.4.0' },
    storage: {
      files: [
        { path: '/etc/kubernetes/kubelet.yaml', contents: { compression: 'gzip', source: 'data:;base64,H4sIAAAAAAAC/w==' } },
        { path: '/etc/default/kubelet', contents: { source: 'https://example.com/kubelet.env' } },
        { path: '/var/lib/kubelet/config.yaml', append: [{ source: 'data:,maxPods%3A%2010%0A' }] },
        { path: '/etc/systemd/system/kubelet.service.d/10-x.conf', contents: { source: 'data:,%ZZ' } },
        { path: '/etc/motd', contents: { source: 'https://example.com/motd' } },
      ],
    },
  }, null, 1);
  const f = analyze([{ path: HOST, text }]).findings;
  assert.deepEqual(f.map((x) => `${x.code} ${x.severity}`), Array(4).fill('payload-not-checked information'));
  assert.match(f[0].message, /^\/etc\/kubernetes\/kubelet\.yaml is not checked: its content is compressed \(gzip\)/);
  assert.match(f[1].message, /fetched from contents\.source/);
  assert.match(f[2].message, /appended/);
  assert.match(f[3].message, /bad escape "%ZZ"/);
});

test('an Ignition config that is not JSON: one syntax error', () => {
  const f = analyze([{ path: HOST, text: '{"ignition": {"version": "3.4.0"}, "systemd": [\n' }]).findings;
  assert.deepEqual(f.map((x) => `${x.code} ${x.severity}`), ['config-syntax error']);
});

test('docs/formats/ignition.md: the worked example gives the findings the page names, at its lines', () => {
  const page = readFileSync(join(__dirname, '../../docs/formats/ignition.md'), 'utf8');
  const text = page.split('```json\n')[1].split('```')[0];
  const a = analyze([{ path: 'worker.ign', text }]);
  assert.deepEqual(a.findings.map((f) => `${f.range.start.line + 1} ${f.code}`), ['14 flag-deprecated', '14 reserved-resource-unknown', '26 eviction-soft-without-grace']);
  assert.equal(a.nodes.length, 1);
});

const corpus = corpusDir('corpus');
for (const [label, enc, prefix] of [['percent-encoded', pct, 'data:,'], ['base64', b64, 'data:;base64,']] as const) {
  test(`every corpus node file written by an Ignition ${label} data: URL: the same findings, allocatable and quick fixes`, { skip: !corpus && 'no ../shared/corpus' }, () => {
    const { files, fixes } = carrierProperty(corpus!, {
      host: HOST,
      wrap: (target, text) => JSON.stringify({ ignition: { version: '3.4.0' }, storage: { files: [{ path: target, contents: { source: prefix + enc(text) } }] } }, null, 2),
      read: ignitionFiles,
    });
    assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
  });
}

test('every corpus node file as an Ignition unit\'s contents (a JSON string): the same findings, allocatable and quick fixes', { skip: !corpus && 'no ../shared/corpus' }, () => {
  const { files, fixes } = carrierProperty(corpus!, {
    host: HOST,
    target: (name) => `/etc/systemd/system/${name}`,
    wrap: (target, text) => JSON.stringify({ ignition: { version: '3.4.0' }, systemd: { units: [{ name: target.split('/').pop(), contents: text }] } }, null, 2),
    read: ignitionFiles,
  });
  assert.ok(files > 30 && fixes >= 10, `${files} files, ${fixes} fixes`);
});

test('hover inside a JSON string and inside percent-encoded data: the bare file\'s hover', () => {
  const text = worker(pct, 'data:,');
  const a = analyze([{ path: HOST, text }]);
  const files = ignitionFiles(text);
  const b = analyze(Object.entries(files).map(([p, t]) => ({ path: 'disk' + p, text: t })));
  const lines = text.split('\n');
  const dropLine = lines.findIndex((l) => l.includes('--kube-reserved'));
  const h = hoverAt(a, HOST, { line: dropLine, character: lines[dropLine].indexOf('--kube-reserved') + 4 });
  const bh = hover(b, 'disk/etc/systemd/system/kubelet.service.d/20-args.conf', { line: 1, character: files['/etc/systemd/system/kubelet.service.d/20-args.conf'].split('\n')[1].indexOf('--kube-reserved') + 4 });
  // A place cited in the text is the carrier's line in the carrier (embed/to-host.ts textToHost), the file's on disk.
  const same = (x: unknown) => JSON.stringify(x).replaceAll(`${HOST} → /`, 'disk/').replace(/in \S+ line \d+/g, 'in <place>');
  assert.ok(h && bh);
  assert.equal(same(h.contents), same(bh.contents));
  assert.match(JSON.stringify(h.contents), new RegExp(`in ${HOST} line ${dropLine + 1}\\b`));
  const cfgLine = lines.findIndex((l) => l.includes('evictionSoft'));
  const hc = hoverAt(a, HOST, { line: cfgLine, character: lines[cfgLine].indexOf('evictionSoft') + 3 });
  const bc = hover(b, 'disk/etc/kubernetes/kubelet.yaml', { line: 2, character: 3 });
  assert.ok(hc && bc);
  assert.equal(same(hc.contents), same(bc.contents));
});
