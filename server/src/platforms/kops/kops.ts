/**
 * kops (`kops.k8s.io/v1alpha2`) Cluster and InstanceGroup manifests, and the nodeup config kops renders from them:
 * a carrier. Each InstanceGroup (except bastions) is a node: its payload (kind kops-kubelet) holds the Cluster's
 * `spec.kubelet` (for a control-plane group `spec.masterKubelet`/`controlPlaneKubelet` after it), then the group's
 * own `spec.kubelet`, merged in that order as kops does (pkg/apis/kops/model BuildKubeletConfigSpec /
 * BuildNodeLabels: reflectutils.JSONMergeStruct of the cluster's spec, then the group's). A file with a Cluster and
 * no InstanceGroup gives one node for worker nodes. A nodeup config's `KubeletConfig` is the already merged result.
 * Recognised by apiVersion and kind (or nodeup's `KubeletConfig:` and `ClusterName:`) at column 0 only.
 */
import { isMap, isScalar, parseAllDocuments, type Document } from 'yaml';
import type { InstanceTypeMention } from '../../node/model.ts';
import { finding, type Finding } from '../../model/finding.ts';
import { LineIndex } from '../../model/range.ts';
import type { Payload } from '../../embed/payload.ts';
import { yamlRegions } from '../../embed/yaml-regions.ts';
import { defineFormat } from '../../formats/types.ts';
import { errorOutsideBlocks, versionAt } from '../../embed/yaml-docs.ts';
import type { VersionMention } from '../../model/version-mention.ts';
import { loneCrToLf } from '../../model/range.ts';
import { maskYamlTemplates } from '../../parse/template.ts';
import { YAML_TEMPLATE_MARKER } from '../../embed/template.ts';
import { droppedAsDuplicates, duplicateFindings, keepLastKeys, templateBranches } from '../../parse/duplicates.ts';

