/**
 * With the language server's cache, an analysis keeps each node's results and reuses them while nothing the node
 * read has changed (server/src/node/reuse.ts). Reused or not, the results must be those of a fresh analysis.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { ParseCache } from '../../server/src/node/parse-cache.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { kubeadmNode } from '../helpers/nodes.ts';
import { analysisSummary } from '../helpers/analysis-summary.ts';

function workspace(): SourceFile[] {
  const files: Record<string, string> = {};
  for (const n of ['a', 'b', 'c']) Object.assign(files, kubeadmNode(n, { config: `maxPods: 110\nkubeReserved:\n  memory: 1Gi\n`, kubeadmFlags: 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock"\n' }));
  files['b/etc/containerd/config.toml'] = 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]\n  SystemdCgroup = false\n';
  return Object.entries(files).map(([path, text]) => ({ path, text }));
}

const byId = (a: ReturnType<typeof analyze>, prefix: string) => a.nodes.find((n) => n.node.id.startsWith(prefix))!.node;
const edit = (files: SourceFile[], path: string, f: (t: string) => string) => files.map((x) => (x.path === path ? { path, text: f(x.text) } : x));

test('an edit re-runs the node it touches; the other nodes keep their results, which equal a fresh analysis', () => {
  const cache = new ParseCache();
  let files = workspace();
  const first = analyze(files, {}, cache);
  files = edit(files, 'a/var/lib/kubelet/config.yaml', (t) => t.replace('maxPods: 110', 'maxPods: -3'));
  const second = analyze(files, {}, cache);
  assert.notEqual(byId(second, 'a/'), byId(first, 'a/'));
  assert.equal(byId(second, 'b/'), byId(first, 'b/'));
  assert.equal(byId(second, 'c/'), byId(first, 'c/'));
  assert.ok(second.findings.some((f) => f.file === 'a/var/lib/kubelet/config.yaml' && f.code === 'config-value-invalid'));
  assert.deepStrictEqual(analysisSummary(second), analysisSummary(analyze(files)));
});

test('a changed runtime config, env file or option re-runs the nodes that read it', () => {
  const cache = new ParseCache();
  let files = workspace();
  const first = analyze(files, {}, cache);
  files = edit(files, 'b/etc/containerd/config.toml', (t) => t.replace('false', 'true'));
  const second = analyze(files, {}, cache);
  assert.notEqual(byId(second, 'b/'), byId(first, 'b/'));
  assert.equal(byId(second, 'c/'), byId(first, 'c/'));
  files = edit(files, 'c/var/lib/kubelet/kubeadm-flags.env', (t) => t.replace('containerd.sock', 'crio.sock'));
  const third = analyze(files, {}, cache);
  assert.notEqual(byId(third, 'c/'), byId(second, 'c/'));
  assert.equal(byId(third, 'a/'), byId(second, 'a/'));
  const options = { kubernetesVersion: '1.30' };
  const fourth = analyze(files, options, cache);
  for (const n of ['a/', 'b/', 'c/']) assert.notEqual(byId(fourth, n), byId(third, n));
  assert.deepStrictEqual(analysisSummary(fourth), analysisSummary(analyze(files, options)));
});

test('a file added or removed re-runs every node (a new file can change how any reference resolves)', () => {
  const cache = new ParseCache();
  let files = workspace();
  const first = analyze(files, {}, cache);
  // A second config.yaml under a's root makes a's --config ambiguous... and could do the same to any node.
  files = [...files, { path: 'a/srv/var/lib/kubelet/config.yaml', text: 'maxPods: 5\n' }];
  const second = analyze(files, {}, cache);
  for (const n of ['a/', 'b/', 'c/']) assert.notEqual(byId(second, n), byId(first, n));
  assert.deepStrictEqual(analysisSummary(second), analysisSummary(analyze(files)));
  files = files.filter((f) => f.path !== 'c/var/lib/kubelet/kubeadm-flags.env');
  const third = analyze(files, {}, cache);
  assert.deepStrictEqual(analysisSummary(third), analysisSummary(analyze(files)));
});

test('forgetting a closed file forgets the results of the nodes that read it (their parses must not outlive the file)', () => {
  const cache = new ParseCache();
  const files = workspace();
  analyze(files, {}, cache);
  assert.equal(cache.nodes.size, 3);
  cache.retain(new Set(files.map((f) => f.path).filter((p) => p !== 'a/var/lib/kubelet/config.yaml')));
  assert.equal(cache.nodes.size, 2);
});

test('a rule disabled, then enabled again: its findings come back with the cache as without it (disabledRules is a reuse input, by content)', () => {
  const files = edit(workspace(), 'a/var/lib/kubelet/config.yaml', (t) => t.replace('maxPods: 110', 'maxPods: -3'));
  const has = (a: ReturnType<typeof analyze>) => a.findings.some((f) => f.code === 'config-value-invalid' && f.file === 'a/var/lib/kubelet/config.yaml');
  for (const start of [['config-value-invalid'], []]) {
    const cache = new ParseCache();
    // One Set, changed between analyses the way a caller may keep its settings.
    const disabledRules = new Set(start);
    const options = { disabledRules };
    const steps = [[...start], start.length ? [] : ['config-value-invalid'], [...start]];
    for (const ids of steps) {
      disabledRules.clear();
      for (const id of ids) disabledRules.add(id);
      const kept = analyze(files, options, cache);
      assert.equal(has(kept), ids.length === 0, `findings with ${JSON.stringify(ids)} disabled`);
      assert.deepStrictEqual(analysisSummary(kept), analysisSummary(analyze(files, { disabledRules: new Set(ids) })));
    }
  }
});

test('the same capacity object changed between analyses re-runs the nodes (options are compared by value)', () => {
  const files = workspace();
  const cache = new ParseCache();
  const capacity = { cpu: 4000n, memory: 8n * 1024n ** 3n, hugepages: new Map<string, bigint>() };
  const first = analyze(files, { capacity }, cache);
  capacity.memory = 1024n ** 3n;
  const second = analyze(files, { capacity }, cache);
  assert.notEqual(byId(second, 'a/'), byId(first, 'a/'));
  assert.deepStrictEqual(analysisSummary(second), analysisSummary(analyze(files, { capacity })));
});

test('a kept analysis follows a change of the target systemd version (env files read as before 254, and back)', () => {
  const files: SourceFile[] = [
    { path: 'n/usr/lib/systemd/system/kubelet.service', text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n' },
    { path: 'n/etc/default/kubelet', text: '# tuning \\\nKUBELET_EXTRA_ARGS=--cgroup-driver=nonsense\n' },
  ];
  const cache = new ParseCache();
  const invalid = (o: { systemdVersion?: number }) => analyze(files, o, cache).findings.filter((f) => f.code === 'cgroup-driver-invalid').length;
  assert.equal(invalid({}), 1);
  assert.equal(invalid({ systemdVersion: 252 }), 0);
  assert.equal(invalid({}), 1);
  assert.equal(invalid({ systemdVersion: 252 }), 0);
});

test('frozen (the CLI fix check): variants reuse the original nodes without a fix, keep nothing of their own, and equal a fresh analysis', () => {
  const cache = new ParseCache();
  const files = edit(workspace(), 'a/var/lib/kubelet/config.yaml', (t) => t.replace('maxPods: 110', 'maxPod: 110'));
  const first = analyze(files, {}, cache);
  assert.ok(first.findings.some((f) => f.file.startsWith('a/') && f.fixes?.length), 'node a has a fix');
  cache.freeze();
  // node a has a fix of its own: its results are dropped (its fixed text will differ); b and c are kept
  const same = analyze(files, {}, cache);
  assert.notEqual(byId(same, 'a/'), byId(first, 'a/'));
  assert.equal(byId(same, 'b/'), byId(first, 'b/'));
  // a variant's own parses and results are not kept: analysing it twice makes its node twice
  const fixed = edit(files, 'a/var/lib/kubelet/config.yaml', (t) => t.replace('maxPod:', 'maxPods:'));
  const v1 = analyze(fixed, {}, cache);
  const v2 = analyze(fixed, {}, cache);
  assert.notEqual(byId(v2, 'a/'), byId(v1, 'a/'));
  assert.equal(byId(v2, 'c/'), byId(first, 'c/'));
  assert.deepStrictEqual(analysisSummary(v2), analysisSummary(analyze(fixed)));
  // retain() thaws it: analyses keep their results again
  cache.retain(new Set(files.map((f) => f.path)));
  const t1 = analyze(fixed, {}, cache);
  assert.equal(byId(analyze(fixed, {}, cache), 'a/'), byId(t1, 'a/'));
});

test('frozen with no node kept (a fix in every node): analyses skip the node bookkeeping and still equal a fresh one', () => {
  const cache = new ParseCache();
  const files = workspace().map((f) => (f.path.endsWith('config.yaml') ? { ...f, text: f.text.replace('maxPods: 110', 'maxPod: 110') } : f));
  const first = analyze(files, {}, cache);
  assert.equal(first.nodes.length, 3);
  assert.ok(cache.nodes.useful);
  cache.freeze();
  assert.equal(cache.nodes.size, 0);
  assert.ok(!cache.nodes.useful);
  const fixed = files.map((f) => ({ ...f, text: f.text.replace('maxPod:', 'maxPods:') }));
  assert.deepStrictEqual(analysisSummary(analyze(fixed, {}, cache)), analysisSummary(analyze(fixed)));
  cache.retain(new Set(files.map((f) => f.path)));
  assert.ok(cache.nodes.useful);
});
