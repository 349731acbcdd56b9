/**
 * pkg/kubelet/apis/config/validation/validation_reserved_memory.go
 * validateReservedMemoryConfiguration: every reservedMemory limit must be
 * `memory` or `hugepages-<size>` (corev1helper.IsHugePageResourceName: the
 * prefix), not zero, and each (NUMA node, resource) pair may appear once across
 * all entries. Any of these stops the kubelet with "invalid configuration".
 * `--reserved-memory` (k8s.io/component-base/cli/flag ReservedMemoryVar) replaces the
 * file's list, and repeated flags add to each other: "0:memory=1Gi;1:memory=2Gi".
 * Its own parse errors (unknown type, bad quantity) are flag errors, not read here.
 */
import { finding, type Finding } from '../model/finding.ts';
import { isZero, parseQuantity } from '../quantity/quantity.ts';
import type { Span } from '../model/range.ts';
import type { FlagUse } from '../node/model.ts';
import { child, configEntry } from './lib/validation/common.ts';
import type { Rule } from './types.ts';

interface Limit {
  res: string;
  amount?: string;
  keySpan: Span;
  valueSpan: Span;
}

/**
 * The NUMA entries of the --reserved-memory flags, in order. ReservedMemoryVar.Set drops its target on an empty
 * value (`v.Value = nil`, the list itself untouched), so what came before stays and a later use fails to parse.
 */
function flagEntries(flags: readonly FlagUse[]): { numa: number; limits: Limit[]; span: Span }[] {
  const out: { numa: number; limits: Limit[]; span: Span }[] = [];
  for (const f of flags) {
    const value = f.value ?? '';
    if (value === '') break;
    for (const part of value.split(';')) {
      const [node, types, extra] = part.split(':');
      const numa = Number(node);
      if (types === undefined || extra !== undefined || !/^[+-]?\d+$/.test(node)) continue; // a flag parse error
      const limits: Limit[] = [];
      const byName = new Map<string, Limit>();
      for (const t of types.split(',')) {
        const [res, amount, more] = t.split('=');
        if (amount === undefined || more !== undefined) continue;
        // The limits of one entry are a map: a repeated type keeps its last amount.
        byName.set(res, { res, amount, keySpan: f.valueSpan, valueSpan: f.valueSpan });
      }
      limits.push(...byName.values());
      out.push({ numa, limits, span: f.valueSpan });
    }
  }
  return out;
}

export const reservedMemoryInvalid: Rule = {
  id: 'reserved-memory-invalid',
  summary: 'a reservedMemory entry the kubelet refuses: unknown limit type, zero amount, or a NUMA node and resource given twice',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const seen = new Map<string, Span>();
    const check = (n: number, limits: Limit[], flagSpan?: Span) => {
      for (const lim of limits) {
        const { res } = lim;
        if (res !== 'memory' && !res.startsWith('hugepages-')) {
          refuse(flagSpan ?? lim.keySpan, `reservedMemory limit "${res}" (NUMA node ${n}) is neither memory nor hugepages-<size>`,
            flagSpan ? `memory type conversion error, unknown type: "${res}"` : `invalid configuration: the limit type "${res}" for NUMA node ${n} is not supported, only [memory hugepages-<HugePageSize>] is accepted`);
        }
        const q = lim.amount === undefined ? undefined : parseQuantity(lim.amount);
        if (q?.ok && isZero(q.q)) {
          refuse(flagSpan ?? lim.valueSpan, `reservedMemory reserves zero ${res} on NUMA node ${n} (leave the entry out instead)`,
            `invalid configuration: reserved memory may not be zero for NUMA node ${n} and resource "${res}"`);
        }
        const key = `${n}\u0000${res}`;
        const first = seen.get(key);
        if (first) {
          refuse(flagSpan ?? lim.keySpan, `reservedMemory gives ${res} for NUMA node ${n} twice`,
            `invalid configuration: the reserved memory has a duplicate value for NUMA node ${n} and resource "${res}"`, first === flagSpan ? undefined : first);
        } else seen.set(key, flagSpan ?? lim.keySpan);
      }
    };
    const refuse = (span: Span, point: string, kubelet: string, related?: Span) =>
      out.push(
        finding('reserved-memory-invalid', 'error', span, `${point}. The kubelet does not start; it reports: "${kubelet}".`,
          related ? { related: [{ span: related, message: 'first given here' }] } : undefined),
      );
    const flags = node.flags.filter((f) => f.name === 'reserved-memory');
    if (flags.length > 0) {
      for (const e of flagEntries(flags)) check(e.numa, e.limits, e.span);
      return out;
    }
    const list = configEntry(node, 'reservedMemory');
    if (list?.value.kind !== 'seq') return out;
    for (const entry of list.value.items) {
      const numa = child(entry, 'numaNode');
      // An absent numaNode decodes as 0.
      const n = numa?.value.kind === 'scalar' && typeof numa.value.value === 'number' ? numa.value.value : numa ? undefined : 0;
      if (n === undefined) continue; // not a number: config-field-type
      const limits = child(entry, 'limits');
      if (limits?.value.kind !== 'map') continue;
      check(n, limits.value.entries.map((lim) => ({
        res: lim.key,
        amount: lim.value.kind === 'scalar' && lim.value.value !== null ? String(lim.value.value) : undefined,
        keySpan: lim.keySpan,
        valueSpan: lim.value.span,
      })));
    }
    return out;
  },
};
