/**
 * `∼n` by erasure (spec §5, src/observe/indist.ts), checked against an independent reading of the spec:
 * two expressions are `∼n`-related iff they are equal after replacing every `l:e` with `l ⋢ n` by a hole.
 * The erasure is the canonical key of a `∼n` class, so it must be *injective* on those masked trees: a
 * rendering that merged two classes could hide a leak, one that split a class could invent one.
 * Also `eraseConversation` / `indistConversation`, `indistExpr`, `classKey`/`observe` and `compare`
 * on hand-computed cases (these are fast, direct kills for mutation testing, docs/mutation.md).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { fromEntries, identityKey, entries, type SubDist } from '../src/distributions/subdist.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { chain, powersetUS, twoPoint, US } from '../src/lattice/instances.ts';
import * as A from '../src/syntax/ast.ts';
import type { Expr, Value } from '../src/syntax/ast.ts';
import { children, withChildren } from '../src/syntax/helpers.ts';
import { exprArb } from '../src/generators/ast.ts';
import type { Conversation, Final } from '../src/semantics/config.ts';
import { absurd } from '../src/util/absurd.ts';
import { classKey, compare, eraseConversation, eraseExpr, indistConversation, indistExpr, observe } from '../src/observe/indist.ts';

/**
 * The independent side: the expression with every above-`n` labelled part replaced by a hole, as nested
 * arrays (JSON of nested arrays of strings is an injective encoding of trees).
 */
function masked<L>(lat: Lattice<L>, n: L, e: Expr<L>): unknown {
  const m = (x: Expr<L>): unknown => masked(lat, n, x);
  switch (e.kind) {
    case 'var': return ['var', e.name];
    case 'lam': return ['lam', e.param, m(e.body)];
    case 'app': return ['app', m(e.fn), m(e.arg)];
    case 'send': return ['send', m(e.arg)];
    case 'recv': return ['recv'];
    case 'fork': return ['fork', m(e.body)];
    case 'clear': return ['clear'];
    case 'label': return lat.leq(e.label, n) ? ['label', lat.show(e.label), m(e.body)] : ['hole'];
    case 'dynlabel': case 'test': case 'assert': case 'endorse': return [e.kind, m(e.label), m(e.body)];
    case 'num': return ['num', Q.numerator(e.value).toString(), Q.denominator(e.value).toString()];
    case 'str': return ['str', e.value];
    case 'bool': return ['bool', e.value];
    case 'null': return ['null'];
    case 'prim': return ['prim', e.name, m(e.arg)];
    case 'record': return ['record', ...e.fields.map((f) => [f.name, m(f.expr)])];
    case 'array': return ['array', ...e.elems.map(m)];
    case 'field': return ['field', m(e.target), e.name];
    case 'index': return ['index', m(e.target), m(e.index)];
    default: return absurd(e);
  }
}
const maskKey = <L>(lat: Lattice<L>, n: L, e: Expr<L>): string => JSON.stringify(masked(lat, n, e));

/** Erasures agree exactly when the masked trees do. Returns the first counterexample, if any. */
function injectivityFailure<L>(lat: Lattice<L>, n: L, es: readonly Expr<L>[]): string | undefined {
  const byErasure = new Map<string, string>();
  const byMask = new Map<string, string>();
  for (const e of es) {
    const er = eraseExpr(lat, n, e);
    const mk = maskKey(lat, n, e);
    const m0 = byErasure.get(er);
    if (m0 !== undefined && m0 !== mk) return `two classes share the erasure ${er}: ${m0} and ${mk}`;
    byErasure.set(er, mk);
    const e0 = byMask.get(mk);
    if (e0 !== undefined && e0 !== er) return `one class has two erasures ${e0} and ${er} (${mk})`;
    byMask.set(mk, er);
  }
  return undefined;
}

const { bottom: BOT, U, S, top: TOP } = US;

/**
 * A systematic corpus of small expressions: near-collisions of every construct with every other (same
 * children, another constructor; same constructor, other children; multi-digit numbers and containers
 * whose separators matter), labelled parts above and below each observer.
 */
