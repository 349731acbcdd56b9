/**
 * talhelper's talconfig.yaml (budimanjojo/talhelper v3.1.16, master at 39b69792): a carrier. talhelper writes one
 * Talos machine config per `nodes[]` entry and patches it with, in order (pkg/config/loader.go, nodeconfigs.go
 * mergeNodeConfigs; pkg/generate/config.go GenerateConfig):
 *   1. the patches of its group, `controlPlane.patches` or `worker.patches` (by the node's `controlPlane`), unless
 *      the node sets `overridePatches: true`;
 *   2. its own `nodes[].patches`;
 *   3. the top-level `patches`, last.
 * Each node whose patches hold kubelet settings is a payload named by its hostname (`talconfig.yaml//cp1.yaml`): the
 * inline patches (strings: strategic-merge patches) in that order as one multi-document Talos file, each document
 * mapped back to its lines in talconfig.yaml, after a `machine.type` document that says the node's role (Talos's
 * default system-reserved memory differs for control planes). A patch named `@file` is a file of its own: talhelper
 * reads it at its place in the list (pkg/patcher/patcher.go PatchesPatcher), relative to talconfig.yaml's folder unless
 * absolute (pkg/substitute/pathsubst.go handleSubstitution). A parser reads one file, so the payload only says where
 * each file goes (`Payload.patchRefs`); node/build.ts merges the file's documents there (node/talos-patches.ts).
 * Without `nodes`, each inline patch with kubelet settings is a payload of its own (talhelper writes no config, so
 * `@file` patches join nothing).
 */
import { isMap, isScalar, isSeq, type Scalar, type YAMLMap } from 'yaml';
import { finding, type Finding } from '../../model/finding.ts';
import { LineIndex } from '../../model/range.ts';
import type { PatchFileRef, Payload, PayloadMap } from '../../embed/payload.ts';
import { yamlStringMap } from '../../embed/yaml-string.ts';
import { readYamlFile, versionAt } from '../../embed/yaml-docs.ts';
import { droppedAsDuplicates, duplicateFindings, templateBranches } from '../../parse/duplicates.ts';
import { defineFormat } from '../../formats/types.ts';

interface Patch {
  text: string;
  map: PayloadMap;
  /** Carrier offsets of the patch string. */
  start: number;
  end: number;
}

/** A `@file` patch: the path after `@` and the carrier offsets of the string. */
interface FilePatch {
  file: string;
  start: number;
  end: number;
}

const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * The patches of a `patches` list that matter to the kubelet, in list order: inline patches that hold kubelet
 * settings, and every `@file` patch (its file may hold them). talhelper takes a string starting with `@` as a file
 * (strings.HasPrefix / CutPrefix: no space before it).
 */
function patchesOf(list: unknown, text: string, lines: LineIndex, crlf: boolean): (Patch | FilePatch)[] {
  if (!isSeq(list)) return [];
  const out: (Patch | FilePatch)[] = [];
  for (const item of list.items) {
    if (!isScalar(item) || typeof item.value !== 'string' || !item.range) continue;
    const value = item.value;
    const node = item as Scalar<string>;
    if (value.startsWith('@')) {
      const file = value.slice(1).trim();
      if (file !== '') out.push({ file, start: node.range![0], end: node.range![1] });
      continue;
    }
    if (!/\bkubelet\b/.test(value)) continue;
    out.push({ text: value, map: yamlStringMap(text, lines, node, value, crlf), start: node.range![0], end: node.range![1] });
  }
  return out;
}

const inline = (list: readonly (Patch | FilePatch)[]): Patch[] => list.filter((p): p is Patch => 'text' in p);

/**
 * The node's patches as one multi-document Talos file: a `machine.type` document for its role (mapped to `at`), then
 * each patch, separated by `---` lines mapped to the end of the patch before. Inserted text is written by the patch
 * whose place in talconfig.yaml holds the edit.
 */
function nodePayload(hostPath: string, host: LineIndex, target: string, role: 'controlplane' | 'worker', at: number, list: readonly (Patch | FilePatch)[], span: Payload['span']): Payload {
  const head = `machine:\n  type: ${role}\n`;
  const parts: { text: string; offsets: ArrayLike<number> }[] = [{ text: head, offsets: new Int32Array(head.length).fill(at) }];
  const files: PatchFileRef[] = [];
  let line = 2;
  for (const p of list) {
    if (!('text' in p)) {
      // The file's documents go after the payload's lines so far (every part ends with a line end).
      files.push({ path: p.file, span: { file: hostPath, range: host.range(p.start, p.end) }, line });
      continue;
    }
    const sep = '---\n';
    const before = parts[parts.length - 1];
    const last = before.offsets.length ? before.offsets[before.offsets.length - 1] : at;
    parts.push({ text: sep, offsets: new Int32Array(sep.length).fill(last) });
    const text = p.text.endsWith('\n') ? p.text : `${p.text}\n`;
    const o = p.map.offsets;
    const offsets = new Int32Array(text.length);
    for (let i = 0; i < text.length; i++) offsets[i] = o[Math.min(i, o.length - 1)];
    parts.push({ text, offsets });
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
    line++;
  }
  const patches = inline(list);
  const text = parts.map((x) => x.text).join('');
  const offsets = new Int32Array(text.length + 1);
  let k = 0;
  for (const x of parts) for (let i = 0; i < x.text.length; i++) offsets[k++] = x.offsets[i];
  offsets[k] = k > 0 ? offsets[k - 1] : at;
  const encode = (t: string, where: number) => patches.find((p) => where >= p.start && where <= p.end)?.map.encode(t, where);
  const payload: Payload = { target, kind: 'talos', text, map: { host, offsets, encode }, span, lines: new LineIndex(text) };
  if (files.length) payload.patchRefs = { files, facts: { role } };
  return payload;
}

