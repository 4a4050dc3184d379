/**
 * Hunting: run the suite a variant is expected to break (or any suite) with the suites' own generators,
 * stop at the first failure, shrink it (fast-check on the pair case, then the minimiser), and hand back
 * a report a person can read plus a corpus entry that replays it (saved only when `save` names a
 * folder). And replaying: judge a saved case under the reference semantics and under its variant.
 * Lattices, variants, suites and primitives are accepted as objects or as names/paths.
 */
import type { AnyLattice } from '../lattice/lattice.ts';
import { SHIPPED_LATTICES } from '../lattice/registry.ts';
import { runSuite, judge } from '../runner/suite.ts';
import { drive, type HuntTarget, type Searched } from '../runner/hunt.ts';
import { defaultSeed } from '../runner/seed.ts';
import type { LlmbdaCtx, LlmbdaSuite } from '../llmbda/context.ts';
import type { PrimTable } from '../semantics/model.ts';
import type { Variant } from '../variants/variant.ts';
import { UserError } from '../util/absurd.ts';
import { variantCtx, referenceCtxWith, loadVariant, suiteRefusal, type PrimExtension } from '../llmbda/variant-ctx.ts';
import { entryCase, entryFilePath, isModuleFile, loadEntry, saveFinding, type CorpusEntry, type ExpectedOutcome, type SaveOutcome } from '../llmbda/corpus.ts';
import { injectPrimCalls, loadPrimsFile, primContract } from '../llmbda/prims.ts';
import { describeFinding, finishFinding, type Described, type Finding, type Found } from '../llmbda/hunt.ts';
import { UserCodeError } from '../util/user-code.ts';
import { pairCaseReport, singleCaseReport, type CaseExplanation, type ReportHeader } from '../llmbda/report.ts';
import { allSuiteNames, suiteNamed } from './registry.ts';
import { latticeOf, suiteOf, variantLabel, variantOf, type LatticeSpec, type SuiteSpec, type VariantSpec } from './resolve.ts';

export type { Finding } from '../llmbda/hunt.ts';

/** Cases of the primEval contract checked before the suites when a hunt adds primitives. */
const CONTRACT_RUNS = 1000;

/** Options of `hunt` (the `llmbda hunt` flags). */
export interface HuntOptions {
  /** A `Variant` object, or a catalogue name, `reference`, or a variant `.ts` file. */
  readonly variant: VariantSpec;
  /** Lattices to hunt on, in order, as objects or names/files (default: the variant's `leaksOn`, then the other shipped lattices). */
  readonly lattices?: readonly LatticeSpec[];
  /** A suite (object or name) or `all` (default: the variant's `expected.caughtBy`, else `tipni`). */
  readonly suite?: SuiteSpec;
  /** Search time budget in ms, shared by every (suite, lattice) (default 30 s, or none when `runs` is given). Shrinking is extra. */
  readonly timeMs?: number;
  readonly seed?: number;
  /**
   * Most cases per (suite, lattice) (default: unbounded, the time budget decides). Given without
   * `timeMs`, the hunt is deterministic: no clock bounds the search or the minimiser.
   */
  readonly runs?: number;
  /** A `--prims` module: extra primitives, called by the generated programs. */
  readonly primsFile?: string;
  /** Extra primitives given directly (programmatic use). */
  readonly prims?: PrimTable;
  /** Evaluation steps per run before a case is discarded as too expensive (default: the suites' own budget). */
  readonly maxSteps?: number;
  /** Run the minimiser after fast-check's shrinking (default true), with this budget (default 10 s). */
  readonly minimise?: boolean;
  readonly minimiseMs?: number;
  /** Folder to save the counterexample in; nothing is written without it. */
  readonly save?: string;
  /**
   * The folder the caller will save entries in itself (e.g. the CLI, outside the hunt's worker): user
   * files are recorded relative to it, as with `save`, without the hunt writing anything.
   */
  readonly entryDir?: string;
  /**
   * Progress, as it happens: the first failing case the moment it is found (`found`), then each
   * smaller one shrinking and minimising reach (`improved`), as a corpus entry and a report. A caller
   * (the CLI) shows and saves these, so an interrupted hunt keeps its best finding.
   */
  readonly onProgress?: (ev: HuntProgress) => void;
  /** Called after every generated case with the count so far (progress lines). */
  readonly onCase?: (tried: number) => void;
}

