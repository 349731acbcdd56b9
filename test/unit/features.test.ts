/**
 * The editor features as pure functions of an analysis, checked directly (the
 * stdio tests in test/lsp/ check the same answers through the protocol):
 * `check*(fixture, expected)`, where a fixture is files in `//- <path>` form
 * and `$0` marks the cursor (test/helpers/fixture.ts), as in rust-analyzer's
 * and vscode-json-languageservice's feature tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DocumentSymbol } from 'vscode-languageserver-types';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { hover } from '../../server/src/features/hover.ts';
import { documentSymbols, foldingRanges } from '../../server/src/features/symbols.ts';
import { inlayHints } from '../../server/src/features/inlay-hints.ts';
import { codeLenses, SHOW_EFFECTIVE_COMMAND } from '../../server/src/features/code-lens.ts';
import { SHOW_ALLOCATABLE_COMMAND } from '../../server/src/features/protocol.ts';
import { effectiveConfiguration } from '../../server/src/features/effective-config.ts';
import { fixture, pos, range, type Fixture } from '../helpers/fixture.ts';

const UNIT = 'etc/systemd/system/kubelet.service';
const CONFIG = 'var/lib/kubelet/config.yaml';

/** A node: the unit (with a capacity modeline and a flag through $EXTRA) and its config file. */
function node(unitLine6 = 'Environment="EXTRA=--max-pods=50"', config = 'maxPods: 20\nsystemReserved:\n  cpu: 500m\n  memory: 1Gi'): string {
  return `
//- ${UNIT}
# kubelet-lint: capacity cpu=8,memory=32Gi,ephemeral-storage=100Gi,pods=110
[Unit]
Description=kubelet

[Service]
${unitLine6}
ExecStart=/usr/bin/kubelet --config=/${CONFIG} $EXTRA
//- ${CONFIG}
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
${config}
`;
}

function load(text: string): { f: Fixture; a: Analysis } {
  const f = fixture(text);
  return { f, a: analyze(f.files) };
}

// --- hover -------------------------------------------------------------------

/** Hover at `$0`: null, or its range and fragments its markdown must contain, in order. */
function checkHover(text: string, expected: null | { range: string; says: string[] }): void {
  const { f, a } = load(text);
  assert.ok(f.cursor, 'the fixture needs a $0');
  const h = hover(a, f.cursor.path, f.cursor.pos);
  if (expected === null) return assert.equal(h, null);
  assert.ok(h, 'no hover');
  assert.ok(h.range, 'a hover names the range it is about');
  assert.equal(range(h.range), expected.range);
  const md = typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  let from = 0;
  for (const s of expected.says) {
    const at = md.indexOf(s, from);
    assert.ok(at >= 0, `hover lacks ${JSON.stringify(s)} (after offset ${from}):\n${md}`);
    from = at;
  }
}

test('hover on a flag inside an Environment= value: the node allocatable first, then its doc and its effective value from this line', () => {
  checkHover(node('Environment="EXTRA=--max-p$0ods=50"'), {
    range: '5:19-5:32',
    says: ['**Node Allocatable**', '| pods | 50 |', '**`--max-pods`** `int`', 'Deprecated since 1.10', 'Effective value: `50`', '(this one)'],
  });
});

test('hover on a config field the flag overrides: the field doc and who overrides it', () => {
  const text = node().replace('maxPods: 20', 'max$0Pods: 20');
  checkHover(text, { range: '2:0-2:7', says: ['**`maxPods`** `int32`', 'Flag: `--max-pods`', 'Effective value: `50` — overridden by `--max-pods via $EXTRA in etc/systemd/system/kubelet.service line 6`'] });
});

test('hover on a reservation quantity reads the quantity; the allocatable it feeds is on the field, once (not on every line)', () => {
  const { f, a: an } = load(node().replace('cpu: 500m', 'cpu: 50$00m'));
  const md = (h: ReturnType<typeof hover>) => (h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '');
  const onValue = md(hover(an, f.cursor!.path, f.cursor!.pos));
  assert.match(onValue, /Quantity `500m` = 500m/);
  assert.doesNotMatch(onValue, /\*\*Node Allocatable\*\*/);
  const field = node().replace(/^(\w+Reserved):/m, (m) => m.slice(0, 2) + '$0' + m.slice(2));
  checkHover(field, { range: '3:0-3:14', says: ['| cpu | 8 CPU | 0 CPU | 500m CPU | – | **7.5 CPU** |'] });
});

