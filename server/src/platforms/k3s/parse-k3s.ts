/**
 * k3s and RKE2 `config.yaml` (and `config.yaml.d/*.yaml`): the `kubelet-arg` list, each item `key=value` with an
 * optional leading `--`, passed to the kubelet as `--key=value` (k3s pkg/cli/cmds/agent.go `kubelet-arg`, a string
 * slice; RKE2 embeds the same agent). A single string is one item. `kubelet-arg+` adds its items to the list the
 * files before it set instead of replacing it (k3s pkg/configfilearg/parser.go readConfigFile: a key ending in `+`
 * appends); node/k3s.ts merges the files. k3s's own kubelet settings are node/platform.ts's.
 */
import { LineIndex } from '../../model/range.ts';
import type { Finding } from '../../model/finding.ts';
import type { ConfigFileParse } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { argsFromFlagList, mapOf, templateAwareProblems } from '../../parse/platform.ts';

/** The kind of the kubeadm-like document a `kubelet-arg` key becomes; `+` marks one that appends. */
export const K3S_ARGS_KIND = 'k3s kubelet-arg';
export const K3S_APPEND_KIND = 'k3s kubelet-arg+';

export function parseK3s(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, text, lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'k3s config');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const root = mapOf(r.docs[0]?.root);
  // In the file's order: k3s reads the keys in order, and a `+` key appends to what is there by then. It reads the
  // file as a yaml.MapSlice (go-yaml v2), which keeps a key written twice as two items: a second `kubelet-arg+`
  // appends too, a second `kubelet-arg` replaces the list (readConfigFile, main at f6466040; node/k3s-files.ts).
  const earlier = (r.docs[0]?.duplicates ?? []).filter((d) => d.map === root && d.earlier).map((d) => d.earlier!);
  const at = (e: { keySpan: { range: { start: { line: number; character: number } } } }) => e.keySpan.range.start;
  const entries = earlier.length
    ? [...(root?.entries ?? []), ...earlier].sort((a, b) => at(a).line - at(b).line || at(a).character - at(b).character)
    : root?.entries ?? [];
  for (const entry of entries) {
    if (entry.key !== 'kubelet-arg' && entry.key !== 'kubelet-arg+') continue;
    const v = entry.value;
    const items = v.kind === 'seq' ? v.items : v.kind === 'scalar' && v.value !== null ? [v] : [];
    const args = argsFromFlagList(items, problems, entry.key);
    out.platform ??= { tool: 'k3s', span: entry.keySpan, gates: [], args: [] };
    // k3s takes kubelet-arg items with or without their leading `--` (it trims it before splitting name=value).
    out.platform.args!.push({ span: v.span, style: 'list', node: v, bare: true });
    out.kubeadm.push({ path, apiVersion: 'k3s', kind: entry.key === 'kubelet-arg' ? K3S_ARGS_KIND : K3S_APPEND_KIND, argsLabel: entry.key, kubeletExtraArgs: args, span: entry.keySpan });
  }
  return out;
}
