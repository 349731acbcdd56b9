import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evictionHardItems } from '../../server/src/node/read.ts';
import { CONFIG_HEAD, KUBELET_SERVICE, kubeadmNode, listOf, mapOf, nodeWith, onlyNode, run, scalarOf } from '../helpers/nodes.ts';

const N = 'node1';
const CONFIG = `${N}/var/lib/kubelet/config.yaml`;
const DEFAULTS = `${N}/etc/default/kubelet`;
const FLAGS_ENV = `${N}/var/lib/kubelet/kubeadm-flags.env`;
const DROPIN = `${N}/etc/systemd/system/kubelet.service.d/10-kubeadm.conf`;

test('a flag wins over the config file scalar (cmd/kubelet/app/server.go kubeletConfigFlagPrecedence)', () => {
  const a = run(kubeadmNode(N, { config: 'cgroupDriver: cgroupfs\nmaxPods: 50\n', defaults: 'KUBELET_EXTRA_ARGS=--cgroup-driver=systemd\n' }));
  const { node } = onlyNode(a);
  const s = node.settings.get('cgroupDriver');
  assert.equal(scalarOf(s), 'systemd');
  assert.equal(s?.from.how, 'flag');
  assert.equal(s?.from.flag, 'cgroup-driver');
  assert.equal(s?.from.span?.file, DEFAULTS);
  assert.equal(s?.from.span?.range.start.line, 0);
  assert.equal(s?.from.via?.variable, 'KUBELET_EXTRA_ARGS');
  assert.equal(s?.from.via?.span.file, DROPIN);
  assert.equal(s?.from.via?.span.range.start.line, 6);
  assert.equal(s?.from.field, 'cgroupDriver');
  // untouched config value keeps its provenance
  const m = node.settings.get('maxPods');
  assert.equal(scalarOf(m), 50);
  assert.equal(m?.from.how, 'config');
  assert.equal(m?.from.span?.file, CONFIG);
  assert.equal(m?.from.span?.range.start.line, 3);
  assert.equal(m?.from.field, 'maxPods');
});

test('--system-reserved=cpu=500m replaces the config systemReserved map entirely: memory is gone (component-base MapStringString: first Set clears)', () => {
  const a = run(
    kubeadmNode(N, { config: 'systemReserved:\n  cpu: "1"\n  memory: 2Gi\n', defaults: 'KUBELET_EXTRA_ARGS=--system-reserved=cpu=500m\n' }),
  );
  const { node } = onlyNode(a);
  const s = node.settings.get('systemReserved');
  assert.deepEqual(mapOf(s), { cpu: '500m' });
  assert.equal(s?.from.how, 'flag');
  assert.equal(s?.kind === 'map' && s.items[0].valueSpan?.file, DEFAULTS);
  assert.deepEqual(s?.kind === 'map' && s.items[0].valueSpan?.range, { start: { line: 0, character: 41 }, end: { line: 0, character: 45 } });
});

test('repeating --kube-reserved accumulates keys (MapStringString: only the first Set clears)', () => {
  const a = run(
    kubeadmNode(N, {
      config: 'kubeReserved:\n  ephemeral-storage: 1Gi\n',
      defaults: 'KUBELET_EXTRA_ARGS="--kube-reserved=cpu=1 --kube-reserved=memory=1Gi --kube-reserved=cpu=2"\n',
    }),
  );
  assert.deepEqual(mapOf(onlyNode(a).node.settings.get('kubeReserved')), { memory: '1Gi', cpu: '2' });
});

