/**
 * Evaluator v2, part 3: the machine. It computes the same denotation `⟦pc ⊢ C, e⟧_fuel` as the
 * substitution evaluator (`ev.ts` + `rules.ts`, the executable spec) for the REFERENCE rule table, with:
 *
 * - **environments** instead of substitution (`code.ts`, `values.ts`): a variable read evaluates the value
 *   in its slot exactly as the spec evaluates the substituted value expression `l:v` — same fuel (the
 *   value's derivation depth, `depthOf`) and the same labels (`readVar`: pc is joined into EVERY nested
 *   label along the way, as Labelled + RecordCons/ArrayCons do);
 * - **no JS recursion**: every non-tail premise is a *task* on an explicit stack; each rule is a generator
 *   that yields its premises and is resumed with their result distributions;
 * - **frontier evaluation of tail premises**: the last premise of App, Labelled, LabelFlow and Recv is not
 *   a sub-task; its configuration joins the current task's next *round* (weights multiplied, equal
 *   configurations merged), so a loop is a sequence of rounds, not a nest of re-weighted results. All
 *   configurations of a round have the same fuel (a tail premise has one unit less than its rule), so by
 *   the time a round starts every configuration that can reach it has been merged into it;
 * - **bounded memoisation** of sub-task results (two generations, the older dropped when the newer is full);
 * - quick (deterministic, conversation-preserving) code evaluated inline without a task.
 */
import * as Q from '../../distributions/rational.ts';
import type { Lattice } from '../../lattice/lattice.ts';
import { confidentialityOf, integrityOf, pairOf } from '../../lattice/lattice.ts';
import type { Failure } from '../config.ts';
import { BudgetExceeded, outcomeLimitMessage, stepLimitMessage } from '../errors.ts';
import type { Ev } from '../ev.ts';
import type { Conv } from '../odist.ts';
import { describeValue } from '../values.ts';
import { absurd } from '../../util/absurd.ts';
import { compileClosed, type Code, type LamCode } from './code.ts';
import { depthOf, fromBare, mkValue, numLiteral, readback, type Body2, type V2 } from './values.ts';
import type { BareValue, PlainValue } from '../../syntax/ast.ts';
import { newTailSample, runDirect, type TailSample } from './direct.ts';
import { fastBinops, standardFromBool, type FastBinop } from './prims-fast.ts';
import { STANDARD_PRIMS } from '../prims.ts';
import { serialise } from '../serialise.ts';

/** Outcome of a derivation attempt: a final configuration or a failure. */
export type Out<L> = { readonly kind: 'ok'; readonly conv: Conv<L>; readonly value: V2<L> } | Failure;

/** One weighted outcome of a result distribution. */
export interface WOut<L> { readonly out: Out<L>; weight: Q.Rational }

/** A configuration `(pc, C, code, env, fuel)`. */
export interface Cfg<L> { readonly pc: L; readonly conv: Conv<L>; readonly code: Code<L>; readonly env: readonly V2<L>[]; readonly fuel: number }

export type Req<L> =
  | { readonly t: 'sub'; readonly cfg: Cfg<L> }
  | { readonly t: 'tail'; readonly cfg: Cfg<L>; readonly w: Q.Rational }
  | { readonly t: 'out'; readonly out: Out<L>; readonly w: Q.Rational };

export type Rule<L> = Generator<Req<L>, void, readonly WOut<L>[] | undefined>;

/** A configuration of a round with the weight it carries. @internal (direct.ts) */
export interface Entry<L> { readonly cfg: Cfg<L>; w: Q.Rational }

/** A sub-derivation being computed: kept small, a deep non-tail recursion holds one per level. */
interface Task<L> {
  readonly key: string | undefined;
  /** Configurations of the current round (all with the same fuel), already merged; `at` is the next one. */
  round: readonly Entry<L>[];
  at: number;
  /** The next round (tail premises of the current one); a lone entry is kept unkeyed in `nextOnly`. */
  next: Map<string, Entry<L>> | undefined;
  nextOnly: Entry<L> | undefined;
  /** Next-round entries of code nodes that never merge (`NodeStat.merge` off): kept unkeyed. */
  nextList: Entry<L>[] | undefined;
  /**
   * Without a `maxOutcomes` limit, such entries are not deferred to the next round at all but run depth
   * first (a stack, taken before the rest of the round): they merge with nothing, so waiting for the round
   * gains nothing and holding a whole frontier of them (2^k runs of a non-merging loop) costs memory and GC.
   */
  dfs: Entry<L>[] | undefined;
  /**
   * Fuel of the next round (`next`/`nextOnly`/`nextList`): one less than the current round's. A tail of a
   * depth-first entry or of a frontier run has less fuel still; it waits in `later` by fuel, and rounds are taken
   * in decreasing fuel, so a round still starts only after everything that can reach it has been merged into it
   * (and counted against `maxOutcomes` there: under a limit only frontier runs use `later`).
   */
  nextFuel: number;
  later: Map<number, Entry<L>[]> | undefined;
  /** The result distribution, merged by outcome key (a lone outcome kept unkeyed in `resultOnly`). */
  result: Map<string, WOut<L>> | undefined;
  resultOnly: WOut<L> | undefined;
  /** Outcomes kept unkeyed because this task's code node never merges outcomes (`NodeStat.merge` off). */
  resultList: WOut<L>[] | undefined;
  /**
   * Keys of a sample of this task's unkeyed next-round entries (`sampled`, `recurs`): a repeat shows that a node
   * classified as never merging does merge after all.
   */
  seenNext: Set<string> | undefined;
  /** The same for this task's unkeyed outcomes (`addOut`): a repeat shows that its node's outcomes do merge. */
  seenOut: Set<string> | undefined;
  /** The task's code node's record (the root: its own, or undefined under an outcome limit: always merged). */
  readonly stat: NodeStat | undefined;
  /** The code of the task's configuration (marked `merged` when two of its outcomes merge). */
  readonly code: Code<L>;
  gen: Rule<L> | undefined;
  genW: Q.Rational;
  input: readonly WOut<L>[] | undefined;
}

/** Options of the machine. */
export interface MachineOptions {
  readonly maxSteps: number;
  /** Most distinct outcomes in one result, or configurations in one round (as the substitution evaluator's `maxOutcomes`). */
  readonly maxOutcomes: number;
  /** Memo entries per generation (two generations are kept). */
  readonly memoGeneration: number;
  /** Try the deterministic fast path (`Machine.direct`) for the program and each sub-derivation (default true). */
  readonly direct?: boolean;
  /**
   * Let the fast path run a round's entries up to their tail premises, branches included (`Machine.frontier`).
   * Default: only without a step limit (see `frontierOn`); true: under a step limit too; false: never. Never with
   * `direct` off. Under a `maxOutcomes` limit a run gives up past that many paths (direct.ts).
   */
  readonly frontier?: boolean;
  /**
   * Lookups / attempts / keyed inserts a code node gets before a record without a single success turns its
   * memoisation, `direct` attempts or merging off (default `NODE_PROBATION`; the tests use 1 to run the
   * equivalence property with every heuristic switched on at once).
   */
  readonly probation?: number;
  /**
   * A deliberately WRONG variable read, for showing that the equivalence property catches it: join pc
   * into the top-level label only, not into nested field/element labels (a bug a real port had).
   */
  readonly brokenVarRead?: boolean;
  /**
   * Rule applications a fast-path run that is not depth first may go on past its first branch, depth first, before
   * it gives up (`runDirect`). Default: AFTER_BRANCH_STEPS without a step limit, 0 under one (as frontier runs: its
   * paths do not share the memo, so it may apply more rules than the general machine, and a budget met before could
   * fail). 0: it gives up at the branch, as before the fifteenth session; the tests of the general machine's own
   * depth-first and frontier runs use that to reach them.
   */
  readonly afterBranch?: number;
  /**
   * Let the fast path take a fork's outcomes from its cache where the same configuration entered that fork before
   * (direct.ts `forkKept`, `forkRun`; default true): false applies Fork's premise's rules on every path, to measure the
   * cache or test it against the frames (the same outcomes and the same rule-application count).
   */
  readonly forkOutcomes?: boolean;
}

const FUEL: Failure = { kind: 'fuel' };
const FUEL_RESULT: readonly WOut<never>[] = [{ out: FUEL, weight: Q.ONE }];
/** Sub-task lookups per memo window, and how many lookups a hitless window pauses memoisation for. */
const MEMO_WINDOW = 4096;
const MEMO_PAUSE = 4 * MEMO_WINDOW;
/** The least step allowance of a depth-first fast-path run (`Machine.direct`). */
const DFS_STEPS = 100_000;
/** The step allowance of a frontier run, past which it gives up at its next branch (`Machine.direct`). */
const FRONTIER_STEPS = 1024;
/**
 * The step allowance of a fast-path run past its first branch (`MachineOptions.afterBranch`): a run that is not
 * depth first goes on depth first from its first branch for at most this many rule applications (and not past half
 * the step budget), so that the deterministic work before the branch is not thrown away when the paths after it are
 * short (`[count N 0, fork @"flip"]`: docs/evaluator-v2.md, "Work before a branch").
 */
export const AFTER_BRANCH_STEPS = 1024;
/**
 * A fast-path run that gave up pauses attempts of its kind until the general machine has done 1/GIVE_UP_PAUSE of
 * the rule applications it wasted (`giveUp`): a rule application costs the general machine about 10–12× what it
 * costs the fast path (the counter: 3.7 million in ≈ 0.8 s against ≈ 0.07 s), so the time wasted stays below the
 * general machine's own, while a long deterministic run before a branch no longer hands the general machine
 * that much work again before the fast path may take it back.
 */
