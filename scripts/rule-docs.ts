/**
 * Generates, from the rules' metadata (server/src/rules/index.ts and
 * parser-codes.ts): the index of docs/rules/README.md, the rule table of
 * README.md, and the header line of every page (`Severity: ... · Fix: ...`).
 * `npm run docs` writes them; test/unit/rule-docs-generated.test.ts fails when
 * a file differs from what this would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../server/src/registry.ts';
import { PARSER_CODES } from '../server/src/registry.ts';
import type { RuleArea, RuleMeta } from '../server/src/rules/types.ts';

/** The sections of the index, in order. */
export const AREAS: Record<RuleArea, { title: string; blurb: string }> = {
  reservation: { title: 'Reservation & enforcement', blurb: 'Node Allocatable: what is reserved, and what the kubelet enforces on which cgroup.' },
  eviction: { title: 'Eviction', blurb: 'Hard and soft eviction thresholds, grace periods and defaults.' },
  'cgroup-driver': { title: 'Cgroup driver', blurb: 'The kubelet and the container runtime must drive cgroups the same way.' },
  'flags-fields': { title: 'Flags & fields', blurb: 'Command-line flags, KubeletConfiguration fields and feature gates.' },
  'systemd-files': { title: 'systemd & files', blurb: 'How systemd assembles the command line from the unit, its drop-ins and environment files.' },
  parsers: {
    title: 'Parsers',
    blurb: 'Findings of the file readers themselves (not in the rule list; their severity can still be changed or turned off by id like any rule).',
  },
};

/** Every documented code: the rules, then the parsers' codes. */
export const ALL_CODES: readonly RuleMeta[] = [...RULES, ...PARSER_CODES];

export function severities(m: RuleMeta): readonly string[] {
  return typeof m.severity === 'string' ? [m.severity] : m.severity;
}

export function headerLine(m: RuleMeta): string {
  return `Severity: ${severities(m).join(' or ')} · Fix: ${m.fix ? m.fixDoes ?? '(describe the quick fix in fixDoes)' : 'none'}`;
}

function between(text: string, name: string, body: string, file: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a === -1 || b < a) throw new Error(`${file} lacks the ${start} ... ${end} markers`);
  return text.slice(0, a + start.length) + '\n' + body + '\n' + text.slice(b);
}

function indexBody(): string {
  const parts: string[] = [];
  for (const [area, { title, blurb }] of Object.entries(AREAS) as [RuleArea, (typeof AREAS)[RuleArea]][]) {
    const rows = ALL_CODES.filter((m) => m.area === area).map((m) => `| [\`${m.id}\`](${m.id}.md) | ${severities(m).join(' or ')} | ${m.fix ? 'yes' : ''} | ${m.summary} |`);
    if (rows.length === 0) continue;
    parts.push(`## ${title}\n\n${blurb}\n\n| id | severity | quick fix | summary |\n|---|---|---|---|\n${rows.join('\n')}`);
  }
  return '\n' + parts.join('\n\n') + '\n';
}

function readmeBody(): string {
  const rows = RULES.map((r) => `| \`${r.id}\` | ${severities(r).join(' or ')} | ${r.fix ? 'yes' : ''} | ${r.summary} |`);
  const parsers = PARSER_CODES.map((m) => `\`${m.id}\``).join(', ');
  return [
    '| id | severity | quick fix | what it catches |',
    '|---|---|---|---|',
    ...rows,
    '',
    `The file readers add their own findings: ${parsers}.`,
  ].join('\n');
}

/** Every generated file (path relative to `root`) with the text it should have. */
export function generated(root: string): { path: string; text: string }[] {
  const read = (p: string) => readFileSync(join(root, p), 'utf8');
  const out = [
    { path: 'README.md', text: between(read('README.md'), 'rules', readmeBody(), 'README.md') },
    { path: 'docs/rules/README.md', text: between(read('docs/rules/README.md'), 'index', indexBody(), 'docs/rules/README.md') },
  ];
  for (const m of ALL_CODES) {
    const path = `docs/rules/${m.id}.md`;
    let text: string;
    try {
      text = read(path);
    } catch {
      text = `# ${m.id}\n\n## What it catches\n\n## Why\n\n## Example\n\n## Fix\n`;
    }
    const lines = text.split('\n');
    const header = headerLine(m);
    if (/^Severity: /.test(lines[1] ?? '')) lines[1] = header;
    else lines.splice(1, 0, header);
    out.push({ path, text: lines.join('\n') });
  }
  return out;
}

if (process.argv[1] && /rule-docs\.ts$/.test(process.argv[1])) {
  const root = join(__dirname, '..');
  let changed = 0;
  for (const f of generated(root)) {
    let old = '';
    try {
      old = readFileSync(join(root, f.path), 'utf8');
    } catch {}
    if (old === f.text) continue;
    writeFileSync(join(root, f.path), f.text);
    changed++;
    console.log(`wrote ${f.path}`);
  }
  if (!changed) console.log('rule docs are up to date');
}
