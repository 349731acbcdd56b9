/**
 * Suppression comments:
 *
 *   # kubelet-lint-disable-next-line reserved-cgroup-missing,flag-deprecated
 *   cgroupDriver: cgroupfs  # kubelet-lint-disable-line cgroup-driver-mismatch
 *
 *   # kubelet-lint-disable-file flag-deprecated
 *
 * Without ids every rule is silenced on that line (or in the whole file).
 * `disable-next-line` and `disable-file` must be a whole comment line; `disable-line` needs a trailing comment, which YAML
 * and TOML have but systemd does not (there `#` after a value is part of it).
 */
import { linesWith } from './marked-lines.ts';
import { DISABLE_FILE, DISABLE_LINE, DISABLE_NEXT_LINE, FILE_WIDE } from '../model/suppression.ts';

export { FILE_WIDE };

export interface Suppression {
  /** 0-based line whose findings are silenced; FILE_WIDE for every line of the file. */
  line: number;
  /** Rule ids, or undefined for all. */
  ids?: Set<string>;
}

const NEXT = DISABLE_NEXT_LINE;
const SAME = DISABLE_LINE;
const FILE = DISABLE_FILE;

export function scanSuppressions(text: string, trailingComments: boolean): Suppression[] {
  const out: Suppression[] = [];
  if (!text.includes('kubelet-lint-disable')) return out;
  for (const { line, raw } of linesWith(text, 'kubelet-lint-disable')) {
    const next = raw.indexOf(NEXT);
    const file = raw.indexOf(FILE);
    if (next !== -1 && /^\s*[#;]/.test(raw)) {
      out.push({ line: line + 1, ids: ids(raw.slice(next + NEXT.length)) });
    } else if (file !== -1 && /^\s*[#;]/.test(raw)) {
      out.push({ line: FILE_WIDE, ids: ids(raw.slice(file + FILE.length)) });
    } else if (trailingComments) {
      const same = raw.indexOf(SAME);
      if (same !== -1 && raw.lastIndexOf('#', same) !== -1) out.push({ line, ids: ids(raw.slice(same + SAME.length)) });
    }
  }
  return out;
}

function ids(rest: string): Set<string> | undefined {
  const list = rest.split(/[\s,]+/).filter((s) => /^[a-z][a-z0-9-]*$/.test(s));
  return list.length ? new Set(list) : undefined;
}
