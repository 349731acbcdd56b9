import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { deletionFusesLineEnds, lineEndCount } from '../../server/src/fixes/keep-line-ends.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';

// systemd fileio.c read_line_full: one line end is at most one "\n", one "\r" and one NUL (NUL last).
test('read_line counts "\\n\\r" and "\\r\\n" as one line end, "\\n\\n" and "\\r\\r" as two', () => {
  assert.equal(lineEndCount('\n\r'), 1);
  assert.equal(lineEndCount('\r\n'), 1);
  assert.equal(lineEndCount('\n\n'), 2);
  assert.equal(lineEndCount('\r\r'), 2);
  assert.equal(lineEndCount('\n\r\n'), 2);
  assert.equal(lineEndCount('\r\0'), 1);
  assert.equal(lineEndCount('\0\n'), 2);
});

test('deleting a word between "\\n" and a lone "\\r" fuses the line ends; with text left on the line it does not', () => {
  const t = 'a\nWORD\rb';
  assert.equal(deletionFusesLineEnds(t, 2, 6), true);
  assert.equal(deletionFusesLineEnds(t, 3, 6), false);
  assert.equal(deletionFusesLineEnds('a\nWORD\nb', 2, 6), false);
  // "\n\r" is already one line end before the word: deleting it leaves "\n\r\n", still two line ends.
  assert.equal(deletionFusesLineEnds('a\n\rWORD\nb', 3, 7), false);
});

// Found by `npm run fuzz` (seed 686675954): the lone "\r" ends line 3, which ends the ExecStart continuation;
// deleting the flag fused "\n" and "\r" so the next "\" continued ExecStart into "[Service]".
test('"Remove --cni-bin-dir" on a line ending in a lone \\r keeps the continuation ending there', () => {
  const path = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
  const files = [{ path, text: '[Service]\nExecStart=/usr/bin/kubelet\\\n--cni-bin-dir=\r\\\n[Service]' }];
  const removed = analyze(files).findings.find((f) => f.code === 'flag-removed');
  const fix = removed?.fixes?.find((x) => x.title === 'Remove --cni-bin-dir');
  assert.ok(fix, 'the removal is offered');
  const after = applyWorkspaceEdits(files, fix.edits);
  assert.equal(after[0].text, '[Service]\nExecStart=/usr/bin/kubelet\\\n \r\\\n[Service]');
  const errors = analyze(after).findings.filter((f) => f.severity === 'error').map((f) => f.code);
  assert.deepEqual(errors, []);
});

test('the usual removal of a flag on its own line still deletes it without a trace', () => {
  const path = 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf';
  const files = [{ path, text: '[Service]\nExecStart=/usr/bin/kubelet \\\n  --cni-bin-dir=/opt/cni \\\n  --v=2\n' }];
  const fix = analyze(files).findings.find((f) => f.code === 'flag-removed')?.fixes?.[0];
  assert.ok(fix);
  assert.equal(applyWorkspaceEdits(files, fix.edits)[0].text, '[Service]\nExecStart=/usr/bin/kubelet \\\n   \\\n  --v=2\n');
});
