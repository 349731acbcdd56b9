/**
 * Issue #28: the CLI writes its JSON report a diagnostic or node at a time (cli/format-json.ts jsonChunks), so a long
 * stream's report is never held whole beside the analysis. The text must stay exactly what one
 * JSON.stringify(report, null, 2) gives: scripts parse it, and some compare it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../server/src/engine.ts';
import { diagnosticJson, formatJson, jsonChunks } from '../../server/src/cli/format-json.ts';
import { nodeJson } from '../../server/src/cli/report.ts';
import { filesRead, type FileRead } from '../../server/src/features/files-read.ts';
import { corpusDir } from '../helpers/corpus.ts';

/** The report as one JSON.stringify of the same objects, as the CLI wrote it before it was written in parts. */
function whole(a: Analysis, files?: readonly FileRead[]): string {
  return JSON.stringify(
    {
      diagnostics: a.findings.map(diagnosticJson),
      nodes: a.nodes.map(nodeJson),
      ...(files ? { files } : {}),
    },
    null,
    2,
  );
}

test('the report written in parts is byte for byte one JSON.stringify(report, null, 2): every corpus workspace, with and without the file list', () => {
  const dirs = ['corpus', 'corpus-embedded'].map(corpusDir).filter((d): d is string => d !== undefined);
  assert.ok(dirs.length, 'the corpora are beside the checkout');
  let checked = 0;
  for (const dir of dirs) {
    const files = readdirSync(join(dir, 'files')).map((name) => ({ path: `files/${name}`, text: readFileSync(join(dir, 'files', name), 'utf8') }));
    // The whole corpus as one workspace, and each file alone (one with no findings, one with no node).
    for (const ws of [files, ...files.map((f) => [f])]) {
      const a = analyze(ws, {});
      const read = filesRead(a, ws.map((f) => f.path), []);
      assert.equal(formatJson(a), whole(a));
      assert.equal([...jsonChunks(a, read)].join(''), whole(a, read));
      checked++;
    }
  }
  assert.ok(checked > 100);
});

test('an empty report (no diagnostics, no nodes, no files) is what JSON.stringify gives', () => {
  const a = analyze([], {});
  assert.equal(formatJson(a, []), whole(a, []));
  assert.equal(formatJson(a), '{\n  "diagnostics": [],\n  "nodes": []\n}');
});

test('kubelet-lint --format json over a report of several 64 KiB blocks prints one valid JSON text, the same as the report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kl-json-'));
  try {
    // A stream of 600 documents of two formats (each its own node), each with a fix: a report of about 1 MB.
    const docs = Array.from({ length: 600 }, (_, i) =>
      i % 2 ? `apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  kubelet:\n    config:\n      maxPod: ${100 + i}\n` : `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nmaxPod: ${100 + i}\n`,
    );
    const text = docs.join('---\n');
    writeFileSync(join(dir, 'nodes.yaml'), text);
    const r = spawnSync(process.execPath, [join(__dirname, '../../dist/cli.js'), '--format', 'json', 'nodes.yaml'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(r.status, 0, r.stderr); // (an unknown field is a warning: the kubelet logs it and goes on)
    assert.ok(r.stdout.length > 4 * 65536, `the report is ${r.stdout.length} characters`);
    assert.ok(r.stdout.endsWith('}\n'));
    const report = JSON.parse(r.stdout) as { diagnostics: { code: string }[]; nodes: unknown[]; files: unknown[] };
    assert.equal(report.diagnostics.filter((d) => d.code === 'config-field-unknown').length, 600);
    assert.equal(report.nodes.length, 600);
    assert.equal(report.files.length, 601); // the stream and its documents
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
