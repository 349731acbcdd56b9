/**
 * docs/rules/: one page per rule id and per parser finding code.
 *
 * Page convention (docs/rules/README.md explains it to writers):
 *   - `# <id>`, then `Severity: <sev>[ or <sev>] · Fix: <what the quick fix does | none>`;
 *   - headings `## What it catches`, `## Why`, `## Example`, `## Fix`;
 *   - fenced blocks whose info string holds `path=<file>` and the role
 *     `example`, `fix` or both: the `example` blocks, analysed together with the
 *     engine, must produce the page's id (with the page's severity); the `fix`
 *     blocks must not produce it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import { RULES } from '../../server/src/registry.ts';
import { PARSER_CODES } from '../../server/src/registry.ts';
import type { RuleMeta } from '../../server/src/rules/types.ts';
import { toDiagnostic } from '../../server/src/features/diagnostics.ts';
import { codeActions } from '../../server/src/features/code-actions.ts';
import { assertShortPoints } from '../helpers/messages.ts';
import { fixProblem } from '../../server/src/features/fix-check.ts';
import type { Finding, Fix } from '../../server/src/model/finding.ts';

const DOCS = join(__dirname, '../../docs/rules');
const SRC = join(__dirname, '../../server/src');

/** Ids whose example cannot be written out in a page (with the reason); tested separately below. */
const NOT_WRITABLE: Record<string, string> = {
  'unit-line-too-long': 'needs a 1 MiB line',
  'envfile-invalid-text': 'needs an invisible Unicode non-character',
  'exec-argv-too-long': 'needs 2 MiB of arguments (test/unit/exec-argv-size.test.ts)',
  'kubelet-args-not-checked': 'needs more than 10,000 arguments (test/unit/limits.test.ts)',
};

const SEVERITIES = new Set(['error', 'warning', 'information', 'hint']);
const HEADINGS = ['## What it catches', '## Why', '## Example', '## Fix'];

interface Block {
  lang: string;
  path: string;
  roles: Set<string>;
  text: string;
}

interface Page {
  id: string;
  text: string;
  severities: string[];
  fix: string;
  blocks: Block[];
}

function readPage(id: string): Page {
  const text = readFileSync(join(DOCS, `${id}.md`), 'utf8');
  const lines = text.split('\n');
  assert.equal(lines[0], `# ${id}`, `${id}.md must start with "# ${id}"`);
  const sev = /^Severity: ([a-z]+)(?: or ([a-z]+))? · Fix: (.+)$/.exec(lines[1] ?? '');
  assert.ok(sev, `${id}.md line 2 must read "Severity: <severity> · Fix: <fix | none>", got: ${lines[1]}`);
  const severities = [sev[1], sev[2]].filter((s): s is string => !!s);
  for (const s of severities) assert.ok(SEVERITIES.has(s), `${id}.md: unknown severity "${s}"`);
  const blocks: Block[] = [];
  const fence = /^```(\S*)(.*)$/;
  for (let i = 2; i < lines.length; i++) {
    const m = fence.exec(lines[i]);
    if (!m) continue;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j] !== '```') body.push(lines[j++]);
    assert.ok(j < lines.length, `${id}.md: unclosed code block at line ${i + 1}`);
    const attrs = m[2].trim().split(/\s+/).filter(Boolean);
    const path = attrs.find((a) => a.startsWith('path='))?.slice(5);
    const roles = new Set(attrs.filter((a) => a === 'example' || a === 'fix'));
    if (path) {
      assert.ok(roles.size > 0, `${id}.md line ${i + 1}: a block with path= needs "example" and/or "fix"`);
      blocks.push({ lang: m[1], path, roles, text: body.join('\n') + '\n' });
    } else {
      assert.equal(roles.size, 0, `${id}.md line ${i + 1}: an example or fix block needs path=`);
    }
    i = j;
  }
  return { id, text, severities, fix: sev[3], blocks };
}

function files(page: Page, role: 'example' | 'fix'): SourceFile[] {
  return page.blocks.filter((b) => b.roles.has(role)).map((b) => ({ path: b.path, text: b.text }));
}

function codes(list: Finding[], id: string): Finding[] {
  return list.filter((f) => f.code === id);
}

function show(list: Finding[]): string {
  return list.map((f) => `${f.code}/${f.severity} ${f.file}:${f.range.start.line + 1} ${f.message.slice(0, 120)}`).join('\n  ') || '(no findings)';
}

/** Every code a `finding('<code>', ...)` call or a `code: '<code>'` literal in server/src can emit. */
function codesInSource(): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.ts')) {
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(/\bfinding\(\s*'([a-z][a-z0-9-]*)'/g)) out.add(m[1]);
        for (const m of text.matchAll(/\bcode: '([a-z][a-z0-9-]*)'/g)) out.add(m[1]);
      }
    }
  };
  walk(SRC);
  return out;
}

