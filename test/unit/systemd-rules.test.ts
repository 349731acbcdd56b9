import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';
import type { Range } from '../../server/src/model/range.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { parseUnit } from '../../server/src/parse/systemd/unit.ts';
import type { Rule } from '../../server/src/rules/types.ts';
import { envfileLiteralQuotes } from '../../server/src/rules/envfile-literal-quotes.ts';
import { unitContinuationTrailingSpace } from '../../server/src/rules/unit-continuation-trailing-space.ts';
import { unitEnvironmentShadowed } from '../../server/src/rules/unit-environment-shadowed.ts';
import { unitVariableUndefined } from '../../server/src/rules/unit-variable-undefined.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';

/** Runs one rule over every node of the analysis (the rules are not registered in RULES by this file). */
function runRule(rule: Rule, files: SourceFile[]): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  for (const { node, allocatable } of analyze(files).nodes) {
    for (const f of rule.run({ node, argProblems: [], allocatable, versionForFixes: node.kubernetesVersion })) {
      const key = `${f.file}|${JSON.stringify(f.range)}|${f.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(f);
    }
  }
  return out;
}

function errors(files: SourceFile[]): string[] {
  return analyze(files).findings.filter((f) => f.severity === 'error').map((f) => `${f.code} ${f.file}:${f.range.start.line}:${f.range.start.character}`);
}

const r = (sl: number, sc: number, el: number, ec: number): Range => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

/** Applies the finding's preferred fix; the finding is gone and no error is new. */
function assertFixWorks(rule: Rule, files: SourceFile[], f: Finding): SourceFile[] {
  const fix = f.fixes?.find((x) => x.preferred);
  assert.ok(fix, 'a preferred fix');
  const fixed = applyWorkspaceEdits(files, fix.edits);
  assert.deepEqual(runRule(rule, fixed).filter((g) => g.range.start.line === f.range.start.line && g.file === f.file), []);
  const before = new Set(errors(files).map((e) => e.split(' ')[0]));
  assert.deepEqual(errors(fixed).filter((e) => !before.has(e.split(' ')[0])), []);
  return fixed;
}

const UNIT = 'n/etc/systemd/system/kubelet.service';
const DROPIN = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
const FLAGS_ENV = 'n/var/lib/kubelet/kubeadm-flags.env';
const DEFAULTS = 'n/etc/default/kubelet';

// ---------- unit-continuation-trailing-space ----------

test('parser: lines ending in an unpaired "\\" followed by blanks are listed; comments and "\\\\ " are not', () => {
  const u = parseUnit('/u.service', '[Service]\nA=1 \\ \t\n# c \\ \nB=2 \\\\ \nC=3 \\\nD=4\n');
  assert.deepEqual(u.trailingBlankContinuations, [{ line: 1, backslash: 4, end: 7 }]);
  assert.deepEqual(u.directives.map((d) => [d.key, d.value]), [['A', '1 \\'], ['B', '2 \\\\'], ['C', '3  D=4']]);
  assert.equal(parseUnit('/v.service', '[Service]\nA=1 \\\nB=2\n').trailingBlankContinuations, undefined);
});

test('unit-continuation-trailing-space: "\\ " before a flag line: warning on the backslash and blanks; the fix deletes only the blanks', () => {
  const files: SourceFile[] = [{
    path: UNIT,
    text: '[Service]\nExecStart=/usr/bin/kubelet \\\n  --config=/etc/kubernetes/kubelet.yaml \\  \n  --v=2\nRestart=always\n',
  }];
  const got = runRule(unitContinuationTrailingSpace, files);
  assert.equal(got.length, 1);
  const f = got[0];
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, UNIT);
  assert.deepEqual(f.range, r(2, 40, 2, 43));
  assert.match(f.message, /^The "\\" at the end of line 3 does not continue it: blanks follow it\./);
  assert.match(f.message, /"--v="/);
  const fix = f.fixes!.find((x) => x.preferred)!;
  assert.deepEqual(fix.edits, [{ file: UNIT, range: r(2, 41, 2, 43), newText: '' }]);
  const fixed = assertFixWorks(unitContinuationTrailingSpace, files, f);
  assert.equal(fixed[0].text, '[Service]\nExecStart=/usr/bin/kubelet \\\n  --config=/etc/kubernetes/kubelet.yaml \\\n  --v=2\nRestart=always\n');
  assert.deepEqual(analyze(fixed).nodes[0].node.argv.map((w) => w.text), ['--config=/etc/kubernetes/kubelet.yaml', '--v=2']);
});

test('unit-continuation-trailing-space: "\\ " before a real directive: the fix removes the stray backslash (continuing would swallow Restart=)', () => {
  const files: SourceFile[] = [{ path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet --v=2 \\ \nRestart=always\n' }];
  const got = runRule(unitContinuationTrailingSpace, files);
  assert.equal(got.length, 1);
  assert.deepEqual(got[0].range, r(1, 33, 1, 35));
  assert.match(got[0].message, /sets Restart=/);
  assert.deepEqual(got[0].fixes!.map((x) => x.edits), [[{ file: UNIT, range: r(1, 33, 1, 35), newText: '' }]]);
  const fixed = assertFixWorks(unitContinuationTrailingSpace, files, got[0]);
  assert.equal(fixed[0].text, '[Service]\nExecStart=/usr/bin/kubelet --v=2 \nRestart=always\n');
  assert.deepEqual(errors(fixed), []);
});

test('unit-continuation-trailing-space: none for real continuations, "\\\\ ", comments and blanks without a backslash', () => {
  const files: SourceFile[] = [{
    path: UNIT,
    text: '[Service]\n# a comment \\ \nExecStart=/usr/bin/kubelet \\\n  --v=2  \nEnvironment=A=x\\\\ \nRestart=always\n',
  }];
  assert.deepEqual(runRule(unitContinuationTrailingSpace, files), []);
});

// ---------- unit-variable-undefined ----------

test('unit-variable-undefined: a variable nothing sets (main unit, drop-in and every env file read): warning naming it, on the reference', () => {
  const files: SourceFile[] = [
    { path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n' },
    { path: DROPIN, text: '[Service]\nEnvironment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\nEnvironmentFile=/etc/default/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS --v=${LOG_LEVEL} $KUBELET_EXTRA_ARGS $MAINPID\n' },
    { path: DEFAULTS, text: 'KUBELET_EXTRA_ARGS=--max-pods=50\n' },
  ];
  const got = runRule(unitVariableUndefined, files);
  assert.deepEqual(got.map((f) => [f.severity, f.file, f.range]), [
    ['warning', DROPIN, r(4, 27, 4, 51)],
    ['warning', DROPIN, r(4, 77, 4, 89)],
  ]);
  assert.match(got[0].message, /\$KUBELET_KUBECONFIG_ARGS/);
  assert.match(got[0].message, /nor does n\/etc\/default\/kubelet/);
  assert.match(got[1].message, /\$LOG_LEVEL/);
});

test('unit-variable-undefined: left empty on purpose is information, not a warning: kubeadm\'s pre-1.11 drop-in references $KUBELET_EXTRA_ARGS without setting it, and a commented-out Environment= line', () => {
  // kubernetes/release rpm/deb 10-kubeadm.conf of kubeadm 1.9/1.10: $KUBELET_EXTRA_ARGS is the hook for flags of one's own.
  const files: SourceFile[] = [
    { path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet\nRestart=always\n' },
    { path: DROPIN, text: '[Service]\nEnvironment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"\n#Environment="KUBELET_NODE_IP=--node-ip x.x.x.x"\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_CONFIG_ARGS $KUBELET_EXTRA_ARGS $KUBELET_NODE_IP $KUBELET_KUBECONFIG_ARGS\n' },
  ];
  const got = runRule(unitVariableUndefined, files);
  assert.deepEqual(got.map((f) => [f.severity, f.message.split(' ')[0]]), [
    ['information', '$KUBELET_EXTRA_ARGS'],
    ['information', '$KUBELET_NODE_IP'],
    ['warning', '$KUBELET_KUBECONFIG_ARGS'],
  ]);
  assert.match(got[1].message, /commented out \(line 3\)/);
  assert.deepEqual(got[1].related?.[0].span.range, r(2, 0, 2, 48));
});

test('unit-variable-undefined: a typo of a variable the service sets: warning with a fix that renames the reference', () => {
  const files: SourceFile[] = [
    { path: UNIT, text: '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--max-pods=50"\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARG\n' },
  ];
  const got = runRule(unitVariableUndefined, files);
  assert.deepEqual(got.map((f) => [f.severity, f.range]), [['warning', r(2, 27, 2, 45)]]);
  assert.match(got[0].message, /^\$KUBELET_EXTRA_ARG is set nowhere: did you mean \$KUBELET_EXTRA_ARGS\?/);
  assert.deepEqual(got[0].fixes![0].edits, [{ file: UNIT, range: r(2, 28, 2, 45), newText: 'KUBELET_EXTRA_ARGS' }]);
  const fixed = assertFixWorks(unitVariableUndefined, files, got[0]);
  assert.deepEqual(runRule(unitVariableUndefined, fixed), []);
  assert.deepEqual(analyze(fixed).nodes[0].node.argv.map((w) => w.text), ['--max-pods=50']);
});

test('unit-variable-undefined: only part of the unit in the workspace (corpus 017: variables from drop-ins bootstrap.sh writes): information', () => {
  const got = runRule(unitVariableUndefined, [{ path: UNIT, text: '[Service]\nExecStart=/usr/bin/kubelet --v=2 $KUBELET_ARGS\n' }]);
  assert.deepEqual(got.map((f) => [f.severity, f.range]), [['information', r(1, 33, 1, 46)]]);
  assert.match(got[0].message, /no drop-in of this unit is in the workspace/);
});

test('unit-variable-undefined: corpus 035 shape, env files not in the workspace: information, saying where it may come from', () => {
  const text = '[Service]\nEnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\nEnvironmentFile=-/etc/sysconfig/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS\n';
  const got = runRule(unitVariableUndefined, [{ path: DROPIN, text }]);
  assert.deepEqual(got.map((f) => [f.severity, f.range.start.character, f.range.end.character, f.range.start.line]), [
    ['information', 27, 51, 4],
    ['information', 52, 72, 4],
    ['information', 73, 94, 4],
    ['information', 95, 114, 4],
  ]);
  assert.match(got[0].message, /^\$KUBELET_KUBECONFIG_ARGS can only come from a file not in the workspace\..*EnvironmentFile=-\/var\/lib\/kubelet\/kubeadm-flags\.env, -\/etc\/sysconfig\/kubelet may/);
});

test('unit-variable-undefined: none when Environment= and the env files set every variable', () => {
  const files: SourceFile[] = [
    { path: DROPIN, text: '[Service]\nEnvironment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"\nEnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env\nPassEnvironment=FROM_MANAGER\nExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_KUBEADM_ARGS ${FROM_MANAGER} $LANG\n' },
    { path: FLAGS_ENV, text: 'KUBELET_KUBEADM_ARGS="--v=2"\n' },
  ];
  assert.deepEqual(runRule(unitVariableUndefined, files), []);
});

// ---------- unit-environment-shadowed ----------

const SHADOWED = `[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_KUBEADM_ARGS=--cgroup-driver=systemd"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_KUBEADM_ARGS
`;

test('unit-environment-shadowed: corpus 046 shape: the Environment= value loses to kubeadm-flags.env', () => {
  const files: SourceFile[] = [
    { path: DROPIN, text: SHADOWED },
    { path: FLAGS_ENV, text: '# written by kubeadm\nKUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///run/containerd/containerd.sock"\n' },
  ];
  const got = runRule(unitEnvironmentShadowed, files);
  assert.equal(got.length, 1);
  const f = got[0];
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, DROPIN);
  assert.deepEqual(f.range, r(2, 12, 2, 58));
  assert.match(f.message, /^KUBELET_KUBEADM_ARGS never reaches the kubelet: an environment file sets it too\. It is also set in n\/var\/lib\/kubelet\/kubeadm-flags\.env \(line 2\)/);
  assert.deepEqual(f.related?.map((x) => [x.span.file, x.span.range]), [[FLAGS_ENV, r(1, 0, 1, 90)]]);
});

test('unit-environment-shadowed: none when the env file is not in the workspace or does not set the variable', () => {
  assert.deepEqual(runRule(unitEnvironmentShadowed, [{ path: DROPIN, text: SHADOWED }]), []);
  assert.deepEqual(runRule(unitEnvironmentShadowed, [{ path: DROPIN, text: SHADOWED }, { path: FLAGS_ENV, text: 'KUBELET_EXTRA_ARGS=--v=2\n' }]), []);
});

// ---------- envfile-literal-quotes ----------

test('envfile-literal-quotes: ${VAR} keeps the quotes of an unquoted env-file value: warning on the word, quoting what the kubelet receives', () => {
  const files: SourceFile[] = [
    { path: UNIT, text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet --v=2 ${KUBELET_EXTRA_ARGS}\n' },
    { path: DEFAULTS, text: "KUBELET_EXTRA_ARGS=--container-runtime-endpoint='unix:///var/run/crio/crio.sock'\n" },
  ];
  const got = runRule(envfileLiteralQuotes, files);
  assert.equal(got.length, 1);
  const f = got[0];
  assert.equal(f.severity, 'warning');
  assert.equal(f.file, UNIT);
  assert.deepEqual(f.range, r(2, 33, 2, 54));
  assert.ok(f.message.includes(`"--container-runtime-endpoint='unix:///var/run/crio/crio.sock'"`), f.message);
  assert.deepEqual(f.related?.map((x) => [x.span.file, x.span.range]), [[DEFAULTS, r(0, 0, 0, 80)]]);
});

test('envfile-literal-quotes: inner quotes of a double-quoted value through ${VAR} also reach the kubelet', () => {
  const files: SourceFile[] = [
    { path: UNIT, text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet ${KUBELET_EXTRA_ARGS}\n' },
    { path: DEFAULTS, text: `KUBELET_EXTRA_ARGS="--node-labels='a=b'"\n` },
  ];
  const got = runRule(envfileLiteralQuotes, files);
  assert.deepEqual(got.map((f) => [f.file, f.range]), [[UNIT, r(2, 27, 2, 48)]]);
  assert.ok(got[0].message.includes(`"--node-labels='a=b'"`));
});

test('envfile-literal-quotes: none when $VAR is a whole word (EXTRACT_UNQUOTE removes the quotes, corpus 044) nor for a standalone env file', () => {
  const unit = { path: UNIT, text: '[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet $KUBELET_EXTRA_ARGS\n' };
  for (const env of [
    `KUBELET_EXTRA_ARGS="--node-ip=172.18.0.4 --image-credential-provider-config='/etc/kubernetes/credential-providers/config.yml'"\n`,
    "KUBELET_EXTRA_ARGS=--cgroup-driver=systemd --container-runtime-endpoint='unix:///var/run/crio/crio.sock'\n",
  ]) {
    const files: SourceFile[] = [unit, { path: DEFAULTS, text: env }];
    assert.deepEqual(runRule(envfileLiteralQuotes, files), []);
    assert.ok(analyze(files).nodes[0].node.argv.every((w) => !/['"]/.test(w.text)));
    assert.deepEqual(runRule(envfileLiteralQuotes, [{ path: DEFAULTS, text: env }]), []);
  }
});

test('envfile-literal-quotes: a standalone env file whose escaped quote survives the split: warning at the word in the env file', () => {
  // In double quotes `\\` gives `\`; splitting `$A` then turns `\'` into a literal `'`.
  const text = `KUBELET_EXTRA_ARGS="--node-labels=\\\\'a=b\\\\'"\n`;
  const got = runRule(envfileLiteralQuotes, [{ path: DEFAULTS, text }]);
  assert.deepEqual(got.map((f) => [f.file, f.range]), [[DEFAULTS, r(0, 20, 0, 43)]]);
  assert.ok(got[0].message.includes(`"--node-labels='a=b'"`), got[0].message);
});

// ---------- envfile-syntax (parser problem) ----------

test('envfile-syntax: a line without "=" is a warning (systemd drops the line, the file still loads)', () => {
  const a = analyze([{ path: DEFAULTS, text: 'KUBELET_EXTRA_ARGS=--v=2\n--max-pods=10 oops\nJUNK\n' }]);
  const got = a.findings.filter((f) => f.code === 'envfile-syntax');
  assert.deepEqual(got.map((f) => [f.severity, f.range]), [['warning', r(2, 0, 2, 4)]]);
});

test('a variable expanded twice reports a problem of its value once (identical findings are merged), and different findings at one place stay', () => {
  const unit = '[Service]\nEnvironment="X=--cloud-provider=aws"\nExecStart=/usr/bin/kubelet $X $X\n';
  const fs = analyze([{ path: 'etc/systemd/system/kubelet.service', text: unit }]).findings;
  const invalid = fs.filter((f) => f.code === 'flag-value-invalid');
  assert.equal(invalid.length, 1, JSON.stringify(fs));
  assert.equal(invalid[0].range.start.line, 1);
  // The duplicate flag is reported at the same value too, under its own code.
  assert.ok(fs.some((f) => f.code === 'flag-duplicate' && f.range.start.line === 1));
});
