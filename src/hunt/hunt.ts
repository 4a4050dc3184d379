/**
 * Hunting: run the suite a variant is expected to break (or any suite) with the suites' own generators,
 * stop at the first failure, shrink it (fast-check on the pair case, then the minimiser), and hand back
 * a report a person can read plus a corpus entry that replays it. And replaying: judge a saved case
 * under the reference semantics and under its variant.
 */
import type { AnyLattice } from '../lattice/lattice.ts';
import { resolveLattice, SHIPPED_LATTICES } from '../lattice/registry.ts';
import { runSuite } from '../check/suite.ts';
import type { LlmbdaCtx } from '../check/context.ts';
import type { PrimTable } from '../semantics/model.ts';
import type { Variant } from '../variants/variant.ts';
import type { LlmbdaSuite } from '../../properties/index.ts';
import { UserError } from '../util/absurd.ts';
import { caseSize, minimise, type AnyCase } from './minimise.ts';
import { allSuiteNames, isPairCase, judge, loadVariant, referenceCtxWith, suiteCaseKind, suiteNamed, variantCtx, type PrimExtension } from './context.ts';
import { caseToEntry, CORPUS_DIR, entryCase, entryFilePath, loadEntry, saveEntry, slug, type CorpusEntry, type Outcome } from './corpus.ts';
import { injectPrimCalls, loadPrimsFile, primContract } from './prims.ts';

/** Cases of the primEval contract checked before the suites when a hunt adds primitives. */
const CONTRACT_RUNS = 1000;
import { pairReport, singleReport, type ReportHeader } from './report.ts';

/** Options of `hunt` (the `llmbda hunt` flags). */
export interface HuntOptions {
  /** Catalogue name, `reference`, or a variant `.ts` file. */
  readonly variant: string;
  /** Lattices to hunt on, in order (default: the variant's `leaksOn`, then the other shipped lattices). */
  readonly lattices?: readonly string[];
  /** A suite name or `all` (default: the variant's `expected.caughtBy`, else `tipni`). */
  readonly suite?: string;
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
  /** Directory to save the counterexample in (default `counterexamples/`); `false` to not save. */
  readonly save?: string | false;
}

/** A counterexample found by a hunt. */
export interface Finding {
  readonly suite: string;
  readonly lattice: string;
  readonly seed: number;
  readonly path: string;
  readonly testsToFailure: number;
  /** Wall time from the start of this (suite, lattice) search to the failing case. */
  readonly timeToFailureMs: number;
  readonly shrinks: number;
  readonly shrinkMs: number;
  readonly reason: string;
  /** AST nodes of the programs: as fast-check left them, and after the minimiser. */
  readonly shrunkSize: number;
  readonly size: number;
  /** The final case (plain data). */
  readonly value: AnyCase<unknown>;
  readonly entry: CorpusEntry;
  readonly savedTo?: string;
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
  /** The human-readable report (a clean bill when nothing was found). */
  readonly report: string;
}

/** The suites a hunt runs for a variant. */
export function huntSuites(v: Variant, suite?: string): LlmbdaSuite[] {
  if (suite === 'all') return allSuiteNames().map(suiteNamed);
  return [suiteNamed(suite ?? v.expected?.caughtBy ?? 'tipni')];
}

/** The lattices a hunt tries, in order: the variant's `leaksOn` first, then the other shipped lattices. */
export function huntLattices(v: Variant, lattices?: readonly string[]): string[] {
  if (lattices && lattices.length > 0) return [...lattices];
  const leaks = v.expected?.leaksOn ?? [];
  return [...leaks, ...SHIPPED_LATTICES.filter((l) => !leaks.includes(l))];
}

/** The suite with its generator calling the extra primitives. */
function withInjectedPrims(suite: LlmbdaSuite, prims: PrimTable | undefined): LlmbdaSuite {
  if (!prims) return suite;
  return { ...suite, arbitrary: (ctx) => injectPrimCalls(suite.arbitrary(ctx), Object.keys(prims)) };
}

