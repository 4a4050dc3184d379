/**
 * Exact enumeration through the oracle (issue 13, part 2). A target is deterministic given its oracle, so
 * the toolkit runs it with a scripted oracle: at each `recv` beyond the scripted prefix it answers with the
 * model's first response and records every other response (with its exact weight) as a branch to re-run
 * later. When the tree is exhausted the finals carry exactly the weights Theorem 3 gives them.
 *
 * Limits are missing mass with a reason, exactly like fuel: a run that asks the oracle more than
 * `maxOracleCalls` times, the branches left when `maxRuns` runs are spent, timeouts, crashes and garbage.
 * A target that asks different questions when re-run along the same answers is reported as
 * `nondeterministic` (exact enumeration is then unsound for it).
 */
import * as Q from '../distributions/rational.ts';
import { fromEntries, type SubDist } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Conversation, Final } from '../semantics/config.ts';
import type { PModel } from '../semantics/model.ts';
import { finalKey } from '../semantics/evaluate.ts';
import { loadPrelude, parseResponse } from '../semantics/prelude.ts';
import { print } from '../syntax/printer.ts';
import { absurd } from '../util/absurd.ts';
import { isUserCodeError } from '../util/user-code.ts';
import { OracleAbort, type OracleAnswer, type RunOutcome, type RunRequest, type Target, type TargetOracle, type TransportFailure } from './target.ts';

/** Budgets of one enumeration (defaults: 2,000 runs, 64 oracle calls per run). */
export interface EnumerationLimits {
  readonly maxRuns?: number;
  readonly maxOracleCalls?: number;
  /**
   * Wall-clock limit per run of an asynchronous in-process target (default: none). A run over it is
   * `timeout` mass and its `signal` is aborted; JavaScript cannot stop a synchronous loop, so a target that
   * may hang without yielding belongs out of process (stdio targets have their own limit); from the CLI, an
   * in-process target runs in a supervised worker whose watchdog stops the whole command (docs/robustness.md).
   */
  readonly timeoutMs?: number;
}

/** Where a unit of the target's missing mass went. */
export type Lost =
  | { readonly kind: 'stuck'; readonly reason: string }
  | { readonly kind: 'fuel' }
  | TransportFailure
  | { readonly kind: 'limit'; readonly reason: string }
  | { readonly kind: 'nondeterministic'; readonly reason: string };

/** Canonical key of a `Lost` (stuck and crash reasons kept apart). */
export function lostKey(l: Lost): string {
  switch (l.kind) {
    case 'fuel': return 'fuel';
    case 'timeout': return `timeout after ${l.ms} ms`;
    case 'stuck': case 'crash': case 'garbage': case 'limit': case 'nondeterministic': return `${l.kind}: ${l.reason}`;
    default: return absurd(l);
  }
}

/** The target's exact sub-distribution, with the missing mass accounted for. */
export interface TargetDistribution<L> {
  readonly finals: SubDist<Final<L>>;
  /** Missing mass by reason, largest first. */
  readonly missing: readonly { readonly lost: Lost; readonly weight: Q.Rational }[];
  readonly mass: Q.Rational;
  /** Mass the model withheld (sub-distribution responses). */
  readonly modelDeficit: Q.Rational;
  /** Target runs performed. */
  readonly runs: number;
}

/** Total missing mass of the given kinds. */
export function lostMass<L>(d: TargetDistribution<L>, kinds: readonly Lost['kind'][]): Q.Rational {
  return d.missing.filter((m) => kinds.includes(m.lost.kind)).reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
}

/** A branch still to run: the answers to replay, the questions they answered, and the path's weight. */
interface Job<L> {
  readonly answers: readonly OracleAnswer<L>[];
  readonly questions: readonly string[];
  readonly weight: Q.Rational;
}

