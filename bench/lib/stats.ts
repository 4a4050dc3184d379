/**
 * Summary statistics for benchmark tables (floats are fine here: these are timings, not semantics).
 */

/** Arithmetic mean; NaN for an empty list. */
export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Median (mean of the two middle values for an even count); NaN for an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Geometric mean of positive values (computed in log space so long lists do not overflow); values
 * below `floor` are raised to it, because a 0 ms timing would otherwise make the mean 0.
 */
export function geomean(xs: readonly number[], floor = 1e-3): number {
  if (xs.length === 0) return NaN;
  return Math.exp(mean(xs.map((x) => Math.log(Math.max(x, floor)))));
}

/** The time buckets of Hriţcu et al.'s tables, in seconds; a mean above the last one is "unsolved". */
export const BUCKETS_S: readonly number[] = [0.1, 1, 10, 60];

/** Bucket label for a time in seconds: `≤ 0.1 s`, …, or `> 60 s`. */
export function bucketOf(seconds: number): string {
  for (const b of BUCKETS_S) if (seconds <= b) return `≤ ${b} s`;
  return `> ${BUCKETS_S[BUCKETS_S.length - 1]} s`;
}

/** Every bucket label in order (for complete tables, empty buckets included). */
export function bucketLabels(): string[] {
  return [...BUCKETS_S.map((b) => `≤ ${b} s`), `> ${BUCKETS_S[BUCKETS_S.length - 1]} s`];
}

/**
 * Local growth exponent between two measurements: `k` such that `y ∝ n^k` on that interval
 * (log-log slope). Polynomial growth shows as a bounded `k`; exponential growth as `k` rising with `n`.
 */
export function growthExponent(n0: number, y0: number, n1: number, y1: number): number {
  return Math.log(y1 / y0) / Math.log(n1 / n0);
}

/** Least-squares slope of log y against log n: the fitted polynomial degree over a whole series. */
export function fittedDegree(points: readonly (readonly [n: number, y: number])[]): number {
  const ps = points.filter(([n, y]) => n > 0 && y > 0).map(([n, y]) => [Math.log(n), Math.log(y)] as const);
  if (ps.length < 2) return NaN;
  const mx = mean(ps.map((p) => p[0]));
  const my = mean(ps.map((p) => p[1]));
  let num = 0;
  let den = 0;
  for (const [x, y] of ps) { num += (x - mx) * (y - my); den += (x - mx) ** 2; }
  return num / den;
}

/** Milliseconds for humans: `0.8 ms`, `12 ms`, `1.53 s`, `2 min 05 s`. */
export function showMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** A speed ratio (their time / our time) for humans: `132× faster`, `2.4× slower`. */
export function showSpeed(r: number): string {
  if (!Number.isFinite(r) || r <= 0) return '—';
  return r >= 1 ? `${showRatio(r)} faster` : `${showRatio(1 / r)} slower`;
}

/** A ratio for humans: `1234×`, `3.2×`, `0.41×`. */
export function showRatio(r: number): string {
  if (!Number.isFinite(r)) return '—';
  if (r >= 100) return `${r.toFixed(0)}×`;
  if (r >= 10) return `${r.toFixed(1)}×`;
  return `${r.toFixed(2)}×`;
}