const GIVE_UP_PAUSE = 8;
const EMPTY_RECORD = { kind: 'record', fields: [] } as const;
/**
 * Counts of the fast path's fused shortcuts (direct.ts): `fix` the unrolled fix `x x v` (and `fixCurried` of those,
 * the ones whose fixed function is curried: no frame at all; `saturated` of those, a call `f a1 … ak` of a k-argument
 * loop from its own body, done from the call to the body's entry), `if` the desugared `if` on a standard Church
 * boolean (`branchIn` of those, the ones whose branch ran in the if's own environment, `relocate`), `lamBody` a
 * function whose body is a lambda applied (its closure built at once), `binop` a standard binop computed on the
 * values themselves, `block` the iterations of those loops done as loop blocks (each also counted in the shortcuts it
 * stands for), `lane` of those, the ones run on small integers (`numericLane`), `recursion` the levels of non-tail
 * recursions run on small integers (`recursionLane`: each also counted in the shortcuts it stands for), `fork` a fork's
 * outcomes taken again from its cache (direct.ts `forkKept`: Fork's premise not run again), `reused` a quick node's last value
 * taken again without evaluating it (`reusedQuick`: its variables, pc and fuel allow); and `generators`, the rule
 * applications it handed to their rule's generator (every rule but those it does by hand: App, Prim,
 * RecordCons/ArrayCons, Fork, Send, Recv, FieldAccess, ArrayIndex, and quick code).
 */
export interface Fused { fix: number; fixCurried: number; saturated: number; if: number; branchIn: number; lamBody: number; binop: number; block: number; lane: number; recursion: number; fork: number; reused: number; generators: number }

function copyFused(from: Readonly<Fused>, to: Fused): void {
  to.fix = from.fix; to.fixCurried = from.fixCurried; to.saturated = from.saturated; to.if = from.if;
  to.branchIn = from.branchIn; to.lamBody = from.lamBody; to.binop = from.binop; to.block = from.block; to.lane = from.lane; to.recursion = from.recursion; to.fork = from.fork; to.reused = from.reused; to.generators = from.generators;
}

/** Per lattice, the standard `fromBool`'s results `[false, true]` as runtime bodies (`Machine.church`). */
const CHURCH = new WeakMap<object, [unknown, unknown]>();

/** The last `Machine.serial` given. */
let machineSerial = 0;

export class Machine<L> {
  readonly lat: Lattice<L>;
  steps = 0;
  memoHits = 0;
  /** Largest memo size seen (both generations) and largest round, for the bounded-memory report. */
  peakMemo = 0;
  peakRound = 0;
  // Tables created on first use: a small program needs none or one of them, and a machine is built per
  // evaluation (a WeakMap is also costly for the garbage collector: its entries are ephemerons).
  private memo: Map<string, readonly WOut<L>[]> | undefined;
  private memoOld: Map<string, readonly WOut<L>[]> | undefined;
  private idOfKey: Map<string, number> | undefined;
  /** The ids of string values (`strId`): per label key, by the string. */
  private strIdsOf: Map<string, Map<string, number>> | undefined;
  private lamCache: Map<number, LamCode<L>> | undefined;
  /** The same, by object (a primitive returning a shared lambda, e.g. `fromBool`'s, skips `exprId`). */
  private lamByObject: WeakMap<object, LamCode<L>> | undefined;
  private nodeStats: Map<number, NodeStat> | undefined;
  /** Keys of a sample of the sub-derivations asked for at nodes whose memoisation is off (`memoRecheck`). */
  private seenSub: Set<string> | undefined;
  private readonly probation: number;
  private windowLookups = 0;
  private windowHits = 0;
  private memoPaused = 0;
  private nextValueId = 1;
  /** No direct attempt before `steps` reaches this (set after an attempt had to give up; see `direct`). */
  private directResume = 0;
  /** The same for frontier runs (`frontier`). */
  private frontierResume = 0;
  /**
   * Whether round entries get frontier runs: by default not under a step limit. A frontier run applies the rules of
   * its entry's sub-derivations itself, where the general machine may find them in its memo (a flip asked by every
   * entry of a round is derived once there), so it can apply more rules in all while taking less time: under a step
   * budget that would fail evaluations that met it before (a suite's case discarded), unless asked for
   * (`frontier: true`, the equivalence property). Under an outcome limit a run gives up past that many paths, and
   * its tails and outcomes are counted in the task's round and result as the rules' are.
   */
  private readonly frontierOn: boolean;
  /** Sub-derivations finished by `direct`, and attempts that gave up (for the benchmark's report). */
  directRuns = 0;
  directBails = 0;
  /** Of `directRuns`, the depth-first runs of never-merging entries (branches included). */
  directDepthFirst = 0;
  /**
   * Of `directRuns`, the runs that were not depth first but went on depth first past a branch (`afterBranch`) and
   * finished there.
   */
  directAfterBranch = 0;
  /** Round entries run by the fast path up to their tail premises (`frontier`; not in `directRuns`). */
  directFrontier = 0;
  /**
   * The depth-first runs' sample of their tail entries, shared by this machine's runs (direct.ts `repeats`). Made
   * with the machine, not when first needed: a field of the machine set later deoptimised the compiled `runFrames`
   * ("code dependencies") at the next evaluation. @internal (direct.ts)
   */
  readonly tailSample: TailSample = newTailSample(SAMPLE_MASK);
  /**
   * Outcomes of sub-derivations handed to the rules that asked for them (from a task, the memo or the fast path):
   * the rule goes on once per outcome, so this is the work that merging outcomes saves, which the rule-application
   * count does not show when the continuations are memo hits.
   */
  handed = 0;
  /**
   * How often the fast path took each of its fused shortcuts (direct.ts). A skipped fusion gives the same answer
   * and the same rule-application count, so these are the only place a fusion that stopped applying shows.
   */
  readonly fused: Fused = { fix: 0, fixCurried: 0, saturated: 0, if: 0, branchIn: 0, lamBody: 0, binop: 0, block: 0, lane: 0, recursion: 0, fork: 0, reused: 0, generators: 0 };
  /**
   * `fused` as it was when the current fast-path run began (`direct`, `frontier`): a run that gives up has its
   * shortcuts taken back with its rule applications (`giveUp`), since the general machine redoes its work.
   */
  private readonly fusedAt: Fused = { fix: 0, fixCurried: 0, saturated: 0, if: 0, branchIn: 0, lamBody: 0, binop: 0, block: 0, lane: 0, recursion: 0, fork: 0, reused: 0, generators: 0 };
  /** The xorshift state of `sampled` (fixed seed: evaluations are reproducible, cost included). */
  private sampleState = 0x9e3779b9;

  /** The standard binops of the model's table, computed on values (prims-fast.ts), and whether its fromBool is standard. */
  readonly binops: ReadonlyMap<string, FastBinop>;
  readonly fromBoolStandard: boolean;
  /** `opts.afterBranch` or its default (runDirect reads it at its first branch). */
  readonly afterBranch: number;
  /** Whether the model's `toStr` (the `str` of the surface syntax) is the standard one. */
  private readonly toStrStandard: boolean;
  /** The lattice's ⊥, and the shared ⊥ unit `{}`. */
  private readonly bottom: L;
  private unitBottom: V2<L> | undefined;

  /**
   * This machine's number, unique in the process: the fast path's per-node caches (`Code.fast`) say which machine
   * they belong to by it rather than by holding the machine (a field holding machines is tracked by V8 per object
   * shape, and a later machine of another shape throws away optimised code that relied on it: docs/evaluator-v2.md,
   * "JIT warm-up"; a cache also no longer keeps its machine alive).
   */
  readonly serial = ++machineSerial;

  constructor(readonly ev: Ev<L>, readonly opts: MachineOptions) {
    this.lat = ev.lat;
    this.frontierOn = opts.direct !== false && (opts.frontier ?? opts.maxSteps === Infinity);
    this.probation = opts.probation ?? NODE_PROBATION;
    this.bottom = ev.lat.bottom;
    this.binops = fastBinops(ev.model.prims);
    this.fromBoolStandard = standardFromBool(ev.model.prims);
    this.afterBranch = opts.afterBranch ?? (opts.maxSteps === Infinity ? AFTER_BRANCH_STEPS : 0);
    this.toStrStandard = ev.model.prims.toStr === STANDARD_PRIMS.toStr;
  }

  // ------------------------------------------------------------------------------------------
  // The driver: an explicit stack of tasks; no JS recursion per derivation level.

