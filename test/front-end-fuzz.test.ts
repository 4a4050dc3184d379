/**
 * The fuzzed front end (issue 16 part 6, properties/front-end-fuzz.ts): on arbitrary strings, mutated
 * valid programs and nestings or chains up to 10⁵, the lexer and parser give a program or a located,
 * small ParseError — nothing else, no stack overflow; and `parse(print(e)) = e` with every escape.
 * Each suite is shown able to fail: a parser with a recursive post-pass (stack overflow on long
 * chains), the old error format that echoed whole lines raw, a printer that forgets to escape braces.
 */
import { describe, expect, it } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import type { Expr } from '../src/syntax/ast.ts';
import { ParseError } from '../src/syntax/errors.ts';
import { forEachChild, mapChildren } from '../src/syntax/helpers.ts';
import { parse, tryParse } from '../src/syntax/parser.ts';
import { print } from '../src/syntax/printer.ts';
import { frontEndTotal, plantStrings, printEscapes, rawStrings } from '../properties/front-end-fuzz.ts';
import type { NamedPrinter } from '../properties/syntax.ts';
import { TEST_LATTICES, testChain3, testPowersetUS } from './helpers/test-lattices.ts';

const lat = testPowersetUS as Lattice<unknown>;

describe('Front-end totality: on arbitrary and mutated input the lexer and parser give a program or a located ParseError, never another exception', () => {
  for (const [lattice, runs] of [[lat, 150], [testChain3 as Lattice<unknown>, 60]] as const) {
    it(`holds on ${lattice.name} (${runs} cases, nestings and chains up to 10⁵), with non-vacuous statistics`, () => {
      const verdict = runSuite(frontEndTotal, { lattice }, { runs, seed: 20261216 });
      expect(verdict.counterexample?.pretty).toBeUndefined();
      expect(verdict.error).toBeUndefined();
      expect(verdict.vacuous).toEqual([]);
      expect(verdict.ok).toBe(true);
    });
  }

  it('fails on a parser whose post-pass recurses over the AST (a stack overflow on a long chain)', () => {
    // The deliberate bug: a recursive node count after parsing; left-deep chains of 10⁵ terms overflow it.
    const count = (e: Expr<unknown>): number => {
      let n = 1;
      forEachChild(e, (c) => { n += count(c); });
      return n;
    };
    const recursing = (s: string, l: Lattice<unknown>): Expr<unknown> => {
      const e = parse(s, l);
      count(e);
      return e;
    };
    const verdict = runSuite(frontEndTotal, { lattice: lat, parse: recursing }, { runs: 150, seed: 4, noShrink: true });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample;
    expect(cx?.reason).toMatch(/^parse threw something other than a ParseError: RangeError: Maximum call stack size exceeded/);
    expect(['chain', 'spliced-deep', 'deep']).toContain(cx?.value.origin);
    expect(() => recursing(cx!.value.source, lat)).toThrow(RangeError);
    expect(tryParse(cx!.value.source, lat).ok).toBe(true);
    // It replays from seed and path.
    const again = runSuite(frontEndTotal, { lattice: lat, parse: recursing }, { runs: 150, seed: cx!.seed, path: cx!.path, noShrink: true });
    expect(again.counterexample?.value.source).toBe(cx!.value.source);
  });

  it('fails on the old error format, which echoed the whole offending line raw', () => {
    const echoing = (s: string, l: Lattice<unknown>): Expr<unknown> => {
      try {
        return parse(s, l);
      } catch (e) {
        if (!(e instanceof ParseError)) throw e;
        const pad = Array.from(e.sourceLine).slice(0, e.column - 1).map((ch) => (ch === '\t' ? '\t' : ' ')).join('');
        Object.defineProperty(e, 'message', { value: `${e.file}:${e.line}:${e.column}: ${e.description}\n  ${e.sourceLine}\n  ${pad}^` });
        throw e;
      }
    };
    const verdict = runSuite(frontEndTotal, { lattice: lat, parse: echoing }, { runs: 200, seed: 5 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample!;
    expect(cx.reason).toMatch(/^inconsistent ParseError \((the message contains a raw control character|the message does not quote the window)/);
    expect(cx.value.source.length).toBeLessThan(1000); // shrunk from inputs of up to 10⁵ levels
  });
});

describe('Printer round trip with every escape: parse(print(e)) = e for strings needing \\" \\\\ \\n \\t \\r \\{ \\} \\u{HEX}', () => {
  for (const lattice of TEST_LATTICES) {
    it(`holds on ${lattice.name}, every escape exercised`, () => {
      const verdict = runSuite(printEscapes, { lattice }, { runs: 200, seed: 20261217 });
      expect(verdict.counterexample?.pretty).toBeUndefined();
      expect(verdict.error).toBeUndefined();
      expect(verdict.vacuous).toEqual([]);
      expect(verdict.ok).toBe(true);
    });
  }

  it('fails on a printer that forgets to escape braces, with a shrunk counterexample', () => {
    const unescaped: NamedPrinter = { name: 'print (braces unescaped)', print: (e, l) => print(e, l).replace(/\\([{}])/g, '$1') };
    const verdict = runSuite(printEscapes, { lattice: lat, printers: [unescaped] }, { runs: 200, seed: 6 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample!;
    expect(cx.reason).toMatch(/^print \(braces unescaped\) output (does not parse|parses to a different AST)/);
    expect(cx.value.strings.some((s) => /[{}]/.test(s))).toBe(true);
    // The real printer gets the same AST back.
    const e = plantStrings(cx.value);
    const back = tryParse(print(e, lat), lat);
    expect(back.ok).toBe(true);
  });
});

describe('String literals read raw characters exactly: any string s, quoted with only the escapes it needs, parses back to s', () => {
  it('holds (lone surrogates, controls, line breaks, quotes), with non-vacuous statistics', () => {
    const verdict = runSuite(rawStrings, { lattice: lat }, { runs: 400, seed: 20261218 });
    expect(verdict.counterexample?.pretty).toBeUndefined();
    expect(verdict.vacuous).toEqual([]);
    expect(verdict.ok).toBe(true);
  });

  it('fails on a parser that drops control characters from string literals', () => {
    const strip = (e: Expr<unknown>): Expr<unknown> =>
      e.kind === 'str' ? { kind: 'str', value: e.value.replace(/[\u0000-\u001f]/g, '') } : mapChildren(e, strip);
    const sanitising = (s: string, l: Lattice<unknown>): Expr<unknown> => strip(parse(s, l));
    const verdict = runSuite(rawStrings, { lattice: lat, parse: sanitising }, { runs: 300, seed: 8 });
    expect(verdict.ok).toBe(false);
    const cx = verdict.counterexample!;
    expect(cx.reason).toMatch(/parses to .*, not the string/);
    expect(cx.value).toMatch(/^[\u0000-\u001f]$/);
  });
});