/** Hunt for a counterexample. Never throws for a property violation: a finding is data. */
export async function hunt(opts: HuntOptions): Promise<HuntResult> {
  const variant = await loadVariant(opts.variant);
  const prims = opts.prims ?? (opts.primsFile ? await loadPrimsFile(opts.primsFile) : undefined);
  const ext: PrimExtension | undefined = prims ? { prims } : undefined;
  // Theorem 3 compares against peval, which reads the model's own primitive table, not the extension.
  const suites = huntSuites(variant, opts.suite).filter((x) => !(prims && x.name === 'theorem3'));
  if (suites.length === 0) throw new UserError('theorem3 cannot check added primitives: peval, its independent interpreter, only knows the model\'s own table');
  const lattices: AnyLattice[] = [];
  for (const l of huntLattices(variant, opts.lattices)) lattices.push(await resolveLattice(l));
  const seed = opts.seed ?? Date.now() % 2_147_483_647;
  const budget = opts.timeMs ?? 30_000;
  const started = performance.now();
  const searched: { suite: string; lattice: string; cases: number; ms: number }[] = [];
  const combos = suites.flatMap((s) => lattices.map((lat) => [s, lat] as const));
  let tried = 0;
  if (prims) {
    // The contract first: it is cheap, and a primitive that breaks it makes every other verdict moot.
    const t0 = performance.now();
    const v = runSuite(primContract, { prims }, { runs: CONTRACT_RUNS, seed, timeoutMs: Math.max(100, budget / (combos.length + 1)) });
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
        `Replay: npx llmbda hunt --variant ${opts.variant} --prims ${opts.primsFile ?? '<table>'} --seed ${seed}`,
      ].join('\n');
      return { found: true, variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, contractViolation: { reason: cx.reason, pretty: cx.pretty, seed, path: cx.path }, report };
    }
  }
  for (const [i, [suite0, lat]] of combos.entries()) {
    const left = budget - (performance.now() - started);
    if (left <= 0 && searched.length > 0) break;
    const share = Math.max(100, left / (combos.length - i));
    const ctx = variantCtx(lat, variant, ext);
    const suite = withInjectedPrims(suite0, prims);
    const t0 = performance.now();
    let lastCaseAt = t0;
    const v = runSuite(suite, ctx, {
      runs: opts.runs ?? 2_000_000_000,
      seed,
      timeoutMs: share,
      onCase: () => { lastCaseAt = performance.now(); },
    });
    const ms = performance.now() - t0;
    tried += v.runs;
    searched.push({ suite: suite.name, lattice: lat.name, cases: v.runs, ms });
    const cx = v.counterexample;
    if (!cx && v.error !== undefined) throw new Error(`hunt: suite ${suite.name} on ${lat.name} could not run: ${v.error}`);
    if (!cx) continue;
    const finding = await finish(opts, variant, suite, ctx, cx.value as AnyCase<unknown>, {
      suite: suite.name, lattice: lat.name, seed, path: cx.path, testsToFailure: cx.testsToFailure,
      timeToFailureMs: lastCaseAt - t0, shrinks: cx.shrinks, shrinkMs: 0, reason: cx.reason,
    }, ms - (lastCaseAt - t0));
    return { found: true, variant: variant.name, tried, timeMs: performance.now() - started, seed, searched, finding: finding.finding, report: finding.report };
  }
  const timeMs = performance.now() - started;
  const report = [
    `No counterexample: variant ${variant.name} survived ${tried} generated case${tried === 1 ? '' : 's'} in ${(timeMs / 1000).toFixed(1)} s (seed ${seed}).`,
    ...searched.map((s) => `  ${s.suite.padEnd(16)} ${s.lattice.padEnd(12)} ${String(s.cases).padStart(7)} cases  ${(s.ms / 1000).toFixed(1)} s`),
    `  variant: ${variant.description}`,
    'A clean bill is evidence, not proof: run longer (--time) or with other seeds to raise confidence.',
  ].join('\n');
  return { found: false, variant: variant.name, tried, timeMs, seed, searched, report };
}

/** What is known about a finding before minimising and saving it. */
type Found = Omit<Finding, 'shrunkSize' | 'size' | 'value' | 'entry' | 'savedTo'>;

