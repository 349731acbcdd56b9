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

/**
 * The file systems of VS Code for the Web: github.dev and vscode.dev repositories (vscode-vfs), a local folder
 * opened in the browser (file), @vscode/test-web's (vscode-test-web), a remote (vscode-remote).
 */
const SCHEMES = ['file', 'vscode-vfs', 'vscode-test-web', 'vscode-remote'];

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverMain = vscode.Uri.joinPath(context.extensionUri, 'dist', 'web', 'server.js');
  await activateClient(context, SCHEMES, (options) => {
    const worker = new Worker(serverMain.toString(true), { name: 'kubelet-language-server' });
    const client = new LanguageClient('kubeletConfig', 'Kubelet Configuration', options, worker as never);
    context.subscriptions.push(...answerFileRequests(client));
    return client;
  });
}

export async function deactivate(): Promise<void> {
  await deactivateClient();
}
