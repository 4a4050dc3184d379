/**
 * Evaluator v2: the same denotation as the substitution evaluator for the REFERENCE semantics, computed
 * by an environment machine with an explicit task stack and frontier rounds for tail premises
 * (`machine.ts`; docs/semantics.md "Evaluator v2"). `evaluate` dispatches here for the reference rule
 * table; any other semantics (skipping, variants, user rule files) runs on the substitution evaluator.
 */
import type { Expr } from '../../syntax/ast.ts';
import type { Lattice } from '../../lattice/lattice.ts';
import type { Conversation } from '../config.ts';
import { Ev } from '../ev.ts';
import type { PModel } from '../model.ts';
import { loadPrelude, type Prelude } from '../prelude.ts';
import { REFERENCE } from '../rules.ts';
import { assembleEvaluation, type Evaluation } from '../evaluate.ts';
import { compileProgram } from './code.ts';
import { Machine, type Fused } from './machine.ts';

export { AFTER_BRANCH_STEPS } from './machine.ts';
import { readback } from './values.ts';
import { warmUp, warmedUp } from './warm-up.ts';

export interface V2Options<L> {
  readonly prelude?: Prelude<L>;
  readonly maxSteps?: number;
  /** Stop with `BudgetExceeded` (limit `outcomes`) when a result or a round holds more distinct entries. */
  readonly maxOutcomes?: number;
  /** Memo entries per generation (two are kept; default 2^14). */
  readonly memoGeneration?: number;
  /** The deterministic fast path (default on); off only to measure or test it against the general machine. */
  readonly direct?: boolean;
  /**
   * The fast path's frontier runs: a round's entry run up to its tail premises, branches included. Default: on
   * without a step limit (they may apply more rules than the general machine, which finds some sub-derivations in
   * its memo, so a budget met before could fail); true: also under `maxSteps`; false: off (to measure or test the
   * general machine). Under `maxOutcomes` a run gives up past that many paths (the general machine then meets the
   * limit where the rules would).
   */
  readonly frontier?: boolean;
  /** Successes-free lookups/attempts/inserts before a code node's memo, `direct` or merging is turned off (default 64). */
  readonly probation?: number;
  /** Deliberately wrong variable read (pc joined into the top-level label only): for showing the equivalence property fails. */
  readonly brokenVarRead?: boolean;
  /**
   * Rule applications a fast-path run may go on depth first past its first branch before giving up (default 1,024
   * without a step limit, 0 under one; 0 gives up at the branch). `MachineOptions.afterBranch`.
   */
  readonly afterBranch?: number;
  /** A fork's outcomes taken again from its cache (default true; `MachineOptions.forkOutcomes`): false to measure or test it. */
  readonly forkOutcomes?: boolean;
  /**
   * Run the warm-up evaluations first if this process has not yet on this lattice (default true; `warm-up.ts`):
   * ≈ 10 ms once, so that the evaluator's hot functions are optimised with feedback for every path and a process's
   * second long evaluation does not run unoptimised. A trade: a process that evaluates only one program, or a few
   * short ones (10–30 ms), loses ≈ 10–30 ms by it (docs/evaluator-v2.md, "Warm-up evaluations"); false turns it off.
   */
  readonly warmUp?: boolean;
}

/** What v2 reports besides the evaluation: peak sizes of its bounded tables. */
export interface V2Evaluation<L> extends Evaluation<L> {
  readonly peakMemo: number;
  readonly peakRound: number;
  /** Derivations finished by the deterministic fast path, and attempts of it that gave up (a branching premise). */
  readonly directRuns: number;
  readonly directBails: number;
  /** Of `directRuns`, depth-first runs of entries that never merge (the fast path taking a model's several responses one after another). */
  readonly directDepthFirst: number;
  /** Of `directRuns`, those that went on depth first past their first branch (`Machine.directAfterBranch`). */
  readonly directAfterBranch: number;
  /** Round entries the fast path ran up to their tail premises, branches included (`Machine.directFrontier`). */
  readonly directFrontier: number;
  /** Outcomes of sub-derivations handed to the rules waiting on them (`Machine.handed`): the work merging saves. */
  readonly premiseOutcomes: number;
  /** How often the fast path took each fused shortcut (`Machine.fused`). */
  readonly fused: Readonly<Fused>;
}

/** `⟦pc ⊢ conv, expr⟧_fuel` under the reference semantics, by the v2 machine. */
export function evaluateV2<L>(
  model: PModel, lattice: Lattice<L>, pc: L, conv: Conversation<L>, expr: Expr<L>, fuel: number, opts: V2Options<L> = {},
): V2Evaluation<L> {
  // Checked here first so that an evaluation after the warm-up allocates nothing for it (suites run thousands).
  if (opts.warmUp !== false && !warmedUp(lattice)) {
    warmUp(lattice, (m, e, o) => evaluateOnce(m, lattice, lattice.bottom, { label: lattice.bottom, messages: [] }, e, 1_000, o));
  }
  return evaluateOnce(model, lattice, pc, conv, expr, fuel, opts);
}

/** `evaluateV2` without the warm-up. */
function evaluateOnce<L>(
  model: PModel, lattice: Lattice<L>, pc: L, conv: Conversation<L>, expr: Expr<L>, fuel: number, opts: V2Options<L>,
): V2Evaluation<L> {
  const prelude = opts.prelude ?? loadPrelude(lattice, model.preludeSource);
  const ev = new Ev<L>(lattice, model, REFERENCE, prelude, undefined, false);
  const m = new Machine<L>(ev, {
    maxSteps: opts.maxSteps ?? Infinity,
    maxOutcomes: opts.maxOutcomes ?? Infinity,
    memoGeneration: opts.memoGeneration ?? 1 << 14,
    ...(opts.brokenVarRead ? { brokenVarRead: true } : {}),
    ...(opts.direct === false ? { direct: false } : {}),
    ...(opts.frontier !== undefined ? { frontier: opts.frontier } : {}),
    ...(opts.probation !== undefined ? { probation: opts.probation } : {}),
    ...(opts.afterBranch !== undefined ? { afterBranch: opts.afterBranch } : {}),
    ...(opts.forkOutcomes === false ? { forkOutcomes: false } : {}),
  });
  const outs = m.run(pc, { label: conv.label, msgs: ev.internMessages(conv.messages) }, compileProgram(expr), fuel);
  const a = assembleEvaluation(lattice, outs, (c) => ev.publicConv(c), readback);
  // Fields listed, not spread: `{ ...a, … }` measured ≈ 7 µs per evaluation, most of a small one's cost.
  return {
    finals: a.finals,
    missing: a.missing,
    mass: a.mass,
    modelDeficit: a.modelDeficit,
    steps: m.steps,
    memoHits: m.memoHits,
    peakMemo: m.peakMemo,
    peakRound: m.peakRound,
    directRuns: m.directRuns,
    directBails: m.directBails,
    directDepthFirst: m.directDepthFirst,
    directAfterBranch: m.directAfterBranch,
    directFrontier: m.directFrontier,
    premiseOutcomes: m.handed,
    fused: m.fused,
  };
}