  /** `⟦pc ⊢ conv, e⟧_fuel` as weighted outcomes. */
  run(pc: L, conv: Conv<L>, code: Code<L>, fuel: number): readonly WOut<L>[] {
    const start: Cfg<L> = { pc, conv, code, env: [], fuel };
    const d = this.direct(start);
    if (d !== undefined) return d;
    // The root's outcomes are merged by key too, until 64 (the probation) have merged none: then, without an
    // outcome limit, they are kept as a list, and `assembleEvaluation` merges them once, by the printed final
    // configuration it keys the distribution by anyway (2^N distinct strings: no second key per outcome).
    const root = this.newTask(start, undefined, this.opts.maxOutcomes === Infinity ? freshStat() : undefined);
    const stack: Task<L>[] = [root];
    let finished: readonly WOut<L>[] = [];
    while (stack.length > 0) {
      const t = stack[stack.length - 1]!;
      if (t.gen === undefined) {
        const depthFirst = t.dfs !== undefined && t.dfs.length > 0;
        if (!depthFirst && t.at === t.round.length) {
          if (t.nextOnly !== undefined || t.next !== undefined || t.nextList !== undefined || t.later !== undefined) {
            if (t.nextOnly === undefined && t.next === undefined && t.nextList === undefined) {
              // Nothing at the next fuel: the highest fuel waiting in `later` is the next round.
              let g = -Infinity;
              for (const f of t.later!.keys()) if (f > g) g = f;
              t.nextFuel = g;
              this.takeLater(t, g);
            }
            const round = t.next !== undefined ? [...t.next.values()] : t.nextOnly !== undefined ? [t.nextOnly] : [];
            if (t.nextList !== undefined) for (const e of t.nextList) round.push(e);
            t.round = round;
            t.at = 0;
            t.next = undefined;
            t.nextOnly = undefined;
            t.nextList = undefined;
            t.nextFuel--;
            if (t.later !== undefined) this.takeLater(t, t.nextFuel);
            if (t.round.length > this.peakRound) this.peakRound = t.round.length;
            continue;
          }
          stack.pop();
          const res = t.result !== undefined ? [...t.result.values()] : t.resultOnly !== undefined ? [t.resultOnly] : [];
          if (t.resultList !== undefined) for (const o of t.resultList) res.push(o);
          if (t.key !== undefined) this.remember(t.key, res);
          const parent = stack[stack.length - 1];
          if (parent) { parent.input = res; this.handed += res.length; }
          else finished = res;
          continue;
        }
        const { cfg, w } = depthFirst ? t.dfs!.pop()! : t.round[t.at++]!;
        if (cfg.fuel <= 0) { this.addOut(t, FUEL, w); continue; }
        if (cfg.code.quick) { this.addOut(t, this.quick(cfg.pc, cfg.code, cfg.env, cfg.fuel, cfg.conv), w); continue; }
        if (depthFirst) {
          // An entry of a node that never merges: the fast path may run it depth first, branches included
          // (its paths would merge with nothing here either), its outcomes this task's.
          const st = this.statOf(cfg.code);
          const tried = st.dfsDirect && this.directOpen();
          const d = tried ? this.direct(cfg, true) : undefined;
          if (tried) noteDfsDirect(st, d !== undefined, this.probation);
          if (d !== undefined) {
            // The run's outcomes are its own (made per path, kept nowhere else): each takes the entry's weight in
            // place and is added as it is, no second object per outcome.
            for (const o of d) { o.weight = mulW(w, o.weight); this.addOut(t, o.out, o.weight, o); }
            continue;
          }
        }
        if (this.frontierOn) {
          // A round entry (or a depth-first one that the run above did not take): the fast path may run it up to its
          // tail premises, branches included, handing those to the next round as the rules would (`frontier`); its
          // finished paths are outcomes.
          const st = this.statOf(cfg.code);
          if (st.frontier && this.steps >= this.frontierResume) {
            const tails: Entry<L>[] = [];
            const d = this.frontier(cfg, tails);
            noteFrontier(st, d !== undefined, this.probation);
            if (d !== undefined) {
              for (const o of d) this.addOut(t, o.out, mulW(w, o.weight));
              for (const e of tails) this.addNext(t, { cfg: e.cfg, w: mulW(w, e.w) });
              continue;
            }
          }
        }
        this.tick();
        t.gen = this.rule(cfg);
        t.genW = w;
        t.input = undefined;
      }
      // Resume the rule until it finishes or needs a sub-task that is not memoised.
      const g = t.gen!;
      let r = g.next(t.input);
      t.input = undefined;
      let pushed = false;
      while (!r.done) {
        const q = r.value;
        if (q.t === 'out') {
          this.addOut(t, q.out, mulW(t.genW, q.w));
        } else if (q.t === 'tail') {
          this.addNext(t, { cfg: q.cfg, w: mulW(t.genW, q.w) });
        } else {
          const c = q.cfg;
          const st = this.statOf(c.code);
          const k = st.memo ? (this.memoOn() ? this.cfgKey(c) : undefined) : this.memoRecheck(st, c);
          const hit = k === undefined ? undefined : this.recall(k);
          if (k !== undefined) noteMemo(st, hit !== undefined, this.probation);
          if (hit) { this.memoHits++; this.windowHits++; this.handed += hit.length; r = g.next(hit); continue; }
          const tried = st.direct && this.directOpen();
          const d = tried ? this.direct(c) : undefined;
          if (tried) noteDirect(st, d !== undefined, this.probation);
          if (d !== undefined) { if (k !== undefined) this.remember(k, d); this.handed += d.length; r = g.next(d); continue; }
          stack.push(this.newTask(c, k, st));
          pushed = true;
          break;
        }
        r = g.next(undefined);
      }
      if (!pushed) t.gen = undefined;
    }
    // Code nodes may keep a reference to this machine (`Code.merged`, the fast path's caches) until another
    // evaluation replaces it: its tables are dropped now so that such a reference holds no memory.
    this.memo = undefined;
    this.memoOld = undefined;
    this.idOfKey = undefined;
    this.strIdsOf = undefined;
    this.nodeStats = undefined;
    this.seenSub = undefined;
    return finished;
  }

  /**
   * The deterministic fast path (direct.ts): `root` as ONE run, exact as long as every premise has at most
   * one outcome; undefined when it gives up (a branch). `depthFirst`: an entry of a node that never merges, run
   * with its branches one after another (direct.ts), its outcomes listed unmerged.
   *
   * A give-up wastes the attempt's rule applications (they are not counted in `steps`); attempts pause
   * until the general machine has done as many, so the waste is at most the real work.
   */
  /** Whether a fast-path attempt may start now: the fast path is on and not paused after a give-up (`giveUp`). */
  private directOpen(): boolean {
    return this.opts.direct !== false && this.steps >= this.directResume;
  }

  private direct(root: Cfg<L>, depthFirst = false): readonly WOut<L>[] | undefined {
    if (!this.directOpen()) return undefined;
    const steps0 = this.steps;
    copyFused(this.fused, this.fusedAt);
    // A depth-first run may branch (direct.ts, choice points): it gives up at a branch past as many rule
    // applications as were done before it (at least DFS_STEPS), so a run whose paths would have merged elsewhere
    // (a merging loop inside) wastes at most about the work so far; and past half the step budget, so that it
    // rarely meets the budget itself where the general machine, merging and memoising, would not.
    const r = runDirect(this, root, depthFirst ? Math.min(this.opts.maxSteps / 2, steps0 + Math.max(steps0, DFS_STEPS)) : undefined);
    if (r === undefined) {
      // A second outcome: branching. Give up; pause attempts for as many steps as were wasted.
      this.directResume = this.giveUp(steps0);
      return undefined;
    }
    this.directRuns++;
    if (depthFirst) this.directDepthFirst++;
    return r;
  }

  /**
   * A frontier run of the fast path (direct.ts): a round's entry `root` run up to its tail premises, branches
   * included; those are pushed on `tails` (weights relative to the entry) for the caller's next round, and the
   * outcomes of the paths that finished are returned. Undefined when it gives up: at a branch below a rule's
   * generator, or at a branch past FRONTIER_STEPS rule applications (paths under frames multiply there, where the
   * rules' sub-tasks would merge their outcomes). A give-up's rule applications are not counted, and frontier runs
   * pause until the general machine has done as many (their own pause: the other fast-path attempts' give-ups do
   * not stop them, nor theirs the others).
   */
  private frontier(root: Cfg<L>, tails: Entry<L>[]): readonly WOut<L>[] | undefined {
    const steps0 = this.steps;
    copyFused(this.fused, this.fusedAt);
    const r = runDirect(this, root, steps0 + FRONTIER_STEPS, tails);
    if (r === undefined) {
      this.frontierResume = this.giveUp(steps0);
      return undefined;
    }
    this.directFrontier++;
    return r;
  }

  /**
   * A fast-path run that gave up, begun at `steps0` rule applications: its own are uncounted (the general machine
   * applies the entry's rules again), as are its fused shortcuts, and the step count until which that kind of run
   * pauses is returned: as many rule applications again as were wasted.
   */
  private giveUp(steps0: number): number {
    this.directBails++;
    copyFused(this.fusedAt, this.fused);
    const resume = steps0 + Math.ceil((this.steps - steps0) / GIVE_UP_PAUSE);
    this.steps = steps0;
    return resume;
  }

  private newTask(cfg: Cfg<L>, key: string | undefined, stat: NodeStat | undefined): Task<L> {
    return {
      key, round: [{ cfg, w: Q.ONE }], at: 0, next: undefined, nextOnly: undefined, nextList: undefined, dfs: undefined,
      nextFuel: cfg.fuel - 1, later: undefined,
      result: undefined, resultOnly: undefined, resultList: undefined, seenNext: undefined, seenOut: undefined,
      stat, code: cfg.code, gen: undefined, genW: Q.ONE, input: undefined,
    };
  }

  /**
   * Add a configuration to the task's next round, merged with an equal one by key (keys are only computed
   * once there are two entries). Entries of a code node that has never merged (after `NODE_PROBATION`
   * keyed inserts) are kept unkeyed: an unmerged duplicate costs a second run with its own weight, never
   * a different answer. The `maxOutcomes` limit still counts DISTINCT configurations: when the unkeyed
   * entries could exceed it, they are keyed after all and the limit is checked on the merged count.
   */
  private addNext(t: Task<L>, entry: Entry<L>): void {
    const st = this.statOf(entry.cfg.code);
    if (!st.merge && this.sampled() && this.recurs((t.seenNext ??= new Set()), this.cfgKey(entry.cfg))) { st.merge = true; st.merges++; }
    if (!st.merge && this.opts.maxOutcomes === Infinity) { (t.dfs ??= []).push(entry); return; }
    if (entry.cfg.fuel !== t.nextFuel) {
      // Only a tail of a depth-first entry or a frontier run: it waits for its round (counted there).
      const f = entry.cfg.fuel;
      const l = (t.later ??= new Map());
      const es = l.get(f);
      if (es) es.push(entry); else l.set(f, [entry]);
      return;
    }
    this.addToRound(t, entry, st);
  }

