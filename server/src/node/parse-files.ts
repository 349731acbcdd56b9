/** Text -> per-kind parse. Every file is parsed once; later stages only read the results. */
import type { FileKind, SourceFile } from '../model/source.ts';
import type { Finding } from '../model/finding.ts';
import type { ConfigFileParse, EnvFile, RuntimeConfigParse, UnitFile } from '../parse/types.ts';
import { parseUnit } from '../parse/systemd/unit.ts';
import { parseEnvFile } from '../parse/systemd/envfile.ts';
import { parseConfigFile } from '../parse/config.ts';
import { parseContainerdConfig, parseCrioConfig, parseDockerDaemonJson } from '../parse/runtime.ts';
import { scanModelines, type Modeline } from '../parse/modeline.ts';
import { scanSuppressions, type Suppression } from '../parse/suppressions.ts';

export interface ParsedFile {
  path: string;
  kind: FileKind;
  unit?: UnitFile;
  env?: EnvFile;
  config?: ConfigFileParse;
  runtime?: RuntimeConfigParse;
  modelines: Modeline[];
  suppressions: Suppression[];
  problems: Finding[];
}

export function parseAs(src: SourceFile, kind: FileKind, opts?: { fragment?: boolean }): ParsedFile {
  const { path, text } = src;
  const out: ParsedFile = { path, kind, modelines: [], suppressions: [], problems: [] };
  switch (kind) {
    case 'unit':
    case 'dropin':
      out.unit = parseUnit(path, text);
      out.problems.push(...out.unit.problems);
      break;
    case 'envfile':
      out.env = parseEnvFile(path, text);
      out.problems.push(...out.env.problems);
      break;
    case 'kubelet-config':
    case 'kubeadm-config':
      out.config = parseConfigFile(path, text, opts);
      out.problems.push(...out.config.problems);
      break;
    case 'containerd':
      out.runtime = parseContainerdConfig(path, text);
      break;
    case 'docker':
      out.runtime = parseDockerDaemonJson(path, text);
      break;
    case 'crio':
      out.runtime = parseCrioConfig(path, text);
      break;
  }
  if (out.runtime) out.problems.push(...out.runtime.problems);
  const json = kind === 'docker' || (out.config?.kubeletConfigs[0]?.format ?? (path.endsWith('.json') ? 'json' : 'yaml')) === 'json';
  if (!json) {
    const m = scanModelines(path, text);
    out.modelines = m.modelines;
    out.problems.push(...m.problems);
    const trailing = kind === 'kubelet-config' || kind === 'kubeadm-config' || kind === 'containerd' || kind === 'crio';
    out.suppressions = scanSuppressions(text, trailing);
  }
  return out;
}
