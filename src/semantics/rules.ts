/**
 * The reference semantics of LLMbda (spec §3): one helper per paper rule, named after it, with the
 * rule itself in a comment above. `REFERENCE` is the rule table; variants replace entries by name.
 *
 * The label choices (side conditions, premise pcs, result labels) are read from `decisionsOf(ev)`, the
 * data of decisions.ts (the reference's unless a generated mutant replaces one); `joinOf` computes them.
 *
 * Conventions: `fuel` is the premises' fuel; a premise that fails (stuck, out of fuel) propagates as a
 * failure outcome through `ev.then`; a side condition that fails is `ev.stuck(rule, reason)`.
 */
import type { Expr, Field, Value } from '../syntax/ast.ts';
import * as Q from '../distributions/rational.ts';
import type { Ev } from './ev.ts';
import { ODist, type Conv } from './odist.ts';
import type { RuleTable, Semantics } from './rules-types.ts';
import { pairOf, integrityOf, confidentialityOf } from '../lattice/lattice.ts';
import { describeValue } from './values.ts';
import { decisionsOf, joinOf } from './decisions.ts';

/** Var: not a paper rule — a free variable has no derivation. */
export function ruleVar<L>(ev: Ev<L>, _pc: L, _conv: Conv<L>, e: { readonly name: string }): ODist<L> {
  return ev.stuck('Var', `unbound variable ${e.name}`);
}

/** Lam:  pc ⊢ C, λx.e ⇓ C, pc:λx.e */
export function ruleLam<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'lam' }): ODist<L> {
  return ev.ret(conv, ev.value(joinOf(ev, decisionsOf(ev).Lam.result, { pc }), e));
}

/**
 * App:  pc ⊢ C, e1 ⇓ C1, l1:λx.e3    pc ⊢ C1, e2 ⇓ C2, V2    l1 ⊢ C2, e3[x:=V2] ⇓ C3, V3
 *       ⟹ pc ⊢ C, e1 e2 ⇓ C3, V3          (the body runs at the function's label)
 */
export function ruleApp<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'app' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.fn, fuel), (c1, f) =>
    ev.then(ev.eval(pc, c1, e.arg, fuel), (c2, v2) => appBody(ev, c2, f, v2, fuel, pc)),
  );
}

/** App's last premise: `l1 ⊢ C2, e3[x:=V2] ⇓ C3, V3` (stuck if `f` is not a function); `pc` is App's own. */
export function appBody<L>(ev: Ev<L>, c2: Conv<L>, f: Value<L>, v2: Value<L>, fuel: number, pc: L = f.label): ODist<L> {
  if (f.body.kind !== 'lam') return ev.stuck('App', `applying a non-function ${describeValue(ev, f)}`);
  return ev.eval(joinOf(ev, decisionsOf(ev).App.body, { pc, l1: f.label }), c2, ev.subst(f.body.body, f.body.param, v2), fuel);
}

/**
 * Send:  pc ⊢ C, e ⇓ lc:c, V    flatten(V) = n:v    pc ⊑ lc
 *        ⟹ pc ⊢ C, send e ⇓ (lc ⊔ n):(c ++ [serialise(v)]), pc:{}
 */
export function ruleSend<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'send' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => sendAfter(ev, pc, c1, v));
}

