/**
 * The node model is immutable once analyze() has made it (the runtime configs joined to a node and its modeline
 * settings are part of making it), and so are the parses it shares with the parse cache. Everything an analysis
 * hands out is deep-frozen here; rules, allocatable and every editor feature then run over it, and the next
 * analysis, which reuses the frozen builds and results, still equals a fresh one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { ParseCache } from '../../server/src/node/parse-cache.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import type { Position, Range } from '../../server/src/model/range.ts';
import { computeAllocatable } from '../../server/src/node/allocatable.ts';
import { RULES } from '../../server/src/registry.ts';
import { hover } from '../../server/src/features/hover.ts';
import { completion } from '../../server/src/features/completion.ts';
import { documentSymbols, foldingRanges } from '../../server/src/features/symbols.ts';
import { inlayHints } from '../../server/src/features/inlay-hints.ts';
import { codeLenses } from '../../server/src/features/code-lens.ts';
import { effectiveConfiguration } from '../../server/src/features/effective-config.ts';
import { allocatableForFile } from '../../server/src/features/allocatable-data.ts';
import { codeActions, refactorActions } from '../../server/src/features/code-actions.ts';
import { diagnosticsFor } from '../../server/src/features/diagnostics.ts';
import { deepFreeze } from '../helpers/freeze.ts';
import { analysisSummary } from '../helpers/analysis-summary.ts';
import { exampleWorkspaces, fixtureWorkspaces } from '../fuzz/fixtures.ts';

const MODELINES: SourceFile[] = [
  { path: 'm/etc/containerd/config.toml', text: '# kubelet-lint: kubernetes-version 1.30\nversion = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n' },
  { path: 'm/var/lib/kubelet/config.yaml', text: '# kubelet-lint: capacity cpu=4,memory=8Gi\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: cgroupfs\nkubeReserved:\n  memory: 1Gi\nfeatureGates:\n  NodeSwap: true\n' },
];

/** A cloud-config carrying a drop-in and a config (embedded documents: their nodes and findings map to the host). */
const CARRIER: SourceFile[] = [
  {
    path: 'c/user-data',
    text:
      '#cloud-config\nwrite_files:\n' +
      '  - path: /etc/systemd/system/kubelet.service.d/10-kubeadm.conf\n    content: |\n' +
      '      [Service]\n      Environment="KUBELET_EXTRA_ARGS=--max-pods=abc --cgroup-drver=systemd"\n' +
      '      ExecStart=\n      ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS\n' +
      '  - path: /var/lib/kubelet/config.yaml\n    content: |\n' +
      '      apiVersion: kubelet.config.k8s.io/v1beta1\n      kind: KubeletConfiguration\n      kubeReserved:\n        memroy: 1Gi\n',
  },
];

/** Platform files (Talos, nodeadm, talhelper): the tool's base is part of the model, with a capacity for nodeadm's cpu. */
const PLATFORMS: SourceFile[] = [
  { path: 't/patch.yaml', text: 'machine:\n  kubelet:\n    extraArgs:\n      max-pods: abc\n    extraConfig:\n      systemReserved:\n        memory: 1Gi\n      evictionSoft:\n        memory.available: 1Gi\n' },
  { path: 'n/nodeconfig.yaml', text: '# kubelet-lint: capacity cpu=4,memory=8Gi\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 20\n    flags:\n      - --eviction-hard=memory.available<1Gi\n' },
  { path: 'h/talconfig.yaml', text: 'clusterName: x\npatches:\n  - |\n    machine:\n      kubelet:\n        extraConfig:\n          kubeReserved:\n            memroy: 1Gi\n' },
];

const toUri = (p: string) => `file:///${p}`;

function freeze(a: Analysis): void {
  deepFreeze(a.nodes);
  deepFreeze(a.files);
  deepFreeze(a.findings);
}

