/**
 * Shared by the platform formats (files whose parser returns the kubelet settings of a platform tool): the parse
 * wrapper, and the formats that only a carrier's payloads have (their `kind` set by the carrier; never recognised in
 * a file of their own, a node of their own like a standalone platform file: eksctl node groups, kops groups).
 */
import type { ConfigFileParse } from '../parse/types.ts';
import type { LineIndex } from '../model/range.ts';
import { defineFormat, type Format, type ParseOptions, type ParsedBody } from './types.ts';

export function platformParse(parse: (path: string, text: string, lines?: LineIndex) => ConfigFileParse): (path: string, text: string, opts?: ParseOptions) => ParsedBody {
  return (path, text, opts) => {
    const config = parse(path, text, opts?.lines);
    return { config, problems: config.problems };
  };
}

export function payloadOnlyFormat<K extends string>(kind: K, rank: number, label: string, parse: (path: string, text: string, lines?: LineIndex) => ConfigFileParse): Format<K> {
  return defineFormat({
    kind,
    rank,
    label,
    parse: platformParse(parse),
    comments: () => 'trailing',
    join: { kind: 'standalone', order: 3 },
    watch: [],
    selector: [],
    activation: [],
  });
}
