/**
 * Issue #18: files whose lines end in a lone "\r" (CR-only). LSP counts "\n", "\r\n" and a lone "\r" as line ends; so
 * do systemd's read_line() (src/basic/fileio.c read_line_full: categorize_eol) for units and drop-ins, its env-file
 * parser (NEWLINE is "\n\r"), and go-yaml (sigs.k8s.io/yaml; test/oracle proves all three). A finding in a CR-only
 * file must sit where the editor shows that text, and its quick fix must edit that text. Over stdio against
 * dist/server.js; positions and edits are checked with vscode-languageserver-textdocument, as an editor counts them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TestClient, workspace } from './client.ts';

const CASES: { name: string; path: string; lines: string[]; code: string; word: string; fixed: string }[] = [
  {
    name: 'a drop-in',
    path: 'n/etc/systemd/system/kubelet.service.d/10-kubeadm.conf',
    lines: ['[Service]', 'Environment="KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf"', 'ExecStart=', 'ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS \\', '  --max-pod=50 --v=2', ''],
    code: 'flag-unknown',
    word: '--max-pod=',
    fixed: '--max-pods',
  },
  { name: 'an env file', path: 'n/etc/default/kubelet', lines: ['# flags', 'KUBELET_EXTRA_ARGS=--v=2 --max-pod=50', ''], code: 'flag-unknown', word: '--max-pod=', fixed: '--max-pods' },
  {
    name: 'a KubeletConfiguration (YAML)',
    path: 'n/var/lib/kubelet/config.yaml',
    lines: ['apiVersion: kubelet.config.k8s.io/v1beta1', 'kind: KubeletConfiguration', 'maxPod: 10', 'failSwapOn: false', ''],
    code: 'config-field-unknown',
    word: 'maxPod:',
    fixed: 'maxPods',
  },
];

describe('CR-only line ends: findings and quick fixes land where the editor shows the text', () => {
  const ws = workspace();
  const client = new TestClient();
  before(async () => {
    await client.initialize([ws.dir]);
  });
  after(async () => {
    try {
      await client.close();
    } finally {
      ws.dispose();
    }
  });

  for (const c of CASES) {
    test(`${c.name}: ${c.code} and its fix`, async () => {
      const text = c.lines.join('\r');
      const doc = TextDocument.create('file:///x', 'plaintext', 1, text);
      const u = client.open(ws.path(c.path), text);
      const published = await client.waitDiagnostics(u, (ds) => ds.some((d) => d.code === c.code));
      // no syntax error: the file reads as it does with "\n" line ends
      assert.deepEqual(published.diagnostics.filter((d) => /syntax/.test(String(d.code))), []);
      const d = published.diagnostics.find((x) => x.code === c.code)!;
      const at = text.indexOf(c.word);
      const word = c.word.replace(/[=:]$/, '');
      assert.deepEqual(d.range, { start: doc.positionAt(at), end: doc.positionAt(at + word.length) }, `${c.code} at ${JSON.stringify(d.range)}`);
      const actions: any[] = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: d.range, context: { diagnostics: [d], only: ['quickfix'] } });
      const fix = actions.find((a) => a.edit && !/^Disable /.test(a.title));
      assert.ok(fix, `no quick fix: ${JSON.stringify(actions.map((a) => a.title))}`);
      const edits = fix.edit.changes?.[u] ?? fix.edit.documentChanges?.[0]?.edits;
      assert.equal(TextDocument.applyEdits(doc, edits), text.slice(0, at) + c.fixed + text.slice(at + word.length));
    });
  }
});
