/**
 * Generators of labels for any lattice, biased towards the interesting ones: ⊥, ⊤ and incomparable
 * pairs (the labels on which bare-pc label tests and the skipping rules go wrong). Also generators of
 * label-free values that are mostly NOT labels, for testing that decoders reject them.
 *
 * Labels are drawn by index into `lattice.elements`, so they shrink towards the first element
 * (⊥ for every shipped lattice). Lattices without `elements` draw ⊥, ⊤ and whatever their decoder
 * accepts among small generated encodings.
 */
import fc from 'fast-check';
import { absurd } from '../util/absurd.ts';
import { rat } from '../distributions/rational.ts';
import { array, bool, num, nul, record, str } from '../syntax/ast.ts';
import type { LamE, PlainValue } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';

/** Above this many elements, incomparable pairs are not enumerated (quadratic). */
const MAX_PAIR_ENUMERATION = 64;

const pairCache = new WeakMap<object, readonly (readonly [unknown, unknown])[]>();

/** All unordered incomparable pairs of a finite lattice (empty for chains and large lattices). */
export function incomparablePairs<L>(lat: Lattice<L>): readonly (readonly [L, L])[] {
  const cached = pairCache.get(lat);
  if (cached) return cached as readonly (readonly [L, L])[];
  const els = lat.elements ?? [];
  const pairs: (readonly [L, L])[] = [];
  if (els.length <= MAX_PAIR_ENUMERATION) {
    for (let i = 0; i < els.length; i++)
      for (let j = i + 1; j < els.length; j++) {
        const a = els[i]!;
        const b = els[j]!;
        if (!lat.leq(a, b) && !lat.leq(b, a)) pairs.push([a, b]);
      }
  }
  pairCache.set(lat, pairs);
  return pairs;
}

/** Small candidate encodings for lattices without `elements`: arrays of small ints or atoms. */
const candidateEncodingArb: fc.Arbitrary<PlainValue> = fc.oneof(
  fc.array(fc.nat({ max: 8 }), { maxLength: 2 }).map((ks) => array(ks.map((k) => num(rat(k)))) as PlainValue),
  fc.array(fc.constantFrom('U', 'S', 'H', 'L', 'EXTERNAL', 'secret', 'A', 'B'), { maxLength: 2 }).map(
    (xs) => array(xs.map(str)) as PlainValue,
  ),
);

/**
 * A label of `lat`: ⊥ or ⊤ with probability 1/6 each, otherwise any element (shrinks towards the
 * first element).
 */
export function labelArb<L>(lat: Lattice<L>): fc.Arbitrary<L> {
  const els = lat.elements;
  const any: fc.Arbitrary<L> =
    els && els.length > 0
      ? fc.nat({ max: els.length - 1 }).map((i) => els[i]!)
      : candidateEncodingArb.map((v) => safeDecode(lat, v) ?? lat.bottom);
  return fc.oneof(
    { arbitrary: any, weight: 4 },
    { arbitrary: fc.constant(lat.bottom), weight: 1 },
    { arbitrary: fc.constant(lat.top), weight: 1 },
  );
}

/** A pair of labels, incomparable about a third of the time when the lattice has such pairs. */
export function labelPairArb<L>(lat: Lattice<L>): fc.Arbitrary<readonly [L, L]> {
  const independent = fc.tuple(labelArb(lat), labelArb(lat));
  const pairs = incomparablePairs(lat);
  if (pairs.length === 0) return independent;
  const incomparable = fc
    .tuple(fc.nat({ max: pairs.length - 1 }), fc.boolean())
    .map(([i, swap]) => {
      const [a, b] = pairs[i]!;
      return swap ? ([b, a] as const) : ([a, b] as const);
    });
  return fc.oneof({ arbitrary: independent, weight: 2 }, { arbitrary: incomparable, weight: 1 });
}

/** An observer label `m` (same bias as `labelArb`). */
export function observerArb<L>(lat: Lattice<L>): fc.Arbitrary<L> {
  return labelArb(lat);
}

