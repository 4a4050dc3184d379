/**
 * `llmbda hunt --system endorse --variant NAME`: hunt a prelude variant of robust_endorse/bounded_endorse
 * (src/endorse/variants.ts) with the endorse suites (properties/endorse-*.ts). Stops at the first
 * counterexample (fast-check shrinks it) and prints it with its seed and path; `reference` hunts the
 * standard prelude (a clean bill is expected). Same interface as the PPMF hunter.
 */
import { runSuite, type PropertySuite } from '../check/suite.ts';
import { UserError } from '../util/absurd.ts';
import { endorseNoCascade } from '../../properties/endorse-no-cascade.ts';
import { endorseBounded } from '../../properties/endorse-bounded.ts';
import { PRELUDE_VARIANTS, preludeVariantByName } from './variants.ts';
import type { EndorseCtx } from './cases.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const SUITES: readonly PropertySuite<any, EndorseCtx>[] = [endorseNoCascade, endorseBounded];

export interface EndorseHuntOptions { readonly variant: string; readonly seed?: number; readonly timeMs?: number; readonly suite?: string }
export interface EndorseHuntResult { readonly found: boolean; readonly tried: number; readonly report: string; readonly json: unknown }

/** Hunt one prelude variant (or `reference`). */
export function huntEndorse(opts: EndorseHuntOptions): EndorseHuntResult {
  const v = opts.variant === 'reference' ? undefined : preludeVariantByName(opts.variant);
  if (opts.variant !== 'reference' && !v) {
    throw new UserError(`--system endorse: unknown variant ${JSON.stringify(opts.variant)}; expected reference or ${PRELUDE_VARIANTS.map((x) => x.name).join(', ')}`);
  }
  const suiteName = opts.suite ?? v?.caughtBy;
  const suites = suiteName === undefined || suiteName === 'all' ? SUITES : SUITES.filter((s) => s.name === suiteName);
  if (suites.length === 0) throw new UserError(`--system endorse: unknown suite ${JSON.stringify(suiteName)}; expected ${SUITES.map((s) => s.name).join(', ')} or all`);
  const seed = opts.seed ?? Date.now() % 2_147_483_647;
  const budget = opts.timeMs ?? 30_000;
  const started = performance.now();
  const replay = `npx llmbda hunt --system endorse --variant ${opts.variant} --seed ${seed}${opts.suite !== undefined ? ` --suite ${opts.suite}` : ''}`;
  let tried = 0;
  for (const [i, suite] of suites.entries()) {
    const left = budget - (performance.now() - started);
    const share = Math.max(500, left / (suites.length - i));
    const verdict = runSuite(suite, { prelude: opts.variant }, { runs: 100_000, seed, timeoutMs: share });
    tried += verdict.runs;
    const cx = verdict.counterexample;
    if (cx === undefined && verdict.error === undefined) continue;
    const report = [
      `endorse hunt on ${v ? `${v.name}: ${v.description}` : 'the standard prelude'}`,
      `FOUND a counterexample to ${suite.name} — ${suite.title}`,
      cx === undefined ? `error: ${verdict.error ?? ''}` : `after ${cx.testsToFailure} case(s), shrunk ${cx.shrinks} time(s); seed ${seed}, path ${cx.path}`,
      ...(cx === undefined ? [] : [`Why: ${cx.reason}`, '', cx.pretty]),
      '',
      `Replay: ${replay}`,
    ].join('\n');
    return { found: true, tried, report, json: { found: true, variant: opts.variant, suite: suite.name, seed, path: cx?.path, tried, reason: cx?.reason ?? verdict.error, case: cx?.value } };
  }
  const report = `endorse hunt on ${v ? v.name : 'the standard prelude'}: no counterexample in ${tried} case(s) (${suites.map((s) => s.name).join(', ')}; seed ${seed}, ${Math.round(performance.now() - started)} ms)`;
  return { found: false, tried, report, json: { found: false, variant: opts.variant, seed, tried } };
}