/** A finding in progress (see `HuntOptions.onProgress`). */
export interface HuntProgress {
  readonly kind: 'found' | 'improved';
  readonly suite: string;
  readonly lattice: string;
  readonly size: number;
  readonly entry: CorpusEntry;
  readonly report: string;
}

/** Cases a (suite, lattice) must survive for a hunt to give a clean bill, unless its suite states its own `power`. */
export const CLEAN_BILL_CASES = 200;

/** Minimiser budget of a `runs`-budgeted hunt, in judgements (deterministic, unlike time). */
export const DETERMINISTIC_MINIMISE_CHECKS = 3000;

/** The result of a hunt. */
export interface HuntResult {
  readonly found: boolean;
  /**
   * `found` (exit 1), `clean` (every target ran at least its suite's power in cases: exit 0), or
   * `inconclusive` (the budget ended first: too few cases to call it clean; exit 4).
   */
  readonly status: 'found' | 'clean' | 'inconclusive';
  readonly variant: string;
  /** Cases generated over every (suite, lattice) searched. */
  readonly tried: number;
  readonly timeMs: number;
  readonly seed: number;
  /** What was searched: (suite, lattice, cases, ms). */
  readonly searched: readonly { readonly suite: string; readonly lattice: string; readonly cases: number; readonly ms: number }[];
  readonly finding?: Finding;
  /** With extra primitives: a case where one breaks the primEval contract (checked before the suites). */
  readonly contractViolation?: { readonly reason: string; readonly pretty: string; readonly seed: number; readonly path: string };
  /** Suites `all` left out because they cannot judge this variant (see `suiteRefusal`), with why. */
  readonly skipped: readonly { readonly suite: string; readonly reason: string }[];
  /** The human-readable report (a clean bill when nothing was found). */
  readonly report: string;
}

/** The suites a hunt runs for a variant. */
export function huntSuites(v: Variant, suite?: SuiteSpec): LlmbdaSuite[] {
  if (suite === 'all') return allSuiteNames().map(suiteNamed);
  return [suiteOf(suite ?? v.expected?.caughtBy ?? 'tipni')];
}

/** The lattices a hunt tries, in order: the variant's `leaksOn` first, then the other shipped lattices. */
export function huntLattices(v: Variant, lattices?: readonly LatticeSpec[]): LatticeSpec[] {
  if (lattices && lattices.length > 0) return [...lattices];
  const leaks = v.expected?.leaksOn ?? [];
  return [...leaks, ...SHIPPED_LATTICES.filter((l) => !leaks.includes(l))];
}

/** The suite with its generator calling the extra primitives. */
export function withInjectedPrims(suite: LlmbdaSuite, prims: PrimTable | undefined): LlmbdaSuite {
  if (!prims) return suite;
  return { ...suite, arbitrary: (ctx) => injectPrimCalls(suite.arbitrary(ctx), Object.keys(prims)) };
}

const toSearched = (s: Searched) => ({ suite: s.suite, lattice: s.label, cases: s.cases, ms: s.ms });

