/**
 * VS Code client (Node extension host): starts dist/server.js over IPC for kubelet units, drop-ins, env files and
 * config files (selected by pattern, without claiming their language); the rest is activate.ts, shared with the
 * web extension (extension-web.ts).
 */
import * as path from 'node:path';
import type * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { activateClient, deactivateClient } from './activate.ts';

declare const SERVER_NODE_FLAGS: string[];
declare const SERVER_ENV: Record<string, string>;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  // Why these flags and variables: client/server-node-flags.json (the bench starts the server with the same ones).
  // The client adds `env` to the extension host's environment; it does not replace it.
  const execArgv = [...SERVER_NODE_FLAGS];
  const env = { ...SERVER_ENV };
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc, options: { execArgv, env } },
    debug: { module: serverModule, transport: TransportKind.ipc, options: { execArgv: [...execArgv, '--nolazy', '--inspect=6011'], env } },
  };
  await activateClient(context, ['file'], (options) => new LanguageClient('kubeletConfig', 'Kubelet Configuration', serverOptions, options));
}

export async function deactivate(): Promise<void> {
  await deactivateClient();
}