/** Send after its premise: the `pc ⊑ lc` check and the append. */
export function sendAfter<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v: Value<L>): ODist<L> {
  const D = decisionsOf(ev).Send;
  if (D.nsu && !ev.leq(pc, c1.label)) return ev.stuck('Send', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(c1.label)}`);
  const { label: n, plain } = ev.flatten(v);
  const at = { pc, lc: c1.label, n };
  return ev.ret(ev.append(c1, ev.serialise(plain), joinOf(ev, D.conv, at)), ev.unit(joinOf(ev, D.result, at)));
}

/**
 * Recv:  pc ⊑ lc    weight(c)(r) = p > 0    lc ⊢ lc:(c ++ [r]), parse(r)[prelude] ⇓ C', V ▷ w, s
 *        ⟹ pc ⊢ lc:c, recv ⇓ C', V ▷ p·w, r::s        (the response's code runs at pc = lc)
 */
export function ruleRecv<L>(ev: Ev<L>, pc: L, conv: Conv<L>, _e: unknown, fuel: number): ODist<L> {
  const D = decisionsOf(ev).Recv, at = { pc, lc: conv.label };
  if (D.nsu && !ev.leq(pc, conv.label)) return ev.stuck('Recv', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
  return ev.sum(ev.responses(conv).map(([r, p]) => [p, ev.eval(joinOf(ev, D.body, at), ev.append(conv, r, joinOf(ev, D.conv, at)), ev.parse(r), fuel)] as const));
}

/** Fork:  pc ⊢ C, e ⇓ C', V  ⟹  pc ⊢ C, fork e ⇓ C, V        (conversation restored, label too) */
export function ruleFork<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'fork' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.body, fuel), (c1, v) => ev.ret(restored(ev, pc, conv, c1), v));
}

/** Fork's restored conversation: the old messages, labelled as decided (the old `lc` in the reference). */
function restored<L>(ev: Ev<L>, pc: L, conv: Conv<L>, c1: Conv<L>): Conv<L> {
  return { label: joinOf(ev, decisionsOf(ev).Fork.conv, { pc, lc: conv.label, "lc'": c1.label }), msgs: conv.msgs };
}

/** Clear:  pc ⊑ lc  ⟹  pc ⊢ lc:c, clear ⇓ pc:ε, pc:{}          (resets the label to pc, not ⊥) */
export function ruleClear<L>(ev: Ev<L>, pc: L, conv: Conv<L>): ODist<L> {
  const D = decisionsOf(ev).Clear, at = { pc, lc: conv.label };
  if (D.nsu && !ev.leq(pc, conv.label)) return ev.stuck('Clear', `pc ${ev.show(pc)} does not flow to conversation label ${ev.show(conv.label)}`);
  return ev.ret({ label: joinOf(ev, D.conv, at), msgs: null }, ev.unit(joinOf(ev, D.result, at)));
}

/** Labelled:  pc ⊔ l ⊢ C, e ⇓ C', V  ⟹  pc ⊢ C, l:e ⇓ C', V */
export function ruleLabelled<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'label' }, fuel: number): ODist<L> {
  return ev.eval(joinOf(ev, decisionsOf(ev).Labelled.body, { pc, l: e.label }), conv, e.body, fuel);
}

/** Decode the label operand of LabelFlow/LabelTest/LabelAssert/Endorse: `flatten(V1) = n:v1`, `toLabel(v1) = l`. */
export function decodeLabel<L>(ev: Ev<L>, v1: Value<L>): { n: L; l: L | undefined; text: string } {
  const { label: n, plain } = ev.flatten(v1);
  const l = ev.toLabel(plain);
  return { n, l, text: describeValue(ev, v1) };
}

/**
 * LabelFlow:  pc ⊢ C, e1 ⇓ C1, V1   flatten(V1) = n:v1   toLabel(v1) = l   pc ⊔ n ⊔ l ⊢ C1, e2 ⇓ C2, V
 *             ⟹ pc ⊢ C, e1:e2 ⇓ C2, V
 */
export function ruleLabelFlow<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'dynlabel' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => labelFlowAfter(ev, pc, c1, v1, e, fuel));
}

/** LabelFlow after its first premise. */
export function labelFlowAfter<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v1: Value<L>, e: Expr<L> & { kind: 'dynlabel' }, fuel: number): ODist<L> {
  const { n, l, text } = decodeLabel(ev, v1);
  if (l === undefined) return ev.stuck('LabelFlow', `${text} is not a label of ${ev.lat.name}`);
  return ev.eval(joinOf(ev, decisionsOf(ev).LabelFlow.body, { pc, n, l }), c1, e.body, fuel);
}

/**
 * LabelTest:  pc ⊢ C, e1 ⇓ C1, V1   flatten(V1) = n:v1   toLabel(v1) = l   pc ⊔ n ⊢ C1, e2 ⇓ C2, V2
 *             b = (ℓ(V2) ⊑ l)  ⟹  pc ⊢ C, e1 ? e2 ⇓ C2, (pc ⊔ n ⊔ l):b
 */
export function ruleLabelTest<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'test' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => labelTestAfter(ev, pc, c1, v1, e, fuel));
}

/** LabelTest after its first premise. */
export function labelTestAfter<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v1: Value<L>, e: Expr<L> & { kind: 'test' }, fuel: number): ODist<L> {
  const { n, l, text } = decodeLabel(ev, v1);
  if (l === undefined) return ev.stuck('LabelTest', `${text} is not a label of ${ev.lat.name}`);
  const D = decisionsOf(ev).LabelTest, at = { pc, n, l };
  return ev.then(ev.eval(joinOf(ev, D.body, at), c1, e.body, fuel), (c2, v2) =>
    ev.ret(c2, ev.value(joinOf(ev, D.result, at), { kind: 'bool', value: ev.leq(v2.label, l) })),
  );
}

/**
 * LabelAssert:  pc ⊢ C, e1 ⇓ C1, V1   flatten(V1) = n:v1   n ⊑ pc   toLabel(v1) = l
 *               pc ⊢ C1, e2 ⇓ C2, l2:v2   l2 ⊑ l  ⟹  pc ⊢ C, assert e1 e2 ⇓ C2, pc:{}
 */
export function ruleLabelAssert<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'assert' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => {
    const { n, l, text } = decodeLabel(ev, v1);
    const D = decisionsOf(ev).LabelAssert;
    if (D.nCheck && !ev.leq(n, pc)) return ev.stuck('LabelAssert', `the policy label's own label ${ev.show(n)} does not flow to pc ${ev.show(pc)}`);
    if (l === undefined) return ev.stuck('LabelAssert', `${text} is not a label of ${ev.lat.name}`);
    return ev.then(ev.eval(pc, c1, e.body, fuel), (c2, v2) =>
      !D.policy || ev.leq(v2.label, l)
        ? ev.ret(c2, ev.unit(joinOf(ev, D.result, { pc, n, l, l2: v2.label })))
        : ev.stuck('LabelAssert', `policy violation: ${ev.show(v2.label)} does not flow to ${ev.show(l)}`),
    );
  });
}

