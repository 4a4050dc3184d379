/**
 * One report document for every command (`check`, `hunt`, `replay`): the data every reporter renders
 * (JSON as is, JUnit XML, GitHub annotations, text). Its JSON form is specified by
 * docs/schema/report.schema.json (`REPORT_SCHEMA_VERSION`).
 *
 * Numbers are written one way everywhere: counts, seeds and milliseconds are JSON integers; every other
 * quantity is a `Ratio` object `{ fraction, decimal }` — `fraction` the exact value as `p/q` (or `null` when
 * the value is not a rational known exactly, such as a confidence bound), `decimal` a decimal string with
 * six digits after the point. No bar charts or other drawings are put into the JSON: a case's `reason` is
 * its first line, and the full human report is in `message`.
 */
import * as Q from '../distributions/rational.ts';
import type { ThresholdJudgement } from '../runner/suite.ts';
import type { JobResult } from '../api/jobs.ts';
import type { HuntResult, ReplayResult } from '../api/hunt.ts';
import type { CorpusEntry } from '../llmbda/corpus.ts';
import type { CaseExplanation } from '../llmbda/explain.ts';

export const REPORT_SCHEMA_VERSION = 1;

/** A non-integer quantity: exact fraction when known, and a decimal string. */
export interface Ratio {
  readonly fraction: string | null;
  readonly decimal: string;
}

/** An exact ratio of two integers. */
export function exactRatio(num: number, den: number): Ratio {
  const q = den === 0 ? Q.ZERO : Q.rat(num, den);
  return { fraction: Q.show(q), decimal: decimalOf(q) };
}

/** An exact rational. */
export function rationalRatio(q: Q.Rational): Ratio {
  return { fraction: Q.show(q), decimal: decimalOf(q) };
}

/** A real number that is not known as an exact fraction (a confidence bound, a threshold like 1/3 given as a float). */
export function approxRatio(x: number): Ratio {
  return { fraction: null, decimal: x.toFixed(6) };
}

const decimalOf = (q: Q.Rational): string => Q.toDecimal(q, 6);

/** A thresholded non-vacuity counter with its estimate and Wilson interval. */
export interface NonVacuityCounter {
  readonly counter: string;
  readonly count: number;
  readonly cases: number;
  readonly threshold: Ratio;
  readonly estimate: Ratio;
  readonly lower: Ratio;
  readonly upper: Ratio;
  readonly status: ThresholdJudgement['status'];
}

export function nonVacuityOf(js: readonly ThresholdJudgement[]): NonVacuityCounter[] {
  return js.map((j) => ({
    counter: j.counter, count: j.count, cases: j.cases, threshold: approxRatio(j.threshold), estimate: exactRatio(j.count, j.cases),
    lower: approxRatio(j.lower), upper: approxRatio(j.upper), status: j.status,
  }));
}

/** The counterexample of a failed case. */
export interface ReportCounterexample {
  /** The case rendered (programs, observer, model, …). */
  readonly pretty: string;
  /** The first line of why the check failed (no tables or bars). */
  readonly reason: string;
  readonly testsToFailure: number;
  readonly shrinks: number;
  /** The corpus file the case came from, when it was a saved case tried first. */
  readonly corpusFile: string | null;
  /** The case as a corpus entry (hunt), and where it was saved. */
  readonly entry: CorpusEntry | null;
  readonly savedTo: string | null;
}

/** What a case concluded: the suite's verdict (check), a hunt's search, a replayed entry. */
export type CaseVerdict = 'holds' | 'fails' | 'vacuous' | 'error' | 'not-run';
/** What that means for CI. */
export type CaseResult = 'passed' | 'failed' | 'error';

