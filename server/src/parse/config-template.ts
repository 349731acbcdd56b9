/**
 * Reading a YAML or JSON config file that holds template expressions: the text is masked (parse/template.ts) before
 * the reader sees it, and the tree read from it gets its expressions back here, each templated scalar and key
 * marked so that the node model and the rules know its value is unknown.
 */
import type { LineIndex, Span } from '../model/range.ts';
import type { ConfigNode, TemplateSpans } from './types.ts';
import { allMask, hasMask, restoreAt, sampleOf, type TemplateExpr } from './template.ts';

/** What a partly literal value's expressions are replaced by when it is checked: a number fits most literal parts. */
const SAMPLE = '1';

export class TemplateRestorer {
  readonly spans: TemplateSpans = { unknown: [], partial: [] };
  readonly #seen = new Set<ConfigNode>();

  /**
   * `inlineControl`: the lines holding a control directive beside other text (`cgroupDriver: {{ if .v1 }}cgroupfs{{
   * else }}systemd{{ end }}`). The directive was blanked, so the reader joined its branches into one value; which
   * branch the rendered file keeps is unknown, so a value on such a line is unknown as a whole.
   */
  constructor(
    readonly original: string,
    readonly values: readonly TemplateExpr[],
    readonly lines: LineIndex,
    readonly inlineControl: ReadonlySet<number> = new Set(),
  ) {}

  /** Give every masked scalar and key under `root` its text back, once per node (aliases share nodes). */
  tree(root: ConfigNode): void {
    const stack: ConfigNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (this.#seen.has(n)) continue;
      this.#seen.add(n);
      if (n.kind === 'scalar') {
        if (this.inlineControl.size && this.onControlLine(n.span)) {
          const r = n.span.range;
          const at = (p: { line: number; character: number }) => (this.lines.starts[p.line] ?? 0) + p.character;
          n.template = 'whole';
          n.value = n.source = this.original.slice(at(r.start), at(r.end));
          this.spans.unknown.push(n.span);
          continue;
        }
        if (!hasMask(n.source)) continue;
        const text = this.text(n.source, n.span);
        if (allMask(n.source)) {
          n.template = 'whole';
          n.value = text;
          this.spans.unknown.push(n.span);
        } else {
          n.template = 'partial';
          n.value = sampleOf(n.source, SAMPLE);
          this.spans.partial.push(n.span);
        }
        n.source = text;
      } else if (n.kind === 'map') {
        for (const e of n.entries) {
          if (hasMask(e.key)) {
            e.key = this.text(e.key, e.keySpan);
            e.keyTemplate = true;
            this.spans.unknown.push(e.keySpan);
          }
          stack.push(e.value);
        }
      } else for (const it of n.items) stack.push(it);
    }
  }

  private onControlLine(span: Span): boolean {
    for (let l = span.range.start.line; l <= span.range.end.line; l++) if (this.inlineControl.has(l)) return true;
    return false;
  }

  /** `s` (read at `span`) with the expressions that lie there. */
  text(s: string, span: Span): string {
    const r = span.range.start;
    return restoreAt(s, this.original, this.values, (this.lines.starts[r.line] ?? 0) + r.character);
  }
}
