/**
 * Completion inside kubeadm's nodeRegistration.kubeletExtraArgs: kubelet flag names without `--` (kubeadm adds
 * them when it writes kubeadm-flags.env), never KubeletConfiguration fields, and not a flag the map already has.
 * v1beta3 and older write `name: value` entries; v1beta4 a list of `{name, value}` items.
 */
import { CompletionItemKind, MarkupKind, type CompletionItem, type Position, type Range } from 'vscode-languageserver-types';
import { FLAGS, flagStatusAt } from '../catalog/flags.ts';
import type { ConfigNode, KubeadmDoc } from '../parse/types.ts';
import type { ParsedFile } from '../node/parse-files.ts';
import { contains } from './locate.ts';
import { offeredFlag } from './flag-offer.ts';

export function extraArgItems(file: ParsedFile | undefined, pos: Position, version: string): CompletionItem[] | undefined {
  for (const k of file?.config?.kubeadm ?? []) {
    const at = where(k, pos);
    if (at) return flagNames(version, new Set(k.kubeletExtraArgs.map((a) => a.name).filter((n) => n !== at.typing)), at.range, at.colon, pos);
  }
  return undefined;
}

/** Where a flag name is being typed: the range it replaces, whether `: ` follows, and the name typed so far. */
function where(k: KubeadmDoc, pos: Position): { range?: Range; colon: boolean; typing?: string } | undefined {
  const n = k.kubeletExtraArgsNode;
  // The line being typed may lie just past the document's span, which ends with its last non-blank line.
  if (!n || pos.line < k.span.range.start.line || pos.line > k.span.range.end.line + 1) return undefined;
  const v = n.value;
  const below = pos.line > n.keySpan.range.start.line && pos.character > n.keySpan.range.start.character;
  if (!n.list) {
    if (v.kind === 'map') {
      for (const e of v.entries) {
        const r = e.keySpan.range;
        if (!contains(r, pos)) continue;
        if (r.start.line === r.end.line) return { range: r, colon: isBare(e.value, r), typing: e.key };
        // A name typed above another entry is read as one key over both lines ("ev max-pods"): the name is the part
        // on the cursor's line, up to the cursor, with its own `: ` (an editor drops an item whose range spans lines).
        return pos.line === r.start.line ? { range: { start: r.start, end: pos }, colon: true } : undefined;
      }
      return below && (contains(v.span.range, pos) || pos.line >= v.span.range.end.line) && !onValue(v, pos) ? { colon: true } : undefined;
    }
    // The first name, with no colon yet, is read as the scalar value of kubeletExtraArgs.
    if (v.kind === 'scalar' && below && (v.value === null || contains(v.span.range, pos))) {
      return { range: v.value === null ? undefined : v.span.range, colon: true, typing: v.value === null ? undefined : String(v.value) };
    }
    return undefined;
  }
  if (v.kind !== 'seq') return undefined;
  for (const item of v.items) {
    if (item.kind !== 'map') continue;
    const name = item.entries.find((e) => e.key === 'name');
    if (name?.value.kind === 'scalar' && (contains(name.value.span.range, pos) || (name.value.value === null && pos.line === name.keySpan.range.start.line && pos.character > name.keySpan.range.end.character))) {
      const s = name.value;
      return { range: s.value === null ? undefined : s.span.range, colon: false, typing: s.value === null ? undefined : String(s.value) };
    }
  }
  return undefined;
}

/** A key typed with nothing after it yet (`cgroup-dr` alone on its line): the completion adds `: `. */
function isBare(value: ConfigNode, key: Range): boolean {
  return value.kind === 'scalar' && value.value === null && value.span.range.start.line === key.start.line && value.span.range.start.character <= key.end.character;
}

function onValue(v: ConfigNode & { kind: 'map' }, pos: Position): boolean {
  return v.entries.some((e) => contains(e.value.span.range, pos) && e.value.span.range.start.line === pos.line && e.value.span.range.start.character < pos.character);
}

function flagNames(version: string, used: ReadonlySet<string>, range: Range | undefined, colon: boolean, pos: Position): CompletionItem[] {
  const r = range ?? { start: pos, end: pos };
  const out: CompletionItem[] = [];
  for (const f of FLAGS) {
    const status = flagStatusAt(f, version);
    if (status === 'removed' || used.has(f.name) || !offeredFlag(f.name, (x) => used.has(x))) continue;
    out.push({
      label: f.name,
      kind: CompletionItemKind.Property,
      detail: f.syntaxText + (status === 'deprecated' ? ' (deprecated)' : ''),
      documentation: { kind: MarkupKind.Markdown, value: f.description },
      sortText: (status === 'deprecated' ? '1' : '0') + f.name,
      filterText: f.name,
      textEdit: { range: r, newText: colon ? `${f.name}: ` : f.name },
    });
  }
  return out;
}
