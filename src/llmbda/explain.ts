/**
 * Why a case fails, as plain data (it crosses worker threads and goes into the JSON report): each run's
 * exact outcomes under the semantics under test and under the reference, the final configurations before
 * the observer's erasure beside what the observer sees, and the first rule application where the two
 * derivations part ways (src/semantics/trace.ts). The text report (report.ts) and the HTML report
 * (src/report/html.ts) both render this, so they say the same thing.
 */
import * as Q from '../distributions/rational.ts';
import { entries } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { children, withChildren } from '../syntax/helpers.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { failureKey, showConversation, type Conversation, type Final } from '../semantics/config.ts';
import { evaluate, type Evaluation } from '../semantics/evaluate.ts';
import { REFERENCE } from '../semantics/rules.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import { exactWeight, firstDivergence, traceEvaluation, type Divergence, type ExactWeight } from '../semantics/trace.ts';
import { modelOf } from '../generators/models.ts';
import { conversationOf, programOf, type PairCase, type SingleCase } from '../generators/pairs.ts';
import { CASE_STEP_BUDGET, type LlmbdaCtx } from './context.ts';
import type { ModelSpec } from '../generators/models.ts';

/** A final configuration as its observer sees it: high labelled parts and a high conversation shown as `•`. */
export function showObservedFinal<L>(lat: Lattice<L>, m: L, f: Final<L>): string {
  const erase = (e: Expr<L>): Expr<L> =>
    e.kind === 'label' && !lat.leq(e.label, m) ? { kind: 'var', name: '__erased__' } : withChildren(e, children(e).map(erase));
  const conv = lat.leq(f.conv.label, m) ? showConversation(lat, f.conv) : '•';
  return `${conv} ⊢ ${prettyPrint(erase(f.value), lat).replace(/__erased__/g, '•')}`;
}

/** A final configuration with its exact weight: unerased, and as the observer sees it (pair cases). */
export interface FinalRow {
  readonly weight: ExactWeight;
  /** `C', V` unerased: `label:[messages] ⊢ value`. */
  readonly config: string;
  /** What the observer sees of it (`•` for what it cannot see); `null` for single-run cases. */
  readonly observed: string | null;
}

/** Where a unit of missing mass went: `stuck at Rule: reason`, `out of fuel`, or withheld by the model. */
export interface MissingRow {
  /** `null` when the run could not be evaluated (`what` says why). */
  readonly weight: ExactWeight | null;
  readonly what: string;
}

/** The exact denotation of one run under one semantics. */
export interface RunOutcomes {
  readonly semantics: string;
  readonly finals: readonly FinalRow[];
  readonly missing: readonly MissingRow[];
}

/** One run (a side of a pair, or the single run) under the semantics under test and under the reference. */
export interface RunExplanation {
  /** `run 0`, `run 1`, or `the run`. */
  readonly run: string;
  /** `pc ⊢ conversation` the run starts in. */
  readonly start: string;
  readonly variant: RunOutcomes;
  /** `null` when the semantics under test is the reference itself. */
  readonly reference: RunOutcomes | null;
  /** The first diverging rule application, `null` when the derivations agree (or there is no reference to compare). */
  readonly divergence: Divergence | null;
  /** Why no derivation could be traced (too many rule applications, …), when so. */
  readonly untraced: string | null;
}

/** The m-observation table of a pair: one row per `∼m` class, exact weights per run. */
export interface ObservedTable {
  readonly rows: readonly { readonly shown: string; readonly w0: ExactWeight; readonly w1: ExactWeight }[];
  readonly mass0: ExactWeight;
  readonly mass1: ExactWeight;
  /** `Σ max(μ0, μ1)` exactly. */
  readonly maxSum: ExactWeight;
  /** `Σ max > 1`: the observer tells the runs apart. */
  readonly incompatible: boolean;
}

