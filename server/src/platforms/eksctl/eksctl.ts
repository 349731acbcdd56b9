/**
 * eksctl `eksctl.io/v1alpha5` `ClusterConfig`: a carrier. Each entry of `nodeGroups` with a `kubeletExtraConfig`
 * mapping is a payload of kind eksctl-nodegroup (its own node), read where it stands in the file. eksctl copies
 * kubeletExtraConfig only for self-managed node groups: `managedNodeGroups` have no such field in its bootstrap
 * (eksctl pkg/nodebootstrap/al2023.go createMinimalNodeConfig, commit 10de38a9). Recognised by apiVersion and kind
 * at column 0 only.
 */
import { isMap, isScalar, isSeq, type YAMLMap } from 'yaml';
import type { InstanceTypeMention } from '../../node/model.ts';
import { finding, type Finding } from '../../model/finding.ts';
import { LineIndex } from '../../model/range.ts';
import type { Payload } from '../../embed/payload.ts';
import { yamlRegion } from '../../embed/yaml-region.ts';
import { errorOutsideBlocks, readYamlFile, versionAt } from '../../embed/yaml-docs.ts';
import { droppedAsDuplicates, duplicateFindings } from '../../parse/duplicates.ts';
import { defineFormat } from '../../formats/types.ts';

const API = /^apiVersion:[ \t]*["']?eksctl\.io\/v1alpha5["']?[ \t]*(?:#[^\n]*)?$/m;
const KIND = /^kind:[ \t]*["']?ClusterConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const EXTS = new Set(['yaml', 'yml']);
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

function parseClusterConfig(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const read = readYamlFile(text);
  const { lines, doc, error } = read;
  text = read.text;
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  const unreadable = () => {
    const at = error!.at;
    problems.push(finding('config-syntax', 'error', { file: path, range: lines.range(at, at) },
      `eksctl cannot read this ClusterConfig: ${error!.message}`));
    return { embedded: [], problems };
  };
  // An error inside a kubeletExtraConfig is that payload's to report (errorOutsideBlocks).
  const blocks: [number, number][] = [];
  // eksctl checks the file with sigs.k8s.io/yaml UnmarshalStrict before decoding it (pkg/eks/api.go
  // LoadConfigFromFile), and go-yaml v2's strict mode fails on a key written twice, merged keys included.
  for (const x of duplicateFindings(droppedAsDuplicates(read.dropped, path, lines), {
    tool: 'eksctl',
    refuses: true,
    why: 'It reads the ClusterConfig with sigs.k8s.io/yaml UnmarshalStrict, which fails with "key already set in map"',
  })) problems.push(x);
  const groups = doc.get('nodeGroups', true);
  if (!isSeq(groups)) return error ? unreadable() : { embedded, problems };
  // metadata.version: the EKS cluster's Kubernetes version, which the node groups' AMIs are chosen for.
  const version = versionAt(path, text, lines, doc.getIn(['metadata', 'version'], true), 'metadata.version', false);
  groups.items.forEach((ng, i) => {
    if (!isMap(ng)) return;
    const extra = ng.get('kubeletExtraConfig', true);
    if (!isMap(extra) || extra.items.length === 0 || !extra.range) return;
    blocks.push([extra.range[0], extra.range[1]]);
    const name = ng.get('name');
    const region = yamlRegion(text, lines, extra.range[0], extra.range[1]);
    const types = instanceTypes(ng, path, lines);
    embedded.push({
      ...(types ? { instanceTypes: [types] } : {}),
      ...(version ? { versions: [version] } : {}),
      target: `/eksctl/nodeGroups/${typeof name === 'string' && SAFE_NAME.test(name) ? name : i + 1}/kubeletExtraConfig.yaml`,
      kind: 'eksctl-nodegroup',
      text: region.text,
      map: region.map,
      span: lines.range(extra.range[0], extra.range[1]),
      lines: new LineIndex(region.text),
    });
  });
  return errorOutsideBlocks(doc.errors, blocks) ? unreadable() : { embedded, problems };
}

/**
 * The node group's instance types: `instanceType`, or `instancesDistribution.instanceTypes` for a mixed group
 * (eksctl pkg/apis/eksctl.io/v1alpha5 NodeGroup); placeholders and `mixed` name none.
 */
function instanceTypes(ng: YAMLMap, path: string, lines: LineIndex): InstanceTypeMention | undefined {
  const named: InstanceTypeMention['names'][number][] = [];
  const add = (n: unknown) => {
    if (!isScalar(n) || typeof n.value !== 'string' || !n.range || !/^[a-z0-9-]+\.[a-z0-9-]+$/i.test(n.value)) return;
    named.push({ name: n.value, span: { file: path, range: lines.range(n.range[0], n.range[1]) } });
  };
  add(ng.get('instanceType', true));
  const dist = ng.get('instancesDistribution', true);
  const list = isMap(dist) ? dist.get('instanceTypes', true) : undefined;
  if (named.length === 0 && isSeq(list)) for (const n of list.items) add(n);
  return named.length ? { what: 'instanceType', names: named } : undefined;
}

export default defineFormat({
  kind: 'eksctl',
  rank: 190,
  label: 'eksctl ClusterConfig',
  byContent: (c) => EXTS.has(c.ext) && API.test(c.head) && KIND.test(c.head),
  parse: parseClusterConfig,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/*.yaml', '**/*.yml'],
  selector: ['**/*.yaml', '**/*.yml'],
  activation: ['**/eksctl*.{yaml,yml}', '**/cluster*.{yaml,yml}'],
});
