/**
 * validation.go ValidateKubeletConfiguration on enforceNodeAllocatable:
 * unknown values, duplicates, and `none` mixed with anything else are all
 * rejected ("invalid configuration"); the -compressible values exist from 1.32.
 * One rule id per check, as the rule catalog names them.
 */
import { finding, type Finding } from '../model/finding.ts';
import { ENFORCE_VALUES, ENFORCE_VALUE_SINCE } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import { enforceItems } from '../node/read.ts';
import type { Item, NodeModel } from '../node/model.ts';
import { closest } from '../catalog/suggest.ts';
import type { Rule } from './types.ts';
import { oneFix, replaceWord } from './lib/edit.ts';

function valid(node: NodeModel, v: string): boolean {
  if (!(ENFORCE_VALUES as readonly string[]).includes(v)) return false;
  const since = ENFORCE_VALUE_SINCE[v as keyof typeof ENFORCE_VALUE_SINCE];
  return since === undefined || compareVersions(node.kubernetesVersion, since) >= 0;
}

function located(node: NodeModel): (Item & { valueSpan: NonNullable<Item['valueSpan']> })[] {
  return enforceItems(node).filter((i): i is Item & { valueSpan: NonNullable<Item['valueSpan']> } => i.valueSpan !== undefined);
}

export const enforceUnknownValue: Rule = {
  id: 'enforce-unknown-value',
  summary: 'enforceNodeAllocatable holds a value the kubelet does not know',
  severity: 'error',
  fix: true,
  fixDoes: 'replaces a near-miss with the value it resembles (e.g. `kube-reserve` → `kube-reserved`)',
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    for (const i of located(node)) {
      const v = String(i.value);
      if (valid(node, v)) continue;
      const since = ENFORCE_VALUE_SINCE[v as keyof typeof ENFORCE_VALUE_SINCE];
      const guess = since ? undefined : closest(v, ENFORCE_VALUES);
      out.push(
        finding(
          'enforce-unknown-value',
          'error',
          i.valueSpan,
          since
            ? `"${v}" arrived in Kubernetes ${since}; a ${node.kubernetesVersion} kubelet rejects it and does not start.`
            : `enforceNodeAllocatable has no value "${v}"; the kubelet rejects the configuration and does not start. Valid: ${ENFORCE_VALUES.join(', ')}.${guess ? ` Did you mean "${guess}"?` : ''}`,
          guess ? oneFix(`Change to "${guess}"`, replaceWord(i.valueSpan, i.text, guess)) : undefined,
        ),
      );
    }
    return out;
  },
};

export const enforceDuplicate: Rule = {
  id: 'enforce-duplicate',
  summary: 'enforceNodeAllocatable lists a value twice',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const seen = new Map<string, Item>();
    for (const i of located(node)) {
      const v = String(i.value);
      const first = seen.get(v);
      if (!first) {
        seen.set(v, i);
        continue;
      }
      out.push(
        finding('enforce-duplicate', 'error', i.valueSpan, `"${v}" appears twice in enforceNodeAllocatable; the kubelet rejects duplicates and does not start.`, {
          related: first.valueSpan ? [{ span: first.valueSpan, message: 'first occurrence' }] : undefined,
        }),
      );
    }
    return out;
  },
};

export const enforceNoneExclusive: Rule = {
  id: 'enforce-none-exclusive',
  summary: '"none" in enforceNodeAllocatable cannot be combined with other values',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const items = located(node);
    if (items.length < 2) return [];
    return items
      .filter((i) => i.value === 'none')
      .map((i) =>
        finding(
          'enforce-none-exclusive',
          'error',
          i.valueSpan,
          noneWith(items),
        ),
      );
  },
};

export const enforceCompressibleConflict: Rule = {
  id: 'enforce-compressible-conflict',
  summary: 'kube-reserved (or system-reserved) listed together with its -compressible form',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const items = located(node);
    for (const base of ['kube-reserved', 'system-reserved']) {
      const plain = items.find((i) => i.value === base);
      const comp = items.find((i) => i.value === `${base}-compressible`);
      if (!plain || !comp) continue;
      out.push(
        finding(
          'enforce-compressible-conflict',
          'error',
          comp.valueSpan,
          `"${base}-compressible" enforces only the cpu part of "${base}"; listing both is rejected by the kubelet. Keep one: "${base}" limits cpu and memory, "${base}-compressible" limits cpu only.`,
          { related: [{ span: plain.valueSpan, message: `"${base}" is also listed` }] },
        ),
      );
    }
    return out;
  },
};

/** The message of enforce-none-exclusive; "none" twice has no other value to name (validation.go reports the duplicate). */
function noneWith(items: Item[]): string {
  const others = items.filter((x) => x.value !== 'none').map((x) => `"${x.value}"`);
  return others.length === 0
    ? '"none" is listed more than once in enforceNodeAllocatable; the kubelet rejects the configuration.'
    : `"none" must be the only value of enforceNodeAllocatable; with ${others.join(', ')} beside it the kubelet rejects the configuration.`;
}