function parseTalconfig(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  const read = readYamlFile(text);
  const { lines, doc, error } = read;
  text = read.text;
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  if (error) {
    const { at } = error;
    problems.push(finding('config-syntax', 'information', { file: path, range: lines.range(at, at) },
      `This talconfig.yaml is not valid YAML, so its patches are not checked. ${error.message}`));
    return { embedded, problems };
  }
  // talhelper reads talconfig.yaml with go-yaml v3 (pkg/config/loader.go newConfig), which fails on a key written twice.
  if (!templateBranches(text)) {
    for (const x of duplicateFindings(droppedAsDuplicates(read.dropped, path, lines), {
      tool: 'talhelper',
      refuses: true,
      why: 'It reads talconfig.yaml with go-yaml v3, which fails with "mapping key already defined"',
    })) problems.push(x);
  }
  const crlf = /\r\n/.test(text.slice(0, 200));
  // kubernetesVersion: the kubelet image tag talhelper writes into every node's machine.kubelet.image.
  const version = versionAt(path, text, lines, doc.get('kubernetesVersion', true), 'kubernetesVersion', false);
  const versions = version ? { versions: [version] } : {};
  const global = patchesOf(doc.get('patches', true), text, lines, crlf);
  const group = {
    controlplane: patchesOf(doc.getIn(['controlPlane', 'patches'], true), text, lines, crlf),
    worker: patchesOf(doc.getIn(['worker', 'patches'], true), text, lines, crlf),
  };
  const nodes = doc.get('nodes', true);
  const entries = isSeq(nodes) ? nodes.items.filter((n): n is YAMLMap => isMap(n)) : [];
  if (entries.length === 0) {
    // No node to patch: each patch is read alone, so its mistakes are still found.
    const alone = (list: readonly (Patch | FilePatch)[], where: string) =>
      inline(list).forEach((p, i) => embedded.push({ target: `/talhelper/${where}/patch-${i + 1}.yaml`, kind: 'talos', text: p.text, map: p.map, span: lines.range(p.start, p.end), lines: new LineIndex(p.text), ...versions }));
    alone(global, 'all');
    alone(group.controlplane, 'controlplane');
    alone(group.worker, 'worker');
    return { embedded, problems };
  }
  const seen = new Set<string>();
  entries.forEach((n, i) => {
    const role = n.get('controlPlane') === true ? 'controlplane' : 'worker';
    const own = patchesOf(n.get('patches', true), text, lines, crlf);
    const patches = [...(n.get('overridePatches') === true ? [] : group[role]), ...own, ...global];
    if (patches.length === 0) return;
    const host = n.get('hostname', true);
    const hostname = isScalar(host) && typeof host.value === 'string' && SAFE_NAME.test(host.value) ? host.value : `node-${i + 1}`;
    // Two entries with one hostname would write one file: the second keeps its place in the list.
    const name = seen.has(hostname) ? `${hostname}-${i + 1}` : hostname;
    seen.add(name);
    const key = n.items.find((p) => isScalar(p.key) && p.key.value === 'hostname')?.key as Scalar | undefined;
    const at = key?.range?.[0] ?? n.range?.[0] ?? 0;
    const span = lines.range(at, isScalar(host) && host.range ? host.range[1] : at);
    embedded.push({ ...nodePayload(path, lines, `/${name}.yaml`, role, at, patches, span), ...versions });
  });
  return { embedded, problems };
}

const CLUSTER_NAME = /^clusterName:/m;
const NODES = /^nodes:/m;
const ENDPOINT = /^endpoint:/m;
const TALOS_VERSION = /^talosVersion:/m;
// (?:-[ \t]*)? rather than -?[ \t]*: two blank runs in a row made a long line of blanks quadratic.
const HOSTNAME = /^[ \t]*(?:-[ \t]*)?hostname:/m;

export default defineFormat({
  kind: 'talhelper',
  rank: 60,
  label: 'talhelper talconfig.yaml',
  byPath: (c) => c.lower === 'talconfig.yaml' || c.lower === 'talconfig.yml',
  // talhelper takes any file name (`talhelper genconfig -c prod.yaml`): its own top-level keys say what it is
  // (pkg/config/types.go TalhelperConfig: clusterName, endpoint, nodes[] with hostname).
  byContent: (c) => (c.ext === 'yaml' || c.ext === 'yml') && CLUSTER_NAME.test(c.head) && NODES.test(c.head) && (ENDPOINT.test(c.head) || TALOS_VERSION.test(c.head)) && HOSTNAME.test(c.head),
  parse: parseTalconfig,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/talconfig.yaml', '**/talconfig.yml'],
  selector: ['**/talconfig.yaml', '**/talconfig.yml'],
  activation: ['**/talconfig.yaml'],
});
