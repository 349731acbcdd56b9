/**
 * Template expressions in configuration files: Helm and Go templates (`{{ .x }}`, `{{- if ... -}}`), Jinja2
 * (`{{ var }}`, `{% if %}`, `{# comment #}`) and Terraform templatefile (`${var}`, `%{ if ... }`).
 *
 * The scanner finds every expression with its exact offsets in one left-to-right pass: each closer is searched
 * once from its opener, the pass resumes after it, and a search that fails is remembered (no later opener of that
 * kind can succeed), so the work stays linear in the text. No regular expression runs over the whole text.
 *
 * `maskTemplates` turns a text into one a YAML or JSON reader can parse with every position unchanged: lines that
 * hold nothing but template directives are blanked (the template decides which lines exist; the document is read
 * on its literal lines), and every other expression becomes a same-length run of U+E000 (a private-use character
 * no real configuration holds), which the reader sees as part of a plain or quoted scalar. The YAML/JSON
 * converters' results are then given back their original text (`restore`).
 */
import { comparePos, LineIndex } from '../model/range.ts';
import type { Finding } from '../model/finding.ts';
import type { EnvFile, TemplateSpans } from './types.ts';

/** The stand-in character of a masked expression. */
export const MASK = '\uE000';
const MASK_CODE = 0xe000;

export interface TemplateExpr {
  start: number;
  end: number;
  /** `{{` Go/Helm/Jinja action, `{%` Jinja statement, `{#` Jinja comment, `${` / `%{` Terraform interpolation and directive. */
  open: '{{' | '{%' | '{#' | '${' | '%{';
  /** Produces no value of its own: a statement (`{% if %}`, `{{ end }}`, `%{ for }`), a variable assignment or a comment. */
  control: boolean;
}

export interface ScanOptions {
  /**
   * Read `${...}` and `%{...}` as Terraform template syntax. Off for systemd units, drop-ins and environment files,
   * where `${VAR}` is systemd's own variable syntax (the engine expands it) and `%` starts a specifier.
   */
  dollar: boolean;
  /**
   * Read `%{...}` (a Terraform directive) even with `dollar` off: in a unit `%{` is no systemd specifier (systemd
   * refuses it), so there it can only be a template the file was written from (poseidon/typhoon's Butane units).
   */
  percent?: boolean;
}

/**
 * Go template actions that open, close or steer a branch (text/template/parse lex.go keywords). `template` is not
 * one: it prints the named template, a value like any other (structure only when alone on its line).
 */
const GO_CONTROL = new Set(['if', 'else', 'end', 'range', 'with', 'define', 'block', 'break', 'continue']);

/** The character after an opening `{`, and the closer it needs: `{{ }}`, `{% %}`, `{# #}`. */
const CLOSERS = new Map<number, { open: '{{' | '{%' | '{#'; close: string }>([
  [123, { open: '{{', close: '}}' }],
  [37, { open: '{%', close: '%}' }],
  [35, { open: '{#', close: '#}' }],
]);

/** Every template expression of `text`, in order, never overlapping. */
export function scanTemplates(text: string, opts: ScanOptions): TemplateExpr[] {
  const out: TemplateExpr[] = [];
  // Once a closer search fails, no later opener of that kind can succeed either.
  const failed = new Set<number>();
  // Work left for Terraform closer searches. Each reads up to 4096 characters, so a line of unclosed `${` openers
  // cost 4096 reads per character (2.5 s for 100 KB). Real files read each interpolation once, a few times their
  // length in all; past this budget a `${` is taken as literal text.
  const budget = { left: 8 * text.length + 65_536 };
  // Every opener holds a `{`: jump from one to the next (indexOf is far faster than a loop over every character).
  let i = text.indexOf('{');
  while (i >= 0) {
    let next = i + 1;
    const d = text.charCodeAt(i + 1);
    const b = i > 0 ? text.charCodeAt(i - 1) : 0;
    const kind = CLOSERS.get(d);
    if (kind) {
      const e = failed.has(d) ? -1 : text.indexOf(kind.close, i + 2);
      if (e < 0) failed.add(d);
      else {
        // Jinja statements and comments never print; a Go action may (goControl tells).
        out.push({ start: i, end: e + 2, open: kind.open, control: d === 123 ? goControl(text, i + 2, e) : true });
        next = e + 2;
      }
    } else if (((opts.dollar && b === 36) /* $ */ || ((opts.dollar || opts.percent) && b === 37)) /* % */ && !(i > 1 && text.charCodeAt(i - 2) === b)) {
      // `$${` and `%%{` are Terraform's escapes for a literal `${` / `%{`.
      const e = closeBrace(text, i + 1, budget);
      if (e >= 0) {
        out.push({ start: i - 1, end: e + 1, open: b === 36 ? '${' : '%{', control: b === 37 });
        next = e + 1;
      }
    }
    i = text.indexOf('{', next);
  }
  return out;
}

