/** The `kubeletConfig.*` settings and what they mean for the analysis. */
import type { AnalyzeOptions } from '../engine.ts';
import type { SeverityOverride } from '../features/diagnostics.ts';
import { parseCapacity } from '../node/capacity.ts';
import { engine } from './engine-loader.ts';
import { parseKubernetesVersion, parseSystemdVersion } from '../catalog/version.ts';

export interface Settings {
  nodeCapacity: string;
  kubernetesVersion: string;
  systemdVersion: string;
  rules: Record<string, string>;
  debounceMs: number;
}

export const DEFAULT_SETTINGS: Settings = { nodeCapacity: '', kubernetesVersion: '', systemdVersion: '', rules: {}, debounceMs: 150 };

const LEVELS = new Set(['off', 'error', 'warning', 'information', 'hint']);

/** Reads a settings object leniently (wrong types fall back to the defaults). */
export function readSettings(raw: unknown, base: Settings = DEFAULT_SETTINGS): Settings {
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    nodeCapacity: typeof o.nodeCapacity === 'string' ? o.nodeCapacity : base.nodeCapacity,
    kubernetesVersion: typeof o.kubernetesVersion === 'string' ? o.kubernetesVersion : base.kubernetesVersion,
    systemdVersion: typeof o.systemdVersion === 'string' ? o.systemdVersion : typeof o.systemdVersion === 'number' ? String(o.systemdVersion) : base.systemdVersion,
    rules: o.rules && typeof o.rules === 'object' ? (o.rules as Record<string, string>) : base.rules,
    debounceMs: typeof o.debounceMs === 'number' && o.debounceMs >= 0 ? o.debounceMs : base.debounceMs,
  };
}

export interface Effective {
  options: AnalyzeOptions;
  overrides: Map<string, SeverityOverride>;
  problems: string[];
  /** Why kubeletConfig.nodeCapacity cannot be read, when it is set but invalid. */
  capacityProblem?: string;
}

export function toAnalysisOptions(s: Settings): Effective {
  const problems: string[] = [];
  const options: AnalyzeOptions = {};
  let capacityProblem: string | undefined;
  if (s.nodeCapacity.trim()) {
    // A name that is no preset may be an instance type: only the engine bundle carries that table.
    let c = parseCapacity(s.nodeCapacity);
    if (!c.ok && c.unknownName) c = engine().parseCapacityOrType(s.nodeCapacity);
    if (c.ok) {
      options.capacity = c.capacity;
      // The views say where the capacity came from: the setting, by name (otherwise "capacity given to the analysis").
      options.capacitySource = c.source ? `${c.source} (the kubeletConfig.nodeCapacity setting)` : 'the kubeletConfig.nodeCapacity setting';
    }
    else {
      capacityProblem = `"${s.nodeCapacity}": ${c.error}`;
      problems.push(`kubeletConfig.nodeCapacity ${capacityProblem}`);
    }
  }
  const v = s.kubernetesVersion.trim();
  if (v) {
    const minor = parseKubernetesVersion(v);
    if (minor) {
      options.kubernetesVersion = minor;
      options.kubernetesVersionSource = 'the kubeletConfig.kubernetesVersion setting';
    } else problems.push(`kubeletConfig.kubernetesVersion "${v}" is not a version like 1.31`);
  }
  const sv = s.systemdVersion.trim();
  if (sv) {
    const n = parseSystemdVersion(sv);
    if (n !== undefined) options.systemdVersion = n;
    else problems.push(`kubeletConfig.systemdVersion "${sv}" is not a systemd version like 252`);
  }
  const overrides = new Map<string, SeverityOverride>();
  const disabled = new Set<string>();
  for (const [id, level] of Object.entries(s.rules)) {
    if (!LEVELS.has(level)) {
      problems.push(`kubeletConfig.rules.${id}: "${level}" is not one of off, error, warning, information, hint`);
      continue;
    }
    if (level === 'off') disabled.add(id);
    overrides.set(id, level as SeverityOverride);
  }
  if (disabled.size) options.disabledRules = disabled;
  return { options, overrides, problems, ...(capacityProblem ? { capacityProblem } : {}) };
}
