/** containerd's config.toml. */
import { parseContainerdConfig } from '../parse/runtime.ts';
import { defineFormat } from './types.ts';
import { parseTemplatedRuntime } from '../parse/runtime-template.ts';

const TOML_KEYS = /^[ \t]*(?:version[ \t]*=|\[plugins|\[grpc\]|root[ \t]*=|state[ \t]*=)/m;
/** A .conf is containerd's only with its own markers (root= and state= are too common elsewhere). */
const CONF_KEYS = /^[ \t]*(?:version[ \t]*=|\[plugins)/m;

export default defineFormat({
  kind: 'containerd',
  rank: 100,
  templateNames: true,
  label: 'containerd config',
  byContent: (c) => (c.ext === 'toml' && TOML_KEYS.test(c.head)) || (c.ext === 'conf' && CONF_KEYS.test(c.head)),
  parse(path, text) {
    const runtime = parseTemplatedRuntime(path, text, parseContainerdConfig);
    return { runtime, problems: runtime.problems };
  },
  comments: () => 'trailing',
  join: { kind: 'runtime' },
  watch: ['**/*.toml', '**/*.conf'],
  selector: ['**/*.toml'],
  activation: [],
});
