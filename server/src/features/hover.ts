/** Hover: catalog documentation, the effective value with its provenance, Node Allocatable, quantities. */
import { MarkupKind, type Hover, type Position, type Range } from 'vscode-languageserver-types';
import type { Analysis, NodeResult } from '../engine.ts';
import { evictionSignalInfo } from '../catalog/defaults.ts';
import { fieldInfo, type FieldInfo } from '../catalog/fields.ts';
import { flagInfo, flagStatusAt, type FlagInfo } from '../catalog/flags.ts';
import type { Span } from '../model/range.ts';
import type { FlagUse, Provenance, Setting } from '../node/model.ts';
import { describe } from '../node/provenance.ts';
import { canonical, milliValue, parseQuantity, value } from '../quantity/quantity.ts';
import { gateMarkdown } from './gate-doc.ts';
import { NEWEST_VERSION } from '../catalog/flags.ts';
import { ALLOCATABLE_FIELDS, ALLOCATABLE_FLAGS, allocatableMarkdown } from './allocatable-view.ts';
import { configAt, contains, directiveAt, extraArgAt, flagAt, nodeOf, nodeOfDoc, nodesOf, parsedFile, type ConfigHit } from './locate.ts';

export function hover(analysis: Analysis, path: string, pos: Position): Hover | null {
  const file = parsedFile(analysis, path);
  if (!file) return null;

  const ref = variableAt(analysis, path, pos);
  if (ref) return ref;

  const hit = flagAt(analysis, path, pos);
  if (hit) return flagHover(hit.result, hit.flag, hit.onValue ? pos : undefined, hit.unused?.assignment.name);

  const extra = extraArgAt(file, pos);
  if (extra) {
    const info = flagInfo(extra.name);
    const result = nodeOf(analysis, path);
    const lines = info ? flagDoc(info, result?.node.kubernetesVersion) : [`\`${extra.name}\`: not a kubelet flag this tool knows.`];
    return md(lines.join('\n'), extra.nameSpan.range);
  }

  const c = configAt(file, pos);
  if (c) return configHover(analysis, c);

  const d = directiveAt(file, pos);
  if (d && d.key === 'ExecStart') {
    const result = nodeOf(analysis, path);
    if (result) return md(allocatableMarkdown(result), d.keySpan.range);
  }
  return null;
}

/**
 * `$NAME` / `${NAME}` in the ExecStart= that runs: its value, where it is set, and the arguments systemd makes of it
 * (a whole-word `$NAME` is split at blanks and unquoted; `${NAME}` is pasted into its word as is).
 */
function variableAt(analysis: Analysis, path: string, pos: Position): Hover | null {
  for (const result of nodesOf(analysis, path)) {
    const { node } = result;
    const ref = node.execReferences?.find((r) => r.span.file === path && contains(r.span.range, pos));
    if (!ref) continue;
    const set = node.service?.environment.get(ref.variable);
    const name = `**\`$${ref.variable}\`**`;
    if (ref.invalidName) return md(`${name}: not a valid variable name; systemd expands it to nothing.`, ref.span.range);
    if (!set) return md(`${name} is not set by any Environment= or EnvironmentFile= of the service: systemd expands it to nothing.`, ref.span.range);
    const a = set.assignment;
    const lines = [`${name} = \`${a.value}\``, '', `Set by ${set.source}= in ${a.nameSpan.file} line ${a.nameSpan.range.start.line + 1}.`];
    const words = [node.program, ...node.argv].filter((w) => w?.via && w.via.variable === ref.variable && sameSpan(w.via.span, ref.span));
    if (words.length === 0) lines.push('', 'It adds no argument to the kubelet\'s command line (an empty value).');
    else {
      lines.push('', `systemd makes ${words.length === 1 ? 'one argument' : `${words.length} arguments`} of it:`, '');
      for (const w of words.slice(0, 40)) lines.push(`- \`${w!.text}\``);
      if (words.length > 40) lines.push(`- … and ${words.length - 40} more`);
    }
    return md(lines.join('\n'), ref.span.range);
  }
  return null;
}

function md(value: string, range?: Range): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range };
}

