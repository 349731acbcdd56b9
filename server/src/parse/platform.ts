/**
 * What the platform readers (parse/talos.ts, parse/nodeadm.ts) share: the user's flags as kubeletExtraArgs of a
 * pseudo kubeadm document (node/build.ts puts them on the command line as it does kubeadm's), Terraform template
 * directives blanked out, and template placeholders left for the rendered file.
 */
import type { Span } from '../model/range.ts';
import { finding, type Finding } from '../model/finding.ts';
import type { ConfigNode, KubeadmDoc, MapNode } from './types.ts';
import { hasMask } from './template.ts';

export type ExtraArg = KubeadmDoc['kubeletExtraArgs'][number];

export const mapOf = (n: ConfigNode | undefined): MapNode | undefined => (n?.kind === 'map' ? n : undefined);
export const str = (n: ConfigNode | undefined): string | undefined => (n?.kind === 'scalar' && n.value !== null ? String(n.value) : undefined);

/**
 * Whether a value holds something the template engine fills in (`${var}`, `{{ .x }}`): the rendered file decides, so
 * nothing is read from it. Scanned with indexOf: the regular expression it replaces was quadratic on `${${${…`.
 */
export function hasPlaceholder(v: string): boolean {
  const dollar = v.indexOf('${');
  if (dollar >= 0 && v.indexOf('}', dollar + 2) >= 0) return true;
  for (let open = v.indexOf('{{'); open >= 0; ) {
    const close = v.indexOf('}', open + 2);
    if (close < 0) return false;
    if (v.charCodeAt(close + 1) === 125) return true;
    // every `{{` before this `}` meets the same lone `}` first
    open = v.indexOf('{{', close + 1);
  }
  return false;
}
const TEMPLATE = /\$\{|\{\{|%\{|\{%/;

/**
 * Template control lines blanked (same length, line ends kept), so that the YAML between them is read at its own
 * positions: Terraform `%{ if ... }` / `%{ for ... }` and Jinja `{% if ... %}` / `{% endif %}` / `{# ... #}` (a Talos
 * machine config rendered by minijinja-cli before talosctl reads it, ahinko/home-ops kubernetes/talos/*.yaml.j2). A line
 * of only one such tag is a control line of the template, never content: the rendered file has no text there. Both
 * branches of an `if` are read, as the tool reads every `%{ if }` branch.
 */
export function blankDirectiveLines(text: string): string {
  let out = text;
  if (out.includes('%{')) out = out.replace(/^[ \t]*%\{[^\r\n]*\}[ \t]*$/gm, (m) => ' '.repeat(m.length));
  if (out.includes('{%') || out.includes('{#')) out = out.replace(/^[ \t]*(?:\{%[^%\r\n]*%\}|\{#[^#\r\n]*#\})[ \t]*$/gm, (m) => ' '.repeat(m.length));
  return out;
}

/**
 * YAML errors in a file that holds template expressions are the template's, not the user's: one information finding
 * instead of errors (what could be read is still checked).
 */
export function templateAwareProblems(path: string, text: string, problems: Finding[], label: string): Finding[] {
  if (!TEMPLATE.test(text) || !problems.some((p) => p.code === 'config-syntax')) return problems;
  const first = problems.find((p) => p.code === 'config-syntax')!;
  const rest = problems.filter((p) => p.code !== 'config-syntax');
  rest.push(finding('config-syntax', 'information', { file: path, range: first.range },
    `This ${label} is invalid YAML until its template expressions are rendered. What could be read is checked.`));
  return rest;
}

/** The text of a scalar's value inside its span: quoted scalars span two more characters. */
function innerStart(n: ConfigNode & { kind: 'scalar' }): { line: number; character: number; exact: boolean } {
  const r = n.span.range;
  const width = r.start.line === r.end.line ? r.end.character - r.start.character : -1;
  const quoted = width === n.source.length + 2;
  return { line: r.start.line, character: r.start.character + (quoted ? 1 : 0), exact: quoted || width === n.source.length };
}

export function sub(n: ConfigNode & { kind: 'scalar' }, from: number, to: number): Span {
  const s = innerStart(n);
  if (!s.exact) return n.span;
  return { file: n.span.file, range: { start: { line: s.line, character: s.character + from }, end: { line: s.line, character: s.character + to } } };
}

/**
 * A flag map (`name: value`, or `name: [v1, v2]`): one `--name=value` per value. Talos's argsbuilder writes one
 * `--key=val` per list item (siderolabs/talos pkg/argsbuilder/argsbuilder.go Args() on main, 2026; the Talos
 * versions whose extraArgs take lists).
 */
export function argsFromMap(m: MapNode, what: string, problems: Finding[]): ExtraArg[] {
  const out: ExtraArg[] = [];
  for (const e of m.entries) {
    const values = e.value.kind === 'seq' ? e.value.items : [e.value];
    for (const v of values) {
      if (v.kind !== 'scalar') {
        problems.push(finding('config-field-type', 'error', v.span, `The value of ${what} "${e.key}" must be a string or a list of strings.`));
        continue;
      }
      if (v.value === null || hasPlaceholder(v.source)) continue;
      out.push({ name: e.key, value: v.source, nameSpan: e.keySpan, valueSpan: v.span });
    }
  }
  return out;
}

/** A list of `--flag=value` strings (nodeadm spec.kubelet.flags), each item's name and value with its own span. */
export function argsFromFlagList(items: readonly ConfigNode[], problems: Finding[], what = 'kubelet.flags'): ExtraArg[] {
  const out: ExtraArg[] = [];
  for (const it of items) {
    if (it.kind !== 'scalar' || typeof it.value !== 'string') {
      problems.push(finding('config-field-type', 'error', it.span, `Each item of ${what} must be a string like "--flag=value".`));
      continue;
    }
    const text = it.source;
    if (hasPlaceholder(text)) continue;
    const dashes = text.startsWith('--') ? 2 : text.startsWith('-') ? 1 : 0;
    const eq = text.indexOf('=');
    const nameEnd = eq < 0 ? text.length : eq;
    const name = text.slice(dashes, nameEnd);
    const value = eq < 0 ? 'true' : text.slice(eq + 1);
    const valueSpan = eq < 0 ? sub(it, nameEnd, nameEnd) : sub(it, eq + 1, text.length);
    out.push({ name, value, nameSpan: sub(it, dashes, nameEnd), valueSpan });
  }
  return out;
}

/**
 * The fragment without entries whose whole value is a template placeholder (`${x}`): the rendered file decides
 * them, so they are neither read nor reported.
 */
export function withoutPlaceholders(m: MapNode): MapNode {
  const keep = m.entries.filter((e) => !(e.value.kind === 'scalar' && typeof e.value.value === 'string' && (hasPlaceholder(e.value.source) || hasMask(e.value.value))));
  return keep.length === m.entries.length ? m : { ...m, entries: keep };
}
