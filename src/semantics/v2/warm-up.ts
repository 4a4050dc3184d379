/**
 * Warm-up evaluations (docs/evaluator-v2.md, "Warm-up evaluations"): before a process's first v2 evaluation on a
 * lattice, a few tiny fixed programs are evaluated and their answers thrown away, so that V8 has type
 * feedback for the evaluator's once-per-evaluation paths (a table's lazy creation, a machine's first response, the
 * fast path's loop exit) before it optimises the hot functions. Without them the optimised `runDirect` is thrown
 * away at the end of the first long evaluation, and the second one runs unoptimised while TurboFan compiles it
 * again (≈ 90 ms of a background thread).
 *
 * Nothing is shared with the caller's evaluations but what any two evaluations share (the parse and prelude
 * caches; test/v2-reuse.test.ts). ≈ 7 ms of CPU once per lattice in a process (the empty program's first
 * evaluation 9.7 against 2.6 ms, `npm run bench:warm-up`; ≈ 2.5 ms more since the fourth program, thirty-fifth
 * round); a trade, measured there: long second evaluations up to 2× faster, a few short ones slower.
 */
import * as Q from '../../distributions/rational.ts';
import type { Lattice } from '../../lattice/lattice.ts';
import { coinModel } from '../models/index.ts';
import { closeProgram, loadPrelude } from '../prelude.ts';
import type { Expr } from '../../syntax/ast.ts';
import { parse } from '../../syntax/parser.ts';
import type { PModel } from '../model.ts';

/** Options of one warm-up evaluation, as `evaluateV2` takes them. */
export interface WarmUpOptions {
  readonly frontier?: boolean;
  readonly afterBranch?: number;
  readonly probation?: number;
}

/** What a warm-up evaluation is given, and what it answers (`value ↦ weight`, sorted: the tests check it). */
export interface WarmUpRun {
  readonly src: string;
  readonly opts: WarmUpOptions;
  readonly expect: readonly string[];
}

/**
 * One program per kind of loop the fast path and the general machine run: a loop with a branch per iteration,
 * taken by the general machine's rounds (frontier runs off, the fast path giving up at the branch: rounds, a
 * response's first parse, merging), a deterministic tail loop (the fast path's loop exit), a non-tail recursion
 * (its frames) and a loop whose outcomes never merge (a root's list of outcomes). Chosen by measurement (docs/evaluator-v2.md, "Warm-up evaluations"): the same loop with a branch
 * run by the fast path's depth-first and frontier runs too made the deterministic counter's first evaluation ≈ 25 %
 * slower (the optimised `runDirect` then serves both kinds of run), and repeating the set gained nothing.
 */
export const WARM_UP: readonly WarmUpRun[] = [
  {
    src: 'let step = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + (fork @"flip").[1])) in step 3 0',
    opts: { frontier: false, afterBranch: 0 },
    expect: ['0 ↦ 1/8', '1 ↦ 3/8', '2 ↦ 3/8', '3 ↦ 1/8'],
  },
  { src: 'let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 20 0', opts: {}, expect: ['20 ↦ 1'] },
  { src: 'let sum = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in sum 20', opts: {}, expect: ['210 ↦ 1'] },
  // Outcomes that never merge, kept as a list at the root (at probation 1, after one): the end of a task with such a
  // list (`Machine.run`) and the assembly of many distinct finals ran for the first time in a process's first long
  // evaluation of that kind, which deoptimised `run` and compiled it again in the next (thirty-fifth round: (a) at
  // N = 128 took 150 ms in its second evaluation, 57 ms with this program; 2^12 strings 77 against 53 ms).
  {
    src: 'let go = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) (acc + str((fork @"flip").[1]))) in go 3 ""',
    opts: { probation: 1, afterBranch: 0 },
    expect: ['"000" ↦ 1/8', '"001" ↦ 1/8', '"010" ↦ 1/8', '"011" ↦ 1/8', '"100" ↦ 1/8', '"101" ↦ 1/8', '"110" ↦ 1/8', '"111" ↦ 1/8'],
  },
];

const warmed = new WeakSet<object>();

/** Whether this process has warmed up on `lattice` (`evaluateV2` asks before building the warm-up's closure). */
export function warmedUp(lattice: Lattice<unknown>): boolean { return warmed.has(lattice); }

/**
 * Run the warm-up on `lattice`, once per process and lattice object: `run` is one evaluation by v2 without the
 * warm-up (the caller's own entry point). The answers are not looked at (test/v2-warm-up.test.ts checks them on
 * every shipped lattice): a user's lattice under test may be wrong, and that is for the user's own evaluation to
 * show, in its context. For the same reason an exception ends the warm-up and is not reported here: the
 * evaluation that follows meets it again where it can be reported.
 */
export function warmUp<L>(lattice: Lattice<L>, run: (model: PModel, expr: Expr<L>, opts: WarmUpOptions) => unknown): void {
  if (warmed.has(lattice)) return;
  warmed.add(lattice);
  try {
    const model = coinModel(Q.rat(1, 2));
    const prelude = loadPrelude(lattice, model.preludeSource);
    for (const w of WARM_UP) run(model, closeProgram(parse(w.src, lattice), prelude), w.opts);
  } catch {
    // Ended; see above.
  }
}
