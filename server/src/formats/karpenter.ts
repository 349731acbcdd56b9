/**
 * Karpenter's node classes and pools (AWS provider, aws/karpenter-provider-aws v1.14.1): a carrier. The kubelet
 * settings Karpenter renders into the node's bootstrap and uses for its own scheduling model are a
 * KubeletConfiguration fragment with the kubelet's own field names:
 * - `karpenter.k8s.aws/v1` `EC2NodeClass` `spec.kubelet` (pkg/apis/v1/ec2nodeclass.go KubeletConfiguration: clusterDNS,
 *   maxPods, podsPerCore, systemReserved, kubeReserved, evictionHard, evictionSoft, evictionSoftGracePeriod,
 *   evictionMaxPodGracePeriod, imageGCHigh/LowThresholdPercent, cpuCFSQuota);
 * - `karpenter.sh/v1beta1` `NodePool` `spec.template.spec.kubelet` and `karpenter.sh/v1alpha5` `Provisioner`
 *   `spec.kubeletConfiguration` (kubernetes-sigs/karpenter pkg/apis/v1beta1/nodeclaim.go, the same fields).
 * Each becomes a KubeletConfiguration payload (a node of its own), so every kubelet rule applies at the user's lines.
 * What Karpenter's API server admission refuses (the CEL rules of those types) is reported here, as is a
 * reservation written only in `spec.userData`, which Karpenter's scheduling never sees.
 * `spec.userData` itself is a payload too (a NodeConfig, a MIME document), read when its format is known.
 */
import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import type { Payload } from '../embed/payload.ts';
import { finish, nodeAt, readCarrier, stringPayload, subtreePayload, type Carrier, type ObjectDoc } from '../embed/yaml-docs.ts';
import { maskYamlTemplates } from '../parse/template.ts';
import { defineFormat } from './types.ts';

const KARPENTER_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?karpenter\.(?:k8s\.aws|sh)\//m;

const HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

/** Where each object holds its kubelet settings. */
function kubeletPath(d: ObjectDoc): readonly string[] | undefined {
  if (d.apiVersion === 'karpenter.k8s.aws/v1' && d.kind === 'EC2NodeClass') return ['spec', 'kubelet'];
  if (d.apiVersion === 'karpenter.sh/v1beta1' && d.kind === 'NodePool') return ['spec', 'template', 'spec', 'kubelet'];
  if (d.apiVersion === 'karpenter.sh/v1alpha5' && d.kind === 'Provisioner') return ['spec', 'kubeletConfiguration'];
  return undefined;
}

/** ec2nodeclass.go (v1.14.1) CEL: the keys evictionHard, evictionSoft and evictionSoftGracePeriod accept. */
export const SIGNALS = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available'];
/**
 * Signals the kubelet knows (kubernetes pkg/kubelet/eviction/api/types.go, 1.37; the same list as catalog/defaults.ts
 * EVICTION_SIGNALS, which test/unit/kube-objects.test.ts checks) that Karpenter's list leaves out. Signals nobody
 * knows are eviction-signal-unknown's.
 */
export const KUBELET_ONLY_SIGNALS = ['allocatableMemory.available', 'containerfs.available', 'containerfs.inodesFree'];

const CODE = 'karpenter-kubelet-invalid';

function pairs(m: unknown): Pair<Node, Node>[] {
  return isMap(m) ? ((m as YAMLMap<Node, Node>).items as Pair<Node, Node>[]) : [];
}

const keyText = (p: Pair<Node, Node>) => (isScalar(p.key) ? String(p.key.value) : '');

/**
 * The CEL rules of Karpenter's KubeletConfiguration that the kubelet itself does not share (the API server applies
 * them when the object is created). The rest of them (reservation keys other than cpu, memory, ephemeral-storage
 * and pid, negative reservations, a soft threshold without a grace period, imageGC high not above low) the kubelet
 * refuses too, and its rules report them at the same place.
 */
function admission(path: string, c: Carrier, kubelet: YAMLMap, what: string, out: Finding[]): void {
  const at = (n: Node | null | undefined) => ({ file: path, range: c.lines.range(n?.range?.[0] ?? 0, n?.range?.[1] ?? 0) });
  for (const field of ['evictionHard', 'evictionSoft', 'evictionSoftGracePeriod']) {
    for (const p of pairs(kubelet.get(field, true))) {
      const k = keyText(p);
      if (KUBELET_ONLY_SIGNALS.includes(k)) out.push(finding(CODE, 'error', at(p.key), `Karpenter refuses ${field} signal "${k}" in ${what}. It allows only ${SIGNALS.join(', ')}.`));
    }
  }
  const softKeys = new Set(pairs(kubelet.get('evictionSoft', true)).map(keyText));
  for (const p of pairs(kubelet.get('evictionSoftGracePeriod', true))) {
    const k = keyText(p);
    if (!softKeys.has(k)) out.push(finding(CODE, 'error', at(p.key), `Karpenter refuses evictionSoftGracePeriod ${k} without an evictionSoft threshold for it.`));
  }
}

/** A reservation or eviction setting in the user data, by the names nodeadm, Bottlerocket and kubelet flags use. */
const USERDATA_RESERVATION = /\b(?:kubeReserved|systemReserved|kube-reserved|system-reserved)\b/;