/**
 * The `}` closing a Terraform interpolation opened just before `from`, on the same line: braces nest and double-quoted
 * strings are skipped. -1 when the line ends first. A search reads at most 4096 characters (no real interpolation is
 * longer), and all searches of one scan share `budget`.
 */
function closeBrace(text: string, from: number, budget: { left: number }): number {
  const limit = Math.min(text.length, from + 4096, from + Math.max(0, budget.left));
  // Charged what was read: up to the closer, or (failing) up to the line end or the limit.
  const stop = (at: number, result: number) => ((budget.left -= at - from + 1), result);
  let depth = 1;
  for (let j = from; j < limit; j++) {
    const c = text.charCodeAt(j);
    if (c === 10) return stop(j, -1);
    if (c === 123) depth++;
    else if (c === 125) {
      if (--depth === 0) return stop(j, j);
    } else if (c === 34 /* " */) {
      let k = j + 1;
      for (; k < limit; k++) {
        const q = text.charCodeAt(k);
        if (q === 92) k++;
        else if (q === 34 || q === 10) break;
      }
      if (k >= limit || text.charCodeAt(k) === 10) return stop(k, -1);
      j = k;
    }
  }
  return stop(limit, -1);
}

/** Is the Go action between `from` and `to` (inside the braces) a control action, a comment or an assignment? */
function goControl(text: string, from: number, to: number): boolean {
  let i = from;
  if (text.charCodeAt(i) === 45 /* - */) i++; // trim marker
  while (i < to && isBlank(text.charCodeAt(i))) i++;
  if (text.startsWith('/*', i)) return true;
  let j = i;
  while (j < to && isWordChar(text.charCodeAt(j))) j++;
  if (GO_CONTROL.has(text.slice(i, j))) return true;
  // `{{ $x := ... }}` declares a variable and prints nothing.
  if (text.charCodeAt(i) === 36 /* $ */) {
    const a = text.indexOf(':=', j);
    return a >= 0 && a < to;
  }
  return false;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

export interface Masked {
  /** Same length as the input, line ends in the same places. */
  text: string;
  /** The expressions left as values (masked with U+E000), in order. */
  values: TemplateExpr[];
  /**
   * Directives that decide the document's structure: statements and comments aside, control actions, and
   * expressions that stand alone on a line (they insert a whole block, like `{{ toYaml .x | nindent 4 }}`).
   * Their lines were blanked.
   */
  structural: TemplateExpr[];
}

/**
 * Mask the expressions of `text` for a YAML (`json: false`) or JSON reader. In JSON an expression outside a string
 * becomes a string of the same length (`"` + U+E000... + `"`) so that `"maxPods": {{ .n }}` still parses.
 */
export function maskTemplates(text: string, exprs: readonly TemplateExpr[], json: boolean): Masked {
  const values: TemplateExpr[] = [];
  const structural: TemplateExpr[] = [];
  if (exprs.length === 0) return { text, values, structural };
  const parts: string[] = [];
  let at = 0; // text copied up to here
  const js = new JsonState(); // JSON only: the reader's state at `jsAt`
  let jsAt = 0;
  const directiveLines = new Set<number>(); // starts of the lines blanked so far
  let k = 0;
  while (k < exprs.length) {
    // The expressions of one line (an expression may end on a later line; the group follows it).
    const first = exprs[k];
    const lineStart = text.lastIndexOf('\n', first.start - 1) + 1;
    let g = k + 1;
    let lineEnd = lineEndAfter(text, first.end);
    while (g < exprs.length && exprs[g].start < lineEnd) {
      lineEnd = lineEndAfter(text, exprs[g].end);
      g++;
    }
    // Alone on its lines when only blanks (and a YAML comment `#` before the first one) lie between them.
    let alone = onlyBlank(text, lineStart, first.start, !json) && onlyBlank(text, exprs[g - 1].end, lineEnd, false);
    for (let x = k + 1; alone && x < g; x++) alone = onlyBlank(text, exprs[x - 1].end, exprs[x].start, false);
    if (json) {
      js.advance(text, jsAt, first.start);
      jsAt = first.start;
      // In JSON a lone expression where a value belongs is that value; where a key belongs it inserts members.
      if (alone && g === k + 1 && !first.control && js.wantsValue()) alone = false;
    }
    // A blank line where a block scalar starts must not be more indented than its first line (YAML refuses that):
    // such a directive line becomes a `#` at the block's indentation instead, content the template drops anyway.
    const hashAt = alone && !json && afterBlockHeader(text, lineStart, directiveLines) ? nextIndent(text, lineEnd) : -1;
    if (alone) directiveLines.add(lineStart);
    for (let x = k; x < g; x++) {
      const e = exprs[x];
      if (json) {
        js.advance(text, jsAt, e.start);
        jsAt = e.end;
      }
      if (alone && x === k && hashAt >= 0 && lineStart + hashAt < e.start) {
        parts.push(text.slice(at, lineStart + hashAt), '#', text.slice(lineStart + hashAt + 1, e.start));
      } else if (alone && x === k && hashAt >= 0 && lineStart + hashAt < first.end) {
        parts.push(text.slice(at, e.start), blank(text, e.start, lineStart + hashAt), '#');
        at = lineStart + hashAt + 1;
        parts.push(blank(text, at, e.end));
        if (!(e.open === '{{' && isGoComment(text, e))) structural.push(e);
        at = e.end;
        continue;
      } else parts.push(text.slice(at, e.start));
      if (alone || e.open === '{#' || e.control) {
        parts.push(blank(text, e.start, e.end));
        if (e.open !== '{#' && !(e.open === '{{' && isGoComment(text, e))) structural.push(e);
      } else {
        values.push(e);
        const bare = json && !js.inString && e.end - e.start >= 2;
        if (bare) js.last = 34;
        parts.push(bare ? '"' + fill(text, e.start + 1, e.end - 1) + '"' : fill(text, e.start, e.end));
      }
      at = e.end;
    }
    k = g;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), values, structural };
}

