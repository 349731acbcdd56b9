/**
 * Hovers: `$VAR`/`${VAR}` (value, where set, the arguments systemd makes of it: env-util.c replace_env_argv splits
 * a whole-word `$NAME` only), feature gates per target version, and the allocatable table once per field or flag.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, type AnalyzeOptions } from '../../server/src/engine.ts';
import { hover } from '../../server/src/features/hover.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

const U = 'n/etc/systemd/system/kubelet.service';

/** Hover text at the `nth` occurrence of `needle` (one character into it). */
function hoverAt(files: { path: string; text: string }[], path: string, needle: string, nth = 0, options: AnalyzeOptions = {}): string {
  const text = files.find((f) => f.path === path)!.text;
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  assert.ok(i >= 0, needle);
  const before = text.slice(0, i + 1).split('\n');
  const h = hover(analyze(files, options), path, { line: before.length - 1, character: before.at(-1)!.length });
  return (h?.contents as { value: string } | undefined)?.value ?? '';
}

const UNIT = '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--v=2 --node-ip=10.0.0.1" "G=--max-pods=20"\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS --x=${G} $NOPE\n';

test('hover on $VAR: its value, where it is set, and the arguments systemd splits it into', () => {
  const h = hoverAt([{ path: U, text: UNIT }], U, '$KUBELET_EXTRA_ARGS');
  assert.match(h, /= `--v=2 --node-ip=10\.0\.0\.1`/);
  assert.match(h, /Set by Environment= in n\/etc\/systemd\/system\/kubelet\.service line 2/);
  assert.match(h, /2 arguments[\s\S]*- `--v=2`\n- `--node-ip=10\.0\.0\.1`/);
});

test('hover on ${VAR} inside a word: pasted as is, one argument; an unset variable expands to nothing', () => {
  assert.match(hoverAt([{ path: U, text: UNIT }], U, '${G}'), /one argument[\s\S]*- `--x=--max-pods=20`/);
  assert.match(hoverAt([{ path: U, text: UNIT }], U, '$NOPE'), /expands it to nothing/);
});

test('hover on a feature gate follows the target version: stage, default, lock, later changes, removal', () => {
  const cfg = 'n/kubelet-config.yaml';
  const files = [{ path: cfg, text: CONFIG_HEAD + 'featureGates:\n  AllAlpha: true\n  NoSuchGate: true\n' }];
  assert.match(hoverAt(files, cfg, 'AllAlpha'), /feature gate · kubelet \d+\.\d+: \*\*alpha\*\*, default `false`/);
  assert.match(hoverAt(files, cfg, 'NoSuchGate'), /not a feature gate the kubelet knows/);
  const flag = [{ path: U, text: '[Service]\nExecStart=/usr/bin/kubelet --feature-gates=AllBeta=true\n' }];
  assert.match(hoverAt(flag, U, 'AllBeta', 0, { kubernetesVersion: '1.30' }), /kubelet 1\.30: \*\*beta\*\*/);
});

test('the allocatable table shows on the reservation field and flag name, not again on their entries and values', () => {
  const cfg = 'n/kubelet-config.yaml';
  const files = [{ path: cfg, text: CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  memory: 1Gi\n' }];
  const table = /allocatable = capacity/;
  assert.match(hoverAt(files, cfg, 'kubeReserved'), table);
  assert.doesNotMatch(hoverAt(files, cfg, 'cpu'), table);
  assert.doesNotMatch(hoverAt(files, cfg, '500m'), table);
  const unit = [{ path: U, text: '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=500m\n' }];
  assert.match(hoverAt(unit, U, 'kube-reserved'), table);
  assert.doesNotMatch(hoverAt(unit, U, '500m'), table);
});

test('hover on a gate with dependencies names the gates it needs from 1.36 (kube_features.go defaultKubernetesFeatureGateDependencies)', () => {
  const cfg = 'n/kubelet-config.yaml';
  const files = [{ path: cfg, text: CONFIG_HEAD + 'featureGates:\n  ClusterTrustBundleProjection: true\n  ClusterTrustBundle: true\n' }];
  assert.match(hoverAt(files, cfg, 'ClusterTrustBundleProjection', 0, { kubernetesVersion: '1.36' }), /Needs `ClusterTrustBundle`: with this gate on and one of them off, the kubelet refuses to start/);
  assert.doesNotMatch(hoverAt(files, cfg, 'ClusterTrustBundleProjection', 0, { kubernetesVersion: '1.35' }), /Needs/);
});
