/**
 * A KubeletConfiguration field newer than the target kubelet is an unknown
 * field to it: strict decoding fails, lenient decoding logs and drops it
 * (kubeletconfig/util/codec/codec.go), so the setting silently does nothing.
 * (No v1beta1 field has ever been removed — the API keeps them — so there is
 * no "removed" counterpart.)
 */
import { finding, type Finding } from '../model/finding.ts';
import { fieldInfo } from '../catalog/fields.ts';
import { compareVersions } from '../catalog/flags.ts';
import type { Rule } from './types.ts';

export const configFieldUnavailable: Rule = {
  id: 'config-field-unavailable',
  summary: 'a KubeletConfiguration field that the target kubelet version does not have yet',
  severity: 'warning',
  fix: false,
  area: 'flags-fields',
  run({ node }) {
    const out: Finding[] = [];
    for (const doc of node.kubeletConfigs) {
      for (const e of doc.root.entries) {
        const since = fieldInfo(e.key)?.since;
        if (!since || compareVersions(node.kubernetesVersion, since) >= 0) continue;
        out.push(
          finding(
            'config-field-unavailable',
            'warning',
            e.keySpan,
            `${e.key} arrived in Kubernetes ${since}: a ${node.kubernetesVersion} kubelet ignores it. It does not know the field, logs "unknown field" and ignores the setting.`,
          ),
        );
      }
    }
    return out;
  },
};