function flagDoc(info: FlagInfo, version: string | undefined): string[] {
  const lines = [`**\`--${info.name}\`** \`${info.syntaxText}\``];
  const status = version ? flagStatusAt(info, version) : info.status;
  if (status === 'removed') {
    lines.push('', `⛔ Removed${info.removedIn ? ` in ${info.removedIn}` : ''}; a kubelet ${version ?? ''} refuses to start with it.${info.replacement ? ` Use ${info.replacement}.` : ''}`);
  } else if (status === 'deprecated') {
    lines.push('', `⚠️ Deprecated${info.deprecatedIn ? ` since ${info.deprecatedIn}` : ''}${info.removedIn ? `, removed in ${info.removedIn}` : ''}.${info.replacement ? ` Use ${info.replacement}.` : ''}`);
  }
  lines.push('', info.description);
  const facts: string[] = [];
  if (info.default !== undefined) facts.push(`Default: \`${info.default}\``);
  if (info.field) facts.push(`Config field: \`${info.field}\``);
  if (facts.length) lines.push('', facts.join(' · '));
  return lines;
}

function fieldDoc(info: FieldInfo): string[] {
  const lines = [`**\`${info.path}\`** \`${info.goType}\``, '', info.description];
  const facts: string[] = [];
  if (info.enumValues?.length) facts.push(`Values: ${info.enumValues.map((v) => `\`${v || '""'}\``).join(', ')}`);
  if (info.default !== undefined) facts.push(`Default: \`${info.default}\``);
  if (info.since) facts.push(`Since ${info.since}`);
  if (info.flag) facts.push(`Flag: \`--${info.flag}\``);
  if (facts.length) lines.push('', facts.join(' · '));
  return lines;
}

export function settingText(s: Setting): string {
  switch (s.kind) {
    case 'scalar':
      return s.value === null ? 'null' : s.text;
    case 'map':
      return s.items.map((i) => `${i.key}=${i.text}`).join(',');
    case 'list':
      return s.items.map((i) => i.text).join(',');
    case 'object':
      return '(object)';
  }
}

function sameSpan(a: Span | undefined, b: Span | undefined): boolean {
  return !!a && !!b && a.file === b.file && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
}

function effectiveLine(setting: Setting | undefined, here: Span[]): string {
  if (!setting) return 'Effective value: the kubelet default.';
  const v = `\`${settingText(setting)}\``;
  const from: Provenance = setting.from;
  if (here.some((h) => sameSpan(h, from.span))) return `Effective value: ${v}, from \`${describe(from)}\` (this one).`;
  return `Effective value: ${v} — overridden by \`${describe(from)}\`.`;
}

