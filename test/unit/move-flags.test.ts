/**
 * Refactor "Move kubelet flags into the KubeletConfiguration file" (issues #4, #6): applying
 * it leaves the kubelet's effective configuration exactly as it was (every field's value,
 * the flags without a field, Node Allocatable) and adds no error — on hand-written cases for
 * each way flags combine with the file (kubelet-facts §9), on examples/, and on nodes
 * assembled from the real files of ../shared/corpus.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis, type AnalyzeOptions } from '../../server/src/engine.ts';
import { fieldInfo } from '../../server/src/catalog/fields.ts';
import { flagInfo } from '../../server/src/catalog/flags.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import type { NodeModel, Setting } from '../../server/src/node/model.ts';
import { parseGoBool } from '../../server/src/quantity/mapflag.ts';
import { moveFlagsRefactors, planMoveFlags, type MovePlan } from '../../server/src/features/refactors/move-flags.ts';
import { refactorActions } from '../../server/src/features/code-actions.ts';
import { exampleWorkspaces } from '../fuzz/fixtures.ts';
import * as G from '../fuzz/gen.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';
import { assertFindingsInside } from '../helpers/ranges.ts';
import { CONFIG_HEAD, kubeadmNode, SELF_MANAGED_CONFIG, selfManagedNode, ws } from '../helpers/nodes.ts';

const CAPACITY: AnalyzeOptions = { capacity: { cpu: 16000n, memory: 64n << 30n, 'ephemeral-storage': 200n << 30n, hugepages: new Map() } };

// ---------------------------------------------------------------------------------------------
// The preservation check

/** A setting as the kubelet reads it, typed by its field (a flag's "110" and the file's 110 are the same maxPods). */
function norm(field: string, s: Setting): string {
  const kind = fieldInfo(field)?.valueKind;
  const scalar = (v: string | number | boolean | null, k = kind): string => {
    if (k === 'bool' || k === 'map-bool') return String(typeof v === 'boolean' ? v : parseGoBool(String(v)) ?? `?${String(v)}`);
    if (k === 'int' || k === 'float') return String(Number(v));
    return v === null ? 'null' : String(v);
  };
  if (s.kind === 'scalar') return scalar(s.value);
  if (s.kind === 'list') return JSON.stringify(s.items.map((i) => (i.nested ? `<${i.nested}>` : scalar(i.value, 'string'))));
  if (s.kind === 'map') return JSON.stringify(s.items.map((i) => `${i.key}=${i.nested ? `<${i.nested}>` : scalar(i.value, kind === 'map-bool' ? 'bool' : 'string')}`).sort());
  return s.kind;
}

function effective(node: NodeModel): Map<string, string> {
  return new Map([...node.settings].map(([field, s]) => [field, norm(field, s)]));
}

function errorCounts(a: Analysis): Map<string, number> {
  const m = new Map<string, number>();
  for (const f of a.findings) if (f.severity === 'error') m.set(f.code, (m.get(f.code) ?? 0) + 1);
  return m;
}

/**
 * Plans the refactor on every node of `files`, applies each plan, re-analyses, and checks the
 * node is the same to the kubelet. Returns the plans that moved something.
 */
function assertPreserved(files: SourceFile[], options: AnalyzeOptions = CAPACITY, label = ''): MovePlan[] {
  const before = analyze(files, options);
  const done: MovePlan[] = [];
  for (const result of before.nodes) {
    const plan = planMoveFlags(before, result);
    if (!plan || plan.moved.length === 0) continue;
    done.push(plan);
    const what = `${label} node ${result.node.id}: moved ${plan.moved.map((m) => m.field).join(', ')}`;
    const after = applyWorkspaceEdits(files, plan.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })));
    const texts = () => after.filter((f, i) => f.text !== files[i].text).map((f) => `--- ${f.path}\n${f.text}`).join('\n');
    const a2 = analyze(after, options);
    assertFindingsInside(new Map(after.map((f) => [f.path, f.text])), a2.findings);
    const node2 = a2.nodes.find((n) => n.node.id === result.node.id);
    assert.ok(node2, `${what}: the node is gone\n${texts()}`);
    // every config field's effective value
    assert.deepEqual(effective(node2.node), effective(result.node), `${what}\n${texts()}`);
    for (const m of plan.moved) assert.equal(node2.node.settings.get(m.field)?.from.how, 'config', `${what}: ${m.field} does not come from the file`);
    // the flags that stay (with or without a field) are the same, in the same order; the moved ones are gone
    const movedNames = new Set(plan.moved.flatMap((m) => m.flags));
    const flags = (n: NodeModel) => n.flags.filter((f) => !movedNames.has(f.name)).map((f) => `${f.from} --${f.name}=${f.value}`);
    assert.deepEqual(flags(node2.node), flags(result.node), what);
    assert.deepEqual(node2.node.flags.filter((f) => movedNames.has(f.name)), [], `${what}: a moved flag is still there`);
    assert.deepEqual([...node2.node.flagOnly.keys()], [...result.node.flagOnly.keys()], what);
    assert.deepEqual(node2.allocatable, result.allocatable, what);
    // no new error (an error may move with its value, so errors are counted by code)
    const e1 = errorCounts(before);
    for (const [code, n] of errorCounts(a2)) assert.ok(n <= (e1.get(code) ?? 0), `${what}: a new error ${code}\n${a2.findings.filter((f) => f.code === code).map((f) => f.message).join('\n')}\n${texts()}`);
    // applied once, there is nothing left to move for those fields
    const again = planMoveFlags(a2, node2);
    assert.deepEqual(again?.moved.filter((m) => plan.moved.some((x) => x.field === m.field)) ?? [], [], what);
  }
  return done;
}

