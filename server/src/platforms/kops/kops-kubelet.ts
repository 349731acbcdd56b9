/**
 * The kubelet settings of one kops InstanceGroup (the Cluster's, then the group's). Never recognised in a file of its
 * own: formats/kops.ts hands each group over as a payload of this kind.
 */
import { parseKopsKubelet } from './parse-kops.ts';
import { payloadOnlyFormat } from '../../formats/_platform.ts';

export default payloadOnlyFormat('kops-kubelet', 220, 'kops kubelet settings', parseKopsKubelet);
