/**
 * One eksctl node group's kubeletExtraConfig. Never recognised in a file of its own: formats/eksctl.ts hands each
 * one over as a payload of this kind, so that every node group is a node of its own.
 */
import { parseEksctlNodeGroup } from '../parse/eksctl.ts';
import { defineFormat } from './types.ts';

export default defineFormat({
  kind: 'eksctl-nodegroup',
  label: 'eksctl node group kubeletExtraConfig',
  parse(path, text) {
    const config = parseEksctlNodeGroup(path, text);
    return { config, problems: config.problems };
  },
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  watch: [],
  selector: [],
  activation: [],
});
