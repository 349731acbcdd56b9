/**
 * A node's capacity and target version: the analysis options, overridden by a modeline in any file of the node
 * (parse/modeline.ts). Without either, the version is what the files state (a kubelet image tag, kubeadm's
 * kubernetesVersion: node/version.ts).
 * Part of making the node, so the model is never changed after it is made.
 */
import { finding, type Finding } from '../model/finding.ts';
import { parseKubernetesVersion, parseSystemdVersion } from '../catalog/version.ts';
import { capacitiesOfInstanceTypes, parseCapacityOrType } from './instance-capacity.ts';
import type { CandidateCapacity, Capacity } from './model.ts';
import type { ParsedFile } from './parse-files.ts';
import type { KubeadmDoc } from '../parse/types.ts';
import { chooseVersion, kubeadmVersion, mentionedVersion, withinCatalog, type VersionChoice } from './version.ts';
import type { VersionMention } from './model.ts';

export interface NodeSettings {
  capacity?: Capacity;
  capacitySource?: string;
  /** Set when the node's files name several instance types. */
  capacityCandidates?: CandidateCapacity[];
  kubernetesVersion: string;
  /** Where kubernetesVersion comes from, in words. */
  kubernetesVersionSource: string;
  /** The stated version when it is newer than the catalog's data (NodeModel.kubernetesVersionStated). */
  kubernetesVersionStated?: string;
  /** No file or option states the version (NodeModel.kubernetesVersionAssumed). */
  kubernetesVersionAssumed?: true;
  /** Modelines that cannot be read (modeline-invalid). */
  problems: Finding[];
}

/**
 * `files`: the node's files, anchor first, with their parses (the last modeline of a setting wins). `kubeletImage`:
 * the image a unit runs the kubelet from (node/model.ts NodeModel.kubeletImage).
 */
export function nodeSettings(
  files: readonly (ParsedFile | undefined)[],
  given: { capacity?: Capacity; capacitySource?: string; kubernetesVersion?: string; kubernetesVersionSource?: string; workspace?: VersionChoice },
  kubeletImage?: VersionMention,
): NodeSettings {
  const out: Omit<NodeSettings, 'kubernetesVersion' | 'kubernetesVersionSource' | 'kubernetesVersionStated' | 'kubernetesVersionAssumed'> = {
    capacity: given.capacity,
    capacitySource: given.capacity ? (given.capacitySource ?? 'capacity given to the analysis') : undefined,
    problems: [],
  };
  fromInstanceTypes(files, out);
  let explicit: VersionChoice | undefined = given.kubernetesVersion
    ? { version: given.kubernetesVersion, source: given.kubernetesVersionSource ?? '--kubernetes-version' }
    : undefined;
  const kubeadm: KubeadmDoc[] = [];
  const mentions: VersionMention[] = kubeletImage ? [kubeletImage] : [];
  for (const file of files) {
    for (const d of file?.config?.kubeadm ?? []) kubeadm.push(d);
    for (const m of file?.versions ?? []) mentions.push(m);
    for (const m of file?.modelines ?? []) {
      if (m.setting === 'capacity') {
        const c = parseCapacityOrType(m.value);
        if (!c.ok && c.unknownName) {
          out.problems.push(finding('instance-type-unknown', 'warning', m.span, `${c.error}.`));
        } else if (c.ok) {
          out.capacity = c.capacity;
          const where = `modeline in ${file!.path} line ${m.span.range.start.line + 1}`;
          out.capacitySource = c.source ? `${c.source}, ${where}` : where;
        } else {
          out.problems.push(finding('modeline-invalid', 'warning', m.span, `The capacity in this modeline cannot be read: ${c.error}.`));
        }
      } else if (m.setting === 'kubernetes-version') {
        const minor = parseKubernetesVersion(m.value);
        if (minor) explicit = { version: minor, source: `modeline in ${file!.path} line ${m.span.range.start.line + 1}`, span: m.span };
        else out.problems.push(finding('modeline-invalid', 'warning', m.span, `"${m.value}" is not a Kubernetes version like 1.31.`));
      } else if (m.setting === 'systemd-version' && parseSystemdVersion(m.value) === undefined) {
        // (applied where the node is built, node/build.ts: it decides how env files are read)
        out.problems.push(finding('modeline-invalid', 'warning', m.span, `"${m.value}" is not a systemd version like 252.`));
      }
    }
  }
  // A kubelet image tag says which kubelet runs; kubeadm's kubernetesVersion says it within the skew policy.
  const chosen = withinCatalog(chooseVersion(explicit, mentionedVersion(mentions) ?? kubeadmVersion(kubeadm), given.workspace));
  // Said once per node, where one of its own files states the version (a workspace-wide kubeadm version is said by its own node).
  if (chosen.beyond && chosen.span && files.some((f) => f?.path === chosen.span!.file)) {
    out.problems.push(
      finding(
        'kubernetes-version-newer',
        'information',
        chosen.span,
        `Kubernetes ${chosen.beyond} is newer than this tool's data, which is complete through ${chosen.version}: checked as ${chosen.version}. ` +
          `Flags, fields and feature gates that ${chosen.beyond} added or removed are not known; a gate new in ${chosen.beyond} is reported as unknown.`,
      ),
    );
  }
  // Completed in place (a spread with a conditional part was a measurable share of a long stream's analysis).
  const settings = out as NodeSettings;
  settings.kubernetesVersion = chosen.version;
  settings.kubernetesVersionSource = chosen.source;
  if (chosen.beyond) settings.kubernetesVersionStated = chosen.beyond;
  if (chosen.assumed) settings.kubernetesVersionAssumed = true;
  return settings;
}

/**
 * The capacity the files' instance type names stand for (a format's parser lists them: node/model.ts
 * InstanceTypeMention); it replaces the capacity given to the analysis, and a modeline replaces it in turn.
 * Several names become candidates, shown each with its allocatable; the first is the node's capacity.
 */
function fromInstanceTypes(
  files: readonly (ParsedFile | undefined)[],
  out: Pick<NodeSettings, 'capacity' | 'capacitySource' | 'capacityCandidates' | 'problems'>,
): void {
  const candidates: CandidateCapacity[] = [];
  let first: string | undefined;
  for (const file of files) {
    for (const mention of file?.instanceTypes ?? []) {
      for (const c of capacitiesOfInstanceTypes(mention.names.map((n) => n.name))) {
        const at = mention.names.find((n) => n.name.trim().toLowerCase() === c.name.toLowerCase())?.span ?? mention.names[0]!.span;
        if (c.ok) {
          if (candidates.some((x) => x.name === c.name)) continue;
          // The platform's own estimate of the machine's memory (InstanceTypeMention.memoryMiB), said in the source.
          const est = mention.memoryMiB?.[c.name.toLowerCase()];
          const capacity = est ? { ...c.capacity, memory: BigInt(est.mib) << 20n } : c.capacity;
          candidates.push({ name: c.name, capacity, source: est ? `${c.source}; memory ${est.mib} MiB: ${est.why}` : c.source });
          first ??= `${mention.what} in ${at.file} line ${at.range.start.line + 1}`;
        } else {
          out.problems.push(finding('instance-type-unknown', 'warning', at, `${c.error}; no capacity is taken from it.`));
        }
      }
    }
  }
  if (candidates.length === 0) return;
  out.capacity = candidates[0]!.capacity;
  const of = candidates.length > 1 ? ` (first of ${candidates.length} candidate types)` : '';
  out.capacitySource = `${candidates[0]!.source}${of}, ${first}`;
  if (candidates.length > 1) out.capacityCandidates = candidates;
}
