/**
 * pkg/kubelet/apis/config/v1beta1/defaults.go: evictionHard gets its
 * defaults only when nothing sets it. Setting any key (in the file or with
 * --eviction-hard) leaves the other signals with no hard threshold, unless
 * mergeDefaultEvictionSettings is true (1.33+).
 */
import { finding, type Finding } from '../model/finding.ts';
import { defaultEvictionHard } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import { boolSetting } from '../node/read.ts';
import type { Rule } from './types.ts';

export const evictionDefaultsDropped: Rule = {
  id: 'eviction-defaults-dropped',
  summary: 'setting evictionHard drops the default thresholds of the signals it does not name',
  severity: 'information',
  fix: false,
  area: 'eviction',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.settings.get('evictionHard');
    if (s?.kind !== 'map' || !s.from.span) return out;
    if (boolSetting(node, 'mergeDefaultEvictionSettings', false)) return out;
    const have = new Set(s.items.map((i) => i.key));
    const lost = Object.entries(defaultEvictionHard(node.kubernetesVersion)).filter(([k]) => !have.has(k));
    if (lost.length === 0) return out;
    const merge = compareVersions(node.kubernetesVersion, '1.33') >= 0 ? ' Set mergeDefaultEvictionSettings: true to keep the defaults for signals you do not set.' : '';
    const memory = lost.some(([k]) => k === 'memory.available')
      ? ' Without a memory.available threshold nothing is kept back for eviction, and the node can run out of memory before the kubelet reacts.'
      : '';
    out.push(
      finding(
        'eviction-defaults-dropped',
        'information',
        s.from.span,
        `Because evictionHard is set, the kubelet's defaults for the signals it leaves out no longer apply: ${lost.map(([k, v]) => `${k}<${v}`).join(', ')} ${lost.length === 1 ? 'has' : 'have'} no hard threshold.${memory}${merge}`,
      ),
    );
    return out;
  },
};
