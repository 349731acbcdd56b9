/**
 * Issue #18: no regular expression in server/src takes super-linear time. The float pattern behind
 * `--chaos-chance=<digits>x` took 4.4 s at 100k digits; a detector's `/^\s*…/m` took seconds on 64 KiB of blank
 * lines. Every pattern (found in the source by test/helpers/regex-literals.ts, so a new one is covered without
 * being listed) is run on adversarial inputs of two sizes: a literal prefix of the pattern, then one or two
 * characters pumped n times, then a character that makes the match fail. The time at 8n must stay within a
 * generous multiple of the time at n (linear: 8; quadratic: 64); a ratio within one run, not an absolute time.
 * docs/dev/regex-audit.md records the review behind it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { regexLiterals, type RegexSite } from '../helpers/regex-literals.ts';

const ROOT = resolve(__dirname, '..', '..');
const N = Number(process.env.REGEX_GROWTH_N ?? 1000);
const FACTOR = 8;
/** Linear growth gives about 8; quadratic 64. Anything past this is super-linear (generous for a busy machine). */
const MAX_RATIO = 24;
/** Below this many milliseconds at the larger size the measurement is noise, and no pattern is that slow quadratically. */
const FLOOR_MS = 4;

function sites(): RegexSite[] {
  const files = execFileSync('git', ['ls-files', 'server/src'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  return files.flatMap((f) => regexLiterals(f, readFileSync(join(ROOT, f), 'utf8')));
}

const BASE = [' ', '\t', '\n', '\r', 'a', 'Z', '0', '1', '.', '-', '_', '=', ':', ',', '/', '\\', '"', "'", '$', '{', '}', '[', ']', '%', '+', 'e', 'x', '#', ';', '@', '*', '(', ')', '|', '~'];

/** Literal characters the pattern mentions (unescaped or escaped punctuation), plus a sample of each escape class. */
function charsOf(source: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      const d = source[++i];
      if (d === 's') out.add(' ').add('\n');
      else if (d === 'd') out.add('7');
      else if (d === 'w') out.add('w');
      else if (d === 'S' || d === 'D' || d === 'W') out.add('!');
      else if (d === 'n') out.add('\n');
      else if (d === 'r') out.add('\r');
      else if (d === 't') out.add('\t');
      else if (d && !/[0-9A-Za-z]/.test(d)) out.add(d);
    } else if (!'^$()[]|?*+{}'.includes(c)) out.add(c);
  }
  return [...out];
}

/** The pattern's leading literal text (after `^`), so that pumping reaches what follows it. */
function literalPrefix(source: string): string {
  let i = source.startsWith('^') ? 1 : 0;
  let out = '';
  while (i < source.length) {
    const c = source[i];
    if (c === '\\' && i + 1 < source.length && !/[0-9A-Za-z]/.test(source[i + 1])) {
      out += source[i + 1];
      i += 2;
    } else if (/[A-Za-z0-9\-=:_ ]/.test(c)) {
      out += c;
      i++;
    } else break;
    // a quantifier after the last literal makes it optional: leave it out
    if ('?*+{'.includes(source[i] ?? '')) return out.slice(0, -1);
  }
  return out;
}

function pumps(source: string): string[] {
  const singles = [...new Set([...BASE, ...charsOf(source)])];
  const out = new Set<string>(singles);
  const small = [...new Set([' ', '\n', 'a', '0', '.', '=', ...charsOf(source).slice(0, 6)])];
  for (const a of small) for (const b of small) if (a !== b) out.add(a + b);
  return [...out];
}

const SUFFIXES = ['', '\u0000', 'x\n!'];

function run(re: RegExp, input: string): void {
  if (re.global || re.sticky) {
    re.lastIndex = 0;
    let guard = 0;
    while (re.exec(input) !== null && guard++ < input.length + 2) if (re.lastIndex === 0) break;
    re.lastIndex = 0;
  } else re.test(input);
}

function time(re: RegExp, input: string): number {
  const t0 = performance.now();
  run(re, input);
  return performance.now() - t0;
}

interface Worst {
  ratio: number;
  input: string;
  small: number;
  large: number;
}

/** The worst growth over every adversarial input for one pattern. */
function worstGrowth(re: RegExp): Worst | undefined {
  // '\u0000' first: a pattern anchored at the start fails at once and an unanchored one scans every position.
  const prefixes = [...new Set(['', '\u0000', literalPrefix(re.source)])];
  let worst: Worst | undefined;
  for (const prefix of prefixes) {
    for (const pump of pumps(re.source)) {
      for (const suffix of SUFFIXES) {
        const large = prefix + pump.repeat(N * FACTOR) + suffix;
        let tl = time(re, large);
        if (tl < FLOOR_MS) continue;
        const small = prefix + pump.repeat(N) + suffix;
        // best of three at each size: the measurement most free of the machine's other work
        let ts = Infinity;
        for (let k = 0; k < 3; k++) ts = Math.min(ts, time(re, small));
        for (let k = 0; k < 2; k++) tl = Math.min(tl, time(re, large));
        if (tl < FLOOR_MS) continue;
        const ratio = tl / Math.max(ts, FLOOR_MS / FACTOR);
        if (!worst || ratio > worst.ratio) worst = { ratio, input: JSON.stringify(prefix + pump + '…' + suffix), small: ts, large: tl };
      }
    }
  }
  return worst;
}

test('the source scan finds the regular expressions of server/src', () => {
  const all = sites();
  assert.ok(all.length >= 90, `only ${all.length} found: the lexer in test/helpers/regex-literals.ts lost track`);
  for (const s of all) assert.doesNotThrow(() => new RegExp(s.source, s.flags), `${s.file}:${s.line} /${s.source}/`);
});

test(`every regular expression in server/src grows linearly on adversarial inputs (${N} vs ${N * FACTOR} repetitions)`, () => {
  const bad: string[] = [];
  for (const s of sites()) {
    const re = new RegExp(s.source, s.flags);
    const w = worstGrowth(re);
    if (w && w.ratio > MAX_RATIO) {
      bad.push(`${s.file}:${s.line} /${s.source}/${s.flags}: ×${w.ratio.toFixed(1)} (${w.small.toFixed(1)} → ${w.large.toFixed(1)} ms) on ${w.input}`);
    }
  }
  assert.deepEqual(bad, []);
});

test('the check itself catches a quadratic pattern (the old float pattern) and passes its rewrite', () => {
  const old = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[iI]nf(?:inity)?|NaN)$/;
  const w = worstGrowth(old);
  assert.ok(w && w.ratio > MAX_RATIO, `the quadratic pattern measured ×${w?.ratio.toFixed(1)}`);
  const fixed = /^[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|[iI]nf(?:inity)?|NaN)$/;
  const f = worstGrowth(fixed);
  assert.ok(!f || f.ratio <= MAX_RATIO, `the rewrite measured ×${f?.ratio.toFixed(1)}`);
});