/** Minimise, build the corpus entry, save it, and write the report. */
async function finish(
  opts: HuntOptions, variant: Variant, suite: LlmbdaSuite, ctx: LlmbdaCtx<unknown>, value: AnyCase<unknown>, f: Found, shrinkMs: number,
): Promise<{ finding: Finding; report: string }> {
  const shrunkSize = caseSize(value);
  let final = value;
  let minimised: ReportHeader['minimised'];
  let reason = f.reason;
  if (opts.minimise !== false) {
    const m = minimise(suite, ctx, value, opts.minimiseMs ?? 10_000);
    final = m.value;
    minimised = { before: m.before, after: m.after, steps: m.steps };
    const j = judge(suite, ctx, final);
    if (j.ok === false) reason = j.reason;
  }
  const variantSpec = opts.variant;
  const entry = caseToEntry(ctx.lat, isPairCase(final) ? { kind: 'pair', value: final } : { kind: 'single', value: final }, {
    variant: variantSpec, suite: suite.name, seed: f.seed, path: f.path, reason: firstLine(reason),
    ...(opts.primsFile ? { prims: opts.primsFile } : {}),
  });
  const dir = opts.save === undefined ? CORPUS_DIR : opts.save;
  const name = `${slug(variant.name)}-${slug(ctx.lat.name)}-${f.seed}`;
  const savedTo = dir === false ? undefined : saveEntry(dir, name, entry, ctx.lat);
  const replay = [
    ...(savedTo ? [`npx llmbda replay ${savedTo}`] : []),
    `npx llmbda hunt --variant ${variantSpec} --suite ${suite.name} --lattice '${ctx.lat.name}' --seed ${f.seed}${opts.primsFile ? ` --prims ${opts.primsFile}` : ''}`,
  ];
  const header: ReportHeader = {
    variant: variant.name, variantDescription: variant.description, suite: suite.name, suiteTitle: suite.title, lattice: ctx.lat.name,
    reason, seed: f.seed, path: f.path, testsToFailure: f.testsToFailure, timeToFailureMs: f.timeToFailureMs, shrinks: f.shrinks,
    ...(minimised ? { minimised } : {}), replay,
  };
  const report = [
    isPairCase(final) ? pairReport(ctx, final, header) : singleReport(ctx, final, header),
    ...(savedTo ? [`Saved: ${savedTo} (and ${savedTo.replace(/\.json$/, '.lam')})`] : []),
  ].join('\n');
  const finding: Finding = { ...f, shrinkMs, reason, shrunkSize, size: caseSize(final), value: final, entry, ...(savedTo ? { savedTo } : {}) };
  return { finding, report };
}

function firstLine(s: string): string {
  return s.split('\n')[0]!;
}

// ---------------------------------------------------------------------------------------------
// Replay

/** One side of a replay. */
export interface ReplayVerdict {
  readonly semantics: string;
  readonly outcome: Outcome | 'discarded';
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
export async function replay(file: string, opts: { readonly variant?: string } = {}): Promise<ReplayResult> {
  const entry = loadEntry(file);
  const lat = await resolveLattice(entry.lattice);
  const suite = suiteNamed(entry.suite);
  const variantSpec = opts.variant ?? entryFilePath(entry.variant, file);
  const variant = await loadVariant(variantSpec);
  const prims = entry.prims ? await loadPrimsFile(entryFilePath(entry.prims, file)) : undefined;
  const ext: PrimExtension | undefined = prims ? { prims } : undefined;
  if (suiteCaseKind(suite, referenceCtxWith(lat)) !== entry.kind) {
    throw new UserError(`${file}: field "kind" is ${entry.kind}, but suite ${suite.name} judges ${entry.kind === 'single' ? 'pairs' : 'single runs'}`);
  }
  const loaded = entryCase(file, entry, lat);
  const one = (ctx: LlmbdaCtx<unknown>, name: string, expected: Outcome): ReplayVerdict => {
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
  const verdictLine = (v: ReplayVerdict, expected: Outcome): string =>
    `  ${v.semantics.padEnd(22)} ${v.outcome.toUpperCase().padEnd(6)} (expected ${expected})${v.asExpected ? '' : '   ← NOT AS EXPECTED'}${v.reason && v.outcome !== 'fails' ? `: ${firstLine(v.reason)}` : ''}`;
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
