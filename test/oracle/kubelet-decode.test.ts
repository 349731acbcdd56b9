/**
 * Differential test against the kubelet's own decoding code (test/oracle/kubelet-oracle: k8s.io/kubelet v0.37.2's
 * v1beta1 types through apimachinery's codec, strict first and lenient after a strict-only error, as
 * DecodeKubeletConfiguration in pkg/kubelet/kubeletconfig/util/codec/codec.go does): on generated files covering
 * every field type (test/oracle/kubelet-docs.ts), the engine reports a decode error exactly where the kubelet cannot
 * decode the file. The long run is in `npm run fuzz` (test/fuzz/run-long.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { missing, REQUIRED, runKubeletOracle } from './oracles.ts';
import { compareDecodes, kubeletDoc, kubeletStream, typeTreeDiffs, type GoTree } from './kubelet-docs.ts';
import { analyze } from '../../server/src/engine.ts';
import { kubeletConfigType } from '../../server/src/catalog/go-types.ts';

const notReady = missing('kubelet');
const skip = notReady && !REQUIRED ? notReady : false;

/** Files per run of `npm test` (one oracle process decodes them all). */
const CASES = 3000;

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

test('the kubelet oracle decodes like the kubelet: type errors fail, unknown and duplicate fields are forgiven', { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  const [nullDuration, nestedBool, unknown, dup, ok] = runKubeletOracle('decode', [
    `${HEAD}syncFrequency:\n`,
    `${HEAD}authentication: {anonymous: {enabled: "false"}}\n`,
    `${HEAD}bogus: 1\nmaxPods: 3\n`,
    `${HEAD}maxPods: 3\nmaxPods: 4\n`,
    `${HEAD}logging: {verbosity: 4, flushFrequency: 5000000000}\n`,
  ]);
  assert.match(nullDuration!.err ?? '', /invalid duration ""/);
  assert.match(nestedBool!.err ?? '', /authentication\.anonymous\.enabled of type bool/);
  assert.equal(unknown!.ok, true);
  assert.match(unknown!.lenient ?? '', /unknown field "bogus"/);
  assert.equal((dup!.json as { maxPods: number }).maxPods, 4);
  assert.match(dup!.lenient ?? '', /key "maxPods" already set in map/);
  assert.equal(ok!.ok, true);
});

test('the catalog knows every field of KubeletConfiguration with its Go type (reflection over k8s.io/kubelet v1beta1)', { skip }, () => {
  const [types] = runKubeletOracle('types', []);
  assert.deepEqual(typeTreeDiffs(types!.json as GoTree, kubeletConfigType()), []);
});

test(`the engine finds a decode error in exactly the ${CASES} generated KubeletConfiguration files the kubelet cannot decode (seed 1)`, { skip }, () => {
  const docs = fc.sample(kubeletDoc, { numRuns: CASES, seed: 1 });
  const verdicts = runKubeletOracle('decode', docs);
  // the generator must give both outcomes in good numbers, or the comparison says little
  const decoded = verdicts.filter((v) => v.ok).length;
  assert.ok(decoded > CASES / 4 && decoded < (CASES * 3) / 4, `${decoded} of ${CASES} decode`);
  const diffs = compareDecodes(docs, () => verdicts);
  const shown = diffs.slice(0, 5).map((d) => `${d.doc}\n=> ${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} files judged differently:\n${shown}`);
});

test(`files of several KubeletConfiguration documents: the engine finds a decode error exactly where the kubelet cannot decode the file, on ${CASES / 3} generated files (seed 2)`, { skip }, () => {
  // The kubelet decodes the whole file as one object: its first document (go-yaml reads one and stops). What the
  // later documents hold, even a wrong apiVersion or a type error, never stops it.
  const docs = fc.sample(kubeletStream, { numRuns: CASES / 3, seed: 2 });
  const verdicts = runKubeletOracle('decode', docs);
  const decoded = verdicts.filter((v) => v.ok).length;
  assert.ok(decoded > CASES / 12 && decoded < CASES / 4, `${decoded} of ${CASES / 3} decode`);
  const diffs = compareDecodes(docs, () => verdicts);
  const shown = diffs.slice(0, 5).map((d) => `${d.doc}\n=> ${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES / 3} files judged differently:\n${shown}`);
});

test('the node takes maxPods from the first document, as the kubelet does (50, not 70 or 90)', { skip }, () => {
  const doc = (n: number, extra = '') => `${HEAD}maxPods: ${n}\n${extra}`;
  const files = [`${doc(50)}---\n${doc(70)}`, `${doc(50)}---\n${doc(70, 'maxPods: 80\n')}---\n${doc(90)}`, `${doc(50)}---\napiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\nmaxPods: x\n`];
  const verdicts = runKubeletOracle('decode', files);
  files.forEach((text, i) => {
    const go = verdicts[i]!;
    assert.equal(go.ok, true, go.err);
    const a = analyze([{ path: 'kubelet-config.yaml', text }]);
    const s = a.nodes[0]!.node.settings.get('maxPods');
    assert.equal(s?.kind === 'scalar' ? s.value : undefined, (go.json as { maxPods: number }).maxPods);
    assert.ok(!a.findings.some((f) => f.severity === 'error'), a.findings.map((f) => f.message).join('\n'));
  });
});