/** One test case of a report: a (suite, lattice) for check and hunt, a corpus entry for replay. */
export interface ReportCase {
  /** Unique within the document: `suite/lattice`, or the corpus file. */
  readonly id: string;
  readonly suite: string;
  readonly lattice: string;
  readonly variant: string;
  readonly verdict: CaseVerdict;
  /** The verdict that passes (`holds`, or `fails` for a known-bad variant with --expect-leak, or a corpus expectation). */
  readonly expected: 'holds' | 'fails';
  readonly result: CaseResult;
  readonly runs: number;
  readonly timeMs: number;
  readonly seed: number | null;
  readonly path: string | null;
  readonly nonVacuity: readonly NonVacuityCounter[];
  readonly counterexample: ReportCounterexample | null;
  /** The readable report of this case (empty when it passed). */
  readonly message: string;
  /**
   * Why an LLMbda case fails, as data (what `message` and the HTML report show): the programs, what the
   * observer sees, each run under the semantics under test and the reference, and the first diverging rule
   * application. `null` when the case has no failing LLMbda run to explain (it held; PPMF systems, lattice laws, errors).
   */
  readonly explanation: CaseExplanation | null;
  /** Commands that reproduce the case. */
  readonly replay: readonly string[];
  /** The corpus file (replay). */
  readonly file: string | null;
}

export type Command = 'check' | 'hunt' | 'replay';

/** A whole run. */
export interface ReportDocument {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly tool: { readonly name: 'llmbda-check'; readonly version: string };
  readonly command: Command;
  /** `reference` or the variant under test (replay: `recorded`, each case names its own). */
  readonly variant: string;
  readonly seed: number | null;
  readonly ok: boolean;
  readonly exitCode: 0 | 1;
  readonly timeMs: number;
  readonly summary: { readonly cases: number; readonly passed: number; readonly failed: number; readonly errors: number };
  readonly cases: readonly ReportCase[];
  /** The whole human report (what `--reporter text` prints). */
  readonly text: string;
}

/** The first line of a reason (tables and bars stay in `message`). */
export const firstLine = (s: string): string => s.split('\n')[0] ?? '';

function document(command: Command, variant: string, seed: number | null, timeMs: number, version: string, cases: ReportCase[], text: string): ReportDocument {
  const passed = cases.filter((c) => c.result === 'passed').length;
  const errors = cases.filter((c) => c.result === 'error').length;
  const ok = passed === cases.length;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION, tool: { name: 'llmbda-check', version }, command, variant, seed, ok, exitCode: ok ? 0 : 1,
    timeMs: Math.round(timeMs), summary: { cases: cases.length, passed, failed: cases.length - passed - errors, errors }, cases, text,
  };
}

const resultOf = (verdict: CaseVerdict, expected: 'holds' | 'fails'): CaseResult =>
  verdict === 'error' ? 'error' : verdict === expected ? 'passed' : 'failed';

/** The report of `llmbda check`: one case per (suite, lattice); `message(r)` is the readable report of a job. */
export function checkDocument(
  results: readonly JobResult[], o: { readonly seed: number; readonly variant?: string; readonly version: string; readonly timeMs: number; readonly text: string; readonly notRun?: readonly { suite: string; lattice: string; why: string }[] },
  message: (r: JobResult) => string, replay: (r: JobResult) => string[], corpusFile: (r: JobResult) => string | null,
): ReportDocument {
  const cases: ReportCase[] = results.map((r) => {
    const c = r.counterexample;
    return {
      id: `${r.job.suite}/${r.job.lattice}`, suite: r.job.suite, lattice: r.job.lattice, variant: o.variant ?? 'reference', verdict: r.status, expected: 'holds',
      result: resultOf(r.status, 'holds'), runs: r.runs, timeMs: Math.round(r.timeMs), seed: r.job.seed, path: c ? c.path : r.job.path ?? null,
      nonVacuity: nonVacuityOf(r.nonVacuity ?? []),
      counterexample: c ? { pretty: c.pretty, reason: firstLine(c.reason), testsToFailure: c.testsToFailure, shrinks: c.shrinks, corpusFile: corpusFile(r), entry: null, savedTo: null } : null,
      message: r.status === 'holds' ? '' : message(r), explanation: r.status === 'fails' ? r.explanation ?? null : null, replay: r.status === 'holds' ? [] : replay(r), file: null,
    };
  });
  for (const n of o.notRun ?? []) {
    cases.push({
      id: `${n.suite}/${n.lattice}`, suite: n.suite, lattice: n.lattice, variant: o.variant ?? 'reference', verdict: 'not-run', expected: 'holds', result: 'failed',
      runs: 0, timeMs: 0, seed: o.seed, path: null, nonVacuity: [], counterexample: null, message: n.why, explanation: null, replay: [], file: null,
    });
  }
  return document('check', o.variant ?? 'reference', o.seed, o.timeMs, o.version, cases, o.text);
}

