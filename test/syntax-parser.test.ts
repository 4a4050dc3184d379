/**
 * The parser (docs/grammar.md): derived forms expand to exactly the shapes of spec §2, precedence,
 * lexical rules, top-level definitions, label folding, and error positions with caret excerpts.
 * Expected ASTs are written out with the raw constructors of ast.ts, never with the parser's helpers.
 */
import { describe, expect, it } from 'vitest';
import { rat } from '../src/distributions/rational.ts';
import {
  app, array, assert, bool, clear, dynlabel, endorse, field, fork, index, labelled, lam, nul, num, prim, record, recv,
  send, str, test, v, type Expr,
} from '../src/syntax/ast.ts';
import { ParseError } from '../src/syntax/errors.ts';
import { MAX_NESTING, parse, parseDefinitions, tryParse } from '../src/syntax/parser.ts';
import { UserError } from '../src/util/absurd.ts';
import { exprEquals } from '../src/syntax/helpers.ts';
import { closeProgram, loadPrelude, parseResponse } from '../src/semantics/prelude.ts';
import { testChain3, testPairs, testPowersetUS, testTwoPoint } from './helpers/test-lattices.ts';

const lat = testPowersetUS;
const P = (src: string): Expr<number> => parse(src, lat);
const U = 1;
const S = 2;

// The spec's expansions, written independently of src/syntax/helpers.ts.
const IF = <L>(c: Expr<L>, t: Expr<L>, f: Expr<L>): Expr<L> => app(app(app(prim('fromBool', c), lam('_', t)), lam('_', f)), record([]));
const OP = <L>(op: string, a: Expr<L>, b: Expr<L>): Expr<L> => prim(`binop_${op}`, array([a, b]));
const AT = <L>(e: Expr<L>): Expr<L> => app(lam('_', recv), send(e));
const TOSTR = <L>(e: Expr<L>): Expr<L> => prim('toStr', e);
const n = (p: number, q = 1) => num(rat(p, q));

/** The ParseError thrown by parsing `src`. */
function errorOf(src: string, file?: string): ParseError {
  const r = tryParse(src, lat, file === undefined ? {} : { file });
  if (r.ok) throw new Error(`expected a parse error for ${JSON.stringify(src)}`);
  return r.error;
}