test('hover on ExecStart= is the node allocatable; on a comment line, nothing', () => {
  checkHover(node().replace('ExecStart=', 'Exec$0Start='), { range: '6:0-6:9', says: ['**Node Allocatable** of `etc/systemd/system/kubelet.service`', '**7.5 CPU**', '**30.9 GiB (33181138944 bytes)**'] });
  checkHover(node().replace('# kubelet-lint', '# kube$0let-lint'), null);
});

test('hover in a file no node reads and outside any known file: nothing', () => {
  checkHover(`//- notes.txt\nhello $0world\n`, null);
});

// --- symbols and folding -----------------------------------------------------

function outline(symbols: DocumentSymbol[], indent = ''): string[] {
  return symbols.flatMap((s) => [`${indent}${s.name} ${range(s.selectionRange)}${s.detail ? ` = ${s.detail}` : ''}`, ...outline(s.children ?? [], indent + '  ')]);
}

function checkSymbols(text: string, path: string, expected: string[]): void {
  const { a } = load(text);
  assert.deepEqual(outline(documentSymbols(a, path)), expected);
}

test('symbols of a unit: sections holding their directives, each with its value', () => {
  checkSymbols(node(), UNIT, [
    '[Unit] 1:0-1:6',
    '  Description 2:0-2:11 = kubelet',
    '[Service] 4:0-4:9',
    '  Environment 5:0-5:11 = "EXTRA=--max-pods=50"',
    `  ExecStart 6:0-6:9 = /usr/bin/kubelet --config=/${CONFIG} $EXTRA`,
  ]);
});

test('symbols of a KubeletConfiguration: its top-level fields; of an env file: its assignments', () => {
  checkSymbols(node(), CONFIG, ['apiVersion 0:0-0:10', 'kind 1:0-1:4', 'maxPods 2:0-2:7', 'systemReserved 3:0-3:14']);
  checkSymbols(`//- etc/default/kubelet\nKUBELET_EXTRA_ARGS=--max-pods=10\n# note\nOTHER=1\n`, 'etc/default/kubelet', ['KUBELET_EXTRA_ARGS 0:0-0:18', 'OTHER 2:0-2:5']);
});

test('a long directive value is cut to 80 characters in the outline', () => {
  const long = `Environment="A=${'x'.repeat(100)}"`;
  const { a } = load(node(long));
  const env = documentSymbols(a, UNIT)[1].children![0];
  assert.equal(env.detail!.length, 80);
  assert.ok(env.detail!.endsWith('...'));
});

test('folding ranges: one per unit section that spans more than its header line', () => {
  const { a } = load(node());
  assert.deepEqual(foldingRanges(a, UNIT).map((r) => `${r.startLine}-${r.endLine}`), ['1-2', '4-6']);
  assert.deepEqual(foldingRanges(a, CONFIG), []);
});

// --- inlay hints and code lens -----------------------------------------------

const EVERYTHING = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };
const SUMMARY = 'allocatable: 7.5 CPU · 30.9 GiB · 90 GiB · 50 pods';

function checkInlayHints(text: string, path: string, expected: string[], within = EVERYTHING): void {
  const { a } = load(text);
  assert.deepEqual(inlayHints(a, path, within).map((h) => `${pos(h.position)} ${String(h.label)}`), expected);
}

test('inlay hint: the node allocatable after ExecStart= and after the config kind line', () => {
  checkInlayHints(node(), UNIT, [`6:${`ExecStart=/usr/bin/kubelet --config=/${CONFIG} $EXTRA`.length} ${SUMMARY}`]);
  checkInlayHints(node(), CONFIG, [`1:26 ${SUMMARY}`]);
});

test('inlay hints outside the requested range are left out', () => {
  checkInlayHints(node(), UNIT, [], { start: { line: 0, character: 0 }, end: { line: 5, character: 0 } });
});

test('a reservation change shows in the hint: 1Gi more system-reserved memory, 1 GiB less allocatable', () => {
  checkInlayHints(node(undefined, 'systemReserved:\n  cpu: 500m\n  memory: 2Gi'), CONFIG, ['1:26 allocatable: 7.5 CPU · 29.9 GiB · 90 GiB · 50 pods']);
});

