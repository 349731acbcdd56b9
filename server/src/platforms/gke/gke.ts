/**
 * GKE node system configuration (`gcloud container node-pools create --system-config-from-file=FILE`): a YAML file
 * with `kubeletConfig:` and/or `linuxConfig:` at column 0, or a JSON object whose first key is one of them. Users name
 * it system-config.yaml, systemconfig.yaml, node-system-config.yaml (scylladb/scylla-operator examples/gke,
 * converged-computing/performance-study experiments/google/gke), so recognition is by content, never by name. A
 * `kubeletConfig:` indented under `spec:` (Config Connector, a ComputeClass, an OpenShift KubeletConfig) is not one.
 */
import { parseGke } from './parse-gke.ts';
import { defineFormat } from '../../formats/types.ts';
import { platformParse } from '../../formats/_platform.ts';

const YAML_TOP = /^(?:kubeletConfig|linuxConfig)[ \t]*:/m;
const YAML_OTHER = /^(?:apiVersion|kind|spec|machine|cluster)[ \t]*:/m;
const JSON_TOP = /^[ \t\r\n]*\{[ \t\r\n]*"(?:kubeletConfig|linuxConfig)"[ \t]*:/;

export default defineFormat({
  kind: 'gke-system-config',
  rank: 185,
  label: 'GKE node system configuration',
  byContent: (c) =>
    ((c.ext === 'yaml' || c.ext === 'yml') && YAML_TOP.test(c.head) && !YAML_OTHER.test(c.head)) || (c.ext === 'json' && JSON_TOP.test(c.head)),
  parse: platformParse(parseGke),
  comments: (p) => (p.path.toLowerCase().endsWith('.json') ? 'none' : 'trailing'),
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.yaml', '**/*.yml', '**/*.json'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.json'],
  activation: ['**/*system-config*.{yaml,yml,json}', '**/*systemconfig*.{yaml,yml,json}'],
});
