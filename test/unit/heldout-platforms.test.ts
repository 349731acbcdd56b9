/**
 * Issue #15 acceptance, held-out style: realistic files of each platform format with a real mistake and a capacity
 * (a modeline or an instance type), run through the engine; their findings and allocatable are pinned, the allocatable
 * computed by hand from the upstream formulas:
 * - the kubelet: allocatable = capacity - kubeReserved - systemReserved - hard eviction threshold, per resource
 *   (pkg/kubelet/cm/node_container_manager_linux.go GetNodeAllocatableReservation); a percentage threshold is
 *   capacity × float32(percent) truncated (pkg/kubelet/eviction/helpers.go GetThresholdQuantity), so 10% of 100Gi is
 *   10737418400, not 10737418240; pods = maxPods;
 * - nodeadm, Karpenter, Bottlerocket: kubeReserved memory 11 × pods + 255 MiB, cpu 60m for the first core, 10m the
 *   second, 5m the third and fourth, 2.5m each after, ephemeral-storage 1Gi (amazon-eks-ami nodeadm/internal/kubelet/
 *   config.go; karpenter-provider-aws pkg/providers/instancetype/types.go; bottlerocket schnauzer kube_reserve_*);
 * - Talos: systemReserved cpu 50m, memory 384Mi, pid 100, ephemeral-storage 256Mi on a worker, only while the user's
 *   map is empty (kubelet_spec.go); OpenShift: /etc/node-sizing.env cpu 500m, memory 1Gi, ephemeral-storage 1Gi;
 *   k3s and RKE2: evictionHard imagefs.available<5%, nodefs.available<5% (their defaults drop-in).
 * Fixtures: test/fixtures/heldout/.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { completionAt, hoverAt } from '../../server/src/features/embedded.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyEdits } from '../helpers/edits.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const FIXTURES = join(__dirname, '../fixtures/heldout');
const read = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const show = (fs: readonly Finding[]) => fs.map((f) => `${f.range.start.line + 1} ${f.severity} ${f.code}`).sort();
const GiB = 1024n ** 3n;
const MiB = 1024n ** 2n;

interface Want {
  findings: string[];
  cpu?: bigint;
  memory: bigint;
  storage?: bigint;
  pods: bigint;
}

function check(name: string, path: string, want: Want): Analysis {
  const a = analyze([{ path, text: read(name) }]);
  assert.deepEqual(show(a.findings), [...want.findings].sort());
  assertShortPoints(a.findings);
  assert.equal(a.nodes.length, 1, a.nodes.map((n) => n.node.id).join(', '));
  const al = a.nodes[0].allocatable;
  assert.ok(al.hasCapacity, 'the capacity is known');
  if (want.cpu !== undefined) assert.equal(al.lines.cpu.allocatable, want.cpu, 'cpu');
  assert.equal(al.lines.memory.allocatable, want.memory, 'memory');
  if (want.storage !== undefined) assert.equal(al.lines['ephemeral-storage'].allocatable, want.storage, 'ephemeral-storage');
  assert.equal(al.pods, want.pods, 'pods');
  return a;
}

/** Applies the first fix of the first finding with `code` and analyses the result again. */
function fixed(path: string, text: string, code: string): { text: string; after: Analysis } {
  const f = analyze([{ path, text }]).findings.find((x) => x.code === code);
  assert.ok(f?.fixes?.length, `${code} offers a fix`);
  const out = applyEdits(text, f.fixes[0].edits, path);
  return { text: out, after: analyze([{ path, text: out }]) };
}

test('Talos worker config: extraArgs repeats serverTLSBootstrap, a one-key systemReserved drops Talos defaults, a soft threshold without grace', () => {
  // 4 CPU / 16Gi / 100Gi: cpu 4000 - 250 (Talos's cpu 50m is gone with the user's map); memory 16Gi - 1Gi - 512Mi -
  // 100Mi; disk 100Gi - 10% (float32); pods = --max-pods 250.
  check('talos-worker.yaml', 'talos/worker.yaml', {
    findings: ['11 information flag-overrides-config', '17 warning platform-default-map-replaced', '20 error eviction-soft-without-grace'],
    cpu: 3750n,
    memory: 16n * GiB - GiB - 512n * MiB - 100n * MiB,
    storage: 100n * GiB - 10737418400n,
    pods: 250n,
  });
});

