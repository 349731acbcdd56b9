/**
 * From 1.36 the kubelet's gate set knows which gates need others (pkg/features/kube_features.go
 * defaultKubernetesFeatureGateDependencies, registered with AddDependencies). After `featureGates` and
 * `--feature-gates` are applied, k8s.io/component-base/featuregate feature_gate.go (unsafeSetFromMap, read at index
 * id 894139668) fails for every enabled gate with a disabled dependency:
 *   `X is enabled, but depends on features that are disabled: [Y]`
 * and the kubelet does not start. Reported at the entry that made the combination: the dependent gate's entry when it
 * is set (or AllAlpha/AllBeta turned it on), else the entry that turned its dependency off.
 * Dependencies read only on the 1.38 branch (catalog/facts/feature-gate-dependencies.tsv `approximate`) are warnings.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Item } from '../node/model.ts';
import { gateDependencies, gatesWithDependencies } from '../catalog/feature-gates.ts';
import { gateState, type GateState } from '../node/gates.ts';
import { mapItems } from '../node/read.ts';
import { describeGate } from './lib/feature-gates.ts';
import { oneFix, replaceWord } from './lib/edit.ts';
import type { Rule } from './types.ts';

export const featureGateDependency: Rule = {
  id: 'feature-gate-dependency',
  summary: 'a feature gate is on while a gate it depends on is off (refused from 1.36)',
  severity: ['error', 'warning'],
  fix: true,
  fixDoes: 'sets the gate to false at its own entry, or sets the dependency it turned off back to true',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    // A finding is placed at a gate's entry; a node that names no gate has none to place one at (and its defaults are
    // the release's own, which start).
    if (mapItems(node, 'featureGates').length === 0) return out;
    const v = node.kubernetesVersion;
    // AllAlpha=true / AllBeta=true can turn on many gates at once: one finding at that entry, listing them.
    const byAll = new Map<Item, { name: string; needs: string[]; sure: boolean }[]>();
    for (const name of gatesWithDependencies()) {
      const deps = gateDependencies(name, v);
      if (deps.length === 0) continue;
      const g = gateState(node, name);
      // Unknown, off, or refused at its own entry already (feature-gate-locked).
      if (!g.enabled || g.unknown || g.lockedAgainst) continue;
      const off: { state: GateState; approximate: boolean }[] = [];
      for (const d of deps) {
        for (const need of d.needs) {
          const n = gateState(node, need);
          if (n.enabled || n.unknown || n.lockedAgainst || off.some((o) => o.state.name === need)) continue;
          off.push({ state: n, approximate: d.approximate === true });
        }
      }
      if (off.length === 0) continue;
      // The entry that made the combination: the gate's own, else the one that turned a dependency off.
      const at = g.item ?? off.find((o) => o.state.item)?.state.item;
      if (!at?.keySpan) continue;
      const sure = off.some((o) => !o.approximate);
      const names = off.map((o) => o.state.name);
      const are = names.length > 1 ? 'are' : 'is';
      if (g.item && g.item.key !== name) {
        byAll.set(g.item, [...(byAll.get(g.item) ?? []), { name, needs: names, sure }]);
        continue;
      }
      out.push(
        finding(
          'feature-gate-dependency',
          sure ? 'error' : 'warning',
          at.keySpan,
          `A ${v} kubelet refuses to start: ${name} needs ${names.join(' and ')}, which ${are} off. ` +
            `${describeGate(node, g)}; ${off.map((o) => describeGate(node, o.state)).join('; ')}. ` +
            `The kubelet fails with "${name} is enabled, but depends on features that are disabled: [${names.join(' ')}]"` +
            (sure ? '' : ` (this dependency was read on the 1.38 development branch; ${v} may not check it yet)`) +
            `. Turn ${names.join(' and ')} on, or ${name} off.`,
          { ...relatedOff(off, at), ...fixAt(at, name) },
        ),
      );
    }
    for (const [item, list] of byAll) {
      const sure = list.some((x) => x.sure);
      const gates = list.map((x) => x.name);
      out.push(
        finding(
          'feature-gate-dependency',
          sure ? 'error' : 'warning',
          item.keySpan!,
          `A ${v} kubelet refuses to start: ${item.key}=${item.text} turns on ${gates.length === 1 ? 'a gate' : `${gates.length} gates`} whose dependencies stay off. ` +
            `${list.map((x) => `${x.name} needs ${x.needs.join(' and ')}`).join('; ')}. ` +
            `The kubelet fails with "${list[0]!.name} is enabled, but depends on features that are disabled: [${list[0]!.needs.join(' ')}]"` +
            (sure ? '' : ` (these dependencies were read on the 1.38 development branch; ${v} may not check them yet)`) +
            `. Set ${list.length === 1 ? 'that gate' : 'those gates'} to false, or turn their dependencies on (AllBeta=true covers beta ones).`,
        ),
      );
    }
    return out;
  },
};

/** At the gate's own entry: set it to false; at the entry that turned a dependency off: set that back to true. */
function fixAt(at: Item, gate: string): Pick<Finding, 'fixes'> | undefined {
  if (!at.valueSpan || at.key === undefined) return undefined;
  const value = at.key === gate ? 'false' : 'true';
  return oneFix(`Set ${at.key} to ${value}`, replaceWord(at.valueSpan, at.text, value), false);
}

/** Where the dependencies were turned off, when that is another entry than the one reported. */
function relatedOff(off: { state: GateState }[], at: Item): Pick<Finding, 'related'> | undefined {
  const related = off
    .filter((o) => o.state.item?.keySpan && o.state.item !== at)
    .map((o) => ({ span: o.state.item!.keySpan!, message: `${o.state.name} is turned off here` }));
  return related.length ? { related } : undefined;
}
