/**
 * `npm run bench:rational` (issue 12, part 4): the exact-rational backend (`src/distributions/rational.ts`)
 * against the Henrici form it had before its fast paths (a verbatim copy below: `Before`) and the eager
 * form with fast paths of the previous round (`Eager`, verbatim but for the shared `Q.gcd`), side by side in one process, on the weight arithmetic the evaluator does: forward marginalisation of (a) N fair flips and
 * (b) the 3-way chain mod 5 (denominators 2^k and 2^a·3^b), path weights (products of 1/2) and small
 * integers (a counter). Each workload is run by both backends in alternation, `--repeats` times; the cell is
 * the median CPU time of this process. Both answers are compared exactly (`p/q` text), and with an
 * independent closed form where there is one (binomial coefficients over 2^N).
 *
 * A second table puts today's Henrici form against common-denominator accumulation (`src/distributions/
 * common.ts`, part 4) on the same workloads and a mixed one, in the same process: a forward pass whose
 * rounds are summed by `CommonSum` and read back normalised after every round (what a round accumulator
 * in the evaluator would do), the same pass never normalised until the end (weights kept as integer
 * numerators over one denominator across rounds), and sums of a distribution's weights (`sumAll` against
 * a Henrici fold). Answers compared exactly with the Henrici ones and with closed forms.
 *
 * Flags: --repeats R (default 5), --no-doc. Writes the section `bench:rational` of docs/benchmarks.md.
 */
import { parseArgs } from 'node:util';
import * as Q from '../src/distributions/rational.ts';
import { CommonSum, sumAll } from '../src/distributions/common.ts';
import { renderTable } from '../src/util/table.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { median, showMs } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { repeats: { type: 'string' }, 'no-doc': { type: 'boolean', default: false } } });
const REPEATS = Number(flags.repeats ?? 5);

/** The operations a workload needs, over some representation `R`. */
interface Ops<R> { of(n: bigint, d: bigint): R; add(a: R, b: R): R; mul(a: R, b: R): R; show(a: R): string; zero: R }

/** The backend as it was before the fast paths (Euclid-only gcd, Henrici addition), copied verbatim. */
namespace Before {
  export interface R { readonly num: bigint; readonly den: bigint }
  function gcd(a: bigint, b: bigint): bigint {
    while (b !== 0n) [a, b] = [b, a % b];
    return a === 0n ? 1n : a;
  }
  export function of(num: bigint, den: bigint): R {
    if (den < 0n) { num = -num; den = -den; }
    const g = gcd(num < 0n ? -num : num, den);
    return g === 1n ? { num, den } : { num: num / g, den: den / g };
  }
  export function add(a: R, b: R): R {
    if (a.num === 0n) return b;
    if (b.num === 0n) return a;
    const g = gcd(a.den, b.den);
    if (g === 1n) return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
    const bg = b.den / g;
    const t = a.num * bg + b.num * (a.den / g);
    if (t === 0n) return { num: 0n, den: 1n };
    const g2 = gcd(t < 0n ? -t : t, g);
    return { num: t / g2, den: (a.den / g2) * bg };
  }
  export function mul(a: R, b: R): R {
    if (a.num === 0n || b.num === 0n) return { num: 0n, den: 1n };
    if (a.den === 1n && b.den === 1n) return { num: a.num * b.num, den: 1n };
    const g1 = gcd(a.num < 0n ? -a.num : a.num, b.den);
    const g2 = gcd(b.num < 0n ? -b.num : b.num, a.den);
    return { num: (a.num / g1) * (b.num / g2), den: (a.den / g2) * (b.den / g1) };
  }
  export const show = (a: R): string => (a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`);
}

/** The backend of the previous round (verbatim but for its gcd, today's `Q.gcd`): Henrici with exact gcd fast paths, every result reduced at once. */
namespace Eager {
  export interface R { readonly num: bigint; readonly den: bigint }
  // Its gcd (with the exact fast paths) is unchanged since and exported by the backend: shared, not copied.
  const gcd = Q.gcd;
  export function of(num: bigint, den: bigint): R {
    if (den < 0n) { num = -num; den = -den; }
    const g = gcd(num < 0n ? -num : num, den);
    return g === 1n ? { num, den } : { num: num / g, den: den / g };
  }
  const ZERO: R = { num: 0n, den: 1n };
  export function add(a: R, b: R): R {
    if (a.num === 0n) return b;
    if (b.num === 0n) return a;
    if (a.den === 1n && b.den === 1n) return { num: a.num + b.num, den: 1n };
    const g = a.den === b.den ? a.den : gcd(a.den, b.den);
    if (g === 1n) return { num: a.num * b.den + b.num * a.den, den: a.den * b.den };
    const bg = b.den / g;
    const t = a.num * bg + b.num * (a.den / g);
    if (t === 0n) return ZERO;
    const g2 = gcd(t < 0n ? -t : t, g);
    return { num: t / g2, den: (a.den / g2) * bg };
  }
  export function mul(a: R, b: R): R {
    if (a.num === 0n || b.num === 0n) return ZERO;
    if (a.den === 1n && b.den === 1n) return { num: a.num * b.num, den: 1n };
    const g1 = gcd(a.num < 0n ? -a.num : a.num, b.den);
    const g2 = gcd(b.num < 0n ? -b.num : b.num, a.den);
    return { num: (a.num / g1) * (b.num / g2), den: (a.den / g2) * (b.den / g1) };
  }
  export const show = (a: R): string => (a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`);
}

