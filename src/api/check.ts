/**
 * `check` as a function: run LLMbda theorem suites on lattices (objects or names) against the reference
 * semantics or a variant (object or name), with optional extra primitives, in this thread. A lattice
 * that is not shipped has its laws checked first; a lattice that breaks them gets no theorem verdicts.
 * Nothing is read from or written to disk (no corpus examples), so a verdict depends on the seed alone.
 */
import { SHIPPED_LATTICES } from '../lattice/registry.ts';
import type { AnyLattice } from '../lattice/lattice.ts';
import type { PrimTable } from '../semantics/model.ts';
import { runSuite, type Verdict } from '../runner/suite.ts';
import { defaultSeed } from '../runner/seed.ts';
import type { LlmbdaSuite } from '../llmbda/context.ts';
import { variantCtx, REFERENCE_VARIANT, suiteRefusal } from '../llmbda/variant-ctx.ts';
import { UserError } from '../util/absurd.ts';
import { checkLattice } from '../../properties/lattice-laws.ts';
import { LLMBDA_SUITES } from './registry.ts';
import { latticeOf, suiteOf, variantOf, type LatticeSpec, type SuiteSpec, type VariantSpec } from './resolve.ts';
import { withInjectedPrims } from './hunt.ts';

/** Options of `check`. */
export interface CheckOptions {
  /** Suites to run (objects or names; default: every LLMbda theorem suite). */
  readonly suites?: readonly SuiteSpec[];
  /** Lattices (objects, shipped names or files; default: the shipped lattices). */
  readonly lattices?: readonly LatticeSpec[];
  /** The semantics under test (default: the reference). */
  readonly variant?: VariantSpec;
  /** Extra primitives added to every model; generated programs call them. */
  readonly prims?: PrimTable;
  /** Generated cases per (suite, lattice) (default 500). */
  readonly runs?: number;
  readonly seed?: number;
}

/** One verdict of a check: a suite on a lattice. */
export interface CheckVerdict {
  readonly suite: string;
  readonly lattice: string;
  readonly verdict: Verdict<unknown>;
}

/** The result of `check`: every verdict, whether all hold, and a readable summary. */
export interface CheckResult {
  readonly ok: boolean;
  readonly seed: number;
  readonly verdicts: readonly CheckVerdict[];
  /** Suites left out because they cannot judge this variant (only when no suites were named), with why. */
  readonly skipped: readonly { readonly suite: string; readonly reason: string }[];
  readonly report: string;
}

/** Run the suites; never throws for a property violation (verdicts are data). */
export async function check(opts: CheckOptions = {}): Promise<CheckResult> {
  const seed = opts.seed ?? defaultSeed();
  const runs = opts.runs ?? 500;
  const variant = opts.variant !== undefined ? await variantOf(opts.variant) : REFERENCE_VARIANT;
  const named: LlmbdaSuite[] = (opts.suites ?? LLMBDA_SUITES).map(suiteOf);
  const skipped = named.flatMap((s) => { const reason = suiteRefusal(s, variant, { named: opts.suites !== undefined }); return reason ? [{ suite: s.name, reason }] : []; });
  if (skipped.length > 0 && opts.suites !== undefined) throw new UserError(skipped[0]!.reason);
  const suites = named.filter((s) => !skipped.some((k) => k.suite === s.name));
  const lattices: AnyLattice[] = [];
  for (const l of opts.lattices ?? SHIPPED_LATTICES) lattices.push(await latticeOf(l));
  const verdicts: CheckVerdict[] = [];
  for (const lat of lattices) {
    if (!(SHIPPED_LATTICES as readonly string[]).includes(lat.name)) {
      const laws = checkLattice(lat, { runs, seed });
      verdicts.push({ suite: 'lattice-laws', lattice: lat.name, verdict: laws as Verdict<unknown> });
      if (!laws.ok) continue;
    }
    const ctx = variantCtx(lat, variant, opts.prims ? { prims: opts.prims } : undefined);
    for (const s of suites) {
      if (opts.prims && s.name === 'theorem3') continue; // peval knows only the model's own primitives
      verdicts.push({ suite: s.name, lattice: lat.name, verdict: runSuite(withInjectedPrims(s, opts.prims), ctx, { runs, seed }) });
    }
  }
  const ok = verdicts.every((v) => v.verdict.ok);
  const lines = [`${variant.name === 'reference' ? 'reference semantics' : `variant ${variant.name}`}, seed ${seed}, ${runs} runs`];
  for (const v of verdicts) {
    lines.push(`  ${v.suite.padEnd(16)} ${v.lattice.padEnd(14)} ${v.verdict.status}`);
    if (v.verdict.counterexample) lines.push(v.verdict.counterexample.pretty.replace(/^/gm, '      '), `      why: ${v.verdict.counterexample.reason.split('\n')[0]}`);
    if (v.verdict.status === 'vacuous') lines.push(`      vacuous: ${v.verdict.vacuous.join('; ')}`);
    if (v.verdict.status === 'error') lines.push(`      error: ${v.verdict.error}`);
  }
  for (const s of skipped) lines.push(`  not run: ${s.reason}`);
  lines.push(ok ? `all ${verdicts.length} verdicts hold` : `${verdicts.filter((v) => !v.verdict.ok).length} of ${verdicts.length} verdicts do not hold`);
  return { ok, seed, verdicts, skipped, report: lines.join('\n') };
}
