/**
 * Gadgets: small programs, each built around ONE rule's label propagation, with the secret placed
 * exactly where that rule must carry its label (the tuned profile's shortcut to the leaks of the
 * catalogue, docs/generators.md "Gadgets"). A gadget is an ordinary raw program: its high holes carry
 * labels `⋢ m` like every other hole, so pairs stay `∼m`-related by construction and shrink as pairs.
 * The label choices are biased (enumerated combinations where the rule's answer or its label differs
 * between the runs), never filtered: every combination the bias skips is still reachable through the
 * rest of the generator.
 *
 * Single-run gadgets (no observer, no holes) raise pc around values and endorsements, for Confinement
 * and Theorem 3.
 */
import fc from 'fast-check';
import type { Expr } from '../syntax/ast.ts';
import { integrityOf, type Lattice } from '../lattice/lattice.ts';
import { app, arr, ask, binop, bool, differing, hole, ifThen, labelled, lam, letIn, num, prim, rec, ref, str, unit } from './build.ts';

/** What the gadgets need from the program generator. */
export interface GadgetKit<L> {
  readonly lat: Lattice<L>;
  /** The observer (pair gadgets only). */
  readonly obs?: L;
  /** Labels `⋢ obs` (empty for single runs). */
  readonly highs: readonly L[];
  readonly endorse: boolean;
  /** Any label. */
  readonly labels: fc.Arbitrary<L>;
  /** A label as a language value. */
  readonly labelLit: (l: L) => Expr<L>;
  /** Small leaves (variables, literals, effects). */
  readonly leaf: fc.Arbitrary<Expr<L>>;
}

type Branch<L> = { readonly weight: number; readonly arbitrary: fc.Arbitrary<Expr<L>> };

/** Above this many elements, label combinations are drawn at random instead of enumerated. */
const MAX_ENUMERATED = 8;

/** Distinct scalar literals (the two sides of a secret). */
const SCALARS: readonly Expr<never>[] = [bool(true), bool(false), num(0), num(1)];

/**
 * Combinations of labels, one per slot (each slot drawn from its own domain), biased to those
 * satisfying `keep`; when a domain is large or no combination qualifies, uniform per slot. Either way
 * each label comes from its slot's domain, which is what keeps a hole's label high.
 */
function combos<L>(domains: readonly (readonly L[])[], keep: (ls: readonly L[]) => boolean): fc.Arbitrary<readonly L[]> {
  const uniform = fc.tuple(...domains.map((d) => fc.constantFrom(...d))) as fc.Arbitrary<readonly L[]>;
  if (domains.some((d) => d.length > MAX_ENUMERATED)) return uniform;
  let all: L[][] = [[]];
  for (const d of domains) all = all.flatMap((xs) => d.map((l) => [...xs, l]));
  const good = all.filter(keep);
  return good.length === 0 ? uniform : fc.constantFrom(...good);
}

/** The pair gadgets (an observer with high labels) or the single-run ones. */
export function gadgetArb<L>(k: GadgetKit<L>): fc.Arbitrary<Expr<L>> {
  const branches = k.obs !== undefined && k.highs.length > 0 ? pairGadgets(k, k.obs) : singleGadgets(k);
  return fc.oneof({ withCrossShrink: true }, ...branches);
}

