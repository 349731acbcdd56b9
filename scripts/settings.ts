/**
 * Keeps package.json's settings in step with the engine: kubeletConfig.nodeCapacity offers the
 * capacity presets (with what each stands for) and kubeletConfig.rules knows every rule id (with
 * its summary), so that the settings editor completes them. `npm run settings` rewrites
 * package.json; `--check` only says whether it is out of date (test/unit/settings.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capacityPresets, presetCapacity } from '../server/src/node/instance-capacity.ts';
import { RULES } from '../server/src/registry.ts';

const LEVELS = ['off', 'error', 'warning', 'information', 'hint'];

type Props = Record<string, Record<string, unknown>>;

/** The two generated settings, applied to package.json's configuration properties. */
export function applySettings(props: Props): void {
  const presets = capacityPresets();
  props['kubeletConfig.nodeCapacity'] = {
    ...props['kubeletConfig.nodeCapacity'],
    anyOf: [
      { enum: presets, markdownEnumDescriptions: presets.map((p) => `\`${presetCapacity(p)}\``) },
      {
        pattern: '^\\s*$|=|^\\s*[A-Za-z][\\w.-]*\\s*$',
        patternErrorMessage: 'an instance type or preset name, or resource=quantity pairs such as cpu=16,memory=64Gi',
      },
    ],
    markdownDescription:
      'Node capacity used to compute Node Allocatable, as `cpu=16,memory=64Gi,ephemeral-storage=200Gi[,pods=110][,hugepages-2Mi=1Gi]`, ' +
      'an EC2 or Azure instance type (`m5.large`, `Standard_D4s_v5`, optionally followed by `,resource=quantity` overrides), or a preset: ' +
      presets.map((p) => `\`${p}\` (${presetCapacity(p)})`).join(', ') +
      '. A `# kubelet-lint: capacity ...` modeline in any file of a node takes precedence.',
  };
  const level = { type: 'string', enum: LEVELS };
  props['kubeletConfig.rules'] = {
    ...props['kubeletConfig.rules'],
    properties: Object.fromEntries(RULES.map((r) => [r.id, { ...level, description: r.summary }])),
    // Parser codes (unit-syntax, config-syntax, ...) are accepted too.
    additionalProperties: level,
  };
}

function main(root: string, check: boolean): number {
  const path = join(root, 'package.json');
  const text = readFileSync(path, 'utf8');
  const pkg = JSON.parse(text) as { contributes: { configuration: { properties: Props } } };
  applySettings(pkg.contributes.configuration.properties);
  const want = JSON.stringify(pkg, null, 2) + '\n';
  if (check) {
    if (want !== text) console.error('out of date: package.json settings (run npm run settings)');
    return want === text ? 0 : 1;
  }
  if (want !== text) writeFileSync(path, want);
  return 0;
}

if (process.argv[1]?.endsWith('settings.ts')) process.exit(main(process.cwd(), process.argv.includes('--check')));
