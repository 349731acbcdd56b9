/**
 * The kubelet decodes its config file as JSON into typed Go fields
 * (sigs.k8s.io/yaml turns YAML into JSON first, YAML 1.1 scalars). A value
 * of the wrong JSON type is fatal, not lenient (codec.go only relaxes
 * unknown and duplicate fields): `kubeReserved: {cpu: 1}` fails because the
 * map's values must be strings, `maxPods: "110"` fails because it must be a number, and a duration
 * field's string must be one time.ParseDuration reads (metav1.Duration.UnmarshalJSON): `5x` fails.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import { fieldInfo } from '../catalog/fields.ts';
import type { Rule } from './types.ts';
import { goIntRange, jsonIntFits, yamlNumberJson } from '../catalog/go-int.ts';
import { parseGoDuration } from '../quantity/duration.ts';
import { kubeletConfigType } from '../catalog/go-types.ts';
import { goDecodeRefusals } from './lib/go-decode.ts';
import type { ConfigNode } from '../parse/types.ts';

/** Value kinds checked above from the node's effective settings; the rest is checked in each file's own tree. */
const EFFECTIVE_KINDS = new Set(['string', 'bool', 'int', 'float', 'duration', 'map-string', 'map-bool', 'list-string']);

const unknownText = (n: ConfigNode): boolean => n.kind === 'scalar' && n.template !== undefined;

type Want = 'string' | 'boolean' | 'integer' | 'number';

function jsonType(v: string | number | boolean | null): string {
  if (v === null) return 'null';
  if (typeof v === 'number') return 'number';
  return typeof v;
}

function fits(v: string | number | boolean | null, want: Want): boolean {
  if (v === null) return true; // null leaves the Go zero value
  if (want === 'integer') return typeof v === 'number' && Number.isInteger(v);
  return typeof v === want;
}

const SCALAR_WANT: Record<string, Want | undefined> = {
  string: 'string',
  duration: 'string',
  bool: 'boolean',
  int: 'integer',
  float: 'number',
};

/** A value as the point quotes it: at most 30 characters. */
function short(got: string): string {
  return got.length <= 30 ? got : got.slice(0, 29) + '…';
}

