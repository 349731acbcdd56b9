/**
 * False findings seen at first sight on real files outside the suite (test/realworld/README.md, seventh batch), each as
 * a small file of the same shape: the mechanism that keeps it quiet, and the true finding beside it that stays.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { detectKind } from '../../server/src/registry.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const loud = (a: ReturnType<typeof analyze>) => a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.code} ${f.range.start.line + 1}`);

test('an apiVersion with a template expression is what the template renders (geerlingguy kubeadm-kubelet-config.j2): no invented version', () => {
  const j2 = 'apiVersion: kubelet.config.k8s.io/{{ kubelet_apiversion }}\nkind: KubeletConfiguration\nmaxPods: 110\n';
  assert.deepEqual(loud(analyze([{ path: 'templates/kubelet-config.yaml.j2', text: j2 }])), []);
  // Written out, a wrong version is still an error.
  const wrong = analyze([{ path: 'kubelet-config.yaml', text: j2.replace('{{ kubelet_apiversion }}', 'v1') }]);
  assert.deepEqual(loud(wrong), ['config-kind-invalid 1']);
});

test('a continuation backslash just before `{% endif %}` ends the rendered line (githubixx kubelet.service.j2): no escape warning', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet \\\n{%- for s in settings %}\n  --{{ s }}{% if not loop.last %} \\{% endif %}\n{%- endfor %}\n\nRestart=always\n';
  assert.deepEqual(loud(analyze([{ path: 'templates/kubelet.service.j2', text: unit }])), []);
  // An unknown escape written out is still reported.
  const plain = analyze([{ path: 'kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --node-labels=a\\qb\n' }]);
  assert.deepEqual(loud(plain).map((x) => x.split(' ')[0]), ['exec-escape']);
});

test('a file named kubelet.service that holds the commands writing it is a script (cat > kubelet.service <<EOF): its lines are no unit syntax', () => {
  const snippet = "# Worker Kubelet Service\ncat > /etc/systemd/system/kubelet.service <<'EOF'\n[Unit]\nDescription=Kubernetes Kubelet\n\n[Service]\nExecStart=/usr/local/bin/kubelet \\\n  --v=2\nEOF\n";
  assert.equal(detectKind('kubelet.service', snippet), 'shell');
  const a = analyze([{ path: 'kubelet.service', text: snippet }]);
  assert.deepEqual(loud(a), []);
  assert.ok(a.nodes.some((n) => n.node.id.endsWith('//etc/systemd/system/kubelet.service')), 'the unit it writes is read');
  // A unit that is a unit stays one.
  assert.equal(detectKind('kubelet.service', '[Service]\nExecStart=/usr/bin/kubelet\n'), 'unit');
});

test('`<value>` is a slot left to fill in by hand: in a file nothing reads as written, what rests on it is a condition', () => {
  const a = analyze([{ path: 'configMaps/kubelet-config.yaml', text: CONFIG_HEAD + 'cgroupDriver: <value>\n' }]);
  assert.deepEqual(loud(a), []);
  const f = a.findings.find((x) => x.code === 'cgroup-driver-invalid')!;
  assert.match(f.message, /^If nothing fills in "<value>" before this file is used/);
});

test('a `.env` file holding unit sections is a drop-in under another name (kubekey kubelet.env, installed as 10-kubeadm.conf): no env-file syntax, no flag from `EnvironmentFile=-`', () => {
  const text = '[Service]\nEnvironment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\nEnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\nExecStart=\nExecStart=/usr/local/bin/kubelet $KUBELET_CONFIG_ARGS\n';
  assert.equal(detectKind('templates/kubelet/kubelet.env', text), 'dropin');
  assert.deepEqual(loud(analyze([{ path: 'templates/kubelet/kubelet.env', text }])), []);
  // An env file is still one.
  assert.equal(detectKind('templates/kubelet/kubelet.env', 'KUBELET_EXTRA_ARGS=--v=2\n'), 'envfile');
});
