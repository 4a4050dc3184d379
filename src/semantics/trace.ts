/**
 * Derivation traces: which rule applications an evaluation made, and where two semantics part ways.
 *
 * Rules are replaceable by name, so tracing is a rule table whose every entry wraps the table's own
 * rule with a recorder (`tracedSemantics`): the evaluator and rules.ts are untouched, and an evaluation
 * that is not traced pays nothing. A traced evaluation runs without memoisation (a memo hit would skip
 * the rule, leaving a hole in the tree) and under a step budget.
 *
 * The recorded tree holds every rule application of the exact evaluation: a node's premises are the
 * `ev.eval` calls its rule made, in order — for a probabilistic premise, one call per outcome of the
 * premise before it, and for `recv` one per response, in the model's order. `firstDivergence` walks the
 * variant's and the reference's trees of the same configuration in parallel and follows the first
 * premise whose outcome differs, so both sides are followed under the same response choices; it stops
 * at the first node whose own rule decides differently (docs/reports.md, "First diverging rule").
 */
import * as Q from '../distributions/rational.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { print } from '../syntax/printer.ts';
import type { Ev } from './ev.ts';
import type { Conv, ODist } from './odist.ts';
import type { RuleTable, Semantics } from './rules-types.ts';
import { RULE_NAMES, conversationKey, showConversation, type Conversation, type RuleName } from './config.ts';
import { evaluate, type EvalOptions, type Evaluation } from './evaluate.ts';
import type { PModel } from './model.ts';

/** One rule application as recorded: its configuration, its premises (in call order) and its result. */
export interface RawNode<L> {
  readonly rule: RuleName;
  readonly pc: L;
  readonly conv: Conv<L>;
  readonly expr: Expr<L>;
  readonly premises: RawNode<L>[];
  result?: ODist<L>;
  readonly ev: Ev<L>;
}

/** A recorder: the traced semantics and the roots it collects (one per top-level `ev.eval`). */
export interface Recorder<L> {
  readonly semantics: Semantics;
  readonly roots: RawNode<L>[];
}

/** `sem` with every rule wrapped by a recorder (decisions and entry hook kept). */
export function tracedSemantics<L>(sem: Semantics): Recorder<L> {
  const roots: RawNode<L>[] = [];
  const stack: RawNode<L>[] = [];
  const wrap = (name: RuleName, rule: RuleTable[RuleName]): RuleTable[RuleName] => {
    const f = rule as unknown as (ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L>, fuel: number) => ODist<L>;
    return ((ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L>, fuel: number): ODist<L> => {
      const node: RawNode<L> = { rule: name, pc, conv, expr: e, premises: [], ev };
      (stack[stack.length - 1]?.premises ?? roots).push(node);
      stack.push(node);
      try {
        const out = f(ev, pc, conv, e, fuel);
        node.result = out;
        return out;
      } finally {
        stack.pop();
      }
    }) as unknown as RuleTable[RuleName];
  };
  const rules = Object.fromEntries(RULE_NAMES.map((k) => [k, wrap(k, sem.rules[k])])) as unknown as RuleTable;
  return { semantics: { ...sem, name: `traced(${sem.name})`, rules }, roots };
}

/** Default budget of a traced evaluation (rule applications, no memoisation). */
export const TRACE_STEP_BUDGET = 200_000;

/** A traced evaluation: the derivation tree of the whole evaluation, or why there is none. */
export type Trace<L> =
  | { readonly kind: 'traced'; readonly root: RawNode<L> | undefined; readonly evaluation: Evaluation<L> }
  | { readonly kind: 'untraced'; readonly why: string };