describe('derived forms expand to exactly the spec §2 shapes', () => {
  it('let x = e1 in e2 ≜ (λx. e2) e1', () => {
    expect(P('let x = a in b')).toEqual(app(lam('x', v('b')), v('a')));
  });

  it('if e1 then e2 else e3 ≜ (prim "fromBool" e1) (λ_. e2) (λ_. e3) {}', () => {
    expect(P('if c then t else f')).toEqual(app(app(app(prim('fromBool', v('c')), lam('_', v('t'))), lam('_', v('f'))), record([])));
  });

  it('each binary operator ⊕ ≜ prim "binop_⊕" [e1, e2]', () => {
    for (const op of ['+', '-', '*', '/', '%', '==', '<', '>', '<=', '>=']) {
      expect(P(`a ${op} b`)).toEqual(prim(`binop_${op}`, array([v('a'), v('b')])));
    }
  });

  it('!=, not, &&, || expand via if', () => {
    expect(P('a != b')).toEqual(IF(OP('==', v('a'), v('b')), bool(false), bool(true)));
    expect(P('not a')).toEqual(IF(v('a'), bool(false), bool(true)));
    expect(P('a && b')).toEqual(IF(v('a'), v('b'), bool(false)));
    expect(P('a || b')).toEqual(IF(v('a'), bool(true), v('b')));
  });

  it('e.s := e\' ≜ prim "recordUpdate" [e, "s", e\']', () => {
    expect(P('r.a := 1 + 2')).toEqual(prim('recordUpdate', array([v('r'), str('a'), OP('+', n(1), n(2))])));
    expect(P('r.x.y := z')).toEqual(prim('recordUpdate', array([field(v('r'), 'x'), str('y'), v('z')])));
  });

  it('@e ≜ (λ_. recv) (send e); str(e), shape(e) are prims', () => {
    expect(P('@"hi"')).toEqual(app(lam('_', recv), send(str('hi'))));
    expect(P('str(x)')).toEqual(prim('toStr', v('x')));
    expect(P('shape(x).type')).toEqual(field(prim('shape', v('x')), 'type'));
  });

  it('interpolation: "a{e}b" ≜ "a" + str(e) + "b", nested left, empty pieces omitted', () => {
    expect(P('"abc"')).toEqual(str('abc'));
    expect(P('""')).toEqual(str(''));
    expect(P('"{x}"')).toEqual(TOSTR(v('x')));
    expect(P('"a{x}"')).toEqual(OP('+', str('a'), TOSTR(v('x'))));
    expect(P('"{x}b"')).toEqual(OP('+', TOSTR(v('x')), str('b')));
    expect(P('"a{x}b"')).toEqual(OP('+', OP('+', str('a'), TOSTR(v('x'))), str('b')));
    expect(P('"{x}{y}"')).toEqual(OP('+', TOSTR(v('x')), TOSTR(v('y'))));
    expect(P('"a{x}b{y}c"')).toEqual(OP('+', OP('+', OP('+', OP('+', str('a'), TOSTR(v('x'))), str('b')), TOSTR(v('y'))), str('c')));
    expect(P('"a{"b{x}"}"')).toEqual(OP('+', str('a'), TOSTR(OP('+', str('b'), TOSTR(v('x'))))));
    expect(P('"{ {k: 1}.k }"')).toEqual(TOSTR(field(record([{ name: 'k', expr: n(1) }]), 'k')));
  });

  it('top-level definitions scope over the rest: let x = e; R ≜ (λx. R) e', () => {
    expect(P('let x = 1\nlet y = x\ny')).toEqual(app(lam('x', app(lam('y', v('y')), v('x'))), n(1)));
  });

  it('static vs dynamic labels: a bare label literal the lattice accepts folds, anything else stays dynamic', () => {
    expect(P('["S"]:x')).toEqual(labelled(S, v('x')));
    expect(P('["S","U"]:x')).toEqual(labelled(U | S, v('x')));
    expect(P('["U","S"]:x')).toEqual(labelled(U | S, v('x')));
    expect(P('[]:x')).toEqual(labelled(0, v('x')));
    expect(P('(["S"]):x')).toEqual(dynlabel(array([str('S')]), v('x')));
    expect(P('["X"]:x')).toEqual(dynlabel(array([str('X')]), v('x')));
    expect(P('["S","S"]:x')).toEqual(dynlabel(array([str('S'), str('S')]), v('x')));
    expect(P('l:x')).toEqual(dynlabel(v('l'), v('x')));
    expect(P('[y]:x')).toEqual(dynlabel(array([v('y')]), v('x')));
    expect(P('["S"].[0]:x')).toEqual(dynlabel(index(array([str('S')]), n(0)), v('x')));
    // The label test, assert and endorse never fold.
    expect(P('["S"] ? x')).toEqual(test(array([str('S')]), v('x')));
    expect(P('assert ["S"] x')).toEqual(assert(array([str('S')]), v('x')));
    expect(P('endorse [] x')).toEqual(endorse(array([]), v('x')));
  });

  it('label folding is decided by the lattice (numbers, nested arrays, two-point)', () => {
    expect(parse('[2]:x', testChain3)).toEqual(labelled(2, v('x')));
    expect(parse('[]:x', testChain3)).toEqual(labelled(0, v('x')));
    expect(parse('[3]:x', testChain3)).toEqual(dynlabel(array([n(3)]), v('x')));
    expect(P('[2]:x')).toEqual(dynlabel(array([n(2)]), v('x')));
    expect(parse('[["H"], []]:x', testPairs)).toEqual(labelled([true, false], v('x')));
    expect(parse('["H"]:x', testTwoPoint)).toEqual(labelled(true, v('x')));
    expect(parse('["S"]:x', testTwoPoint)).toEqual(dynlabel(array([str('S')]), v('x')));
  });

  it('only a bare array literal folds (spec §2), even for a lattice that decodes records', () => {
    const recordsToo = { ...testPowersetUS, toLabel: (x: Parameters<typeof testPowersetUS.toLabel>[0]) => (x.kind === 'record' ? 0 : testPowersetUS.toLabel(x)) };
    expect(parse('{}:x', recordsToo)).toEqual(dynlabel(record([]), v('x')));
    expect(parse('[]:x', recordsToo)).toEqual(labelled(0, v('x')));
  });
});

