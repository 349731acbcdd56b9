/**
 * GKE (Google Kubernetes Engine) node pools configured with a node system configuration (gke.ts, parse-gke.ts).
 * GKE writes the kubelet's configuration itself and takes the file's kubeletConfig over it, key by key: merge
 * 'merge-patch'. What GKE adds, cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes ("Memory and CPU
 * reservations"), the arithmetic of catalog/reservation-formulas.ts:
 * - kube-reserved cpu: 6% of the first core, 1% of the second, 0.5% of cores 3 and 4, 0.25% of each core above 4;
 * - kube-reserved memory: 255 MiB below 1 GiB of memory, else 25% of the first 4 GiB, 20% of the next 4, 10% of the
 *   next 8, 6% of the next 112 and 2% above 128 GiB;
 * - no system-reserved; the hard eviction threshold memory.available 100Mi and nodefs.available 10%, which are the
 *   kubelet's own defaults (kubernetes/autoscaler cluster-autoscaler/cloudprovider/gce/gce_reserved.go uses the same
 *   two, commit 55c37cd5), so no evictionHard is written here;
 * - maxPods 110, the Standard node pool default, unless the node pool's --max-pods-per-node says otherwise (a pods=
 *   capacity stands for it);
 * - the kubelet gate CustomCPUCFSQuotaPeriod with cpuCFSQuotaPeriod, which the kubelet needs before 1.36 to accept a
 *   period other than 100ms (GKE accepts the field, so it turns the gate on).
 * Until the machine size is known, kube-reserved cpu and memory are unknown amounts (not zero): the rules that look
 * for a reservation see one, and allocatable is not computed without a capacity anyway.
 */
import type { PlatformInfo } from '../../parse/types.ts';
import type { Capacity, Item, Provenance, Setting } from '../../node/model.ts';
import { map, scalar } from '../../node/platform.ts';
import { gkeCpuMillis, gkeMemoryMiB } from '../../catalog/reservation-formulas.ts';
import { definePlatform } from '../types.ts';
import { EXAMPLES } from './examples.ts';
import gke from './gke.ts';
import type { GkeFacts } from './parse-gke.ts';
import { KUBELET_FIELDS, SIGNALS } from './fields.ts';

export const GKE_DEFAULT_MAX_PODS = 110;
const FORMULA = 'GKE computes it from the machine size (plan-node-sizes)';

const from = (field: string, label: string): Provenance => ({ how: 'platform', label, field });

/** An amount GKE computes on the node: unknown here (Item.template 'whole'), never zero. */
const unknown = (key: string): Item => ({ key, value: null, text: 'computed by GKE from the machine size', from: from('kubeReserved', FORMULA), template: 'whole' });

function base(p: PlatformInfo): Map<string, Setting> {
  const f = (p.facts ?? {}) as GkeFacts;
  const s = new Map<string, Setting>();
  s.set('maxPods', scalar(GKE_DEFAULT_MAX_PODS, from('maxPods', `GKE default for maxPods ${GKE_DEFAULT_MAX_PODS} (the node pool's --max-pods-per-node sets it)`)));
  s.set('kubeReserved', { kind: 'map', items: [unknown('cpu'), unknown('memory')], from: from('kubeReserved', FORMULA) });
  if (f.cfsPeriod) s.set('featureGates', map({ CustomCPUCFSQuotaPeriod: 'true' }, from('featureGates', 'GKE turns it on for cpuCFSQuotaPeriod')));
  return s;
}

/** kube-reserved from the machine once its size is known, and maxPods from a pods capacity; only values still GKE's change. */
function capacitySettings(_p: PlatformInfo, settings: ReadonlyMap<string, Setting>, capacity: Capacity | undefined): Map<string, Setting> | undefined {
  if (!capacity) return undefined;
  const out = new Map(settings);
  let changed = false;
  const maxPods = settings.get('maxPods');
  if (capacity.pods !== undefined && capacity.pods > 0n && maxPods?.from.how === 'platform') {
    out.set('maxPods', scalar(Number(capacity.pods), from('maxPods', `GKE maxPods ${capacity.pods} (the pod capacity given)`)));
    changed = true;
  }
  const kr = settings.get('kubeReserved');
  if (kr?.kind === 'map') {
    const items = kr.items.map((i): Item => {
      if (i.from.how !== 'platform') return i;
      if (i.key === 'cpu' && capacity.cpu !== undefined) {
        const v = `${gkeCpuMillis(capacity.cpu)}m`;
        return { key: 'cpu', value: v, text: v, from: from('kubeReserved', `GKE default (tiered CPU for ${Number(capacity.cpu) / 1000} cores)`) };
      }
      if (i.key === 'memory' && capacity.memory !== undefined) {
        const v = `${gkeMemoryMiB(capacity.memory)}Mi`;
        return { key: 'memory', value: v, text: v, from: from('kubeReserved', 'GKE default (tiered memory: 25% of the first 4 GiB, 20%, 10%, 6%, 2%)') };
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

/**
 * gcloud's names of the fields it passes on unchanged (imageGcHighThresholdPercent), the topology manager's two, and the
 * eviction signals its evictionSoft maps spell in camelCase (memoryAvailable).
 */
const NAMES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(KUBELET_FIELDS).filter(([k, f]) => f.to && f.to !== k && !f.convert).map(([k, f]) => [f.to!, k])),
  topologyManagerPolicy: 'topologyManager.policy',
  topologyManagerScope: 'topologyManager.scope',
  ...Object.fromEntries(Object.entries(SIGNALS).map(([own, signal]) => [signal, own])),
};

export default definePlatform({
  id: 'gke',
  name: 'GKE',
  docs: 'gke',
  formats: [gke],
  rules: [],
  codes: [],
  examples: EXAMPLES,
  merge: 'merge-patch',
  base,
  capacitySettings,
  source: { how: 'config-dir', label: 'kubeletConfig' },
  cgroups: { kind: 'systemd' },
  names: NAMES,
});
