/**
 * The printers (docs/grammar.md, "Printer guarantees"): exact text for literals, labels and
 * parenthesisation; re-sugaring of the parser's exact shapes; deep terms; the doc's examples.
 */
import { describe, expect, it } from 'vitest';
import { rat } from '../src/distributions/rational.ts';
import {
  app, array, bool, dynlabel, field, index, labelled, lam, num, prim, record, recv, send, str, v, value, type Expr,
} from '../src/syntax/ast.ts';
import { exprEquals } from '../src/syntax/helpers.ts';
import { parse } from '../src/syntax/parser.ts';
import { prettyPrint, print, printValue, showNumber, showString } from '../src/syntax/printer.ts';
import { testChain3, testPowersetUS } from './helpers/test-lattices.ts';

const lat = testPowersetUS;
const n = (p: number | bigint, q: number | bigint = 1) => num(rat(p, q));
const IF = <L>(c: Expr<L>, t: Expr<L>, f: Expr<L>): Expr<L> => app(app(app(prim('fromBool', c), lam('_', t)), lam('_', f)), record([]));
const OP = <L>(op: string, a: Expr<L>, b: Expr<L>): Expr<L> => prim(`binop_${op}`, array([a, b]));

describe('literals', () => {
  it('numbers print as integers, finite decimals, or p/q', () => {
    expect(showNumber(rat(42))).toBe('42');
    expect(showNumber(rat(-7))).toBe('-7');
    expect(showNumber(rat(1, 4))).toBe('0.25');
    expect(showNumber(rat(-5, 2))).toBe('-2.5');
    expect(showNumber(rat(1, 1024))).toBe('0.0009765625');
    expect(showNumber(rat(3, 40))).toBe('0.075');
    expect(showNumber(rat(1, 3))).toBe('1/3');
    expect(showNumber(rat(-7, 6))).toBe('-7/6');
    expect(showNumber(rat(10n ** 30n))).toBe('1' + '0'.repeat(30));
    expect(showNumber(rat(0))).toBe('0');
  });

  it('strings print double-quoted with escapes, on one line', () => {
    expect(showString('plain')).toBe('"plain"');
    expect(showString('q"b\\{x}')).toBe('"q\\"b\\\\\\{x\\}"');
    expect(showString('a\nb\tc\rd')).toBe('"a\\nb\\tc\\rd"');
    expect(showString('\u0000\u001b\u007f\u2028')).toBe('"\\u{0}\\u{1b}\\u{7f}\\u{2028}"');
    expect(showString('\ud800')).toBe('"\\u{d800}"');
    expect(showString("é😀'#")).toBe('"é😀\'#"');
  });

  it('field names print bare when they are words, quoted otherwise', () => {
    const r = record([{ name: 'in', expr: n(1) }, { name: 'a b', expr: n(2) }, { name: '', expr: n(3) }]);
    expect(print(r, lat)).toBe('{in: 1, "a b": 2, "": 3}');
    expect(print(field(v('x'), '1st'), lat)).toBe('x."1st"');
  });
});

describe('print writes the core AST exactly', () => {
  it('derived forms stay expanded', () => {
    expect(print(OP('+', v('a'), v('b')), lat)).toBe('prim "binop_+" [a, b]');
    expect(print(IF(v('c'), v('t'), v('f')), lat)).toBe('prim "fromBool" c (\\_. t) (\\_. f) {}');
    expect(print(app(lam('x', v('b')), v('a')), lat)).toBe('(\\x. b) a');
  });

  it('labels print as lattice.show(l):body; literal dynamic labels keep parentheses', () => {
    expect(print(labelled(2, v('x')), lat)).toBe('["S"]:x');
    expect(print(labelled(3, n(-3)), lat)).toBe('["U","S"]:-3');
    expect(print(value(0, lam('x', v('x'))), lat)).toBe('[]:\\x. x');
    expect(print(dynlabel(array([str('S')]), v('x')), lat)).toBe('(["S"]):x');
    expect(print(dynlabel(v('l'), v('x')), lat)).toBe('l:x');
    expect(print(labelled(2, app(v('f'), v('x'))), lat)).toBe('["S"]:(f x)');
    expect(print(app(labelled(2, v('f')), v('x')), lat)).toBe('["S"]:f x');
    expect(print(labelled(2, v('x')), testChain3)).toBe('[2]:x');
  });

  it('parenthesises negative numbers where - would read as subtraction', () => {
    expect(print(app(v('f'), n(-3)), lat)).toBe('f (-3)');
    expect(print(field(n(-3), 'a'), lat)).toBe('(-3).a');
    expect(print(array([n(-3), n(-1, 3)]), lat)).toBe('[-3, -1/3]');
    expect(print(send(n(-3)), lat)).toBe('send (-3)');
  });

  it('parenthesises by precedence only where needed; open forms are never bare arguments', () => {
    expect(print(app(app(v('f'), v('x')), v('y')), lat)).toBe('f x y');
    expect(print(app(v('f'), app(v('x'), v('y'))), lat)).toBe('f (x y)');
    expect(print(app(v('f'), lam('x', v('x'))), lat)).toBe('f (\\x. x)');
    expect(print(lam('x', app(v('f'), lam('y', v('y')))), lat)).toBe('\\x. f (\\y. y)');
    expect(print(index(app(v('f'), v('x')), n(0)), lat)).toBe('(f x).[0]');
    expect(print(app(send(v('x')), v('y')), lat)).toBe('send x y');
  });
});