const identity: LamE<never> = { kind: 'lam', param: 'x', body: { kind: 'var', name: 'x' } };

/** Strings that look like label atoms of some shipped lattice, plus a few that never are. */
const ATOMS = ['U', 'S', 'H', 'L', 'SYSTEM', 'EXTERNAL', 'UNKNOWN', 'secret', 'public', 'X', '', 'u', 'h'] as const;

/** Scalars that are never labels of a shipped lattice, and a few that are parts of labels. */
const scalarArb: fc.Arbitrary<PlainValue> = fc.oneof(
  fc.constantFrom(...ATOMS).map(str),
  fc.integer({ min: -3, max: 12 }).map((k) => num(rat(k))),
  fc.tuple(fc.integer({ min: -3, max: 7 }), fc.integer({ min: 2, max: 4 })).map(([n, d]) => num(rat(n, d))),
  fc.boolean().map(bool),
  fc.constant(nul),
);

/** Arbitrary small label-free values: scalars, identity functions, records and nested arrays. */
export const labelCandidateValueArb: fc.Arbitrary<PlainValue> = fc.letrec<{ value: PlainValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', maxDepth: 3 },
    { arbitrary: scalarArb, weight: 3 },
    { arbitrary: fc.constant(identity as PlainValue), weight: 1 },
    {
      arbitrary: fc
        .array(fc.tuple(fc.constantFrom('a', 'U', 'label'), tie('value')), { maxLength: 2 })
        .map((fs) => record(fs.map(([name, expr]) => ({ name, expr }))) as PlainValue),
      weight: 1,
    },
    { arbitrary: fc.array(tie('value'), { maxLength: 3 }).map((es) => array(es) as PlainValue), weight: 3 },
  ),
})).value;

/** Ways to damage a valid encoding into a near miss (which may or may not still be a label). */
type Damage = 'append' | 'drop' | 'wrap' | 'duplicate' | 'replace';

function damage(v: PlainValue, how: Damage, junk: PlainValue): PlainValue {
  if (v.kind !== 'array') return array([v, junk]) as PlainValue;
  switch (how) {
    case 'append':
      return array([...v.elems, junk]) as PlainValue;
    case 'drop':
      return array(v.elems.slice(1)) as PlainValue;
    case 'wrap':
      return array([v]) as PlainValue;
    case 'duplicate':
      return array(v.elems.length > 0 ? [v.elems[0]!, ...v.elems] : [junk, junk]) as PlainValue;
    case 'replace':
      return array(v.elems.length > 0 ? [junk, ...v.elems.slice(1)] : [junk]) as PlainValue;
    default:
      return absurd(how);
  }
}

/** `toLabel`, or undefined if a (user) decoder throws (the law suite reports the crash). */
function safeDecode<L>(lat: Lattice<L>, v: PlainValue): L | undefined {
  try {
    return lat.toLabel(v);
  } catch {
    return undefined;
  }
}

/** `fromLabel`, or junk if a (user) encoder throws: a crash is reported by the law suite, not here. */
function safeEncode<L>(lat: Lattice<L>, l: L, junk: PlainValue): PlainValue {
  try {
    return lat.fromLabel(l);
  } catch {
    return junk;
  }
}

/**
 * Values to feed a decoder: generic junk half the time, otherwise a valid encoding of `lat` damaged
 * (an element appended, dropped, duplicated or replaced, or the whole wrapped).
 */
export function labelCandidateArb<L>(lat: Lattice<L>): fc.Arbitrary<PlainValue> {
  const nearMiss = fc
    .tuple(labelArb(lat), fc.constantFrom<Damage>('append', 'drop', 'wrap', 'duplicate', 'replace'), scalarArb)
    .map(([l, how, junk]) => damage(safeEncode(lat, l, junk), how, junk));
  return fc.oneof(labelCandidateValueArb, nearMiss);
}
