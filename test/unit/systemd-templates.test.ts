/**
 * Units, drop-ins and environment files kept as templates (Ansible/Kubespray `kubelet.service.j2`, Terraform
 * `kubelet.service.tftpl`, Go `kubelet.service.tmpl`): recognised as the file they render, their literal mistakes
 * found, nothing said at a placeholder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { systemdTemplateName } from '../../server/src/parse/template.ts';
import { DOCUMENT_PATTERNS, WATCH_GLOBS } from '../../server/src/formats/patterns.generated.ts';
import { HANG_MS } from '../helpers/hang.ts';

const UNIT = '[Unit]\nDescription=kubelet\n\n[Service]\nExecStart=/usr/bin/kubelet\n';
const ENV = 'KUBELET_ARGS="--max-pods={{ max_pods }}"\n';

const at = (f: { code: string; range: { start: { line: number; character: number } } }) => `${f.range.start.line + 1}:${f.range.start.character + 1} ${f.code}`;

test('Kubespray\'s template names are read as the files they render', () => {
  // kubernetes-sigs/kubespray roles/kubernetes/node/templates/kubelet.service.j2 (-> /etc/systemd/system/kubelet.service)
  // and kubelet.env.v1beta1.j2 (tasks/kubelet.yml: src "kubelet.env.{{ kubeletConfig_api_version }}.j2", dest
  // "{{ kube_config_dir }}/kubelet.env"); older releases had kubelet.env.j2, kubelet.kubeadm.env.j2,
  // kubelet.standard.env.j2 and kubelet.host.service.j2 there.
  const dir = 'roles/kubernetes/node/templates/';
  assert.equal(detectKind(dir + 'kubelet.service.j2', UNIT), 'unit');
  assert.equal(detectKind(dir + 'kubelet.host.service.j2', UNIT), 'unit');
  assert.equal(detectKind(dir + 'kubelet.env.v1beta1.j2', ENV), 'envfile');
  assert.equal(detectKind(dir + 'kubelet.env.j2', ENV), 'envfile');
  assert.equal(detectKind(dir + 'kubelet.kubeadm.env.j2', ENV), 'envfile');
  assert.equal(systemdTemplateName('kubelet.env.v1beta1.j2'), 'kubelet.env');
  assert.equal(systemdTemplateName('kubelet.service.j2'), 'kubelet.service');
  assert.equal(systemdTemplateName('kubelet.service'), undefined);
});

test('every template suffix, and only a unit, drop-in or env file name before it', () => {
  for (const ext of ['j2', 'jinja', 'jinja2', 'tftpl', 'tfpl', 'tmpl', 'tpl', 'J2']) {
    assert.equal(detectKind(`t/kubelet.service.${ext}`, UNIT), 'unit', ext);
    assert.equal(detectKind(`etc/systemd/system/kubelet.service.d/10-kubeadm.conf.${ext}`, '[Service]\n'), 'dropin', ext);
    assert.equal(detectKind(`etc/default/kubelet.${ext}`, ''), 'envfile', ext);
    assert.equal(detectKind(`t/kubelet.env.${ext}`, ENV), 'envfile', ext);
  }
  // A drop-in as its name would be: in a *.service.d folder, or a .conf holding a unit section.
  assert.equal(detectKind('roles/kubeadm/templates/10-kubeadm.conf.j2', '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--v=2"\n'), 'dropin');
  assert.equal(detectKind('roles/kubeadm/templates/10-kubeadm.conf.j2', 'listen {{ port }}\n'), undefined);
  // Not a unit name: not read, whatever it holds.
  assert.equal(detectKind('docs/notes.md.j2', UNIT), undefined);
  assert.equal(detectKind('t/kubelet.txt.j2', UNIT), undefined);
  assert.equal(detectKind('t/kubelet.j2', UNIT), undefined);
  assert.equal(detectKind('t/app.env.j2', 'PATH=/bin\n'), undefined, 'an env file needs the name or the flags it needs untemplated');
  // YAML templates keep the kind their content gives them.
  assert.equal(detectKind('t/kubelet-config.yaml.j2', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n'), 'kubelet-config');
  assert.equal(detectKind('t/notes.yaml.j2', 'a: 1\n'), undefined);
});

test('kubelet.service.j2: a templated program path is the kubelet; the real mistakes are found, none at a placeholder', () => {
  const text = [
    '[Unit]',
    'Description=Kubernetes Kubelet Server',
    'After={{ container_manager }}.service',
    '',
    '[Service]',
    'ExecStart={{ bin_dir }}/kubelet --max-pods={{ max_pods }} --kube-reserved=cpu=500m --cgroup-driver=cgroupfs --feature-gates=DevicePlugins=true',
    'Restart=always',
    '',
  ].join('\n');
  const path = 'roles/kubernetes/node/templates/kubelet.service.j2';
  const a = analyze([{ path, text }], { kubernetesVersion: '1.35' });
  const placeholders = [...text.matchAll(/\{\{[^}]*\}\}/g)].map((m) => {
    const line = text.slice(0, m.index).split('\n').length - 1;
    const col = m.index! - text.lastIndexOf('\n', m.index! - 1) - 1;
    return { line, from: col, to: col + m[0].length };
  });
  const onPlaceholder = a.findings.filter((f) => placeholders.some((p) => f.range.start.line === p.line && f.range.start.character < p.to && f.range.end.character > p.from));
  assert.deepEqual(onPlaceholder.map(at), []);
  assert.ok(a.findings.some((f) => f.code === 'feature-gate-removed' && at(f) === '6:125 feature-gate-removed'), a.findings.map(at).join(', '));
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['feature-gate-removed']);
  assert.equal(a.nodes.length, 1);
  const node = a.nodes[0].node;
  assert.equal(node.program?.text, '{{ bin_dir }}/kubelet');
  assert.deepEqual(node.flags.map((f) => f.name), ['max-pods', 'kube-reserved', 'cgroup-driver', 'feature-gates']);
  // The same unit under its plain name gives the same findings.
  const plain = analyze([{ path: 'etc/systemd/system/kubelet.service', text }], { kubernetesVersion: '1.35' });
  assert.deepEqual(plain.findings.map(at), a.findings.map(at));
});

test('a unit template and its drop-in template make one node (the drop-in folder is the rendered unit\'s)', () => {
  const unit = '[Service]\nExecStart={{ bin_dir }}/kubelet $KUBELET_EXTRA_ARGS\n';
  const dropin = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--feature-gates=DevicePlugins=true"\n';
  for (const [u, d] of [
    ['n/etc/systemd/system/kubelet.service.j2', 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf.j2'],
    ['roles/node/templates/kubelet.service.j2', 'roles/node/templates/10-kubeadm.conf.j2'],
  ]) {
    const a = analyze([{ path: u, text: unit }, { path: d, text: dropin }], { kubernetesVersion: '1.35' });
    assert.equal(a.nodes.length, 1, u);
    assert.deepEqual(a.findings.filter((f) => f.severity === 'error').map((f) => `${f.file} ${f.code}`), [`${d} feature-gate-removed`]);
    assert.ok(!a.findings.some((f) => f.code === 'unit-variable-undefined' || f.code === 'unit-variable-unused'), a.findings.map(at).join(', '));
  }
});

test('kubelet.service.tftpl: ${name} is a placeholder (no unset variable), $${VAR} is systemd\'s ${VAR}', () => {
  const text = (env: string) => `[Service]\n${env}ExecStart=/usr/bin/kubelet --max-pods=\${max_pods} $\${KUBELET_ARGS}\n`;
  const path = 'tf/templates/kubelet.service.tftpl';
  // Unset: the reference is said, at `${KUBELET_ARGS}`; nothing about `${max_pods}`.
  const unset = analyze([{ path, text: text('') }]);
  const undef = unset.findings.filter((f) => f.code === 'unit-variable-undefined');
  assert.deepEqual(undef.map(at), ['2:52 unit-variable-undefined']);
  assert.match(undef[0].message, /\$KUBELET_ARGS/);
  // (An unset `${VAR}` is one empty argument, as systemd.service(5) says, and the kubelet refuses it: not the literal
  // word `${KUBELET_ARGS}` that systemd would pass for `$${KUBELET_ARGS}`.)
  assert.ok(!unset.findings.some((f) => f.message.includes('"${KUBELET_ARGS}"')), unset.findings.map((f) => f.message).join('\n'));
  // Set: its flags reach the kubelet and are checked where they are written.
  const set = analyze([{ path, text: text('Environment="KUBELET_ARGS=--feature-gates=DevicePlugins=true"\n') }], { kubernetesVersion: '1.35' });
  assert.deepEqual(set.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map(at), ['2:43 feature-gate-removed']);
  assert.ok(!set.findings.some((f) => /unit-variable/.test(f.code)), set.findings.map(at).join(', '));
  for (const ext of ['tfpl']) {
    const b = analyze([{ path: `tf/kubelet.service.${ext}`, text: text('') }]);
    assert.deepEqual(b.findings.filter((f) => f.code === 'unit-variable-undefined').map(at), ['2:52 unit-variable-undefined'], ext);
  }
  // In a Jinja template `${VAR}` stays systemd's own: an unset one is said.
  const jinja = analyze([{ path: 'roles/x/templates/kubelet.service.j2', text: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=${max_pods}\n' }]);
  assert.deepEqual(jinja.findings.filter((f) => f.code === 'unit-variable-undefined').map(at), ['2:39 unit-variable-undefined']);
});

test('an env file template: Jinja comments and {% set %} blocks are no lines of the file; a literal mistake is found', () => {
  const text = [
    'KUBE_LOG_LEVEL="--v={{ kube_log_level }}"',
    '{% if kube_override_hostname %}',
    'KUBELET_HOSTNAME="--hostname-override={{ kube_override_hostname }}"',
    '{% endif %}',
    '{# the flags every node gets #}',
    '{% set kubelet_args_base -%}',
    '--config={{ kube_config_dir }}/kubelet-config.yaml \\',
    '--runtime-cgroups={{ kubelet_runtime_cgroups }} \\',
    '{% endset %}',
    'KUBELET_ARGS="{{ kubelet_args_base }} --node-labels={{ labels }}"',
    'KUBELET_NETWORK_PLUGIN="--network-plugin=cni"',
    '',
  ].join('\n');
  const a = analyze([{ path: 'roles/kubernetes/node/templates/kubelet.env.v1beta1.j2', text }], { kubernetesVersion: '1.35' });
  assert.deepEqual(a.findings.filter((f) => f.severity !== 'hint').map(at), ['2:1 config-template', '11:25 flag-removed']);
});

test('a unit template: a Jinja comment line inside a continued ExecStart= does not end it', () => {
  const text = [
    '[Service]',
    'ExecStart={{ bin_dir }}/kubelet \\',
    '{# kubeadm flags #}',
    '  --kubeconfig=/etc/kubernetes/kubelet.conf \\',
    '  --network-plugin=cni',
    '',
  ].join('\n');
  const a = analyze([{ path: 'roles/x/templates/kubelet.service.j2', text }], { kubernetesVersion: '1.35' });
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map(at), ['5:3 flag-removed']);
  assert.deepEqual(a.nodes[0].node.flags.map((f) => f.name), ['kubeconfig', 'network-plugin']);
});

// A VS Code glob as a regular expression: a leading double star and slash is any folders, `*` is within a name, `{a,b}`
// alternatives.
function globRe(g: string): RegExp {
  const esc = (x: string) => x.replace(/[.+?^$()[\]\\|]/g, '\\$&');
  let re = '';
  for (let i = 0; i < g.length; i++) {
    if (g.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (g[i] === '*') re += '[^/]*';
    else if (g[i] === '{') {
      const j = g.indexOf('}', i);
      re += '(?:' + g.slice(i + 1, j).split(',').map(esc).join('|') + ')';
      i = j;
    } else re += esc(g[i]);
  }
  return new RegExp('^' + re + '$');
}

test('the server watches the template names and the editor sends them (npm run formats)', () => {
  const watch = WATCH_GLOBS.map(globRe);
  const select = DOCUMENT_PATTERNS.map(globRe);
  assert.ok(globRe('**/*.env*.{j2,tpl}').test('a/kubelet.env.v1beta1.j2') && !globRe('**/*.service').test('a/kubelet.service.j2'));
  for (const ext of ['j2', 'jinja', 'jinja2', 'tftpl', 'tfpl', 'tmpl', 'tpl']) {
    for (const path of [
      `roles/kubernetes/node/templates/kubelet.service.${ext}`,
      `roles/kubernetes/node/templates/kubelet.env.v1beta1.${ext}`,
      `roles/kubernetes/node/templates/kubelet.env.${ext}`,
      `etc/systemd/system/kubelet.service.d/10-kubeadm.conf.${ext}`,
      `roles/kubeadm/templates/10-kubeadm.conf.${ext}`,
      `etc/default/kubelet.${ext}`,
      `etc/sysconfig/kubelet.${ext}`,
    ]) {
      assert.ok(watch.some((r) => r.test(path)), `watched: ${path}`);
      assert.ok(select.some((r) => r.test(path)), `selected: ${path}`);
    }
  }
});

test('a unit template with thousands of expressions and as many findings: not their product (no hang)', () => {
  // Each finding was compared with every expression of the node: 50,000 flags between 50,000 comment or directive
  // lines took minutes.
  for (const line of ['{# note #}', '{% if x %}']) {
    const text = '[Service]\nExecStart={{ bin_dir }}/kubelet \\\n' + `${line}\n  --v=2 \\\n`.repeat(50_000) + '  --v=3\n';
    const t0 = Date.now();
    const a = analyze([{ path: 'roles/x/templates/kubelet.service.j2', text }]);
    assert.ok(Date.now() - t0 < HANG_MS, 'hang');
    assert.ok(a.findings.some((f) => f.code === 'kubelet-args-not-checked' || f.code === 'flag-duplicate'), line);
  }
});
