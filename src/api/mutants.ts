/**
 * `mutants` as a function: hunt every generated rule mutant (src/variants/mutants.ts) with a time budget
 * and say, per mutant, which suite caught it, after how many cases, whether the evidence shows a leak,
 * and the minimised counterexample — or that it survived, with the soundness sketch that explains why
 * (MUTANT_SKETCHES) or, if none is written, that it is unexplained (a gap in the suites, or a proof owed).
 */
import { generateMutants, type Mutant } from '../variants/mutants.ts';
import { MUTANT_SKETCHES } from '../variants/mutant-sketches.ts';
import { UserError } from '../util/absurd.ts';
import { defaultSeed } from '../runner/seed.ts';
import { hunt } from './hunt.ts';
import type { LatticeSpec } from './resolve.ts';

/**
 * The suites a mutant is hunted with, in order, and their share of the budget: Confinement and the two
 * noninterference theorems first (three quarters), then the proof's lemmas on the derived ⇓♯.
 */
export const MUTANT_SUITES = [
  ['confinement', 1], ['tipni', 1], ['insulated-tipni', 1], ['stripping', 1 / 3], ['high-blindness', 1 / 3], ['lemma13', 1 / 3],
] as const;

export interface MutantsOptions {
  /** Search budget per mutant in ms (default 10 s), shared by its suites. */
  readonly timeMs?: number;
  /** Most cases per (suite, lattice) (default: the time budget decides); with a seed, a deterministic run. */
  readonly runs?: number;
  readonly seed?: number;
  readonly lattices?: readonly LatticeSpec[];
  /** Only mutants whose name contains one of these (default: all). */
  readonly only?: readonly string[];
  /** Minimiser budget per caught mutant in ms (default 2 s; 0 skips it). */
  readonly minimiseMs?: number;
  /** Called after each mutant (progress). */
  readonly onMutant?: (row: MutantRow, index: number, total: number) => void;
}

/** One row of the table. */
export interface MutantRow {
  readonly mutant: Mutant;
  readonly caught?: {
    readonly suite: string;
    readonly lattice: string;
    readonly testsToFailure: number;
    /** The report's evidence shows two related runs m tells apart (else a law of the proof fails). */
    readonly leak: boolean;
    /** Minimised counterexample: observer/pc and the program(s), one line. */
    readonly counterexample: string;
    readonly size: number;
    readonly seed: number;
  };
  /** Why it survived: its soundness sketch, or `undefined` when none is written (unexplained). */
  readonly sketch?: string;
  readonly cases: number;
  readonly ms: number;
}

/** Hunt the generated mutants. */
export async function huntMutants(opts: MutantsOptions = {}): Promise<MutantRow[]> {
  const all = generateMutants();
  const mutants = opts.only ? all.filter((m) => opts.only!.some((o) => m.name.includes(o))) : all;
  if (mutants.length === 0) throw new UserError(`no generated mutant matches ${JSON.stringify(opts.only)}; names look like ${all[0]!.name} (llmbda mutants --list)`);
  const seed = opts.seed ?? defaultSeed();
  const budget = opts.timeMs ?? 10_000;
  const rows: MutantRow[] = [];
  for (const [i, mutant] of mutants.entries()) {
    const t0 = performance.now();
    let cases = 0;
    let row: MutantRow | undefined;
    for (const [k, [suite, weight]] of MUTANT_SUITES.entries()) {
      const left = Math.max(0, budget - (performance.now() - t0));
      const rest = MUTANT_SUITES.slice(k).reduce((a, [, w]) => a + w, 0);
      const r = await hunt({
        variant: mutant, suite, seed, timeMs: Math.max(50, (left * weight) / rest),
        ...(opts.runs !== undefined ? { runs: opts.runs } : {}), ...(opts.lattices ? { lattices: opts.lattices } : {}),
        minimise: (opts.minimiseMs ?? 2000) > 0, minimiseMs: opts.minimiseMs ?? 2000,
      });
      cases += r.tried;
      const f = r.finding;
      if (f) {
        const e = f.entry;
        const convs = e.conversations.some((c) => c.messages.length > 0) || new Set(e.conversations.map((c) => c.label)).size > 1 || e.conversations.some((c) => c.label !== '[]')
          ? ` C=${e.conversations.map((c) => `${c.label}:${JSON.stringify(c.messages)}`).join('|')}` : '';
        const where = `${e.kind === 'pair' ? `m=${e.observer ?? '?'} ` : ''}pc=${e.pc}${convs}`;
        row = {
          mutant, cases, ms: performance.now() - t0,
          caught: { suite: f.suite, lattice: f.lattice, testsToFailure: f.testsToFailure, leak: f.leak, size: f.size, seed, counterexample: `${where}: ${e.programs.join('  |  ')}` },
        };
        break;
      }
    }
    row ??= { mutant, cases, ms: performance.now() - t0, ...(MUTANT_SKETCHES[mutant.name] ? { sketch: MUTANT_SKETCHES[mutant.name]! } : {}) };
    rows.push(row);
    opts.onMutant?.(row, i, mutants.length);
  }
  return rows;
}

/** The table as Markdown (what docs/variants.md publishes). */
export function mutantsMarkdown(rows: readonly MutantRow[]): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const out = [
    '| mutant | change | verdict | suite, lattice | tests to failure | counterexample (minimised) |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const c = r.caught;
    out.push(c
      ? `| \`${r.mutant.name}\` | ${esc(r.mutant.change)} | ${c.leak ? 'caught: leak' : 'caught: law fails'} | ${c.suite}, ${c.lattice} | ${c.testsToFailure} | \`${esc(c.counterexample)}\` (${c.size} nodes) |`
      : `| \`${r.mutant.name}\` | ${esc(r.mutant.change)} | ${r.sketch ? 'survived: sound' : '**survived: UNEXPLAINED**'} | – | – (${r.cases} cases) | ${r.sketch ? esc(r.sketch) : 'no soundness sketch: a gap in the suites or a proof owed'} |`);
  }
  return out.join('\n');
}

/** The table for a terminal. */
export function mutantsText(rows: readonly MutantRow[]): string {
  const out: string[] = [];
  for (const r of rows) {
    const c = r.caught;
    out.push(`${r.mutant.name.padEnd(34)} ${r.mutant.change}`);
    out.push(c
      ? `    caught by ${c.suite} on ${c.lattice} after ${c.testsToFailure} case${c.testsToFailure === 1 ? '' : 's'} (${c.leak ? 'a leak' : 'a law of the proof fails, no leak shown'}): ${c.counterexample}`
      : `    survived ${r.cases} cases: ${r.sketch ? `sound — ${r.sketch}` : 'UNEXPLAINED (no soundness sketch: a gap in the suites or a proof owed)'}`);
  }
  const caught = rows.filter((r) => r.caught).length;
  const leaks = rows.filter((r) => r.caught?.leak).length;
  const unexplained = rows.filter((r) => !r.caught && !r.sketch).length;
  out.push('', `${rows.length} mutants: ${caught} caught (${leaks} with a leak shown), ${rows.length - caught - unexplained} survived with a soundness sketch, ${unexplained} unexplained`);
  return out.join('\n');
}
