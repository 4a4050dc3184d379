/**
 * The syntax property suites (properties/syntax.ts) hold on every test lattice, are not vacuous,
 * and can fail: a printer that drops the parentheses around application arguments, and a lattice
 * whose `toLabel` crashes, each yield a shrunk counterexample that replays from seed and path.
 */
import { describe, expect, it } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import type { Expr, PlainValue } from '../src/syntax/ast.ts';
import { exprEquals, size } from '../src/syntax/helpers.ts';
import { parse, tryParse } from '../src/syntax/parser.ts';
import { CORE_STYLE, Level, prettyPrint, print, printWith, standardNeedsParens, type PrintStyle } from '../src/syntax/printer.ts';
import { parserTotal, roundTrip, SEED_PROGRAMS, type NamedPrinter } from '../properties/syntax.ts';
import { TEST_LATTICES, testPowersetUS } from './helpers/test-lattices.ts';

const lat = testPowersetUS as Lattice<unknown>;

/** The deliberate bug: application arguments are never parenthesised, so `f (g x)` prints as `f g x`. */
const DROPS_ARGUMENT_PARENS: PrintStyle = {
  ...CORE_STYLE,
  needsParens: (level, ctx, open, rightOpen) => (ctx === Level.Prefix ? false : standardNeedsParens(level, ctx, open, rightOpen)),
};
const brokenPrinter: NamedPrinter = { name: 'print (drops argument parentheses)', print: (e, l) => printWith(e, l, DROPS_ARGUMENT_PARENS) };

/** The deliberate bug: `toLabel` assumes every element of a label literal is a string. */
const crashingLattice: Lattice<number> = {
  ...testPowersetUS,
  name: 'crashing-toLabel',
  toLabel(v: PlainValue) {
    if (v.kind !== 'array') return undefined;
    let mask = 0;
    for (const e of v.elems) {
      const bit = ['U', 'S'].indexOf((e as { value: string }).value.toUpperCase());
      if (bit < 0) return undefined;
      mask |= 1 << bit;
    }
    return mask;
  },
};

describe('Printer round trip: parse(print(e)) = e and parse(prettyPrint(e)) = e', () => {
  for (const lattice of TEST_LATTICES) {
    it(`holds on ${lattice.name}, with non-vacuous statistics`, () => {
      const verdict = runSuite(roundTrip, { lattice }, { runs: 400, seed: 20260401 });
      expect(verdict.counterexample?.pretty).toBeUndefined();
      expect(verdict.error).toBeUndefined();
      expect(verdict.vacuous).toEqual([]);
      expect(verdict.ok).toBe(true);
      expect(verdict.stats.resugared).toBeGreaterThan(0.25);
    });
  }

  it('holds for the ASTs of the seed programs (spec examples, prelude style)', () => {
    for (const src of SEED_PROGRAMS) {
      const e = parse(src, lat);
      for (const text of [print(e, lat), prettyPrint(e, lat), prettyPrint(e, lat, { multiline: true })]) {
        expect(exprEquals(lat, parse(text, lat), e), text).toBe(true);
      }
    }
  });

  it('fails on a printer that drops parentheses around arguments, with a shrunk counterexample that replays', () => {
    const ctx = { lattice: lat, printers: [brokenPrinter] };
    const verdict = runSuite(roundTrip, ctx, { runs: 300, seed: 7 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample;
    expect(cx).toBeDefined();
    if (!cx) return;
    expect(cx.reason).toMatch(/^print \(drops argument parentheses\) output (does not parse|parses to a different AST)/);
    // Shrunk: an application (or keyword form) whose argument needs parentheses, a handful of nodes.
    expect(size(cx.value)).toBeLessThanOrEqual(6);
    expect(cx.shrinks).toBeGreaterThan(0);
    // The failure is the printer's: the broken text does not give the AST back, the real printer's does.
    const broken = tryParse(brokenPrinter.print(cx.value, lat), lat);
    expect(broken.ok && exprEquals(lat, broken.expr, cx.value)).toBe(false);
    expect(exprEquals(lat, parse(print(cx.value, lat), lat), cx.value)).toBe(true);
    // Everything replays from seed and path.
    const again = runSuite(roundTrip, ctx, { runs: 300, seed: cx.seed, path: cx.path });
    expect(again.counterexample && print(again.counterexample.value as Expr<unknown>, lat)).toBe(print(cx.value, lat));
  });
});

describe('Parser totality: every input gives an AST or a ParseError with a correct position', () => {
  for (const lattice of TEST_LATTICES) {
    it(`holds on ${lattice.name}, with non-vacuous statistics`, () => {
      const verdict = runSuite(parserTotal, { lattice }, { runs: 400, seed: 20260402 });
      expect(verdict.counterexample?.pretty).toBeUndefined();
      expect(verdict.error).toBeUndefined();
      expect(verdict.vacuous).toEqual([]);
      expect(verdict.ok).toBe(true);
    });
  }

  it('fails when toLabel crashes on a non-string element, with a shrunk label counterexample', () => {
    const verdict = runSuite(parserTotal, { lattice: crashingLattice as Lattice<unknown> }, { runs: 500, seed: 3 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample;
    expect(cx).toBeDefined();
    if (!cx) return;
    expect(cx.reason).toMatch(/^parse threw something other than a ParseError: TypeError/);
    expect(cx.value.origin).toBe('label');
    // Shrunk to a one-element label literal in front of ':'.
    expect(cx.value.source).toMatch(/^\[[^,]*\]:/);
    expect(() => parse(cx.value.source, crashingLattice)).toThrow(TypeError);
    expect(() => parse(cx.value.source, testPowersetUS)).not.toThrow(TypeError);
  });

  it('fails when the parse function under test throws a non-ParseError', () => {
    // A parser wrapper that turns an internal invariant into a crash on unbalanced brackets.
    const fragile = (s: string, l: Lattice<unknown>): Expr<unknown> => {
      const r = tryParse(s, l);
      if (!r.ok && /to close/.test(r.error.description)) throw new RangeError('unbalanced');
      if (!r.ok) throw r.error;
      return r.expr;
    };
    const verdict = runSuite(parserTotal, { lattice: lat, parse: fragile }, { runs: 300, seed: 5 });
    expect(verdict.ok).toBe(false);
    expect(verdict.counterexample?.reason).toBe('parse threw something other than a ParseError: RangeError: unbalanced');
    expect(verdict.counterexample?.value.source.length).toBeLessThanOrEqual(3);
  });
});