test('code lens: "allocatable" over ExecStart= and the first key, opening the allocatable view (the figures are the hint\'s, not repeated); a second lens opens the effective configuration', () => {
  const { a } = load(node());
  const lenses = codeLenses(a, CONFIG, 'file:///c.yaml').map((l) => `${range(l.range)} ${l.command?.title} ${l.command?.command} ${JSON.stringify(l.command?.arguments)}`);
  assert.deepEqual(lenses, [
    `0:0-0:10 allocatable ${SHOW_ALLOCATABLE_COMMAND} []`,
    `0:0-0:10 effective configuration ${SHOW_EFFECTIVE_COMMAND} ["file:///c.yaml"]`,
  ]);
  assert.deepEqual(codeLenses(a, UNIT, 'u').map((l) => range(l.range)), ['6:0-6:9', '6:0-6:9']);
  assert.deepEqual(codeLenses(load(`//- notes.txt\nhi\n`).a, 'notes.txt', 'u'), []);
});

// --- effective configuration -------------------------------------------------

/** The effective configuration of the node reading `path` must contain these lines, in this order. */
function checkEffective(text: string, path: string, lines: string[]): void {
  const { a } = load(text);
  const yaml = effectiveConfiguration(a, path);
  assert.ok(yaml, `no node reads ${path}`);
  const got = yaml.split('\n');
  let from = 0;
  for (const l of lines) {
    const at = got.indexOf(l, from);
    assert.ok(at >= 0, `the effective configuration lacks (in order) ${JSON.stringify(l)}:\n${yaml}`);
    from = at + 1;
  }
}

test('effective configuration: each value with its provenance, defaults marked, flags without a field listed', () => {
  checkEffective(node(), CONFIG, [
    '# Effective kubelet configuration of node etc/systemd/system/kubelet.service (kubelet 1.37, from the newest version this tool knows, as no file names one)',
    `# Files: ${UNIT}, ${CONFIG}`,
    `# ${SUMMARY}`,
    'apiVersion: kubelet.config.k8s.io/v1beta1',
    'kind: KubeletConfiguration',
    'cgroupDriver: cgroupfs  # the kubelet default',
    'maxPods: 50  # --max-pods via $EXTRA in etc/systemd/system/kubelet.service line 6',
    'systemReserved:  # systemReserved in var/lib/kubelet/config.yaml line 4',
    '  cpu: "500m"',
    '  memory: "1Gi"',
    '# Flags without a config field:',
    `#   --config=/${CONFIG}  (${UNIT} line 7)`,
  ]);
});

test('effective configuration: a flag value for an int or bool field is written as a number or bool, as the config file needs', () => {
  // maxPods: "50" would not decode (the kubelet's int32 field); featureGates values are bools.
  checkEffective(node('Environment="EXTRA=--max-pods=50 --fail-swap-on=false --feature-gates=NodeSwap=true"'), CONFIG, [
    'failSwapOn: false  # --fail-swap-on via $EXTRA in etc/systemd/system/kubelet.service line 6',
    'featureGates:  # --feature-gates via $EXTRA in etc/systemd/system/kubelet.service line 6',
    '  NodeSwap: true',
    'maxPods: 50  # --max-pods via $EXTRA in etc/systemd/system/kubelet.service line 6',
  ]);
});

test('effective configuration of a file no node reads: none', () => {
  assert.equal(effectiveConfiguration(load(`//- notes.txt\nhi\n`).a, 'notes.txt'), undefined);
});

test('the fixture helper: files split at //- lines, $0 removed and located', () => {
  const f = fixture(`\n//- a.conf\nx=1\n//- b/c.env\nA=$02\n\n`);
  assert.deepEqual(f.files, [{ path: 'a.conf', text: 'x=1\n' }, { path: 'b/c.env', text: 'A=2\n' }]);
  assert.deepEqual(f.cursor, { path: 'b/c.env', pos: { line: 0, character: 2 } });
});

test('the kubeReserved hover asks for quotes only where YAML reads a number, as the kubelet does (500m is a string already)', () => {
  const text = `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nkubeReserved:\n  cpu: VALUE\n`;
  const md = (value: string) => {
    const a = analyze([{ path: CONFIG, text: text.replace('VALUE', value) }]);
    const h = hover(a, CONFIG, { line: 2, character: 3 });
    return { findings: a.findings.map((f) => f.code), text: h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '' };
  };
  const ok = md('500m');
  assert.match(ok.text, /A value that YAML reads as a number must be quoted/);
  assert.doesNotMatch(ok.text, /values must be quoted strings/i);
  assert.deepEqual(ok.findings.filter((c) => c === 'config-field-type'), [], '500m needs no quotes');
  assert.deepEqual(md('1').findings.filter((c) => c === 'config-field-type'), ['config-field-type'], 'an unquoted number cannot be decoded into the string map');
  assert.deepEqual(md('"1"').findings.filter((c) => c === 'config-field-type'), []);
});
