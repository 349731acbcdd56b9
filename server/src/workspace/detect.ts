import type { FileKind } from '../model/source.ts';
import { basename, dirname } from './paths.ts';

const UNIT_SECTION = /^\s*\[(Unit|Service|Install|Slice|Socket|Timer|Path|Mount)\]\s*$/m;
/** A variable named *KUBELET*, or one whose value starts with a flag: `KUBELET_EXTRA_ARGS=`, `ARGS="--v=2"`. */
const KUBELET_ENV = /^[ \t]*(?:[A-Za-z0-9_]*KUBELET[A-Za-z0-9_]*=|[A-Za-z_][A-Za-z0-9_]*=["']?[ \t]*--?[A-Za-z])/m;
const ENV_LINE = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=/m;

/**
 * What kind of file this is, from its path first and its content second.
 * Undefined means "not ours": the engine ignores it.
 */
export function detectKind(path: string, text: string): FileKind | undefined {
  const name = basename(path);
  const dir = basename(dirname(path));
  const lower = name.toLowerCase();
  const head = text.length > 65536 ? text.slice(0, 65536) : text;

  // A .service file is a unit whatever it holds: systemd reads it as one, and so do we (a broken header is a finding).
  if (lower.endsWith('.service')) return 'unit';
  if (/\.service\.d$/.test(dir) && lower.endsWith('.conf')) return 'dropin';
  if (lower.endsWith('.yaml') || lower.endsWith('.yml')) return yamlKind(head);
  if (lower.endsWith('.json')) return jsonKind(name, head);
  if (lower.endsWith('.toml')) return tomlKind(head);
  if (lower.endsWith('.conf')) {
    if (/^\s*\[crio(\.|\])/m.test(head) || lower === 'crio.conf' || dir === 'crio.conf.d') return 'crio';
    if (UNIT_SECTION.test(head)) return 'dropin';
    if (/^\s*(version\s*=|\[plugins)/m.test(head)) return 'containerd';
    // kubelet --config-dir drop-ins are YAML or JSON files named *.conf
    return yamlKind(head) ?? jsonKind(name, head);
  }
  if (name === 'kubelet' && (dir === 'default' || dir === 'sysconfig')) return 'envfile';
  // Any *.env file may be an EnvironmentFile= of some unit (k3s.service.env, rke2-server.env):
  // unreferenced, it is the kubelet's only if its name or its variables say so.
  // (A file an EnvironmentFile= of a kubelet unit names is read as an env file whatever this says.)
  if (lower.endsWith('.env')) return /kube/.test(lower) || KUBELET_ENV.test(head) ? 'envfile' : undefined;
  return undefined;
}

function yamlKind(text: string): FileKind | undefined {
  if (/^\s*apiVersion:\s*["']?kubeadm\.k8s\.io\//m.test(text)) return 'kubeadm-config';
  if (/^\s*kind:\s*["']?KubeletConfiguration\b/m.test(text)) return 'kubelet-config';
  return undefined;
}

function jsonKind(name: string, text: string): FileKind | undefined {
  if (/"kind"\s*:\s*"KubeletConfiguration"/.test(text)) return 'kubelet-config';
  if (name === 'daemon.json' || /"(exec-opts|storage-driver|log-driver|default-runtime|live-restore|data-root|log-opts)"\s*:/.test(text)) {
    return 'docker';
  }
  return undefined;
}

function tomlKind(text: string): FileKind | undefined {
  if (/^\s*\[crio(\.|\])/m.test(text)) return 'crio';
  if (/^\s*(version\s*=|\[plugins|\[grpc\]|root\s*=|state\s*=)/m.test(text)) return 'containerd';
  return undefined;
}

/** Files named by EnvironmentFile= are env files whatever their name. */
export function looksLikeEnvFile(text: string): boolean {
  return ENV_LINE.test(text.length > 65536 ? text.slice(0, 65536) : text);
}