describe('prettyPrint re-sugars exactly the shapes the parser produces', () => {
  const sugared: readonly [string, string][] = [
    ['let x = 1 in x + 2', 'let x = 1 in x + 2'],
    ['if a then b else c', 'if a then b else c'],
    ['a != b', 'a != b'],
    ['not a', 'not a'],
    ['not (a == b)', 'a != b'],
    ['a && b || c', 'a && b || c'],
    ['(a && b) && c', '(a && b) && c'],
    ['a - (b - c)', 'a - (b - c)'],
    ['(a + b) * c', '(a + b) * c'],
    ['r.a := 1', 'r.a := 1'],
    ['@"x"', '@"x"'],
    ['str(x) + shape(y).type', 'str(x) + shape(y).type'],
    ['"a{x}b"', '"a" + str(x) + "b"'],
    ['f (if a then b else c) \\x. x', 'f (if a then b else c) (\\x. x)'],
    ['not f x * y', 'not f x * y'],
    ['(not a) (b)', '(not a) b'],
    ['["S"] ? x + 1', '["S"] ? x + 1'],
    ['[] : ((\\_. recv) (send "m"))', '[]:@"m"'],
    ['[] : (\\_. recv) (send "m")', '[]:(\\_. recv) (send "m")'],
  ];
  for (const [src, expected] of sugared) {
    it(`${src}  ↦  ${expected}`, () => {
      expect(prettyPrint(parse(src, lat), lat)).toBe(expected);
    });
  }

  it('shapes that are only almost derived forms stay core', () => {
    // if with a branch parameter other than _, binop with three operands, @ without send.
    const notIf = app(app(app(prim('fromBool', v('c')), lam('y', v('t'))), lam('_', v('f'))), record([]));
    expect(prettyPrint(notIf, lat)).toBe('prim "fromBool" c (\\y. t) (\\_. f) {}');
    expect(prettyPrint(prim('binop_+', array([v('a'), v('b'), v('c')])), lat)).toBe('prim "binop_+" [a, b, c]');
    expect(prettyPrint(prim('binop_^', array([v('a'), v('b')])), lat)).toBe('prim "binop_^" [a, b]');
    expect(prettyPrint(app(lam('_', recv), v('m')), lat)).toBe('let _ = m in recv');
  });

  it('multiline puts each top-level let on its own line, and still re-parses', () => {
    const e = parse('let x = @"flip" in let y = fork @"again" in x.[1] + y.[1]', lat);
    const text = prettyPrint(e, lat, { multiline: true });
    expect(text).toBe('let x = @"flip" in\nlet y = fork @"again" in\nx.[1] + y.[1]');
    expect(exprEquals(lat, parse(text, lat), e)).toBe(true);
  });

  it('printValue prints a value', () => {
    const V = value(1, { kind: 'record', fields: [{ name: 'a', expr: value(0, n(1, 2)) }, { name: 'b', expr: value(2, bool(true)) }] });
    expect(printValue(V, lat)).toBe('["U"]:{a: []:0.5, b: ["S"]:true}');
  });
});

describe('deep terms print without stack overflow', () => {
  it('a 20,000-deep lambda chain and array nesting print', () => {
    let e: Expr<number> = v('x');
    let a: Expr<number> = v('x');
    for (let i = 0; i < 20000; i++) {
      e = lam('y', e);
      a = array([a]);
    }
    expect(print(e, lat)).toBe('\\y. '.repeat(20000) + 'x');
    expect(prettyPrint(a, lat)).toBe('['.repeat(20000) + 'x' + ']'.repeat(20000));
  });
});
