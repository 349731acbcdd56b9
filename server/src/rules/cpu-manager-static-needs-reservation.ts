/**
 * cm/cpumanager/policy_static.go: the static policy needs a cpu reservation
 * ("the static policy requires systemreserved.cpu + kubereserved.cpu to be
 * greater than zero"); reservedSystemCPUs counts too. Without one the
 * kubelet does not start.
 */
import { finding, type Finding } from '../model/finding.ts';
import { reservationMap, cpusetSize, templatedReservations } from '../node/allocatable.ts';
import { mapItems, stringSetting } from '../node/read.ts';
import type { Rule } from './types.ts';

export const cpuManagerStaticNeedsReservation: Rule = {
  id: 'cpu-manager-static-needs-reservation',
  summary: 'the static CPU manager policy needs a cpu reservation',
  severity: 'error',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    const s = node.settings.get('cpuManagerPolicy');
    if (s?.kind !== 'scalar' || s.value !== 'static' || !s.span) return out;
    const cpus = stringSetting(node, 'reservedSystemCPUs');
    if (cpus && (cpusetSize(cpus) ?? 0) > 0) return out;
    if (templatedReservations(node).has('cpu')) return out; // reserved by a template expression: unknown, not 0
    const kube = reservationMap(mapItems(node, 'kubeReserved')).get('cpu') ?? 0n;
    const system = reservationMap(mapItems(node, 'systemReserved')).get('cpu') ?? 0n;
    if (kube + system > 0n) return out;
    out.push(
      finding(
        'cpu-manager-static-needs-reservation',
        'error',
        s.span,
        `cpuManagerPolicy "static" needs reserved cpu: the kubelet refuses to start. It needs some cpu kept back for system daemons, but kubeReserved and systemReserved reserve no cpu and reservedSystemCPUs is empty. Reserve for example kubeReserved cpu: 500m.`,
      ),
    );
    return out;
  },
};
