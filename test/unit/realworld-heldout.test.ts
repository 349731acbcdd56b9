/**
 * The false findings of the held-out real-world batch (test/realworld/README.md, "Held-out batch"), each fixed at its
 * root and pinned here with a file built from the real one, beside a control that must still be reported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type Analysis } from '../../server/src/engine.ts';

const errorsAndWarnings = (a: Analysis) =>
  a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.range.start.line + 1} ${f.code}`);

// ahinko/home-ops kubernetes/talos/machineconfig.yaml.j2 (00198a8e): minijinja-cli renders it before talosctl reads it.
const TALOS_J2 = `---
version: v1alpha1
machine:
  ca:
    crt: op://Homelab/talos/TALOS_CERTS_OS_CRT
    {% if ENV.IS_CONTROLPLANE %}
    key: op://Homelab/talos/TALOS_CERTS_OS_KEY
    {% endif %}
  kubelet:
    extraConfig:
      serializeImagePulls: false
      {# a comment of the template #}
      imageGCHighThresholdPercent: 70
      imageGCLowThresholdPercent: 60
    image: ghcr.io/siderolabs/kubelet:v1.36.0
cluster:
  {% if ENV.IS_CONTROLPLANE %}
  allowSchedulingOnControlPlanes: true
  {% endif %}
  clusterName: main
`;

test('a Talos machine config with Jinja statement lines ({% if %}, {% endif %}, {# #}) is read as the YAML it renders to', () => {
  const a = analyze([{ path: 'kubernetes/talos/machineconfig.yaml.j2', text: TALOS_J2 }]);
  assert.deepEqual(errorsAndWarnings(a), []);
  assert.equal(a.findings.filter((f) => f.code === 'config-syntax').length, 0, 'no syntax finding of any severity');
  assert.equal(a.nodes.length, 1);
  const s = a.nodes[0].node.settings.get('imageGCHighThresholdPercent') as { kind: string; text?: string } | undefined;
  assert.equal(s?.kind === 'scalar' && s.text, '70', 'the kubelet settings between the tags are read');
});

test('a Jinja tag with text beside it on its line is content, not a control line: still a YAML error', () => {
  const text = TALOS_J2.replace('    {% if ENV.IS_CONTROLPLANE %}\n    key:', '    {% if ENV.IS_CONTROLPLANE %} key: x\n    key:');
  const a = analyze([{ path: 'kubernetes/talos/machineconfig.yaml.j2', text }]);
  assert.ok(a.findings.some((f) => f.code === 'config-syntax'), 'reported');
});

// linode/cluster-api-provider-linode templates/flavors/kubeadm/flatcar/patch-flatcar.yaml (9d6f3961): a kustomize patch
// that becomes cluster-template-flatcar.yaml; the machine exports coreos-metadata values and runs envsubst.
const FLATCAR_PATCH = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta2
kind: KubeadmConfigTemplate
metadata:
  name: \${CLUSTER_NAME}
spec:
  template:
    spec:
      joinConfiguration:
        nodeRegistration:
          name: $\${COREOS_AKAMAI_INSTANCE_LABEL}
          kubeletExtraArgs:
            - name: "provider-id"
              value: "linode://$\${COREOS_AKAMAI_INSTANCE_ID}"
      preKubeadmCommands:
        - export COREOS_AKAMAI_INSTANCE_LABEL=$\${COREOS_AKAMAI_INSTANCE_LABEL}
        - export COREOS_AKAMAI_INSTANCE_ID=$\${COREOS_AKAMAI_INSTANCE_ID}
        - envsubst < /etc/kubeadm.yml > /etc/kubeadm.yml.tmp
        - mv /etc/kubeadm.yml.tmp /etc/kubeadm.yml
      format: ignition
`;

test('Cluster API: $${COREOS_*} in a kustomize patch of a Flatcar template is filled by the machine\'s envsubst', () => {
  const a = analyze([{ path: 'flavors/kubeadm/flatcar/patch-flatcar.yaml', text: FLATCAR_PATCH }]);
  assert.deepEqual(errorsAndWarnings(a), []);
});

test('Cluster API: without the envsubst command the same $${COREOS_*} is reported, as a condition: the provider may rewrite the data', () => {
  const text = FLATCAR_PATCH.replace(/ {8}- envsubst[^\n]*\n {8}- mv[^\n]*\n/, '');
  const a = analyze([{ path: 'flavors/kubeadm/flatcar/patch-flatcar.yaml', text }]);
  assert.deepEqual(errorsAndWarnings(a), []);
  const said = a.findings.filter((f) => f.code === 'config-placeholder');
  assert.deepEqual(said.map((f) => `${f.range.start.line + 1} ${f.severity}`), ['10 information', '13 information']);
  assert.match(said[0].message, /^If nothing fills in "\$\$\{COREOS_[A-Z_]+\}" before this file is used, it is read as written\./);
});

// kubernetes-sigs/cluster-api-provider-packet templates/cluster-template.yaml (762acd18): the provider executes the
// bootstrap data as a Go template (pkg/cloud/packet/client.go), so cloud-init gets {{ v1.instance_id }}. (Named without
// its templates/ folder: a file under a templates/ folder is an Ansible role's Jinja template for the tool.)
const PACKET = (format: string) => `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: \${CLUSTER_NAME}-worker-a
spec:
  template:
    spec:
${format}      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            cloud-provider: external
            provider-id: equinixmetal://{{ \`{{ v1.instance_id }}\` }}
`;

test('Cluster API for Equinix Metal: a Go raw string holding the Jinja expression is filled on the machine', () => {
  const a = analyze([{ path: 'cluster-template.yaml', text: PACKET('') }]);
  assert.deepEqual(errorsAndWarnings(a), []);
});

test('the same Go raw string in Ignition bootstrap data (no Jinja at boot) is still a placeholder, said as a condition', () => {
  // cluster-api-provider-packet renders the bootstrap data as a Go template (client.go NewDevice): the Cluster API
  // format says its providers may rewrite payloads (Format.rewritesPayloads), so nothing here is known as final.
  const a = analyze([{ path: 'cluster-template.yaml', text: PACKET('      format: ignition\n') }]);
  assert.deepEqual(errorsAndWarnings(a), []);
  assert.deepEqual(a.findings.filter((f) => f.code === 'config-placeholder').map((f) => `${f.range.start.line + 1} ${f.severity}`), ['13 information']);
});

// rackner/kubernetes-faster infrastructure/kops/cluster.yaml (66c005cb) writes the API group's old name.
const KOPS_IG = (api: string) => `apiVersion: ${api}
kind: InstanceGroup
metadata:
  name: nodes
spec:
  machineType: m5.large
  role: Node
  kubelet:
    maxPods: 58
`;

test('kops: apiVersion kops/v1alpha2 (the old group name kops still reads) is read like kops.k8s.io/v1alpha2', () => {
  for (const api of ['kops/v1alpha2', 'kops.k8s.io/v1alpha2']) {
    const a = analyze([{ path: 'kops/nodes.yaml', text: KOPS_IG(api) }]);
    assert.equal(a.nodes.length, 1, api);
    const s = a.nodes[0].node.settings.get('maxPods') as { kind: string; text?: string } | undefined;
    assert.equal(s?.kind === 'scalar' && s.text, '58', api);
  }
  assert.equal(analyze([{ path: 'kops/nodes.yaml', text: KOPS_IG('kops/v1alpha1') }]).nodes.length, 0, 'another version is not kops v1alpha2');
});