/** The tree walk, shared by the synchronous and the asynchronous drivers. */
class Explorer<L> {
  private readonly stack: Job<L>[] = [{ answers: [], questions: [], weight: Q.ONE }];
  private readonly finals: [Final<L>, Q.Rational][] = [];
  private readonly missing = new Map<string, { lost: Lost; weight: Q.Rational }>();
  private readonly parsed = new Map<string, Expr<L>>();
  private deficit = Q.ZERO;
  runs = 0;

  constructor(
    private readonly target: Target<L>,
    private readonly model: PModel,
    readonly req: RunRequest<L>,
    private readonly limits: Required<Omit<EnumerationLimits, 'timeoutMs'>>,
  ) {}

  /** The next branch to run, or undefined when done (left-over branches become `limit` mass). */
  next(): Job<L> | undefined {
    if (this.stack.length === 0) return undefined;
    if (this.runs >= this.limits.maxRuns) {
      for (const j of this.stack.splice(0)) this.lose({ kind: 'limit', reason: `more than ${this.limits.maxRuns} runs` }, j.weight);
      return undefined;
    }
    this.runs++;
    return this.stack.pop();
  }

  /** The scripted oracle of one run, and the run's state (weight so far, abort reason). */
  oracleFor(job: Job<L>): { oracle: TargetOracle<L>; state: { weight: Q.Rational; aborted?: Lost | 'deficit' } } {
    const state: { weight: Q.Rational; aborted?: Lost | 'deficit' } = { weight: job.weight };
    const answers = [...job.answers];
    const questions = [...job.questions];
    let calls = 0;
    const abort = (why: Lost | 'deficit'): never => {
      state.aborted ??= why;
      throw new OracleAbort(typeof why === 'string' ? 'the model has no response here' : lostKey(why));
    };
    const oracle: TargetOracle<L> = (messages) => {
      if (state.aborted) return abort(state.aborted);
      const i = calls++;
      const q = JSON.stringify(messages);
      if (i < job.answers.length) {
        if (questions[i] !== q) return abort({ kind: 'nondeterministic', reason: `recv #${i} asked ${q}, earlier ${questions[i]} along the same answers` });
        return answers[i]!;
      }
      if (i >= this.limits.maxOracleCalls) return abort({ kind: 'limit', reason: `more than ${this.limits.maxOracleCalls} oracle calls in one run` });
      const resps = this.model.weight(messages).filter(([, p]) => Q.lt(Q.ZERO, p));
      const total = resps.reduce((a, [, p]) => Q.add(a, p), Q.ZERO);
      this.deficit = Q.add(this.deficit, Q.mul(state.weight, Q.sub(Q.ONE, total)));
      const [first, ...rest] = resps;
      if (!first) return abort('deficit');
      for (const [r, p] of rest) this.stack.push({ answers: [...answers, this.answer(r)], questions: [...questions, q], weight: Q.mul(state.weight, p) });
      const a = this.answer(first[0]);
      answers.push(a);
      questions.push(q);
      state.weight = Q.mul(state.weight, first[1]);
      return a;
    };
    return { oracle, state };
  }

  /** Record how one run ended. */
  finish(state: { weight: Q.Rational; aborted?: Lost | 'deficit' }, out: RunOutcome<L> | { kind: 'threw'; error: unknown }): void {
    const w = state.weight;
    if (state.aborted === 'deficit') return; // already counted in the model deficit
    if (state.aborted) return this.lose(state.aborted, w);
    switch (out.kind) {
      case 'ok': this.finals.push([{ conv: out.conv, value: out.value }, w]); return;
      case 'stuck': case 'fuel': case 'timeout': case 'crash': case 'garbage': return this.lose(out, w);
      case 'threw': {
        const e = out.error;
        const msg = e instanceof RangeError && /call stack/i.test(e.message) ? 'stack overflow (the run does not terminate?)' : e instanceof Error ? e.message : String(e);
        return this.lose({ kind: 'crash', reason: `the target threw: ${msg}` }, w);
      }
      default: return absurd(out);
    }
  }

