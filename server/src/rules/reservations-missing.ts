/**
 * A node that reserves neither cpu nor memory for the kubelet and the OS: kubeReserved and
 * systemReserved default to empty (pkg/kubelet/apis/config/v1beta1/defaults.go) and
 * reservedSystemCPUs to none, so Node Allocatable is the whole machine minus the hard
 * eviction threshold, and pods can take what sshd, journald, the runtime and the kubelet need
 * ("Reserve Compute Resources for System Daemons" in the Kubernetes docs). Managed services
 * (GKE, EKS, AKS) all reserve some; the "Insert recommended reservations" refactor writes theirs.
 *
 * Reported once per node, only where the node's settings are all in view: its
 * KubeletConfiguration is in the workspace (or it has none), and no --config-dir is unresolved.
 */
import { finding, type Finding } from '../model/finding.ts';
import { reservationMap, templatedReservations } from '../node/allocatable.ts';
import { mapItems, stringSetting } from '../node/read.ts';
import type { Span } from '../model/range.ts';
import type { Rule } from './types.ts';

export const reservationsMissing: Rule = {
  id: 'reservations-missing',
  summary: 'the node reserves no cpu or memory for the kubelet and the OS',
  severity: 'information',
  fix: false,
  area: 'reservation',
  run({ node }) {
    const out: Finding[] = [];
    if (node.configRefs.some((r) => !r.resolved?.length)) return out;
    if (stringSetting(node, 'reservedSystemCPUs')) return out;
    const templated = templatedReservations(node); // written as template expressions: unknown, not missing
    if (templated.has('cpu') || templated.has('memory')) return out;
    for (const field of ['kubeReserved', 'systemReserved']) {
      const m = reservationMap(mapItems(node, field));
      if ((m.get('cpu') ?? 0n) > 0n || (m.get('memory') ?? 0n) > 0n) return out;
    }
    const at = anchor(node);
    if (!at) return out;
    out.push(
      finding(
        'reservations-missing',
        'information',
        at,
        'This node reserves no cpu or memory for the kubelet and the OS: pods can take it all. ' +
          'kubeReserved and systemReserved are empty and reservedSystemCPUs is unset, so Node Allocatable is the whole machine ' +
          'minus the hard eviction threshold; under load the kubelet, the runtime and sshd compete with pods. ' +
          'Reserve some, for example with the "Insert recommended reservations" refactor (it needs the node capacity).',
      ),
    );
    return out;
  },
};

/** The KubeletConfiguration's `kind` line, else the ExecStart= key. */
function anchor(node: Parameters<Rule['run']>[0]['node']): Span | undefined {
  for (const doc of node.kubeletConfigs) {
    const kind = doc.root.entries.find((e) => e.key === 'kind') ?? doc.root.entries[0];
    if (kind) return kind.keySpan;
  }
  return node.service?.execStart?.keySpan;
}
