/**
 * Issue #18's classes as properties over generated input, shared by test/fuzz/hardening.test.ts and the long run:
 * expansion size (the expanded command line stays bounded however variables multiply), stale code actions (a
 * diagnostic of an older text never yields an edit of that older text), and links (the CLI's walk never leaves its
 * roots and always ends).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../server/src/engine.ts';
import { walk } from '../../server/src/cli/walk.ts';
import { codeActions } from '../../server/src/features/code-actions.ts';
import { toDiagnostic } from '../../server/src/features/diagnostics.ts';
import { ARGV_HARD_MAX } from '../../server/src/parse/systemd/exec.ts';
import type { SourceFile } from '../../server/src/model/source.ts';
import * as G from './gen.ts';

// ---------------------------------------------------------------------------------------------
// Expansion size

export const expansion = fc.record({
  refs: fc.integer({ min: 0, max: 20_000 }),
  flags: fc.integer({ min: 0, max: 2_000 }),
  inline: fc.boolean(),
  flagLength: fc.integer({ min: 4, max: 200 }),
});

export function expansionProperty(x: { refs: number; flags: number; inline: boolean; flagLength: number }): void {
  const flag = (i: number) => `--node-labels=k${i}=${'v'.repeat(x.flagLength)}`;
  const value = Array.from({ length: x.flags }, (_, i) => flag(i)).join(' ');
  const ref = x.inline ? '${E0}' : '$E0';
  const refs = x.inline ? `--v=${ref.repeat(Math.min(x.refs, 50_000))}` : Array(x.refs).fill(ref).join(' ');
  const files: SourceFile[] = [
    { path: 'n/etc/systemd/system/kubelet.service', text: `[Service]\nEnvironmentFile=/etc/default/kubelet\nExecStart=/usr/bin/kubelet ${refs}\n` },
    { path: 'n/etc/default/kubelet', text: `E0=${value}\n` },
  ];
  const a = analyze(files);
  const argv = a.nodes.flatMap((n) => n.node.argv);
  const bytes = argv.reduce((s, w) => s + w.text.length + 9, 0);
  // bounded: the hard limit plus at most one variable's words or one copy of it
  assert.ok(bytes <= ARGV_HARD_MAX + value.length * 2 + 64, `${bytes} bytes of argv kept`);
  const total = x.inline ? (x.refs > 0 && x.flags > 0 ? value.length * x.refs : 0) : x.refs * (value.length + x.flags * 9);
  const reported = a.findings.some((f) => f.code === 'exec-argv-too-long');
  if (total > ARGV_HARD_MAX) assert.ok(reported, `${total} bytes expanded, no exec-argv-too-long`);
  // (execve() copies the environment too, and the unit's holds E0: `npm run fuzz`, seed 855233423, refs 8 and 1,059
  // flags of 193 bytes, 1,880,368 bytes of argv and 205 KB of E0, was counted without it)
  const env = x.flags > 0 ? 'E0='.length + value.length + 1 + 8 : 0;
  if (total + env + 4096 < 2 * 1024 * 1024 && !x.inline) assert.ok(!reported, `${total} bytes of arguments and ${env} of environment reported as too long`);
}

// ---------------------------------------------------------------------------------------------
// Stale code actions

export const staleEdit = fc.tuple(G.workspace, fc.nat(), G.mutations);

/** Diagnostics of a text, sent back after the text changed: every quick fix offered is one of the new text's. */
export function staleCodeActionProperty([files, pick, m]: [SourceFile[], number, G.Mutation[]]): void {
  if (files.length === 0) return;
  const before = analyze(files);
  const i = pick % files.length;
  const changed = files.map((f, k) => (k === i ? { ...f, text: G.mutate(Buffer.from(f.text), m) } : f));
  const after = analyze(changed);
  const path = files[i]!.path;
  const stale = before.findings.filter((f) => f.file === path).map((f) => toDiagnostic(f, (p) => p));
  const current = new Set(after.findings.filter((f) => f.file === path).flatMap((f) => (f.fixes ?? []).map((x) => JSON.stringify(x.edits))));
  for (const action of codeActions(after, path, stale, (p) => p)) {
    const edits = Object.entries(action.edit?.changes ?? {}).flatMap(([file, es]) => es.map((e) => ({ file, range: e.range, newText: e.newText })));
    assert.ok(current.has(JSON.stringify(edits)), `"${action.title}" is not a fix of the current text of ${path}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Links

export const linkTree = fc.record({
  files: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'a/c', 'b/d'), fc.constantFrom('kubelet.env', 'x.conf')), { maxLength: 6 }),
  links: fc.array(fc.tuple(fc.constantFrom('a', 'b', 'a/c', 'b/d', ''), fc.constantFrom('l1', 'l2', 'loop'), fc.constantFrom('.', '..', '../..', '/', 'OUTSIDE', 'a', 'b/d', 'kubelet.env')), { maxLength: 6 }),
});

/** The walk ends, reads only regular files under its root, never a file outside it, and names each link it skipped. */
export function linkProperty(t: { files: [string, string][]; links: [string, string, string][] }): void {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'links-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  try {
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'secret.env'), 'SECRET=1\n');
    for (const d of ['a/c', 'b/d']) mkdirSync(join(root, d), { recursive: true });
    for (const [d, n] of t.files) writeFileSync(join(root, d, n), 'KUBELET_EXTRA_ARGS=--v=2\n');
    for (const [d, n, target] of t.links) {
      try {
        symlinkSync(target === 'OUTSIDE' ? outside : target, join(root, d, n));
      } catch {
        /* the name exists already */
      }
    }
    const r = walk([root]);
    for (const f of r.files) {
      assert.ok(f.path.startsWith(root + '/'), `${f.path} is outside the root`);
      assert.ok(!f.text.includes('SECRET'), `${f.path} holds the outside file`);
    }
    assert.equal(new Set(r.files.map((f) => f.path)).size, r.files.length, 'a file read twice');
    const skippedLinks = r.skipped.filter((s) => /symbolic link/.test(s.reason)).length;
    assert.ok(skippedLinks <= t.links.length);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