/** `⟦pc ⊢ conv, expr⟧_fuel` under `semantics`, recording every rule application (see the module comment). */
export function traceEvaluation<L>(
  model: PModel, lat: Lattice<L>, pc: L, conv: Conversation<L>, expr: Expr<L>, fuel: number,
  semantics: Semantics, opts: Pick<EvalOptions<L>, 'prelude'> & { readonly maxSteps?: number } = {},
): Trace<L> {
  const rec = tracedSemantics<L>(semantics);
  try {
    const evaluation = evaluate(model, lat, pc, conv, expr, fuel, {
      semantics: rec.semantics, memoise: false, maxSteps: opts.maxSteps ?? TRACE_STEP_BUDGET, ...(opts.prelude ? { prelude: opts.prelude } : {}),
    });
    return { kind: 'traced', root: rec.roots[0], evaluation };
  } catch (e) {
    return { kind: 'untraced', why: e instanceof Error ? e.message : String(e) };
  }
}

// ---------------------------------------------------------------------------------------------
// Plain data: what a report shows of a derivation.

/** A rule application as shown: rule name, pc, conversation (label and messages) and expression. */
export interface TraceStep {
  readonly rule: string;
  readonly pc: string;
  /** The conversation's label. */
  readonly label: string;
  /** The conversation, `label:[messages]`. */
  readonly conv: string;
  readonly expr: string;
}

/** An exact weight: the fraction `p/q` and a decimal string with six digits (the JSON report's ratio). */
export interface ExactWeight {
  readonly fraction: string;
  readonly decimal: string;
}

/** `q` as an exact weight. */
export function exactWeight(q: Q.Rational): ExactWeight {
  return { fraction: Q.show(q), decimal: Q.toDecimal(q, 6) };
}

/** One outcome of a rule application: an exact weight and a final configuration or a failure. */
export interface TraceOutcome {
  readonly weight: ExactWeight;
  /** `conv ⊢ value`, `stuck at Rule: reason`, or `out of fuel`. */
  readonly shown: string;
}

/** A rule application with its premises (each with its outcomes) and its own outcomes. */
export interface TraceFragment {
  readonly step: TraceStep;
  readonly premises: readonly { readonly step: TraceStep; readonly outcomes: readonly TraceOutcome[] }[];
  readonly outcomes: readonly TraceOutcome[];
}

/** How the two rule applications at the divergence differ. */
export type DivergenceKind =
  /** Same premises so far, but premise `premise` is run in a different configuration (another pc, conversation or expression). */
  | 'premise'
  /** Same premises with the same outcomes, but one side runs more premises than the other (e.g. a check stops one early). */
  | 'premise-count'
  /** Same premises with the same outcomes, different conclusion. */
  | 'conclusion';

/** Where a variant's derivation and the reference's part ways (both fragments are plain data). */
export interface Divergence {
  /** The rule applications both derivations share, from the root down to (excluding) the diverging one. */
  readonly path: readonly TraceStep[];
  /** The diverging rule application: the rule whose own decision differs. */
  readonly rule: string;
  readonly kind: DivergenceKind;
  /** With `premise`: which premise (0-based, in call order). */
  readonly premise?: number;
  /** One sentence saying how they differ. */
  readonly summary: string;
  readonly variant: TraceFragment;
  readonly reference: TraceFragment;
}

const MAX_EXPR = 72;

/** Shorten a one-line expression for a path line. */
function short(s: string, max = MAX_EXPR): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function stepOf<L>(lat: Lattice<L>, n: RawNode<L>, full = false): TraceStep {
  const c = n.ev.publicConv(n.conv);
  const expr = print(n.expr, lat);
  return { rule: n.rule, pc: lat.show(n.pc), label: lat.show(c.label), conv: showConversation(lat, c), expr: full ? expr : short(expr) };
}

/** The canonical key of a node's configuration (what it was asked to derive). */
function inputKey<L>(lat: Lattice<L>, n: RawNode<L>): string {
  return `${n.rule}|${lat.show(n.pc)}|${conversationKey(lat, n.ev.publicConv(n.conv))}|${print(n.expr, lat)}`;
}

