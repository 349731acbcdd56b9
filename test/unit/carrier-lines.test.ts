/**
 * Issue #28 point 3: a quick fix in a heredoc or a MIME part is checked on the line it produces, not on the text it
 * inserts. "Change to --max-pods" was offered when the line it makes equals the heredoc's delimiter (the heredoc then
 * ends early and the script runs the rest as commands) or starts with a MIME boundary (the part splits in two).
 * Generated: the fixable line, the delimiter or boundary made from what the fix writes, and the quoting of the
 * delimiter; the same inputs with an unrelated delimiter or boundary keep their fix.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { analyze } from '../../server/src/engine.ts';
import type { Finding } from '../../server/src/model/finding.ts';

const fixesOf = (findings: readonly Finding[], code: string) => findings.filter((f) => f.code === code).flatMap((f) => (f.fixes ?? []).map((x) => x.title));

// The flag (a misspelling with a fix) and where it stands on the line the fix edits.
const line = fc.record({
  flag: fc.constantFrom(['--max-pod', '--max-pods'], ['--kube-api-qp', '--kube-api-qps']),
  value: fc.integer({ min: 1, max: 500 }),
  before: fc.constantFrom('KUBELET_EXTRA_ARGS=', 'KUBELET_EXTRA_ARGS=--v=2 ', "KUBELET_EXTRA_ARGS='"),
});

test('heredoc: no fix whose line would be the delimiter; with another delimiter the fix stays', () => {
  fc.assert(
    fc.property(line, fc.constantFrom("'", '"', ''), fc.boolean(), ({ flag: [bad, good], value, before }, q, strip) => {
      const close = before.endsWith("'") ? "'" : '';
      const fixed = `${before}${good}=${value}${close}`;
      const script = (delim: string) =>
        `#!/bin/bash\ncat > /etc/default/kubelet <<${strip ? '-' : ''}${q}${delim}${q}\n${before}${bad}=${value}${close}\n${strip ? '\t' : ''}${delim}\n`;
      // the delimiter is what the fix would write; without quotes only a word the shell takes as one
      if (q === '' && /[\s'"=]/.test(fixed)) return;
      const a = analyze([{ path: 'user-data.sh', text: script(fixed) }]);
      assert.deepEqual(fixesOf(a.findings, 'flag-unknown'), [], script(fixed));
      const ok = analyze([{ path: 'user-data.sh', text: script('EOF') }]);
      assert.deepEqual(fixesOf(ok.findings, 'flag-unknown'), [`Change to ${good}`], script('EOF'));
    }),
    { numRuns: 60, seed: 28 },
  );
});

test('MIME: no fix whose line would start with a boundary; with another boundary the fix stays', () => {
  fc.assert(
    fc.property(fc.constantFrom(['--max-pod', '--max-pods'], ['--kube-api-qp', '--kube-api-qps']), fc.integer({ min: 1, max: 500 }), fc.boolean(), ([bad, good], value, whole) => {
      // A unit's ExecStart= continued on a line of its own: that line starts with the flag, at column 0 of the part.
      const fixedLine = `${good}=${value}`;
      const boundary = whole ? fixedLine.slice(2) : good.slice(2);
      const message = (b: string) =>
        [
          'MIME-Version: 1.0',
          `Content-Type: multipart/mixed; boundary="${b}"`,
          '',
          `--${b}`,
          'Content-Type: text/x-shellscript',
          '',
          '#!/bin/bash',
          "cat > /etc/systemd/system/kubelet.service <<'EOF'",
          '[Service]',
          'ExecStart=/usr/bin/kubelet \\',
          `${bad}=${value}`,
          'EOF',
          `--${b}--`,
          '',
        ].join('\n');
      const a = analyze([{ path: 'user-data', text: message(boundary) }]);
      assert.ok(a.findings.some((f) => f.code === 'flag-unknown'), message(boundary));
      assert.deepEqual(fixesOf(a.findings, 'flag-unknown'), [], message(boundary));
      const ok = analyze([{ path: 'user-data', text: message('==B==') }]);
      assert.deepEqual(fixesOf(ok.findings, 'flag-unknown'), [`Change to ${good}`], message('==B=='));
    }),
    { numRuns: 20, seed: 28 },
  );
});

// Issue #28 point 7: a lone \r ends a line in the carriers as in the rest of the engine (model/range.ts LineIndex;
// cloud-init's starts-with test and PyYAML, Python's email parser): a CR-only cloud-config, MIME message or YAML stream
// gives the findings of the same text with \n, at the same positions.
test('CR-only line ends in cloud-config, MIME and YAML streams: the same findings as with \\n', () => {
  const carriers = (v: number, flag: string) => [
    `#cloud-config\nwrite_files:\n  - path: /etc/kubernetes/kubelet.yaml\n    content: |\n      apiVersion: kubelet.config.k8s.io/v1beta1\n      kind: KubeletConfiguration\n      maxPod: ${v}\n`,
    `MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n--B\nContent-Type: text/x-shellscript\n\n#!/bin/bash\ncat > /etc/default/kubelet <<'EOF'\nKUBELET_EXTRA_ARGS=${flag}=${v}\nEOF\n--B--\n`,
    `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: ${v}\n---\napiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    flags:\n      - ${flag}=${v}\n`,
  ];
  const seen = (text: string) =>
    analyze([{ path: 'x/user-data.yaml', text }])
      .findings.map((f) => `${f.code}@${f.range.start.line}:${f.range.start.character}-${f.range.end.line}:${f.range.end.character}`)
      .sort();
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 999 }), fc.constantFrom('--max-pod', '--kube-api-qp', '--max-pods'), fc.constantFrom('\r', '\r\n'), (v, flag, eol) => {
      for (const text of carriers(v, flag)) {
        const lf = seen(text);
        assert.ok(lf.length > 0, text);
        assert.deepEqual(seen(text.replace(/\n/g, eol)), lf, JSON.stringify(text.replace(/\n/g, eol)));
      }
    }),
    { numRuns: 15, seed: 7 },
  );
});
