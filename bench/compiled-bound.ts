/**
 * `npm run bench:compiled-bound` (issue 12, eighteenth round): how much a compiled backend could give on the two
 * deterministic shapes v2 loses to WebPPL's plain enumeration — an UPPER BOUND, not a backend. Each loop is written
 * by hand as a compiled block would run it: v2's own data (a `V2` over a body over an exact `Rational`, labels joined
 * with the lattice's `join`), the rule applications and fuel of a whole iteration added once (37 and 6 for the
 * counter, as v2 counts them), no interpretation of code nodes, no fuel-threshold fallback (the block would hand back
 * to the rule loop near a threshold or a budget; never reached here). Beside each, v2 evaluating the same program in
 * the same process, alternating, so the ratio is one run's. WebPPL's cells for the same programs are bench:eval-v2's and
 * bench:eval-v2-loops' (same machine; compare ratios, not cells across runs).
 *
 * Rows: the counter `count N 0` with v2's integer fast path (`Q.integer` over BigInt numerators, as prims-fast.ts) and
 * with `Q.add`/`Q.sub`; the non-tail recursion `sum N` with the same representation, and with JavaScript numbers
 * in the bodies instead of `Rational`s (what a small-integer representation could save there at most). Answers
 * compared exactly with the closed forms (N, N(N+1)/2) and the rule applications with v2's.
 *
 * Flags: --n N (default 1,000,000), --repeats R (default 5), --no-doc.
 */
import { parseArgs } from 'node:util';
import * as Q from '../src/distributions/rational.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { parse } from '../src/syntax/parser.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { mkValue, type V2 } from '../src/semantics/v2/values.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { entries } from '../src/distributions/subdist.ts';
import { renderTable } from '../src/util/table.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';
import { median, showMs } from './lib/stats.ts';

const { values: flags } = parseArgs({ options: { n: { type: 'string' }, repeats: { type: 'string' }, 'no-doc': { type: 'boolean', default: false } } });
const N = Number(flags.n ?? 1_000_000);
const REPEATS = Number(flags.repeats ?? 5);
if (!Number.isInteger(N) || N < 1 || !Number.isInteger(REPEATS) || REPEATS < 1) {
  process.stderr.write('usage: npm run bench:compiled-bound -- [--n N] [--repeats R] [--no-doc]\n');
  process.exit(2);
}
const lat = latticeByName('powerset-us')!;
type L = number;
const num = (l: L, q: Q.Rational): V2<L> => mkValue(l, { kind: 'num', value: q });
/** The number a value holds (every value of these loops is one). */
const numOf = (v: V2<L>): Q.Rational => (v.body as { readonly value: Q.Rational }).value;

/** v2's rule applications per iteration of the counter (37·N + 35 in all) and per level of the recursion (34·N + 32). */
const COUNTER_RULES = 37, SUM_RULES = 34;

/** The counter as one compiled block per iteration: `n == 0`, then `f (n − 1) (acc + 1)`. */
function counterBlock(n0: number, exact: boolean): { value: string; steps: number } {
  let steps = 35, fuel = 1e9;
  const pc = lat.bottom;
  let n = num(pc, Q.rat(n0)), acc = num(pc, Q.ZERO);
  const one = Q.ONE;
  for (;;) {
    if (fuel < 64) throw new Error('fuel threshold: a compiled block would hand back to the rule loop here');
    const nb = numOf(n);
    if (Q.isZero(nb)) return { value: Q.show(numOf(acc)), steps };
    steps += COUNTER_RULES; fuel -= 6;
    const l1 = lat.join(pc, n.label);
    const ab = numOf(acc);
    n = num(lat.join(l1, n.label), exact ? Q.integer(Q.numerator(nb) - 1n) : Q.sub(nb, one));
    acc = num(lat.join(l1, acc.label), exact ? Q.integer(Q.numerator(ab) + 1n) : Q.add(ab, one));
  }
}

/** The recursion as compiled blocks: descend (`n == 0`, a frame holding n, `n − 1`), then ascend (`n + r`). */
function sumBlock(n0: number, jsNumbers: boolean): { value: string; steps: number } {
  let steps = 32, fuel = 1e9;
  const pc = lat.bottom;
  const fx: unknown[] = [], fpc: L[] = [];
  let sp = 0;
  type B = { kind: 'num'; value: Q.Rational | number };
  const mk = (l: L, v: Q.Rational | number): { label: L; body: B } => ({ label: l, body: { kind: 'num', value: v }, id: 0, depth: 0, rb: undefined } as unknown as { label: L; body: B });
  let n = mk(pc, jsNumbers ? n0 : Q.rat(n0));
  for (;;) {
    if (fuel < 64) throw new Error('fuel threshold');
    const nb = n.body.value;
    if (jsNumbers ? nb === 0 : Q.isZero(nb as Q.Rational)) break;
    steps += SUM_RULES; fuel -= 4;
    if (sp === fx.length) {
      if (sp < 1024) { fx.push(undefined); fpc.push(pc); } else { fx.length = 2 * sp; fpc.length = 2 * sp; }
    }
    fx[sp] = n; fpc[sp] = pc; sp++;
    n = mk(lat.join(pc, n.label), jsNumbers ? (nb as number) - 1 : Q.integer(Q.numerator(nb as Q.Rational) - 1n));
  }
  let r = mk(pc, jsNumbers ? 0 : Q.ZERO);
  while (sp > 0) {
    sp--;
    const x = fx[sp] as typeof r;
    fx[sp] = undefined;
    const l = lat.join(fpc[sp]!, lat.join(x.label, r.label));
    r = mk(l, jsNumbers
      ? (x.body.value as number) + (r.body.value as number)
      : Q.integer(Q.numerator(x.body.value as Q.Rational) + Q.numerator(r.body.value as Q.Rational)));
  }
  return { value: jsNumbers ? String(r.body.value) : Q.show(r.body.value as Q.Rational), steps };
}

