/**
 * The body of `llmbda hunt --system ppmf|endorse|banking`, run inside a supervised worker (src/cli/large-stack.ts)
 * like the LLMbda hunt: the CLI thread stays free for SIGINT/SIGTERM, and the watchdog stops a case that makes
 * no progress for `--case-timeout`. Each first failure is posted as an event the moment it is found (the CLI
 * prints it if interrupted while shrinking); the result is plain data.
 */
import { ENDORSE_SUITES, PPMF_SUITES } from '../api/registry.ts';
import { huntPpmf, type HuntFailure, type HuntSearched } from '../ppmf/hunt.ts';
import { huntEndorse } from '../endorse/hunt.ts';
import { huntBanking } from '../api/banking-hunt.ts';

/** What the CLI passes. */
export interface SystemHuntArgs {
  readonly system: 'ppmf' | 'endorse' | 'banking';
  readonly variant?: string;
  readonly timeMs: number;
  readonly seed?: number;
  readonly suite?: string;
  /** `--runs`: cases per suite (per family for banking). */
  readonly runs?: number;
}

/** What comes back. */
export interface SystemHuntResult {
  readonly found: boolean; readonly tried: number; readonly report: string; readonly json?: unknown;
  /** The suites searched and the first failure: one JUnit testcase / GitHub annotation per suite. */
  readonly searched: readonly HuntSearched[]; readonly failure?: HuntFailure;
}

/** A failing case found (before shrinking): what an interrupted hunt can still say. */
export interface SystemFound { readonly kind: 'found'; readonly suite: string; readonly reason: string; readonly testsToFailure: number }

export function executeSystemHunt(a: SystemHuntArgs, emit: (ev: SystemFound) => void = () => {}): SystemHuntResult {
  const common = { timeMs: a.timeMs, ...(a.seed !== undefined ? { seed: a.seed } : {}), ...(a.suite ? { suite: a.suite } : {}), ...(a.runs !== undefined ? { runs: a.runs } : {}) };
  let r: SystemHuntResult;
  switch (a.system) {
    case 'ppmf':
      r = huntPpmf({ suites: PPMF_SUITES, variant: a.variant ?? 'ppmf', ...common, onFound: (suite, reason, testsToFailure) => emit({ kind: 'found', suite, reason, testsToFailure }) });
      break;
    case 'endorse':
      r = huntEndorse({ suites: ENDORSE_SUITES, variant: a.variant ?? 'reference', ...common });
      break;
    case 'banking':
      r = huntBanking({ variant: a.variant ?? 'ifc-off', ...common });
      break;
  }
  return { found: r.found, tried: r.tried, report: r.report, searched: r.searched, ...(r.failure ? { failure: r.failure } : {}), ...(r.json !== undefined ? { json: r.json } : {}) };
}
