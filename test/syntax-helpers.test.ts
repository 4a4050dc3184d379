/**
 * The AST helpers of spec §3 (deepLabel, stripLabels, flatten, wrapValues, substitution, free
 * variables, size, isValue, equality) and the derived-form constructors, each against expectations
 * written out by hand; plus terms far deeper than any recursion could handle.
 */
import { describe, expect, it } from 'vitest';
import { rat } from '../src/distributions/rational.ts';
import {
  app, array, assert, bool, clear, dynlabel, endorse, field, fork, index, labelled, lam, nul, num, prim, record, recv,
  send, str, test, v, value, type Expr, type ExprKind, type PlainValue, type Value,
} from '../src/syntax/ast.ts';
import {
  ALL_KINDS, ask, binop, children, deepLabel, exprDiff, exprEquals, flatten, freeVars, ifThenElse, interpolate, isClosed,
  isValue, letIn, logicalAnd, logicalNot, logicalOr, notEqual, recordUpdate, shapeOf, size, stripLabels, stripValue, subst,
  substMany, toStr, wrapValues,
} from '../src/syntax/helpers.ts';
import { testPairs, testPowersetUS } from './helpers/test-lattices.ts';

const lat = testPowersetUS;
const U = 1;
const S = 2;
const n = (p: number, q = 1) => num(rat(p, q));
const bot = <L>(b: Value<L>['body']): Value<number> => value(0, b as Value<number>['body']);

/** One node of every kind (as a flat list, for kind coverage). */
const ONE_OF_EACH: readonly Expr<number>[] = [
  v('x'), lam('x', v('x')), app(v('f'), v('x')), send(v('x')), recv, fork(v('x')), clear, labelled(S, v('x')),
  dynlabel(v('l'), v('x')), test(v('l'), v('x')), assert(v('l'), v('x')), endorse(v('l'), v('x')), n(1), str('s'),
  bool(true), nul, prim('p', v('x')), record([{ name: 'a', expr: v('x') }]), array([v('x')]), field(v('x'), 'a'),
  index(v('x'), n(0)),
];

describe('ALL_KINDS and size', () => {
  it('ALL_KINDS lists the 21 constructors of the spec §2 grammar exactly once', () => {
    const spec: ExprKind[] = [
      'var', 'lam', 'app', 'send', 'recv', 'fork', 'clear', 'label', 'dynlabel', 'test', 'assert', 'endorse', 'num', 'str',
      'bool', 'null', 'prim', 'record', 'array', 'field', 'index',
    ];
    expect([...ALL_KINDS].sort()).toEqual([...spec].sort());
    expect(new Set(ONE_OF_EACH.map((e) => e.kind)).size).toBe(21);
  });

  it('size counts AST nodes (record fields are not nodes)', () => {
    expect(size(v('x'))).toBe(1);
    expect(size(app(v('f'), lam('x', v('x'))))).toBe(4);
    expect(size(record([{ name: 'a', expr: n(1) }, { name: 'b', expr: labelled(S, n(2)) }]))).toBe(4);
    expect(ONE_OF_EACH.map(size)).toEqual([1, 2, 3, 2, 1, 2, 1, 2, 3, 3, 3, 3, 1, 1, 1, 1, 2, 2, 2, 2, 3]);
    expect(children(index(v('x'), n(0)))).toEqual([v('x'), n(0)]);
  });
});

describe('isValue: V ::= l:v with v a scalar, lambda, or record/array of values', () => {
  it('accepts labelled scalars, lambdas and nested labelled data', () => {
    expect(isValue(value(S, n(1)))).toBe(true);
    expect(isValue(value(0, lam('x', app(v('x'), v('y')))))).toBe(true);
    expect(isValue(value(0, { kind: 'array', elems: [value(U, str('a')), value(0, { kind: 'record', fields: [] })] }))).toBe(true);
  });

  it('rejects unlabelled scalars, unlabelled elements, and non-value bodies', () => {
    expect(isValue(n(1))).toBe(false);
    expect(isValue(labelled(0, array([n(1)])))).toBe(false);
    expect(isValue(labelled(0, app(v('f'), v('x'))))).toBe(false);
    expect(isValue(labelled(0, labelled(0, n(1))))).toBe(false);
    expect(isValue(labelled(0, v('x')))).toBe(false);
  });
});

