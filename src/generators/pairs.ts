/**
 * Related pairs `(C0, e0) ∼m (C1, e1)` (QuickChick's `Variation`), plus observer, pc, model and fuel:
 * everything one TIPNI-style check needs, as plain serialisable data.
 */
import fc from 'fast-check';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { isIMaximal } from '../lattice/lattice.ts';
import type { Conversation } from '../semantics/config.ts';
import { rawProgramArb, resolve, type Profile, type Side } from './programs.ts';
import { modelSpecArb, showModelSpec, type ModelSpec } from './models.ts';
import { showSkeleton } from './skeleton.ts';
import { prettyPrint } from '../syntax/printer.ts';

/**
 * Make a generated case print readably wherever fast-check prints it (plain `fc.assert` included):
 * programs in surface syntax, holes as `⟦l: run0 | run1⟧`. The method is non-enumerable, so the case
 * stays plain data for equality, JSON and the corpus.
 */
function printable<T extends object>(c: T, show: (c: T) => string): T {
  Object.defineProperty(c, fc.toStringMethod, { value: () => show(c), enumerable: false });
  return c;
}

/** Messages a generated conversation may already hold. */
const MESSAGES = ['hello', 'secret', '1', '0', 'send "x"', 'clear'] as const;

/** A generated conversation pair: shared when low, independent contents when high (`lc ⋢ m`). */
export interface ConvPair<L> {
  /** The label of run 0's conversation (and of run 1's, unless `label1` is given). */
  readonly label: L;
  /** Run 1's label when it differs: only when both are high (`⋢ m`), which `∼m` allows. */
  readonly label1?: L;
  readonly messages0: readonly string[];
  readonly messages1: readonly string[];
}

/** One case of a two-run property. */
export interface PairCase<L> {
  readonly obs: L;
  readonly pc: L;
  /** Shared low skeleton with high holes; see `resolve`. */
  readonly skeleton: Expr<L>;
  readonly conv: ConvPair<L>;
  readonly model: ModelSpec;
  readonly fuel: number;
}

export interface PairGenOptions<L> {
  readonly lat: Lattice<L>;
  readonly endorse: boolean;
  /** Only I-maximal observers (Theorem 2, Lemmas 11–12). */
  readonly iMaximalOnly?: boolean;
  readonly profile?: Profile;
  readonly deterministicModels?: boolean;
  /** Sub-distribution models: always, never (default), or `mixed` (half of the cases). */
  readonly subModels?: boolean | 'mixed';
  readonly maxDepth?: number;
  readonly fuel?: { readonly min: number; readonly max: number };
}

/** The program of one side. */
export function programOf<L>(c: PairCase<L>, side: Side): Expr<L> {
  return resolve(c.skeleton, side);
}

/** The starting conversation of one side. */
export function conversationOf<L>(c: PairCase<L>, side: Side): Conversation<L> {
  return { label: side === 0 ? c.conv.label : (c.conv.label1 ?? c.conv.label), messages: side === 0 ? c.conv.messages0 : c.conv.messages1 };
}

/** High conversations get different contents on the two sides (identical ones would test nothing). */
function differentMessages(a: readonly string[], b: readonly string[]): readonly string[] {
  return JSON.stringify(a) === JSON.stringify(b) ? [...b, 'secret'] : b;
}

/** Observers: every label (or only the I-maximal ones); ⊤ sees everything (trivially related runs), so rarely. */
function observerArb<L>(o: PairGenOptions<L>): fc.Arbitrary<L> {
  const all = o.lat.elements ?? [];
  const xs = o.iMaximalOnly ? all.filter((m) => isIMaximal(o.lat, m)) : all;
  const notTop = xs.filter((m) => !o.lat.equals(m, o.lat.top));
  if (notTop.length === 0) return fc.constantFrom(...xs);
  return fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...notTop) }, { weight: 1, arbitrary: fc.constant(o.lat.top) });
}

/** `observerArb`, for the test of `pairArb`'s per-observer reuse (see `pairGivenObserver`). */
export const pairObserverArb = observerArb;

/** Arbitrary related pairs, generated from one skeleton so that shrinking keeps them related. */
export function pairArb<L>(o: PairGenOptions<L>): fc.Arbitrary<PairCase<L>> {
  const fuel = o.fuel ?? { min: 12, max: 40 };
  // The arbitrary for the rest of a case depends on the observer only: built once per observer and reused
  // (arbitraries are stateless, so the cases generated from a seed are exactly those of a fresh one each time).
  const perObserver = new Map<L, fc.Arbitrary<PairCase<L>>>();
  return observerArb(o).chain((obs) => {
    let hit = perObserver.get(obs);
    if (!hit) { hit = pairGivenObserver(o, obs, fuel); perObserver.set(obs, hit); }
    return hit;
  });
}

/**
 * The rest of a pair case once its observer is drawn (exported for the test that `pairArb`'s per-observer
 * reuse generates exactly the cases of a fresh arbitrary per case).
 */