// `kops/v1alpha2` is the API group's old name, which kops still reads (pkg/kopscodecs/codecs.go ParseVersionedYaml
// rewriteAPIGroup maps it to kops.k8s.io/v1alpha2; kubernetes/kops 268927e2); `kops get -o yaml` of old clusters wrote it.
const API = /^apiVersion:[ \t]*["']?kops(?:\.k8s\.io)?\/v1alpha2["']?[ \t]*(?:#[^\n]*)?$/m;
const KIND = /^kind:[ \t]*["']?(?:Cluster|InstanceGroup)["']?[ \t]*(?:#[^\n]*)?$/m;
const NODEUP_KUBELET = /^KubeletConfig:[ \t]*$/m;
const NODEUP_CLUSTER = /^ClusterName:[ \t]/m;
const EXTS = new Set(['yaml', 'yml', '']);
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;
/** InstanceGroup roles that run the control plane (kops InstanceGroupRole: Master, ControlPlane, APIServer). */
const CONTROL_PLANE = new Set(['Master', 'ControlPlane', 'APIServer']);

type Region = readonly [number, number];

function regionOf(doc: Document.Parsed, path: string[]): Region | undefined {
  const n = doc.getIn(path, true);
  return isMap(n) && n.items.length > 0 && n.range ? [n.range[0], n.range[1]] : undefined;
}

function parseKops(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  text = loneCrToLf(text); // a lone \r is a YAML line break (model/range.ts)
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  // Template expressions (`{{$zone := index .zones 0}}`, `name: {{.clusterName}}`) are masked with same-length
  // stand-ins, so the structure is read with every offset kept; the kubelet blocks are cut from the text as written.
  const docs = parseAllDocuments(YAML_TEMPLATE_MARKER.test(text) ? maskYamlTemplates(text) : text, { uniqueKeys: false });
  const list = Array.isArray(docs) ? docs : [docs];
  // An error inside a kubelet block is that block's to report (errorOutsideBlocks).
  const errors = list.flatMap((d) => d.errors);
  const unreadable = (): { embedded: Payload[]; problems: Finding[] } => {
    const at = errors[0].pos?.[0] ?? 0;
    const message = errors[0].message.split('\n')[0];
    problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(at, at) }, `kops cannot read this file: ${message}`));
    return { embedded: [], problems };
  };
  const blocks: Region[] = [];
  const add = (name: string, regions: (Region | undefined)[], machine?: InstanceTypeMention) => {
    const rs = regions.filter((r): r is Region => r !== undefined);
    if (rs.length === 0) return;
    blocks.push(...rs);
    const { text: t, map } = yamlRegions(text, lines, rs);
    embedded.push({ target: `/kops/${name}/kubelet.yaml`, kind: 'kops-kubelet', text: t, map, span: lines.range(rs[0][0], rs[0][1]), lines: new LineIndex(t), ...(machine ? { instanceTypes: [machine] } : {}), ...(version ? { versions: [version] } : {}) });
  };
  let cluster: Region | undefined;
  let version: VersionMention | undefined;
  let master: Region | undefined;
  const groups: { name: string; role: string; kubelet?: Region; machine?: InstanceTypeMention }[] = [];
  for (const d of list) {
    // kops decodes a manifest with its scheme's universal decoder (pkg/kopscodecs/codecs.go ParseVersionedYaml), not
    // strict: sigs.k8s.io/yaml's YAMLToJSON keeps the last value of a key written twice and drops the earlier silently.
    const dropped = keepLastKeys(d);
    const kindOf = d.get('kind');
    if (dropped.length && (kindOf === 'Cluster' || kindOf === 'InstanceGroup') && !templateBranches(text)) {
      for (const x of duplicateFindings(droppedAsDuplicates(dropped, path, lines), {
        tool: 'kops',
        refuses: false,
        why: 'kops decodes its manifests through sigs.k8s.io/yaml without strict checks, which keeps the last value of a key',
      })) problems.push(x);
    }
    if (d.get('KubeletConfig') !== undefined && d.get('ClusterName') !== undefined) {
      // KubernetesVersion (kops pkg/apis/nodeup Config): the version nodeup installs.
      version = versionAt(path, text, lines, d.get('KubernetesVersion', true), 'KubernetesVersion', false);
      add('nodeup', [regionOf(d, ['KubeletConfig'])]);
      continue;
    }
    const kind = d.get('kind');
    if (kind === 'Cluster') {
      cluster = regionOf(d, ['spec', 'kubelet']);
      // spec.kubernetesVersion (kops ClusterSpec): the version kops installs on every instance group.
      version = versionAt(path, text, lines, d.getIn(['spec', 'kubernetesVersion'], true), 'spec.kubernetesVersion', false);
      master = regionOf(d, ['spec', 'controlPlaneKubelet']) ?? regionOf(d, ['spec', 'masterKubelet']);
    } else if (kind === 'InstanceGroup') {
      const name = d.getIn(['metadata', 'name']);
      const role = d.getIn(['spec', 'role']);
      // spec.machineType (kops InstanceGroupSpec): the group's instance type.
      const mt = d.getIn(['spec', 'machineType'], true);
      const machine: InstanceTypeMention | undefined = isScalar(mt) && typeof mt.value === 'string' && mt.range && /^[a-z0-9-]+\.[a-z0-9-]+$/i.test(mt.value)
        ? { what: 'machineType', names: [{ name: mt.value, span: { file: path, range: lines.range(mt.range[0], mt.range[1]) } }] }
        : undefined;
      groups.push({ name: typeof name === 'string' && SAFE_NAME.test(name) ? name : `group-${groups.length + 1}`, role: typeof role === 'string' ? role : 'Node', kubelet: regionOf(d, ['spec', 'kubelet']), ...(machine ? { machine } : {}) });
    }
  }
  const workers = groups.filter((g) => g.role !== 'Bastion');
  for (const g of workers) add(g.name, CONTROL_PLANE.has(g.role) ? [cluster, master, g.kubelet] : [cluster, g.kubelet], g.machine);
  if (groups.length === 0) {
    add('nodes', [cluster]);
    if (master) add('control-plane', [cluster, master]);
  }
  if (errorOutsideBlocks(errors, blocks)) return unreadable();
  return { embedded, problems };
}

export default defineFormat({
  kind: 'kops',
  rank: 210,
  // Its reader masks template expressions: `cluster.yaml.tmpl` (kops's own Go templates, `kops toolbox template`) is
  // read as the manifest it renders.
  templateNames: true,
  label: 'kops Cluster / InstanceGroup',
  byContent: (c) => EXTS.has(c.ext) && ((API.test(c.head) && KIND.test(c.head)) || (NODEUP_KUBELET.test(c.head) && NODEUP_CLUSTER.test(c.head))),
  parse: parseKops,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.{yaml,yml,json}.{j2,jinja,jinja2,tpl,tmpl,gotmpl,template,tftpl}'],
  activation: ['**/kops/**/*.yaml'],
});
