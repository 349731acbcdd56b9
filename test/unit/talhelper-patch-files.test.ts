/**
 * talhelper `@file` patches (budimanjojo/talhelper v3.1.16): a patch written `- "@./patches/x.yaml"` is that file,
 * read where it stands in the node's patch list (pkg/patcher/patcher.go PatchesPatcher), relative to talconfig.yaml's
 * folder (pkg/substitute/pathsubst.go). Each talhelper node includes the files' kubelet settings in that order: the
 * group's patches, the node's own, then the top-level ones (pkg/config/nodeconfigs.go mergeNodeConfigs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';

const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;

const TALCONFIG = `clusterName: home
endpoint: https://10.0.0.1:6443
patches:
  - "@./patches/global/machine-kubelet.yaml"
  - "@missing.yaml"
nodes:
  - hostname: cp1
    controlPlane: true
  - hostname: w1
    patches:
      - |-
        machine:
          kubelet:
            extraConfig:
              kubeReserved:
                cpu: 300m
                memory: 3Gi
worker:
  patches:
    - "@./patches/worker/kubelet.yaml"
`;

const GLOBAL = `machine:
  kubelet:
    extraConfig:
      kubeReserved:
        memory: 1Gi
      systemReserved:
        cpu: 500m
        memory: 1Gi
      featureGates:
        DevicePlugins: true
`;

const WORKER = `machine:
  kubelet:
    extraConfig:
      kubeReserved:
        cpu: 200m
      evictionHard:
        memory.available: 200Mi
        nodefs.available: 10%
`;

const FILES = [
  { path: 'talos/talconfig.yaml', text: TALCONFIG },
  { path: 'talos/patches/global/machine-kubelet.yaml', text: GLOBAL },
  { path: 'talos/patches/worker/kubelet.yaml', text: WORKER },
];
const capacity = { cpu: 4000n, memory: 16n * GiB, hugepages: new Map<string, bigint>() };
const at = (f: Finding) => `${f.file}:${f.range.start.line + 1} ${f.severity} ${f.code}`;

test('talhelper @file patches: each node has their kubelet settings in talhelper\'s order, and its allocatable', () => {
  const a = analyze(FILES, { capacity });
  const byName = new Map(a.nodes.map((n) => [n.node.id, n]));
  // The patch files are no nodes of their own: only the two hosts.
  assert.deepEqual([...byName.keys()], ['talos/talconfig.yaml//cp1.yaml', 'talos/talconfig.yaml//w1.yaml']);
  const cp1 = byName.get('talos/talconfig.yaml//cp1.yaml')!;
  const w1 = byName.get('talos/talconfig.yaml//w1.yaml')!;
  assert.ok(cp1.node.files.includes('talos/patches/global/machine-kubelet.yaml'));
  assert.ok(!cp1.node.files.includes('talos/patches/worker/kubelet.yaml'), 'the worker group patch is not a control plane\'s');
  assert.ok(w1.node.files.includes('talos/patches/worker/kubelet.yaml'));
  const items = (n: typeof cp1, field: string) => {
    const s = n.node.settings.get(field);
    return s?.kind === 'map' ? s.items.map((i) => `${i.key}=${i.text}`).sort() : undefined;
  };
  // w1: the worker group file (cpu 200m) < w1's own inline patch (cpu 300m, memory 3Gi) < the top-level file
  // (memory 1Gi), maps merged key by key.
  assert.deepEqual(items(w1, 'kubeReserved'), ['cpu=300m', 'memory=1Gi']);
  assert.deepEqual(items(cp1, 'kubeReserved'), ['memory=1Gi']);
  // The user's systemReserved replaces Talos's whole map (fill-unset: len(SystemReserved) == 0).
  assert.deepEqual(items(w1, 'systemReserved'), ['cpu=500m', 'memory=1Gi']);
  assert.deepEqual(items(cp1, 'evictionHard'), undefined);
  assert.deepEqual(items(w1, 'evictionHard'), ['memory.available=200Mi', 'nodefs.available=10%']);
  // Where the values come from: the files, at their lines.
  const kr = w1.node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.equal(kr.items.find((i) => i.key === 'memory')?.from.span?.file, 'talos/patches/global/machine-kubelet.yaml');
  // Hand-computed allocatable. w1: cpu 4000m - 300m - 500m = 3200m; memory 16Gi - 1Gi - 1Gi - 200Mi (the group's
  // evictionHard). cp1: cpu 4000m - 500m = 3500m; memory 16Gi - 1Gi - 1Gi - 100Mi (the kubelet's default threshold).
  assert.equal(w1.allocatable.lines.cpu.allocatable, 3200n);
  assert.equal(w1.allocatable.lines.memory.allocatable, 14n * GiB - 200n * MiB);
  assert.equal(cp1.allocatable.lines.cpu.allocatable, 3500n);
  assert.equal(cp1.allocatable.lines.memory.allocatable, 14n * GiB - 100n * MiB);
});

test('talhelper @file patches: a finding in a patch file is reported once, at its line, and its fix edits that file; an unresolved @file at its line in talconfig.yaml', () => {
  const a = analyze(FILES, { capacity });
  const gates = a.findings.filter((f) => f.code === 'feature-gate-removed');
  // Once, though both nodes apply the file.
  assert.deepEqual(gates.map((f) => `${f.file}:${f.range.start.line + 1}`), ['talos/patches/global/machine-kubelet.yaml:10']);
  const edits = gates[0].fixes?.[0]?.edits ?? [];
  assert.ok(edits.length > 0 && edits.every((e) => e.file === undefined || e.file === 'talos/patches/global/machine-kubelet.yaml'), JSON.stringify(edits));
  const fixed = applyEdits(GLOBAL, edits);
  assert.doesNotMatch(fixed, /DevicePlugins/);
  // Nothing about the patch files is moved into talconfig.yaml.
  const inTalconfig = a.findings.filter((f) => f.file === 'talos/talconfig.yaml');
  assert.deepEqual(inTalconfig.map(at), ['talos/talconfig.yaml:5 information reference-unresolved']);
  assert.match(inTalconfig[0].message, /@missing\.yaml/);
});

test('talhelper @file patches: a patch file nobody references is a Talos node of its own; one with the only kubelet settings makes the node', () => {
  const alone = analyze([FILES[1]]);
  assert.deepEqual(alone.nodes.map((n) => n.node.id), ['talos/patches/global/machine-kubelet.yaml']);
  // A node with no inline kubelet patch: its settings all come from the file.
  const only = `nodes:\n  - hostname: w2\n    patches:\n      - "@../shared/kubelet.yaml"\n`;
  const a = analyze([{ path: 'talos/talconfig.yaml', text: only }, { path: 'shared/kubelet.yaml', text: WORKER }], { capacity });
  assert.deepEqual(a.nodes.map((n) => n.node.id), ['talos/talconfig.yaml//w2.yaml']);
  assert.equal(a.nodes[0].node.platform?.facts?.role, 'worker');
  assert.equal(a.nodes[0].allocatable.lines.cpu.allocatable, 4000n - 200n - 50n, 'the file\'s kube-reserved and Talos\'s 50m system-reserved');
});
