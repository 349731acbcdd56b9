import assert from 'node:assert/strict';
import { analyze, type AnalyzeOptions, type Analysis, type NodeResult } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import type { Setting } from '../../server/src/node/model.ts';

/** `{ 'node1/etc/default/kubelet': '...' }` -> SourceFile[]. */
export function ws(files: Record<string, string>): SourceFile[] {
  return Object.entries(files).map(([path, text]) => ({ path, text }));
}

export function run(files: Record<string, string> | SourceFile[], options: AnalyzeOptions = {}): Analysis {
  return analyze(Array.isArray(files) ? files : ws(files), options);
}

/** The one node whose files include `path` (or whose id is `path`). */
export function nodeWith(a: Analysis, path: string): NodeResult {
  const hits = a.nodes.filter((n) => n.node.id === path || n.node.files.includes(path));
  assert.equal(hits.length, 1, `expected exactly one node with ${path}, got ${hits.map((h) => h.node.id).join(', ') || 'none'}`);
  return hits[0];
}

export function onlyNode(a: Analysis): NodeResult {
  assert.equal(a.nodes.length, 1, `expected one node, got ${a.nodes.map((n) => n.node.id).join(', ')}`);
  return a.nodes[0];
}

/** A map setting as a plain object key -> text. */
export function mapOf(s: Setting | undefined): Record<string, string> {
  assert.ok(s, 'setting missing');
  assert.equal(s.kind, 'map');
  if (s.kind !== 'map') return {};
  return Object.fromEntries(s.items.map((i) => [i.key ?? '', i.text]));
}

export function listOf(s: Setting | undefined): string[] {
  assert.ok(s, 'setting missing');
  assert.equal(s.kind, 'list');
  return s.kind === 'list' ? s.items.map((i) => i.text) : [];
}

export function scalarOf(s: Setting | undefined): string | number | boolean | null {
  assert.ok(s, 'setting missing');
  assert.equal(s.kind, 'scalar');
  return s.kind === 'scalar' ? s.value : null;
}

/** The kubeadm 10-kubeadm.conf drop-in (kubelet-facts §6, Debian flavour). */
export const KUBEADM_DROPIN = `[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
`;

export const KUBELET_SERVICE = `[Unit]
Description=kubelet: The Kubernetes Node Agent

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
RestartSec=10

[Install]
WantedBy=multi-user.target
`;

export const CONFIG_HEAD = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
`;

/** A kubeadm node under `root/`: unit, drop-in, config.yaml and optionally the env files. */
export function kubeadmNode(root: string, parts: { config?: string; kubeadmFlags?: string; defaults?: string; extra?: Record<string, string> } = {}): Record<string, string> {
  const out: Record<string, string> = {
    [`${root}/usr/lib/systemd/system/kubelet.service`]: KUBELET_SERVICE,
    [`${root}/etc/systemd/system/kubelet.service.d/10-kubeadm.conf`]: KUBEADM_DROPIN,
    [`${root}/var/lib/kubelet/config.yaml`]: CONFIG_HEAD + (parts.config ?? ''),
  };
  if (parts.kubeadmFlags !== undefined) out[`${root}/var/lib/kubelet/kubeadm-flags.env`] = parts.kubeadmFlags;
  if (parts.defaults !== undefined) out[`${root}/etc/default/kubelet`] = parts.defaults;
  return { ...out, ...parts.extra };
}

/** The reservations of the Kubernetes docs' Node Allocatable example (16 CPU, 32Gi, 100Gi -> 14.5 CPU). */
export const DOCS_RESERVATIONS = `kubeReserved:
  cpu: "1"
  memory: 2Gi
  ephemeral-storage: 1Gi
systemReserved:
  cpu: 500m
  memory: 1Gi
  ephemeral-storage: 1Gi
evictionHard:
  memory.available: 500Mi
  nodefs.available: "10%"
`;

/** The config path of selfManagedNode. */
export const SELF_MANAGED_CONFIG = '/etc/kubernetes/kubelet-config.yaml';

/**
 * kubeadmNode's shape on a node nobody rewrites: the drop-in names its own --config (no kubeadm-flags.env, no
 * 10-kubeadm.conf), so fixes may move flags into the file (node/kubeadm.ts says why kubeadm's may not).
 */
export function selfManagedNode(root: string, parts: { config?: string; defaults?: string } = {}): Record<string, string> {
  const out: Record<string, string> = {
    [`${root}/usr/lib/systemd/system/kubelet.service`]: KUBELET_SERVICE,
    [`${root}/etc/systemd/system/kubelet.service.d/10-kubelet.conf`]: `[Service]\nEnvironmentFile=-/etc/default/kubelet\nExecStart=\nExecStart=/usr/bin/kubelet --config=${SELF_MANAGED_CONFIG} $KUBELET_EXTRA_ARGS\n`,
    [`${root}${SELF_MANAGED_CONFIG}`]: CONFIG_HEAD + (parts.config ?? ''),
  };
  if (parts.defaults !== undefined) out[`${root}/etc/default/kubelet`] = parts.defaults;
  return out;
}
