/**
 * The property suites run against a target (issue 13, part 4): TIPNI, Insulated TIPNI and differential
 * agreement with the reference semantics, on the same generated cases as the built-in suites, with each
 * side's distribution obtained by exact enumeration through the oracle. Targets may be asynchronous, so
 * these suites have their own runner (fast-check's async properties; same seed/path replay, shrinking).
 *
 * Cases using a construct the target masks (`Target.features`) are skipped and counted. Transport
 * failures (timeout, crash, garbage) are missing mass of the run, reported in the statistics.
 */
import fc from 'fast-check';
import * as Q from '../distributions/rational.ts';
import { equals, show as showDist } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import { forEachChild } from '../syntax/helpers.ts';
import { evaluate, type Evaluation } from '../semantics/evaluate.ts';
import { modelOf, showModelSpec, type ModelSpec } from '../generators/models.ts';
import { loadPrelude, parseResponse } from '../semantics/prelude.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { conversationOf, pairArb, programOf, singleArb, type PairCase, type SingleCase } from '../generators/pairs.ts';
import { compare, observe } from '../observe/indist.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { showConversation } from '../semantics/config.ts';
import { BudgetExceeded } from '../semantics/errors.ts';
import type { Profile } from '../generators/programs.ts';
import { fails, HOLDS, type CaseOutcome, type Verdict } from '../runner/suite.ts';
import { defaultSeed } from '../runner/seed.ts';
import { enumerate, lostKey, lostMass, type EnumerationLimits, type TargetDistribution } from './enumerate.ts';
import type { FeatureMask, Target } from './target.ts';
import { compatibilityTest, sampleClasses } from './statistical.ts';
import { hashString } from '../semantics/models/index.ts';
import { beat } from '../util/heartbeat.ts';
import { isUserCodeError } from '../util/user-code.ts';

/** Everything a target suite runs in. */
export interface TargetEnv<L> {
  readonly target: Target<L>;
  readonly profile: Profile;
  readonly maxDepth?: number;
  readonly limits?: EnumerationLimits;
}

/** A property suite judged by asynchronous enumeration of a target. */
export interface TargetSuite<Case> {
  readonly name: string;
  readonly title: string;
  readonly kind: 'pair' | 'single';
  arbitrary<L>(env: TargetEnv<L>): fc.Arbitrary<Case>;
  /** The program(s) of a case (for the feature mask and the construct classification). */
  programs(c: Case): readonly Expr<unknown>[];
  /** The code its model can answer with (for the feature mask). */
  responses<L>(c: Case, lat: Lattice<L>): readonly Expr<L>[];
  check<L>(c: Case, env: TargetEnv<L>): Promise<{ readonly outcome: CaseOutcome; readonly stats: Readonly<Record<string, boolean>> }>;
  show<L>(c: Case, env: TargetEnv<L>): string;
  readonly thresholds?: Readonly<Record<string, number>>;
}

/** The constructs of a program, `prim` split by primitive name (`prim binop_+`). */
export function constructs(e: Expr<unknown>, out = new Set<string>()): Set<string> {
  out.add(e.kind);
  if (e.kind === 'prim') out.add(`prim ${e.name}`);
  forEachChild(e, (c) => { constructs(c, out); });
  return out;
}

/**
 * The code a generated model can answer with (its response table, and for `echo` the fallback and the
 * starting messages), parsed as `recv` would: masked constructs in it make the case unrunnable too.
 * (An echo model can also answer with what the program itself sent; that is not known before the run.)
 */
export function responseCodes<L>(lat: Lattice<L>, spec: ModelSpec, messages: readonly string[]): Expr<L>[] {
  const rs = spec.kind === 'constant' ? spec.responses.map(([r]) => r) : spec.kind === 'hashed' ? spec.tables.flatMap((t) => t.map(([r]) => r)) : [spec.fallback, ...messages];
  const prelude = loadPrelude(lat);
  return rs.map((r) => parseResponse(r, lat, prelude));
}