/** Every feature at the start, middle and end of every line of every file. */
function everyFeature(a: Analysis, files: readonly SourceFile[]): void {
  for (const { node, allocatable } of a.nodes) {
    computeAllocatable(node, node.capacity);
    for (const rule of RULES) rule.run({ node, argProblems: [], allocatable, versionForFixes: node.kubernetesVersion });
  }
  for (const f of files) {
    const lines = f.text.split('\n');
    const whole: Range = { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } };
    documentSymbols(a, f.path);
    foldingRanges(a, f.path);
    inlayHints(a, f.path, whole);
    codeLenses(a, f.path, toUri(f.path));
    effectiveConfiguration(a, f.path);
    allocatableForFile(a, f.path);
    codeActions(a, f.path, diagnosticsFor(a, f.path, toUri), toUri);
    lines.forEach((l, line) => {
      for (const character of new Set([0, l.length >> 1, l.length])) {
        const pos: Position = { line, character };
        hover(a, f.path, pos);
        completion(a, f.path, pos);
      }
      refactorActions(a, f.path, { start: { line, character: 0 }, end: { line, character: l.length } }, toUri);
    });
  }
}

test('rules, allocatable and every editor feature run over a deep-frozen analysis; the next, reusing it, equals a fresh one', () => {
  const workspaces: [string, SourceFile[]][] = [...exampleWorkspaces(), ...fixtureWorkspaces(), ['modelines and a runtime config', MODELINES], ['a cloud-init carrier', CARRIER], ['Talos, nodeadm and talhelper files', PLATFORMS]];
  for (const [name, files] of workspaces) {
    const cache = new ParseCache();
    const first = analyze(files, { kubernetesVersion: '1.31' }, cache);
    assert.ok(first.nodes.length > 0, name);
    freeze(first);
    everyFeature(first, files);
    // One file edited: the other nodes' frozen builds and results are reused.
    const edited = files.map((f, i) => (i === 0 ? { path: f.path, text: f.text + '\n' } : f));
    const second = analyze(edited, { kubernetesVersion: '1.31' }, cache);
    assert.deepStrictEqual(analysisSummary(second), analysisSummary(analyze(edited, { kubernetesVersion: '1.31' })), name);
    freeze(second);
    everyFeature(second, edited);
    // Another version: every node is made again from its reused build and the frozen parses.
    const third = analyze(edited, { kubernetesVersion: '1.28' }, cache);
    assert.deepStrictEqual(analysisSummary(third), analysisSummary(analyze(edited, { kubernetesVersion: '1.28' })), name);
    everyFeature(third, edited);
  }
});

test('modeline settings and joined runtime configs are part of the node as made: capacity, version, runtime and its file', () => {
  const a = analyze(MODELINES, { capacity: { cpu: 64000n, hugepages: new Map() } });
  const [{ node }] = a.nodes;
  assert.equal(node.kubernetesVersion, '1.30');
  assert.equal(node.capacity?.cpu, 4000n);
  assert.match(node.capacitySource ?? '', /modeline in m\/var\/lib\/kubelet\/config\.yaml line 1/);
  assert.deepEqual(node.files, ['m/var/lib/kubelet/config.yaml', 'm/etc/containerd/config.toml']);
  assert.equal(node.runtimes.length, 1);
  assert.ok(a.findings.some((f) => f.code === 'cgroup-driver-mismatch'), 'the joined runtime config is compared with the node');
});

test("a platform's base that is the same for every node (nodeadm's config.json) is one frozen set of settings all its nodes share", () => {
  const doc = (name: string) => `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: ${name}\n  kubelet:\n    config:\n      maxPods: 20\n`;
  const a = analyze([{ path: 'a/nodeconfig.yaml', text: doc('a') }, { path: 'b/nodeconfig.yaml', text: doc('b') }]);
  const [x, y] = a.nodes.map((n) => n.node.settings.get('hairpinMode'));
  assert.equal(x?.from.how, 'platform');
  assert.equal(x, y);
  assert.ok(Object.isFrozen(x) && Object.isFrozen(x!.from));
  assert.throws(() => {
    (x as { text: string }).text = 'promiscuous-bridge';
  }, TypeError);
  // the user's own value is the node's own setting
  assert.notEqual(a.nodes[0].node.settings.get('maxPods'), a.nodes[1].node.settings.get('maxPods'));
});
