/**
 * Talos machine configs and EKS nodeadm NodeConfigs (server/src/formats/talos.ts, eks-nodeadm.ts): the user's
 * kubelet settings with the tool's base and merge rule (server/src/node/platform.ts), findings at the user's lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { describe } from '../../server/src/node/provenance.ts';
import { nodeadmCpuMillis } from '../../server/src/platforms/nodeadm/reservations.ts';
import { rangeToHost } from '../../server/src/embed/to-host.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { corpusDir } from '../helpers/corpus.ts';
import { applyEdits } from '../helpers/edits.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { hover } from '../../server/src/features/hover.ts';
import { hoverAt } from '../../server/src/features/embedded.ts';
import { completion } from '../../server/src/features/completion.ts';
import { inlayHints } from '../../server/src/features/inlay-hints.ts';

const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;

const dir = corpusDir('corpus-embedded');
/** Pinned: kind, then every finding as "line severity code" (lines 1-based), then the number of nodes (default 1). */
const PINS: Record<string, [string, string[], number?]> = {
  // MANIFEST: evictionHard with only memory.available drops the kubelet's other signals; systemReserved drops
  // Talos's pid and ephemeral-storage defaults.
  // enableSystemLogQuery needs the NodeLogQuery gate, which no file here turns on (config-needs-feature-gate, from
  // the validation rules; another patch of the same cluster may set it).
  '011-talos-patch-kubelet-reserved.yaml': ['talos', ['13 warning platform-default-map-replaced', '5 error config-needs-feature-gate', '6 information eviction-defaults-dropped']],
  '012-talos-patch-serialize-only.yaml': ['talos', []],
  '013-talos-v1.14-kubeletconfig-doc.yaml': ['talos', []],
  '014-talos-machineconfig-worker-cpumanager.yaml': ['talos', []],
  // MIME user data (formats/mime.ts): its NodeConfig parts are one payload, found at their lines in the carrier.
  '015-nodeadm-mime-merge.yaml': ['mime', []],
  '016-nodeadm-empty-reserved-cgroups.yaml': ['eks-nodeadm', []],
  // MANIFEST: config.maxPods 1 wins over the expression while kubeReserved follows the expression.
  '017-nodeadm-maxpods-expression.yaml': ['eks-nodeadm', ['13 warning nodeadm-max-pods-expression-ignored']],
  '018-nodeadm-mime-userdata.tpl': ['mime', []],
  // Terraform template: invalid YAML until rendered (flags: ${bootstrap_extra_args}), said once, not as an error.
  // Its shell part writes a kubelet.service drop-in (ExecStartPre lines) by a quoted here-document: the AMI's
  // kubelet.service it belongs to runs the kubelet nodeadm configures (amazon-eks-ami templates/al2023/runtime), so
  // it joins nodeadm's node: one node. Its %{ if } directives, which decide whole parts, are said once for the MIME
  // file (config-template at the first).
  '019-nodeadm-terraform-al2023-userdata.tpl': ['mime', ['3 information config-template', '92 information config-syntax']],
};

for (const [name, [kind, want, nodes = 1]] of Object.entries(PINS)) {
  test(`corpus-embedded ${name}: recognised as ${kind}, findings pinned, no error`, { skip: !dir && 'corpus-embedded not found' }, () => {
    const text = readFileSync(join(dir!, 'files', name), 'utf8');
    assert.equal(detectKind(name, text), kind);
    const a = analyze([{ path: name, text }]);
    assert.equal(a.nodes.length, nodes);
    assert.deepEqual(show(a.findings), [...want].sort());
    assertShortPoints(a.findings);
  });
}

test('corpus-embedded: every file of the corpus is read without a crash or a false error from these formats', { skip: !dir && 'no corpus' }, () => {
  for (const name of readdirSync(join(dir!, 'files'))) {
    const text = readFileSync(join(dir!, 'files', name), 'utf8');
    const kind = detectKind(name, text);
    if (kind !== 'talos' && kind !== 'eks-nodeadm' && kind !== 'mime') continue;
    // 020 (MIME whose one part is a script) is pinned in test/unit/shell.test.ts.
    assert.ok(name in PINS || /karpenter/.test(name) || name.startsWith('020-'), `${name} recognised as ${kind} but not pinned`);
  }
});

