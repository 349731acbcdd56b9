/**
 * k8s.io/component-base/featuregate/feature_gate.go (SetFromMap, called from
 * cmd/kubelet/app/server.go for `featureGates` and `--feature-gates`): a name
 * the kubelet's gate set does not hold stops it at startup with
 * `unrecognized feature gate: X`. That covers typos and gates newer than the
 * target version; removed gates are feature-gate-removed's.
 */
import { finding, type Finding } from '../model/finding.ts';
import { compareVersions } from '../catalog/flags.ts';
import { FEATURE_GATES, GATES_COMPLETE_THROUGH, featureGate, gateAddedIn, gateAt, gateBirthKnown } from '../catalog/feature-gates.ts';
import { gateItems, gateWritten } from './lib/feature-gates.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

export const featureGateUnknown: Rule = {
  id: 'feature-gate-unknown',
  summary: 'a feature gate the kubelet of the target version does not know (typo, or added in a later release)',
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'replaces a near-miss with the gate it resembles (e.g. `NodeSwapp` → `NodeSwap`)',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const v = node.kubernetesVersion;
    let names: string[] | undefined;
    for (const item of gateItems(node)) {
      if (item.key === undefined || !item.keySpan || gateAt(item.key, v).status !== 'unknown') continue;
      // A file that states a version newer than the data (node/version.ts withinCatalog): a gate the catalog already
      // has from that version's development branch exists there.
      const stated = node.kubernetesVersionStated;
      if (stated && gateAt(item.key, stated).status === 'known') continue;
      const fails = `a ${v} kubelet refuses to start ("unrecognized feature gate: ${item.key}")`;
      const gate = featureGate(item.key);
      // A gate recorded only from its GA or deprecation (catalog gateBirthKnown): whether an older kubelet knew it is
      // not known, so nothing is claimed.
      if (gate && !gateBirthKnown(gate)) {
        out.push(
          finding(
            'feature-gate-unknown',
            'information',
            item.keySpan,
            `If a ${v} kubelet does not know feature gate ${item.key}, it refuses to start. This linter's record of the gate starts at ${gateAddedIn(gate)}; its earlier history is not recorded.`,
          ),
        );
        continue;
      }
      if (gate) {
        out.push(
          finding(
            'feature-gate-unknown',
            'error',
            item.keySpan,
            `Feature gate ${item.key} arrived in Kubernetes ${gateAddedIn(gate)}: ${fails}. ${gateWritten(item)} sets ${item.key}=${item.text}; drop the entry or target a newer version.`,
          ),
        );
        continue;
      }
      names ??= knownNames(v);
      const guess = closest(item.key, names);
      // Beyond the versions whose gate list is complete a new gate may simply be missing from the catalog.
      const sure = compareVersions(v, GATES_COMPLETE_THROUGH) <= 0 && !stated;
      out.push(
        finding(
          'feature-gate-unknown',
          sure || guess ? 'error' : 'warning',
          item.keySpan,
          `${item.key} is not a feature gate of Kubernetes ${v}${guess ? `: did you mean "${guess}"?` : '.'} ` +
            `${gateWritten(item)} sets ${item.key}=${item.text}; ` +
            (sure ? '' : `as far as this linter knows (its gate list is complete through ${GATES_COMPLETE_THROUGH}${stated ? `, and the node states ${stated}` : ''}), `) +
            `${fails}.`,
          guess ? oneFix(`Change to "${guess}"`, replaceWord(item.keySpan, item.key, guess)) : undefined,
        ),
      );
    }
    return out;
  },
};

/** Gate names a kubelet of version v accepts. */
function knownNames(v: string): string[] {
  return FEATURE_GATES.filter((g) => gateAt(g.name, v).status === 'known').map((g) => g.name);
}

