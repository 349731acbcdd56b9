/**
 * A key written twice in one mapping, as each platform's own decoder takes it (issue #28 point 9): reported where it
 * matters (an error when the decoder refuses the file, a warning naming the value that wins when one is dropped
 * silently), and the node model takes the value the decoder takes. The facts and their sources are in
 * server/src/parse/duplicates.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import type { Analysis } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const dups = (a: Analysis): string[] =>
  a.findings.filter((f) => f.code === 'config-field-duplicate').map((f) => `${f.file}:${f.range.start.line + 1} ${f.severity}`);
const setting = (a: Analysis, key: string): string[] =>
  a.nodes.map((n) => n.node.settings.get(key)).filter((s) => s?.kind === 'scalar').map((s) => (s as { text: string }).text);
const of = (a: Analysis, code: string): Finding[] => a.findings.filter((f) => f.code === code);

const KUBELET = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

test('Talos: a key twice in extraConfig fails the machine config (go-yaml v4 unique keys, configloader decoder.go): error; the model reads the last', () => {
  const text = `version: v1alpha1
machine:
  type: worker
  kubelet:
    image: ghcr.io/siderolabs/kubelet:v1.33.1
    extraConfig:
      maxPods: 150
      serializeImagePulls: false
      maxPods: 250
`;
  const a = analyze([{ path: 'talos/worker.yaml', text }]);
  assert.deepEqual(dups(a), ['talos/worker.yaml:9 error']);
  const f = of(a, 'config-field-duplicate')[0];
  assert.match(f.message, /^Talos refuses this file: "maxPods" is already set on line 7/);
  assert.equal(f.related?.[0].span.range.start.line, 6);
  assertShortPoints(a.findings);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('Talos: keys a << merge brings in are not compared by go-yaml v3/v4 (mapping() checks the written keys only): no error', () => {
  const text = `version: v1alpha1
machine:
  type: worker
  kubelet:
    extraConfig:
      base: &base
        maxPods: 150
      <<: *base
      maxPods: 250
`;
  const a = analyze([{ path: 'talos/worker.yaml', text }]);
  assert.deepEqual(dups(a), []);
});

test('talhelper: talconfig.yaml with patches twice is refused (pkg/config/loader.go newConfig, yaml.v3 Unmarshal): error; the later patches are read', () => {
  const text = `clusterName: home
talosVersion: v1.10.3
endpoint: https://10.0.0.10:6443
patches:
  - |-
    machine:
      kubelet:
        extraConfig:
          maxPods: 150
nodes:
  - hostname: w1
    ipAddress: 10.0.0.21
patches:
  - |-
    machine:
      kubelet:
        extraConfig:
          maxPods: 250
`;
  const a = analyze([{ path: 'talos/talconfig.yaml', text }]);
  assert.deepEqual(dups(a), ['talos/talconfig.yaml:13 error']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^talhelper refuses this file: "patches" is already set on line 4/);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('OpenShift: oc apply sends JSON made by sigs.k8s.io/yaml, which keeps the last value (kubernetes/kubernetes#125885): warning; the model reads the last', () => {
  const text = `apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: set-max-pods
spec:
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ""
  kubeletConfig:
    maxPods: 500
    podPidsLimit: 8192
    maxPods: 250
`;
  const a = analyze([{ path: 'openshift/kubeletconfig.yaml', text }]);
  assert.deepEqual(dups(a), ['openshift/kubeletconfig.yaml:12 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "maxPods" on line 10 is ignored: OpenShift keeps this later one\./);
  assertShortPoints(a.findings);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('eksctl: UnmarshalStrict refuses a ClusterConfig with a key twice (pkg/eks/api.go LoadConfigFromFile): error; the model reads the last', () => {
  const text = `apiVersion: eksctl.io/v1alpha5
kind: ClusterConfig
metadata:
  name: demo
  region: eu-west-1
nodeGroups:
  - name: workers
    instanceType: m5.large
    kubeletExtraConfig:
      maxPods: 58
      kubeReserved:
        cpu: 300m
      maxPods: 29
`;
  const a = analyze([{ path: 'eksctl/cluster.yaml', text }]);
  assert.deepEqual(dups(a), ['eksctl/cluster.yaml:13 error']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^eksctl refuses this file: "maxPods" is already set on line 10/);
  assert.deepEqual(setting(a, 'maxPods'), ['29']);
});

test('kops: its universal decoder is not strict and keeps the last value (pkg/kopscodecs/codecs.go): warning; the later spec.kubelet is the one merged', () => {
  const text = `apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes
spec:
  role: Node
  machineType: m5.large
  kubelet:
    maxPods: 150
  kubelet:
    maxPods: 250
`;
  const a = analyze([{ path: 'kops/ig.yaml', text }]);
  assert.deepEqual(dups(a), ['kops/ig.yaml:10 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "kubelet" on line 8 is ignored: kops keeps this later one\./);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('k3s: two kubelet-arg+ keys in one file both append (readConfigFile reads a yaml.MapSlice); the first was lost', () => {
  const text = 'kubelet-arg+:\n  - max-pods=150\nkubelet-arg+:\n  - v=2\n';
  const a = analyze([{ path: 'etc/rancher/k3s/config.yaml', text }]);
  assert.deepEqual(a.findings.map((f) => f.code), []);
  assert.deepEqual(setting(a, 'maxPods'), ['150']);
});

test('k3s: a second kubelet-arg in the same file replaces the first list: k3s-kubelet-arg-replaced at the first, with the append fix', () => {
  const text = 'write-kubeconfig-mode: "0644"\nkubelet-arg:\n  - max-pods=150\nkubelet-arg:\n  - v=2\n';
  const a = analyze([{ path: 'etc/rancher/k3s/config.yaml', text }]);
  const f = of(a, 'k3s-kubelet-arg-replaced');
  assert.deepEqual(f.map((x) => x.range.start.line + 1), [2]);
  assert.match(f[0].message, /the kubelet-arg list in config\.yaml line 4 replaces it/);
  assert.equal(f[0].fixes?.[0].edits[0].range.start.line, 3);
  assert.deepEqual(setting(a, 'maxPods'), []);
});

const ign = (files: string) => `{
  "ignition": { "version": "3.4.0" },
  "storage": {
    "files": [
${files}
    ]
  }
}
`;
const dataUrl = (t: string) => 'data:,' + encodeURIComponent(t);

test('Ignition: encoding/json keeps the last of two "contents" sources (HandleParseErrors, json.Unmarshal): warning; the payload is the later one', () => {
  const text = ign(`      {
        "path": "/etc/kubernetes/kubelet.yaml",
        "contents": { "source": "${dataUrl(KUBELET + 'maxPods: 150\n')}" },
        "contents": { "source": "${dataUrl(KUBELET + 'maxPods: 250\n')}" }
      }`);
  const a = analyze([{ path: 'worker.ign', text }]);
  assert.deepEqual(dups(a), ['worker.ign:8 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "contents" on line 7 is ignored: Ignition keeps this later one\. Ignition decodes both objects in order/);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('Ignition: a later object is decoded over the earlier one, so a source only the earlier sets still counts', () => {
  const text = ign(`      {
        "path": "/etc/kubernetes/kubelet.yaml",
        "contents": { "source": "${dataUrl(KUBELET + 'maxPods: 150\n')}" },
        "mode": 420,
        "contents": { "verification": {} }
      }`);
  const a = analyze([{ path: 'worker.ign', text }]);
  assert.deepEqual(dups(a), ['worker.ign:9 warning']);
  assert.deepEqual(setting(a, 'maxPods'), ['150']);
});

test('Ignition: of two "path" strings the last is the file written', () => {
  const text = ign(`      {
        "path": "/etc/kubernetes/unused.yaml",
        "path": "/etc/kubernetes/kubelet.yaml",
        "contents": { "source": "${dataUrl(KUBELET + 'maxPods: 250\n')}" }
      }`);
  const a = analyze([{ path: 'worker.ign', text }]);
  assert.deepEqual(dups(a), ['worker.ign:7 warning']);
  const paths = [...(a.payloads?.keys() ?? [])];
  assert.deepEqual(paths, ['worker.ign//etc/kubernetes/kubelet.yaml']);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('Butane: go-yaml v3 refuses a config with a key twice (config/util/util.go unmarshal): error; the payload is the later one', () => {
  const text = `variant: fcos
version: 1.5.0
storage:
  files:
    - path: /etc/kubernetes/kubelet.yaml
      contents:
        inline: |
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          maxPods: 150
      contents:
        inline: |
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          maxPods: 250
`;
  const a = analyze([{ path: 'worker.bu', text }]);
  assert.deepEqual(dups(a), ['worker.bu:11 error']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^Butane refuses this file: "contents" is already set on line 6/);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('cloud-init: PyYAML keeps the last of two write_files (construct_mapping): warning; the later files are written', () => {
  const text = `#cloud-config
write_files:
  - path: /var/lib/kubelet/config.yaml
    content: |
      apiVersion: kubelet.config.k8s.io/v1beta1
      kind: KubeletConfiguration
      maxPods: 150
write_files:
  - path: /var/lib/kubelet/config.yaml
    content: |
      apiVersion: kubelet.config.k8s.io/v1beta1
      kind: KubeletConfiguration
      maxPods: 250
`;
  const a = analyze([{ path: 'user-data.yaml', text }]);
  assert.deepEqual(dups(a), ['user-data.yaml:8 warning']);
  assert.deepEqual(setting(a, 'maxPods'), ['250']);
});

test('kind: go-yaml v3 with KnownFields refuses a config with a key twice (pkg/internal/apis/config/encoding/load.go): error; the later patches apply', () => {
  const text = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  maxPods: 150
nodes:
- role: control-plane
kubeadmConfigPatches:
- |
  kind: KubeletConfiguration
  maxPods: 250
`;
  const a = analyze([{ path: 'kind/kind-config.yaml', text }]);
  assert.deepEqual(dups(a), ['kind/kind-config.yaml:9 error']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^kind refuses this file: "kubeadmConfigPatches" is already set on line 3/);
  assert.deepEqual([...new Set(setting(a, 'maxPods'))], ['250']);
});

test('Karpenter: kubectl keeps the last of two kubelet blocks (kubernetes/kubernetes#125885): warning; the later block is the node\'s', () => {
  const text = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: general
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  kubelet:
    maxPods: 150
  role: KarpenterNodeRole
  kubelet:
    maxPods: 110
`;
  const a = analyze([{ path: 'karpenter/nodeclass.yaml', text }]);
  assert.deepEqual(dups(a), ['karpenter/nodeclass.yaml:11 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "kubelet" on line 8 is ignored: Karpenter keeps this later one\./);
  assert.deepEqual(setting(a, 'maxPods'), ['110']);
});

test('Cluster API: a key twice outside the kubelet settings (kubectl keeps the last): warning; inside them the kubeadm reader says it', () => {
  const text = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: md-0
  name: prod-md-0
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            max-pods: "150"
`;
  const a = analyze([{ path: 'capi/template.yaml', text }]);
  assert.deepEqual(dups(a), ['capi/template.yaml:5 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "name" on line 4 is ignored: Cluster API keeps this later one\./);
});

test('EKS nodeadm: DecodeNodeConfig is apimachinery\'s UniversalDecoder, not strict (internal/api/bridge/decode.go), so the last value wins: warning; the model reads the last', () => {
  const text = `apiVersion: node.eks.aws/v1alpha1
kind: NodeConfig
spec:
  cluster:
    name: prod
  kubelet:
    config:
      maxPods: 10
      maxPods: 20
`;
  const a = analyze([{ path: 'eks/nodeconfig.yaml', text }]);
  assert.deepEqual(dups(a), ['eks/nodeconfig.yaml:9 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "maxPods" on line 8 is ignored: nodeadm keeps this later one\./);
  assertShortPoints(a.findings);
  assert.deepEqual(setting(a, 'maxPods'), ['20']);
});

test('GKE: gcloud\'s bundled ruamel.yaml 0.15 keeps the FIRST value and only warns (core/yaml.py load, check_mapping_key): warning at every later key; the model reads the first', () => {
  const text = `kubeletConfig:
  podPidsLimit: 1024
  cpuCFSQuota: false
  podPidsLimit: 4096
  podPidsLimit: 8192
`;
  const a = analyze([{ path: 'gke/system-config.yaml', text }]);
  assert.deepEqual(dups(a), ['gke/system-config.yaml:4 warning', 'gke/system-config.yaml:5 warning']);
  for (const f of of(a, 'config-field-duplicate')) {
    assert.match(f.message, /^This "podPidsLimit" is ignored: gcloud keeps the first one, on line 2\./, 'the third names the first, not the second');
  }
  assertShortPoints(a.findings);
  assert.deepEqual(setting(a, 'podPidsLimit'), ['1024']);
  // Inside a nested mapping too, and the first key's place is the one findings about the value point at.
  const nested = analyze([{ path: 'gke/system-config.yaml', text: 'kubeletConfig:\n  evictionSoft:\n    memoryAvailable: "200Mi"\n    memoryAvailable: "bogus"\n  evictionSoftGracePeriod:\n    memoryAvailable: "1m30s"\n' }]);
  assert.deepEqual(dups(nested), ['gke/system-config.yaml:4 warning']);
  assert.deepEqual(nested.findings.filter((f) => f.severity === 'error'), [], 'the later, invalid value is not the one gcloud sends');
});

test('AKS: az reads the file with Python\'s json.loads, which keeps the last value (azure-cli-core util.py shell_safe_json_parse): warning; the model reads the last', () => {
  const text = '{\n  "podMaxPids": 100,\n  "cpuCfsQuota": false,\n  "podMaxPids": 200\n}\n';
  const a = analyze([{ path: 'aks/kubelet.json', text }]);
  assert.deepEqual(dups(a), ['aks/kubelet.json:4 warning']);
  assert.match(of(a, 'config-field-duplicate')[0].message, /^The "podMaxPids" on line 2 is ignored: az keeps this later one\./);
  assert.deepEqual(setting(a, 'podPidsLimit'), ['200']);
});

test('Bottlerocket: its TOML reader refuses a key twice (early-boot-config SettingsJson::from_toml_str, toml 0.8): an error, as for any TOML that does not parse', () => {
  const a = analyze([{ path: 'bottlerocket/user-data.toml', text: '[settings.kubernetes]\nmax-pods = 10\nmax-pods = 20\n' }]);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.range.start.line + 1}`), ['config-syntax 3']);
});