function edited(files: SourceFile[], plan: MovePlan): Record<string, string> {
  const after = applyWorkspaceEdits(files, plan.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })));
  return Object.fromEntries(after.filter((f, i) => f.text !== files[i].text).map((f) => [f.path, f.text]));
}

const N = 'n';
const CONFIG = `${N}/var/lib/kubelet/config.yaml`;
const DEFAULTS = `${N}/etc/default/kubelet`;

function one(files: SourceFile[], options: AnalyzeOptions = CAPACITY): MovePlan {
  const plans = assertPreserved(files, options);
  assert.equal(plans.length, 1, 'expected one node with flags to move');
  return plans[0];
}

function planOf(files: SourceFile[], options: AnalyzeOptions = CAPACITY): MovePlan | undefined {
  const a = analyze(files, options);
  const r = a.nodes.find((n) => n.node.files.includes(CONFIG) || n.node.configRefs.length > 0);
  return r && planMoveFlags(a, r);
}

// ---------------------------------------------------------------------------------------------
// How each kind of flag combines with the file (kubelet-facts §9, node/effective.ts)

test('a map flag replaces the file\'s whole map: --system-reserved=cpu=500m over {cpu: 1, memory: 2Gi} becomes systemReserved {cpu: 500m}', () => {
  const files = ws(kubeadmNode(N, { config: 'systemReserved:\n  cpu: "1"\n  memory: 2Gi\nclusterDomain: cluster.local\n', defaults: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m --node-labels=a=b\n' }));
  const plan = one(files);
  assert.deepEqual(plan.moved, [{ field: 'systemReserved', flags: ['system-reserved'] }]);
  assert.deepEqual(edited(files, plan), {
    [CONFIG]: CONFIG_HEAD + 'systemReserved:\n  cpu: 500m\nclusterDomain: cluster.local\n',
    [DEFAULTS]: 'KUBELET_EXTRA_ARGS=--node-labels=a=b\n',
  });
});

test('the replaced block map is edited key by key: a kept key\'s value in place (its comment stays), a dropped key\'s line deleted, a new key after the last item; comment lines stay', () => {
  const files = ws(
    kubeadmNode(N, {
      config: 'systemReserved:\n  # for sshd and journald\n  cpu: "1"  # one core\n  memory: 2Gi  # goes with its line\n  # last words\nclusterDomain: cluster.local\n',
      defaults: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m,pid=100\n',
    }),
  );
  const plan = one(files);
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'systemReserved:\n  # for sshd and journald\n  cpu: 500m  # one core\n  pid: "100"\n  # last words\nclusterDomain: cluster.local\n');
  // The same flag over a map whose last line has no line break: nothing proves where a new line could go, so the map is rewritten whole.
  const bare = ws(kubeadmNode(N, { config: 'clusterDomain: cluster.local\nsystemReserved:\n  cpu: "1"\n  memory: 2Gi', defaults: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m,pid=100\n' }));
  assert.equal(edited(bare, one(bare))[CONFIG], CONFIG_HEAD + 'clusterDomain: cluster.local\nsystemReserved:\n  cpu: 500m\n  pid: "100"');
});

test('repeated map flags accumulate keys: --kube-reserved=cpu=1 --kube-reserved=memory=1Gi becomes kubeReserved {cpu, memory}', () => {
  const files = ws(kubeadmNode(N, { config: 'clusterDomain: cluster.local\n', defaults: 'KUBELET_EXTRA_ARGS="--kube-reserved=cpu=1 --kube-reserved=memory=1Gi"\n' }));
  const plan = one(files);
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'clusterDomain: cluster.local\nkubeReserved:\n  cpu: "1"\n  memory: 1Gi\n');
  assert.equal(edited(files, plan)[DEFAULTS], 'KUBELET_EXTRA_ARGS=""\n');
});

test('feature gates merge with the file\'s, the flag winning per gate (the one exception of §9)', () => {
  const files = ws(kubeadmNode(N, { config: 'featureGates:\n  GracefulNodeShutdown: true\n  KubeletTracing: false\n', defaults: 'KUBELET_EXTRA_ARGS=--feature-gates=KubeletTracing=true,NodeSwap=false\n' }));
  const plan = one(files, { ...CAPACITY, kubernetesVersion: '1.30' });
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'featureGates:\n  GracefulNodeShutdown: true\n  KubeletTracing: true\n  NodeSwap: false\n');
});

test('repeated list flags append (pflag StringSlice): --cluster-dns=10.0.0.10 --cluster-dns=fd00::10 replaces the file\'s list with both', () => {
  const files = ws(kubeadmNode(N, { config: 'clusterDNS:\n  - 10.96.0.10\n', defaults: 'KUBELET_EXTRA_ARGS=--cluster-dns=10.0.0.10 --cluster-dns=fd00::10\n' }));
  const plan = one(files);
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'clusterDNS:\n  - "10.0.0.10"\n  - "fd00::10"\n');
});

test('repeated scalar flags: the last one wins, in the file too (--max-pods=50 --max-pods=60 gives maxPods: 60)', () => {
  const files = ws(kubeadmNode(N, { config: 'maxPods: 110\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50 --max-pods=60 --fail-swap-on=false\n' }));
  const plan = one(files);
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'maxPods: 60\nfailSwapOn: false\n');
});

test('flags from several files (unit, drop-in variable, env file) move in one edit set; --kubeconfig and --node-labels stay', () => {
  const files = ws({
    [`${N}/usr/lib/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50 \\\n  --kubeconfig=/etc/kubernetes/kubelet.conf $KUBELET_ARGS $KUBELET_EXTRA_ARGS\n',
    [`${N}/etc/systemd/system/kubelet.service.d/10-args.conf`]: '[Service]\nEnvironment="KUBELET_ARGS=--config=/var/lib/kubelet/config.yaml --cgroup-driver=systemd"\nEnvironmentFile=-/etc/default/kubelet\n',
    [DEFAULTS]: 'KUBELET_EXTRA_ARGS=--node-labels=role=worker --eviction-hard=memory.available<200Mi\n',
    [CONFIG]: CONFIG_HEAD + 'clusterDomain: cluster.local\n',
  });
  const plan = one(files);
  assert.deepEqual(plan.moved.map((m) => m.field).sort(), ['cgroupDriver', 'evictionHard', 'maxPods']);
  assert.deepEqual(new Set(plan.edits.map((e) => e.path)).size, 4);
  assert.equal(edited(files, plan)[CONFIG], CONFIG_HEAD + 'clusterDomain: cluster.local\nmaxPods: 50\ncgroupDriver: systemd\nevictionHard:\n  memory.available: 200Mi\n');
});

test('a flag alone on a continued ExecStart= line takes its line with it; on the last line only the word goes', () => {
  const unit = `${N}/etc/systemd/system/kubelet.service`;
  const files = ws({
    [unit]: '[Service]\nExecStart=/usr/bin/kubelet \\\n  --config=/var/lib/kubelet/config.yaml \\\n  --max-pods=50 \\\n  --v=2 --cgroup-driver=systemd \\\n  --fail-swap-on=false\nRestart=always\n',
    [CONFIG]: CONFIG_HEAD,
  });
  const plan = one(files);
  assert.equal(edited(files, plan)[unit], '[Service]\nExecStart=/usr/bin/kubelet \\\n  --config=/var/lib/kubelet/config.yaml \\\n  --v=2 \\\n  \nRestart=always\n');
});

test('issue 26 point 10: a moved flag takes its blanks with it: no leading blank in a value, no trailing one after ExecStart=\'s last word', () => {
  const unit = `${N}/etc/systemd/system/kubelet.service`;
  const files = ws({
    [unit]: '[Service]\nEnvironment="ARGS=--max-pods=50 --node-labels=a=b"\nExecStart=/usr/bin/kubelet $ARGS --config=/var/lib/kubelet/config.yaml --cgroup-driver=systemd\n',
    [DEFAULTS]: 'X=1\n',
    [CONFIG]: CONFIG_HEAD + 'clusterDomain: cluster.local\n',
  });
  const after = edited(files, one(files))[unit];
  assert.equal(after, '[Service]\nEnvironment="ARGS=--node-labels=a=b"\nExecStart=/usr/bin/kubelet $ARGS --config=/var/lib/kubelet/config.yaml\n');
});

test('a JSON config file gets JSON: members appended after the last one, with its indentation', () => {
  const cfg = '{\n  "apiVersion": "kubelet.config.k8s.io/v1beta1",\n  "kind": "KubeletConfiguration",\n  "kubeReserved": {"cpu": "1"}\n}\n';
  const files = ws({
    [`${N}/etc/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --config /etc/kubernetes/kubelet/config.json --kube-reserved=memory=1Gi --max-pods=29 --cluster-dns=10.100.0.10\n',
    [`${N}/etc/kubernetes/kubelet/config.json`]: cfg,
  });
  const plan = one(files);
  const json = edited(files, plan)[`${N}/etc/kubernetes/kubelet/config.json`];
  assert.deepEqual(JSON.parse(json), { apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', kubeReserved: { memory: '1Gi' }, maxPods: 29, clusterDNS: ['10.100.0.10'] });
  assert.match(json, /\n {2}"maxPods": 29,\n {2}"clusterDNS": \[\n {4}"10\.100\.0\.10"\n {2}\]\n\}\n$/);
});

test('a one-line JSON config file stays on one line', () => {
  const files = ws({
    [`${N}/etc/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubelet.json --max-pods=29\n',
    [`${N}/etc/kubelet.json`]: '{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration"}',
  });
  const plan = one(files);
  assert.equal(edited(files, plan)[`${N}/etc/kubelet.json`], '{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration", "maxPods": 29}');
});

// ---------------------------------------------------------------------------------------------
// What stays, and why

function keptReason(plan: MovePlan | undefined, field: string): string {
  const k = plan?.kept.find((x) => x.field === field);
  assert.ok(k, `${field} is not among the kept fields: ${JSON.stringify(plan)}`);
  return k.why;
}

test('--v stays: logging.verbosity is a nested field, which the refactor does not write', () => {
  const plan = planOf(ws(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--v=2 --max-pods=50\n' })));
  assert.match(keptReason(plan, 'logging.verbosity'), /nested/);
  assert.deepEqual(plan!.moved.map((m) => m.field), ['maxPods']);
});

test('a flag with an error stays where the error is reported (--cgroup-driver=systemdd)', () => {
  const plan = planOf(ws(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--cgroup-driver=systemdd\n' })));
  assert.match(keptReason(plan, 'cgroupDriver'), /error/);
});

test('a field newer than the target kubelet stays a flag (failCgroupV1 arrived in 1.31; a 1.30 kubelet would ignore it)', () => {
  const files = ws(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--fail-cgroupv1=false\n' }));
  assert.match(keptReason(planOf(files, { kubernetesVersion: '1.30' }), 'failCgroupV1'), /1\.31/);
  assert.deepEqual(planOf(files, { kubernetesVersion: '1.31' })!.moved.map((m) => m.field), ['failCgroupV1']);
});

test('a variable another command of the service also uses is not edited (ExecStartPre= sees $KUBELET_EXTRA_ARGS)', () => {
  const files = ws(kubeadmNode(N, {
    defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50\n',
    extra: { [`${N}/etc/systemd/system/kubelet.service.d/20-pre.conf`]: '[Service]\nExecStartPre=/usr/local/bin/check $KUBELET_EXTRA_ARGS\n' },
  }));
  assert.match(keptReason(planOf(files), 'maxPods'), /removed alone/);
});

test('a flag opening an env-file value stays when the next word is quoted: `A= "--x" --y` would read as one word --x--y (systemd env-file PRE_VALUE); the quick fix holds back too', () => {
  const files = ws(kubeadmNode(N, { config: 'clusterDomain: x\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50 "--node-labels=a=b" --fail-swap-on=false\n' }));
  const plan = planOf(files);
  assert.match(keptReason(plan, 'maxPods'), /quote where a value starts/);
  assert.deepEqual(plan!.moved.map((m) => m.field), ['failSwapOn']);
  assertPreserved(files);
  // (the quick fix, on a node whose config file kubeadm does not rewrite: node/kubeadm.ts)
  const own = ws(selfManagedNode(N, { config: 'clusterDomain: x\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50 "--node-labels=a=b" --fail-swap-on=false\n' }));
  const quick = analyze(own).findings.filter((f) => f.code === 'flag-deprecated' && f.fixes?.length).map((f) => f.fixes![0].title);
  assert.deepEqual(quick, [`Move --fail-swap-on into ${N}${SELF_MANAGED_CONFIG} as failSwapOn`]);
  // after the first word, deleting a word changes nothing: --max-pods moves
  const swapped = ws(kubeadmNode(N, { config: 'clusterDomain: x\n', defaults: 'KUBELET_EXTRA_ARGS=--node-labels=a=b --max-pods=50 "--v=2"\n' }));
  assert.deepEqual(planOf(swapped)!.moved.map((m) => m.field), ['maxPods']);
  assertPreserved(swapped);
});

test('--manifest-url-header stays a flag, in the refactor and the quick fix: staticPodURLHeader is a map of lists, not the flag\'s "k:v" strings (the file would not decode)', () => {
  const files = ws(kubeadmNode(N, { config: 'clusterDomain: x\n', defaults: 'KUBELET_EXTRA_ARGS=--manifest-url-header=Authorization:Bearer\n' }));
  assert.match(keptReason(planOf(files), 'staticPodURLHeader'), /another shape/);
  assert.deepEqual(analyze(files).findings.filter((f) => f.code === 'flag-deprecated').flatMap((f) => f.fixes ?? []), []);
});

test('a field a --config-dir drop-in sets stays a flag (the drop-in would win over the moved value)', () => {
  const files = ws({
    [`${N}/etc/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubelet/config.yaml --config-dir=/etc/kubelet/conf.d --max-pods=50 --fail-swap-on=false\n',
    [`${N}/etc/kubelet/config.yaml`]: CONFIG_HEAD,
    [`${N}/etc/kubelet/conf.d/10-pods.conf`]: CONFIG_HEAD + 'maxPods: 80\n',
  });
  const plan = planOf(files);
  assert.match(keptReason(plan, 'maxPods'), /config-dir/);
  assert.deepEqual(plan!.moved.map((m) => m.field), ['failSwapOn']);
  assertPreserved(files);
});

test('kubeadm kubeletExtraArgs stay (kubeadm writes them into kubeadm-flags.env, and join takes the KubeletConfiguration from the cluster)', () => {
  const text = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    max-pods: "50"\n---\n' + CONFIG_HEAD + 'clusterDomain: cluster.local\n';
  const a = analyze([{ path: 'c/kubeadm.yaml', text }]);
  assert.equal(a.nodes[0].node.settings.get('maxPods')?.from.how, 'kubeadm-extra-args');
  assert.deepEqual(planMoveFlags(a, a.nodes[0])?.moved ?? [], []);
  assert.deepEqual(moveFlagsRefactors(a, 'c/kubeadm.yaml', { start: { line: 4, character: 6 }, end: { line: 4, character: 6 } }), []);
});

test('no config file, no refactor: flags alone have nowhere to go', () => {
  const files = ws({ [`${N}/etc/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50\n' });
  const a = analyze(files);
  assert.equal(planMoveFlags(a, a.nodes[0]), undefined);
});

test('offered on the ExecStart= line and on a flag in an env file; not on a comment', () => {
  const files = ws(kubeadmNode(N, { defaults: '# extra flags\nKUBELET_EXTRA_ARGS=--max-pods=50\n' }));
  const a = analyze(files);
  const dropin = `${N}/etc/systemd/system/kubelet.service.d/10-kubeadm.conf`;
  const atLine = (line: number, character = 0) => ({ start: { line, character }, end: { line, character } });
  const titles = (path: string, line: number, ch = 0) => moveFlagsRefactors(a, path, atLine(line, ch)).map((r) => r.title);
  // A kubeadm node: kubeadm upgrade node writes /var/lib/kubelet/config.yaml again from the cluster's kubelet-config
  // ConfigMap, so /etc/default/kubelet's per-node flags must not move there (issue #23): listed, disabled, with why.
  const offered = moveFlagsRefactors(a, dropin, atLine(6, 3));
  assert.deepEqual(offered.map((r) => [r.title, r.edits.length]), [['Move kubelet flags into the KubeletConfiguration file', 0]]);
  assert.match(offered[0].disabled ?? '', /kubeadm writes \/var\/lib\/kubelet\/config\.yaml again/);
  assert.equal(titles(DEFAULTS, 1, 25).length, 1);
  assert.deepEqual(titles(DEFAULTS, 0, 2), []);
});

test('offered where no kubeadm rewrites the config file: a unit with --config and its own flags', () => {
  const files = ws({
    [`${N}/etc/systemd/system/kubelet.service`]: '[Service]\nExecStart=/usr/bin/kubelet --config=/etc/kubernetes/kubelet.yaml --max-pods=50\n',
    [`${N}/etc/kubernetes/kubelet.yaml`]: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n',
  });
  const a = analyze(files);
  const r = moveFlagsRefactors(a, `${N}/etc/systemd/system/kubelet.service`, { start: { line: 1, character: 3 }, end: { line: 1, character: 3 } });
  assert.deepEqual(r.map((x) => x.title), ['Move kubelet flags into the KubeletConfiguration file kubelet.yaml (--max-pods)']);
});

// ---------------------------------------------------------------------------------------------
// examples/ and the corpus

test('examples/: every node with flags and a config file keeps its effective configuration', () => {
  let moved = 0;
  for (const [name, files] of exampleWorkspaces()) moved += assertPreserved(files, CAPACITY, name).length;
  // kubeadm-node moves --system-reserved and --container-runtime-endpoint; the others have no config file for their flags
  assert.equal(moved, 1);
});

const DIR = join(__dirname, '../../../shared/corpus/files');
const corpus = existsSync(DIR) ? readdirSync(DIR).sort().map((name) => ({ name, text: readFileSync(join(DIR, name), 'utf8') })) : [];
const file = (prefix: string) => corpus.find((c) => c.name.startsWith(prefix))!;

test('corpus files that are a node with flags and a config file on their own (kubeadm configs with kubeletExtraArgs): nothing moves', { skip: corpus.length === 0 && 'no ../shared/corpus' }, () => {
  let nodes = 0;
  for (const c of corpus) {
    const a = analyze([{ path: c.name, text: c.text }]);
    for (const r of a.nodes) {
      if (r.node.kubeletConfigs.length === 0 || !r.node.flags.some((f) => flagInfo(f.name)?.field)) continue;
      nodes++;
      const plan = planMoveFlags(a, r);
      assert.deepEqual(plan?.moved ?? [], [], c.name);
      assert.ok(plan === undefined || plan.kept.every((k) => /kubeadm/.test(k.why)), c.name);
    }
  }
  assert.equal(nodes, 2); // 073 and 074
});

/**
 * Nodes laid out like a root filesystem from corpus files only: a unit with --config (009, 013, 018), the AKS unit with
 * its drop-ins (066, 067, 068), or the upstream kubelet.service (002) with each kubeadm drop-in; each env file of the
 * corpus where the drop-in reads it (by the variable it sets); each KubeletConfiguration of the corpus at the --config path.
 */
function corpusLayouts(): [string, SourceFile[]][] {
  const envfiles = ['003', '029', '044', '045', '049', '050', '052', '054'].map(file);
  const configs = ['010', '012', '014', '019', '022', '024', '025', '034', '041', '055', '056', '057', '058', '059'].map(file);
  const units: { name: string; files: [string, string][] }[] = [
    ...['009', '013', '018'].map((p) => ({ name: p, files: [[`etc/systemd/system/kubelet.service`, file(p).text]] as [string, string][] })),
    { name: '066+067+068', files: [['etc/systemd/system/kubelet.service', file('066').text], ['etc/systemd/system/kubelet.service.d/10-cgroupv2.conf', file('067').text], ['etc/systemd/system/kubelet.service.d/10-componentconfig.conf', file('068').text]] },
    ...['001', '004', '033', '035', '038', '046'].map((p) => ({ name: `002+${p}`, files: [['usr/lib/systemd/system/kubelet.service', file('002').text], ['etc/systemd/system/kubelet.service.d/10-kubeadm.conf', file(p).text]] as [string, string][] })),
  ];
  const out: [string, SourceFile[]][] = [];
  for (const u of units) {
    const all = u.files.map(([, t]) => t).join('\n');
    const configPath = /--config[= ]([^\s"]+)/.exec(all)?.[1];
    const envPaths = [...all.matchAll(/^EnvironmentFile=-?(\S+)/gm)].map((m) => m[1]);
    const envChoices = envPaths.length ? [undefined, ...envfiles] : [undefined];
    for (const env of envChoices) {
      for (const cfg of configPath ? configs : [undefined]) {
        const files: SourceFile[] = u.files.map(([p, text]) => ({ path: `n/${p}`, text }));
        if (env) {
          const kubeadm = /KUBELET_KUBEADM_ARGS=/.test(env.text);
          const at = envPaths.find((p) => p.endsWith('kubeadm-flags.env') === kubeadm) ?? envPaths[0];
          files.push({ path: `n${at}`, text: env.text });
        }
        if (cfg && configPath) files.push({ path: `n${configPath}`, text: cfg.text });
        out.push([`${u.name} + ${env?.name.slice(0, 3) ?? '-'} + ${cfg?.name.slice(0, 3) ?? '-'}`, files]);
      }
    }
  }
  return out;
}

test('corpus nodes (units, drop-ins, env files and configs of ../shared/corpus put together): the refactor preserves the effective configuration', { skip: corpus.length === 0 && 'no ../shared/corpus' }, () => {
  const layouts = corpusLayouts();
  let moved = 0;
  const fields = new Set<string>();
  for (const [name, files] of layouts) {
    const plans = assertPreserved(files, CAPACITY, name);
    moved += plans.length;
    for (const p of plans) for (const m of p.moved) fields.add(m.field);
  }
  // Which fields the corpus exercises (so a change that silently stops moving them fails here).
  // (providerID is written only in corpus kubeadm-flags.env files, which kubeadm writes itself: it stays)
  // (featureGates: a removed gate in a node that names no version is information now, so it no longer holds the refactor back)
  assert.deepEqual([...fields].sort(), ['cgroupDriver', 'cgroupRoot', 'containerRuntimeEndpoint', 'enableServer', 'featureGates', 'registerNode', 'runtimeRequestTimeout', 'volumePluginDir']);
  if (process.env.MOVE_FLAGS_STATS) console.log(`${layouts.length} corpus nodes, ${moved} moved flags`);
  assert.ok(moved >= 200, `only ${moved} of ${layouts.length} corpus nodes moved a flag`);
});

// ---------------------------------------------------------------------------------------------
// Generated nodes (test/fuzz/gen.ts): the kubeadm drop-in with --config, generated env files, drop-in and config

/** Flags with fields and plausible values (so the generated nodes have something to move), mixed with the generator's own words. */
const arg = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(
    '--max-pods=50', '--max-pods=60', '--max-pods', '50', '--fail-swap-on=false', '--cgroup-driver=systemd', '--kube-reserved=cpu=500m,memory=1Gi',
    '--kube-reserved=ephemeral-storage=1Gi', '--system-reserved=cpu=1', '--eviction-hard=memory.available<200Mi', '--eviction-hard=nodefs.available<10%',
    '--feature-gates=KubeletTracing=true', '--feature-gates=GracefulNodeShutdown=false,KubeletTracing=false', '--cluster-dns=10.96.0.10', '--cluster-dns=fd00::10',
    '--enforce-node-allocatable=pods', '--container-runtime-endpoint=unix:///run/containerd/containerd.sock', '--node-labels=a=b', '--v=2',
    '--kubeconfig=/etc/kubernetes/kubelet.conf', '--register-node=true', '--rotate-certificates', '--cgroup-root=/', '--pod-max-pids=1024',
    '--image-gc-high-threshold=90', '--eviction-soft=memory.available<300Mi', '--eviction-soft-grace-period=memory.available=1m', '--runtime-request-timeout=10m',
  ) },
  { weight: 1, arbitrary: G.argWord },
);
const envFile = (name: string) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.array(arg, { maxLength: 6 }), fc.constantFrom('"', "'", '')).map(([a, q]) => `${name}=${q}${a.join(' ')}${q}\n`) },
    { weight: 1, arbitrary: G.envText },
  );
/** A drop-in replacing ExecStart= with --config and generated words on continued lines (comments and blanks between). */
const execDropIn = fc
  .array(fc.tuple(arg, fc.constantFrom(' ', ' \\\n  ', ' \\\n', '\\\n\t', ' \\\n# note\n  ', ' \\ \n')), { maxLength: 8 })
  .map((words) => '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS' + words.map(([w, sep]) => sep + w).join('') + '\nRestart=always\n');

/**
 * Issue #18: the words as people quote and escape them. Each variant reads as the same argument: quoted whole, its
 * value quoted, single quotes, and a C escape (`\x2d`) where systemd unescapes (ExecStart=, Environment=).
 */
const spellings = (w: string, cEscapes: boolean): string[] => {
  const eq = w.indexOf('=');
  const out = [w, `"${w}"`, `'${w}'`];
  if (eq > 0) out.push(`${w.slice(0, eq + 1)}"${w.slice(eq + 1)}"`, `${w.slice(0, eq + 1)}'${w.slice(eq + 1)}'`);
  if (cEscapes && w.startsWith('-')) out.push(`\\x2d${w.slice(1)}`);
  return out;
};
const spelled = (cEscapes: boolean) => arg.chain((w) => fc.constantFrom(...spellings(w, cEscapes)));
/** Inside Environment="...", a double quote or a backslash of the word is escaped. */
const inEnvironment = (w: string) => w.replace(/["\\]/g, (c) => `\\${c}`);
const quotedDropIn = fc
  .record({
    env: fc.array(spelled(true), { maxLength: 5 }),
    exec: fc.array(fc.tuple(spelled(true), fc.constantFrom(' ', ' \\\n  ', ' \\\n', '\\\n\t')), { maxLength: 5 }),
  })
  .map(({ env, exec }) =>
    '[Service]\n' +
    `Environment="MORE=${env.map(inEnvironment).join(' ')}"\n` +
    'ExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml \\\n  $MORE' +
    exec.map(([w, sep]) => sep + w).join('') +
    '\nRestart=always\n');
const quotedEnvFile = (name: string) =>
  fc.tuple(fc.array(spelled(false), { maxLength: 6 }), fc.constantFrom('', '"')).map(([a, q]) =>
    q ? `${name}="${a.map(inEnvironment).join(' ')}"\n` : `${name}=${a.join(' ')}\n`);

test('regression (#18): a flag whose value Environment= escapes (\\"50\\") is removed whole; the words after it stay', () => {
  const unit = `${N}/etc/systemd/system/kubelet.service.d/20-extra.conf`;
  const files = ws({
    ...kubeadmNode(N, {}),
    [unit]: '[Service]\nEnvironment="MORE=--max-pods=\\"50\\" --v=2"\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $MORE\n',
  });
  const plan = one(files);
  assert.equal(edited(files, plan)[unit], '[Service]\nEnvironment="MORE=--v=2"\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $MORE\n');
});

test('generated quoting, escapes and continuation lines (ExecStart=, Environment=, env files): the refactor preserves the effective configuration', () => {
  const runs = Number(process.env.FUZZ_RUNS ?? 0) || 150;
  let moved = 0;
  fc.assert(
    fc.property(
      fc.record({ defaults: quotedEnvFile('KUBELET_EXTRA_ARGS'), extra: quotedDropIn, config: fc.oneof(G.kubeletConfigYaml, G.kubeletConfigJson) }),
      ({ defaults, extra, config }) => {
        const files = ws(kubeadmNode(N, { defaults }));
        files.find((f) => f.path === CONFIG)!.text = config;
        files.push({ path: `${N}/etc/systemd/system/kubelet.service.d/20-extra.conf`, text: extra });
        moved += assertPreserved(files).length;
      },
    ),
    { numRuns: runs, seed: Number(process.env.FUZZ_SEED ?? 20261129) },
  );
  assert.ok(moved > runs / 10, `only ${moved} of ${runs} generated nodes moved a flag`);
});

test('generated kubeadm nodes (env files, an extra drop-in and the config file from the fuzz generators): the refactor preserves the effective configuration', () => {
  const runs = Number(process.env.FUZZ_RUNS ?? 0) || 150;
  let moved = 0;
  fc.assert(
    fc.property(
      fc.record({ defaults: envFile('KUBELET_EXTRA_ARGS'), flagsEnv: envFile('KUBELET_KUBEADM_ARGS'), extra: fc.option(fc.oneof(G.unitText, execDropIn), { nil: undefined }), config: fc.oneof(G.kubeletConfigYaml, G.kubeletConfigJson) }),
      ({ defaults, flagsEnv, extra, config }) => {
        const files = ws(kubeadmNode(N, { kubeadmFlags: flagsEnv, defaults }));
        files.find((f) => f.path === CONFIG)!.text = config;
        if (extra !== undefined) files.push({ path: `${N}/etc/systemd/system/kubelet.service.d/20-extra.conf`, text: extra });
        moved += assertPreserved(files).length;
      },
    ),
    { numRuns: runs, seed: Number(process.env.FUZZ_SEED ?? 20261129) },
  );
  if (process.env.MOVE_FLAGS_STATS) console.log(`${runs} generated nodes, ${moved} moved flags`);
  assert.ok(moved > runs / 10, `only ${moved} of ${runs} generated nodes moved a flag`);
});

// ---------------------------------------------------------------------------------------------
// A node without --config: the refactor creates the file (features/refactors/create-config.ts)

test('a node without --config is offered to create var/lib/kubelet/config.yaml: the flags move there, --config names it, and the kubelet sees the same settings', () => {
  const unitPath = 'n1/etc/systemd/system/kubelet.service';
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50 --kube-reserved=cpu=500m,memory=1Gi --v=2\n';
  const files: SourceFile[] = [{ path: unitPath, text: unit }];
  const before = analyze(files, CAPACITY);
  const exec = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
  const [r] = moveFlagsRefactors(before, unitPath, exec);
  assert.ok(r, 'refactor offered');
  assert.match(r.title, /^Create var\/lib\/kubelet\/config\.yaml and move kubelet flags into it \(--max-pods, --kube-reserved\)$/);
  assert.deepEqual(r.creates?.map((c) => c.path), ['n1/var/lib/kubelet/config.yaml']);
  const after: SourceFile[] = [...applyWorkspaceEdits(files, r.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText }))), ...r.creates!.map((c) => ({ path: c.path, text: c.text }))];
  assert.match(after[0].text, /^\[Service\]\nExecStart=\/usr\/bin\/kubelet --config=\/var\/lib\/kubelet\/config\.yaml +--v=2\n$/);
  assert.match(after[1].text, /^apiVersion: kubelet\.config\.k8s\.io\/v1beta1\nkind: KubeletConfiguration\n(.|\n)*maxPods: 50\n/);
  const a = analyze(after, CAPACITY);
  const node = a.nodes.find((n) => n.node.service)!.node;
  assert.equal(node.configRefs[0]?.resolved?.[0], 'n1/var/lib/kubelet/config.yaml');
  const was = effective(before.nodes[0].node);
  for (const [field, v] of was) assert.equal(effective(node).get(field), v, field);
  assert.equal(node.settings.get('maxPods')?.from.how, 'config');
  assert.deepEqual(errorCounts(a), errorCounts(before));
  // With the file in place the create refactor is not offered again.
  assert.ok(!moveFlagsRefactors(a, unitPath, exec).some((x) => x.creates));
});

test('the create-config refactor reaches the editor as CreateFile (never overwriting), then the new text, then the unit edits', () => {
  const unitPath = 'n1/etc/systemd/system/kubelet.service';
  const files: SourceFile[] = [{ path: unitPath, text: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=50\n' }];
  const [action] = refactorActions(analyze(files), unitPath, { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, (p) => `file:///${p}`);
  const changes = action.edit!.documentChanges as any[];
  assert.deepEqual(changes[0], { kind: 'create', uri: 'file:///n1/var/lib/kubelet/config.yaml', options: { overwrite: false, ignoreIfExists: false } });
  assert.equal(changes[1].textDocument.uri, 'file:///n1/var/lib/kubelet/config.yaml');
  assert.match(changes[1].edits[0].newText, /maxPods: 50/);
  assert.equal(changes[2].textDocument.uri, `file:///${unitPath}`);
});
