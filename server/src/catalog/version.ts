/**
 * A target version as the user writes it (`1.31`, `v1.31`, `1.31.4`) -> the
 * minor version the catalog works with (`1.31`), or undefined when it is not one.
 * The CLI, the editor settings and the modeline all read it this way. A module of
 * its own: the language server's settings read it before the engine (and the flag
 * catalog, 88 KB of the bundle) is loaded.
 */
export function parseKubernetesVersion(text: string): string | undefined {
  const m = /^v?(1\.\d+)(?:\.\d+)?$/.exec(text.trim());
  return m ? m[1] : undefined;
}

/** A systemd version as the settings, the CLI and modelines write it: a major number like 252 (or "v252"). */
export function parseSystemdVersion(text: string): number | undefined {
  const m = /^v?(\d{2,4})(\.\d+)*$/.exec(text.trim());
  return m ? Number(m[1]) : undefined;
}
