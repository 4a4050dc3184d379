/**
 * Closed, well-scoped LLMbda programs and pairs of `∼m`-related programs, built with `fc.letrec`.
 *
 * Scoping is correct by construction: the generator emits variable references as indices (`#k`) and
 * `resolve` maps each to a binder in scope (`k mod |scope|`), or to the literal `k` where nothing is in
 * scope. Shrinking therefore can never produce an open term.
 *
 * Pairs come from ONE shared low skeleton whose high holes `l:•` (`l ⋢ m`) carry two independent
 * fillings; `resolve(…, side)` picks a side. Any shrink of the skeleton or of a filling is again a pair
 * (the relation holds by construction), so shrinking keeps pairs related.
 */
import fc from 'fast-check';
import { holeParts } from './hole.ts';
import { gadgetArb } from './gadgets.ts';
import { app, arr, ask, binop, bool, differing, hole, ifThen, lam, letIn, num, prim, ref, str, unit } from './build.ts';
import type { Expr, PlainValue } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { absurd } from '../util/absurd.ts';
import { forEachChild } from '../syntax/helpers.ts';


/** Generation profile: `tuned` weights information-moving constructs; `naive` is uniform over constructs. */
export type Profile = 'tuned' | 'naive';

export interface ProgramGenOptions<L> {
  readonly lat: Lattice<L>;
  /** Observer: when given, skeletons contain high holes with labels `⋢ obs`. */
  readonly obs?: L;
  /** Allow `endorse` (Theorem 2 and the trivial factoring); excluded for Theorem 1 on factored lattices. */
  readonly endorse: boolean;
  readonly profile?: Profile;
  /** Maximum nesting of compound constructs (default 4). */
  readonly maxDepth?: number;
}

/** A label-free value as an expression (label literals). */
export function plainToExpr(v: PlainValue): Expr<never> {
  return v as Expr<never>;
}

/** All labels of a finite lattice (generators need `elements`). */
function elementsOf<L>(lat: Lattice<L>): readonly L[] {
  if (!lat.elements || lat.elements.length === 0) throw new Error(`the generators need a finite lattice with elements; ${lat.name} has none`);
  return lat.elements;
}

/** Labels not visible to `m`. */
export function highLabels<L>(lat: Lattice<L>, m: L): readonly L[] {
  return elementsOf(lat).filter((l) => !lat.leq(l, m));
}

/** Labels drawn uniformly from the lattice's elements (the label generators in labels.ts are the biased ones). */
function labelArb<L>(lat: Lattice<L>): fc.Arbitrary<L> {
  return fc.constantFrom(...elementsOf(lat));
}

/**
 * The expression arbitrary. Returns raw programs (with `#k` references and, for pairs, holes): pass
 * them through `resolve`.
 */
