// Inputs of the benchmark, generated deterministically (no randomness, so runs compare).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PATHS = {
  unit: 'node/usr/lib/systemd/system/kubelet.service',
  dropin: 'node/etc/systemd/system/kubelet.service.d/10-kubeadm.conf',
  flagsEnv: 'node/var/lib/kubelet/kubeadm-flags.env',
  defaultEnv: 'node/etc/default/kubelet',
  config: 'node/var/lib/kubelet/config.yaml',
  containerd: 'node/etc/containerd/config.toml',
};

export const UNIT = `[Unit]
Description=kubelet: The Kubernetes Node Agent
Documentation=https://kubernetes.io/docs/
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=10

[Install]
WantedBy=multi-user.target
`;

export const DROPIN = `# Note: This dropin only works with kubeadm and kubelet v1.11+
[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
# This is a file that "kubeadm init" and "kubeadm join" generates at runtime, populating the KUBELET_KUBEADM_ARGS variable dynamically
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
# This is a file that the user can use for overrides of the kubelet args as a last resort.
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
`;

export const FLAGS_ENV = `KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10"
`;

export const DEFAULT_ENV = `KUBELET_EXTRA_ARGS=--node-labels=node.kubernetes.io/pool=general --v=2
`;

/** A 30-line KubeletConfiguration (with a couple of findings, as real ones have). */
export const CONFIG_30 = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
clusterDNS:
  - 10.96.0.10
clusterDomain: cluster.local
rotateCertificates: true
serverTLSBootstrap: true
staticPodPath: /etc/kubernetes/manifests
maxPods: 110
authentication:
  anonymous:
    enabled: false
  webhook:
    enabled: true
authorization:
  mode: Webhook
enforceNodeAllocatable:
  - pods
kubeReserved:
  cpu: 500m
  memory: 1Gi
  ephemeral-storage: 1Gi
systemReserved:
  cpu: 500m
  memory: 1Gi
evictionHard:
  memory.available: 200Mi
  nodefs.available: 10%
imageGCHighThresholdPercent: 85
`;

export const CONTAINERD = `version = 2

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.10"

[plugins."io.containerd.grpc.v1.cri".containerd]
  default_runtime_name = "runc"

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
  runtime_type = "io.containerd.runc.v2"

[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
  SystemdCgroup = true
`;

export const CAPACITY_MODELINE = '# kubelet-lint: capacity cpu=8,memory=32Gi,ephemeral-storage=200Gi\n';

export function typicalNode() {
  return [
    { path: PATHS.unit, text: UNIT },
    { path: PATHS.dropin, text: DROPIN },
    { path: PATHS.flagsEnv, text: FLAGS_ENV },
    { path: PATHS.defaultEnv, text: DEFAULT_ENV },
    { path: PATHS.config, text: CAPACITY_MODELINE + CONFIG_30 },
    { path: PATHS.containerd, text: CONTAINERD },
  ];
}

const GATES = ['CPUManagerPolicyAlphaOptions', 'MemoryQoS', 'NodeSwap', 'KubeletTracing', 'GracefulNodeShutdown', 'InPlacePodVerticalScaling'];

/** A KubeletConfiguration of about `lines` lines: a short head, then featureGates and allowedUnsafeSysctls entries (half each). */
export function yamlConfig(lines) {
  const head = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: systemd
clusterDomain: cluster.local
maxPods: 110
`;
  const headLines = 5;
  const body = Math.max(2, lines - headLines - 2);
  const gates = Math.floor(body / 2);
  const sysctls = body - gates;
  const out = [head, 'featureGates:\n'];
  for (let i = 0; i < gates; i++) out.push(`  ${i < GATES.length ? GATES[i] : `CustomGate${i}`}: ${i % 3 === 0 ? 'false' : 'true'}\n`);
  out.push('allowedUnsafeSysctls:\n');
  for (let i = 0; i < sysctls; i++) out.push(`  - net.ipv4.conf.eth${i}.rp_filter\n`);
  return out.join('');
}

// Continuation lines of the long ExecStart: repeatable flags with distinct keys or items (map flags
// merge key by key, list flags append), so that the file is large without being a wall of findings.
const CONTINUED = [
  (i) => `--node-labels=example.com/label-${i}=value-${i}`,
  (i) => `--register-with-taints=dedicated-${i}=infra:NoSchedule`,
  (i) => `--node-labels=topology.example.com/rack-${i}=r${i}`,
  (i) => `$KUBELET_VAR_${i}`,
];

/**
 * A drop-in of about `lines` lines: Environment= lines (half), then one ExecStart continued over the
 * other half. The variables hold --node-labels entries with distinct keys; a few scalar flags come first.
 */