  /** The next round's part of `addNext`: the entry merged by key, or kept unkeyed while its node never merges. */
  private addToRound(t: Task<L>, entry: Entry<L>, st: NodeStat): void {
    if (t.next === undefined && t.nextOnly === undefined && t.nextList === undefined) { t.nextOnly = entry; return; }
    if (!st.merge) {
      (t.nextList ??= []).push(entry);
      if (t.nextList.length + (t.next?.size ?? 0) + (t.nextOnly ? 1 : 0) > this.opts.maxOutcomes) {
        const list = t.nextList;
        t.nextList = undefined;
        for (const e of list) this.addNextKeyed(t, e, undefined);
      }
      return;
    }
    this.addNextKeyed(t, entry, st);
  }

  /** Move the entries waiting in `later` at fuel `f` (= `t.nextFuel`) into the next round, merged. */
  private takeLater(t: Task<L>, f: number): void {
    const es = t.later!.get(f);
    if (es === undefined) return;
    t.later!.delete(f);
    if (t.later!.size === 0) t.later = undefined;
    for (const e of es) {
      const st = this.statOf(e.cfg.code);
      if (!st.merge && this.opts.maxOutcomes === Infinity) (t.dfs ??= []).push(e);
      else this.addToRound(t, e, st);
    }
  }

  private addNextKeyed(t: Task<L>, entry: Entry<L>, st: NodeStat | undefined): void {
    if (t.next === undefined) {
      t.next = new Map();
      if (t.nextOnly !== undefined) { t.next.set(this.cfgKey(t.nextOnly.cfg), t.nextOnly); t.nextOnly = undefined; }
    }
    const k = this.cfgKey(entry.cfg);
    const prev = t.next.get(k);
    if (st !== undefined) noteMerge(st, prev !== undefined, this.probation);
    if (prev) { prev.w = Q.add(prev.w, entry.w); entry.cfg.code.merged = this; }
    else { t.next.set(k, entry); if (t.next.size > this.opts.maxOutcomes) this.outcomeLimit(); }
  }

  /**
   * Add weight `w` to outcome `o` of the task's result (keys computed only once there are two outcomes).
   * A sub-task whose code node has never merged two outcomes keeps them unkeyed (as `addNext`; the parent
   * rule runs on each; the root, after its own probation, keeps a list merged by `assembleEvaluation`). Only without a `maxOutcomes` limit: the parent's
   * frontier of partial runs (RecordCons/ArrayCons) is limited by count, so it needs merged premise results.
   * `wo`, when given, is `{out: o, weight: w}` already made and no one else's: it is kept as it is.
   */
  private addOut(t: Task<L>, o: Out<L>, w: Q.Rational, wo?: WOut<L>): void {
    if (t.result === undefined && t.resultOnly === undefined && t.resultList === undefined) { t.resultOnly = wo ?? { out: o, weight: w }; return; }
    if (t.stat !== undefined && !t.stat.outMerge) {
      // Re-checked on a sample, as next-round entries are (`sampled`): a node whose first outcomes all differ may
      // merge in later calls, and unmerged they multiply: every rule waiting on them runs once per copy, level
      // after level of a recursion (2^n for n levels) where merged ones cost n + 1.
      if (!(this.sampled() && this.recurs((t.seenOut ??= new Set()), this.outKey(o)))) { (t.resultList ??= []).push(wo ?? { out: o, weight: w }); return; }
      t.stat.outMerge = true;
      t.stat.outMerges++;
    }
    if (t.result === undefined) {
      t.result = new Map();
      if (t.resultOnly !== undefined) { t.result.set(this.outKey(t.resultOnly.out), t.resultOnly); t.resultOnly = undefined; }
    }
    const k = this.outKey(o);
    const prev = t.result.get(k);
    if (t.stat !== undefined && this.opts.maxOutcomes === Infinity) noteOutMerge(t.stat, prev !== undefined, this.probation);
    if (prev) { prev.weight = Q.add(prev.weight, w); t.code.merged = this; }
    else { t.result.set(k, wo ?? { out: o, weight: w }); if (t.result.size > this.opts.maxOutcomes) this.outcomeLimit(); }
  }

  /**
   * A node classified as never merging (after `probation` keyed inserts without a merge) is re-checked on a sample
   * of its later next-round entries (`addNext`; depth-first runs do the same on their tail entries, direct.ts
   * `repeats`): a loop whose first iterations all differ may merge in later ones (a string built, then dropped for
   * a sum), and kept unmerged those would multiply the work exponentially. About one entry in SAMPLE_MASK + 1 is
   * keyed, chosen by a fixed pseudo-random sequence (a regular stride could fall in step with a binary tree's
   * traversal and never see the repeat); a key seen before in the same task is a merge missed, and the node is
   * merging from then on. Sampling changes only the cost, never an answer. Outcomes of sub-tasks (`outMerge`,
   * `addOut`) are re-checked the same way. @internal (direct.ts)
   */
  sampled(): boolean {
    return this.sampledWith(SAMPLE_MASK);
  }

  /** `sampled` at one entry in `mask` + 1 (`mask` one less than a power of 2): depth-first runs' sparser re-checks (direct.ts `repeats`). @internal (direct.ts) */
  sampledWith(mask: number): boolean {
    let x = this.sampleState;
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    this.sampleState = x >>> 0;
    return (this.sampleState & mask) === 0;
  }

  /** Whether `k` is in the sample `seen` (and add it; the sample is bounded). @internal (direct.ts) */
  recurs(seen: Set<string>, k: string): boolean {
    if (seen.has(k)) return true;
    if (seen.size >= SAMPLE_KEYS) seen.clear();
    seen.add(k);
    return false;
  }

  /** Per code node: does memoising / trying `direct` on its sub-derivations pay in this evaluation? */
  private statOf(code: Code<L>): NodeStat {
    const stats = (this.nodeStats ??= new Map());
    let st = stats.get(code.id);
    if (st === undefined) {
      st = freshStat();
      stats.set(code.id, st);
    }
    return st;
  }

  private outcomeLimit(): never {
    throw new BudgetExceeded(outcomeLimitMessage(this.opts.maxOutcomes), 'outcomes', this.opts.maxOutcomes);
  }

  /** @internal (direct.ts) */
  tick(): void {
    if (++this.steps > this.opts.maxSteps) throw new BudgetExceeded(stepLimitMessage(this.opts.maxSteps), 'steps', this.opts.maxSteps);
  }

  /**
   * Memoisation pays only when results are reused. After a window of misses without a single hit it is
   * paused for a while (deterministic loops never revisit a configuration), then probed again.
   */
  private memoOn(): boolean {
    if (this.memoPaused > 0) { this.memoPaused--; return false; }
    if (++this.windowLookups >= MEMO_WINDOW) {
      if (this.windowHits === 0) { this.memoPaused = MEMO_PAUSE; this.memo = undefined; this.memoOld = undefined; }
      this.windowLookups = 0;
      this.windowHits = 0;
    }
    return true;
  }

  /**
   * A node whose memo lookups never hit (`noteMemo`) is re-checked on a sample of its later sub-derivations, as
   * next-round entries and outcomes are (`sampled`): one in SAMPLE_MASK + 1 is keyed into a bounded sample, and a
   * key seen before there turns the node's memoisation back on for good (the key is returned, so this one is
   * stored). Without it a node whose first 64 requests all differed never memoised again, and a recursion that
   * then asked it the same thing from both outcomes of a premise, level after level, redid 2^k derivations.
   */
  private memoRecheck(st: NodeStat, c: Cfg<L>): string | undefined {
    if (!this.sampled()) return undefined;
    const k = this.cfgKey(c);
    if (!this.recurs((this.seenSub ??= new Set()), k)) return undefined;
    st.memo = true;
    st.hits++;
    return k;
  }

  private recall(k: string): readonly WOut<L>[] | undefined {
    const hit = this.memo?.get(k);
    if (hit) return hit;
    const old = this.memoOld?.get(k);
    if (old) this.remember(k, old);
    return old;
  }

  private remember(k: string, res: readonly WOut<L>[]): void {
    let memo = (this.memo ??= new Map());
    if (memo.size >= this.opts.memoGeneration) { this.memoOld = memo; this.memo = memo = new Map(); }
    memo.set(k, res);
    const size = memo.size + (this.memoOld?.size ?? 0);
    if (size > this.peakMemo) this.peakMemo = size;
  }

  // ------------------------------------------------------------------------------------------
  // Keys (hash-consing of values; configurations keyed by the slots their code reads).

  valueId(v: V2<L>): number {
    const id = v.id;
    return id !== 0 ? id : this.newValueId(v);
  }

  /**
   * `valueId`'s slow path, a value not keyed yet: its key from its label and the ids of its parts, interned.
   * Kept out of `valueId`, with its interning (`interned`; and loops rather than `map`/`join`), so that V8 does not
   * inline it into the key builders that call it (`cfgKey`, `outKey`; it is over V8's 460-byte inlining limit):
   * inlined, its reads of every kind of value body made `cfgKey` deoptimise and be compiled again each time a
   * new kind of value was first keyed, three compile jobs in a short evaluation (docs/evaluator-v2.md,
   * "Cold evaluations").
   */
  private newValueId(v: V2<L>): number {
    const l = this.ev.labelKey(v.label);
    const b = v.body;
    let k: string;
    switch (b.kind) {
      case 'num': k = `${l}n${Q.show(b.value)}`; break;
      case 'str': return this.strId(v, l, b.value);
      case 'bool': k = `${l}${b.value ? 't' : 'f'}`; break;
      case 'null': k = `${l}N`; break;
      case 'clo': k = `${l}c${b.code.id}(${this.idList(b.env)})`; break;
      case 'record': {
        k = `${l}r`;
        const fs = b.fields;
        for (let i = 0; i < fs.length; i++) k += `${i === 0 ? '' : ','}${JSON.stringify(fs[i]!.name)}=${this.valueId(fs[i]!.expr)}`;
        break;
      }
      case 'array': k = `${l}y${this.idList(b.elems)}`; break;
      default: return absurd(b);
    }
    const id = this.interned((this.idOfKey ??= new Map()), k);
    v.id = id;
    return id;
  }

