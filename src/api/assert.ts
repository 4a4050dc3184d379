/**
 * Assert-style entry points for users' own test files: they throw an `Error` whose message is the
 * readable report (minimised for LLMbda leaks), so any test runner shows the counterexample.
 */
import { runSuite, type PropertySuite, type RunOptions } from '../runner/suite.ts';
import { hunt, type HuntOptions } from './hunt.ts';
import { check, type CheckOptions } from './check.ts';

/** The error every assert helper throws: `message` is the report; the data are attached. */
export class PropertyFailure extends Error {
  override readonly name = 'PropertyFailure';
  constructor(message: string, readonly details: unknown) {
    super(message);
  }
  /** Typed guard. */
  static is(e: unknown): e is PropertyFailure {
    return e instanceof PropertyFailure;
  }
}

/**
 * Run one suite in a context you built (e.g. `referenceCtx(myLattice)` or `variantCtx(lat, myVariant)`)
 * and throw a `PropertyFailure` with the suite's own rendering of the (fast-check-shrunk) counterexample
 * unless every case holds and the suite is not vacuous. Defaults: 500 runs, a fresh seed (printed).
 */
export function assertSuite<Case, Ctx>(suite: PropertySuite<Case, Ctx>, ctx: Ctx, opts: Partial<RunOptions<Case>> = {}): void {
  const v = runSuite(suite, ctx, { runs: 500, ...opts });
  if (v.ok) return;
  const head = `${suite.name} (${suite.title}): ${v.status}, seed ${v.seed}, ${v.runs} cases`;
  const body =
    v.status === 'fails' ? [`counterexample after ${v.counterexample.testsToFailure} tests (path ${v.counterexample.path}):`, v.counterexample.pretty, `why: ${v.counterexample.reason}`]
    : v.status === 'vacuous' ? [`vacuous: ${v.vacuous.join('; ')}`]
    : [`error: ${v.error}`];
  throw new PropertyFailure([head, ...body].join('\n'), v);
}

/**
 * Hunt for a leak (deterministically: a `runs` budget per (suite, lattice), default 300) and throw a
 * `PropertyFailure` carrying the hunt's minimised report if one is found. Use it to assert that a
 * variant, a lattice or a primitive table is clean.
 */
export async function assertNoLeak(opts: HuntOptions): Promise<void> {
  const r = await hunt({ timeMs: 600_000, runs: 300, ...opts });
  if (r.found) throw new PropertyFailure(r.report, r);
}

/**
 * The opposite: assert that a hunt *finds* a leak (a known-bad change is still caught). Returns the
 * result (its `report` is the minimised counterexample); throws a `PropertyFailure` if nothing is found.
 */
export async function assertLeaks(opts: HuntOptions): Promise<Awaited<ReturnType<typeof hunt>>> {
  const r = await hunt({ timeMs: 600_000, runs: 2_000, ...opts });
  if (!r.found) throw new PropertyFailure(`expected a leak, found none:\n${r.report}`, r);
  return r;
}

/** Run `check` and throw a `PropertyFailure` with its report unless every verdict holds. */
export async function assertHolds(opts: CheckOptions = {}): Promise<void> {
  const r = await check(opts);
  if (!r.ok) throw new PropertyFailure(r.report, r);
}