describe('exprEquals / exprDiff', () => {
  it('numbers compare as exact rationals and labels by lattice.equals, not by identity', () => {
    expect(exprEquals(lat, num(rat(2, 4)), num(rat(1, 2)))).toBe(true);
    expect(exprEquals(testPairs, labelled([true, false], v('x')), labelled([true, false], v('x')))).toBe(true);
    expect(exprEquals(testPairs, labelled([true, false], v('x')), labelled([false, true], v('x')))).toBe(false);
  });

  it('every field matters: names, order, kinds, lengths', () => {
    const r = (a: string, b: string) => record([{ name: a, expr: n(1) }, { name: b, expr: n(2) }]);
    expect(exprEquals(lat, r('a', 'b'), r('a', 'b'))).toBe(true);
    expect(exprEquals(lat, r('a', 'b'), r('b', 'a'))).toBe(false);
    expect(exprEquals(lat, array([n(1)]), array([n(1), n(1)]))).toBe(false);
    expect(exprEquals(lat, lam('x', v('x')), lam('y', v('y')))).toBe(false);
    expect(exprEquals(lat, prim('a', nul), prim('b', nul))).toBe(false);
    expect(exprEquals(lat, test(v('l'), v('x')), assert(v('l'), v('x')))).toBe(false);
    for (const e of ONE_OF_EACH) expect(exprEquals(lat, e, e), e.kind).toBe(true);
  });

  it('exprDiff reports the first difference in reading order with its path', () => {
    const a = app(lam('x', array([n(1), n(2)])), v('y'));
    const b = app(lam('x', array([n(1), n(3)])), v('z'));
    expect(exprDiff(lat, a, b)).toEqual({ path: '.fn.body.elems[1]', left: n(2), right: n(3) });
    expect(exprDiff(lat, a, a)).toBeUndefined();
  });
});

describe('free variables and substitution', () => {
  it('freeVars: binders hide their parameter; the set is cached per node', () => {
    const e = app(lam('x', app(v('x'), v('y'))), v('z'));
    expect([...freeVars(e)].sort()).toEqual(['y', 'z']);
    expect(freeVars(e)).toBe(freeVars(e));
    expect(isClosed(lam('x', v('x')))).toBe(true);
    expect(isClosed(lam('x', v('y')))).toBe(false);
  });

  it('subst replaces free occurrences, stops under a binder of x, and shares untouched subtrees', () => {
    const V = value(S, n(1));
    const untouched = lam('x', v('x'));
    const other = app(v('f'), v('g'));
    const e = array([v('x'), untouched, other, lam('y', v('x'))]);
    const r = subst(e, 'x', V);
    expect(r).toEqual(array([V, untouched, other, lam('y', V)]));
    if (r.kind !== 'array') throw new Error('shape');
    expect(r.elems[1]).toBe(untouched);
    expect(r.elems[2]).toBe(other);
    expect(subst(other, 'x', V)).toBe(other);
  });

  it('substMany substitutes simultaneously and respects shadowing', () => {
    const s = new Map<string, Expr<number>>([['x', n(1)], ['y', n(2)]]);
    expect(substMany(array([v('x'), v('y'), lam('x', app(v('x'), v('y')))]), s)).toEqual(
      array([n(1), n(2), lam('x', app(v('x'), n(2)))]),
    );
    const shared = lam('x', v('x'));
    expect(substMany(shared, s)).toBe(shared);
  });

  it('substMany refuses expressions that are not closed (capture would be possible)', () => {
    expect(() => substMany(v('x'), new Map([['x', v('y')]]))).toThrow(/closed/);
  });
});

describe('labels: deepLabel, stripLabels, flatten, wrapValues (spec §3)', () => {
  const inner = lam('z', labelled(S, v('z')));
  const V = value(0, {
    kind: 'record',
    fields: [
      { name: 'a', expr: value(0, n(1)) },
      { name: 'f', expr: value(0, inner) },
      { name: 'b', expr: value(U, { kind: 'array', elems: [value(0, str('s'))] }) },
    ],
  });

  it('deepLabel joins every label: fields, elements, lambda bodies, the top label', () => {
    expect(deepLabel(lat, V)).toBe(U | S);
    expect(deepLabel(lat, value(S, n(1)))).toBe(S);
    expect(deepLabel(lat, n(1))).toBe(0);
    expect(deepLabel(lat, inner)).toBe(S);
    // The cached lambda result is the same when the lambda is met again inside another term.
    expect(deepLabel(lat, array([inner, labelled(0, n(1))]))).toBe(S);
    expect(deepLabel(lat, dynlabel(v('l'), labelled(U, v('x'))))).toBe(U);
  });

  it('stripLabels erases every label node, including inside lambda bodies, and shares label-free subtrees', () => {
    const free = app(v('f'), v('x'));
    expect(stripLabels(V)).toEqual(
      record([{ name: 'a', expr: n(1) }, { name: 'f', expr: lam('z', v('z')) }, { name: 'b', expr: array([str('s')]) }]),
    );
    expect(stripLabels(free)).toBe(free);
    expect(stripLabels(labelled(U, labelled(S, free)))).toBe(free);
  });

  it('flatten(V) = deepLabel(V):stripLabels(V)', () => {
    const { label, value: plain } = flatten(lat, V);
    expect(label).toBe(U | S);
    expect(plain).toEqual(stripValue(V));
    expect(plain.kind).toBe('record');
  });

  it('wrapValues puts ⊥ on every nested field and element, leaving lambda bodies untouched', () => {
    const body = labelled(S, v('y'));
    const f: PlainValue = lam('y', body as Expr<never>);
    const plain: PlainValue = { kind: 'record', fields: [{ name: 'x', expr: { kind: 'array', elems: [n(1), f] } }] };
    const wrapped = wrapValues(lat, plain);
    expect(wrapped).toEqual({
      kind: 'record',
      fields: [{ name: 'x', expr: bot({ kind: 'array', elems: [bot(n(1)), bot(f)] }) }],
    });
    expect(wrapValues(lat, str('s'))).toEqual(str('s'));
    if (wrapped.kind !== 'record') throw new Error('shape');
    const inner = wrapped.fields[0]?.expr.body;
    if (inner?.kind !== 'array') throw new Error('shape');
    expect(inner.elems[1]?.body).toBe(f);
  });
});