  /**
   * `k`'s id in `table`, a fresh one if it has none. Interned: equal keys, equal ids. Bounded: forgetting an id only
   * costs merges (a fresh id is never reused for another key).
   */
  private interned<K>(table: Map<K, number>, k: K): number {
    let id = table.get(k);
    if (id === undefined) {
      if (table.size >= 4 * this.opts.memoGeneration) table.clear();
      id = this.nextValueId++;
      table.set(k, id);
    }
    return id;
  }

  /**
   * A string's id: interned by the string itself in a table per label key (`strIdsOf`), no key string made. A
   * program with many distinct strings as outcomes keyed each by a new `q"…"` key (its JSON text, made and then
   * kept in the table): strings N = 16 keys 2^16 of them (docs/evaluator-v2.md, "Measurements", twenty-third round).
   */
  private strId(v: V2<L>, l: string, s: string): number {
    const byLabel = (this.strIdsOf ??= new Map());
    let table = byLabel.get(l);
    if (table === undefined) { table = new Map(); byLabel.set(l, table); }
    const id = this.interned(table, s);
    v.id = id;
    return id;
  }

  /** The ids of `vs`, comma-separated. */
  private idList(vs: readonly V2<L>[]): string {
    let k = '';
    for (let i = 0; i < vs.length; i++) k += i === 0 ? `${this.valueId(vs[i]!)}` : `,${this.valueId(vs[i]!)}`;
    return k;
  }

  private convKey(c: Conv<L>): string {
    return `${this.ev.labelKey(c.label)}/${c.msgs?.id ?? 0}`;
  }

  /** A configuration's key (memo, rounds, sampled re-checks): pc, conversation, code node, fuel and the values in the slots its code reads (`Code.uses`). */
  private cfgKey(c: Cfg<L>): string {
    return this.cfgKeyOf(c.pc, c.conv, c.code, c.env, c.fuel);
  }

  /** `cfgKey` of a configuration given by its parts (the fast path's sampled tails: no object made for it). @internal (direct.ts) */
  cfgKeyOf(pc: L, conv: Conv<L>, code: Code<L>, env: readonly V2<L>[], fuel: number): string {
    let k = `${this.ev.labelKey(pc)}|${this.convKey(conv)}|${code.id}|${fuel}|`;
    for (const s of code.uses) k += `${this.valueId(env[s]!)},`;
    return k;
  }

