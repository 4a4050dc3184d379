/**
 * Comparing an exact distribution (ours, rationals as `p/q` text) with a floating-point one (WebPPL's),
 * outcome by outcome over the union of supports.
 */
import * as Q from '../../src/distributions/rational.ts';

/** Result of comparing two distributions over the same value space. */
export interface Agreement {
  /** Every outcome's probabilities differ by at most the tolerance. */
  readonly agree: boolean;
  /** Largest absolute difference seen. */
  readonly maxAbsDiff: number;
  /** Outcomes in the union of supports. */
  readonly outcomes: number;
}

/**
 * An exact rational as the nearest double, without overflow for huge numerators and denominators
 * (`Number(n) / Number(d)` is `NaN` once both pass 2^1024): 20 exact decimal digits, then `Number`.
 */
export function ratToNumber(r: Q.Rational): number {
  return Number(Q.toDecimal(r, 20));
}

/**
 * Compare `exact` (`[value, "p/q"]`) with `approx` (`[value, probability]`), values matched by their
 * text (`String(value)`); an outcome missing on one side has probability 0 there.
 */
export function compareDists(
  exact: readonly (readonly [string, string])[],
  approx: readonly (readonly [unknown, number])[],
  tolerance = 1e-9,
): Agreement {
  const ours = new Map<string, number>();
  for (const [v, p] of exact) {
    const q = Q.parseRational(p);
    if (q === undefined) throw new Error(`internal error: ${p} is not an exact rational`);
    ours.set(v, ratToNumber(q));
  }
  const theirs = new Map<string, number>();
  for (const [v, p] of approx) theirs.set(String(v), (theirs.get(String(v)) ?? 0) + p);
  const keys = new Set([...ours.keys(), ...theirs.keys()]);
  let maxAbsDiff = 0;
  for (const k of keys) maxAbsDiff = Math.max(maxAbsDiff, Math.abs((ours.get(k) ?? 0) - (theirs.get(k) ?? 0)));
  return { agree: maxAbsDiff <= tolerance, maxAbsDiff, outcomes: keys.size };
}