function quantityLines(text: string, resource?: string): string[] {
  const t = text.replace(/^["']|["']$/g, '');
  const q = parseQuantity(t);
  if (!q.ok) return [];
  const exact = resource === 'cpu' ? `${milliValue(q.q)}m (${t} CPU)` : `${value(q.q)}`;
  return [`Quantity \`${t}\` = ${exact} · canonical form \`${canonical(q.q)}\``];
}

/** `unusedIn`: the variable holding the flag when no ExecStart= references it. */
function flagHover(result: NodeResult, flag: FlagUse, valuePos: Position | undefined, unusedIn?: string): Hover {
  const { node } = result;
  const info = flagInfo(flag.name);
  const lines = info ? flagDoc(info, node.kubernetesVersion) : [`**\`--${flag.written}\`**: not a kubelet flag this tool knows.`];
  if (unusedIn) lines.splice(1, 0, '', `**Not in effect:** no ExecStart= references \`$${unusedIn}\`, so this flag never reaches the kubelet.`);
  if (info?.field) lines.push('', effectiveLine(node.settings.get(info.field), [flag.span]));
  else if (info) {
    const last = node.flagOnly.get(flag.name);
    if (last && last !== flag) lines.push('', `Effective value: \`${last.value ?? 'true'}\` — overridden by \`--${last.name}\` in ${last.span.file} line ${last.span.range.start.line + 1}.`);
  }
  if (valuePos) {
    const setting = info?.field ? node.settings.get(info.field) : undefined;
    const item = setting && (setting.kind === 'map' || setting.kind === 'list') ? setting.items.find((i) => i.valueSpan && contains(i.valueSpan.range, valuePos)) : undefined;
    const gate = flag.name === 'feature-gates' ? gateItemAt(flag, node, valuePos) : undefined;
    const q = gate ? gateMarkdown(gate, node.kubernetesVersion) : item ? quantityLines(item.text, item.key) : info?.syntax.type === 'quantity' && flag.value ? quantityLines(flag.value) : [];
    if (q.length) lines.unshift(...q, '', '---', '');
  }
  // The table once, on the flag's name, not again on each value; first, above the documentation, so that a small
  // hover shows it without scrolling (issue 26).
  if (!valuePos && ((info?.field && ALLOCATABLE_FIELDS.has(info.field)) || ALLOCATABLE_FLAGS.has(flag.name))) lines.unshift(allocatableMarkdown(result), '', '---', '');
  return md(lines.join('\n'), (valuePos ? flag.valueSpan : flag.nameWord.span).range);
}

/** The gate name of a --feature-gates entry at `pos`, from the flag's own items (not the merged map). */
function gateItemAt(flag: FlagUse, node: NodeResult['node'], pos: Position): string | undefined {
  const s = node.settings.get('featureGates');
  const items = s?.kind === 'map' ? s.items : [];
  const hit = items.find((i) => i.keySpan && i.keySpan.file === flag.valueSpan.file && (contains(i.keySpan.range, pos) || (i.valueSpan && contains(i.valueSpan.range, pos))));
  return hit?.key;
}

function configHover(analysis: Analysis, c: ConfigHit): Hover | null {
  const result = nodeOfDoc(analysis, c.doc);
  const top = c.field.split('.')[0];
  const info = fieldInfo(c.field) ?? fieldInfo(c.field.replace(/\[\]$/, ''));
  const parentInfo = c.parent ? fieldInfo(c.parent.replace(/\[\]$/, '')) : undefined;
  const lines: string[] = [];
  const range = c.on === 'key' ? c.entry?.keySpan.range : c.scalar?.span.range;

  if (c.scalar) {
    const key = c.entry?.key;
    const resource = c.parent === 'kubeReserved' || c.parent === 'systemReserved' ? key : undefined;
    lines.push(...quantityLines(c.scalar.source, resource));
    if (c.scalar.template === 'whole') lines.push('A template expression: its value is unknown until the template is rendered, so it is not checked.');
    else if (c.scalar.template === 'partial') lines.push('Partly a template expression: the literal text around it is checked, with a number in its place.');
  }
  if (info) lines.push(...(lines.length ? ['', '---', ''] : []), ...fieldDoc(info));
  else if (parentInfo && c.entry) {
    const sig = c.parent.startsWith('eviction') ? evictionSignalInfo(c.entry.key) : undefined;
    if (c.parent === 'featureGates') lines.push(...gateMarkdown(c.entry.key, result?.node.kubernetesVersion ?? NEWEST_VERSION));
    else if (sig) lines.push(`**\`${sig.signal}\`** (${sig.resource}, ${sig.condition})`, '', sig.note);
    else lines.push(`\`${c.entry.key}\` in **\`${c.parent}\`**`, '', parentInfo.description);
  }
  if (!lines.length) return null;

  if (result && c.entry) {
    const here = [c.entry.keySpan];
    if (c.parent === '') lines.push('', effectiveLine(result.node.settings.get(c.field), here));
    else {
      const s = result.node.settings.get(c.field) ?? result.node.settings.get(top);
      if (s) {
        const item = s.kind === 'map' ? s.items.find((i) => i.key === c.entry?.key) : undefined;
        const topEntry = c.doc.root.entries.find((e) => e.key === top);
        const mine = sameSpan(s.from.span, topEntry?.keySpan) || sameSpan(s.from.span, c.entry.keySpan);
        if (!mine) lines.push('', `Effective \`${top}\`: \`${settingText(s)}\` — overridden by \`${describe(s.from)}\`${item ? '' : `; \`${c.entry.key}\` is not in effect`}.`);
      }
    }
  }
  // The table once, on the reservation field itself, not again on each of its entries; first, above the documentation.
  if (result && c.parent === '' && c.on === 'key' && ALLOCATABLE_FIELDS.has(top)) lines.unshift(allocatableMarkdown(result), '', '---', '');
  return md(lines.join('\n'), range);
}
