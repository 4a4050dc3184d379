/**
 * Tiny lattices for the syntax tests only (the shipped instances live in src/lattice/instances.ts).
 * They exercise the parser's label folding with string, number and nested-array encodings.
 */
import type { Lattice } from '../../src/lattice/lattice.ts';
import { isInteger, numerator } from '../../src/distributions/rational.ts';
import { num, str, type PlainValue } from '../../src/syntax/ast.ts';
import { rat } from '../../src/distributions/rational.ts';

const US_NAMES = ['U', 'S'] as const;

/** An array literal of label-free values (the encoding of a label). */
const array = (elems: readonly PlainValue[]): PlainValue => ({ kind: 'array', elems });

/** Subsets of {U, S} as a bitmask (bit 0 = U, bit 1 = S), encoded `[]`, `["U"]`, `["S"]`, `["U","S"]`. */
export const testPowersetUS: Lattice<number> = {
  name: 'test-powerset-us',
  bottom: 0,
  top: 3,
  join: (a, b) => a | b,
  leq: (a, b) => (a | b) === b,
  equals: (a, b) => a === b,
  show: (l) => `[${US_NAMES.filter((_, i) => (l >> i) & 1).map((n) => `"${n}"`).join(',')}]`,
  fromLabel: (l) => array(US_NAMES.filter((_, i) => (l >> i) & 1).map((n) => str(n))),
  toLabel(v: PlainValue) {
    if (v.kind !== 'array') return undefined;
    let mask = 0;
    for (const e of v.elems) {
      if (e.kind !== 'str') return undefined;
      const bit = US_NAMES.indexOf(e.value as 'U' | 'S');
      if (bit < 0 || (mask >> bit) & 1) return undefined;
      mask |= 1 << bit;
    }
    return mask;
  },
  elements: [0, 1, 2, 3],
};

/** `L ⊑ H` as booleans, encoded `[]` and `["H"]`. */
export const testTwoPoint: Lattice<boolean> = {
  name: 'test-two-point',
  bottom: false,
  top: true,
  join: (a, b) => a || b,
  leq: (a, b) => !a || b,
  equals: (a, b) => a === b,
  show: (l) => (l ? '["H"]' : '[]'),
  fromLabel: (l) => array(l ? [str('H')] : []),
  toLabel(v: PlainValue) {
    if (v.kind !== 'array') return undefined;
    if (v.elems.length === 0) return false;
    const [e] = v.elems;
    return v.elems.length === 1 && e?.kind === 'str' && e.value === 'H' ? true : undefined;
  },
  elements: [false, true],
};

/** `0 ⊑ 1 ⊑ 2`, encoded `[k]` with a number literal (and `[]` accepted as ⊥). */
export const testChain3: Lattice<number> = {
  name: 'test-chain(3)',
  bottom: 0,
  top: 2,
  join: (a, b) => Math.max(a, b),
  leq: (a, b) => a <= b,
  equals: (a, b) => a === b,
  show: (l) => `[${l}]`,
  fromLabel: (l) => array([num(rat(l))]),
  toLabel(v: PlainValue) {
    if (v.kind !== 'array') return undefined;
    if (v.elems.length === 0) return 0;
    const [e] = v.elems;
    if (v.elems.length !== 1 || e?.kind !== 'num' || !isInteger(e.value)) return undefined;
    const k = Number(numerator(e.value));
    return k >= 0 && k <= 2 ? k : undefined;
  },
  elements: [0, 1, 2],
};

/** two-point × two-point as pairs `[a, b]` encoded as nested arrays `[[], ["H"]]` (`[]` is ⊥). */
export const testPairs: Lattice<readonly [boolean, boolean]> = {
  name: 'test-two-point×two-point',
  bottom: [false, false],
  top: [true, true],
  join: (a, b) => [a[0] || b[0], a[1] || b[1]],
  leq: (a, b) => (!a[0] || b[0]) && (!a[1] || b[1]),
  equals: (a, b) => a[0] === b[0] && a[1] === b[1],
  show: (l) => `[${testTwoPoint.show(l[0])},${testTwoPoint.show(l[1])}]`,
  fromLabel: (l) => array([testTwoPoint.fromLabel(l[0]), testTwoPoint.fromLabel(l[1])]),
  toLabel(v: PlainValue) {
    if (v.kind !== 'array') return undefined;
    if (v.elems.length === 0) return [false, false];
    if (v.elems.length !== 2) return undefined;
    const a = testTwoPoint.toLabel(v.elems[0] as PlainValue);
    const b = testTwoPoint.toLabel(v.elems[1] as PlainValue);
    return a === undefined || b === undefined ? undefined : [a, b];
  },
  elements: [[false, false], [true, false], [false, true], [true, true]],
};

/** Every test lattice, for suites run over several lattices. */
export const TEST_LATTICES: readonly Lattice<unknown>[] = [testPowersetUS, testTwoPoint, testChain3, testPairs];
