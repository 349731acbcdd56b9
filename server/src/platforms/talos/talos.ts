/**
 * Talos Linux machine configuration: a full v1alpha1 config (`version: v1alpha1` + `machine:`), a strategic-merge
 * patch holding `machine.kubelet`, or the v1.14 `apiVersion: v1alpha1` / `kind: KubeletConfig` document.
 * Recognised by top-level keys only (column 0): an indented `machine:` belongs to another document.
 */
import { parseTalos } from './parse-talos.ts';
import { defineFormat } from '../../formats/types.ts';
import type { VersionMention } from '../../model/version-mention.ts';

import { talosNode } from './talos-patches.ts';
const MACHINE = /^machine:[ \t]*(?:#[^\n]*)?$/m;
const VERSION = /^version:[ \t]*["']?v1alpha1["']?[ \t]*(?:#[^\n]*)?$/m;
// A patch (no version:) counts when its machine block holds a kubelet key.
const KUBELET_KEY = /^[ \t]+kubelet:/m;
const BARE_V1ALPHA1 = /^apiVersion:[ \t]*["']?v1alpha1["']?[ \t]*(?:#[^\n]*)?$/m;
const KUBELET_CONFIG = /^kind:[ \t]*["']?KubeletConfig["']?[ \t]*(?:#[^\n]*)?$/m;
const EXTS = new Set(['yaml', 'yml', 'tpl', 'j2']);
/**
 * Files of Talos without kubelet settings are still Talos's, read so that "read, nothing for the kubelet" is told
 * apart from "not read": a patch whose machine block holds only keys of Talos's v1alpha1 MachineConfig (network,
 * sysctls, install, ...), a patch of the cluster block (siderolabs/talos pkg/machinery/config/types/v1alpha1
 * v1alpha1_types.go MachineConfig, ClusterConfig field names), and the multi-document configs: `apiVersion: v1alpha1`
 * with no group, which only Talos's document registry uses (pkg/machinery/config/internal/registry), and a kind.
 */
const MACHINE_KEY = /^[ \t]+(?:network|sysctls|sysfs|install|kernel|registries|features|certSANs|nodeLabels|nodeTaints|nodeAnnotations|udev|systemDiskEncryption|seccompProfiles|disks|time|logging):/m;
const CLUSTER = /^cluster:[ \t]*(?:#[^\n]*)?$/m;
const CLUSTER_KEY = /^[ \t]+(?:allowSchedulingOnControlPlanes|allowSchedulingOnMasters|apiServer|controllerManager|inlineManifests|extraManifests|externalCloudProvider|coreDNS):/m;
const DOC_KIND = /^kind:[ \t]*["']?[A-Z][A-Za-z0-9]*["']?[ \t]*(?:#[^\n]*)?$/m;
/** Keys at column 0 of a machine config or patch (v1alpha1 Config: version, debug, persist, machine, cluster). */
const TOP_KEY = /^([^\s#:-][^:\n]*):/gm;
const TALOS_TOP = new Set(['version', 'debug', 'persist', 'machine', 'cluster']);
const onlyTalosKeys = (head: string) => [...head.matchAll(TOP_KEY)].every((m) => TALOS_TOP.has(m[1]));

export default defineFormat({
  kind: 'talos',
  rank: 160,
  label: 'Talos machine configuration',
  byContent(c) {
    if (!EXTS.has(c.ext) && !c.lower.endsWith('.yaml.tpl')) return false;
    if (MACHINE.test(c.head) && (VERSION.test(c.head) || KUBELET_KEY.test(c.head))) return true;
    // Without a kubelet block, only a file of nothing but Talos's own top-level keys (a Helm values file may have a
    // `cluster:` with an `apiServer:` too).
    if ((MACHINE.test(c.head) ? MACHINE_KEY : CLUSTER.test(c.head) ? CLUSTER_KEY : undefined)?.test(c.head) && onlyTalosKeys(c.head)) return true;
    return BARE_V1ALPHA1.test(c.head) && (KUBELET_CONFIG.test(c.head) || DOC_KIND.test(c.head));
  },
  parse(path, text, opts) {
    const versions: VersionMention[] = [];
    const config = parseTalos(path, text, versions, opts?.lines);
    return { config, problems: config.problems, ...(versions.length ? { versions } : {}) };
  },
  comments: () => 'trailing',
  join: { kind: 'standalone', order: 3 },
  node: talosNode,
  watch: ['**/*.yaml', '**/*.yml', '**/*.yaml.tpl'],
  selector: ['**/*.yaml', '**/*.yml', '**/*.yaml.tpl'],
  activation: ['**/talconfig.yaml', '**/talos/**/*.yaml', '**/controlplane.yaml', '**/worker.yaml'],
});
