/**
 * A multi-document YAML stream of several platform formats (server/src/formats/yaml-stream.ts): each document is
 * read as the format it is alone, its findings at its own lines of the stream; a stream of one format stays that
 * format's file; typing in one document re-checks that document's node only (the carrier's parse is not a node input).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { ParseCache } from '../../server/src/node/parse-cache.ts';
import { payloadAt } from '../../server/src/features/embedded.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';
import fc from 'fast-check';
import { documents } from '../../server/src/formats/yaml-stream.ts';

const TALOS = `machine:
  kubelet:
    extraConfig:
      evictionHard:
        memory.available: 1Gi
      systemReserved:
        cpu: 500m
        memory: 1Gi
`;
const OPENSHIFT = `apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: workers
spec:
  kubeletConfig:
    maxPods: 5000
    kubeReserved:
      memroy: 1Gi
`;
const CAPI = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: md-0
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            eviction-hard: nodefs.available<0%
`;
const STREAM = `# kubelet-lint: capacity cpu=4,memory=16Gi\n---\n${TALOS}---\n${OPENSHIFT}---\n${CAPI}`;

const at = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line}:${f.range.start.character} ${f.code}`).sort();
/** The findings of a document alone, moved down by the lines before it in the stream. */
function alone(path: string, doc: string, before: number): string[] {
  return analyze([{ path, text: doc }], { capacity: { cpu: 4000n, memory: 16n * 1024n ** 3n, hugepages: new Map() } })
    .findings.map((f) => `${f.range.start.line + before}:${f.range.start.character} ${f.code}`);
}

test('a stream of Talos, OpenShift and Cluster API documents: each read as it is alone, at its lines of the stream', () => {
  assert.equal(detectKind('clusters/prod/nodes.yaml', STREAM), 'yaml-stream');
  const a = analyze([{ path: 'clusters/prod/nodes.yaml', text: STREAM }]);
  assert.equal(a.nodes.length, 3);
  const lines = STREAM.split('\n');
  const start = (doc: string) => lines.indexOf(doc.split('\n')[0]);
  const expected = [...alone('talos.yaml', TALOS, start(TALOS)), ...alone('openshift.yaml', OPENSHIFT, start(OPENSHIFT)), ...alone('capi.yaml', CAPI, start(CAPI))].sort();
  assert.ok(expected.length >= 3, expected.join('\n'));
  assert.deepEqual(at(a.findings), expected);
  // The carrier's capacity modeline holds for every document's node.
  for (const n of a.nodes) assert.equal(n.node.capacity?.cpu, 4000n, n.node.id);
  // Node names say which document they are.
  assert.deepEqual(a.nodes.map((n) => n.node.id).sort(), ['clusters/prod/nodes.yaml//2-talos.yaml', 'clusters/prod/nodes.yaml//3-openshift.yaml', 'clusters/prod/nodes.yaml//4-cluster-api/md-0/run/kubeadm/joinConfiguration.yaml'].sort());
});

test('a fix in a document of the stream edits the stream at that document\'s line', () => {
  const a = analyze([{ path: 'nodes.yaml', text: STREAM }]);
  const f = a.findings.find((x) => x.code === 'reserved-resource-unknown');
  assert.ok(f?.fixes?.length, 'the memroy typo has a fix');
  assert.equal(STREAM.split('\n')[f.range.start.line].trim(), 'memroy: 1Gi');
  const fixed = applyEdits(STREAM, f.fixes[0].edits);
  assert.equal(fixed, STREAM.replace('memroy', 'memory'));
  assert.equal(analyze([{ path: 'nodes.yaml', text: fixed }]).findings.filter((x) => x.code === 'reserved-resource-unknown').length, 0);
});

test('not a stream: one document, documents of one format, a kubeadm file with its KubeletConfiguration', () => {
  assert.equal(detectKind('talos.yaml', TALOS), 'talos');
  assert.equal(detectKind('openshift.yaml', `${OPENSHIFT}---\n${OPENSHIFT.replace('workers', 'masters')}`), 'openshift');
  const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta4\nkind: InitConfiguration\n---\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 50\n';
  assert.equal(detectKind('kubeadm.yaml', kubeadm), 'kubeadm-config');
  // A `---` inside a block scalar is indented, so it splits nothing.
  assert.equal(detectKind('t.yaml', `machine:\n  kubelet:\n    extraArgs:\n      x: |\n        ---\n        ${OPENSHIFT.split('\n')[0]}\n`), 'talos');
});

