/**
 * Where Go's JSON decoder (sigs.k8s.io/json, the case-sensitive encoding/json fork that apimachinery's serializer
 * decodes with) refuses a value of the config file for its Go type (catalog/go-types.ts). The file is YAML turned
 * into JSON first (sigs.k8s.io/yaml.YAMLToJSON), which is the value tree the engine's reader gives. Any such refusal
 * fails the whole decode, strict or lenient: the kubelet does not start (DecodeKubeletConfiguration in
 * pkg/kubelet/kubeletconfig/util/codec/codec.go falls back to lenient decoding only for unknown and duplicate fields).
 *
 * encoding/json rules used here: JSON null leaves a plain value as it is, except that a non-pointer type with its own
 * UnmarshalJSON gets the null (metav1.Duration then refuses ""); a struct ignores keys that are no field (exact
 * spelling); a mapping, list or struct must get an object or array; a number must fit the integer type and have no
 * fraction; a string field takes only a string, a bool only true or false.
 */
import type { ConfigNode, MapEntry } from '../../parse/types.ts';
import type { Span } from '../../model/range.ts';
import type { GoType } from '../../catalog/go-types.ts';
import { parseGoDuration } from '../../quantity/duration.ts';
import { parseQuantity } from '../../quantity/quantity.ts';
import { goIntRange, jsonIntFits, yamlNumberJson } from '../../catalog/go-int.ts';

export interface DecodeRefusal {
  span: Span;
  /** The field path as the user wrote it (`authentication.anonymous.enabled`, `reservedMemory[0].limits.memory`). */
  path: string;
  /** What the field needs ("a bool", "a Go duration such as 30s"). */
  want: string;
  /** What it got ("a string (false)", "null"). */
  got: string;
  /** The refused value. */
  node: ConfigNode;
}


function describe(n: ConfigNode): string {
  if (n.kind === 'map') return 'a mapping';
  if (n.kind === 'seq') return 'a list';
  const v = n.value;
  if (v === null) return 'null (an empty value)';
  const text = n.source.length > 24 ? `${n.source.slice(0, 23)}…` : n.source;
  return `a ${typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : 'string'} (${text})`;
}

function intWant(t: { bits: number; unsigned: boolean }): string {
  return `an integer (${t.unsigned ? 'u' : ''}int${t.bits})`;
}

/** Whether a YAML number, as the JSON text Go reads, fits the integer type. */
function intFits(n: ConfigNode, t: { bits: number; unsigned: boolean }): boolean {
  return n.kind === 'scalar' && typeof n.value === 'number' && jsonIntFits(yamlNumberJson(n.value, n.source), goIntRange(`${t.unsigned ? 'u' : ''}int${t.bits}`)!);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):(\d{2}))$/;

/** time.Parse(time.RFC3339, s), as metav1.Time.UnmarshalJSON runs it. */
function rfc3339(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i]));
  const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= days && h! < 24 && mi! < 60 && se! < 60 && (!m[9] || (Number(m[9]) < 24 && Number(m[10]) < 60));
}

/** The entries of a mapping as JSON keeps them: a repeated key's last value. */
function lastEntries(entries: readonly MapEntry[]): MapEntry[] {
  const by = new Map<string, MapEntry>();
  for (const e of entries) {
    by.delete(e.key);
    by.set(e.key, e);
  }
  return [...by.values()];
}

/**
 * Every place below `n` that Go refuses for type `t`. `skip` leaves out values whose text is not known (template
 * expressions); `at` is the span to use for a value that has none of its own (an empty value).
 */
export function goDecodeRefusals(n: ConfigNode, t: GoType, path: string, at: Span, skip: (n: ConfigNode) => boolean = () => false): DecodeRefusal[] {
  const out: DecodeRefusal[] = [];
  const walk = (n: ConfigNode, t: GoType, path: string, at: Span): void => {
    if (skip(n)) return;
    const r = n.span.range;
    const span = r.start.line === r.end.line && r.start.character === r.end.character ? at : n.span;
    const refuse = (want: string): void => void out.push({ span, path, want, got: describe(n), node: n });
    const v = n.kind === 'scalar' ? n.value : undefined;
    if (v === null) {
      // null: left alone, but a plain metav1.Duration's UnmarshalJSON reads it as "" (time: invalid duration "")
      if (t.k === 'duration' && !t.ptr) refuse('a Go duration such as 30s');
      return;
    }
    switch (t.k) {
      case 'string':
        if (typeof v !== 'string') refuse('a string');
        return;
      case 'bool':
        if (typeof v !== 'boolean') refuse('true or false');
        return;
      case 'float':
        if (typeof v !== 'number') refuse('a number');
        return;
      case 'int':
        if (!intFits(n, t)) refuse(intWant(t));
        return;
      case 'duration':
        if (typeof v !== 'string' || !parseGoDuration(v).ok) refuse('a Go duration such as 30s');
        return;
      case 'timeOrDuration':
        // a string is a metav1.Duration; anything else a time.Duration (int64 nanoseconds)
        if (typeof v === 'string' ? !parseGoDuration(v).ok : !intFits(n, { bits: 64, unsigned: false })) refuse('a Go duration such as 5s (or nanoseconds)');
        return;
      case 'quantity': {
        // Quantity.UnmarshalJSON parses the JSON text itself (a string's contents), trimmed
        const text = typeof v === 'string' ? v.trim() : typeof v === 'number' && n.kind === 'scalar' ? yamlNumberJson(v, n.source) : n.kind === 'scalar' ? String(v) : '{';
        if (!parseQuantity(text).ok) refuse('a quantity such as 100Mi');
        return;
      }
      case 'time':
        if (typeof v !== 'string' || !rfc3339(v)) refuse('an RFC 3339 time such as 2024-01-02T15:04:05Z');
        return;
      case 'map':
        if (n.kind !== 'map') return refuse('a mapping');
        for (const e of lastEntries(n.entries)) walk(e.value, t.elem, `${path}.${e.key}`, e.keySpan);
        return;
      case 'slice':
        if (n.kind !== 'seq') return refuse('a list');
        n.items.forEach((item, i) => walk(item, t.elem, `${path}[${i}]`, span));
        return;
      case 'struct':
        if (n.kind !== 'map') return refuse('a mapping');
        for (const e of lastEntries(n.entries)) {
          const ft = t.fields.get(e.key);
          if (ft) walk(e.value, ft, path ? `${path}.${e.key}` : e.key, e.keySpan);
        }
        return;
    }
  };
  walk(n, t, path, at);
  return out;
}