const EAGER: Ops<Eager.R> = { of: Eager.of, add: Eager.add, mul: Eager.mul, show: Eager.show, zero: Eager.of(0n, 1n) };
const BEFORE: Ops<Before.R> = { of: Before.of, add: Before.add, mul: Before.mul, show: Before.show, zero: Before.of(0n, 1n) };
const NOW: Ops<Q.Rational> = { of: (n, d) => Q.rat(n, d), add: Q.add, mul: Q.mul, show: Q.show, zero: Q.ZERO };

/** Forward marginalisation over `states` states: each step moves state s to (s + c) mod states with weight ps[c]. */
function forward<R>(o: Ops<R>, steps: number, states: number, ps: readonly (readonly [bigint, bigint])[], wrap: boolean): string[] {
  const w = ps.map(([n, d]) => o.of(n, d));
  let d: R[] = [o.of(1n, 1n)];
  for (let i = 0; i < steps; i++) {
    const nx: R[] = [];
    d.forEach((p, s) => w.forEach((q, c) => {
      const t = wrap ? (s + c) % states : s + c;
      nx[t] = o.add(nx[t] ?? o.zero, o.mul(p, q));
    }));
    d = nx;
  }
  return d.map((p) => o.show(p));
}

/** Weights of 2^n paths of n flips each, as the products the evaluator forms along each path. */
function paths<R>(o: Ops<R>, n: number): string[] {
  const half = o.of(1n, 2n);
  let ws: R[] = [o.of(1n, 1n)];
  for (let i = 0; i < n; i++) ws = ws.flatMap((w) => [o.mul(w, half), o.mul(w, half)]);
  let total = o.zero;
  for (const w of ws) total = o.add(total, w);
  return [o.show(total)];
}

/** A counter: n − 1 and acc + 1, `iters` times (integers only). */
function counter<R>(o: Ops<R>, iters: number): string[] {
  const one = o.of(1n, 1n), minusOne = o.of(-1n, 1n);
  let n = o.of(BigInt(iters), 1n), acc = o.zero;
  for (let i = 0; i < iters; i++) { n = o.add(n, minusOne); acc = o.add(acc, one); }
  return [o.show(n), o.show(acc)];
}

function binomialText(n: number): string[] {
  const out: string[] = [];
  let c = 1n;
  for (let k = 0; k <= n; k++) { out.push(Q.show(Q.rat(c, 2n ** BigInt(n)))); c = (c * BigInt(n - k)) / BigInt(k + 1); }
  return out;
}

interface Work { readonly name: string; run<R>(o: Ops<R>): string[]; readonly independent?: () => string[] }
const HALF: readonly (readonly [bigint, bigint])[] = [[1n, 2n], [1n, 2n]];
const THIRDS: readonly (readonly [bigint, bigint])[] = [[1n, 2n], [1n, 3n], [1n, 6n]];
const WORK: readonly Work[] = [
  { name: '(a) flips forward, N = 256', run: (o) => forward(o, 256, 0, HALF, false), independent: () => binomialText(256) },
  { name: '(a) flips forward, N = 512', run: (o) => forward(o, 512, 0, HALF, false), independent: () => binomialText(512) },
  { name: '(b) chain mod 5, N = 256', run: (o) => forward(o, 256, 5, THIRDS, true) },
  { name: '(b) chain mod 5, N = 1024', run: (o) => forward(o, 1024, 5, THIRDS, true) },
  { name: 'path weights, 2^16 paths', run: (o) => paths(o, 16), independent: () => ['1'] },
  { name: 'counter, 10^5 iterations', run: (o) => counter(o, 100_000), independent: () => ['0', '100000'] },
];