describe('precedence and associativity (docs/grammar.md table)', () => {
  it('labels bind tighter than application and operators; right associative', () => {
    expect(P('["S"]:x + 1')).toEqual(OP('+', labelled(S, v('x')), n(1)));
    expect(P('["S"]:f x')).toEqual(app(labelled(S, v('f')), v('x')));
    expect(P('["S"]:(f x)')).toEqual(labelled(S, app(v('f'), v('x'))));
    expect(P('f ["S"]:x y')).toEqual(app(app(v('f'), labelled(S, v('x'))), v('y')));
    expect(P('a:b:c')).toEqual(dynlabel(v('a'), dynlabel(v('b'), v('c'))));
    expect(P('[]:\\x. x')).toEqual(labelled(0, lam('x', v('x'))));
  });

  it('@ binds tighter than application; keyword forms apply like functions', () => {
    expect(P('@f x')).toEqual(app(AT(v('f')), v('x')));
    expect(P('@["S"]:x')).toEqual(AT(labelled(S, v('x'))));
    expect(P('fork @"flip"')).toEqual(fork(AT(str('flip'))));
    expect(P('send x y')).toEqual(app(send(v('x')), v('y')));
    expect(P('prim "p" x y')).toEqual(app(prim('p', v('x')), v('y')));
    expect(P('assert a b c')).toEqual(app(assert(v('a'), v('b')), v('c')));
    expect(P('f (send x)')).toEqual(app(v('f'), send(v('x'))));
  });

  it('arithmetic: * over +, both left associative; application over both', () => {
    expect(P('a + b * c')).toEqual(OP('+', v('a'), OP('*', v('b'), v('c'))));
    expect(P('a - b - c')).toEqual(OP('-', OP('-', v('a'), v('b')), v('c')));
    expect(P('a / b % c')).toEqual(OP('%', OP('/', v('a'), v('b')), v('c')));
    expect(P('f x + g y')).toEqual(OP('+', app(v('f'), v('x')), app(v('g'), v('y'))));
    expect(P('f x y')).toEqual(app(app(v('f'), v('x')), v('y')));
  });

  it('not: looser than application, tighter than *', () => {
    expect(P('not f x * y')).toEqual(OP('*', IF(app(v('f'), v('x')), bool(false), bool(true)), v('y')));
    expect(P('not not x')).toEqual(IF(IF(v('x'), bool(false), bool(true)), bool(false), bool(true)));
  });

  it('|| < && < comparison; && and || are right associative; ? is a comparison', () => {
    expect(P('a || b && c')).toEqual(IF(v('a'), bool(true), IF(v('b'), v('c'), bool(false))));
    expect(P('a && b && c')).toEqual(IF(v('a'), IF(v('b'), v('c'), bool(false)), bool(false)));
    expect(P('a < b && c')).toEqual(IF(OP('<', v('a'), v('b')), v('c'), bool(false)));
    expect(P('l ? x && y')).toEqual(IF(test(v('l'), v('x')), v('y'), bool(false)));
    expect(P('l ? x + 1')).toEqual(test(v('l'), OP('+', v('x'), n(1))));
  });

  it('comparisons do not chain', () => {
    expect(errorOf('a < b < c').description).toMatch(/comparisons do not chain/);
    expect(errorOf('l ? x == y').description).toMatch(/comparisons do not chain/);
  });

  it('open forms extend as far right as possible, also as the last operand', () => {
    expect(P('\\x. x + 1')).toEqual(lam('x', OP('+', v('x'), n(1))));
    expect(P('f \\x. x y')).toEqual(app(v('f'), lam('x', app(v('x'), v('y')))));
    expect(P('a + \\x. x')).toEqual(OP('+', v('a'), lam('x', v('x'))));
    expect(P('a && if p then q else r || s')).toEqual(IF(v('a'), IF(v('p'), v('q'), IF(v('r'), bool(true), v('s'))), bool(false)));
    expect(P('(\\x. x) y')).toEqual(app(lam('x', v('x')), v('y')));
    expect(P('λx. x')).toEqual(lam('x', v('x')));
    expect(P('\\_. recv')).toEqual(lam('_', recv));
  });

  it(':= is the loosest binary form and needs a field access on its left', () => {
    expect(P('r.a := x || y')).toEqual(prim('recordUpdate', array([v('r'), str('a'), IF(v('x'), bool(true), v('y'))])));
    expect(errorOf('f x := 1').description).toMatch(/left side of ':=' must be a field access/);
  });

  it('postfix: field access and indexing chain left to right', () => {
    expect(P('x.a.[0].b')).toEqual(field(index(field(v('x'), 'a'), n(0)), 'b'));
    expect(P('x."a b".in')).toEqual(field(field(v('x'), 'a b'), 'in'));
    expect(P('pair.[1]')).toEqual(index(v('pair'), n(1)));
  });
});

