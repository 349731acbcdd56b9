/**
 * A kind cluster configuration (`kind.x-k8s.io/v1alpha4` `Cluster`, kubernetes-sigs/kind main at fed26882, after
 * v0.33.0-alpha, pkg/apis/config/v1alpha4/types.go): a carrier. kind writes one kubeadm config per node and patches it
 * with the cluster's `kubeadmConfigPatches`, then the node's own (pkg/cluster/internal/create/actions/config/config.go
 * getKubeadmConfig). Each patch is an RFC 7386 merge patch applied to the documents of its `kind` and, when the patch
 * sets one, `apiVersion` (pkg/internal/patch/resource.go matches). So each kind node (a `nodes[]` entry; one control
 * plane without `nodes`, pkg/internal/apis/config/default.go) is one payload, `/control-plane-1.yaml`,
 * `/worker-2.yaml`: its KubeletConfiguration patches and the Init/JoinConfiguration patches of the command it runs,
 * cluster's first, as one multi-document file whose documents keep their own places in the carrier. kubeadm init runs
 * on the first control plane and reads InitConfiguration; every other node runs kubeadm join and reads
 * JoinConfiguration (actions/kubeadminit, actions/kubeadmjoin, nodeutils.BootstrapControlPlaneNode): only that
 * document's nodeRegistration.kubeletExtraArgs are the node's kubelet flags. A patch without apiVersion gets the one
 * kind's generated document has (kubelet.config.k8s.io/v1beta1, kubeadm.k8s.io/v1beta4 in
 * pkg/cluster/internal/kubeadm/config.go). `kubeadmConfigPatchesJSON6902` (RFC 6902 operations) is not read.
 *
 * kind's own KubeletConfiguration (config.go: evictionHard with only nodefs.available, nodefs.inodesFree and
 * imagefs.available at "0%", which create no threshold, cgroupRoot /kubelet, failSwapOn false,
 * imageGCHighThresholdPercent 100, cgroupDriver systemd) is each node's base, named "kind default"
 * (node/platform.ts kindBase); the patches merge into it, and into each other, key by key.
 */
