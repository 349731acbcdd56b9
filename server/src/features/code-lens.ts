/**
 * CodeLenses above the ExecStart line and a KubeletConfiguration: the node's allocatable, opening the allocatable
 * view, and the effective configuration.
 */
import type { CodeLens } from 'vscode-languageserver-types';
import type { Analysis } from '../engine.ts';
import { allocatableSummary } from './allocatable-view.ts';
import { allocatableAnchors } from './inlay-hints.ts';

import { SHOW_ALLOCATABLE_COMMAND, SHOW_EFFECTIVE_COMMAND } from './protocol.ts';

export { SHOW_EFFECTIVE_COMMAND };

export function codeLenses(analysis: Analysis, path: string, uri: string): CodeLens[] {
  return allocatableAnchors(analysis, path).flatMap((a) => [
    {
      range: a.lensRange,
      // Without a capacity the status bar says "no capacity" and the view explains how to give one: the lens only names the view.
      command: { title: a.result.allocatable.hasCapacity ? allocatableSummary(a.result) : 'allocatable', command: SHOW_ALLOCATABLE_COMMAND, arguments: [] },
    },
    { range: a.lensRange, command: { title: 'effective configuration', command: SHOW_EFFECTIVE_COMMAND, arguments: [uri] } },
  ]);
}
