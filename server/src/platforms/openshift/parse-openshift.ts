/**
 * OpenShift / OKD `machineconfiguration.openshift.io/v1` `KubeletConfig` (openshift/api machineconfiguration/v1
 * types.go; the Machine Config Operator renders it, openshift/machine-config-operator
 * pkg/controller/kubelet-config/helpers.go, read at commit 01d2ca83): `spec.kubeletConfig` is a
 * KubeletConfiguration fragment merged over the MCO's template, `spec.autoSizingReserved` lets the node compute its
 * own system-reserved. The MCO's own base and merge rule are node/platform.ts's.
 */
import { LineIndex } from '../../model/range.ts';
import { finding, type Finding } from '../../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeletConfigDoc, MapNode, PlatformInfo } from '../../parse/types.ts';
import { getEntry } from '../../parse/types.ts';
import { parseYamlStream } from '../../parse/yaml.ts';
import { maskYamlTemplates } from '../../parse/template.ts';

const TEMPLATE = /\{\{|\{%|\$\{|%\{/;
import { mapOf, str, templateAwareProblems } from '../../parse/platform.ts';
import { withoutPlaceholders } from '../../parse/platform.ts';
import { duplicateFindings, templateBranches } from '../../parse/duplicates.ts';

export const OPENSHIFT_API_VERSION = 'machineconfiguration.openshift.io/v1';

/**
 * The KubeletConfig objects of the documents: a document that is one, and the `objects` of an OpenShift `Template`
 * (template.openshift.io/v1). `oc process` replaces each `${PARAM}` in a string with the parameter's value and a whole
 * `${{PARAM}}` with the value as YAML (openshift/library-go pkg/template/templateprocessing/template.go
 * stringParameterExp, nonStringParameterExp) before the objects are created; such values are masked here (unknown),
 * so a KubeletConfig is read as the MCO would receive it, with its parameters filled.
 */
function kubeletConfigObjects<D extends { root?: ConfigNode; index: number }>(docs: readonly D[]): { root: MapNode; index: number; doc: D }[] {
  const out: { root: MapNode; index: number; doc: D }[] = [];
  const isKubeletConfig = (m: MapNode) => str(getEntry(m, 'apiVersion')?.value) === OPENSHIFT_API_VERSION && str(getEntry(m, 'kind')?.value) === 'KubeletConfig';
  for (const d of docs) {
    const root = mapOf(d.root);
    if (!root) continue;
    if (isKubeletConfig(root)) out.push({ root, index: d.index, doc: d });
    else if (str(getEntry(root, 'apiVersion')?.value) === TEMPLATE_API_VERSION && str(getEntry(root, 'kind')?.value) === 'Template') {
      const objects = getEntry(root, 'objects')?.value;
      for (const o of objects?.kind === 'seq' ? objects.items : []) {
        const m = mapOf(o);
        if (m && isKubeletConfig(m)) out.push({ root: m, index: d.index, doc: d });
      }
    }
  }
  return out;
}

const TEMPLATE_API_VERSION = 'template.openshift.io/v1';

export function parseOpenShift(path: string, text: string, lines = new LineIndex(text)): ConfigFileParse {
  // A file kept as a template (Helm, Go, Jinja: `maxPods: {{ $maxPods }}`) is read as the YAML it renders: its
  // expressions masked with same-length stand-ins (parse/template.ts), whose values are then unknown, not read.
  const r = parseYamlStream(path, TEMPLATE.test(text) ? maskYamlTemplates(text) : text, lines);
  const problems: Finding[] = templateAwareProblems(path, text, r.problems, 'KubeletConfig');
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  let platform: PlatformInfo | undefined;
  const reported = new Set<object>();
  for (const { root, index, doc } of kubeletConfigObjects(r.docs)) {
    // oc and kubectl turn the YAML into JSON with sigs.k8s.io/yaml before sending it, which keeps a key's last value;
    // the API server and the MCO never see the earlier one (kubernetes/kubernetes#125885, kubectl 1.27 with
    // fieldValidation=Strict: the request body already holds the last value only).
    if (!reported.has(doc) && !templateBranches(text)) {
      reported.add(doc);
      for (const x of duplicateFindings(doc.duplicates, {
        tool: 'OpenShift',
        refuses: false,
        why: 'oc apply converts the YAML to JSON before sending it, and that keeps only the last value of a key',
      })) problems.push(x);
    }
    const spec = mapOf(getEntry(root, 'spec')?.value);
    if (!spec) continue;
    const kc = getEntry(spec, 'kubeletConfig');
    const cfg = mapOf(kc?.value);
    const auto = getEntry(spec, 'autoSizingReserved');
    if (!cfg && !auto) continue;
    platform ??= { tool: 'openshift', span: (kc ?? auto)!.keySpan, gates: [] };
    if (auto?.value.kind === 'scalar' && auto.value.value === true) {
      platform.computedOnNode = { text: 'autoSizingReserved: the node computes system-reserved cpu and memory from its size; they are not counted here', span: auto.keySpan };
    }
    if (cfg) {
      const doc: KubeletConfigDoc = { path, format: 'yaml', root: withoutPlaceholders(cfg), docIndex: index, span: cfg.span };
      if (r.problems.some((p) => p.severity === 'error')) doc.syntaxErrors = true;
      out.kubeletConfigs.push(doc);
      // helpers.go validateUserKubeletConfig: "autoSizingReserved and systemdReserved cannot be set together".
      const sr = mapOf(getEntry(cfg, 'systemReserved')?.value);
      if (platform.computedOnNode && sr && sr.entries.length > 0) {
        problems.push(finding('platform-config-invalid', 'error', getEntry(cfg, 'systemReserved')!.keySpan,
          'The MCO rejects systemReserved together with autoSizingReserved: true. Keep one of the two.'));
      }
    }
  }
  if (platform) out.platform = platform;
  return out;
}