function pairGadgets<L>(k: GadgetKit<L>, obs: L): Branch<L>[] {
  const { lat, highs, labels, labelLit, leaf } = k;
  const high = fc.constantFrom(...highs);
  const els = lat.elements ?? highs;
  const low = (l: L): boolean => lat.leq(l, obs);
  const join = (a: L, b: L): L => lat.join(a, b);
  /** `⟦h: a | b⟧` over two distinct scalars. */
  const secret: fc.Arbitrary<Expr<L>> = fc.tuple(high, fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS))
    .map(([h, a, b]) => hole(h, ...differing(lat, lat.top, a, b)));
  /** A container holding a secret below its own (possibly low) label: deep labels matter. */
  const container: fc.Arbitrary<Expr<L>> = fc.tuple(secret, leaf, fc.option(labels, { nil: undefined }), fc.nat({ max: 5 })).map(([s, x, l, shape]) => {
    const c = [arr(s), rec(['a', s]), arr(x, s), rec(['a', x], ['b', s]), arr(arr(s)), rec(['a', arr(s)])][shape]!;
    return l === undefined ? c : labelled(l, c);
  });
  const effect: fc.Arbitrary<Expr<L>> = fc.constantFrom<Expr<L>>(
    { kind: 'send', arg: str('x') }, { kind: 'recv' }, { kind: 'clear' },
    letIn({ kind: 'clear' }, { kind: 'recv' }), { kind: 'fork', body: { kind: 'send', arg: str('x') } },
  );
  const branches: Branch<L>[] = [
    // Send: the conversation's label joins deepLabel(V), not only ℓ(V) (send-shallow)
    { weight: 3, arbitrary: fc.tuple(container, fc.boolean()).map(([c, viaVar]) => (viaVar ? letIn(c, { kind: 'send', arg: ref(0) }) : { kind: 'send', arg: c }) as Expr<L>) },
    // LabelTest on the tested value's label: `t ? ⟦h: la:x | lb:x⟧` where exactly one side flows to t
    { weight: 2, arbitrary: fc.tuple(
      combos([els, highs, els, els], ([t, h, la, lb]) => lat.leq(join(h!, la!), t!) !== lat.leq(join(h!, lb!), t!)),
      fc.constantFrom(...SCALARS),
    ).map(([[t, h, la, lb], x]) => ({ kind: 'test', label: labelLit(t!), body: hole(h!, labelled(la!, x), labelled(lb!, x)) }) as Expr<L>) },
    // LabelTest on a secret policy: `⟦h: t1 | t2⟧ ? lv:x` (the answer's label must include n ⊒ h)
    { weight: 2, arbitrary: fc.tuple(
      combos([highs, els, els, els], ([h, t1, t2, lv]) => !lat.equals(t1!, t2!) && (lat.leq(lv!, t1!) !== lat.leq(lv!, t2!) || low(t1!) !== low(t2!))),
      fc.constantFrom(...SCALARS),
    ).map(([[h, t1, t2, lv], x]) => ({ kind: 'test', label: hole(h!, labelLit(t1!), labelLit(t2!)), body: labelled(lv!, x) }) as Expr<L>) },
    // LabelFlow on a secret policy: `⟦h: l1 | l2⟧ : e` runs e at pc ⊔ n ⊔ l
    { weight: 3, arbitrary: fc.tuple(
      combos([highs, els, els], ([h, l1, l2]) => !lat.equals(l1!, l2!) && low(l1!) !== low(l2!)),
      fc.oneof(fc.constantFrom(...SCALARS), effect, leaf),
    ).map(([[h, l1, l2], body]) => ({ kind: 'dynlabel', label: hole(h!, labelLit(l1!), labelLit(l2!)), body }) as Expr<L>) },
    // ArrayIndex by a secret index: the element joins the index's label
    { weight: 2, arbitrary: fc.tuple(high, fc.option(labels, { nil: undefined }), fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS), fc.boolean()).map(([h, l, a, b, conv]) => {
      const target: Expr<L> = conv ? { kind: 'recv' } : arr(...differing(lat, lat.top, a, b));
      return { kind: 'index', target: l === undefined ? target : labelled(l, target), index: hole(h, num(0), num(1)) } as Expr<L>;
    }) },
    // Prim on a value with a secret inside: the result is labelled deepLabel(V), also for operators
    // whose operands hold the secret one level down (`[⟦h: a|b⟧] + x`)
    { weight: 3, arbitrary: fc.tuple(high, fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS), leaf, fc.nat({ max: 3 }), fc.nat({ max: 4 })).map(([h, a, b, x, shape, form]) => {
      const s = hole(h, ...differing(lat, lat.top, a, b));
      const inside = (v: Expr<L>): Expr<L> => [arr(v), rec(['a', v]), arr(x, v), arr(arr(v))][shape]!;
      return [prim('toStr', arr(s)), prim('toStr', inside(s)), binop('==', s, x), binop('+', arr(s), [arr<L>(), arr(x)][shape % 2]!), binop('==', inside(s), inside(a))][form]!;
    }) },
    // the model's reply as the result: it runs at the conversation's label (a high conversation's reply is high)
    { weight: 3, arbitrary: fc.tuple(leaf, fc.nat({ max: 2 })).map(([x, form]) => [
      { kind: 'recv' } as Expr<L>, letIn<L>({ kind: 'recv' }, ref(0)), ask(x),
    ][form]!) },
    // FieldAccess on a secret record (or a prim's record, labelled above its fields)
    { weight: 2, arbitrary: fc.tuple(high, fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS), fc.boolean()).map(([h, a, b, viaShape]) => (viaShape
      ? { kind: 'field', target: prim('shape', hole(h, a, b.kind === a.kind ? str('a') : b)), name: 'type' }
      : { kind: 'field', target: hole(h, ...differing(lat, lat.top, rec(['a', a]), rec(['a', b]))), name: 'a' }) as Expr<L>) },
    // effects whose presence depends on a secret (no-sensitive-upgrade, the conversation label after clear)
    { weight: 5, arbitrary: fc.tuple(high, effect, leaf, secret, fc.nat({ max: 2 })).map(([h, eff, x, s, form]) => [
      hole(h, eff, x), ifThen(s, eff, x), app(hole(h, lam(eff, false), lam(x, false)), unit),
    ][form]!) },
    // App runs the body at the function's label: a secret function applied
    { weight: 2, arbitrary: fc.tuple(high, fc.constantFrom(...SCALARS), fc.constantFrom(...SCALARS), leaf)
      .map(([h, a, b, x]) => app(hole(h, ...differing(lat, lat.top, lam(a, false), lam(b, false))), x)) },
  ];
  if (k.endorse) {
    // Endorse keeps the confidentiality of its value: `endorse t ⟦h: a | b⟧`; and its body runs at pc ⊔ n, so a
    // secret endorsement `endorse ⟦h: t1 | t2⟧ x` (t1, t2 of different integrity, x low) answers at a label whose
    // integrity differs between the runs but whose confidentiality is n's (the generated mutant
    // m-endorse-body-drop-n drops n there and leaks the endorsement to an I-maximal observer)
    branches.push({ weight: 2, arbitrary: fc.oneof(
      fc.tuple(labels, fc.oneof(secret, container)).map(([t, x]) => ({ kind: 'endorse', label: labelLit(t), body: x }) as Expr<L>),
      fc.tuple(
        combos([highs, els, els], ([, t1, t2]) => !lat.equals(integrityOf(lat, t1!), integrityOf(lat, t2!))),
        fc.constantFrom(...SCALARS),
      ).map(([[h, t1, t2], x]) => ({ kind: 'endorse', label: hole(h!, labelLit(t1!), labelLit(t2!)), body: x }) as Expr<L>),
      // and under a secret branch its body's effects still carry the branch's pc: `if ⟦h: a | b⟧ then endorse t eff else x`
      fc.tuple(secret, labels, effect, leaf).map(([s, t, eff, x]) => ifThen(s, { kind: 'endorse', label: labelLit(t), body: eff } as Expr<L>, x)),
    ) });
  }
  return branches;
}