/** Hunt for a counterexample. Never throws for a property violation: a finding is data. */
export async function hunt(opts: HuntOptions): Promise<HuntResult> {
  const variant = await variantOf(opts.variant);
  const variantSpec = variantLabel(opts.variant);
  const prims = opts.prims ?? (opts.primsFile ? await loadPrimsFile(opts.primsFile) : undefined);
  const ext: PrimExtension | undefined = prims ? { prims } : undefined;
  // Theorem 3 compares against peval, which reads the model's own primitive table, not the extension.
  const wanted = huntSuites(variant, opts.suite).filter((x) => !(prims && x.name === 'theorem3'));
  if (wanted.length === 0) throw new UserError('theorem3 cannot check added primitives: peval, its independent interpreter, only knows the model\'s own table');
  // A suite that cannot judge this variant is refused when named, and left out (and said so) under `all`.
  const skipped = wanted.flatMap((s) => { const reason = suiteRefusal(s, variant, { named: opts.suite !== 'all' }); return reason ? [{ suite: s.name, reason }] : []; });
  if (skipped.length > 0 && opts.suite !== 'all') throw new UserError(skipped[0]!.reason);
  const suites = wanted.filter((s) => !skipped.some((k) => k.suite === s.name));
  const lattices: AnyLattice[] = [];
  // The source file of each lattice given as a file: a saved entry records it, a replay line names it.
  const latticeFiles = new Map<AnyLattice, string>();
  for (const l of huntLattices(variant, opts.lattices)) {
    const lat = await latticeOf(l);
    lattices.push(lat);
    if (typeof l === 'string' && isModuleFile(l)) latticeFiles.set(lat, l);
  }
  const seed = opts.seed ?? defaultSeed();
  // A runs budget alone is deterministic: no clock decides how far the search or the minimiser goes.
  const budget = opts.timeMs ?? (opts.runs !== undefined ? Infinity : 30_000);
  const deterministic = opts.timeMs === undefined && opts.runs !== undefined;
  const budgetFlags = [...(opts.runs !== undefined ? [`--runs ${opts.runs}`] : []), ...(opts.timeMs !== undefined ? [`--time ${opts.timeMs}ms`] : [])].join(' ');
  const started = performance.now();
  const searched: HuntResult['searched'][number][] = [];
  let tried = 0;
  const targets: HuntTarget<unknown, LlmbdaCtx<unknown>>[] = suites.flatMap((s) =>
    lattices.map((lat) => ({ suite: withInjectedPrims(s, prims), ctx: { ...variantCtx(lat, variant, ext), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}) }, label: lat.name })));
  if (prims) {
    // The contract first: it is cheap, and a primitive that breaks it makes every other verdict moot.
    const t0 = performance.now();
    const v = runSuite(primContract, { prims }, { runs: CONTRACT_RUNS, seed, ...(budget === Infinity ? {} : { timeoutMs: Math.max(100, budget / (targets.length + 1)) }) });
    tried += v.runs;
    searched.push({ suite: primContract.name, lattice: '-', cases: v.runs, ms: performance.now() - t0 });
    const cx = v.counterexample;
    if (cx) {
      const report = [
        `PRIMITIVE REJECTED: ${primContract.title}`,
        `  after ${cx.testsToFailure} generated case${cx.testsToFailure === 1 ? '' : 's'}, shrunk ${cx.shrinks} time${cx.shrinks === 1 ? '' : 's'}`,
        `  calls: ${cx.pretty}`,
        `  why:   ${cx.reason}`,
        `Seed ${seed}, path ${cx.path}`,
        `Replay: npx llmbda hunt --variant ${variantSpec} --prims ${opts.primsFile ?? '<table>'} --seed ${seed}`,
      ].join('\n');
      return { found: true, status: 'found', variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, skipped, contractViolation: { reason: cx.reason, pretty: cx.pretty, seed, path: cx.path }, report };
    }
  }
  const left = Math.max(0, budget - (performance.now() - started));
  const finishOpts = {
    variantSpec, ...(opts.primsFile ? { primsFile: opts.primsFile } : {}), ...(opts.minimise !== undefined ? { minimise: opts.minimise } : {}),
    ...(opts.minimiseMs !== undefined ? { minimiseMs: opts.minimiseMs } : {}), ...(deterministic ? { minimiseChecks: DETERMINISTIC_MINIMISE_CHECKS } : {}),
    ...(budgetFlags ? { budgetFlags } : {}), ...(opts.save !== undefined ? { saveDir: opts.save } : opts.entryDir !== undefined ? { saveDir: opts.entryDir } : {}),
  };
  /** The finish options for a target: its lattice's source file when it came from a user file. */
  const finishFor = (lat: unknown) => (latticeFiles.has(lat as never) ? { ...finishOpts, latticeFile: latticeFiles.get(lat as never)! } : finishOpts);
  const progress = opts.onProgress;
  // Progress during fast-check's shrinking: the first failing case at once, then at most every 300 ms.
  let lastEmit = 0;
  let foundAt = 0;
  const onFailure = progress ? (t: HuntTarget<never, never>, c: unknown, reason: string, at: { testsToFailure: number; timeToFailureMs: number }): void => {
    const now = performance.now();
    if (foundAt > 0 && now - lastEmit < 300) return;
    const target = t as unknown as HuntTarget<unknown, LlmbdaCtx<unknown>>;
    const d = describeFinding(finishFor(target.ctx.lat), variant, target.suite as LlmbdaSuite, target.ctx, c as never,
      { suite: target.suite.name, lattice: target.label, seed, path: '', testsToFailure: at.testsToFailure, timeToFailureMs: at.timeToFailureMs, shrinks: 0, shrinkMs: 0, reason });
    progress({ kind: foundAt === 0 ? 'found' : 'improved', suite: target.suite.name, lattice: target.label, size: d.size, entry: d.entry, report: d.report });
    if (foundAt === 0) foundAt = now;
    lastEmit = performance.now();
  } : undefined;
  const onCase = opts.onCase;
  const d = drive(targets, { seed, timeMs: left, ...(opts.runs !== undefined ? { runs: opts.runs } : {}), ...(onFailure ? { onFailure } : {}), ...(onCase ? { onCase: (n: number) => onCase(tried + n) } : {}) });
  tried += d.tried;
  searched.push(...d.searched.map(toSearched));
  if (d.error) {
    if (d.error.userCode) throw new UserCodeError(`${d.error.message} (suite ${d.error.target.suite.name} on ${d.error.target.label}, seed ${seed})`);
    throw new Error(`hunt: suite ${d.error.target.suite.name} on ${d.error.target.label} could not run: ${d.error.message}`);
  }
  if (d.hit) {
    const { target, counterexample: cx } = d.hit;
    const found: Found = { suite: target.suite.name, lattice: target.label, seed, path: cx.path, testsToFailure: cx.testsToFailure,
      timeToFailureMs: d.hit.timeToFailureMs, shrinks: cx.shrinks, shrinkMs: d.hit.shrinkMs, reason: cx.reason };
    if (progress) {
      const sh = describeFinding(finishFor(target.ctx.lat), variant, target.suite, target.ctx, cx.value as never, found);
      progress({ kind: foundAt === 0 ? 'found' : 'improved', suite: found.suite, lattice: found.lattice, size: sh.size, entry: sh.entry, report: sh.report });
    }
    const onImprove = progress ? (x: Described): void => progress({ kind: 'improved', suite: found.suite, lattice: found.lattice, size: x.size, entry: x.entry, report: x.report }) : undefined;
    const { finding, report } = finishFinding({ ...finishFor(target.ctx.lat), ...(onImprove ? { onImprove } : {}) }, variant, target.suite, target.ctx, cx.value as never, found);
    if (opts.save === undefined) return { found: true, status: 'found', variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, skipped, finding, report };
    const saved = saveFinding(opts.save, finding.entry, target.ctx.lat);
    return {
      found: true, status: 'found', variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, skipped,
      finding: { ...finding, savedTo: saved.file }, report: `${report}\n${describeSave(saved)}`,
    };
  }
  const timeMs = performance.now() - started;
  const short = searched.filter((s) => s.suite !== primContract.name && s.cases < powerOf(s.suite));
  const inconclusive = short.length > 0 || tried === 0;
  const report = [
    inconclusive
      ? `INCONCLUSIVE: variant ${variant.name} survived ${tried} generated case${tried === 1 ? '' : 's'} in ${(timeMs / 1000).toFixed(1)} s (seed ${seed}), too few to call it clean.`
      : `No counterexample: variant ${variant.name} survived ${tried} generated case${tried === 1 ? '' : 's'} in ${(timeMs / 1000).toFixed(1)} s (seed ${seed}).`,
    ...searched.map((s) => `  ${s.suite.padEnd(16)} ${s.lattice.padEnd(12)} ${String(s.cases).padStart(7)} cases  ${(s.ms / 1000).toFixed(1)} s${short.includes(s) ? `   (fewer than the ${powerOf(s.suite)} a clean bill needs)` : ''}`),
    `  variant: ${variant.description}`,
    ...skipped.map((s) => `  not run: ${s.reason}`),
    inconclusive
      ? `Run longer (--time) or give a case budget (--runs ${CLEAN_BILL_CASES} or more), e.g. npx llmbda hunt --variant ${variantSpec} --seed ${seed} --runs ${CLEAN_BILL_CASES}`
      : 'A clean bill is evidence, not proof: run longer (--time) or with other seeds to raise confidence.',
  ].join('\n');
  return { found: false, status: inconclusive ? 'inconclusive' : 'clean', variant: variant.name, tried, timeMs, seed, searched, skipped, report };
}

