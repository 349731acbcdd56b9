/**
 * Completion of a flag's value after `=` on a command line (ExecStart=, Environment=, env files): enum and bool
 * values, and for map flags the keys (reservable resources, eviction signals, feature gates of the target version,
 * never one the value already has) and then example values for the key. The typed text comes from the directive's
 * or assignment's logical value and its map, never from raw text.
 */
import { CompletionItemKind, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver-types';
import { EVICTION_SIGNALS, RESERVABLE_RESOURCES } from '../catalog/defaults.ts';
import { FEATURE_GATES, gateAt } from '../catalog/feature-gates.ts';
import { flagInfo, type FlagInfo } from '../catalog/flags.ts';
import type { TextMap } from '../model/range.ts';
import { normalizeFlagName } from '../node/command-line.ts';

/** Example values per key (quantities are the kubelet's own units). */
const RESOURCE_EXAMPLES: Record<string, string[]> = {
  cpu: ['100m', '250m', '500m', '1'],
  memory: ['256Mi', '512Mi', '1Gi', '2Gi'],
  'ephemeral-storage': ['1Gi', '5Gi', '10Gi'],
  pid: ['100', '1000'],
};
const THRESHOLD_EXAMPLES = ['100Mi', '500Mi', '1Gi', '5%', '10%', '15%'];
const DURATION_EXAMPLES = ['30s', '1m', '5m'];

/** Undefined when `pos` is not in a `--flag=value` word; [] when it is but nothing fits. */
export function flagValueItems(value: string, map: TextMap, off: number, pos: Position, version: string): CompletionItem[] | undefined {
  const m = /(?:^|[\s"'=])--?([A-Za-z0-9_-]+)=([^\s"']*)$/.exec(value.slice(0, off));
  if (!m) return undefined;
  const info = flagInfo(normalizeFlagName(m[1]));
  if (!info) return [];
  const typed = m[2];
  const range = (len: number): Range => ({ start: map.position(off - len), end: pos });
  const s = info.syntax;
  switch (s.type) {
    case 'enum':
      return plain(s.values, range(typed.length), CompletionItemKind.EnumMember);
    case 'bool':
      return plain(['true', 'false'], range(typed.length), CompletionItemKind.Value);
    case 'list': {
      if (!s.values) return [];
      const parts = typed.split(',');
      const cur = parts.pop()!;
      return plain(s.values.filter((v) => !parts.includes(v)), range(cur.length), CompletionItemKind.EnumMember);
    }
    case 'map':
      return mapItems(info, s, typed, range, version);
    default:
      return [];
  }
}

function mapItems(
  info: FlagInfo,
  s: Extract<FlagInfo['syntax'], { type: 'map' }>,
  typed: string,
  range: (len: number) => Range,
  version: string,
): CompletionItem[] {
  const sep = s.form === 'signal<value' ? '<' : '=';
  const parts = typed.split(',');
  const cur = parts.pop()!;
  const at = cur.indexOf(sep);
  if (at === -1) {
    const present = new Set(parts.map((p) => p.split(sep)[0].trim()));
    const keys = mapKeys(info.name, version).filter((k) => !present.has(k.name));
    return keys.map((k) => ({
      label: k.name,
      kind: CompletionItemKind.Property,
      documentation: k.doc ? { kind: MarkupKind.Markdown, value: k.doc } : undefined,
      textEdit: { range: range(cur.length), newText: `${k.name}${sep}` },
      // The value list follows at once (VS Code runs the command after inserting).
      command: { title: 'Suggest values', command: 'editor.action.triggerSuggest' },
    }));
  }
  const key = cur.slice(0, at).trim();
  const typedValue = cur.slice(at + 1);
  const values =
    s.value === 'bool' ? ['true', 'false']
    : s.value === 'quantity' ? (RESOURCE_EXAMPLES[key] ?? [])
    : s.value === 'quantity-or-percent' ? THRESHOLD_EXAMPLES
    : s.value === 'percent' ? ['0%', '50%', '100%']
    : s.value === 'duration' ? DURATION_EXAMPLES
    : [];
  return plain(values, range(typedValue.length), CompletionItemKind.Value);
}

function mapKeys(flag: string, version: string): { name: string; doc?: string }[] {
  if (flag === 'kube-reserved' || flag === 'system-reserved') return RESERVABLE_RESOURCES.map((name) => ({ name }));
  if (flag.startsWith('eviction-')) return EVICTION_SIGNALS.filter((x) => !x.ignoredWhenSet).map((x) => ({ name: x.signal, doc: x.note }));
  if (flag === 'qos-reserved') return [{ name: 'memory' }];
  if (flag === 'feature-gates') {
    const out: { name: string; doc?: string }[] = [];
    for (const g of FEATURE_GATES) {
      const st = gateAt(g.name, version);
      if (st.status !== 'known') continue;
      out.push({ name: g.name, doc: `${st.spec.stage}, default ${st.spec.default}${st.spec.locked ? ', locked' : ''}${g.description ? ` — ${g.description}` : ''}` });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  return [];
}

function plain(values: readonly string[], range: Range, kind: CompletionItemKind): CompletionItem[] {
  return values.map((v) => ({ label: v, kind, textEdit: { range, newText: v } }));
}
