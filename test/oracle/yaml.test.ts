/**
 * Differential test against sigs.k8s.io/yaml (Debian's golang-k8s-sigs-yaml-dev, the decoder the kubelet reads its
 * config file with): generated KubeletConfiguration-like documents (test/oracle/yaml-docs.ts) must give the JSON
 * YAMLToJSON gives, or fail where it fails; YAMLToJSONStrict must fail exactly where the engine finds a duplicate
 * key. The long run is in `npm run fuzz` (test/fuzz/run-long.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { missing, REQUIRED, runYamlOracle } from './oracles.ts';
import { compareYaml, yamlDoc } from './yaml-docs.ts';

const notReady = missing('yaml');
const skip = notReady && !REQUIRED ? notReady : false;

/** Documents per run of `npm test` (one oracle process reads them all). */
const CASES = 1500;

test('the YAML oracle answers like sigs.k8s.io/yaml: JSON, errors, strict duplicate keys', { skip }, () => {
  assert.equal(notReady, undefined, notReady);
  const [ok, dup, bad] = runYamlOracle(['a: yes\nb: 0x10\n', 'a: 1\na: 2\n', 'a: .inf\n']);
  assert.deepEqual(ok, { json: '{"a":true,"b":16}' });
  assert.equal(dup!.json, '{"a":2}');
  assert.match(dup!.strictErr ?? '', /already set in map/);
  assert.match(bad!.err ?? '', /unsupported value/);
});

test(`the engine reads ${CASES} generated KubeletConfiguration documents as sigs.k8s.io/yaml does (seed 1)`, { skip }, () => {
  const docs = fc.sample(yamlDoc, { numRuns: CASES, seed: 1 });
  const diffs = compareYaml(docs, runYamlOracle);
  const shown = diffs.slice(0, 5).map((d) => `${JSON.stringify(d.doc)}\n${d.diff}`).join('\n\n');
  assert.equal(diffs.length, 0, `${diffs.length} of ${CASES} documents read differently:\n${shown}`);
});

// Issue #18: a lone "\r" is a YAML line break; go-yaml reads a CR-only file as the same file with "\n" (the `yaml`
// library reported syntax errors: the engine turns each lone "\r" into "\n" first, which keeps every offset).
test('sigs.k8s.io/yaml reads a CR-only document as the same document with LF; the engine reads CR-only and LF-CR documents as it does', { skip }, () => {
  const doc = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPods: 10\nnote: "a\n  b"\nblock: |\n  l1\n  l2\nlist:\n- x\n';
  const docs = [doc, doc.replaceAll('\n', '\r'), doc.replaceAll('\n', '\n\r')];
  const verdicts = runYamlOracle(docs);
  assert.equal(verdicts[0]!.err, undefined);
  assert.deepEqual(verdicts[1], verdicts[0]);
  // ("\n\r" is two line breaks in YAML, unlike systemd: the block scalar gets empty lines; the engine must agree)
  assert.notDeepEqual(verdicts[2], verdicts[0]);
  assert.deepEqual(compareYaml(docs, () => verdicts), []);
});
