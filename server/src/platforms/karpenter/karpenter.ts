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
import { isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../../model/finding.ts';
import { LineIndex, loneCrToLf } from '../../model/range.ts';
import { payloadPath, type Payload } from '../../embed/payload.ts';
import type { InstanceTypeMention } from '../../node/model.ts';
import type { PlatformInfo } from '../../parse/types.ts';
import type { AmiFamily, KarpenterFacts } from './facts.ts';
import { finish, nodeAt, readCarrier, stringPayload, subtreePayload, type Carrier, type ObjectDoc } from '../../embed/yaml-docs.ts';
import { maskYamlTemplates } from '../../parse/template.ts';
import { NODEADM_API_VERSION, NODEADM_MEDIA_TYPE } from '../nodeadm/parse-nodeadm.ts';
import { looksLikeMime, readMime } from '../../parse/mime.ts';
import { hasPlaceholder } from '../../parse/platform.ts';
import { defineFormat } from '../../formats/types.ts';
import { instanceType } from '../../catalog/instance-types.ts';

const KARPENTER_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?karpenter\.(?:k8s\.aws|sh)\//m;

const HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

/**
 * A karpenter.sh/v1 NodePool has no spec.template.spec.kubelet: v1 moved the block to EC2NodeClass spec.kubelet
 * (kubernetes-sigs/karpenter pkg/apis/v1 nodeclaim.go NodeClaimTemplateSpec has no Kubelet; aws/karpenter-provider-aws
 * pkg/apis/v1 ec2nodeclass.go Kubelet). The CRD's structural schema drops the unknown field, or kubectl's strict
 * validation rejects the object: either way the settings never reach a node.
 */
function movedKubelet(path: string, c: Carrier, d: ObjectDoc): void {
  if (d.apiVersion !== 'karpenter.sh/v1' || d.kind !== 'NodePool') return;
  const inner = nodeAt(d.doc.contents, ['spec', 'template', 'spec']);
  const pair = isMap(inner) ? inner.items.find((x) => isScalar(x.key) && x.key.value === 'kubelet') : undefined;
  const r = pair && isScalar(pair.key) ? pair.key.range : undefined;
  if (!r) return;
  c.problems.push(finding('karpenter-kubelet-moved', 'warning', { file: path, range: c.lines.range(r[0], r[1]) },
    'These kubelet settings never reach a node: a karpenter.sh/v1 NodePool has no spec.template.spec.kubelet. ' +
      'Karpenter v1 moved the block to EC2NodeClass spec.kubelet; the API server drops the unknown field or kubectl rejects the object. Move it to the EC2NodeClass this pool\'s nodeClassRef names.'));
}

/** Where each object holds its kubelet settings. */
function kubeletPath(d: ObjectDoc): readonly string[] | undefined {
  if (d.apiVersion === 'karpenter.k8s.aws/v1' && d.kind === 'EC2NodeClass') return ['spec', 'kubelet'];
  if (d.apiVersion === 'karpenter.sh/v1beta1' && d.kind === 'NodePool') return ['spec', 'template', 'spec', 'kubelet'];
  if (d.apiVersion === 'karpenter.sh/v1alpha5' && d.kind === 'Provisioner') return ['spec', 'kubeletConfiguration'];
  return undefined;
}

/**
 * The fields of Karpenter's KubeletConfiguration (ec2nodeclass.go v1.14.1; v1beta1 nodeclaim.go and v1alpha5
 * provisioner.go have the same ones): completion offers these, and no other KubeletConfiguration field. Karpenter's
 * unreleased main (commit 7695b3c49) opens spec.kubelet to every field, on AL2023 nodes only; they are not offered
 * even after these: every released Karpenter's CRD schema lists only these fields, so the API server drops any other
 * (or, with kubectl's strict field validation, refuses the object), and a completion should not write what the
 * Karpenter a cluster runs today throws away.
 */
export const KUBELET_FIELDS = [
  'clusterDNS', 'maxPods', 'podsPerCore', 'systemReserved', 'kubeReserved', 'evictionHard', 'evictionSoft', 'evictionSoftGracePeriod',
  'evictionMaxPodGracePeriod', 'imageGCHighThresholdPercent', 'imageGCLowThresholdPercent', 'cpuCFSQuota',
] as const;

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

/**
 * v1alpha5 Provisioner kubeletConfiguration fields that are Karpenter's, not the kubelet's (kubernetes-sigs/karpenter
 * v0.31 pkg/apis/v1alpha5/provisioner.go KubeletConfiguration: containerRuntime picks the AL2 bootstrap's
 * --container-runtime, it never becomes a KubeletConfiguration field).
 */
const PROVISIONER_ONLY = ['containerRuntime'];

/** Blanks the Karpenter-only pairs in the payload (same offsets and lines), so the kubelet rules do not read them. */
function withoutKarpenterOnly(p: Payload, kubelet: YAMLMap): void {
  const cut = pairs(kubelet).filter((x) => PROVISIONER_ONLY.includes(keyText(x)));
  if (cut.length === 0) return;
  const o = p.map.offsets;
  let text = HEADER; // the header's characters all map to the first key's offset: never blank them
  for (let i = HEADER.length; i < p.text.length; i++) {
    const at = o[i];
    const inside = cut.some((x) => {
      const k = (x.key as Node).range;
      const v = (x.value as Node | null)?.range;
      return !!k && at >= k[0] && at < (v ? v[1] : k[1]);
    });
    text += inside && p.text[i] !== '\n' && p.text[i] !== '\r' ? ' ' : p.text[i];
  }
  p.text = text;
  p.lines = new LineIndex(text);
}

/** A reservation or eviction setting in the user data, by the names nodeadm, Bottlerocket and kubelet flags use. */
const USERDATA_RESERVATION = /\b(?:kubeReserved|systemReserved|kube-reserved|system-reserved)\b/g;

/**
 * The first reservation the user data sets: a name after a `#` on its line is a comment, or a sed address that quotes
 * one (`sed -i '/# writes kubeReserved and evictionHard/a ...' /etc/eks/bootstrap.sh` sets nothing).
 */
function reservationIn(text: string): RegExpExecArray | undefined {
  for (const m of text.matchAll(USERDATA_RESERVATION)) {
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (!text.slice(lineStart, m.index).includes('#')) return m;
  }
  return undefined;
}

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

/** The label whose requirement names instance types (kubernetes-sigs/karpenter pkg/apis/v1 labels.go, corev1.LabelInstanceTypeStable). */
const INSTANCE_TYPE = 'node.kubernetes.io/instance-type';

/** Documents that hold kubelet settings, user data, instance type requirements or the AMI family a pool's kubelet runs on. */
const RELEVANT = /kubelet|userData|node\.kubernetes\.io\/instance-type|amiFamily|alias/;

/** Where a pool keeps its requirements: v1 and v1beta1 NodePool spec.template.spec, v1alpha5 Provisioner spec. */
function requirementsOf(d: ObjectDoc): Node | undefined {
  if (d.kind === 'NodePool' && d.apiVersion.startsWith('karpenter.sh/')) return nodeAt(d.doc.contents, ['spec', 'template', 'spec', 'requirements']);
  if (d.kind === 'Provisioner' && d.apiVersion === 'karpenter.sh/v1alpha5') return nodeAt(d.doc.contents, ['spec', 'requirements']);
  return undefined;
}

/**
 * The instance types a pool's requirements name: `node.kubernetes.io/instance-type` with operator In. Other
 * requirements (instance-category, instance-cpu, NotIn) allow sets of types that the file does not list: none then.
 */
function namedInstanceTypes(path: string, c: Carrier, d: ObjectDoc): InstanceTypeMention['names'][number][] {
  const out: InstanceTypeMention['names'][number][] = [];
  const reqs = requirementsOf(d);
  for (const r of isSeq(reqs) ? reqs.items : []) {
    if (!isMap(r) || r.get('key') !== INSTANCE_TYPE || r.get('operator') !== 'In') continue;
    const values = r.get('values', true);
    for (const v of isSeq(values) ? values.items : []) {
      // a masked template expression or anything but a plain type name (m5.large) names nothing
      if (!isScalar(v) || typeof v.value !== 'string' || !v.range || !/^[a-z0-9-]+\.[a-z0-9-]+$/i.test(v.value)) continue;
      out.push({ name: v.value, span: { file: path, range: c.lines.range(v.range[0], v.range[1]) } });
    }
  }
  return out;
}

/** karpenter-provider-aws's default VM_MEMORY_OVERHEAD_PERCENT (pkg/operator/options/options.go, v1.14.1). */
const VM_MEMORY_OVERHEAD = 0.075;

/** Graviton (arm64) EC2 families: a `g` among the letters after the generation (m7g, c6gn, is4gen), and a1. */
const ARM64 = /^(?:a1|[a-z]+\d+[a-z-]*g[a-z-]*)\./i;

/**
 * The memory Karpenter assumes an instance type has when it decides whether pods fit (aws/karpenter-provider-aws
 * pkg/providers/instancetype/types.go memory(), v1.14.1): the EC2 size, less 64 MiB of CMA memory on Graviton, less
 * ceil(7.5% of that) MiB of VM overhead (vmMemoryOverheadPercent). Its allocatable is computed from this.
 */
function karpenterMemory(names: readonly string[]): Record<string, { mib: number; why: string }> {
  const out: Record<string, { mib: number; why: string }> = {};
  for (const name of names) {
    const t = instanceType(name);
    if (!t || t.cloud !== 'EC2') continue;
    const arm = ARM64.test(t.name);
    const size = t.memoryMiB - (arm ? 64 : 0);
    const overhead = Math.ceil(size * VM_MEMORY_OVERHEAD);
    out[t.name.toLowerCase()] = { mib: size - overhead, why: `Karpenter's estimate (${arm ? 'less 64 MiB on Graviton, ' : ''}less its ${VM_MEMORY_OVERHEAD * 100}% VM overhead of ${overhead} MiB)` };
  }
  return out;
}

/** The node class a pool refers to: v1 and v1beta1 NodePool nodeClassRef, v1alpha5 Provisioner providerRef. */
function nodeClassName(d: ObjectDoc): string | undefined {
  const ref = d.kind === 'Provisioner' ? nodeAt(d.doc.contents, ['spec', 'providerRef']) : nodeAt(d.doc.contents, ['spec', 'template', 'spec', 'nodeClassRef']);
  const name = isMap(ref) ? ref.get('name') : undefined;
  return typeof name === 'string' ? name : undefined;
}

const NODE_CLASS_KINDS = new Set(['EC2NodeClass', 'AWSNodeTemplate']);

/**
 * The AMI family Karpenter resolves for a node class (pkg/apis/v1/ec2nodeclass.go AMIFamily(), v1.14.1): spec.amiFamily,
 * else the family of the amiSelectorTerms alias (`al2023@latest`). Undefined when neither says.
 */
function amiFamilyOf(spec: YAMLMap): AmiFamily | undefined {
  const terms = spec.get('amiSelectorTerms', true);
  const alias = isSeq(terms) ? terms.items.map((t) => (isMap(t) ? String(t.get('alias') ?? '') : '')).find((a) => a.includes('@')) : undefined;
  const name = String(spec.get('amiFamily') ?? alias?.slice(0, alias.indexOf('@')) ?? '').toLowerCase();
  if (name === 'al2' || name === 'al2023' || name === 'custom') return name === 'custom' ? 'Custom' : (name.toUpperCase() as 'AL2' | 'AL2023');
  if (name === 'bottlerocket') return 'Bottlerocket';
  if (/^windows20\d\d$/.test(name)) return 'Windows';
  return undefined;
}

/** A kubelet setting of a user-data NodeConfig that Karpenter's scheduling model also holds, at payload offsets. */
interface UserDataSetting {
  field: 'maxPods' | 'kubeReserved' | 'systemReserved' | 'evictionHard';
  key?: string;
  text: string;
  from: number;
  to: number;
}

/** The signals Karpenter's eviction model reads (types.go evictionThreshold): the others do not change its numbers. */
const MODELLED_SIGNALS = new Set(['memory.available', 'nodefs.available']);

const scalarText = (n: unknown): string | undefined =>
  isScalar(n) && n.value !== null && (typeof n.value === 'string' || typeof n.value === 'number') && !hasPlaceholder(String(n.value)) ? String(n.value) : undefined;

/**
 * The settings of Karpenter's model that the user data's NodeConfigs set (a bare NodeConfig, or the
 * application/node.eks.aws parts of a MIME message), the last one of each key: nodeadm merges the documents in order,
 * maps key by key (awslabs/amazon-eks-ami nodeadm/internal/api/merge.go mergeInlineDocument, v20260724).
 */
function userDataSettings(u: Payload): UserDataSetting[] {
  const out = new Map<string, UserDataSetting>();
  const text = u.text;
  if (!text.includes('NodeConfig')) return [];
  for (const [from, to] of nodeConfigParts(text)) for (const doc of parseAllDocuments(loneCrToLf(text.slice(from, to)), { uniqueKeys: false }) as Document.Parsed[]) {
    const at = (n: Node | null | undefined, end = false) => from + (n?.range?.[end ? 1 : 0] ?? 0);
    const root = doc.contents;
    if (!isMap(root) || doc.get('apiVersion') !== NODEADM_API_VERSION || doc.get('kind') !== 'NodeConfig') continue;
    const config = doc.getIn(['spec', 'kubelet', 'config'], true);
    if (!isMap(config)) continue;
    for (const p of (config as YAMLMap<Node, Node>).items as Pair<Node, Node>[]) {
      const field = keyText(p);
      if (field === 'maxPods') {
        const t = scalarText(p.value);
        if (t !== undefined && p.key?.range && p.value?.range) out.set(field, { field, text: t, from: at(p.key), to: at(p.value, true) });
        continue;
      }
      if (field !== 'kubeReserved' && field !== 'systemReserved' && field !== 'evictionHard') continue;
      for (const e of pairs(p.value)) {
        const key = keyText(e);
        const t = scalarText(e.value);
        if (t === undefined || !e.key?.range || !e.value?.range || (field === 'evictionHard' && !MODELLED_SIGNALS.has(key))) continue;
        out.set(`${field}.${key}`, { field, key, text: t, from: at(e.key), to: at(e.value, true) });
      }
    }
  }
  return [...out.values()];
}

/**
 * Where the NodeConfig documents of the user data are: the bodies of its application/node.eks.aws parts when it is a
 * MIME message (parse/mime.ts, as nodeadm reads it; base64 parts are left out: their offsets are not the text's), or
 * the whole text. Each part is a YAML stream of its own, also when its NodeConfig has no `---` of its own.
 */
function nodeConfigParts(text: string): [number, number][] {
  if (!looksLikeMime(text, NODEADM_MEDIA_TYPE)) return [[0, text.length]];
  const m = readMime(text);
  if (!m.ok) return [];
  return m.parts.filter((p) => p.type === NODEADM_MEDIA_TYPE && p.encoding !== 'base64').map((p) => [p.bodyStart, p.bodyEnd]);
}

/** What Karpenter's model holds for a key spec.kubelet leaves out, in words. */
function assumedWithout(s: UserDataSetting): string {
  if (s.field === 'systemReserved') return 'without it';
  if (s.field === 'evictionHard') return `with ${s.key === 'memory.available' ? '100Mi' : '10%'}`;
  return ['cpu', 'memory', 'ephemeral-storage'].includes(s.key ?? '') ? 'with its own default' : 'without it';
}

/**
 * The user data's NodeConfig against spec.kubelet (AL2023 and Custom node classes). On AL2023 Karpenter appends its
 * own NodeConfig, rendered from spec.kubelet with maxPods always set, after the user's parts
 * (aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap/nodeadm.go Script, resolver.go resolveLaunchTemplates;
 * v1.14.1), and nodeadm merges later documents over earlier ones key by key: a key spec.kubelet also sets, and
 * maxPods, have no effect in the user data; a key only the user data sets reaches the node but not Karpenter's model.
 * A Custom AMI gets the user data alone: the node takes its values, Karpenter schedules with spec.kubelet's.
 * Returns false when the user data holds no NodeConfig setting of the model (the caller then looks for the names).
 */
function userDataAgainstKubelet(path: string, c: Carrier, u: Payload, kubelet: YAMLMap | undefined, family: AmiFamily | undefined): boolean {
  const found = userDataSettings(u);
  const at = (s: UserDataSetting) => ({ file: path, range: c.lines.range(u.map.offsets[s.from], u.map.offsets[s.to]) });
  const rendered = family === 'AL2023';
  for (const s of found) {
    const name = s.key ? `${s.field} ${s.key}` : s.field;
    const inSpec = s.key ? (() => { const m = kubelet?.get(s.field, true); return isMap(m) ? scalarText(m.get(s.key!, true)) : undefined; })() : scalarText(kubelet?.get(s.field, true));
    if (rendered && (s.field === 'maxPods' || inSpec !== undefined)) {
      if (inSpec === s.text) continue;
      const by = inSpec === undefined ? 'always sets maxPods' : `sets ${inSpec}`;
      const how = inSpec === undefined ? "spec.kubelet.maxPods, or the instance type's ENI limit" : 'spec.kubelet';
      c.problems.push(finding('karpenter-userdata-overridden', 'warning', at(s),
        `${name} ${s.text} in userData has no effect: Karpenter's NodeConfig, merged later, ${by}. ` +
          `Karpenter appends a NodeConfig with ${how} after the user data's parts, and nodeadm lets the later one win. Set it in spec.kubelet.`));
      continue;
    }
    if (inSpec === s.text) continue;
    const karpenter = inSpec !== undefined ? `with ${inSpec} from spec.kubelet` : s.field === 'maxPods' ? "with the instance type's ENI limit" : assumedWithout(s);
    const node = s.field === 'evictionHard' ? `The node evicts at ${s.key} ${s.text}` : s.field === 'maxPods' ? `The node admits maxPods ${s.text}` : `The node reserves ${name} ${s.text}`;
    c.problems.push(finding('karpenter-reserved-in-userdata', 'warning', at(s),
      `${node} from userData, but Karpenter schedules ${karpenter}. Set it in spec.kubelet${rendered ? '' : ' too'}.`));
  }
  return found.length > 0;
}

export function karpenterPayloads(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const c = readCarrier(path, text, 'Karpenter file', (src) => KARPENTER_API.test(src) && RELEVANT.test(src), maskYamlTemplates);
  // The instance types each node class's pools name: a v1 NodePool has no kubelet of its own, Karpenter takes it from
  // the EC2NodeClass its nodeClassRef names (kubernetes-sigs/karpenter pkg/apis/v1 nodepool.go NodeClassReference).
  const classTypes = new Map<string, InstanceTypeMention['names'][number][]>();
  const classes = new Map<string, YAMLMap>();
  for (const d of c.docs) {
    const spec = nodeAt(d.doc.contents, ['spec']);
    if (NODE_CLASS_KINDS.has(d.kind) && isMap(spec)) classes.set(d.name, spec);
    const ref = d.apiVersion === 'karpenter.sh/v1' && d.kind === 'NodePool' ? nodeClassName(d) : undefined;
    if (ref !== undefined) classTypes.set(ref, [...(classTypes.get(ref) ?? []), ...namedInstanceTypes(path, c, d)]);
  }
  for (const d of c.docs) {
    const where = kubeletPath(d);
    const spec = nodeAt(d.doc.contents, ['spec']);
    if (!isMap(spec)) continue;
    movedKubelet(path, c, d);
    const kubelet = where ? nodeAt(d.doc.contents, where) : undefined;
    if (isMap(kubelet)) {
      const target = `/${d.name}/karpenter-kubelet.yaml`;
      const p = subtreePayload(c, kubelet, target, 'kubelet-config', HEADER);
      if (p && d.kind === 'Provisioner') withoutKarpenterOnly(p, kubelet);
      if (p) {
        const ref = d.kind === 'EC2NodeClass' ? undefined : nodeClassName(d);
        const nodeClass = d.kind === 'EC2NodeClass' ? spec : ref === undefined ? undefined : classes.get(ref);
        const names = d.kind === 'EC2NodeClass' ? classTypes.get(d.name) ?? [] : namedInstanceTypes(path, c, d);
        const maxPods = kubelet.get('maxPods');
        const platform: PlatformInfo = {
          tool: 'karpenter',
          span: { file: payloadPath(path, target), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } },
          gates: [],
          configLabel: `${d.kind} ${where!.join('.')}`,
          keys: { fields: d.kind === 'Provisioner' ? [...KUBELET_FIELDS, ...PROVISIONER_ONLY] : KUBELET_FIELDS, kubeletShaped: KUBELET_FIELDS, signals: SIGNALS },
          facts: {
            ...(nodeClass && amiFamilyOf(nodeClass) ? { amiFamily: amiFamilyOf(nodeClass) } : {}),
            ...(typeof maxPods === 'number' && Number.isInteger(maxPods) ? { maxPods } : {}),
          } satisfies KarpenterFacts,
          ...(names.length ? { instanceTypes: names } : {}),
        };
        p.platform = platform;
        if (names.length) p.instanceTypes = [{ what: `Karpenter requirement ${INSTANCE_TYPE}`, names, memoryMiB: karpenterMemory(names.map((n) => n.name)) }];
        c.embedded.push(p);
      }
      admission(path, c, kubelet, `${d.kind} ${where!.join('.')}`, c.problems);
    }
    if (d.kind !== 'EC2NodeClass') continue;
    const userData = spec.get('userData', true) as Node | undefined;
    if (!isScalar(userData) || typeof userData.value !== 'string') continue;
    const u = stringPayload(c, userData, `/${d.name}/user-data`);
    if (u) c.embedded.push(u);
    if (u && isAl2023(spec)) al2OnAl2023(path, c, u);
    // Karpenter models a node's allocatable from spec.kubelet and its own defaults only (pkg/providers/instancetype/
    // types.go kubeReservedResources, systemReservedResources); user data is for the node alone. A NodeConfig is
    // compared key by key; other user data (Bottlerocket TOML, kubelet flags in a script) by the names it holds.
    const family = amiFamilyOf(spec);
    if (u && (family === 'AL2023' || family === 'Custom') && userDataAgainstKubelet(path, c, u, isMap(kubelet) ? kubelet : undefined, family)) continue;
    const m = reservationIn(userData.value);
    const modelled = isMap(kubelet) && (kubelet.has('kubeReserved') || kubelet.has('systemReserved'));
    if (m && !modelled) {
      const pair = spec.items.find((x) => isScalar(x.key) && x.key.value === 'userData');
      const r = (pair?.key as Node | undefined)?.range ?? userData.range!;
      c.problems.push(finding('karpenter-reserved-in-userdata', 'warning', { file: path, range: c.lines.range(r[0], r[1]) },
        `Karpenter does not see the ${m[0]} set in userData: it schedules as if it were not reserved. Set it in spec.kubelet too.`));
    }
  }
  // kubectl sends the API server JSON made with sigs.k8s.io/yaml, which keeps a key's last value
  // (kubernetes/kubernetes#125885).
  return finish(path, c, { tool: 'Karpenter', refuses: false, why: 'kubectl converts the YAML to JSON before sending it, and that keeps only the last value of a key' });
}

export default defineFormat({
  kind: 'karpenter',
  rank: 130,
  // Its reader masks template expressions (embed/yaml-docs.ts readCarrier): a Terraform `nodepool.yaml.tpl` or
  // `ec2nodeclass_al2.tpl` (templatefile input) is read as the file it renders.
  templateNames: true,
  label: 'Karpenter node class or pool',
  byContent: (c) => (c.ext === 'yaml' || c.ext === 'yml') && KARPENTER_API.test(c.head),
  parse: karpenterPayloads,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}', '**/*.tpl'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}', '**/*.tpl'],
  activation: ['**/ec2nodeclass*.{yaml,yml}', '**/nodepool*.{yaml,yml}', '**/provisioner*.{yaml,yml}'],
});
