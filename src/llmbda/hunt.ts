/**
 * The LLMbda side of a hunt, after the shared driver (src/runner/hunt.ts) found a failing case:
 * minimise it, turn it into a corpus entry (saved only when asked), and write the report.
 */
import type { LlmbdaCtx, LlmbdaSuite } from './context.ts';
import type { Variant } from '../variants/variant.ts';
import { judge } from '../runner/suite.ts';
import { caseSize, minimise, type AnyCase } from './minimise.ts';
import { isPairCase } from './variant-ctx.ts';
import { join } from 'node:path';
import { caseToEntry, findingName, isModuleFile, pathFromEntry, type CorpusEntry } from './corpus.ts';
import { pairCaseReport, pairShowsLeak, singleCaseReport, type ReportHeader } from './report.ts';
import type { CaseExplanation } from './explain.ts';

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
  /** The report's headline says LEAK FOUND: its evidence shows two related runs m tells apart (else a law failed). */
  readonly leak: boolean;
  /** AST nodes of the programs: as fast-check left them, and after the minimiser. */
  readonly shrunkSize: number;
  readonly size: number;
  /** The final case (plain data). */
  readonly value: AnyCase<unknown>;
  readonly entry: CorpusEntry;
  readonly savedTo?: string;
  /** The report's content as data: each run beside the reference, the first diverging rule application. */
  readonly explanation: CaseExplanation;
}

/** What is known about a finding before minimising and saving it. */
export type Found = Omit<Finding, 'shrunkSize' | 'size' | 'value' | 'entry' | 'savedTo' | 'leak' | 'explanation'>;

export interface FinishOptions {
  /** How the variant is named in the corpus entry and the replay command (a catalogue name or a file path). */
  readonly variantSpec: string;
  readonly primsFile?: string;
  /** The lattice's source file when it came from a user file (as given, relative to the current directory). */
  readonly latticeFile?: string;
  /** The folder the entry will be saved in (by `saveFinding`): user files are recorded relative to it. */
  readonly saveDir?: string;
  /** Run the minimiser (default true) with this budget (default 10 s). */
  readonly minimise?: boolean;
  readonly minimiseMs?: number;
  /** A deterministic minimiser budget in judgements (then the time budget is not used). */
  readonly minimiseChecks?: number;
  /** The budget flags that reproduce the run, for the replay command (e.g. `--runs 500`). */
  readonly budgetFlags?: string;
  /** Each smaller case the minimiser reaches, with its entry and report. */
  readonly onImprove?: (d: Described) => void;
}

/** A case as a corpus entry and a report. */
export interface Described {
  readonly entry: CorpusEntry;
  readonly report: string;
  readonly explanation: CaseExplanation;
  readonly size: number;
}

/** The corpus entry and the report of a failing case (before, during or after minimising). */
export function describeFinding(
  opts: FinishOptions, variant: Variant, suite: LlmbdaSuite, ctx: LlmbdaCtx<unknown>, value: AnyCase<unknown>, f: Found,
  minimised?: ReportHeader['minimised'],
): Described {
  // A saved entry names user files relative to itself, so the corpus replays from any directory.
  const jsonPath = opts.saveDir === undefined ? undefined : join(opts.saveDir, `${findingName(variant.name, suite.name, ctx.lat.name, f.seed)}.json`);
  const stored = (spec: string): string => (jsonPath !== undefined && isModuleFile(spec) ? pathFromEntry(spec, jsonPath) : spec);
  const entry = caseToEntry(ctx.lat, isPairCase(value) ? { kind: 'pair', value } : { kind: 'single', value }, {
    variant: stored(opts.variantSpec), suite: suite.name, seed: f.seed, path: f.path, reason: f.reason.split('\n')[0]!,
    ...(opts.primsFile ? { prims: stored(opts.primsFile) } : {}),
    ...(opts.latticeFile ? { latticeFile: stored(opts.latticeFile) } : {}),
  });
  const replay = [
    `npx llmbda hunt --variant ${opts.variantSpec} --suite ${suite.name} --lattice '${opts.latticeFile ?? ctx.lat.name}' --seed ${f.seed} ${opts.budgetFlags ?? `--runs ${f.testsToFailure}`}${opts.primsFile ? ` --prims ${opts.primsFile}` : ''}`,
  ];
  const header: ReportHeader = {
    variant: variant.name, variantDescription: variant.description, suite: suite.name, suiteTitle: suite.title, lattice: ctx.lat.name,
    reason: f.reason, seed: f.seed, path: f.path, testsToFailure: f.testsToFailure, timeToFailureMs: f.timeToFailureMs, shrinks: f.shrinks,
    ...(minimised ? { minimised } : {}), replay,
  };
  const cr = isPairCase(value) ? pairCaseReport(ctx, value, header) : singleCaseReport(ctx, value, header);
  return { entry, report: cr.text, explanation: cr.explanation, size: caseSize(value) };
}

/** Minimise, build the corpus entry and write the report (saving is the caller's: `saveFinding`). */
export function finishFinding(
  opts: FinishOptions, variant: Variant, suite: LlmbdaSuite, ctx: LlmbdaCtx<unknown>, value: AnyCase<unknown>, f: Found,
): { finding: Finding; report: string } {
  const shrunkSize = caseSize(value);
  let final = value;
  let minimised: ReportHeader['minimised'];
  let reason = f.reason;
  if (opts.minimise !== false) {
    const onImprove = opts.onImprove;
    const m = minimise(suite, ctx, value, opts.minimiseChecks !== undefined ? Infinity : opts.minimiseMs ?? 10_000, {
      ...(opts.minimiseChecks !== undefined ? { maxChecks: opts.minimiseChecks } : {}),
      ...(onImprove ? {
        onImprove: (c: AnyCase<unknown>) => {
          const j = judge(suite, ctx, c);
          onImprove(describeFinding(opts, variant, suite, ctx, c, { ...f, reason: j.ok === false ? j.reason : f.reason }));
        },
      } : {}),
    });
    final = m.value;
    minimised = { before: m.before, after: m.after, steps: m.steps };
    const j = judge(suite, ctx, final);
    if (j.ok === false) reason = j.reason;
  }
  const d = describeFinding(opts, variant, suite, ctx, final, { ...f, reason }, minimised);
  const leak = isPairCase(final) && pairShowsLeak(ctx, final);
  const finding: Finding = { ...f, reason, leak, shrunkSize, size: d.size, value: final, entry: d.entry, explanation: d.explanation };
  return { finding, report: d.report };
}
