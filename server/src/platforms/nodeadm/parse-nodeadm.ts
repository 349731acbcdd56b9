/**
 * EKS nodeadm `node.eks.aws/v1alpha1` NodeConfig (awslabs/amazon-eks-ami nodeadm/api/v1alpha1/nodeconfig_types.go,
 * nodeadm v20260724): `spec.kubelet.config` (a KubeletConfiguration fragment), `spec.kubelet.flags` (`--flag=value`
 * strings), `spec.kubelet.maxPodsExpression`, `spec.featureGates` (nodeadm's own gates). Standalone YAML, or the
 * `Content-Type: application/node.eks.aws` parts of MIME multi-part user data, which nodeadm merges in order
 * (nodeadm/test/e2e/cases/mime-userdata-merge): formats/mime.ts hands them over as one stream of documents.
 */
import { LineIndex } from '../../model/range.ts';
import type { Finding } from '../../model/finding.ts';
import { isBoolFlag } from '../../catalog/flags.ts';
import type { ConfigFileParse, ConfigNode, KubeletConfigDoc, PlatformInfo } from '../../parse/types.ts';
import { getEntry } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { sub, argsFromFlagList, blankDirectiveLines, mapOf, hasPlaceholder, str, templateAwareProblems, type ExtraArg } from '../../parse/platform.ts';
import { finding } from '../../model/finding.ts';
import { withoutPlaceholders } from '../../parse/platform.ts';
import { duplicateFindings, templateBranches, type DuplicateReader } from '../../parse/duplicates.ts';

export const NODEADM_API_VERSION = 'node.eks.aws/v1alpha1';
export { NODEADM_MEDIA_TYPE } from '../../parse/mime.ts';

/**
 * nodeadm decodes a NodeConfig with apimachinery's UniversalDecoder, not strict (nodeadm/internal/api/bridge/decode.go
 * DecodeNodeConfig; CodecFactory without EnableStrict), which turns the YAML into JSON with sigs.k8s.io/yaml: a key
 * written twice keeps its last value without an error, in spec.kubelet.config too.
 */
export const NODEADM_DUPLICATES: DuplicateReader = {
  tool: 'nodeadm',
  refuses: false,
  why: 'Its decoder (apimachinery, not strict) turns the YAML into JSON and keeps the last value',
};

export function parseNodeadm(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, blankDirectiveLines(text), lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'NodeConfig');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  const args: ExtraArg[] = [];
  let platform: PlatformInfo | undefined;
  const branches = templateBranches(text);
  for (const d of r.docs) {
    const root = mapOf(d.root);
    if (!root || str(getEntry(root, 'apiVersion')?.value) !== NODEADM_API_VERSION || str(getEntry(root, 'kind')?.value) !== 'NodeConfig') continue;
    if (!branches) for (const x of duplicateFindings(d.duplicates, NODEADM_DUPLICATES)) problems.push(x);
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
      for (const a of nodeadmFlags(flags.items, problems)) args.push(a);
      (platform.args ??= []).push({ span: flags.span, style: 'list', node: flags });
    }
    // KubeletOptions.Flags is a []string: nodeadm cannot decode one string (or a map) there.
    else if (flags && !(flags.kind === 'scalar' && (flags.value === null || hasPlaceholder(flags.source)))) {
      problems.push(finding('config-field-type', 'error', flags.span, 'kubelet.flags must be a list of "--flag=value" strings. nodeadm cannot read a single string or a mapping here.'));
    }
    const expr = getEntry(kubelet, 'maxPodsExpression');
    if (expr?.value.kind === 'scalar' && typeof expr.value.value === 'string') platform.facts = { ...platform.facts, maxPodsExpression: { text: expr.value.source, span: expr.value.span } };
  }
  if (platform) {
    out.platform = platform;
    out.kubeadm.push({ path, apiVersion: NODEADM_API_VERSION, kind: 'nodeadm kubelet.flags', argsLabel: 'kubelet.flags', kubeletExtraArgs: args.slice(), span: platform.span });
    if (platform.args) platform.args = platform.args.slice(); // (exact lists: one NodeConfig per document of a stream)
  }
  return out;
}

/**
 * kubelet.flags as the kubelet receives them. nodeadm joins the flags with spaces into one variable and writes
 * `NODEADM_KUBELET_ARGS="<flags>"` to /etc/eks/kubelet/environment (nodeadm/internal/kubelet/environment.go
 * writeKubeletEnvironment); kubelet.service runs `/usr/bin/kubelet $NODEADM_KUBELET_ARGS`. systemd's environment-file
 * reader drops the quotes (and a backslash before the character it escapes), and `$VAR` splits the value at
 * whitespace. So `--node-labels "foo=bar"` reaches the kubelet as two words, `--node-labels` and `foo=bar`, which
 * pflag reads as one flag with its value (a boolean flag takes no separate value).
 */
function nodeadmFlags(items: readonly ConfigNode[], problems: Finding[]): ExtraArg[] {
  const out: ExtraArg[] = [];
  for (const it of items) {
    if (it.kind !== 'scalar' || typeof it.value !== 'string' || !/[\s"\\]/.test(it.value) || hasPlaceholder(it.source)) {
      for (const a of argsFromFlagList([it], problems)) out.push(a);
      continue;
    }
    // The words of the item after systemd's reading, each with where it is in the item (exact when the YAML value is
    // its source, else the whole item).
    const text = it.value;
    const exact = it.source === text;
    const words: { text: string; from: number; to: number }[] = [];
    let cur: { text: string; from: number; to: number } | undefined;
    for (let i = 0; i < text.length; i++) {
      let c = text[i];
      if (c === '"') continue;
      if (c === '\\' && i + 1 < text.length) c = text[++i];
      else if (/\s/.test(c)) {
        if (cur) words.push(cur);
        cur = undefined;
        continue;
      }
      if (!cur) cur = { text: '', from: i, to: i };
      cur.text += c;
      cur.to = i + 1;
    }
    if (cur) words.push(cur);
    const span = (from: number, to: number) => (exact ? sub(it, from, to) : it.span);
    for (let w = 0; w < words.length; w++) {
      const word = words[w];
      const dashes = word.text.startsWith('--') ? 2 : word.text.startsWith('-') ? 1 : 0;
      if (!dashes) continue;
      const eq = word.text.indexOf('=');
      if (eq >= 0) {
        out.push({ name: word.text.slice(dashes, eq), value: word.text.slice(eq + 1), nameSpan: span(word.from + dashes, word.from + eq), valueSpan: span(word.from + eq + 1, word.to) });
        continue;
      }
      const name = word.text.slice(dashes);
      const next = words[w + 1];
      if (next && !next.text.startsWith('-') && !isBoolFlag(name)) {
        out.push({ name, value: next.text, nameSpan: span(word.from + dashes, word.to), valueSpan: span(next.from, next.to) });
        w++;
      } else out.push({ name, value: 'true', nameSpan: span(word.from + dashes, word.to), valueSpan: span(word.to, word.to) });
    }
  }
  return out;
}
