/**
 * Bottlerocket user data (TOML): the `[settings.kubernetes]` keys that Bottlerocket renders into the kubelet's
 * KubeletConfiguration (bottlerocket-os/bottlerocket-core-kit packages/kubernetes-1.30/kubelet-config, read at commit
 * 097546f3). Each kebab-case key becomes the field the template writes it to, with the key's and the value's own
 * positions, so every KubeletConfiguration rule applies at the user's line. Bottlerocket's own values (the rest of
 * the template, and the kube-reserved it computes) are node/platform.ts's. Keys that are not kubelet fields
 * (node-taints, node-labels, api-server, ...) are not read.
 */
import { parse as parseToml, TomlError } from 'smol-toml';
import { LineIndex, type Span } from '../../model/range.ts';
import { finding, type Finding } from '../../model/finding.ts';
import type { ConfigFileParse, ConfigNode, KubeadmDoc, MapEntry, PlatformInfo } from '../../parse/types.ts';
import { locateToml, TOML_PATH_SEP } from '../../parse/runtime.ts';
import { hasMask, maskTemplates, scanTemplates } from '../../parse/template.ts';

/** settings.kubernetes key -> KubeletConfiguration field, as the kubelet-config template writes it. */
const FIELDS: Record<string, string> = {
  'max-pods': 'maxPods',
  'kube-reserved': 'kubeReserved',
  'system-reserved': 'systemReserved',
  'eviction-hard': 'evictionHard',
  'eviction-soft': 'evictionSoft',
  'eviction-soft-grace-period': 'evictionSoftGracePeriod',
  'eviction-max-pod-grace-period': 'evictionMaxPodGracePeriod',
  'allowed-unsafe-sysctls': 'allowedUnsafeSysctls',
  'registry-qps': 'registryPullQPS',
  'registry-burst': 'registryBurst',
  'event-qps': 'eventRecordQPS',
  'event-burst': 'eventBurst',
  'kube-api-qps': 'kubeAPIQPS',
  'kube-api-burst': 'kubeAPIBurst',
  'cpu-cfs-quota-enforced': 'cpuCFSQuota',
  'cpu-manager-policy': 'cpuManagerPolicy',
  'cpu-manager-reconcile-period': 'cpuManagerReconcilePeriod',
  'topology-manager-scope': 'topologyManagerScope',
  'topology-manager-policy': 'topologyManagerPolicy',
  'pod-pids-limit': 'podPidsLimit',
  'image-gc-high-threshold-percent': 'imageGCHighThresholdPercent',
  'image-gc-low-threshold-percent': 'imageGCLowThresholdPercent',
  'container-log-max-size': 'containerLogMaxSize',
  'container-log-max-files': 'containerLogMaxFiles',
  'container-log-max-workers': 'containerLogMaxWorkers',
  'container-log-monitor-interval': 'containerLogMonitorInterval',
  'shutdown-grace-period': 'shutdownGracePeriod',
  'shutdown-grace-period-for-critical-pods': 'shutdownGracePeriodCriticalPods',
  'reserved-cpus': 'reservedSystemCPUs',
  'seccomp-default': 'seccompDefault',
  'image-minimum-gc-age': 'imageMinimumGCAge',
  'image-maximum-gc-age': 'imageMaximumGCAge',
  'max-parallel-image-pulls': 'maxParallelImagePulls',
  'cluster-domain': 'clusterDomain',
  // A string or a list; the template writes a list (clusterDNS), so a string is read as a list of one.
  'cluster-dns-ip': 'clusterDNS',
};

/**
 * settings.kubernetes maps Bottlerocket passes to the kubelet as flags (its kubelet unit's environment:
 * KUBELET_NODE_LABELS, KUBELET_TAINTS): a label `key = "value"` is `key=value` of `--node-labels`, a taint
 * `key = "value:Effect"` (or a list of them) is `key=value:Effect` of `--register-with-taints`. Each map is joined
 * into one comma list, so the kubelet gets each flag once (bottlerocket-core-kit's `join_node_taints` and `join_map`
 * helpers in its kubelet environment template): three taints are one flag, not a flag given three times.
 */
const FLAG_MAPS: Record<string, string> = { 'node-labels': 'node-labels', 'node-taints': 'register-with-taints' };

const BASE = ['settings', 'kubernetes'];