test('typing in one document of the stream re-checks its node only; the others are reused as they were', () => {
  const cache = new ParseCache();
  const first = analyze([{ path: 'nodes.yaml', text: STREAM }], {}, cache);
  const edited = STREAM.replace('cpu: 500m', 'cpu: 600m');
  const second = analyze([{ path: 'nodes.yaml', text: edited }], {}, cache);
  const before = new Map(first.nodes.map((n) => [n.node.id, n.node]));
  const fresh = second.nodes.filter((n) => before.get(n.node.id) !== n.node).map((n) => n.node.id);
  assert.deepEqual(fresh, ['nodes.yaml//2-talos.yaml']);
  // And the results are those of a fresh analysis.
  assert.deepEqual(at(second.findings), at(analyze([{ path: 'nodes.yaml', text: edited }]).findings));
  // As the language server runs it: the cache is told after each analysis which files are open (the carrier only),
  // and a carrier's payload nodes are kept with it.
  cache.retain(new Set(['nodes.yaml']));
  const fourth = analyze([{ path: 'nodes.yaml', text: edited.replace('cpu: 600m', 'cpu: 700m') }], {}, cache);
  const kept = new Map(second.nodes.map((n) => [n.node.id, n.node]));
  assert.deepEqual(fourth.nodes.filter((n) => kept.get(n.node.id) !== n.node).map((n) => n.node.id), ['nodes.yaml//2-talos.yaml']);
  // The capacity modeline is every node's input: changing it re-checks them all.
  const third = analyze([{ path: 'nodes.yaml', text: edited.replace('cpu=4', 'cpu=8') }], {}, cache);
  for (const n of third.nodes) assert.equal(n.node.capacity?.cpu, 8000n, n.node.id);
});

test('documents before an edit keep their payload objects, and every analysis of a series of edits is a fresh one\'s', () => {
  const cache = new ParseCache();
  const json = (a: ReturnType<typeof analyze>) =>
    JSON.stringify({ findings: a.findings, nodes: a.nodes.map((n) => [n.node.id, n.node.kubernetesVersion, n.allocatable]) }, (_k, v) => (typeof v === 'bigint' ? `${v}n` : v));
  const payload = (a: ReturnType<typeof analyze>, n: number) => [...(a.payloads ?? [])].find(([p]) => p.startsWith(`nodes.yaml//${n}-`))?.[1].payload;
  const header = '# xx\n# y\n';
  let text = header + STREAM;
  let last = analyze([{ path: 'nodes.yaml', text }], {}, cache);
  const edits: [string, (t: string) => string][] = [
    ['in the last document', (t) => t.replace('nodefs.available<0%', 'nodefs.available<5%')],
    ['in the Talos document', (t) => t.replace('cpu: 500m', 'cpu: 600m')],
    // The documents do not move, but a line break before them does.
    ['in the header, the same length', (t) => t.replace('# xx\n# y\n', '# x\n# yy\n')],
    ['in the OpenShift document', (t) => t.replace('maxPods: 5000', 'maxPods: 50')],
    ['in the carrier\'s modeline', (t) => t.replace('cpu=4', 'cpu=8')],
    ['back to the start', () => header + STREAM],
    // A document split in two, and joined again: the documents after it are found at their new places.
    ['splitting the OpenShift document', (t) => t.replace('spec:\n  kubeletConfig:', '---\nspec:\n  kubeletConfig:')],
    ['joining it again', () => header + STREAM],
    ['removing the Talos document', (t) => t.replace(`---\n${TALOS}`, '')],
    // The document before the edit then ends later: it is read again.
    ['breaking the separator after the header', (t) => t.replace(`---\n${OPENSHIFT}`, `# -\n${OPENSHIFT}`)],
  ];
  for (const [what, edit] of edits) {
    const next = edit(text);
    assert.notEqual(next, text, what);
    const a = analyze([{ path: 'nodes.yaml', text: next }], {}, cache);
    // (Under a path of its own: the stream format remembers each path's previous text.)
    const fresh = `fresh-${what.replace(/\W+/g, '-')}/nodes.yaml`;
    assert.equal(json(a), json(analyze([{ path: fresh, text: next }])).split(fresh).join('nodes.yaml'), what);
    // A document before the first changed character keeps its payload; from there on, each is made again.
    const first = commonStart(text, next);
    const count = (t: string) => t.split('\n---\n').length;
    for (let n = 2; n <= (count(text) === count(next) ? 4 : 1); n++) {
      const end = text.indexOf('\n---\n', text.indexOf(`\n${[TALOS, OPENSHIFT, CAPI][n - 2].split('\n')[0]}`));
      const kept = payload(a, n) === payload(last, n);
      // (Up to the line after the next `---`: the last document is made again when text is added after it.)
      assert.equal(kept, end >= 0 && end + '\n---\n'.length <= first, `${what}: document ${n}`);
    }
    text = next;
    last = a;
  }
});

