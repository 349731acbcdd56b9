/**
 * CodeLenses above the ExecStart line and a KubeletConfiguration: "allocatable", opening the allocatable view, and
 * the effective configuration. The figures are the inlay hint's, on the line below, and the status bar's: a lens
 * that repeated them showed the same line twice, one line apart (issue 26).
 */
import type { CodeLens } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { allocatableAnchors } from './inlay-hints.ts';

import { SHOW_ALLOCATABLE_COMMAND, SHOW_EFFECTIVE_COMMAND } from './protocol.ts';

export { SHOW_EFFECTIVE_COMMAND };

export function codeLenses(analysis: Analysis, path: string, uri: string): CodeLens[] {
  return allocatableAnchors(analysis, path).flatMap((a) => [
    {
      range: a.lensRange,
      command: { title: 'allocatable', command: SHOW_ALLOCATABLE_COMMAND, arguments: [] },
    },
    { range: a.lensRange, command: { title: 'effective configuration', command: SHOW_EFFECTIVE_COMMAND, arguments: [uri] } },
  ]);
}
