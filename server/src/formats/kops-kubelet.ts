/**
 * The kubelet settings of one kops InstanceGroup (the Cluster's, then the group's). Never recognised in a file of its
 * own: formats/kops.ts hands each group over as a payload of this kind.
 */
import { parseKopsKubelet } from '../parse/kops.ts';
import { defineFormat } from './types.ts';

export default defineFormat({
  kind: 'kops-kubelet',
  label: 'kops kubelet settings',
  parse(path, text) {
    const config = parseKopsKubelet(path, text);
    return { config, problems: config.problems };
  },
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  watch: [],
  selector: [],
  activation: [],
});