export function rawProgramArb<L>(o: ProgramGenOptions<L>): fc.Arbitrary<Expr<L>> {
  const { lat } = o;
  const tuned = (o.profile ?? 'tuned') === 'tuned';
  const maxDepth = o.maxDepth ?? 4;
  const labels = labelArb(lat);
  const labelLit: fc.Arbitrary<Expr<L>> = labels.map((l) => plainToExpr(lat.fromLabel(l)));
  const highs = o.obs === undefined ? [] : highLabels(lat, o.obs);
  const w = (tunedWeight: number): number => (tuned ? tunedWeight : 1);

  const { expr, leaf } = fc.letrec<{ expr: Expr<L>; leaf: Expr<L>; secret: Expr<L>; labelExpr: Expr<L>; boolish: Expr<L>; numberish: Expr<L>; indexish: Expr<L>; operand: Expr<L>; structure: Expr<L> }>((tie) => {
    const e = tie('expr');
    const numberish = tie('numberish');
    const indexish = tie('indexish');
    const leaf = tie('leaf');
    const secret = tie('secret');
    const labelExpr = tie('labelExpr');
    const boolish = tie('boolish');
    const operand = tie('operand');
    const structure = tie('structure');
    const branches: { weight: number; arbitrary: fc.Arbitrary<Expr<L>> }[] = [
      { weight: w(4), arbitrary: leaf },
      // lambda calculus
      { weight: w(2), arbitrary: e.map((b) => lam(b)) },
      { weight: w(1), arbitrary: fc.tuple(e, e).map(([f, a]) => app(f, a)) },
      { weight: w(2), arbitrary: fc.tuple(e, e).map(([b, a]) => app(lam(b), a)) },
      { weight: w(4), arbitrary: fc.tuple(e, e).map(([a, b]) => letIn(a, b)) },
      // labelled functions applied: the body runs at the function's label
      { weight: w(3), arbitrary: fc.tuple(labels, e, e).map(([l, b, a]) => app({ kind: 'label', label: l, body: lam(b) }, a)) },
      // conversations
      { weight: w(3), arbitrary: e.map((x) => ({ kind: 'send', arg: x }) as Expr<L>) },
      { weight: w(4), arbitrary: e.map((x) => ({ kind: 'index', target: ask(x), index: num(1) }) as Expr<L>) },
      { weight: w(3), arbitrary: e.map((x) => ({ kind: 'fork', body: x }) as Expr<L>) },
      { weight: w(2), arbitrary: e.map((x) => letIn({ kind: 'clear' }, x)) },
      // branches on (labelled) data
      { weight: w(8), arbitrary: fc.tuple(boolish, e, e).map(([c, a, b]) => ifThen(c, a, b)) },
      // labels
      { weight: w(3), arbitrary: fc.tuple(labels, e).map(([l, x]) => ({ kind: 'label', label: l, body: x }) as Expr<L>) },
      { weight: w(2), arbitrary: fc.tuple(labelExpr, e).map(([l, x]) => ({ kind: 'dynlabel', label: l, body: x }) as Expr<L>) },
      { weight: w(4), arbitrary: fc.tuple(labelExpr, e).map(([l, x]) => ({ kind: 'test', label: l, body: x }) as Expr<L>) },
      { weight: w(2), arbitrary: fc.tuple(labelExpr, e).map(([l, x]) => ({ kind: 'assert', label: l, body: x }) as Expr<L>) },
      // data
      { weight: w(2), arbitrary: fc.tuple(fc.constantFrom('+', '==', '-', '<'), numberish, numberish).map(([op, a, b]) => binop(op, a, b)) },
      { weight: w(1), arbitrary: fc.tuple(fc.constantFrom('toStr', 'shape'), e).map(([p, x]) => prim(p, x)) },
      { weight: w(1), arbitrary: fc.tuple(e, e).map(([r, x]) => prim('recordUpdate', arr({ kind: 'record', fields: [{ name: 'a', expr: r }] }, str(tuned ? 'b' : 'a'), x))) },
      { weight: w(2), arbitrary: fc.tuple(e, e).map(([a, b]) => ({ kind: 'record', fields: [{ name: 'a', expr: a }, { name: 'b', expr: b }] }) as Expr<L>) },
      { weight: w(2), arbitrary: fc.tuple(e, e).map(([a, b]) => arr(a, b)) },
      // field access and indexing, often on labelled data
      { weight: w(3), arbitrary: fc.tuple(fc.option(labels, { nil: undefined }), e, e, fc.constantFrom(...(tuned ? ['a', 'b'] : ['a', 'b', 'c']))).map(([l, a, b, f]) => {
        const r: Expr<L> = { kind: 'record', fields: [{ name: 'a', expr: a }, { name: 'b', expr: b }] };
        return { kind: 'field', target: l === undefined ? r : { kind: 'label', label: l, body: r }, name: f } as Expr<L>;
      }) },
      { weight: w(3), arbitrary: fc.tuple(fc.option(labels, { nil: undefined }), e, e, indexish).map(([l, a, b, i]) => {
        const t: Expr<L> = arr(a, b);
        return { kind: 'index', target: l === undefined ? t : { kind: 'label', label: l, body: t }, index: i } as Expr<L>;
      }) },
      { weight: w(1), arbitrary: fc.tuple(e, fc.constantFrom('a', 'b')).map(([x, f]) => ({ kind: 'field', target: x, name: f }) as Expr<L>) },
      // records whose label is above their fields' (prim results are wrapped with ⊥ inside)
      { weight: w(2), arbitrary: fc.tuple(e, fc.constantFrom('type', 'type', 'type', 'length')).map(([x, f]) => ({ kind: 'field', target: prim('shape', x), name: f }) as Expr<L>) },
    ];
    if (highs.length > 0 && tuned) {
      // the test whose answer depends on a high value's exact label (bare-pc tests leak here)
      branches.push({
        weight: 3,
        arbitrary: fc.tuple(labelLit, fc.constantFrom(...highs), labels, labels, fc.constantFrom<Expr<L>>(num(0), bool(true)))
          .map(([t, l, la, lb, x]) => ({
            kind: 'test', label: t,
            body: hole(l, ...differing(lat, lat.top, { kind: 'label', label: la, body: x }, { kind: 'label', label: lb, body: x })),
          }) as Expr<L>),
      });
    }
    if (highs.length > 0 && tuned) {
      // an assertion whose checked value is high, with differently labelled fillings
      branches.push({
        weight: 2,
        arbitrary: fc.tuple(labelLit, fc.constantFrom(...highs), labels, labels, fc.constantFrom<Expr<L>>(num(0), bool(true)), fc.boolean())
          .map(([t, l, la, lb, x, fromConv]) => ({
            kind: 'assert', label: t,
            // a high value whose label differs between the runs: from a hole, or from a high conversation
            body: fromConv ? { kind: 'recv' } : hole(l, ...differing(lat, lat.top, { kind: 'label', label: la, body: x }, { kind: 'label', label: lb, body: x })),
          }) as Expr<L>),
      });
    }
    // Operators on every operand shape (issue 13): scalars, labelled scalars, arrays/records holding
    // labelled values, containers labelled above their elements, closures, variables.
    branches.push({ weight: w(2), arbitrary: fc.tuple(fc.constantFrom('+', '+', '==', '-', '<'), operand, operand).map(([op, a, b]) => binop(op, a, b)) });
    branches.push({ weight: w(1), arbitrary: fc.tuple(fc.constantFrom('toStr', 'shape'), operand).map(([p, a]) => prim(p, a)) });
    // a container labelled above its elements (an operator's result), indexed, possibly by a high index
    branches.push({ weight: w(1), arbitrary: fc.tuple(structure, fc.oneof(structure, operand), indexish).map(([a, b, i]) => ({ kind: 'index', target: binop('+', a, b), index: i }) as Expr<L>) });
    if (highs.length > 0 && tuned) {
      // a secret inside an array operand, the result sent: `send ([⟦l: a|b⟧, e] + [])`
      branches.push({
        weight: 2,
        arbitrary: fc.tuple(fc.constantFrom(...highs), fc.constantFrom(num(0), num(1)), fc.constantFrom(num(0), num(1), bool(true)), e, fc.boolean())
          .map(([l, a, b, x, extra]) => ({ kind: 'send', arg: binop('+', arr(hole(l, ...differing(lat, lat.top, a, b)), x), extra ? arr(x) : arr()) }) as Expr<L>),
      });
    }
    // a variable bound to a structure (or a function), then read under a raised pc: returned, endorsed, sent or indexed
    branches.push({
      weight: w(1),
      arbitrary: fc.tuple(fc.oneof({ weight: 3, arbitrary: structure }, { weight: 1, arbitrary: e.map((b) => lam(b)) }), labels, labelLit, fc.constantFrom('endorse', 'send', 'index', 'itself'))
        .map(([st, l, t, how]) => letIn(st, { kind: 'label', label: l, body: how === 'itself' ? ref(0) : how === 'endorse' && o.endorse ? { kind: 'endorse', label: t, body: ref(0) } : how === 'index' ? { kind: 'index', target: ref(0), index: num(0) } : { kind: 'send', arg: ref(0) } }) as Expr<L>),
    });
    // a conversation effect under a raised pc (the no-sensitive-upgrade checks)
    branches.push({
      weight: w(2),
      // (sometimes the effect's own result is the value: its label must be ⊒ the raised pc too)
      arbitrary: fc.tuple(labels, fc.constantFrom<Expr<L>>({ kind: 'clear' }, { kind: 'recv' }, { kind: 'send', arg: str('x') }), e, fc.nat({ max: 3 }))
        .map(([l, eff, x, k]) => ({ kind: 'label', label: l, body: k === 0 ? eff : letIn(eff, x) }) as Expr<L>),
    });
    if (highs.length > 0 && tuned) {
      // indexing an element chosen by a high index: `.[i]` raises only the element's top label, so its own
      // elements stay low — the second index must join the array's label (index-drops-array-label leaks here)
      branches.push({
        weight: 1,
        arbitrary: fc.tuple(fc.constantFrom(...highs), leaf, leaf, indexish).map(([l, a, b, j]) => ({
          kind: 'index', index: j,
          target: { kind: 'index', target: arr(arr(a, b), arr(b, a)), index: hole(l, ...differing(lat, lat.top, num(0), num(1))) },
        }) as Expr<L>),
      });
    }
    if (o.endorse) {
      branches.push({ weight: w(3), arbitrary: fc.tuple(labelExpr, e).map(([l, x]) => ({ kind: 'endorse', label: l, body: x }) as Expr<L>) });
    }
    if (highs.length > 0) {
      // high holes: the shared skeleton's secrets, two independent fillings
      branches.push({
        weight: w(8),
        arbitrary: fc.tuple(fc.constantFrom(...highs), secret, secret).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))),
      });
    }
    return {
      expr: fc.oneof({ maxDepth, depthSize: 'small', withCrossShrink: true }, ...branches),
      leaf: fc.oneof(
        { weight: w(5), arbitrary: fc.nat({ max: 3 }).map(ref) },
        { weight: w(2), arbitrary: fc.constantFrom(num(0), num(1), num(2), num(-1), num(1, 2)) },
        { weight: w(2), arbitrary: fc.boolean().map(bool) },
        { weight: w(1), arbitrary: fc.constantFrom(str('a'), str('b'), str('')) },
        { weight: w(1), arbitrary: fc.constant({ kind: 'null' } as Expr<L>) },
        { weight: w(1), arbitrary: fc.constant(unit as Expr<L>) },
        { weight: w(2), arbitrary: fc.constant({ kind: 'recv' } as Expr<L>) },
        { weight: w(1), arbitrary: fc.constant({ kind: 'clear' } as Expr<L>) },
        { weight: w(1), arbitrary: labelLit },
        { weight: w(2), arbitrary: fc.tuple(labels, fc.oneof(fc.boolean().map(bool), fc.constantFrom(num(0), num(1)))).map(([l, v]) => ({ kind: 'label', label: l, body: v }) as Expr<L>) },
      ),
      // what fills a high hole: values that differ in content AND in (nested, higher) labels
      secret: fc.oneof(
        { weight: 5, arbitrary: fc.boolean().map(bool) },
        { weight: 2, arbitrary: fc.constantFrom(num(0), num(1)) },
        { weight: 2, arbitrary: fc.tuple(labels, fc.oneof(fc.boolean().map(bool), fc.constantFrom(num(0), num(1)))).map(([l, v]) => ({ kind: 'label', label: l, body: v }) as Expr<L>) },
        { weight: 1, arbitrary: labelLit },
        { weight: 1, arbitrary: fc.constantFrom(str('secret'), str('x')) },
        { weight: 1, arbitrary: fc.constant({ kind: 'lam', param: 'x', body: ref(0) } as Expr<L>) },
        { weight: 2, arbitrary: e },
      ),
      numberish: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(num(0), num(1), num(2)) },
        { weight: w(2), arbitrary: fc.constant(ref(0)) },
        { weight: 2, arbitrary: fc.tuple(labels, fc.constantFrom(num(0), num(1))).map(([l, v]) => ({ kind: 'label', label: l, body: v }) as Expr<L>) },
        ...(highs.length > 0 ? [{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...highs), fc.constantFrom(num(0), num(1)), fc.constantFrom(num(0), num(1), num(2))).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))) }] : []),
        { weight: 3, arbitrary: e },
      ),
      indexish: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(num(0), num(1)) },
        { weight: 2, arbitrary: fc.tuple(labels, fc.constantFrom(num(0), num(1))).map(([l, v]) => ({ kind: 'label', label: l, body: v }) as Expr<L>) },
        ...(highs.length > 0 ? [{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...highs), fc.constantFrom(num(0), num(1)), fc.constantFrom(num(0), num(1))).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))) }] : []),
        { weight: 1, arbitrary: e },
      ),
      labelExpr: fc.oneof(
        { weight: 6, arbitrary: labelLit },
        ...(highs.length > 0 ? [{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...highs), labelLit, labelLit).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))) }] : []),
        { weight: 2, arbitrary: fc.tuple(boolish, labelLit, labelLit).map(([c, a, b]) => ifThen(c, a, b)) },
        { weight: 1, arbitrary: fc.tuple(labels, labelLit).map(([l, x]) => ({ kind: 'label', label: l, body: x }) as Expr<L>) },
        { weight: 1, arbitrary: e },
      ),
      // operand shapes of operators (issue 13's coverage table, docs/generators.md)
      operand: fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(num(0), num(1), str('a')) },
        { weight: 2, arbitrary: fc.tuple(labels, fc.constantFrom(num(0), num(1), str('a'))).map(([l, v]) => ({ kind: 'label', label: l, body: v }) as Expr<L>) },
        ...(highs.length > 0 ? [{ weight: 2, arbitrary: fc.tuple(fc.constantFrom(...highs), fc.constantFrom(num(0), num(1)), fc.constantFrom(num(0), num(1), num(2))).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))) }] : []),
        { weight: 3, arbitrary: structure },
        { weight: 1, arbitrary: fc.constant(arr<L>()) },
        { weight: 1, arbitrary: fc.constant(lam<L>(ref(0))) },
        { weight: 2, arbitrary: fc.constant(ref(0)) },
        { weight: 1, arbitrary: e },
      ),
      // arrays and records holding labelled values, labelled above or below their elements
      structure: fc.tuple(fc.constantFrom('array', 'record'), fc.option(labels, { nil: undefined }), labels, fc.constantFrom(num(0), num(1), str('a')),
        highs.length > 0 ? fc.option(fc.tuple(fc.constantFrom(...highs), fc.constantFrom(num(0), num(1)), fc.constantFrom(num(0), num(1), num(2))), { nil: undefined }) : fc.constant(undefined))
        .map(([k, outer, inner, v, h]) => {
          const x: Expr<L> = h ? hole(h[0], ...differing(lat, lat.top, h[1], h[2])) : { kind: 'label', label: inner, body: v };
          const c: Expr<L> = k === 'array' ? arr(x) : { kind: 'record', fields: [{ name: 'a', expr: x }] };
          return outer === undefined ? c : { kind: 'label', label: outer, body: c } as Expr<L>;
        }),
      boolish: fc.oneof(
        { weight: 3, arbitrary: fc.tuple(labels, fc.boolean()).map(([l, b]) => ({ kind: 'label', label: l, body: bool(b) }) as Expr<L>) },
        ...(highs.length > 0 ? [{ weight: 5, arbitrary: fc.tuple(fc.constantFrom(...highs), secret, secret).map(([l, a, b]) => hole(l, ...differing(lat, lat.top, a, b))) }] : []),
        // the outermost binder: in tuned pairs, the secret input
        { weight: w(4), arbitrary: fc.constant(ref(0)) },
        { weight: 2, arbitrary: fc.tuple(labelExpr, e).map(([l, x]) => ({ kind: 'test', label: l, body: x }) as Expr<L>) },
        { weight: 2, arbitrary: e },
        { weight: 1, arbitrary: fc.tuple(e, e).map(([a, b]) => binop('==', a, b)) },
      ),
    };
  });
  if (!tuned) return expr;
  const gadgets = gadgetArb({ lat, ...(o.obs !== undefined ? { obs: o.obs } : {}), highs, endorse: o.endorse, labels, labelLit: (l) => plainToExpr(lat.fromLabel(l)), leaf });
  // A share of naive programs: the tuned profile is never worse than the naive one where uniform weights happen to fit.
  const naive = rawProgramArb({ ...o, profile: 'naive' });
  if (highs.length === 0) return fc.oneof({ withCrossShrink: true }, { weight: TUNED_MIX.tuned + TUNED_MIX.secretInput, arbitrary: expr }, { weight: TUNED_MIX.gadget, arbitrary: gadgets }, { weight: TUNED_MIX.naive, arbitrary: naive });
  // Tuned pairs often start by binding a secret, so that references all over the body can read it.
  const secretInput = fc.tuple(fc.constantFrom(...highs), fc.boolean(), fc.oneof(fc.boolean(), fc.constantFrom(0, 1)))
    .map(([l, a, b]) => hole(l, ...differing(lat, lat.top, bool(a), typeof b === 'boolean' ? bool(b) : num(b))));
  return fc.oneof({ withCrossShrink: true },
    { weight: TUNED_MIX.tuned, arbitrary: expr },
    { weight: TUNED_MIX.secretInput, arbitrary: fc.tuple(secretInput, expr).map(([s, body]) => letIn(s, body)) },
    { weight: TUNED_MIX.gadget, arbitrary: gadgets },
    { weight: TUNED_MIX.naive, arbitrary: naive });
}