describe('lexical rules', () => {
  it('numbers are exact: integers, decimals, INT/INT literals; spaced / is division', () => {
    expect(P('0.25')).toEqual(num(rat(1, 4)));
    expect(P('0.1')).toEqual(num(rat(1, 10)));
    expect(P('1/3')).toEqual(num(rat(1, 3)));
    expect(P('2/4')).toEqual(num(rat(1, 2)));
    expect(P('1 / 3')).toEqual(OP('/', n(1), n(3)));
    expect(P('x/3')).toEqual(OP('/', v('x'), n(3)));
    expect(P('1/3/4')).toEqual(OP('/', num(rat(1, 3)), n(4)));
    expect(P('123456789012345678901234567890')).toEqual(num(rat(123456789012345678901234567890n)));
    expect(errorOf('1/0').description).toMatch(/denominator is zero/);
    expect(errorOf('3x').description).toMatch(/cannot run into a name/);
    expect(errorOf('0null + 1').description).toBe("invalid number literal '0null': a number cannot run into a name");
  });

  it('negative literals only where an operand starts, with the - touching the digits', () => {
    expect(P('-3')).toEqual(n(-3));
    expect(P('-1/3')).toEqual(num(rat(-1, 3)));
    expect(P('[-0.5]')).toEqual(array([num(rat(-1, 2))]));
    expect(P('f -3')).toEqual(OP('-', v('f'), n(3)));
    expect(P('f (-3)')).toEqual(app(v('f'), n(-3)));
    expect(P('a - -3')).toEqual(OP('-', v('a'), n(-3)));
    expect(P('send -3')).toEqual(send(n(-3)));
    expect(P('["S"]:-3')).toEqual(labelled(S, n(-3)));
    expect(errorOf('- 3').description).toMatch(/no unary minus/);
    expect(errorOf('-x').description).toMatch(/no unary minus/);
  });

  it('double-quoted escapes; single-quoted strings are raw', () => {
    expect(P('"q\\" b\\\\ n\\n t\\t r\\r \\{\\} \\u{1F600}"')).toEqual(str('q" b\\ n\n t\t r\r {} 😀'));
    expect(P("'a\\nb{x}\\'c\\\\d'")).toEqual(str("a\\nb{x}'c\\d"));
    expect(P('"multi\nline"')).toEqual(str('multi\nline'));
    expect(P('"a}b"')).toEqual(str('a}b'));
    expect(errorOf('"\\q"').description).toMatch(/unknown escape '\\q'/);
    expect(errorOf('"\\u{110000}"').description).toMatch(/bad unicode escape/);
    expect(errorOf('"{}"').description).toMatch(/empty interpolation/);
  });

  it('comments, identifiers, keywords; keywords are fine as field names', () => {
    expect(P('# c\nx_1 # trailing\n')).toEqual(v('x_1'));
    expect(P('{type: 1, in: 2, "a b": 3, \'c\': 4,}')).toEqual(
      record([{ name: 'type', expr: n(1) }, { name: 'in', expr: n(2) }, { name: 'a b', expr: n(3) }, { name: 'c', expr: n(4) }]),
    );
    expect(P('{a: 1, a: 2}')).toEqual(record([{ name: 'a', expr: n(1) }, { name: 'a', expr: n(2) }]));
    expect(P('[1, 2,]')).toEqual(array([n(1), n(2)]));
    expect(P('[true, false, null, recv, clear]')).toEqual(array([bool(true), bool(false), nul, recv, clear]));
    expect(errorOf('let in = 1 in in').description).toMatch(/'in' is a reserved word/);
    // No primes in names: ' starts a raw string.
    expect(errorOf("\\x'. x'").description).toBe("expected '.' after the lambda parameter 'x', found a string");
  });
});