export function parseBottlerocket(path: string, text: string): ConfigFileParse {
  const lines = new LineIndex(text);
  const problems: Finding[] = [];
  const out: ConfigFileParse = { path, kubeletConfigs: [], kubeadm: [], problems };
  let data: Record<string, unknown>;
  // User data kept as a template (Terraform templatefile `%{ if }` lines, `${var}` values; Helm, Jinja) is read as the
  // file it renders: expressions masked with same-length stand-ins (parse/template.ts), so places stay exact; a masked
  // value is unknown, not read.
  const exprs = /\$\{|%\{|\{\{|\{%/.test(text) ? scanTemplates(text, { dollar: true }) : [];
  if (exprs.length) text = maskTemplates(text, exprs, true).text;
  try {
    data = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const line = e instanceof TomlError ? Math.max(0, (e.line ?? 1) - 1) : 0;
    const msg = String((e as Error).message).split('\n')[0].replace(/^Invalid TOML document:\s*/i, '');
    problems.push(finding('config-syntax', 'error', { file: path, range: { start: { line, character: 0 }, end: { line, character: lines.lineText(line).length } } },
      `Bottlerocket cannot read this TOML: ${msg}. It rejects user data it cannot parse.`));
    return out;
  }
  const k8s = (data.settings as Record<string, unknown> | undefined)?.kubernetes as Record<string, unknown> | undefined;
  if (!k8s || typeof k8s !== 'object') return out;
  const loc = locateToml(text);
  const span = (s: number, e: number): Span => ({ file: path, range: lines.range(s, e) });
  const keyAt = (p: string[]): Span | undefined => {
    const l = loc.get(p.join(TOML_PATH_SEP));
    if (l) return span(l.keyStart, l.keyEnd);
    // A sub-table: its header `[settings.kubernetes.<key>]`.
    const last = p[p.length - 1];
    const m = new RegExp(`^\\[[ \\t]*settings\\.kubernetes\\.(?:"${escape(last)}"|${escape(last)})[ \\t]*\\]`, 'm').exec(text);
    if (!m) return undefined;
    const at = m.index + m[0].lastIndexOf(last);
    return span(at, at + last.length);
  };
  const node = (v: unknown, p: string[], fallback: Span): ConfigNode | undefined => {
    const l = loc.get(p.join(TOML_PATH_SEP));
    const where = l ? span(l.valueStart, l.valueEnd) : fallback;
    // A template's value (masked) is unknown until rendered: not read.
    if (typeof v === 'string' && hasMask(v)) return undefined;
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return { kind: 'scalar', value: v, source: String(v), span: where };
    if (Array.isArray(v)) {
      const items = v.flatMap((x) => (typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? [{ kind: 'scalar' as const, value: x, source: String(x), span: where }] : []));
      return { kind: 'seq', items, span: where };
    }
    if (v && typeof v === 'object') {
      const entries: MapEntry[] = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        const keySpan = keyAt([...p, k]) ?? where;
        const value = node(x, [...p, k], keySpan);
        if (value) entries.push({ key: k, keySpan, value });
      }
      return { kind: 'map', entries, span: where };
    }
    return undefined;
  };
  const entries: MapEntry[] = [];
  let first: Span | undefined;
  const platform: PlatformInfo = { tool: 'bottlerocket', span: { file: path, range: lines.range(0, 0) }, gates: [] };
  for (const [key, v] of Object.entries(k8s)) {
    const field = FIELDS[key];
    if (!field) continue;
    const keySpan = keyAt([...BASE, key]);
    if (!keySpan) continue;
    first ??= keySpan;
    let value = node(v, [...BASE, key], keySpan);
    if (!value) continue;
    if (field === 'clusterDNS' && value.kind === 'scalar') value = { kind: 'seq', items: [value], span: value.span };
    entries.push({ key: field, keySpan, value });
    if (key === 'max-pods' && typeof v === 'number') platform.facts = { ...platform.facts, maxPods: v };
    if (key === 'reserved-cpus') platform.facts = { ...platform.facts, reservedCpus: true };
    if (key === 'system-reserved') platform.facts = { ...platform.facts, systemReserved: true };
  }
  const args: KubeadmDoc['kubeletExtraArgs'] = [];
  for (const [key, flag] of Object.entries(FLAG_MAPS)) {
    const m = k8s[key];
    if (!m || typeof m !== 'object' || Array.isArray(m)) continue;
    const items: string[] = [];
    let nameSpan: Span | undefined;
    let from: number | undefined;
    let to: number | undefined;
    for (const [k, v] of Object.entries(m as Record<string, unknown>)) {
      const keySpan = keyAt([...BASE, key, k]);
      if (!keySpan) continue;
      first ??= keySpan;
      nameSpan ??= keySpan;
      const l = loc.get([...BASE, key, k].join(TOML_PATH_SEP));
      for (const one of Array.isArray(v) ? v : [v]) {
        if (typeof one !== 'string' || hasMask(one) || hasMask(k)) continue;
        items.push(`${k}=${one}`);
        if (l) {
          from = Math.min(from ?? l.valueStart, l.valueStart);
          to = Math.max(to ?? l.valueEnd, l.valueEnd);
        }
      }
    }
    if (!items.length || !nameSpan) continue;
    // One flag: its value spans the entries it is joined from.
    args.push({ name: flag, value: items.join(','), nameSpan, valueSpan: from !== undefined && to !== undefined ? span(from, to) : nameSpan });
  }
  if (!first) return out;
  platform.span = first;
  if (args.length) out.kubeadm.push({ path, apiVersion: 'bottlerocket', kind: 'Bottlerocket settings', argsLabel: 'settings.kubernetes', kubeletExtraArgs: args, span: first });
  const all = span(0, text.length);
  out.kubeletConfigs.push({ path, format: 'toml', root: { kind: 'map', entries, span: all }, docIndex: 0, span: all });
  out.platform = platform;
  return out;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
