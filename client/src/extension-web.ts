/**
 * VS Code client for VS Code for the Web (vscode.dev, github.dev; package.json `browser`): the language server runs
 * in a web worker (dist/web/server.js) and reads the workspace through this client (workspace-files.ts); everything
 * else is activate.ts, shared with the Node extension (extension.ts).
 */
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateClient, deactivateClient } from './activate.ts';
import { answerFileRequests } from './workspace-files.ts';

declare const Worker: new (url: string, options?: { name?: string }) => unknown;
declare const Blob: new (parts: Uint8Array[], options: { type: string }) => unknown;
declare const URL: { createObjectURL(blob: unknown): string };

/**
 * The file systems of VS Code for the Web: github.dev and vscode.dev repositories (vscode-vfs), a local folder
 * opened in the browser (file), @vscode/test-web's (vscode-test-web), a remote (vscode-remote).
 */
const SCHEMES = ['file', 'vscode-vfs', 'vscode-test-web', 'vscode-remote'];

/**
 * Where the worker loads the server from. From a gallery (vscode.dev, github.dev) the extension is served over
 * https and the worker loads that URL. Installed on a server (code-server, a remote), the extension's files are
 * `vscode-remote:` URIs, which the web worker extension host refuses to start a worker from ("Creating workers from
 * remote extensions is currently not supported", vs/workbench/api/worker/extensionHostWorkerMain.ts): the file is
 * read through the editor's file system instead and the worker started from a blob: URL of its text.
 */
async function serverScript(context: vscode.ExtensionContext): Promise<string> {
  const main = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  if (main.scheme !== 'vscode-remote') return main.toString(true);
  const bytes = await vscode.workspace.fs.readFile(main);
  return URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' }));
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const script = await serverScript(context);
  await activateClient(context, SCHEMES, (options) => {
    const worker = new Worker(script, { name: 'kubelet-language-server' });
    // vscode-languageclient 11: the server (a Worker) comes before the client options.
    const client = new LanguageClient('kubeletConfig', 'Kubelet Configuration', worker as never, options);
    context.subscriptions.push(...answerFileRequests(client));
    return client;
  });
}

export async function deactivate(): Promise<void> {
  await deactivateClient();
}