import { isMap, parseDocument, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../../model/finding.ts';
import type { Payload } from '../../embed/payload.ts';
import { finish, itemsOf, joinPayloads, nodeAt, readCarrier, stringPayload, versionAt, withHeader } from '../../embed/yaml-docs.ts';
import type { VersionMention } from '../../model/version-mention.ts';
import type { FileKind } from '../../model/source.ts';
import { maskYamlTemplates } from '../../parse/template.ts';
import { defineFormat } from '../../formats/types.ts';

/** kind's own config groups, at column 0: kind.x-k8s.io today, kind.sigs.k8s.io before v0.8. */
const KIND_API = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?kind\.(?:x-k8s|sigs\.k8s)\.io\//m;
const KIND_CLUSTER = /^["']?kind["']?[ \t]*:[ \t]*["']?Cluster["']?[ \t]*(?:#.*)?$/m;
const CURRENT = 'kind.x-k8s.io/v1alpha4';

const PATCH_KIND = /^["']?kind["']?[ \t]*:[ \t]*["']?(KubeletConfiguration|InitConfiguration|JoinConfiguration)["']?[ \t]*(?:#.*)?$/m;
const PATCH_API = /^["']?apiVersion["']?[ \t]*:/m;

/** A patch kind reads, with the kind of document it matches. */
interface Patch {
  payload: Payload;
  what: string;
  /** The apiVersion the patch itself names (kind matches on it), if any. */
  api?: string;
}

/** The patch's nodeRegistration.kubeletExtraArgs is a map (the form before kubeadm.k8s.io/v1beta4). */
function mapArgs(text: string): boolean {
  return isMap(parseDocument(text, { uniqueKeys: false }).getIn(['nodeRegistration', 'kubeletExtraArgs'], true));
}

function patchPayload(p: Payload): Payload | undefined {
  const m = PATCH_KIND.exec(p.text);
  if (!m) return undefined;
  const kind: FileKind = m[1] === 'KubeletConfiguration' ? 'kubelet-config' : 'kubeadm-config';
  // Without apiVersion, kind (v0.32.0 and later, pkg/internal/patch/kubeadm_merge.go mergeExtraArgs) turns a
  // kubeletExtraArgs map into v1beta4's {name, value} list: read such a patch in the version whose form it has.
  const api = kind === 'kubelet-config' ? 'kubelet.config.k8s.io/v1beta1' : mapArgs(p.text) ? 'kubeadm.k8s.io/v1beta3' : 'kubeadm.k8s.io/v1beta4';
  const out = withHeader(p, PATCH_API.test(p.text) ? '' : `apiVersion: ${api}\n`);
  out.kind = kind;
  return out;
}

/** kind's default node image at fed26882 (pkg/apis/config/defaults/image.go): kindest/node:v1.37.0-rc.1. */
const DEFAULT_NODE_VERSION = '1.37';

/**
 * The kubeadm apiVersion kind generates for a node's Kubernetes version (pkg/cluster/internal/kubeadm/config.go
 * Config at fed26882): v1beta2 before 1.23, v1beta3 before 1.36, v1beta4 from 1.36.
 */
function generatedApi(version: string | undefined): string {
  const minor = Number((version ?? DEFAULT_NODE_VERSION).split('.')[1]);
  return minor < 23 ? 'kubeadm.k8s.io/v1beta2' : minor < 36 ? 'kubeadm.k8s.io/v1beta3' : 'kubeadm.k8s.io/v1beta4';
}

const API_LINE = /^["']?apiVersion["']?[ \t]*:[ \t]*["']?([^"'\s#]+)/m;
const apiOf = (text: string): string | undefined => API_LINE.exec(text)?.[1];

export function kindPayloads(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const notApplied = new Map<Payload, { api: string; want: string; image?: string; mapArgs?: boolean }>();
  const twins = new Set<Payload>();
  const c = readCarrier(path, text, 'kind cluster configuration', [KIND_API, /kubeadmConfigPatches/], maskYamlTemplates);
  for (const d of c.docs) {
    if (d.kind !== 'Cluster' || !/^kind\.(?:x-k8s|sigs\.k8s)\.io\//.test(d.apiVersion)) continue;
    const root = d.doc.contents;
    const read = (list: unknown): Patch[] =>
      itemsOf(list).flatMap((node) => {
        const s = stringPayload(c, node as never, '/patch.yaml');
        const p = s && patchPayload(s);
        return p ? [{ payload: p, what: PATCH_KIND.exec(s.text)![1], api: apiOf(s.text) }] : [];
      });
    const cluster = read(nodeAt(root, ['kubeadmConfigPatches']));
    // No nodes: kind makes one control plane (pkg/internal/apis/config/default.go SetDefaultsCluster); no role: a
    // control plane too (SetDefaultsNode).
    const entries = itemsOf(nodeAt(root, ['nodes'])).filter((n): n is YAMLMap => isMap(n));
    const nodes = entries.length ? entries : [undefined];
    const count = { 'control-plane': 0, worker: 0 };
    const found: Payload[] = [];
    for (const n of nodes) {
      const role = n?.get('role') === 'worker' ? 'worker' : 'control-plane';
      const nth = ++count[role];
      // kubeadm init runs on the first control plane, kubeadm join on every other node (kind actions/kubeadminit,
      // kubeadmjoin; nodeutils.BootstrapControlPlaneNode): only that command's document gives the kubelet flags.
      const flagsFrom = role === 'control-plane' && nth === 1 ? 'InitConfiguration' : 'JoinConfiguration';
      const own = n ? read(n.get('kubeadmConfigPatches', true)) : [];
      // nodes[].image: the node image, whose tag is its Kubernetes version (kindest/node:v1.31.0@sha256:...).
      const image = n ? versionAt(path, text, c.lines, n.get('image', true), `nodes[${entries.indexOf(n)}].image`, true) : undefined;
      // A patch that names an apiVersion matches only a document of that apiVersion (pkg/internal/patch/resource.go
      // matches); one of another version never applies, silently.
      const generated = generatedApi(image?.version);
      const applies = (p: Patch) => {
        const api = p.api;
        const want = p.what === 'KubeletConfiguration' ? 'kubelet.config.k8s.io/v1beta1' : generated;
        // kind merges kubeletExtraArgs itself into a v1beta4 document (kubeadm_merge.go mergeExtraArgs): a map is
        // converted only in a patch without apiVersion; in one that names a version, the map is dropped.
        if (api !== undefined && api === want && want.endsWith('v1beta4') && p.what !== 'KubeletConfiguration' && mapArgs(p.payload.text)) {
          notApplied.set(p.payload, { api, want, image: image?.version, mapArgs: true });
          return false;
        }
        if (api === undefined || api === want) return true;
        notApplied.set(p.payload, { api, want, image: image?.version });
        return false;
      };
      // The cluster's patches first, then the node's (actions/config/config.go getKubeadmConfig).
      const used = [...cluster, ...own].filter((p) => (p.what === 'KubeletConfiguration' || p.what === flagsFrom) && applies(p));
      const parts = used.map((p) => p.payload);
      // A patch of another apiVersion beside one of the same kind that applies is a fallback for other node images
      // (kueue writes its InitConfiguration patch for v1beta3 and v1beta4): nothing of it is lost on this node.
      for (const p of [...cluster, ...own]) {
        const why = notApplied.get(p.payload);
        if (why && !why.mapArgs && used.some((u) => u.what === p.what)) twins.add(p.payload);
      }
      if (parts.length === 0) continue;
      const at = n?.range?.[0] ?? parts[0].map.offsets[0];
      const p = joinPayloads(c.lines, `/${role}-${nth}.yaml`, parts, c.lines.range(at, at));
      p.kind = parts.some((x) => x.kind === 'kubeadm-config') ? 'kubeadm-config' : 'kubelet-config';
      // kind's own KubeletConfiguration is the base the patches merge into (node/platform.ts kindBase).
      found.push({ ...p, platform: { tool: 'kind', span: { file: path, range: p.span }, gates: [], configLabel: 'a kubeadmConfigPatches patch' }, ...(image ? { versions: [image] } : {}) });
    }
    for (const [p, why] of notApplied) {
      if (twins.has(p)) continue;
      const at = API_LINE.exec(p.text);
      const from = at ? p.map.offsets[at.index + at[0].length - at[1].length] ?? p.map.offsets[0] : p.map.offsets[0];
      const to = at ? p.map.offsets[at.index + at[0].length] ?? from : from;
      const image = why.image ? `Kubernetes ${why.image}` : `the default node image (Kubernetes ${DEFAULT_NODE_VERSION})`;
      c.problems.push(why.mapArgs
        ? finding('kind-patch-not-applied', 'warning', { file: path, range: c.lines.range(from, to) },
          'These kubeletExtraArgs never reach the kubelet: kind drops a map in a patch that names its apiVersion. ' +
            `kind converts a kubeletExtraArgs map to ${why.api}'s {name, value} list only in a patch without apiVersion (pkg/internal/patch/kubeadm_merge.go). Remove the apiVersion line or write the list form.`)
        : finding('kind-patch-not-applied', why.image ? 'warning' : 'information', { file: path, range: c.lines.range(from, to) },
          // Which kubeadm API kind writes depends on the node image: with none stated, the default one is an assumption.
          `${why.image ? '' : `Holds for kind's default node image (Kubernetes ${DEFAULT_NODE_VERSION}); no image is stated here. `}This patch never applies: kind skips a patch of ${why.api} on this node, and its settings are lost. ` +
            `kind writes ${why.want} for ${image} and matches kubeadmConfigPatches by kind and apiVersion (pkg/internal/patch). Remove the apiVersion line or write the version kind generates.`));
    }
    notApplied.clear();
    twins.clear();
    if (found.length === 0) continue;
    for (const p of found) c.embedded.push(p);
    if (d.apiVersion !== CURRENT) {
      // kind reads only kind.x-k8s.io/v1alpha4 (pkg/internal/apis/config/encoding/load.go Parse: "unknown apiVersion").
      const api = d.doc.contents && isMap(d.doc.contents) ? d.doc.contents.get('apiVersion', true) : undefined;
      const r = (api as { range?: [number, number, number] } | undefined)?.range;
      c.problems.push(finding('kind-api-version', 'error', { file: path, range: c.lines.range(r?.[0] ?? 0, r?.[1] ?? 0) },
        `kind refuses apiVersion ${d.apiVersion}, so none of these patches apply; use ${CURRENT}. kind reads only that version (error "unknown apiVersion").`,
        r ? { fixes: [{ title: `Change apiVersion to ${CURRENT}`, preferred: true, edits: [{ file: path, range: c.lines.range(r[0], r[1]), newText: CURRENT }] }] } : undefined));
    }
  }
  // kind decodes its config with go-yaml v3 and KnownFields (pkg/internal/apis/config/encoding/load.go
  // yamlUnmarshalStrict), which fails on a key written twice.
  return finish(path, c, { tool: 'kind', refuses: true, why: 'It decodes the config with go-yaml v3, which fails with "mapping key already defined"' });
}

export default defineFormat({
  kind: 'kind-cluster',
  rank: 120,
  // Its reader masks template expressions (embed/yaml-docs.ts readCarrier): `cluster.yaml.tpl` is read as what it renders.
  templateNames: true,
  label: 'kind cluster configuration',
  byContent: (c) => (c.ext === 'yaml' || c.ext === 'yml') && KIND_API.test(c.head) && KIND_CLUSTER.test(c.head),
  parse: kindPayloads,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  activation: ['**/kind-config*.{yaml,yml}', '**/kind*.{yaml,yml}'],
});