const model = coinModel(Q.rat(1, 2));
const prelude = loadPrelude(lat, model.preludeSource);
function v2(src: string): { value: string; steps: number } {
  const r = evaluateV2(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, closeProgram(parse(src, lat), prelude), 1e9, { prelude });
  const es = entries(r.finals);
  const v = es.length === 1 ? es[0]![0].value : undefined;
  return { value: v && v.kind === 'label' && v.body.kind === 'num' ? Q.show(v.body.value) : `? ${es.length} outcomes`, steps: r.steps };
}

const cpu = (f: () => { value: string; steps: number }): [number, { value: string; steps: number }] => {
  const c0 = process.cpuUsage();
  const r = f();
  const c = process.cpuUsage(c0);
  return [(c.user + c.system) / 1000, r];
};

const COUNTER = `let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count ${N} 0`;
const SUM = `let sum = fix (\\f. \\n. if n == 0 then 0 else n + f (n - 1)) in sum ${N}`;
const want = { counter: String(N), sum: String((BigInt(N) * BigInt(N + 1)) / 2n) };
const rows: { name: string; program: 'counter' | 'sum'; run: () => { value: string; steps: number } }[] = [
  { name: 'v2 evaluating the counter', program: 'counter', run: () => v2(COUNTER) },
  { name: 'compiled bound, counter, integer fast path', program: 'counter', run: () => counterBlock(N, true) },
  { name: 'compiled bound, counter, Q.add / Q.sub', program: 'counter', run: () => counterBlock(N, false) },
  { name: 'v2 evaluating the recursion', program: 'sum', run: () => v2(SUM) },
  { name: 'compiled bound, recursion, Rational bodies', program: 'sum', run: () => sumBlock(N, false) },
  { name: 'compiled bound, recursion, JS numbers in the bodies', program: 'sum', run: () => sumBlock(N, true) },
];

const info = machineInfo(['typescript']);
const times = rows.map(() => [] as number[]);
const answers: ({ value: string; steps: number } | undefined)[] = rows.map(() => undefined);
for (let i = 0; i < REPEATS; i++) {
  rows.forEach((row, j) => {
    const [ms, r] = cpu(row.run);
    times[j]!.push(ms);
    answers[j] = r;
  });
  process.stderr.write(`repeat ${i + 1}/${REPEATS}\n`);
}
const v2Of = (p: 'counter' | 'sum'): number => median(times[rows.findIndex((r) => r.program === p)]!);
const stepsOf = (p: 'counter' | 'sum'): number => answers[rows.findIndex((r) => r.program === p)]!.steps;
const header = ['row', 'cpu (median)', 'range', 'v2 / row', 'answer', 'rule applications'];
const table = rows.map((row, j) => {
  const ts = times[j]!, a = answers[j]!;
  const ok = a.value === want[row.program] ? 'exact ✓' : `WRONG: ${a.value}`;
  const st = a.steps === stepsOf(row.program) ? `${a.steps.toLocaleString('en-US')} (= v2's)` : `${a.steps.toLocaleString('en-US')} (v2: ${stepsOf(row.program).toLocaleString('en-US')})`;
  return [row.name, showMs(median(ts)), `${showMs(Math.min(...ts))} – ${showMs(Math.max(...ts))}`, `${(v2Of(row.program) / median(ts)).toFixed(2)}×`, ok, st];
});
process.stdout.write(`${renderTable(header, table)}\n`);
const bad = rows.some((row, j) => answers[j]!.value !== want[row.program] || answers[j]!.steps !== stepsOf(row.program));
if (bad) process.stderr.write('a row disagrees with the closed form or with v2\'s rule applications\n');

if (!flags['no-doc']) {
  updateDoc('bench:compiled-bound', [
    '### What a compiled backend could give at most (`npm run bench:compiled-bound`)',
    machineMarkdown(info, `npm run bench:compiled-bound${N !== 1_000_000 ? ` -- --n ${N}` : ''}`, [
      `N = ${N.toLocaleString('en-US')}. Each cell: median CPU time of ${REPEATS} runs in this process, the rows alternating (each repeat runs every row once). The "compiled bound" rows are hand-written loops over v2's own data (bench/compiled-bound.ts): an upper bound on what compiling the fast path's blocks could give, not a backend.`,
    ]),
    mdTable(header, table),
  ].join('\n\n'));
}
process.exitCode = bad ? 1 : 0;