describe('the spec §4 and §8 examples parse as intended', () => {
  it('Fenton/Denning: the inner branch sends under a static ["S"] label', () => {
    const e = P(`let secret = true in let _ = @'Remember x = false' in let _ = if ["S"]:secret then @'Set x = true' else {} in @'Give me x'`);
    expect(e).toEqual(
      app(lam('secret',
        app(lam('_',
          app(lam('_', AT(str('Give me x'))), IF(labelled(S, v('secret')), AT(str('Set x = true')), record([])))),
        AT(str('Remember x = false')))),
      bool(true)),
    );
  });

  it('endorse probes', () => {
    expect(P('endorse [] (["U"]:"untrusted")')).toEqual(endorse(array([]), labelled(U, str('untrusted'))));
    expect(P('if ["U"]:true then endorse [] "x" else "skip"')).toEqual(IF(labelled(U, bool(true)), endorse(array([]), str('x')), str('skip')));
    expect(P('let w = endorse [] (["U"]:"x") in if ["S"] ? w then "accepted" else "rejected"')).toEqual(
      app(lam('w', IF(test(array([str('S')]), v('w')), str('accepted'), str('rejected'))), endorse(array([]), labelled(U, str('x')))),
    );
    expect(P('endorse "not a label" (["U"]:"d")')).toEqual(endorse(str('not a label'), labelled(U, str('d'))));
  });

  it('two flips with fork', () => {
    expect(P('let x = fork @"flip" in let y = fork @"again" in x.[1] + y.[1]')).toEqual(
      app(lam('x', app(lam('y', OP('+', index(v('x'), n(1)), index(v('y'), n(1)))), fork(AT(str('again'))))), fork(AT(str('flip')))),
    );
  });

  it('prelude definitions (parseDefinitions keeps them in order, unsubstituted)', () => {
    const defs = parseDefinitions(
      [
        '# the prelude',
        'let quarantine = \\p. let pair = fork (let _ = clear in @p) in pair.[1]',
        '',
        'let is_trusted = \\x. ["S"] ? x',
        'let any = \\p. \\xs. fix (\\go. \\i. if i == shape(xs).length then false',
        '  else if p (xs.[i]) then true else go (i + 1)) 0',
      ].join('\n'),
      lat,
    );
    expect(defs.map((d) => d.name)).toEqual(['quarantine', 'is_trusted', 'any']);
    expect(defs[0]?.expr).toEqual(lam('p', app(lam('pair', index(v('pair'), n(1))), fork(app(lam('_', AT(v('p'))), clear)))));
    expect(defs[1]?.expr).toEqual(lam('x', test(array([str('S')]), v('x'))));
    expect(parseDefinitions('', lat)).toEqual([]);
  });
});

describe('top-level definitions (the column-1 rule)', () => {
  it('a right-hand side continues on indented lines and ends at the next line in column 1', () => {
    expect(P('let f = \\x.\n  x + 1\nf 2')).toEqual(app(lam('f', app(v('f'), n(2))), lam('x', OP('+', v('x'), n(1)))));
  });

  it('a line in column 1 inside brackets (or a string) continues the definition', () => {
    expect(P('let xs = [1,\n2]\nxs')).toEqual(app(lam('xs', v('xs')), array([n(1), n(2)])));
    expect(P('let s = "a{\nb}"\ns')).toEqual(app(lam('s', v('s')), OP('+', str('a'), TOSTR(v('b')))));
  });

  it('a top-level let … in is an ordinary let whose body runs to the end', () => {
    expect(P('let a = 1\nlet b = 2 in\na + b')).toEqual(app(lam('a', app(lam('b', OP('+', v('a'), v('b'))), n(2))), n(1)));
    expect(P('let x = 1 in\nlet y = 2 in\nx')).toEqual(app(lam('x', app(lam('y', v('x')), n(2))), n(1)));
  });

  it('definitions without a final expression, or an empty program, are errors', () => {
    expect(errorOf('let x = 1\nlet y = 2\n').description).toMatch(/program has only definitions: it must end with an expression/);
    expect(errorOf('  # nothing\n').description).toBe('empty program: expected an expression');
  });

  it('an unindented continuation is reported with the rule', () => {
    const e = errorOf('let f = \\x.\nx + 1\nf 2');
    expect(e.line).toBe(2);
    expect(e.column).toBe(1);
    expect(e.description).toMatch(/next line starting in column 1 \(a top-level definition ends there; indent continuation lines\)/);
  });

  it('parseDefinitions rejects a final expression and a top-level let … in', () => {
    expect(() => parseDefinitions('let a = 1\na', lat)).toThrow(/expected a top-level definition 'let name = expr'/);
    expect(() => parseDefinitions('let a = 1 in a', lat)).toThrow(/may not contain 'let \.\.\. in \.\.\.'/);
  });
});

