/**
 * AKS (Azure Kubernetes Service) node pools with a custom kubelet configuration (aks.ts, parse-aks.ts). AKS writes the
 * kubelet's configuration file itself and sets the user's keys in it (Azure/AgentBaker 06836ee2 pkg/agent/utils.go
 * GetKubeletConfigFileContent then setCustomKubeletConfig): merge 'merge-patch'. What AKS adds:
 * - evictionHard memory.available 100Mi, nodefs.available 10%, nodefs.inodesFree 5% (AKS 1.29 and later,
 *   MicrosoftDocs/azure-aks-docs node-resource-reservations.md; the nodefs values are AgentBaker's documented default
 *   "memory.available<750Mi,nodefs.available<10%,nodefs.inodesFree<5%" of older versions);
 * - readOnlyPort 0 and protectKernelDefaults true (the flags AKS gives every node, mirrored by
 *   Azure/karpenter-provider-azure pkg/providers/imagefamily/bootstrap/staticvalues.go getBaseKubeletFlags);
 * - containerLogMaxSize 50M (containerLogMaxSizeMB's default 50, custom-node-configuration-reference.md);
 * - kube-reserved cpu and memory from the machine and maxPods (reservations.ts), unknown until the capacity is known;
 * - maxPods 110 (kubenet and Azure CNI pod subnet; 30 with node-subnet Azure CNI, 250 with Overlay: the node pool's
 *   --max-pods, concepts-network-ip-address-planning.md), which a pods= capacity replaces;
 * - the kubelet gate CustomCPUCFSQuotaPeriod with cpuCfsQuotaPeriod (setCustomKubeletConfig).
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Capacity, Item, Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import aks from './aks.ts';
import type { AksFacts } from './parse-aks.ts';
import { aksCpuMillis, aksMemoryMiB } from './reservations.ts';
import { HARD_EVICTION, KUBELET_FIELDS } from './fields.ts';

export const AKS_DEFAULT_MAX_PODS = 110;
const FORMULA = 'AKS computes it from the machine size and maxPods (node-resource-reservations)';

const from = (field: string, label: string): Provenance => ({ how: 'platform', label, field });
const unknown = (key: string): Item => ({ key, value: null, text: 'computed by AKS from the machine size', from: from('kubeReserved', FORMULA), template: 'whole' });

function base(p: PlatformInfo): Map<string, Setting> {
  const f = (p.facts ?? {}) as AksFacts;
  const s = new Map<string, Setting>();
  s.set('maxPods', scalar(AKS_DEFAULT_MAX_PODS, from('maxPods', `AKS default for maxPods ${AKS_DEFAULT_MAX_PODS} (the node pool's --max-pods sets it)`)));
  s.set('kubeReserved', { kind: 'map', items: [unknown('cpu'), unknown('memory')], from: from('kubeReserved', FORMULA) });
  s.set('evictionHard', map({ 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%' }, from('evictionHard', 'AKS default (1.29 and later)')));
  s.set('readOnlyPort', scalar(0, from('readOnlyPort', 'AKS default')));
  s.set('protectKernelDefaults', scalar(true, from('protectKernelDefaults', 'AKS default')));
  s.set('containerLogMaxSize', scalar('50M', from('containerLogMaxSize', 'AKS default (containerLogMaxSizeMB 50)')));
  if (f.cfsPeriod) s.set('featureGates', map({ CustomCPUCFSQuotaPeriod: 'true' }, from('featureGates', 'AKS turns it on for cpuCfsQuotaPeriod')));
  return s;
}

/** kube-reserved once the machine is known; maxPods from a pods capacity. Only values still AKS's change. */
function capacitySettings(_p: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined {
  if (!capacity) return undefined;
  const out = new Map(settings);
  let changed = false;
  const mp = settings.get('maxPods');
  if (capacity.pods !== undefined && capacity.pods > 0n && mp?.from.how === 'platform') {
    out.set('maxPods', scalar(Number(capacity.pods), from('maxPods', `AKS maxPods ${capacity.pods} (the pod capacity given)`)));
    changed = true;
  }
  const now = out.get('maxPods');
  const pods = now?.kind === 'scalar' && typeof now.value === 'number' ? BigInt(now.value) : BigInt(AKS_DEFAULT_MAX_PODS);
  const kr = settings.get('kubeReserved');
  if (kr?.kind === 'map') {
    const items = kr.items.map((i): Item => {
      if (i.from.how !== 'platform') return i;
      if (i.key === 'cpu' && capacity.cpu !== undefined) {
        const v = `${aksCpuMillis(capacity.cpu)}m`;
        return { key: 'cpu', value: v, text: v, from: from('kubeReserved', `AKS default (tiered CPU for ${Number(capacity.cpu) / 1000} cores)`) };
      }
      if (i.key === 'memory' && capacity.memory !== undefined) {
        const v = `${aksMemoryMiB(capacity.memory, pods)}Mi`;
        return { key: 'memory', value: v, text: v, from: from('kubeReserved', `AKS default (least of 20 × ${pods} + 50 Mi and 25% of memory)`) };
      }
      return i;
    });
    if (items.some((i, n) => i !== kr.items[n])) {
      out.set('kubeReserved', { ...kr, items });
      changed = true;
    }
  }
  return changed ? out : undefined;
}

/** az's names of the fields AKS passes on unchanged (imageGcHighThreshold, podMaxPids). */
const NAMES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(KUBELET_FIELDS).filter(([k, f]) => f.to !== k && !f.convert && f.type !== 'object').map(([k, f]) => [f.to, k])),
  // hardEvictionThreshold is evictionHard with AKS's spelling of each signal (memoryAvailable).
  evictionHard: 'hardEvictionThreshold',
  ...Object.fromEntries(Object.entries(HARD_EVICTION).map(([own, signal]) => [signal, own])),
};

export default definePlatform({
  id: 'aks',
  name: 'AKS',
  docs: 'aks',
  formats: [aks],
  rules: [],
  codes: [],
  examples: EXAMPLES,
  merge: 'merge-patch',
  base,
  capacitySettings,
  source: { how: 'config-dir', label: 'the kubelet configuration' },
  cgroups: { kind: 'systemd' },
  names: NAMES,
});
