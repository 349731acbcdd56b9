/**
 * Words, flags, assignments and one-line directives work out their positions when first read (bench: unit-large,
 * scaling). These tests pin that the positions are the ones the eager code gave, that reading one does not
 * disturb another, and that the model still serializes with its positions (toJSON), e.g. in a debugging dump.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseUnit } from '../../server/src/parse/systemd/unit.ts';
import { parseEnvFile } from '../../server/src/parse/systemd/envfile.ts';
import { kubeadmNode, onlyNode, run } from '../helpers/nodes.ts';

const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

test('a one-line directive: key span, value map and whole-line span from its offsets; UnitDirective.continued tells it from a continued one', () => {
  const u = parseUnit('u.service', '[Service]\n  Restart = always  \nExecStart=/usr/bin/kubelet \\\n  --v=2\nExecStartPre=/bin/true \\\n');
  const [restart, exec, pre] = u.directives;
  assert.deepEqual(restart.keySpan.range, range(1, 2, 1, 9));
  assert.deepEqual(restart.valueMap.range(0, restart.value.length), range(1, 12, 1, 18));
  assert.deepEqual(restart.span.range, range(1, 2, 1, 20));
  assert.equal(restart.continued, false);
  assert.equal(exec.continued, true);
  // A `\` on the last line continues onto nothing: one physical line.
  assert.equal(pre.continued, false);
  assert.deepEqual(JSON.parse(JSON.stringify(restart)), {
    section: 'Service',
    key: 'Restart',
    value: 'always',
    keySpan: { file: 'u.service', range: range(1, 2, 1, 9) },
    valueMap: { file: 'u.service', segments: [{ offset: 0, line: 1, character: 12, length: 6 }] },
    span: { file: 'u.service', range: range(1, 2, 1, 20) },
    lastLine: 1,
    continued: false,
  });
});

test('env-file assignments: name span, whole span and a value map over quoted, continued values', () => {
  const env = parseEnvFile('/etc/default/kubelet', 'A="x\ny"\nB=--v=2\r\n');
  const [a, b] = env.assignments;
  assert.deepEqual(a.nameSpan.range, range(0, 0, 0, 1));
  assert.deepEqual(a.valueMap.range(0, a.value.length), range(0, 3, 1, 1));
  assert.deepEqual(b.span.range, range(2, 0, 2, 7));
  assert.deepEqual(b.valueMap.range(2, 5), range(2, 4, 2, 7));
  const json = JSON.parse(JSON.stringify(b));
  assert.deepEqual(Object.keys(json).sort(), ['name', 'nameSpan', 'span', 'value', 'valueMap']);
});

test('flags read through Environment= variables: spans of the flag, its value and the variable it came through', () => {
  const files = kubeadmNode('n', {
    extra: { 'n/etc/systemd/system/kubelet.service.d/20-extra.conf': '[Service]\nEnvironment="KUBELET_EXTRA_ARGS=--max-pods=7 --node-labels=a=b"\n' },
  });
  const { node } = onlyNode(run(files));
  const maxPods = node.flags.find((f) => f.name === 'max-pods')!;
  assert.equal(maxPods.value, '7');
  assert.equal(maxPods.span.file, 'n/etc/systemd/system/kubelet.service.d/20-extra.conf');
  // Inside the quotes of line 1: `--max-pods=7` starts after `Environment="KUBELET_EXTRA_ARGS=`.
  assert.deepEqual(maxPods.span.range, range(1, 32, 1, 44));
  assert.deepEqual(maxPods.valueSpan.range, range(1, 43, 1, 44));
  assert.equal(maxPods.nameWord.via?.variable, 'KUBELET_EXTRA_ARGS');
  assert.equal(node.settings.get('maxPods')?.from.span?.range.start.character, 32);
  const json = JSON.parse(JSON.stringify(maxPods));
  assert.deepEqual(json.valueSpan.range, range(1, 43, 1, 44));
  assert.equal(json.nameWord.text, '--max-pods=7');
  assert.equal(json.nameWord.via.variable, 'KUBELET_EXTRA_ARGS');
  assert.deepEqual(JSON.parse(JSON.stringify(node.settings.get('maxPods')!.from)).span.range, range(1, 32, 1, 44));
});
