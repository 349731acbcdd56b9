/**
 * Units, drop-ins and environment files kept as templates (Ansible/Kubespray `kubelet.service.j2`, Terraform
 * `kubelet.service.tftpl`, Go `kubelet.service.tmpl`): recognised as the file they render, their literal mistakes
 * found, nothing said at a placeholder.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/formats/index.ts';
import { systemdTemplateName } from '../../server/src/parse/template.ts';

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
