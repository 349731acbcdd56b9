/**
 * Tests never assert speed (machines are shared and noisy; `npm run bench`
 * measures it). They only catch hangs: anything slower than this is stuck.
 */
export const HANG_MS = 10_000;
