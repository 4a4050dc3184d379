/**
 * Hunting for PPMF counterexamples: run the property suites against one system (or broken variant),
 * stop at the first failure, shrink it, and tell the story the paper tells — untrusted page →
 * laundered memory → high-risk call allowed — with the seed and the command that replays it.
 */
import { runSuite } from '../check/suite.ts';
import { UserError } from '../util/absurd.ts';
import type { AnyPpmfSuite } from '../../properties/ppmf-suites.ts';
import { PPMF_SUITES } from '../../properties/ppmf-suites.ts';
import type { Scenario } from './scenario.ts';
import { systemByName } from './variants.ts';

/** Options of a hunt. */
export interface HuntOptions {
  /** System or variant name (`no-defence`, `gate-only`, `ppmf`, `loose-confirmation`, …). */
  readonly variant: string;
  readonly seed?: number;
  /** Total time budget in milliseconds (default 10 s), shared by the suites. */
  readonly timeMs?: number;
  /** Run only this suite (`gate-soundness` or `ppmf-gate-soundness`, …). */
  readonly suite?: string;
}

/** The result of a hunt. */
export interface HuntResult {
  readonly found: boolean;
  /** Cases generated over all suites run. */
  readonly tried: number;
  readonly report: string;
  /** Machine-readable summary (JSON-safe). */
  readonly json?: unknown;
}

/** Cases per suite before moving on (the time budget may stop a suite earlier). */
const RUNS_PER_SUITE = 2000;

function suitesFor(name: string | undefined): readonly AnyPpmfSuite[] {
  if (name === undefined) return PPMF_SUITES;
  const s = PPMF_SUITES.find((x) => x.name === name || x.name === `ppmf-${name}`);
  if (s === undefined) throw new UserError(`unknown PPMF suite ${JSON.stringify(name)}; choose one of: ${PPMF_SUITES.map((x) => x.name).join(', ')}`);
  return [s];
}

/** The scenario inside a suite's case (cases are scenarios or records holding one). */
function scenarioOf(c: unknown): Scenario | undefined {
  if (typeof c !== 'object' || c === null) return undefined;
  if ('scenario' in c) return (c as { scenario: Scenario }).scenario;
  return 'sources' in c ? (c as Scenario) : undefined;
}

/** Hunt for a counterexample to the PPMF properties on one system. */
export function huntPpmf(opts: HuntOptions): HuntResult {
  const system = systemByName(opts.variant);
  const suites = suitesFor(opts.suite);
  const seed = opts.seed ?? Date.now() % 2_147_483_647;
  const budget = opts.timeMs ?? 10_000;
  const started = performance.now();
  const replay = `npx llmbda hunt --system ppmf --variant ${system.name} --seed ${seed}${opts.suite !== undefined ? ` --suite ${opts.suite}` : ''}`;
  let tried = 0;
  for (const [i, suite] of suites.entries()) {
    const left = budget - (performance.now() - started);
    const share = Math.max(200, left / (suites.length - i));
    const v = runSuite(suite, { system }, { runs: RUNS_PER_SUITE, seed, timeoutMs: share });
    tried += v.runs;
    const cx = v.counterexample;
    if (cx === undefined && v.error === undefined) continue;
    const sc = scenarioOf(cx?.value);
    const shape =
      sc === undefined
        ? undefined
        : {
            sources: sc.sources.length,
            untrustedSources: sc.sources.filter((o) => o.meta.channel !== 'user').length,
            priorMemories: sc.priors.length,
            decoys: sc.decoys.length,
            calls: 1,
          };
    const report = [
      `PPMF hunt on system ${system.name}: ${system.summary}`,
      `FOUND a counterexample to ${suite.name} — ${suite.title}`,
      cx === undefined
        ? `error: ${v.error ?? ''}`
        : `after ${cx.testsToFailure} case(s), shrunk ${cx.shrinks} time(s); seed ${seed}, path ${cx.path}`,
      ...(cx === undefined ? [] : [`Why: ${cx.reason}`, '', cx.pretty]),
      '',
      `Replay: ${replay}`,
    ].join('\n');
    return {
      found: true,
      tried,
      report,
      json: {
        system: system.name,
        suite: suite.name,
        title: suite.title,
        seed,
        path: cx?.path ?? '',
        testsToFailure: cx?.testsToFailure ?? 0,
        shrinks: cx?.shrinks ?? 0,
        reason: cx?.reason ?? v.error ?? '',
        shape,
        story: cx?.pretty ?? '',
        replay,
      },
    };
  }
  const report = [
    `PPMF hunt on system ${system.name}: ${system.summary}`,
    `no counterexample in ${tried} case(s) over ${suites.map((s) => s.name).join(', ')} (seed ${seed}, ${Math.round(performance.now() - started)} ms)`,
    `Replay: ${replay}`,
  ].join('\n');
  return { found: false, tried, report, json: { system: system.name, seed, tried, found: false, replay } };
}
