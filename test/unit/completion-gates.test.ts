import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { completion } from '../../server/src/features/completion.ts';

const text = (version: string) =>
  `# kubelet-lint: kubernetes-version ${version}\napiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nfeatureGates:\n  \n`;

function gateLabels(version: string): string[] {
  const t = text(version);
  const a = analyze([{ path: 'kubelet-config.yaml', text: t }]);
  return completion(a, 'kubelet-config.yaml', { line: 4, character: 2 }).map((i) => i.label);
}

test('completion inside featureGates offers the gates the target kubelet knows, not removed ones', () => {
  const at130 = gateLabels('1.30');
  assert.ok(at130.length > 50, `${at130.length} gates`);
  assert.ok(!at130.includes('DevicePlugins'), 'DevicePlugins was removed around 1.28');
  assert.ok(!at130.includes('DynamicKubeletConfig'));
  const at123 = gateLabels('1.23');
  assert.ok(at123.includes('DynamicKubeletConfig'), 'still known to a 1.23 kubelet');
});
