/**
 * A talhelper node's `@file` patches (talhelper.ts, `Payload.patchRefs`): which workspace file each names,
 * and the node's kubelet settings with the files' documents merged at their places among the node's inline patches.
 *
 * talhelper (budimanjojo/talhelper v3.1.16) turns a relative `@path` into one under talconfig.yaml's folder and keeps
 * an absolute one (pkg/substitute/pathsubst.go handleSubstitution), then applies the node's patch list in order,
 * reading each `@` entry's file where it stands (pkg/patcher/patcher.go PatchesPatcher, Talos configpatcher.Apply).
 * Here a relative path is looked up exactly under the carrier's folder; an absolute one, written for the machine that
 * runs talhelper, by path suffix, as `--config=` is. A file that is not a Talos patch with kubelet settings (a network
 * patch) is part of the node without adding anything.
 */
import { finding, type Finding } from '../../model/finding.ts';
import { dirname, resolveReference, segments } from '../../model/paths.ts';
import { carrierOf, type PatchFileRef, type PatchRefs } from '../../embed/payload.ts';
import type { ConfigFileParse, KubeadmDoc, KubeletConfigDoc, PlatformInfo } from '../../parse/types.ts';
import type { FileSet as Workspace, NodeHooks } from '../../formats/types.ts';

export interface ResolvedPatch {
  readonly ref: PatchFileRef;
  /** The workspace file; undefined when none is that path. */
  readonly path?: string;
}

/** The workspace files a talhelper node payload's `@file` patches name, in list order. */
export function resolvePatchRefs(ws: Workspace, payloadPath: string, patches: PatchRefs | undefined): ResolvedPatch[] {
  const host = carrierOf(payloadPath);
  if (!patches || host === undefined) return [];
  return patches.files.map((ref) => {
    // An absolute path is the file at that path under the talconfig's folders, or one of its root by name (issue #37).
    const path = ref.path.startsWith('/') ? resolveReference(ref.path, ws.paths, host)?.path : joinRelative(dirname(host), ref.path);
    return path !== undefined && carrierOf(path) === undefined && ws.text(path) !== undefined ? { ref, path } : { ref };
  });
}

/** `dir/rel` with `.` and `..` resolved; undefined when `..` leaves the workspace's top. */
function joinRelative(dir: string, rel: string): string | undefined {
  const out = segments(dir);
  for (const s of segments(rel)) {
    if (s !== '..') out.push(s);
    else if (out.length === 0) return undefined;
    else out.pop();
  }
  return (dir.startsWith('/') ? '/' : '') + out.join('/');
}

/** Whether some `@file` patch of the payload is a Talos file with kubelet settings (the node then has some). */
export function patchFilesSetKubelet(ws: Workspace, payloadPath: string, patches: PatchRefs | undefined): boolean {
  return resolvePatchRefs(ws, payloadPath, patches).some((r) => r.path !== undefined && talosConfig(ws, r.path)?.platform !== undefined);
}

/** The `@file` patches of the payload that name no workspace file, said where they are written. */
export function unresolvedPatchRefs(ws: Workspace, payloadPath: string, patches: PatchRefs | undefined): Finding[] {
  return resolvePatchRefs(ws, payloadPath, patches).flatMap((r) => (r.path === undefined ? [unresolved(r.ref)] : []));
}

function unresolved(ref: PatchFileRef): Finding {
  return finding('reference-unresolved', 'information', ref.span,
    `The talhelper patch @${ref.path} is not in the workspace: its kubelet settings are not part of this node.`);
}

function talosConfig(ws: Workspace, path: string): ConfigFileParse | undefined {
  const p = ws.get(path);
  return p?.kind === 'talos' ? p.config : undefined;
}

export interface JoinedPatches {
  kubeletConfigs: KubeletConfigDoc[];
  kubeadm: KubeadmDoc[];
  platform?: PlatformInfo;
  /** The workspace files the node read. */
  files: string[];
  problems: Finding[];
}

/**
 * The node's KubeletConfiguration fragments and extraArgs in the order talhelper applies its patches: the payload's
 * own documents above each file's line, then the file's, and so on. Talos merges them in this order (maps key by key,
 * the last scalar wins), which node/build.ts does with the list as it is.
 */
export function joinPatchRefs(ws: Workspace, payloadPath: string, own: ConfigFileParse, patches: PatchRefs): JoinedPatches {
  const docs: KubeletConfigDoc[] = [];
  const args: KubeadmDoc['kubeletExtraArgs'] = [];
  const files: string[] = [];
  const problems: Finding[] = [];
  const ownArgs = own.kubeadm.flatMap((d) => d.kubeletExtraArgs);
  let platform = own.platform;
  let d = 0;
  let a = 0;
  const ownUpTo = (line: number) => {
    while (d < own.kubeletConfigs.length && own.kubeletConfigs[d].span.range.start.line < line) docs.push(own.kubeletConfigs[d++]);
    while (a < ownArgs.length && ownArgs[a].nameSpan.range.start.line < line) args.push(ownArgs[a++]);
  };
  for (const r of resolvePatchRefs(ws, payloadPath, patches)) {
    ownUpTo(r.ref.line);
    if (r.path === undefined) {
      problems.push(unresolved(r.ref));
      continue;
    }
    files.push(r.path);
    const c = talosConfig(ws, r.path);
    if (!c) continue;
    for (const x of c.kubeletConfigs) docs.push(x);
    for (const k of c.kubeadm) for (const x of k.kubeletExtraArgs) args.push(x);
    if (c.platform) platform = platform ? { ...platform, args: [...(platform.args ?? []), ...(c.platform.args ?? [])] } : { ...c.platform, facts: { ...c.platform.facts, ...patches.facts } };
  }
  ownUpTo(Infinity);
  const kubeadm: KubeadmDoc[] = [];
  if (platform) {
    const head = own.kubeadm[0];
    kubeadm.push(head ? { ...head, kubeletExtraArgs: args } : { path: payloadPath, apiVersion: 'v1alpha1', kind: 'Talos extraArgs', argsLabel: 'extraArgs', kubeletExtraArgs: args, span: platform.span });
  }
  return { kubeletConfigs: docs, kubeadm, ...(platform && { platform }), files, problems };
}

/**
 * How a Talos file anchors its node: its own kubelet settings, with a talhelper node's `@file` patches merged at their
 * places. A file without kubelet settings is no node unless one of its patch files has some; its unresolved
 * references are still said, since what they name may hold some.
 */
export const talosNode: NodeHooks = {
  read(ws, path) {
    const p = ws.get(path);
    const config = p?.config;
    if (!config) return { none: true, problems: [] };
    if (!config.platform && !patchFilesSetKubelet(ws, path, p.patchRefs)) return { none: true, problems: unresolvedPatchRefs(ws, path, p.patchRefs) };
    const joined = p.patchRefs ? joinPatchRefs(ws, path, config, p.patchRefs) : undefined;
    const c = joined ?? config;
    return { kubeletConfigs: c.kubeletConfigs, kubeadm: c.kubeadm, ...(c.platform && { platform: c.platform }), files: [path, ...(joined?.files ?? [])], problems: joined?.problems ?? [] };
  },
  // A talhelper node's `@file` patches are part of it, never nodes alone, whichever is first.
  claims: (ws, path) => resolvePatchRefs(ws, path, ws.get(path)?.patchRefs).flatMap((r) => (r.path ? [r.path] : [])),
};
