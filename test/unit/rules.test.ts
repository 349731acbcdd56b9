import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Range } from '../../server/src/model/range.ts';
import type { AnalyzeOptions } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';
import { assertFindingsInside } from '../helpers/ranges.ts';
import { CONFIG_HEAD, KUBELET_SERVICE, kubeadmNode, run, SELF_MANAGED_CONFIG, selfManagedNode, ws } from '../helpers/nodes.ts';

const N = 'node1';
const CONFIG = `${N}/var/lib/kubelet/config.yaml`;
const DEFAULTS = `${N}/etc/default/kubelet`;
const UNIT = `${N}/usr/lib/systemd/system/kubelet.service`;

/** Range of the `nth` occurrence of `needle` in `text` (must lie on one line). */
function at(text: string, needle: string, nth = 0): Range {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    assert.ok(i !== -1, `"${needle}" (#${nth}) not in text`);
  }
  const before = text.slice(0, i);
  const line = before.split('\n').length - 1;
  const character = i - (before.lastIndexOf('\n') + 1);
  return { start: { line, character }, end: { line, character: character + needle.length } };
}

function capacity(text: string) {
  const c = parseCapacity(text);
  assert.ok(c.ok);
  return c.capacity;
}

function analyzeAll(files: SourceFile[], options: AnalyzeOptions = {}) {
  const a = run(files, options);
  assertFindingsInside(new Map(files.map((f) => [f.path, f.text])), a.findings);
  return a;
}

function only(findings: Finding[], code: string): Finding {
  const hits = findings.filter((f) => f.code === code);
  assert.equal(hits.length, 1, `expected one ${code}, got:\n${findings.map((f) => `${f.code} ${f.file}:${f.range.start.line + 1} ${f.message}`).join('\n')}`);
  return hits[0];
}