function corpus<L>(lat: Lattice<L>): Expr<L>[] {
  const labels = lat.elements ?? [lat.bottom, lat.top];
  const leaves: Expr<L>[] = [
    A.v('x'), A.v('y'), A.v('xy'), A.recv, A.clear, A.nul, A.bool(true), A.bool(false),
    A.num(Q.rat(0)), A.num(Q.rat(1)), A.num(Q.rat(2)), A.num(Q.rat(12)), A.num(Q.rat(1, 2)), A.num(Q.rat(-1)),
    A.str(''), A.str('a'), A.str('1'), A.str('x'), A.str('recv'), A.str('•'),
  ];
  const small: Expr<L>[] = [A.v('x'), A.num(Q.rat(1)), A.num(Q.rat(2)), A.str('a'), A.recv, A.clear, A.nul];
  const out: Expr<L>[] = [...leaves];
  for (const l of labels) for (const b of [A.num(Q.rat(1)), A.num(Q.rat(2)), A.v('x')]) out.push(A.labelled(l, b));
  const kids: Expr<L>[] = [...small, ...labels.map((l) => A.labelled(l, A.num(Q.rat(1))))];
  for (const a of kids) {
    out.push(A.send(a), A.fork(a), A.lam('x', a), A.lam('y', a), A.prim('p', a), A.prim('q', a), A.field(a, 'a'), A.field(a, 'b'));
    out.push(A.array([a]), A.record([{ name: 'a', expr: a }]), A.record([{ name: 'b', expr: a }]));
    for (const b of kids) {
      out.push(A.app(a, b), A.dynlabel(a, b), A.test(a, b), A.assert(a, b), A.endorse(a, b), A.index(a, b));
      out.push(A.array([a, b]), A.record([{ name: 'a', expr: a }, { name: 'b', expr: b }]), A.record([{ name: 'a', expr: a }, { name: 'a', expr: b }]));
    }
  }
  // Containers whose element separators matter: [1, 2] vs [12], [[1], 2] vs [[1, 2]], {} vs [].
  out.push(
    A.array([]), A.record([]), A.array([A.num(Q.rat(12))]), A.array([A.num(Q.rat(1)), A.num(Q.rat(2))]),
    A.array([A.array([A.num(Q.rat(1))]), A.num(Q.rat(2))]), A.array([A.array([A.num(Q.rat(1)), A.num(Q.rat(2))])]),
    A.array([A.str('a'), A.str('b')]), A.array([A.str('a,b')]), A.array([A.str('ab')]),
    A.record([{ name: 'a', expr: A.num(Q.rat(1)) }, { name: 'b', expr: A.num(Q.rat(2)) }]),
    A.record([{ name: 'ab', expr: A.num(Q.rat(12)) }]),
  );
  // Nested constructs whose parenthesisation matters: (x y) z vs x (y z), send (x y) vs (send x) y.
  const [x, y, z] = [A.v('x'), A.v('y'), A.v('z')];
  out.push(
    A.app(A.app(x, y), z), A.app(x, A.app(y, z)), A.send(A.app(x, y)), A.app(A.send(x), y), A.fork(A.app(x, y)), A.app(A.fork(x), y),
    A.lam('x', A.app(x, y)), A.app(A.lam('x', x), y), A.field(A.field(x, 'a'), 'b'), A.index(A.index(x, y), z), A.index(x, A.index(y, z)),
  );
  return out;
}

/** Each (lattice, observer) the tests run at. */
const OBSERVERS: readonly { readonly name: string; readonly run: (f: <L>(lat: Lattice<L>, n: L) => void) => void }[] = [
  ...[BOT, U, S, TOP].map((n) => ({ name: `powerset-us, m = ${powersetUS.show(n)}`, run: (f: <L>(lat: Lattice<L>, n: L) => void) => f(powersetUS, n) })),
  ...(['L', 'H'] as const).map((n) => ({ name: `two-point, m = ${n}`, run: (f: <L>(lat: Lattice<L>, n: L) => void) => f(twoPoint, n) })),
  ...[0, 1].map((n) => ({ name: `chain(3), m = ${n}`, run: (f: <L>(lat: Lattice<L>, n: L) => void) => f(chain(3), n) })),
];

