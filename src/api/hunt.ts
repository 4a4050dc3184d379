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
import { entryCase, entryFilePath, loadEntry, type CorpusEntry, type ExpectedOutcome } from '../llmbda/corpus.ts';
import { injectPrimCalls, loadPrimsFile, primContract } from '../llmbda/prims.ts';
import { finishFinding, type Finding } from '../llmbda/hunt.ts';
import { pairReport, singleReport, type ReportHeader } from '../llmbda/report.ts';
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
  /** Search time budget in ms, shared by every (suite, lattice) (default 30 s). Shrinking is extra. */
  readonly timeMs?: number;
  readonly seed?: number;
  /** Most cases per (suite, lattice) (default: unbounded, the time budget decides). */
  readonly runs?: number;
  /** A `--prims` module: extra primitives, called by the generated programs. */
  readonly primsFile?: string;
  /** Extra primitives given directly (programmatic use). */
  readonly prims?: PrimTable;
  /** Run the minimiser after fast-check's shrinking (default true), with this budget (default 10 s). */
  readonly minimise?: boolean;
  readonly minimiseMs?: number;
  /** Folder to save the counterexample in; nothing is written without it. */
  readonly save?: string;
}

/** The result of a hunt. */
export interface HuntResult {
  readonly found: boolean;
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
  const skipped = wanted.flatMap((s) => { const reason = suiteRefusal(s, variant); return reason ? [{ suite: s.name, reason }] : []; });
  if (skipped.length > 0 && opts.suite !== 'all') throw new UserError(skipped[0]!.reason);
  const suites = wanted.filter((s) => !skipped.some((k) => k.suite === s.name));
  const lattices: AnyLattice[] = [];
  for (const l of huntLattices(variant, opts.lattices)) lattices.push(await latticeOf(l));
  const seed = opts.seed ?? defaultSeed();
  const budget = opts.timeMs ?? 30_000;
  const started = performance.now();
  const searched: HuntResult['searched'][number][] = [];
  let tried = 0;
  const targets: HuntTarget<unknown, LlmbdaCtx<unknown>>[] = suites.flatMap((s) =>
    lattices.map((lat) => ({ suite: withInjectedPrims(s, prims), ctx: variantCtx(lat, variant, ext), label: lat.name })));
  if (prims) {
    // The contract first: it is cheap, and a primitive that breaks it makes every other verdict moot.
    const t0 = performance.now();
    const v = runSuite(primContract, { prims }, { runs: CONTRACT_RUNS, seed, timeoutMs: Math.max(100, budget / (targets.length + 1)) });
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
      return { found: true, variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, skipped, contractViolation: { reason: cx.reason, pretty: cx.pretty, seed, path: cx.path }, report };
    }
  }
  const left = Math.max(0, budget - (performance.now() - started));
  const d = drive(targets, { seed, timeMs: left, ...(opts.runs !== undefined ? { runs: opts.runs } : {}) });
  tried += d.tried;
  searched.push(...d.searched.map(toSearched));
  if (d.error) throw new Error(`hunt: suite ${d.error.target.suite.name} on ${d.error.target.label} could not run: ${d.error.message}`);
  if (d.hit) {
    const { target, counterexample: cx } = d.hit;
    const { finding, report } = finishFinding(
      { variantSpec, ...(opts.primsFile ? { primsFile: opts.primsFile } : {}), ...(opts.minimise !== undefined ? { minimise: opts.minimise } : {}),
        ...(opts.minimiseMs !== undefined ? { minimiseMs: opts.minimiseMs } : {}), ...(opts.save !== undefined ? { saveDir: opts.save } : {}) },
      variant, target.suite, target.ctx, cx.value as never,
      { suite: target.suite.name, lattice: target.label, seed, path: cx.path, testsToFailure: cx.testsToFailure,
        timeToFailureMs: d.hit.timeToFailureMs, shrinks: cx.shrinks, shrinkMs: d.hit.shrinkMs, reason: cx.reason },
    );
    return { found: true, variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, skipped, finding, report };
  }
  const timeMs = performance.now() - started;
  const report = [
    `No counterexample: variant ${variant.name} survived ${tried} generated case${tried === 1 ? '' : 's'} in ${(timeMs / 1000).toFixed(1)} s (seed ${seed}).`,
    ...searched.map((s) => `  ${s.suite.padEnd(16)} ${s.lattice.padEnd(12)} ${String(s.cases).padStart(7)} cases  ${(s.ms / 1000).toFixed(1)} s`),
    `  variant: ${variant.description}`,
    ...skipped.map((s) => `  not run: ${s.reason}`),
    'A clean bill is evidence, not proof: run longer (--time) or with other seeds to raise confidence.',
  ].join('\n');
  return { found: false, variant: variant.name, tried, timeMs, seed, searched, skipped, report };
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
}

/** Replay a saved case: the suite's check under the reference semantics and under the variant. */
export async function replay(file: string, opts: { readonly variant?: VariantSpec; readonly lattice?: LatticeSpec } = {}): Promise<ReplayResult> {
  const entry = loadEntry(file);
  const lat = await latticeOf(opts.lattice ?? entry.lattice);
  const suite = suiteNamed(entry.suite);
  const variant = opts.variant !== undefined ? await variantOf(opts.variant) : await loadVariant(entryFilePath(entry.variant, file));
  const prims = entry.prims ? await loadPrimsFile(entryFilePath(entry.prims, file)) : undefined;
  const ext: PrimExtension | undefined = prims ? { prims } : undefined;
  if (suite.caseKind !== entry.kind) {
    throw new UserError(`${file}: field "kind" is ${entry.kind}, but suite ${suite.name} judges ${entry.kind === 'single' ? 'pairs' : 'single runs'}`);
  }
  const refused = suiteRefusal(suite, variant);
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
  if (vv.outcome === 'fails') {
    lines.push('', loaded.kind === 'pair' ? pairReport(vctx, loaded.value, header) : singleReport(vctx, loaded.value, header));
  }
  return { file, entry, reference, variant: vv, ok, report: lines.join('\n') };
}