test('Talos v1.14 KubeletConfig document: no image, a cpu-only systemReserved loses Talos memory/pid/disk', () => {
  // 2 CPU / 4Gi / 20Gi: cpu 2000 - 100 - 100; memory 4Gi - 300Mi - 100Mi eviction; disk 20Gi - 10% (float32).
  check('talos-kubeletconfig.yaml', 'talos/kubelet.yaml', {
    findings: ['3 error platform-config-invalid', '5 warning platform-default-map-replaced'],
    cpu: 1800n,
    memory: 4n * GiB - 300n * MiB - 100n * MiB,
    storage: 20n * GiB - 2147483680n,
    pods: 64n,
  });
});

test('talhelper: a node patch with a number as kubeReserved cpu and a one-signal evictionHard; the quote fix re-analyses clean', () => {
  const path = 'talos/talconfig.yaml';
  const a = analyze([{ path, text: read('talconfig.yaml') }]);
  assert.deepEqual(show(a.findings), ['13 information eviction-defaults-dropped', '16 error config-field-type']);
  const { text, after } = fixed(path, read('talconfig.yaml'), 'config-field-type');
  assert.match(text, /cpu: "2"/);
  assert.deepEqual(show(after.findings), ['13 information eviction-defaults-dropped']);
});

test('EKS NodeConfig: --eviction-hard in flags replaces nodeadm evictionHard; kube-reserved is nodeadm’s for an m5.large', () => {
  // m5.large (2 vCPU, 8Gi, 29 ENI pods): nodeadm kubeReserved cpu 60 + 10 = 70m, memory 11 × 29 + 255 = 574Mi;
  // systemReserved cpu 100m, memory 300M (decimal); --eviction-hard memory 300Mi.
  check('nodeconfig.yaml', 'eks/nodeconfig.yaml', {
    findings: ['16 hint quantity-decimal-suffix', '21 information eviction-defaults-dropped', '21 warning flag-overrides-config'],
    cpu: 2000n - 70n - 100n,
    memory: 8n * GiB - 574n * MiB - 300_000_000n - 300n * MiB,
    pods: 29n,
  });
});

test('EKS nodeadm MIME user data: two NodeConfig parts merge key by key (kubeReserved memory from part 1, cpu from part 2)', () => {
  // m5.xlarge (4 vCPU, 16Gi): cpu 4000 - 250; memory 16Gi - 1Gi - 500Mi - 100Mi; pods: kubelet.config.maxPods 110.
  check('nodeadm-mime', 'eks/user-data', { findings: [], cpu: 3750n, memory: 16n * GiB - GiB - 500n * MiB - 100n * MiB, pods: 110n });
});

test('Karpenter v1beta1 NodePool: maxPods over c5.large ENI limit, gpu reservation, a grace period without soft threshold', () => {
  // c5.large (2 vCPU, 4Gi): Karpenter sizes it at 4096 - ceil(7.5% of 4096) = 3788Mi (types.go memory(), its VM
  // overhead estimate). kubeReserved cpu 70m and 1Gi disk, memory the user's 500Mi; systemReserved cpu 100m, memory
  // 100Mi; evictionHard memory 5% of 3788Mi as the kubelet computes it (float32 0.05): 198600297.
  const a = check('karpenter-v1beta1.yaml', 'karpenter/nodepool.yaml', {
    findings: ['15 information max-pods-above-eni-limit', '22 error reserved-resource-unknown', '27 error karpenter-kubelet-invalid'],
    cpu: 1830n,
    memory: 3788n * MiB - 500n * MiB - 100n * MiB - 198600297n,
    pods: 40n,
  });
  assert.equal(a.nodes[0].node.capacityCandidates?.length, 2, 'one row per allowed instance type');
});

test('Karpenter v1alpha5 Provisioner: containerRuntime is a Provisioner field, not an unknown kubelet field', () => {
  // kubernetes-sigs/karpenter v0.31 pkg/apis/v1alpha5 KubeletConfiguration.ContainerRuntime (the AL2 bootstrap's
  // --container-runtime). m5.large as Karpenter sizes it: 8192 - ceil(7.5% of 8192) = 7577Mi; kubeReserved cpu 70m,
  // memory 11 × 29 + 255 = 574Mi; eviction 100Mi; pods 20.
  const path = 'karpenter/provisioner.yaml';
  check('karpenter-provisioner.yaml', path, { findings: ['15 error eviction-soft-without-grace'], cpu: 1930n, memory: 7577n * MiB - 574n * MiB - 100n * MiB, pods: 20n });
  const { text, after } = fixed(path, read('karpenter-provisioner.yaml'), 'eviction-soft-without-grace');
  assert.match(text, /evictionSoftGracePeriod:\n {6}memory.available: 1m30s\n {6}nodefs.available: 1m30s\n/);
  assert.deepEqual(show(after.findings), []);
});

