/**
 * Did-you-mean: the candidate with the smallest edit distance, if it is close
 * enough to be a typo. Runs once per unknown name, so a file with thousands of
 * unknown feature gates must not pay for allocations per comparison.
 */
const lowered = new WeakMap<object, { name: string; lower: string; hist: Uint8Array; mask: number }[]>();

function prepared(candidates: Iterable<string>): { name: string; lower: string; hist: Uint8Array; mask: number }[] {
  const key = candidates as object;
  let list = lowered.get(key);
  if (!list) {
    list = [...candidates].map((name) => {
      const lower = name.toLowerCase();
      const hist = histogram(lower, new Uint8Array(BUCKETS));
      return { name, lower, hist, mask: maskOf(hist) };
    });
    lowered.set(key, list);
  }
  return list;
}

/**
 * Character counts, in BUCKETS buckets (distinct characters may share one). Each edit changes the counts by at most
 * 2 in all, so half the difference of two histograms is a lower bound of the edit distance: most candidates are
 * ruled out without computing it (thousands of unknown names times hundreds of candidates).
 */
const BUCKETS = 32;
function histogram(s: string, h: Uint8Array): Uint8Array {
  h.fill(0);
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i) & (BUCKETS - 1);
    if (h[b] < 255) h[b]++;
  }
  return h;
}

/** The buckets a histogram uses, as bits: a bucket used on one side only adds at least 1 to the difference. */
function maskOf(h: Uint8Array): number {
  let m = 0;
  for (let b = 0; b < BUCKETS; b++) if (h[b] !== 0) m |= 1 << b;
  return m;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The two rows of the distance table, made by the first distance() of a closest() call and grown as needed. */
interface Rows {
  prev: Int32Array;
  cur: Int32Array;
}

/**
 * Answers already given, per candidate list (the same misspelling in every document of a long stream, or in every
 * keystroke's analysis): bounded, as the words are the user's.
 */
const ANSWERS = new WeakMap<object, Map<string, string | undefined>>();

export function closest(word: string, candidates: Iterable<string>, maxDistance?: number): string | undefined {
  const list = prepared(candidates);
  let answers = ANSWERS.get(list);
  if (!answers) ANSWERS.set(list, (answers = new Map()));
  const key = `${maxDistance ?? ''}\0${word}`;
  if (answers.has(key)) return answers.get(key);
  if (answers.size >= 4096) answers.clear();
  const best = closestIn(list, word, maxDistance);
  answers.set(key, best);
  return best;
}

function closestIn(list: ReturnType<typeof prepared>, word: string, maxDistance?: number): string | undefined {
  const w = word.toLowerCase();
  const limit = maxDistance ?? Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestD = limit + 1;
  const wh = histogram(w, new Uint8Array(BUCKETS));
  let rows: Rows | undefined;
  const wm = maskOf(wh);
  // An index loop: for-of allocates an iterator result per candidate whenever this runs unoptimized (seen as 36 MB
  // per analysis of a config with thousands of unknown gates under the allocation profiler).
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (Math.abs(c.lower.length - w.length) >= bestD) continue;
    // ceil(L1 / 2) <= distance: skip a candidate that cannot beat bestD (a saturated count only lowers the bound);
    // first with the cheaper bound of the buckets used on one side only
    if ((popcount(wm ^ c.mask) + 1) >> 1 >= bestD) continue;
    let l1 = 0;
    const ch = c.hist;
    for (let b = 0; b < BUCKETS; b++) l1 += Math.abs(wh[b] - ch[b]);
    if (l1 + 1 >> 1 >= bestD) continue;
    const d = distance(w, c.lower, bestD - 1, (rows ??= { prev: new Int32Array(64), cur: new Int32Array(64) }));
    // A suggestion must keep something of what was typed: "\\" is no typo of "none".
    if (d >= Math.min(w.length, c.lower.length)) continue;
    if (d < bestD) {
      bestD = d;
      best = c.name;
      if (d === 0) break;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning cap + 1) once it must exceed `cap`. */
function distance(a: string, b: string, cap: number, rows: Rows): number {
  const n = b.length;
  if (rows.prev.length <= n) {
    rows.prev = new Int32Array(n + 1);
    rows.cur = new Int32Array(n + 1);
  }
  let prev = rows.prev;
  let cur = rows.cur;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[n];
}
