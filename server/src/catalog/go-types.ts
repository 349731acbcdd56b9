/**
 * The Go types of KubeletConfiguration (kubelet.config.k8s.io/v1beta1) as encoding/json sees them, built from the
 * field catalog's Go type names: what a decode of the config file needs to know to tell whether a JSON value fits
 * (rules/lib/go-decode.ts). Checked against the real struct by the kubelet oracle (test/oracle/kubelet-decode.test.ts
 * compares decodes with k8s.io/kubelet v0.37.2's own codec).
 *
 * The Unmarshalers have kinds of their own because they read JSON their own way:
 * - `duration`: metav1.Duration (k8s.io/apimachinery/pkg/apis/meta/v1/duration.go) takes a JSON string and runs
 *   time.ParseDuration; as a struct field (not a pointer) it also gets JSON null, read as "" and refused.
 * - `timeOrDuration`: logs/api/v1 TimeOrMetaDuration (k8s.io/component-base): a string as above, anything else as
 *   a time.Duration (an int64 of nanoseconds; null leaves it).
 * - `quantity`: resource.Quantity / QuantityValue: null is zero, otherwise the JSON text (a string's contents, or a
 *   number, bool, object as written) must be a quantity.
 * - `time`: metav1.Time: null is zero, otherwise a string in RFC 3339.
 */
import { FIELDS } from './fields.ts';
import { once } from './lazy.ts';

export type GoType =
  | { k: 'string' | 'bool' | 'float' | 'duration' | 'timeOrDuration' | 'quantity' | 'time'; ptr?: boolean }
  | { k: 'int'; bits: number; unsigned: boolean; ptr?: boolean }
  | { k: 'map' | 'slice'; elem: GoType; ptr?: boolean }
  | { k: 'struct'; fields: Map<string, GoType>; ptr?: boolean };

/** Fields the catalog does not list on their own (items of logging.vmodule: component-base logs/api/v1 VModuleItem). */
const EXTRA: readonly [string, string][] = [
  ['logging.vmodule[].filePattern', 'string'],
  ['logging.vmodule[].verbosity', 'VerbosityLevel (uint32)'],
];

/** A catalog Go type name -> its type; undefined for a struct (built from its fields) or a name not known here. */
export function goTypeOf(name: string): GoType | undefined {
  let s = name.trim();
  const ptr = s.startsWith('*');
  if (ptr) s = s.slice(1);
  // "KubeletAuthorizationMode (string)", "VerbosityLevel (uint32)", "string (quantity)": the Go kind in brackets
  const inner = /^\w+ \((u?int\d*|string|bool)\)$/.exec(s)?.[1];
  if (inner) s = inner;
  const note = s.indexOf(' (');
  if (note !== -1 && s.endsWith(')')) s = s.slice(0, note);
  const int = /^(u?)int(8|16|32|64)?$/.exec(s);
  if (int) return { k: 'int', bits: Number(int[2] ?? 64), unsigned: int[1] === 'u', ptr };
  const simple: Record<string, GoType['k']> = {
    string: 'string', bool: 'bool', float64: 'float', float32: 'float', 'metav1.Duration': 'duration', TimeOrMetaDuration: 'timeOrDuration',
    QuantityValue: 'quantity', 'resource.Quantity': 'quantity', 'metav1.Time': 'time',
  };
  if (simple[s]) return { k: simple[s], ptr } as GoType;
  if (s === 'v1.ResourceList') return { k: 'map', elem: { k: 'quantity' }, ptr };
  const map = /^map\[string\](.+)$/.exec(s);
  if (map) {
    const elem = goTypeOf(map[1]!);
    return elem && { k: 'map', elem, ptr };
  }
  const slice = /^\[\](.+)$/.exec(s);
  if (slice) {
    const elem = goTypeOf(slice[1]!);
    return elem && { k: 'slice', elem, ptr };
  }
  return undefined;
}

/** The struct at `path` ('' for KubeletConfiguration itself): its fields are the catalog paths one step below. */
function structAt(path: string, ptr: boolean, rows: readonly [string, string, string][]): GoType {
  const fields = new Map<string, GoType>();
  const prefix = path === '' ? '' : path.endsWith('[]') ? `${path}.` : `${path}.`;
  const names = new Set<string>();
  for (const [p] of rows) {
    if (!p.startsWith(prefix) || p === path) continue;
    names.add(/^[^.[\]]+(\[\])?/.exec(p.slice(prefix.length))![0].replace('[]', ''));
  }
  for (const name of names) {
    const full = prefix + name;
    const row = rows.find(([p]) => p === full);
    const listed = rows.some(([p]) => p.startsWith(`${full}[].`));
    const nested = rows.some(([p]) => p.startsWith(`${full}.`));
    const goName = row?.[1] ?? '';
    const own = goTypeOf(goName);
    if (own && !nested && !listed) fields.set(name, own);
    else if (listed) fields.set(name, { k: 'slice', elem: structAt(`${full}[]`, false, rows), ptr: goName.startsWith('*') });
    else if (nested) fields.set(name, structAt(full, goName.startsWith('*'), rows));
    // a field whose Go type is not known here is left out (its values are not checked)
  }
  return { k: 'struct', fields, ptr };
}

/** KubeletConfiguration as one struct type. */
export const kubeletConfigType = once((): GoType => {
  const rows: [string, string, string][] = FIELDS.map((f) => [f.path, f.goType, f.valueKind]);
  for (const [p, t] of EXTRA) rows.push([p, t, '']);
  return structAt('', false, rows);
});