  outKey(o: Out<L>): string {
    switch (o.kind) {
      case 'ok': return `${this.convKey(o.conv)}#${this.valueId(o.value)}`;
      case 'fuel': return '!fuel';
      case 'stuck': return `!stuck ${o.rule}: ${o.reason}`;
      default: return absurd(o);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Values and the spec's helpers (on the readback, so they are the spec's own).

  private val(label: L, body: Body2<L>): V2<L> { return mkValue(label, body); }
  /** `label:{}`; the ⊥ one is shared (values are immutable; its id and depth are the same for every copy). */
  private unit(label: L): V2<L> {
    if (label !== this.bottom) return mkValue(label, EMPTY_RECORD);
    return (this.unitBottom ??= mkValue(label, EMPTY_RECORD));
  }
  /** @internal (direct.ts) */
  ok(conv: Conv<L>, value: V2<L>): Out<L> { return { kind: 'ok', conv, value }; }
  private stuck(rule: string, reason: string): Out<L> { return { kind: 'stuck', rule, reason }; }
  private describe(v: V2<L>): string { return describeValue(this.ev, readback(v)); }

  /**
   * Reading a variable = evaluating the substituted value expression `l:v` at `pc`: Labelled joins pc
   * into `l`, and RecordCons/ArrayCons evaluate each field at that joined pc, so every nested label is
   * raised along the path (closures and scalars keep their bodies).
   */
  readVar(pc: L, v: V2<L>): V2<L> {
    const b = v.body;
    // At pc ⊥ a value without nested labels reads as itself (⊥ ⊔ l = l): the common case, no join.
    if (pc === this.bottom && b.kind !== 'record' && b.kind !== 'array') return v;
    const m = this.lat.join(pc, v.label);
    if (this.opts.brokenVarRead === true) return this.lat.equals(m, v.label) ? v : this.val(m, b);
    let body: Body2<L> = b;
    if (b.kind === 'record' && b.fields.length > 0) {
      let changed = false;
      const fields = b.fields.map((f) => { const x = this.readVar(m, f.expr); if (x !== f.expr) changed = true; return x === f.expr ? f : { name: f.name, expr: x }; });
      if (changed) body = { kind: 'record', fields };
    } else if (b.kind === 'array' && b.elems.length > 0) {
      let changed = false;
      const elems = b.elems.map((x) => { const y = this.readVar(m, x); if (y !== x) changed = true; return y; });
      if (changed) body = { kind: 'array', elems };
    }
    return body === b && this.lat.equals(m, v.label) ? v : this.val(m, body);
  }

  /** `l:V` for a value `V` (top-level join only, as `Ev.raise`). */
  private raise(l: L, v: V2<L>): V2<L> {
    const m = this.lat.join(l, v.label);
    return this.lat.equals(m, v.label) ? v : this.val(m, v.body);
  }

  private decodeLabel(v1: V2<L>): { n: L; l: L | undefined; readonly text: string } {
    const { label: n, plain } = this.flatten(v1);
    const describe = (): string => this.describe(v1);
    return { n, l: this.ev.toLabel(plain), get text() { return describe(); } };
  }

  // ------------------------------------------------------------------------------------------
  // Quick code: deterministic and conversation-preserving, evaluated inline (recursion bounded by the
  // code's own nesting). Same fuel accounting as the rules: a node with fuel k ≤ 0 is out of fuel, its
  // premises get k − 1, the first failing premise is the outcome.

  quick(pc: L, code: Code<L>, env: readonly V2<L>[], fuel: number, conv: Conv<L>): Out<L> {
    const r = this.quickValue(pc, code, env, fuel);
    return isFailure(r) ? r : this.ok(conv, r);
  }

  /**
   * `quickValue` of a variable (the commonest quick code; small, so callers in hot loops get it inlined).
   * The read is the whole derivation of the substituted value (no separate step for the variable).
   * @internal (direct.ts)
   */
  quickVar(pc: L, slot: number, env: readonly V2<L>[], fuel: number): V2<L> | Failure {
    if (fuel <= 0) return FUEL;
    const v = env[slot]!;
    this.tick();
    return fuel >= depthOf(v) ? this.readVar(pc, v) : FUEL;
  }

  /** `quick` without the conversation (quick code keeps it): the value, or the failure. @internal (direct.ts) */
  quickValue(pc: L, code: Code<L>, env: readonly V2<L>[], fuel: number): V2<L> | Failure {
    if (fuel <= 0) return FUEL;
    if (code.k === 'var') return this.quickVar(pc, code.slot, env, fuel);
    this.tick();
    const f = fuel - 1;
    switch (code.k) {
      case 'free': return stuckF('Var', `unbound variable ${code.name}`);
      case 'lam': return this.closure(pc, code, env);
      case 'scalar': return this.val(pc, code.e);
      case 'label': return this.quickValue(this.lat.join(pc, code.label), code.body, env, f);
      case 'prim': {
        const a = code.arg;
        if (a.k === 'array' && a.elems.length === 2) {
          // A binop over a literal pair: ArrayCons's premises (same fuel and steps), then the values
          // themselves to the binop when it is a standard one (`primPair`), without building the array.
          if (f <= 0) return FUEL;
          this.tick();
          const a0 = a.elems[0]!, a1 = a.elems[1]!;
          const x = a0.k === 'var' ? this.quickVar(pc, a0.slot, env, f - 1) : this.quickValue(pc, a0, env, f - 1);
          if (isFailure(x)) return x;
          const y = a1.k === 'var' ? this.quickVar(pc, a1.slot, env, f - 1) : this.quickValue(pc, a1, env, f - 1);
          if (isFailure(y)) return y;
          return this.primPair(pc, a, x, y, code.name);
        }
        const o = this.quickValue(pc, a, env, f);
        return isFailure(o) ? o : this.primValue(pc, o, code.name);
      }
      case 'record': case 'array': {
        if (code.elems.length === 0) return code.k === 'record' ? this.unit(pc) : this.val(pc, { kind: 'array', elems: [] });
        const vs: V2<L>[] = [];
        for (const c of code.elems) {
          const o = this.quickValue(pc, c, env, f);
          if (isFailure(o)) return o;
          vs.push(o);
        }
        return this.aggregate(pc, code, vs);
      }
      case 'field': {
        const o = this.quickValue(pc, code.target, env, f);
        return isFailure(o) ? o : this.fieldValue(o, code.name);
      }
      case 'index': {
        const a = this.quickValue(pc, code.target, env, f);
        if (isFailure(a)) return a;
        const i = this.quickValue(pc, code.index, env, f);
        return isFailure(i) ? i : this.indexValue(a, i);
      }
      case 'app': case 'send': case 'recv': case 'fork': case 'clear': case 'dynlabel': case 'test': case 'assert': case 'endorse':
        throw new Error(`internal error: ${code.k} is never quick`);
      default: return absurd(code);
    }
  }

  private closure(pc: L, code: LamCode<L>, env: readonly V2<L>[]): V2<L> {
    const caps = code.caps, captured = new Array<V2<L>>(caps.length);
    for (let i = 0; i < caps.length; i++) captured[i] = env[caps[i]!]!;
    return this.val(pc, { kind: 'clo', code, env: captured });
  }

  /** @internal (direct.ts) */
  aggregate(pc: L, code: Code<L> & { k: 'record' | 'array' }, vs: readonly V2<L>[]): V2<L> {
    return code.k === 'record'
      ? this.val(pc, { kind: 'record', fields: vs.map((v, i) => ({ name: code.names[i]!, expr: v })) })
      : this.val(pc, { kind: 'array', elems: vs });
  }

  /** `deepLabel(readback(v))`, computed on the value itself except inside closures. */
  private deepLabel(v: V2<L>): L {
    const b = v.body;
    switch (b.kind) {
      case 'num': case 'str': case 'bool': case 'null': return v.label;
      case 'clo': return this.ev.deepLabel(readback(v));
      case 'record': { let l = v.label; for (const f of b.fields) l = this.lat.join(l, this.deepLabel(f.expr)); return l; }
      case 'array': { let l = v.label; for (const x of b.elems) l = this.lat.join(l, this.deepLabel(x)); return l; }
      default: return absurd(b);
    }
  }

  /** `stripLabels(readback(v))`, computed on the value itself except inside closures. */
  private plain(v: V2<L>): PlainValue {
    const b = v.body;
    switch (b.kind) {
      case 'num': return numLiteral(b);
      case 'str': case 'bool': case 'null': return b;
      case 'clo': return this.ev.strip(readback(v));
      case 'record': return { kind: 'record', fields: b.fields.map((f) => ({ name: f.name, expr: this.plain(f.expr) })) };
      case 'array': return { kind: 'array', elems: b.elems.map((x) => this.plain(x)) };
      default: return absurd(b);
    }
  }

  /** `flatten(V) = deepLabel(V):stripLabels(V)`. */
  private flatten(v: V2<L>): { readonly label: L; readonly plain: PlainValue } {
    return { label: this.deepLabel(v), plain: this.plain(v) };
  }

  /** A bare value from a primitive as a runtime body; lambdas compiled once per structure (hash-consed). */
  private fromBare(b: BareValue<L>): Body2<L> {
    if (b.kind !== 'lam') return fromBare(b);
    const byObject = (this.lamByObject ??= new WeakMap()), cache = (this.lamCache ??= new Map());
    const same = byObject.get(b);
    if (same) return { kind: 'clo', code: same, env: [] };
    const id = this.ev.exprId(b);
    const hit = cache.get(id);
    if (hit) { byObject.set(b, hit); return { kind: 'clo', code: hit, env: [] }; }
    const code = compileClosed(b) as LamCode<L>;
    cache.set(id, code);
    byObject.set(b, code);
    return { kind: 'clo', code, env: [] };
  }

  /** Prim after its premise (rules.ts `primAfter`). */
  private primAfter(pc: L, c1: Conv<L>, v: V2<L>, name: string): Out<L> {
    const r = this.primValue(pc, v, name);
    return isFailure(r) ? r : this.ok(c1, r);
  }

  /**
   * Prim over the array `[x, y]` built at pc by `code` (ArrayCons's conclusion `pc:[x, y]`): a standard
   * binop on two scalars directly, label `pc ⊔ deepLabel(pc:[x, y])`; anything else by `primValue` on that array.
   * @internal (direct.ts)
   */
  primPair(pc: L, code: Code<L> & { k: 'array' }, x: V2<L>, y: V2<L>, name: string): V2<L> | Failure {
    const f = this.binops.get(name);
    const r = f === undefined ? undefined : f(x.body, y.body);
    if (r !== undefined) return this.val(this.lat.join(pc, this.lat.join(x.label, y.label)), r);
    return this.primValue(pc, this.aggregate(pc, code, [x, y]), name);
  }

  /**
   * Prim after its premise: `(pc ⊔ deepLabel(V)):wrapValues(primEval(p, stripLabels(V)))`, a standard binop
   * on two scalars or `fromBool` on the value itself (prims-fast.ts), anything else by the model's table.
   * @internal (direct.ts)
   */
  primValue(pc: L, v: V2<L>, name: string): V2<L> | Failure {
    const b = v.body;
    if (b.kind === 'array' && b.elems.length === 2) {
      // A standard binop on two scalars: computed on the values (prims-fast.ts); label pc ⊔ deepLabel(V).
      const f = this.binops.get(name);
      const x = b.elems[0]!, y = b.elems[1]!;
      const r = f === undefined ? undefined : f(x.body, y.body);
      if (r !== undefined) return this.val(this.lat.join(pc, this.lat.join(v.label, this.lat.join(x.label, y.label))), r);
    } else if (name === 'fromBool' && this.fromBoolStandard) {
      return this.val(this.lat.join(pc, this.deepLabel(v)), this.church(b.kind !== 'bool' || b.value));
    } else if (name === 'toStr' && this.toStrStandard && (b.kind === 'num' || b.kind === 'str' || b.kind === 'bool' || b.kind === 'null')) {
      // `str` of a scalar: serialise(v) (a scalar body is its own label-free value), label pc ⊔ ℓ(V).
      return this.val(this.lat.join(pc, v.label), { kind: 'str', value: serialise(b) });
    }
    return this.primGeneric(pc, v, name);
  }

  /**
   * The Church boolean the standard `fromBool` returns, as a runtime body: built once per lattice through the
   * generic path's own `fromBare` and shared by every evaluation (it depends only on the standard function and
   * the lattice's `wrapValues`; bodies are immutable). Per machine it cost an `exprId` of the lambda per evaluation.
   */
  private church(t: boolean): Body2<L> {
    let pair = CHURCH.get(this.lat) as [Body2<L> | undefined, Body2<L> | undefined] | undefined;
    if (pair === undefined) { pair = [undefined, undefined]; CHURCH.set(this.lat, pair); }
    let c = pair[t ? 1 : 0];
    if (c === undefined) {
      const r = this.ev.primEval('fromBool', { kind: 'bool', value: t });
      if (!r.ok) throw new Error('internal error: the standard fromBool failed');
      c = this.fromBare(this.ev.wrap(r.value));
      pair[t ? 1 : 0] = c;
    }
    return c;
  }

  /** Prim by the model's table: `primEval(p, stripLabels(V))`, then `(pc ⊔ deepLabel(V)):wrapValues(v′)`. */
  private primGeneric(pc: L, v: V2<L>, name: string): V2<L> | Failure {
    const r = this.ev.primEval(name, this.plain(v));
    if (!r.ok) return stuckF('Prim', r.reason);
    return this.val(this.lat.join(pc, this.deepLabel(v)), this.fromBare(this.ev.wrap(r.value)));
  }

  /** FieldAccess after its premise (rules.ts `fieldAfter`). @internal (direct.ts) */
  fieldAfter(c1: Conv<L>, r: V2<L>, name: string): Out<L> {
    const x = this.fieldValue(r, name);
    return isFailure(x) ? x : this.ok(c1, x);
  }

  private fieldValue(r: V2<L>, name: string): V2<L> | Failure {
    if (r.body.kind !== 'record') return stuckF('FieldAccess', `.${name} of a non-record ${this.describe(r)}`);
    const fl = r.body.fields.find((x) => x.name === name);
    if (!fl) return stuckF('FieldAccess', `no field ${name} in ${this.describe(r)}`);
    return this.raise(r.label, fl.expr);
  }

  /** ArrayIndex after both premises (rules.ts `ruleArrayIndex`'s side conditions). @internal (direct.ts) */
  indexAfter(c2: Conv<L>, a: V2<L>, i: V2<L>): Out<L> {
    const x = this.indexValue(a, i);
    return isFailure(x) ? x : this.ok(c2, x);
  }

  private indexValue(a: V2<L>, i: V2<L>): V2<L> | Failure {
    if (a.body.kind !== 'array') return stuckF('ArrayIndex', `indexing a non-array ${this.describe(a)}`);
    const n = a.body.elems.length;
    // An index in bounds is a small integer (every array is shorter than 2^53 − 1): read as its double, no BigInt.
    const k = i.body.kind === 'num' ? Q.smallIntegerOf(i.body.value) : undefined;
    if (k === undefined || k < 0 || k >= n) return stuckF('ArrayIndex', `index ${this.describe(i)} out of bounds for length ${n}`);
    return this.raise(this.lat.join(a.label, i.label), a.body.elems[k]!);
  }

  /** App's side condition: applying a non-function is stuck (one wording for the generator and the fast path). @internal (direct.ts) */
  appNonFunction(fn: V2<L>): Failure { return stuckF('App', `applying a non-function ${this.describe(fn)}`); }

  /** App after both premises: applying a non-function is stuck, else the body at l1 is the tail premise. */
  private appAfter(f: number, fn: V2<L>, c2: Conv<L>, arg: V2<L>, w: Q.Rational): Req<L> & { t: 'out' | 'tail' } {
    if (fn.body.kind !== 'clo') return outReq(this.appNonFunction(fn), w);
    return tailReq(f, fn.label, c2, fn.body.code.body, bodyEnv(arg, fn.body.env), w);
  }

  /** Send after its premise (rules.ts `sendAfter`). @internal (direct.ts) */
  sendAfter(pc: L, c1: Conv<L>, v: V2<L>): Out<L> {
    if (!this.lat.leq(pc, c1.label)) return this.stuck('Send', `pc ${this.lat.show(pc)} does not flow to conversation label ${this.lat.show(c1.label)}`);
    const { label: n, plain } = this.flatten(v);
    return this.ok(this.ev.append(c1, this.ev.serialise(plain), this.lat.join(c1.label, n)), this.unit(pc));
  }

  // ------------------------------------------------------------------------------------------
  // The rules, as generators over premises. Same order of premises and side conditions as rules.ts.

  /**
   * A premise whose result is available at once (quick code, or no fuel), else undefined: the rule then
   * yields `sub(…)` and is resumed with the sub-task's result. Failures are passed on by the caller.
   */
  private now(pc: L, conv: Conv<L>, code: Code<L>, env: readonly V2<L>[], fuel: number): readonly WOut<L>[] | undefined {
    if (code.quick) return [{ out: this.quick(pc, code, env, fuel, conv), weight: Q.ONE }];
    if (fuel <= 0) return FUEL_RESULT;
    return undefined;
  }

  private sub(pc: L, conv: Conv<L>, code: Code<L>, env: readonly V2<L>[], fuel: number): Req<L> {
    return { t: 'sub', cfg: { pc, conv, code, env, fuel } };
  }

  /** The rule's generator for a configuration (one generator per paper rule, as in rules.ts). @internal (direct.ts) */
  rule(cfg: Cfg<L>): Rule<L> {
    const { pc, conv, code, env } = cfg;
    const f = cfg.fuel - 1;
    switch (code.k) {
      case 'var': case 'free': case 'lam': case 'scalar':
        throw new Error(`internal error: ${code.k} is always quick`);
      case 'app': return this.ruleApp(pc, conv, code, env, f);
      case 'send': return this.ruleSend(pc, conv, code, env, f);
      case 'recv': return this.ruleRecv(pc, conv, code, env, f);
      case 'fork': return this.ruleFork(pc, conv, code, env, f);
      case 'clear': return this.ruleClear(pc, conv, code, env, f);
      case 'label': return this.ruleLabelled(pc, conv, code, env, f);
      case 'dynlabel': return this.ruleLabelFlow(pc, conv, code, env, f);
      case 'test': return this.ruleLabelTest(pc, conv, code, env, f);
      case 'assert': return this.ruleLabelAssert(pc, conv, code, env, f);
      case 'endorse': return this.ruleEndorse(pc, conv, code, env, f);
      case 'prim': return this.rulePrim(pc, conv, code, env, f);
      case 'record': case 'array': return this.ruleRecordArrayCons(pc, conv, code, env, f);
      case 'field': return this.ruleFieldAccess(pc, conv, code, env, f);
      case 'index': return this.ruleArrayIndex(pc, conv, code, env, f);
      default: return absurd(code);
    }
  }

  /** App:  e1 ⇓ C1, l1:λx.e3;  e2 ⇓ C2, V2;  then the body at l1 (tail). */
  private *ruleApp(pc: L, conv: Conv<L>, code: Code<L> & { k: 'app' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.fn, env, f) ?? (yield this.sub(pc, conv, code.fn, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        const fn = a.out.value;
        for (const b of (this.now(pc, a.out.conv, code.arg, env, f) ?? (yield this.sub(pc, a.out.conv, code.arg, env, f))!)) {
          const w = mulW(a.weight, b.weight);
          if (b.out.kind !== 'ok') { yield outReq(b.out, w); continue; }
          yield this.appAfter(f, fn, b.out.conv, b.out.value, w);
        }
      }
      return;
  }

  /** Send:  e ⇓ C1, V; then `sendAfter` (pc ⊑ lc, append serialise(v) at lc ⊔ n). */
  private *ruleSend(pc: L, conv: Conv<L>, code: Code<L> & { k: 'send' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.arg, env, f) ?? (yield this.sub(pc, conv, code.arg, env, f))!)) {
        yield outReq(a.out.kind === 'ok' ? this.sendAfter(pc, a.out.conv, a.out.value) : a.out, a.weight);
      }
      return;
  }

