/**
 * Which Kubernetes minor version a node's kubelet is, and where that comes from. An explicit choice wins: a
 * `# kubelet-lint: kubernetes-version` modeline in a file of the node, then --kubernetes-version or the editor
 * setting. Otherwise the files say it: kubeadm's ClusterConfiguration.kubernetesVersion (the kubelet kubeadm
 * installs must match it within the version skew policy), or a version a platform file states for the kubelet (an image
 * tag, a cluster version: VersionMention), in the node's own files first, else the one version all kubeadm files of
 * the workspace agree on. The newest version the catalog knows only when nothing says anything. A value holding a
 * template placeholder states nothing: the rendered file decides it, and guessing would be worse than the fallback.
 */
import { compareVersions, NEWEST_VERSION } from '../catalog/flags.ts';
import type { Span } from '../model/range.ts';
import type { KubeadmDoc } from '../parse/types.ts';
import type { VersionMention } from './model.ts';
import { minorOf } from '../model/version-mention.ts';

export { minorOf };

export interface VersionChoice {
  version: string;
  /** Human words for where it came from, e.g. `kubernetesVersion in kubeadm.yaml line 4`. */
  source: string;
  /** Where a file states it (a modeline, an image tag, kubeadm's kubernetesVersion); absent for options and the default. */
  span?: Span;
  /** Nothing states it: the newest version the catalog knows stands in (node/evidence.ts asks every other). */
  assumed?: true;
}

/** The first version the mentions state, with where. */
export function mentionedVersion(mentions: readonly VersionMention[]): VersionChoice | undefined {
  const m = mentions[0];
  return m && { version: m.version, source: `${m.what} ${m.value} in ${where(m.span)}`, span: m.span };
}

/**
 * The first kubeadm release that reads each kubeadm API (kubeadm's API docs: v1beta1 1.13, v1beta2 1.15, v1beta3 1.22,
 * v1beta4 1.31). kubeadm installs a control plane at most one minor older than itself (cmd/kubeadm/app/constants
 * MinimumControlPlaneVersion), so a file in v1beta4 that says `kubernetesVersion: v1.23.0` is not used as written:
 * minikube's golden files carry such a version, which its scripts rewrite. It states nothing.
 */
const KUBEADM_API_SINCE: Readonly<Record<string, string>> = { v1beta1: '1.13', v1beta2: '1.15', v1beta3: '1.22', v1beta4: '1.31' };

function possibleWith(doc: KubeadmDoc, minor: string): boolean {
  const since = KUBEADM_API_SINCE[doc.apiVersion.slice(doc.apiVersion.lastIndexOf('/') + 1)];
  if (since === undefined) return true;
  const [major, m] = since.split('.').map(Number);
  return compareVersions(minor, `${major}.${m - 1}`) >= 0;
}

/** The version a kubeadm ClusterConfiguration names, with where. */
export function kubeadmVersion(docs: readonly KubeadmDoc[]): (VersionChoice & { span: Span }) | undefined {
  for (const d of docs) {
    const v = d.kubernetesVersion && minorOf(d.kubernetesVersion.value);
    if (v && possibleWith(d, v)) return { version: v, source: `kubernetesVersion ${d.kubernetesVersion!.value} in ${where(d.kubernetesVersion!.span)}`, span: d.kubernetesVersion!.span };
  }
  return undefined;
}

/** The one minor version every kubeadm ClusterConfiguration of the workspace names; undefined when none or they differ. */
export function workspaceKubeadmVersion(docs: readonly KubeadmDoc[]): VersionChoice | undefined {
  const found = docs.filter((d) => {
    const v = d.kubernetesVersion && minorOf(d.kubernetesVersion.value);
    return v && possibleWith(d, v);
  });
  const minors = new Set(found.map((d) => minorOf(d.kubernetesVersion!.value)));
  const v = minors.size === 1 ? kubeadmVersion(found) : undefined;
  return v && { ...v, source: `${v.source} (the kubeadm ClusterConfiguration of this node's root, as its own files name no version)` };
}

export function chooseVersion(
  explicit: VersionChoice | undefined,
  own: VersionChoice | undefined,
  workspace: VersionChoice | undefined,
): VersionChoice {
  return explicit ?? own ?? workspace ?? { version: NEWEST_VERSION, source: 'the newest version this tool knows, as no file names one', assumed: true };
}

/**
 * A version newer than the newest one whose flags, fields and gates the catalog holds completely (NEWEST_VERSION) is
 * checked as that one: checking a 1.38 kubelet against partial data would call its new gates unknown and miss what
 * 1.38 removed. The source says so; nodeSettings reports it once, at the place a file states the version.
 */
export function withinCatalog(choice: VersionChoice): VersionChoice & { beyond?: string } {
  if (compareVersions(choice.version, NEWEST_VERSION) <= 0) return choice;
  return { ...choice, version: NEWEST_VERSION, beyond: choice.version, source: `${choice.source}, checked as ${NEWEST_VERSION} (the newest version whose data this tool holds completely)` };
}

function where(span: Span): string {
  return `${span.file} line ${span.range.start.line + 1}`;
}