describe('derived-form constructors build the spec §2 shapes', () => {
  const IF = (c: Expr<number>, t: Expr<number>, f: Expr<number>) => app(app(app(prim('fromBool', c), lam('_', t)), lam('_', f)), record([]));
  it('if, let, @, operators, not, &&, ||, !=, :=, str, shape', () => {
    expect(ifThenElse(v('c'), v('t'), v('f'))).toEqual(IF(v('c'), v('t'), v('f')));
    expect(letIn('x', v('a'), v('b'))).toEqual(app(lam('x', v('b')), v('a')));
    expect(ask(v('m'))).toEqual(app(lam('_', recv), send(v('m'))));
    expect(binop('<=', v('a'), v('b'))).toEqual(prim('binop_<=', array([v('a'), v('b')])));
    expect(logicalNot(v('a'))).toEqual(IF(v('a'), bool(false), bool(true)));
    expect(logicalAnd(v('a'), v('b'))).toEqual(IF(v('a'), v('b'), bool(false)));
    expect(logicalOr(v('a'), v('b'))).toEqual(IF(v('a'), bool(true), v('b')));
    expect(notEqual(v('a'), v('b'))).toEqual(IF(prim('binop_==', array([v('a'), v('b')])), bool(false), bool(true)));
    expect(recordUpdate(v('r'), 's', v('e'))).toEqual(prim('recordUpdate', array([v('r'), str('s'), v('e')])));
    expect(toStr(v('e'))).toEqual(prim('toStr', v('e')));
    expect(shapeOf(v('e'))).toEqual(prim('shape', v('e')));
  });

  it('interpolate omits empty text and nests to the left', () => {
    const plus = (a: Expr<number>, b: Expr<number>) => prim('binop_+', array([a, b]));
    expect(interpolate<number>([])).toEqual(str(''));
    expect(interpolate<number>(['', ''])).toEqual(str(''));
    expect(interpolate<number>(['', v('x'), ''])).toEqual(prim('toStr', v('x')));
    expect(interpolate<number>(['a', v('x'), 'b', v('y')])).toEqual(
      plus(plus(plus(str('a'), prim('toStr', v('x'))), str('b')), prim('toStr', v('y'))),
    );
  });
});

describe('deep terms: every helper handles depth 20,000 without stack overflow', () => {
  const DEPTH = 20000;
  let lams: Expr<number> = v('x');
  let copy: Expr<number> = v('x'); // built separately, so equality must walk the whole chain
  let labels: Expr<number> = v('x');
  let data: Value<number> = value(0, nul);
  for (let i = 0; i < DEPTH; i++) {
    lams = lam(i % 2 === 0 ? 'y' : 'z', lams);
    copy = lam(i % 2 === 0 ? 'y' : 'z', copy);
    labels = labelled(i === 0 ? S : 0, labels);
    data = value(i === DEPTH - 1 ? U : 0, { kind: 'array', elems: [data] });
  }

  it('freeVars, subst, substMany, size, exprEquals on a 20,000-deep lambda chain', () => {
    expect([...freeVars(lams)]).toEqual(['x']);
    const r = subst(lams, 'x', value(S, n(1)));
    expect(size(r)).toBe(DEPTH + 2); // the value ["S"]:1 is two nodes
    expect(isClosed(r)).toBe(true);
    const m = substMany(lams, new Map([['x', n(1)]]));
    expect(size(m)).toBe(DEPTH + 1);
    expect(isClosed(m)).toBe(true);
    expect(exprEquals(lat, lams, copy)).toBe(true);
    expect(exprDiff(lat, lams, subst(copy, 'x', n(2)))?.path).toBe('.body'.repeat(DEPTH));
    expect(deepLabel(lat, r)).toBe(S);
  });

  it('deepLabel, stripLabels, isValue, flatten on 20,000-deep labels and values', () => {
    expect(deepLabel(lat, labels)).toBe(S);
    expect(stripLabels(labels)).toEqual(v('x'));
    expect(isValue(data)).toBe(true);
    const f = flatten(lat, data);
    expect(f.label).toBe(U);
    expect(size(f.value)).toBe(DEPTH + 1);
  });
});