/**
 * Endorse:  pc ⊢ C, e1 ⇓ C1, V1   flatten(V1) = n:v1   toLabel(v1) = l1   pc ⊔ n ⊢ C1, e2 ⇓ C2, l2:v2
 *           ⟹ pc ⊢ C, endorse e1 e2 ⇓ C2, (pc ⊔ ⟨l1←, l2→⟩):v2
 */
export function ruleEndorse<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'endorse' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.label, fuel), (c1, v1) => endorseAfter(ev, pc, c1, v1, e, fuel));
}

/** Endorse after its first premise. */
export function endorseAfter<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v1: Value<L>, e: Expr<L> & { kind: 'endorse' }, fuel: number): ODist<L> {
  const { n, l: l1, text } = decodeLabel(ev, v1);
  if (l1 === undefined) return ev.stuck('Endorse', `${text} is not a label of ${ev.lat.name}`);
  const D = decisionsOf(ev).Endorse;
  return ev.then(ev.eval(joinOf(ev, D.body, { pc, n }), c1, e.body, fuel), (c2, v2) => {
    const endorsed = pairOf(ev.lat, integrityOf(ev.lat, l1), confidentialityOf(ev.lat, v2.label));
    return ev.ret(c2, ev.value(joinOf(ev, D.result, { pc, n, endorsed }), v2.body));
  });
}

/** ScalarLit:  pc ⊢ C, k ⇓ C, pc:k */
export function ruleScalarLit<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'num' | 'str' | 'bool' | 'null' }): ODist<L> {
  return ev.ret(conv, ev.value(joinOf(ev, decisionsOf(ev).ScalarLit.result, { pc }), e));
}

/**
 * Prim:  pc ⊢ C, e ⇓ C', V   primEval(p, stripLabels(V)) = v'
 *        ⟹ pc ⊢ C, prim p e ⇓ C', (pc ⊔ deepLabel(V)):wrapValues(v')
 */
export function rulePrim<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'prim' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.arg, fuel), (c1, v) => primAfter(ev, pc, c1, v, e));
}

