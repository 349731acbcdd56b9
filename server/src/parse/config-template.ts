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

  constructor(
    readonly original: string,
    readonly values: readonly TemplateExpr[],
    readonly lines: LineIndex,
  ) {}

  /** Give every masked scalar and key under `root` its text back, once per node (aliases share nodes). */
  tree(root: ConfigNode): void {
    const stack: ConfigNode[] = [root];
    while (stack.length) {
      const n = stack.pop()!;
      if (this.#seen.has(n)) continue;
      this.#seen.add(n);
      if (n.kind === 'scalar') {
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

  /** `s` (read at `span`) with the expressions that lie there. */
  text(s: string, span: Span): string {
    const r = span.range.start;
    return restoreAt(s, this.original, this.values, (this.lines.starts[r.line] ?? 0) + r.character);
  }
}
