/** package.json contributions a user meets first: the settings editor and the walkthrough. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applySettings } from '../../scripts/settings.ts';
import { capacityPresets } from '../../server/src/node/instance-capacity.ts';
import { RULES } from '../../server/src/registry.ts';

const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
const props = pkg.contributes.configuration.properties;

test('package.json settings match the engine (run npm run settings after adding a rule or a preset)', () => {
  const want = structuredClone(props);
  applySettings(want);
  assert.deepEqual(props, want);
});

test('kubeletConfig.nodeCapacity offers every preset with what it stands for; kubeletConfig.rules knows every rule id with its summary', () => {
  const presets = props['kubeletConfig.nodeCapacity'].anyOf[0];
  assert.deepEqual(presets.enum, capacityPresets());
  assert.equal(presets.markdownEnumDescriptions.length, presets.enum.length);
  const rules = props['kubeletConfig.rules'].properties;
  for (const r of RULES) assert.equal(rules[r.id]?.description, r.summary, r.id);
});

/** What VS Code accepts in a walkthrough step's completionEvents (onLanguage: is an activation event, not one of these). */
const COMPLETION_EVENTS = /^(onCommand|onLink|onView|onSettingChanged|onContext|onStepSelected|extensionInstalled):|^onStepSelected$/;

test('walkthrough: every step can be completed, no raw backticks, and "Open Folder" only while no folder is open', () => {
  const steps: { id: string; title: string; description: string; when?: string; completionEvents: string[] }[] = pkg.contributes.walkthroughs[0].steps;
  for (const s of steps) {
    assert.ok(s.completionEvents.length > 0, s.id);
    for (const e of s.completionEvents) assert.match(e, COMPLETION_EVENTS, `${s.id}: ${e}`);
    assert.ok(!s.title.includes('`') && !s.description.includes('`'), `${s.id}: step text is not rendered as markdown code`);
    if (s.description.includes('command:workbench.action.files.openFolder')) assert.equal(s.when, 'workspaceFolderCount == 0', s.id);
  }
  // The context key the first steps wait for is the one the client sets (in what both extension hosts run).
  const client = readFileSync(join(__dirname, '../../client/src/activate.ts'), 'utf8');
  for (const s of steps) for (const e of s.completionEvents.filter((x) => x.startsWith('onContext:'))) assert.ok(client.includes(`'${e.slice('onContext:'.length)}'`), e);
});
