/**
 * The context the LLMbda theorem suites run in: a lattice, the semantics under test (the reference or a
 * variant), the skipping semantics, and the generator settings. Plus the shared machinery the suites
 * use: evaluate both sides of a pair, observe, render a case.
 */
import type { Lattice } from '../lattice/lattice.ts';
import type { PropertySuite } from '../runner/suite.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import { REFERENCE } from '../semantics/rules.ts';
import { SKIPPING } from '../skipping/skipping.ts';
import type { Evaluation } from '../semantics/evaluate.ts';
import { evaluateRun, evaluateShared, type CaseRun } from './evaluation-cache.ts';
import { modelOf, showModelSpec, type ModelSpec } from '../generators/models.ts';
import type { PModel } from '../semantics/model.ts';
import { Recent } from '../runner/recent.ts';
import type { Profile, Side } from '../generators/programs.ts';
import { conversationOf, programOf, type PairCase, type SingleCase } from '../generators/pairs.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { showConversation } from '../semantics/config.ts';
import { observe } from '../observe/indist.ts';
import type { SubDist } from '../distributions/subdist.ts';

/** The context of an LLMbda theorem suite: lattice, semantics and skipping semantics under test, generator settings. */
export interface LlmbdaCtx<L> {
  readonly lat: Lattice<L>;
  /** The semantics under test `⇓` (reference unless hunting a variant). */
  readonly semantics: Semantics;
  /** The skipping semantics `⇓♯` under test. */
  readonly skipping: Semantics;
  readonly profile: Profile;
  readonly maxDepth?: number;
  /** Step budget per evaluation (default `CASE_STEP_BUDGET`). */
  readonly maxSteps?: number;
  /**
   * Evaluate through the table shared by the suites of this process (llmbda/evaluation-cache.ts): set by `check`
   * for the suites that draw the same cases (`CASE_FAMILIES`, api/jobs.ts). Off by default: a run that meets no
   * configuration twice would only pay for the keys and the memory.
   */
  readonly shared?: boolean;
  /** The reference semantics reports compare against (default `REFERENCE`; a variant with added primitives sets it to the reference with them). */
  readonly reference?: Semantics;
}

/** An LLMbda theorem suite of any case type (pair or single), run in an `LlmbdaCtx`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LlmbdaSuite = PropertySuite<any, LlmbdaCtx<unknown>>;

/** The reference context on a lattice. */
export function referenceCtx<L>(lat: Lattice<L>, extra: Partial<LlmbdaCtx<L>> = {}): LlmbdaCtx<L> {
  return { lat, semantics: REFERENCE, skipping: SKIPPING, profile: 'tuned', ...extra };
}

/** Models of the last few case specs. */
const models = new Recent<ModelSpec, PModel>();

/** The model a case's spec denotes, built once per spec object (both sides, stats and check share it; models are pure). */
export function caseModel(spec: ModelSpec): PModel {
  let m = models.get(spec);
  if (!m) { m = modelOf(spec); models.set(spec, m); }
  return m;
}

/** `⟦pc ⊢ C_side, e_side⟧` under the context's semantics (or the skipping one). */
export function runSide<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, side: Side, skipping = false): Evaluation<L> {
  return caseEvaluation(ctx, {
    model: caseModel(c.model), pc: c.pc, conv: conversationOf(c, side), expr: programOf(c, side), fuel: c.fuel,
    maxSteps: ctx.maxSteps ?? CASE_STEP_BUDGET, ...(skipping ? { semantics: ctx.skipping, observer: c.obs } : { semantics: ctx.semantics }),
  });
}

/** Evaluate one configuration of a case: through the shared table when the context says so. */
function caseEvaluation<L>(ctx: LlmbdaCtx<L>, r: CaseRun<L>): Evaluation<L> {
  return ctx.shared ? evaluateShared(ctx.lat, r) : evaluateRun(ctx.lat, r);
}

/**
 * Default step budget per evaluation in the suites: a handful of generated programs ask the model
 * recursively and blow up exponentially; they are discarded rather than stalling a run.
 */
export const CASE_STEP_BUDGET = 20_000;

/** Per semantics, the last few single cases' evaluations (see `Recent` for why not a WeakMap per case). */
const singleCache = new WeakMap<object, Recent<object, Evaluation<unknown>>>();

/**
 * `⟦pc ⊢ C, e⟧` of a single case, cached per (semantics, recent case object): a suite's `stats` and `check` see
 * the same case one after the other.
 */
export function runSingle<L>(ctx: LlmbdaCtx<L>, c: SingleCase<L>): Evaluation<L> {
  let perSem = singleCache.get(ctx.semantics);
  if (!perSem) { perSem = new Recent(); singleCache.set(ctx.semantics, perSem); }
  const hit = perSem.get(c) as Evaluation<L> | undefined;
  if (hit) return hit;
  const res = caseEvaluation(ctx, { model: caseModel(c.model), pc: c.pc, conv: c.conv, expr: c.expr, fuel: c.fuel, semantics: ctx.semantics, maxSteps: ctx.maxSteps ?? CASE_STEP_BUDGET });
  perSem.set(c, res as Evaluation<unknown>);
  return res;
}

/** `μₘ` of one side. */
export function observedSide<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, side: Side, skipping = false): SubDist<string> {
  return observe(ctx.lat, c.obs, runSide(ctx, c, side, skipping).finals);
}

/** Render a pair case for a counterexample report. */
export function showPair<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>): string {
  const { lat } = ctx;
  const p0 = prettyPrint(programOf(c, 0), lat);
  const p1 = prettyPrint(programOf(c, 1), lat);
  return [
    `lattice ${lat.name}, observer m = ${lat.show(c.obs)}, pc = ${lat.show(c.pc)}, fuel ${c.fuel}`,
    `model: ${showModelSpec(c.model)}`,
    `run 0: ${showConversation(lat, conversationOf(c, 0))} ⊢ ${p0}`,
    `run 1: ${showConversation(lat, conversationOf(c, 1))} ⊢ ${p1}`,
  ].join('\n');
}

/** Render a single case. */
export function showSingle<L>(ctx: LlmbdaCtx<L>, c: SingleCase<L>): string {
  const { lat } = ctx;
  return [
    `lattice ${lat.name}, pc = ${lat.show(c.pc)}, fuel ${c.fuel}`,
    `model: ${showModelSpec(c.model)}`,
    `program: ${showConversation(lat, c.conv)} ⊢ ${prettyPrint(c.expr, lat)}`,
  ].join('\n');
}