test('feature gates from the file and --feature-gates merge, the flag winning per gate (kubelet server.go: featureGates merged, not replaced)', () => {
  const a = run(
    kubeadmNode(N, {
      config: 'featureGates:\n  NodeSwap: true\n  MemoryQoS: false\n',
      defaults: 'KUBELET_EXTRA_ARGS=--feature-gates=MemoryQoS=true,CPUManagerPolicyOptions=true\n',
    }),
  );
  const fg = onlyNode(a).node.settings.get('featureGates');
  assert.deepEqual(mapOf(fg), { NodeSwap: 'true', MemoryQoS: 'true', CPUManagerPolicyOptions: 'true' });
  assert.ok(fg?.kind === 'map');
  if (fg?.kind === 'map') {
    assert.equal(fg.items.find((i) => i.key === 'NodeSwap')?.from.how, 'config');
    assert.equal(fg.items.find((i) => i.key === 'MemoryQoS')?.from.how, 'flag');
  }
});

test('--enforce-node-allocatable is a comma list replacing the config list (pflag StringSlice: first Set replaces)', () => {
  const a = run(
    kubeadmNode(N, {
      config: 'enforceNodeAllocatable:\n  - pods\n  - kube-reserved\n',
      defaults: 'KUBELET_EXTRA_ARGS=--enforce-node-allocatable=pods,system-reserved\n',
    }),
  );
  const s = onlyNode(a).node.settings.get('enforceNodeAllocatable');
  assert.deepEqual(listOf(s), ['pods', 'system-reserved']);
  if (s?.kind === 'list') {
    assert.deepEqual(s.items[1].valueSpan?.range, { start: { line: 0, character: 51 }, end: { line: 0, character: 66 } });
  }
});

test('EnvironmentFile= overrides Environment= for the same variable whatever the order (systemd.exec(5))', () => {
  const dropin = `[Service]
EnvironmentFile=-/etc/default/kubelet
Environment="KUBELET_EXTRA_ARGS=--max-pods=10"
ExecStart=
ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml $KUBELET_EXTRA_ARGS
`;
  const a = run(
    kubeadmNode(N, {
      defaults: 'KUBELET_EXTRA_ARGS=--max-pods=20\n',
      extra: { [DROPIN]: dropin },
    }),
  );
  const { node } = onlyNode(a);
  assert.equal(scalarOf(node.settings.get('maxPods')), '20');
  assert.equal(node.service?.environment.get('KUBELET_EXTRA_ARGS')?.source, 'EnvironmentFile');
});

test('a later drop-in resets ExecStart= and sets a new command (systemd.unit(5): empty assignment resets the list)', () => {
  const files = kubeadmNode(N, {
    extra: {
      [`${N}/etc/systemd/system/kubelet.service.d/20-override.conf`]: '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --max-pods=33\n',
    },
  });
  const { node } = nodeWith(run(files), `${N}/usr/lib/systemd/system/kubelet.service`);
  assert.equal(node.service?.execStarts.length, 1);
  assert.equal(node.service?.execStart?.span.file, `${N}/etc/systemd/system/kubelet.service.d/20-override.conf`);
  assert.equal(scalarOf(node.settings.get('maxPods')), '33');
  assert.equal(node.settings.get('cgroupDriver'), undefined, 'the config.yaml of the replaced command is not read');
});

test('drop-ins apply in lexical file-name order across /etc and /usr/lib; /etc masks a same-named /usr/lib drop-in (systemd.unit(5))', () => {
  const files = {
    [`${N}/usr/lib/systemd/system/kubelet.service`]: KUBELET_SERVICE,
    [`${N}/usr/lib/systemd/system/kubelet.service.d/10-a.conf`]: '[Service]\nEnvironment="A=--max-pods=10"\nExecStart=\nExecStart=/usr/bin/kubelet $A $B\n',
    [`${N}/etc/systemd/system/kubelet.service.d/20-b.conf`]: '[Service]\nEnvironment="A=--max-pods=20"\n',
    [`${N}/usr/lib/systemd/system/kubelet.service.d/30-c.conf`]: '[Service]\nEnvironment="A=--max-pods=30"\n',
    [`${N}/etc/systemd/system/kubelet.service.d/30-c.conf`]: '[Service]\nEnvironment="B=--v=3"\n',
  };
  const { node } = onlyNode(run(files));
  const order = node.service!.files.map((f) => f.path);
  assert.deepEqual(order, [
    `${N}/usr/lib/systemd/system/kubelet.service`,
    `${N}/usr/lib/systemd/system/kubelet.service.d/10-a.conf`,
    `${N}/etc/systemd/system/kubelet.service.d/20-b.conf`,
    `${N}/etc/systemd/system/kubelet.service.d/30-c.conf`,
  ]);
  assert.deepEqual(node.service!.masked, [
    { path: `${N}/usr/lib/systemd/system/kubelet.service.d/30-c.conf`, by: `${N}/etc/systemd/system/kubelet.service.d/30-c.conf` },
  ]);
  // 20-b wins over 10-a; the masked /usr/lib 30-c (max-pods=30) is not applied.
  assert.equal(scalarOf(node.settings.get('maxPods')), '20');
  assert.equal(scalarOf(node.settings.get('logging.verbosity')), '3');
});

