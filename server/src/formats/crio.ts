/** CRI-O's crio.conf and crio.conf.d/ drop-ins (TOML). */
import { parseCrioConfig } from '../parse/runtime.ts';
import { defineFormat } from './types.ts';
import { parseTemplatedRuntime } from '../parse/runtime-template.ts';

const CRIO_TABLE = /^[ \t]*\[crio[.\]]/m;

export default defineFormat({
  kind: 'crio',
  rank: 90,
  templateNames: true,
  label: 'CRI-O config',
  // /etc/crio/crio.conf and crio.conf.d/; a crio.conf elsewhere (/etc/modules-load.d/crio.conf lists kernel modules)
  // is CRI-O's only when its content says so.
  byPath: (c) => c.ext === 'conf' && ((c.lower === 'crio.conf' && c.dir === 'crio') || c.dir === 'crio.conf.d'),
  byContent: (c) => (c.ext === 'conf' || c.ext === 'toml') && CRIO_TABLE.test(c.head),
  parse(path, text) {
    const runtime = parseTemplatedRuntime(path, text, parseCrioConfig);
    return { runtime, problems: runtime.problems };
  },
  comments: () => 'trailing',
  join: { kind: 'runtime' },
  watch: ['**/*.conf', '**/*.toml'],
  selector: ['**/*.conf', '**/*.toml'],
  activation: [],
});
