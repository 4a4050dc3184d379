/**
 * Rendering of observed distributions for counterexample reports (the one renderer `check`, `hunt`,
 * `replay` and the suites share): one row per `∼m` class with exact fractions and an ASCII bar per run,
 * each run's mass, and `Σ max` against 1.
 */
import * as Q from '../distributions/rational.ts';
import type { SubDist } from '../distributions/subdist.ts';

const BAR = 20;

/** An ASCII bar of `w` (a weight in [0, 1]) out of `BAR` cells: `#` filled, `.` empty. */
export function bar(w: Q.Rational): string {
  const n = Math.max(0, Math.min(BAR, Math.round(Q.toNumber(w) * BAR)));
  return '#'.repeat(n) + '.'.repeat(BAR - n);
}

/** One `∼m` class with its weight in each run. */
export interface ObservedRow {
  readonly shown: string;
  readonly w0: Q.Rational;
  readonly w1: Q.Rational;
}

/** `Σ_q max(μ0(q), μ1(q))` of the rows. */
export function rowsMaxSum(rows: readonly ObservedRow[]): Q.Rational {
  return rows.reduce((a, r) => Q.add(a, Q.max(r.w0, r.w1)), Q.ZERO);
}

/** The table: fractions and a bar per class and run, then the mass of each run and `Σ max` against 1. */
export function renderObserved(rows: readonly ObservedRow[], heads: readonly [string, string] = ['run 0', 'run 1']): string {
  const frac = (w: Q.Rational): string => Q.show(w).padStart(7);
  const cell = (w: Q.Rational): string => `${frac(w)} ${bar(w)}`;
  const width = 8 + BAR;
  const out = [`  ${heads[0].padEnd(width)}  ${heads[1].padEnd(width)}  what m sees (conversation ⊢ value)`];
  for (const r of rows) out.push(`  ${cell(r.w0)}  ${cell(r.w1)}  ${r.shown}`);
  if (rows.length === 0) out.push('  (both runs have mass 0: nothing terminates)');
  const m0 = rows.reduce((a, r) => Q.add(a, r.w0), Q.ZERO), m1 = rows.reduce((a, r) => Q.add(a, r.w1), Q.ZERO);
  out.push(`  ${`mass ${Q.show(m0)}`.padEnd(width)}  mass ${Q.show(m1)}`);
  const ms = rowsMaxSum(rows);
  out.push(`  Σ max = ${Q.show(ms)} ${Q.lt(Q.ONE, ms) ? '> 1: incompatible — no single sub-distribution covers both, so m can tell the runs apart (a leak)' : '≤ 1: compatible (what m sees is explained by one sub-distribution)'}`);
  return out.join('\n');
}

/** Two observed distributions (keyed by erased class) side by side: the rows are the classes themselves. */
export function showObserved(mu0: SubDist<string>, mu1: SubDist<string>): string {
  const keys = [...new Set([...mu0.table.keys(), ...mu1.table.keys()])].sort();
  const w = (d: SubDist<string>, k: string): Q.Rational => d.table.get(k)?.weight ?? Q.ZERO;
  return renderObserved(keys.map((k) => ({ shown: k, w0: w(mu0, k), w1: w(mu1, k) })));
}
