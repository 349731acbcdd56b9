// `npm run test:vscode`: the extension inside a real VS Code downloaded by
// @vscode/test-electron, for machines that can reach update.code.visualstudio.com.
// The CI machines cannot (no internet but npm and Debian), so CI runs the
// code-server suite (test/e2e) instead; both check what a user sees.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const workspace = mkdtempSync(join(tmpdir(), 'kubelet-vscode-'));
cpSync(join(ROOT, 'examples'), workspace, { recursive: true });

try {
  await runTests({
    version: process.env.VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: join(ROOT, 'test', 'vscode', 'suite.cjs'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust'],
  });
} catch (e) {
  console.error(`test:vscode failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
