/**
 * pkg/kubelet/apis/config/v1beta1/defaults.go: evictionHard gets its
 * defaults only when nothing sets it. Setting any key (in the file or with
 * --eviction-hard) leaves the other signals with no hard threshold, unless
 * mergeDefaultEvictionSettings is true (1.33+).
 *
 * Severity: losing memory.available or nodefs.available matters for every node
 * (no memory kept back for eviction, no disk-pressure eviction of the root
 * filesystem), so that is information with a fix; losing only the imagefs or
 * inode thresholds is a hint (imagefs is the root filesystem on most nodes).
 */
import { finding, type Finding, type Fix } from '../model/finding.ts';
import { defaultEvictionHard } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import { boolSetting } from '../node/read.ts';
import type { NodeModel, Setting } from '../node/model.ts';
import { appendToBlockMap, insertTopLevel } from './lib/insert.ts';
import type { Rule } from './types.ts';

/** Signals whose missing hard threshold matters on any node. */
const MATTERS = new Set(['memory.available', 'nodefs.available']);

export const evictionDefaultsDropped: Rule = {
  id: 'eviction-defaults-dropped',
  summary: 'setting evictionHard drops the default thresholds of the signals it does not name',
  severity: ['information', 'hint'],
  fix: true,
  fixDoes: 'sets `mergeDefaultEvictionSettings: true` (1.33+), or writes the lost default thresholds into `evictionHard`',
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.settings.get('evictionHard');
    if (s?.kind !== 'map' || !s.from.span) return out;
    if (boolSetting(node, 'mergeDefaultEvictionSettings', false)) return out;
    if (s.items.some((i) => i.keyTemplate)) return out; // a template decides which signals are set
    // A platform tool's own map (nodeadm's config) is the base: the user's keys merge into it, and only a map flag
    // that replaces it loses its thresholds (node/platform.ts); mergeDefaultEvictionSettings would bring back the
    // kubelet's defaults, not the tool's.
    const platform = node.platformReplaced?.find((r) => r.field === 'evictionHard');
    if (!platform && s.items.some((i) => i.from.how === 'platform')) return out;
    const defaults: Record<string, string> = platform ? Object.fromEntries(platform.base.items.map((i) => [i.key ?? '', i.text])) : defaultEvictionHard(node.kubernetesVersion);
    const have = new Set(s.items.map((i) => i.key));
    // A threshold of 0 or 0% is no threshold (the kubelet never evicts on it: kind's base has only such ones), so
    // losing it loses nothing.
    const lost = Object.entries(defaults).filter(([k, v]) => !have.has(k) && !/^0+(?:\.0*)?%?$/.test(v.trim()));
    if (lost.length === 0) return out;
    const canMerge = !platform && compareVersions(node.kubernetesVersion, '1.33') >= 0;
    const merge = canMerge ? ' Set mergeDefaultEvictionSettings: true to keep the defaults for signals you do not set.' : '';
    const memory = lost.some(([k]) => k === 'memory.available')
      ? ' Without a memory.available threshold nothing is kept back for eviction, and the node can run out of memory before the kubelet reacts.'
      : '';
    const important = lost.filter(([k]) => MATTERS.has(k)).map(([k]) => k);
    const list = lost.map(([k, v]) => `${k}<${v}`).join(', ');
    const point = important.length
      ? `evictionHard drops the default ${important.join(' and ')} threshold${important.length > 1 ? 's' : ''}.`
      : `evictionHard drops the default ${lost.length === 1 ? 'threshold' : 'thresholds'} of ${lost.map(([k]) => k).join(', ')}.`;
    const fixes = important.length ? keepDefaultsFixes(node, s, lost, canMerge) : [];
    out.push(
      finding(
        'eviction-defaults-dropped',
        important.length ? 'information' : 'hint',
        s.from.span,
        `${point} Because evictionHard is set, ${platform ? `${node.platformSpec?.name ?? 'the platform'}'s default thresholds (${platform.base.from.label ?? 'its base'})` : "the kubelet's defaults"} for the signals it leaves out no longer apply: ${list} ${lost.length === 1 ? 'has' : 'have'} no hard threshold.${memory}${merge}`,
        fixes.length ? { fixes } : undefined,
      ),
    );
    return out;
  },
};

/** mergeDefaultEvictionSettings: true (1.33+), and writing the lost defaults into the map; block YAML only. */
function keepDefaultsFixes(node: NodeModel, s: Extract<Setting, { kind: 'map' }>, lost: [string, string][], canMerge: boolean): Fix[] {
  const key = s.from.span;
  if (!key || (s.from.how !== 'config' && s.from.how !== 'config-dir')) return [];
  const fixes: Fix[] = [];
  const merge = canMerge ? insertTopLevel(node, key, 'mergeDefaultEvictionSettings: true') : undefined;
  if (merge) fixes.push({ title: 'Keep the default thresholds: set mergeDefaultEvictionSettings: true', edits: [merge], preferred: true });
  const last = s.items.at(-1)?.keySpan;
  const write = last ? appendToBlockMap(node, key, last, lost.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(`\n${' '.repeat(last.range.start.character)}`)) : undefined;
  if (write) fixes.push({ title: `Write the default thresholds into evictionHard (${lost.map(([k]) => k).join(', ')})`, edits: [write], preferred: !merge });
  return fixes;
}
