/**
 * The printer's shortcuts (src/syntax/printer.ts): `printWith` writes a labelled scalar `l:k` in the core style
 * at once instead of running the Printer, and `showString` writes a string without escapes as itself. Both must
 * give exactly what the general path gives: every distribution of final values is keyed by these prints, so a
 * difference would split or merge outcomes. Compared here on generated values over every test lattice, and
 * `showString` against an escaper written from spec §4's list (and the printer's own extra escapes).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bool, labelled, lam, nul, num, record, str, v, type Expr } from '../src/syntax/ast.ts';
import { latticeLabelArb, rationalArb, stringArb } from '../src/generators/ast.ts';
import { CORE_STYLE, PRETTY_STYLE, print, printWith, printWithPrinter, showString } from '../src/syntax/printer.ts';
import { parse } from '../src/syntax/parser.ts';
import { exprEquals } from '../src/syntax/helpers.ts';
import { TEST_LATTICES } from './helpers/test-lattices.ts';

/** Characters at the edges of what `showString` escapes. */
const EDGES = [
  'a', ' ', '~', '"', '\\', '{', '}', '\n', '\t', '\r', '\u0000', '\u001f', '\u0020', '\u007e', '\u007f', '\u0085',
  '\u009f', '\u00a0', 'é', '\u2027', '\u2028', '\u2029', '\u202a', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff',
  '\ue000', '😀', '\ud83d', '\ude00',
];
const edgeString = fc.oneof(
  fc.string({ unit: fc.constantFrom(...EDGES), maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  stringArb(),
);

/** `showString` written from its contract: spec §4's escapes, then `\u{hex}` for control characters, U+2028/9 and lone surrogates. */
function referenceShowString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ch = s[i]!;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { out += s.slice(i, i + 2); i++; continue; } // a pair: written as itself
    }
    const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '{': '\\{', '}': '\\}', '\n': '\\n', '\t': '\\t', '\r': '\\r' };
    if (named[ch] !== undefined) out += named[ch];
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029 || (c >= 0xd800 && c <= 0xdfff)) out += `\\u{${c.toString(16)}}`;
    else out += ch;
  }
  return `${out}"`;
}

describe('showString: the plain-string shortcut', () => {
  it('equals an escaper written from its contract, on strings full of edge characters', () => {
    fc.assert(fc.property(edgeString, (s) => { expect(showString(s)).toBe(referenceShowString(s)); }), { numRuns: 3000 });
  });

  it('takes the shortcut only for strings without anything to escape (the boundaries, one character each)', () => {
    for (const ch of EDGES) expect(showString(ch)).toBe(referenceShowString(ch));
    expect(showString('')).toBe('""');
    expect(showString('0101')).toBe('"0101"');
  });
});

describe('printWith: the labelled-scalar shortcut', () => {
  for (const lat of TEST_LATTICES) {
    it(`prints l:k exactly as the Printer does, and reads back (${lat.name})`, () => {
      const scalar: fc.Arbitrary<Expr<unknown>> = fc.oneof(
        rationalArb().map((r) => num(r)),
        edgeString.map((s) => str(s)),
        fc.boolean().map((b) => bool(b)),
        fc.constant(nul),
      );
      fc.assert(
        fc.property(latticeLabelArb(lat), scalar, (l, k) => {
          const e = labelled(l, k);
          const fast = print(e, lat);
          expect(fast).toBe(printWithPrinter(e, lat, CORE_STYLE));
          expect(exprEquals(lat, parse(fast, lat), e)).toBe(true);
        }),
        { numRuns: 1500 },
      );
    });
  }

  it('leaves every other form, and every other style, to the Printer', () => {
    const lat = TEST_LATTICES[0]!;
    const l = lat.top;
    // Not a labelled scalar: the general path's output, whatever it is.
    for (const e of [labelled(l, labelled(l, bool(true))), labelled(l, record([{ name: 'a', expr: str('x') }])), labelled(l, lam('x', v('x'))), str('x')]) {
      expect(print(e, lat)).toBe(printWithPrinter(e, lat, CORE_STYLE));
    }
    const e = labelled(l, str('a"b'));
    expect(printWith(e, lat, PRETTY_STYLE)).toBe(printWithPrinter(e, lat, PRETTY_STYLE));
  });
});