test('KUBELET_EXTRA_ARGS comes after KUBELET_KUBEADM_ARGS, so it wins for a scalar flag (kubeadm 10-kubeadm.conf; pflag: last Set wins)', () => {
  const a = run(
    kubeadmNode(N, {
      kubeadmFlags: 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock --max-pods=50"\n',
      defaults: 'KUBELET_EXTRA_ARGS=--max-pods=60\n',
    }),
  );
  const s = onlyNode(a).node.settings.get('maxPods');
  assert.equal(scalarOf(s), '60');
  assert.equal(s?.from.via?.variable, 'KUBELET_EXTRA_ARGS');
  assert.equal(s?.from.span?.file, DEFAULTS);
  const ep = onlyNode(a).node.settings.get('containerRuntimeEndpoint');
  assert.equal(ep?.from.via?.variable, 'KUBELET_KUBEADM_ARGS');
  assert.equal(ep?.from.span?.file, FLAGS_ENV);
});

const KUBELET_DOC = `---
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
cgroupDriver: cgroupfs
maxPods: 100
systemReserved:
  cpu: "1"
  memory: 2Gi
`;

test('kubeadm v1beta3 kubeletExtraArgs (a map) act as flags over the embedded KubeletConfiguration (kubeadm writes them to kubeadm-flags.env)', () => {
  const text = `apiVersion: kubeadm.k8s.io/v1beta3
kind: InitConfiguration
nodeRegistration:
  kubeletExtraArgs:
    cgroup-driver: systemd
    system-reserved: cpu=500m
${KUBELET_DOC}`;
  const { node } = onlyNode(run({ 'cluster/kubeadm.yaml': text }));
  const cd = node.settings.get('cgroupDriver');
  assert.equal(scalarOf(cd), 'systemd');
  assert.equal(cd?.from.how, 'kubeadm-extra-args');
  assert.equal(cd?.from.span?.file, 'cluster/kubeadm.yaml');
  assert.equal(cd?.from.span?.range.start.line, 4);
  assert.deepEqual(mapOf(node.settings.get('systemReserved')), { cpu: '500m' });
  assert.equal(scalarOf(node.settings.get('maxPods')), 100);
});

test('kubeadm v1beta4 kubeletExtraArgs (a {name, value} list) act as flags over the embedded KubeletConfiguration', () => {
  const text = `apiVersion: kubeadm.k8s.io/v1beta4
kind: JoinConfiguration
nodeRegistration:
  kubeletExtraArgs:
    - name: cgroup-driver
      value: systemd
    - name: max-pods
      value: "40"
${KUBELET_DOC}`;
  const { node } = onlyNode(run({ 'cluster/kubeadm.yaml': text }));
  const cd = node.settings.get('cgroupDriver');
  assert.equal(scalarOf(cd), 'systemd');
  assert.equal(cd?.from.how, 'kubeadm-extra-args');
  assert.equal(cd?.kind === 'scalar' && cd.span?.range.start.line, 5);
  assert.equal(scalarOf(node.settings.get('maxPods')), '40');
});

