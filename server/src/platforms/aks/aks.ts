/**
 * AKS custom node configuration: the JSON object of `az aks nodepool add --kubelet-config FILE` (Microsoft's examples
 * call it linuxkubeletconfig.json or windowskubeletconfig.json, azure-cli's tests kubeletconfig.json). Recognised by
 * content: a JSON object with a key only AKS spells so (cpuCfsQuota, imageGcHighThreshold, containerLogMaxSizeMB,
 * podMaxPids, hardEvictionThreshold, ...) and none of an ARM template's or a Kubernetes object's.
 */
import { parseAks } from './parse-aks.ts';
import { defineFormat } from '../../formats/types.ts';
import { platformParse } from '../../formats/_platform.ts';

const OBJECT = /^[ \t\r\n]*\{/;
const AKS_KEY = /"(?:cpuCfsQuota|cpuCfsQuotaPeriod|imageGcHighThreshold|imageGcLowThreshold|containerLogMaxSizeMB|podMaxPids|hardEvictionThreshold|cpuMillicores)"[ \t\r\n]*:/;
const NOT_AKS = /"(?:\$schema|apiVersion|kind|resources|properties|kubeletConfig|kubeletConfiguration)"[ \t\r\n]*:/;

export default defineFormat({
  kind: 'aks-kubelet-config',
  rank: 186,
  label: 'AKS custom node configuration',
  byContent: (c) => c.ext === 'json' && OBJECT.test(c.head) && AKS_KEY.test(c.head) && !NOT_AKS.test(c.head),
  parse: platformParse(parseAks),
  comments: () => 'none',
  join: { kind: 'standalone', order: 3 },
  watch: ['**/*.json'],
  selector: ['**/*.json'],
  activation: ['**/*kubeletconfig*.json', '**/*kubelet-config*.json'],
});
