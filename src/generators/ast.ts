/**
 * A fast-check arbitrary of core ASTs over every construct, for the syntax round-trip
 * property (properties/syntax.ts). It aims at the printer's hard cases, not at well-formed or
 * well-scoped programs (the program generators live elsewhere): negative and non-decimal
 * rationals, strings full of quotes, braces, backslashes and control characters, keyword and
 * duplicate field names, label literals as dynamic labels, and the exact shapes of every derived
 * form so that `prettyPrint`'s re-sugaring is exercised.
 */
import fc from 'fast-check';
import { isZero, rat, type Rational } from '../distributions/rational.ts';
import type { Lattice } from '../lattice/lattice.ts';
import * as A from '../syntax/ast.ts';
import type { BareValue, Expr, PlainValue, Value } from '../syntax/ast.ts';
import {
  ask, BINOPS, binop, children, stripLabels, withChildren, ifThenElse, interpolate, letIn, logicalAnd, logicalNot, logicalOr, notEqual, recordUpdate, shapeOf, toStr,
} from '../syntax/helpers.ts';
import { isIdentifier } from '../syntax/lexer.ts';

/** Options for `exprArb`. */
export interface ExprArbOptions {
  /** Maximum nesting of generated constructors (default 5). */
  readonly maxDepth?: number;
}

/**
 * Context-free shrinking of an AST, smallest candidates first: each immediate subterm in place of
 * the whole, then the term with one child shrunk (recursively), then a simpler leaf. Lazy, so
 * the search stops at the first candidate that still fails.
 */
export function* shrinkExpr<L>(e: Expr<L>): Generator<Expr<L>> {
  const kids = children(e);
  yield* kids;
  for (let i = 0; i < kids.length; i++) {
    for (const smaller of shrinkExpr(kids[i] as Expr<L>)) {
      const next = kids.slice();
      next[i] = smaller;
      yield withChildren(e, next);
    }
  }
  if (e.kind === 'str' && e.value !== '') yield A.str('');
  if (e.kind === 'num' && !isZero(e.value)) yield A.num(rat(0));
  if (e.kind === 'var' && e.name !== 'x') yield A.v('x');
}

/**
 * Wraps an AST arbitrary so that shrinking tries `shrinkExpr`'s candidates before the wrapped
 * arbitrary's own shrinks. fast-check's `oneof` cannot replace a node by one of its children, so
 * without this a failing subterm stays buried in whatever context it was generated in.
 */
export class SubtermShrinking<L> extends fc.Arbitrary<Expr<L>> {
  constructor(private readonly inner: fc.Arbitrary<Expr<L>>) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<Expr<L>> {
    return this.inner.generate(mrng, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is Expr<L> {
    return typeof value === 'object' && value !== null && 'kind' in value;
  }

  shrink(value: Expr<L>, context: unknown): fc.Stream<fc.Value<Expr<L>>> {
    const generic = new fc.Stream(shrinkExpr(value)).map((c) => new fc.Value(c, undefined));
    return context === undefined ? generic : generic.join(this.inner.shrink(value, context));
  }
}

/** Identifiers: a few common names (so binders and uses meet) and random valid ones. */
export function identifierArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom('x', 'y', 'f', '_', 'x1', 'is_trusted', 'X', 'in_', 'letter'), weight: 3 },
    { arbitrary: fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/).filter(isIdentifier), weight: 1 },
  );
}

/** Exact rationals: integers (some huge), finite decimals, and rationals with no finite decimal form. */
export function rationalArb(): fc.Arbitrary<Rational> {
  return fc.oneof(
    fc.integer({ min: -1000, max: 1000 }).map((n) => rat(n)),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map((n) => rat(n)),
    fc
      .tuple(fc.integer({ min: -100000, max: 100000 }), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 4 }))
      .map(([n, a, b]) => rat(n, 2 ** a * 5 ** b)),
    fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.constantFrom(3, 6, 7, 12, 30, 1000003)).map(([n, d]) => rat(n, d)),
  );
}

const TRICKY_CHARS = [
  '"', "'", '{', '}', '\\', '\n', '\t', '\r', '#', ' ', 'a', 'Z', '0', ':', 'é', 'λ', '😀',
  '\u0000', '\u001b', '\u007f', '\u2028', '\ud800', '{x}', '\\n', '\\{',
];

/** String contents, biased towards characters that need escaping. */
export function stringArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY_CHARS), maxLength: 6 }), weight: 3 },
    { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 4 }), weight: 1 },
  );
}

/** Field names: a small pool (so records repeat names), keywords, and arbitrary strings. */
export function fieldNameArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom('a', 'b', 'type', 'length'), weight: 4 },
    { arbitrary: fc.constantFrom('in', 'if', 'true', 'str'), weight: 1 },
    { arbitrary: stringArb(), weight: 1 },
  );
}