/**
 * The report of `llmbda hunt`: one case per (suite, lattice) searched. Without `expectLeak` a case passes
 * when no counterexample was found there; with it, the hunt passes when a counterexample was found (the
 * finding's case passes, the clean ones are informational passes too), and fails as a whole otherwise.
 */
export function huntDocument(r: Omit<HuntResult, 'finding'> & { readonly finding?: Omit<NonNullable<HuntResult['finding']>, 'value'> | undefined }, o: { readonly version: string; readonly expectLeak: boolean; readonly variantSpec: string }): ReportDocument {
  const f = r.finding;
  const expected = o.expectLeak ? 'fails' : 'holds';
  // A primitive that breaks its contract is its own case (below), not a clean row of the search.
  const searched = r.contractViolation ? r.searched.filter((s) => s.suite !== 'prim-contract') : r.searched;
  const cases: ReportCase[] = searched.map((s, i) => {
    const hit = f !== undefined && i === searched.length - 1 && f.suite === s.suite && f.lattice === s.lattice;
    const verdict: CaseVerdict = hit ? 'fails' : 'holds';
    // With --expect-leak, a clean (suite, lattice) before the finding is not a failure; only "nothing found anywhere" is.
    const result: CaseResult = o.expectLeak ? (f !== undefined || r.contractViolation !== undefined ? 'passed' : 'failed') : hit ? 'failed' : 'passed';
    return {
      id: `${s.suite}/${s.lattice}`, suite: s.suite, lattice: s.lattice, variant: o.variantSpec, verdict, expected, result, runs: s.cases, timeMs: Math.round(s.ms),
      seed: r.seed, path: hit ? f.path : null, nonVacuity: [],
      counterexample: hit ? { pretty: f.entry.programs.join('\n'), reason: firstLine(f.reason), testsToFailure: f.testsToFailure, shrinks: f.shrinks, corpusFile: null, entry: f.entry, savedTo: f.savedTo ?? null } : null,
      message: hit || result !== 'passed' ? r.report : '', explanation: hit ? f.explanation ?? null : null, replay: hit ? replayLines(r.report) : [], file: null,
    };
  });
  if (r.contractViolation) {
    const cv = r.contractViolation;
    cases.push({
      id: 'prim-contract/-', suite: 'prim-contract', lattice: '-', variant: o.variantSpec, verdict: 'fails', expected, result: resultOf('fails', expected), runs: 0, timeMs: 0,
      seed: cv.seed, path: cv.path, nonVacuity: [], counterexample: { pretty: cv.pretty, reason: firstLine(cv.reason), testsToFailure: 0, shrinks: 0, corpusFile: null, entry: null, savedTo: null },
      message: r.report, explanation: null, replay: replayLines(r.report), file: null,
    });
  }
  return document('hunt', o.variantSpec, r.seed, r.timeMs, o.version, cases, r.report);
}

/** The `Replay:` commands printed in a report (banking's report writes `replay:`). */
function replayLines(report: string): string[] {
  return [...report.matchAll(/^\s*(?:Replay:\s*)?(npx llmbda .*)$/gim)].map((m) => m[1]!.trim());
}

/** What `hunt --system ppmf|endorse|banking` reports (src/cli/system-hunt-task.ts): the suites searched and where it stopped. */
export interface SystemHuntSummary {
  readonly system: 'ppmf' | 'endorse' | 'banking';
  readonly variant: string;
  readonly seed: number;
  readonly found: boolean;
  readonly report: string;
  readonly timeMs: number;
  readonly searched: readonly { readonly suite: string; readonly cases: number; readonly ms: number }[];
  /** The first failing case, or the suite that crashed (`error`). */
  readonly failure?: { readonly suite: string; readonly error: boolean; readonly reason: string; readonly path: string | null; readonly testsToFailure: number; readonly shrinks: number } | undefined;
}