/** The masked constructs a program uses (empty: the target can run it). */
export function maskedIn(mask: FeatureMask | undefined, e: Expr<unknown>): string[] {
  if (!mask) return [];
  const used = constructs(e);
  return [...(mask.kinds ?? []).filter((k) => used.has(k)), ...(mask.prims ?? []).filter((p) => used.has(`prim ${p}`)).map((p) => `prim ${p}`)];
}

const TRANSPORT: readonly ('timeout' | 'crash' | 'garbage' | 'nondeterministic')[] = ['timeout', 'crash', 'garbage', 'nondeterministic'];

function enumerateSide<L>(env: TargetEnv<L>, c: { model: PairCase<L>['model']; pc: L; fuel: number }, conv: SingleCase<L>['conv'], e: Expr<L>): Promise<TargetDistribution<L>> {
  return enumerate(env.target, modelOf(c.model), c.pc, conv, e, c.fuel, env.limits ?? { maxRuns: 500, maxOracleCalls: 32, timeoutMs: 5000 });
}

function showLost<L>(d: TargetDistribution<L>): string {
  return d.missing.length === 0 ? '' : ` (missing: ${d.missing.map((m) => `${lostKey(m.lost)} ${Q.show(m.weight)}`).join('; ')})`;
}

function showPairCase<L>(env: TargetEnv<L>, c: PairCase<L>): string {
  const lat = env.target.lattice;
  return [
    `target ${env.target.name}, lattice ${lat.name}, observer m = ${lat.show(c.obs)}, pc = ${lat.show(c.pc)}, fuel ${c.fuel}`,
    `model: ${showModelSpec(c.model)}`,
    `run 0: ${showConversation(lat, conversationOf(c, 0))} ⊢ ${prettyPrint(programOf(c, 0), lat)}`,
    `run 1: ${showConversation(lat, conversationOf(c, 1))} ⊢ ${prettyPrint(programOf(c, 1), lat)}`,
  ].join('\n');
}

function pairSuite(name: string, title: string, insulated: boolean): TargetSuite<PairCase<unknown>> {
  return {
    name, title, kind: 'pair',
    arbitrary: (env) => pairArb({
      lat: env.target.lattice, endorse: insulated || !env.target.lattice.factoring, ...(insulated ? { iMaximalOnly: true } : {}),
      profile: env.profile, ...(env.maxDepth ? { maxDepth: env.maxDepth } : {}),
    }) as fc.Arbitrary<PairCase<unknown>>,
    programs: (c) => [programOf(c, 0), programOf(c, 1)],
    responses: (c, lat) => responseCodes(lat, c.model, [...c.conv.messages0, ...c.conv.messages1]),
    check: async <L>(c0: PairCase<unknown>, env: TargetEnv<L>) => {
      const c = c0 as PairCase<L>;
      const lat = env.target.lattice;
      const d0 = await enumerateSide(env, c, conversationOf(c, 0), programOf(c, 0));
      const d1 = await enumerateSide(env, c, conversationOf(c, 1), programOf(c, 1));
      const mu0 = observe(lat, c.obs, d0.finals), mu1 = observe(lat, c.obs, d1.finals);
      const cmp = compare(mu0, mu1);
      const stats = {
        'raw outcomes differ': !equals(d0.finals, d1.finals),
        'positive mass': Q.lt(Q.ZERO, d0.mass) && Q.lt(Q.ZERO, d1.mass),
        'transport failure': Q.lt(Q.ZERO, Q.add(lostMass(d0, TRANSPORT), lostMass(d1, TRANSPORT))),
        'enumeration limit': Q.lt(Q.ZERO, Q.add(lostMass(d0, ['limit']), lostMass(d1, ['limit']))),
      };
      if (cmp.compatible) return { outcome: HOLDS, stats };
      return { outcome: fails(`observer distributions are incompatible: Σ max = ${Q.show(cmp.maxSum)} > 1\n  run 0: ${showDist(mu0)}${showLost(d0)}\n  run 1: ${showDist(mu1)}${showLost(d1)}`), stats };
    },
    show: (c, env) => showPairCase(env, c as PairCase<never>),
    thresholds: { 'positive mass': 1 / 3 },
  };
}