const META = new Map<string, RuleMeta>([...RULES, ...PARSER_CODES].map((m) => [m.id, m]));
const documented = [...META.keys()];
const pageFiles = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');

test('every rule and parser code has a page with the required headings', () => {
  for (const id of documented) {
    const page = readPage(id);
    for (const h of HEADINGS) assert.ok(page.text.includes(`\n${h}\n`), `${id}.md lacks "${h}"`);
    assert.ok(page.text.split('\n').length <= 90, `${id}.md is longer than 90 lines; keep pages short`);
  }
});

test('no page for an id the project does not know', () => {
  const known = new Set(documented);
  for (const f of pageFiles) assert.ok(known.has(f.slice(0, -3)), `docs/rules/${f} documents no known id`);
});

test('every finding code in server/src has a page', () => {
  const have = new Set(pageFiles.map((f) => f.slice(0, -3)));
  for (const code of codesInSource()) assert.ok(have.has(code), `server/src emits "${code}" but docs/rules/${code}.md is missing`);
});

test('every code has its metadata: a summary, known severities, and a fixDoes exactly when it offers a fix', () => {
  assert.equal(META.size, RULES.length + PARSER_CODES.length, 'a code is both a rule and a parser code, or listed twice');
  for (const m of META.values()) {
    assert.ok(m.summary.length > 10, `${m.id}: summary`);
    for (const s of typeof m.severity === 'string' ? [m.severity] : m.severity) assert.ok(SEVERITIES.has(s), `${m.id}: unknown severity ${s}`);
    assert.equal(!!m.fixDoes, m.fix, `${m.id}: fixDoes describes the quick fix, and only a code with fix: true has one`);
  }
});

for (const id of documented) {
  if (NOT_WRITABLE[id]) continue;
  test(`${id}: the example produces it and the fix does not`, () => {
    const page = readPage(id);
    const ex = files(page, 'example');
    const fx = files(page, 'fix');
    assert.ok(ex.length > 0, `${id}.md has no example block (\`\`\`lang path=... example)`);
    assert.ok(fx.length > 0, `${id}.md has no fix block (\`\`\`lang path=... fix)`);
    const exAnalysis = analyze(ex);
    const got = exAnalysis.findings;
    const hits = codes(got, id);
    assert.ok(hits.length > 0, `${id}.md: the example does not produce ${id}; it gives:\n  ${show(got)}`);
    const meta = META.get(id)!;
    const sevs: readonly string[] = typeof meta.severity === 'string' ? [meta.severity] : meta.severity;
    for (const h of hits) assert.ok(sevs.includes(h.severity), `${id}'s metadata says ${sevs.join(' or ')}, the example gives ${h.severity}`);
    // What the editor shows: the diagnostics' quick fixes, through the code-action feature.
    // (only the fixes server/src/features/fix-check.ts lets through: those the editor offers)
    const safe = (f: Finding, fix: Fix) => fixProblem(ex, {}, exAnalysis, f, fix.edits, analyze) === undefined;
    const actions = [...new Set(hits.map((h) => h.file))].flatMap((file) =>
      codeActions(exAnalysis, file, hits.filter((h) => h.file === file).map((h) => toDiagnostic(h, (p) => `file:///${p}`)), (p) => `file:///${p}`, undefined, safe),
    );
    if (meta.fix) assert.ok(actions.length > 0, `${id} has fix: true but the page's example offers no quick fix; make the example one the fix applies to`);
    else assert.equal(actions.length, 0, `${id} has fix: false but its example offers: ${actions.map((a) => a.title).join('; ')}`);
    // Every message of the example, of any code, leads with its point (<= 120 characters).
    assertShortPoints(got);
    const after = analyze(fx).findings;
    assert.equal(codes(after, id).length, 0, `${id}.md: the fix still produces ${id}:\n  ${show(codes(after, id))}`);
  });
}

test('unit-line-too-long: a line of 1 MiB (the one example a page cannot hold)', () => {
  const text = `[Service]\nExecStart=/usr/bin/kubelet --node-labels=${'a'.repeat(1024 * 1024)}\n`;
  assert.ok(codes(analyze([{ path: 'kubelet.service', text }]).findings, 'unit-line-too-long').length > 0);
  assert.ok(readPage('unit-line-too-long').blocks.some((b) => b.roles.has('fix')), 'unit-line-too-long.md still shows the fix');
});

test('envfile-invalid-text: a U+FFFE in a value (the example a page cannot show)', () => {
  const text = 'KUBELET_EXTRA_ARGS=--node-labels=team=a\ufffeb\n';
  assert.ok(codes(analyze([{ path: 'etc/default/kubelet', text }]).findings, 'envfile-invalid-text').length > 0);
  assert.ok(readPage('envfile-invalid-text').blocks.some((b) => b.roles.has('fix')), 'envfile-invalid-text.md still shows the fix');
});
