/**
 * Helpers for carriers written in YAML (Butane, cloud-init's runcmd): a payload held in a YAML string
 * node, and a payload that is named but not held (its content comes from elsewhere), which is reported as not
 * checked and never guessed.
 */
import { isScalar, isSeq, type Node, type Scalar } from 'yaml';
import type { LineIndex } from '../model/range.ts';
import { LineIndex as Lines } from '../model/range.ts';
import type { Payload } from './payload.ts';
import { yamlStringMap } from './yaml-string.ts';
import { scanShell } from './shell.ts';

/** The payload a YAML string node holds; undefined when the node is not a string with a place. */
export function stringPayload(text: string, lines: LineIndex, node: unknown, target: string, crlf: boolean): Payload | undefined {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const s = node as Scalar<string>;
  const map = yamlStringMap(text, lines, s, s.value, crlf);
  return { target, text: s.value, map, span: lines.range(s.range![0], s.range![1]), lines: new Lines(s.value) };
}

/** A payload whose text is not in the carrier: empty, reported at `node` with the reason. */
export function unreadPayload(lines: LineIndex, node: Node | undefined, target: string, why: string): Payload {
  const [start, end] = node?.range ?? [0, 0];
  const map = { host: lines, offsets: Int32Array.of(start), encode: () => undefined };
  return { target, text: '', map, span: lines.range(start, end), lines: new Lines(''), unchecked: why };
}

/**
 * The files a cloud-init `runcmd`/`bootcmd` list writes: each string entry is run by `sh -c` (cloudinit/util.py
 * shellify), so it is shell text read by embed/shell.ts; a list entry is an argv run without a shell.
 */
export function commandPayloads(list: unknown, text: string, lines: LineIndex, crlf: boolean): Payload[] {
  const out: Payload[] = [];
  if (!isSeq(list)) return out;
  for (const item of list.items) {
    const p = stringPayload(text, lines, item, '', crlf);
    if (!p || !/kubelet|bootstrap\.sh/i.test(p.text)) continue;
    const src = { text: p.text, offsets: p.map.offsets, encode: p.map.encode };
    for (const x of scanShell(src, lines, (a, b) => lines.range(a, b))) out.push(x);
  }
  return out;
}
