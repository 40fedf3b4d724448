// A seeded random source for the page's randomized tests: a failure
// prints its seed, and KAFKALIVE_JS_SEED=N replays it.

/** mulberry32 is a small seeded generator of numbers in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** seeds are the seeds a randomized test runs: KAFKALIVE_JS_SEED's alone, or n fresh ones. */
export function seeds(n) {
  if (process.env.KAFKALIVE_JS_SEED) return [Number(process.env.KAFKALIVE_JS_SEED)];
  const base = Date.now() >>> 0;
  return Array.from({length: n}, (_, i) => (base + i * 7919) >>> 0);
}

/** replay is the line that replays a seed. */
export const replay = (seed, file) => `replay: KAFKALIVE_JS_SEED=${seed} node --test web/jstest/${file}`;