describe('eraseExpr is the canonical key of ∼n: equal erasures ⇔ equal after hiding the above-n parts', () => {
  for (const o of OBSERVERS) {
    it(`on a systematic corpus of near-collisions (${o.name})`, () => {
      o.run((lat, n) => {
        const es = corpus(lat);
        expect(injectivityFailure(lat, n, es)).toBeUndefined();
      });
    });
  }

  it('an expression of no known kind is an internal error, never a rendering that could merge classes', () => {
    const bogus = { kind: 'bogus' } as unknown as Expr<typeof BOT>;
    expect(() => eraseExpr(powersetUS, U, A.array([bogus]))).toThrow('internal error: unhandled case');
  });

  it('the corpus is not vacuous: at ["U"] on powerset-us it has merged classes and many distinct ones', () => {
    const es = corpus(powersetUS);
    const classes = new Set(es.map((e) => maskKey(powersetUS, U, e)));
    expect(classes.size).toBeGreaterThan(500);
    expect(classes.size).toBeLessThan(es.length);
  });

  /** `e` with the subterm at pre-order position `k` (mod the number of positions) replaced by `r`. */
  function replaceAt<L>(e: Expr<L>, k: number, r: Expr<L>): Expr<L> {
    let i = 0;
    const size = (x: Expr<L>): number => 1 + children(x).reduce((s, c) => s + size(c), 0);
    const target = k % size(e);
    const go = (x: Expr<L>): Expr<L> => {
      if (i++ === target) return r;
      return withChildren(x, children(x).map(go));
    };
    return go(e);
  }

  /** `e` with every above-`n` labelled part's body replaced by `r` (same class, different tree). */
  function refillHigh<L>(lat: Lattice<L>, n: L, e: Expr<L>, r: Expr<L>): Expr<L> {
    if (e.kind === 'label' && !lat.leq(e.label, n)) return A.labelled(e.label, r);
    return withChildren(e, children(e).map((c) => refillHigh(lat, n, c, r)));
  }

  it('on generated pairs: independent, one subterm replaced, high parts refilled (powerset-us, every observer)', () => {
    const lat = powersetUS;
    const e = exprArb(lat, { maxDepth: 3 });
    const pair = fc.oneof(
      fc.tuple(e, e),
      fc.tuple(e, fc.nat(), e).map(([a, k, r]) => [a, replaceAt(a, k, r)] as const),
      fc.tuple(e, fc.nat(), e, fc.constantFrom(BOT, U, S, TOP)).map(([a, k, r, l]) => [a, replaceAt(a, k, A.labelled(l, r))] as const),
    );
    fc.assert(
      fc.property(fc.constantFrom(BOT, U, S, TOP), pair, e, (n, [a, b], r) => {
        const c = refillHigh(lat, n, a, r);
        for (const [p, q] of [[a, b], [a, c]] as const) {
          expect(eraseExpr(lat, n, p) === eraseExpr(lat, n, q)).toBe(maskKey(lat, n, p) === maskKey(lat, n, q));
          expect(indistExpr(lat, n, p, q)).toBe(maskKey(lat, n, p) === maskKey(lat, n, q));
        }
      }),
      { numRuns: 300, seed: 17 },
    );
  });
});

describe('indistExpr (spec §5: l:e0 ∼n m:e1 when l, m ⋢ n; otherwise structural)', () => {
  const lat = powersetUS;
  const one = A.num(Q.rat(1));
  const two = A.num(Q.rat(2));
  it('two high labelled parts are related whatever their contents and labels', () => {
    expect(indistExpr(lat, U, A.labelled(S, one), A.labelled(TOP, A.str('other')))).toBe(true);
    expect(indistExpr(lat, U, A.send(A.labelled(S, one)), A.send(A.labelled(S, two)))).toBe(true);
  });
  it('a low labelled part is compared structurally, label included', () => {
    expect(indistExpr(lat, U, A.labelled(U, one), A.labelled(U, two))).toBe(false);
    expect(indistExpr(lat, U, A.labelled(U, one), A.labelled(BOT, one))).toBe(false);
    expect(indistExpr(lat, U, A.labelled(U, one), A.labelled(U, one))).toBe(true);
    expect(indistExpr(lat, TOP, A.labelled(S, one), A.labelled(S, two))).toBe(false);
  });
  it('a high part is never related to a low one', () => {
    expect(indistExpr(lat, U, A.labelled(S, one), A.labelled(U, one))).toBe(false);
    expect(indistExpr(lat, U, A.labelled(S, one), one)).toBe(false);
  });
});