  /** Recv:  pc ⊑ lc; each response r with p > 0; parse(r) at pc = lc (tail, weight p). */
  private *ruleRecv(pc: L, conv: Conv<L>, code: Code<L> & { k: 'recv' }, env: readonly V2<L>[], f: number): Rule<L> {
      if (!this.lat.leq(pc, conv.label)) {
        yield outReq(this.recvStuck(pc, conv), Q.ONE);
        return;
      }
      for (const [r, p] of this.ev.responses(conv)) yield this.recvTail(f, conv, r, p);
      return;
  }

  /** Recv's side condition pc ⊑ lc failed. @internal (direct.ts) */
  recvStuck(pc: L, conv: Conv<L>): Failure {
    return stuckF('Recv', `pc ${this.lat.show(pc)} does not flow to conversation label ${this.lat.show(conv.label)}`);
  }

  /** Recv's premise for response `r` (probability `p`): parse(r) at pc = lc, with `r` appended, fuel `f` (tail). (direct.ts writes it out.) */
  private recvTail(f: number, conv: Conv<L>, r: string, p: Q.Rational): Req<L> & { t: 'tail' } {
    return tailReq(f, conv.label, this.ev.append(conv, r, conv.label), this.responseCode(r), [], p);
  }

  /** The code of Recv's premise for response `r`: parse(r), compiled once per parsed expression. @internal (direct.ts) */
  responseCode(r: string): Code<L> {
    return compileClosed(this.ev.parse(r));
  }

