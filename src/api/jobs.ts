/**
 * A check job is one (suite, lattice) run, described by plain data so it can run in a worker thread.
 * `runJob` resolves the names, runs the suite and returns a serialisable result.
 */
import { judge, runSuite, type Verdict } from '../runner/suite.ts';
import type { JobModule } from '../runner/pool.ts';
import { resolveLattice } from '../lattice/registry.ts';
import { checkLattice } from '../../properties/lattice-laws.ts';
import { checkDistributions } from '../../properties/distributions.ts';
import { referenceCtx } from '../llmbda/context.ts';
import { clearSharedEvaluations } from '../llmbda/evaluation-cache.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { variantSemantics, variantSkipping } from '../variants/variant.ts';
import { suiteRefusal } from '../llmbda/variant-ctx.ts';
import { UserError } from '../util/absurd.ts';
import type { Profile } from '../generators/programs.ts';
import { PPMF_SUITES, PPMF_BRIDGE_SUITES, llmbdaSuiteByName } from './registry.ts';
import { PPMF } from '../ppmf/systems.ts';
import { bridgeCtx, bridgeVariantCtx } from '../ppmf/bridge/check.ts';
import { entryCase, loadEntry } from '../llmbda/corpus.ts';
import type { LlmbdaCtx, LlmbdaSuite } from '../llmbda/context.ts';
import { minimise } from '../llmbda/minimise.ts';
import { pairCaseReport, singleCaseReport, type CaseExplanation, type ReportHeader } from '../llmbda/report.ts';
import { isPairCase, REFERENCE_VARIANT } from '../llmbda/variant-ctx.ts';
import type { Variant } from '../variants/variant.ts';

export interface Job {
  readonly suite: string;
  /** Lattice name or user file (`-` for lattice-independent suites). */
  readonly lattice: string;
  readonly runs: number;
  readonly seed: number;
  readonly variant?: string;
  readonly path?: string;
  readonly timeoutMs?: number;
  readonly profile?: Profile;
  /** Evaluation steps per run before a case is discarded (default: the suite's own budget). */
  readonly maxSteps?: number;
  /**
   * Saved cases (corpus files) to replay after the generated run, each judged on its own and reported
   * apart: they never feed the generated run or its statistics, so the verdict depends on the seed alone.
   */
  readonly corpus?: readonly string[];
  /**
   * The (family, lattice) group of suites drawing the same cases this job belongs to (`familyOrder`): its
   * evaluations go through the shared table, which a worker empties when it starts a job of another group.
   */
  readonly group?: string;
}

/** One saved case replayed by a check job: what the suite concluded and what the entry expects. */
export interface CorpusReplay {
  readonly file: string;
  readonly outcome: 'holds' | 'fails' | 'discarded' | 'error';
  readonly expected: 'holds' | 'fails';
  readonly reason?: string;
}

export type JobStatus = 'holds' | 'fails' | 'vacuous' | 'error';

/** A verdict as plain data (what a worker posts back): the runner's `Verdict` with the job it answers. */
export interface JobResult extends Pick<Verdict<unknown>, 'title' | 'runs' | 'timeMs' | 'stats' | 'nonVacuity' | 'vacuous' | 'counterexample' | 'error'> {
  readonly job: Job;
  readonly status: JobStatus;
  /** The saved cases replayed (`Job.corpus`), apart from the verdict. */
  readonly corpus?: readonly CorpusReplay[];
  /** A failing LLMbda case's full report: the same text `llmbda hunt` prints for it. */
  readonly report?: string;
  /** That report's content as data (each run beside the reference, the first diverging rule application). */
  readonly explanation?: CaseExplanation;
}

/** The result of a job stopped by the per-case watchdog (or never run). */
export function jobError(job: Job, error: string): JobResult {
  return { job, title: job.suite, status: 'error', runs: 0, timeMs: 0, stats: {}, vacuous: [], error };
}

function toResult(job: Job, v: Verdict<unknown>): JobResult {
  const status: JobStatus = v.error && !v.counterexample ? 'error' : v.counterexample ? 'fails' : v.vacuous.length > 0 ? 'vacuous' : 'holds';
  return {
    job, title: v.title, status, runs: v.runs, timeMs: v.timeMs, stats: v.stats, ...(v.nonVacuity ? { nonVacuity: v.nonVacuity } : {}), vacuous: v.vacuous,
    ...(v.counterexample ? { counterexample: v.counterexample } : {}),
    ...(v.error ? { error: v.error } : {}),
  };
}

/** The job module the worker pool runs (`runPool(jobs, CHECK_JOBS)`). */
/** Judgements `check` gives its minimiser: deterministic, unlike the 2 s wall-clock budget it replaced. */
export const CHECK_MINIMISE_CHECKS = 3_000;

export const CHECK_JOBS: JobModule<Job, JobResult> = { url: new URL(import.meta.url), run: (job, onCase) => runJob(job, onCase) };