/** Cases a clean bill needs on one (suite, lattice): the suite's stated power, else `CLEAN_BILL_CASES`. */
function powerOf(suiteName: string): number {
  try {
    return suiteNamed(suiteName).power ?? CLEAN_BILL_CASES;
  } catch {
    return CLEAN_BILL_CASES;
  }
}

/** One line saying where a finding went (or which smaller entry was kept). */
export function describeSave(s: SaveOutcome): string {
  if (s.kind === 'kept') return `Not saved: ${s.file} already holds a case for the same variant, suite, lattice and seed with ${s.size} AST nodes (no larger entry replaces it).`;
  return `Saved: ${s.file} (and ${s.file.replace(/\.json$/, '.lam')})${s.replaced && s.replaced.size > s.size ? `, replacing an entry of ${s.replaced.size} AST nodes` : ''}\nReplay the saved case: npx llmbda replay ${s.file}`;
}

// ---------------------------------------------------------------------------------------------
// Replay

/** One side of a replay. */
export interface ReplayVerdict {
  readonly semantics: string;
  readonly outcome: ExpectedOutcome | 'discarded';
  readonly reason?: string;
  /** Did it match the entry's expectation? */
  readonly asExpected: boolean;
}

/** The result of replaying a corpus file. */
export interface ReplayResult {
  readonly file: string;
  readonly entry: CorpusEntry;
  readonly reference: ReplayVerdict;
  readonly variant: ReplayVerdict;
  /** Both verdicts as the entry expects. */
  readonly ok: boolean;
  readonly report: string;
  /** Why the variant fails the case (its report as data), when it does. */
  readonly explanation: CaseExplanation | null;
}