function isGoComment(text: string, e: TemplateExpr): boolean {
  return text.startsWith('/*', e.start + (text.charCodeAt(e.start + 2) === 45 ? 3 : 2));
}

/** How far back or ahead the block-scalar look-around goes (lines), so that masking stays linear. */
const LOOK = 64;

/** Block scalar header at the end of a line: `key: |`, `- >-`, `|2+`. */
const BLOCK_HEADER = /(?:^|[ \t:-])[|>][-+0-9]{0,2}[ \t]*$/;

/** Is the last line before `lineStart` that is neither blank nor a blanked directive a block scalar header? */
function afterBlockHeader(text: string, lineStart: number, directiveLines: ReadonlySet<number>): boolean {
  let end = lineStart - 1; // the '\n' ending the previous line
  for (let n = 0; n < LOOK && end >= 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (!directiveLines.has(start) && line.trim() !== '') return BLOCK_HEADER.test(line);
    end = start - 1;
  }
  return false;
}

/** Indentation of the first non-blank line after `lineEnd`, or -1. */
function nextIndent(text: string, lineEnd: number): number {
  let start = lineEnd + 1;
  for (let n = 0; n < LOOK && start < text.length; n++) {
    let i = start;
    while (i < text.length && text.charCodeAt(i) === 32) i++;
    const c = text.charCodeAt(i);
    if (i < text.length && c !== 10 && c !== 13) return i - start;
    const e = text.indexOf('\n', i);
    if (e < 0) return -1;
    start = e + 1;
  }
  return -1;
}

function lineEndAfter(text: string, i: number): number {
  const e = text.indexOf('\n', i);
  return e < 0 ? text.length : e;
}

/** Only blanks between `from` and `to` (and, with `hash`, a `#` that comments the expression out in YAML). */
function onlyBlank(text: string, from: number, to: number, hash: boolean): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 13) continue;
    if (hash && c === 35) continue;
    return false;
  }
  return true;
}

/** Spaces in place of `text[from, to)`, line ends kept. */
function blank(text: string, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    s += c === 10 || c === 13 ? text[i] : ' ';
  }
  return s;
}

/** U+E000 in place of `text[from, to)`, line ends kept. */
function fill(text: string, from: number, to: number): string {
  let s = '';
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    s += c === 10 || c === 13 ? text[i] : MASK;
  }
  return s;
}