describe('parse errors name file:line:column and show the line with a caret', () => {
  it('the message format, with a file name', () => {
    const e = errorOf('# bad\nlet y = 2 in\n(let x = 1 ) + y', 'examples/bad.lam');
    expect(e).toBeInstanceOf(ParseError);
    expect(e).toBeInstanceOf(UserError);
    expect([e.file, e.line, e.column]).toEqual(['examples/bad.lam', 3, 12]);
    expect(e.description).toBe("expected 'in' after let binding, found ')'");
    expect(e.message).toBe("examples/bad.lam:3:12: expected 'in' after let binding, found ')'\n  (let x = 1 ) + y\n             ^");
  });

  it('defaults to <input> and names what came before a missing expression', () => {
    const e = errorOf('let x = 1 + )');
    expect(e.message).toBe("<input>:1:13: expected an expression after '+', found ')'\n  let x = 1 + )\n              ^");
  });

  it('keeps tabs in the caret line so the caret lines up', () => {
    const e = errorOf('\tf (x');
    expect([e.line, e.column]).toEqual([1, 6]);
    expect(e.message).toBe("<input>:1:6: expected ')' to close '(' at 1:4, found end of input\n  \tf (x\n  \t    ^");
  });

  it('a lone surrogate in a string is one character (it does not swallow the closing quote)', () => {
    expect(P('"\ud800"')).toEqual(str('\ud800'));
    expect(P("'\udbff'")).toEqual(str('\udbff'));
    expect(P('["\udc00", "\ud800", 1]')).toEqual(array([str('\udc00'), str('\ud800'), n(1)]));
    expect(errorOf('"\ud800" $').column).toBe(5);
  });

  it('columns count code points, not UTF-16 units', () => {
    const e = errorOf('"😀" $');
    expect([e.line, e.column]).toEqual([1, 5]);
    expect(e.message.split('\n')[2]).toBe('      ^');
  });

  it('unterminated strings point at the opening quote', () => {
    const e = errorOf('x\n  "abc');
    expect([e.line, e.column]).toEqual([2, 3]);
    expect(e.description).toMatch(/unterminated string literal/);
    expect(errorOf("f 'x").column).toBe(3);
    expect(errorOf('"a{x').description).toMatch(/unterminated string/);
  });

  it('unexpected characters, missing then/else, unclosed brackets', () => {
    expect(errorOf('a $ b').description).toBe("unexpected character '$'");
    expect(errorOf('a \u00a0 b').description).toBe('unexpected character U+00A0');
    expect(errorOf('if a b else c').description).toBe("expected 'then' after the condition of 'if' (at 1:1), found keyword 'else'");
    expect(errorOf('if a then b').description).toBe("expected 'else' after the 'then' branch of 'if' (at 1:1), found end of input");
    const e = errorOf('[1, 2\n');
    expect([e.line, e.column, e.description]).toEqual([1, 6, "expected ']' to close '[' at 1:1 (or ',' between elements), found end of input"]);
    expect(errorOf('send').description).toBe("missing argument: the form is 'send e', found end of input");
    expect(errorOf('prim p x').description).toMatch(/primitive's name as a plain string literal/);
  });

  it('quotes at most 50 code points each side of the caret, marking cut ends with …', () => {
    const e = errorOf('x'.repeat(300) + ' $ ' + 'y'.repeat(300));
    expect(e.column).toBe(302);
    const [, excerpt, caret] = e.message.split('\n');
    expect(excerpt).toBe(`  …${'x'.repeat(49)} $ ${'y'.repeat(48)}…`);
    expect(caret).toBe(`  ${' '.repeat(51)}^`);
    // Near the start of the line nothing is cut before the caret.
    expect(errorOf('$' + 'z'.repeat(100)).message.split('\n')[1]).toBe(`  $${'z'.repeat(49)}…`);
  });

  it('1M nested parentheses or lets give a one-line resource-limit error of under 300 bytes, with line:column and an inline excerpt', () => {
    const parens = errorOf('('.repeat(1_000_000) + 'x' + ')'.repeat(1_000_000));
    expect(parens.kind).toBe('limit');
    expect(parens.message).toBe(`<input>:1:1001: nesting deeper than ${MAX_NESTING} levels (split it with let), near: …${'('.repeat(60)}…`);
    const letSrc = 'let x = 1 in '.repeat(1_000_000) + 'x';
    const lets = errorOf(letSrc);
    expect(lets.description).toBe(`nesting deeper than ${MAX_NESTING} levels (split it with let)`);
    // At the value `1` of the 1001st `let` (13 characters per let, `1` is the 9th); 30 characters either side.
    expect(lets.column).toBe(13 * 1000 + 9);
    expect(lets.message).toBe(`<input>:1:13009: nesting deeper than ${MAX_NESTING} levels (split it with let), near: …${letSrc.slice(13_008 - 30, 13_008 + 30)}…`);
    for (const e of [parens, lets]) {
      expect(e.message).not.toContain('\n');
      expect(Buffer.byteLength(e.message)).toBeLessThan(300);
    }
  });

  it('a resource-limit error escapes control characters in its inline excerpt', () => {
    // A raw ESC inside a string literal just before the point where the nesting limit is hit.
    const e = errorOf('('.repeat(995) + '"\u001b" + ' + '('.repeat(10) + '1' + ')'.repeat(1005));
    expect(e.kind).toBe('limit');
    expect(e.message).toContain('"\\u{1b}"');
    expect(e.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it('escapes control characters of the source in the excerpt and the description (no raw ESC reaches a terminal)', () => {
    const e = errorOf('f \u001b[31m $');
    expect(e.description).toBe('unexpected character U+001B');
    expect(e.message).toBe('<input>:1:3: unexpected character U+001B\n  f \\u{1b}[31m $\n    ^');
    const d = errorOf('{"a\u0007b\u202e" x}');
    expect(d.description).toBe("expected ':' after the field name 'a\\u{7}b\\u{202e}', found 'x'");
    expect(d.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    // A carriage return inside a line would overwrite the terminal line: shown as \u{d}.
    expect(errorOf('x\ry )').message.split('\n')[1]).toBe('  x\\u{d}y )');
  });

  it('long names in descriptions are cut to 40 characters', () => {
    const e = errorOf(`let ${'n'.repeat(5000)} 1`);
    expect(e.description).toBe(`expected '=' after 'let ${'n'.repeat(40)}…', found '1'`);
    expect(errorOf(`1${'2'.repeat(5000)}x`).description).toBe(`invalid number literal '${'1' + '2'.repeat(39)}…': a number cannot run into a name`);
  });

  it('an unbound variable is reported at its first occurrence, with line, column and caret', () => {
    const prelude = loadPrelude(lat);
    const unbound = (src: string, file?: string): UserError => {
      try {
        closeProgram(parse(src, lat, file === undefined ? {} : { file }), prelude, file);
      } catch (e) {
        expect(e).toBeInstanceOf(UserError);
        return e as UserError;
      }
      throw new Error(`expected an unbound variable in ${src}`);
    };
    expect(unbound('let x = 1 in\n  x + y', 'a.lam').message).toBe('a.lam:2:7: unbound variable y\n    x + y\n        ^');
    const two = unbound('let f = \\z. z + w in f (y w)');
    expect(two).toBeInstanceOf(ParseError);
    expect([(two as ParseError).line, (two as ParseError).column]).toEqual([1, 17]);
    expect((two as ParseError).description).toMatch(/^unbound variables (w, y|y, w)$/);
    // Prelude names and bound names are fine; a name bound only later is not.
    expect(() => closeProgram(parse('is_trusted (fix (\\f. \\x. x) 1)', lat), prelude)).not.toThrow();
    expect((unbound('(\\q. q) q') as ParseError).column).toBe(9);
    // A prelude definition that uses an undefined name, likewise.
    expect(() => loadPrelude(lat, 'let a = 1\nlet b = a + c\n', 'my-prelude.lam')).toThrow(/^my-prelude\.lam:2:13: unbound variable c\n/);
    // Model responses report it the same way, as a parse error value.
    const r = parseResponse('[1,\n zz]', lat, prelude);
    expect(r.kind === 'array' && r.elems[1]).toEqual({ kind: 'str', value: 'parse error: 2:2: unbound variable zz' });
  });

  it('tryParse returns the error as a value; parse throws it', () => {
    const r = tryParse('(', lat);
    expect(r.ok).toBe(false);
    expect(() => P('(')).toThrow(ParseError);
  });
});

describe('nesting is limited with a clear ParseError, never a RangeError', () => {
  const shapes: Record<string, (k: number) => string> = {
    parentheses: (k) => '('.repeat(k) + 'x' + ')'.repeat(k),
    arrays: (k) => '['.repeat(k) + ']'.repeat(k),
    lambdas: (k) => '\\x. '.repeat(k) + 'x',
    lets: (k) => 'let x = 1 in '.repeat(k) + 'x',
    labels: (k) => 'a:'.repeat(k) + 'x',
    interpolations: (k) => '"{'.repeat(k) + 'x' + '}"'.repeat(k),
    sends: (k) => 'send ('.repeat(k) + 'x' + ')'.repeat(k),
  };

  it(`accepts nesting just under MAX_NESTING = ${MAX_NESTING} and rejects just over it`, () => {
    for (const [name, make] of Object.entries(shapes)) {
      expect(tryParse(make(MAX_NESTING - 5), lat).ok, name).toBe(true);
      const r = tryParse(make(MAX_NESTING + 5), lat);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.error.description, name).toBe(`nesting deeper than ${MAX_NESTING} levels (split it with let)`);
    }
  });

  it('left-associative chains are not nesting: a + a + …, f x y …, e.a.b …, "{a}{b}…" of 100,000 terms parse', () => {
    const n = 100000;
    const chains: Record<string, string> = {
      sums: 'x' + ' + x'.repeat(n),
      products: 'x' + ' * 2 / 3 % 4'.repeat(n / 3),
      applications: 'f' + ' x'.repeat(n),
      fields: 'r' + '.a'.repeat(n),
      indices: 'r' + '.[0]'.repeat(n),
      interpolation: '"' + '{x}'.repeat(n) + '"',
      elements: '[' + 'x, '.repeat(n) + ']',
    };
    for (const [name, src] of Object.entries(chains)) {
      const r = tryParse(src, lat);
      expect(r.ok, name).toBe(true);
    }
    // The chain is left-nested: 1 + 1 + 1 is (1 + 1) + 1.
    expect(exprEquals(lat, P('1 + 2 + 3'), P('(1 + 2) + 3'))).toBe(true);
    // Right-nested chains are nesting: && and || are right associative.
    expect(tryParse('x' + ' && x'.repeat(MAX_NESTING + 10), lat).ok).toBe(false);
    expect(tryParse('x' + ' && x'.repeat(MAX_NESTING - 10), lat).ok).toBe(true);
    // A chain whose terms nest still counts their nesting.
    const deepTerm = '('.repeat(MAX_NESTING + 5) + 'x' + ')'.repeat(MAX_NESTING + 5);
    expect(tryParse(`1 + 1 + ${deepTerm}`, lat).ok).toBe(false);
  });

  it('with little stack left, a deep input is still a ParseError (the stack backstop)', () => {
    // Find how deep plain recursion can go, then parse from progressively deeper points.
    let limit = 0;
    const probe = (): void => {
      limit++;
      probe();
    };
    try {
      probe();
    } catch {
      // expected: the stack is exhausted
    }
    const src = shapes.parentheses?.(MAX_NESTING - 5) ?? '';
    const outcomes: string[] = [];
    const at = (k: number): string => (k > 0 ? at(k - 1) : (() => {
      const r = tryParse(src, lat);
      return r.ok ? 'ok' : r.error.description;
    })());
    for (let f = 0.5; f < 1; f += 0.02) {
      try {
        outcomes.push(at(Math.floor(limit * f)));
      } catch (e) {
        // The overflow happened in this test's own recursion, outside the parser.
        expect(e).toBeInstanceOf(RangeError);
      }
    }
    expect(outcomes).toContain('ok');
    expect(outcomes).toContain('nesting deeper than the available stack allows (split it with let)');
    expect(outcomes.every((o) => o === 'ok' || o === 'nesting deeper than the available stack allows (split it with let)')).toBe(true);
  });
});
