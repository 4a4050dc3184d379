/**
 * Hunting for PPMF counterexamples: run the property suites against one system (or broken variant),
 * stop at the first failure, shrink it, and tell the story the paper tells — untrusted page →
 * laundered memory → high-risk call allowed — with the seed and the command that replays it.
 */
import { drive } from '../runner/hunt.ts';
import { defaultSeed } from '../runner/seed.ts';
import { UserError } from '../util/absurd.ts';
import type { AnyPpmfSuite, PpmfCtx } from './context.ts';
import type { Scenario } from './scenario.ts';
import { systemByName } from './variants.ts';

/** Options of a PPMF hunt. */
export interface PpmfHuntOptions {
  /** The suites to search, in order (the registry's `PPMF_SUITES`: injected, this module knows none). */
  readonly suites: readonly AnyPpmfSuite[];
  /** System or variant name (`no-defence`, `gate-only`, `ppmf`, `loose-confirmation`, …). */
  readonly variant: string;
  readonly seed?: number;
  /** Total time budget in milliseconds (default 10 s), shared by the suites. */
  readonly timeMs?: number;
  /** Cases per suite (default RUNS_PER_SUITE); the search also stops at `timeMs`. */
  readonly runs?: number;
  /** Run only this suite (`gate-soundness` or `ppmf-gate-soundness`, …). */
  readonly suite?: string;
  /** Called the moment a first failing case is found, before shrinking (an interrupted hunt can say so). */
  readonly onFound?: (suite: string, reason: string, testsToFailure: number) => void;
}

/** The result of a PPMF hunt. */
export interface PpmfHuntResult {
  readonly found: boolean;
  /** Cases generated over all suites run. */
  readonly tried: number;
  readonly report: string;
  /** Machine-readable summary (JSON-safe). */
  readonly json?: unknown;
  /** Each suite searched, in order, with its cases and time (the last one is the failing one, if any). */
  readonly searched: readonly HuntSearched[];
  /** The first failing case (or the suite that crashed), for the JUnit and GitHub reporters. */
  readonly failure?: HuntFailure;
}

/** A suite searched by a system hunt. */
export interface HuntSearched { readonly suite: string; readonly cases: number; readonly ms: number }

/** Where a system hunt stopped: a counterexample (`error: false`) or a suite that crashed. */
export interface HuntFailure {
  readonly suite: string;
  readonly error: boolean;
  readonly reason: string;
  readonly path: string | null;
  readonly testsToFailure: number;
  readonly shrinks: number;
}

/** Cases per suite before moving on (the time budget may stop a suite earlier). */
const RUNS_PER_SUITE = 2000;

function suitesFor(all: readonly AnyPpmfSuite[], name: string | undefined): readonly AnyPpmfSuite[] {
  if (name === undefined) return all;
  const s = all.find((x) => x.name === name || x.name === `ppmf-${name}`);
  if (s === undefined) throw new UserError(`unknown PPMF suite ${JSON.stringify(name)}; choose one of: ${all.map((x) => x.name).join(', ')}`);
  return [s];
}

/** The scenario inside a suite's case (cases are scenarios or records holding one). */
function scenarioOf(c: unknown): Scenario | undefined {
  if (typeof c !== 'object' || c === null) return undefined;
  if ('scenario' in c) return (c as { scenario: Scenario }).scenario;
  return 'sources' in c ? (c as Scenario) : undefined;
}

/** Hunt for a counterexample to the PPMF properties on one system (on the shared hunt driver). */
export function huntPpmf(opts: PpmfHuntOptions): PpmfHuntResult {
  const system = systemByName(opts.variant);
  const suites = suitesFor(opts.suites, opts.suite);
  const seed = opts.seed ?? defaultSeed();
  const started = performance.now();
  const replay = `npx llmbda hunt --system ppmf --variant ${system.name} --seed ${seed}${opts.suite !== undefined ? ` --suite ${opts.suite}` : ''}${opts.runs !== undefined ? ` --runs ${opts.runs}` : ''}`;
  const ctx: PpmfCtx = { system };
  const d = drive(suites.map((suite) => ({ suite, ctx, label: system.name })), {
    seed, timeMs: opts.timeMs ?? 10_000, runs: opts.runs ?? RUNS_PER_SUITE, minShareMs: 200,
    ...(opts.onFound ? { onFailure: (t: { readonly suite: { readonly name: string } }, _c: unknown, reason: string, at: { readonly testsToFailure: number }) => opts.onFound!(t.suite.name, reason, at.testsToFailure) } : {}),
  });
  const tried = d.tried;
  const searched = d.searched.map((s) => ({ suite: s.suite, cases: s.cases, ms: s.ms }));
  const suite = d.hit?.target.suite ?? d.error?.target.suite;
  if (suite !== undefined) {
    const cx = d.hit?.counterexample;
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
        ? `error: ${d.error?.message ?? ''}`
        : `after ${cx.testsToFailure} case(s), shrunk ${cx.shrinks} time(s); seed ${seed}, path ${cx.path}`,
      ...(cx === undefined ? [] : [`Why: ${cx.reason}`, '', cx.pretty]),
      '',
      `Replay: ${replay}`,
    ].join('\n');
    return {
      found: true,
      tried,
      report,
      searched,
      failure: { suite: suite.name, error: cx === undefined, reason: cx?.reason ?? d.error?.message ?? '', path: cx?.path ?? null, testsToFailure: cx?.testsToFailure ?? 0, shrinks: cx?.shrinks ?? 0 },
      json: {
        system: system.name,
        suite: suite.name,
        title: suite.title,
        seed,
        path: cx?.path ?? '',
        testsToFailure: cx?.testsToFailure ?? 0,
        shrinks: cx?.shrinks ?? 0,
        reason: cx?.reason ?? d.error?.message ?? '',
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
  return { found: false, tried, report, searched, json: { system: system.name, seed, tried, found: false, replay } };
}