test('--config-dir drop-ins (*.conf, lexical order) merge over --config; maps merge by key (kubelet server.go mergeKubeletConfigurations, 1.30+)', () => {
  const files = kubeadmNode(N, {
    config: 'maxPods: 100\nkubeReserved:\n  cpu: 500m\n  memory: 1Gi\n',
    defaults: 'KUBELET_EXTRA_ARGS=--config-dir=/etc/kubernetes/kubelet.conf.d\n',
    extra: {
      [`${N}/etc/kubernetes/kubelet.conf.d/20-b.conf`]: CONFIG_HEAD + 'maxPods: 20\nkubeReserved:\n  memory: 3Gi\n',
      [`${N}/etc/kubernetes/kubelet.conf.d/10-a.conf`]: CONFIG_HEAD + 'maxPods: 10\ncgroupDriver: systemd\n',
      [`${N}/etc/kubernetes/kubelet.conf.d/30-c.yaml`]: CONFIG_HEAD + 'maxPods: 30\n',
    },
  });
  const { node } = nodeWith(run(files), `${N}/usr/lib/systemd/system/kubelet.service`);
  assert.ok(!node.files.includes(`${N}/etc/kubernetes/kubelet.conf.d/30-c.yaml`), 'only *.conf files of --config-dir are read');
  const mp = node.settings.get('maxPods');
  assert.equal(scalarOf(mp), 20);
  assert.equal(mp?.from.how, 'config-dir');
  assert.equal(mp?.from.span?.file, `${N}/etc/kubernetes/kubelet.conf.d/20-b.conf`);
  assert.equal(scalarOf(node.settings.get('cgroupDriver')), 'systemd');
  assert.deepEqual(mapOf(node.settings.get('kubeReserved')), { cpu: '500m', memory: '3Gi' });
  assert.deepEqual(node.configRefs.find((r) => r.flag === 'config-dir')?.resolved, [
    `${N}/etc/kubernetes/kubelet.conf.d/10-a.conf`,
    `${N}/etc/kubernetes/kubelet.conf.d/20-b.conf`,
  ]);
});

test('a flag still wins over a --config-dir drop-in (kubeletConfigFlagPrecedence runs after the drop-ins merge)', () => {
  const files = kubeadmNode(N, {
    config: 'maxPods: 100\n',
    defaults: 'KUBELET_EXTRA_ARGS="--config-dir=/etc/kubernetes/kubelet.conf.d --max-pods=7"\n',
    extra: { [`${N}/etc/kubernetes/kubelet.conf.d/10-a.conf`]: CONFIG_HEAD + 'maxPods: 10\n' },
  });
  assert.equal(scalarOf(onlyNode(run(files)).node.settings.get('maxPods')), '7');
});

test('evictionHard defaults apply only when nothing sets evictionHard (v1beta1 defaults.go)', () => {
  const none = onlyNode(run({ 'n/kubelet-config.yaml': CONFIG_HEAD + 'maxPods: 10\n' })).node;
  const d = evictionHardItems(none);
  assert.equal(d.defaulted, true);
  assert.deepEqual(Object.fromEntries(d.items.map((i) => [i.key, i.text])), {
    'memory.available': '100Mi',
    'nodefs.available': '10%',
    'nodefs.inodesFree': '5%',
    'imagefs.available': '15%',
    'imagefs.inodesFree': '5%',
  });
  assert.ok(d.items.every((i) => i.from.how === 'default'));

  const some = onlyNode(run({ 'n/kubelet-config.yaml': CONFIG_HEAD + 'evictionHard:\n  memory.available: 200Mi\n' })).node;
  const s = evictionHardItems(some);
  assert.equal(s.defaulted, false);
  assert.deepEqual(Object.fromEntries(s.items.map((i) => [i.key, i.text])), { 'memory.available': '200Mi' });
});

