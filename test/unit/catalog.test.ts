import { HANG_MS } from '../helpers/hang.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FLAGS, flagInfo, isBoolFlag, acceptsBareFlag, flagStatusAt, compareVersions, NEWEST_VERSION, type FlagInfo,
} from '../../server/src/catalog/flags.ts';
import { parseKubernetesVersion } from '../../server/src/catalog/version.ts';
import { FIELDS, fieldInfo, topLevelFields } from '../../server/src/catalog/fields.ts';
import {
  DEFAULT_EVICTION_HARD, defaultEvictionHard, ENFORCE_VALUES, RESERVABLE_RESOURCES, EVICTION_SIGNALS,
  evictionSignalInfo, KUBELET_DEFAULTS,
} from '../../server/src/catalog/defaults.ts';

// The package is CommonJS, so `import.meta` does not typecheck here; `__dirname` is this file's folder
// (test/unit), falling back to the repo-root relative path if the file ever runs as an ES module.
const HERE = typeof __dirname === 'string' ? __dirname : join(process.cwd(), 'test', 'unit');
// The flag and field fact tables (copied from shared/reference, then kept with the catalog: 1.36/1.37 rows and
// changes carry their upstream source in the notes column), committed so this check runs in every checkout.
const REF_DIR = join(HERE, '../../server/src/catalog/facts/');
const haveRef = existsSync(REF_DIR);

type Row = Record<string, string>;
function readTsv(name: string): Row[] {
  const lines = readFileSync(REF_DIR + name, 'utf8').replace(/\n+$/, '').split('\n');
  const header = (lines.shift() ?? '').split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  });
}
/** '-' and '?' mean "none/unknown" in the tables. */
const opt = (v: string | undefined): string | undefined => (v === undefined || v === '-' || v === '?' || v === '' ? undefined : v);

/** Rows the catalog may hold beyond the TSVs. Document every entry here. */
const EXTRA_FLAGS: readonly string[] = [];
/** Fields the catalog may hold beyond the TSV (none: memoryReservationPolicy and defaultPodSysctls are rows now). */
const EXTRA_FIELDS: readonly string[] = [];

/**
 * TSV cells the catalog deliberately corrects, with the evidence. Applied to the
 * rows before comparing, so every other cell must still match exactly.
 * - since of the fields that reached the v1beta1 file only after their flag (the TSV gives the flag's
 *   release): kubernetes/kubelet config/v1beta1/types.go lacks them at tag v0.18.0 (1.18) and has them
 *   at v0.19.0; showHiddenMetricsForVersion is absent at v0.17.0 and present at v0.18.0
 *   (test/fixtures/upstream-config-fields.txt, checked by upstream-fields.test.ts).
 * - eviction-hard / evictionHard default: imagefs.inodesFree joined the Linux
 *   defaults through kubernetes/kubernetes PR #121834 (merged Jan 2024, cherry-picks
 *   to 1.27/1.28 rejected in #122666/#122667), i.e. in 1.30, not 1.33.
 */
const CORRECTIONS: { flags: Record<string, Row>; fields: Record<string, Row> } = {
  flags: {
    'eviction-hard': {
      default: 'memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<15%,imagefs.inodesFree<5% (Linux; imagefs.inodesFree since 1.30)',
    },
  },
  fields: {
    showHiddenMetricsForVersion: { since: '1.18' },
    enableServer: { since: '1.19' },
    runOnce: { since: '1.19' },
    nodeStatusMaxImages: { since: '1.19' },
    volumePluginDir: { since: '1.19' },
    providerID: { since: '1.19' },
    logging: { since: '1.19' },
    enableSystemLogHandler: { since: '1.19' },
    evictionHard: {
      default: 'Linux: memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5%, imagefs.available 15%, imagefs.inodesFree 5% (last since 1.30)',
    },
  },
};
function corrected(rows: Row[], key: string, fixes: Record<string, Row>): Row[] {
  return rows.map((r) => ({ ...r, ...(fixes[r[key] ?? ''] ?? {}) }));
}

const MAX_DESC = 600;