/** Replay a saved case: the suite's check under the reference semantics and under the variant. */
export async function replay(file: string, opts: { readonly variant?: VariantSpec; readonly lattice?: LatticeSpec } = {}): Promise<ReplayResult> {
  const entry = loadEntry(file);
  const lat = await latticeOf(opts.lattice ?? (entry.latticeFile !== undefined ? entryFilePath(entry.latticeFile, file) : entry.lattice));
  const suite = suiteNamed(entry.suite);
  const variant = opts.variant !== undefined ? await variantOf(opts.variant) : await loadVariant(entryFilePath(entry.variant, file));
  const prims = entry.prims ? await loadPrimsFile(entryFilePath(entry.prims, file)) : undefined;
  const ext: PrimExtension | undefined = prims ? { prims } : undefined;
  if (suite.caseKind !== entry.kind) {
    throw new UserError(`${file}: field "kind" is ${entry.kind}, but suite ${suite.name} judges ${entry.kind === 'single' ? 'pairs' : 'single runs'}`);
  }
  const refused = suiteRefusal(suite, variant, { named: true });
  if (refused) throw new UserError(`${file}: ${refused}`);
  const loaded = entryCase(file, entry, lat);
  const one = (ctx: LlmbdaCtx<unknown>, name: string, expected: ExpectedOutcome): ReplayVerdict => {
    const j = judge(suite, ctx, loaded.value);
    const outcome = j.ok === 'discarded' ? 'discarded' : j.ok ? 'holds' : 'fails';
    return { semantics: name, outcome, ...(j.ok !== true ? { reason: j.reason } : {}), asExpected: outcome === expected };
  };
  const reference = one(referenceCtxWith(lat, ext), 'reference', entry.expected.reference);
  const vctx = variantCtx(lat, variant, ext);
  const vv = one(vctx, variant.name, entry.expected.variant);
  const ok = reference.asExpected && vv.asExpected;
  const header: ReportHeader = {
    variant: variant.name, variantDescription: variant.description, suite: suite.name, suiteTitle: suite.title, lattice: lat.name,
    reason: vv.reason ?? '(the variant passes this case)', ...(entry.seed !== undefined ? { seed: entry.seed } : {}), ...(entry.path ? { path: entry.path } : {}),
    replay: [`npx llmbda replay ${file}`],
  };
  const verdictLine = (v: ReplayVerdict, expected: ExpectedOutcome): string =>
    `  ${v.semantics.padEnd(22)} ${v.outcome.toUpperCase().padEnd(6)} (expected ${expected})${v.asExpected ? '' : '   ← NOT AS EXPECTED'}${v.reason && v.outcome !== 'fails' ? `: ${v.reason.split('\n')[0]}` : ''}`;
  const lines = [
    `Replaying ${file}${entry.title ? `: ${entry.title}` : ''}`,
    `suite ${suite.name} on ${lat.name}, ${entry.kind === 'pair' ? `observer ${entry.observer}, ` : ''}${entry.size} AST nodes`,
    verdictLine(reference, entry.expected.reference),
    verdictLine(vv, entry.expected.variant),
    ok ? 'Both verdicts as recorded.' : 'REGRESSION: a verdict differs from the recorded one.',
  ];
  let explanation: CaseExplanation | null = null;
  if (vv.outcome === 'fails') {
    const cr = loaded.kind === 'pair' ? pairCaseReport(vctx, loaded.value, header) : singleCaseReport(vctx, loaded.value, header);
    lines.push('', cr.text);
    explanation = cr.explanation;
  }
  return { file, entry, reference, variant: vv, ok, report: lines.join('\n'), explanation };
}
