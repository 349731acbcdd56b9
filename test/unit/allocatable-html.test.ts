/** The allocatable view's page and the status bar strings (client/src/allocatable-render.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderAllocatable, statusText, statusTooltip } from '../../client/src/allocatable-render.ts';
import { nodeAllocatable, type AllocatableResponse } from '../../server/src/features/allocatable-data.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { parseCapacityOrType as parseCapacity } from '../../server/src/node/instance-capacity.ts';
import { CONFIG_HEAD, onlyNode, run } from '../helpers/nodes.ts';

const NONCE = 'bm9uY2Utbm9uY2U=';

function response(body: string, capacity?: string, path = '/srv/node-a/kubelet-config.yaml'): AllocatableResponse {
  const c = capacity ? parseCapacity(capacity) : undefined;
  assert.ok(!c || c.ok);
  const a = run({ [path]: CONFIG_HEAD + body }, c?.ok ? { capacity: c.capacity } : {});
  return { nodes: [nodeAllocatable(onlyNode(a))] };
}

const DOCS = `kubeReserved: {cpu: "1", memory: 2Gi, ephemeral-storage: 1Gi}
systemReserved: {cpu: 500m, memory: 1Gi, ephemeral-storage: 1Gi}
evictionHard: {memory.available: 500Mi, nodefs.available: "10%"}
`;

test('the page runs no script, loads nothing and allows only its own nonce\'d style', () => {
  const html = renderAllocatable(response(DOCS, 'docs-example'), { nonce: NONCE });
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  assert.equal(csp, `default-src 'none'; style-src 'nonce-${NONCE}';`);
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|https?:\/\//i);
  assert.doesNotMatch(html, / style="/, 'a style attribute would be blocked by the CSP');
  assert.equal(html.match(/<style/g)?.length, 1);
  assert.match(html, new RegExp(`<style nonce="${NONCE}">`));
});

test('one bar per resource with its segments sized in the page style, and the exact figures in a table', () => {
  const html = renderAllocatable(response(DOCS, 'docs-example'), { nonce: NONCE, label: (p) => p.replace('/srv/', '') });
  assert.match(html, /#n0-cpu \.seg\.kube-reserved \{ width: 6\.25%; \}/);
  assert.match(html, /#n0-cpu \.seg\.allocatable \{ width: 90\.63%; \}/);
  assert.match(html, /#n0-memory \.seg\.eviction-hard \{ width: 1\.53%; \}/);
  assert.doesNotMatch(html, /id="n0-pods"/, 'pods is a number, not a bar');
  // The bar speaks for itself to a screen reader.
  assert.match(html, /role="img" aria-label="memory: capacity 32 GiB: kube-reserved 2 GiB, system-reserved 1 GiB, hard eviction 500 MiB, allocatable 28\.51 GiB \(30614224896 bytes\)"/);
  const table = /<table>.*<\/table>/s.exec(html)?.[0] ?? '';
  assert.match(table, /<th scope="row">memory<\/th><td>32 GiB<\/td><td>2 GiB<\/td><td>1 GiB<\/td><td>500 MiB<small>memory\.available&lt;500Mi<\/small><\/td><td><strong>28\.51 GiB<small>30614224896 bytes<\/small><\/strong><\/td>/);
  assert.match(table, /10 GiB<small>10737418400 bytes<\/small><small>nodefs\.available&lt;10%<\/small>/);
  assert.match(table, /88 GiB<small>94489280352 bytes<\/small>/);
  assert.match(table, /<th scope="row">pods<\/th><td>110<\/td>/);
  assert.match(html, /Node <code>node-a\/kubelet-config\.yaml<\/code>/);
  assert.match(html, /class="legend"/);
});

test('without a capacity: no bars, the reservations, and how to give a capacity (setting link only when command links work)', () => {
  const data = response(DOCS);
  const html = renderAllocatable(data, { nonce: NONCE, commandLinks: true });
  assert.doesNotMatch(html, /class="bar"/);
  assert.match(html, /No capacity is known for this node/);
  assert.match(html, /href="command:workbench\.action\.openSettings\?%5B%22kubeletConfig\.nodeCapacity%22%5D"/);
  assert.match(html, /# kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi/);
  assert.match(html, /<td>10% of capacity<small>nodefs\.available&lt;10%<\/small><\/td>/);
  // Why a row has no figure sits on a line of its own under the resource, not run into it ("cpuno node capacity given").
  assert.match(html, /<th scope="row">cpu<br><small>no node capacity given<\/small><\/th>/);
  assert.doesNotMatch(renderAllocatable(data, { nonce: NONCE }), /href="command:/);
});

test('reservations above the capacity: the capacity line on the bar and a warning', () => {
  const html = renderAllocatable(response('kubeReserved: {memory: 6Gi}\nsystemReserved: {memory: 4Gi}\n', 'cpu=4,memory=8Gi'), { nonce: NONCE });
  assert.match(html, /#n0-memory \.capacity-mark \{ left: 79\.23%; \}/);
  assert.match(html, /add up to more than the capacity/);
  assert.match(html, /the reservations exceed the capacity, so allocatable is 0/);
});

test('text from files is escaped', () => {
  const html = renderAllocatable(response(DOCS, 'docs-example', '/srv/<b>"x"/kubelet-config.yaml'), { nonce: NONCE });
  assert.match(html, /&lt;b&gt;&quot;x&quot;/);
  assert.doesNotMatch(html, /<b>"x"/);
});

test('no node: a message instead of figures', () => {
  assert.match(renderAllocatable(undefined, { nonce: NONCE }), /Open a kubelet unit/);
  assert.match(renderAllocatable({ nodes: [] }, { nonce: NONCE }), /No kubelet node reads this file/);
});

test('status bar: short cpu and memory, every resource in the tooltip', () => {
  const node = response(DOCS, 'docs-example').nodes[0];
  assert.equal(statusText(node), `$(server) 14.5 CPU · 28.51 GiB · kubelet ${NEWEST_VERSION}`);
  const tip = statusTooltip(node, () => 'node-a/kubelet-config.yaml');
  assert.match(tip, /\*\*Node Allocatable\*\* of `node-a\/kubelet-config\.yaml`/);
  assert.match(tip, /\| ephemeral-storage \| 88 GiB \| 100 GiB \|/);
  assert.match(tip, /\| pods \| 110 \| 110 \|/);
  const none = response(DOCS).nodes[0];
  assert.equal(statusText(none), `$(server) no capacity · kubelet ${NEWEST_VERSION}`);
  assert.match(statusTooltip(none), new RegExp(`Kubernetes ${NEWEST_VERSION}, from the newest version this tool knows`));
  assert.match(statusTooltip(none), /kubeletConfig\.nodeCapacity/);
});

test('the view and the status bar say which Kubernetes version is used and where it came from, with workspace labels', () => {
  const path = '/srv/node-a/kubeadm.yaml';
  const text = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: ClusterConfiguration\nkubernetesVersion: v1.30.2\n---\n' + CONFIG_HEAD + DOCS;
  const node = nodeAllocatable(onlyNode(run({ [path]: text })));
  const label = (p: string) => p.replace('/srv/', '');
  assert.match(renderAllocatable({ nodes: [node] }, { nonce: NONCE, label }), /kubelet 1\.30 \(from kubernetesVersion v1\.30\.2 in node-a\/kubeadm\.yaml line 3\)/);
  assert.equal(statusText(node), '$(server) no capacity · kubelet 1.30');
  assert.match(statusTooltip(node, label), /Kubernetes 1\.30, from kubernetesVersion v1\.30\.2 in node-a\/kubeadm\.yaml line 3/);
});

test('a node with candidate instance types gets a table of allocatable per type, names escaped', () => {
  const r = response(DOCS, 'm5.large');
  const base = r.nodes[0]!;
  const html = renderAllocatable(
    { nodes: [{ ...base, candidates: [
      { name: 'm5.large', source: 's', cpu: '0.5 CPU', memory: '4.5 GiB', pods: '110', exhausted: false },
      { name: '<m5.xlarge>', source: 's', cpu: '2.5 CPU', memory: '12.5 GiB', pods: '110', exhausted: false },
    ] }] },
    { nonce: NONCE },
  );
  assert.match(html, /<caption>Allocatable per candidate instance type \(the figures above are for m5\.large\)<\/caption>/);
  assert.match(html, /<th scope="row">&lt;m5\.xlarge&gt;<\/th><td>2\.5 CPU<\/td><td>12\.5 GiB<\/td><td>110<\/td>/);
  assert.doesNotMatch(renderAllocatable(r, { nonce: NONCE }), /candidate instance type/);
  const named = run({ '/srv/n/kubelet-config.yaml': '# kubelet-lint: capacity m5.large\n' + CONFIG_HEAD + DOCS });
  assert.match(renderAllocatable({ nodes: [nodeAllocatable(onlyNode(named))] }, { nonce: NONCE }), /capacity from m5\.large: 2 vCPU, 8 GiB, 29 pods \(EC2 table\), modeline/);
});
