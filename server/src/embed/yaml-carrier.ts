/**
 * Helpers for carriers written in YAML (Butane; cloud-init keeps its own loop): a payload held in a YAML string
 * node, and a payload that is named but not held (its content comes from elsewhere), which is reported as not
 * checked and never guessed.
 */
import { isScalar, type Node, type Scalar } from 'yaml';
import type { LineIndex } from '../model/range.ts';
import { LineIndex as Lines } from '../model/range.ts';
import type { Payload } from './payload.ts';
import { yamlStringMap } from './yaml-string.ts';

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