/**
 * Recorded CPU per case of each suite relative to TIPNI's (from the per-job times of
 * `llmbda check --seed 1 --runs 300 --json`, averaged over the lattices; docs/benchmarks.md, bench:suites).
 * Only the order matters: the pool starts the longest jobs first so that no long job starts last and
 * leaves a core idle at the end. A suite not listed counts as 1.
 */
export const SUITE_COST: Readonly<Record<string, number>> = {
  'lattice-laws': 0.02, distributions: 0.15, generators: 0.1, theorem3: 0.3, 'v2-equivalence': 0.35, 'adapter-theorem3': 0.45,
  leakage: 0.45, lemma2: 0.45, lemma5: 0.5, lemma3: 0.7, lemma4: 0.7, confinement: 0.8, tipni: 1, 'insulated-tipni': 0.95,
  lemma13: 1.1, 'high-blindness': 1.15, stripping: 2,
  'ppmf-gate-soundness': 0.25, 'ppmf-benign-completeness': 0.25, 'ppmf-unrelated-confirmation': 0.3, 'ppmf-fail-closed': 0.4,
  'ppmf-non-amplification': 0.4, 'ppmf-decoy-robustness': 0.55,
  'ppmf-bridge-benign-completeness': 1.3, 'ppmf-bridge-unrelated-confirmation': 3, 'ppmf-bridge-nonamplification': 5.8, 'ppmf-bridge-tipni': 6.7,
};

/**
 * Suites that draw the same cases (the same generator with the same options, hence with one seed the same cases),
 * so evaluate the same configurations (Lemmas 3 and 4 and Theorem 3's adapter build the generator with other
 * options; the equivalence suite runs both engines with its own): the check runs a family's jobs on a lattice one after the other, in the
 * order listed, and the later ones find their evaluations in the shared table (llmbda/evaluation-cache.ts).
 * Insulated TIPNI's generator keeps only I-maximal observers and always generates `endorse`: its cases are TIPNI's
 * on a lattice that does not factor and whose observers are all I-maximal (two-point, chain(N)), not on
 * powerset-us, so it comes last, where what it stores pushes out nothing a later member needs. Tested in
 * test/evaluation-cache.test.ts (the later members evaluate nothing new).
 */
export const CASE_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  pairs: ['tipni', 'lemma5', 'leakage', 'insulated-tipni'],
  single: ['confinement', 'lemma2', 'theorem3'],
  'skipping pairs': ['stripping', 'high-blindness', 'lemma13'],
};

const familyOf = new Map(Object.entries(CASE_FAMILIES).flatMap(([f, suites]) => suites.map((s, i) => [s, { family: f, rank: i }] as const)));

/**
 * The order the pool gets `check`'s jobs in, with the cost it sorts them by: each (family, lattice) group's jobs
 * together, in the family's order, every job of a group costing the group's total cost, so that the pool's
 * longest-first sort keeps a group together (its sort is stable) and starts the longest groups first. A job outside
 * every family is a group of its own. The jobs of a group of two or more get its name (`Job.group`), which turns on
 * the shared evaluations in their worker, unless `share` is false.
 */
export function familyOrder(jobs: readonly Job[], opts: { readonly share?: boolean } = {}): { readonly jobs: Job[]; readonly cost: (job: Job) => number } {
  const groupOf = (j: Job): string => `${familyOf.get(j.suite)?.family ?? `suite ${j.suite}`} on ${j.lattice}${j.variant ? ` under ${j.variant}` : ''}`;
  const groups = new Map<string, Job[]>();
  for (const j of jobs) {
    const g = groupOf(j);
    const list = groups.get(g);
    if (list) list.push(j); else groups.set(g, [j]);
  }
  const rank = (j: Job): number => familyOf.get(j.suite)?.rank ?? 0;
  for (const list of groups.values()) list.sort((a, b) => rank(a) - rank(b));
  const costs = new Map([...groups].map(([g, js]) => [g, js.reduce((a, j) => a + jobCost(j), 0)]));
  // Only a group of two jobs or more shares: a lone job would pay for keys and memory it never uses again.
  // `share: false` (`check --no-shared`): the same order, every job on its own.
  const tag = ([g, js]: [string, Job[]]): Job[] => (js.length > 1 && opts.share !== false ? js.map((j) => ({ ...j, group: g })) : js);
  return { jobs: [...groups].flatMap(tag), cost: (j) => costs.get(groupOf(j)) ?? jobCost(j) };
}

/** The group of the job this thread ran last (`Job.group`). */
let lastGroup: string | undefined;

/** A job's share of a `--time` budget: its planned cases (bridge cases, whole memory pipelines, count 10). */
export function jobShare(job: Job): number {
  return job.runs * (job.lattice === 'ppmf' ? 10 : 1);
}

/** A job's estimated cost (its cases × its suite's recorded cost per case), for scheduling the longest first. */
export function jobCost(job: Job): number {
  return job.runs * (SUITE_COST[job.suite] ?? 1);
}