export function dropin(lines) {
  const body = Math.max(8, lines - 5);
  const env = Math.floor(body / 2);
  const cont = body - env;
  const out = ['[Service]\n'];
  for (let i = 0; i < env; i++) out.push(`Environment="KUBELET_VAR_${i}=--node-labels=example.com/env-${i}=value-${i}"\n`);
  out.push('ExecStart=\n', 'ExecStart=/usr/bin/kubelet \\\n', '    --config=/var/lib/kubelet/config.yaml \\\n', '    --v=2 --node-ip=10.0.0.1 \\\n');
  for (let i = 0; i < cont - 1; i++) out.push(`    ${CONTINUED[i % CONTINUED.length](i % 4 === 3 ? (i >> 2) % Math.max(1, env) : i)} \\\n`);
  out.push('    --max-pods=110\n');
  return out.join('');
}

/** An environment file of about `lines` lines (comments and quoted values: --node-labels entries with distinct keys). */
export function envFile(lines) {
  const out = [];
  for (let i = 0; i < lines - 1; i++) {
    if (i % 10 === 0) out.push(`# section ${i}\n`);
    else out.push(`KUBELET_VAR_${i}="--node-labels=example.com/label-${i}=value-${i} --node-labels=topology.example.com/rack-${i}=r${i % 50}"\n`);
  }
  out.push('KUBELET_EXTRA_ARGS=--v=2\n');
  return out.join('');
}

export const lineCount = (t) => t.split('\n').length - (t.endsWith('\n') ? 1 : 0);

/**
 * The real platform files the GitOps stream is made of (../shared/corpus-embedded, MANIFEST.tsv): Cluster API
 * v1beta2 and v1beta1, Talos patches, a Talos machine config (a Terraform template) and a v1.14 KubeletConfig
 * document, EKS NodeConfigs, k3s, Karpenter, kops, eksctl and OpenShift KubeletConfig.
 */
export const GITOPS_FILES = ['005', '011', '029', '016', '007', '012', '002', '013', '017', '014', '009', '010', '025', '026'];

/**
 * A multi-document GitOps file of about `lines` lines: the GITOPS_FILES from `dir` (the corpus's files/ folder) one
 * after the other, again and again, each copy's object names suffixed (`-2`, `-3`, ...) so that no two objects share
 * a name; a capacity modeline first. Returns the text and the offset of the end of the line `memory: 1Gi` that ends
 * the middle copy's Talos extraConfig (where the keystroke scenario types).
 */
export function gitopsStream(dir, lines, read) {
  const names = read.list(dir);
  const docs = GITOPS_FILES.map((n) => {
    const file = names.find((f) => f.startsWith(`${n}-`));
    if (!file) throw new Error(`corpus-embedded has no file ${n}-*`);
    return { n, text: read.text(`${dir}/${file}`).replace(/^---\n/, '') };
  });
  const out = [CAPACITY_MODELINE];
  let count = 1;
  let copy = 0;
  const copies = [];
  while (count < lines) {
    copy++;
    for (const d of docs) {
      if (count >= lines) break;
      const text = copy === 1 ? d.text : d.text.replace(/^( {2}name: )(\S+)$/gm, (_, k, v) => `${k}${v}-${copy}`);
      copies.push({ copy, n: d.n, at: out.join('').length + 4 });
      out.push('---\n', text.endsWith('\n') ? text : `${text}\n`);
      count += lineCount(text) + 1;
    }
  }
  const text = out.join('');
  const middle = copies.find((c) => c.n === '011' && c.copy === Math.ceil(copy / 2));
  const at = text.indexOf('        memory: 1Gi\n', middle.at) + '        memory: 1Gi'.length;
  return { text, at, copies: copy };
}

/** The real platform files beside the checkout (`shared/corpus-embedded/files` in the nearest ancestor folder), or undefined. */
export function corpusEmbedded() {
  for (let dir = join(dirname(fileURLToPath(import.meta.url)), '..'); ; dir = dirname(dir)) {
    const d = join(dir, 'shared', 'corpus-embedded');
    if (existsSync(join(d, 'MANIFEST.tsv'))) return join(d, 'files');
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The files of a workspace of `nodes` typical nodes (lsp-workspace writes them to disk), each node's config with its
 * own maxPods.
 */
export function workspaceNodes(nodes) {
  const out = [];
  for (let i = 0; i < nodes; i++) {
    for (const f of typicalNode()) out.push({ path: f.path.replace(/^node\//, `node-${i}/`), text: f.path === PATHS.config ? f.text.replace('maxPods: 110', `maxPods: ${100 + i}`) : f.text });
  }
  return out;
}
