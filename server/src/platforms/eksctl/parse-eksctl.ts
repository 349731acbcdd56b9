/**
 * One eksctl node group's `kubeletExtraConfig` (eksctl `eksctl.io/v1alpha5` ClusterConfig `nodeGroups[]`), as the
 * payload formats/eksctl.ts cuts out of the ClusterConfig: a KubeletConfiguration fragment. On Amazon Linux 2023
 * eksctl copies it into the NodeConfig's `kubelet.config` (eksctl pkg/nodebootstrap/al2023.go
 * createMinimalNodeConfig, read at commit 10de38a9), so nodeadm merges it over its own config: node/platform.ts's
 * nodeadm base and merge rule apply.
 */
import { LineIndex } from '../../model/range.ts';
import type { Finding } from '../../model/finding.ts';
import type { ConfigFileParse, KubeletConfigDoc } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { mapOf } from '../../parse/platform.ts';
import { withoutPlaceholders } from '../../parse/platform.ts';

export function parseEksctlNodeGroup(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, text, lines);
  const problems: Finding[] = [...r.problems];
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const d = r.docs[0];
  const root = mapOf(d?.root);
  if (!d || !root || root.entries.length === 0) return out;
  const doc: KubeletConfigDoc = { path, format: 'yaml', root: withoutPlaceholders(root), docIndex: d.index, span: root.span };
  if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = true;
  out.kubeletConfigs.push(doc);
  out.platform = { tool: 'eksctl', span: root.entries[0].keySpan, gates: [] };
  return out;
}
