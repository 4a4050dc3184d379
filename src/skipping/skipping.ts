/**
 * The m-skipping semantics `⇓♯` (spec §7): the witness of the TIPNI proof. It is the reference rule
 * table with the skip behaviour added where the spec says — same shape, same fuel — and it reads the
 * observer `m` from `ev.observer`. Outside the skips it runs the reference helpers, which read the label
 * decisions of the running semantics (decisions.ts): a generated mutant's ⇓♯ follows the mutant. It never samples, tests or decodes anything high (`⋢ m`), returning
 * the dummy `{}` instead, so it cannot tell `∼m`-related inputs apart.
 */
import type { Ev } from '../semantics/ev.ts';
import type { Conv, ODist } from '../semantics/odist.ts';
import type { EntryHook, RuleTable, Semantics } from '../semantics/rules-types.ts';
import {
  REFERENCE_RULES, appBody, arrayPosition, endorseAfter, fieldAfter, labelFlowAfter, labelTestAfter, primAfter, sendAfter,
} from '../semantics/rules.ts';
import type { Expr, Value } from '../syntax/ast.ts';
import { describeValue } from '../semantics/values.ts';
import { decisionsOf, joinOf } from '../semantics/decisions.ts';

/** The observer the skipping rules compare against. */
function observer<L>(ev: Ev<L>): L {
  if (ev.observer === undefined) throw new Error('internal error: the skipping semantics needs an observer m');
  return ev.observer;
}

/** `l ⋢ m`: is this label invisible to the observer. */
function high<L>(ev: Ev<L>, l: L): boolean {
  return !ev.leq(l, observer(ev));
}

/** 1. Skip at entry:  pc ⋢ m  ⟹  pc ⊢ C, e ⇓♯ C, pc:{} ▷ 1, ε   (subsumes Labelled-Skip and App-Skip) */
export const skipAtEntry: EntryHook = (ev, pc, conv) => (high(ev, pc) ? ev.ret(conv, ev.unit(pc)) : undefined);

/** 2. App♯: e1 ⇓♯ C1, l1:v1; e2 ⇓♯ C2, V2 (always: its low effects are kept); l1 ⋢ m ⟹ C2, l1:{} (no function check). */
export function skipApp<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'app' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.fn, fuel), (c1, f) =>
    ev.then(ev.eval(pc, c1, e.arg, fuel), (c2, v2) => (high(ev, f.label) ? ev.ret(c2, ev.unit(f.label)) : appBody(ev, c2, f, v2, fuel, pc))),
  );
}

/** 3. Send♯: after e, lc ⋢ m ⟹ C1, pc:{} (nothing appended, no pc ⊑ lc check). */
export function skipSend<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'send' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => (high(ev, c1.label) ? ev.ret(c1, ev.unit(pc)) : sendAfter(ev, pc, c1, v)));
}

/** 4. Recv♯: lc ⋢ m ⟹ C, lc:{} ▷ 1, ε (no sampling, no check). */
export function skipRecv<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'recv' }, fuel: number): ODist<L> {
  if (high(ev, conv.label)) return ev.ret(conv, ev.unit(conv.label));
  return REFERENCE_RULES.Recv(ev, pc, conv, e, fuel);
}

/** 5. Clear♯: lc ⋢ m ⟹ pc:ε, pc:{} (no check). */
export function skipClear<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'clear' }, fuel: number): ODist<L> {
  if (high(ev, conv.label)) return ev.ret({ label: pc, msgs: null }, ev.unit(pc));
  return REFERENCE_RULES.Clear(ev, pc, conv, e, fuel);
}

/** 6. LabelFlow♯: after e1, n ⋢ m ⟹ C1, (pc ⊔ n):{} without decoding. */
export function skipLabelFlow<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'dynlabel' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => skipHighPolicy(ev, pc, c1, v1) ?? labelFlowAfter(ev, pc, c1, v1, e, fuel));
}

/** 6. LabelTest♯: after e1, n ⋢ m ⟹ C1, (pc ⊔ n):{} without decoding. */
export function skipLabelTest<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'test' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => skipHighPolicy(ev, pc, c1, v1) ?? labelTestAfter(ev, pc, c1, v1, e, fuel));
}

/** 6. Endorse♯: after e1, n ⋢ m ⟹ C1, (pc ⊔ n):{} without decoding. */
export function skipEndorse<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'endorse' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => skipHighPolicy(ev, pc, c1, v1) ?? endorseAfter(ev, pc, c1, v1, e, fuel));
}