describe('conversations: C ∼n C when identical, or both labels ⋢ n', () => {
  const lat = powersetUS;
  const conv = (label: typeof BOT, messages: string[]): Conversation<typeof BOT> => ({ label, messages });
  it('indistConversation on hand-picked cases', () => {
    expect(indistConversation(lat, U, conv(S, ['a']), conv(TOP, ['b', 'c']))).toBe(true);
    expect(indistConversation(lat, U, conv(U, ['a']), conv(U, ['a']))).toBe(true);
    expect(indistConversation(lat, U, conv(U, ['a']), conv(U, ['b']))).toBe(false);
    expect(indistConversation(lat, U, conv(U, ['a']), conv(BOT, ['a']))).toBe(false);
    expect(indistConversation(lat, U, conv(U, ['a', 'b']), conv(U, ['ab']))).toBe(false);
    expect(indistConversation(lat, U, conv(U, []), conv(U, ['']))).toBe(false);
    expect(indistConversation(lat, U, conv(S, ['a']), conv(U, ['a']))).toBe(false);
    expect(indistConversation(lat, TOP, conv(S, ['a']), conv(TOP, ['a']))).toBe(false);
  });
  it('eraseConversation hides exactly the above-n conversations', () => {
    expect(eraseConversation(lat, U, conv(S, ['secret']))).toBe(eraseConversation(lat, U, conv(TOP, [])));
    expect(eraseConversation(lat, U, conv(S, ['secret']))).not.toContain('secret');
    expect(eraseConversation(lat, U, conv(U, ['visible']))).toContain('visible');
  });
});

describe('classKey and observe: the pushforward to ∼n classes of final configurations', () => {
  const lat = powersetUS;
  const val = (l: typeof BOT, n: number): Value<typeof BOT> => A.value(l, A.num(Q.rat(n)));
  const fin = (cl: typeof BOT, msgs: string[], v: Value<typeof BOT>): Final<typeof BOT> => ({ conv: { label: cl, messages: msgs }, value: v });
  const key = (f: Final<typeof BOT>): string => `${f.conv.label}|${JSON.stringify(f.conv.messages)}|${JSON.stringify(masked(lat, U, f.value))}`;
  it('configurations related in both components share a class; a difference in either splits it', () => {
    const k = classKey(lat, U);
    expect(k(fin(S, ['a'], val(S, 1)))).toBe(k(fin(TOP, ['b'], val(TOP, 2))));
    expect(k(fin(U, ['a'], val(S, 1)))).not.toBe(k(fin(U, ['b'], val(S, 1))));
    expect(k(fin(U, ['a'], val(U, 1)))).not.toBe(k(fin(U, ['a'], val(U, 2))));
    expect(k(fin(U, ['a'], val(U, 1)))).not.toBe(k(fin(BOT, ['a'], val(U, 1))));
  });
  it('observe sums the weights of each class (hand-computed)', () => {
    const mu: SubDist<Final<typeof BOT>> = fromEntries([
      [fin(BOT, ['a'], val(S, 1)), Q.rat(1, 3)],
      [fin(BOT, ['a'], val(TOP, 7)), Q.rat(1, 6)],
      [fin(BOT, ['a'], val(U, 1)), Q.rat(1, 4)],
    ], key);
    const obs = entries(observe(lat, U, mu)).map(([, w]) => Q.show(w)).sort();
    expect(obs).toEqual(['1/2', '1/4']);
  });
});

describe('compare: compatibility, Σ max, total variation and Lemma 5\'s bound (hand-computed)', () => {
  const d = (es: [string, number, number][]): SubDist<string> => fromEntries(es.map(([k, p, q]) => [k, Q.rat(p, q)] as const), identityKey);
  it('incompatible: Σ max = 1/2 + 1/4 + 1/2 = 5/4 > 1', () => {
    const c = compare(d([['a', 1, 2], ['b', 1, 4]]), d([['a', 1, 4], ['c', 1, 2]]));
    expect(c.compatible).toBe(false);
    expect(Q.show(c.maxSum)).toBe('5/4');
    expect(Q.show(c.distance)).toBe('1/2'); // (1/4 + 1/4 + 1/2) / 2
    expect(Q.show(c.bound)).toBe('1/4'); // (1/4 + 1/4) / 2
  });
  it('compatible: Σ max = 1/2 + 1/3 = 5/6 ≤ 1', () => {
    const c = compare(d([['a', 1, 2]]), d([['a', 1, 3], ['b', 1, 3]]));
    expect(c.compatible).toBe(true);
    expect(Q.show(c.maxSum)).toBe('5/6');
    expect(Q.show(c.distance)).toBe('1/4'); // (1/6 + 1/3) / 2
    expect(Q.show(c.bound)).toBe('5/12'); // (1/2 + 1/3) / 2
  });
});