test('flags agree with kubelet-flags.tsv row by row', { skip: !haveRef && 'shared/reference absent' }, () => {
  const rows = corrected(readTsv('kubelet-flags.tsv'), 'flag', CORRECTIONS.flags);
  assert.ok(rows.length > 200, 'flags TSV unexpectedly short');
  for (const r of rows) {
    const name = r.flag ?? '';
    const f = flagInfo(name);
    assert.ok(f, `missing flag ${name}`);
    assert.equal(f.field, opt(r.config_field), `${name}: field`);
    assert.equal(f.syntaxText, r.value_syntax, `${name}: syntaxText`);
    assert.equal(f.default, opt(r.default), `${name}: default`);
    assert.equal(f.status, r.status, `${name}: status`);
    assert.equal(f.deprecatedIn, opt(r.deprecated_in), `${name}: deprecatedIn`);
    const removed = opt(r.removed_in);
    assert.equal(f.removedIn, removed?.replace(/^~/, ''), `${name}: removedIn`);
    assert.equal(f.approximate === true, removed?.startsWith('~') === true, `${name}: approximate`);
    assert.equal(f.replacement, opt(r.replacement), `${name}: replacement`);
  }
  const names = new Set(rows.map((r) => r.flag));
  const extra = FLAGS.filter((f) => !names.has(f.name) && !EXTRA_FLAGS.includes(f.name)).map((f) => f.name);
  assert.deepEqual(extra, [], 'flags not in the TSV');
});

test('fields agree with kubelet-config-fields.tsv row by row', { skip: !haveRef && 'shared/reference absent' }, () => {
  const rows = corrected(readTsv('kubelet-config-fields.tsv'), 'field', CORRECTIONS.fields);
  assert.ok(rows.length > 100, 'fields TSV unexpectedly short');
  for (const r of rows) {
    const path = r.field ?? '';
    const f = fieldInfo(path);
    assert.ok(f, `missing field ${path}`);
    assert.equal(f.goType, r.go_type, `${path}: goType`);
    assert.equal(f.default, opt(r.default), `${path}: default`);
    assert.equal(f.since, opt(r.since), `${path}: since`);
    assert.equal(f.flag, opt(r.flag), `${path}: flag`);
  }
  const paths = new Set(rows.map((r) => r.field));
  const extra = FIELDS.filter((f) => !paths.has(f.path) && !EXTRA_FIELDS.includes(f.path)).map((f) => f.path);
  assert.deepEqual(extra, [], 'fields not in the TSV');
});

test('descriptions are written for the product, not copied from the TSV', { skip: !haveRef && 'shared/reference absent' }, () => {
  const notes = new Map(readTsv('kubelet-config-fields.tsv').map((r) => [r.field, (r.notes ?? '').trim()]));
  for (const f of FIELDS) {
    const note = notes.get(f.path);
    if (note) assert.notEqual(f.description.trim(), note, `${f.path}: description equals the TSV notes`);
  }
});

test('every description is one non-empty paragraph of bounded length', () => {
  const items: Array<[string, string]> = [
    ...FLAGS.map((f): [string, string] => [`flag ${f.name}`, f.description]),
    ...FIELDS.map((f): [string, string] => [`field ${f.path}`, f.description]),
  ];
  for (const [what, d] of items) {
    assert.ok(d.trim().length >= 20, `${what}: description too short`);
    assert.ok(d.length <= MAX_DESC, `${what}: description longer than ${MAX_DESC} (${d.length})`);
    assert.ok(!d.includes('\n'), `${what}: description must be one paragraph`);
  }
});

test('names are unique and lookups are Map based', () => {
  assert.equal(new Set(FLAGS.map((f) => f.name)).size, FLAGS.length, 'duplicate flag names');
  assert.equal(new Set(FIELDS.map((f) => f.path)).size, FIELDS.length, 'duplicate field paths');
  for (const f of FLAGS) assert.equal(flagInfo(f.name), f);
  for (const f of FIELDS) assert.equal(fieldInfo(f.path), f);
  assert.equal(flagInfo('--max-pods'), flagInfo('max-pods'));
  assert.equal(flagInfo('no-such-flag'), undefined);
  assert.equal(fieldInfo('noSuchField'), undefined);
  // O(1): a burst of lookups must not scale with the table size (loose timing bound).
  const t0 = performance.now();
  for (let i = 0; i < 200_000; i++) { flagInfo('volume-stats-agg-period'); fieldInfo('userNamespaces.idsPerPod'); }
  assert.ok(performance.now() - t0 < HANG_MS, 'lookups hang');
});

test('flag names carry no dashes and field links are consistent', () => {
  for (const f of FLAGS) {
    assert.ok(!f.name.startsWith('-'), f.name);
    if (f.field !== undefined && f.status !== 'removed') assert.ok(fieldInfo(f.field), `${f.name}: unknown field ${f.field}`);
  }
  for (const f of FIELDS) if (f.flag !== undefined) assert.ok(flagInfo(f.flag), `${f.path}: unknown flag ${f.flag}`);
});