/** Everything the report of one failing case shows, as plain data. */
export interface CaseExplanation {
  readonly kind: 'pair' | 'single';
  /** The semantics under test (a variant's name, or `reference`). */
  readonly semantics: string;
  readonly lattice: string;
  /** The observer `m` (pairs), else `null`. */
  readonly observer: string | null;
  readonly pc: string;
  readonly fuel: number;
  /** The model, as a spec (e.g. `constant [0 ↦ 1]`). */
  readonly model: string;
  /** The low skeleton with its holes `⟦l: run 0 | run 1⟧` (pairs with holes), else `null`. */
  readonly skeleton: string | null;
  /** The program of each run (one for single cases), pretty-printed on several lines. */
  readonly programs: readonly string[];
  /** The starting conversation of each run. */
  readonly conversations: readonly string[];
  /** What the observer sees under the semantics under test (pairs), else `null`. */
  readonly observed: ObservedTable | null;
  readonly runs: readonly RunExplanation[];
}

/** Every notation the reports use, with its meaning (printed under every report, and in the HTML). */
export const LEGEND: readonly (readonly [string, string])[] = [
  ['l:e', 'the expression e carrying label l; a value l:v is v labelled l'],
  ['pc ⊢ C, e', 'e runs at program counter label pc in conversation C = label:[messages]'],
  ['C ⊢ V', 'a final configuration: the conversation C and the value V a run ends with'],
  ['•', 'erased: a part the observer m cannot see (its label does not flow to m); a whole conversation is • when its label does not'],
  ['⟦l: a | b⟧', 'a hole of the shared low skeleton, labelled l (high: m cannot see it), filled with a in run 0 and b in run 1'],
  ['*', 'in a side-by-side listing (the two programs, the two derivation fragments): a line where the two sides differ'],
  ['p/q', 'an exact probability (a rational, never rounded)'],
  ['#### / bar', 'a bar of 20 cells: the share of the filled cells is the weight (rounded for the bar only; the fraction is exact)'],
  ['mass', 'the total probability of the final configurations; what is missing went to stuck runs, fuel, or the model'],
  ['Σ max', 'Σ over the observed classes of max(run 0, run 1); > 1 means no single sub-distribution explains both runs: m tells them apart (a leak)'],
  ['stuck at R: why', 'no rule applies: rule R\'s side condition failed, for the reason given (missing mass, not an exception)'],
  ['out of fuel', 'the derivation was deeper than the fuel allows (missing mass)'],
  ['constant {"r": p, …}', 'a model answering r with probability p, whatever the conversation'],
  ['hashed(seed s) [t0 | t1 | …]', 'a model whose response table is picked by a hash (seeded with s) of the conversation so far: the answer depends on what was said'],
  ['echo', 'a model answering the last message of the conversation'],
  ['first diverging rule', 'the first rule application (following the first premise whose outcome differs) where the variant and the reference decide differently'],
];

/** The reference semantics a context compares against (with the context's primitives). */
const referenceOf = (ctx: LlmbdaCtx<unknown>): Semantics => ctx.reference ?? REFERENCE;

function outcomesOf<L>(lat: Lattice<L>, name: string, e: Evaluation<L>, m: L | undefined): RunOutcomes {
  const finals = entries(e.finals).map(([f, w]): FinalRow => ({
    weight: exactWeight(w), config: `${showConversation(lat, f.conv)} ⊢ ${prettyPrint(f.value, lat)}`, observed: m === undefined ? null : showObservedFinal(lat, m, f),
  }));
  const missing: MissingRow[] = e.missing.map((x) => ({ weight: exactWeight(x.weight), what: x.failure.kind === 'fuel' ? 'out of fuel' : `stuck at ${failureKey(x.failure).slice('stuck '.length)}` }));
  if (!Q.isZero(e.modelDeficit)) missing.push({ weight: exactWeight(e.modelDeficit), what: 'withheld by the model (a sub-distribution model)' });
  return { semantics: name, finals, missing };
}

