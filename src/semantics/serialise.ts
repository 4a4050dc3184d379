/**
 * `serialise(v)` (spec §4): a string's raw contents; any other label-free value in surface syntax,
 * with the law `parse(serialise(v)) = v` for every label-free `v` that is not a top-level string
 * (checked by `serialiseRoundTrip` in properties/syntax.ts). Numbers print as integers, finite
 * decimals like `0.25`, or `p/q`; strings inside structures are double-quoted with the §2 escapes
 * (`\"`, `\\`, `\{`, `\}`, `\n`, `\t`, `\r`, other control characters `\u{HEX}`, and nothing else: line
 * separators and lone surrogates go raw, which the lexer reads back as themselves); field names that
 * are not words are quoted the same way. Serialise is the core printer with that quoting.
 */
import type { PlainValue } from '../syntax/ast.ts';
import { CORE_STYLE, printWith, showScalar, showSpecString, type PrintStyle } from '../syntax/printer.ts';
import type { Lattice } from '../lattice/lattice.ts';

/** A lattice used only to print label-free values (they contain no static labels to show). */
const NO_LABELS: Lattice<never> = {
  name: 'none', bottom: undefined as never, top: undefined as never,
  join: (a) => a, leq: () => true, equals: () => true, show: () => '[]',
  fromLabel: () => ({ kind: 'array', elems: [] }), toLabel: () => undefined,
};

/** The core printer with spec §4's string escapes (`showSpecString`): nothing but those is escaped. */
const SERIALISE_STYLE: PrintStyle = { ...CORE_STYLE, quote: showSpecString };

/** Surface syntax of a label-free value, strings quoted at every level; `parse` gives `v` back. */
export function showPlain(v: PlainValue): string {
  return printWith(v, NO_LABELS, SERIALISE_STYLE);
}

/**
 * The standard `serialise`: a top-level string is sent raw, anything else as `showPlain` — a number, boolean or
 * null written at once, as the printer writes a scalar at the top (`str(n)` in a loop serialises a number per
 * iteration; test/serialise.test.ts compares the two on generated scalars).
 */
export function serialise(v: PlainValue): string {
  return v.kind === 'str' ? v.value : (showScalar(v, showSpecString) ?? showPlain(v));
}
