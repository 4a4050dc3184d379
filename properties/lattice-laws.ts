/**
 * The lattice laws (spec §1) as a property suite, run on shipped lattices and on user lattice files
 * (`llmbda check --lattice ./file.ts`). A case is three labels and one candidate value for the
 * decoder; every law is checked on every case, and the first broken one is reported by name.
 */
import fc from 'fast-check';
import { absurd } from '../src/util/absurd.ts';
import { HOLDS, fails, runSuite } from '../src/runner/suite.ts';
import type { CaseOutcome, PropertySuite, Verdict } from '../src/runner/suite.ts';
import type { AnyLattice } from '../src/lattice/lattice.ts';
import type { PlainValue } from '../src/syntax/ast.ts';
import { showPlain } from '../src/lattice/define.ts';
import { labelArb, labelCandidateArb, labelPairArb } from '../src/generators/labels.ts';

/** The context: the lattice under test. */
export interface LatticeCtx {
  readonly lattice: AnyLattice;
}

/** Three labels of the lattice under test and a value to decode. */
export interface LatticeLawCase {
  readonly a: unknown;
  readonly b: unknown;
  readonly c: unknown;
  /** A label-free value that is usually not a label (near misses of encodings included). */
  readonly v: PlainValue;
}

/** A law: `undefined` when it holds, else the reason (naming the law and the labels). */
type Law = (lat: AnyLattice, c: LatticeLawCase) => string | undefined;

/** Does the value contain a function anywhere (a label never does: labels are data)? */
function containsFunction(v: PlainValue): boolean {
  switch (v.kind) {
    case 'lam':
      return true;
    case 'array':
      return v.elems.some(containsFunction);
    case 'record':
      return v.fields.some((f) => containsFunction(f.expr));
    case 'num':
    case 'str':
    case 'bool':
    case 'null':
      return false;
    default:
      return absurd(v);
  }
}

/** Unary laws are checked on each of a, b, c. */
const each =
  (law: (lat: AnyLattice, x: unknown) => string | undefined): Law =>
  (lat, c) =>
    law(lat, c.a) ?? law(lat, c.b) ?? law(lat, c.c);

/** Binary laws are checked on (a, b), (b, c) and (a, c). */
const pairs =
  (law: (lat: AnyLattice, x: unknown, y: unknown) => string | undefined): Law =>
  (lat, c) =>
    law(lat, c.a, c.b) ?? law(lat, c.b, c.c) ?? law(lat, c.a, c.c);

