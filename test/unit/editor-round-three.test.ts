/**
 * Issue 26, "the editor, round three": messages and views a user meets, as pure functions of an analysis (and of
 * the settings, for kubeletConfig.nodeCapacity). Completion, fixes and inlay hints have their own files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { DEFAULT_SETTINGS, toAnalysisOptions } from '../../server/src/lsp/settings.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { allocatableForFile } from '../../server/src/features/allocatable-data.ts';
import { hover } from '../../server/src/features/hover.ts';
import { renderAllocatable, statusText, statusTooltip } from '../../client/src/allocatable-render.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

test('13: an invalid kubeletConfig.nodeCapacity is said in words (no Go regular expression); a valid one is named as the capacity source', () => {
  const bad = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'cpu=4,memory=lots' });
  assert.equal(bad.options.capacity, undefined);
  assert.doesNotMatch(bad.capacityProblem ?? '', /regular expression|\^\(/);
  assert.match(bad.capacityProblem ?? '', /memory: "lots" is not a quantity \(a number with an optional suffix, like 4, 500m or 16Gi\)/);
  const ok = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'cpu=4,memory=16Gi' });
  assert.equal(ok.options.capacitySource, 'the kubeletConfig.nodeCapacity setting');
  const a = analyze([{ path: 'n/config.yaml', text: CONFIG_HEAD + 'maxPods: 20\n' }], ok.options);
  assert.match(allocatableMarkdown(a.nodes[0]), /Capacity from the kubeletConfig\.nodeCapacity setting;/);
  assert.doesNotMatch(allocatableMarkdown(a.nodes[0]), /given to the analysis/);
});

test('14: the allocatable view and the status bar say when the node\'s kubelet refuses to start; a healthy node says nothing of it', () => {
  const unit = 'n/etc/systemd/system/kubelet.service';
  const broken = analyze([{ path: unit, text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n[Service]\nExecStart=/usr/bin/kubelet --allow-privileged=true --max-pods=20\n# kubelet-lint: kubernetes-version 1.37\n' }]);
  const [node] = allocatableForFile(broken, unit).nodes;
  assert.equal(node.refusesToStart?.length, 1);
  assert.match(node.refusesToStart![0].message, /^--allow-privileged was removed in Kubernetes 1\.15: a .* kubelet refuses to start$/);
  assert.equal(node.refusesToStart![0].at, `${unit} line 3`);
  assert.match(statusText(node), /^\$\(server\) .* · kubelet [\d.]+ refuses to start$/);
  assert.match(statusTooltip(node), /\*\*The kubelet of this node refuses to start: --allow-privileged was removed .* \(n\/etc\/systemd\/system\/kubelet\.service line 3\)\. The figures apply once it starts\.\*\*/);
  assert.match(renderAllocatable({ nodes: [node] }, { nonce: 'n' }), /<p class="warning" role="alert"><strong>The kubelet of this node refuses to start: /);
  const healthy = analyze([{ path: unit, text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n[Service]\nExecStart=/usr/bin/kubelet --max-pods=20\n' }]);
  const [ok] = allocatableForFile(healthy, unit).nodes;
  assert.equal(ok.refusesToStart, undefined);
  assert.doesNotMatch(statusText(ok), /refuses/);
  assert.doesNotMatch(renderAllocatable({ nodes: [ok] }, { nonce: 'n' }), /refuses to start/);
});

test('14: in a carrier with two nodes, only the node whose part is broken refuses to start', () => {
  const text = `kind: Cluster
apiVersion: kind.x-k8s.io/v1alpha4
nodes:
  - role: worker
    kubeadmConfigPatches:
      - |
        kind: KubeletConfiguration
        kubeReserved:
          gpu: "1"
  - role: worker
    kubeadmConfigPatches:
      - |
        kind: KubeletConfiguration
        maxPods: 50
`;
  const a = analyze([{ path: 'kind.yaml', text }]);
  const nodes = allocatableForFile(a, 'kind.yaml').nodes;
  assert.equal(nodes.length, 2);
  assert.deepEqual(nodes.map((n) => (n.refusesToStart ?? []).length), [1, 0]);
});

test('17: a reservation hover (field or flag) opens with the allocatable table; the documentation follows it', () => {
  const config = 'n/var/lib/kubelet/config.yaml';
  const text = '# kubelet-lint: capacity cpu=4,memory=16Gi\n' + CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n';
  const a = analyze([{ path: config, text }]);
  const value = (h: ReturnType<typeof hover>) => (h?.contents as { value: string }).value;
  const field = value(hover(a, config, { line: 3, character: 2 }));
  assert.ok(field.startsWith('**Node Allocatable**'), field.slice(0, 80));
  assert.ok(field.indexOf('| resource |') < field.indexOf('---\n'), 'the table is above the rule');
  assert.ok(field.indexOf('**`kubeReserved`**') > field.indexOf('| resource |'), 'the documentation is below the table');
  const unit = 'n/etc/systemd/system/kubelet.service';
  const u = analyze([{ path: unit, text: '# kubelet-lint: capacity cpu=4,memory=16Gi\n[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=500m\n' }]);
  const flag = value(hover(u, unit, { line: 2, character: 30 }));
  assert.ok(flag.startsWith('**Node Allocatable**'), flag.slice(0, 80));
  assert.ok(flag.indexOf('`--kube-reserved`') > flag.indexOf('| resource |'));
});
