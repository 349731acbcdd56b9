/**
 * What kubeadm rewrites on its nodes, stated once for every fix and refactor that would move a setting (kubeadm is
 * the default way a node is set up, so it has no platform folder; its files are recognised by their paths).
 *
 * - /var/lib/kubelet/config.yaml: `kubeadm upgrade node` writes it again from the cluster's kubelet-config ConfigMap
 *   (kubernetes cmd/kubeadm/app/phases/kubelet WriteConfigToDisk, run by the upgrade's kubelet-config phase), so a
 *   field moved there is lost at the next upgrade; /etc/default/kubelet (KUBELET_EXTRA_ARGS) is the node's own.
 * - /var/lib/kubelet/kubeadm-flags.env: kubeadm writes it from nodeRegistration.kubeletExtraArgs (init, join,
 *   upgrade node; cmd/kubeadm/app/phases/kubelet WriteKubeletDynamicEnvFile), so an edit there is lost too.
 */
import type { FlagUse, NodeModel } from './model.ts';
import { spanInside } from '../model/range.ts';

/** Whether kubeadm writes this file itself (an edit there is lost at its next run). */
export function kubeadmWrites(path: string): boolean {
  return path.endsWith('/kubeadm-flags.env');
}

/** Why a per-node setting must not be moved into `config` on this node, or undefined when it may. */
export function kubeadmRewrites(node: NodeModel, config: string | undefined): string | undefined {
  if (!config?.endsWith('/var/lib/kubelet/config.yaml')) return undefined;
  const kubeadm = node.files.some((f) => kubeadmWrites(f) || f.endsWith('/10-kubeadm.conf'));
  return kubeadm
    ? 'kubeadm writes /var/lib/kubelet/config.yaml again from the cluster\'s kubelet-config ConfigMap on upgrade: settings moved there are lost. Keep per-node flags in /etc/default/kubelet, or set cluster-wide ones in that ConfigMap.'
    : undefined;
}

/**
 * The command lines one kubelet of this node may get. `kubeadm init --config` decodes the InitConfiguration of its
 * file and `kubeadm join --config` the JoinConfiguration (cmd/kubeadm/app/util/config initconfiguration.go and
 * joinconfiguration.go), so a file holding both gives one of two kubelets, never one with both kubeletExtraArgs. The
 * other flags are on both.
 */
export function kubeadmCommandLines(node: NodeModel): readonly (readonly FlagUse[])[] {
  const init = node.kubeadm.filter((d) => d.kind === 'InitConfiguration');
  const join = node.kubeadm.filter((d) => d.kind === 'JoinConfiguration');
  if (!init.length || !join.length) return [node.flags];
  const inside = (f: FlagUse, docs: typeof init) => f.from === 'kubeadm-extra-args' && docs.some((d) => spanInside(f.span, d.span));
  const byInit = node.flags.filter((f) => !inside(f, join));
  const byJoin = node.flags.filter((f) => !inside(f, init));
  return byInit.length === node.flags.length || byJoin.length === node.flags.length ? [node.flags] : [byInit, byJoin];
}