/** Run one job in this thread. */
export async function runJob(job: Job, onCase?: (cases: number) => void): Promise<JobResult> {
  const opts = { runs: job.runs, seed: job.seed, ...(job.path ? { path: job.path } : {}), ...(job.timeoutMs ? { timeoutMs: job.timeoutMs } : {}), ...(onCase ? { onCase } : {}) };
  if (job.suite === 'distributions') return toResult(job, checkDistributions(opts) as Verdict<unknown>);
  const ppmfSuite = PPMF_SUITES.find((s) => s.name === job.suite);
  if (ppmfSuite) return toResult(job, runSuite(ppmfSuite, { system: PPMF }, opts) as Verdict<unknown>);
  const bridgeSuite = PPMF_BRIDGE_SUITES.find((s) => s.name === job.suite);
  if (bridgeSuite) {
    const v = job.variant ? await resolveVariant(job.variant) : undefined;
    return toResult(job, runSuite(bridgeSuite, v ? bridgeVariantCtx(v) : bridgeCtx(), opts) as Verdict<unknown>);
  }
  const lat = await resolveLattice(job.lattice);
  if (job.suite === 'lattice-laws') return toResult(job, checkLattice(lat, opts) as Verdict<unknown>);
  const suite = llmbdaSuiteByName(job.suite);
  if (!suite) throw new UserError(`unknown suite ${JSON.stringify(job.suite)}`);
  const variant: Variant | undefined = job.variant ? await resolveVariant(job.variant) : undefined;
  const refused = variant ? suiteRefusal(suite, variant, { named: true }) : undefined; // check left out what `all` may not run
  if (refused) throw new UserError(refused);
  // The shared evaluations belong to one group: a job of another drops them (they would only be carried along).
  if (job.group !== lastGroup) { clearSharedEvaluations(); lastGroup = job.group; }
  const ctx = referenceCtx(lat, {
    ...(variant ? { semantics: variantSemantics(variant), skipping: variantSkipping(variant) } : {}),
    ...(job.profile ? { profile: job.profile } : {}),
    ...(job.maxSteps !== undefined ? { maxSteps: job.maxSteps } : {}),
    ...(job.group !== undefined ? { shared: true } : {}),
  });
  const verdict = runSuite(suite, ctx, opts);
  const corpus = job.corpus?.length ? { corpus: replayCorpus(job.corpus, suite, ctx, job.variant !== undefined) } : {};
  const ce = verdict.counterexample;
  if (!ce || verdict.error) return { ...toResult(job, verdict), ...corpus };
  // fast-check shrinks choices in place; the hunt's minimiser also lifts subterms (tens of milliseconds). Its budget
  // is a number of judgements (each bounded by the step budget), never time, so the printed case depends on the seed
  // alone, not on the machine's load (every catalogue leak minimises in < 800 judgements).
  const m = minimise(suite, ctx, ce.value as never, Infinity, { maxChecks: CHECK_MINIMISE_CHECKS });
  const outcome = suite.check(m.value, ctx);
  const reason = outcome.ok ? ce.reason : outcome.reason;
  const header: ReportHeader = {
    variant: (variant ?? REFERENCE_VARIANT).name, variantDescription: (variant ?? REFERENCE_VARIANT).description, suite: suite.name, suiteTitle: suite.title,
    lattice: lat.name, reason, seed: ce.seed, path: ce.path, testsToFailure: ce.testsToFailure, shrinks: ce.shrinks,
    minimised: { before: m.before, after: m.after, steps: m.steps }, replay: [checkReplayCommand(job, ce.seed, ce.path)],
  };
  const cr = isPairCase(m.value as never) ? pairCaseReport(ctx, m.value as never, header) : singleCaseReport(ctx, m.value as never, header);
  return {
    ...toResult(job, { ...verdict, counterexample: { ...ce, value: m.value, reason, pretty: suite.show(m.value, ctx) } }), ...corpus,
    report: cr.text, explanation: cr.explanation,
  };
}

/** The command that reproduces a failed check job's printed case exactly. */
export function checkReplayCommand(job: Pick<Job, 'suite' | 'lattice' | 'runs' | 'variant'>, seed: number, path: string): string {
  return `npx llmbda check --suite ${job.suite} --lattice '${job.lattice}' --seed ${seed} --runs ${job.runs}${job.variant ? ` --variant ${job.variant}` : ''} --path '${path}'`;
}

/** Judge each saved case with the suite under `ctx`; a file that cannot be read is an `error` replay. */
function replayCorpus(files: readonly string[], suite: LlmbdaSuite, ctx: LlmbdaCtx<unknown>, underVariant: boolean): CorpusReplay[] {
  return files.map((file): CorpusReplay => {
    let expected: 'holds' | 'fails' = 'holds';
    try {
      const e = loadEntry(file);
      expected = underVariant ? e.expected.variant : e.expected.reference;
      const j = judge(suite, ctx, entryCase(file, e, ctx.lat).value);
      if (j.ok === 'discarded') return { file, outcome: 'discarded', expected, reason: j.reason };
      return j.ok ? { file, outcome: 'holds', expected } : { file, outcome: 'fails', expected, reason: j.reason.split('\n')[0]! };
    } catch (e) {
      return { file, outcome: 'error', expected, reason: e instanceof Error ? e.message : String(e) };
    }
  });
}
