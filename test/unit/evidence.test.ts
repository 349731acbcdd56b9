/**
 * Severity from evidence (node/evidence.ts, issue #36): a finding is an error or a warning only when what it rests on
 * is known. These tests hold the framework to it with realistic nodes; no rule does this by itself.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { finding, type Finding } from '../../server/src/model/finding.ts';
import { Evidence } from '../../server/src/node/evidence.ts';
import type { NodeModel } from '../../server/src/node/model.ts';
import { compareVersions } from '../../server/src/catalog/flags.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const UNIT = 'n/etc/systemd/system/kubelet.service';
const CONFIG = 'n/var/lib/kubelet/config.yaml';
const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
const of = (fs: readonly Finding[], code: string) => fs.filter((f) => f.code === code);

test('a removed flag with no version stated is information naming the kubelets it stops; stated, it is an error', () => {
  // A 2019 unit: --network-plugin was a kubelet flag until 1.24 (dockershim), so a 1.23 kubelet starts with it.
  const text = '[Service]\nExecStart=/usr/bin/kubelet --network-plugin=cni --max-pods=110\n';
  const [f] = of(analyze([{ path: UNIT, text }]).findings, 'flag-removed');
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Holds for a kubelet 1\.24 or newer; no file here states which version runs\. --network-plugin was removed in Kubernetes 1\.24/);
  assertShortPoints([f]);
  // Stated by a modeline, by the option, or by kubeadm's kubernetesVersion beside it: the error is back.
  const modeline = of(analyze([{ path: UNIT, text: text + '# kubelet-lint: kubernetes-version 1.30\n' }]).findings, 'flag-removed');
  assert.deepEqual(modeline.map((x) => x.severity), ['error']);
  assert.doesNotMatch(modeline[0].message, /^Holds/);
  assert.deepEqual(of(analyze([{ path: UNIT, text }], { kubernetesVersion: '1.37' }).findings, 'flag-removed').map((x) => x.severity), ['error']);
  // And a kubelet of its time gives nothing.
  assert.deepEqual(of(analyze([{ path: UNIT, text }], { kubernetesVersion: '1.23' }).findings, 'flag-removed'), []);
});

test('a mistake at every version stays an error with no version stated: a flag no kubelet had, a value none takes', () => {
  const text = '[Service]\nExecStart=/usr/bin/kubelet --max-pods=lots --kube-reservd=cpu=1\n';
  const loud = analyze([{ path: UNIT, text }]).findings.filter((f) => f.severity === 'error').map((f) => f.code).sort();
  assert.deepEqual(loud, ['flag-unknown', 'flag-value-invalid']);
});

test('a gate removed long ago: the version range in the message is the one the catalog holds', () => {
  const text = HEAD + 'featureGates:\n  RuntimeClass: true\n';
  const [f] = of(analyze([{ path: 'kubelet-config.yaml', text }]).findings, 'feature-gate-removed');
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Holds for a kubelet 1\.25 or newer;/);
});

test('the framework lowers a rule that looked up a templated setting, whatever the rule itself checks', () => {
  // Today's rules guard their own comparisons; the recorder holds for any rule, so a synthetic one stands in here.
  const text = HEAD + 'kubeReserved:\n  memory: "{{ .kr }}Mi"\nmaxPods: 110\n';
  const node = analyze([{ path: 'templates/kubelet-config.yaml', text }], { kubernetesVersion: '1.37' }).nodes[0].node;
  const at = (field: string) => {
    const s = node.settings.get(field)!;
    return { file: s.from.span!.file, range: s.from.span!.range };
  };
  const lookup = (ctx: { node: NodeModel }): Finding[] => {
    ctx.node.settings.get('kubeReserved');
    return [finding('test-rule', 'error', at('maxPods'), 'The point. More words.')];
  };
  const evidence = new Evidence(node);
  const out = evidence.judge(lookup, { node: evidence.view }, lookup({ node: evidence.view }));
  assert.equal(out[0].severity, 'information');
  assert.equal(out[0].message, "Only if kubeReserved's template renders as read here. The point. More words.");
  // A rule that only walks the settings (every field, as config-field-unknown does) records nothing.
  evidence.clear();
  const walk = (ctx: { node: NodeModel }): Finding[] => {
    for (const [, s] of ctx.node.settings) void s;
    return [finding('test-rule', 'error', at('maxPods'), 'The point.')];
  };
  assert.equal(evidence.judge(walk, { node: evidence.view }, walk({ node: evidence.view }))[0].severity, 'error');
});

test('the framework asks every version when none is stated: loud only if all give the finding', () => {
  const node = analyze([{ path: 'kubelet-config.yaml', text: HEAD + 'maxPods: 110\n' }]).nodes[0].node;
  assert.equal(node.kubernetesVersionAssumed, true);
  const span = { file: 'kubelet-config.yaml', range: { start: { line: 2, character: 0 }, end: { line: 2, character: 7 } } };
  const from = (v: string) => (ctx: { node: NodeModel }): Finding[] => (compareVersions(ctx.node.kubernetesVersion, v) >= 0 ? [finding('test-rule', 'warning', span, 'The point.')] : []);
  const judge = (rule: (ctx: { node: NodeModel }) => Finding[]) => {
    const evidence = new Evidence(node);
    return evidence.judge(rule, { node: evidence.view }, rule({ node: evidence.view }));
  };
  assert.equal(judge(from('1.30'))[0].message, 'Holds for a kubelet 1.30 or newer; no file here states which version runs. The point.');
  assert.equal(judge(from('1.0'))[0].severity, 'warning');
  const stated = analyze([{ path: 'kubelet-config.yaml', text: HEAD + 'maxPods: 110\n' }], { kubernetesVersion: '1.37' }).nodes[0].node;
  const evidence = new Evidence(stated);
  const rule = from('1.30');
  assert.equal(evidence.judge(rule, { node: evidence.view }, rule({ node: evidence.view }))[0].severity, 'warning');
});

test('a finding about a written part of a templated map keeps its severity: a removed gate whose value is a template', () => {
  const text = HEAD + 'featureGates:\n  RuntimeClass: {{ .Values.runtimeClass }}\n  KubeletCgroupDriverFromCRI: false\n';
  const a = analyze([{ path: 'templates/kubelet-config.yaml', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code).sort(), ['feature-gate-locked', 'feature-gate-removed']);
});

test('an inline if/else is one unknown value, not both branches joined', () => {
  const text = HEAD + 'cgroupDriver: {{ if .ForceCGroupsV1 }}cgroupfs{{ else }}systemd{{ end }}\nmaxPods: 110\n';
  const a = analyze([{ path: 'kubelet-config.yaml.tmpl', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
  const s = a.nodes[0].node.settings.get('cgroupDriver');
  assert.ok(s?.kind === 'scalar' && s.template === 'whole');
  assert.match(String(s.value), /cgroupfs\{\{ else \}\}systemd/);
});

test('a YAML syntax error on a line with a template expression is the template\'s to decide; elsewhere it is an error', () => {
  // Terraform renders `${cluster_dns}` with its own line break and list item (utilitywarehouse/tf_kube_ignition).
  const text = HEAD + 'clusterDNS:${cluster_dns}\nclusterDomain: cluster.local\n';
  const [f] = of(analyze([{ path: 'resources/node-kubelet-conf.yaml', text }]).findings, 'config-syntax');
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Unless the template expression on this line renders valid YAML, the file cannot be read\. /);
  const broken = HEAD + 'clusterDNS:10.0.0.10\nclusterDomain: cluster.local\n';
  assert.deepEqual(of(analyze([{ path: 'kubelet-config.yaml', text: broken }]).findings, 'config-syntax').map((x) => x.severity), ['error']);
});

test('reserved-cgroup-systemd-name: an unenforced reservation\'s cgroup is never looked up, so its name stops nothing', () => {
  const base = HEAD + 'cgroupDriver: systemd\nkubeReserved:\n  cpu: 500m\nkubeReservedCgroup: /kube-reserved\n';
  assert.deepEqual(of(analyze([{ path: CONFIG, text: base }]).findings, 'reserved-cgroup-systemd-name'), []);
  const enforced = of(analyze([{ path: CONFIG, text: base + 'enforceNodeAllocatable: [pods, kube-reserved]\n' }]).findings, 'reserved-cgroup-systemd-name');
  assert.deepEqual(enforced.map((f) => f.severity), ['warning']);
});

test('a cloud-config\'s !!binary content is base64, read and checked like encoding: b64', () => {
  const dropin = '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --max-pods=lots\n';
  const b64 = Buffer.from(dropin).toString('base64');
  const text = `#cloud-config\nwrite_files:\n- path: /etc/systemd/system/kubelet.service.d/10-args.conf\n  content: !!binary |\n    ${b64}\n`;
  const a = analyze([{ path: 'user-data.yaml', text }]);
  const [f] = of(a.findings, 'flag-value-invalid');
  assert.equal(f?.file, 'user-data.yaml');
  assert.equal(f.range.start.line, 4);
});

test('a template whose directives choose between branches: the two branches together are no YAML error, no duplicate', () => {
  // kubeadm's kubeletExtraArgs is a map up to v1beta3 and a list from v1beta4: a role picks one with {% if %} ... {% else %}.
  const text = `apiVersion: kubeadm.k8s.io/v1beta4
kind: InitConfiguration
nodeRegistration:
  kubeletExtraArgs:
{% if kubernetes_version is version('1.31.0', '<') %}
    fail-swap-on: "false"
{% else %}
    - name: fail-swap-on
      value: "false"
{% endif %}
`;
  const a = analyze([{ path: 'roles/kubernetes/templates/kubeadm.yaml.j2', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
  const syntax = of(a.findings, 'config-syntax');
  assert.ok(syntax.length > 0 && syntax.every((f) => f.severity === 'information' && /^Only if the template renders these lines together/.test(f.message)));
  // Without the else branch the same two shapes are one file's lines: the error is the file's.
  const one = text.replace('{% else %}\n', '');
  assert.ok(of(analyze([{ path: 'roles/kubernetes/templates/kubeadm.yaml.j2', text: one }], { kubernetesVersion: '1.37' }).findings, 'config-syntax').some((f) => f.severity === 'error'));
});

test('kubeadm init and join each read their own document: a flag in both kubeletExtraArgs is no duplicate', () => {
  const doc = (kind: string, v: string) => `apiVersion: kubeadm.k8s.io/v1beta3\nkind: ${kind}\nnodeRegistration:\n  kubeletExtraArgs:\n    volume-plugin-dir: ${v}\n`;
  const same = analyze([{ path: 'kubeadm.yaml', text: `${doc('InitConfiguration', '/opt/libexec')}---\n${doc('JoinConfiguration', '/opt/libexec')}` }], { kubernetesVersion: '1.37' });
  assert.deepEqual(of(same.findings, 'flag-duplicate'), []);
  // A file of one command: the flag given twice on its line is still reported (v1beta4 lists may repeat a name).
  const list = (kind: string) => `apiVersion: kubeadm.k8s.io/v1beta4\nkind: ${kind}\nnodeRegistration:\n  kubeletExtraArgs:\n    - name: volume-plugin-dir\n      value: /a\n    - name: volume-plugin-dir\n      value: /b\n`;
  assert.equal(of(analyze([{ path: 'kubeadm.yaml', text: list('InitConfiguration') }], { kubernetesVersion: '1.37' }).findings, 'flag-duplicate').length, 1);
});

test('Bottlerocket joins node-taints into one --register-with-taints, so three taints are one flag', () => {
  const text = '[settings.kubernetes]\ncluster-name = "c"\n\n[settings.kubernetes.node-taints]\ndedicated = ["experimental:PreferNoSchedule", "experimental:NoExecute"]\nspecial = ["true:NoSchedule"]\n';
  const a = analyze([{ path: 'user-data.toml', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(of(a.findings, 'flag-duplicate'), []);
  const taints = a.nodes[0].node.flags.filter((f) => f.name === 'register-with-taints');
  assert.deepEqual(taints.map((f) => f.value), ['dedicated=experimental:PreferNoSchedule,dedicated=experimental:NoExecute,special=true:NoSchedule']);
});

test('a user-data script template: `${kubelet_extra_args}` in single quotes is the template\'s, not a positional argument', () => {
  const text = "#!/bin/bash\n/etc/eks/bootstrap.sh '${cluster_name}' --kubelet-extra-args '--node-labels=lifecycle=OnDemand ${kubelet_extra_args}'\n";
  const a = analyze([{ path: 'templates/userdata.sh.tpl', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
  // A plain script gives the kubelet the word as it is: a positional argument it refuses.
  const plain = analyze([{ path: 'userdata.sh', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(of(plain.findings, 'flag-positional-argument').map((f) => f.severity), ['error']);
});

test('an old kubeadm API: a condition when no version is stated, nothing for a kubeadm that read it, an error past it', () => {
  const text = 'apiVersion: kubeadm.k8s.io/v1beta2\nkind: ClusterConfiguration\n';
  const api = (t: string, v?: string) => of(analyze([{ path: 'kubeadm.yaml', text: t }], v ? { kubernetesVersion: v } : {}).findings, 'config-kubeadm-api-version');
  assert.match(api(text)[0].message, /^Holds for kubeadm 1\.27 or newer; no file here states which version runs\. /);
  assert.equal(api(text)[0].severity, 'information');
  assert.deepEqual(api(text, '1.20'), []);
  assert.equal(api(text, '1.37')[0].severity, 'error');
  // Stated in another document of the same file (kubeadm 1.13 read v1beta1).
  const two = 'apiVersion: kubeadm.k8s.io/v1beta1\nkind: InitConfiguration\n---\napiVersion: kubeadm.k8s.io/v1beta1\nkind: ClusterConfiguration\nkubernetesVersion: v1.13.0\n';
  assert.deepEqual(api(two), []);
});

test('`{KUBE_DNS_SVC_IP}`, a sed marker YAML reads as a mapping: a placeholder, and its type finding a condition', () => {
  const text = HEAD + 'clusterDNS:\n- {KUBE_DNS_SVC_IP}\nclusterDomain: {KUBE_DNS_DOMAIN}\n';
  const a = analyze([{ path: 'config/kubelet/config.yaml', text }], { kubernetesVersion: '1.37' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning'), []);
  assert.deepEqual(of(a.findings, 'config-placeholder').map((f) => f.message.split('"')[1]), ['{KUBE_DNS_SVC_IP}', '{KUBE_DNS_DOMAIN}']);
  assert.equal(of(a.findings, 'config-field-type').length, 2);
});

test('a platform default for a role no file states is a condition: a Talos patch (no machine.type) takes the worker memory, and what rests on it says so (issue #37)', () => {
  const patch = 'machine:\n  kubelet:\n    extraConfig:\n      maxPods: 50\n';
  const node = analyze([{ path: 'talos/patch.yaml', text: patch }], { kubernetesVersion: '1.33' }).nodes[0].node;
  const reserved = node.settings.get('systemReserved')!;
  assert.ok(reserved.kind === 'map' && reserved.items.find((i) => i.key === 'memory')?.from.assumed);
  const maxPods = node.settings.get('maxPods')!;
  const rule = (ctx: { node: NodeModel }): Finding[] => {
    ctx.node.settings.get('systemReserved');
    return [finding('test-rule', 'error', { file: maxPods.from.span!.file, range: maxPods.from.span!.range }, 'The point.')];
  };
  const evidence = new Evidence(node);
  const [f] = evidence.judge(rule, { node: evidence.view }, rule({ node: evidence.view }));
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Only if the machine is a worker \(384Mi; a control plane reserves 512Mi, and no machine\.type says which\)\. The point\.$/);
  // With the role stated, the default is known.
  const typed = analyze([{ path: 'talos/worker.yaml', text: 'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      maxPods: 50\n' }], { kubernetesVersion: '1.33' }).nodes[0].node;
  const e2 = new Evidence(typed);
  const [g] = e2.judge(rule, { node: e2.view }, rule({ node: e2.view }));
  assert.equal(g.severity, 'error');
});
