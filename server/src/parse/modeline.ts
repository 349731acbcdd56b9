/**
 * Modelines: per-node settings written as comments in any file of the node.
 *
 *   # kubelet-lint: capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi,pods=110
 *   # kubelet-lint: kubernetes-version 1.31
 *   # kubelet-lint: systemd-version 252
 *
 * A comment is a line whose first non-blank character is `#` (or `;` in
 * systemd files). JSON has no comments, so JSON files carry no modelines.
 */
import { finding, type Finding } from '../model/finding.ts';
import type { Span } from '../model/range.ts';
import { linesWith } from './marked-lines.ts';

export interface Modeline {
  setting: 'capacity' | 'kubernetes-version' | 'systemd-version';
  value: string;
  span: Span; // the value
}

const MARK = 'kubelet-lint:';
const SETTINGS = new Set(['capacity', 'kubernetes-version', 'systemd-version']);


export function scanModelines(path: string, text: string): { modelines: Modeline[]; problems: Finding[] } {
  const modelines: Modeline[] = [];
  const problems: Finding[] = [];
  if (!text.includes(MARK)) return { modelines, problems };
  for (const { line, raw } of linesWith(text, MARK)) {
    const m = raw.indexOf(MARK);
    if (m !== -1 && /^\s*[#;]/.test(raw)) {
      const rest = raw.slice(m + MARK.length);
      const body = rest.trimStart();
      const bodyAt = m + MARK.length + (rest.length - body.length);
      const sp = body.search(/\s/);
      const setting = sp === -1 ? body.trimEnd() : body.slice(0, sp);
      const value = sp === -1 ? '' : body.slice(sp).trim();
      const valueAt = sp === -1 ? bodyAt + body.length : raw.indexOf(value, bodyAt + sp);
      const span: Span = {
        file: path,
        range: { start: { line, character: valueAt }, end: { line, character: valueAt + value.length } },
      };
      if (!SETTINGS.has(setting) || value === '') {
        problems.push(
          finding(
            'modeline-invalid',
            'warning',
            { file: path, range: { start: { line, character: m }, end: { line, character: raw.trimEnd().length } } },
            `This kubelet-lint modeline is not understood: expected "kubelet-lint: capacity cpu=16,memory=64Gi,..." , "kubelet-lint: kubernetes-version 1.31" or "kubelet-lint: systemd-version 252".`,
          ),
        );
      } else {
        modelines.push({ setting: setting as Modeline['setting'], value, span });
      }
    }
  }
  return { modelines, problems };
}