function none(findings: Finding[], code: string): void {
  assert.deepEqual(
    findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.range.start.line + 1} ${f.message}`),
    [],
    `no ${code} expected`,
  );
}

/** Applies the finding's first fix, re-analyses: the finding is gone and no new error appears. */
function applyFixAndRecheck(files: SourceFile[], f: Finding, options: AnalyzeOptions = {}): SourceFile[] {
  assert.ok(f.fixes && f.fixes.length > 0, `${f.code} has no fix`);
  const before = analyzeAll(files, options).findings;
  const fixed = applyWorkspaceEdits(files, f.fixes[0].edits);
  const after = analyzeAll(fixed, options).findings;
  const count = (list: Finding[], code: string) => list.filter((x) => x.code === code).length;
  assert.ok(count(after, f.code) < count(before, f.code), `the ${f.code} finding should be gone after its fix`);
  const errs = (list: Finding[]) => {
    const m = new Map<string, number>();
    for (const x of list) if (x.severity === 'error') m.set(x.code, (m.get(x.code) ?? 0) + 1);
    return m;
  };
  const b = errs(before);
  for (const [code, n] of errs(after)) assert.ok(n <= (b.get(code) ?? 0), `the fix introduced a new ${code} error`);
  return fixed;
}

// ---------------------------------------------------------------------------

// Every rule also has a firing and a non-firing case in its page (docs/rules/<id>.md), run by rule-docs.test.ts.

// --- unit-continuation-swallows-directive (the seed case) -------------------

const SEED_UNIT = `[Unit]
Description=kubelet: The Kubernetes Node Agent

[Service]
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml \\
	--kube-reserved=cpu=2,memory=8Gi \\
	--system-reserved=cpu=6,memory=24Gi \\
	Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
`;

test('a trailing "\\" on the last flag line swallows Restart=always: unit-continuation-swallows-directive error at that line (conf-parser.c continuation)', () => {
  const files = ws({ [UNIT]: SEED_UNIT, [CONFIG]: CONFIG_HEAD + 'cgroupDriver: systemd\n' });
  const a = analyzeAll(files);
  const f = only(a.findings, 'unit-continuation-swallows-directive');
  assert.equal(f.severity, 'error');
  assert.equal(f.file, UNIT);
  assert.deepEqual(f.range, at(SEED_UNIT, 'Restart=always'));
  assert.match(f.message, /"Restart=always"/);
  assert.match(f.message, /line 7 ends with "\\"/);
  assert.match(f.message, /loses Restart=/);
  assert.deepEqual(f.related?.[0].span.range.start, { line: 6, character: SEED_UNIT.split('\n')[6].length - 1 });
  // the swallowed word is not reported a second time as a positional argument
  none(a.findings, 'flag-positional-argument');
  const fixed = applyFixAndRecheck(files, f);
  const text = fixed.find((x) => x.path === UNIT)!.text;
  // The blank before the "\\" goes with it: no trailing blank is left (issue 26, point 10).
  assert.equal(text.split('\n')[6], '\t--system-reserved=cpu=6,memory=24Gi');
  const again = analyzeAll(fixed);
  const unit = again.nodes[0].node.service!;
  assert.equal(unit.files[0].directives.find((d) => d.key === 'Restart')?.value, 'always');
});

test('no fix when removing the "\\" would leave another unpaired one at the line end (`--config=\\ \\`: conf-parser.c pairs backslashes left to right, so the line still continues; npm run fuzz seed 20261202)', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --config=\\ \\\nRestart=always --config';
  const f = only(analyzeAll(ws({ [UNIT]: unit })).findings, 'unit-continuation-swallows-directive');
  assert.deepEqual(f.fixes ?? [], []);
  // an escaped pair before the blank is no continuation: the fix is offered and frees Restart=
  const paired = unit.replace('--config=\\ \\', '--config=\\\\ \\');
  const g = only(analyzeAll(ws({ [UNIT]: paired })).findings, 'unit-continuation-swallows-directive');
  const fixed = applyFixAndRecheck(ws({ [UNIT]: paired }), g);
  none(analyzeAll(fixed).findings, 'unit-continuation-swallows-directive');
});

test('continued flag lines whose last line has no "\\" do not fire unit-continuation-swallows-directive', () => {
  const ok = SEED_UNIT.replace('memory=24Gi \\\n', 'memory=24Gi\n');
  const a = analyzeAll(ws({ [UNIT]: ok }));
  none(a.findings, 'unit-continuation-swallows-directive');
  none(a.findings, 'flag-positional-argument');
});

test('a swallowed directive in Environment= is a warning, not an error (only Exec lines hand it to the kubelet)', () => {
  const unit = '[Service]\nEnvironment="A=1" \\\nRestart=always\nExecStart=/usr/bin/kubelet\n';
  const f = only(analyzeAll(ws({ [UNIT]: unit })).findings, 'unit-continuation-swallows-directive');
  assert.equal(f.severity, 'warning');
  assert.deepEqual(f.range, at(unit, 'Restart=always'));
});

// --- cgroup-driver-mismatch --------------------------------------------------

const CONTAINERD_CGROUPFS = `version = 2
[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
  SystemdCgroup = false
`;

function mismatchNode(head = '') {
  return ws({
    ...kubeadmNode(N, { config: 'cgroupDriver: systemd\n' }),
    [CONFIG]: head + CONFIG_HEAD + 'cgroupDriver: systemd\n',
    [`${N}/etc/containerd/config.toml`]: CONTAINERD_CGROUPFS,
  });
}

test('cgroup-driver-mismatch is an error for Kubernetes 1.30 (KubeletCgroupDriverFromCRI not on before 1.31)', () => {
  const files = mismatchNode();
  const a = analyzeAll(files, { kubernetesVersion: '1.30' });
  const hits = a.findings.filter((f) => f.code === 'cgroup-driver-mismatch');
  assert.deepEqual(hits.map((f) => [f.file, f.severity]).sort(), [
    [`${N}/etc/containerd/config.toml`, 'error'],
    [CONFIG, 'error'],
  ]);
  const onConfig = hits.find((f) => f.file === CONFIG)!;
  assert.deepEqual(onConfig.range, at(files.find((f) => f.path === CONFIG)!.text, 'systemd'));
  assert.match(onConfig.message, /"systemd"/);
  assert.match(onConfig.message, /"cgroupfs"/);
  const onRuntime = hits.find((f) => f.file !== CONFIG)!;
  assert.equal(onRuntime.range.start.line, 2);
  // No fix moves a kubelet that systemd runs to cgroupfs (kubernetes.io "Configuring a cgroup driver": on a systemd
  // host both should use systemd); the runtime side's fix makes them agree.
  assert.equal(onConfig.fixes, undefined);
  assert.ok(onRuntime.fixes?.length);
});

test('cgroup-driver-mismatch: a kubelet fix toward cgroupfs is offered only where systemd does not run the host', () => {
  const config = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n';
  const files = [{ path: 'n/var/lib/kubelet/config.yaml', text: config }, { path: 'n/etc/containerd/config.toml', text: CONTAINERD_CGROUPFS }];
  const onConfig = analyzeAll(files, { kubernetesVersion: '1.30' }).findings.find((f) => f.code === 'cgroup-driver-mismatch' && f.file.endsWith('config.yaml'))!;
  assert.ok(onConfig.fixes?.length, 'no unit: nothing says systemd runs this host');
  applyFixAndRecheck(files, onConfig, { kubernetesVersion: '1.30' });
});

test('cgroup-driver-mismatch on the runtime side is fixed in the runtime file: SystemdCgroup = false becomes true', () => {
  const files = mismatchNode();
  const onRuntime = analyzeAll(files, { kubernetesVersion: '1.30' }).findings.find((f) => f.code === 'cgroup-driver-mismatch' && f.file.endsWith('config.toml'))!;
  const fixed = applyWorkspaceEdits(files, onRuntime.fixes![0].edits);
  assert.equal(fixed.find((f) => f.path.endsWith('config.toml'))!.text, CONTAINERD_CGROUPFS.replace('SystemdCgroup = false', 'SystemdCgroup = true'));
  none(analyzeAll(fixed, { kubernetesVersion: '1.30' }).findings, 'cgroup-driver-mismatch');
});

test('cgroup-driver-mismatch is a warning for 1.31+ (KubeletCgroupDriverFromCRI beta, on by default)', () => {
  for (const v of ['1.31', '1.34']) {
    const hits = analyzeAll(mismatchNode(), { kubernetesVersion: v }).findings.filter((f) => f.code === 'cgroup-driver-mismatch');
    assert.equal(hits.length, 2);
    assert.ok(hits.every((f) => f.severity === 'warning'), v);
  }
});

test('a "# kubelet-lint: kubernetes-version 1.30" modeline makes cgroup-driver-mismatch an error even when the option says 1.31', () => {
  const hits = analyzeAll(mismatchNode('# kubelet-lint: kubernetes-version 1.30\n'), { kubernetesVersion: '1.31' }).findings.filter(
    (f) => f.code === 'cgroup-driver-mismatch',
  );
  assert.equal(hits.length, 2);
  assert.ok(hits.every((f) => f.severity === 'error'));
});

test('matching drivers (systemd / SystemdCgroup = true) do not fire cgroup-driver-mismatch', () => {
  const files = mismatchNode().map((f) => (f.path.endsWith('config.toml') ? { ...f, text: f.text.replace('false', 'true') } : f));
  none(analyzeAll(files, { kubernetesVersion: '1.30' }).findings, 'cgroup-driver-mismatch');
});

// --- unit-execstart-not-reset ------------------------------------------------

test('a drop-in adding ExecStart= without a reset fires unit-execstart-not-reset (systemd: more than one ExecStart= ... Refusing)', () => {
  const dropin = '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n';
  const path = `${N}/etc/systemd/system/kubelet.service.d/10-kubeadm.conf`;
  const files = ws({ [UNIT]: KUBELET_SERVICE, [path]: dropin, [CONFIG]: CONFIG_HEAD });
  const f = only(analyzeAll(files).findings, 'unit-execstart-not-reset');
  assert.equal(f.severity, 'error');
  assert.equal(f.file, path);
  assert.deepEqual(f.range, at(dropin, 'ExecStart'));
  assert.match(f.message, new RegExp(`${UNIT.replaceAll('/', '\\/')} line 5`));
  const fixed = applyFixAndRecheck(files, f);
  assert.equal(fixed.find((x) => x.path === path)!.text, '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n');
});

test('the kubeadm drop-in resets ExecStart= first: no unit-execstart-not-reset; Type=oneshot may have several', () => {
  none(analyzeAll(ws(kubeadmNode(N))).findings, 'unit-execstart-not-reset');
  const oneshot = '[Service]\nType=oneshot\nExecStart=/usr/bin/kubelet --v=1\nExecStart=/usr/bin/kubelet --v=2\n';
  none(analyzeAll(ws({ [UNIT]: oneshot })).findings, 'unit-execstart-not-reset');
});

// --- reserved-cgroup-missing -----------------------------------------------

test('enforceNodeAllocatable with kube-reserved but no kubeReservedCgroup fires reserved-cgroup-missing (validation.go)', () => {
  const body = 'enforceNodeAllocatable:\n  - pods\n  - kube-reserved\nkubeReserved:\n  cpu: 500m\n';
  const text = CONFIG_HEAD + body;
  const f = only(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'reserved-cgroup-missing');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, { start: { line: 4, character: 4 }, end: { line: 4, character: 17 } });
  assert.match(f.message, /"kube-reserved"/);
  assert.match(f.message, /kubeReservedCgroup/);
});

test('--enforce-node-allocatable=pods,system-reserved without --system-reserved-cgroup fires at the list item in the flag', () => {
  const env = 'KUBELET_EXTRA_ARGS=--enforce-node-allocatable=pods,system-reserved\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'reserved-cgroup-missing');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, 'system-reserved'));
  assert.match(f.message, /systemReservedCgroup/);
});

test('the flag fix adds --kube-reserved-cgroup as one more argument, never as text that splits an Environment= assignment', () => {
  const D = `${N}/etc/systemd/system/kubelet.service.d/`;
  const ENFORCE = '--enforce-node-allocatable=pods,kube-reserved';
  const fixOf = (files: Record<string, string>) => only(analyzeAll(ws(files)).findings, 'reserved-cgroup-missing').fixes?.[0]?.edits;
  const end = (text: string, needle: string) => at(text, needle).end;
  // a word of ExecStart= itself: after its closing quote
  const exec = `[Service]\nExecStart=/usr/bin/kubelet "${ENFORCE}"\n`;
  assert.deepEqual(fixOf({ [D + '10-a.conf']: exec })?.[0]?.range.start, end(exec, `"${ENFORCE}"`));
  // a quoted Environment= assignment split by $A: inside the quotes
  const quoted = `[Service]\nEnvironment="A=${ENFORCE}"\nExecStart=/usr/bin/kubelet $A\n`;
  assert.deepEqual(fixOf({ [D + '10-a.conf']: quoted })?.[0]?.range.start, end(quoted, ENFORCE));
  // an environment file keeps the blank inside the value
  const env = `KUBELET_EXTRA_ARGS=${ENFORCE}\n`;
  assert.deepEqual(fixOf(kubeadmNode(N, { defaults: env }))?.[0]?.range.start, end(env, ENFORCE));
  // systemd reads `Environment=A=--x --y` as two assignments, and `${A}` as one word: no fix (npm run fuzz, seed 20261208)
  assert.equal(fixOf({ [D + '10-a.conf']: `[Service]\nEnvironment=A=${ENFORCE} B=\nExecStart=/usr/bin/kubelet $A\n` }), undefined);
  assert.equal(fixOf({ [D + '10-a.conf']: `[Service]\nEnvironment="A=${ENFORCE}"\nExecStart=/usr/bin/kubelet \${A}\n` }), undefined);
});

test('reserved-cgroup-missing does not fire when the cgroup is set, or for the default ["pods"]', () => {
  const text = CONFIG_HEAD + 'enforceNodeAllocatable: [pods, kube-reserved]\nkubeReservedCgroup: /kube.slice\n';
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'reserved-cgroup-missing');
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': CONFIG_HEAD })).findings, 'reserved-cgroup-missing');
});

// --- quantity-invalid / quantity-negative -----------------------------------

test('kubeReserved memory "2GB" fires quantity-invalid at the value (server.go parseResourceList: quantity must parse)', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  memory: 2GB\n';
  const f = only(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'quantity-invalid');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(text, '2GB'));
  assert.match(f.message, /memory="2GB"/);
});

test('--eviction-hard=memory.available<1GB fires quantity-invalid inside the flag value', () => {
  const env = 'KUBELET_EXTRA_ARGS=--eviction-hard=memory.available<1GB\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'quantity-invalid');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, '1GB'));
  assert.match(f.message, /--eviction-hard memory\.available="1GB"/);
});

test('valid quantities and percentages do not fire quantity-invalid', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  memory: 1.5Gi\nevictionHard:\n  nodefs.available: 10%\n  memory.available: 100Mi\n';
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'quantity-invalid');
});

test('systemReserved cpu "-1" fires quantity-negative (parseResourceList: cannot be negative); "0" does not', () => {
  const text = CONFIG_HEAD + 'systemReserved:\n  cpu: "-1"\n  memory: "0"\n';
  const f = only(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'quantity-negative');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(text, '"-1"'));
  assert.match(f.message, /cpu=-1/);
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': CONFIG_HEAD + 'systemReserved:\n  cpu: "0"\n' })).findings, 'quantity-negative');
});

// --- reserved-resource-unknown ------------------------------------------------

test('kubeReserved "memroy" fires reserved-resource-unknown with a fix to "memory" (parseResourceList: cannot reserve "X" resource)', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  memroy: 1Gi\n';
  const files = ws({ 'n/kubelet-config.yaml': text });
  const f = only(analyzeAll(files).findings, 'reserved-resource-unknown');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(text, 'memroy'));
  assert.match(f.message, /"memroy"/);
  assert.match(f.message, /Did you mean "memory"/);
  const fixed = applyFixAndRecheck(files, f);
  assert.match(fixed[0].text, /  memory: 1Gi/);
});

test('reserved-resource-unknown never renames onto a reserved key: gpu next to cpu: 500m is removed, the CPU reservation stays 500m', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  gpu: "1"\n';
  const files = ws({ 'n/kubelet-config.yaml': text });
  const f = only(analyzeAll(files).findings, 'reserved-resource-unknown');
  assert.deepEqual(f.fixes?.map((x) => x.title), ['Remove "gpu"']);
  const fixed = applyFixAndRecheck(files, f);
  assert.equal(fixed[0].text, CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n');
  const cpu = analyzeAll(fixed).nodes[0].node.settings.get('kubeReserved');
  assert.ok(cpu?.kind === 'map');
  assert.deepEqual(cpu.items.map((i) => [i.key, i.value]), [['cpu', '500m']]);
});

test('reserved-resource-unknown: a near-miss of a key the map already has gets no rename (cpux next to cpu), only removal', () => {
  const text = CONFIG_HEAD + 'systemReserved:\n  cpux: "1"\n  cpu: 500m\n';
  const f = only(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'reserved-resource-unknown');
  assert.doesNotMatch(f.message, /Did you mean/);
  assert.deepEqual(f.fixes?.map((x) => x.title), ['Remove "cpux"']);
  const fixed = applyFixAndRecheck(ws({ 'n/kubelet-config.yaml': text }), f);
  assert.equal(fixed[0].text, CONFIG_HEAD + 'systemReserved:\n  cpu: 500m\n');
});

test('reserved-resource-unknown removes the entry with one separator in flow maps, JSON and flags; a lone entry leaves an empty map', () => {
  const cases: [string, string, string][] = [
    ['n/kubelet-config.yaml', CONFIG_HEAD + 'kubeReserved: {cpu: 500m, gpu: "1", memory: 1Gi}\n', CONFIG_HEAD + 'kubeReserved: {cpu: 500m, memory: 1Gi}\n'],
    ['n/kubelet-config.yaml', CONFIG_HEAD + 'kubeReserved:\n  gpu: "1"\n', CONFIG_HEAD + 'kubeReserved:\n  {}\n'],
    ['n/kubelet-config.json', '{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration", "kubeReserved": {"gpu": "1", "cpu": "1"}}\n',
      '{"apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration", "kubeReserved": {"cpu": "1"}}\n'],
    [UNIT, '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=500m,nvidia.com/gpu=1,memory=1Gi\n', '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=500m,memory=1Gi\n'],
    [UNIT, '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=gpu=1,cpu=500m\n', '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=500m\n'],
  ];
  for (const [path, text, want] of cases) {
    const files = ws({ [path]: text });
    const f = only(analyzeAll(files).findings, 'reserved-resource-unknown');
    assert.equal(f.fixes?.length, 1, text);
    assert.equal(applyFixAndRecheck(files, f)[0].text, want);
  }
});

test('cpu, memory, ephemeral-storage and pid are reservable: no reserved-resource-unknown', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 500m\n  memory: 1Gi\n  ephemeral-storage: 1Gi\n  pid: "100"\n';
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'reserved-resource-unknown');
});

// --- reservation-exceeds-capacity -------------------------------------------

test('reservations above capacity fire reservation-exceeds-capacity at the first reservation (validateNodeAllocatable)', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: "3"\nsystemReserved:\n  cpu: "2"\n';
  const a = analyzeAll(ws({ 'n/kubelet-config.yaml': text }), { capacity: capacity('cpu=4,memory=16Gi') });
  const f = only(a.findings, 'reservation-exceeds-capacity');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(text, '"3"'));
  assert.deepEqual(f.related?.map((r) => r.span.range), [at(text, '"2"')]);
  assert.match(f.message, /^Reserved cpu 5 CPU is more than the capacity 4 CPU: the kubelet refuses to start\./);
  assert.match(f.message, /3 CPU/);
  assert.match(f.message, /2 CPU/);
  assert.match(f.message, /4 CPU/);
});

test('memory reservation plus hard eviction above capacity fires; within capacity it does not', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  memory: 3Gi\nevictionHard:\n  memory.available: 2Gi\n';
  const f = only(analyzeAll(ws({ 'n/kubelet-config.yaml': text }), { capacity: capacity('cpu=4,memory=4Gi') }).findings, 'reservation-exceeds-capacity');
  assert.deepEqual(f.range, at(text, '3Gi'));
  assert.deepEqual(f.related?.map((r) => r.span.range), [at(text, '2Gi')]);
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text }), { capacity: capacity('cpu=4,memory=8Gi') }).findings, 'reservation-exceeds-capacity');
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'reservation-exceeds-capacity');
});

// --- config-value-type ------------------------------------------------------

test('kubeReserved cpu: 1 (a number) fires config-field-type (codec.go: map values must be strings; type errors are fatal)', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: 1\n  memory: 1Gi\nmaxPods: "110"\n';
  const hits = analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings.filter((f) => f.code === 'config-field-type');
  assert.equal(hits.length, 2);
  const cpu = hits.find((f) => f.message.startsWith('kubeReserved.cpu'))!;
  assert.equal(cpu.severity, 'error');
  assert.deepEqual(cpu.range, { start: { line: 3, character: 7 }, end: { line: 3, character: 8 } });
  assert.match(cpu.message, /a number \(1\)/);
  const mp = hits.find((f) => f.message.startsWith('maxPods'))!;
  assert.deepEqual(mp.range, at(text, '"110"'));
  assert.match(mp.message, /110/);
});

test('quoted reservation strings and a plain maxPods number do not fire config-field-type', () => {
  const text = CONFIG_HEAD + 'kubeReserved:\n  cpu: "1"\n  memory: 1Gi\nmaxPods: 110\nfailSwapOn: false\n';
  none(analyzeAll(ws({ 'n/kubelet-config.yaml': text })).findings, 'config-field-type');
});

// --- flag-unknown -----------------------------------------------------------

test('--kube-reserverd fires flag-unknown with a fix to --kube-reserved (pflag: unknown flag)', () => {
  const env = 'KUBELET_EXTRA_ARGS=--kube-reserverd=cpu=1 --v=2\n';
  const files = ws(kubeadmNode(N, { defaults: env }));
  const f = only(analyzeAll(files).findings, 'flag-unknown');
  assert.equal(f.severity, 'error');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, '--kube-reserverd'));
  assert.match(f.message, /--kube-reserverd/);
  assert.match(f.message, /Did you mean --kube-reserved\?/);
  applyFixAndRecheck(files, f);
});

test('a value-taking flag as the last argument fires flag-value-invalid (pflag: flag needs an argument)', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --v=2 --max-pods\n';
  const f = only(analyzeAll(ws({ [UNIT]: unit })).findings, 'flag-value-invalid');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(unit, '--max-pods'));
  none(analyzeAll(ws({ [UNIT]: '[Service]\nExecStart=/usr/bin/kubelet --v=2 --max-pods 10\n' })).findings, 'flag-value-invalid');
});

test('known flags do not fire flag-unknown', () => {
  const env = 'KUBELET_EXTRA_ARGS="--node-labels=a=b --v=2 --cgroup_driver=systemd"\n';
  none(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-unknown');
});

// --- flag-removed -----------------------------------------------------------

test('--cadvisor-port on a line of its own fires flag-removed for 1.12+ with a fix that deletes it', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet \\\n  --cadvisor-port=4194 \\\n  --v=2\n';
  const files = ws({ [UNIT]: unit });
  const f = only(analyzeAll(files, { kubernetesVersion: '1.30' }).findings, 'flag-removed');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(unit, '--cadvisor-port'));
  assert.match(f.message, /--cadvisor-port was removed in Kubernetes 1\.12/);
  assert.match(f.message, /1\.30 kubelet/);
  applyFixAndRecheck(files, f, { kubernetesVersion: '1.30' });
  none(analyzeAll(files, { kubernetesVersion: '1.11' }).findings, 'flag-removed');
});

test('a removed flag that comes through a variable fires flag-removed without a fix', () => {
  const env = 'KUBELET_EXTRA_ARGS=--allow-privileged=true\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env })), { kubernetesVersion: '1.30' }).findings, 'flag-removed');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, '--allow-privileged'));
});

// --- flag-positional-argument -----------------------------------------------

test('"--fail-swap-on false" fires flag-positional-argument at "false" with a fix to "--fail-swap-on=false" (pflag bool; kubelet: unknown command)', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --fail-swap-on false --v=2\n';
  const files = ws({ [UNIT]: unit });
  const f = only(analyzeAll(files).findings, 'flag-positional-argument');
  assert.equal(f.severity, 'error');
  assert.deepEqual(f.range, at(unit, 'false'));
  assert.match(f.message, /--fail-swap-on=false/);
  const fixed = applyFixAndRecheck(files, f);
  assert.equal(fixed[0].text, '[Service]\nExecStart=/usr/bin/kubelet --fail-swap-on=false --v=2\n');
});

test('a stray word from a variable fires flag-positional-argument naming the variable', () => {
  const env = 'KUBELET_EXTRA_ARGS=--v=2 oops\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-positional-argument');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, 'oops'));
  assert.match(f.message, /\$KUBELET_EXTRA_ARGS/);
});

test('leftover words stop the kubelet only from 1.11 (NewKubeletCommand; 1.10 parses the flags and ignores the rest): before it a stray word is nothing and "--flag false" a warning', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --require-kubeconfig true --fail-swap-on false oops\n';
  const at = (v: string) => analyzeAll(ws({ [UNIT]: unit }), { kubernetesVersion: v }).findings.filter((f) => f.code === 'flag-positional-argument').map((f) => `${f.severity} ${f.message.split(' ')[0]}`);
  assert.deepEqual(at('1.11'), ['error "true"', 'error "false"', 'error "oops"']);
  assert.deepEqual(at('1.10'), ['warning "false"']);
  // No version stated: the refusal holds for 1.11 or newer, said as a condition.
  const assumed = analyzeAll(ws({ [UNIT]: '[Service]\nExecStart=/usr/bin/kubelet --v=2 oops\n' })).findings.find((f) => f.code === 'flag-positional-argument')!;
  assert.equal(assumed.severity, 'information');
  assert.match(assumed.message, /^Holds for a kubelet 1\.11 or newer;/);
});

test('two values of one flag in the two branches of a unit template are no duplicate: the rendered unit keeps one (sixth first-sight batch)', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet \\\n{% if worker %}\n  --register-node=true \\\n{% else %}\n  --register-node=false \\\n{% endif %}\n  --v=2\n';
  const f = only(analyzeAll(ws({ [`${N}/templates/kubelet.service.j2`]: unit }), { kubernetesVersion: '1.30' }).findings, 'flag-duplicate');
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^Only if the template renders these lines together/);
});

test('flags only: no flag-positional-argument', () => {
  none(analyzeAll(ws({ [UNIT]: '[Service]\nExecStart=/usr/bin/kubelet --fail-swap-on=false --v 2\n' })).findings, 'flag-positional-argument');
});

// --- flag-duplicate ---------------------------------------------------------

test('a scalar flag given twice warns at the earlier one: pflag keeps the last value', () => {
  const env = 'KUBELET_EXTRA_ARGS=--max-pods=50 --max-pods=60\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-duplicate');
  assert.equal(f.severity, 'warning');
  assert.deepEqual(f.range, at(env, '--max-pods=50'));
  assert.match(f.message, /--max-pods=60/);
});

test('a map flag repeated with different keys accumulates and is not flag-duplicate (MapStringString: only the first Set clears)', () => {
  const env = 'KUBELET_EXTRA_ARGS=--kube-reserved=cpu=1 --kube-reserved=memory=1Gi\n';
  none(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-duplicate');
});

test('--reserved-memory repeated appends NUMA entries and is not flag-duplicate (pkg/util/flag/flags.go ReservedMemoryVar.Set: only the first Set clears)', () => {
  const env = 'KUBELET_EXTRA_ARGS=--reserved-memory=0:memory=1Gi --reserved-memory=1:memory=2Gi --max-pods=1 --max-pods=2\n';
  const found = analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings.filter((x) => x.code === 'flag-duplicate');
  assert.deepEqual(found.map((x) => x.range), [at(env, '--max-pods=1')]);
});

test('a map flag repeating a key with another value warns at the earlier occurrence, naming both values; the same value or a key repeated inside one value does not', () => {
  const env = 'KUBELET_EXTRA_ARGS=--kube-reserved=cpu=1,memory=1Gi --kube-reserved=cpu=2 --kube-reserved=memory=1Gi\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-duplicate');
  assert.deepEqual(f.range, at(env, '--kube-reserved=cpu=1,memory=1Gi'));
  assert.match(f.message, /sets cpu=1 here, but cpu=2 at .* replaces it/);
  // pflag's map parse keeps the last value of a key repeated inside one value: not a second occurrence.
  none(analyzeAll(ws(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--kube-reserved=cpu=1,cpu=2\n' }))).findings, 'flag-duplicate');
});

// --- flag-deprecated --------------------------------------------------------

/** The effective value of a field, comparable across files: scalars as text, maps as sorted key=value, lists in order. */
function effectiveOf(a: ReturnType<typeof analyzeAll>, field: string): string | undefined {
  const s = a.nodes[0].node.settings.get(field);
  if (!s) return undefined;
  if (s.kind === 'scalar') return String(s.value);
  if (s.kind === 'map') return s.items.map((i) => `${i.key}=${i.value}`).sort().join(',');
  if (s.kind === 'list') return s.items.map((i) => String(i.value)).join(',');
  return s.kind;
}

for (const [flag, field, expected] of [
  ['--max-pods=50', 'maxPods', '50'],
  ['--fail-swap-on=false', 'failSwapOn', 'false'],
  ['--kube-reserved=cpu=500m,memory=1Gi', 'kubeReserved', 'cpu=500m,memory=1Gi'],
  ['--eviction-hard=memory.available<200Mi,nodefs.available<10%', 'evictionHard', 'memory.available=200Mi,nodefs.available=10%'],
  ['--enforce-node-allocatable=pods', 'enforceNodeAllocatable', 'pods'],
  ['--cgroup-driver=systemd', 'cgroupDriver', 'systemd'],
] as const) {
  test(`flag-deprecated offers to move ${flag} into the config file, and the effective ${field} stays ${expected}`, () => {
    const files = ws(selfManagedNode(N, { config: 'clusterDomain: cluster.local\n', defaults: `KUBELET_EXTRA_ARGS=${flag} --v=2\n` }));
    const CONFIG = `${N}${SELF_MANAGED_CONFIG}`;
    const before = analyzeAll(files);
    assert.equal(effectiveOf(before, field), expected);
    const f = before.findings.find((x) => x.code === 'flag-deprecated' && x.fixes?.length);
    assert.ok(f, 'no migration offered');
    const after = applyWorkspaceEdits(files, f.fixes![0].edits);
    const a2 = analyzeAll(after);
    assert.equal(effectiveOf(a2, field), expected, after.find((x) => x.path === CONFIG)!.text);
    assert.equal(a2.nodes[0].node.settings.get(field)?.from.how, 'config');
    assert.equal(after.find((x) => x.path === DEFAULTS)!.text, 'KUBELET_EXTRA_ARGS= --v=2\n');
    const errors = (a: typeof a2) => a.findings.filter((x) => x.severity === 'error').map((x) => x.code).sort();
    assert.deepEqual(errors(a2), errors(before));
  });
}

test('flag-deprecated is struck through (deprecated tag) only when its removal is scheduled: --pod-infra-container-image on 1.30, not --max-pods', () => {
  const env = 'KUBELET_EXTRA_ARGS=--max-pods=50 --pod-infra-container-image=registry.k8s.io/pause:3.9\n';
  const fs = analyzeAll(ws(kubeadmNode(N, { defaults: env })), { kubernetesVersion: '1.30' }).findings.filter((x) => x.code === 'flag-deprecated');
  const of = (flag: string) => fs.find((x) => x.message.startsWith(`${flag} is deprecated`));
  assert.equal(of('--max-pods')?.tags, undefined, 'still works, merely has a config field');
  assert.deepEqual(of('--pod-infra-container-image')?.tags, ['deprecated']);
  assert.match(of('--pod-infra-container-image')!.message, /will be removed in Kubernetes 1\.35/);
});

test('no migration into kubeadm\'s config.yaml (kubeadm upgrade node writes it again from the kubelet-config ConfigMap) nor out of kubeadm-flags.env (kubeadm writes it from kubeletExtraArgs): node/kubeadm.ts', () => {
  const files = ws(kubeadmNode(N, { config: 'clusterDomain: cluster.local\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50 --v=2\n', kubeadmFlags: 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock"\n' }));
  const fs = analyzeAll(files).findings.filter((x) => x.code === 'flag-deprecated');
  assert.deepEqual(fs.map((x) => x.message.split(' ')[0]).sort(), ['--container-runtime-endpoint', '--max-pods'], 'the hints stay');
  assert.deepEqual(fs.flatMap((x) => x.fixes ?? []), [], 'no move is offered');
});

test('no migration when the config file already sets the field (the flag wins today; moving it would change the value)', () => {
  const files = ws(kubeadmNode(N, { config: 'maxPods: 110\n', defaults: 'KUBELET_EXTRA_ARGS=--max-pods=50\n' }));
  const f = analyzeAll(files).findings.find((x) => x.code === 'flag-deprecated')!;
  assert.equal(f.fixes, undefined);
});

test('--max-pods on the command line is a flag-deprecated hint on the flag name (options.go: deprecated in favour of --config)', () => {
  const env = 'KUBELET_EXTRA_ARGS=--max-pods=50\n';
  const f = only(analyzeAll(ws(kubeadmNode(N, { defaults: env }))).findings, 'flag-deprecated');
  assert.equal(f.severity, 'hint');
  assert.deepEqual(f.range, at(env, '--max-pods'));
  assert.match(f.message, /--max-pods is deprecated/);
  assert.match(f.message, /maxPods/);
});

test('--config, --kubeconfig, --v and kubeadm kubeletExtraArgs are not flag-deprecated', () => {
  none(analyzeAll(ws(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--v=2\n' }))).findings, 'flag-deprecated');
  const kubeadm = 'apiVersion: kubeadm.k8s.io/v1beta3\nkind: InitConfiguration\nnodeRegistration:\n  kubeletExtraArgs:\n    max-pods: "50"\n';
  none(analyzeAll(ws({ 'c/kubeadm.yaml': kubeadm })).findings, 'flag-deprecated');
});

// --- the config-file rules, table-driven: firing case (code, severity, exact range, values in the message, fix) and a clean case ---

interface Case {
  code: string;
  fact: string;
  severity: Finding['severity'];
  /** Config body after apiVersion/kind. */
  bad: string;
  /** Text the finding's range covers (its first occurrence at or after `after`). */
  needle: string;
  after?: string;
  message: RegExp[];
  good: string;
  version?: string;
  fix?: boolean;
}

const TABLE: Case[] = [
  {
    code: 'cgroup-driver-invalid', fact: 'cgroup_manager_linux.go: anything but "systemd" is cgroupfs', severity: 'error',
    bad: 'cgroupDriver: sytemd\n', needle: 'sytemd', message: [/"sytemd"/, /Did you mean "systemd"/], good: 'cgroupDriver: systemd\n', fix: true,
  },
  {
    code: 'config-field-unknown', fact: 'codec.go: unknown fields fall back to lenient decoding, the field is ignored', severity: 'warning',
    bad: 'maxPod: 50\n', needle: 'maxPod', message: [/"maxPod"/, /"maxPods"/], good: 'maxPods: 50\n', fix: true,
  },
  {
    code: 'enforce-none-exclusive', fact: 'validation.go: "none" with any other value is an error', severity: 'error',
    bad: 'enforceNodeAllocatable:\n  - none\n  - pods\n', needle: 'none', message: [/"none"/, /"pods"/], good: 'enforceNodeAllocatable:\n  - none\n',
  },
  {
    code: 'enforce-duplicate', fact: 'validation.go: duplicates in enforceNodeAllocatable are not allowed', severity: 'error',
    bad: 'enforceNodeAllocatable:\n  - pods\n  - pods\n', needle: 'pods', after: 'pods', message: [/"pods" appears twice/], good: 'enforceNodeAllocatable:\n  - pods\n',
  },
  {
    code: 'enforce-unknown-value', fact: 'validation.go: unknown enforceNodeAllocatable value', severity: 'error',
    bad: 'enforceNodeAllocatable:\n  - pod\n', needle: 'pod', after: 'enforceNodeAllocatable', message: [/"pod"/, /Did you mean "pods"/],
    good: 'enforceNodeAllocatable:\n  - pods\n', fix: true,
  },
  {
    code: 'enforce-unknown-value', fact: 'kube-reserved-compressible arrived in 1.32 (PR #125982)', severity: 'error', version: '1.31',
    bad: 'kubeReservedCgroup: /kube.slice\nenforceNodeAllocatable:\n  - kube-reserved-compressible\n', needle: 'kube-reserved-compressible',
    message: [/arrived in Kubernetes 1\.32/, /1\.31 kubelet/], good: 'kubeReservedCgroup: /kube.slice\nenforceNodeAllocatable:\n  - kube-reserved\n',
  },
  {
    code: 'enforce-requires-cgroups-per-qos', fact: 'validation.go: any value other than none needs cgroupsPerQOS', severity: 'error',
    bad: 'cgroupsPerQOS: false\nenforceNodeAllocatable:\n  - pods\n', needle: 'pods', message: [/\[pods\]/, /cgroupsPerQOS is false/],
    good: 'cgroupsPerQOS: false\nenforceNodeAllocatable: []\n',
  },
  {
    code: 'enforce-requires-cgroups-per-qos', fact: 'validation.go: the default ["pods"] also needs cgroupsPerQOS', severity: 'error',
    bad: 'cgroupsPerQOS: false\n', needle: 'false', message: [/defaults to \["pods"\]/], good: 'cgroupsPerQOS: true\n',
  },
  {
    code: 'enforce-compressible-conflict', fact: 'validation.go: system-reserved together with system-reserved-compressible is not allowed', severity: 'error',
    bad: 'systemReservedCgroup: /system.slice\nenforceNodeAllocatable:\n  - system-reserved\n  - system-reserved-compressible\n',
    needle: 'system-reserved-compressible', message: [/"system-reserved-compressible"/, /"system-reserved"/],
    good: 'systemReservedCgroup: /system.slice\nenforceNodeAllocatable:\n  - system-reserved-compressible\n',
  },
  {
    code: 'eviction-signal-unknown', fact: 'eviction/helpers.go: unsupported eviction signal', severity: 'error',
    bad: 'evictionHard:\n  memory.availble: 100Mi\n', needle: 'memory.availble', message: [/"memory\.availble"/, /Did you mean "memory\.available"/],
    good: 'evictionHard:\n  memory.available: 100Mi\n', fix: true,
  },
  {
    code: 'eviction-syntax', fact: 'ParseThresholdConfig: a threshold quantity must be positive', severity: 'error',
    bad: 'evictionHard:\n  memory.available: "0"\n', needle: '"0"', message: [/memory\.available/], good: 'evictionHard:\n  memory.available: 1Mi\n',
  },
  {
    code: 'eviction-percentage-range', fact: 'ParseThresholdConfig: percentage must be within 0-100', severity: 'error',
    bad: 'evictionHard:\n  nodefs.available: 150%\n', needle: '150%', message: [/nodefs\.available=150%/], good: 'evictionHard:\n  nodefs.available: 15%\n',
  },
  {
    code: 'eviction-threshold-ineffective', fact: 'parseThresholdStatement: "100%" creates no threshold', severity: 'warning',
    bad: 'evictionHard:\n  memory.available: 100%\n', needle: '100%', message: [/memory\.available=100%/], good: 'evictionHard:\n  memory.available: 99%\n',
  },
  {
    code: 'eviction-soft-without-grace', fact: 'ParseThresholdConfig: grace period must be specified for the soft eviction threshold', severity: 'error',
    bad: 'evictionSoft:\n  memory.available: 1Gi\n', needle: 'memory.available', message: [/memory\.available/, /grace period/],
    good: 'evictionSoft:\n  memory.available: 1Gi\nevictionSoftGracePeriod:\n  memory.available: 1m30s\n',
  },
  {
    code: 'eviction-grace-invalid', fact: 'ParseThresholdConfig: grace periods are Go durations', severity: 'error',
    bad: 'evictionSoft:\n  memory.available: 1Gi\nevictionSoftGracePeriod:\n  memory.available: "90"\n', needle: '"90"', after: 'evictionSoftGracePeriod',
    message: [/memory\.available="90"/], good: 'evictionSoft:\n  memory.available: 1Gi\nevictionSoftGracePeriod:\n  memory.available: 90s\n',
  },
  {
    code: 'eviction-defaults-dropped', fact: 'v1beta1 defaults.go: setting evictionHard drops the defaults of unset signals', severity: 'information',
    bad: 'evictionHard:\n  memory.available: 200Mi\n', needle: 'evictionHard', message: [/nodefs\.available<10%/, /imagefs\.available<15%/],
    good: 'mergeDefaultEvictionSettings: true\nevictionHard:\n  memory.available: 200Mi\n',
  },
  {
    code: 'config-field-unavailable', fact: 'codec.go: a field newer than the kubelet is unknown to it and dropped (mergeDefaultEvictionSettings arrived in 1.33)', severity: 'warning',
    version: '1.31', bad: 'mergeDefaultEvictionSettings: true\n', needle: 'mergeDefaultEvictionSettings', message: [/1\.33/, /1\.31 kubelet/],
    good: 'evictionHard:\n  memory.available: 100Mi\n',
  },
  {
    code: 'reserved-cgroup-unused', fact: 'node_container_manager_linux.go: reserved cgroups are used only for enforced values', severity: 'hint',
    bad: 'kubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 200m\n', needle: '/kube.slice', message: [/"kube-reserved" is not in enforceNodeAllocatable/, /only if you also want the daemons capped/],
    good: 'kubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 200m\nenforceNodeAllocatable:\n  - pods\n  - kube-reserved\n',
  },
  {
    code: 'reserved-cgroup-unused', fact: 'enforceExistingCgroup fails on an empty reservation, so enforcing is not advised without one', severity: 'hint',
    bad: 'kubeReservedCgroup: /kube.slice\n', needle: '/kube.slice', message: [/kubeReserved reserves nothing/, /would stop the kubelet/],
    good: 'kubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 200m\nenforceNodeAllocatable:\n  - pods\n  - kube-reserved\n',
  },
  {
    code: 'reserved-cgroup-systemd-name', fact: 'cgroup_manager_linux.go ParseSystemdToCgroupName: base name, "-" is a slice level', severity: 'warning',
    bad: 'cgroupDriver: systemd\nkubeReservedCgroup: /kube-reserved\nkubeReserved:\n  cpu: 200m\nenforceNodeAllocatable: [pods, kube-reserved]\n', needle: '/kube-reserved', message: [/\/kube\.slice\/kube-reserved\.slice/],
    good: 'cgroupDriver: systemd\nkubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 200m\nenforceNodeAllocatable: [pods, kube-reserved]\n',
  },
  {
    // The consequence needs enforcement: node_container_manager_linux.go enforceNodeAllocatableCgroups looks the cgroup up
    // only for an enforced reservation, so the same name unenforced is harmless (reserved-cgroup-unused says so).
    code: 'reserved-cgroup-unused', fact: 'an unenforced reserved cgroup is never looked up, whatever systemd would call it', severity: 'hint',
    bad: 'cgroupDriver: systemd\nkubeReservedCgroup: /kube-reserved\nkubeReserved:\n  cpu: 200m\n', needle: '/kube-reserved', message: [/has no effect/],
    good: 'cgroupDriver: systemd\nkubeReservedCgroup: /kube.slice\nkubeReserved:\n  cpu: 200m\nenforceNodeAllocatable: [pods, kube-reserved]\n',
  },
  {
    code: 'reserved-cgroup-v1-controllers', fact: 'cgroup v1 cgroupfs: the cgroup must exist in every controller hierarchy', severity: 'information',
    bad: 'cgroupDriver: cgroupfs\nkubeReservedCgroup: /kube-reserved\nenforceNodeAllocatable:\n  - pods\n  - kube-reserved\n', needle: '/kube-reserved',
    message: [/cpuset/, /hugetlb/], good: 'cgroupDriver: cgroupfs\nkubeReservedCgroup: /kube-reserved\n',
  },
  {
    code: 'system-reserved-enforced', fact: 'enforcing system-reserved caps the OS daemons (reserve-compute-resources docs caution)', severity: 'information',
    bad: 'systemReservedCgroup: /system.slice\nsystemReserved:\n  cpu: 500m\n  memory: 1Gi\nenforceNodeAllocatable:\n  - pods\n  - system-reserved\n',
    needle: 'system-reserved', after: 'enforceNodeAllocatable', message: [/memory 1Gi/, /system-reserved-compressible/],
    good: 'systemReservedCgroup: /system.slice\nsystemReserved:\n  cpu: 500m\n  memory: 1Gi\nenforceNodeAllocatable:\n  - pods\n',
  },
  {
    code: 'system-reserved-enforced', fact: 'getCgroupConfig: the -compressible form writes only the cpu reservation, so without one it is not suggested', severity: 'information',
    bad: 'systemReservedCgroup: /system.slice\nsystemReserved:\n  memory: 1Gi\nenforceNodeAllocatable:\n  - pods\n  - system-reserved\n',
    needle: 'system-reserved', after: 'enforceNodeAllocatable', message: [/memory 1Gi/, /^(?![\s\S]*-compressible)[\s\S]*Consider leaving it out/],
    good: 'systemReservedCgroup: /system.slice\nenforceNodeAllocatable:\n  - pods\n  - system-reserved\n',
  },
  {
    code: 'enforce-reservation-empty', fact: 'enforceExistingCgroup: an empty reservation map is nil, "cgroup is not configured properly"', severity: 'error',
    bad: 'systemReservedCgroup: /system.slice\nenforceNodeAllocatable:\n  - pods\n  - system-reserved-compressible\n',
    needle: 'system-reserved-compressible', message: [/systemReserved reserves nothing/, /not configured properly/, /fails the same way/],
    good: 'systemReservedCgroup: /system.slice\nsystemReserved:\n  cpu: 500m\nenforceNodeAllocatable:\n  - pods\n  - system-reserved-compressible\n',
  },
  {
    code: 'config-needs-feature-gate', fact: 'validation.go: cpuCFSQuotaPeriod other than 100ms requires CustomCPUCFSQuotaPeriod, alpha and off until 1.35 (GA, on from 1.36)', severity: 'error', version: '1.35',
    bad: 'cpuCFSQuotaPeriod: 50ms\n', needle: '50ms', message: [/CustomCPUCFSQuotaPeriod/, /its default in Kubernetes/],
    good: 'cpuCFSQuotaPeriod: 50ms\nfeatureGates:\n  CustomCPUCFSQuotaPeriod: true\n',
  },
  {
    code: 'reserved-memory-invalid', fact: 'validateReservedMemoryConfiguration: duplicate NUMA node and resource', severity: 'error',
    bad: 'reservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1Gi\n  - numaNode: 0\n    limits:\n      memory: 2Gi\n', needle: 'memory', after: 'memory: 1Gi',
    message: [/memory for NUMA node 0 twice/, /duplicate value/], good: 'reservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1Gi\n  - numaNode: 1\n    limits:\n      memory: 2Gi\n',
  },
  {
    code: 'reserved-cpus-conflict', fact: 'validation.go: reservedSystemCPUs with reserved cgroups is rejected', severity: 'error',
    bad: 'reservedSystemCPUs: "0-1"\nsystemReservedCgroup: /system.slice\n', needle: '"0-1"', message: [/0-1/, /systemReservedCgroup/],
    good: 'reservedSystemCPUs: "0-1"\n',
  },
  {
    code: 'cpu-manager-static-needs-reservation', fact: 'cpumanager policy_static.go: needs systemreserved.cpu + kubereserved.cpu > 0', severity: 'error',
    bad: 'cpuManagerPolicy: static\n', needle: 'static', message: [/"static"/, /reservedSystemCPUs/],
    good: 'cpuManagerPolicy: static\nkubeReserved:\n  cpu: 500m\n',
  },
  {
    code: 'memory-manager-reserved-mismatch', fact: 'memory_manager.go validateReservedMemory: sum must equal kube + system + hard memory.available', severity: 'error',
    bad: 'memoryManagerPolicy: Static\nkubeReserved:\n  memory: 1Gi\nevictionHard:\n  memory.available: 100Mi\nreservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1Gi\n',
    needle: 'reservedMemory', message: [/1178599424 bytes/, /sums to 1073741824 bytes/],
    good: 'memoryManagerPolicy: Static\nkubeReserved:\n  memory: 1Gi\nevictionHard:\n  memory.available: 100Mi\nreservedMemory:\n  - numaNode: 0\n    limits:\n      memory: 1124Mi\n',
  },
  {
    code: 'config-value-invalid', fact: 'validation.go: topologyManagerPolicy must be none, best-effort, restricted or single-numa-node', severity: 'error',
    bad: 'topologyManagerPolicy: best-efort\n', needle: 'best-efort', message: [/"best-efort"/, /did you mean "best-effort"/],
    good: 'topologyManagerPolicy: best-effort\n', fix: true,
  },
  {
    code: 'config-value-invalid', fact: 'validation.go: imageGCLowThresholdPercent must be lower than imageGCHighThresholdPercent', severity: 'error',
    bad: 'imageGCHighThresholdPercent: 70\n', needle: '70', message: [/imageGCLowThresholdPercent \(80\)/, /\(70\)/],
    good: 'imageGCHighThresholdPercent: 90\n',
  },
  {
    code: 'reservations-missing', fact: 'v1beta1 defaults.go: kubeReserved and systemReserved default to empty, so pods may take the whole node', severity: 'information',
    bad: 'cgroupDriver: systemd\n', needle: 'kind', message: [/^This node reserves no cpu or memory for the kubelet and the OS: pods can take it all\./, /Insert recommended reservations/],
    good: 'systemReserved:\n  memory: 500Mi\n',
  },
  {
    code: 'reservations-missing', fact: 'reservedSystemCPUs reserves cpu too', severity: 'information',
    bad: 'kubeReserved:\n  pid: "1000"\n', needle: 'kind', message: [/kubeReserved and systemReserved are empty/], good: 'reservedSystemCPUs: "0"\n',
  },
];

function rangeAfter(text: string, needle: string, after?: string): Range {
  const from = after ? text.indexOf(after) + after.length : 0;
  const i = text.indexOf(needle, from);
  assert.ok(i !== -1, `"${needle}" not in text`);
  const before = text.slice(0, i);
  const line = before.split('\n').length - 1;
  const character = i - (before.lastIndexOf('\n') + 1);
  return { start: { line, character }, end: { line, character: character + needle.length } };
}

for (const c of TABLE) {
  test(`${c.code}: ${c.bad.trim().replaceAll('\n', ' ')} (${c.fact})`, () => {
    const path = 'n/var/lib/kubelet/config.yaml';
    const text = CONFIG_HEAD + c.bad;
    const files = ws({ [path]: text });
    // The table is about each rule's logic: the newest kubelet unless a row states another (with no version stated at
    // all, what rests on it is information: node/evidence.ts).
    const opts = { kubernetesVersion: c.version ?? NEWEST_VERSION };
    const f = only(analyzeAll(files, opts).findings, c.code);
    assert.equal(f.severity, c.severity);
    assert.equal(f.file, path);
    assert.deepEqual(f.range, rangeAfter(text, c.needle, c.after));
    for (const m of c.message) assert.match(f.message, m);
    if (c.fix) applyFixAndRecheck(files, f, opts);
    none(analyzeAll(ws({ [path]: CONFIG_HEAD + c.good }), opts).findings, c.code);
  });
}

// --- eviction-defaults-dropped: severity by what is lost, and the fixes ------

test('eviction-defaults-dropped: losing nodefs.available is information with a mergeDefaultEvictionSettings fix (1.33+) that keeps every default', () => {
  const files = ws({ [CONFIG]: CONFIG_HEAD + 'evictionHard:\n  memory.available: 200Mi\n' });
  const f = only(analyzeAll(files).findings, 'eviction-defaults-dropped');
  assert.equal(f.severity, 'information');
  assert.match(f.message, /^evictionHard drops the default nodefs\.available threshold\./);
  assert.equal(f.fixes![0].title, 'Keep the default thresholds: set mergeDefaultEvictionSettings: true');
  const fixed = applyFixAndRecheck(files, f);
  assert.match(fixed[0].text, /^mergeDefaultEvictionSettings: true\nevictionHard:/m);
  // The second fix writes the lost defaults back instead, with the same effect on the thresholds.
  const written = applyWorkspaceEdits(files, f.fixes![1].edits);
  const a = analyzeAll(written);
  none(a.findings, 'eviction-defaults-dropped');
  assert.equal(effectiveOf(a, 'evictionHard'), 'imagefs.available=15%,imagefs.inodesFree=5%,memory.available=200Mi,nodefs.available=10%,nodefs.inodesFree=5%');
});

test('eviction-defaults-dropped on 1.32: no mergeDefaultEvictionSettings (it arrived in 1.33); the fix writes the defaults back', () => {
  const files = ws({ [CONFIG]: CONFIG_HEAD + 'evictionHard:\n  memory.available: 200Mi\n' });
  const f = only(analyzeAll(files, { kubernetesVersion: '1.32' }).findings, 'eviction-defaults-dropped');
  assert.equal(f.fixes!.length, 1);
  assert.match(f.fixes![0].title, /^Write the default thresholds into evictionHard/);
  applyFixAndRecheck(files, f, { kubernetesVersion: '1.32' });
});

test('eviction-defaults-dropped: losing only imagefs and inode thresholds is a hint without a fix', () => {
  const files = ws({ [CONFIG]: CONFIG_HEAD + 'evictionHard:\n  memory.available: 200Mi\n  nodefs.available: 10%\n' });
  const f = only(analyzeAll(files).findings, 'eviction-defaults-dropped');
  assert.equal(f.severity, 'hint');
  assert.equal(f.fixes, undefined);
});

// --- flag-overrides-config --------------------------------------------------

test('--system-reserved over a config systemReserved map fires flag-overrides-config naming the dropped keys (MapStringString: first Set clears)', () => {
  const env = 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m\n';
  const a = analyzeAll(ws(kubeadmNode(N, { config: 'systemReserved:\n  cpu: "1"\n  memory: 2Gi\n', defaults: env })));
  const f = only(a.findings, 'flag-overrides-config');
  // A key of the file silently dropped changes the node: a warning (an override in plain sight stays information).
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, DEFAULTS);
  assert.deepEqual(f.range, at(env, '--system-reserved=cpu=500m'));
  assert.match(f.message, /memory=2Gi/);
  assert.equal(f.related?.[0].span.file, CONFIG);
});

test('a flag for a field the config does not set does not fire flag-overrides-config', () => {
  const a = analyzeAll(ws(kubeadmNode(N, { config: 'maxPods: 50\n', defaults: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m\n' })));
  none(a.findings, 'flag-overrides-config');
});

test('a field the config file leaves empty (featureGates: with nothing under it, or null) is not overridden by its flag: no flag-overrides-config', () => {
  // sigs.k8s.io/yaml turns an empty value into JSON null, which encoding/json leaves as the zero value: the file sets nothing.
  for (const config of ['featureGates:\n', 'featureGates: null\n', 'systemReserved: ~\n']) {
    const flag = config.startsWith('featureGates') ? '--feature-gates=NodeSwap=true' : '--system-reserved=cpu=500m';
    none(analyzeAll(ws(kubeadmNode(N, { config, defaults: `KUBELET_EXTRA_ARGS=${flag}\n` }))).findings, 'flag-overrides-config');
  }
});

test('reservations-missing: not reported when the node\'s config file is not in the workspace (its reservations are unknown)', () => {
  const unit = '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n';
  none(analyzeAll(ws({ 'n/etc/systemd/system/kubelet.service': unit })).findings, 'reservations-missing');
  // A node without --config, reserving nothing on its command line: reported on ExecStart=, once.
  const bare = analyzeAll(ws({ 'n/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --v=2\n' }));
  assert.equal(only(bare.findings, 'reservations-missing').range.start.line, 1);
  none(analyzeAll(ws({ 'n/etc/systemd/system/kubelet.service': '[Service]\nExecStart=/usr/bin/kubelet --kube-reserved=cpu=100m\n' })).findings, 'reservations-missing');
});