/** Prim after its premise: call `primEval` on the stripped value, label by `pc ⊔ deepLabel(V)`. */
export function primAfter<L>(ev: Ev<L>, pc: L, c1: Conv<L>, v: Value<L>, e: Expr<L> & { kind: 'prim' }): ODist<L> {
  const r = ev.primEval(e.name, ev.strip(v));
  if (!r.ok) return ev.stuck('Prim', r.reason);
  return ev.ret(c1, ev.value(joinOf(ev, decisionsOf(ev).Prim.result, { pc, deep: ev.deepLabel(v) }), ev.wrap(r.value)));
}

/** RecordNil:  pc ⊢ C, {} ⇓ C, pc:{} */
export function ruleRecordNil<L>(ev: Ev<L>, pc: L, conv: Conv<L>): ODist<L> {
  return ev.ret(conv, ev.unit(joinOf(ev, decisionsOf(ev).RecordNil.result, { pc })));
}

/**
 * Evaluate expressions left to right at `pc`, threading the conversation, all premises at `fuel`:
 * the premises of RecordCons and ArrayCons. Equivalent to nesting `ev.then` once per element, but
 * a loop over a frontier of partial runs (weight, conversation, values so far), so a literal of
 * any length takes linear time and constant stack; values are appended in place along a run and
 * copied only where a premise branches.
 */
function evalAll<L>(ev: Ev<L>, pc: L, conv: Conv<L>, es: readonly Expr<L>[], fuel: number, k: (c: Conv<L>, vs: readonly Value<L>[]) => ODist<L>): ODist<L> {
  type Run = { weight: Q.Rational; conv: Conv<L>; values: Value<L>[] };
  const out = new ODist<L>();
  let frontier: Run[] = [{ weight: Q.ONE, conv, values: [] }];
  for (const e of es) {
    const next: Run[] = [];
    for (const run of frontier) {
      const d = ev.eval(pc, run.conv, e, fuel);
      let remaining = d.size;
      for (const [key, { outcome, weight }] of d.map) {
        remaining--;
        const w = Q.mul(run.weight, weight);
        if (outcome.kind !== 'ok') { out.push(key, outcome, w); continue; }
        const values = remaining === 0 ? run.values : run.values.slice();
        values.push(outcome.value);
        next.push({ weight: w, conv: outcome.conv, values });
      }
    }
    ev.checkOutcomes(next.length);
    frontier = next;
  }
  for (const run of frontier) {
    for (const [key, { outcome, weight }] of k(run.conv, run.values).map) out.push(key, outcome, Q.mul(run.weight, weight));
    ev.checkOutcomes(out.size);
  }
  return out;
}

/** RecordCons:  fields evaluated left to right at pc; result pc:{s1:V1, …} */
export function ruleRecordCons<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'record' }, fuel: number): ODist<L> {
  return evalAll(ev, pc, conv, e.fields.map((f) => f.expr), fuel, (c, vs) =>
    ev.ret(c, ev.value(joinOf(ev, decisionsOf(ev).RecordCons.result, { pc }), { kind: 'record', fields: vs.map((v, i): Field<Value<L>> => ({ name: e.fields[i]!.name, expr: v })) })),
  );
}

/** ArrayNil:  pc ⊢ C, [] ⇓ C, pc:[] */
export function ruleArrayNil<L>(ev: Ev<L>, pc: L, conv: Conv<L>): ODist<L> {
  return ev.ret(conv, ev.value(joinOf(ev, decisionsOf(ev).ArrayNil.result, { pc }), { kind: 'array', elems: [] }));
}

/** ArrayCons:  elements evaluated left to right at pc; result pc:[V1, …] */
export function ruleArrayCons<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'array' }, fuel: number): ODist<L> {
  return evalAll(ev, pc, conv, e.elems, fuel, (c, vs) => ev.ret(c, ev.value(joinOf(ev, decisionsOf(ev).ArrayCons.result, { pc }), { kind: 'array', elems: vs })));
}

/**
 * FieldAccess:  pc ⊢ C, e ⇓ C1, l1:{f⃗}   lookup(s, f⃗) = V'  ⟹  pc ⊢ C, e.s ⇓ C1, l1:V'
 *               (first field named s wins; no such field: stuck)
 */