  /** Fork:  e ⇓ C′, V  ⟹  C, V (conversation restored). */
  private *ruleFork(pc: L, conv: Conv<L>, code: Code<L> & { k: 'fork' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.body, env, f) ?? (yield this.sub(pc, conv, code.body, env, f))!)) {
        yield outReq(a.out.kind === 'ok' ? this.ok(conv, a.out.value) : a.out, a.weight);
      }
      return;
  }

  /** Clear:  pc ⊑ lc  ⟹  pc:ε, pc:{}. */
  private *ruleClear(pc: L, conv: Conv<L>, code: Code<L> & { k: 'clear' }, env: readonly V2<L>[], f: number): Rule<L> {
      yield outReq(this.lat.leq(pc, conv.label)
        ? this.ok({ label: pc, msgs: null }, this.unit(pc))
        : this.stuck('Clear', `pc ${this.lat.show(pc)} does not flow to conversation label ${this.lat.show(conv.label)}`), Q.ONE);
      return;
  }

  /** Labelled:  e at pc ⊔ l (tail). */
  private *ruleLabelled(pc: L, conv: Conv<L>, code: Code<L> & { k: 'label' }, env: readonly V2<L>[], f: number): Rule<L> {
      yield tailReq(f, this.lat.join(pc, code.label), conv, code.body, env, Q.ONE);
      return;
  }

  /** LabelFlow:  e1 ⇓ C1, V1; flatten, toLabel; e2 at pc ⊔ n ⊔ l (tail). */
  private *ruleLabelFlow(pc: L, conv: Conv<L>, code: Code<L> & { k: 'dynlabel' | 'test' | 'assert' | 'endorse' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.label, env, f) ?? (yield this.sub(pc, conv, code.label, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        const { n, l, text } = this.decodeLabel(a.out.value);
        if (l === undefined) { yield outReq(this.stuck('LabelFlow', `${text} is not a label of ${this.lat.name}`), a.weight); continue; }
        yield tailReq(f, this.lat.join(this.lat.join(pc, n), l), a.out.conv, code.body, env, a.weight);
      }
      return;
  }

  /** LabelTest:  e1 ⇓ C1, V1; flatten, toLabel; e2 at pc ⊔ n; answer (pc ⊔ n ⊔ l):(ℓ(V2) ⊑ l). */
  private *ruleLabelTest(pc: L, conv: Conv<L>, code: Code<L> & { k: 'dynlabel' | 'test' | 'assert' | 'endorse' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.label, env, f) ?? (yield this.sub(pc, conv, code.label, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        const { n, l, text } = this.decodeLabel(a.out.value);
        if (l === undefined) { yield outReq(this.stuck('LabelTest', `${text} is not a label of ${this.lat.name}`), a.weight); continue; }
        const pcn = this.lat.join(pc, n);
        for (const b of (this.now(pcn, a.out.conv, code.body, env, f) ?? (yield this.sub(pcn, a.out.conv, code.body, env, f))!)) {
          const w = mulW(a.weight, b.weight);
          yield outReq(b.out.kind === 'ok'
            ? this.ok(b.out.conv, this.val(this.lat.join(pcn, l), { kind: 'bool', value: this.lat.leq(b.out.value.label, l) }))
            : b.out, w);
        }
      }
      return;
  }

  /** LabelAssert:  e1 ⇓ C1, V1; n ⊑ pc; toLabel; e2 ⇓ C2, l2:v2; l2 ⊑ l  ⟹  pc:{}. */
  private *ruleLabelAssert(pc: L, conv: Conv<L>, code: Code<L> & { k: 'dynlabel' | 'test' | 'assert' | 'endorse' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.label, env, f) ?? (yield this.sub(pc, conv, code.label, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        const { n, l, text } = this.decodeLabel(a.out.value);
        if (!this.lat.leq(n, pc)) {
          yield outReq(this.stuck('LabelAssert', `the policy label's own label ${this.lat.show(n)} does not flow to pc ${this.lat.show(pc)}`), a.weight);
          continue;
        }
        if (l === undefined) { yield outReq(this.stuck('LabelAssert', `${text} is not a label of ${this.lat.name}`), a.weight); continue; }
        for (const b of (this.now(pc, a.out.conv, code.body, env, f) ?? (yield this.sub(pc, a.out.conv, code.body, env, f))!)) {
          const w = mulW(a.weight, b.weight);
          if (b.out.kind !== 'ok') { yield outReq(b.out, w); continue; }
          yield outReq(this.lat.leq(b.out.value.label, l)
            ? this.ok(b.out.conv, this.unit(pc))
            : this.stuck('LabelAssert', `policy violation: ${this.lat.show(b.out.value.label)} does not flow to ${this.lat.show(l)}`), w);
        }
      }
      return;
  }

  /** Endorse:  e1 ⇓ C1, V1; toLabel = l1; e2 at pc ⊔ n ⇓ C2, l2:v2  ⟹  (pc ⊔ ⟨l1←, l2→⟩):v2. */
  private *ruleEndorse(pc: L, conv: Conv<L>, code: Code<L> & { k: 'dynlabel' | 'test' | 'assert' | 'endorse' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.label, env, f) ?? (yield this.sub(pc, conv, code.label, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        const { n, l: l1, text } = this.decodeLabel(a.out.value);
        if (l1 === undefined) { yield outReq(this.stuck('Endorse', `${text} is not a label of ${this.lat.name}`), a.weight); continue; }
        for (const b of (this.now(this.lat.join(pc, n), a.out.conv, code.body, env, f) ?? (yield this.sub(this.lat.join(pc, n), a.out.conv, code.body, env, f))!)) {
          const w = mulW(a.weight, b.weight);
          if (b.out.kind !== 'ok') { yield outReq(b.out, w); continue; }
          const v2 = b.out.value;
          const endorsed = pairOf(this.lat, integrityOf(this.lat, l1), confidentialityOf(this.lat, v2.label));
          yield outReq(this.ok(b.out.conv, this.val(this.lat.join(pc, endorsed), v2.body)), w);
        }
      }
      return;
  }

  /** Prim:  e ⇓ C′, V; primEval(p, stripLabels(V))  ⟹  (pc ⊔ deepLabel(V)):wrapValues(v′). */
  private *rulePrim(pc: L, conv: Conv<L>, code: Code<L> & { k: 'prim' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.arg, env, f) ?? (yield this.sub(pc, conv, code.arg, env, f))!)) {
        yield outReq(a.out.kind === 'ok' ? this.primAfter(pc, a.out.conv, a.out.value, code.name) : a.out, a.weight);
      }
      return;
  }

  /** RecordNil / RecordCons and ArrayNil / ArrayCons: elements left to right at pc. */
  private *ruleRecordArrayCons(pc: L, conv: Conv<L>, code: Code<L> & { k: 'record' | 'array' }, env: readonly V2<L>[], f: number): Rule<L> {
      if (code.elems.length === 0) {
        yield outReq(this.ok(conv, code.k === 'record' ? this.unit(pc) : this.val(pc, { kind: 'array', elems: [] })), Q.ONE);
        return;
      }
      // Left to right, threading the conversation; partial runs fan out with the distributions (as
      // rules.ts `evalAll`: values appended in place along a run, copied only where a premise branches,
      // and the frontier of partial runs held to `maxOutcomes` after every element).
      let partial: { conv: Conv<L>; vs: V2<L>[]; w: Q.Rational }[] = [{ conv, vs: [], w: Q.ONE }];
      for (const c of code.elems) {
        const nextPartial: typeof partial = [];
        for (const p of partial) {
          const d = this.now(pc, p.conv, c, env, f) ?? (yield this.sub(pc, p.conv, c, env, f))!;
          let remaining = d.length;
          for (const a of d) {
            remaining--;
            const w = mulW(p.w, a.weight);
            if (a.out.kind !== 'ok') { yield outReq(a.out, w); continue; }
            const vs = remaining === 0 ? p.vs : p.vs.slice();
            vs.push(a.out.value);
            nextPartial.push({ conv: a.out.conv, vs, w });
          }
        }
        if (nextPartial.length > this.opts.maxOutcomes) this.outcomeLimit();
        partial = nextPartial;
      }
      for (const p of partial) yield outReq(this.ok(p.conv, this.aggregate(pc, code, p.vs)), p.w);
      return;
  }

  /** FieldAccess:  e ⇓ C1, l1:{…}; first field named s  ⟹  l1:V′ (top-level join). */
  private *ruleFieldAccess(pc: L, conv: Conv<L>, code: Code<L> & { k: 'field' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.target, env, f) ?? (yield this.sub(pc, conv, code.target, env, f))!)) {
        yield outReq(a.out.kind === 'ok' ? this.fieldAfter(a.out.conv, a.out.value, code.name) : a.out, a.weight);
      }
      return;
  }

  /** ArrayIndex:  e ⇓ C1, l1:[…]; e′ ⇓ C2, l2:i; 0 ≤ i < n  ⟹  (l1 ⊔ l2):V[i]. */
  private *ruleArrayIndex(pc: L, conv: Conv<L>, code: Code<L> & { k: 'index' }, env: readonly V2<L>[], f: number): Rule<L> {
      for (const a of (this.now(pc, conv, code.target, env, f) ?? (yield this.sub(pc, conv, code.target, env, f))!)) {
        if (a.out.kind !== 'ok') { yield outReq(a.out, a.weight); continue; }
        for (const b of (this.now(pc, a.out.conv, code.index, env, f) ?? (yield this.sub(pc, a.out.conv, code.index, env, f))!)) {
          const w = mulW(a.weight, b.weight);
          yield outReq(b.out.kind === 'ok' ? this.indexAfter(b.out.conv, a.out.value, b.out.value) : b.out, w);
        }
      }
      return;
  }

}

/**
 * What a code node's sub-derivations gained so far in one evaluation. A node whose memo lookups never hit
 * (a configuration that is never revisited: its key holds a value every path makes anew, like a growing
 * string) stops being keyed and stored; a node whose `direct` attempts always give up (it branches) stops
 * being tried. Both are only costs, never answers: the result is the same either way, which the
 * equivalence property checks with the heuristics on.
 */
interface NodeStat {
  memo: boolean; lookups: number; hits: number;
  direct: boolean; tries: number; runs: number;
  /** Next-round entries of this code (as a tail premise): keyed inserts, and how many merged. */
  merge: boolean; inserts: number; merges: number;
  /** Outcomes of sub-tasks of this code: keyed inserts, and how many merged. */
  outMerge: boolean; outInserts: number; outMerges: number;
  /** Depth-first entries of this code run by the fast path with branching: attempts, and how many finished. */
  dfsDirect: boolean; dfsTries: number; dfsRuns: number;
  /** Round entries of this code run by the fast path up to their tails: attempts, and how many finished. */
  frontier: boolean; fTries: number; fRuns: number;
}

function freshStat(): NodeStat {
  return {
    memo: true, lookups: 0, hits: 0, direct: true, tries: 0, runs: 0, merge: true, inserts: 0, merges: 0, outMerge: true, outInserts: 0, outMerges: 0,
    dfsDirect: true, dfsTries: 0, dfsRuns: 0, frontier: true, fTries: 0, fRuns: 0,
  };
}

/** Lookups, and direct attempts, a node gets before a record without a single success turns it off. */
const NODE_PROBATION = 64;
/** One in SAMPLE_MASK + 1 unkeyed entries is keyed to re-check a never-merging node (`sampled`). */
const SAMPLE_MASK = 7;
/** Keys kept per task for that re-check (cleared when full). */
const SAMPLE_KEYS = 4096;

function noteMemo(st: NodeStat, hit: boolean, probation: number): void {
  st.lookups++;
  if (hit) st.hits++;
  else if (st.hits === 0 && st.lookups >= probation) st.memo = false;
}

function noteMerge(st: NodeStat, merged: boolean, probation: number): void {
  st.inserts++;
  if (merged) st.merges++;
  else if (st.merges === 0 && st.inserts >= probation) st.merge = false;
}

function noteOutMerge(st: NodeStat, merged: boolean, probation: number): void {
  st.outInserts++;
  if (merged) st.outMerges++;
  else if (st.outMerges === 0 && st.outInserts >= probation) st.outMerge = false;
}

function noteDfsDirect(st: NodeStat, ran: boolean, probation: number): void {
  st.dfsTries++;
  if (ran) st.dfsRuns++;
  else if (st.dfsRuns === 0 && st.dfsTries >= probation) st.dfsDirect = false;
}

function noteFrontier(st: NodeStat, ran: boolean, probation: number): void {
  st.fTries++;
  if (ran) st.fRuns++;
  else if (st.fRuns === 0 && st.fTries >= probation) st.frontier = false;
}

function noteDirect(st: NodeStat, ran: boolean, probation: number): void {
  st.tries++;
  if (ran) st.runs++;
  else if (st.runs === 0 && st.tries >= probation) st.direct = false;
}

/** A closure body's environment: the argument in slot 0, then the captured values. */
function bodyEnv<L>(arg: V2<L>, caps: readonly V2<L>[]): V2<L>[] {
  const e = new Array<V2<L>>(caps.length + 1);
  e[0] = arg;
  for (let i = 0; i < caps.length; i++) e[i + 1] = caps[i]!;
  return e;
}

/** A failure (out of fuel, stuck) as opposed to a runtime value: values have no `kind`. */
function isFailure<L>(x: V2<L> | Failure): x is Failure {
  return (x as { readonly kind?: unknown }).kind !== undefined;
}

function stuckF(rule: string, reason: string): Failure {
  return { kind: 'stuck', rule, reason };
}

function outReq<L>(out: Out<L>, w: Q.Rational): Req<L> & { t: 'out' } {
  return { t: 'out', out, w };
}

function tailReq<L>(fuel: number, pc: L, conv: Conv<L>, code: Code<L>, env: readonly V2<L>[], w: Q.Rational): Req<L> & { t: 'tail' } {
  return { t: 'tail', cfg: { pc, conv, code, env, fuel }, w };
}

/** `a · b` without allocating when either factor is the shared `Q.ONE` (the deterministic case). */
function mulW(a: Q.Rational, b: Q.Rational): Q.Rational {
  return a === Q.ONE ? b : b === Q.ONE ? a : Q.mul(a, b);
}
