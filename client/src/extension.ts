/**
 * VS Code client: starts dist/server.js over IPC for kubelet units, drop-ins,
 * env files and config files (selected by pattern, without claiming their
 * language), shows the effective configuration in a read-only
 * `kubelet-effective:` document, and the node's allocatable in a view and the
 * status bar (allocatable.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { AllocatableController } from './allocatable.ts';
import { TraceChannel } from './trace-channel.ts';
import { whenKubeletFileOpen } from './walkthrough.ts';
import { DOCUMENT_PATTERNS } from '../../server/src/formats/patterns.generated.ts';
import { SHOW_EFFECTIVE_COMMAND } from '../../server/src/features/protocol.ts';

const RESTART = 'kubelet.restartServer';
const SCHEME = 'kubelet-effective';
const SHOW_RULE = 'kubelet.showRulePage';
/** Context key of the walkthrough's first step (package.json contributes.walkthroughs). */
const KUBELET_FILE_OPENED = 'kubelet.kubeletFileOpened';


let client: LanguageClient | undefined;

class EffectiveConfigProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.emitter.event;

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.emitter.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# Run "Kubelet: Show Effective Configuration" on a kubelet file.\n';
  }
}

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

  const provider = new EffectiveConfigProvider();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider));

  // One channel for the server's log, kept across restarts; the protocol trace goes to its own.
  const output = vscode.window.createOutputChannel('Kubelet Configuration', { log: true });
  const trace = new TraceChannel('Kubelet Configuration Trace');
  context.subscriptions.push(output, trace);

  const documentSelector = DOCUMENT_PATTERNS.map((pattern) => ({ scheme: 'file', pattern }));
  const clientOptions: LanguageClientOptions = {
    documentSelector,
    outputChannel: output,
    traceOutputChannel: trace,
    synchronize: { configurationSection: 'kubeletConfig' },
    // Each diagnostic links its rule page, shipped with the extension: the link runs SHOW_RULE, which shows it rendered
    // (a link to the .md file would open it as an editable text file inside the extension).
    initializationOptions: { docsBase: `command:${SHOW_RULE}?` },
    middleware: {
      // The server answers the command with YAML text; show it instead of returning it.
      executeCommand: async (command, args, next) => {
        if (command !== SHOW_EFFECTIVE_COMMAND) return next(command, args);
        const target = typeof args[0] === 'string' ? args[0] : vscode.window.activeTextEditor?.document.uri.toString();
        if (!target) {
          void vscode.window.showInformationMessage('Open a kubelet unit, drop-in, env file or KubeletConfiguration first.');
          return undefined;
        }
        const text = (await next(command, [target])) as string | null | undefined;
        if (!text) {
          void vscode.window.showInformationMessage('No kubelet node reads this file.');
          return undefined;
        }
        const name = path.posix.basename(vscode.Uri.parse(target).path);
        const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${name}.effective.yaml`, query: target });
        provider.set(uri, text);
        const doc = await vscode.workspace.openTextDocument(uri);
        await vscode.languages.setTextDocumentLanguage(doc, 'yaml').then(undefined, () => doc);
        await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
        return undefined;
      },
    },
  };

  // The id makes the client read kubeletConfig.trace.server.
  client = new LanguageClient('kubeletConfig', 'Kubelet Configuration', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand(RESTART, async () => {
      await client?.restart();
    }),
    vscode.commands.registerCommand(SHOW_RULE, async (id: unknown) => {
      if (typeof id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(id)) return;
      const page = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules', `${id}.md`);
      // The built-in Markdown preview renders the page, read-only.
      await vscode.commands.executeCommand('markdown.showPreview', page);
    }),
    new AllocatableController(client, documentSelector),
  );
  // The walkthrough's first step completes when a kubelet file is open, also one opened before activation.
  context.subscriptions.push(
    ...whenKubeletFileOpen(vscode, documentSelector, () => void vscode.commands.executeCommand('setContext', KUBELET_FILE_OPENED, true)),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