/** The laws in reporting order: the cheapest explanation of a failure comes first. */
export const LATTICE_LAWS: readonly { readonly name: string; readonly law: Law }[] = [
  {
    name: 'equals-reflexive',
    law: each((lat, x) => (lat.equals(x, x) ? undefined : `equals is not reflexive: equals(x, x) = false with x=${lat.show(x)}`)),
  },
  {
    name: 'equals-symmetric',
    law: pairs((lat, x, y) =>
      lat.equals(x, y) === lat.equals(y, x)
        ? undefined
        : `equals is not symmetric: equals(a, b) = ${lat.equals(x, y)} but equals(b, a) = ${lat.equals(y, x)} with a=${lat.show(x)}, b=${lat.show(y)}`,
    ),
  },
  {
    name: 'show-canonical',
    law: pairs((lat, x, y) => {
      const same = lat.show(x) === lat.show(y);
      if (same === lat.equals(x, y)) return undefined;
      return same
        ? `show is not injective: a and b both show as ${lat.show(x)} but equals(a, b) = false`
        : `show is not canonical: equals(a, b) = true but a shows as ${lat.show(x)} and b as ${lat.show(y)}`;
    }),
  },
  {
    name: 'join-commutative',
    law: pairs((lat, x, y) => {
      const xy = lat.join(x, y);
      const yx = lat.join(y, x);
      return lat.equals(xy, yx)
        ? undefined
        : `commutativity fails: a ⊔ b = ${lat.show(xy)} but b ⊔ a = ${lat.show(yx)} with a=${lat.show(x)}, b=${lat.show(y)}`;
    }),
  },
  {
    name: 'join-idempotent',
    law: each((lat, x) => {
      const xx = lat.join(x, x);
      return lat.equals(xx, x) ? undefined : `idempotence fails: a ⊔ a = ${lat.show(xx)} with a=${lat.show(x)}`;
    }),
  },
  {
    name: 'bottom-unit',
    law: each((lat, x) => {
      const bx = lat.join(lat.bottom, x);
      return lat.equals(bx, x) ? undefined : `⊥ is not a unit: ⊥ ⊔ a = ${lat.show(bx)} with ⊥=${lat.show(lat.bottom)}, a=${lat.show(x)}`;
    }),
  },
  {
    name: 'top-absorbing',
    law: each((lat, x) => {
      const tx = lat.join(lat.top, x);
      return lat.equals(tx, lat.top) ? undefined : `⊤ is not absorbing: ⊤ ⊔ a = ${lat.show(tx)} with ⊤=${lat.show(lat.top)}, a=${lat.show(x)}`;
    }),
  },
  {
    name: 'leq-join',
    law: pairs((lat, x, y) => {
      const le = lat.leq(x, y);
      const xy = lat.join(x, y);
      return le === lat.equals(xy, y)
        ? undefined
        : `order and join disagree: leq(a, b) = ${le} but a ⊔ b = ${lat.show(xy)} with a=${lat.show(x)}, b=${lat.show(y)}`;
    }),
  },
  {
    name: 'join-associative',
    law: (lat, { a, b, c }) => {
      const l = lat.join(lat.join(a, b), c);
      const r = lat.join(a, lat.join(b, c));
      return lat.equals(l, r)
        ? undefined
        : `associativity fails: (a ⊔ b) ⊔ c = ${lat.show(l)} but a ⊔ (b ⊔ c) = ${lat.show(r)} with a=${lat.show(a)}, b=${lat.show(b)}, c=${lat.show(c)}`;
    },
  },
  {
    name: 'encode-roundtrip',
    law: each((lat, x) => {
      const enc = lat.fromLabel(x) as PlainValue;
      if (containsFunction(enc)) return `encoding is not data: fromLabel(a) = ${showPlain(enc)} contains a function with a=${lat.show(x)}`;
      const back = lat.toLabel(enc);
      if (back === undefined) return `encoding round trip fails: toLabel(fromLabel(a)) rejects ${showPlain(enc)} with a=${lat.show(x)}`;
      return lat.equals(back, x)
        ? undefined
        : `encoding round trip fails: toLabel(fromLabel(a)) = ${lat.show(back)} with a=${lat.show(x)}`;
    }),
  },
  {
    name: 'decode-rejects',
    law: (lat, { v }) => {
      const l = lat.toLabel(v);
      if (l === undefined) return undefined;
      if (containsFunction(v)) return `toLabel accepts a non-label: ${showPlain(v)} (contains a function) decodes to ${lat.show(l)}`;
      const inside = lat.elements ? lat.elements.some((e) => lat.equals(e, l)) : lat.leq(lat.bottom, l) && lat.leq(l, lat.top);
      if (!inside) return `toLabel decodes to a label outside the lattice: toLabel(v) = ${lat.show(l)} with v=${showPlain(v)}`;
      const again = lat.toLabel(lat.fromLabel(l) as PlainValue);
      return again !== undefined && lat.equals(again, l)
        ? undefined
        : `re-encoding fails: toLabel(v) = ${lat.show(l)} but toLabel(fromLabel(toLabel(v))) = ${again === undefined ? 'rejected' : lat.show(again)} with v=${showPlain(v)}`;
    },
  },
  {
    name: 'factoring-pair',
    law: each((lat, x) => {
      const f = lat.factoring;
      if (!f) return undefined;
      const p = f.pair(f.toI(x), f.toS(x));
      return lat.equals(p, x) ? undefined : `factoring does not reassemble: ⟨a←, a→⟩ = ${lat.show(p)} with a=${lat.show(x)}`;
    }),
  },
  {
    name: 'factoring-idempotent',
    law: each((lat, x) => {
      const f = lat.factoring;
      if (!f) return undefined;
      const i = f.toI(x);
      const s = f.toS(x);
      if (!lat.equals(f.toI(i), i)) return `toI∘toI ≠ toI: toI(toI a) = ${lat.show(f.toI(i))} but toI a = ${lat.show(i)} with a=${lat.show(x)}`;
      if (!lat.equals(f.toS(s), s)) return `toS∘toS ≠ toS: toS(toS a) = ${lat.show(f.toS(s))} but toS a = ${lat.show(s)} with a=${lat.show(x)}`;
      if (!lat.equals(f.toS(i), lat.bottom)) return `the integrity part has confidentiality: toS(toI a) = ${lat.show(f.toS(i))} ≠ ⊥ with a=${lat.show(x)}`;
      if (!lat.equals(f.toI(s), lat.bottom)) return `the confidentiality part has integrity: toI(toS a) = ${lat.show(f.toI(s))} ≠ ⊥ with a=${lat.show(x)}`;
      return undefined;
    }),
  },
  {
    name: 'factoring-monotone',
    law: pairs((lat, x, y) => {
      const f = lat.factoring;
      if (!f || !lat.leq(x, y)) return undefined;
      if (!lat.leq(f.toI(x), f.toI(y))) return `toI is not monotone: a ⊑ b but toI a = ${lat.show(f.toI(x))} ⋢ toI b = ${lat.show(f.toI(y))} with a=${lat.show(x)}, b=${lat.show(y)}`;
      if (!lat.leq(f.toS(x), f.toS(y))) return `toS is not monotone: a ⊑ b but toS a = ${lat.show(f.toS(x))} ⋢ toS b = ${lat.show(f.toS(y))} with a=${lat.show(x)}, b=${lat.show(y)}`;
      return undefined;
    }),
  },
  {
    name: 'factoring-join',
    law: pairs((lat, x, y) => {
      const f = lat.factoring;
      if (!f) return undefined;
      const xy = lat.join(x, y);
      const i1 = f.toI(xy);
      const i2 = lat.join(f.toI(x), f.toI(y));
      if (!lat.equals(i1, i2)) return `toI does not preserve joins: toI(a ⊔ b) = ${lat.show(i1)} but toI a ⊔ toI b = ${lat.show(i2)} with a=${lat.show(x)}, b=${lat.show(y)}`;
      const s1 = f.toS(xy);
      const s2 = lat.join(f.toS(x), f.toS(y));
      if (!lat.equals(s1, s2)) return `toS does not preserve joins: toS(a ⊔ b) = ${lat.show(s1)} but toS a ⊔ toS b = ${lat.show(s2)} with a=${lat.show(x)}, b=${lat.show(y)}`;
      return undefined;
    }),
  },
  {
    name: 'factoring-projections',
    law: pairs((lat, x, y) => {
      const f = lat.factoring;
      if (!f) return undefined;
      const p = f.pair(x, y);
      if (!lat.equals(f.toI(p), f.toI(x))) return `pair loses integrity: toI⟨a, b⟩ = ${lat.show(f.toI(p))} but toI a = ${lat.show(f.toI(x))} with a=${lat.show(x)}, b=${lat.show(y)}`;
      if (!lat.equals(f.toS(p), f.toS(y))) return `pair loses confidentiality: toS⟨a, b⟩ = ${lat.show(f.toS(p))} but toS b = ${lat.show(f.toS(y))} with a=${lat.show(x)}, b=${lat.show(y)}`;
      return undefined;
    }),
  },
];

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Judge a case: the first broken law, or a crash of the lattice's code, named. */
function judgeLaws(c: LatticeLawCase, ctx: LatticeCtx): CaseOutcome {
  for (const { name, law } of LATTICE_LAWS) {
    let reason: string | undefined;
    try {
      reason = law(ctx.lattice, c);
    } catch (e) {
      reason = `${name}: the lattice threw: ${message(e)}`;
    }
    if (reason !== undefined) return fails(reason);
  }
  return HOLDS;
}