/** Theorem 1 (TIPNI) on the target. */
export const targetTipni = pairSuite('tipni', 'Theorem 1 (TIPNI) on the target: related inputs give compatible m-observations', false);
/** Theorem 2 (Insulated TIPNI) on the target. */
export const targetInsulatedTipni = pairSuite('insulated-tipni', 'Theorem 2 (Insulated TIPNI) on the target: I-maximal observers, endorse included', true);

/** The reference denotation of a single case (undefined when over the step budget: the case is not judged). */
function referenceOf<L>(env: TargetEnv<L>, c: SingleCase<L>): Evaluation<L> | undefined {
  try {
    return evaluate(modelOf(c.model), env.target.lattice, c.pc, c.conv, c.expr, c.fuel, { maxSteps: 20_000 });
  } catch (e) {
    if (e instanceof BudgetExceeded) return undefined;
    throw e;
  }
}

/**
 * Differential agreement: the target's exact distribution equals the reference `⟦·⟧` (finals with their
 * fractions, and the stuck mass). Judged only where the reference spends no mass out of fuel (fuel is a
 * toolkit notion a target may not share); the `judged` statistic counts those cases.
 */
export const targetDiff: TargetSuite<SingleCase<unknown>> = {
  name: 'diff',
  title: 'Differential agreement: the target\'s exact distribution equals the reference semantics',
  kind: 'single',
  arbitrary: (env) => singleArb({ lat: env.target.lattice, endorse: true, profile: env.profile, ...(env.maxDepth ? { maxDepth: env.maxDepth } : {}) }) as fc.Arbitrary<SingleCase<unknown>>,
  programs: (c) => [c.expr],
  responses: (c, lat) => responseCodes(lat, c.model, c.conv.messages),
  check: async <L>(c0: SingleCase<unknown>, env: TargetEnv<L>) => {
    const c = c0 as SingleCase<L>;
    const ref = referenceOf(env, c);
    const refFuel = ref ? ref.missing.filter((m) => m.failure.kind === 'fuel').reduce((a, m) => Q.add(a, m.weight), Q.ZERO) : Q.ONE;
    if (!ref || Q.lt(Q.ZERO, refFuel)) return { outcome: HOLDS, stats: { judged: false, 'positive mass': false } };
    const d = await enumerateSide(env, c, c.conv, c.expr);
    const stats = { judged: true, 'positive mass': Q.lt(Q.ZERO, ref.mass) };
    const refStuck = ref.missing.filter((m) => m.failure.kind === 'stuck').reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
    if (!equals(ref.finals, d.finals)) return { outcome: fails(`final distributions differ\n  reference: ${showDist(ref.finals)}\n  target:    ${showDist(d.finals)}${showLost(d)}`), stats };
    if (!Q.eq(refStuck, lostMass(d, ['stuck']))) {
      return { outcome: fails(`stuck mass differs: reference ${Q.show(refStuck)}, target ${Q.show(lostMass(d, ['stuck']))}${showLost(d)}`), stats };
    }
    return { outcome: HOLDS, stats };
  },
  show: <L>(c0: SingleCase<unknown>, env: TargetEnv<L>) => {
    const c = c0 as SingleCase<L>;
    const lat = env.target.lattice;
    return [`target ${env.target.name}, lattice ${lat.name}, pc = ${lat.show(c.pc)}, fuel ${c.fuel}`, `model: ${showModelSpec(c.model)}`,
      `program: ${showConversation(lat, c.conv)} ⊢ ${prettyPrint(c.expr, lat)}`].join('\n');
  },
  thresholds: { judged: 0.5 },
};

