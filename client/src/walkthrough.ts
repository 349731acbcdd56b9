/**
 * The walkthrough's first step ("Open a kubelet file") completes through a context key (package.json
 * contributes.walkthroughs: onContext: is a completion event, onLanguage: is not). The key is set as soon as any
 * kubelet file is open: one opened before the extension started (a restored tab, an editor behind the walkthrough,
 * whose page is a webview and leaves no active text editor), and each one opened later, whether it is shown or not.
 */
import type * as vscode from 'vscode';

/** The parts of the vscode API this needs (a fake in the tests). */
export interface WalkthroughApi {
  window: Pick<typeof vscode.window, 'visibleTextEditors' | 'onDidChangeActiveTextEditor' | 'onDidChangeVisibleTextEditors'>;
  workspace: Pick<typeof vscode.workspace, 'textDocuments' | 'onDidOpenTextDocument'>;
  languages: Pick<typeof vscode.languages, 'match'>;
}

/** Calls `opened` once, when the first kubelet file is (or already was) open; returns the listeners to dispose. */
export function whenKubeletFileOpen(api: WalkthroughApi, selector: vscode.DocumentSelector, opened: () => void): vscode.Disposable[] {
  let done = false;
  const check = (docs: readonly vscode.TextDocument[]) => {
    if (done || !docs.some((d) => api.languages.match(selector, d) > 0)) return;
    done = true;
    opened();
  };
  check([...api.workspace.textDocuments, ...api.window.visibleTextEditors.map((e) => e.document)]);
  return [
    api.workspace.onDidOpenTextDocument((d) => check([d])),
    api.window.onDidChangeActiveTextEditor((e) => check(e ? [e.document] : [])),
    api.window.onDidChangeVisibleTextEditors((es) => check(es.map((e) => e.document))),
  ];
}