/** Where a JSON reader is: in a string or not, the open brackets, the last character that counts. */
class JsonState {
  inString = false;
  readonly stack: number[] = [];
  last = 0;

  advance(text: string, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (c === 92) i++;
        else if (c === 34) {
          this.inString = false;
          this.last = 34;
        }
      } else if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) {
        this.stack.push(c);
        this.last = c;
      } else if (c === 125 || c === 93) {
        this.stack.pop();
        this.last = c;
      } else if (!isBlank(c)) this.last = c;
    }
  }

  /** After `:`, or at an array's start or after a comma in it. */
  wantsValue(): boolean {
    if (this.inString) return false;
    if (this.last === 58) return true;
    return this.stack[this.stack.length - 1] === 91 && (this.last === 91 || this.last === 44);
  }
}

/**
 * Does a Go/Jinja value expression start a value unquoted (`key: {{ x }}`, `- {{ x }}`, `[{{ x }}]`, JSON
 * `"k": {{ x }}`)? A YAML reader takes that `{` for a flow mapping (so the value is no string, or the line no YAML)
 * and a JSON reader refuses it: nobody reads such a file as written, only what a template engine renders from it
 * (kubernetes-sigs/image-builder's Ansible `templates/etc/kubeadm.yml` has `kubernetesVersion: {{ kubernetes_semver }}`).
 */
export function bareValueExpr(text: string, values: readonly TemplateExpr[], json: boolean): boolean {
  return values.some((e) => {
    if (e.open !== '{{') return false;
    let i = e.start - 1;
    while (i >= 0 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
    const c = text[i];
    const blank = i < e.start - 1;
    if (c === '[' || (json && c === ',')) return true;
    if (c === ':') return blank || json;
    return c === '-' && blank && (i === 0 || isBlank(text.charCodeAt(i - 1)));
  });
}

/** Does a scalar or key read from masked text hold a masked expression? */
export function hasMask(s: string): boolean {
  return s.indexOf(MASK) >= 0;
}

/** Is `s` nothing but masked expressions (and blanks)? */
export function allMask(s: string): boolean {
  let any = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === MASK_CODE) any = true;
    else if (!isBlank(c)) return false;
  }
  return any;
}

/**
 * Give a string read from masked text its original expressions back: each run of U+E000 is replaced by the text of
 * the value expressions it covers, taken in order from `values[from]` on. Returns the text and the next index.
 */
export function restore(s: string, original: string, values: readonly TemplateExpr[], from: number): { text: string; next: number } {
  let out = '';
  let k = from;
  let i = 0;
  while (i < s.length) {
    const m = s.indexOf(MASK, i);
    if (m < 0) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, m);
    let j = m;
    while (j < s.length && s.charCodeAt(j) === MASK_CODE) j++;
    // A run covers whole expressions (adjacent ones fuse); a run cut by a line fold covers part of one.
    let need = j - m;
    let piece = '';
    while (need > 0 && k < values.length) {
      const e = values[k];
      const len = e.end - e.start;
      piece += original.slice(e.start, e.end);
      need -= len;
      k++;
    }
    out += piece || s.slice(m, j);
    i = j;
  }
  return { text: out, next: k };
}

/** `restore` from the first value expression that ends after offset `at` of the original text. */
export function restoreAt(s: string, original: string, values: readonly TemplateExpr[], at: number): string {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid].end <= at) lo = mid + 1;
    else hi = mid;
  }
  return restore(s, original, values, lo).text;
}

/** The same string with every masked run replaced by `sample` (how a partly literal value is checked). */
export function sampleOf(s: string, sample: string): string {
  let out = '';
  let inRun = false;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === MASK_CODE) {
      if (!inRun) out += sample;
      inRun = true;
    } else {
      out += s[i];
      inRun = false;
    }
  }
  return out;
}

const TEMPLATE_EXTS = new Set(['tpl', 'tmpl', 'gotmpl', 'j2', 'jinja', 'jinja2', 'template', 'tftpl', 'tfpl']);

/**
 * The name without its template extension (`kubelet-config.yaml.j2` -> `kubelet-config.yaml`), or undefined when
 * the name has none.
 */
export function withoutTemplateExt(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return TEMPLATE_EXTS.has(name.slice(dot + 1).toLowerCase()) ? name.slice(0, dot) : undefined;
}

