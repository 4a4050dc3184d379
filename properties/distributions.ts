/**
 * Laws of exact sub-distributions (spec §5, §6 Lemmas 4 and 5) as a property suite: the monad laws
 * up to `equals`, bind loses no mass it should keep and gains none, compatibility agrees with an
 * explicit dominating witness, and the two lemmas TIPNI's meaning rests on.
 *
 * The implementation is part of the context, so the suite can be run against a deliberately broken
 * one (see test/distributions-laws.test.ts).
 */
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import * as D from '../src/distributions/subdist.ts';
import type { Key, SubDist } from '../src/distributions/subdist.ts';
import { HOLDS, fails, runSuite } from '../src/runner/suite.ts';
import type { CaseOutcome, PropertySuite, Verdict } from '../src/runner/suite.ts';

/** The sub-distribution operations under test. */
export interface SubDistImpl {
  readonly zero: typeof D.zero;
  readonly dirac: typeof D.dirac;
  readonly fromEntries: typeof D.fromEntries;
  readonly entries: typeof D.entries;
  readonly weightOf: typeof D.weightOf;
  readonly bind: typeof D.bind;
  readonly mass: typeof D.mass;
  readonly divergence: typeof D.divergence;
  readonly leq: typeof D.leq;
  readonly equals: typeof D.equals;
  readonly compatible: typeof D.compatible;
  readonly distance: typeof D.distance;
  readonly show: typeof D.show;
}

/** The shipped implementation (src/distributions/subdist.ts). */
export const REFERENCE_SUBDIST: SubDistImpl = {
  zero: D.zero,
  dirac: D.dirac,
  fromEntries: D.fromEntries,
  entries: D.entries,
  weightOf: D.weightOf,
  bind: D.bind,
  mass: D.mass,
  divergence: D.divergence,
  leq: D.leq,
  equals: D.equals,
  compatible: D.compatible,
  distance: D.distance,
  show: D.show,
};

/** The context: which implementation to check. */
export interface DistCtx {
  readonly impl: SubDistImpl;
}

/** Outcomes of generated distributions: strings and numbers, with `"1"` and `1` kept apart. */
export type DistOutcome = string | number;

/** The canonical key of an `DistOutcome`: its type and value. */
export const outcomeKey: Key<DistOutcome> = (x) => (typeof x === 'number' ? `n:${x}` : `s:${x}`);

/** The outcome domain of generated distributions and Kleisli arrows. */
export const DOMAIN: readonly DistOutcome[] = ['a', 'b', '1', 0, 1, 2];

/** A Kleisli arrow `DistOutcome → SubDist<DistOutcome>` as a table (outcomes outside it map to 0). */
export type Kleisli = ReadonlyMap<string, SubDist<DistOutcome>>;

/** One case: two distributions, a point, and two arrows. */
export interface DistCase {
  readonly mu: SubDist<DistOutcome>;
  readonly nu: SubDist<DistOutcome>;
  readonly x: DistOutcome;
  readonly f: Kleisli;
  readonly g: Kleisli;
}

/**
 * Raw weights of a sub-distribution: integer numerators `cᵢ` on domain indices and a slack `c₀`; the
 * weights are `cᵢ / (c₀ + Σcᵢ)`, so the total is ≤ 1 by construction (= 1 exactly when `c₀ = 0`).
 */
type RawDist = { readonly items: readonly (readonly [number, number])[]; readonly slack: number };

const rawDistArb: fc.Arbitrary<RawDist> = fc.record({
  items: fc.array(fc.tuple(fc.nat({ max: DOMAIN.length - 1 }), fc.nat({ max: 6 })), { maxLength: 4 }),
  // Full distributions (slack 0) two times in three: Lemma 4 is about them.
  slack: fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, { arbitrary: fc.nat({ max: 6 }), weight: 1 }),
});

function build(impl: SubDistImpl, raw: RawDist): SubDist<DistOutcome> {
  const total = raw.items.reduce((s, [, c]) => s + c, raw.slack);
  if (total === 0) return impl.zero(outcomeKey);
  return impl.fromEntries(
    raw.items.map(([i, c]) => [DOMAIN[i]!, Q.rat(c, total)] as const),
    outcomeKey,
  );
}

/** `ω` scaled pointwise by factors `k/4` (k ≤ 4): dominated by `ω`, so two of them are compatible. */
function dominated(impl: SubDistImpl, omega: SubDist<DistOutcome>, factors: readonly number[] | null): SubDist<DistOutcome> {
  if (factors === null) return omega;
  return impl.fromEntries(
    impl.entries(omega).map(([x, w], i) => [x, Q.mul(w, Q.rat(factors[i % factors.length]!, 4))] as const),
    outcomeKey,
  );
}

const factorsArb = fc.option(fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 4 }), { freq: 2 });

/** Print a distribution with outcomes as literals (`"1"` vs `1`). */
function showD(impl: SubDistImpl, d: SubDist<DistOutcome>): string {
  return impl.show(d, (x) => JSON.stringify(x));
}