export function pairGivenObserver<L>(o: PairGenOptions<L>, obs: L, fuel: { readonly min: number; readonly max: number }): fc.Arbitrary<PairCase<L>> {
  const { lat } = o;
  const elems = lat.elements ?? [];
  {
    const below = elems.filter((l) => lat.leq(l, obs));
    const msgs = fc.array(fc.constantFrom(...MESSAGES), { maxLength: 2 });
    const highs = elems.filter((l) => !lat.leq(l, obs));
    const convArb: fc.Arbitrary<ConvPair<L>> = fc
      // ⊤ conversations let effects under a raised pc through the no-sensitive-upgrade checks
      .tuple(fc.oneof({ weight: 1, arbitrary: fc.constant(lat.bottom) }, { weight: 1, arbitrary: fc.constant(lat.top) }, { weight: 1, arbitrary: fc.constantFrom(...elems) }), msgs, msgs,
        highs.length > 0 ? fc.option(fc.constantFrom(...highs), { nil: undefined, freq: 2 }) : fc.constant(undefined))
      .map(([label, a, b, other]) => {
        if (lat.leq(label, obs)) return { label, messages0: a, messages1: a };
        // high conversations: independent contents, and sometimes a different (still high) label
        return { label, messages0: a, messages1: differentMessages(a, b), ...(other !== undefined && !lat.equals(other, label) ? { label1: other } : {}) };
      });
    return fc.record({
      obs: fc.constant(obs),
      // pc ⊑ m almost always: a high pc makes every low effect stuck or skipped
      pc: fc.oneof({ weight: 6, arbitrary: fc.constant(lat.bottom) }, { weight: 2, arbitrary: fc.constantFrom(...below) }, { weight: 1, arbitrary: fc.constantFrom(...elems) }),
      skeleton: rawProgramArb({ lat, obs, endorse: o.endorse, ...(o.profile ? { profile: o.profile } : {}), ...(o.maxDepth ? { maxDepth: o.maxDepth } : {}) }),
      conv: convArb,
      model: o.subModels === 'mixed'
        ? fc.oneof(modelSpecArb({ ...(o.deterministicModels ? { deterministic: true } : {}) }), modelSpecArb({ sub: true }))
        : modelSpecArb({ ...(o.subModels ? { sub: true } : {}), ...(o.deterministicModels ? { deterministic: true } : {}) }),
      fuel: fc.integer(fuel),
    }).map((c) => printable(c, (x) =>
      `m = ${lat.show(x.obs)}, pc = ${lat.show(x.pc)}, conv ${lat.show(x.conv.label)}${x.conv.label1 !== undefined ? `|${lat.show(x.conv.label1)}` : ''}, model ${showModelSpec(x.model)}, fuel ${x.fuel}: ${showSkeleton(lat, x.skeleton)}`));
  }
}

/** Single-run cases (Confinement, Lemma 2, Theorem 3): a pair's left side. */
export interface SingleCase<L> {
  readonly pc: L;
  readonly expr: Expr<L>;
  readonly conv: Conversation<L>;
  readonly model: ModelSpec;
  readonly fuel: number;
}

export function singleArb<L>(o: Omit<PairGenOptions<L>, 'iMaximalOnly'>): fc.Arbitrary<SingleCase<L>> {
  const { lat } = o;
  const elems = lat.elements ?? [lat.bottom];
  const fuel = o.fuel ?? { min: 12, max: 40 };
  return fc.record({
    // a single run is only constrained above ⊥ (Confinement); the tuned profile starts there more often
    pc: fc.oneof({ weight: (o.profile ?? 'tuned') === 'tuned' ? 1 : 3, arbitrary: fc.constant(lat.bottom) }, { weight: 1, arbitrary: fc.constantFrom(...elems) }),
    expr: rawProgramArb({ lat, endorse: o.endorse, ...(o.profile ? { profile: o.profile } : {}), ...(o.maxDepth ? { maxDepth: o.maxDepth } : {}) }).map((e) => resolve(e, 0)),
    conv: fc.record({
      label: fc.oneof({ weight: 1, arbitrary: fc.constant(lat.bottom) }, { weight: 1, arbitrary: fc.constant(lat.top) }, { weight: 1, arbitrary: fc.constantFrom(...elems) }),
      messages: fc.array(fc.constantFrom(...MESSAGES), { maxLength: 2 }),
    }),
    model: modelSpecArb({ ...(o.subModels ? { sub: true } : {}), ...(o.deterministicModels ? { deterministic: true } : {}) }),
    fuel: fc.integer(fuel),
  }).map((c) => printable(c, (x) => `pc = ${lat.show(x.pc)}, conv ${lat.show(x.conv.label)}, model ${showModelSpec(x.model)}, fuel ${x.fuel}: ${prettyPrint(x.expr, lat)}`));
}
