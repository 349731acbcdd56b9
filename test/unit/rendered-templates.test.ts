/**
 * Issue #23: files that something renders before the machine reads them are read as templates, so a placeholder the
 * renderer fills is no finding; the same placeholder in a file that is not visibly a template still is one. Each test
 * is built from a real file of test/realworld (its upstream named beside it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';

const placeholders = (a: ReturnType<typeof analyze>) => a.findings.filter((f) => f.code === 'config-placeholder').map((f) => `${f.file}:${f.range.start.line + 1}`);
const problems = (a: ReturnType<typeof analyze>) => a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.code} ${f.range.start.line + 1}`);

// poseidon/typhoon digital-ocean/fedora-coreos/kubernetes/butane/worker.yaml: no `%{ }` directive, but systemd's
// variables are escaped for Terraform (`$${KUBELET_IMAGE}`); workers.tf renders it with templatefile().
const BUTANE = (image: string) => `variant: fcos
version: 1.5.0
systemd:
  units:
    - name: kubelet.service
      enabled: true
      contents: |
        [Service]
        Environment=KUBELET_IMAGE=quay.io/poseidon/kubelet:v1.31.3
        ExecStart=/usr/bin/podman run --name kubelet \\
          ${image} \\
          --config=/etc/kubernetes/kubelet.yaml \\
          --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\
          --kubeconfig=/var/lib/kubelet/kubeconfig
        [Install]
        WantedBy=multi-user.target
storage:
  files:
    - path: /etc/kubernetes/kubelet.yaml
      contents:
        inline: |
          apiVersion: kubelet.config.k8s.io/v1beta1
          kind: KubeletConfiguration
          cgroupDriver: systemd
          clusterDNS:
            - \${cluster_dns_service_ip}
          clusterDomain: cluster.local
`;

test('Butane: a config with Terraform\'s $${ escape is a templatefile() input, so ${cluster_dns_service_ip} is filled by Terraform', () => {
  assert.deepEqual(placeholders(analyze([{ path: 'butane/worker.yaml', text: BUTANE('$${KUBELET_IMAGE}') }])), []);
  // Without any mark of Terraform, Butane copies the value as written and the kubelet reads it literally.
  assert.deepEqual(placeholders(analyze([{ path: 'butane/worker.yaml', text: BUTANE('quay.io/poseidon/kubelet:v1.31.3') }])), ['butane/worker.yaml:26']);
});

// khadirullah/local-k8s-terraform cloud-init/fedora-master.yaml (69e19f0c), rendered by terraform/master.tf
// templatefile(): cloud-init never substitutes `${hostname}` in its own hostname or users.
const CLOUD_CONFIG = (hostname: string) => `#cloud-config
hostname: ${hostname}
users:
  - name: fedora
    sudo: ALL=(ALL) NOPASSWD:ALL
write_files:
  - path: /root/kubeadm-config.yaml
    content: |
      apiVersion: kubeadm.k8s.io/v1beta4
      kind: ClusterConfiguration
      kubernetesVersion: "v\${k8s_version}.0"
      controlPlaneEndpoint: "\${master_ip}:6443"
      networking:
        podSubnet: "\${pod_cidr}"
runcmd:
  - kubeadm init --config /root/kubeadm-config.yaml
final_message: "Cloud-init took $UPTIME seconds."
`;

test('cloud-init: a ${name} in the cloud-config\'s own hostname or users shows it is rendered first; its files\' ${...} are filled too', () => {
  const rendered = analyze([{ path: 'cloud-init/fedora-master.yaml', text: CLOUD_CONFIG('${hostname}') }]);
  assert.deepEqual(placeholders(rendered), []);
  assert.ok(!rendered.findings.some((f) => f.message.includes('1.0')), 'a templated kubernetesVersion states no version');
  // A literal host name: nothing renders the file, and kubeadm would read "${master_ip}:6443" as written.
  const plain = analyze([{ path: 'cloud-init/fedora-master.yaml', text: CLOUD_CONFIG('k8s-master') }]);
  assert.deepEqual(placeholders(plain), ['cloud-init/fedora-master.yaml:11', 'cloud-init/fedora-master.yaml:12', 'cloud-init/fedora-master.yaml:14']);
});

// kubernetes-sigs/image-builder images/capi/ansible/roles/kubernetes/templates/etc/kubeadm.yml (ae63061e), kept
// without its templates/ folder: an unquoted `{{ x }}` is a YAML flow mapping, so only the rendered file is YAML.
const KUBEADM = (q: string) => `apiVersion: kubeadm.k8s.io/v1beta3
kind: ClusterConfiguration
imageRepository: ${q}{{ kubernetes_container_registry }}${q}
kubernetesVersion: ${q}{{ kubernetes_semver }}${q}
---
apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  criSocket: ${q}{{ containerd_cri_socket }}${q}
`;

test('kubeadm: a bare {{ var }} value makes the file visibly a template (Ansible renders it); a quoted one in a plain file is still warned', () => {
  assert.deepEqual(placeholders(analyze([{ path: 'etc/kubeadm.yml', text: KUBEADM('') }])), []);
  assert.deepEqual(placeholders(analyze([{ path: 'etc/kubeadm.yml', text: KUBEADM('"') }])), ['etc/kubeadm.yml:3', 'etc/kubeadm.yml:4', 'etc/kubeadm.yml:9']);
});

// ionos-cloud/cluster-api-provider-proxmox templates/cluster-template-flatcar.yaml (38e3ded9): `[ ${ VM_SSH_KEYS } ]`
// is no YAML until clusterctl substitutes it, and clusterctl takes `${ VAR }` as `${VAR}` (simple_processor.go
// convertLegacyVars).
const CAPMOX = `apiVersion: bootstrap.cluster.x-k8s.io/v1beta1
kind: KubeadmConfigTemplate
metadata:
  name: \${CLUSTER_NAME}-worker
spec:
  template:
    spec:
      users:
        - name: core
          sshAuthorizedKeys: [ \${ VM_SSH_KEYS } ]
      joinConfiguration:
        nodeRegistration:
          kubeletExtraArgs:
            provider-id: proxmox://\${ PROVIDER_ID }
            max-pods: "110"
            cgroup-driver: sytemd
`;

test('Cluster API: clusterctl variables with blanks inside the braces are read as variables, not as broken YAML', () => {
  const a = analyze([{ path: 'capmox/cluster-template-flatcar.yaml', text: CAPMOX }]);
  assert.deepEqual(problems(a), ['cgroup-driver-invalid 16'], 'the document is read (its literal mistake is found) and ${ VAR } is no placeholder');
});