test('a position in a document added at the end is in that document, not in the one that was last before', () => {
  const cache = new ParseCache();
  // (A document of its own text: documents with the same text share what is known of them.)
  const text = `${STREAM}---\n${TALOS.replace('cpu: 500m', 'cpu: 250m')}`;
  analyze([{ path: 'nodes.yaml', text }], {}, cache);
  const longer = `${text}---\n${OPENSHIFT}`;
  const a = analyze([{ path: 'nodes.yaml', text: longer }], {}, cache);
  // The new document's `kind:` line, past the lines of the text before.
  const line = longer.split('\n').length - OPENSHIFT.split('\n').length + 1;
  assert.equal(longer.split('\n')[line], 'kind: KubeletConfig');
  assert.equal(payloadAt(a, 'nodes.yaml', { line, character: 0 })?.path, 'nodes.yaml//6-openshift.yaml');
  assert.equal(payloadAt(a, 'nodes.yaml', { line: 2, character: 0 })?.path, 'nodes.yaml//2-talos.yaml');
});

function commonStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

test('a Karpenter document in a stream is read as in its own file: Karpenter keeps reservations-missing quiet there too', () => {
  const karpenter = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  kubelet:
    maxPods: 50
    evictionHard:
      memory.available: 5%
`;
  const codes = (text: string, path: string) => analyze([{ path, text }]).findings.map((f) => f.code).sort();
  const alone = codes(karpenter, 'nodeclass.yaml');
  assert.ok(!alone.includes('reservations-missing'), alone.join());
  const stream = `${TALOS}---\n${karpenter}`;
  assert.equal(detectKind('nodes.yaml', stream), 'yaml-stream');
  const a = analyze([{ path: 'nodes.yaml', text: stream }]);
  const karpenterLines = new Set(karpenter.split('\n').map((_, i) => i + TALOS.split('\n').length));
  const inKarpenter = a.findings.filter((f) => karpenterLines.has(f.range.start.line)).map((f) => f.code).sort();
  assert.deepEqual(inKarpenter, alone);
});

test('a payload that carries its carrier\'s instance types keeps its node while another document is edited', () => {
  const eksctl = `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: c
  region: us-east-1
nodeGroups:
  - name: ng
    instanceType: m5.large
    kubeletExtraConfig:
      maxPods: 20
`;
  const text = `${TALOS}---\n${eksctl}`;
  const cache = new ParseCache();
  const first = analyze([{ path: 'nodes.yaml', text }], {}, cache);
  const ng = first.nodes.find((n) => n.node.id.includes('eksctl'));
  assert.ok(ng?.node.capacity, first.nodes.map((n) => n.node.id).join());
  cache.retain(new Set(['nodes.yaml']));
  const second = analyze([{ path: 'nodes.yaml', text: text.replace('cpu: 500m', 'cpu: 501m') }], {}, cache);
  assert.equal(second.nodes.find((n) => n.node.id === ng.node.id)?.node, ng.node);
});

test('documents start where /^---(?=[ \\t\\r\\n]|$)/m matches: a --- at any line start (after \\n, \\r, U+2028, U+2029) before a blank, a line end or the end (property)', () => {
  const re = /^---(?=[ \t\r\n]|$)/gm;
  const byPattern = (t: string) => [0, ...[...t.matchAll(re)].map((m) => m.index).filter((i) => i > 0)];
  const piece = fc.constantFrom('-', '---', '\n', '\r', '\r\n', ' ', '\t', 'a', '\u2028', '\u2029', '#');
  fc.assert(fc.property(fc.array(piece, { maxLength: 30 }).map((a) => a.join('')), (t) => {
    assert.deepEqual(documents(t).map((d) => d.from), byPattern(t));
  }), { numRuns: 3000 });
});