/** Samples per side and per-case error probability of the statistical TIPNI suite. */
export const STAT_SAMPLES = 100;
export const STAT_DELTA = 1e-6;

/**
 * TIPNI by sampling (statistical mode, `statistical.ts`), for targets that cannot be enumerated exactly:
 * each side is run `STAT_SAMPLES` times with oracles drawn from `μ_M`; a case fails only when the
 * two-sample test rejects compatibility, which is wrong with probability ≤ `STAT_DELTA` per case (so at
 * most N·δ over N cases). Opt-in: `--suite stat-tipni`.
 */
export const targetStatTipni: TargetSuite<PairCase<unknown>> = {
  ...targetTipni,
  name: 'stat-tipni',
  title: `Theorem 1 (TIPNI) by sampling: incompatibility rejected at error probability ≤ ${STAT_DELTA} per case`,
  check: async <L>(c0: PairCase<unknown>, env: TargetEnv<L>) => {
    const c = c0 as PairCase<L>;
    const model = modelOf(c.model);
    const seed = Number(BigInt.asUintN(31, BigInt(hashString(JSON.stringify([c.model, c.fuel, c.conv])))));
    const s0 = await sampleClasses(env.target, model, c.obs, c.pc, conversationOf(c, 0), programOf(c, 0), c.fuel, STAT_SAMPLES, seed);
    const s1 = await sampleClasses(env.target, model, c.obs, c.pc, conversationOf(c, 1), programOf(c, 1), c.fuel, STAT_SAMPLES, seed + 1);
    const t = compatibilityTest(s0, s1, STAT_DELTA);
    const stats = { 'positive mass': s0.some((q) => q !== undefined) && s1.some((q) => q !== undefined) };
    if (!t.rejected) return { outcome: HOLDS, stats };
    return { outcome: fails(`observer distributions are incompatible (sampled: μ0(A) + μ1(Aᶜ) ≈ ${t.statistic.toFixed(3)} > ${t.threshold.toFixed(3)}; error probability ≤ ${STAT_DELTA})`), stats };
  },
  thresholds: { 'positive mass': 1 / 3 },
};

/** A target suite of unknown case type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTargetSuite = TargetSuite<any>;

/** The suites `llmbda check --target` runs, in order. */
export const TARGET_SUITES: readonly AnyTargetSuite[] = [targetTipni, targetInsulatedTipni, targetDiff];

/** Every target suite by name, the opt-in ones included. */
export function targetSuiteByName(name: string): AnyTargetSuite | undefined {
  return [...TARGET_SUITES, targetStatTipni as AnyTargetSuite].find((s) => s.name === name);
}

/** A target verdict: the built-in verdict plus the masked-case count and the construct class of a failure. */
export type TargetVerdict<Case> = Verdict<Case> & {
  /** Generated cases skipped because they use a construct the target masks, by construct. */
  readonly masked: Readonly<Record<string, number>>;
  /** The constructs of the minimised counterexample (its classification). */
  readonly constructs?: readonly string[];
};

export interface TargetRunOptions<Case> {
  readonly runs: number;
  readonly seed?: number;
  readonly path?: string;
  readonly examples?: readonly Case[];
  readonly noShrink?: boolean;
  readonly timeoutMs?: number;
  /** Called at the first failing case, before shrinking (what an interrupted hunt can still print). */
  readonly onFailure?: (c: Case, reason: string, testsToFailure: number) => void;
}

