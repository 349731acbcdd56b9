/**
 * EKS nodeadm NodeConfig (AL2023 user data): a `node.eks.aws/v1alpha1` `NodeConfig` document, recognised by
 * apiVersion and kind at column 0. In MIME multi-part user data the `application/node.eks.aws` parts are this
 * kind's payload (formats/mime.ts).
 */
import { parseNodeadm } from './parse-nodeadm.ts';
import { defineFormat } from '../../formats/types.ts';

const API = /^apiVersion:[ \t]*["']?node\.eks\.aws\/v1alpha1["']?[ \t]*(?:#[^\n]*)?$/m;
const KIND = /^kind:[ \t]*["']?NodeConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const EXTS = new Set(['yaml', 'yml', 'tpl', 'txt', 'mime', 'sh', '']);

export default defineFormat({
  kind: 'eks-nodeadm',
  rank: 170,
  label: 'EKS nodeadm NodeConfig',
  byContent: (c) => EXTS.has(c.ext) && API.test(c.head) && KIND.test(c.head),
  parse(path, text, opts) {
    const config = parseNodeadm(path, text, opts?.lines);
    return { config, problems: config.problems };
  },
  comments: () => 'trailing',
  // The AL2023 AMI ships kubelet.service (`ExecStart=/usr/bin/kubelet $NODEADM_KUBELET_ARGS`, amazon-eks-ami
  // templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service): the user's drop-ins for it are this node's.
  anchorsDropinsOf: 'kubelet.service',
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.yaml', '**/*.yml', '**/*.tpl', '**/user-data'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.tpl', '**/user-data'],
  activation: ['**/nodeconfig*.{yaml,yml}', '**/*user-data*.tpl', '**/*userdata*.{yaml,yml,tpl}'],
});
