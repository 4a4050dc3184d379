/**
 * `serialise(v)` (spec §4): a string's raw contents; any other label-free value in surface syntax
 * (numbers as integers, finite decimals like `0.25`, or `p/q`; strings inside structures double-quoted).
 */
import type { PlainValue } from '../syntax/ast.ts';
import { absurd } from '../util/absurd.ts';
import { denominator, numerator, show as showQ } from '../distributions/rational.ts';
import { print } from '../syntax/printer.ts';
import type { Lattice } from '../lattice/lattice.ts';

/** Numbers: integer, finite decimal when the denominator is 2^a·5^b, else `p/q`. */
export function showNumber(q: import('../distributions/rational.ts').Rational): string {
  let d = denominator(q);
  if (d === 1n) return showQ(q);
  let twos = 0, fives = 0;
  while (d % 2n === 0n) { d /= 2n; twos++; }
  while (d % 5n === 0n) { d /= 5n; fives++; }
  if (d !== 1n) return showQ(q);
  const digits = Math.max(twos, fives);
  const n = numerator(q);
  const scaled = (n < 0n ? -n : n) * 10n ** BigInt(digits) / denominator(q);
  const s = scaled.toString().padStart(digits + 1, '0');
  return `${n < 0n ? '-' : ''}${s.slice(0, -digits)}.${s.slice(-digits)}`;
}

/** A lattice used only to print label-free lambda bodies (they contain no labels). */
const NO_LABELS: Lattice<never> = {
  name: 'none', bottom: undefined as never, top: undefined as never,
  join: (a) => a, leq: () => true, equals: () => true, show: () => '[]',
  fromLabel: () => ({ kind: 'array', elems: [] }), toLabel: () => undefined,
};

/** Surface rendering of a label-free value nested in a structure (strings quoted). */
export function showPlain(v: PlainValue): string {
  switch (v.kind) {
    case 'num': return showNumber(v.value);
    case 'str': return JSON.stringify(v.value);
    case 'bool': return v.value ? 'true' : 'false';
    case 'null': return 'null';
    case 'lam': return print(v, NO_LABELS);
    case 'record': return `{${v.fields.map((f) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) ? f.name : JSON.stringify(f.name)}: ${showPlain(f.expr)}`).join(', ')}}`;
    case 'array': return `[${v.elems.map(showPlain).join(', ')}]`;
    default: return absurd(v);
  }
}

/** The standard `serialise`. */
export function serialise(v: PlainValue): string {
  return v.kind === 'str' ? v.value : showPlain(v);
}
