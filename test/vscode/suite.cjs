// Runs inside VS Code's extension host (loaded by @vscode/test-electron).
// Plain CommonJS with node:assert and a tiny sequential runner: the host loads
// this file by `require`, and no test framework is needed for a handful of
// user-visible checks. Every wait polls for a condition with a deadline.
const assert = require('node:assert/strict');
const path = require('node:path');
const vscode = require('vscode');

const SEED = 'seed-node/usr/lib/systemd/system/kubelet.service';
const DOCS = 'docs-example/kubelet-config.yaml';
const DEADLINE_MS = 30_000;

function file(rel) {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace is open');
  return vscode.Uri.file(path.join(folder.uri.fsPath, rel));
}

async function until(what, probe) {
  const end = Date.now() + DEADLINE_MS;
  let last;
  while (Date.now() < end) {
    last = await probe();
    if (last) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function open(rel) {
  const doc = await vscode.workspace.openTextDocument(file(rel));
  await vscode.window.showTextDocument(doc);
  return doc;
}

function ours(uri) {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'kubelet');
}

function code(d) {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

const checks = [
  ['the seed unit shows the swallowed Restart=always at its line', async () => {
    const doc = await open(SEED);
    const d = await until('the swallowed-directive diagnostic', () =>
      ours(doc.uri).find((x) => code(x) === 'unit-continuation-swallows-directive'));
    assert.equal(doc.lineAt(d.range.start.line).text.trim(), 'Restart=always');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
  }],
  ['hovering kubeReserved shows the Node Allocatable table', async () => {
    const doc = await open(DOCS);
    const line = doc.getText().split('\n').findIndex((l) => l.startsWith('kubeReserved'));
    assert.ok(line >= 0, 'kubeReserved is in the docs example');
    const hovers = await until('a hover', async () => {
      const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', doc.uri, new vscode.Position(line, 2));
      return h && h.length ? h : undefined;
    });
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    assert.match(text, /Node Allocatable/);
    assert.match(text, /14\.5/);
  }],
  ['the quick fix for the swallowing backslash removes the error', async () => {
    const doc = await open(SEED);
    const d = await until('the diagnostic', () => ours(doc.uri).find((x) => code(x) === 'unit-continuation-swallows-directive'));
    const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', doc.uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = (actions ?? []).find((a) => a.edit && a.diagnostics?.some((x) => code(x) === code(d)));
    assert.ok(fix, `a quick fix among: ${(actions ?? []).map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await until('the diagnostic to go away', () => !ours(doc.uri).some((x) => code(x) === code(d)));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }],
  ['the effective configuration opens as a read-only YAML document', async () => {
    await open(DOCS);
    await vscode.commands.executeCommand('kubelet.showEffectiveConfiguration');
    const doc = await until('the effective configuration', () =>
      vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'kubelet-effective'));
    assert.match(doc.getText(), /kubeReserved/);
  }],
];

exports.run = async function run() {
  const failures = [];
  for (const [name, fn] of checks) {
    try {
      await fn();
      console.log(`ok - ${name}`);
    } catch (e) {
      failures.push(name);
      console.log(`not ok - ${name}\n  ${e && e.stack ? e.stack : e}`);
    }
  }
  console.log(`# ${checks.length - failures.length}/${checks.length} passed`);
  if (failures.length) throw new Error(`${failures.length} check(s) failed: ${failures.join('; ')}`);
};
