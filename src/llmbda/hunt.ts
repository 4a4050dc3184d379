/**
 * The LLMbda side of a hunt, after the shared driver (src/runner/hunt.ts) found a failing case:
 * minimise it, turn it into a corpus entry (saved only when asked), and write the report.
 */
import type { LlmbdaCtx, LlmbdaSuite } from './context.ts';
import type { Variant } from '../variants/variant.ts';
import { judge } from '../runner/suite.ts';
import { caseSize, minimise, type AnyCase } from './minimise.ts';
import { isPairCase } from './variant-ctx.ts';
import { caseToEntry, saveEntry, slug, type CorpusEntry } from './corpus.ts';
import { pairReport, pairShowsLeak, singleReport, type ReportHeader } from './report.ts';

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
}

/** What is known about a finding before minimising and saving it. */
export type Found = Omit<Finding, 'shrunkSize' | 'size' | 'value' | 'entry' | 'savedTo' | 'leak'>;

export interface FinishOptions {
  /** How the variant is named in the corpus entry and the replay command (a catalogue name or a file path). */
  readonly variantSpec: string;
  readonly primsFile?: string;
  /** Run the minimiser (default true) with this budget (default 10 s). */
  readonly minimise?: boolean;
  readonly minimiseMs?: number;
  /** Directory to save the entry in; nothing is written without it. */
  readonly saveDir?: string;
}

/** Minimise, build the corpus entry, save it when asked, and write the report. */
export function finishFinding(
  opts: FinishOptions, variant: Variant, suite: LlmbdaSuite, ctx: LlmbdaCtx<unknown>, value: AnyCase<unknown>, f: Found,
): { finding: Finding; report: string } {
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
  const entry = caseToEntry(ctx.lat, isPairCase(final) ? { kind: 'pair', value: final } : { kind: 'single', value: final }, {
    variant: opts.variantSpec, suite: suite.name, seed: f.seed, path: f.path, reason: reason.split('\n')[0]!,
    ...(opts.primsFile ? { prims: opts.primsFile } : {}),
  });
  const name = `${slug(variant.name)}-${slug(ctx.lat.name)}-${f.seed}`;
  const savedTo = opts.saveDir === undefined ? undefined : saveEntry(opts.saveDir, name, entry, ctx.lat);
  const replay = [
    ...(savedTo ? [`npx llmbda replay ${savedTo}`] : []),
    `npx llmbda hunt --variant ${opts.variantSpec} --suite ${suite.name} --lattice '${ctx.lat.name}' --seed ${f.seed}${opts.primsFile ? ` --prims ${opts.primsFile}` : ''}`,
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
  const leak = isPairCase(final) && pairShowsLeak(ctx, final);
  const finding: Finding = { ...f, reason, leak, shrunkSize, size: caseSize(final), value: final, entry, ...(savedTo ? { savedTo } : {}) };
  return { finding, report };
}
