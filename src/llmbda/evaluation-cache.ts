/**
 * Evaluations of case configurations shared by the suites of one process, keyed by content.
 *
 * `llmbda check` runs many suites over the same generated cases: with one seed, TIPNI, Lemma 5 and the leakage
 * suite draw the same pairs (and Insulated TIPNI on lattices where its generator options coincide); Confinement,
 * Lemma 2 and Theorem 3 the same single cases; Stripping, High-blindness and Lemma 13 the same skipping pairs
 * (`CASE_FAMILIES`, api/jobs.ts). Each
 * evaluated every configuration again, and a configuration over the step budget was run to the budget again
 * in every suite (docs/evaluator-v2.md, "Twenty-ninth round"). Evaluation is a pure function of what the key
 * holds, so a configuration evaluated once is evaluated for every suite that meets it again, and one found over
 * the budget is discarded again at once.
 *
 * The key is the configuration's content, not a case object's identity: the fuel, the step budget, the observer
 * (skipping), pc, the conversation (`conversationKey`), the model (its spec's rendering, which names every
 * response and weight) and the program (`print`, which `parse` inverts: the `roundtrip` property in
 * properties/syntax.ts). The semantics and the lattice are the tables' own keys (by identity: a variant, a mutant
 * or a user's lattice gets tables of its own). Only results and `BudgetExceeded` are kept; any other exception
 * (a user's rule throwing, a stack limit) propagates and is not remembered. A `BudgetExceeded` is kept as what it
 * says (message, limit, value), not as the error object: an error keeps its captured stack frames, and with them
 * the receiver of each frame, so the thrown one held the whole evaluating machine (≈ 7 MB after 20,000 steps).
 *
 * The tables together keep the last `SHARED_EVALUATIONS` configurations stored, first in first out, and at most
 * `SHARED_OUTCOMES` outcomes: enough for the default check, which runs the suites that share cases one after the
 * other on each lattice (`familyOrder`, api/jobs.ts), and a bounded memory for any run.
 */
import type { Lattice } from '../lattice/lattice.ts';
import type { Expr } from '../syntax/ast.ts';
import { print } from '../syntax/printer.ts';
import { conversationKey, type Conversation } from '../semantics/config.ts';
import { BudgetExceeded } from '../semantics/errors.ts';
import { evaluate, type Evaluation } from '../semantics/evaluate.ts';
import type { PModel } from '../semantics/model.ts';
import type { Semantics } from '../semantics/rules-types.ts';

/** How many configurations are kept, over all tables. */
export const SHARED_EVALUATIONS = 8192;
/** And how many outcomes (final configurations and failures, plus one per configuration) they may hold together. */
export const SHARED_OUTCOMES = 32_768;

/** One configuration to evaluate, as the suites run it. */
export interface CaseRun<L> {
  /** Its `name` is its key: it must identify the model, as a case spec's rendering (`caseModel`) does. */
  readonly model: PModel;
  readonly pc: L;
  readonly conv: Conversation<L>;
  readonly expr: Expr<L>;
  readonly fuel: number;
  readonly semantics: Semantics;
  /** The observer of the skipping semantics (absent for any other). */
  readonly observer?: L;
  readonly maxSteps: number;
}

/** `evaluate` of one configuration, unshared. */
export function evaluateRun<L>(lat: Lattice<L>, r: CaseRun<L>): Evaluation<L> {
  return evaluate(r.model, lat, r.pc, r.conv, r.expr, r.fuel, {
    semantics: r.semantics, maxSteps: r.maxSteps, ...(r.observer !== undefined ? { observer: r.observer } : {}),
  });
}

/** An evaluation over its budget, as it was reported. */
interface OverBudget { readonly overBudget: true; readonly message: string; readonly limit: BudgetExceeded['limit']; readonly value: number }
type Stored = Evaluation<unknown> | OverBudget;
const isOverBudget = (v: Stored): v is OverBudget => 'overBudget' in v;
type Table = Map<string, Stored>;

/** What `remember` stored, oldest first (from `head` on): the global first-in-first-out order. */
const stored: { table: Table; key: string; weight: number }[] = [];
let head = 0;
let weightKept = 0;
let hits = 0;
let misses = 0;

const tables = new WeakMap<Semantics, WeakMap<object, Table>>();

/** The configuration's key within its (semantics, lattice) table. */
function runKey<L>(lat: Lattice<L>, r: CaseRun<L>): string {
  const obs = r.observer === undefined ? '' : lat.show(r.observer);
  return `${r.fuel} ${r.maxSteps} ${obs}\u0000${lat.show(r.pc)}\u0000${conversationKey(lat, r.conv)}\u0000${r.model.name}\u0000${print(r.expr, lat)}`;
}

function tableOf(sem: Semantics, lat: object): Table {
  let perSem = tables.get(sem);
  if (!perSem) { perSem = new WeakMap(); tables.set(sem, perSem); }
  let t = perSem.get(lat);
  if (!t) { t = new Map(); perSem.set(lat, t); }
  return t;
}

/** Store `v` under `key`, dropping the oldest entries (of any table) while over either bound. */
function remember(t: Table, key: string, v: Stored): void {
  const weight = 1 + (isOverBudget(v) ? 0 : v.finals.size + v.missing.length);
  if (weight > SHARED_OUTCOMES / 8) return; // a large result is not kept: it would push out hundreds of small ones
  t.set(key, v);
  stored.push({ table: t, key, weight });
  weightKept += weight;
  while (stored.length - head > SHARED_EVALUATIONS || weightKept > SHARED_OUTCOMES) {
    const old = stored[head]!;
    stored[head++] = undefined as never;
    old.table.delete(old.key);
    weightKept -= old.weight;
  }
  if (head > 4096 && head * 2 > stored.length) { stored.splice(0, head); head = 0; }
}

/**
 * `evaluate` of the configuration, or the evaluation of an equal configuration done before in this process
 * (the same object: callers must not mutate it, as with every cached evaluation); throws a `BudgetExceeded` saying what
 * the one it threw then said, if it was over the budget.
 */
export function evaluateShared<L>(lat: Lattice<L>, r: CaseRun<L>): Evaluation<L> {
  const t = tableOf(r.semantics, lat);
  const key = runKey(lat, r);
  const hit = t.get(key);
  if (hit === undefined) misses++; else hits++;
  if (hit !== undefined) {
    if (isOverBudget(hit)) throw new BudgetExceeded(hit.message, hit.limit, hit.value);
    return hit as Evaluation<L>;
  }
  let res: Evaluation<L>;
  try {
    res = evaluateRun(lat, r);
  } catch (e) {
    if (BudgetExceeded.is(e)) remember(t, key, { overBudget: true, message: e.message, limit: e.limit, value: e.value });
    throw e;
  }
  remember(t, key, res as Evaluation<unknown>);
  return res;
}

/** Forget every shared evaluation and zero the counts (`check` between groups of jobs; tests). */
export function clearSharedEvaluations(): void {
  for (let i = head; i < stored.length; i++) stored[i]!.table.delete(stored[i]!.key);
  stored.length = 0;
  head = 0;
  weightKept = 0;
  hits = 0;
  misses = 0;
}

/** What the shared table holds, and how often it was asked and found or missed the configuration, since last cleared. */
export function sharedEvaluationStats(): { readonly configurations: number; readonly outcomes: number; readonly hits: number; readonly misses: number } {
  return { configurations: stored.length - head, outcomes: weightKept, hits, misses };
}