test('Karpenter v1 EC2NodeClass (Bottlerocket) with a v1 NodePool: "2gi" and imageGC low above high', () => {
  check('karpenter-v1.yaml', 'karpenter/ec2nodeclass.yaml', {
    findings: ['12 error quantity-invalid', '14 error config-value-invalid'],
    cpu: 4000n - 200n,
    // 16Gi less Karpenter's VM overhead estimate, ceil(7.5% of 16384Mi) = 1229Mi
    memory: (16384n - 1229n) * MiB - 100n * MiB,
    pods: 58n,
  });
});

test('Cluster API v1beta2 list: cgroup-driver typo fixed in the list item value, unknown gate (an error: the gate list is complete through 1.37), one-signal --eviction-hard', () => {
  // 8 CPU / 32Gi / 100Gi: cpu 8000 - 500; memory 32Gi - 1Gi - 1Gi eviction; disk: no nodefs threshold left.
  const path = 'capi/kct.yaml';
  check('capi-v1beta2.yaml', path, {
    findings: ['16 information eviction-defaults-dropped', '19 error cgroup-driver-invalid', '21 error feature-gate-unknown'],
    cpu: 7500n,
    memory: 30n * GiB,
    storage: 100n * GiB,
    pods: 200n,
  });
  const { text, after } = fixed(path, read('capi-v1beta2.yaml'), 'cgroup-driver-invalid');
  assert.match(text, /- name: cgroup-driver\n {14}value: systemd\n/);
  assert.ok(!after.findings.some((f) => f.code === 'cgroup-driver-invalid'));
});

