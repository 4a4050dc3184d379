/**
 * Exact quantitative leakage of a channel (docs/leakage.md). A channel is a matrix `C(s, o)` of exact
 * rationals, one row per secret (each row a full distribution over observations, non-termination
 * included as an observation), with a prior `π` over the secrets. Probabilities stay exact rationals;
 * logarithms are taken once, at the end, as floats (`log2Rational`).
 *
 * * Shannon mutual information `I(S; O) = Σ_{s,o} π(s) C(s,o) log2(C(s,o) / p(o))`.
 * * Min-entropy leakage (Smith 2009): `log2(V(π|C) / V(π))` with prior vulnerability `V(π) = max_s π(s)` and
 *   posterior vulnerability `V(π|C) = Σ_o max_s π(s) C(s,o)`; the ratio is exact.
 * * Multiplicative capacity (the maximum of min-entropy leakage over all priors, reached at the uniform
 *   prior): `log2 Σ_o max_s C(s,o)`; the sum is exact.
 */
import * as Q from '../distributions/rational.ts';

/** A channel with a prior: `rows[i][j] = C(secrets[i], outputs[j])`. */
export interface Channel {
  /** Display names of the secrets (row order). */
  readonly secrets: readonly string[];
  /** The prior over secrets (same order), summing to 1. */
  readonly prior: readonly Q.Rational[];
  /** Canonical keys of the observations (column order). */
  readonly outputs: readonly string[];
  /** `C(s, o)`; each row sums to 1. */
  readonly rows: readonly (readonly Q.Rational[])[];
}

/** Why a matrix is not a channel, or `undefined` when it is one. */
export function channelProblem(c: Channel): string | undefined {
  if (c.secrets.length === 0) return 'a channel needs at least one secret';
  if (c.prior.length !== c.secrets.length || c.rows.length !== c.secrets.length) return 'prior and rows must have one entry per secret';
  let total = Q.ZERO;
  for (const p of c.prior) {
    if (Q.lt(p, Q.ZERO)) return `negative prior weight ${Q.show(p)}`;
    total = Q.add(total, p);
  }
  if (!Q.eq(total, Q.ONE)) return `the prior sums to ${Q.show(total)}, not 1`;
  for (let i = 0; i < c.rows.length; i++) {
    const row = c.rows[i]!;
    if (row.length !== c.outputs.length) return `row ${i} has ${row.length} entries for ${c.outputs.length} outputs`;
    let s = Q.ZERO;
    for (const x of row) {
      if (Q.lt(x, Q.ZERO)) return `row ${i} has a negative entry`;
      s = Q.add(s, x);
    }
    if (!Q.eq(s, Q.ONE)) return `row ${i} (${c.secrets[i]}) sums to ${Q.show(s)}, not 1`;
  }
  return undefined;
}

/** Throw unless `c` is a channel (an internal invariant: builders construct full rows). */
function checked(c: Channel): Channel {
  const p = channelProblem(c);
  if (p !== undefined) throw new Error(`internal error: not a channel: ${p}`);
  return c;
}

/** Number of bits of a positive bigint's magnitude (`bitLength(1n) = 1`). */
function bitLength(n: bigint): number {
  return n.toString(2).length;
}

/** `log2` of a positive bigint to float precision, for integers of any size. */
function log2Big(n: bigint): number {
  const bits = bitLength(n);
  if (bits <= 1000) return Math.log2(Number(n));
  const shift = BigInt(bits - 64);
  return Math.log2(Number(n >> shift)) + Number(shift);
}

/** `log2(q)` for a positive rational, exact integers in, float out (exact for powers of two). */
export function log2Rational(q: Q.Rational): number {
  if (!Q.lt(Q.ZERO, q)) throw new Error(`internal error: log2 of a non-positive rational ${Q.show(q)}`);
  return log2Big(Q.numerator(q)) - log2Big(Q.denominator(q));
}

/** The output distribution `p(o) = Σ_s π(s) C(s,o)`. */
export function outputDistribution(c: Channel): Q.Rational[] {
  return c.outputs.map((_, j) => c.rows.reduce((acc, row, i) => Q.add(acc, Q.mul(c.prior[i]!, row[j]!)), Q.ZERO));
}

/** Shannon mutual information `I(S; O)` in bits (exact terms, float logarithms, summed last). */
export function shannonLeakage(c0: Channel): number {
  const c = checked(c0);
  const p = outputDistribution(c);
  let bits = 0;
  for (let i = 0; i < c.rows.length; i++) {
    const pi = c.prior[i]!;
    if (Q.isZero(pi)) continue;
    for (let j = 0; j < c.outputs.length; j++) {
      const x = c.rows[i]![j]!;
      if (Q.isZero(x)) continue;
      bits += Q.toNumber(Q.mul(pi, x)) * log2Rational(Q.div(x, p[j]!));
    }
  }
  // Rounding can leave a tiny negative residue on a channel that leaks nothing.
  return Math.abs(bits) < 1e-12 ? 0 : bits;
}

/** Min-entropy leakage with its exact ingredients. */
export interface MinEntropyLeakage {
  /** `V(π) = max_s π(s)`. */
  readonly priorVulnerability: Q.Rational;
  /** `V(π|C) = Σ_o max_s π(s) C(s,o)`. */
  readonly posteriorVulnerability: Q.Rational;
  /** `V(π|C) / V(π)`, exact (≥ 1). */
  readonly ratio: Q.Rational;
  /** `log2(ratio)`. */
  readonly bits: number;
}

/** Smith's min-entropy leakage under the channel's prior. */
export function minEntropyLeakage(c0: Channel): MinEntropyLeakage {
  const c = checked(c0);
  const priorVulnerability = c.prior.reduce((a, b) => Q.max(a, b), Q.ZERO);
  let posteriorVulnerability = Q.ZERO;
  for (let j = 0; j < c.outputs.length; j++) {
    let best = Q.ZERO;
    for (let i = 0; i < c.rows.length; i++) best = Q.max(best, Q.mul(c.prior[i]!, c.rows[i]![j]!));
    posteriorVulnerability = Q.add(posteriorVulnerability, best);
  }
  const ratio = Q.div(posteriorVulnerability, priorVulnerability);
  return { priorVulnerability, posteriorVulnerability, ratio, bits: log2Rational(ratio) };
}

/** Multiplicative capacity: `Σ_o max_s C(s,o)` (exact) and its log. */
export interface Capacity {
  readonly sum: Q.Rational;
  readonly bits: number;
}

/** The multiplicative (min-entropy) capacity: the largest min-entropy leakage over all priors. */
export function multiplicativeCapacity(c0: Channel): Capacity {
  const c = checked(c0);
  let sum = Q.ZERO;
  for (let j = 0; j < c.outputs.length; j++) {
    let best = Q.ZERO;
    for (const row of c.rows) best = Q.max(best, row[j]!);
    sum = Q.add(sum, best);
  }
  return { sum, bits: log2Rational(sum) };
}

/** The uniform prior over `n` secrets. */
export function uniformPrior(n: number): Q.Rational[] {
  return Array.from({ length: n }, () => Q.rat(1, n));
}
