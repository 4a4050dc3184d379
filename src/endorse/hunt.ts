/**
 * `llmbda hunt --system endorse --variant NAME`: hunt a prelude variant of robust_endorse/bounded_endorse
 * (src/endorse/variants.ts) with the endorse suites (properties/endorse-*.ts). Stops at the first
 * counterexample (fast-check shrinks it) and prints it with its seed and path; `reference` hunts the
 * standard prelude (a clean bill is expected). Same interface as the PPMF hunter.
 */
import type { PropertySuite } from '../runner/suite.ts';
import { drive } from '../runner/hunt.ts';
import { defaultSeed } from '../runner/seed.ts';
import { UserError } from '../util/absurd.ts';
import { PRELUDE_VARIANTS, preludeVariantByName } from './variants.ts';
import type { EndorseCtx } from './cases.ts';
import type { HuntFailure, HuntSearched } from '../ppmf/hunt.ts';

/** An endorse suite of any case type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEndorseSuite = PropertySuite<any, EndorseCtx>;

/** Options of an endorse hunt; `suites` is the registry's `ENDORSE_SUITES` (injected). */
export interface EndorseHuntOptions { readonly suites: readonly AnyEndorseSuite[]; readonly variant: string; readonly seed?: number; readonly timeMs?: number; readonly suite?: string; /** Cases per suite (default 100,000). */ readonly runs?: number }
/** The result of an endorse hunt. */
export interface EndorseHuntResult {
  readonly found: boolean; readonly tried: number; readonly report: string; readonly json: unknown;
  /** Each suite searched, and the first failing case (for the JUnit and GitHub reporters). */
  readonly searched: readonly HuntSearched[]; readonly failure?: HuntFailure;
}

/** Hunt one prelude variant (or `reference`). */
export function huntEndorse(opts: EndorseHuntOptions): EndorseHuntResult {
  const v = opts.variant === 'reference' ? undefined : preludeVariantByName(opts.variant);
  if (opts.variant !== 'reference' && !v) {
    throw new UserError(`--system endorse: unknown variant ${JSON.stringify(opts.variant)}; expected reference or ${PRELUDE_VARIANTS.map((x) => x.name).join(', ')}`);
  }
  const suiteName = opts.suite ?? v?.caughtBy;
  const all = opts.suites;
  const suites = suiteName === undefined || suiteName === 'all' ? all : all.filter((s) => s.name === suiteName);
  if (suites.length === 0) throw new UserError(`--system endorse: unknown suite ${JSON.stringify(suiteName)}; expected ${all.map((s) => s.name).join(', ')} or all`);
  const seed = opts.seed ?? defaultSeed();
  const budget = opts.timeMs ?? 30_000;
  const started = performance.now();
  const replay = `npx llmbda hunt --system endorse --variant ${opts.variant} --seed ${seed}${opts.suite !== undefined ? ` --suite ${opts.suite}` : ''}`;
  const ctx: EndorseCtx = { prelude: opts.variant };
  const d = drive(suites.map((suite) => ({ suite, ctx, label: opts.variant })), { seed, timeMs: budget, runs: opts.runs ?? 100_000, minShareMs: 500 });
  const tried = d.tried;
  const searched = d.searched.map((s) => ({ suite: s.suite, cases: s.cases, ms: s.ms }));
  const suite = d.hit?.target.suite ?? d.error?.target.suite;
  if (suite !== undefined) {
    const cx = d.hit?.counterexample;
    const report = [
      `endorse hunt on ${v ? `${v.name}: ${v.description}` : 'the standard prelude'}`,
      `FOUND a counterexample to ${suite.name} — ${suite.title}`,
      cx === undefined ? `error: ${d.error?.message ?? ''}` : `after ${cx.testsToFailure} case(s), shrunk ${cx.shrinks} time(s); seed ${seed}, path ${cx.path}`,
      ...(cx === undefined ? [] : [`Why: ${cx.reason}`, '', cx.pretty]),
      '',
      `Replay: ${replay}`,
    ].join('\n');
    const failure = { suite: suite.name, error: cx === undefined, reason: cx?.reason ?? d.error?.message ?? '', path: cx?.path ?? null, testsToFailure: cx?.testsToFailure ?? 0, shrinks: cx?.shrinks ?? 0 };
    return { found: true, tried, report, searched, failure, json: { found: true, variant: opts.variant, suite: suite.name, seed, path: cx?.path, tried, reason: cx?.reason ?? d.error?.message, case: cx?.value } };
  }
  const report = `endorse hunt on ${v ? v.name : 'the standard prelude'}: no counterexample in ${tried} case(s) (${suites.map((s) => s.name).join(', ')}; seed ${seed}, ${Math.round(performance.now() - started)} ms)`;
  return { found: false, tried, report, searched, json: { found: false, variant: opts.variant, seed, tried } };
}
