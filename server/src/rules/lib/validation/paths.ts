/**
 * validation.go on podLogsDir (1.30+): absolute, already clean
 * (utilfs.IsPathClean: filepath.Clean(p) == p) and ASCII only, because the path
 * ends up in metric labels. An empty value in the file is defaulted to
 * /var/log/pods before validation, so only a written non-empty value can fail.
 */
import { fieldValue } from '../../../node/config-value.ts';
import type { NodeModel } from '../../../node/model.ts';
import type { Bad } from './common.ts';

/** Go's path.Clean (filepath.Clean on Linux). */
export function goCleanPath(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(part);
  }
  const s = out.join('/');
  return rooted ? '/' + s : s === '' ? '.' : s;
}

export function checkPodLogsDir(node: NodeModel, bad: Bad): void {
  const v = fieldValue(node, 'podLogsDir');
  if (!v || typeof v.value !== 'string' || v.value === '') return;
  const p = v.value;
  if (!p.startsWith('/')) bad(v.span, `podLogsDir "${p}" is relative, but must be an absolute path`, `invalid configuration: pod logs path "${p}" must be absolute path`);
  else if (goCleanPath(p) !== p) bad(v.span, `podLogsDir "${p}" must be written in clean form ("${goCleanPath(p)}")`, `invalid configuration: pod logs path "${p}" must be normalized`);
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(p)) bad(v.span, `podLogsDir "${p}" may hold ASCII characters only`, `invalid configuration: pod logs path "${p}" mut contains ASCII characters only`);
}
