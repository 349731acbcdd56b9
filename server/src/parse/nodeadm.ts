/**
 * EKS nodeadm `node.eks.aws/v1alpha1` NodeConfig (awslabs/amazon-eks-ami nodeadm/api/v1alpha1/nodeconfig_types.go,
 * nodeadm v20260724): `spec.kubelet.config` (a KubeletConfiguration fragment), `spec.kubelet.flags` (`--flag=value`
 * strings), `spec.kubelet.maxPodsExpression`, `spec.featureGates` (nodeadm's own gates). Standalone YAML, or the
 * `Content-Type: application/node.eks.aws` parts of MIME multi-part user data, which nodeadm merges in order
 * (nodeadm/test/e2e/cases/mime-userdata-merge): formats/mime.ts hands them over as one stream of documents.
 */
import { LineIndex } from '../model/range.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigFileParse, KubeletConfigDoc, PlatformInfo } from './types.ts';
import { getEntry } from './types.ts';
import { parseYamlStream } from './yaml.ts';
import { argsFromFlagList, blankDirectiveLines, mapOf, hasPlaceholder, str, templateAwareProblems, type ExtraArg } from './platform.ts';
import { finding } from '../model/finding.ts';
import { withoutPlaceholders } from './talos.ts';

export const NODEADM_API_VERSION = 'node.eks.aws/v1alpha1';
export const NODEADM_MEDIA_TYPE = 'application/node.eks.aws';

export function parseNodeadm(path: string, text: string): ConfigFileParse {
  const lines = new LineIndex(text);
  const r = parseYamlStream(path, blankDirectiveLines(text), lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'NodeConfig');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const args: ExtraArg[] = [];
  let platform: PlatformInfo | undefined;
  for (const d of r.docs) {
    const root = mapOf(d.root);
    if (!root || str(getEntry(root, 'apiVersion')?.value) !== NODEADM_API_VERSION || str(getEntry(root, 'kind')?.value) !== 'NodeConfig') continue;
    const spec = mapOf(getEntry(root, 'spec')?.value);
    if (!spec) continue;
    const gates = mapOf(getEntry(spec, 'featureGates')?.value);
    const k = getEntry(spec, 'kubelet');
    const kubelet = mapOf(k?.value);
    // A NodeConfig with neither kubelet settings nor gates (only spec.cluster) says nothing about the kubelet: no node.
    if (!kubelet && !gates?.entries.length) continue;
    platform ??= { tool: 'nodeadm', span: getEntry(root, 'kind')!.keySpan, gates: [] };
    for (const g of gates?.entries ?? []) if (!g.key.includes('${')) platform.gates.push({ name: g.key, span: g.keySpan });
    if (!k || !kubelet) continue;
    platform.span = k.keySpan;
    const cfg = mapOf(getEntry(kubelet, 'config')?.value);
    if (cfg) {
      const doc: KubeletConfigDoc = { path, format: 'yaml', root: withoutPlaceholders(cfg), docIndex: d.index, span: cfg.span };
      if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = true;
      out.kubeletConfigs.push(doc);
    }
    const flags = getEntry(kubelet, 'flags')?.value;
    if (flags?.kind === 'seq') {
      for (const a of argsFromFlagList(flags.items, problems)) args.push(a);
      (platform.args ??= []).push({ span: flags.span, style: 'list', node: flags });
    }
    // KubeletOptions.Flags is a []string: nodeadm cannot decode one string (or a map) there.
    else if (flags && !(flags.kind === 'scalar' && (flags.value === null || hasPlaceholder(flags.source)))) {
      problems.push(finding('config-field-type', 'error', flags.span, 'kubelet.flags must be a list of "--flag=value" strings. nodeadm cannot read a single string or a mapping here.'));
    }
    const expr = getEntry(kubelet, 'maxPodsExpression');
    if (expr?.value.kind === 'scalar' && typeof expr.value.value === 'string') platform.maxPodsExpression = { text: expr.value.source, span: expr.value.span };
  }
  if (platform) {
    out.platform = platform;
    out.kubeadm.push({ path, apiVersion: NODEADM_API_VERSION, kind: 'nodeadm kubelet.flags', argsLabel: 'kubelet.flags', kubeletExtraArgs: args, span: platform.span });
  }
  return out;
}
