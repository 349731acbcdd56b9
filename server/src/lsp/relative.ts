/**
 * Paths in messages and hovers as the CLI prints them: relative to the workspace folder. The engine works on the
 * absolute paths the editor gives; the text the user reads names `etc/default/kubelet`, not `/home/.../etc/default/kubelet`.
 * With several folders, each path keeps its folder's name in front, as VS Code's labels do.
 */

export function relativizer(folders: () => readonly string[]): (text: string) => string {
  return (text) => {
    const list = folders();
    if (list.length === 0) return text;
    let out = text;
    for (const f of [...list].sort((a, b) => b.length - a.length)) {
      const root = f.endsWith('/') ? f : `${f}/`;
      if (out.includes(root)) out = out.split(root).join(list.length > 1 ? `${basename(f)}/` : '');
    }
    return out;
  };
}

/** The last segment of a POSIX folder path (a trailing slash ignored). */
function basename(folder: string): string {
  let f = folder;
  while (f.length > 1 && f.endsWith('/')) f = f.slice(0, -1);
  return f.slice(f.lastIndexOf('/') + 1);
}
