/**
 * Helpers for writing lattices, shipped and user-defined alike: encoding labels as small label-free
 * values (arrays of strings or integers) and building a finite lattice from its order.
 *
 * Labels are language values (spec §1), so every lattice needs an encoder, a decoder that rejects
 * everything else, and a canonical surface-syntax rendering; these helpers keep the three in step.
 */
import { UserError, absurd } from '../util/absurd.ts';
import { isInteger, rat, show as showRat, numerator } from '../distributions/rational.ts';
import { array, num, str } from '../syntax/ast.ts';
import type { PlainValue } from '../syntax/ast.ts';
import type { Lattice } from './lattice.ts';

/** The value `["a", "b", …]`: an array of string literals. */
export function stringsValue(atoms: readonly string[]): PlainValue {
  return array(atoms.map(str)) as PlainValue;
}

/** Decode an array of string literals; `undefined` for any other value (nested labels included). */
export function readStrings(v: PlainValue): readonly string[] | undefined {
  if (v.kind !== 'array') return undefined;
  const out: string[] = [];
  for (const e of v.elems) {
    if (e.kind !== 'str') return undefined;
    out.push(e.value);
  }
  return out;
}

/** Surface syntax of an array of strings, `["U","S"]`: no spaces, double quotes (canonical). */
export function showStrings(atoms: readonly string[]): string {
  // JSON quoting coincides with the surface syntax for the identifier-like atoms labels use.
  return `[${atoms.map((a) => JSON.stringify(a)).join(',')}]`;
}

/** The value `[k]` for an integer `k`. */
export function intValue(k: number): PlainValue {
  return array([num(rat(k))]) as PlainValue;
}

/** Decode a number literal that is an integer within the safe range; `undefined` otherwise. */
export function readInt(v: PlainValue): number | undefined {
  if (v.kind !== 'num' || !isInteger(v.value)) return undefined;
  const n = numerator(v.value);
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) return undefined;
  return Number(n);
}

/**
 * Surface syntax of any label-free value, canonical for the scalars and arrays labels are made of.
 * Used for printing junk values in counterexamples and by lattices built from components.
 */
export function showPlain(v: PlainValue): string {
  switch (v.kind) {
    case 'num':
      return showRat(v.value);
    case 'str':
      return JSON.stringify(v.value);
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'null':
      return 'null';
    case 'lam':
      return `\\${v.param}. …`;
    case 'record':
      return `{${v.fields.map((f) => `${f.name}: ${showPlain(f.expr)}`).join(', ')}}`;
    case 'array':
      return `[${v.elems.map(showPlain).join(',')}]`;
    default:
      return absurd(v);
  }
}

/** A finite lattice given by its elements and (some of) its order relation. */
export interface FiniteLatticeSpec {
  /** Name used on the command line and in reports. */
  readonly name: string;
  /** Element names (identifier-like). The least one encodes as `[]`, every other `x` as `["x"]`. */
  readonly elements: readonly string[];
  /**
   * Pairs `[lower, upper]` meaning `lower ⊑ upper`; reflexivity and transitivity are added, so the
   * covering relation (the Hasse diagram) is enough.
   */
  readonly order: readonly (readonly [string, string])[];
  /** Optional factoring into integrity × confidentiality, given on element names. */
  readonly factoring?: {
    readonly toI: (l: string) => string;
    readonly toS: (l: string) => string;
    readonly pair: (i: string, s: string) => string;
  };
}

/**
 * Build a finite lattice from its order. Joins are computed as least upper bounds; a spec that is not
 * a lattice (a cycle, a missing or non-unique least upper bound) is rejected with a `UserError`.
 * Labels are the element names themselves.
 */
export function finiteLattice(spec: FiniteLatticeSpec): Lattice<string> {
  const names = spec.elements;
  const n = names.length;
  if (n === 0) throw new UserError(`lattice ${spec.name}: no elements`);
  const index = new Map<string, number>();
  names.forEach((x, i) => {
    if (index.has(x)) throw new UserError(`lattice ${spec.name}: element ${x} listed twice`);
    index.set(x, i);
  });
  const idx = (x: string): number => {
    const i = index.get(x);
    if (i === undefined) throw new UserError(`lattice ${spec.name}: order mentions unknown element ${x}`);
    return i;
  };
  // Reflexive-transitive closure (Floyd–Warshall): the user may give only the covering pairs.
  const le: boolean[][] = names.map((_, i) => names.map((__, j) => i === j));
  for (const [a, b] of spec.order) le[idx(a)]![idx(b)] = true;
  for (let k = 0; k < n; k++)
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) if (le[i]![k] && le[k]![j]) le[i]![j] = true;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      if (le[i]![j] && le[j]![i]) throw new UserError(`lattice ${spec.name}: ${names[i]} and ${names[j]} are ordered both ways`);
  const joinIdx: number[][] = [];
  for (let i = 0; i < n; i++) {
    joinIdx.push([]);
    for (let j = 0; j < n; j++) {
      const ubs = [...names.keys()].filter((k) => le[i]![k] && le[j]![k]);
      const least = ubs.filter((k) => ubs.every((u) => le[k]![u]));
      if (least.length !== 1) {
        throw new UserError(`lattice ${spec.name}: ${names[i]} and ${names[j]} have no least upper bound`);
      }
      joinIdx[i]!.push(least[0]!);
    }
  }
  const bottoms = [...names.keys()].filter((i) => names.every((_, j) => le[i]![j]));
  const tops = [...names.keys()].filter((i) => names.every((_, j) => le[j]![i]));
  if (bottoms.length !== 1 || tops.length !== 1) throw new UserError(`lattice ${spec.name}: needs a least and a greatest element`);
  const bottom = names[bottoms[0]!]!;
  const top = names[tops[0]!]!;
  const atomsOf = (l: string): readonly string[] => (l === bottom ? [] : [l]);
  const lat: Lattice<string> = {
    name: spec.name,
    bottom,
    top,
    join: (a, b) => names[joinIdx[idx(a)]![idx(b)]!]!,
    leq: (a, b) => le[idx(a)]![idx(b)]!,
    equals: (a, b) => a === b,
    show: (l) => showStrings(atomsOf(l)),
    fromLabel: (l) => stringsValue(atomsOf(l)),
    toLabel: (v) => {
      const atoms = readStrings(v);
      if (atoms === undefined) return undefined;
      if (atoms.length === 0) return bottom;
      if (atoms.length !== 1 || atoms[0] === bottom || !index.has(atoms[0]!)) return undefined;
      return atoms[0];
    },
    elements: [bottom, ...names.filter((x) => x !== bottom)],
    ...(spec.factoring ? { factoring: spec.factoring } : {}),
  };
  return lat;
}