/**
 * The tuned profile's top level, in shares: the tuned expression grammar, the same after binding a
 * secret, a gadget (gadgets.ts), and a naive program.
 */
export const TUNED_MIX = { tuned: 2, secretInput: 3, gadget: 6, naive: 2 } as const;

/** Which side of a pair to resolve. */
export type Side = 0 | 1;

/** Resolve `#k` references to binders in scope (or literals), and holes to one side's filling. */
export function resolve<L>(e: Expr<L>, side: Side = 0): Expr<L> {
  const go = (e: Expr<L>, scope: readonly string[]): Expr<L> => {
    switch (e.kind) {
      case 'var': {
        if (!e.name.startsWith('#')) return e;
        const k = Number(e.name.slice(1));
        return scope.length === 0 ? num(k) : { kind: 'var', name: scope[k % scope.length]! };
      }
      case 'lam': {
        if (e.param === '_') return { kind: 'lam', param: '_', body: go(e.body, scope) };
        const x = `x${scope.length}`;
        return { kind: 'lam', param: x, body: go(e.body, [...scope, x]) };
      }
      case 'app': return { kind: 'app', fn: go(e.fn, scope), arg: go(e.arg, scope) };
      case 'send': return { kind: 'send', arg: go(e.arg, scope) };
      case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null': return e;
      case 'fork': return { kind: 'fork', body: go(e.body, scope) };
      case 'label': {
        const h = holeParts(e);
        if (h) return { kind: 'label', label: e.label, body: go(side === 0 ? h.left : h.right, scope) };
        return { kind: 'label', label: e.label, body: go(e.body, scope) };
      }
      case 'dynlabel': case 'test': case 'assert': case 'endorse':
        return { kind: e.kind, label: go(e.label, scope), body: go(e.body, scope) } as Expr<L>;
      case 'prim': return { kind: 'prim', name: e.name, arg: go(e.arg, scope) };
      case 'record': return { kind: 'record', fields: e.fields.map((f) => ({ name: f.name, expr: go(f.expr, scope) })) };
      case 'array': return { kind: 'array', elems: e.elems.map((x) => go(x, scope)) };
      case 'field': return { kind: 'field', target: go(e.target, scope), name: e.name };
      case 'index': return { kind: 'index', target: go(e.target, scope), index: go(e.index, scope) };
      default: return absurd(e);
    }
  };
  return go(e, []);
}

/** Does the skeleton contain a hole (a place where the two runs differ)? */
export function hasHole<L>(e: Expr<L>): boolean {
  if (holeParts(e)) return true;
  let found = false;
  forEachChild(e, (c) => { found ||= hasHole(c); });
  return found;
}

/** Closed programs (no holes). */
export function programArb<L>(o: Omit<ProgramGenOptions<L>, 'obs'>): fc.Arbitrary<Expr<L>> {
  return rawProgramArb<L>(o).map((e) => resolve(e, 0));
}
