/**
 * One eksctl node group's kubeletExtraConfig. Never recognised in a file of its own: formats/eksctl.ts hands each
 * one over as a payload of this kind, so that every node group is a node of its own.
 */
import { parseEksctlNodeGroup } from './parse-eksctl.ts';
import { payloadOnlyFormat } from '../../formats/_platform.ts';

export default payloadOnlyFormat('eksctl-nodegroup', 200, 'eksctl node group kubeletExtraConfig', parseEksctlNodeGroup);
