/**
 * The "Node Allocatable" webview panel. The page is rendered in the extension
 * host (allocatable-render.ts): the webview gets no script, no local resource
 * roots and a CSP that allows only its one nonce'd <style>.
 */
import * as vscode from 'vscode';
import type { AllocatableResponse } from '../../server/src/features/allocatable-data.ts';
import { renderAllocatable } from './allocatable-render.ts';

export const VIEW_TYPE = 'kubelet.allocatable';
const TITLE = 'Node Allocatable';
/** The one command the page links to: the capacity setting. */
const LINKED_COMMANDS = ['workbench.action.openSettings'];

export class AllocatablePanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private nonce = '';
  private html = '';
  private data: AllocatableResponse | undefined;

  get visible(): boolean {
    return !!this.panel?.visible;
  }

  /** Opens the panel beside the editor, or brings it forward. */
  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return;
    }
    this.adopt(
      vscode.window.createWebviewPanel(VIEW_TYPE, TITLE, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: false,
        enableCommandUris: LINKED_COMMANDS,
        localResourceRoots: [],
        enableFindWidget: true,
      }),
    );
  }

  /** A panel VS Code kept open over a window reload: it comes back empty and is drawn like a new one. */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      panel.dispose();
      return;
    }
    panel.webview.options = { enableScripts: false, enableCommandUris: LINKED_COMMANDS, localResourceRoots: [] };
    this.adopt(panel);
  }

  private adopt(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    // Web Crypto: the same in the Node and the browser extension host.
    this.nonce = [...globalThis.crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    this.html = '';
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    this.render();
  }

  update(data: AllocatableResponse | undefined): void {
    this.data = data;
    this.render();
  }

  private render(): void {
    if (!this.panel) return;
    const html = renderAllocatable(this.data, {
      nonce: this.nonce,
      label: (p) => vscode.workspace.asRelativePath(p, (vscode.workspace.workspaceFolders?.length ?? 0) > 1),
      commandLinks: true,
    });
    // Setting the same HTML again would reload the page (and lose its scroll position).
    if (html === this.html) return;
    this.html = html;
    this.panel.webview.html = html;
    const first = this.data?.nodes[0];
    this.panel.title = first ? `${TITLE}: ${first.summary}` : TITLE;
  }

  dispose(): void {
    this.panel?.dispose();
    this.panel = undefined;
  }
}