test('setting evictionHard by flag also drops the other defaults (--eviction-hard replaces the map)', () => {
  const a = run(kubeadmNode(N, { defaults: 'KUBELET_EXTRA_ARGS=--eviction-hard=memory.available<300Mi\n' }));
  const s = evictionHardItems(onlyNode(a).node);
  assert.deepEqual(Object.fromEntries(s.items.map((i) => [i.key, i.text])), { 'memory.available': '300Mi' });
});

test('mergeDefaultEvictionSettings: true keeps the defaults of unset signals (1.33+)', () => {
  const node = onlyNode(
    run({ 'n/kubelet-config.yaml': CONFIG_HEAD + 'mergeDefaultEvictionSettings: true\nevictionHard:\n  memory.available: 200Mi\n' }),
  ).node;
  const s = evictionHardItems(node);
  const m = Object.fromEntries(s.items.map((i) => [i.key, i.text]));
  assert.equal(m['memory.available'], '200Mi');
  assert.equal(m['nodefs.available'], '10%');
  assert.equal(m['imagefs.available'], '15%');
  assert.equal(s.items.find((i) => i.key === 'memory.available')?.from.how, 'config');
});

test('config values keep their file and line; flags via a variable name the variable and the ExecStart reference', () => {
  const a = run(
    kubeadmNode(N, {
      config: 'kubeReserved:\n  cpu: 500m\n',
      kubeadmFlags: 'KUBELET_KUBEADM_ARGS="--pod-max-pids=1000"\n',
    }),
  );
  const { node } = nodeWith(a, CONFIG);
  const kr = node.settings.get('kubeReserved');
  assert.equal(kr?.from.how, 'config');
  assert.equal(kr?.from.span?.file, CONFIG);
  assert.equal(kr?.from.span?.range.start.line, 2);
  if (kr?.kind === 'map') assert.deepEqual(kr.items[0].valueSpan?.range, { start: { line: 3, character: 7 }, end: { line: 3, character: 11 } });
  const pp = node.settings.get('podPidsLimit');
  assert.equal(pp?.from.how, 'flag');
  assert.equal(pp?.from.flag, 'pod-max-pids');
  assert.equal(pp?.from.via?.variable, 'KUBELET_KUBEADM_ARGS');
  assert.equal(pp?.from.span?.file, FLAGS_ENV);
  assert.deepEqual(pp?.from.span?.range, { start: { line: 0, character: 22 }, end: { line: 0, character: 41 } });
});

test('--config names the file: the value resolves and its span is the flag value inside Environment=', () => {
  const { node } = onlyNode(run(kubeadmNode(N, { config: 'maxPods: 1\n' })));
  const ref = node.configRefs.find((r) => r.flag === 'config');
  assert.deepEqual(ref?.resolved, [CONFIG]);
  assert.equal(ref?.span.file, DROPIN);
  assert.deepEqual(ref?.span.range, { start: { line: 2, character: 42 }, end: { line: 2, character: 70 } });
});

// Checked against Debian's systemd 252 `systemd --test` (test/oracle/systemd.test.ts): config_parse_exec() returning
// -ENOEXEC stops config_parse() of that file (src/shared/conf-parser.c); the unit file's load fails ("bad-setting"),
// a drop-in's failure is ignored (src/core/load-dropin.c unit_load_dropin() discards config_parse()'s result).
test('a fatal ExecStart= error in the unit file refuses the unit even though a drop-in resets the line (systemd 252: bad-setting)', () => {
  const unit = `${N}/usr/lib/systemd/system/kubelet.service`;
  const a = run({
    [unit]: "[Service]\nExecStart=/usr/bin/kubelet 'unterminated\n",
    [`${N}/etc/systemd/system/kubelet.service.d/10-x.conf`]: '[Service]\nExecStart=\nExecStart=/usr/bin/kubelet --max-pods=33\n',
  });
  const { node } = nodeWith(a, unit);
  const { findings } = a;
  assert.ok(node.service?.refused, 'the unit is refused');
  const errs = findings.filter((f) => f.code === 'exec-syntax' && f.severity === 'error');
  assert.equal(errs.length, 1, JSON.stringify(findings.map((f) => f.message)));
  assert.equal(errs[0]!.file, unit);
  assert.equal(errs[0]!.range.start.line, 1);
  assert.match(errs[0]!.message, /systemd refuses to load the unit/);
});

