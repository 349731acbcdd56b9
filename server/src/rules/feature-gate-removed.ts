/**
 * A gate deleted from pkg/features/kube_features.go (or from the packages the
 * kubelet registers gates from) is unknown to later kubelets:
 * `unrecognized feature gate: X` stops the kubelet at startup, whatever the
 * value. Operators carry DevicePlugins, BlockVolume, PodPriority,
 * RuntimeClass ... long after the features went GA (kubelet-facts §4;
 * catalog/feature-gates.ts lists the sources and which versions are bracketed).
 *
 * Fix: delete the entry (the kubelet cannot start with it, and the gate's behaviour
 * is fixed now), with one separator, so the other gates keep their values; a flag
 * that holds only this gate goes whole.
 *
 * The kubelet merges --feature-gates over featureGates gate by gate (the config file's
 * gates stay unless the flag names them), so a gate written in both places is reported
 * at both: fixing only the flag would leave the file's entry to fail the next start.
 */
import { finding, type Finding } from '../model/finding.ts';
import { gateAt, lastSpec, type FeatureGate } from '../catalog/feature-gates.ts';
import { gateItems, gateWritten } from './lib/feature-gates.ts';
import { oneFix } from './lib/edit.ts';
import { removeMapItem } from './lib/remove-item.ts';
import { removeWholeFlag } from './lib/remove-flag.ts';
import type { Item, NodeModel } from '../node/model.ts';
import type { Rule } from './types.ts';

export const featureGateRemoved: Rule = {
  id: 'feature-gate-removed',
  summary: 'a feature gate that was removed from the kubelet of the target version',
  severity: 'error',
  fix: true,
  fixDoes: 'deletes the entry with one separator (an only entry leaves `featureGates: {}`; a flag holding only this gate goes whole)',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const v = node.kubernetesVersion;
    for (const item of gateOccurrences(node)) {
      if (item.key === undefined || !item.keySpan) continue;
      const st = gateAt(item.key, v);
      if (st.status !== 'removed') continue;
      const { gate } = st;
      out.push(
        finding(
          'feature-gate-removed',
          'error',
          item.keySpan,
          `Feature gate ${item.key} was removed ${gate.approximate ? 'by' : 'in'} Kubernetes ${gate.removedIn}: a ${v} kubelet refuses to start. ` +
            `${gateWritten(item)} sets ${item.key}=${item.text}, and the kubelet fails with "unrecognized feature gate: ${item.key}"` +
            `${gate.approximate ? ` (${gate.removedIn} no longer has the gate; the exact release that dropped it is not recorded)` : ''}. ${became(gate)}`,
          deleteFix(node, item),
        ),
      );
    }
    return out;
  },
};

function deleteFix(node: NodeModel, item: Item) {
  const entry = removeMapItem(node, item);
  if (entry) return oneFix(`Delete the ${item.key} entry`, entry);
  // The flag's only gate: the whole flag (or its entry in a platform's flag list) goes.
  const whole = removeWholeFlag(node, item);
  const flag = node.flags.find((x) => x.span === item.from.span);
  const name = flag?.from === 'kubeadm-extra-args' ? `the ${flag.written} entry` : '--feature-gates';
  return oneFix(`Remove ${name} (${item.key} is its only gate)`, whole);
}

/**
 * The effective gates, and the config file's entries for gates a flag also sets (shadowed in the merge, but read by
 * the kubelet all the same once the flag's entry is gone).
 */
function gateOccurrences(node: NodeModel): Item[] {
  const items = gateItems(node);
  const seen = new Set(items.map((i) => i.keySpan));
  const out = [...items];
  for (const doc of node.kubeletConfigs) {
    const gates = doc.root.entries.find((e) => e.key === 'featureGates')?.value;
    if (gates?.kind !== 'map') continue;
    for (const e of gates.entries) {
      if (seen.has(e.keySpan) || e.value.kind !== 'scalar' || !items.some((i) => i.key === e.key)) continue;
      const v = e.value;
      out.push({ key: e.key, value: v.value, text: v.source, keySpan: e.keySpan, valueSpan: v.span, from: { how: 'config', span: e.keySpan, field: `featureGates.${e.key}` } });
    }
  }
  return out;
}

/** What the feature had become when its gate went. */
function became(gate: FeatureGate): string {
  const last = lastSpec(gate);
  if (!last) return 'Delete the entry.';
  if (last.stage === 'ga') {
    return last.default
      ? `The feature went GA in ${last.since} and is always on now: delete the entry.`
      : `The feature went GA in ${last.since} with the gate off, and that behaviour is fixed now: delete the entry.`;
  }
  return `The feature was dropped (last ${last.stage === 'deprecated' ? 'deprecated' : `${last.stage}`}, default ${last.default ? 'on' : 'off'}, since ${last.since}): delete the entry.`;
}
