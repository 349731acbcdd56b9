// feature-gate-removed fixes that finish the job (issue 26, points 6 and 7): a flag holding only the removed gate
// goes whole (the message says "delete the entry"), and a gate written both in --feature-gates and featureGates is
// reported at both places, so that one round of fixes leaves the kubelet able to start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const V = { kubernetesVersion: '1.30' };
const UNIT = 'n/etc/systemd/system/kubelet.service';
const CONFIG = 'n/var/lib/kubelet/config.yaml';

type Files = { path: string; text: string }[];
const removed = (files: Files) => analyze(files, V).findings.filter((f) => f.code === 'feature-gate-removed');

function fixAll(files: Files, findings: Finding[]): Files {
  return applyWorkspaceEdits(files, findings.flatMap((f) => f.fixes?.[0]?.edits ?? []));
}

const textOf = (files: Files, path: string) => files.find((f) => f.path === path)!.text;

test('6: --feature-gates holding only a removed gate: the fix removes the whole flag and one blank, first or last', () => {
  for (const [exec, want] of [
    ['/usr/bin/kubelet --feature-gates=DevicePlugins=true --v=2', '/usr/bin/kubelet --v=2'],
    ['/usr/bin/kubelet --v=2 --feature-gates=DevicePlugins=true', '/usr/bin/kubelet --v=2'],
    ['/usr/bin/kubelet --feature-gates=DevicePlugins=true', '/usr/bin/kubelet'],
  ]) {
    const files = [{ path: UNIT, text: `[Service]\nExecStart=${exec}\n` }];
    const [f, ...rest] = removed(files);
    assert.equal(rest.length, 0);
    assert.equal(f.fixes?.[0].title, 'Remove --feature-gates (DevicePlugins is its only gate)');
    assert.equal(textOf(fixAll(files, [f]), UNIT), `[Service]\nExecStart=${want}\n`, exec);
  }
  // In an env file's variable too.
  const env = 'n/etc/default/kubelet';
  const files = [
    { path: UNIT, text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n' },
    { path: env, text: 'KUBELET_EXTRA_ARGS=--feature-gates=DevicePlugins=true --max-pods=20\n' },
  ];
  const fixed = fixAll(files, removed(files));
  assert.equal(textOf(fixed, env), 'KUBELET_EXTRA_ARGS=--max-pods=20\n');
  assert.deepEqual(removed(fixed), []);
});

test('6: a platform flag entry holding only a removed gate (Talos extraArgs, k3s kubelet-arg) loses its line', () => {
  const talos = [{ path: 'worker.yaml', text: 'version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.30.1\n    extraArgs:\n      feature-gates: DevicePlugins=true\n      max-pods: "20"\n' }];
  const [t] = removed(talos);
  assert.equal(t.fixes?.[0].title, 'Remove the feature-gates entry (DevicePlugins is its only gate)');
  const fixedTalos = fixAll(talos, [t]);
  assert.equal(fixedTalos[0].text, talos[0].text.replace('      feature-gates: DevicePlugins=true\n', ''));
  assert.deepEqual(removed(fixedTalos), []);
  const k3s = [{ path: '/etc/rancher/k3s/config.yaml', text: '# kubelet-lint: kubernetes-version 1.30\nkubelet-arg:\n  - "feature-gates=DevicePlugins=true"\n  - "max-pods=20"\n' }];
  const [k] = removed(k3s);
  assert.ok(k?.fixes?.length, 'a fix is offered');
  assert.equal(fixAll(k3s, [k])[0].text, '# kubelet-lint: kubernetes-version 1.30\nkubelet-arg:\n  - "max-pods=20"\n');
});

test('7: a removed gate set by --feature-gates and featureGates is reported at both; one round of fixes removes both', () => {
  const files = [
    { path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --feature-gates=DevicePlugins=true,NodeSwap=true\n' },
    { path: CONFIG, text: CONFIG_HEAD + 'featureGates:\n  DevicePlugins: true\n  GracefulNodeShutdown: true\n' },
  ];
  const found = removed(files);
  assert.deepEqual(found.map((f) => f.file).sort(), [UNIT, CONFIG].sort());
  assert.match(found.find((f) => f.file === CONFIG)!.message, /featureGates sets DevicePlugins=true/);
  const fixed = fixAll(files, found);
  assert.deepEqual(removed(fixed), []);
  assert.equal(textOf(fixed, CONFIG), CONFIG_HEAD + 'featureGates:\n  GracefulNodeShutdown: true\n');
  assert.match(textOf(fixed, UNIT), /--feature-gates=NodeSwap=true\n/);
});

test('8: flag-overrides-config offers to write the keys a map flag drops into the flag; afterwards nothing is dropped', () => {
  const env = 'n/etc/default/kubelet';
  const files = [
    { path: UNIT, text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS\n' },
    { path: env, text: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=1 --node-labels=a=b\n' },
    { path: CONFIG, text: CONFIG_HEAD + 'systemReserved:\n  cpu: 500m\n  memory: 1Gi\n  ephemeral-storage: "2Gi"\nevictionHard:\n  memory.available: 200Mi\n  nodefs.available: 10%\n' },
  ];
  const a = analyze(files, V);
  const f = a.findings.find((x) => x.code === 'flag-overrides-config' && x.severity === 'warning');
  assert.ok(f, 'the dropped keys are reported');
  assert.equal(f.fixes?.[0].title, 'Add memory=1Gi,ephemeral-storage=2Gi to --system-reserved, as the config file had them');
  const fixed = fixAll(files, [f]);
  assert.equal(textOf(fixed, env), 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=1,memory=1Gi,ephemeral-storage=2Gi --node-labels=a=b\n');
  const again = analyze(fixed, V);
  assert.deepEqual(again.findings.filter((x) => x.code === 'flag-overrides-config' && x.severity === 'warning'), []);
  // The eviction flags take `signal<value`.
  const ev = [
    { path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --eviction-hard=memory.available<300Mi\n' },
    { path: CONFIG, text: CONFIG_HEAD + 'evictionHard:\n  memory.available: 200Mi\n  nodefs.available: 10%\n' },
  ];
  const e = analyze(ev, V).findings.find((x) => x.code === 'flag-overrides-config' && x.severity === 'warning');
  assert.match(textOf(fixAll(ev, [e!]), UNIT), /--eviction-hard=memory\.available<300Mi,nodefs\.available<10%\n/);
});