/** Apply a Kleisli table. */
function apply(impl: SubDistImpl, f: Kleisli, x: DistOutcome): SubDist<DistOutcome> {
  return f.get(outcomeKey(x)) ?? impl.zero(outcomeKey);
}

/** The pointwise maximum and its mass, computed here from `entries` and `weightOf` alone. */
function explicitMax(impl: SubDistImpl, mu: SubDist<DistOutcome>, nu: SubDist<DistOutcome>): { omega: SubDist<DistOutcome>; mass: Q.Rational } {
  const seen = new Map<string, readonly [DistOutcome, Q.Rational]>();
  for (const [x] of [...impl.entries(mu), ...impl.entries(nu)]) {
    seen.set(outcomeKey(x), [x, Q.max(impl.weightOf(mu, x), impl.weightOf(nu, x))]);
  }
  let mass = Q.ZERO;
  for (const [, w] of seen.values()) mass = Q.add(mass, w);
  return { omega: impl.fromEntries(seen.values(), outcomeKey), mass };
}

/** A law: `undefined` when it holds, else the reason. */
type Law = (impl: SubDistImpl, c: DistCase) => string | undefined;

/** The laws, in reporting order. */
export const DIST_LAWS: readonly { readonly name: string; readonly law: Law }[] = [
  {
    name: 'left-identity',
    law: (impl, { x, f }) => {
      const l = impl.bind(impl.dirac(x, outcomeKey), (y) => apply(impl, f, y), outcomeKey);
      const r = apply(impl, f, x);
      return impl.equals(l, r) ? undefined : `left identity fails: δ(x) >>= f = ${showD(impl, l)} but f(x) = ${showD(impl, r)}`;
    },
  },
  {
    name: 'right-identity',
    law: (impl, { mu }) => {
      const l = impl.bind(mu, (y) => impl.dirac(y, outcomeKey), outcomeKey);
      return impl.equals(l, mu) ? undefined : `right identity fails: μ >>= δ = ${showD(impl, l)} but μ = ${showD(impl, mu)}`;
    },
  },
  {
    name: 'associativity',
    law: (impl, { mu, f, g }) => {
      const fk = (y: DistOutcome) => apply(impl, f, y);
      const gk = (y: DistOutcome) => apply(impl, g, y);
      const l = impl.bind(impl.bind(mu, fk, outcomeKey), gk, outcomeKey);
      const r = impl.bind(mu, (y) => impl.bind(fk(y), gk, outcomeKey), outcomeKey);
      return impl.equals(l, r)
        ? undefined
        : `bind is not associative: (μ >>= f) >>= g = ${showD(impl, l)} but μ >>= (λx. f x >>= g) = ${showD(impl, r)}`;
    },
  },
  {
    name: 'bind-mass',
    law: (impl, { mu, f }) => {
      const b = impl.bind(mu, (y) => apply(impl, f, y), outcomeKey);
      const mb = impl.mass(b);
      return Q.le(mb, impl.mass(mu))
        ? undefined
        : `bind creates mass: mass(μ >>= f) = ${Q.show(mb)} > mass(μ) = ${Q.show(impl.mass(mu))} (μ >>= f = ${showD(impl, b)})`;
    },
  },
  {
    name: 'compatible-witness',
    law: (impl, { mu, nu }) => {
      const { omega, mass } = explicitMax(impl, mu, nu);
      const witnessed = Q.le(mass, Q.ONE);
      const said = impl.compatible(mu, nu);
      if (said !== witnessed) {
        return `compatible disagrees with the witness: compatible(μ, ν) = ${said} but the pointwise max ${showD(impl, omega)} has mass ${Q.show(mass)}`;
      }
      if (!impl.leq(mu, omega) || !impl.leq(nu, omega)) {
        return `the pointwise max ${showD(impl, omega)} does not dominate both (leq says μ ≤ ω: ${impl.leq(mu, omega)}, ν ≤ ω: ${impl.leq(nu, omega)})`;
      }
      return undefined;
    },
  },
  {
    name: 'lemma5',
    law: (impl, { mu, nu }) => {
      if (!impl.compatible(mu, nu)) return undefined;
      const d = impl.distance(mu, nu);
      const bound = Q.div(Q.add(impl.divergence(mu), impl.divergence(nu)), Q.rat(2));
      return Q.le(d, bound)
        ? undefined
        : `Lemma 5 fails: μ ⌣ ν but Δ(μ, ν) = ${Q.show(d)} > (div μ + div ν)/2 = ${Q.show(bound)}`;
    },
  },
  {
    name: 'lemma4',
    law: (impl, { mu, nu }) => {
      if (!impl.compatible(mu, nu) || !Q.eq(impl.mass(mu), Q.ONE) || !Q.eq(impl.mass(nu), Q.ONE)) return undefined;
      return impl.equals(mu, nu) ? undefined : `Lemma 4 fails: μ ⌣ ν, both of mass 1, but μ ≠ ν`;
    },
  },
  {
    name: 'distance-metric',
    law: (impl, { mu, nu }) => {
      const d1 = impl.distance(mu, nu);
      const d2 = impl.distance(nu, mu);
      if (!Q.eq(d1, d2)) return `distance is not symmetric: Δ(μ, ν) = ${Q.show(d1)} but Δ(ν, μ) = ${Q.show(d2)}`;
      const d0 = impl.distance(mu, mu);
      return Q.isZero(d0) ? undefined : `Δ(μ, μ) = ${Q.show(d0)} ≠ 0`;
    },
  },
];