test('bool flags', () => {
  for (const n of ['fail-swap-on', 'cgroups-per-qos', 'rotate-certificates', 'anonymous-auth', 'seccomp-default', 'logtostderr']) {
    assert.equal(isBoolFlag(n), true, n);
  }
  for (const n of ['kube-reserved', 'max-pods', 'version', 'v', 'no-such-flag']) assert.equal(isBoolFlag(n), false, n);
  assert.equal(acceptsBareFlag('version'), true);
  assert.equal(acceptsBareFlag('kube-reserved'), false);
  for (const f of FLAGS) assert.equal(f.syntax.type === 'bool', f.syntaxText === 'bool', `${f.name}: bool typing`);
});

test('map-valued flags have the right syntax', () => {
  const want: Record<string, [string, string]> = {
    'kube-reserved': ['key=value', 'quantity'],
    'system-reserved': ['key=value', 'quantity'],
    'eviction-hard': ['signal<value', 'quantity-or-percent'],
    'eviction-soft': ['signal<value', 'quantity-or-percent'],
    'eviction-soft-grace-period': ['key=value', 'duration'],
    'eviction-minimum-reclaim': ['key=value', 'quantity-or-percent'],
    'qos-reserved': ['key=value', 'percent'],
    'feature-gates': ['key=value', 'bool'],
    'node-labels': ['key=value', 'string'],
    'cpu-manager-policy-options': ['key=value', 'string'],
    'topology-manager-policy-options': ['key=value', 'string'],
  };
  for (const [name, [form, value]] of Object.entries(want)) {
    const s = flagInfo(name)?.syntax;
    assert.ok(s && s.type === 'map', `${name} is a map`);
    assert.equal(s.form, form, `${name}: form`);
    assert.equal(s.value, value, `${name}: value`);
  }
  const ena = flagInfo('enforce-node-allocatable')?.syntax;
  assert.ok(ena && ena.type === 'list');
  assert.deepEqual([...(ena.values ?? [])].sort(), [...ENFORCE_VALUES].sort());
  const cg = flagInfo('cgroup-driver')?.syntax;
  assert.deepEqual(cg && cg.type === 'enum' ? cg.values : [], ['cgroupfs', 'systemd']);
});

test('versions', () => {
  assert.ok(compareVersions('1.9', '1.10') < 0);
  assert.ok(compareVersions('1.10', '1.9') > 0);
  assert.equal(compareVersions('1.24', 'v1.24.0'), 0);
  assert.ok(compareVersions('1.24', 'v1.24.3') < 0);
  assert.ok(compareVersions('1.31.2', '1.31.10') < 0);
  const np = flagInfo('network-plugin') as FlagInfo;
  assert.ok(['active', 'deprecated'].includes(flagStatusAt(np, '1.23')));
  assert.equal(flagStatusAt(np, '1.20'), 'active');
  assert.equal(flagStatusAt(np, '1.24'), 'removed');
  assert.equal(flagStatusAt(np, 'v1.24.3'), 'removed');
  assert.equal(flagStatusAt(np, '1.23.17'), 'deprecated');
  assert.equal(flagStatusAt(np, '1.35'), 'removed');
  assert.equal(flagStatusAt(flagInfo('kube-reserved') as FlagInfo, '1.9'), 'active');
  assert.equal(flagStatusAt(flagInfo('kube-reserved') as FlagInfo, '1.31'), 'deprecated');
  assert.equal(flagStatusAt(flagInfo('kubeconfig') as FlagInfo, '1.31'), 'active');
  assert.equal(flagStatusAt(flagInfo('pod-infra-container-image') as FlagInfo, '1.34'), 'deprecated');
  assert.equal(flagStatusAt(flagInfo('pod-infra-container-image') as FlagInfo, '1.35'), 'removed');
  for (const f of FLAGS) {
    assert.equal(flagStatusAt(f, NEWEST_VERSION), f.status, `${f.name} at ${NEWEST_VERSION}`);
    for (const v of [f.deprecatedIn, f.removedIn]) {
      if (v !== undefined) assert.ok(compareVersions(v, NEWEST_VERSION) <= 0, `${f.name}: ${v} newer than NEWEST_VERSION`);
    }
  }
  for (const f of FIELDS) if (f.since) assert.ok(compareVersions(f.since, NEWEST_VERSION) <= 0, f.path);
});