/**
 * Template suffixes after a systemd unit, drop-in or environment file name (`kubelet.service.j2`, `10-kubeadm.conf.j2`,
 * `kubelet.env.tftpl`): Jinja2 (Ansible, Kubespray), Terraform templatefile, Go templates.
 */
const SYSTEMD_TEMPLATE_EXTS = new Set(['j2', 'jinja', 'jinja2', 'tftpl', 'tfpl', 'tmpl', 'tpl']);

/** The suffixes as a glob alternative (`{j2,jinja,...}`), for the formats' watch globs and document selector. */
export const SYSTEMD_TEMPLATE_GLOB = `{${[...SYSTEMD_TEMPLATE_EXTS].join(',')}}`;

/**
 * A Kubernetes API version between the name and the template suffix: Kubespray picks its env file template by the
 * kubelet config version (roles/kubernetes/node/tasks/kubelet.yml: `src: "kubelet.env.{{ kubeletConfig_api_version
 * }}.j2"`, dest `kubelet.env`), so `kubelet.env.v1beta1.j2` renders `kubelet.env`.
 */
const API_VERSION_SEGMENT = /\.v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;

/**
 * The name a systemd file template renders to (`kubelet.service.j2` -> `kubelet.service`, `kubelet.env.v1beta1.j2`
 * -> `kubelet.env`), or undefined when the name has no such suffix. Only a name that is then a unit, drop-in or
 * environment file name is read as one (formats/index.ts detectKind).
 */
export function systemdTemplateName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || !SYSTEMD_TEMPLATE_EXTS.has(name.slice(dot + 1).toLowerCase())) return undefined;
  const bare = name.slice(0, dot);
  const version = API_VERSION_SEGMENT.exec(bare);
  return version && version.index > 0 ? bare.slice(0, version.index) : bare;
}

const TERRAFORM_EXT = /\.(?:tftpl|tfpl)$/i;

/**
 * Is the file a Terraform template: named so (`*.tftpl`), or holding what only Terraform's template syntax has, a
 * directive (`%{ if }`, `%{ for }`) or an escaped interpolation (`$${`, which Terraform renders as a literal `${`;
 * hashicorp/hcl hclsyntax template escapes)? Then Terraform renders every `${name}` in it before any tool reads it
 * (poseidon/typhoon's Butane configs without a directive still escape systemd's `$${KUBELET_IMAGE}`).
 */
export function isTerraformTemplate(path: string, text: string): boolean {
  if (TERRAFORM_EXT.test(path)) return true;
  if (text.includes('$${')) return true;
  return scanTemplates(text, { dollar: true }).some((e) => e.open === '%{');
}

/** Does the path say the file is a template: a template extension, or a Helm chart's `templates/` folder? */
export function isTemplatePath(path: string): boolean {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  if (withoutTemplateExt(name) !== undefined) return true;
  return ('/' + path.slice(0, slash + 1)).includes('/templates/');
}

/**
 * Go and Jinja expressions of a unit, drop-in or environment file (`${VAR}` there is systemd's). systemd reads them
 * literally; what is said about them is not reported. In an environment file the whole value holding one is
 * unknown: it is split into words wherever the rendered text has blanks.
 */
export function systemdTemplateSpans(path: string, text: string, env?: EnvFile): TemplateSpans | undefined {
  const exprs = scanTemplates(text, { dollar: false, percent: !env });
  if (exprs.length === 0) return undefined;
  const lines = new LineIndex(text);
  const unknown = exprs.map((e) => ({ file: path, range: lines.range(e.start, e.end) }));
  for (const a of env?.assignments ?? []) {
    if (a.value.length && scanTemplates(a.value, { dollar: false }).length) unknown.push(a.valueMap.span(0, a.value.length));
  }
  return { unknown, partial: [] };
}

/** A YAML text with its template expressions masked, every position unchanged (Helm, Jinja and Terraform syntax). */
export function maskYamlTemplates(text: string): string {
  return maskTemplates(text, scanTemplates(text, { dollar: true }), false).text;
}

/** Parse problems that are not inside a template expression (a `%{ for }` line is no broken unit line once rendered). */
export function outsideTemplates(problems: Finding[], t: TemplateSpans): Finding[] {
  const inside = (f: Finding) =>
    t.unknown.some((s) => comparePos(s.range.start, f.range.start) <= 0 && comparePos(f.range.end, s.range.end) <= 0);
  return problems.some(inside) ? problems.filter((f) => !inside(f)) : problems;
}
