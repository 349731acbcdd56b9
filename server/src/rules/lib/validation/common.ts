/**
 * Shared reads for the checks of ValidateKubeletConfiguration
 * (pkg/kubelet/apis/config/validation/validation.go): numbers and Go
 * durations of effective values, and the config-file nodes of object lists.
 */
import type { Span } from '../../../model/range.ts';
import type { ConfigNode, MapEntry } from '../../../parse/types.ts';
import type { FieldValue } from '../../../node/config-value.ts';
import type { NodeModel } from '../../../node/model.ts';
import { parseGoDuration } from '../../../quantity/duration.ts';

/** One refusal: where, the point in our words (a short first sentence), the kubelet's own error text, and an optional explanation. */
export type Bad = (span: Span, point: string, kubelet: string, detail?: string) => void;

export function num(v: FieldValue): number | undefined {
  const n = typeof v.value === 'number' ? v.value : typeof v.value === 'string' && v.value.trim() !== '' ? Number(v.value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** A Go duration in nanoseconds; undefined when it does not parse (config-field-type reports that). */
export function nanos(v: FieldValue | undefined): bigint | undefined {
  if (!v || typeof v.value !== 'string') return undefined;
  const d = parseGoDuration(v.value);
  return d.ok ? d.nanos : undefined;
}

export const SECOND = 1_000_000_000n;
export const MS = 1_000_000n;

/** `path (set by --flag)` when a flag gave the value. */
export function label(path: string, v: FieldValue): string {
  return v.how === 'flag' ? `${path} (set by a flag)` : path;
}

/** The last config document's entry for a top-level key (later documents and drop-ins win, like the kubelet's merge). */
export function configEntry(node: NodeModel, key: string): MapEntry | undefined {
  for (const doc of [...node.kubeletConfigs].reverse()) {
    const e = doc.root.entries.find((x) => x.key === key);
    if (e) return e;
  }
  return undefined;
}

export function child(n: ConfigNode | undefined, key: string): MapEntry | undefined {
  return n?.kind === 'map' ? n.entries.find((e) => e.key === key) : undefined;
}
