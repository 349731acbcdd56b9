/**
 * A format that only a carrier's payloads have (its `kind` set by the carrier): never recognised in a file of its
 * own, a node of its own like a standalone platform file (eksctl node groups, kops instance groups).
 */
import type { ConfigFileParse } from '../parse/types.ts';
import { defineFormat, type Format } from './types.ts';

export function payloadOnlyFormat<K extends string>(kind: K, label: string, parse: (path: string, text: string) => ConfigFileParse): Format<K> {
  return defineFormat({
    kind,
    label,
    parse(path, text) {
      const config = parse(path, text);
      return { config, problems: config.problems };
    },
    comments: () => 'trailing',
    join: { kind: 'standalone', order: 3 },
    watch: [],
    selector: [],
    activation: [],
  });
}
