/**
 * Shared by the platform formats (files whose parser returns the kubelet settings of a platform tool): the parse
 * wrapper, and the formats that only a carrier's payloads have (their `kind` set by the carrier; never recognised in
 * a file of their own, a node of their own like a standalone platform file: eksctl node groups, kops groups).
 */
import type { ConfigFileParse } from '../parse/types.ts';
import { defineFormat, type Format, type ParsedBody } from './types.ts';

export function platformParse(parse: (path: string, text: string) => ConfigFileParse): (path: string, text: string) => ParsedBody {
  return (path, text) => {
    const config = parse(path, text);
    return { config, problems: config.problems };
  };
}

export function payloadOnlyFormat<K extends string>(kind: K, rank: number, label: string, parse: (path: string, text: string) => ConfigFileParse): Format<K> {
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
