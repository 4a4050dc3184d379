/**
 * The exact probabilistic big-step evaluator: `⟦pc ⊢ C, e⟧ₖ` as a sub-distribution over final
 * configurations, with exact rational weights, plus a report of where the missing mass went.
 */
import * as Q from '../distributions/rational.ts';
import { SubDistBuilder, type SubDist } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { print } from '../syntax/printer.ts';
import { conversationKey, failureKey, type Conversation, type Failure, type Final } from './config.ts';
import { Ev, StackLimitError } from './ev.ts';
import type { PModel } from './model.ts';
import { loadPrelude, type Prelude } from './prelude.ts';
import { REFERENCE } from './rules.ts';
import type { Semantics } from './rules-types.ts';
import { evaluateV2 } from './v2/index.ts';

/** Options of `evaluate`: the semantics (reference by default), the observer for ⇓♯, a step budget. */
export interface EvalOptions<L> {
  /** The rule table (default: the reference semantics). */
  readonly semantics?: Semantics;
  /** The observer `m`, read by the skipping semantics. */
  readonly observer?: L;
  /** Memoise configurations (default true). */
  readonly memoise?: boolean;
  /** Prelude substituted into responses (default: the model's, parsed for this lattice). */
  readonly prelude?: Prelude<L>;
  /**
   * Stop with `BudgetExceeded` (limit `steps`) after this many rule applications (default: no limit).
   * Property runners discard such a case; the CLI's `--max-steps` sets it.
   */
  readonly maxSteps?: number;
  /**
   * Stop with `BudgetExceeded` (limit `outcomes`) as soon as one distribution being built — a rule's
   * result, a sequencing of premises, the responses of a `recv`, the partial runs of a record or array
   * literal — holds more than this many distinct outcomes (final configurations and failures;
   * default: no limit). Evaluator v2 also counts the configurations of a round of tail premises, so it can stop
   * where the substitution evaluator does not (docs/evaluator-v2.md). The CLI's `--max-outcomes` sets it.
   */
  readonly maxOutcomes?: number;
  /**
   * Which engine runs the reference semantics: `auto` (default) uses evaluator v2 (`src/semantics/v2/`)
   * when `semantics` is the reference table and memoisation is on, else the substitution evaluator;
   * `substitution` is the executable spec (`ev.ts` + `rules.ts`); `v2` insists on v2 (an error for any
   * other semantics). Any semantics other than the reference (skipping, variants, user rule files) always
   * runs on the substitution evaluator (docs/evaluator-v2.md).
   */
  readonly engine?: 'auto' | 'substitution' | 'v2';
  /**
   * v2's warm-up evaluations (`V2Options.warmUp`, default true): off where a process evaluates one program only
   * (`llmbda run`), since they pay off from a process's second long evaluation on.
   */
  readonly warmUp?: boolean;
}

/** A failure and the mass that went to it. */
export interface MissingMass {
  readonly failure: Failure;
  readonly weight: Q.Rational;
}

/** The result of `evaluate`: the sub-distribution of final configurations and where the missing mass went. */
export interface Evaluation<L> {
  /** The denotation: final configurations with exact weights. */
  readonly finals: SubDist<Final<L>>;
  /** Where the missing mass went, largest first (stuck with rule and reason, or out of fuel). */
  readonly missing: readonly MissingMass[];
  /** Total mass of `finals`. */
  readonly mass: Q.Rational;
  /** Mass the model itself withheld (sub-distribution responses): 1 − mass − Σ missing. */
  readonly modelDeficit: Q.Rational;
  /** Rule applications performed (a cost measure). */
  readonly steps: number;
  readonly memoHits: number;
}

/**
 * Canonical key of a final configuration (`show`n labels; printer output is injective). The conversation's part
 * is kept for the last conversation object keyed: the finals of one evaluation mostly share theirs (`assembleEvaluation`
 * gives outcomes of one internal conversation one object), and serialising it again for each of 2^16 outcomes
 * was ≈ 10 % of assembling them.
 */
export function finalKey<L>(lat: Lattice<L>): (f: Final<L>) => string {
  let last: Final<L>['conv'] | undefined;
  let lastKey = '';
  return (f) => {
    if (f.conv !== last) { last = f.conv; lastKey = `${conversationKey(lat, f.conv)}|`; }
    return lastKey + print(f.value, lat);
  };
}

/**
 * `⟦pc ⊢ conv, expr⟧_fuel` under `model` and `lattice`. `expr` must be closed (free variables are stuck).
 * Throws `StackLimitError` (with a message naming the limit and what to do) if derivations nest deeper
 * than the JavaScript stack allows, never a raw `RangeError`; throws `BudgetExceeded` (its `limit`
 * says which, its message what to do) when `opts.maxSteps` or `opts.maxOutcomes` is exceeded.
 */
