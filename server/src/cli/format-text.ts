/** Human output: findings grouped by file, then an allocatable table per node. */
import type { Analysis, NodeResult } from '../engine.ts';
import type { Finding, Severity } from '../model/finding.ts';
import { knownPart, RESOURCES } from '../node/allocatable.ts';
import { formatAmount } from '../rules/lib/format.ts';
import { counts } from './report.ts';
import { templateNote } from '../features/allocatable-view.ts';
import { readablePath } from '../features/locate.ts';

interface Paint {
  (code: string, s: string): string;
}

/**
 * A name or message as one line of the report: control characters (a newline in a file name, an escape sequence)
 * are written as escapes, so nothing in a file's name or content can forge or recolour report lines.
 */
export function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const h = c.charCodeAt(0).toString(16);
    return c.charCodeAt(0) < 0x100 ? `\\x${h.padStart(2, '0')}` : `\\u${h}`;
  });
}

const SEVERITY_COLOR: Record<Severity, string> = { error: '31', warning: '33', information: '36', hint: '2' };

export function formatText(analysis: Analysis, color: boolean, hints = false): string {
  const paint: Paint = color ? (c, s) => `\x1b[${c}m${s}\x1b[0m` : (_c, s) => s;
  const lines: string[] = [];
  const byFile = new Map<string, Finding[]>();
  for (const f of analysis.findings) {
    if (f.severity === 'hint' && !hints) continue;
    byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  }
  for (const [file, list] of byFile) {
    lines.push(paint('1;4', printable(file)));
    for (const f of list) {
      const where = `${f.range.start.line + 1}:${f.range.start.character + 1}`.padEnd(8);
      const sev = paint(SEVERITY_COLOR[f.severity], f.severity.padEnd(11));
      lines.push(`  ${paint('2', where)}${sev} ${printable(f.message)} ${paint('2', `[${f.code}]`)}`);
      for (const fix of f.fixes ?? []) lines.push(`  ${' '.repeat(19)}${paint('32', 'fix:')} ${printable(fix.title)}`);
    }
    lines.push('');
  }
  for (const n of analysis.nodes) lines.push(...nodeTable(n, paint), '');
  const c = counts(analysis);
  const summary = [
    `${c.error} error${c.error === 1 ? '' : 's'}`,
    `${c.warning} warning${c.warning === 1 ? '' : 's'}`,
    `${c.information} info`,
    `${c.hint} hint${c.hint === 1 ? '' : 's'}${c.hint && !hints ? ' (shown with --hints)' : ''}`,
  ].join(', ');
  lines.push(`${c.error ? paint('31;1', summary) : paint('32;1', summary)} in ${byFile.size} file${byFile.size === 1 ? '' : 's'}; ${analysis.nodes.length} node${analysis.nodes.length === 1 ? '' : 's'}`);
  return lines.join('\n') + '\n';
}

function nodeTable({ node, allocatable: a }: NodeResult, paint: Paint): string[] {
  const out: string[] = [];
  out.push(`${paint('1', 'Node')} ${printable(readablePath(node.id))}${node.files.length > 1 ? paint('2', ` (+${node.files.length - 1} file${node.files.length === 2 ? '' : 's'})`) : ''}`);
  // A node with files the tool could not read is incomplete: said before its numbers (issue #37).
  for (const u of node.unread ?? []) out.push(paint('33', `  incomplete: ${printable(u.shown)} was not read (${u.why})`));
  const header = ['resource', 'capacity', 'kube-reserved', 'system-reserved', 'eviction-hard', 'allocatable'];
  const rows: string[][] = [];
  for (const r of RESOURCES) {
    const l = a.lines[r];
    const ev =
      r === 'cpu'
        ? '-'
        : l.evictionText
          ? `${l.eviction !== undefined ? formatAmount(r, l.eviction) : '?'} (${l.evictionText}${l.evictionDefault ? ', default' : ''})`
          : '0';
    rows.push([
      r,
      l.capacity !== undefined ? formatAmount(r, l.capacity) : '?',
      amountOrUnknown(r, knownPart(l, 'kubeReserved')),
      amountOrUnknown(r, knownPart(l, 'systemReserved')),
      ev,
      l.allocatable !== undefined ? formatAmount(r, l.allocatable) : '?',
    ]);
  }
  const pods = a.podsUnknown ? '?' : a.pods.toString();
  rows.push(['pods', a.hasCapacity ? pods : '?', '', '', '', pods]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) => '  ' + row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  out.push(paint('2', fmt(header)));
  for (const row of rows) out.push(fmt(row));
  if (!a.hasCapacity) {
    out.push(
      paint('2', '  allocatable = capacity - kube-reserved - system-reserved - hard eviction (memory.available, nodefs.available).'),
      paint('2', '  Give a capacity to compute it: --capacity cpu=16,memory=64Gi,ephemeral-storage=200Gi or a "# kubelet-lint: capacity ..." line.'),
    );
  } else {
    out.push(paint('2', `  capacity from ${node.capacitySource}; kubelet ${node.kubernetesVersion}${node.kubernetesVersionSource ? ` (from ${node.kubernetesVersionSource})` : ''}`));
  }
  if (a.ignoreEviction) out.push(paint('2', '  --experimental-allocatable-ignore-eviction: hard eviction thresholds are not subtracted.'));
  const unknown = templateNote(a);
  if (unknown) out.push(paint('2', `  ${unknown}`));
  return out;
}

/** An amount, or `?` for one a template expression makes unknown. */
function amountOrUnknown(r: (typeof RESOURCES)[number], amount: bigint | undefined): string {
  return amount === undefined ? '?' : formatAmount(r, amount);
}
