/**
 * Seeded sampling of model responses for `--sample` (the oracle `o ~ μ_M` of Theorem 3). Sampling is
 * exact: a uniform integer below the common denominator picks the response, so no float rounding
 * skews the frequencies.
 */
import seedrandom from 'seedrandom';
import * as Q from '../distributions/rational.ts';
import type { PModel } from './model.ts';
import type { Oracle } from './peval.ts';

/** A uniform bigint in [0, n) from a seeded generator (rejection sampling on 32-bit chunks). */
function uniformBelow(rng: seedrandom.PRNG, n: bigint): bigint {
  const bits = n.toString(2).length;
  const chunks = Math.ceil(bits / 32);
  for (;;) {
    let x = 0n;
    for (let i = 0; i < chunks; i++) x = (x << 32n) | BigInt(rng.int32() >>> 0);
    x &= (1n << BigInt(bits)) - 1n;
    if (x < n) return x;
  }
}

/** Thrown when the model's distribution cannot be sampled (mass < 1 and the draw fell in the gap). */
export class NoResponse extends Error {}

/** An oracle drawing every answer independently from `weight(c)`, seeded. */
export function sampledOracle(model: PModel, rng: seedrandom.PRNG): Oracle {
  return (_i, messages) => {
    const dist = model.weight(messages);
    let den = 1n;
    for (const [, w] of dist) den = lcm(den, Q.denominator(w));
    const u = uniformBelow(rng, den);
    let acc = 0n;
    for (const [r, w] of dist) {
      acc += (Q.numerator(w) * den) / Q.denominator(w);
      if (u < acc) return r;
    }
    throw new NoResponse('the model withheld mass for this conversation (sub-distribution)');
  };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
function lcm(a: bigint, b: bigint): bigint {
  return (a / gcd(a, b)) * b;
}

export function makeRng(seed: string | number): seedrandom.PRNG {
  return seedrandom(String(seed));
}
