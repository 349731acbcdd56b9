/**
 * Every real file of ../shared/corpus: read without an exception, every range
 * inside its file, and exactly the errors and warnings a reviewer confirmed
 * (MANIFEST.tsv says why each listed file is broken for a current kubelet).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { NEWEST_VERSION } from '../../server/src/catalog/flags.ts';
import { assertFindingsInside } from '../helpers/ranges.ts';
import { assertShortPoints } from '../helpers/messages.ts';

const DIR = join(__dirname, '../../../shared/corpus/files');
const present = existsSync(DIR);

/**
 * severity:code of errors and warnings per file prefix, with the newest kubelet as the stated target
 * (--kubernetes-version); every other file has none. No file of these states its version itself: read as they are,
 * what rests on the version is information (see the test after the loop).
 */
const EXPECTED: Record<string, string[]> = {
  // removed flags: the MANIFEST notes --allow-privileged, --network-plugin, --cni-*, --cadvisor-port, --require-kubeconfig ...
  '005': ['error:flag-removed'],
  '006': ['error:flag-removed'],
  '007': ['error:flag-removed'],
  '017': ['error:flag-removed'],
  '023': ['error:flag-removed', 'error:flag-value-invalid'], // sed placeholder MAX_PODS; in-tree --cloud-provider=aws
  '044': ['error:flag-removed'], // --pod-infra-container-image, removed in 1.35
  '049': ['error:flag-removed'],
  '050': ['error:feature-gate-removed', 'error:flag-removed'], // --feature-gates=RunAsGroup=true, gate removed ~1.22
  '054': ['error:flag-removed'], // --pod-infra-container-image
  '061': ['error:flag-removed'],
  '062': ['error:flag-removed'],
  '063': ['error:flag-removed'],
  '064': ['error:flag-removed'],
  '077': ['error:flag-removed'],
  // invalid JSON: dockerd refuses to start
  '040': ['error:runtime-config-invalid'],
  '076': ['error:runtime-config-invalid'],
  // evictionSoft without evictionSoftGracePeriod: "grace period must be specified" (056 is the fixed version)
  '055': ['error:eviction-soft-without-grace'],
  // resolverConfig is not a field (resolvConf is): ignored with a log line
  '057': ['error:feature-gate-removed', 'warning:config-field-unknown'], // and the RuntimeClass gate, removed in 1.25
  // envsubst / sed placeholders: 071's ${U7S_*} and 074's CGROUP_DRIVER are filled by their repositories' scripts; a
  // file no node reads as written gets them as information (node/placeholders.ts)
  // KubeletConfiguration under the kubeadm API group
  '073': ['error:config-kind-invalid'],
  // kubeadm v1beta2 (the placeholders, cgroupDriver: CGROUP_DRIVER among them, are information: see above)
  '074': ['error:config-kubeadm-api-version', 'error:feature-gate-removed'], // PodOverhead gate removed ~1.26
};

const files = present ? readdirSync(DIR).sort() : [];

test('the corpus is there (../shared/corpus/files beside the checkout)', { skip: !present && 'no ../shared/corpus' }, () => {
  assert.equal(files.length, 80);
});

for (const name of files) {
  test(`corpus ${name}: no exception, ranges inside, expected errors only`, () => {
    const text = readFileSync(join(DIR, name), 'utf8');
    const a = analyze([{ path: name, text }], { kubernetesVersion: NEWEST_VERSION });
    assertFindingsInside(new Map([[name, text]]), a.findings);
    assertShortPoints(a.findings);
    const got = [...new Set(a.findings.filter((f) => f.severity === 'error' || f.severity === 'warning').map((f) => `${f.severity}:${f.code}`))].sort();
    assert.deepEqual(got, EXPECTED[name.slice(0, 3)] ?? [], a.findings.map((f) => `${f.code} ${f.range.start.line + 1}: ${f.message}`).join('\n'));
  });
}

test('read with no version given, a finding that rests on the version is information that says for which kubelets it holds', { skip: !present }, () => {
  // 005 names dockershim flags (removed in 1.24), --allow-privileged (1.15) and --cadvisor-port (1.12), and no version: a 1.23 kubelet takes them.
  const name = files.find((f) => f.startsWith('005'))!;
  const a = analyze([{ path: name, text: readFileSync(join(DIR, name), 'utf8') }]);
  const removed = a.findings.filter((f) => f.code === 'flag-removed');
  assert.ok(removed.length >= 4);
  for (const f of removed) {
    assert.equal(f.severity, 'information');
    assert.match(f.message, /^Holds for a kubelet 1\.(12|15|24) or newer; no file here states which version runs\. --/);
  }
  // A mistake at every version stays one: a value no kubelet takes.
  const broken = analyze([{ path: 'kubelet.service', text: '[Service]\nExecStart=/usr/bin/kubelet --max-pods=many\n' }]);
  assert.deepEqual(broken.findings.filter((f) => f.severity === 'error').map((f) => f.code), ['flag-value-invalid']);
});

test('the removed flags of 044 and 054 are fine for the kubelet of their time (1.30)', { skip: !present }, () => {
  for (const prefix of ['044', '054']) {
    const name = files.find((f) => f.startsWith(prefix))!;
    const a = analyze([{ path: name, text: readFileSync(join(DIR, name), 'utf8') }], { kubernetesVersion: '1.30' });
    assert.deepEqual(a.findings.filter((f) => f.severity === 'error'), []);
  }
});

test('the whole corpus as one workspace: no exception, every range inside its file', { skip: !present }, () => {
  const texts = new Map(files.map((n) => [n, readFileSync(join(DIR, n), 'utf8')]));
  const a = analyze([...texts].map(([path, text]) => ({ path, text })), {
    capacity: { cpu: 4000n, memory: 16n * 2n ** 30n, 'ephemeral-storage': 100n * 2n ** 30n, hugepages: new Map() },
  });
  assertFindingsInside(texts, a.findings);
  assert.ok(a.nodes.length >= 40, `only ${a.nodes.length} nodes`);
});