interface RunInput<L> {
  readonly run: string;
  readonly model: ModelSpec;
  readonly pc: L;
  readonly conv: Conversation<L>;
  readonly expr: Expr<L>;
  readonly fuel: number;
  readonly obs: L | undefined;
}

/** One run under the semantics under test and the reference, with the first diverging rule application. */
function explainRun<L>(ctx: LlmbdaCtx<L>, r: RunInput<L>): RunExplanation {
  const { lat } = ctx;
  const model = modelOf(r.model);
  const ref = referenceOf(ctx as LlmbdaCtx<unknown>);
  const run = (sem: Semantics): Evaluation<L> | string => {
    try {
      return evaluate(model, lat, r.pc, r.conv, r.expr, r.fuel, { semantics: sem, maxSteps: ctx.maxSteps ?? CASE_STEP_BUDGET });
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  const asOutcomes = (name: string, e: Evaluation<L> | string): RunOutcomes =>
    typeof e === 'string' ? { semantics: name, finals: [], missing: [{ weight: null, what: `not evaluated: ${e}` }] } : outcomesOf(lat, name, e, r.obs);
  const start = `${lat.show(r.pc)} ⊢ ${showConversation(lat, r.conv)}`;
  const variant = asOutcomes(ctx.semantics.name, run(ctx.semantics));
  const isReference = ctx.semantics === ref || ctx.semantics.name === ref.name;
  if (isReference) return { run: r.run, start, variant, reference: null, divergence: null, untraced: null };
  const reference = asOutcomes('reference', run(ref));
  const tv = traceEvaluation(model, lat, r.pc, r.conv, r.expr, r.fuel, ctx.semantics);
  const tr = traceEvaluation(model, lat, r.pc, r.conv, r.expr, r.fuel, ref);
  if (tv.kind === 'untraced' || tr.kind === 'untraced') {
    return { run: r.run, start, variant, reference, divergence: null, untraced: tv.kind === 'untraced' ? tv.why : tr.kind === 'untraced' ? tr.why : null };
  }
  const divergence = tv.root && tr.root ? firstDivergence(lat, tv.root, tr.root) ?? null : null;
  return { run: r.run, start, variant, reference, divergence, untraced: null };
}

/** The explanation of a pair case under `ctx` (the semantics under test), beside the reference. */
export function explainPair<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, observed: ObservedTable, skeleton: string | null, model: string): CaseExplanation {
  const { lat } = ctx;
  const runs = ([0, 1] as const).map((side) =>
    explainRun(ctx, { run: `run ${side}`, model: c.model, pc: c.pc, conv: conversationOf(c, side), expr: programOf(c, side), fuel: c.fuel, obs: c.obs }));
  return {
    kind: 'pair', semantics: ctx.semantics.name, lattice: lat.name, observer: lat.show(c.obs), pc: lat.show(c.pc), fuel: c.fuel, model, skeleton,
    programs: [0, 1].map((s) => prettyPrint(programOf(c, s as 0 | 1), lat, { multiline: true })),
    conversations: [0, 1].map((s) => showConversation(lat, conversationOf(c, s as 0 | 1))),
    observed, runs,
  };
}

/** The explanation of a single-run case under `ctx`, beside the reference. */
export function explainSingle<L>(ctx: LlmbdaCtx<L>, c: SingleCase<L>, model: string): CaseExplanation {
  const { lat } = ctx;
  return {
    kind: 'single', semantics: ctx.semantics.name, lattice: lat.name, observer: null, pc: lat.show(c.pc), fuel: c.fuel, model, skeleton: null,
    programs: [prettyPrint(c.expr, lat, { multiline: true })], conversations: [showConversation(lat, c.conv)], observed: null,
    runs: [explainRun(ctx, { run: 'the run', model: c.model, pc: c.pc, conv: c.conv, expr: c.expr, fuel: c.fuel, obs: undefined })],
  };
}
