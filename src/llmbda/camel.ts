/**
 * The two leaks the LLMbda paper found in CaMeL, as exact experiments (examples/camel/*.lam):
 * the untaken-branch leak and the retry loop that iterates a one-bit leak into a whole k-bit secret.
 * For the loop, every secret's observation is computed once; all pairs are then compared exactly.
 */
import { readFileSync } from 'node:fs';
import * as Q from '../distributions/rational.ts';
import type { SubDist } from '../distributions/subdist.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { parse } from '../syntax/parser.ts';
import { evaluate } from '../semantics/evaluate.ts';
import { closeProgram, loadPrelude } from '../semantics/prelude.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import { modelOf, type ModelSpec } from '../generators/models.ts';
import { compare, observe } from '../observe/indist.ts';

/** The model both CaMeL programs run under: every prompt is answered with the string "ok". */
export const OK_MODEL: ModelSpec = { kind: 'constant', responses: [['"ok"', '1']] };

/** The retry loop's source (examples/camel/retry-loop.lam) with `k` and the secret filled in. */
export function retryLoopSource(k: number, secret: number, file = new URL('../../examples/camel/retry-loop.lam', import.meta.url)): string {
  const src = readFileSync(file, 'utf8');
  const out = src.replace(/^let k = \d+$/m, `let k = ${k}`).replace(/^let secret = \["S"\]:\d+$/m, `let secret = ["S"]:${secret}`);
  if (!out.includes(`let k = ${k}\n`) || !out.includes(`let secret = ["S"]:${secret}\n`)) {
    throw new Error('internal error: retry-loop.lam must define `let k = N` and `let secret = ["S"]:N` on lines of their own');
  }
  return out;
}

/** Fuel enough for `k` rounds of the loop (each round is a bounded derivation depth). */
export function retryLoopFuel(k: number): number {
  return 200 + 60 * k;
}

/** One secret's m-observation of the loop under a semantics, with its total mass. */
export interface SecretObservation {
  readonly secret: number;
  readonly observed: SubDist<string>;
}

/** `⟦retry loop(k, s)⟧ₘ` for every secret `s < 2^k`, each computed once. */
export function retryLoopObservations<L>(lat: Lattice<L>, m: L, k: number, semantics: Semantics): SecretObservation[] {
  const model = modelOf(OK_MODEL);
  const prelude = loadPrelude(lat, model.preludeSource);
  const out: SecretObservation[] = [];
  for (let s = 0; s < 2 ** k; s++) {
    const e = closeProgram(parse(retryLoopSource(k, s), lat, { file: `retry-loop(k=${k}, secret=${s})` }), prelude);
    const r = evaluate(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, e, retryLoopFuel(k), { semantics, prelude });
    out.push({ secret: s, observed: observe(lat, m, r.finals) });
  }
  return out;
}

/** What comparing every pair of secrets found. */
export interface PairwiseSummary {
  readonly pairs: number;
  readonly incompatible: number;
  /** Compatible pairs whose statistical distance exceeds Lemma 5's bound (must be 0). */
  readonly overBound: number;
  /** The largest distance seen, and the largest bound. */
  readonly maxDistance: Q.Rational;
  readonly maxBound: Q.Rational;
}

/** Compare all `n(n-1)/2` pairs of observations exactly. */
export function comparePairwise(obs: readonly SecretObservation[]): PairwiseSummary {
  let pairs = 0, incompatible = 0, overBound = 0;
  let maxDistance = Q.ZERO, maxBound = Q.ZERO;
  for (let i = 0; i < obs.length; i++) {
    for (let j = i + 1; j < obs.length; j++) {
      pairs++;
      const c = compare(obs[i]!.observed, obs[j]!.observed);
      if (!c.compatible) incompatible++;
      else if (Q.lt(c.bound, c.distance)) overBound++;
      maxDistance = Q.max(maxDistance, c.distance);
      maxBound = Q.max(maxBound, c.bound);
    }
  }
  return { pairs, incompatible, overBound, maxDistance, maxBound };
}
