/**
 * The fix check (server/src/features/fix-check.ts) offers a fix only when it does what its title says: the finding it
 * is for is gone afterwards, checked fix by fix (fixProblem) and in groups (withSafeFixes).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { fixProblem, withSafeFixes } from '../../server/src/features/fix-check.ts';
import type { Finding, TextEdit } from '../../server/src/model/finding.ts';
import type { SourceFile } from '../../server/src/model/source.ts';

const ENFORCE = '--enforce-node-allocatable=pods,kube-reserved';
const dropin = (n: string) => `${n}/etc/systemd/system/kubelet.service.d/10-kubeadm.conf`;
/** A node whose reserved-cgroup-missing finding sits in an unquoted Environment= assignment. */
const node = (n: string): SourceFile => ({ path: dropin(n), text: `[Service]\nEnvironment=A=${ENFORCE} B=\nExecStart=/usr/bin/kubelet $A\n` });
/** The edit reserved-cgroup-missing used to offer there: a blank after the value starts another assignment. */
function splittingEdit(f: Finding): TextEdit {
  return { file: f.file, range: { start: f.range.end, end: f.range.end }, newText: ' --kube-reserved-cgroup=/kube.slice' };
}

test('a fix after which its finding is still there is not offered, though what it adds is less severe (npm run fuzz, seed 20261208)', () => {
  const files = [node('a')];
  const before = analyze(files);
  const f = before.findings.find((x) => x.code === 'reserved-cgroup-missing')!;
  assert.equal(f.severity, 'error');
  // applied, systemd reports an invalid assignment (a warning, on the text the edit wrote) and the error stays
  assert.equal(fixProblem(files, {}, before, f, [splittingEdit(f)], analyze), 'the finding it fixes is still there');
  // a fix that does its job passes
  const quoted = { path: dropin('a'), text: `[Service]\nEnvironment="A=${ENFORCE}"\nExecStart=/usr/bin/kubelet $A\n` };
  const b2 = analyze([quoted]);
  const f2 = b2.findings.find((x) => x.code === 'reserved-cgroup-missing')!;
  assert.equal(f2.fixes?.length, 1);
  assert.equal(fixProblem([quoted], {}, b2, f2, f2.fixes![0].edits, analyze), undefined);
});

test('checked in groups, a fix whose finding stays is dropped and the others of its group are kept', () => {
  const files = ['a', 'b', 'c', 'd', 'e', 'f'].map(node);
  // a config-field-unknown rename in a node of its own, which does its job
  files.push({ path: 'g/var/lib/kubelet/config.yaml', text: 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: 20\n' });
  const base = analyze(files);
  const analysis = {
    ...base,
    // the old fix put back on every reserved-cgroup-missing finding
    findings: base.findings.map((f) => (f.code === 'reserved-cgroup-missing' ? { ...f, fixes: [{ title: 'Add --kube-reserved-cgroup=/kube.slice', edits: [splittingEdit(f)] }] } : f)),
  };
  const offered = analysis.findings.filter((f) => f.fixes?.length).length;
  assert.ok(offered >= 7, `${offered} fixes offered`);
  const checked = withSafeFixes(files, {}, analysis, (fs, o) => analyze(fs, o));
  const kept = checked.findings.filter((f) => f.fixes?.length);
  assert.ok(kept.every((f) => f.code !== 'reserved-cgroup-missing'), kept.map((f) => f.code).join());
  assert.ok(kept.some((f) => f.code === 'config-field-unknown'));
});