/** Forward pass, each round summed by a `CommonSum` and read back normalised (a round accumulator). */
function forwardRounds(steps: number, states: number, ps: readonly (readonly [bigint, bigint])[], wrap: boolean): string[] {
  let d: Q.Rational[] = [Q.ONE];
  for (let i = 0; i < steps; i++) {
    const acc = new CommonSum<number>();
    d.forEach((p, s) => ps.forEach(([n, q], c) => acc.addFraction(wrap ? (s + c) % states : s + c, Q.numerator(p) * n, Q.denominator(p) * q)));
    d = [];
    for (const [t, w] of acc.entries()) d[t] = w;
  }
  return [...d].map((p) => Q.show(p ?? Q.ZERO));
}

/** Forward pass over one denominator across all rounds: integer numerators, normalised once at the end. */
function forwardDeferred(steps: number, states: number, ps: readonly (readonly [bigint, bigint])[], wrap: boolean): string[] {
  let den = 1n;
  let nums: [number, bigint][] = [[0, 1n]];
  let last: CommonSum<number> | undefined;
  for (let i = 0; i < steps; i++) {
    const acc = new CommonSum<number>();
    for (const [s, num] of nums) ps.forEach(([n, q], c) => acc.addFraction(wrap ? (s + c) % states : s + c, num * n, den * q));
    nums = acc.unreduced();
    den = acc.denominator;
    last = acc;
  }
  const out: string[] = [];
  for (const [t, w] of last!.entries()) out[t] = Q.show(w);
  return [...out].map((x) => x ?? '0');
}

/** Weights of every outcome of a distribution, summed: `sumAll` against a Henrici fold. */
function massWork(ws: readonly Q.Rational[], common: boolean): string[] {
  return [Q.show(common ? sumAll(ws) : ws.reduce((a, b) => Q.add(a, b), Q.ZERO))];
}

function cpu<T>(f: () => T): [number, T] {
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [(c.user + c.system) / 1000, r];
}

