/**
 * Did-you-mean: the candidate with the smallest edit distance, if it is close
 * enough to be a typo. Runs once per unknown name, so a file with thousands of
 * unknown feature gates must not pay for allocations per comparison.
 */
const lowered = new WeakMap<object, { name: string; lower: string }[]>();

function prepared(candidates: Iterable<string>): { name: string; lower: string }[] {
  const key = candidates as object;
  let list = lowered.get(key);
  if (!list) {
    list = [...candidates].map((name) => ({ name, lower: name.toLowerCase() }));
    lowered.set(key, list);
  }
  return list;
}

let prevRow = new Int32Array(64);
let curRow = new Int32Array(64);

export function closest(word: string, candidates: Iterable<string>, maxDistance?: number): string | undefined {
  const w = word.toLowerCase();
  const limit = maxDistance ?? Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const c of prepared(candidates)) {
    if (Math.abs(c.lower.length - w.length) >= bestD) continue;
    const d = distance(w, c.lower, bestD - 1);
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
function distance(a: string, b: string, cap: number): number {
  const n = b.length;
  if (prevRow.length <= n) {
    prevRow = new Int32Array(n + 1);
    curRow = new Int32Array(n + 1);
  }
  let prev = prevRow;
  let cur = curRow;
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