/** Primitive names: the ones the derived forms use, and arbitrary strings. */
export function primNameArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom('binop_+', 'binop_==', 'fromBool', 'toStr', 'shape', 'recordUpdate', 'p'), weight: 3 },
    { arbitrary: stringArb(), weight: 1 },
  );
}

/** The lattice's labels (its `elements`, else ⊥ and ⊤). */
export function latticeLabelArb<L>(lat: Lattice<L>): fc.Arbitrary<L> {
  const labels = lat.elements && lat.elements.length > 0 ? lat.elements : [lat.bottom, lat.top];
  return fc.constantFrom(...labels);
}

/**
 * ASTs over every constructor of the core grammar and every derived-form shape, with values
 * (`l:v`) among them. Not scoped or typed: for syntax properties only. Shrinks towards subterms.
 */
export function exprArb<L>(lat: Lattice<L>, opts: ExprArbOptions = {}): fc.Arbitrary<Expr<L>> {
  return new SubtermShrinking(plainExprArb(lat, opts));
}

function plainExprArb<L>(lat: Lattice<L>, opts: ExprArbOptions): fc.Arbitrary<Expr<L>> {
  const maxDepth = opts.maxDepth ?? 5;
  const label = latticeLabelArb(lat);
  const ident = identifierArb();
  const scalar: fc.Arbitrary<A.Scalar> = fc.oneof(
    rationalArb().map(A.num),
    stringArb().map(A.str),
    fc.boolean().map(A.bool),
    fc.constant(A.nul),
  );
  const leaf: fc.Arbitrary<Expr<L>> = fc.oneof(
    { arbitrary: ident.map(A.v), weight: 3 },
    { arbitrary: scalar, weight: 3 },
    { arbitrary: fc.constantFrom<Expr<L>>(A.recv, A.clear), weight: 1 },
  );
  // Label literals written as expressions: the printer must keep them dynamic (`([...]):e`).
  const labelLiteral: fc.Arbitrary<Expr<L>> = fc.oneof(
    label.map((l) => lat.fromLabel(l) as Expr<L>),
    fc.constant(A.array<L>([A.str('not-a-label')])),
  );
  const rec = { maxDepth, depthSize: 'small' as const, depthIdentifier: 'llmbda-ast', withCrossShrink: true };

  return fc.letrec<{ expr: Expr<L>; value: Value<L>; bare: BareValue<L> }>((tie) => {
    const e = tie('expr');
    const V = tie('value');
    const labelExpr = fc.oneof({ arbitrary: e, weight: 3 }, { arbitrary: labelLiteral, weight: 1 });
    const fields = <T>(x: fc.Arbitrary<T>): fc.Arbitrary<A.Field<T>[]> =>
      fc.array(fc.record({ name: fieldNameArb(), expr: x }), { maxLength: 3 });
    const core: fc.Arbitrary<Expr<L>>[] = [
      fc.tuple(ident, e).map(([x, b]) => A.lam(x, b)),
      fc.tuple(e, e).map(([f, a]) => A.app(f, a)),
      e.map(A.send),
      e.map(A.fork),
      fc.tuple(label, e).map(([l, b]) => A.labelled(l, b)),
      fc.tuple(labelExpr, e).map(([l, b]) => A.dynlabel(l, b)),
      fc.tuple(labelExpr, e).map(([l, b]) => A.test(l, b)),
      fc.tuple(labelExpr, e).map(([l, b]) => A.assert(l, b)),
      fc.tuple(labelExpr, e).map(([l, b]) => A.endorse(l, b)),
      fc.tuple(primNameArb(), e).map(([p, a]) => A.prim(p, a)),
      fields(e).map((fs) => A.record(fs)),
      // Records may repeat a field name (the first one wins at run time): make that common.
      fc.tuple(fieldNameArb(), e, e).map(([n, a, b]) => A.record([{ name: n, expr: a }, { name: n, expr: b }])),
      fc.array(e, { maxLength: 3 }).map((xs) => A.array(xs)),
      fc.tuple(e, fieldNameArb()).map(([t, s]) => A.field(t, s)),
      fc.tuple(e, e).map(([t, i]) => A.index(t, i)),
      V,
    ];
    const sugar: fc.Arbitrary<Expr<L>>[] = [
      fc.tuple(e, e, e).map(([c, t, f]) => ifThenElse(c, t, f)),
      fc.tuple(ident, e, e).map(([x, r, b]) => letIn(x, r, b)),
      e.map((x) => ask(x)),
      fc.tuple(fc.constantFrom(...BINOPS), e, e).map(([op, a, b]) => binop(op, a, b)),
      e.map((x) => logicalNot(x)),
      fc.tuple(e, e).map(([a, b]) => logicalAnd(a, b)),
      fc.tuple(e, e).map(([a, b]) => logicalOr(a, b)),
      fc.tuple(e, e).map(([a, b]) => notEqual(a, b)),
      fc.tuple(e, fieldNameArb(), e).map(([t, s, x]) => recordUpdate(t, s, x)),
      e.map((x) => toStr(x)),
      e.map((x) => shapeOf(x)),
      fc.array(fc.oneof(stringArb(), e), { maxLength: 3 }).map((ps) => interpolate(ps)),
    ];
    return {
      expr: fc.oneof(
        rec,
        { arbitrary: leaf, weight: 6 },
        ...core.map((arbitrary) => ({ arbitrary, weight: 2 })),
        ...sugar.map((arbitrary) => ({ arbitrary, weight: 1 })),
      ),
      value: fc.tuple(label, tie('bare')).map(([l, b]) => A.value(l, b)),
      bare: fc.oneof(
        rec,
        scalar,
        fc.tuple(ident, e).map(([x, b]): BareValue<L> => A.lam(x, b)),
        fields(V).map((fs): BareValue<L> => ({ kind: 'record', fields: fs })),
        fc.array(V, { maxLength: 3 }).map((xs): BareValue<L> => ({ kind: 'array', elems: xs })),
      ),
    };
  }).expr;
}

