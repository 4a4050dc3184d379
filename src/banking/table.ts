/**
 * The exact banking table: for every variant × Q-LLM, every task without attack and under each attack,
 * the exact probability that the task succeeds (utility), that the attack succeeds (security) and that
 * the run is stopped by a policy check (stuck), with totals as exact averages.
 */
import * as Q from '../distributions/rational.ts';
import { entries } from '../distributions/subdist.ts';
import { closedProgram, readOutcome, runProgram, VARIANTS, type Variant } from './program.ts';
import { attackSucceeded, loadAttacks, loadTasks, utilityHolds, type Attack, type Task } from './data.ts';
import { qllmName, type QllmSpec } from './qllm.ts';
import { defaultWorld, placeInjection, type WorldData } from './world.ts';
import { renderTable } from '../util/table.ts';

/** One run's exact measures. */
export interface Cell {
  readonly utility: Q.Rational;
  /** Attack success (zero without attack). */
  readonly breach: Q.Rational;
  /** Mass stopped by a policy assert (or stuck otherwise, or out of fuel). */
  readonly stuck: Q.Rational;
}

/** Evaluate one task under one attack (or none) exactly. */
export function measure(variant: Variant, qllm: QllmSpec, task: Task, attack: Attack | undefined, world: WorldData = defaultWorld()): Cell {
  const w = placeInjection(world, attack ? attack.text : '');
  const r = runProgram(closedProgram(variant, task.source, `tasks/${task.program}`, w), qllm);
  let utility = Q.ZERO;
  let breach = Q.ZERO;
  for (const [f, p] of entries(r.finals)) {
    const out = readOutcome(f.value);
    if (!out) continue;
    if (utilityHolds(task.utility, out)) utility = Q.add(utility, p);
    if (attack && attackSucceeded(attack.security, out)) breach = Q.add(breach, p);
  }
  const stuck = r.missing.reduce((s, m) => Q.add(s, m.weight), Q.ZERO);
  return { utility, breach, stuck };
}

export interface TaskRow {
  readonly task: string;
  readonly safe: Cell;
  /** Per attack, in attack order. */
  readonly attacked: readonly Cell[];
}

export interface Block {
  readonly variant: Variant;
  readonly qllm: string;
  readonly rows: readonly TaskRow[];
  /** Mean utility without attack (over tasks). */
  readonly utilitySafe: Q.Rational;
  /** Mean utility under attack (over task × attack pairs). */
  readonly utilityAttacked: Q.Rational;
  /** Mean attack success (over pairs), and its sum (expected number of breached pairs). */
  readonly attackSuccess: Q.Rational;
  readonly breachedPairs: Q.Rational;
  /** The pairs with positive attack success. */
  readonly breaches: readonly { readonly task: string; readonly attack: string; readonly p: Q.Rational }[];
}

export interface BankingTable {
  readonly tasks: readonly string[];
  readonly attacks: readonly string[];
  readonly blocks: readonly Block[];
}

const mean = (xs: readonly Q.Rational[]): Q.Rational => (xs.length === 0 ? Q.ZERO : Q.div(xs.reduce(Q.add, Q.ZERO), Q.rat(xs.length)));

export function block(variant: Variant, qllm: QllmSpec, tasks: readonly Task[], attacks: readonly Attack[]): Block {
  const rows = tasks.map((t) => ({ task: t.id, safe: measure(variant, qllm, t, undefined), attacked: attacks.map((a) => measure(variant, qllm, t, a)) }));
  const pairs = rows.flatMap((r) => r.attacked);
  const breaches = rows.flatMap((r) => r.attacked.flatMap((c, i) => (Q.isZero(c.breach) ? [] : [{ task: r.task, attack: attacks[i]!.id, p: c.breach }])));
  return {
    variant,
    qllm: qllmName(qllm),
    rows,
    utilitySafe: mean(rows.map((r) => r.safe.utility)),
    utilityAttacked: mean(pairs.map((c) => c.utility)),
    attackSuccess: mean(pairs.map((c) => c.breach)),
    breachedPairs: pairs.reduce((s, c) => Q.add(s, c.breach), Q.ZERO),
    breaches,
  };
}