export function evaluate<L>(
  model: PModel,
  lattice: Lattice<L>,
  pc: L,
  conv: Conversation<L>,
  expr: Expr<L>,
  fuel: number,
  opts: EvalOptions<L> = {},
): Evaluation<L> {
  const semantics = opts.semantics ?? REFERENCE;
  const prelude = opts.prelude ?? loadPrelude(lattice, model.preludeSource);
  const engine = opts.engine ?? 'auto';
  if (engine === 'v2' && semantics !== REFERENCE) throw new Error(`internal error: engine v2 runs only the reference semantics, not ${semantics.name}`);
  const v2 = engine === 'v2' || (engine === 'auto' && semantics === REFERENCE && opts.memoise !== false);
  try {
    if (v2) {
      // v2 keeps derivations off the JS stack; only very deeply nested syntax or values can still reach it.
      return evaluateV2(model, lattice, pc, conv, expr, fuel, {
        prelude, ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}), ...(opts.maxOutcomes !== undefined ? { maxOutcomes: opts.maxOutcomes } : {}),
        ...(opts.warmUp === false ? { warmUp: false } : {}),
      });
    }
    return evaluateSubstitution(model, lattice, pc, conv, expr, fuel, semantics, prelude, opts);
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new StackLimitError(
        `evaluation nested deeper than the JavaScript stack allows (fuel ${fuel}). ` +
          'Raise the stack with --stack-mb N (the CLI evaluates in a worker with that stack size); a lower --fuel only turns the deep branches into out-of-fuel mass.',
      );
    }
    throw e;
  }
}

function evaluateSubstitution<L>(
  model: PModel, lattice: Lattice<L>, pc: L, conv: Conversation<L>, expr: Expr<L>, fuel: number,
  semantics: Semantics, prelude: Prelude<L>, opts: EvalOptions<L>,
): Evaluation<L> {
  const ev = new Ev<L>(lattice, model, semantics, prelude, opts.observer, opts.memoise ?? true, opts.maxSteps ?? Infinity, opts.maxOutcomes ?? Infinity);
  const start = { label: conv.label, msgs: ev.internMessages(conv.messages) };
  const out = ev.eval(pc, start, expr, fuel);
  const a = assembleEvaluation(lattice, [...out.map.values()].map(({ outcome, weight }) => ({ out: outcome, weight })), (c) => ev.publicConv(c), (v) => v);
  // Fields listed, not spread: the spread measured ≈ 7 µs per evaluation (docs/evaluator-v2.md).
  return {
    finals: a.finals, missing: a.missing, mass: a.mass, modelDeficit: a.modelDeficit,
    steps: ev.steps,
    memoHits: ev.memoHits,
  };
}

/**
 * An evaluation's report from its weighted outcomes (both engines): final configurations as a
 * sub-distribution, failures by weight (largest first), the mass, and what the model withheld
 * (1 − mass − failures: exactly the missing mass that is no failure).
 */
export function assembleEvaluation<L, C, V>(
  lattice: Lattice<L>,
  outcomes: Iterable<{ readonly out: { readonly kind: 'ok'; readonly conv: C; readonly value: V } | Failure; readonly weight: Q.Rational }>,
  conv: (c: C) => Final<L>['conv'],
  value: (v: V) => Final<L>['value'],
): Pick<Evaluation<L>, 'finals' | 'missing' | 'mass' | 'modelDeficit'> {
  const finals = new SubDistBuilder(finalKey(lattice));
  // Outcomes may repeat (evaluator v2 keeps a root that never merged as a list): failures are merged here by
  // their key, in order of first appearance, as final configurations are by their `SubDistBuilder`.
  const missing = new Map<string, { failure: Failure; weight: Q.Rational }>();
  let mass = Q.ZERO;
  let lost = Q.ZERO;
  // One public conversation per run of outcomes with the same internal one (so `finalKey` keys it once).
  let lastConv: C | undefined;
  let lastPublic: Final<L>['conv'] | undefined;
  for (const { out: outcome, weight } of outcomes) {
    if (outcome.kind === 'ok') {
      if (lastPublic === undefined || outcome.conv !== lastConv) { lastConv = outcome.conv; lastPublic = conv(outcome.conv); }
      finals.add({ conv: lastPublic, value: value(outcome.value) }, weight);
      mass = Q.add(mass, weight);
    } else {
      const k = failureKey(outcome), prev = missing.get(k);
      if (prev === undefined) missing.set(k, { failure: outcome, weight }); else prev.weight = Q.add(prev.weight, weight);
      lost = Q.add(lost, weight);
    }
  }
  const missingList: MissingMass[] = [...missing.values()].sort((a, b) => Q.cmp(b.weight, a.weight));
  return { finals: finals.build(), missing: missingList, mass, modelDeficit: Q.sub(Q.ONE, Q.add(mass, lost)) };
}
