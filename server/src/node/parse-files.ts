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
  /** The first line ends in "\r\n": lines a fix or refactor adds end the same way. */
  crlf: boolean;
}

export function parseAs(src: SourceFile, kind: FileKind, opts?: { fragment?: boolean }): ParsedFile {
  const { path, text } = src;
  const nl = text.indexOf('\n');
  const out: ParsedFile = { path, kind, modelines: [], suppressions: [], problems: [], crlf: nl > 0 && text.charCodeAt(nl - 1) === 13 };
  switch (kind) {
    case 'unit':
    case 'dropin':
      out.unit = parseUnit(path, text);
      for (const x of out.unit.problems) out.problems.push(x);
      break;
    case 'envfile':
      out.env = parseEnvFile(path, text);
      for (const x of out.env.problems) out.problems.push(x);
      break;
    case 'kubelet-config':
    case 'kubeadm-config':
      out.config = parseConfigFile(path, text, opts);
      for (const x of out.config.problems) out.problems.push(x);
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
  if (out.runtime) for (const x of out.runtime.problems) out.problems.push(x);
  const json = kind === 'docker' || (out.config?.kubeletConfigs[0]?.format ?? (path.endsWith('.json') ? 'json' : 'yaml')) === 'json';
  // Both comment kinds start with "kubelet-lint": one scan of a large file tells that it has neither.
  if (!json && text.includes('kubelet-lint')) {
    const m = scanModelines(path, text);
    out.modelines = m.modelines;
    for (const x of m.problems) out.problems.push(x);
    const trailing = kind === 'kubelet-config' || kind === 'kubeadm-config' || kind === 'containerd' || kind === 'crio';
    out.suppressions = scanSuppressions(text, trailing);
  }
  return out;
}