function singleGadgets<L>(k: GadgetKit<L>): Branch<L>[] {
  const { labels, labelLit, leaf } = k;
  const scalar = fc.oneof(fc.constantFrom(...SCALARS), fc.tuple(labels, fc.constantFrom(...SCALARS)).map(([l, x]) => labelled(l, x)));
  const structure = fc.tuple(scalar, fc.nat({ max: 3 })).map(([x, shape]) => [arr(x), rec(['a', x]), arr(arr(x)), arr(x, x)][shape]!);
  const branches: Branch<L>[] = [
    // Labelled on a value holding values: every nested label is raised (a variable read re-raises them)
    { weight: 3, arbitrary: fc.tuple(labels, structure, fc.boolean()).map(([l, s, viaVar]) => (viaVar ? letIn(s, labelled(l, ref(0))) : labelled(l, s))) },
    // values and effects made under a raised pc must carry it (Confinement)
    { weight: 5, arbitrary: fc.tuple(labels, fc.oneof(leaf, structure, fc.constant(lam<L>(ref(0)))), fc.nat({ max: 4 })).map(([l, x, form]) => [
      labelled(l, x), app(labelled(l, lam(x, false)), unit), { kind: 'dynlabel', label: labelLit(l), body: x } as Expr<L>,
      { kind: 'fork', body: labelled(l, x) } as Expr<L>, { kind: 'assert', label: labelLit(l), body: x } as Expr<L>,
    ][form]!) },
    // the model's reply, also asked under a raised pc: several outcomes for Theorem 3 (its `several outcomes` counter,
    // ≥ 5 %, fell to 3–5 % without this branch), and a reply made under a raised pc must carry it (Confinement)
    { weight: 3, arbitrary: fc.tuple(labels, leaf, fc.nat({ max: 2 })).map(([l, x, form]) => [
      { kind: 'recv' } as Expr<L>, labelled(l, ask(x)), app(labelled(l, lam(ask(x), false)), unit),
    ][form]!) },
  ];
  if (k.endorse) {
    // Endorse keeps pc: `endorse t e`, also under a raised pc, and its body's effects run at it
    const effect = fc.constantFrom<Expr<L>>({ kind: 'send', arg: str('x') }, { kind: 'recv' }, { kind: 'clear' }, { kind: 'fork', body: { kind: 'send', arg: str('x') } });
    branches.push({ weight: 3, arbitrary: fc.tuple(labels, fc.option(labels, { nil: undefined }), fc.oneof(leaf, structure, effect)).map(([t, l, x]) => {
      const e: Expr<L> = { kind: 'endorse', label: labelLit(t), body: x };
      return l === undefined ? e : labelled(l, e);
    }) });
  }
  return branches;
}
