/**
 * Whether a value written in the config file decodes into a field (the JSON types config-field-type checks, and
 * the field's enum), read from the document's own node. A fix that renames a key to a field must not turn an
 * ignored unknown field (a warning) into a value the kubelet cannot decode (an error).
 */
import { fieldInfo } from '../../catalog/fields.ts';
import type { ConfigNode } from '../../parse/types.ts';

const SCALAR: Record<string, 'string' | 'boolean' | 'integer' | 'number' | undefined> = {
  string: 'string',
  duration: 'string',
  quantity: 'string',
  bool: 'boolean',
  int: 'integer',
  float: 'number',
};

function scalarFits(v: string | number | boolean | null, want: 'string' | 'boolean' | 'integer' | 'number'): boolean {
  if (v === null) return true;
  if (want === 'integer') return typeof v === 'number' && Number.isInteger(v);
  return typeof v === want;
}

export function valueFitsField(field: string, node: ConfigNode): boolean {
  const info = fieldInfo(field);
  if (!info) return false;
  const kind = info.valueKind;
  const want = SCALAR[kind];
  if (want) {
    if (node.kind !== 'scalar' || !scalarFits(node.value, want)) return false;
    return !info.enumValues || node.value === null || info.enumValues.includes(String(node.value));
  }
  if (kind === 'map-string' || kind === 'map-bool') {
    if (node.kind === 'scalar') return node.value === null;
    if (node.kind !== 'map') return false;
    return node.entries.every((e) => e.value.kind === 'scalar' && scalarFits(e.value.value, kind === 'map-string' ? 'string' : 'boolean'));
  }
  if (kind === 'list-string') {
    if (node.kind === 'scalar') return node.value === null;
    return node.kind === 'seq' && node.items.every((i) => i.kind === 'scalar' && scalarFits(i.value, 'string'));
  }
  // objects and lists of objects: their insides are checked by rules of their own; only null is surely harmless.
  return node.kind === 'scalar' && node.value === null;
}
