/**
 * Versions as files write them: kubeadm's kubernetesVersion, a kubelet image's tag, a platform's cluster version.
 * Here, not in node/, because the parsers and carriers that find them (parse/talos.ts, embed/yaml-docs.ts) may
 * import only model/; node/version.ts chooses among them.
 */
import type { Span } from './range.ts';

/**
 * A Kubernetes version a file states for its node's kubelet other than kubeadm's kubernetesVersion: a kubelet image
 * tag (Talos machine.kubelet.image, a kind node image), a platform's cluster version (eksctl metadata.version, kops
 * spec.kubernetesVersion, talhelper kubernetesVersion). Set by a format's parser; node/version.ts reads them.
 */
export interface VersionMention {
  /** What states it, for messages: "machine.kubelet.image", "nodes[0].image". */
  readonly what: string;
  /** As written: `ghcr.io/siderolabs/kubelet:v1.33.1`, `1.30`. */
  readonly value: string;
  /** The minor version it stands for, `1.33`. */
  readonly version: string;
  readonly span: Span;
}

/** `v1.30.2`, `1.30`, `stable-1.30`, `latest-1.31`, `ci/latest-1.31` -> `1.30`; labels without a version -> undefined. */
export function minorOf(text: string): string | undefined {
  const m = /^(?:v|(?:ci\/)?(?:stable|latest)-)?(1\.\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(text.trim());
  return m?.[1];
}

/** A template expression (`{{ .Values.v }}`, `${version}`, `{% if %}`, `%{ if }`, `$(VERSION)`): the text states no version. */
function templated(text: string): boolean {
  return text.includes('{{') || text.includes('{%') || text.includes('${') || text.includes('%{') || text.includes('$(');
}

/**
 * The minor version of a kubelet image reference's tag: `ghcr.io/siderolabs/kubelet:v1.33.1` and
 * `kindest/node:v1.31.0@sha256:...` -> `1.33`, `1.31`; a reference without a tag (`localhost:5000/kubelet`), with a
 * tag that is no version (`latest`) or with a template expression -> undefined.
 */
export function imageVersion(ref: string): string | undefined {
  if (templated(ref)) return undefined;
  const at = ref.indexOf('@');
  const name = (at < 0 ? ref : ref.slice(0, at)).trim();
  const colon = name.lastIndexOf(':');
  if (colon < 0 || colon < name.lastIndexOf('/')) return undefined;
  return minorOf(name.slice(colon + 1));
}

/** A mention of `value` when it states a version (an image reference when `image`, else a version string). */
export function versionMention(what: string, value: unknown, span: Span, image: boolean): VersionMention | undefined {
  if (typeof value !== 'string' || templated(value)) return undefined;
  const version = image ? imageVersion(value) : minorOf(value);
  // A digest (`@sha256:` and 64 hex digits) says nothing a reader needs here.
  const at = image ? value.indexOf('@') : -1;
  return version ? { what, value: at < 0 ? value : value.slice(0, at), version, span } : undefined;
}
