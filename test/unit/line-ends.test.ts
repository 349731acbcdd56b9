import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { refactorsAt } from '../../server/src/features/refactors/index.ts';
import { applyWorkspaceEdits } from '../helpers/edits.ts';

const crlf = (s: string) => s.replace(/\n/g, '\r\n');
const CONFIG = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nevictionSoft:\n  memory.available: 1Gi\n';

/** Every line end of the text is "\r\n" (no lone "\n" left). */
const allCrlf = (t: string) => !/(^|[^\r])\n/.test(t);

test('a quick fix that adds lines to a CRLF config writes them with CRLF; in an LF file with LF', () => {
  for (const [text, isCrlf] of [[crlf(CONFIG), true], [CONFIG, false]] as const) {
    const files = [{ path: 'n/var/lib/kubelet/config.yaml', text }];
    const fix = analyze(files).findings.find((f) => f.code === 'eviction-soft-without-grace')?.fixes?.[0];
    assert.ok(fix, 'the grace period is offered');
    const after = applyWorkspaceEdits(files, fix.edits)[0].text;
    assert.match(after, /evictionSoftGracePeriod:/);
    if (isCrlf) assert.ok(allCrlf(after), JSON.stringify(after));
    else assert.ok(!after.includes('\r'), JSON.stringify(after));
    assert.deepEqual(analyze([{ ...files[0], text: after }]).findings.filter((f) => f.severity === 'error'), []);
  }
});

test('a refactor that writes fields into a CRLF config writes them with CRLF', () => {
  const text = crlf('# kubelet-lint: capacity cpu=16,memory=64Gi\n' + 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nclusterDNS:\n  - 10.96.0.10\n');
  const files = [{ path: 'c.yaml', text }];
  const r = refactorsAt(analyze(files), 'c.yaml', { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } })[0];
  assert.ok(r, 'a reservations refactor is offered');
  const after = applyWorkspaceEdits(files, r.edits.map((e) => ({ file: e.path, range: e.range, newText: e.newText })))[0].text;
  assert.match(after, /kubeReserved:\r\n/);
  assert.ok(allCrlf(after), JSON.stringify(after));
});
