/**
 * talhelper's talconfig.yaml (budimanjojo/talhelper pkg/config/config.go, talhelper v3): a carrier. Each inline
 * patch of `patches`, `controlPlane.patches`, `worker.patches` and `nodes[].patches` (strings: a strategic-merge
 * patch, or `@file` naming a patch file, which is read as a file of its own) is a Talos patch payload, read like a
 * patch file and mapped back to its lines in talconfig.yaml. Only patches that hold kubelet settings become nodes.
 */
import { isMap, isScalar, isSeq, parseDocument, type Scalar } from 'yaml';
import { finding, type Finding } from '../model/finding.ts';
import { LineIndex } from '../model/range.ts';
import type { Payload } from '../embed/payload.ts';
import { yamlStringMap } from '../embed/yaml-string.ts';
import { firstError } from '../embed/yaml-docs.ts';
import { defineFormat } from './types.ts';
import { loneCrToLf } from '../model/range.ts';

function parseTalconfig(path: string, text: string): { embedded: Payload[]; problems: Finding[] } {
  text = loneCrToLf(text); // a lone \r is a YAML line break (model/range.ts)
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const embedded: Payload[] = [];
  const doc = parseDocument(text, { uniqueKeys: false });
  const error = firstError(doc);
  if (error) {
    const { at } = error;
    problems.push(finding('config-syntax', 'information', { file: path, range: lines.range(at, at) },
      `This talconfig.yaml is not valid YAML, so its patches are not checked. ${error.message}`));
    return { embedded, problems };
  }
  const crlf = /\r\n/.test(text.slice(0, 200));
  const add = (list: unknown, where: string) => {
    if (!isSeq(list)) return;
    list.items.forEach((item, i) => {
      if (!isScalar(item) || typeof item.value !== 'string' || !item.range) return;
      const value = item.value;
      // `@./patches/x.yaml` names a file; a patch without kubelet settings is no business of ours.
      if (value.trimStart().startsWith('@') || !/\bkubelet\b/.test(value)) return;
      const node = item as Scalar<string>;
      const map = yamlStringMap(text, lines, node, value, crlf);
      embedded.push({ target: `/talhelper/${where}/patch-${i + 1}.yaml`, kind: 'talos', text: value, map, span: lines.range(node.range![0], node.range![1]), lines: new LineIndex(value) });
    });
  };
  add(doc.get('patches', true), 'all');
  add(doc.getIn(['controlPlane', 'patches'], true), 'controlplane');
  add(doc.getIn(['worker', 'patches'], true), 'worker');
  const nodes = doc.get('nodes', true);
  if (isSeq(nodes)) {
    nodes.items.forEach((n, i) => {
      if (!isMap(n)) return;
      const host = n.get('hostname');
      add(n.get('patches', true), `node-${typeof host === 'string' && /^[A-Za-z0-9._-]+$/.test(host) ? host : i + 1}`);
    });
  }
  return { embedded, problems };
}

export default defineFormat({
  kind: 'talhelper',
  label: 'talhelper talconfig.yaml',
  byPath: (c) => c.lower === 'talconfig.yaml' || c.lower === 'talconfig.yml',
  parse: parseTalconfig,
  comments: () => 'trailing',
  join: { kind: 'carrier' },
  watch: ['**/talconfig.yaml', '**/talconfig.yml'],
  selector: ['**/talconfig.yaml', '**/talconfig.yml'],
  activation: ['**/talconfig.yaml'],
});
