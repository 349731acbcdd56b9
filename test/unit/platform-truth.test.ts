/**
 * Issue #23: what each platform really does, from its own source, instead of advice that is right for systemd but
 * wrong for the platform. Each test is built from a realistic file of that platform.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';

const codes = (a: ReturnType<typeof analyze>, sev = ['error', 'warning']) => a.findings.filter((f) => sev.includes(f.severity)).map((f) => `${f.code} ${f.file}:${f.range.start.line + 1}`);

// kubernetes-sigs/cluster-api-provider-aws templates/cluster-template.yaml (d029c95a): the machine's own name.
const CAPA = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: \${CLUSTER_NAME}-md-0
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            cloud-provider: external
          name: '{{ ds.meta_data.local_hostname }}'
`;

test('Cluster API: a Jinja value cloud-init fills at boot is no forgotten placeholder (cloudinit.go: "## template: jinja")', () => {
  for (const name of ["'{{ ds.meta_data.local_hostname }}'", "'{{ local_hostname }}'", `'{{ ds.meta_data["local_hostname"] }}'`, "'{{ instance_id }}'"]) {
    const a = analyze([{ path: 'capa/cluster-template.yaml', text: CAPA.replace("'{{ ds.meta_data.local_hostname }}'", name) }]);
    assert.deepEqual(codes(a).filter((c) => c.startsWith('config-placeholder')), [], name);
  }
});

test('Cluster API Ignition: ${COREOS_*} counts as filled only when preKubeadmCommands run envsubst; @@HOSTNAME@@ only with sed', () => {
  const ign = (pre: string) => CAPA.replace('      joinConfiguration:', `      format: ignition\n      preKubeadmCommands:\n${pre}      joinConfiguration:`).replace("'{{ ds.meta_data.local_hostname }}'", "'@@HOSTNAME@@'");
  const withSed = analyze([{ path: 'capz/workers.yaml', text: ign("        - sed -i \"s/@@HOSTNAME@@/$(curl -s metadata)/g\" /etc/kubeadm.yml\n") }]);
  assert.deepEqual(codes(withSed).filter((c) => c.startsWith('config-placeholder')), []);
  const jinjaInIgnition = analyze([{ path: 'capz/workers.yaml', text: CAPA.replace('      joinConfiguration:', '      format: ignition\n      joinConfiguration:') }]);
  assert.equal(codes(jinjaInIgnition, ['error', 'warning', 'information']).filter((c) => c.startsWith('config-placeholder')).length, 1, 'Ignition data has no Jinja: the name stays literal');
  // Said as a condition: a Cluster API provider may rewrite bootstrap data (Tinkerbell replaces PROVIDER_ID).
  assert.deepEqual(jinjaInIgnition.findings.filter((f) => f.code === 'config-placeholder').map((f) => f.severity), ['information']);
});

// awslabs/amazon-eks-ami nodeadm/internal/kubelet/environment.go writeKubeletEnvironment: NODEADM_KUBELET_ARGS="<flags
// joined with spaces>"; kubelet.service runs `/usr/bin/kubelet $NODEADM_KUBELET_ARGS` (quotes dropped, split at blanks).
test('nodeadm: a flag item "--node-labels \\"foo=bar\\"" reaches the kubelet as --node-labels foo=bar (no flag-unknown)', () => {
  const text = `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: demo
  kubelet:
    flags:
      - '--node-labels "team=data,tier=batch"'
      - --register-with-taints=dedicated=data:NoSchedule
      - '--max-pods 58 --fail-swap-on false'
`;
  const a = analyze([{ path: 'eks/nodeconfig.yaml', text }]);
  assert.deepEqual(codes(a).filter((c) => c.startsWith('flag-unknown')), []);
  const flags = a.nodes[0].node.flags.map((f) => `${f.name}=${f.value}`);
  assert.ok(flags.includes('node-labels=team=data,tier=batch'), flags.join(' '));
  assert.ok(flags.includes('max-pods=58'), flags.join(' '));
  assert.ok(flags.includes('fail-swap-on=true'), 'a boolean flag takes no separate value: pflag leaves "false" as an argument');
});

// A Terraform templatefile of Bottlerocket user data (terraform-aws-eks's bottlerocket template, index id 7414887207).
test('Bottlerocket: user data kept as a Terraform template is read as the TOML it renders, and cluster-dns-ip, node-labels, node-taints are mapped', () => {
  const text = `[settings.kubernetes]
cluster-name = "\${cluster_name}"
api-server = "\${cluster_endpoint}"
max-pods = \${max_pods}
cluster-dns-ip = "172.20.0.10"
kube-reserved = { memory = "1Gi", cpu = "90m" }
[settings.kubernetes.node-labels]
"team" = "data"
[settings.kubernetes.node-taints]
"dedicated" = "data:NoSchedule"
%{ if admin_container_source != "" }
[settings.host-containers.admin]
source = "\${admin_container_source}"
%{ endif }
`;
  const a = analyze([{ path: 'bottlerocket/userdata.toml.tpl', text }, { path: 'b2/user-data.toml', text }]);
  assert.deepEqual(codes(a).filter((c) => c.startsWith('config-syntax')), []);
  assert.ok(a.nodes.length >= 1, 'the template makes a node');
  const node = a.nodes.find((n) => n.node.files.includes('b2/user-data.toml'))!.node;
  const dns = node.settings.get('clusterDNS');
  assert.equal(dns?.kind, 'list');
  const flags = node.flags.map((f) => `${f.name}=${f.value}`);
  assert.ok(flags.includes('node-labels=team=data') && flags.includes('register-with-taints=dedicated=data:NoSchedule'), flags.join(' '));
  assert.equal(node.settings.get('maxPods')?.from.how, 'platform', 'a templated max-pods is unknown: Bottlerocket decides it');
});

test('declared formats kept as templates are read as the file they render: k3s config.yaml.tpl, OpenShift .yaml.tpl; talhelper under any name', () => {
  const k3s = analyze([{ path: 'templates/rancher/k3s/config.yaml.tpl', text: 'token: "{{ k3s_token }}"\nkubelet-arg:\n  - "max-pods={{ max_pods }}"\n  - "kube-reserved=cpu=500m,memroy=1Gi"\n' }]);
  assert.equal(k3s.files.get('templates/rancher/k3s/config.yaml.tpl')?.kind, 'k3s');
  assert.ok(codes(k3s).some((c) => c.startsWith('reserved-resource-unknown')), 'the literal mistake in a template is still found');
  const os = analyze([{ path: 'manifests/kubeletconfig.yaml.tpl', text: 'apiVersion: machineconfiguration.openshift.io/v1\nkind: KubeletConfig\nmetadata:\n  name: {{ .Name }}\nspec:\n  kubeletConfig:\n    maxPods: 500\n' }]);
  assert.equal(os.files.get('manifests/kubeletconfig.yaml.tpl')?.kind, 'openshift');
  const tal = analyze([{ path: 'clusters/prod.yaml', text: 'clusterName: prod\nendpoint: https://10.0.0.1:6443\ntalosVersion: v1.9.0\nnodes:\n  - hostname: cp1\n    ipAddress: 10.0.0.1\n    controlPlane: true\n' }]);
  assert.equal(tal.files.get('clusters/prod.yaml')?.kind, 'talhelper');
});

// kubernetes-sigs/kind fed26882: pkg/internal/patch/resource.go matches (kind and, when set, apiVersion);
// pkg/cluster/internal/kubeadm/config.go Config (v1beta2 < 1.23 <= v1beta3 < 1.36 <= v1beta4).
test('kind: a worker patch of kubeadm.k8s.io/v1beta2 never applies on a current node image: a warning, not "kubeadm refuses"; a condition on the default image', () => {
  const text = (image: string) => `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
  - role: worker
${image}    kubeadmConfigPatches:
      - |
        apiVersion: kubeadm.k8s.io/v1beta2
        kind: JoinConfiguration
        nodeRegistration:
          kubeletExtraArgs:
            max-pods: "50"
`;
  // No image stated: kind's default image decides, an assumption, so the finding says so as information.
  const now = analyze([{ path: 'kind/kind-config.yaml', text: text('') }]);
  assert.deepEqual(codes(now, ['information']).filter((c) => c.startsWith('kind-')), ['kind-patch-not-applied kind/kind-config.yaml:8']);
  const current = analyze([{ path: 'kind/kind-config.yaml', text: text('    image: kindest/node:v1.36.0\n') }]);
  assert.deepEqual(codes(current), ['kind-patch-not-applied kind/kind-config.yaml:9']);
  // The same patch written for the version kind generates beside it: a fallback for older images, nothing lost.
  const twin = text('    image: kindest/node:v1.36.0\n').replace('      - |\n', '      - |\n        apiVersion: kubeadm.k8s.io/v1beta4\n        kind: JoinConfiguration\n        nodeRegistration:\n          kubeletExtraArgs:\n            - name: max-pods\n              value: "50"\n      - |\n');
  assert.deepEqual(codes(analyze([{ path: 'kind/kind-config.yaml', text: twin }]), ['error', 'warning', 'information']).filter((c) => c.startsWith('kind-patch')), []);
  const old = analyze([{ path: 'kind/kind-config.yaml', text: text('    image: kindest/node:v1.21.14\n') }]);
  assert.ok(!codes(old).some((c) => c.startsWith('kind-patch-not-applied')), 'on a 1.21 node image kind writes v1beta2 and applies it');
  const worker = old.nodes.find((n) => n.node.id.includes('worker'))!.node.settings.get('maxPods');
  assert.equal(worker?.kind === 'scalar' && worker.text, '50');
});

test("a kubeadm kubernetesVersion sets the version of the kubeadm nodes beside it only, never a k3s or Karpenter node's", () => {
  const kubeadm = { path: 'node1/cluster.yaml', text: 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.29.4\n' };
  const unit = { path: 'node1/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50\n' };
  const k3s = { path: 'k3s/etc/rancher/k3s/config.yaml', text: 'kubelet-arg:\n  - max-pods=50\n' };
  const a = analyze([kubeadm, unit, k3s]);
  const byFile = (f: string) => a.nodes.find((n) => n.node.files.includes(f))!.node;
  assert.equal(byFile(unit.path).kubernetesVersion, '1.29');
  assert.match(byFile(unit.path).kubernetesVersionSource ?? '', /node1\/cluster\.yaml line 3 \(the kubeadm ClusterConfiguration of this node's root/);
  assert.notEqual(byFile(k3s.path).kubernetesVersion, '1.29');
});

// siderolabs/talos: no systemd; kubelet_spec.go sets systemCgroups /system, the kubelet runs in /podruntime/kubelet.
test('Talos: the reserved-cgroup-missing fix inserts Talos cgroups (/system, /podruntime), never a systemd slice', () => {
  const text = `version: v1alpha1
machine:
  type: worker
  kubelet:
    extraConfig:
      enforceNodeAllocatable: [pods, system-reserved, kube-reserved]
      kubeReserved: { cpu: 200m, memory: 512Mi }
`;
  const a = analyze([{ path: 'talos/worker.yaml', text }]);
  const found = a.findings.filter((f) => f.code === 'reserved-cgroup-missing');
  assert.equal(found.length, 2);
  const inserted = found.flatMap((f) => f.fixes ?? []).flatMap((x) => x.edits.map((e) => e.newText)).join(' ');
  assert.match(inserted, /systemReservedCgroup: \/system\b/);
  assert.match(inserted, /kubeReservedCgroup: \/podruntime\b/);
  assert.ok(!/\.slice/.test(inserted), inserted);
  assert.match(found[0].message, /not systemd slices/);
});

test('Karpenter: a kubelet block in a karpenter.sh/v1 NodePool is reported (v1 moved it to EC2NodeClass spec.kubelet) and makes no node', () => {
  const text = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      kubelet:
        maxPods: 58
`;
  const a = analyze([{ path: 'karpenter/nodepool.yaml', text }]);
  assert.deepEqual(codes(a), ['karpenter-kubelet-moved karpenter/nodepool.yaml:12']);
  assert.equal(a.nodes.length, 0);
});

test('a here-document written to a computed path is read when it is a document with apiVersion and kind (a CI script writing a kind config)', () => {
  const text = `#!/usr/bin/env bash
set -euo pipefail
cat > "\${ARTIFACTS}/kind-config.yaml" <<'EOF'
kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
    kubeadmConfigPatches:
      - |
        kind: KubeletConfiguration
        maxPods: 20
        evictionHard:
          memory.avaliable: 100Mi
EOF
kind create cluster --config "\${ARTIFACTS}/kind-config.yaml"
`;
  const a = analyze([{ path: 'hack/ci/create-cluster.sh', text }]);
  assert.ok(a.nodes.some((n) => n.node.platform?.tool === 'kind'), 'the kind config is read as kind reads it');
  assert.ok(a.findings.some((f) => f.file === 'hack/ci/create-cluster.sh' && f.range.start.line === 12), 'the misspelt signal is found at its line in the script');
});

// Issue #26 point 11: the message says plainly what is lost and the fix adds it back (Talos kubelet_spec.go fills
// systemReserved only when the user's map is empty).
test("Talos: platform-default-map-replaced names the lost keys plainly, and its fix writes them back into the user's map", async () => {
  const { applyEdits } = await import('../helpers/edits.ts');
  const text = `version: v1alpha1
machine:
  type: worker
  kubelet:
    extraConfig:
      systemReserved:
        memory: 1Gi
`;
  const a = analyze([{ path: 'talos/worker.yaml', text }]);
  const f = a.findings.find((x) => x.code === 'platform-default-map-replaced')!;
  assert.match(f.message, /^This systemReserved replaces Talos's whole default map: cpu, pid and ephemeral-storage are no longer reserved\./);
  const fix = f.fixes![0];
  assert.equal(fix.title, "Add Talos's cpu, pid and ephemeral-storage back to systemReserved (cpu: 50m, pid: 100, ephemeral-storage: 256Mi)");
  const after = applyEdits(text, fix.edits);
  assert.match(after, /systemReserved:\n {8}memory: 1Gi\n {8}cpu: "50m"\n {8}pid: "100"\n {8}ephemeral-storage: "256Mi"\n/);
  assert.ok(!analyze([{ path: 'talos/worker.yaml', text: after }]).findings.some((x) => x.code === 'platform-default-map-replaced'));
});

// Issue #26 point 15: kind's generated evictionHard holds only 0% thresholds, which set no threshold: replacing it
// loses nothing (kind fed26882 pkg/cluster/internal/kubeadm/config.go).
test('kind: an --eviction-hard flag that replaces kind\'s 0% thresholds is no eviction-defaults-dropped', () => {
  const text = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: control-plane
    kubeadmConfigPatches:
      - |
        kind: InitConfiguration
        nodeRegistration:
          kubeletExtraArgs:
            eviction-hard: "memory.available<200Mi"
`;
  const a = analyze([{ path: 'kind/kind.yaml', text }]);
  assert.deepEqual(a.findings.filter((f) => f.code === 'eviction-defaults-dropped').map((f) => f.message), []);
});

// awslabs/amazon-eks-ami templates/al2/runtime/bootstrap.sh (b2289030^): kubeReserved cpu tiered, memory 11 × MAX_PODS
// + 255 Mi from eni-max-pods.txt, 1Gi disk; evictionHard 100Mi/10%/5%; maxPods MAX_PODS unless --use-max-pods false.
test('AL2 bootstrap.sh: its reservations, eviction and ENI maxPods are the node\'s base (m5.large: 70m, 574Mi, 29 pods)', () => {
  const script = (extra: string) => `#!/bin/bash\n# kubelet-lint: capacity m5.large\n/etc/eks/bootstrap.sh my-cluster${extra}\n`;
  const lines = (text: string) => {
    const a = analyze([{ path: 'eks/user-data.sh', text }]);
    assert.equal(a.nodes.length, 1, text);
    const al = a.nodes[0].allocatable.lines;
    return { cpu: al.cpu.allocatable, memory: al.memory.allocatable, pods: a.nodes[0].node.settings.get('maxPods') };
  };
  const MiB = 1n << 20n;
  const plain = lines(script(''));
  assert.equal(plain.cpu, 2000n - 70n);
  assert.equal(plain.memory, 8192n * MiB - 574n * MiB - 100n * MiB);
  assert.equal(plain.pods?.kind === 'scalar' && plain.pods.value, 29);
  // --use-max-pods false: no maxPods from bootstrap.sh (the kubelet's 110), the memory reservation still for 29 pods.
  const noMax = lines(script(' --use-max-pods false'));
  assert.equal(noMax.pods, undefined);
  assert.equal(noMax.memory, 8192n * MiB - 574n * MiB - 100n * MiB);
  // The extra args go on the command line over bootstrap.sh's config.
  const extra = lines(script(" --kubelet-extra-args '--max-pods=20'"));
  assert.equal(extra.pods?.kind === 'scalar' && String(extra.pods.value), '20');
});

test('cloud-init: a placeholder the cloud-config\'s own commands replace with sed (before kubeadm reads the file) is no forgotten placeholder', () => {
  const text = `#cloud-config
write_files:
  - path: /etc/kubernetes/kubeadm-join.yaml
    content: |
      apiVersion: kubeadm.k8s.io/v1beta3
      kind: JoinConfiguration
      discovery:
        bootstrapToken:
          apiServerEndpoint: REPLACE_API_ENDPOINT
          token: REPLACE_TOKEN
          unsafeSkipCAVerification: true
      nodeRegistration:
        name: NODE_NAME_HERE
runcmd:
  - sed -i "s|REPLACE_API_ENDPOINT|$(cat /run/endpoint)|g; s|REPLACE_TOKEN|$(cat /run/token)|g" /etc/kubernetes/kubeadm-join.yaml
  - sed -i "s|REPLACE_TOKEN|$(cat /run/token)|g" /etc/kubernetes/kubeadm-join.yaml
  - kubeadm join --config /etc/kubernetes/kubeadm-join.yaml
`;
  const a = analyze([{ path: 'cloud/worker.yaml', text }]);
  const placeholders = a.findings.filter((f) => f.code === 'config-placeholder').map((f) => f.message.split('"')[1]);
  assert.deepEqual(placeholders, ['NODE_NAME_HERE'], 'only the one no command fills');
});

// kubernetes cmd/kubeadm/app/componentconfigs/kubelet.go Default: an empty cgroupDriver becomes "systemd" (kubeadm 1.22+).
test('kubeadm writes cgroupDriver systemd when its config leaves it out: no mismatch with containerd SystemdCgroup = true', () => {
  const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\n---\napiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: "v${k8s_version}.0"\n';
  const containerd = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = true\n';
  const a = analyze([{ path: 'n/root/kubeadm-config.yaml', text: kubeadm }, { path: 'n/etc/containerd/config.toml', text: containerd }]);
  assert.equal(a.nodes[0].node.kubernetesVersion, '1.37', 'a templated kubernetesVersion states no version');
  assert.deepEqual(a.findings.filter((f) => f.code === 'cgroup-driver-mismatch'), []);
  // On disk, a config.yaml of the kubelet's own without cgroupDriver is the kubelet's default, cgroupfs.
  const unit = { path: 'm/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n' };
  const config = { path: 'm/var/lib/kubelet/config.yaml', text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n' };
  const b = analyze([unit, config, { path: 'm/etc/containerd/config.toml', text: containerd }], { kubernetesVersion: '1.30' });
  assert.equal(b.findings.filter((f) => f.code === 'cgroup-driver-mismatch').length, 1);
});