function safeShow(lat: AnyLattice, l: unknown): string {
  try {
    return lat.show(l);
  } catch {
    return `<show threw on ${String(l)}>`;
  }
}

function safe(f: () => boolean): boolean {
  try {
    return f();
  } catch {
    return false;
  }
}

/** `lattice-laws`: join-semilattice with ⊥ and ⊤, consistent order, equality, encoding and factoring. */
export const latticeLaws: PropertySuite<LatticeLawCase, LatticeCtx> = {
  name: 'lattice-laws',
  caseKind: 'lattice-law',
  title: 'Lattice laws (spec §1): ⊔ is associative, commutative, idempotent with unit ⊥ and absorbing ⊤; ⊑ ⇔ ⊔; encodings round-trip; factoring laws',
  arbitrary: ({ lattice }) =>
    fc
      .tuple(labelPairArb(lattice), labelArb(lattice), labelCandidateArb(lattice))
      .map(([[a, b], c, v]) => ({ a, b, c, v })),
  check: judgeLaws,
  show: (c, { lattice }) => {
    const labels = `a=${safeShow(lattice, c.a)}, b=${safeShow(lattice, c.b)}, c=${safeShow(lattice, c.c)}, v=${showPlain(c.v)}`;
    const out = judgeLaws(c, { lattice });
    return out.ok ? labels : `${out.reason}\n  case: ${labels}`;
  },
  stats: (c, { lattice }) => ({
    distinct: safe(() => !lattice.equals(c.a, c.b)),
    incomparable: safe(() => !lattice.leq(c.a, c.b) && !lattice.leq(c.b, c.a)),
    'junk rejected': safe(() => lattice.toLabel(c.v) === undefined),
  }),
  // A decoder that accepts (almost) everything is not rejecting non-labels.
  thresholds: { 'junk rejected': 0.2 },
};

/** Options of `checkLattice`. */
export interface CheckLatticeOptions {
  readonly runs: number;
  readonly seed?: number;
  /** Replay path (fast-check's) and time limit, as in `RunOptions`. */
  readonly path?: string;
  readonly timeoutMs?: number;
  /** Progress: called after every case. */
  readonly onCase?: (cases: number) => void;
}

/** Run the lattice laws on `lattice` (what `llmbda check --lattice …` does). */
export function checkLattice(lattice: AnyLattice, opts: CheckLatticeOptions): Verdict<LatticeLawCase> {
  return runSuite(latticeLaws, { lattice }, { runs: opts.runs, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.path !== undefined ? { path: opts.path } : {}), ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.onCase ? { onCase: opts.onCase } : {}) });
}