/** The shared skip of rule 6: the policy value's own label `n` is high. */
function skipHighPolicy<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v1: Value<L>): ODist<L> | undefined {
  const n = ev.deepLabel(v1);
  return high(ev, n) ? ev.ret(c1, ev.unit(ev.join(pc, n))) : undefined;
}

/**
 * 7. LabelAssert♯: l2 ⋢ m ⟹ the assertion passes (C2, pc:{}); `n ⋢ m` stays stuck (by `n ⊑ pc ⊑ m`).
 */
export function skipLabelAssert<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'assert' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
    const { label: n, plain } = ev.flatten(v1);
    const D = decisionsOf(ev).LabelAssert;
    if (D.nCheck && !ev.leq(n, pc)) return ev.stuck('LabelAssert', `the policy label's own label ${ev.show(n)} does not flow to pc ${ev.show(pc)}`);
    const l = ev.toLabel(plain);
    if (l === undefined) return ev.stuck('LabelAssert', `${describeValue(ev, v1)} is not a label of ${ev.lat.name}`);
    return ev.then(ev.eval(pc, c1, e.body, fuel), (c2, v2) => {
      if (high(ev, v2.label) || !D.policy || ev.leq(v2.label, l)) return ev.ret(c2, ev.unit(joinOf(ev, D.result, { pc, n, l, l2: v2.label })));
      return ev.stuck('LabelAssert', `policy violation: ${ev.show(v2.label)} does not flow to ${ev.show(l)}`);
    });
  });
}

/** 8. Prim♯: deepLabel(V) ⋢ m ⟹ C', (pc ⊔ deepLabel(V)):{} without calling primEval. */
export function skipPrim<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'prim' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => {
    const d = ev.deepLabel(v);
    return high(ev, d) ? ev.ret(c1, ev.unit(ev.join(pc, d))) : primAfter(ev, pc, c1, v, e);
  });
}

/** 9a. FieldAccess♯: record label l1 ⋢ m ⟹ C1, l1:{} (no shape check). */
export function skipFieldAccess<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'field' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.target, fuel), (c1, r) => (high(ev, r.label) ? ev.ret(c1, ev.unit(r.label)) : fieldAfter(ev, c1, r, e, pc)));
}

/**
 * 9b. ArrayIndex♯: l1 ⋢ m ⟹ evaluate e' ⇓♯ C2, l2:i, return C2, (l1 ⊔ l2):{} (no shape check);
 * l1 ⊑ m ⟹ check it is an array, evaluate e', and l2 ⋢ m ⟹ C2, (l1 ⊔ l2):{} (no bounds check).
 */
export function skipArrayIndex<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'index' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.target, fuel), (c1, a) => {
    if (!high(ev, a.label) && a.body.kind !== 'array') return ev.stuck('ArrayIndex', `indexing a non-array ${describeValue(ev, a)}`);
    return ev.then(ev.eval(pc, c1, e.index, fuel), (c2, i) => {
      const l = ev.join(a.label, i.label);
      if (high(ev, l) || a.body.kind !== 'array') return ev.ret(c2, ev.unit(l));
      const k = arrayPosition(i.body, a.body.elems.length);
      if (k === undefined) return ev.stuck('ArrayIndex', `index ${describeValue(ev, i)} out of bounds for length ${a.body.elems.length}`);
      return ev.ret(c2, ev.raise(l, a.body.elems[k]!));
    });
  });
}

/** The skipping rule table: the reference table with spec §7's changes. */
export const SKIPPING_RULES: RuleTable = {
  ...REFERENCE_RULES,
  App: skipApp,
  Send: skipSend,
  Recv: skipRecv,
  Clear: skipClear,
  LabelFlow: skipLabelFlow,
  LabelTest: skipLabelTest,
  Endorse: skipEndorse,
  LabelAssert: skipLabelAssert,
  Prim: skipPrim,
  FieldAccess: skipFieldAccess,
  ArrayIndex: skipArrayIndex,
};

/** `⇓♯` (spec §7). Evaluate it with `evaluate(…, { semantics: SKIPPING, observer: m })`. */
export const SKIPPING: Semantics = {
  name: 'skipping',
  description: 'The m-skipping semantics ⇓♯ of spec §7 (the TIPNI proof witness).',
  rules: SKIPPING_RULES,
  entry: skipAtEntry,
};

