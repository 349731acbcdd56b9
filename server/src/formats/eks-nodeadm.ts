/**
 * EKS nodeadm NodeConfig (AL2023 user data): a `node.eks.aws/v1alpha1` `NodeConfig` document, standalone or as a
 * `Content-Type: application/node.eks.aws` part of MIME multi-part user data. Recognised by apiVersion and kind at
 * column 0 (MIME parts start their documents there too), or by the part's content type.
 */
import { parseNodeadm } from '../parse/nodeadm.ts';
import { defineFormat } from './types.ts';

const API = /^apiVersion:[ \t]*["']?node\.eks\.aws\/v1alpha1["']?[ \t]*(?:#[^\n]*)?$/m;
const KIND = /^kind:[ \t]*["']?NodeConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const PART = /^Content-Type:[ \t]*application\/node\.eks\.aws\b/im;
const EXTS = new Set(['yaml', 'yml', 'tpl', 'txt', 'mime', 'sh', '']);

export default defineFormat({
  kind: 'eks-nodeadm',
  label: 'EKS nodeadm NodeConfig',
  byContent: (c) => EXTS.has(c.ext) && ((API.test(c.head) && KIND.test(c.head)) || PART.test(c.head)),
  parse(path, text) {
    const config = parseNodeadm(path, text);
    return { config, problems: config.problems };
  },
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.yaml', '**/*.yml', '**/*.tpl', '**/user-data'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.tpl', '**/user-data'],
  activation: ['**/nodeconfig*.{yaml,yml}', '**/*user-data*.tpl', '**/*userdata*.{yaml,yml,tpl}'],
});