export const configFieldType: Rule = {
  id: 'config-field-type',
  summary: 'a config file value has the wrong type for its field: the kubelet cannot decode the file',
  severity: 'error',
  fix: true,
  fixDoes: 'for a number or bool where a string belongs, quotes it',
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    // "an integer", "a string": the article follows the word (want is written "a <type>" below).
    const bad = (span: Span | undefined, field: string, got: string, wantText: string, example: string, quote?: string) => {
      const want = wantText.replace(/^a (?=[aeiou])/, 'an ');
      if (!span) return;
      out.push(
        finding(
          'config-field-type',
          'error',
          span,
          // The point stays within 120 characters: a long value is shortened in it.
          `${field} must be ${want}, not ${short(got)}; the kubelet cannot decode the file. It does not start; write it as ${example}.`,
          // A number or bool where a string belongs: the same characters in quotes are what was meant.
          quote !== undefined
            ? { fixes: [{ title: `Quote it: "${quote}"`, edits: [{ file: span.file, range: span.range, newText: JSON.stringify(quote) }], preferred: true }] }
            : undefined,
        ),
      );
    };
    // The kubelet decodes every config file before it applies flags (issue #37): a value a flag replaces is decoded
    // all the same, and its wrong type stops the kubelet (node.shadowed holds it).
    const decoded = node.shadowed.size ? [...node.settings, ...node.shadowed] : node.settings;
    for (const [field, s] of decoded) {
      if (s.from.how !== 'config' && s.from.how !== 'config-dir') continue;
      const info = fieldInfo(field);
      if (!info) continue;
      const kind = info.valueKind;
      if (s.kind === 'scalar') {
        const want = SCALAR_WANT[kind];
        const range = want === 'integer' && typeof s.value === 'number' ? goIntRange(info.goType) : undefined;
        if (want && !fits(s.value, want)) {
          const ex = want === 'string' ? `"${s.text}"` : want === 'boolean' ? 'true or false' : 'a plain number without quotes';
          bad(s.span, field, `a ${jsonType(s.value)} (${s.text})`, `a ${want}`, ex);
        } else if (kind === 'duration' && typeof s.value === 'string' && !parseGoDuration(s.value).ok) {
          // metav1.Duration.UnmarshalJSON runs time.ParseDuration: a string it cannot read fails the whole decode.
          bad(s.span, field, JSON.stringify(s.value), 'a duration', 'a Go duration such as 30s, 5m or 1h30m');
        } else if (range && !jsonIntFits(yamlNumberJson(s.value as number, s.text), range)) {
          // encoding/json: "cannot unmarshal number 3000000000 into Go struct field ... of type int32"
          bad(s.span, field, `${s.text}`, `an ${range.type} (${range.min} to ${range.max})`, 'a number in that range');
        } else if ((kind === 'map-string' || kind === 'map-bool' || kind === 'list-string' || kind === 'object') && s.value !== null) {
          bad(s.span, field, `a ${jsonType(s.value)}`, kind === 'list-string' ? 'a list' : 'a mapping', kind === 'list-string' ? 'a YAML list' : 'a nested mapping');
        }
      } else if (s.kind === 'map') {
        if (kind === 'map-string' || kind === 'map-bool') {
          const want: Want = kind === 'map-string' ? 'string' : 'boolean';
          for (const i of s.items) {
            if (i.nested) bad(i.valueSpan, `${field}.${i.key}`, `a nested ${i.nested === 'map' ? 'mapping' : 'list'}`, `a ${want}`, want === 'string' ? 'a quoted string' : 'true or false');
            else if (!fits(i.value, want)) {
              const quotable = want === 'string' && (typeof i.value === 'number' || typeof i.value === 'boolean');
              bad(i.valueSpan, `${field}.${i.key}`, `a ${jsonType(i.value)} (${i.text})`, `a ${want}`, want === 'string' ? `"${i.text}"` : 'true or false', quotable ? i.text : undefined);
            }
          }
        } else if (kind === 'list-string' || SCALAR_WANT[kind]) {
          bad(s.from.span, field, 'a mapping', kind === 'list-string' ? 'a list' : `a ${SCALAR_WANT[kind]}`, kind === 'list-string' ? 'a YAML list' : 'a single value');
        }
      } else if (s.kind === 'list') {
        if (kind === 'list-string') {
          for (const i of s.items) {
            if (i.nested || !fits(i.value, 'string')) bad(i.valueSpan, `${field} item`, i.nested ? 'a nested value' : `a ${jsonType(i.value)} (${i.text})`, 'a string', `"${i.text}"`);
          }
        } else if (kind === 'map-string' || kind === 'map-bool' || SCALAR_WANT[kind]) {
          bad(s.from.span, field, 'a list', kind.startsWith('map') ? 'a mapping' : `a ${SCALAR_WANT[kind]}`, kind.startsWith('map') ? 'a nested mapping' : 'a single value');
        }
      }
    }
    // Nested objects, lists of objects, quantities and the other Go types, in every config file as written (the
    // kubelet decodes each file before flags apply), and a plain metav1.Duration left empty (null: "invalid duration").
    const struct = kubeletConfigType();
    for (const doc of node.kubeletConfigs) {
      if (struct.k !== 'struct') break;
      for (const e of doc.root.entries) {
        const t = struct.fields.get(e.key);
        const info = fieldInfo(e.key);
        if (!t || !info || e.keyTemplate) continue;
        const nullDuration = info.valueKind === 'duration' && e.value.kind === 'scalar' && e.value.value === null;
        if (EFFECTIVE_KINDS.has(info.valueKind) && !nullDuration) continue;
        for (const r of goDecodeRefusals(e.value, t, e.key, e.keySpan, unknownText)) {
          // a number or bool where a string belongs: the same characters in quotes are what was meant
          const n = r.node;
          const quote = r.want === 'a string' && n.kind === 'scalar' && (typeof n.value === 'number' || typeof n.value === 'boolean') ? n.source : undefined;
          bad(r.span, r.path, r.got, r.want, quote !== undefined ? JSON.stringify(quote) : r.want, quote);
        }
      }
    }
    return out;
  },
};
