/**
 * Issue #23: files of documented formats kept under template names, or wrapped the way their tool wraps them, are read
 * as the file they render. Built from real files of test/realworld (the upstream named beside each).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';

const settingOf = (a: ReturnType<typeof analyze>, key: string) => a.nodes.map((n) => n.node.settings.get(key)).map((s) => (s?.kind === 'scalar' ? String(s.value) : undefined));

// minasaeedbasta/eks-karpenter (terraform templatefile inputs): ec2nodeclass_al2.tpl, nodepool_default.tpl.
const NODECLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  amiSelectorTerms:
    - alias: al2023@latest
  role: "\${role}"
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery/\${cluster_name}: "\${cluster_name}"
  kubelet:
    maxPods: 58
    systemReserved:
      memory: 500Mi
`;

test('Karpenter, kind, kops, kubeadm under template names (.tpl, .yaml.tpl, .yaml.tmpl) are recognised by content', () => {
  assert.equal(detectKind('terraform/ec2nodeclass_al2.tpl', NODECLASS), 'karpenter');
  assert.equal(detectKind('karpenter/ec2nodeclass.yaml.tpl', NODECLASS), 'karpenter');
  assert.equal(detectKind('kind/cluster.yaml.tpl', 'kind: Cluster\napiVersion: kind.x-k8s.io/v1alpha4\nnodes:\n- role: control-plane\n  extraMounts:\n  - hostPath: ${host_s3_path}\n    containerPath: /var/s3\n'), 'kind-cluster');
  assert.equal(detectKind('kubeadm-config.tpl', 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nbootstrapTokens:\n- token: "${token}"\n'), 'kubeadm-config');
  // The stem alone says nothing: a template of anything else stays unread.
  assert.equal(detectKind('terraform/readme.tpl', 'Cluster ${name} has ${count} nodes.\n'), undefined);
  assert.equal(detectKind('charts/x/templates/_helpers.tpl', '{{- define "x.name" -}}\n{{ .Chart.Name }}\n{{- end }}\n'), undefined);
});

test('a Karpenter EC2NodeClass kept as a Terraform .tpl makes its node, its ${...} values unknown, its literal settings read', () => {
  const a = analyze([{ path: 'terraform/ec2nodeclass_al2023.tpl', text: NODECLASS }]);
  assert.deepEqual(settingOf(a, 'maxPods'), ['58']);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code), []);
});

// kubernetes/kops tests/e2e/templates (podidentity): a Go-templated Cluster, first line an assignment.
const KOPS = `{{$zone := index .zones 0}}
apiVersion: kops.k8s.io/v1alpha2
kind: Cluster
metadata:
  name: {{.clusterName}}
spec:
  kubernetesApiAccess:
  - {{.publicIP}}
  cloudProvider: {{.cloudProvider}}
  configBase: "{{.stateStore}}/{{.clusterName}}"
  kubelet:
    anonymousAuth: false
    maxPods: 90
  kubernetesVersion: {{.kubernetesVersion}}
  masterPublicName: api.{{.clusterName}}
---
apiVersion: kops.k8s.io/v1alpha2
kind: InstanceGroup
metadata:
  name: nodes-{{$zone}}
spec:
  machineType: c5.large
  role: Node
`;

test('kops: cluster.yaml.tmpl with Go template lines is read as the manifest it renders (its kubelet block makes the node)', () => {
  assert.equal(detectKind('tests/e2e/templates/cluster.yaml.tmpl', KOPS), 'kops');
  const a = analyze([{ path: 'tests/e2e/templates/cluster.yaml.tmpl', text: KOPS }]);
  assert.deepEqual(settingOf(a, 'maxPods'), ['90']);
  assert.deepEqual(a.findings.filter((f) => f.code === 'config-syntax'), []);
});

// openshift/machine-config-operator test/e2e data: a Template whose objects[] hold a KubeletConfig.
const OC_TEMPLATE = `apiVersion: template.openshift.io/v1
kind: Template
metadata:
  name: kubelet-config
objects:
  - kind: KubeletConfig
    apiVersion: machineconfiguration.openshift.io/v1
    metadata:
      name: "\${NAME}"
    spec:
      machineConfigPoolSelector:
        matchLabels:
          pools.operator.machineconfiguration.openshift.io/\${POOL}: ''
      kubeletConfig:
        maxPods: 500
        podPidsLimit: "\${PIDS}"
parameters:
  - name: NAME
  - name: POOL
    value: worker
`;

test('OpenShift: a template.openshift.io Template is read as oc process makes it: its KubeletConfig objects, ${PARAM} values unknown', () => {
  assert.equal(detectKind('change-maxpods-kubelet-config.yaml', OC_TEMPLATE), 'openshift');
  const a = analyze([{ path: 'change-maxpods-kubelet-config.yaml', text: OC_TEMPLATE }]);
  assert.deepEqual(settingOf(a, 'maxPods'), ['500']);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code), [], 'a ${PIDS} value is unknown, not an invalid podPidsLimit');
  // A Template of other objects is not OpenShift's KubeletConfig.
  assert.equal(detectKind('t.yaml', OC_TEMPLATE.replace('kind: KubeletConfig', 'kind: MachineConfig')), undefined);
});

// giantswarm/cluster helm/cluster/templates/clusterapi/_helpers_files.tpl (8657d00a): define blocks of KubeadmConfig
// files: entries; another block of the same file renders a TOML file (no file entry), which is no list item.
const HELPERS = `{{- define "cluster.internal.kubeadm.files" }}
{{- include "cluster.internal.kubeadm.files.kubelet" $ }}
{{- end }}

{{- define "cluster.internal.kubeadm.files.kubelet" }}
{{- $_ := include "cluster.internal.get-internal-values" $ }}
- path: /etc/kubernetes/kubelet-config.yaml
  permissions: "0644"
  content: |
    apiVersion: kubelet.config.k8s.io/v1beta1
    kind: KubeletConfiguration
    maxPods: {{ .Values.internal.maxPods }}
    cgroupDriver: sytemd
- path: /etc/kubernetes/patches/kubeletconfiguration.yaml
  permissions: "0644"
  encoding: base64
  content: {{ tpl ($.Files.Get "files/etc/kubernetes/patches/kubeletconfiguration.yaml") . | b64enc }}
{{- end }}

{{- define "cluster.containerd.hosts.toml" -}}
server = "https://{{ .registry }}"
[host."http://127.0.0.1:{{ .port }}"]
  capabilities = ["pull", "resolve"]
{{- end -}}
`;

test('Helm define blocks of KubeadmConfig files: entries (_helpers_files.tpl) are read: each entry is a file, its expressions unknown', () => {
  assert.equal(detectKind('helm/cluster/templates/clusterapi/_helpers_files.tpl', HELPERS), 'cluster-api');
  assert.equal(detectKind('charts/web/templates/_helpers.tpl', '{{- define "web.paths" }}\n- path: /api\n  pathType: Prefix\n{{- end }}\n'), undefined, 'an ingress helper is no file list');
  const a = analyze([{ path: 'helm/cluster/templates/clusterapi/_helpers_files.tpl', text: HELPERS }]);
  const shown = a.findings.filter((f) => f.severity !== 'hint').map((f) => `${f.severity} ${f.code} ${f.range.start.line + 1}`);
  assert.deepEqual(shown, ['information reservations-missing 11', 'error cgroup-driver-invalid 13', 'information payload-not-checked 17']);
  const maxPods = a.nodes[0].node.settings.get('maxPods');
  assert.equal(maxPods?.kind === 'scalar' && maxPods.template, 'whole', 'maxPods is a template expression: unknown');
});

test('other names of documented formats: a script template whose #! follows a directive line, kubeadm.config, k3s/config.yaml with one key', () => {
  // terraform-aws-modules/terraform-aws-eks templates/al2_user_data.tpl
  const al2 = '%{ if enable_bootstrap_user_data ~}\n#!/bin/bash\nset -e\n%{ endif ~}\n${pre_bootstrap_user_data ~}\n/etc/eks/bootstrap.sh ${cluster_name} ${bootstrap_extra_args}\n';
  assert.equal(detectKind('templates/al2_user_data.tpl', al2), 'shell');
  assert.equal(detectKind('templates/notes.tpl', '%{ if x ~}\nplain text about the kubelet\n%{ endif ~}\n'), undefined, 'no #! after the directives: not a script');
  assert.equal(detectKind('kubeadm.config', 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.29.0\n'), 'kubeadm-config');
  const k3s = '# /etc/rancher/k3s/config.yaml\nkube-apiserver-arg:\n  - "service-account-issuer=https://k8s.example.dev"\n';
  assert.equal(detectKind('k3s/config.yaml', k3s), 'k3s');
  assert.equal(detectKind('app/config.yaml', k3s), undefined, 'one k3s key in any config.yaml is not enough');
});
