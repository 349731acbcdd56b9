/** Did-you-mean: the candidate with the smallest edit distance, if it is close enough to be a typo. */
export function closest(word: string, candidates: Iterable<string>, maxDistance?: number): string | undefined {
  const w = word.toLowerCase();
  const limit = maxDistance ?? Math.max(1, Math.min(3, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - word.length) > limit) continue;
    const d = distance(w, c.toLowerCase(), bestD);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Levenshtein distance, giving up once it exceeds `cap`. */
function distance(a: string, b: string, cap: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > cap) return cap + 1;
    prev = cur;
  }
  return prev[b.length];
}