/** A node's outcomes, canonical and sorted (equal exactly when the distributions are equal). */
export function outcomesOf<L>(lat: Lattice<L>, n: RawNode<L>): TraceOutcome[] {
  if (!n.result) return [];
  const out: TraceOutcome[] = [];
  for (const { outcome, weight } of n.result.map.values()) {
    const shown = outcome.kind === 'ok'
      ? `${showConversation(lat, n.ev.publicConv(outcome.conv))} ⊢ ${print(outcome.value, lat)}`
      : outcome.kind === 'fuel' ? 'out of fuel' : `stuck at ${outcome.rule}: ${outcome.reason}`;
    out.push({ weight: exactWeight(weight), shown });
  }
  return out.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
}

const resultKey = <L>(lat: Lattice<L>, n: RawNode<L>): string => outcomesOf(lat, n).map((o) => `${o.weight.fraction} ${o.shown}`).join('\n');

function fragmentOf<L>(lat: Lattice<L>, n: RawNode<L>): TraceFragment {
  return {
    step: stepOf(lat, n, true),
    premises: n.premises.map((p) => ({ step: stepOf(lat, p), outcomes: outcomesOf(lat, p) })),
    outcomes: outcomesOf(lat, n),
  };
}

/**
 * The first rule application where the variant's derivation `v` and the reference's `r` (of the same
 * configuration) differ, or `undefined` when the two derivations have the same outcomes. Descends into
 * the first premise whose outcomes differ; a node is the divergence when a premise is asked in another
 * configuration, when the premises agree but their number differs, or when all premises agree and the
 * conclusion differs. Walks iteratively (derivations can be deep).
 */
export function firstDivergence<L>(lat: Lattice<L>, v: RawNode<L>, r: RawNode<L>): Divergence | undefined {
  if (inputKey(lat, v) !== inputKey(lat, r)) throw new Error('internal error: firstDivergence needs two derivations of the same configuration');
  if (resultKey(lat, v) === resultKey(lat, r)) return undefined;
  const path: TraceStep[] = [];
  let a = v, b = r;
  for (;;) {
    const at = (kind: DivergenceKind, summary: string, premise?: number): Divergence => ({
      path, rule: a.rule, kind, ...(premise !== undefined ? { premise } : {}), summary, variant: fragmentOf(lat, a), reference: fragmentOf(lat, b),
    });
    let next: [RawNode<L>, RawNode<L>] | undefined;
    const n = Math.min(a.premises.length, b.premises.length);
    for (let i = 0; i < n && !next; i++) {
      const pa = a.premises[i]!, pb = b.premises[i]!;
      if (inputKey(lat, pa) !== inputKey(lat, pb)) {
        return at('premise', `${a.rule} runs its premise ${i + 1} in a different configuration: ${describeInputs(lat, pa, pb)}`, i);
      }
      if (resultKey(lat, pa) !== resultKey(lat, pb)) next = [pa, pb];
    }
    if (!next) {
      if (a.premises.length !== b.premises.length) {
        return at('premise-count', `the premises both sides ran agree, but ${a.rule} runs ${a.premises.length} premise(s) under the variant and ${b.premises.length} under the reference (one side stops early)`);
      }
      return at('conclusion', `${a.rule}'s premises agree, but its conclusion differs`);
    }
    path.push(stepOf(lat, a));
    [a, b] = next;
  }
}

/** How two configurations of the same premise differ (pc, conversation, expression). */
function describeInputs<L>(lat: Lattice<L>, a: RawNode<L>, b: RawNode<L>): string {
  const sa = stepOf(lat, a), sb = stepOf(lat, b);
  const diffs: string[] = [];
  if (sa.pc !== sb.pc) diffs.push(`pc ${sa.pc} (variant) vs ${sb.pc} (reference)`);
  if (sa.conv !== sb.conv) diffs.push(`conversation ${sa.conv} (variant) vs ${sb.conv} (reference)`);
  if (sa.expr !== sb.expr || sa.rule !== sb.rule) diffs.push(`expression ${sa.expr} (variant) vs ${sb.expr} (reference)`);
  return diffs.join('; ') || 'the same rendering, different configuration';
}