/** The default Q-LLMs: benign, confused with probability `p`, adversarial. */
export function defaultQllms(p: Q.Rational): readonly QllmSpec[] {
  return [{ kind: 'benign' }, { kind: 'confused', p }, { kind: 'adversarial' }];
}

export function bankingTable(opts: { readonly p?: Q.Rational; readonly variants?: readonly Variant[]; readonly qllms?: readonly QllmSpec[] } = {}): BankingTable {
  const tasks = loadTasks();
  const { attacks } = loadAttacks();
  const qllms = opts.qllms ?? defaultQllms(opts.p ?? Q.rat(1, 10));
  const blocks = (opts.variants ?? VARIANTS).flatMap((v) => qllms.map((m) => block(v, m, tasks, attacks)));
  return { tasks: tasks.map((t) => t.id), attacks: attacks.map((a) => `${a.id} ${a.name}`), blocks };
}

const frac = (q: Q.Rational): string => Q.show(q);
const pct = (q: Q.Rational): string => `${(Q.toNumber(q) * 100).toFixed(1)}%`;
const both = (q: Q.Rational): string => `${frac(q)} (${pct(q)})`;

/** The text rendering: totals, then the breaches, then per-task utility/breach columns per block. */
export function renderBankingTable(t: BankingTable, detail = false): string {
  const out: string[] = [];
  out.push('Totals (exact; utility = mean success, attack success = mean over the 16 × 9 pairs)');
  out.push(renderTable(
    ['variant', 'Q-LLM', 'utility (no attack)', 'utility (attacked)', 'attack success', 'breached pairs (expected)'],
    t.blocks.map((b) => [b.variant, b.qllm, both(b.utilitySafe), both(b.utilityAttacked), both(b.attackSuccess), frac(b.breachedPairs)]),
  ));
  out.push('', 'Pairs with positive attack success');
  out.push(renderTable(['variant', 'Q-LLM', 'task', 'attack', 'P(attack succeeds)'],
    t.blocks.flatMap((b) => b.breaches.map((x) => [b.variant, b.qllm, x.task, t.attacks.find((a) => a.startsWith(`${x.attack} `)) ?? x.attack, frac(x.p)]))));
  if (detail) {
    for (const b of t.blocks) {
      out.push('', `${b.variant} / ${b.qllm}: per task — utility without attack, mean utility under attack, attack success per attack (${t.attacks.map((a) => a.split(' ')[0]).join(' ')})`);
      out.push(renderTable(['task', 'utility', 'utility attacked', 'stuck (no attack)', ...t.attacks.map((a) => a.split(' ')[0]!)],
        b.rows.map((r) => [r.task, frac(r.safe.utility), frac(mean(r.attacked.map((c) => c.utility))), frac(r.safe.stuck), ...r.attacked.map((c) => frac(c.breach))])));
    }
  }
  return out.join('\n');
}

const qjson = (q: Q.Rational) => ({ fraction: Q.show(q), decimal: Q.toDecimal(q, 6) });
const cellJson = (c: Cell) => ({ utility: qjson(c.utility), attackSuccess: qjson(c.breach), stuck: qjson(c.stuck) });

export function bankingTableJson(t: BankingTable): unknown {
  return {
    tasks: t.tasks,
    attacks: t.attacks,
    blocks: t.blocks.map((b) => ({
      variant: b.variant,
      qllm: b.qllm,
      utilitySafe: qjson(b.utilitySafe),
      utilityAttacked: qjson(b.utilityAttacked),
      attackSuccess: qjson(b.attackSuccess),
      breachedPairs: qjson(b.breachedPairs),
      breaches: b.breaches.map((x) => ({ task: x.task, attack: x.attack, p: qjson(x.p) })),
      rows: b.rows.map((r) => ({ task: r.task, safe: cellJson(r.safe), attacked: Object.fromEntries(r.attacked.map((c, i) => [t.attacks[i]!.split(' ')[0]!, cellJson(c)])) })),
    })),
  };
}