function judgeDistLaws(c: DistCase, ctx: DistCtx): CaseOutcome {
  for (const { name, law } of DIST_LAWS) {
    let reason: string | undefined;
    try {
      reason = law(ctx.impl, c);
    } catch (e) {
      reason = `${name}: threw ${e instanceof Error ? e.message : String(e)}`;
    }
    if (reason !== undefined) return fails(reason);
  }
  return HOLDS;
}

function showKleisli(impl: SubDistImpl, f: Kleisli): string {
  return `{${DOMAIN.map((y) => [y, apply(impl, f, y)] as const).map(([k, d]) => `${JSON.stringify(k)} ↦ ${showD(impl, d)}`).join(', ')}}`;
}

/** `distributions`: monad laws, mass, compatibility, Lemmas 4 and 5. */
export const distributionLaws: PropertySuite<DistCase, DistCtx> = {
  name: 'distributions',
  caseKind: 'distributions',
  title: 'Sub-distribution laws: monad laws up to equals, mass(μ >>= f) ≤ mass(μ), μ ⌣ ν ⇔ Σ max ≤ 1, Lemma 4, Lemma 5',
  arbitrary: ({ impl }) =>
    fc
      .record({
        independent: fc.boolean(),
        mu: rawDistArb,
        nu: rawDistArb,
        muFactors: factorsArb,
        nuFactors: factorsArb,
        x: fc.nat({ max: DOMAIN.length - 1 }),
        f: fc.array(rawDistArb, { minLength: DOMAIN.length, maxLength: DOMAIN.length }),
        g: fc.array(rawDistArb, { minLength: DOMAIN.length, maxLength: DOMAIN.length }),
      })
      .map((r) => {
        const mu0 = build(impl, r.mu);
        // Half the pairs are independent; the other half are both dominated by one ω (so compatible).
        const mu = r.independent ? mu0 : dominated(impl, mu0, r.muFactors);
        const nu = r.independent ? build(impl, r.nu) : dominated(impl, mu0, r.nuFactors);
        const table = (raws: readonly RawDist[]): Kleisli => new Map(DOMAIN.map((y, i) => [outcomeKey(y), build(impl, raws[i]!)]));
        return { mu, nu, x: DOMAIN[r.x]!, f: table(r.f), g: table(r.g) };
      }),
  check: judgeDistLaws,
  show: (c, { impl }) => {
    const lines = [
      `μ = ${showD(impl, c.mu)}`,
      `ν = ${showD(impl, c.nu)}`,
      `x = ${JSON.stringify(c.x)}`,
      `f = ${showKleisli(impl, c.f)}`,
      `g = ${showKleisli(impl, c.g)}`,
    ];
    const out = judgeDistLaws(c, { impl });
    return (out.ok ? '' : `${out.reason}\n`) + lines.map((l) => `  ${l}`).join('\n');
  },
  stats: (c, { impl }) => {
    const { mass } = explicitMax(impl, c.mu, c.nu);
    const compat = Q.le(mass, Q.ONE);
    const full = (d: SubDist<DistOutcome>): boolean => Q.eq(impl.mass(d), Q.ONE);
    return {
      compatible: compat,
      incompatible: !compat,
      'both mass 1': full(c.mu) && full(c.nu),
      'compatible, both mass 1': compat && full(c.mu) && full(c.nu),
      'compatible, some mass missing': compat && !(full(c.mu) && full(c.nu)),
      'μ has ≥ 2 outcomes': impl.entries(c.mu).length >= 2,
    };
  },
  thresholds: {
    compatible: 0.3,
    incompatible: 0.1,
    'both mass 1': 0.15,
    'compatible, both mass 1': 0.05,
    'compatible, some mass missing': 0.2,
    'μ has ≥ 2 outcomes': 0.3,
  },
};

/** Options of `checkDistributions`. */
export interface CheckDistributionsOptions {
  readonly runs: number;
  readonly seed?: number;
  /** Replay path (fast-check's) and time limit, as in `RunOptions`. */
  readonly path?: string;
  readonly timeoutMs?: number;
  /** Progress: called after every case. */
  readonly onCase?: (cases: number) => void;
  /** The implementation to check (default: the shipped one). */
  readonly impl?: SubDistImpl;
}

/** Run the distribution laws. */
export function checkDistributions(opts: CheckDistributionsOptions): Verdict<DistCase> {
  return runSuite(
    distributionLaws,
    { impl: opts.impl ?? REFERENCE_SUBDIST },
    { runs: opts.runs, ...(opts.seed !== undefined ? { seed: opts.seed } : {}), ...(opts.path !== undefined ? { path: opts.path } : {}), ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.onCase ? { onCase: opts.onCase } : {}) },
  );
}
