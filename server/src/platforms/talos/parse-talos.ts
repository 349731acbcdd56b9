/**
 * Talos Linux machine configuration (siderolabs/talos, Talos v1.14): the kubelet settings of a full v1alpha1 machine
 * config or a strategic-merge patch (`machine.kubelet.extraConfig`, a KubeletConfiguration fragment, and
 * `machine.kubelet.extraArgs`, kubelet flags; pkg/machinery/config/types/v1alpha1/v1alpha1_types.go), and the
 * v1.14 `apiVersion: v1alpha1` / `kind: KubeletConfig` document (`config`, `extraArgs`;
 * pkg/machinery/config/types/k8s/kubelet.go). Talos's own defaults are node/platform.ts's.
 */
import { LineIndex } from '../../model/range.ts';
import { finding } from '../../model/finding.ts';
import type { Finding } from '../../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeletConfigDoc, MapNode, PlatformInfo } from '../../parse/types.ts';
import { getEntry } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { versionMention, type VersionMention } from '../../model/version-mention.ts';
import { argsFromMap, blankDirectiveLines, mapOf, str, templateAwareProblems, withoutPlaceholders, type ExtraArg } from '../../parse/platform.ts';
import { duplicateFindings, templateBranches, type DuplicateReader } from '../../parse/duplicates.ts';

/**
 * Talos decodes each document with go-yaml v4 (pkg/machinery/config/configloader/internal/decoder/decoder.go, the
 * typed decode after KnownFields), whose unique-key check fails the whole configuration on a key written twice.
 */
export const TALOS_DUPLICATES: DuplicateReader = {
  tool: 'Talos',
  refuses: true,
  why: 'Its YAML decoder (go-yaml v4, configloader) fails with "mapping key already defined"',
};

/**
 * `versions` receives the kubelet image tags the file states: machine.kubelet.image, or a KubeletConfig document's
 * image (the kubelet Talos runs is that image, v1alpha1_types.go KubeletConfig.KubeletImage).
 */
export function parseTalos(path: string, text: string, versions?: VersionMention[], lines = new LineIndex(text)): ConfigFileParse {
  const r = parseYamlStream(path, blankDirectiveLines(text), lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'Talos machine configuration');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  if (!templateBranches(text)) for (const d of r.docs) for (const x of duplicateFindings(d.duplicates, TALOS_DUPLICATES)) problems.push(x);
  const args: ExtraArg[] = [];
  let platform: PlatformInfo | undefined;
  let machineKubelet = false;
  const kubeletDocs: { kind: ConfigNode['span']; root: MapNode }[] = [];
  let role: 'worker' | 'controlplane' | undefined;
  for (const d of r.docs) {
    const root = mapOf(d.root);
    if (!root) continue;
    let kubelet: { key: ConfigNode['span']; block: MapNode; config?: string } | undefined;
    const machine = mapOf(getEntry(root, 'machine')?.value);
    if (machine) {
      const k = getEntry(machine, 'kubelet');
      const block = mapOf(k?.value);
      if (k && block) {
        kubelet = { key: k.keySpan, block, config: 'extraConfig' };
        machineKubelet = true;
      }
      // machine.type: init and controlplane are control-plane nodes (machine.Type.IsControlPlane).
      const type = str(getEntry(machine, 'type')?.value);
      if (type === 'controlplane' || type === 'init') role = 'controlplane';
      else if (type === 'worker') role = 'worker';
    } else if (str(getEntry(root, 'apiVersion')?.value) === 'v1alpha1' && str(getEntry(root, 'kind')?.value) === 'KubeletConfig') {
      kubelet = { key: getEntry(root, 'kind')!.keySpan, block: root, config: 'config' };
      kubeletDocs.push({ kind: getEntry(root, 'kind')!.value.span, root });
    }
    if (!kubelet) continue;
    const image = getEntry(kubelet.block, 'image')?.value;
    const what = kubelet.config === 'config' ? 'KubeletConfig image' : 'machine.kubelet.image';
    // A templated image (`kubelet:${version}`, `{{ .v }}`) states nothing: the scalar's source still shows it.
    const mention = image?.kind === 'scalar' && !image.template ? versionMention(what, image.source, image.span, true) : undefined;
    if (mention) versions?.push(mention);
    // Only extraConfig (config) and extraArgs are kubelet settings; a kubelet block with just Talos's own keys (image,
    // nodeIP, clusterDNS) sets none, and the file is no node.
    if (!getEntry(kubelet.block, kubelet.config!) && !getEntry(kubelet.block, 'extraArgs')) continue;
    platform ??= { tool: 'talos', span: kubelet.key, gates: [] };
    const cfg = mapOf(getEntry(kubelet.block, kubelet.config!)?.value);
    if (cfg) {
      const doc: KubeletConfigDoc = { path, format: 'yaml', root: withoutPlaceholders(cfg), docIndex: d.index, span: cfg.span };
      if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = true;
      out.kubeletConfigs.push(doc);
    }
    const extraNode = getEntry(kubelet.block, 'extraArgs')?.value;
    const extra = mapOf(extraNode);
    if (extra) {
      for (const a of argsFromMap(extra, 'extraArgs', problems)) args.push(a);
      (platform.args ??= []).push({ span: extra.span, style: 'map', node: extra });
    } else if (extraNode?.kind === 'scalar' && extraNode.value !== null) {
      // The first name being typed (no colon yet) is read as extraArgs's string: completion still knows the block.
      (platform.args ??= []).push({ span: extraNode.span, style: 'map', node: extraNode });
    }
  }
  // pkg/machinery/config/types/k8s/kubelet.go (Talos v1.14): Validate ("kubelet image cannot be empty") and
  // V1Alpha1ConflictValidate ("kubelet config is already set in v1alpha1 config (.machine.kubelet)").
  for (const d of kubeletDocs) {
    const image = str(getEntry(d.root, 'image')?.value);
    if (image === undefined || image === '') {
      problems.push(finding('platform-config-invalid', 'error', d.kind, 'Talos rejects a KubeletConfig document without image ("kubelet image cannot be empty"). Add image: ghcr.io/siderolabs/kubelet:<version>.'));
    }
    if (machineKubelet) {
      problems.push(finding('platform-config-invalid', 'error', d.kind, 'Talos rejects a KubeletConfig document beside machine.kubelet ("kubelet config is already set in v1alpha1 config"). Keep one of the two.'));
    }
  }
  if (platform) {
    if (role) platform.facts = { ...platform.facts, role };
    out.platform = platform;
    out.kubeadm.push({ path, apiVersion: 'v1alpha1', kind: 'Talos extraArgs', argsLabel: 'extraArgs', kubeletExtraArgs: args, span: platform.span });
  }
  return out;
}

