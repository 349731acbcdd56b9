/**
 * Issue #18, the smaller findings: integer fields checked against their Go type's range (types.go: maxPods is an
 * int32; encoding/json and pflag's strconv.ParseInt(s, 0, 32) refuse a larger value), a capacity past int64
 * reported instead of wrapping to "0 CPU", flag-derived booleans and integers typed in the effective configuration,
 * removed flags without a recorded release, and "an integer".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { effectiveConfiguration } from '../../server/src/features/effective-config.ts';
import { parseCapacity } from '../../server/src/node/capacity.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';
import { MAX_KUBELET_ARGS } from '../../server/src/node/build.ts';
import { diagnosticsFor } from '../../server/src/features/diagnostics.ts';

const CONFIG = 'n/var/lib/kubelet/config.yaml';
const ENV = 'n/etc/default/kubelet';
const messages = (path: string, text: string, code: string) =>
  analyze([{ path, text }]).findings.filter((f) => f.code === code).map((f) => f.message);

test('maxPods past int32 in the config file is a config-field-type error (encoding/json: cannot unmarshal ... of type int32)', () => {
  assert.deepEqual(messages(CONFIG, CONFIG_HEAD + 'maxPods: 3000000000\n', 'config-field-type').map((m) => m.split(';')[0]), [
    'maxPods must be an int32 (-2147483648 to 2147483647), not 3000000000',
  ]);
  assert.deepEqual(messages(CONFIG, CONFIG_HEAD + 'maxPods: 2147483647\n', 'config-field-type'), []);
});

test('--max-pods past int32 is a flag-value-invalid error (strconv.ParseInt: value out of range); 0x7fffffff is in range', () => {
  assert.match(messages(ENV, 'KUBELET_EXTRA_ARGS=--max-pods=3000000000\n', 'flag-value-invalid')[0] ?? '', /value out of range \(an int32/);
  assert.deepEqual(messages(ENV, 'KUBELET_EXTRA_ARGS=--max-pods=0x7fffffff\n', 'flag-value-invalid'), []);
});

test('"must be an integer", not "a integer"', () => {
  const [m] = messages(CONFIG, CONFIG_HEAD + 'maxPods: "110"\n', 'config-field-type');
  assert.match(m ?? '', /^maxPods must be an integer, not a string/);
});

test('a capacity past int64 millicores is refused with the limit, not shown as 0 CPU', () => {
  const r = parseCapacity('cpu=9e18,memory=64Gi');
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /^cpu: 9e18 is more than the kubelet can count/);
  const a = analyze([{ path: CONFIG, text: '# kubelet-lint: capacity cpu=99999999999999999999999\n' + CONFIG_HEAD }]);
  assert.ok(a.findings.some((f) => f.code === 'modeline-invalid' && /more than the kubelet can count/.test(f.message)));
  assert.equal(parseCapacity('cpu=16,memory=64Gi').ok, true);
});

test('the effective configuration types flag-derived booleans and integers: failSwapOn: false, maxPods: 50', () => {
  const files = [
    { path: 'n/etc/systemd/system/kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml --fail-swap-on=false --max-pods=50 --node-ip=10.0.0.1\n' },
    { path: CONFIG, text: CONFIG_HEAD },
  ];
  const text = effectiveConfiguration(analyze(files), CONFIG) ?? '';
  assert.match(text, /^failSwapOn: false(\s|$)/m);
  assert.match(text, /^maxPods: 50(\s|$)/m);
  assert.doesNotMatch(text, /failSwapOn: "false"|maxPods: "50"/);
});

test('a removed flag without a recorded release does not say "removed in Kubernetes undefined"', () => {
  // enable-tracing is in no release's flag set (its PR, kubernetes#31583, was never merged): its removal has no release.
  const [m] = messages(ENV, 'KUBELET_EXTRA_ARGS=--enable-tracing\n', 'flag-removed');
  assert.match(m ?? '', /^--enable-tracing was removed /);
  assert.doesNotMatch(m ?? '', /undefined/);
});

// Issue #18: a legal 7.5 MB env file with 1.3 million flags took 10.6 s and 2 GB per analysis in the server. The
// analysis reads at most MAX_KUBELET_ARGS arguments per node and says where it stopped (one finding).
test('a 7.8 MB env file of 1,300,000 flags: the first 10,000 are checked, one finding marks where the rest begin', () => {
  const n = 1_300_000;
  const text = `KUBELET_EXTRA_ARGS=${'--v=2 '.repeat(n - 1)}--max-pods=7\n`;
  const a = analyze([{ path: ENV, text }]);
  const bound = a.findings.filter((f) => f.code === 'kubelet-args-not-checked');
  assert.equal(bound.length, 1);
  assert.equal(bound[0]!.severity, 'information');
  const at = 'KUBELET_EXTRA_ARGS='.length + 6 * MAX_KUBELET_ARGS;
  assert.deepEqual(bound[0]!.range, { start: { line: 0, character: at }, end: { line: 0, character: at + 5 } });
  assert.match(bound[0]!.message, /^Only the first 10,000 kubelet arguments are checked; this one and those after it are not\./);
  // the server shows 999 of the 10,000 findings, the most severe first: the bound is always among them
  const shown = diagnosticsFor(a, ENV, (p) => p);
  assert.ok(shown.some((d) => d.code === 'kubelet-args-not-checked'), 'the bound is not among the diagnostics shown');
  // the work is bounded: one flag-duplicate per repeated flag read, none for the others
  assert.equal(a.findings.filter((f) => f.code === 'flag-duplicate').length, MAX_KUBELET_ARGS - 1);
  const node = a.nodes[0]!.node;
  assert.equal(node.flags.length, MAX_KUBELET_ARGS);
  // the flag past the bound is not read: maxPods is not set by a flag
  assert.notEqual(node.settings.get('maxPods')?.from.how, 'flag');
});

test('the same bound for an ExecStart= line: 10,001 arguments give the finding, 10,000 do not', () => {
  const unit = (k: number) => `[Service]\nExecStart=/usr/bin/kubelet${' --v=2'.repeat(k)}\n`;
  const codes = (k: number) => analyze([{ path: 'n/etc/systemd/system/kubelet.service', text: unit(k) }]).findings.filter((f) => f.code === 'kubelet-args-not-checked').length;
  assert.equal(codes(MAX_KUBELET_ARGS), 0);
  assert.equal(codes(MAX_KUBELET_ARGS + 1), 1);
});
