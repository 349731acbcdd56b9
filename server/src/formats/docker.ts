/** dockerd's daemon.json. */
import { parseDockerDaemonJson } from '../parse/runtime.ts';
import { defineFormat } from './types.ts';
import { parseTemplatedRuntime } from '../parse/runtime-template.ts';

const DOCKER_KEYS = /"(?:exec-opts|storage-driver|log-driver|default-runtime|live-restore|data-root|log-opts)"[ \t\r\n]*:/;

export default defineFormat({
  kind: 'docker',
  rank: 250,
  templateNames: true,
  label: 'Docker daemon.json',
  byContent: (c) => c.name === 'daemon.json' || ((c.ext === 'json' || c.ext === 'conf') && DOCKER_KEYS.test(c.head)),
  parse(path, text) {
    const runtime = parseTemplatedRuntime(path, text, parseDockerDaemonJson);
    return { runtime, problems: runtime.problems };
  },
  comments: () => 'none',
  join: { kind: 'runtime' },
  watch: ['**/*.json'],
  selector: ['**/*.json'],
  activation: [],
});
