/**
 * unit-variable-unused: a variable holding kubelet flags that no Exec*= line references (systemd expands `$NAME`
 * only where an Exec line writes it, env-util.c replace_env_argv; the kubelet reads flags from argv only).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DiagnosticTag } from 'vscode-languageserver-types';
import { analyze } from '../../server/src/engine.ts';
import { hover } from '../../server/src/features/hover.ts';
import { toDiagnostic } from '../../server/src/features/diagnostics.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const UNIT = 'n/etc/systemd/system/kubelet.service';
const DROPIN = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const AUTHZ = 'KUBELET_AUTHZ_ARGS=--authorization-mode=Webhook --client-ca-file=/etc/kubernetes/pki/ca.crt';

function node(dropin: string, extra: Record<string, string> = {}) {
  return [{ path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet\n' }, { path: DROPIN, text: dropin }, ...Object.entries(extra).map(([path, text]) => ({ path, text }))];
}

function dropin(env: string, exec: string): string {
  return `[Service]\nEnvironment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"\nEnvironment="${env}"\nExecStart=\nExecStart=${exec}\n`;
}

const unused = (files: { path: string; text: string }[]) => analyze(files).findings.filter((f) => f.code === 'unit-variable-unused');

test('KUBELET_AUTHZ_ARGS set but not in ExecStart=: a warning on the assignment naming the flags, greyed out, with the security consequence', () => {
  const text = dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS');
  const [f, ...rest] = unused(node(text));
  assert.equal(rest.length, 0);
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, DROPIN);
  const line = text.split('\n')[2];
  // The whole assignment, its quotes included.
  assert.deepEqual(f.range, { start: { line: 2, character: line.indexOf('"') }, end: { line: 2, character: line.length } });
  const first = f.message.split('. ')[0];
  assert.ok(first.length <= 120, first);
  // The security consequence leads (issue 26, point 12); which flags are lost follows at once.
  assert.match(first, /^Anyone reaching port 10250 can exec into pods \(authorization AlwaysAllow\): KUBELET_AUTHZ_ARGS is not in ExecStart=$/);
  assert.match(f.message.split('. ')[1], /^--authorization-mode, --client-ca-file never reach the kubelet/);
  assert.equal(f.message.match(/AlwaysAllow/g)?.length, 1, f.message);
  assert.match(f.message, /no client CA/);
  assert.deepEqual(f.tags, ['unnecessary']);
  assert.deepEqual(toDiagnostic(f, (p) => p).tags, [DiagnosticTag.Unnecessary]);
});

test('no unit-variable-unused when ExecStart= references the variable as $NAME or ${NAME}, or an ExecStartPre= uses it', () => {
  for (const exec of ['/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_AUTHZ_ARGS', '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS "${KUBELET_AUTHZ_ARGS}"']) {
    assert.deepEqual(unused(node(dropin(AUTHZ, exec))), [], exec);
  }
  const pre = dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS').replace('ExecStart=\n', 'ExecStartPre=/usr/local/bin/check ${KUBELET_AUTHZ_ARGS}\nExecStart=\n');
  assert.deepEqual(unused(node(pre)), []);
});

test('a reference only in an ExecStart= that a later empty ExecStart= resets does not count (systemd never runs it)', () => {
  const files = [
    { path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet $KUBELET_AUTHZ_ARGS\n' },
    { path: DROPIN, text: dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS') },
  ];
  assert.equal(unused(files).length, 1);
});

test('variables without flags (HTTP_PROXY) reach the kubelet through its environment: no finding', () => {
  assert.deepEqual(unused(node(dropin('HTTPS_PROXY=http://proxy:3128', '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS'))), []);
});

test('a config file that sets authorization.mode: Webhook means nothing is lost for authorization: no AlwaysAllow consequence', () => {
  const config = 'n/var/lib/kubelet/config.yaml';
  const text = dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS --config=/var/lib/kubelet/config.yaml');
  const [f] = unused(node(text, { [config]: CONFIG_HEAD + 'authorization:\n  mode: Webhook\nauthentication:\n  x509:\n    clientCAFile: /etc/kubernetes/pki/ca.crt\n' }));
  assert.ok(f);
  assert.doesNotMatch(f.message, /AlwaysAllow|client CA/);
});

test('the flags of an unused variable keep their own problems: a removed flag is reported as a warning that says where it sits', () => {
  const text = dropin(`${AUTHZ} --network-plugin=cni`, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS');
  const a = analyze(node(text), { kubernetesVersion: '1.30' });
  const removed = a.findings.filter((f) => f.code === 'flag-removed');
  assert.equal(removed.length, 1);
  assert.equal(removed[0].severity, 'warning');
  assert.equal(removed[0].file, DROPIN);
  assert.match(removed[0].message, /KUBELET_AUTHZ_ARGS, which no ExecStart= references/);
});

test('hover on a flag in an unused variable shows its documentation and that it is not in effect', () => {
  const text = dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS');
  const line = text.split('\n')[2];
  const h = hover(analyze(node(text)), DROPIN, { line: 2, character: line.indexOf('authorization-mode') + 3 });
  const value = (h?.contents as { value: string }).value;
  assert.match(value, /--authorization-mode/);
  assert.match(value, /Not in effect.*\$KUBELET_AUTHZ_ARGS/);
});

test('a reference names the whole variable: $KUBELET_AUTHZ_ARGS_X and an unclosed ${KUBELET_AUTHZ_ARGS do not use KUBELET_AUTHZ_ARGS', () => {
  // env-util.c: `$NAME` takes the longest run of name characters; `${NAME` without `}` is no reference.
  assert.equal(unused(node(dropin(AUTHZ, '/usr/bin/kubelet $KUBELET_AUTHZ_ARGS_X $KUBELET_KUBECONFIG_ARGS'))).length, 1);
  assert.equal(unused(node(dropin(AUTHZ, '/usr/bin/kubelet ${KUBELET_AUTHZ_ARGS $KUBELET_KUBECONFIG_ARGS'))).length, 1);
  assert.equal(unused(node(dropin(AUTHZ, '/usr/bin/kubelet $$KUBELET_AUTHZ_ARGS_X ${KUBELET_AUTHZ_ARGS} $KUBELET_KUBECONFIG_ARGS'))).length, 0);
});

test('the flag checks inside unused variables name the variable each flag is in: two on one line, one in an environment file', () => {
  const text = '[Service]\nEnvironment="A_ARGS=--v=2 --max-pod=5" "B_ARGS=--max-pods=many"\nEnvironmentFile=/etc/default/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet\n';
  const files = node(text, { 'n/etc/default/kubelet': 'C_ARGS=--allow-privileged=true\nD_ARGS=--v=2\n' });
  const inner = analyze(files, { kubernetesVersion: '1.37' }).findings.filter((f) => f.message.includes('which no ExecStart= references yet'));
  const said = inner.map((f) => [f.code, f.file, /\(In (\w+),/.exec(f.message)![1]]).sort((x, y) => String(x).localeCompare(String(y)));
  assert.deepEqual(said, [
    ['flag-removed', 'n/etc/default/kubelet', 'C_ARGS'],
    ['flag-unknown', DROPIN, 'A_ARGS'],
    ['flag-value-invalid', DROPIN, 'B_ARGS'],
  ]);
  assert.ok(inner.every((f) => f.severity === 'warning'), 'errors in a variable nobody references yet are warnings');
});

test('past 1,000 unused variables the rest are counted in one finding at the first of them (issue #28 point 5: memory)', () => {
  const env = ['KUBELET_EXTRA_ARGS=--v=2', ...Array.from({ length: 1250 }, (_, i) => `UNUSED_${i}="--max-pods=${100 + (i % 50)}"`), 'PLAIN=value', ''].join('\n');
  const files = [
    { path: UNIT, text: '[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n' },
    { path: 'n/etc/default/kubelet', text: env },
  ];
  const a = analyze(files);
  const fs = a.findings.filter((f) => f.code === 'unit-variable-unused');
  assert.equal(fs.length, 1001);
  assert.equal(a.nodes[0].node.unusedVariables?.length, 1000);
  const last = fs.find((f) => /more variables/.test(f.message))!;
  assert.match(last.message, /^250 more variables, from UNUSED_1000 on, hold kubelet flags that no ExecStart= references\./);
  assert.equal(last.range.start.line, 1001);
});

// Dudecake/centos-iot-config 10-kubeadm.conf and 15-kubeadm.conf (test/realworld): two numbered drop-ins side by side,
// the later one's empty ExecStart= replacing the earlier one's command line (systemd config_parse_exec; drop-ins in
// file-name order, src/shared/dropin.c).
const OLD_DROPIN = '[Service]\nEnvironment="KUBELET_NETWORK_ARGS=--network-plugin=cni"\nEnvironment="KUBELET_AUTHZ_ARGS=--authorization-mode=Webhook"\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_NETWORK_ARGS $KUBELET_AUTHZ_ARGS $KUBELET_EXTRA_ARGS\n';
const NEW_DROPIN = '[Service]\nEnvironmentFile=-/etc/sysconfig/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_KUBEADM_ARGS\n';

test('numbered drop-ins side by side with no unit are one kubelet.service: the later ExecStart= replaces the earlier, whose removed flags then never run (no flag-removed error)', () => {
  const files = [{ path: 'repo/10-kubeadm.conf', text: OLD_DROPIN }, { path: 'repo/15-kubeadm.conf', text: NEW_DROPIN }];
  const a = analyze(files);
  assert.equal(a.nodes.length, 1);
  assert.deepEqual(a.nodes[0].node.files, ['repo/10-kubeadm.conf', 'repo/15-kubeadm.conf']);
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => f.code), []);
  const left = a.findings.filter((f) => f.code === 'unit-variable-unused');
  assert.deepEqual(left.map((f) => [f.severity, f.message.split(':')[0]]), [['information', 'KUBELET_NETWORK_ARGS is left over'], ['information', 'KUBELET_AUTHZ_ARGS is left over']]);
  assert.ok(left.every((f) => f.message.split('. ')[0].length <= 120));
  // Two drop-ins of one number are alternatives (or a copy): each is read alone, as before.
  assert.equal(analyze([{ path: 'repo/10-kubeadm.conf', text: OLD_DROPIN }, { path: 'repo/10-other.conf', text: NEW_DROPIN }]).nodes.length, 2);
});

test('a variable the user sets in an environment file that a replacing ExecStart= forgot stays a warning (its flags are lost)', () => {
  const files = [
    { path: 'repo/10-kubeadm.conf', text: OLD_DROPIN },
    { path: 'repo/15-kubeadm.conf', text: NEW_DROPIN.replace('/etc/sysconfig/kubelet', '/etc/default/kubelet') },
    { path: 'repo/etc/default/kubelet', text: 'KUBELET_EXTRA_ARGS=--max-pods=50\n' },
  ];
  const f = analyze(files).findings.filter((x) => x.code === 'unit-variable-unused' && x.message.startsWith('KUBELET_EXTRA_ARGS'));
  assert.equal(f.length, 1);
  assert.equal(f[0].severity, 'warning');
});

test('with --config on the command line the lost authorization flags are no security finding: the file\'s defaults are Webhook (kubelet v1beta1 defaults), even when the file is not in the workspace', () => {
  const text = '[Service]\nEnvironment="KUBELET_AUTHZ_ARGS=--authorization-mode=Webhook --client-ca-file=/etc/kubernetes/pki/ca.crt"\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n';
  const [f] = unused(node(text));
  assert.match(f.message, /^KUBELET_AUTHZ_ARGS is not in ExecStart=/);
  assert.doesNotMatch(f.message, /AlwaysAllow/);
});
