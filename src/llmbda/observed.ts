/** Rendering of observed distributions for counterexample reports: fractions and an ASCII bar per class. */
import * as Q from '../distributions/rational.ts';
import type { SubDist } from '../distributions/subdist.ts';
import { maxSum } from '../distributions/subdist.ts';

const BAR = 24;

function bar(w: Q.Rational): string {
  const n = Math.round(Q.toNumber(w) * BAR);
  return '#'.repeat(n) + '.'.repeat(BAR - n);
}

/** Both observed distributions side by side, one row per `∼m` class, then `Σ max` against 1. */
export function showObserved(mu0: SubDist<string>, mu1: SubDist<string>): string {
  const keys = [...new Set([...mu0.table.keys(), ...mu1.table.keys()])].sort();
  const w = (d: SubDist<string>, k: string): Q.Rational => d.table.get(k)?.weight ?? Q.ZERO;
  const rows = keys.map((k) => {
    const a = w(mu0, k), b = w(mu1, k);
    return `  ${Q.show(a).padStart(9)} ${bar(a)} | ${Q.show(b).padStart(9)} ${bar(b)}  ${k}`;
  });
  const ms = maxSum(mu0, mu1);
  return [`  ${'run 0'.padStart(9)} ${' '.repeat(BAR)} | ${'run 1'.padStart(9)}`, ...rows,
    `  Σ max = ${Q.show(ms)} ${Q.lt(Q.ONE, ms) ? '> 1: incompatible (a leak)' : '≤ 1: compatible'}`].join('\n');
}
