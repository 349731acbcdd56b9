/**
 * Payloads that are a YAML block mapping of the carrier itself (a Cluster API `initConfiguration`, a Karpenter
 * `spec.kubelet`), not a string: the mapping's lines, dedented to column 0, after a header the carrier writes to
 * say what the document is (`apiVersion: ...\nkind: ...\n`, which the user never wrote). The header maps to the
 * mapping's first character; every other payload character maps to its own place in the carrier, so findings,
 * hovers and fixes land on the user's lines. Text inserted into the payload is re-indented to the mapping's column.
 */
import type { LineIndex } from '../model/range.ts';
import type { PayloadMap } from './payload.ts';

export interface SubtreePayload {
  text: string;
  map: PayloadMap;
}

/**
 * `start`..`end`: the carrier offsets of a block mapping (the YAML library's node.range[0] and [1]); `start` is
 * its first key, at the mapping's column. Undefined when the mapping is not a block at the start of its line's
 * content (a flow mapping `{...}` cannot be dedented).
 */
export function yamlSubtree(lines: LineIndex, start: number, end: number, header: string): SubtreePayload | undefined {
  const host = lines.text;
  const first = lines.position(start).line;
  const lineStart = lines.starts[first];
  const indent = start - lineStart;
  // A flow mapping `{...}` cannot be dedented line by line.
  if (host.charAt(start) === '{') return undefined;
  let last = lines.position(Math.max(start, end - 1)).line;
  // A block mapping's range can end at the start of the next line; that line is not part of it.
  if (last > first && lines.starts[last] >= end) last--;
  // Lines of only blanks after the mapping, indented at least as far as its keys, still belong to it for the editor:
  // completion of the next key on such a line (the YAML library's range ends at the last key's value).
  while (last + 1 < lines.starts.length) {
    const from = lines.starts[last + 1];
    let to = last + 2 < lines.starts.length ? lines.starts[last + 2] - 1 : host.length;
    if (to > from && host.charCodeAt(to - 1) === 13) to--;
    let i = from;
    while (i < to && (host[i] === ' ' || host[i] === '\t')) i++;
    if (i < to || to - from < Math.max(indent, 1)) break;
    last++;
  }
  let text = header;
  const offsets: number[] = [];
  for (let i = 0; i < header.length; i++) offsets.push(start);
  for (let l = first; l <= last; l++) {
    const from = lines.starts[l];
    let to = l + 1 < lines.starts.length ? lines.starts[l + 1] - 1 : host.length; // the '\n' (or the end)
    const eol = to;
    if (to > from && host.charCodeAt(to - 1) === 13) to--;
    // Drop up to `indent` leading blanks (the first line: everything before the first key, a list dash included).
    let cut = from;
    if (l === first) cut = start;
    else while (cut < to && cut - from < indent && (host[cut] === ' ' || host[cut] === '\t')) cut++;
    for (let o = cut; o < to; o++) {
      text += host[o];
      offsets.push(o);
    }
    text += '\n';
    offsets.push(Math.min(eol, host.length));
  }
  // Just after the payload: the start of the carrier's next line (or its end).
  const after = last + 1 < lines.starts.length ? lines.starts[last + 1] : host.length;
  offsets.push(after);
  const pad = ' '.repeat(indent);
  // Lines a fix adds end as the carrier's first line does.
  const firstEnd = host.indexOf('\n', lineStart);
  const nl = firstEnd > 0 && host.charCodeAt(firstEnd - 1) === 13 ? '\r\n' : '\n';
  const encode = (inserted: string, at: number): string | undefined => {
    const col = at - lines.starts[lines.position(at).line];
    const body = inserted.replace(/\r\n/g, '\n');
    // At the start of the line after the mapping every line of the insertion needs the mapping's indentation;
    // inside a line of the mapping the carrier's own indentation is before `at`, and each new line needs it.
    const out = col === 0 && at === after ? body.replace(/^(?=[^\n])/gm, pad) : body.replace(/\n(?=[^\n])/g, '\n' + pad).replace(/\n$/, '\n' + pad);
    return nl === '\n' ? out : out.replace(/\n/g, nl);
  };
  return { text, map: { host: lines, offsets: Int32Array.from(offsets), encode } };
}
