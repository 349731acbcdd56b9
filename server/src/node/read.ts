/**
 * Typed reads of a node's effective settings with the kubelet's defaults
 * (pkg/kubelet/apis/config/v1beta1/defaults.go) filled in.
 */
import { defaultEvictionHard } from '../catalog/defaults.ts';
import { compareVersions } from '../catalog/flags.ts';
import { parseGoBool } from '../quantity/mapflag.ts';
import type { Item, NodeModel, Setting } from './model.ts';

const DEFAULT = { how: 'default' } as const;

export function setting(node: NodeModel, field: string): Setting | undefined {
  return node.settings.get(field);
}

/** Go's strconv.ParseBool, which pflag uses for bool flags. */
export { parseGoBool };

export function boolSetting(node: NodeModel, field: string, dflt: boolean): boolean {
  const s = node.settings.get(field);
  if (s?.kind !== 'scalar') return dflt;
  if (typeof s.value === 'boolean') return s.value;
  return (typeof s.value === 'string' ? parseGoBool(s.value) : undefined) ?? dflt;
}

export function stringSetting(node: NodeModel, field: string): string | undefined {
  const s = node.settings.get(field);
  if (s?.kind !== 'scalar' || s.value === null) return undefined;
  return String(s.value);
}

export function numberSetting(node: NodeModel, field: string, dflt: number): number {
  const s = node.settings.get(field);
  if (s?.kind !== 'scalar') return dflt;
  const n = typeof s.value === 'number' ? s.value : Number(s.value);
  return Number.isFinite(n) ? n : dflt;
}

export function mapItems(node: NodeModel, field: string): Item[] {
  const s = node.settings.get(field);
  return s?.kind === 'map' ? s.items : [];
}

/** enforceNodeAllocatable, default ["pods"]. */
export function enforceItems(node: NodeModel): Item[] {
  const s = node.settings.get('enforceNodeAllocatable');
  if (s?.kind === 'list') return s.items;
  if (s?.kind === 'scalar' && s.value === null) return [];
  return [{ value: 'pods', text: 'pods', from: DEFAULT }];
}

/**
 * The kubelet's cgroup driver, and where it comes from when nothing sets it (`unset`): the kubelet's default, cgroupfs;
 * or, when kubeadm writes the kubelet's configuration from an Init/JoinConfiguration of the node and no config file of
 * the kubelet is read, kubeadm's default, systemd since 1.22 (kubernetes cmd/kubeadm/app/componentconfigs/kubelet.go
 * Default: an empty cgroupDriver becomes "systemd").
 */
export function cgroupDriver(node: NodeModel): { value: string; setting?: Setting; unset?: string } {
  const s = node.settings.get('cgroupDriver');
  if (s?.kind === 'scalar' && s.value !== null) return { value: String(s.value), setting: s };
  const kubeadmWrites = node.kubeadm.some((d) => d.kind === 'InitConfiguration' || d.kind === 'JoinConfiguration') && !node.configRefs.some((r) => r.flag === 'config' && r.resolved?.length);
  if (kubeadmWrites && compareVersions(node.kubernetesVersion, '1.22') >= 0) return { value: 'systemd', unset: "kubeadm's default (systemd since 1.22)" };
  return { value: 'cgroupfs', unset: 'the default (cgroupfs)' };
}

/**
 * Hard eviction thresholds in effect. The defaults apply only when nothing
 * sets evictionHard; setting any key drops the others' defaults unless
 * mergeDefaultEvictionSettings is true (1.33+).
 */
export function evictionHardItems(node: NodeModel): { items: Item[]; defaulted: boolean } {
  const s = node.settings.get('evictionHard');
  const defaults: Item[] = Object.entries(defaultEvictionHard(node.kubernetesVersion)).map(([key, value]) => ({
    key,
    value,
    text: value,
    from: DEFAULT,
  }));
  if (s?.kind !== 'map') return { items: defaults, defaulted: true };
  if (boolSetting(node, 'mergeDefaultEvictionSettings', false)) {
    const have = new Set(s.items.map((i) => i.key));
    return { items: [...defaults.filter((d) => !have.has(d.key)), ...s.items], defaulted: false };
  }
  return { items: s.items, defaulted: false };
}
