/**
 * The field catalog (catalog/fields.ts) against the KubeletConfiguration fields of every Kubernetes
 * minor version from 1.17 to 1.37, as read from kubernetes/kubelet config/v1beta1/types.go at each
 * release tag (test/fixtures/upstream-config-fields.txt says where each list comes from): a field a
 * version has must be in the catalog with `since` at or before it, and a field first seen in a later
 * version must carry that version as `since`, so config-field-unavailable and config-field-unknown
 * judge every target version as that kubelet would.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIELDS, fieldInfo } from '../../server/src/catalog/fields.ts';
import { compareVersions } from '../../server/src/catalog/flags.ts';

/** version -> field paths, rebuilt from the fixture's full first list and per-version deltas. */
function readFixture(): Map<string, { tag: string; paths: Set<string> }> {
  const out = new Map<string, { tag: string; paths: Set<string> }>();
  let current: Set<string> | undefined;
  for (const line of readFileSync(join(__dirname, '../fixtures/upstream-config-fields.txt'), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const head = /^== (\S+) (\S+)$/.exec(line);
    if (head) {
      current = new Set(current ?? []);
      out.set(head[1], { tag: head[2], paths: current });
    } else if (line.startsWith('+')) current!.add(line.slice(1));
    else if (line.startsWith('-')) current!.delete(line.slice(1));
    else current!.add(line);
  }
  return out;
}

const VERSIONS = readFixture();
const FIRST = [...VERSIONS.keys()][0];
const catalogHas = (p: string) => fieldInfo(p) !== undefined || FIELDS.some((f) => f.path.startsWith(p + '.') || f.path.startsWith(p + '[].'));

test('the fixture covers 1.17 through the newest version, one list per minor', () => {
  const vs = [...VERSIONS.keys()];
  assert.equal(vs[0], '1.17');
  for (let i = 1; i < vs.length; i++) assert.equal(compareVersions(vs[i], vs[i - 1]) > 0 && Number(vs[i].split('.')[1]) === Number(vs[i - 1].split('.')[1]) + 1, true, vs[i]);
});

for (const [version, { tag, paths }] of VERSIONS) {
  test(`types.go at ${tag} (Kubernetes ${version}): every field is in the catalog and available at ${version}`, () => {
    const missing = [...paths].filter((p) => !catalogHas(p));
    assert.deepEqual(missing, [], `fields of ${version} the catalog does not know`);
    const late = [...paths].filter((p) => { const s = fieldInfo(p)?.since; return s !== undefined && compareVersions(s, version) > 0; });
    assert.deepEqual(late, [], `fields of ${version} the catalog dates later`);
  });
  if (version === FIRST) continue;
  test(`types.go at ${tag} (Kubernetes ${version}): fields new in ${version} carry since ${version}, and no catalog field dated ${version} is missing there`, () => {
    const prev = [...VERSIONS.values()][[...VERSIONS.keys()].indexOf(version) - 1].paths;
    const added = [...paths].filter((p) => !prev.has(p) && fieldInfo(p));
    assert.deepEqual(added.filter((p) => fieldInfo(p)!.since !== version).map((p) => `${p} since ${fieldInfo(p)!.since}`), []);
    // Catalog fields dated this version whose parent types.go lists (structs of other packages are not expanded there).
    const dated = FIELDS.filter((f) => f.since === version && !/^(logging|tracing|registerWithTaints)[.[]/.test(f.path)).map((f) => f.path);
    assert.deepEqual(dated.filter((p) => !paths.has(p)), [], `catalog fields dated ${version} that types.go at ${tag} does not have`);
  });
}
