/** CodeLens above the ExecStart line and a KubeletConfiguration: allocatable, opening the effective configuration. */
import type { CodeLens } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { allocatableSummary } from './allocatable-view.ts';
import { allocatableAnchors } from './inlay-hints.ts';

import { SHOW_EFFECTIVE_COMMAND } from './protocol.ts';

export { SHOW_EFFECTIVE_COMMAND };

export function codeLenses(analysis: Analysis, path: string, uri: string): CodeLens[] {
  return allocatableAnchors(analysis, path).map((a) => ({
    range: a.lensRange,
    command: { title: allocatableSummary(a.result), command: SHOW_EFFECTIVE_COMMAND, arguments: [uri] },
  }));
}
