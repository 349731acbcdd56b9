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
  assert.equal(codes(jinjaInIgnition).filter((c) => c.startsWith('config-placeholder')).length, 1, 'Ignition data has no Jinja: the name stays literal');
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
