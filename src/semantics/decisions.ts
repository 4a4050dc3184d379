/**
 * The label decisions of the reference rules, as data (spec §3): for each rule, the no-sensitive-upgrade
 * side conditions it checks, the pc its premises run at where that is not the incoming pc, and the label
 * of its result (or of the conversation it leaves) — each label a join over the rule's own label variables
 * {pc, n, l, lc, l1, l2, …}. The rule functions in rules.ts read these (`decisionsOf(ev)`), so a *generated
 * mutant* (src/variants/mutants.ts) is the reference with one entry weakened, and the skipping semantics
 * ⇓♯, which calls the same helpers, follows the mutant by construction.
 */
import type { Ev } from './ev.ts';

/** A label as the rules write it: the join of some of the rule's label variables (`[]` is ⊥). */
export type Join = readonly string[];

/** One rule's decisions: side conditions (`true` = checked) and labels (joins). */
export type RuleDecisions = Readonly<Record<string, Join | boolean>>;

/** The decisions of every rule that makes one. */
export interface Decisions {
  /** Lam: the closure is labelled `pc`. */
  readonly Lam: { readonly result: Join };
  /** App: the body runs at the function's label `l1`. */
  readonly App: { readonly body: Join };
  /** Send: `pc ⊑ lc`; the conversation becomes `lc ⊔ n`; the result is `pc:{}`. */
  readonly Send: { readonly nsu: boolean; readonly conv: Join; readonly result: Join };
  /** Recv: `pc ⊑ lc`; the response's code runs at `lc`; the conversation keeps `lc`. */
  readonly Recv: { readonly nsu: boolean; readonly body: Join; readonly conv: Join };
  /** Fork: the conversation label is restored to the old `lc` (`lc'` is the label the body left). */
  readonly Fork: { readonly conv: Join };
  /** Clear: `pc ⊑ lc`; the conversation is reset to `pc:ε`; the result is `pc:{}`. */
  readonly Clear: { readonly nsu: boolean; readonly conv: Join; readonly result: Join };
  /** Labelled: the body runs at `pc ⊔ l`. */
  readonly Labelled: { readonly body: Join };
  /** LabelFlow: the body runs at `pc ⊔ n ⊔ l`. */
  readonly LabelFlow: { readonly body: Join };
  /** LabelTest: the body runs at `pc ⊔ n`; the answer is labelled `pc ⊔ n ⊔ l`. */
  readonly LabelTest: { readonly body: Join; readonly result: Join };
  /** LabelAssert: `n ⊑ pc`; the policy `l2 ⊑ l`; the result is `pc:{}`. */
  readonly LabelAssert: { readonly nCheck: boolean; readonly policy: boolean; readonly result: Join };
  /** Endorse: the body runs at `pc ⊔ n`; the result is labelled `pc ⊔ ⟨l1←, l2→⟩` (`endorsed`). */
  readonly Endorse: { readonly body: Join; readonly result: Join };
  readonly ScalarLit: { readonly result: Join };
  /** Prim: the result is labelled `pc ⊔ deepLabel(V)` (`deep`). */
  readonly Prim: { readonly result: Join };
  readonly RecordNil: { readonly result: Join };
  readonly RecordCons: { readonly result: Join };
  readonly ArrayNil: { readonly result: Join };
  readonly ArrayCons: { readonly result: Join };
  /** FieldAccess: the field is raised by the record's label `l1`. */
  readonly FieldAccess: { readonly result: Join };
  /** ArrayIndex: the element is raised by `l1 ⊔ l2` (array and index labels). */
  readonly ArrayIndex: { readonly result: Join };
}

export type DecidingRule = keyof Decisions;