export function ruleFieldAccess<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'field' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.target, fuel), (c1, r) => fieldAfter(ev, c1, r, e, pc));
}

/** FieldAccess after its premise: the lookup (`pc` is FieldAccess's own). */
export function fieldAfter<L>(ev: Ev<L>, c1: Conv<L>, r: Value<L>, e: Expr<L> & { kind: 'field' }, pc: L = r.label): ODist<L> {
  if (r.body.kind !== 'record') return ev.stuck('FieldAccess', `.${e.name} of a non-record ${describeValue(ev, r)}`);
  const f = r.body.fields.find((x) => x.name === e.name);
  if (!f) return ev.stuck('FieldAccess', `no field ${e.name} in ${describeValue(ev, r)}`);
  return ev.ret(c1, ev.raise(joinOf(ev, decisionsOf(ev).FieldAccess.result, { pc, l1: r.label }), f.expr));
}

/**
 * ArrayIndex:  pc ⊢ C, e ⇓ C1, l1:[V⃗]   pc ⊢ C1, e' ⇓ C2, l2:i   0 ≤ i < |V⃗|, i an integer
 *              ⟹ pc ⊢ C, e.[e'] ⇓ C2, (l1 ⊔ l2):V⃗[i]
 */
export function ruleArrayIndex<L>(ev: Ev<L>, pc: L, conv: Conv<L>, e: Expr<L> & { kind: 'index' }, fuel: number): ODist<L> {
  return ev.then(ev.eval(pc, conv, e.target, fuel), (c1, a) =>
    ev.then(ev.eval(pc, c1, e.index, fuel), (c2, i) => {
      if (a.body.kind !== 'array') return ev.stuck('ArrayIndex', `indexing a non-array ${describeValue(ev, a)}`);
      const k = arrayPosition(i.body, a.body.elems.length);
      if (k === undefined) return ev.stuck('ArrayIndex', `index ${describeValue(ev, i)} out of bounds for length ${a.body.elems.length}`);
      return ev.ret(c2, ev.raise(joinOf(ev, decisionsOf(ev).ArrayIndex.result, { pc, l1: a.label, l2: i.label }), a.body.elems[k]!));
    }),
  );
}

/** `i` as an array position when it is an integer in `[0, length)`. */
export function arrayPosition(i: Expr<unknown>, length: number): number | undefined {
  if (i.kind !== 'num' || !Q.isInteger(i.value)) return undefined;
  const n = Q.numerator(i.value);
  return n >= 0n && n < BigInt(length) ? Number(n) : undefined;
}

/** The reference rule table (spec §3). */
export const REFERENCE_RULES: RuleTable = {
  Var: (ev, pc, conv, e) => ruleVar(ev, pc, conv, e),
  Lam: (ev, pc, conv, e) => ruleLam(ev, pc, conv, e),
  App: ruleApp,
  Send: ruleSend,
  Recv: (ev, pc, conv, e, fuel) => ruleRecv(ev, pc, conv, e, fuel),
  Fork: ruleFork,
  Clear: (ev, pc, conv) => ruleClear(ev, pc, conv),
  Labelled: ruleLabelled,
  LabelFlow: ruleLabelFlow,
  LabelTest: ruleLabelTest,
  LabelAssert: ruleLabelAssert,
  Endorse: ruleEndorse,
  ScalarLit: (ev, pc, conv, e) => ruleScalarLit(ev, pc, conv, e),
  Prim: rulePrim,
  RecordNil: (ev, pc, conv) => ruleRecordNil(ev, pc, conv),
  RecordCons: ruleRecordCons,
  ArrayNil: (ev, pc, conv) => ruleArrayNil(ev, pc, conv),
  ArrayCons: ruleArrayCons,
  FieldAccess: ruleFieldAccess,
  ArrayIndex: ruleArrayIndex,
};

/** The reference semantics `⇓` of spec §3. */
export const REFERENCE: Semantics = {
  name: 'reference',
  description: 'The LLMbda reference semantics (spec §3).',
  rules: REFERENCE_RULES,
};

