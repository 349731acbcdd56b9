/**
 * k3s and RKE2 `config.yaml` (and `config.yaml.d/*.yaml`): the `kubelet-arg` list, each item `key=value` with an
 * optional leading `--`, passed to the kubelet as `--key=value` (k3s pkg/cli/cmds/agent.go `kubelet-arg`, a string
 * slice; RKE2 embeds the same agent). A single string is one item. k3s's own kubelet settings are node/platform.ts's.
 */
import { LineIndex } from '../model/range.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigFileParse } from './types.ts';
import { getEntry } from './types.ts';
import { parseYamlStream } from './yaml.ts';
import { argsFromFlagList, mapOf, templateAwareProblems } from './platform.ts';

export function parseK3s(path: string, text: string): ConfigFileParse {
  const r = parseYamlStream(path, text, new LineIndex(text));
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'k3s config');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const root = mapOf(r.docs[0]?.root);
  const entry = root ? getEntry(root, 'kubelet-arg') : undefined;
  if (!entry) return out;
  const v = entry.value;
  const items = v.kind === 'seq' ? v.items : v.kind === 'scalar' && v.value !== null ? [v] : [];
  const args = argsFromFlagList(items, problems, 'kubelet-arg');
  out.platform = { tool: 'k3s', span: entry.keySpan, gates: [], args: [{ span: v.span, style: 'list' }] };
  out.kubeadm.push({ path, apiVersion: 'k3s', kind: 'k3s kubelet-arg', argsLabel: 'kubelet-arg', kubeletExtraArgs: args, span: entry.keySpan });
  return out;
}