/** The decisions of the reference rules (spec §3). */
export const REFERENCE_DECISIONS: Decisions = {
  Lam: { result: ['pc'] },
  App: { body: ['l1'] },
  Send: { nsu: true, conv: ['lc', 'n'], result: ['pc'] },
  Recv: { nsu: true, body: ['lc'], conv: ['lc'] },
  Fork: { conv: ['lc'] },
  Clear: { nsu: true, conv: ['pc'], result: ['pc'] },
  Labelled: { body: ['pc', 'l'] },
  LabelFlow: { body: ['pc', 'n', 'l'] },
  LabelTest: { body: ['pc', 'n'], result: ['pc', 'n', 'l'] },
  LabelAssert: { nCheck: true, policy: true, result: ['pc'] },
  Endorse: { body: ['pc', 'n'], result: ['pc', 'endorsed'] },
  ScalarLit: { result: ['pc'] },
  Prim: { result: ['pc', 'deep'] },
  RecordNil: { result: ['pc'] },
  RecordCons: { result: ['pc'] },
  ArrayNil: { result: ['pc'] },
  ArrayCons: { result: ['pc'] },
  FieldAccess: { result: ['l1'] },
  ArrayIndex: { result: ['l1', 'l2'] },
};

/** The label variables in scope at each rule's decisions (what a join may mention). */
export const RULE_LABEL_VARS: { readonly [K in DecidingRule]: readonly string[] } = {
  Lam: ['pc'],
  App: ['pc', 'l1'],
  Send: ['pc', 'lc', 'n'],
  Recv: ['pc', 'lc'],
  Fork: ['pc', 'lc', "lc'"],
  Clear: ['pc', 'lc'],
  Labelled: ['pc', 'l'],
  LabelFlow: ['pc', 'n', 'l'],
  LabelTest: ['pc', 'n', 'l'],
  LabelAssert: ['pc', 'n', 'l', 'l2'],
  Endorse: ['pc', 'n', 'endorsed'],
  ScalarLit: ['pc'],
  Prim: ['pc', 'deep'],
  RecordNil: ['pc'],
  RecordCons: ['pc'],
  ArrayNil: ['pc'],
  ArrayCons: ['pc'],
  FieldAccess: ['pc', 'l1'],
  ArrayIndex: ['pc', 'l1', 'l2'],
};

/**
 * The label variables in scope at one decision point: the rule's, except a variable bound by a later
 * premise — Endorse's `endorsed` (it needs `l2`, the body's label) is not in scope for the pc its body
 * runs at.
 */
export function pointLabelVars(rule: DecidingRule, point: string): readonly string[] {
  return RULE_LABEL_VARS[rule].filter((x) => x !== 'endorsed' || point === 'result');
}

/** Some rules' decisions replaced (a generated mutant, or a variant's label choices). */
export type DecisionChanges = { readonly [K in DecidingRule]?: Partial<Decisions[K]> };

/** The reference decisions with `changes` applied. */
export function withDecisions(changes: DecisionChanges): Decisions {
  const out: Record<string, RuleDecisions> = { ...REFERENCE_DECISIONS };
  for (const [rule, d] of Object.entries(changes)) out[rule] = { ...out[rule], ...d } as RuleDecisions;
  return out as unknown as Decisions;
}

/** The decisions the running semantics makes (the reference's unless it carries its own). */
export function decisionsOf<L>(ev: Ev<L>): Decisions {
  return ev.semantics.decisions ?? REFERENCE_DECISIONS;
}

/** The label a join denotes, given the rule's label variables (`[]` is ⊥). */
export function joinOf<L>(ev: Ev<L>, j: Join, vars: Readonly<Record<string, L>>): L {
  const at = (x: string): L => {
    const v = vars[x];
    if (v === undefined) throw new Error(`internal error: label variable ${x} is not in scope (in scope: ${Object.keys(vars).join(', ')})`);
    return v;
  };
  if (j.length === 0) return ev.lat.bottom;
  let out = at(j[0]!);
  for (let i = 1; i < j.length; i++) out = ev.join(out, at(j[i]!));
  return out;
}

/** A join as the paper writes it: `pc ⊔ n`, `⊥`. */
export function showJoin(j: Join): string {
  return j.length === 0 ? '⊥' : j.join(' ⊔ ');
}
