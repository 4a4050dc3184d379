/**
 * Generated recursions for the cost property of v2's adaptive heuristics (test/v2-cost.test.ts): a function
 * `g s m n` recursing on `n` with a coin flip beside its recursive call, first called K times with new
 * arguments (`warm`, s = 1: every configuration new, so a heuristic that watches for reuse or merges switches
 * off), then once deep (s = 0: the same derivation asked again and again, outcomes that merge). This is the shape
 * of both exponential cases found in the eighth round (docs/evaluator-v2.md, "Sampled re-checks"). Programs are
 * built from fixed well-formed pieces, so every generated text parses; numbers stay mod 3, so merged results
 * are small.
 */
import fc from 'fast-check';

const FLIP = '(fork @"flip").[1]';

/** The recursive call, its argument `m′` chosen by `arg`. */
const rec = (arg: string): string => `(g s (${arg}) (n - 1))`;

/** Arguments of the recursive call: with s = 1 they differ per call (or per flip), with s = 0 they repeat. */
export const ARGS = ['m', 'm + s', '(m + s) % 4', 'm + b * s'] as const;

/** The recursive case: how the call and a flip combine. `b` is a flip in scope of the call. */
export const BODIES = {
  /** The flip after the call: the call's outcomes each continue. */
  after: (a: string) => `(let b = flip {} in (${rec(a)} + b) % 3)`,
  /** The flip before the call: the call asked once per outcome of the flip (the memo case). */
  before: (a: string) => `(let b = flip {} in (b + ${rec(a)}) % 3)`,
  /** Two calls, the second's argument shifted by s. */
  twice: (a: string) => `(let b = flip {} in (${rec(a)} + ${rec(`(${a}) + s`)} + b) % 3)`,
  /**
   * A tail call: the argument a string that grows while s = 1 (every next-round entry new), a sum mod 3 while s = 0
   * (entries that merge: the next-round merging case, docs/evaluator-v2.md "Sampled re-checks").
   */
  tail: (a: string) => `(let b = flip {} in g s (if s == 1 then str(m) + str(b) else (${a} + b) % 3) (n - 1))`,
  /** Strings while s = 1 (every outcome distinct), sums while s = 0 (outcomes merge: the outcome-merging case). */
  strings: (a: string) => `(let b = flip {} in ${rec(a)} + (if s == 1 then str(b) else b))`,
} as const;

export type BodyName = keyof typeof BODIES;

export interface Recursion {
  readonly body: BodyName;
  readonly arg: (typeof ARGS)[number];
  /** Calls with new arguments first (`warm K`), and their depth. */
  readonly warm: number;
  readonly warmDepth: number;
  /** Depth of the final call. */
  readonly depth: number;
}

export const recursionArb: fc.Arbitrary<Recursion> = fc.record({
  body: fc.constantFrom(...(Object.keys(BODIES) as BodyName[])),
  arg: fc.constantFrom(...ARGS),
  warm: fc.integer({ min: 1, max: 5 }),
  warmDepth: fc.integer({ min: 1, max: 3 }),
  depth: fc.integer({ min: 3, max: 12 }),
});

export function recursionSource(r: Recursion): string {
  const base = r.body === 'strings' ? '(if s == 1 then "" else 0)' : r.body === 'tail' ? '0' : 'm % 3';
  // `w` sums the numbers mod 3; the strings it only compares (their 2^d values per call would multiply otherwise).
  const combine = r.body === 'strings'
    ? `(if (g 1 (3 * k) ${r.warmDepth}) == "" then w (k - 1) else w (k - 1))`
    : `((g 1 (3 * k) ${r.warmDepth}) + w (k - 1)) % 3`;
  return [
    `let flip = \\u. ${FLIP} in`,
    `let g = fix (\\g. \\s. \\m. \\n. if n == 0 then ${base} else ${BODIES[r.body](r.arg)}) in`,
    `let w = fix (\\w. \\k. if k == 0 then 0 else ${combine}) in`,
    `[w ${r.warm}, g 0 0 ${r.depth}]`,
  ].join('\n');
}
