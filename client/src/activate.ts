/**
 * What the VS Code client does in both extension hosts (extension.ts: Node, the server a process; extension-web.ts:
 * VS Code for the Web, the server a web worker): the document selector, the effective configuration in a read-only
 * `kubelet-effective:` document, the rule pages, the allocatable view and status bar item (allocatable.ts). Only
 * how the language client is made differs.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
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


let client: BaseLanguageClient | undefined;

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

/**
 * Starts the client `make` builds for kubelet files of the given URI schemes (file: on disk; the web's file systems
 * name theirs), with everything around it.
 */
export async function activateClient(
  context: vscode.ExtensionContext,
  schemes: readonly string[],
  make: (options: LanguageClientOptions) => BaseLanguageClient,
): Promise<BaseLanguageClient> {
  const provider = new EffectiveConfigProvider();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEME, provider));

  // One channel for the server's log, kept across restarts; the protocol trace goes to its own.
  const output = vscode.window.createOutputChannel('Kubelet Configuration', { log: true });
  const trace = new TraceChannel('Kubelet Configuration Trace');
  context.subscriptions.push(output, trace);

  const documentSelector = schemes.flatMap((scheme) => DOCUMENT_PATTERNS.map((pattern) => ({ scheme, pattern })));
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
        const targetPath = vscode.Uri.parse(target).path;
        const name = targetPath.slice(targetPath.lastIndexOf('/') + 1);
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
  const started = make(clientOptions);
  client = started;
  context.subscriptions.push(
    vscode.commands.registerCommand(RESTART, async () => {
      // The Node client restarts its process; the browser client has no restart(): stop and start its worker.
      const c = client as (BaseLanguageClient & { restart?(): Promise<void> }) | undefined;
      if (c?.restart) await c.restart();
      else if (c) await c.stop().then(() => c.start());
    }),
    vscode.commands.registerCommand(SHOW_RULE, async (id: unknown) => {
      if (typeof id !== 'string' || !/^[a-z][a-z0-9-]*$/.test(id)) return;
      const page = vscode.Uri.joinPath(context.extensionUri, 'docs', 'rules', `${id}.md`);
      // The built-in Markdown preview renders the page, read-only.
      await vscode.commands.executeCommand('markdown.showPreview', page);
    }),
    new AllocatableController(started, documentSelector),
  );
  // The walkthrough's first step completes when a kubelet file is open, also one opened before activation.
  context.subscriptions.push(
    ...whenKubeletFileOpen(vscode, documentSelector, () => void vscode.commands.executeCommand('setContext', KUBELET_FILE_OPENED, true)),
  );
  await started.start();
  return started;
}

export async function deactivateClient(): Promise<void> {
  await client?.stop();
  client = undefined;
}