test('fields: kinds, enums and top level', () => {
  const top = topLevelFields();
  assert.equal(topLevelFields(), top, 'topLevelFields is precomputed');
  assert.ok(top.every((f) => !f.path.includes('.') && !f.path.includes('[')));
  for (const p of ['kubeReserved', 'evictionHard', 'cgroupDriver', 'authentication', 'apiVersion']) {
    assert.ok(top.some((f) => f.path === p), p);
  }
  assert.equal(fieldInfo('kubeReserved')?.valueKind, 'map-string');
  assert.equal(fieldInfo('featureGates')?.valueKind, 'map-bool');
  assert.equal(fieldInfo('maxPods')?.valueKind, 'int');
  assert.equal(fieldInfo('failSwapOn')?.valueKind, 'bool');
  assert.equal(fieldInfo('evictionPressureTransitionPeriod')?.valueKind, 'duration');
  assert.equal(fieldInfo('containerLogMaxSize')?.valueKind, 'quantity');
  assert.equal(fieldInfo('enforceNodeAllocatable')?.valueKind, 'list-string');
  assert.equal(fieldInfo('reservedMemory')?.valueKind, 'list-object');
  assert.equal(fieldInfo('authentication')?.valueKind, 'object');
  assert.deepEqual(fieldInfo('cgroupDriver')?.enumValues, ['cgroupfs', 'systemd']);
  assert.deepEqual(fieldInfo('memoryManagerPolicy')?.enumValues, ['None', 'Static']);
  assert.deepEqual([...(fieldInfo('enforceNodeAllocatable')?.enumValues ?? [])].sort(), [...ENFORCE_VALUES].sort());
  assert.deepEqual(fieldInfo('topologyManagerPolicy')?.enumValues, ['none', 'best-effort', 'restricted', 'single-numa-node']);
});

test('defaults', () => {
  assert.deepEqual({ ...DEFAULT_EVICTION_HARD }, {
    'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%',
    'imagefs.available': '15%', 'imagefs.inodesFree': '5%',
  });
  assert.equal('imagefs.inodesFree' in defaultEvictionHard('1.29'), false);
  assert.equal(defaultEvictionHard('1.30')['imagefs.inodesFree'], '5%');
  assert.deepEqual(defaultEvictionHard(), { ...DEFAULT_EVICTION_HARD });
  assert.deepEqual([...KUBELET_DEFAULTS.enforceNodeAllocatable], ['pods']);
  assert.equal(KUBELET_DEFAULTS.cgroupDriver, 'cgroupfs');
  assert.equal(KUBELET_DEFAULTS.cgroupsPerQOS, true);
  assert.equal(KUBELET_DEFAULTS.maxPods, 110);
  assert.equal(KUBELET_DEFAULTS.podsPerCore, 0);
  assert.deepEqual([...RESERVABLE_RESOURCES], ['cpu', 'memory', 'ephemeral-storage', 'pid']);
  for (const s of Object.keys(DEFAULT_EVICTION_HARD)) assert.ok(evictionSignalInfo(s), s);
  assert.equal(evictionSignalInfo('memory.available')?.reducesAllocatable, 'memory');
  assert.equal(evictionSignalInfo('nodefs.available')?.reducesAllocatable, 'ephemeral-storage');
  assert.equal(EVICTION_SIGNALS.filter((s) => s.reducesAllocatable).length, 2);
  assert.equal(evictionSignalInfo('swap.available'), undefined);
  // catalog defaults agree with the defaults module
  assert.equal(fieldInfo('cgroupDriver')?.default, KUBELET_DEFAULTS.cgroupDriver);
  assert.equal(fieldInfo('maxPods')?.default, String(KUBELET_DEFAULTS.maxPods));
  assert.equal(fieldInfo('podsPerCore')?.default, String(KUBELET_DEFAULTS.podsPerCore));
});

test('parseKubernetesVersion: the one reading of a target version (CLI, settings, modeline)', () => {
  for (const [text, want] of [['1.31', '1.31'], ['v1.31', '1.31'], ['1.31.4', '1.31'], [' 1.9 ', '1.9'], ['v1.30.0', '1.30']] as const) assert.equal(parseKubernetesVersion(text), want, text);
  for (const text of ['2.0', '1', 'latest', '1.31.x', 'vv1.31', '', '1.31.4.1']) assert.equal(parseKubernetesVersion(text), undefined, text);
});