test('012: Talos supplies systemReserved (cpu 50m, memory 384Mi, pid 100, ephemeral-storage 256Mi) and allocatable counts it', { skip: !dir && 'no corpus' }, () => {
  const name = '012-talos-patch-serialize-only.yaml';
  const a = analyze([{ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') }], { capacity: { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() } });
  const s = a.nodes[0].node.settings.get('systemReserved');
  assert.ok(s?.kind === 'map');
  assert.deepEqual(s.items.map((i) => `${i.key}=${i.text}`), ['cpu=50m', 'memory=384Mi', 'pid=100', 'ephemeral-storage=256Mi']);
  assert.match(describe(s.items[0].from), /^Talos default/);
  const al = a.nodes[0].allocatable;
  assert.equal(al.lines.memory.systemReserved, 384n * MiB);
  assert.equal(al.lines.cpu.systemReserved, 50n);
  assert.equal(al.pid.systemReserved, 100n);
});

test('Talos control plane: systemReserved memory is 512Mi (KubeletSystemReservedMemoryControlPlane)', () => {
  const text = 'version: v1alpha1\nmachine:\n  type: controlplane\n  kubelet:\n    extraConfig:\n      maxPods: 150\n';
  const a = analyze([{ path: 'controlplane.yaml', text }]);
  const s = a.nodes[0].node.settings.get('systemReserved');
  assert.ok(s?.kind === 'map');
  assert.equal(s.items.find((i) => i.key === 'memory')?.text, '512Mi');
});

test('a Talos patch with systemReserved {memory: 1Gi} reports the dropped cpu, pid and ephemeral-storage defaults', () => {
  const text = 'machine:\n  kubelet:\n    extraConfig:\n      systemReserved:\n        memory: 1Gi\n';
  const a = analyze([{ path: 'talos/patches/kubelet.yaml', text }]);
  const f = a.findings.filter((x) => x.code === 'platform-default-map-replaced');
  assert.equal(f.length, 1);
  assert.equal(f[0].range.start.line, 3);
  assert.match(f[0].message, /^This systemReserved replaces Talos.s whole default map: cpu, pid and ephemeral-storage are no longer reserved. Talos reserves cpu 50m, pid 100 and ephemeral-storage 256Mi only while/);
  const s = a.nodes[0].node.settings.get('systemReserved');
  assert.ok(s?.kind === 'map');
  assert.deepEqual(s.items.map((i) => i.key), ['memory']);
});

test('Talos protected fields and denied flags are errors at the user line', () => {
  const text = 'machine:\n  kubelet:\n    extraArgs:\n      kubeconfig: /x\n      node-labels: [a=b, c=d]\n    extraConfig:\n      staticPodPath: /x\n';
  const a = analyze([{ path: 'patch.yaml', text }]);
  assert.deepEqual(show(a.findings.filter((x) => x.code === 'platform-setting-refused')), ['4 error platform-setting-refused', '7 error platform-setting-refused']);
  // a list value is one --node-labels per item (Talos argsbuilder), so both labels reach the kubelet
  const labels = a.nodes[0].node.flags.filter((x) => x.name === 'node-labels').map((x) => x.value);
  assert.deepEqual(labels, ['a=b', 'c=d']);
});

test('a kubelet flag in Talos extraArgs is checked like one on the command line, at its line', () => {
  const text = 'machine:\n  kubelet:\n    extraArgs:\n      max-pods: abc\n';
  const a = analyze([{ path: 'patch.yaml', text }]);
  const f = a.findings.find((x) => x.code === 'flag-value-invalid');
  assert.ok(f, show(a.findings).join('; '));
  assert.equal(f.range.start.line, 3);
});

test('a corpus KubeletConfiguration wrapped into Talos extraConfig gives the same findings at the mapped lines', () => {
  const cdir = corpusDir('corpus');
  if (!cdir) return;
  const name = '055-nanak8s-kubelet-config-soft-no-grace.yaml';
  const bare = readFileSync(join(cdir, 'files', name), 'utf8');
  const body = bare.split('\n').filter((l) => !/^(apiVersion|kind):/.test(l));
  const wrapped = 'machine:\n  kubelet:\n    extraConfig:\n' + body.map((l) => (l ? '      ' + l : l)).join('\n');
  const b = analyze([{ path: 'config.yaml', text: bare }]);
  const w = analyze([{ path: 'patch.yaml', text: wrapped }]);
  // bare lines 3.. are wrapped lines 4..: two lines (apiVersion, kind) out, three (machine, kubelet, extraConfig) in
  const key = (f: Finding, shift: number, indent: number) => `${f.code} ${f.range.start.line + shift}:${f.range.start.character + indent}`;
  const want = b.findings.filter((f) => f.range.start.line >= 2).map((f) => key(f, 1, 6)).sort();
  assert.ok(want.length > 0);
  assert.deepEqual(w.findings.map((f) => key(f, 0, 0)).sort(), want);
});

test('nodeadm MIME parts merge in order over nodeadm\'s base (015): maxPods from part 1, systemReserved from part 2', { skip: !dir && 'no corpus' }, () => {
  const name = '015-nodeadm-mime-merge.yaml';
  const a = analyze([{ path: name, text: readFileSync(join(dir!, 'files', name), 'utf8') }]);
  const n = a.nodes[0].node;
  const maxPods = n.settings.get('maxPods');
  // The setting is read in the NodeConfig payload; through its map it is at line 18 of the MIME file.
  const payload = a.files.get(name)!.embedded!.find((p) => p.kind === 'eks-nodeadm')!;
  assert.ok(maxPods?.kind === 'scalar' && maxPods.text === '58' && rangeToHost(payload, maxPods.span!.range).start.line === 17);
  const sr = n.settings.get('systemReserved');
  assert.ok(sr?.kind === 'map' && sr.items[0].text === '150m');
  const kr = n.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.deepEqual(kr.items.map((i) => `${i.key}=${i.text}`), ['ephemeral-storage=1Gi', 'memory=1465Mi']);
  assert.match(describe(kr.from), /nodeadm default/);
  const cg = n.settings.get('cgroupDriver');
  assert.ok(cg?.kind === 'scalar' && cg.text === 'systemd');
});

test('nodeadm: the user\'s kubelet.config maps merge into nodeadm\'s key by key (JSON merge patch), a flag replaces them', () => {
  const head = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n';
  const merged = analyze([{ path: 'nodeconfig.yaml', text: head + '    config:\n      evictionHard:\n        memory.available: 500Mi\n' }]);
  const ev = merged.nodes[0].node.settings.get('evictionHard');
  assert.ok(ev?.kind === 'map');
  assert.deepEqual(ev.items.map((i) => `${i.key}=${i.text}`).sort(), ['memory.available=500Mi', 'nodefs.available=10%', 'nodefs.inodesFree=5%']);
  assert.deepEqual(show(merged.findings), []);
  const flagged = analyze([{ path: 'nodeconfig.yaml', text: head + '    flags:\n      - --kube-reserved=cpu=100m\n' }]);
  assert.deepEqual(show(flagged.findings), ['6 warning platform-default-map-replaced']);
  assert.match(flagged.findings[0].message, /nodeadm reserves ephemeral-storage 1Gi and memory 1465Mi only while/);
});

test('nodeadm: a kubelet feature gate in spec.featureGates is reported; nodeadm\'s own gates are not', () => {
  const text = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  featureGates:\n    FastImagePull: true\n    MemoryQoS: true\n  kubelet:\n    config:\n      maxPods: 20\n';
  const a = analyze([{ path: 'nodeconfig.yaml', text }]);
  assert.deepEqual(show(a.findings), ['6 warning nodeadm-kubelet-gate']);
});

test('nodeadm: kubelet.flags as one string is an error nodeadm would fail on; a template placeholder is not', () => {
  const head = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 20\n';
  assert.deepEqual(show(analyze([{ path: 'n.yaml', text: head + '    flags: --max-pods=20\n' }]).findings), ['7 error config-field-type']);
  assert.deepEqual(show(analyze([{ path: 'n.yaml', text: head + '    flags: ${extra}\n' }]).findings), []);
});

test('nodeadm tiered CPU reservation (getCPUMillicoresToReserve): 2 vCPU 70m, 16 vCPU 110m', () => {
  assert.equal(nodeadmCpuMillis(2000), 70);
  assert.equal(nodeadmCpuMillis(16000), 110);
  assert.equal(nodeadmCpuMillis(500), 30);
});

test('recognition: top-level keys only; a platform file without kubelet settings is no node', () => {
  assert.equal(detectKind('x.yaml', 'machine:\n  kubelet:\n    extraArgs: {}\n'), 'talos');
  assert.equal(detectKind('x.yaml', 'spec:\n  machine:\n    kubelet:\n      extraArgs: {}\n'), undefined);
  assert.equal(detectKind('x.yaml', 'apiVersion: v1alpha1\nkind: KubeletConfig\nconfig: {}\n'), 'talos');
  // The OpenShift KubeletConfig is a format of its own, never a Talos KubeletConfig document.
  assert.equal(detectKind('x.yaml', 'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\n'), 'openshift');
  assert.equal(detectKind('x.yaml', 'spec:\n  userData: |\n    apiVersion: node.eks.aws/v1alpha1\n    kind: NodeConfig\n'), undefined);
  const a = analyze([{ path: 'worker.yaml', text: 'version: v1alpha1\nmachine:\n  type: worker\n  install:\n    disk: /dev/sda\n' }]);
  assert.equal(a.nodes.length, 0);
  assert.deepEqual(a.findings, []);
});

test('docs/formats/talos.md and eks-nodeadm.md: the worked examples give the findings the pages name, at their lines', () => {
  const example = (page: string) => readFileSync(join(__dirname, '../../docs/formats', page), 'utf8').split('```yaml\n')[1].split('```')[0];
  const talos = analyze([{ path: 'talos/patches/machine-kubelet.yaml', text: example('talos.md') }]);
  assert.deepEqual(show(talos.findings), ['10 error reserved-resource-unknown', '11 warning platform-default-map-replaced', '4 error platform-setting-refused', '6 information eviction-defaults-dropped']);
  assert.equal(talos.findings.find((f) => f.code === 'reserved-resource-unknown')?.fixes?.[0].edits[0].newText, 'memory');
  const eks = analyze([{ path: 'user-data.yaml', text: example('eks-nodeadm.md') }]);
  assert.deepEqual(show(eks.findings), ['11 warning nodeadm-kubelet-gate', '16 error eviction-soft-without-grace', '18 warning platform-default-map-replaced']);
  const fix = eks.findings.find((f) => f.code === 'eviction-soft-without-grace')?.fixes?.[0].edits[0];
  assert.equal(fix?.newText, '      evictionSoftGracePeriod:\n        memory.available: 1m30s\n');
});

test('editor: hover, completion of fields and flags, inlay hint and quick fix inside a Talos patch', () => {
  const text = 'machine:\n  kubelet:\n    extraArgs:\n      max-pods: "20"\n    extraConfig:\n      cpuManagerPolicy: static\n      evictionSoft:\n        memory.available: 200Mi\n      \n';
  const a = analyze([{ path: 'p.yaml', text }], { capacity: { cpu: 4000n, memory: 8n * GiB, hugepages: new Map() } });
  assert.match(JSON.stringify(hover(a, 'p.yaml', { line: 5, character: 8 })), /cpuManagerPolicy/);
  assert.match(JSON.stringify(hover(a, 'p.yaml', { line: 3, character: 8 })), /--max-pods/);
  const keys = completion(a, 'p.yaml', { line: 8, character: 6 }).map((c) => c.label);
  assert.ok(keys.includes('maxPods') && !keys.includes('kind') && !keys.includes('cpuManagerPolicy'), keys.slice(0, 5).join());
  assert.equal(completion(a, 'p.yaml', { line: 8, character: 4 }).length, 0);
  const flags = completion(a, 'p.yaml', { line: 3, character: 6 });
  // On a name that has its value: the name is replaced (test/unit/completion-args.test.ts has the other cases).
  assert.ok(flags.some((c) => c.label === 'kube-reserved' && c.textEdit && c.textEdit.newText === 'kube-reserved'));
  const hints = inlayHints(a, 'p.yaml', { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } });
  assert.equal(hints.length, 1);
  assert.equal(hints[0].position.line, 1);
  // Talos systemReserved memory 384Mi and the 100Mi eviction threshold come off 8 GiB.
  assert.match(String(hints[0].label), /7\.53 GiB · 20 pods/);
  const grace = a.findings.find((f) => f.code === 'eviction-soft-without-grace');
  const fixed = applyEdits(text, grace!.fixes![0].edits);
  const again = analyze([{ path: 'p.yaml', text: fixed }]);
  assert.equal(again.findings.filter((f) => f.code === 'eviction-soft-without-grace').length, 0, fixed);
  assert.equal(again.files.get('p.yaml')!.problems.length, 0);
});

const TALCONFIG = `clusterName: home
endpoint: https://10.0.0.1:6443
patches:
  - "@./patches/global.yaml"
  - |-
    machine:
      kubelet:
        extraConfig:
          systemReserved:
            memory: 1Gi
          evictionSoft:
            memory.available: 500Mi
nodes:
  - hostname: cp1
    controlPlane: true
    patches:
      - |
        machine:
          kubelet:
            extraArgs:
              max-pods: abc
worker:
  patches:
    - |
      machine:
        network:
          hostname: x
`;

test('talhelper talconfig.yaml: inline patches with kubelet settings are Talos patches, findings and fixes at their lines', () => {
  assert.equal(detectKind('talos/talconfig.yaml', TALCONFIG), 'talhelper');
  const a = analyze([{ path: 'talconfig.yaml', text: TALCONFIG }]);
  // One node per talhelper node, named by its hostname; the patch without kubelet settings adds nothing to it, and
  // the @file patch, whose file is not in the workspace, is said to be unread (information, line 4;
  // talhelper-patch-files.test.ts has the file).
  assert.deepEqual(a.nodes.map((n) => n.node.id), ['talconfig.yaml//cp1.yaml']);
  assert.equal(a.nodes[0].node.platform?.facts?.role, 'controlplane');
  assert.ok(a.findings.every((f) => f.file === 'talconfig.yaml'));
  assert.deepEqual(show(a.findings), ['12 error eviction-soft-without-grace', '21 error flag-value-invalid', '4 information reference-unresolved', '9 warning platform-default-map-replaced']);
  const grace = a.findings.find((f) => f.code === 'eviction-soft-without-grace')!;
  const fixed = applyEdits(TALCONFIG, grace.fixes![0].edits);
  const again = analyze([{ path: 'talconfig.yaml', text: fixed }]);
  assert.deepEqual(show(again.findings), ['23 error flag-value-invalid', '4 information reference-unresolved', '9 warning platform-default-map-replaced'], fixed);
});

// budimanjojo/talhelper v3.1.16 pkg/config/nodeconfigs.go mergeNodeConfigs and pkg/generate/config.go: the group's
// patches, then the node's own, then the top-level ones; overridePatches drops the group's. Talos merges the patches'
// maps key by key (pkg/machinery/merge).
const TALCONFIG_NODES = `clusterName: home
patches:
  - |-
    machine:
      kubelet:
        extraConfig:
          maxPods: 120
          evictionSoftGracePeriod:
            memory.available: 1m
nodes:
  - hostname: cp1
    controlPlane: true
  - hostname: w1
    patches:
      - |-
        machine:
          kubelet:
            extraConfig:
              maxPods: 300
              evictionSoft:
                memory.available: 1Gi
  - hostname: w2
    overridePatches: true
    patches:
      - |-
        machine:
          kubelet:
            extraArgs:
              node-labels: pool=w2
worker:
  patches:
    - |-
      machine:
        kubelet:
          extraConfig:
            evictionSoft:
              nodefs.available: 15%
            evictionSoftGracePeriod:
              nodefs.available: 2m
`;

test('talhelper: each node\'s kubelet is its group\'s patches, then its own, then the top-level ones, merged as Talos merges them', () => {
  const a = analyze([{ path: 'talconfig.yaml', text: TALCONFIG_NODES }]);
  const byName = new Map(a.nodes.map((n) => [n.node.id.replace('talconfig.yaml//', ''), n.node]));
  assert.deepEqual([...byName.keys()], ['cp1.yaml', 'w1.yaml', 'w2.yaml']);
  const scalar = (n: string, field: string) => {
    const s = byName.get(n)!.settings.get(field);
    return s?.kind === 'scalar' ? s.text : undefined;
  };
  const keys = (n: string, field: string) => {
    const s = byName.get(n)!.settings.get(field);
    return s?.kind === 'map' ? s.items.map((i) => `${i.key}=${i.text}`).sort() : undefined;
  };
  // The top-level patch comes last: its maxPods wins over w1's own.
  assert.equal(scalar('w1.yaml', 'maxPods'), '120');
  assert.equal(scalar('cp1.yaml', 'maxPods'), '120');
  // Maps merge key by key: the worker group's nodefs and w1's memory soft thresholds both hold.
  assert.deepEqual(keys('w1.yaml', 'evictionSoft'), ['memory.available=1Gi', 'nodefs.available=15%']);
  assert.deepEqual(keys('w1.yaml', 'evictionSoftGracePeriod'), ['memory.available=1m', 'nodefs.available=2m']);
  // overridePatches: w2 has no worker-group patch; control planes never get it.
  assert.equal(keys('w2.yaml', 'evictionSoft'), undefined);
  assert.equal(keys('cp1.yaml', 'evictionSoft'), undefined);
  assert.equal(byName.get('w2.yaml')!.flags.find((f) => f.name === 'node-labels')?.value, 'pool=w2');
  // Roles from controlPlane: Talos's default system-reserved memory differs.
  assert.deepEqual(keys('cp1.yaml', 'systemReserved')?.find((k) => k.startsWith('memory')), 'memory=512Mi');
  assert.deepEqual(keys('w1.yaml', 'systemReserved')?.find((k) => k.startsWith('memory')), 'memory=384Mi');
  // Every soft threshold has its grace period once merged: no finding.
  assert.deepEqual(show(a.findings), []);
});

test('talhelper: hover works in every patch of a node, whose parts are not in talconfig.yaml\'s order (group, node, top-level)', () => {
  const a = analyze([{ path: 'talconfig.yaml', text: TALCONFIG_NODES }]);
  const lines = TALCONFIG_NODES.split('\n');
  for (const key of ['maxPods: 120', 'maxPods: 300', 'nodefs.available: 15%']) {
    const line = lines.findIndex((l) => l.includes(key));
    const character = lines[line].indexOf(key) + 2;
    const h = hoverAt(a, 'talconfig.yaml', { line, character });
    assert.ok(h && typeof h.contents === 'object' && 'value' in h.contents, key);
    assert.match(h.contents.value, new RegExp(key.split(':')[0].replace('.', '\\.')), key);
    assert.equal(h.range?.start.line, line, key);
  }
  // Between two patches, in talconfig.yaml's own keys: no payload answers.
  const own = lines.findIndex((l) => l.startsWith('worker:'));
  assert.equal(hoverAt(a, 'talconfig.yaml', { line: own, character: 2 }), null);
});

test('nodeadm kubeReserved cpu comes from the capacity (tiered: 4 cores 80m), and allocatable counts it', () => {
  const text = 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPods: 20\n';
  const a = analyze([{ path: 'n.yaml', text }], { capacity: { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() } });
  const kr = a.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr?.kind === 'map');
  assert.equal(kr.items.find((i) => i.key === 'cpu')?.text, '80m');
  assert.equal(a.nodes[0].allocatable.lines.cpu.kubeReserved, 80n);
  // 11 × 110 + 255 = 1465Mi for nodeadm's fallback maxPods
  assert.equal(a.nodes[0].allocatable.lines.memory.kubeReserved, 1465n * MiB);
  const flagged = analyze([{ path: 'n.yaml', text: text + '    flags:\n      - --kube-reserved=memory=1Gi\n' }], { capacity: { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() } });
  const kr2 = flagged.nodes[0].node.settings.get('kubeReserved');
  assert.ok(kr2?.kind === 'map');
  assert.deepEqual(kr2.items.map((i) => i.key), ['memory']);
});

test('mutated Talos and nodeadm files (line deletions, duplications, truncation, stray characters): no crash, every range in its file', { skip: !dir && 'no corpus' }, () => {
  let seed = 20261201;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const stray = ['\t', ':', '- ', '"', "'", '{', '[', '%{ if x ~}', '${x}', '\r', '---', '--//', '#'];
  let runs = 0;
  for (const name of Object.keys(PINS)) {
    const base = readFileSync(join(dir!, 'files', name), 'utf8');
    for (let k = 0; k < 40; k++) {
      const lines = base.split('\n');
      const at = rnd(lines.length);
      const op = rnd(4);
      if (op === 0) lines.splice(at, 1);
      else if (op === 1) lines.splice(at, 0, lines[at]);
      else if (op === 2) lines.length = at + 1;
      else lines[at] = lines[at].slice(0, rnd(lines[at].length + 1)) + stray[rnd(stray.length)] + lines[at].slice(rnd(lines[at].length + 1));
      const text = lines.join('\n');
      const a = analyze([{ path: name, text }]);
      const count = text.split('\n').length;
      for (const f of a.findings) assert.ok(f.range.end.line < count && f.range.start.line <= f.range.end.line, `${name} #${k}: ${f.code} at ${JSON.stringify(f.range)}`);
      runs++;
    }
  }
  assert.equal(runs, 360);
});

test('Talos graceful shutdown defaults (30s, critical pods 10s) apply when unset; a critical-pods period of the user above Talos\'s 30s is checked against it', () => {
  const text = 'machine:\n  kubelet:\n    extraConfig:\n      shutdownGracePeriodCriticalPods: 60s\n';
  const a = analyze([{ path: 'p.yaml', text }]);
  const s = a.nodes[0].node.settings.get('shutdownGracePeriod');
  assert.ok(s?.kind === 'scalar' && s.text === '30s');
  assert.match(describe(s.from), /^Talos default/);
  const crit = a.findings.filter((f) => f.range.start.line === 3);
  assert.equal(crit.length, 1, JSON.stringify(show(a.findings)));
  assert.match(crit[0].message, /longer than shutdownGracePeriod 30s/);
  // 20s fits in Talos's 30s: no error (a rule that saw no shutdownGracePeriod would compare with 0s)
  const ok = analyze([{ path: 'p.yaml', text: text.replace('60s', '20s') }]);
  assert.deepEqual(show(ok.findings), []);
});

test('provenance names the flag the way the file does: Talos extraArgs, nodeadm kubelet.flags', () => {
  const t = analyze([{ path: 'p.yaml', text: 'machine:\n  kubelet:\n    extraArgs:\n      max-pods: "20"\n' }]);
  const tp = t.nodes[0].node.settings.get('maxPods');
  assert.equal(tp && describe(tp.from), 'extraArgs max-pods in p.yaml line 4');
  const n = analyze([{ path: 'n.yaml', text: 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n      - --max-pods=20\n' }]);
  const np = n.nodes[0].node.settings.get('maxPods');
  assert.equal(np && describe(np.from), 'kubelet.flags max-pods in n.yaml line 6');
});

test('nodeadm with a pod capacity (the instance\'s ENI limit, e.g. 29 for m5.large): maxPods 29, kubeReserved memory 11 × 29 + 255 = 574Mi', () => {
  const text = '# kubelet-lint: capacity cpu=2,memory=8Gi,pods=29\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      evictionHard:\n        memory.available: 200Mi\n';
  const a = analyze([{ path: 'n.yaml', text }]);
  const n = a.nodes[0];
  const mp = n.node.settings.get('maxPods');
  assert.ok(mp?.kind === 'scalar' && mp.text === '29');
  assert.match(describe(mp.from), /nodeadm default for maxPods 29/);
  assert.equal(n.allocatable.lines.memory.kubeReserved, 574n * MiB);
  assert.equal(n.allocatable.lines.cpu.kubeReserved, 70n);
  // 8Gi - 574Mi - 200Mi
  assert.equal(n.allocatable.lines.memory.allocatable, 8n * GiB - 774n * MiB);
  // the user's maxPods stays the user's; nodeadm's reservation follows the capacity
  const own = analyze([{ path: 'n.yaml', text: text + '      maxPods: 50\n' }]);
  const mp2 = own.nodes[0].node.settings.get('maxPods');
  assert.ok(mp2?.kind === 'scalar' && mp2.text === '50');
  assert.equal(own.nodes[0].allocatable.lines.memory.kubeReserved, 574n * MiB);
});

test('Talos rejects a KubeletConfig document beside machine.kubelet, and one without image (platform-config-invalid)', () => {
  const text = 'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      maxPods: 150\n---\napiVersion: v1alpha1\nkind: KubeletConfig\nconfig:\n  maxPods: 120\n';
  const a = analyze([{ path: 'worker.yaml', text }]);
  assert.deepEqual(show(a.findings), ['9 error platform-config-invalid', '9 error platform-config-invalid']);
});
