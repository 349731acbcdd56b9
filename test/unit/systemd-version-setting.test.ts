import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSettings, toAnalysisOptions } from '../../server/src/lsp/settings.ts';

test('kubeletConfig.systemdVersion: "252" and 252 give the option; junk is reported, not applied', () => {
  assert.equal(toAnalysisOptions(readSettings({ systemdVersion: '252' })).options.systemdVersion, 252);
  assert.equal(toAnalysisOptions(readSettings({ systemdVersion: 'v249' })).options.systemdVersion, 249);
  assert.equal(toAnalysisOptions(readSettings({ systemdVersion: 252 })).options.systemdVersion, 252);
  assert.equal(toAnalysisOptions(readSettings({})).options.systemdVersion, undefined);
  const bad = toAnalysisOptions(readSettings({ systemdVersion: 'newest' }));
  assert.equal(bad.options.systemdVersion, undefined);
  assert.match(bad.problems.join('\n'), /kubeletConfig.systemdVersion "newest"/);
});
