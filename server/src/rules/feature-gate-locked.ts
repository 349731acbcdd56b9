/**
 * k8s.io/component-base/featuregate/feature_gate.go: a gate registered with
 * LockToDefault (GA or deprecated gates on their way out) can only be set to
 * its default; anything else stops the kubelet with
 * `cannot set feature gate X to false, feature is locked to true`.
 * Setting it to the default is harmless (the GA warning only).
 */
import { finding, type Finding } from '../model/finding.ts';
import { gateAt } from '../catalog/feature-gates.ts';
import { parseGoBool } from '../node/read.ts';
import { gateItems, gateWritten } from './lib/feature-gates.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

export const featureGateLocked: Rule = {
  id: 'feature-gate-locked',
  summary: 'a feature gate locked to its default is set to the other value',
  severity: 'error',
  fix: true,
  fixDoes: 'sets the gate to the value it is locked to',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    const v = node.kubernetesVersion;
    for (const item of gateItems(node)) {
      if (item.key === undefined || !item.keySpan) continue;
      const st = gateAt(item.key, v);
      if (st.status !== 'known' || !st.spec.locked) continue;
      const value = typeof item.value === 'boolean' ? item.value : typeof item.value === 'string' ? parseGoBool(item.value) : undefined;
      if (value === undefined || value === st.spec.default) continue;
      const locked = st.spec.default;
      const span = item.valueSpan ?? item.keySpan;
      out.push(
        finding(
          'feature-gate-locked',
          'error',
          span,
          `Feature gate ${item.key} is locked to ${locked} in Kubernetes ${v}: the kubelet refuses to start. ` +
            `${gateWritten(item)} sets ${item.key}=${item.text}, but the gate is ${st.spec.stage === 'ga' ? 'GA' : st.spec.stage} and locked; the kubelet fails with ("cannot set feature gate ${item.key} to ${value}, feature is locked to ${locked}"). ` +
            (st.spec.stage === 'ga' && locked ? 'The feature is always on: delete the entry.' : `Delete the entry or set it to ${locked}.`),
          item.valueSpan ? oneFix(`Set ${item.key} to ${locked}`, replaceWord(item.valueSpan, item.text, String(locked)), false) : undefined,
        ),
      );
    }
    return out;
  },
};