/** Run a target suite; replayable from `seed` and `path` like `runSuite`. */
export async function runTargetSuite<Case, L>(suite: TargetSuite<Case>, env: TargetEnv<L>, opts: TargetRunOptions<Case>): Promise<TargetVerdict<Case>> {
  const seed = opts.seed ?? defaultSeed();
  const counts: Record<string, number> = {};
  const masked: Record<string, number> = {};
  const reasons = new Map<Case, string>();
  let seen = 0, firstFailureAt = 0;
  const started = performance.now();
  let userFailure: string | undefined;
  const prop = fc.asyncProperty(suite.arbitrary(env), async (c) => {
    beat();
    // After the target's own code failed the run is over: every further case (a shrink candidate) passes,
    // so fast-check stops at once instead of shrinking the user's exception (as runSuite does).
    if (userFailure !== undefined) return true;
    const m = env.target.features ? [...suite.programs(c), ...suite.responses(c, env.target.lattice)].flatMap((e) => maskedIn(env.target.features, e as Expr<unknown>)) : [];
    if (m.length > 0) {
      if (firstFailureAt === 0) for (const k of new Set(m)) masked[k] = (masked[k] ?? 0) + 1;
      fc.pre(false);
    }
    let judged: Awaited<ReturnType<typeof suite.check>>;
    try {
      judged = await suite.check(c, env);
    } catch (e) {
      if (isUserCodeError(e)) { userFailure = e.message; return false; }
      throw e;
    }
    const { outcome, stats } = judged;
    if (firstFailureAt === 0) {
      seen++;
      for (const [k, b] of Object.entries(stats)) counts[k] = (counts[k] ?? 0) + (b ? 1 : 0);
    }
    if (!outcome.ok) {
      reasons.set(c, outcome.reason);
      if (firstFailureAt === 0) { firstFailureAt = seen; opts.onFailure?.(c, outcome.reason, seen); }
      return false;
    }
    return true;
  });
  const details = await fc.check(prop, {
    numRuns: opts.runs, seed, maxSkipsPerRun: 1000,
    ...(opts.path !== undefined ? { path: opts.path } : {}),
    ...(opts.examples ? { examples: opts.examples.map((e) => [e] as [Case]) } : {}),
    ...(opts.timeoutMs !== undefined ? { interruptAfterTimeLimit: opts.timeoutMs, markInterruptAsFailure: false } : {}),
    ...(opts.noShrink ? { endOnFailure: true } : {}),
  });
  const stats: Record<string, number> = {};
  for (const [k, n] of Object.entries(counts)) stats[k] = seen === 0 ? 0 : n / seen;
  const vacuous = details.failed || !suite.thresholds ? [] : Object.entries(suite.thresholds).filter(([k, t]) => (stats[k] ?? 0) < t).map(([k, t]) => `${k}: ${(stats[k] ?? 0).toFixed(3)} < ${t}`);
  if (userFailure === undefined && details.failed && isUserCodeError(details.errorInstance)) userFailure = details.errorInstance.message;
  const base = { suite: suite.name, title: suite.title, runs: seen, seed, timeMs: performance.now() - started, stats, discarded: Object.values(masked).reduce((a, b) => a + b, 0), masked };
  if (userFailure !== undefined) return { ...base, stats: {}, status: 'error', ok: false, vacuous: [], error: userFailure, userCode: true };
  if (details.failed && details.counterexample) {
    const value = details.counterexample[0];
    const thrown = details.errorInstance;
    const reason = reasons.get(value) ?? (thrown instanceof Error ? `exception: ${thrown.message}` : 'property failed');
    const cls = [...new Set(suite.programs(value).flatMap((e) => [...constructs(e)]))].filter((k) => !['num', 'str', 'bool', 'null', 'var', 'label', 'record', 'array', 'prim'].includes(k)).sort();
    return {
      ...base, status: 'fails', ok: false, vacuous: [], constructs: cls,
      counterexample: { value, reason, pretty: suite.show(value, env), seed, path: details.counterexamplePath ?? '', testsToFailure: firstFailureAt || details.numRuns, shrinks: details.numShrinks },
      ...(reasons.has(value) ? {} : { error: reason }),
    };
  }
  return vacuous.length === 0 ? { ...base, status: 'holds', ok: true, vacuous: [] } : { ...base, status: 'vacuous', ok: false, vacuous };
}
