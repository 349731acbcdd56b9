// Issue 26, point 4: the allocatable inlay hint of a payload sits at the end of a carrier line, never inside the
// carrier's text (a kind patch's key, before a Karpenter maxPods), and the code lens does not repeat its figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { codeLensesIn, inlayHintsIn } from '../../server/src/features/embedded.ts';

const GiB = 1n << 30n;
const capacity = { cpu: 4000n, memory: 8n * GiB, 'ephemeral-storage': 100n * GiB, hugepages: new Map<string, bigint>() };

function hints(path: string, text: string) {
  const a = analyze([{ path, text }], { capacity });
  const lines = text.split('\n');
  const hs = inlayHintsIn(a, path, { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } });
  return { a, lines, at: hs.map((h) => ({ line: lines[h.position.line], character: h.position.character, label: String(h.label) })) };
}

test('4: kind: the hint of a kubeadmConfigPatches KubeletConfiguration follows its kind line, not inside evictionHard', () => {
  const { at } = hints('kind.yaml', `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: worker
    kubeadmConfigPatches:
      - |
        kind: KubeletConfiguration
        evictionHard:
          memory.available: 200Mi
`);
  assert.equal(at.length, 1);
  assert.equal(at[0].line, '        kind: KubeletConfiguration');
  assert.equal(at[0].character, at[0].line.length, 'at the end of the line');
});

test('4: Karpenter: the hint follows `kubelet:`, not before maxPods', () => {
  const { at } = hints('ec2nodeclass.yaml', `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiFamily: AL2023
  kubelet:
    maxPods: 110
`);
  assert.equal(at.length, 1);
  assert.deepEqual([at[0].line, at[0].character], ['  kubelet:', '  kubelet:'.length]);
});

test('4: cloud-init: a unit in a quoted string gets its hint at the end of the carrier line; in a literal block, after ExecStart=', () => {
  const unit = '[Service]\\nExecStart=/usr/bin/kubelet --max-pods=20\\n';
  const quoted = hints('cloud-init.yaml', `#cloud-config\nwrite_files:\n  - path: /etc/systemd/system/kubelet.service\n    content: "${unit}"\n`);
  assert.equal(quoted.at.length, 1);
  assert.equal(quoted.at[0].character, quoted.at[0].line.length);
  const literal = hints('cloud-init.yaml', '#cloud-config\nwrite_files:\n  - path: /etc/systemd/system/kubelet.service\n    content: |\n      [Service]\n      ExecStart=/usr/bin/kubelet --max-pods=20\n');
  assert.deepEqual(literal.at.map((h) => [h.line.trim(), h.character === h.line.length]), [['ExecStart=/usr/bin/kubelet --max-pods=20', true]]);
});

test('4: the code lens names the view ("allocatable") and does not repeat the hint\'s figures a line above', () => {
  const { a, at } = hints('n/etc/systemd/system/kubelet.service', '[Service]\nExecStart=/usr/bin/kubelet --max-pods=20\n');
  assert.match(at[0].label, /^allocatable: .* · 20 pods$/);
  const titles = codeLensesIn(a, 'n/etc/systemd/system/kubelet.service', 'u').map((l) => l.command?.title);
  assert.deepEqual(titles, ['allocatable', 'effective configuration']);
});
