/**
 * Closed forms the v2 tests compare against (computed here by integer arithmetic, never by an evaluator).
 */
import * as Q from '../../src/distributions/rational.ts';

/** The binomial coefficients C(n, 0) … C(n, n). */
export function binomials(n: number): bigint[] {
  const out: bigint[] = [];
  let c = 1n;
  for (let k = 0; k <= n; k++) {
    out.push(c);
    c = (c * BigInt(n - k)) / BigInt(k + 1);
  }
  return out;
}

/** The sum of n fair flips as sorted table rows `[]:k ↦ C(n, k) / 2^n`. */
export function flipSumRows(n: number): string[] {
  return binomials(n).map((c, k) => `[]:${k} ↦ ${Q.show(Q.div(Q.rat(c, 1n), Q.rat(2n ** BigInt(n), 1n)))}`).sort();
}
