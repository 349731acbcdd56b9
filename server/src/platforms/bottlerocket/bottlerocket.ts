/**
 * Bottlerocket user data: TOML settings whose `[settings.kubernetes]` table (or a sub-table of it) configures the
 * kubelet. Recognised by such a table header at column 0; a TOML file without kubelet keys there gets no node.
 */
import { parseBottlerocket } from './parse-bottlerocket.ts';
import { defineFormat } from '../../formats/types.ts';
import { platformParse } from '../../formats/_platform.ts';

const HEADER = /^\[[ \t]*settings\.kubernetes(?:\.[^\]\r\n]*)?[ \t]*\][ \t]*\r?$/m;
const EXTS = new Set(['toml', 'txt', 'tpl', '']);

export default defineFormat({
  kind: 'bottlerocket',
  rank: 230,
  label: 'Bottlerocket settings',
  byContent: (c) => EXTS.has(c.ext) && HEADER.test(c.head),
  parse: platformParse(parseBottlerocket),
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.toml'],
  selector: ['**/*.toml'],
  activation: ['**/*bottlerocket*.toml', '**/user-data.toml'],
});