  result(): TargetDistribution<L> {
    const lat = this.target.lattice;
    const missing = [...this.missing.values()].sort((a, b) => Q.cmp(b.weight, a.weight));
    const finals = fromEntries(this.finals, finalKey(lat));
    const mass = this.finals.reduce((a, [, w]) => Q.add(a, w), Q.ZERO);
    return { finals, missing, mass, modelDeficit: this.deficit, runs: this.runs };
  }

  private lose(lost: Lost, w: Q.Rational): void {
    const k = lostKey(lost);
    const cur = this.missing.get(k);
    if (cur) cur.weight = Q.add(cur.weight, w);
    else this.missing.set(k, { lost, weight: w });
  }

  private answer(r: string): OracleAnswer<L> {
    let code = this.parsed.get(r);
    if (!code) { code = parseResponse(r, this.target.lattice, loadPrelude(this.target.lattice, this.model.preludeSource)); this.parsed.set(r, code); }
    return { response: r, code };
  }
}

function defaults(l: EnumerationLimits): Required<Omit<EnumerationLimits, 'timeoutMs'>> {
  return { maxRuns: l.maxRuns ?? 2000, maxOracleCalls: l.maxOracleCalls ?? 64 };
}

/** One run of an asynchronous target, with the optional per-run time limit. */
async function runOnce<L>(target: Target<L>, req: RunRequest<L>, oracle: TargetOracle<L>, timeoutMs: number | undefined): Promise<RunOutcome<L>> {
  if (timeoutMs === undefined) return target.run(req, oracle);
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<RunOutcome<L>>((resolve) => { timer = setTimeout(() => { resolve({ kind: 'timeout', ms: timeoutMs }); ctl.abort(); }, timeoutMs); });
  try {
    return await Promise.race([Promise.resolve(target.run({ ...req, signal: ctl.signal }, oracle)), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The request for a program. */
export function runRequest<L>(target: Target<L>, pc: L, conv: Conversation<L>, program: Expr<L>, fuel: number): RunRequest<L> {
  return { pc, conv, program, source: print(program, target.lattice), fuel };
}

/** `⟦pc ⊢ C, e⟧` of a target, exactly, by re-running it along every branch of the oracle tree. */
export async function enumerate<L>(
  target: Target<L>, model: PModel, pc: L, conv: Conversation<L>, program: Expr<L>, fuel: number, limits: EnumerationLimits = {},
): Promise<TargetDistribution<L>> {
  const ex = new Explorer(target, model, runRequest(target, pc, conv, program, fuel), defaults(limits));
  for (let job = ex.next(); job; job = ex.next()) {
    const { oracle, state } = ex.oracleFor(job);
    let out: RunOutcome<L> | { kind: 'threw'; error: unknown };
    try { out = await runOnce(target, ex.req, oracle, limits.timeoutMs); } catch (e) { if (isUserCodeError(e)) throw e; out = { kind: 'threw', error: e }; }
    ex.finish(state, out);
  }
  return ex.result();
}

/** `enumerate` for a synchronous target (one whose `run` returns a value, not a promise). */
export function enumerateSync<L>(
  target: Target<L>, model: PModel, pc: L, conv: Conversation<L>, program: Expr<L>, fuel: number, limits: EnumerationLimits = {},
): TargetDistribution<L> {
  const ex = new Explorer(target, model, runRequest(target, pc, conv, program, fuel), defaults(limits));
  for (let job = ex.next(); job; job = ex.next()) {
    const { oracle, state } = ex.oracleFor(job);
    let out: RunOutcome<L> | Promise<RunOutcome<L>> | { kind: 'threw'; error: unknown };
    try { out = target.run(ex.req, oracle); } catch (e) { if (isUserCodeError(e)) throw e; out = { kind: 'threw', error: e }; }
    if (out instanceof Promise) throw new Error(`target ${target.name} is asynchronous: use enumerate, not enumerateSync`);
    ex.finish(state, out);
  }
  return ex.result();
}