/**
 * The report of `llmbda hunt --system ppmf|endorse|banking`: one case per suite searched (these suites are
 * not per lattice: `lattice` is `-`). The failing suite's message is a headline (its first line, JUnit's
 * `message`) followed by the hunt's readable report. Passing and failing follow `huntDocument`, with
 * `--expect-leak` too; a suite that crashed is an error case.
 */
export function systemHuntDocument(h: SystemHuntSummary, o: { readonly version: string; readonly expectLeak: boolean }): ReportDocument {
  const f = h.failure;
  const expected = o.expectLeak ? 'fails' : 'holds';
  const under = `--system ${h.system} --variant ${h.variant}`;
  const replay = replayLines(h.report);
  const searched = [...h.searched];
  // Where the hunt stopped is the last suite searched; a failure with no search record still gets its case.
  if (f !== undefined && searched.at(-1)?.suite !== f.suite) searched.push({ suite: f.suite, cases: 0, ms: 0 });
  const cases: ReportCase[] = searched.map((s, i) => {
    const hit = f !== undefined && i === searched.length - 1;
    const verdict: CaseVerdict = hit ? (f.error ? 'error' : 'fails') : 'holds';
    const result: CaseResult = verdict === 'error' ? 'error' : o.expectLeak ? (h.found ? 'passed' : 'failed') : hit ? 'failed' : 'passed';
    const headline = !hit
      ? `${s.suite}: no counterexample in ${s.cases} case(s) under ${under}${o.expectLeak ? ' (--expect-leak wanted one)' : ''}`
      : f.error ? `${s.suite}: the suite crashed under ${under}: ${firstLine(f.reason)}`
      : `${s.suite}: counterexample under ${under} after ${f.testsToFailure} case(s): ${firstLine(f.reason)}`;
    return {
      id: `${s.suite}/-`, suite: s.suite, lattice: '-', variant: h.variant, verdict, expected, result, runs: s.cases, timeMs: Math.round(s.ms), seed: h.seed,
      path: hit ? f.path : null, nonVacuity: [],
      counterexample: hit && !f.error ? { pretty: h.report, reason: firstLine(f.reason), testsToFailure: f.testsToFailure, shrinks: f.shrinks, corpusFile: null, entry: null, savedTo: null } : null,
      message: hit || result !== 'passed' ? `${headline}\n\n${h.report}` : '', explanation: null, replay: hit || result !== 'passed' ? replay : [], file: null,
    };
  });
  return document('hunt', h.variant, h.seed, h.timeMs, o.version, cases, h.report);
}

/** The report of `llmbda replay`: one case per corpus file (loading errors are error cases). */
export function replayDocument(
  rs: readonly ({ readonly file: string; readonly result: Pick<ReplayResult, 'file' | 'entry' | 'ok' | 'reference' | 'variant' | 'report'> & { readonly explanation?: ReplayResult['explanation'] }; readonly timeMs?: number } | { readonly file: string; readonly error: string })[],
  o: { readonly version: string; readonly timeMs: number; readonly text: string },
): ReportDocument {
  const cases: ReportCase[] = rs.map((x) => {
    if ('error' in x) {
      return {
        id: x.file, suite: '-', lattice: '-', variant: '-', verdict: 'error', expected: 'holds', result: 'error', runs: 0, timeMs: 0, seed: null, path: null,
        nonVacuity: [], counterexample: null, message: x.error, explanation: null, replay: [`npx llmbda replay ${x.file}`], file: x.file,
      };
    }
    const r = x.result, e = r.entry;
    // A replayed entry passes when both semantics conclude what the entry records.
    const verdict: CaseVerdict = r.variant.outcome === 'discarded' ? 'error' : r.variant.outcome;
    return {
      id: x.file, suite: e.suite, lattice: e.lattice, variant: r.variant.semantics, verdict, expected: e.expected.variant,
      result: r.ok ? 'passed' : 'failed', runs: 1, timeMs: Math.round(x.timeMs ?? 0), seed: e.seed ?? null, path: e.path ?? null, nonVacuity: [],
      counterexample: null, message: r.ok ? '' : r.report, explanation: r.explanation ?? null, replay: [`npx llmbda replay ${x.file}`], file: x.file,
    };
  });
  return document('replay', 'recorded', null, o.timeMs, o.version, cases, o.text);
}