const info = machineInfo(['typescript']);
const header = ['workload', 'before (Henrici, Euclid gcd)', 'eager fast paths (previous round)', 'now (fast paths, deferred reduction)', 'now vs before', 'now vs eager', 'answers'];
const rows: string[][] = [];
for (const w of WORK) {
  const tb: number[] = [], te: number[] = [], tn: number[] = [];
  let rb: string[] = [], re: string[] = [], rn: string[] = [];
  for (let i = 0; i < REPEATS; i++) {
    [tb[i], rb] = cpu(() => w.run(BEFORE));
    [te[i], re] = cpu(() => w.run(EAGER));
    [tn[i], rn] = cpu(() => w.run(NOW));
  }
  const same = rb.length === rn.length && rb.every((x, i) => x === rn[i]) && re.length === rn.length && re.every((x, i) => x === rn[i]);
  const ind = w.independent?.();
  const indOk = ind === undefined ? undefined : ind.length === rn.length && ind.every((x, i) => x === rn[i]);
  const b = median(tb), e = median(te), n = median(tn);
  rows.push([w.name, showMs(b), showMs(e), showMs(n), `${(b / n).toFixed(2)}×`, `${(e / n).toFixed(2)}×`,
    `${same ? 'identical' : 'DIFFER'}${indOk === undefined ? '' : indOk ? ', = closed form' : ', ≠ CLOSED FORM'}`]);
  process.stderr.write(`${w.name}\n`);
}
process.stdout.write(`${renderTable(header, rows)}\n`);
// Henrici against common-denominator accumulation.
const MIXED: readonly (readonly [bigint, bigint])[] = [[1n, 2n], [1n, 5n], [3n, 10n]];
const qForward = (steps: number, states: number, ps: readonly (readonly [bigint, bigint])[], wrap: boolean): string[] => forward(NOW, steps, states, ps, wrap);
/** Path weights of 2^16 paths (a distribution of many dyadic outcomes) and 4,096 mixed weights with denominators 1..12 products. */
const PATHS16 = ((): Q.Rational[] => { const out: Q.Rational[] = []; for (let i = 0; i < 2 ** 16; i++) out.push(Q.rat(1n, 2n ** 16n)); return out; })();
const BINOM512 = binomialText(512).map((t) => Q.parseRational(t)!);
const MIXED_WS = ((): Q.Rational[] => { let x = 12345; const out: Q.Rational[] = []; for (let i = 0; i < 4096; i++) { x = (x * 1103515245 + 12345) % 2147483648; out.push(Q.rat(BigInt(1 + (x % 97)), BigInt(1 + (x % 12)) * BigInt(1 + ((x >> 8) % 12)) * 6n ** BigInt(x % 40))); } return out; })();
interface Work2 { readonly name: string; readonly henrici: () => string[]; readonly rounds?: () => string[]; readonly common: () => string[]; readonly independent?: () => string[] }
const WORK2: readonly Work2[] = [
  { name: '(a) flips forward, N = 256 (dyadic)', henrici: () => qForward(256, 0, HALF, false), rounds: () => forwardRounds(256, 0, HALF, false), common: () => forwardDeferred(256, 0, HALF, false), independent: () => binomialText(256) },
  { name: '(a) flips forward, N = 512 (dyadic)', henrici: () => qForward(512, 0, HALF, false), rounds: () => forwardRounds(512, 0, HALF, false), common: () => forwardDeferred(512, 0, HALF, false), independent: () => binomialText(512) },
  { name: '(b) chain mod 5, N = 256 (2^a·3^b)', henrici: () => qForward(256, 5, THIRDS, true), rounds: () => forwardRounds(256, 5, THIRDS, true), common: () => forwardDeferred(256, 5, THIRDS, true) },
  { name: '(b) chain mod 5, N = 1024 (2^a·3^b)', henrici: () => qForward(1024, 5, THIRDS, true), rounds: () => forwardRounds(1024, 5, THIRDS, true), common: () => forwardDeferred(1024, 5, THIRDS, true) },
  { name: 'mixed chain mod 7 (1/2, 1/5, 3/10), N = 512', henrici: () => qForward(512, 7, MIXED, true), rounds: () => forwardRounds(512, 7, MIXED, true), common: () => forwardDeferred(512, 7, MIXED, true) },
  { name: 'mass of 2^16 path weights 1/2^16', henrici: () => massWork(PATHS16, false), common: () => massWork(PATHS16, true), independent: () => ['1'] },
  { name: 'mass of (a)\'s N = 512 row', henrici: () => massWork(BINOM512, false), common: () => massWork(BINOM512, true), independent: () => ['1'] },
  { name: 'mass of 4,096 mixed weights (dens ≤ 144·6^39)', henrici: () => massWork(MIXED_WS, false), common: () => massWork(MIXED_WS, true) },
];
const header2 = ['workload', 'Q (now: deferred reduction)', 'CommonSum per round', 'per-round speed-up', 'common denominator across rounds / sumAll', 'speed-up', 'answers'];
const rows2: string[][] = [];
for (const w of WORK2) {
  const th: number[] = [], tr: number[] = [], tc: number[] = [];
  let rh: string[] = [], rr: string[] | undefined, rc: string[] = [];
  for (let i = 0; i < REPEATS; i++) {
    [th[i], rh] = cpu(w.henrici);
    if (w.rounds) { let x: string[]; [tr[i], x] = cpu(w.rounds); rr = x; }
    [tc[i], rc] = cpu(w.common);
  }
  const sameAs = (xs: readonly string[] | undefined): boolean => xs !== undefined && xs.length === rh.length && xs.every((x, i) => x === rh[i]);
  const ind = w.independent?.();
  const indOk = ind === undefined ? undefined : sameAs(ind);
  const h = median(th), c = median(tc), r = w.rounds ? median(tr) : NaN;
  rows2.push([w.name, showMs(h), w.rounds ? showMs(r) : '—', w.rounds ? `${(h / r).toFixed(2)}×` : '—', showMs(c), `${(h / c).toFixed(2)}×`,
    `${sameAs(rc) && (w.rounds === undefined || sameAs(rr)) ? 'identical' : 'DIFFER'}${indOk === undefined ? '' : indOk ? ', = closed form' : ', ≠ CLOSED FORM'}`]);
  process.stderr.write(`${w.name}\n`);
}
process.stdout.write(`${renderTable(header2, rows2)}\n`);

if (!flags['no-doc']) {
  updateDoc('bench:rational', [
    '### Exact rationals: fast paths and deferred reduction vs the Henrici form (`npm run bench:rational`)',
    machineMarkdown(info, 'npm run bench:rational', [
      `Each cell: median CPU time of ${REPEATS} runs of the workload in this process, the backends alternating. "before": Euclid-only Henrici; "eager fast paths": the backend as of the previous round (verbatim copy); "now": \`src/distributions/rational.ts\` (the same fast paths, and \`add\` defers its reducing gcd: sums kept over the common denominator, reduced when observed or after 16 deferred levels).`,
      '"answers": both backends\' results compared as exact `p/q` text, and with a closed form where there is one.',
    ]),
    mdTable(header, rows),
    '#### `Q` against explicit common-denominator accumulation (`src/distributions/common.ts`), same process',
    `Each cell: median CPU time of ${REPEATS} runs, the backends alternating. "CommonSum per round": each round's weights summed over one denominator and read back normalised (one gcd per state per round instead of one per addition). "Across rounds": integer numerators over one denominator for the whole pass, normalised once at the end; for the mass rows, \`sumAll\` against a fold of Henrici additions.`,
    mdTable(header2, rows2),
  ].join('\n\n'));
}
