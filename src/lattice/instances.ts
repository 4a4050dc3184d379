/**
 * The lattices the project ships (spec §1): `two-point`, `powerset-us`, `chain(n)`, generic products,
 * and the PPMF trust × secrecy lattice (ppmf.md).
 *
 * Encoding rule shared by all of them: a label is an array value, and `[]` always decodes to ⊥, so
 * `[]:e` means "unlabelled" on every lattice. Decoders accept nothing else: no duplicates, no unknown
 * atoms, no non-arrays. `show` renders the canonical encoding in surface syntax.
 */
import { UserError } from '../util/absurd.ts';
import { array } from '../syntax/ast.ts';
import type { PlainValue } from '../syntax/ast.ts';
import type { Factoring, Lattice } from './lattice.ts';
import { intValue, readInt, readStrings, showStrings, stringsValue } from './define.ts';

// ---------------------------------------------------------------------------------------------
// two-point: L ⊑ H

/** A label of `two-point`: `L` (public/low) or `H` (secret/high). */
export type TwoPoint = 'L' | 'H';

const TWO_POINT_ENC: Readonly<Record<TwoPoint, PlainValue>> = { L: stringsValue([]), H: stringsValue(['H']) };

/** `two-point`: `L ⊑ H`, encoded `[]` and `["H"]` (Austin–Flanagan's setting). Trivially factored. */
export const twoPoint: Lattice<TwoPoint> = {
  name: 'two-point',
  bottom: 'L',
  top: 'H',
  join: (a, b) => (a === 'H' || b === 'H' ? 'H' : 'L'),
  leq: (a, b) => a === 'L' || b === 'H',
  equals: (a, b) => a === b,
  show: (l) => (l === 'H' ? '["H"]' : '[]'),
  fromLabel: (l) => TWO_POINT_ENC[l],
  toLabel: (v) => {
    const atoms = readStrings(v);
    if (atoms === undefined) return undefined;
    if (atoms.length === 0) return 'L';
    return atoms.length === 1 && atoms[0] === 'H' ? 'H' : undefined;
  },
  elements: ['L', 'H'],
};

// ---------------------------------------------------------------------------------------------
// powerset-us: subsets of {U, S}

/** A label of `powerset-us` as a bitmask: bit 1 = U (untrusted), bit 2 = S (secret). */
export type USLabel = 0 | 1 | 2 | 3;

/** The four `powerset-us` labels by name. */
export const US: { readonly bottom: USLabel; readonly U: USLabel; readonly S: USLabel; readonly top: USLabel } = {
  bottom: 0,
  U: 1,
  S: 2,
  top: 3,
};

const US_ATOMS: readonly (readonly string[])[] = [[], ['U'], ['S'], ['U', 'S']];
const US_ENC: readonly PlainValue[] = US_ATOMS.map(stringsValue);
const US_SHOW: readonly string[] = US_ATOMS.map(showStrings);

/** The `powerset-us` label with the given atoms (`usLabel('U', 'S')` is ⊤). */
export function usLabel(...atoms: readonly ('U' | 'S')[]): USLabel {
  let m = 0;
  for (const a of atoms) m |= a === 'U' ? US.U : US.S;
  return m as USLabel;
}

const usFactoring: Factoring<USLabel> = {
  toI: (l) => (l & US.U) as USLabel,
  toS: (l) => (l & US.S) as USLabel,
  pair: (i, s) => ((i & US.U) | (s & US.S)) as USLabel,
};

/**
 * `powerset-us`: subsets of `{U, S}` ordered by inclusion, encoded `[]`, `["U"]`, `["S"]`,
 * `["U","S"]` (the decoder also accepts `["S","U"]`). Factored as `I = {∅,{U}}`, `S = {∅,{S}}`.
 */
export const powersetUS: Lattice<USLabel> = {
  name: 'powerset-us',
  bottom: US.bottom,
  top: US.top,
  join: (a, b) => (a | b) as USLabel,
  leq: (a, b) => (a & ~b) === 0,
  equals: (a, b) => a === b,
  show: (l) => US_SHOW[l]!,
  fromLabel: (l) => US_ENC[l]!,
  toLabel: (v) => {
    const atoms = readStrings(v);
    if (atoms === undefined || atoms.length > 2) return undefined;
    let m = 0;
    for (const a of atoms) {
      const bit = a === 'U' ? US.U : a === 'S' ? US.S : 0;
      if (bit === 0 || (m & bit) !== 0) return undefined; // unknown atom or duplicate
      m |= bit;
    }
    return m as USLabel;
  },
  elements: [0, 1, 2, 3],
  factoring: usFactoring,
};

