/**
 * Loading and validating the user files `check` names (`--lattice FILE.ts`, `--variant FILE.ts`) up front, so a
 * bad file fails with one clear message before any job starts. `check` runs this in a supervised worker
 * (src/cli/large-stack.ts) whenever a user file is named: a file that loops at its top level is then stopped by
 * the import limit instead of hanging the CLI thread. What comes back is plain data: which suites the variant
 * refuses, and why.
 */
import { resolveLattice } from '../lattice/registry.ts';
import { resolveVariant } from '../variants/catalogue.ts';
import { suiteRefusal } from '../llmbda/variant-ctx.ts';
import { LLMBDA_SUITES } from '../api/registry.ts';

/** What `check` passes. */
export interface LoadTaskArgs {
  readonly lattices: readonly string[];
  readonly variant?: string;
  /** Were suites named with --suite (a named suite is refused, an unnamed one left out with a note)? */
  readonly named: boolean;
}

/** Suite name → why the variant cannot be judged by it (absent: it can). */
export interface LoadTaskResult {
  readonly refusals: Readonly<Record<string, string>>;
}

/** Is a `--lattice`/`--variant` value a user file (rather than a shipped name)? */
export const isUserFile = (spec: string): boolean => /\.(ts|js|mts|mjs)$/.test(spec);

export async function executeLoad(a: LoadTaskArgs): Promise<LoadTaskResult> {
  for (const l of a.lattices) await resolveLattice(l);
  const refusals: Record<string, string> = {};
  if (a.variant !== undefined) {
    const v = await resolveVariant(a.variant);
    for (const s of LLMBDA_SUITES) {
      const why = suiteRefusal(s, v, { named: a.named });
      if (why !== undefined) refusals[s.name] = why;
    }
  }
  return { refusals };
}
