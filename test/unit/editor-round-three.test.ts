/**
 * Issue 26, "the editor, round three": messages and views a user meets, as pure functions of an analysis (and of
 * the settings, for kubeletConfig.nodeCapacity). Completion, fixes and inlay hints have their own files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze } from '../../server/src/engine.ts';
import { DEFAULT_SETTINGS, toAnalysisOptions } from '../../server/src/lsp/settings.ts';
import { allocatableMarkdown } from '../../server/src/features/allocatable-view.ts';
import { CONFIG_HEAD } from '../helpers/nodes.ts';

test('13: an invalid kubeletConfig.nodeCapacity is said in words (no Go regular expression); a valid one is named as the capacity source', () => {
  const bad = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'cpu=4,memory=lots' });
  assert.equal(bad.options.capacity, undefined);
  assert.doesNotMatch(bad.capacityProblem ?? '', /regular expression|\^\(/);
  assert.match(bad.capacityProblem ?? '', /memory: "lots" is not a quantity \(a number with an optional suffix, like 4, 500m or 16Gi\)/);
  const ok = toAnalysisOptions({ ...DEFAULT_SETTINGS, nodeCapacity: 'cpu=4,memory=16Gi' });
  assert.equal(ok.options.capacitySource, 'the kubeletConfig.nodeCapacity setting');
  const a = analyze([{ path: 'n/config.yaml', text: CONFIG_HEAD + 'maxPods: 20\n' }], ok.options);
  assert.match(allocatableMarkdown(a.nodes[0]), /Capacity from the kubeletConfig\.nodeCapacity setting;/);
  assert.doesNotMatch(allocatableMarkdown(a.nodes[0]), /given to the analysis/);
});