// ---------------------------------------------------------------------------------------------
// powerset-use: subsets of {U, S, E} (Appendix E's constrained endorse)

/** A label of `powerset-use` as a bitmask: bit 1 = U (untrusted), 2 = S (secret), 4 = E (endorsed). */
export type USELabel = number;

/** The three atoms of `powerset-use` by name. */
export const USE: { readonly U: USELabel; readonly S: USELabel; readonly E: USELabel } = { U: 1, S: 2, E: 4 };

const USE_ATOM_ORDER: readonly (readonly [string, number])[] = [['U', 1], ['S', 2], ['E', 4]];
const useAtoms = (l: USELabel): string[] => USE_ATOM_ORDER.filter(([, b]) => (l & b) !== 0).map(([a]) => a);
const USE_ELEMENTS: readonly USELabel[] = [0, 1, 2, 3, 4, 5, 6, 7];
const USE_ENC: readonly PlainValue[] = USE_ELEMENTS.map((l) => stringsValue(useAtoms(l)));
const USE_SHOW: readonly string[] = USE_ELEMENTS.map((l) => showStrings(useAtoms(l)));

/**
 * `powerset-use`: subsets of `{U, S, E}` ordered by inclusion (paper, Appendix E). `E` marks data that
 * was endorsed: `robust_endorse` (prelude) endorses to `["E"]` and refuses anything carrying `E`, so
 * endorsement cannot cascade. Factored as integrity `{U, E}` × confidentiality `{S}`; I-maximal observers
 * have both `U` and `E`. Encoded as arrays of distinct atoms in any order, shown in the order U, S, E.
 */
export const powersetUSE: Lattice<USELabel> = {
  name: 'powerset-use',
  bottom: 0,
  top: 7,
  join: (a, b) => a | b,
  leq: (a, b) => (a & ~b) === 0,
  equals: (a, b) => a === b,
  show: (l) => USE_SHOW[l]!,
  fromLabel: (l) => USE_ENC[l]!,
  toLabel: (v) => {
    const atoms = readStrings(v);
    if (atoms === undefined || atoms.length > 3) return undefined;
    let m = 0;
    for (const a of atoms) {
      const bit = a === 'U' ? USE.U : a === 'S' ? USE.S : a === 'E' ? USE.E : 0;
      if (bit === 0 || (m & bit) !== 0) return undefined;
      m |= bit;
    }
    return m;
  },
  elements: USE_ELEMENTS,
  factoring: {
    toI: (l) => l & (USE.U | USE.E),
    toS: (l) => l & USE.S,
    pair: (i, s) => (i & (USE.U | USE.E)) | (s & USE.S),
  },
};

// ---------------------------------------------------------------------------------------------
// chain(n): 0 ⊑ 1 ⊑ … ⊑ n-1

/** Largest `n` accepted by `chain(n)` (its `elements` list is materialised). */
export const MAX_CHAIN = 10_000;

/**
 * `chain(n)`: the total order `0 ⊑ 1 ⊑ … ⊑ n-1`, encoded `[k]`; the decoder also accepts `[]` as ⊥.
 * Trivially factored. Throws `UserError` unless `1 ≤ n ≤ MAX_CHAIN` is an integer.
 */
export function chain(n: number): Lattice<number> {
  if (!Number.isInteger(n) || n < 1 || n > MAX_CHAIN) {
    throw new UserError(`chain(n) needs an integer 1 ≤ n ≤ ${MAX_CHAIN}, got ${n}`);
  }
  const enc: PlainValue[] = [];
  const encode = (k: number): PlainValue => (enc[k] ??= intValue(k));
  return {
    name: `chain(${n})`,
    bottom: 0,
    top: n - 1,
    join: (a, b) => (a < b ? b : a),
    leq: (a, b) => a <= b,
    equals: (a, b) => a === b,
    show: (l) => `[${l}]`,
    fromLabel: encode,
    toLabel: (v) => {
      if (v.kind !== 'array' || v.elems.length > 1) return undefined;
      const first = v.elems[0];
      if (first === undefined) return 0;
      const k = readInt(first);
      return k !== undefined && k >= 0 && k < n ? k : undefined;
    },
    elements: Array.from({ length: n }, (_, k) => k),
  };
}