/**
 * AL2-era mechanics that do nothing on an AL2023 node (awslabs/amazon-eks-ami templates/al2023/runtime:
 * kubelet.service runs `/usr/bin/kubelet $NODEADM_KUBELET_ARGS`, there is no /etc/eks/bootstrap.sh, and nodeadm writes
 * the kubelet's configuration to /etc/kubernetes/kubelet/config.json, nodeadm/internal/kubelet/config.go).
 */
const AL2_MECHANICS: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\/etc\/eks\/bootstrap\.sh/, why: 'AL2023 has no /etc/eks/bootstrap.sh; nodeadm reads a NodeConfig instead' },
  { pattern: /\bKUBELET_EXTRA_ARGS\b/, why: "AL2023's kubelet.service never expands KUBELET_EXTRA_ARGS (it runs kubelet $NODEADM_KUBELET_ARGS)" },
  { pattern: /\/etc\/kubernetes\/kubelet\/kubelet-config\.json/, why: 'on AL2023 nodeadm writes /etc/kubernetes/kubelet/config.json; kubelet-config.json does not exist' },
];

/** An EC2NodeClass whose AMIs are AL2023: amiFamily AL2023, or an amiSelectorTerms alias al2023@... */
function isAl2023(spec: YAMLMap): boolean {
  if (spec.get('amiFamily') === 'AL2023') return true;
  const terms = spec.get('amiSelectorTerms', true);
  return isSeq(terms) && terms.items.some((t) => isMap(t) && /^al2023@/.test(String(t.get('alias') ?? '')));
}

/** The first use of each AL2 mechanism in the user data, outside comment lines, at its characters in the carrier. */
function al2OnAl2023(path: string, c: Carrier, u: Payload): void {
  for (const { pattern, why } of AL2_MECHANICS) {
    let at = 0;
    for (const line of u.text.split('\n')) {
      const m = line.trimStart().startsWith('#') ? null : pattern.exec(line);
      if (m) {
        const from = u.map.offsets[at + m.index];
        const to = u.map.offsets[at + m.index + m[0].length];
        c.problems.push(finding('karpenter-al2-userdata-on-al2023', 'warning', { file: path, range: c.lines.range(from, to) },
          `This AL2 user data does nothing on AL2023 nodes. ${why[0].toUpperCase()}${why.slice(1)}; write a NodeConfig instead.`));
        break;
      }
      at += line.length + 1;
    }
  }
}

export function karpenterPayloads(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const c = readCarrier(path, text, 'Karpenter file', [KARPENTER_API, /kubelet|userData/], maskYamlTemplates);
  for (const d of c.docs) {
    const where = kubeletPath(d);
    const spec = nodeAt(d.doc.contents, ['spec']);
    if (!isMap(spec)) continue;
    const kubelet = where ? nodeAt(d.doc.contents, where) : undefined;
    if (isMap(kubelet)) {
      const p = subtreePayload(c, kubelet, `/${d.name}/karpenter-kubelet.yaml`, 'kubelet-config', HEADER);
      if (p) c.embedded.push(p);
      admission(path, c, kubelet, `${d.kind} ${where!.join('.')}`, c.problems);
    }
    if (d.kind !== 'EC2NodeClass') continue;
    const userData = spec.get('userData', true) as Node | undefined;
    if (!isScalar(userData) || typeof userData.value !== 'string') continue;
    const u = stringPayload(c, userData, `/${d.name}/user-data`);
    if (u) c.embedded.push(u);
    if (u && isAl2023(spec)) al2OnAl2023(path, c, u);
    // Karpenter models a node's allocatable from spec.kubelet and its own defaults only (pkg/providers/instancetype/
    // types.go kubeReservedResources, systemReservedResources); user data is for the node alone.
    const m = USERDATA_RESERVATION.exec(userData.value);
    const modelled = isMap(kubelet) && (kubelet.has('kubeReserved') || kubelet.has('systemReserved'));
    if (m && !modelled) {
      const pair = spec.items.find((x) => isScalar(x.key) && x.key.value === 'userData');
      const r = (pair?.key as Node | undefined)?.range ?? userData.range!;
      c.problems.push(finding('karpenter-reserved-in-userdata', 'warning', { file: path, range: c.lines.range(r[0], r[1]) },
        `Karpenter does not see the ${m[0]} set in userData: it schedules as if it were not reserved. Set it in spec.kubelet too.`));
    }
  }
  return finish(path, c);
}

export default defineFormat({
  kind: 'karpenter',
  label: 'Karpenter node class or pool',
  byContent: (c) => (c.ext === 'yaml' || c.ext === 'yml') && KARPENTER_API.test(c.head),
  parse: karpenterPayloads,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  // The node's kube-reserved comes from the AMI family's bootstrap (nodeadm, Bottlerocket, bootstrap.sh compute it
  // from the instance type) and Karpenter assumes its own (pkg/providers/instancetype/types.go); neither is modelled
  // yet, so "no reservations" would be false here.
  quietInPayloads: ['reservations-missing'],
  watch: ['**/*.yaml', '**/*.yml'],
  selector: ['**/*.yaml', '**/*.yml'],
  activation: ['**/ec2nodeclass*.{yaml,yml}', '**/nodepool*.{yaml,yml}', '**/provisioner*.{yaml,yml}'],
});