test('Cluster API v1beta1: a kubeadm patch in patches.directory joins the control plane node (strategic merge over kubeadm)', () => {
  // kubeadm applies kubeletconfiguration*.yaml of patches.directory over its kubelet config (patches.go); the flags
  // of kubeletExtraArgs apply on top. 4 CPU / 8Gi / 50Gi: cpu 4000 - 300 (patch) - 250 (--system-reserved);
  // memory 8Gi - 1.5Gi - 512Mi (the patch's evictionHard has no memory.available); disk 50Gi - 5% (float32).
  const a = check('capi-v1beta1-patch.yaml', 'capi/kcp.yaml', {
    findings: ['26 information eviction-defaults-dropped', '28 error config-field-type'],
    cpu: 3450n,
    memory: 6n * GiB,
    storage: 50n * GiB - 2684354600n,
    pods: 110n,
  });
  assert.deepEqual(a.nodes[0].node.files.map((f) => f.replace(/.*\/\//, '')).sort(), ['cp/etc/kubernetes/patches/kubeletconfiguration0+strategic.yaml', 'cp/run/kubeadm/initConfiguration.yaml']);
});

test('k3s config.yaml: invalid 2GB, removed gate, a percentage evictionHard that drops k3s nodefs default', () => {
  // 2 CPU / 4Gi / 50Gi: cpu 2000 - 200 - 250; memory 4Gi - 512Mi - 5% of 4Gi (float32: 214748368); the user's
  // --eviction-hard replaces k3s's, so no disk threshold. The file names no k3s version: the removed gate is
  // information that says from which kubelet on it refuses (node/evidence.ts); 2GB is refused by every one.
  check('k3s-config.yaml', 'etc/rancher/k3s/config.yaml', {
    findings: ['7 information eviction-defaults-dropped', '8 error quantity-invalid', '9 information feature-gate-removed'],
    cpu: 1550n,
    memory: 4n * GiB - 512n * MiB - 214748368n,
    storage: 50n * GiB,
    pods: 300n,
  });
});

test('k3s fixes edit the key=value string: --max-pod and memroy', () => {
  const path = 'etc/rancher/k3s/config.yaml';
  const text = 'kubelet-arg:\n  - "max-pod=50"\n  - kube-reserved=memroy=1Gi\n';
  const one = fixed(path, text, 'flag-unknown');
  assert.equal(one.text, 'kubelet-arg:\n  - "max-pods=50"\n  - kube-reserved=memroy=1Gi\n');
  const two = fixed(path, one.text, 'reserved-resource-unknown');
  assert.equal(two.text, 'kubelet-arg:\n  - "max-pods=50"\n  - kube-reserved=memory=1Gi\n');
  assert.deepEqual(show(two.after.findings), []);
});

test('RKE2 config.yaml: system-reserved over capacity is reported at the system-reserved value, soft threshold without grace', () => {
  // 4 CPU / 8Gi / 100Gi: memory 1Gi + 8Gi > 8Gi (RKE2's evictionHard has no memory signal); disk 100Gi - 5% (float32).
  check('rke2-config.yaml', 'etc/rancher/rke2/config.yaml', {
    findings: ['6 error reservation-exceeds-capacity', '7 error eviction-soft-without-grace'],
    cpu: 3000n,
    memory: 0n,
    storage: 100n * GiB - 5368709200n,
    pods: 110n,
  });
});

test('OpenShift KubeletConfig: an unparsable duration is a decode error; systemReserved memory replaces node-sizing.env’s only', () => {
  // 8 CPU / 32Gi / 200Gi: cpu 8000 - 500 (node-sizing.env); memory 32Gi - 3Gi - 500Mi; disk 200Gi - 1Gi (the
  // user's evictionHard drops nodefs).
  check('openshift.yaml', 'ocp/kubeletconfig.yaml', {
    findings: ['14 information eviction-defaults-dropped', '16 error config-field-type'],
    cpu: 7500n,
    memory: 29n * GiB - 500n * MiB,
    storage: 199n * GiB,
    pods: 500n,
  });
});

test('a duration field whose string time.ParseDuration refuses fails the config decode (metav1.Duration.UnmarshalJSON)', () => {
  const text = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nshutdownGracePeriod: 30sec\nevictionPressureTransitionPeriod: 0\nnodeStatusUpdateFrequency: 1m30s\n';
  const fs = analyze([{ path: 'var/lib/kubelet/config.yaml', text }]).findings.filter((f) => f.code === 'config-field-type');
  // "0" alone is a valid Go duration; 30sec is not (and 0 unquoted is a number: wrong type, also reported).
  assert.deepEqual(fs.map((f) => `${f.range.start.line + 1} ${f.message.split(';')[0]}`), [
    '3 shutdownGracePeriod must be a duration, not "30sec"',
    '4 evictionPressureTransitionPeriod must be a string, not a number (0)',
  ]);
});

test('eksctl nodeGroup kubeletExtraConfig on an m5.xlarge: a reserved cgroup that is not enforced, so never looked up', () => {
  // cpu 4000 - 300 - 300; memory 16Gi - 300Mi - 300Mi - 200Mi; pods: the m5.xlarge ENI limit 58.
  check('eksctl.yaml', 'eksctl/cluster.yaml', {
    findings: ['16 hint reserved-cgroup-unused'],
    cpu: 3400n,
    memory: 16n * GiB - 800n * MiB,
    pods: 58n,
  });
});

test('kops InstanceGroup: a ">" in the evictionHard flag string, soft threshold without grace; capacity from machineType', () => {
  // m5.large: cpu 2000 - 100; memory 8Gi - 1Gi - 100Mi; pods maxPods 110.
  check('kops-ig.yaml', 'kops/ig.yaml', {
    findings: ['17 error flag-value-invalid', '17 hint eviction-defaults-dropped', '18 error eviction-soft-without-grace'],
    cpu: 1900n,
    memory: 7n * GiB - 100n * MiB,
    pods: 110n,
  });
});

test('Bottlerocket TOML: imageGC low above high, invalid cpu, system-reserved over capacity at its own key', () => {
  // 4 CPU / 16Gi / 100Gi: memory 1G + 20Gi + 200Mi > 16Gi; disk 100Gi - Bottlerocket's 1Gi (eviction-hard without nodefs).
  check('bottlerocket.toml', 'br/user-data.toml', {
    findings: ['7 error config-value-invalid', '10 hint quantity-decimal-suffix', '11 error quantity-invalid', '13 information eviction-defaults-dropped', '17 error reservation-exceeds-capacity'],
    memory: 0n,
    storage: 99n * GiB,
    pods: 58n,
  });
});

test('Bottlerocket fix renames the TOML key', () => {
  const path = 'br/user-data.toml';
  const text = '[settings.kubernetes]\ncluster-name = "x"\n[settings.kubernetes.kube-reserved]\nmemroy = "1Gi"\n';
  const { text: out, after } = fixed(path, text, 'reserved-resource-unknown');
  assert.equal(out, text.replace('memroy', 'memory'));
  assert.ok(!after.findings.some((f) => f.code === 'reserved-resource-unknown'));
});

test('files of these formats without kubelet settings get no findings and no node', () => {
  const files: Record<string, string> = {
    'talos/worker.yaml': 'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.31.2\ncluster:\n  clusterName: demo\n',
    'talos/patch.yaml': 'machine:\n  network:\n    hostname: w1\n',
    'eks/nodeconfig.yaml': 'apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n    name: demo\n    cidr: 10.100.0.0/16\n',
    'karpenter/pool.yaml': 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: d\nspec:\n  amiSelectorTerms:\n    - alias: al2023@latest\n---\napiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      nodeClassRef:\n        group: karpenter.k8s.aws\n        kind: EC2NodeClass\n        name: d\n',
    'capi/kct.yaml': 'apiVersion: bootstrap.cluster.x-k8s.io/v1beta2\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md\nspec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          criSocket: unix:///run/containerd/containerd.sock\n      files:\n        - path: /etc/motd\n          content: hello\n',
    'etc/rancher/k3s/config.yaml': 'write-kubeconfig-mode: "0644"\nnode-label:\n  - a=b\n',
    'ocp/kc.yaml': 'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: l\nspec:\n  logLevel: 4\n',
    'eksctl/cluster.yaml': 'apiVersion: eksctl.io/v1alpha5\nkind: ClusterConfig\nmetadata:\n  name: d\n  region: us-west-2\nmanagedNodeGroups:\n  - name: ng\n    instanceType: m5.large\n',
    'kops/ig.yaml': 'apiVersion: kops.k8s.io/v1alpha2\nkind: InstanceGroup\nmetadata:\n  name: n\nspec:\n  role: Node\n  machineType: m5.large\n',
    'br/user-data.toml': '[settings.kubernetes]\ncluster-name = "demo"\napi-server = "https://x"\n',
  };
  for (const [path, text] of Object.entries(files)) {
    const a = analyze([{ path, text }], { capacity: { cpu: 4000n, memory: 16n * GiB, hugepages: new Map() } });
    assert.deepEqual(show(a.findings), [], path);
    assert.deepEqual(a.nodes.map((n) => n.node.id), [], path);
  }
});

test('completion of the next kubelet key on a blank line inside a Karpenter kubelet block and a Cluster API extra-args map', () => {
  const karpenter = 'apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata:\n  name: x\nspec:\n  kubelet:\n    maxPods: 20\n    \n  role: r\n';
  const k = analyze([{ path: 'k.yaml', text: karpenter }]);
  const item = completionAt(k, 'k.yaml', { line: 7, character: 4 }).find((i) => i.label === 'imageGCHighThresholdPercent');
  assert.deepEqual(item?.textEdit, { range: { start: { line: 7, character: 4 }, end: { line: 7, character: 4 } }, newText: 'imageGCHighThresholdPercent: ' });
  const capi = 'apiVersion: bootstrap.cluster.x-k8s.io/v1beta1\nkind: KubeadmConfigTemplate\nmetadata:\n  name: md\nspec:\n  template:\n    spec:\n      joinConfiguration:\n        nodeRegistration:\n          kubeletExtraArgs:\n            max-pods: "20"\n            \n';
  const c = analyze([{ path: 'c.yaml', text: capi }]);
  assert.ok(completionAt(c, 'c.yaml', { line: 11, character: 12 }).some((i) => i.label === 'image-gc-high-threshold'));
  // The parent's next key is not in the block: no kubelet key there.
  assert.ok(!completionAt(k, 'k.yaml', { line: 8, character: 1 }).some((i) => i.label === 'imageGCHighThresholdPercent'));
});

test('hover of kubelet fields and flags inside each block', () => {
  const cases: [string, string, number, number, RegExp][] = [
    ['eksctl.yaml', 'eksctl/cluster.yaml', 11, 8, /kubeReserved/],
    ['kops-ig.yaml', 'kops/ig.yaml', 12, 6, /maxPods/],
    ['capi-v1beta2.yaml', 'capi/kct.yaml', 11, 22, /--max-pods/],
    ['capi-v1beta1-patch.yaml', 'capi/kcp.yaml', 13, 12, /--system-reserved/],
    ['capi-v1beta1-patch.yaml', 'capi/kcp.yaml', 23, 12, /kubeReserved/],
    ['karpenter-provisioner.yaml', 'karpenter/provisioner.yaml', 11, 6, /maxPods/],
    ['talconfig.yaml', 'talos/talconfig.yaml', 14, 16, /kubeReserved/],
    ['nodeadm-mime', 'eks/user-data', 25, 8, /maxPods/],
    ['bottlerocket.toml', 'br/user-data.toml', 3, 2, /maxPods/],
  ];
  for (const [name, path, line, character, want] of cases) {
    const a = analyze([{ path, text: read(name) }]);
    assert.match(JSON.stringify(hoverAt(a, path, { line, character })?.contents ?? null), want, `${name} ${line}:${character}`);
  }
});
