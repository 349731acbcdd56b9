/**
 * `config-kubeadm-api-version` rests on which kubeadm reads the file. The reader says which kubeadm last read the API
 * (parse/config.ts KUBEADM_OLD_VERSIONS); whether the file's kubeadm is newer is the node's version, known only when a
 * file or option states it (issue #36). Stated and old enough, nothing is wrong; not stated, the finding is
 * information that says for which kubeadm it holds, like every finding that rests on a version (node/evidence.ts).
 */
import type { Finding } from '../model/finding.ts';
import type { NodeModel } from './model.ts';

const LAST_READER = /the last kubeadm to read it is v1\.(\d+)\b/;

export function kubeadmApiByVersion(findings: Finding[], nodes: readonly { node: NodeModel }[]): Finding[] {
  if (!findings.some((f) => f.code === 'config-kubeadm-api-version')) return findings;
  const nodeOf = new Map<string, NodeModel>();
  for (const { node } of nodes) for (const f of node.files) if (!nodeOf.has(f)) nodeOf.set(f, node);
  const out: Finding[] = [];
  for (const f of findings) {
    const last = f.code === 'config-kubeadm-api-version' ? LAST_READER.exec(f.message) : null;
    if (!last) {
      out.push(f);
      continue;
    }
    const node = nodeOf.get(f.file);
    const minor = node && !node.kubernetesVersionAssumed ? Number(node.kubernetesVersion.split('.')[1]) : undefined;
    if (minor !== undefined && minor <= Number(last[1])) continue;
    if (minor !== undefined) out.push(f);
    else out.push({ ...f, severity: 'information', message: `Holds for kubeadm 1.${Number(last[1]) + 1} or newer; no file here states which version runs. ${f.message}` });
  }
  return out;
}