/**
 * Strings that stress `serialise`'s quoting (spec §4): interpolation braces, both quotes,
 * backslashes and escape look-alikes, every kind of control character, astral code points (whole
 * and as lone surrogates), line separators; plus arbitrary code points.
 */
export function serialiseStringArb(): fc.Arbitrary<string> {
  const controls = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
  const c1 = fc.integer({ min: 0x7f, max: 0x9f }).map((c) => String.fromCharCode(c));
  const astral = fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
  const unit = fc.oneof(
    { arbitrary: fc.constantFrom('{', '}', '"', "'", '\\', '{}', '{x}', '\\{', '\\u{41}', '\\n', '#', ' ', 'a', '😀', '\u2028', '\ud83d', '\ude00'), weight: 4 },
    { arbitrary: controls, weight: 2 },
    { arbitrary: c1, weight: 1 },
    { arbitrary: astral, weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 1 },
  );
  return fc.string({ unit, maxLength: 8 });
}

/** Field names for `serialise`: words (keywords included, printed bare) and names that must be quoted. */
export function serialiseFieldNameArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom('a', 'type', 'in', 'true', '_', 'x1'), weight: 2 },
    { arbitrary: fc.constantFrom('', '1a', 'a b', 'a-b', 'a.b', 'é', '"', '{}', ':', '\n'), weight: 2 },
    { arbitrary: serialiseStringArb(), weight: 1 },
  );
}

/**
 * Label-free values (`PlainValue`, what `serialise`, `toStr` and `primEval` see): scalars with
 * `serialiseStringArb` strings and every kind of rational, records with awkward and repeated field
 * names, arrays, and lambdas whose (label-stripped) bodies are arbitrary ASTs.
 */
export function plainValueArb<L>(lat: Lattice<L>, opts: ExprArbOptions = {}): fc.Arbitrary<PlainValue> {
  const maxDepth = opts.maxDepth ?? 4;
  const scalar: fc.Arbitrary<PlainValue> = fc.oneof(
    rationalArb().map(A.num),
    { arbitrary: serialiseStringArb().map(A.str), weight: 3 },
    fc.boolean().map(A.bool),
    fc.constant(A.nul),
  );
  const lamArb: fc.Arbitrary<PlainValue> = fc
    .tuple(identifierArb(), exprArb(lat, { maxDepth: 2 }))
    .map(([x, b]) => stripLabels(A.lam(x, b)) as PlainValue);
  return fc.letrec<{ v: PlainValue }>((tie) => ({
    v: fc.oneof(
      { maxDepth, depthSize: 'small', depthIdentifier: 'llmbda-plain', withCrossShrink: true },
      { arbitrary: scalar, weight: 4 },
      { arbitrary: lamArb, weight: 1 },
      {
        arbitrary: fc
          .array(fc.record({ name: serialiseFieldNameArb(), expr: tie('v') }), { maxLength: 3 })
          .map((fields): PlainValue => ({ kind: 'record', fields })),
        weight: 2,
      },
      { arbitrary: fc.array(tie('v'), { maxLength: 3 }).map((elems): PlainValue => ({ kind: 'array', elems })), weight: 2 },
    ),
  })).v;
}
