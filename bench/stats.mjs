// Timing helpers: monotonic clock, warm-up, medians and percentiles.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const now = () => process.hrtime.bigint();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
/**
 * Empties the young generation, outside any timing. Samples of different sizes
 * run interleaved: without this, a small input's sample can pay for scavenging
 * the garbage the previous, larger sample left (seen as 1k→2k ratios of 2.5–3.0
 * while 1k→8k was 7.9). With it, each sample pays for the collections its own
 * allocations cause, no more and no less.
 */
export const youngGc = () => gc({ type: 'minor' });

export function quantile(xs, q) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
export const median = (xs) => quantile(xs, 0.5);

/** Nanoseconds per call of `fn`, over one batch of `k` calls. */
export function batch(fn, k) {
  const t0 = now();
  for (let i = 0; i < k; i++) fn();
  return Number(now() - t0) / k;
}

export async function batchAsync(fn, k) {
  const t0 = now();
  for (let i = 0; i < k; i++) await fn();
  return Number(now() - t0) / k;
}

/** Calls per batch so that one batch lasts about `sampleMs` (after `warmMs` of warm-up). */
export async function calibrate(fn, { sampleMs = 2, warmMs = 150, isAsync = false } = {}) {
  const t0 = performance.now();
  let n = 0;
  const minCalls = sampleMs > 0 ? 5 : 1;
  while (performance.now() - t0 < warmMs || n < minCalls) {
    if (isAsync) await fn();
    else fn();
    n++;
  }
  if (sampleMs <= 0) return 1; // one call per sample: the calls are long enough to time alone
  const per = isAsync ? await batchAsync(fn, Math.max(3, Math.ceil(n / 5))) : batch(fn, Math.max(3, Math.ceil(n / 5)));
  return Math.max(1, Math.round((sampleMs * 1e6) / per));
}

/**
 * Times several functions side by side: `samples` rounds, each round one
 * batch of every function (order rotated every round), so that drift of the
 * machine hits all of them alike. Returns per-function sample arrays in ns/call.
 */
export async function sideBySide(fns, { samples = 40, sampleMs = 2, warmMs = 150, before } = {}) {
  const names = Object.keys(fns);
  const k = {};
  for (const n of names) k[n] = await calibrate(fns[n].fn, { sampleMs, warmMs, isAsync: !!fns[n].async });
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let s = 0; s < samples; s++) {
    for (let j = 0; j < names.length; j++) {
      const n = names[(s + j) % names.length];
      before?.();
      out[n].push(fns[n].async ? await batchAsync(fns[n].fn, k[n]) : batch(fns[n].fn, k[n]));
    }
  }
  return out;
}

/** Individual call times (ns) after warm-up: for p50/p95 of one call. */
export function perCall(fn, { runs = 200, warmMs = 200 } = {}) {
  const t0 = performance.now();
  while (performance.now() - t0 < warmMs) fn();
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const a = now();
    fn();
    xs.push(Number(now() - a));
  }
  return xs;
}

export const hr = now;