test('a fatal ExecStart= error in a drop-in drops the rest of that drop-in, keeps the unit (systemd 252 unit_load_dropin)', () => {
  const unit = `${N}/usr/lib/systemd/system/kubelet.service`;
  const dropIn = `${N}/etc/systemd/system/kubelet.service.d/10-x.conf`;
  const a = run({
    [unit]: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=10\n',
    [dropIn]: '[Service]\nEnvironment=A=1\nExecStart=\nExecStart=/usr/bin/kubelet --max-pods=20 ; "" x\nEnvironment=B=2\nExecStart=/usr/bin/kubelet --max-pods=30\n',
  });
  const { node } = nodeWith(a, unit);
  const { findings } = a;
  assert.equal(node.service?.refused, undefined);
  // the command before the error on the same line stays; the lines after it are not read
  assert.equal(scalarOf(node.settings.get('maxPods')), '20');
  assert.deepEqual([...node.service!.environment.keys()], ['A']);
  const errs = findings.filter((f) => f.code === 'exec-path' && f.severity === 'error');
  assert.equal(errs.length, 1, JSON.stringify(findings.map((f) => f.message)));
  assert.equal(errs[0]!.file, dropIn);
  assert.match(errs[0]!.message, /systemd ignores the rest of this drop-in/);
});

test('the target systemd version picks the env-file reading: 252 loses a line after a comment ending in `\\`; modeline, option', () => {
  const unit = `${N}/usr/lib/systemd/system/kubelet.service`;
  const files = {
    [unit]: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n',
    [`${N}/etc/default/kubelet`]: '# tuning \\\nKUBELET_EXTRA_ARGS=--max-pods=60\n',
  };
  assert.equal(scalarOf(nodeWith(run(files), unit).node.settings.get('maxPods')), '60');
  assert.equal(nodeWith(run(files, { systemdVersion: 252 }), unit).node.settings.get('maxPods'), undefined);
  assert.equal(scalarOf(nodeWith(run(files, { systemdVersion: 254 }), unit).node.settings.get('maxPods')), '60');
  const withModeline = { ...files, [unit]: '# kubelet-lint: systemd-version 249\n' + files[unit] };
  assert.equal(nodeWith(run(withModeline), unit).node.settings.get('maxPods'), undefined);
  const bad = run({ ...files, [unit]: '# kubelet-lint: systemd-version new\n' + files[unit] });
  assert.ok(bad.findings.some((f) => f.code === 'modeline-invalid' && /systemd version/.test(f.message)));
});

test('EnvironmentFile= must be an absolute, normalized path after specifiers, else systemd ignores it (load-fragment.c config_parse_unit_env_file)', () => {
  const unit = `${N}/usr/lib/systemd/system/kubelet.service`;
  const a = run({
    [unit]: '[Service]\nEnvironmentFile=relative/kubelet\nEnvironmentFile=- /etc/default/kubelet\nEnvironmentFile="/etc/default/kubelet"\nEnvironmentFile=/etc/../x\nEnvironmentFile=-//etc/./default/kubelet/\nEnvironmentFile=/p%%q\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n',
    [`${N}/etc/default/kubelet`]: 'KUBELET_EXTRA_ARGS=--max-pods=60\n',
  });
  const { node } = nodeWith(a, unit);
  assert.deepEqual(node.service!.envFileRefs.map((r) => [r.optional, r.path]), [[true, '/etc/default/kubelet'], [false, '/p%q']]);
  assert.equal(scalarOf(node.settings.get('maxPods')), '60');
  const ignored = a.findings.filter((f) => f.code === 'unit-syntax' && /EnvironmentFile=/.test(f.message));
  assert.deepEqual(ignored.map((f) => f.range.start.line), [1, 2, 3, 4]);
});
