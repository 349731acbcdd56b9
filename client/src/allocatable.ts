/**
 * Keeps the allocatable view and the status bar item on the node of the
 * active editor: asks the server (`kubelet/allocatable`) when the editor
 * changes, after edits (debounced), when diagnostics change and when the
 * server says settings or files on disk changed.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { AllocatableResponse } from '../../server/src/features/allocatable-data.ts';
// protocol.ts holds only the names (no code), so importing it keeps server code out of the client bundle.
import { ALLOCATABLE_CHANGED, ALLOCATABLE_REQUEST, SHOW_ALLOCATABLE_COMMAND } from '../../server/src/features/protocol.ts';
import { AllocatablePanel, VIEW_TYPE } from './allocatable-panel.ts';
import { statusText, statusTooltip } from './allocatable-render.ts';

/** Also the command of the server's "allocatable" code lens. */
export const SHOW_ALLOCATABLE = SHOW_ALLOCATABLE_COMMAND;
const FOLLOWED_SCHEMES = new Set(['file', 'untitled']);
/** After the last keystroke; a little above the server's own diagnostics debounce. */
const EDIT_DELAY_MS = 250;

export class AllocatableController implements vscode.Disposable {
  private readonly status = vscode.window.createStatusBarItem('kubelet.allocatable', vscode.StatusBarAlignment.Right, 100);
  private readonly panel = new AllocatablePanel();
  private readonly disposables: vscode.Disposable[] = [];
  /** The kubelet file whose node is shown. */
  private followed: vscode.Uri | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Answers to older requests are dropped. */
  private generation = 0;

  constructor(
    private readonly client: LanguageClient,
    private readonly selector: vscode.DocumentSelector,
  ) {
    this.status.name = 'Kubelet Node Allocatable';
    this.status.command = SHOW_ALLOCATABLE;
    this.disposables.push(
      this.status,
      this.panel,
      vscode.commands.registerCommand(SHOW_ALLOCATABLE, () => this.show()),
      vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
        deserializeWebviewPanel: async (panel) => {
          this.panel.restore(panel);
          this.schedule(0);
        },
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => this.follow(e)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length && this.isKubeletFile(e.document)) this.schedule(EDIT_DELAY_MS);
      }),
      vscode.languages.onDidChangeDiagnostics(() => this.schedule(EDIT_DELAY_MS)),
      client.onNotification(ALLOCATABLE_CHANGED, () => this.schedule(0)),
    );
    this.follow(vscode.window.activeTextEditor);
  }

  private isKubeletFile(doc: vscode.TextDocument): boolean {
    return vscode.languages.match(this.selector, doc) > 0;
  }

  private follow(editor: vscode.TextEditor | undefined): void {
    // No text editor (the view itself, a terminal), or one that is not a file (the Output panel,
    // the effective configuration): keep showing the last node.
    if (!editor || !FOLLOWED_SCHEMES.has(editor.document.uri.scheme)) return;
    if (!this.isKubeletFile(editor.document)) {
      this.followed = undefined;
      this.generation++;
      this.status.hide();
      return;
    }
    this.followed = editor.document.uri;
    this.schedule(0);
  }

  private show(): void {
    this.panel.show();
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.followed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, ms);
  }

  private async refresh(): Promise<void> {
    const uri = this.followed;
    if (!uri) return;
    const generation = ++this.generation;
    let answer: AllocatableResponse | null;
    try {
      answer = await this.client.sendRequest<AllocatableResponse | null>(ALLOCATABLE_REQUEST, { uri: uri.toString() });
    } catch {
      return; // the server is restarting or stopped; the next event asks again
    }
    if (generation !== this.generation) return;
    const node = answer?.nodes[0];
    if (!answer || !node) {
      this.status.hide();
      // null: a YAML/JSON file the server does not read; the view keeps the last node.
      // No nodes: a kubelet file no node reads; the view says so rather than keep another node's figures.
      if (answer) this.panel.update(answer);
      return;
    }
    const label = (p: string) => vscode.workspace.asRelativePath(p, false);
    this.status.text = statusText(node);
    this.status.tooltip = new vscode.MarkdownString(statusTooltip(node, label));
    const refuses = node.refusesToStart?.length ? 'The kubelet of this node refuses to start. ' : '';
    this.status.accessibilityInformation = { label: `${refuses}Node allocatable: ${node.summary.replace(/ · /g, ', ')}. Open the allocatable view.` };
    // A kubelet that would not start is an error of the node, shown as one.
    this.status.backgroundColor = refuses ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    this.status.show();
    this.panel.update(answer);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
