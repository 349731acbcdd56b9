/** The files a script's here-documents with a quoted delimiter write (an extractor independent of the carrier's). */
export function heredocFiles(script: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = script.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^cat > (\S+) <<'(\w+)'$/.exec(lines[i]);
    if (!m) continue;
    let body = '';
    for (i++; i < lines.length && lines[i] !== m[2]; i++) body += lines[i] + '\n';
    out[m[1]] = body;
  }
  return out;
}