// ---------------------------------------------------------------------------------------------
// product(A, B)

/** A label of `product(A, B)`: a pair of component labels. */
export type Pair<A, B> = readonly [A, B];

/** Options of `product`. */
export interface ProductOptions {
  /** Treat `A` as the integrity axis and `B` as the confidentiality axis (`L ≅ I × S`). */
  readonly factored?: boolean;
}

/** Largest element count for which a product lists its `elements`. */
const MAX_PRODUCT_ELEMENTS = 4096;

/** Wrap a component name in parentheses when it is itself a product, so names stay unambiguous. */
function componentName(name: string): string {
  return name.includes('×') ? `(${name})` : name;
}

/**
 * `product(A, B)`: pairs ordered componentwise, named `A.name×B.name`, encoded `[encA, encB]`; the
 * decoder also accepts `[]` as ⊥. With `{ factored: true }`, `A` is integrity and `B` confidentiality:
 * `toI⟨a,b⟩ = ⟨a,⊥⟩`, `toS⟨a,b⟩ = ⟨⊥,b⟩`, `pair(⟨a,_⟩, ⟨_,b⟩) = ⟨a,b⟩`; otherwise trivially factored.
 */
export function product<A, B>(la: Lattice<A>, lb: Lattice<B>, opts: ProductOptions = {}): Lattice<Pair<A, B>> {
  const mk = (a: A, b: B): Pair<A, B> => [a, b];
  const bottom = mk(la.bottom, lb.bottom);
  const ea = la.elements;
  const eb = lb.elements;
  const elements =
    ea && eb && ea.length * eb.length <= MAX_PRODUCT_ELEMENTS ? ea.flatMap((a) => eb.map((b) => mk(a, b))) : undefined;
  const factoring: Factoring<Pair<A, B>> = {
    toI: (l) => mk(l[0], lb.bottom),
    toS: (l) => mk(la.bottom, l[1]),
    pair: (i, s) => mk(i[0], s[1]),
  };
  return {
    name: `${componentName(la.name)}×${componentName(lb.name)}`,
    bottom,
    top: mk(la.top, lb.top),
    join: (x, y) => mk(la.join(x[0], y[0]), lb.join(x[1], y[1])),
    leq: (x, y) => la.leq(x[0], y[0]) && lb.leq(x[1], y[1]),
    equals: (x, y) => la.equals(x[0], y[0]) && lb.equals(x[1], y[1]),
    show: (l) => `[${la.show(l[0])},${lb.show(l[1])}]`,
    fromLabel: (l) => array([la.fromLabel(l[0]), lb.fromLabel(l[1])]) as PlainValue,
    toLabel: (v) => {
      if (v.kind !== 'array') return undefined;
      if (v.elems.length === 0) return bottom;
      const [va, vb] = v.elems;
      if (va === undefined || vb === undefined || v.elems.length !== 2) return undefined;
      const a = la.toLabel(va);
      const b = lb.toLabel(vb);
      return a === undefined || b === undefined ? undefined : mk(a, b);
    },
    ...(elements ? { elements } : {}),
    ...(opts.factored ? { factoring } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// ppmf: PPMF trust (as distrust) × secrecy

/** PPMF trust levels, from least to most trusted (ppmf.md). */
export const TRUST_LEVELS = ['UNKNOWN', 'EXTERNAL', 'TRUSTED_TOOL', 'USER_HISTORY', 'USER_CONFIRMED', 'SYSTEM'] as const;

/** A PPMF trust level. */
export type TrustLevel = (typeof TRUST_LEVELS)[number];

/** The confidentiality axis of `ppmf`: `public ⊑ secret`. */
export type Secrecy = 'public' | 'secret';

/**
 * A label of `ppmf`, packed as `distrust * 2 + secret` where `distrust = 5 - trust index`
 * (SYSTEM = 0 … UNKNOWN = 5) and `secret` is 0 or 1. Build with `ppmfLabel`, read with
 * `trustOf`/`secrecyOf`.
 */
export type PpmfLabel = number;

const TRUST_INDEX: ReadonlyMap<string, number> = new Map(TRUST_LEVELS.map((t, i) => [t, i]));

/** Is `s` the name of a PPMF trust level? */
export function isTrustLevel(s: string): s is TrustLevel {
  return TRUST_INDEX.has(s);
}

/** The `ppmf` label of data with trust `trust` and secrecy `secrecy` (public by default). */
export function ppmfLabel(trust: TrustLevel, secrecy: Secrecy = 'public'): PpmfLabel {
  const distrust = TRUST_LEVELS.length - 1 - TRUST_INDEX.get(trust)!;
  return distrust * 2 + (secrecy === 'secret' ? 1 : 0);
}

/** The trust level of a `ppmf` label (its integrity part, read back as trust). */
export function trustOf(l: PpmfLabel): TrustLevel {
  return TRUST_LEVELS[TRUST_LEVELS.length - 1 - (l >> 1)]!;
}

/** The secrecy of a `ppmf` label. */
export function secrecyOf(l: PpmfLabel): Secrecy {
  return (l & 1) === 1 ? 'secret' : 'public';
}

/** Does `level` meet the trust requirement `min` (`min ⪯ level` in the trust chain)? */
export function trustAtLeast(level: TrustLevel, min: TrustLevel): boolean {
  return TRUST_INDEX.get(level)! >= TRUST_INDEX.get(min)!;
}

/** Canonical atoms: the trust name unless SYSTEM, then `secret` if secret (defaults are omitted). */
function ppmfAtoms(l: PpmfLabel): readonly string[] {
  const atoms: string[] = [];
  if (l >> 1 !== 0) atoms.push(trustOf(l));
  if ((l & 1) === 1) atoms.push('secret');
  return atoms;
}

const PPMF_ELEMENTS: readonly PpmfLabel[] = Array.from({ length: TRUST_LEVELS.length * 2 }, (_, k) => k);
const PPMF_ENC: readonly PlainValue[] = PPMF_ELEMENTS.map((l) => stringsValue(ppmfAtoms(l)));
const PPMF_SHOW: readonly string[] = PPMF_ELEMENTS.map((l) => showStrings(ppmfAtoms(l)));

/**
 * `ppmf`: the PPMF trust chain as an integrity label ordered by DISTRUST (SYSTEM = ⊥, UNKNOWN = ⊤, so a
 * join is the least trusted source) × secrecy `public ⊑ secret`; factored (integrity = trust,
 * confidentiality = secrecy).
 *
 * Encoding: an array of at most one trust name and at most one of `public`/`secret`, defaults
 * omitted: `[]` is SYSTEM/public (⊥), `["EXTERNAL"]`, `["secret"]`, `["UNKNOWN","secret"]` (⊤). The
 * decoder accepts the atoms in either order and explicit defaults (`["SYSTEM","public"]`), and
 * rejects duplicates, two trust names, and unknown atoms.
 */
export const ppmfTrustSecrecy: Lattice<PpmfLabel> = {
  name: 'ppmf',
  bottom: 0,
  top: PPMF_ELEMENTS.length - 1,
  join: (a, b) => (Math.max(a >> 1, b >> 1) << 1) | (a & 1) | (b & 1),
  leq: (a, b) => a >> 1 <= b >> 1 && (a & 1) <= (b & 1),
  equals: (a, b) => a === b,
  show: (l) => PPMF_SHOW[l]!,
  fromLabel: (l) => PPMF_ENC[l]!,
  toLabel: (v) => {
    const atoms = readStrings(v);
    if (atoms === undefined || atoms.length > 2) return undefined;
    let trust: TrustLevel | undefined;
    let secrecy: Secrecy | undefined;
    for (const a of atoms) {
      if (isTrustLevel(a) && trust === undefined) trust = a;
      else if ((a === 'public' || a === 'secret') && secrecy === undefined) secrecy = a;
      else return undefined;
    }
    return ppmfLabel(trust ?? 'SYSTEM', secrecy ?? 'public');
  },
  elements: PPMF_ELEMENTS,
  factoring: {
    toI: (l) => l & ~1,
    toS: (l) => l & 1,
    pair: (i, s) => (i & ~1) | (s & 1),
  },
};
