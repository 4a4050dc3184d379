/**
 * Evaluator v2's deterministic fast path (`Machine.direct`, docs/evaluator-v2.md): evaluate one
 * configuration as ONE run — an ordinary interpreter loop over an explicit stack of frames — for as long
 * as every premise has at most one outcome.
 *
 * App, Prim, RecordCons/ArrayCons, Fork, Send, Recv, FieldAccess and ArrayIndex are done by hand (their
 * premises in the order of their generators in machine.ts, side conditions shared through Machine's
 * helpers); every other rule runs as its own generator. A tail premise (App's body, Recv's response)
 * replaces its rule's frame, so a tail loop does not grow the stack. Each rule then makes at most one
 * terminal request (an outcome or a tail premise), except Recv with several responses: there the other
 * responses become a choice point (the frames below copied), taken when the current path ends, and the result
 * is the list of every path's outcome. A *depth-first* run (`stepLimit` given, for entries of nodes that never
 * merge) does so from the start; any other run from its first branch on, for at most `Machine.afterBranch`
 * more rule applications (so that the work before the branch is kept: docs/evaluator-v2.md, "Work before a
 * branch"); past that, or where a depth-first run could not go on, it gives up (`undefined`) and the general
 * machine does the derivation. Without a branch the result is exactly the general machine's: one outcome with
 * its weight (a lone response of a sub-distribution model may weigh less than 1), or none.
 *
 * Why it is fast: the loop keeps the current configuration and the result in local variables (no closure,
 * no object per premise), the frames are parallel arrays indexed by depth (no object per frame; a deep
 * non-tail recursion holds a few array slots per level), and quick code (variables, lambdas, literals,
 * primitives over them) is evaluated inline (`quickIn`, falling back on `Machine.quickValue`), standard
 * binops on the values themselves (prims-fast.ts). Three shapes are fused (`AppShape`): the desugared `if`
 * (no Church-boolean closures), the unrolled `fix` (`x x v`: no environments, and with a curried `f` no
 * frame), and a curried function's body (its closure at once); and a fix-defined loop's call of itself with
 * 2 to 8 quick arguments (SATURATED, `saturated`: from the call to the body's entry, no frame, no closure). Each fused step is the spec's derivation
 * written out premise by premise — the same rule applications counted, the same fuel thresholds (below
 * them the rules run as before), the same labels — and test/v2-fast-loops.test.ts holds it to the
 * substitution evaluator at every fuel.
 */
import * as Q from '../../distributions/rational.ts';
import type { Failure } from '../config.ts';
import type { Conv } from '../odist.ts';
import type { ResponseDist } from '../model.ts';
import { relocate, type Code, type LamCode } from './code.ts';
import type { Cfg, Entry, Fused, Machine, Rule, WOut } from './machine.ts';
import { depthOf, mkValue, type Closure, type V2 } from './values.ts';
import type { FastBinop } from './prims-fast.ts';
import { numericLane, recursionLane, type Lane, type RecursionLane } from './lane.ts';

const FUEL: Failure = { kind: 'fuel' };
/** A frame's environment once it is no longer needed. */
const NO_ENV: readonly V2<never>[] = [];

/**
 * Frame kinds: a rule's generator, App waiting for its function / its argument, Prim, RecordCons/ArrayCons,
 * Prim over a literal pair, the fused fix's last premises, Fork (its conversation kept), FieldAccess, ArrayIndex, Send.
 */
const GEN = 0, APP_FN = 1, APP_ARG = 2, PRIM = 3, CONS = 4, PRIM_PAIR = 5, FIX_ARG = 6, FORK = 7, FIELD = 8, INDEX = 9, SEND = 10;

/**
 * A choice point of a depth-first run (`runDirect` with a `stepLimit`): the frames below a `recv` with several
 * responses (copied: frames are updated in place), the recv's responses with the conversation and fuel it had
 * (response `at` is the next one taken, as Recv's tail premise: `Machine.recvTail` written out), and the weight the
 * configuration carried. Or the frames below a fork with several outcomes (`forkKept`, `forkRun`): outcome `at` is the
 * fork's value on the next path, handed to those frames.
 */
interface Choice<L> {
  readonly sp: number;
  /** Frames 0 … sp − 1, eight slots each in the order of the frame arrays (fk, fpc, fcode, fenv, ffuel, fw, fx, fi). */
  readonly frames: unknown[];
  /** A recv's responses; or, at a fork whose outcomes were taken at once (`forkKept`, `forkRun`), undefined and `fork` those. */
  readonly rs: ResponseDist | undefined;
  readonly fork: ForkOutcomes<L> | undefined;
  readonly conv: Conv<L>;
  readonly fuel: number;
  at: number;
  readonly base: Q.Rational;
}

/**
 * runDirect's frame arrays (parallel; see `runFrames`), kept from one run to the next: a run takes a set and gives
 * it back, so an evaluation's runs, and the next evaluation's, allocate no frame arrays and grow none that an earlier
 * run grew. The arrays are holey from the start (`new Array(n)`) and grow only by doubling their length: their
 * elements kind never changes after a set's first use, so the optimised runDirect is never deoptimised by a
 * transition (before, the arrays were packed and pushed onto up to 1,024 frames, then doubled as holey ones: the
 * first deep recursion of a process deoptimised runDirect with "wrong map"). A deep recursion's frames grow with
 * it, and their pages are first touched as they grow: a 10⁵-deep recursion spent 13–19 % of its CPU growing them,
 * evaluation after evaluation, before sets were reused (docs/evaluator-v2.md, "Measurements", twenty-seventh
 * round).
 */
interface Frames {
  readonly fk: number[];
  readonly fpc: unknown[];
  readonly fcode: unknown[];
  readonly fenv: unknown[];
  readonly ffuel: number[];
  readonly fw: unknown[];
  readonly fx: unknown[];
  readonly fi: number[];
}

/** A new set's frames. */
const FRAMES_START = 1;
/**
 * Sets of at most this many frames are kept (cleared) for the next runs; a larger one (a deep run's) is kept only
 * weakly, with whatever it held: the collector frees it when memory is wanted, and until then a run reuses it
 * without growing it again.
 */
const FRAMES_KEPT = 64;
const spareFrames: Frames[] = [];
let bigFrames: WeakRef<Frames> | undefined;

function newFrames(): Frames {
  const n = FRAMES_START;
  return { fk: new Array(n), fpc: new Array(n), fcode: new Array(n), fenv: new Array(n), ffuel: new Array(n), fw: new Array(n), fx: new Array(n), fi: new Array(n) };
}

/** A set of frame arrays for a run: the large one if the collector left it, else a spare one, else a new one. */
function takeFrames(): Frames {
  const big = bigFrames?.deref();
  if (big !== undefined) { bigFrames = undefined; return big; }
  return spareFrames.pop() ?? newFrames();
}

/**
 * A run's set back: a small one cleared (no stale value kept alive by it) and kept, a large one held weakly. Only the
 * frames the run used are cleared: every frame push (and a depth-first run's restore) sets `fcode`, frames are
 * pushed from slot 0 up, and the previous give cleared every slot it found set, so the slots holding anything are
 * exactly the prefix up to the first `fcode` left undefined. (Filling all five arrays of a set that once held 64 frames
 * cost ≈ 0.45 µs per run, 1–2 % of a suite's small evaluations.)
 */
function giveFrames(f: Frames): void {
  if (f.fk.length > FRAMES_KEPT) { bigFrames = new WeakRef(f); return; }
  if (spareFrames.length >= 4) return;
  const { fpc, fcode, fenv, fw, fx } = f;
  for (let i = 0; i < fcode.length && fcode[i] !== undefined; i++) {
    fpc[i] = undefined; fcode[i] = undefined; fenv[i] = undefined; fw[i] = undefined; fx[i] = undefined;
  }
  spareFrames.push(f);
}

/** For tests: forget every kept set (the next runs start from new ones, as in a fresh process). */
export function dropFrameSets(): void {
  spareFrames.length = 0;
  bigFrames = undefined;
}

/** For tests: the kept spare sets, their frame slots in all, and how many of those still hold a value (0 when every give cleared what its run used). */
export function keptFrames(): { readonly sets: number; readonly slots: number; readonly held: number } {
  let slots = 0, held = 0;
  for (const f of spareFrames) {
    slots += f.fk.length;
    for (const a of [f.fpc, f.fcode, f.fenv, f.fw, f.fx]) for (let i = 0; i < a.length; i++) if (a[i] !== undefined) held++;
  }
  return { sets: spareFrames.length, slots, held };
}

/**
 * Room for one more frame in each frame array (the caller writes the frame next): the arrays double their length
 * (holes), so runDirect's frame pushes write their eight slots once instead of as a `push` branch and a store branch
 * each (9 % less bytecode; docs/evaluator-v2.md, "JIT warm-up").
 */
function growFrames(set: Frames): void {
  const m = 2 * set.fk.length;
  set.fk.length = m; set.fpc.length = m; set.fcode.length = m; set.fenv.length = m; set.ffuel.length = m; set.fw.length = m; set.fx.length = m; set.fi.length = m;
}

/**
 * A small integer below 2^30 in magnitude as its double (a V8 small integer, which an array holds without an
 * object), else undefined.
 */
function smiOf(q: Q.Rational): number | undefined {
  const x = Q.smallOf(q);
  return x !== undefined && x < 2 ** 30 && x > -(2 ** 30) ? x : undefined;
}

/** A failure (out of fuel, stuck) as opposed to a runtime value: values have no `kind`. */
function isFailure<L>(x: V2<L> | Failure): x is Failure {
  return (x as { readonly kind?: unknown }).kind !== undefined;
}

/** A finished path's result as an outcome with its weight: the value in conversation `conv`, or the failure. */
function outcome<L>(m: Machine<L>, conv: Conv<L>, val: V2<L> | Failure, w: Q.Rational): WOut<L> {
  return { out: isFailure(val) ? val : m.ok(conv, val), weight: w };
}

/** The same as a premise's result list (none when the path gave nothing). */
function outcomes<L>(m: Machine<L>, conv: Conv<L>, val: V2<L> | Failure | undefined, w: Q.Rational): readonly WOut<L>[] {
  return val === undefined ? [] : [outcome(m, conv, val, w)];
}

/** A closure body's environment: the argument in slot 0, then the captured values. */
function bodyEnv<L>(arg: V2<L>, caps: readonly V2<L>[]): V2<L>[] {
  const n = caps.length;
  const e = new Array<V2<L>>(n + 1);
  e[0] = arg;
  for (let i = 0; i < n; i++) e[i + 1] = caps[i]!;
  return e;
}

/** `a · b` without allocating when either factor is the shared `Q.ONE` (the deterministic case). */
function mulW(a: Q.Rational, b: Q.Rational): Q.Rational {
  return a === Q.ONE ? b : b === Q.ONE ? a : Q.mul(a, b);
}

/**
 * The closure a body `λy.e` evaluates to (Lam, at the function's label) when that body is entered with
 * `arg` in slot 0 and the function's captured values `caps` in slots 1…: its captured values are taken
 * straight from those two, without building the body's environment.
 */
function captureFrom<L>(lam: LamCode<L>, arg: V2<L>, caps: readonly V2<L>[]): V2<L>[] {
  const cs = lam.caps, n = cs.length;
  const out = new Array<V2<L>>(n);
  for (let i = 0; i < n; i++) { const s = cs[i]!; out[i] = s === 0 ? arg : caps[s - 1]!; }
  return out;
}

/**
 * The body environment of the closure `lam` would make (`captureFrom(lam, arg, caps)`) applied to `x`, built in one
 * array without the closure's captures as a separate one: `[x, …captureFrom(lam, arg, caps)]`.
 */
function enterFrom<L>(lam: LamCode<L>, x: V2<L>, arg: V2<L>, caps: readonly V2<L>[]): V2<L>[] {
  const cs = lam.caps, n = cs.length;
  const out = new Array<V2<L>>(n + 1);
  out[0] = x;
  for (let i = 0; i < n; i++) { const s = cs[i]!; out[i + 1] = s === 0 ? arg : caps[s - 1]!; }
  return out;
}

/**
 * A binop node's fast entry for the machine's primitive table (undefined: the table has its own function),
 * its two boolean results at ⊥ once made (shared: values are immutable), and its last result `v` with the
 * operands `x`, `y` and the pc it was computed from: the same three again give the same value. A depth-first
 * run meets that often — paths after a choice point share the values bound before it, so in `x1 + … + xN`
 * after N flips the inner sums of consecutive paths are mostly the same (straight-line flips, N = 14: ≈ 10–20 %
 * less CPU in steady state; docs/evaluator-v2.md, "Cold evaluations").
 */
interface PrimCache<L> extends LastValue<L> {
  readonly f: FastBinop | undefined;
  t: V2<L> | undefined;
  ff: V2<L> | undefined;
  x: V2<L> | undefined;
  y: V2<L> | undefined;
  pc: L | undefined;
  v: V2<L> | undefined;
}

/**
 * A quick node's last value (`quickIn`: binop nodes, and the nodes it leaves to `Machine.quickValue` — array and
 * record literals, field access, indexing, labelled code), kept in its `fast` slot for machine `mid`: the
 * environment `env` it was computed in (environments are never changed once built), at pc `epc` and fuel `efuel`,
 * with `esteps` rule applications. Quick code reads nothing but its free variables (`Code.uses`), pc and fuel,
 * and succeeds at any fuel above one it succeeded at with the same derivation; so the same values in those slots,
 * the same pc and at least that fuel give the same value and the same count (`reusedQuick`).
 */
interface LastValue<L> {
  /** The machine it was made for (`Machine.serial`). */
  readonly mid: number;
  env: readonly V2<L>[] | undefined;
  epc: L | undefined;
  efuel: number;
  esteps: number;
  ev: V2<L> | undefined;
}

/** A prim node's `PrimCache` for machine `m`, made (empty) if it has none for `m` yet. */
function primCache<L>(m: Machine<L>, p: Code<L> & { k: 'prim' }): PrimCache<L> {
  let c = p.fast as PrimCache<L> | undefined;
  if (c === undefined || c.mid !== m.serial) {
    c = { mid: m.serial, f: m.binops.get(p.name), t: undefined, ff: undefined, x: undefined, y: undefined, pc: undefined, v: undefined, env: undefined, epc: undefined, efuel: 0, esteps: 0, ev: undefined };
    p.fast = c;
  }
  return c;
}

/** Another quick node's `LastValue` for machine `m` (see `quickIn`), made (empty) if it has none for `m` yet. */
function lastValue<L>(m: Machine<L>, code: Code<L>): LastValue<L> {
  let c = code.fast as LastValue<L> | undefined;
  if (c === undefined || c.mid !== m.serial) {
    c = { mid: m.serial, env: undefined, epc: undefined, efuel: 0, esteps: 0, ev: undefined };
    code.fast = c;
  }
  return c;
}

/** A node's last value taken again (`reusedQuick` said it is its value here): counted, its rule applications added at once. */
function takeLast<L>(m: Machine<L>, c: LastValue<L>): V2<L> {
  m.fused.reused++;
  ticks(m, c.esteps);
  return c.ev!;
}

/** `v`, computed in `env` at `pc` and `fuel` with `steps` rule applications, kept as the node's last value. */
function keepLast<L>(c: LastValue<L>, env: readonly V2<L>[], pc: L, fuel: number, steps: number, v: V2<L>): void {
  c.env = env; c.epc = pc; c.efuel = fuel; c.esteps = steps; c.ev = v;
}

/**
 * Whether a quick node's last value (`LastValue`) is its value again in `env` at `pc` and `fuel`: the same pc, at
 * least the fuel, and the same value in every slot it reads. A depth-first run meets this at every node whose
 * variables were all bound before the last choice point: in `x1 + … + xN` after N flips, consecutive paths differ
 * only in the last flips, so the sum of the first ones is the previous path's; and a closed literal (a model's
 * parsed response `[true, 1]`, evaluated at the conversation's label) is the same value at every recv.
 */
function reusedQuick<L>(c: LastValue<L>, uses: readonly number[], pc: L, env: readonly V2<L>[], fuel: number): boolean {
  const e = c.env;
  if (e === undefined || c.epc !== pc || fuel < c.efuel) return false;
  return sameSlots(e, env, uses);
}

const EMPTY_RECORD = { kind: 'record', fields: [] } as const;

/** A scalar literal's value at pc, shared per (machine, code node, pc): values are immutable, ids per machine. */
interface ScalarCache<L> { readonly mid: number; readonly pc: L; readonly v: V2<L> }

/**
 * Quick code as `Machine.quickValue` evaluates it (same fuel, steps and labels), with the commonest nodes
 * inline: a variable, a scalar literal (its value shared), and a binop over a literal pair of such.
 */
function quickIn<L>(m: Machine<L>, pc: L, code: Code<L>, env: readonly V2<L>[], fuel: number): V2<L> | Failure {
  const k = code.k;
  if (k === 'var') {
    // `Machine.quickVar` inline: the read needs fuel ≥ the value's depth; at pc ⊥ a value without nested
    // labels reads as itself, anything else by `readVar`.
    if (fuel <= 0) return FUEL;
    const v = env[code.slot]!;
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    if (fuel < (v.depth !== 0 ? v.depth : depthOf(v))) return FUEL;
    if (pc === m.lat.bottom) { const bk = v.body.kind; if (bk !== 'record' && bk !== 'array') return v; }
    return m.readVar(pc, v);
  }
  if (k === 'scalar') {
    // ScalarLit: pc:k.
    if (fuel <= 0) return FUEL;
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    const c = code.fast as ScalarCache<L> | undefined;
    if (c !== undefined && c.mid === m.serial && c.pc === pc) return c.v;
    const v = mkValue(pc, code.e);
    code.fast = { mid: m.serial, pc, v };
    return v;
  }
  if (k === 'prim') {
    if (fuel <= 0) return FUEL;
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    const a = code.arg;
    if (a.k === 'array' && a.elems.length === 2) {
      // Prim, then ArrayCons over the pair (its own step), the elements at fuel − 2; a standard binop on
      // two scalars on the values themselves (label pc ⊔ deepLabel(pc:[x, y])), else `primPair`. The node's
      // last value again where its variables are (`reusedQuick`), with the same count of rule applications.
      if (fuel <= 1) return FUEL;
      const c = primCache(m, code);
      if (reusedQuick(c, code.uses, pc, env, fuel)) return takeLast(m, c);
      const s0 = m.steps;
      if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
      const x = quickIn(m, pc, a.elems[0]!, env, fuel - 2);
      if (isFailure(x)) return x;
      const y = quickIn(m, pc, a.elems[1]!, env, fuel - 2);
      if (isFailure(y)) return y;
      const v = binopPair(m, pc, code, a, x, y);
      if (!isFailure(v)) keepLast(c, env, pc, fuel, m.steps - s0, v);
      return v;
    }
    // Prim over any other quick argument (`fromBool c`): the argument at fuel − 1, then `primValue`.
    const o = quickIn(m, pc, a, env, fuel - 1);
    return isFailure(o) ? o : m.primValue(pc, o, code.name);
  }
  if (k === 'record' && code.elems.length === 0) {
    // RecordNil: pc:{}, shared per (machine, code node, pc) like a scalar.
    if (fuel <= 0) return FUEL;
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    const c = code.fast as ScalarCache<L> | undefined;
    if (c !== undefined && c.mid === m.serial && c.pc === pc) return c.v;
    const v = mkValue(pc, EMPTY_RECORD);
    code.fast = { mid: m.serial, pc, v };
    return v;
  }
  if (k === 'lam') {
    // Lam: pc:λx.e, capturing the values of its free variables (`Machine.closure`).
    if (fuel <= 0) return FUEL;
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    const cs = code.caps, n = cs.length;
    const captured = new Array<V2<L>>(n);
    for (let i = 0; i < n; i++) captured[i] = env[cs[i]!]!;
    return mkValue(pc, { kind: 'clo', code, env: captured });
  }
  // Array and record literals, field access, indexing, labelled code: the node's last value again where its
  // variables, pc and fuel allow (`reusedQuick`), else `Machine.quickValue`.
  if (fuel <= 0) return FUEL;
  const c = lastValue(m, code);
  if (reusedQuick(c, code.uses, pc, env, fuel)) return takeLast(m, c);
  const s0 = m.steps;
  const v = m.quickValue(pc, code, env, fuel);
  if (!isFailure(v)) keepLast(c, env, pc, fuel, m.steps - s0, v);
  return v;
}

/**
 * Prim `p` over the pair `a` = `[x, y]` after ArrayCons (`Machine.primPair`): a standard binop on two scalars
 * on the values themselves, label pc ⊔ deepLabel(pc:[x, y]) (its fast entry cached on the node per machine),
 * anything else by `primPair`.
 */
function binopPair<L>(m: Machine<L>, pc: L, p: Code<L> & { k: 'prim' }, a: Code<L> & { k: 'array' }, x: V2<L>, y: V2<L>): V2<L> | Failure {
  const c = primCache(m, p);
  if (c.x === x && c.y === y && c.pc === pc) { m.fused.binop++; return c.v!; }
  const r = c.f === undefined ? undefined : c.f(x.body, y.body);
  if (r !== undefined) {
    m.fused.binop++;
    const lat = m.lat, l = lat.join(pc, lat.join(x.label, y.label));
    if (r.kind === 'bool' && l === lat.bottom) return r.value ? (c.t ??= mkValue(l, r)) : (c.ff ??= mkValue(l, r));
    const v = mkValue(l, r);
    c.x = x; c.y = y; c.pc = pc; c.v = v;
    return v;
  }
  return m.primPair(pc, a, x, y, p.name);
}

/**
 * A depth-first run, after branching, entering a configuration with no frame below (a tail: the run's whole
 * continuation is the same for every path): on a sample of such entries (`Machine.sampledWith`), whether this
 * configuration was entered before in this machine's depth-first runs (a tail's derivation does not depend on the
 * run it is in). If so, its paths would merge in the general machine's rounds (a
 * loop whose later iterations merge, after earlier ones that never did), and enumerating them one by one would
 * cost exponentially more: the node is marked merged, so that this run and later ones give up on entering it, and
 * the rounds take over. (Repeats under frames are not looked for: a frame holds its path's values, so the same
 * configuration there need not have the same future.)
 *
 * The sample is the machine's (`Machine.tailSample`), so that it thins across runs as it keeps finding nothing: one
 * tail entry in 8 at first, as the general machine's re-checks, then half as many after every TAIL_MISSES keys
 * without a repeat, down to one in TAIL_MASK_MAX + 1. The 2^16 distinct strings (about sixty depth-first runs, each
 * with a sample of its own before) keyed one tail in 8, each key interning its string: ≈ 10 % of their CPU and
 * 13 MB of their garbage (docs/evaluator-v2.md, "Thirty-fifth round"). A loop whose tails repeat is still found:
 * a repeat among D distinct tails shows after about √D keys, so after about 64·√D of its entries at the sparsest
 * rate (a loop merging after 2^12–2^16 distinct strings applied as many rules as with the dense sample). Sampling
 * changes only the cost, never an answer.
 */
function repeats<L>(m: Machine<L>, s: TailSample, pc: L, conv: Conv<L>, code: Code<L>, env: readonly V2<L>[], fuel: number): boolean {
  if (!m.sampledWith(s.mask)) return false;
  if (!m.recurs(s.seen, m.cfgKeyOf(pc, conv, code, env, fuel))) {
    if (++s.misses === TAIL_MISSES && s.mask < TAIL_MASK_MAX) { s.mask = s.mask * 2 + 1; s.misses = 0; }
    return false;
  }
  code.merged = m;
  return true;
}

/**
 * The depth-first runs' sample of their tail entries (`repeats`), one per machine (`Machine.tailSample`): their
 * keys, the sampling mask now, keys since it last thinned. @internal (machine.ts)
 */
export interface TailSample {
  readonly seen: Set<string>;
  mask: number;
  misses: number;
}

/**
 * A machine's tail sample before its first key (`Machine.tailSample`), sampling at first one entry in `mask` + 1 (the
 * machine's own re-checks' rate, `Machine.sampled`). @internal (machine.ts)
 */
export function newTailSample(mask: number): TailSample {
  return { seen: new Set(), mask, misses: 0 };
}

/** Keys without a repeat after which a depth-first run's tail sample halves its rate (`repeats`). */
const TAIL_MISSES = 256;
/** The sparsest tail sample: one entry in TAIL_MASK_MAX + 1. */
const TAIL_MASK_MAX = 63;

/** `n` rule applications at once (`Machine.tick` n times: the same count, the same budget error). */
function ticks<L>(m: Machine<L>, n: number): void {
  if (m.steps + n <= m.opts.maxSteps) m.steps += n;
  else for (let i = 0; i < n; i++) m.tick();
}

/**
 * What the fast path fuses at an App node (cached in its `fast` slot):
 * - IF: the desugared `if c then e2 else e3` ≜ `(prim "fromBool" c) (λ_. e2) (λ_. e3) {}` (spec §2) with a
 *   quick condition, as compiled: the three Apps, the Prim, the two branch lambdas;
 * - SELF: `x x v` with `x` a captured variable and `v` the parameter (the body of the prelude's `fix`, the
 *   Z combinator `λf. (λx. f (λv. x x v)) (λx. f (λv. x x v))`, once unrolled: `λv. x x v`);
 * - UNROLL: `f (λv. x x v)` with `f` captured, `x` the parameter and the lambda's body SELF (the body of
 *   `λx. f (λv. x x v)`).
 * Recognised by structure (the parser's expansion, the prelude, or the same terms written out).
 */
const PLAIN = 0, IF = 1, SELF = 2, UNROLL = 3;

interface AppShape<L> {
  readonly kind: number;
  /** IF: the `prim "fromBool" c` node and the two branch lambdas; UNROLL: the lambda `λv. x x v`. */
  readonly prim: Code<L> | undefined;
  readonly then: LamCode<L> | undefined;
  readonly else: LamCode<L> | undefined;
  /**
   * UNROLL: the last closure `lx:λv. x x v` built here (`g`), for the value `x` it captured, in machine `mid`:
   * the same `x` gives the same closure (values are immutable), so a loop's iterations share one.
   */
  mid: number;
  x: V2<L> | undefined;
  g: V2<L> | undefined;
  /** IF: the loop block's plan (`loopPlan`) for the last machine, self-call and f that asked, or a `NoPlan`. */
  loop: LoopPlan<L> | NoPlan | undefined;
  /**
   * IF: each branch's body moved into the if's own environment (`relocate`: slot s of the branch's environment read
   * from the if's slot `caps[s − 1]`), null where it cannot be: a plain run enters it there, without building the
   * branch's environment (IF in `runFrames`). Indexed by side (1 then, 2 else; 0 unused) and made with the shape. (Made on
   * a side's first entry and kept in a field per side, the branch a recursion takes last, its base case, was
   * made and read for the first time in the optimised `runDirect`, code V8 had compiled with no feedback and threw
   * away there: docs/evaluator-v2.md, "Measurements", twenty-seventh round.)
   */
  readonly ins: readonly (Code<L> | null)[] | undefined;
  /** IF: the recursion lane's plan (`recursionPlan`) for the last machine that asked, or a `NoPlan`. */
  rec: RecursionPlan<L> | NoPlan | undefined;
}

const PLAIN_SHAPE: AppShape<never> = { kind: PLAIN, prim: undefined, then: undefined, else: undefined, mid: 0, x: undefined, g: undefined, loop: undefined, ins: undefined, rec: undefined };

function appShapeOf<L>(a3: Code<L> & { k: 'app' }): AppShape<L> {
  const a2 = a3.fn, r = a3.arg;
  let out: AppShape<L> = PLAIN_SHAPE;
  if (r.k === 'record' && r.elems.length === 0 && a2.k === 'app' && a2.arg.k === 'lam') {
    const a1 = a2.fn;
    if (a1.k === 'app' && a1.arg.k === 'lam' && a1.fn.k === 'prim' && a1.fn.name === 'fromBool' && a1.fn.quick) {
      out = { kind: IF, prim: a1.fn, then: a1.arg, else: a2.arg, mid: 0, x: undefined, g: undefined, loop: undefined, ins: [null, relocate(a1.arg.body, a1.arg.caps) ?? null, relocate(a2.arg.body, a2.arg.caps) ?? null], rec: undefined };
    }
  } else if (a2.k === 'app' && a2.fn.k === 'var' && a2.arg.k === 'var' && a2.fn.slot === a2.arg.slot && a2.fn.slot > 0 && r.k === 'var' && r.slot === 0) {
    out = { kind: SELF, prim: undefined, then: undefined, else: undefined, mid: 0, x: undefined, g: undefined, loop: undefined, ins: undefined, rec: undefined };
  } else if (a2.k === 'var' && a2.slot > 0 && r.k === 'lam' && r.caps.length === 1 && r.caps[0] === 0 && r.body.k === 'app' && appShape(r.body).kind === SELF && r.body.fn.k === 'app' && r.body.fn.fn.k === 'var' && r.body.fn.fn.slot === 1) {
    out = { kind: UNROLL, prim: undefined, then: r, else: undefined, mid: 0, x: undefined, g: undefined, loop: undefined, ins: undefined, rec: undefined };
  }
  a3.fast = out;
  return out;
}

function appShape<L>(a: Code<L> & { k: 'app' }): AppShape<L> {
  return (a.fast !== undefined ? a.fast : appShapeOf(a)) as AppShape<L>;
}

/**
 * Which Church boolean a closure is: 1 for `λt.λf.λu. t u`, 2 for `λt.λf.λu. f u` (t, f, u distinct, no
 * captures: the shapes the standard `fromBool` returns), 0 for anything else. Cached in the lambda's `fast`.
 */
function churchSide<L>(v: V2<L>): number {
  const b = v.body;
  if (b.kind !== 'clo' || b.env.length !== 0) return 0;
  const c = b.code;
  if (c.fast !== undefined) return c.fast as number;
  c.fast = churchShape(c);
  return c.fast as number;
}

/** `churchSide` of a closed lambda, by its code: `λt.λf.λu. t u` 1, `λt.λf.λu. f u` 2, else 0. */
function churchShape<L>(c: LamCode<L>): number {
  const mid = c.body;
  if (mid.k !== 'lam') return 0;
  const inner = mid.body!;
  if (inner.k !== 'lam') return 0;
  const app = inner.body!;
  if (app.k !== 'app' || app.fn.k !== 'var' || app.arg.k !== 'var') return 0;
  const t = c.src.param, f = mid.src.param, u = inner.src.param;
  // (`app.arg` named u directly under λu is u itself: its slot is 0.)
  if (t === f || t === u || f === u || app.arg.name !== u) return 0;
  return app.fn.name === t ? 1 : app.fn.name === f ? 2 : 0;
}

/**
 * The closure `lx:λv. x x v` that the fused fix makes in x's body `ub` (UNROLL) for the read `x1` of x: kept on
 * `ub`'s shape per machine and per `x1` (values are immutable, ids per machine), so a loop's iterations share one.
 */
function unrolledClosure<L>(m: Machine<L>, ub: Code<L> & { k: 'app' }, x1: V2<L>): V2<L> {
  const us = appShape(ub);
  let g = us.g;
  if (g === undefined || us.x !== x1 || us.mid !== m.serial) {
    g = mkValue(x1.label, { kind: 'clo', code: us.then!, env: [x1] });
    us.mid = m.serial; us.x = x1; us.g = g;
  }
  return g;
}

/**
 * Where `saturated` enters the loop's body B: at h's label, in B's environment, with `fuel` (the call's − 1; − 2 for
 * one argument). One shared record, written by `saturated` and read (then cleared, `clearSat`) by its caller at
 * once: a fresh object per call was a tenth of a deep recursion's allocation.
 */
interface SatEntry { pc: unknown; code: Code<unknown>; env: readonly V2<unknown>[]; fuel: number }
const SAT: SatEntry = { pc: undefined, code: undefined as unknown as Code<unknown>, env: NO_ENV, fuel: 0 };

/**
 * `SAT` emptied once read: a module-level record still holding the last call's code would keep that code, and the
 * machine its nodes' `merged` slots point to, alive past the evaluation.
 */
function clearSat(): void {
  SAT.code = undefined as unknown as Code<unknown>; SAT.env = NO_ENV; SAT.pc = undefined;
}

/** `SAT`'s fields written: B's configuration. */
function satEntry<L>(pc: L, code: Code<L>, env: readonly V2<L>[], fuel: number): SatEntry {
  SAT.pc = pc; SAT.code = code as Code<unknown>; SAT.env = env as readonly V2<unknown>[]; SAT.fuel = fuel;
  return SAT;
}

/** The most arguments `saturated` takes a call with (a longer chain runs by the frames). */
const SAT_MAX = 8;

/** The App whose argument is a call's `i`-th (1-based) of `k`: `d = k − i` steps into the function side from the call. */
function argApp<L>(call: Code<L> & { k: 'app' }, d: number): Code<L> & { k: 'app' } {
  let a = call;
  for (let j = 0; j < d; j++) a = a.fn as Code<L> & { k: 'app' };
  return a;
}

/**
 * SATURATED: `f a1 … ak` (2 ≤ k ≤ SAT_MAX, or k = 1 with `one`) with quick arguments (`code`, at `pc`, `env`, `fuel` ≥ k + 5), where f
 * holds `λv. x x v` (the unrolled fix: a loop calling itself), x `λx. h (λv. x x v)` and h a k-argument curried
 * function `λf. λx1. … λxk. B`, B not a lambda — every iteration of a fix-defined loop of k arguments. Done from the
 * call to B's entry as runDirect's frames and fused shapes would do it, premise by premise in their order (the same
 * rule applications, fuel, labels and failures): App `f a1 … ak` (ticked by the caller) and its inner Apps, the i-th
 * from the inside at fuel − (k − i) (each ticked as it is entered); the reads of f and a1 at fuel − k; f's body
 * `x x v` entered at f's label with fuel − k (SELF: App `x x`, the reads of x, App `h (λv. x x v)`, the read of h,
 * Lam; then h's body `λx1. …` and its Lam, the read of v = a1 at fuel − k − 1, the Lam of `λx2. …` at h's label);
 * then, back in the i-th App (i = 2 … k), its argument ai at fuel − (k − i) − 1 and the Lam of `λx(i+1). …` (one rule);
 * the last one enters B with fuel − 1 at h's label. What is taken away is what the shapes would still do: a frame
 * per inner App, the environment of `x x v`, the closures `λv. x x v` (one per x, kept on its node) and `λxi. …`
 * (only their captured values are built).
 *
 * Fuel ≥ k + 5 leaves every premise's fuel positive and `x x v` its 5; the reads of f and h are checked before
 * anything is applied (below their depth the rules run as before, and so does any other shape: undefined, nothing
 * done); a deep a1 can still run out at its read, as under the shapes: that failure, or an argument's, is the
 * outcome. Depth first after a branch (`branched`) the shapes would stop at a merged node: so does this. A separate
 * function, not inline in runDirect: runDirect's size is what TurboFan's compile job for it costs, in every
 * process's first evaluations (docs/evaluator-v2.md, "Cold evaluations").
 */
function saturated<L>(m: Machine<L>, pc: L, code: Code<L> & { k: 'app' }, env: readonly V2<L>[], fuel: number, branched: boolean, one: boolean): SatEntry | Failure | undefined {
  // The call's Apps (every argument quick) down to its head, the variable f. (Walked again for each argument
  // below rather than kept in an array: a module-level one would hold the last call's code, and with it its
  // machine, past the evaluation.)
  let c: Code<L> = code, k = 0;
  while (c.k === 'app') {
    if (k === SAT_MAX || !c.arg.quick || (branched && k > 0 && c.merged === m)) return undefined;
    k++;
    c = c.fn;
  }
  if (c.k !== 'var' || (k < 2 && !one) || fuel < k + 5) return undefined;
  const fv = env[c.slot]!, fvb = fv.body;
  if (fvb.kind !== 'clo' || fuel - k < depthOf(fv)) return undefined;
  const xxv = fvb.code.body;
  if (xxv.k !== 'app' || appShape(xxv).kind !== SELF || (branched && xxv.merged === m)) return undefined;
  const x = fvb.env[((xxv.fn as Code<L> & { k: 'app' }).fn as Code<L> & { k: 'var' }).slot - 1]!, xb = x.body;
  if (xb.kind !== 'clo' || xb.code.body.k !== 'app' || appShape(xb.code.body).kind !== UNROLL) return undefined;
  const ub = xb.code.body, h = xb.env[(ub.fn as Code<L> & { k: 'var' }).slot - 1]!, hb = h.body;
  if (hb.kind !== 'clo' || fuel - k - 3 < depthOf(h)) return undefined;
  // h = λf. λx1. … λxk. B: exactly k lambdas under λf.
  let lam: Code<L> = hb.code.body;
  for (let i = 0; i < k; i++) { if (lam.k !== 'lam') return undefined; lam = lam.body; }
  if (lam.k === 'lam') return undefined;
  m.fused.saturated++;
  // The inner Apps entered (fuel − 1 … fuel − (k − 1)), then the reads of f and a1 (fuel − k).
  ticks(m, k - 1);
  const fr = quickIn(m, pc, c, env, fuel - k) as V2<L>;
  const a1v = quickIn(m, pc, argApp(code, k - 1).arg, env, fuel - k);
  if (isFailure(a1v)) return a1v;
  // `x x v` at f's label (fuel − k), as SELF with a curried h.
  const pcx = fr.label;
  if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
  ticks(m, 6);
  m.fused.fix++;
  const x1 = m.readVar(pcx, x);
  // (A read keeps a closure's body: h1's is hb.)
  const h1 = m.readVar(x1.label, h);
  const g = unrolledClosure(m, ub, x1);
  ticks(m, 2);
  m.fused.fixCurried++;
  if (fuel - k - 1 < depthOf(a1v)) return FUEL;
  const a1 = m.readVar(pcx, a1v);
  const l1 = hb.code.body as LamCode<L>;
  if (k === 1) {
    // One argument: `λx1. B`'s body B entered at once, in its environment (x1 = a1, then h's captures with f = g),
    // with fuel − 2 (App `f a1`'s body `x x v` at fuel − 1, then its own body premise at fuel − 1 again).
    return satEntry(h1.label, l1.body, enterFrom(l1, a1, g, hb.env), fuel - 2);
  }
  if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
  m.fused.lamBody++;
  // The closures `λxi. …` (i = 2 … k) by their captured values alone, each as its body's environment (`cur`: slot 0
  // is xi, filled once ai is evaluated; slots 1… the captures): the first from `λx1. …`'s environment (x1 = a1, then
  // h's captures with f = g), each next from the one before.
  let li = l1.body as LamCode<L>;
  let cs = li.caps, cur = new Array<V2<L>>(cs.length + 1);
  for (let j = 0; j < cs.length; j++) {
    const t = cs[j]!;
    if (t === 0) cur[j + 1] = a1;
    else { const u = l1.caps[t - 1]!; cur[j + 1] = u === 0 ? g : hb.env[u - 1]!; }
  }
  // Back in the i-th App: its argument (fuel − (k − i) − 1); then the next closure (Lam), or B entered.
  for (let i = 2; ; i++) {
    const ai = quickIn(m, pc, argApp(code, k - i).arg, env, fuel - (k - i) - 1);
    if (isFailure(ai)) return ai;
    cur[0] = ai;
    if (i === k) return satEntry(h1.label, li.body, cur, fuel - 1);
    if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
    m.fused.lamBody++;
    li = li.body as LamCode<L>;
    cs = li.caps;
    const next = new Array<V2<L>>(cs.length + 1);
    for (let j = 0; j < cs.length; j++) next[j + 1] = cur[cs[j]!]!;
    cur = next;
  }
}

/**
 * How `saturated` lays out B's environment for a k-argument function whose first lambda is `l1` (`λx1. … λxk. B`):
 * position by position an argument (1…k) or 0, a value carried over from h's captures and the unrolled closure
 * (the same at every call from B itself).
 */
function bodyLayout<L>(l1: LamCode<L>, k: number): number[] {
  if (k === 1) return [1, ...l1.caps.map(() => 0)];
  let li = l1.body as LamCode<L>;
  let src = [0, ...li.caps.map((t) => (t === 0 ? 1 : 0))];
  for (let i = 2; ; i++) {
    src[0] = i;
    if (i === k) return src;
    li = li.body as LamCode<L>;
    const cur = src;
    src = [0, ...li.caps.map((t) => cur[t]!)];
  }
}

/**
 * A loop block's plan (`loopBlock`): the loop's body B = `if C then … else S` (or with S in the then-branch), S its
 * call of itself `f a1 … ak` done by `saturated`, in one machine. Everything an iteration needs, found once: the
 * condition C (in B's environment E), the arguments (in the branch's environment e, whose slot s ≥ 1 is E's
 * `caps[s − 1]`), where f sits in E and which value it must be, and how `saturated` lays out B's next environment —
 * position by position an argument (`src` 1…k) or 0, a value carried over from the iteration before (h's captures and
 * the unrolled closure: the same on every iteration of one activation; `loopBlock` makes the plan again when f
 * is another closure).
 */
interface LoopPlan<L> {
  readonly mid: number;
  readonly call: Code<L>;
  /** The branch that calls again (1: then, 2: else). */
  readonly side: number;
  readonly cond: Code<L>;
  readonly args: readonly Code<L>[];
  /** Where the arguments read slot s: B's `caps[s − 1]`, or B's slot s itself (undefined: a relocated branch). */
  readonly caps: readonly number[] | undefined;
  readonly fAt: number;
  readonly fv: V2<L>;
  readonly src: readonly number[];
  /** Rule applications of one iteration, from B's entry to the next (see `loopPlan`). */
  readonly steps: number;
  /** Fuel from which no premise of an iteration can run out (a generous bound: see `loopPlan`). */
  readonly minFuel: number;
  /** Binops per iteration (each counted in `fused.binop` as `binopPair` counts it). */
  readonly binops: number;
  readonly k: number;
  /** The iteration on small integers (`numericLane`), or null where the condition or an argument is not arithmetic. */
  readonly lane: Lane | null;
}

/**
 * The lane's iterations from B's environment `e` and fuel `f` (the same guards as `loopBlock`'s, per iteration),
 * or undefined when it does not start (a value read is not a small integer at ⊥) or does no iteration. What it
 * does is counted as `loopBlock` counts each iteration.
 */
function laneBlock<L>(m: Machine<L>, p: LoopPlan<L>, lane: Lane, e: readonly V2<L>[], f: number): { env: readonly V2<L>[]; fuel: number } | undefined {
  const bottom = m.lat.bottom, reads = lane.reads;
  const st = new Float64Array(e.length);
  for (let r = 0; r < reads.length; r++) {
    const i = reads[r]!, v = e[i]!, b = v.body;
    const x = v.label === bottom && b.kind === 'num' ? Q.smallOf(b.value) : undefined;
    if (x === undefined) return undefined;
    st[i] = x;
  }
  const done = lane.run(st, f, p.minFuel, m.steps, p.steps, m.opts.maxSteps, p.side, LANE_OUT);
  if (done === 0) return undefined;
  m.steps = LANE_OUT[1]!;
  const next = e.slice(), writes = lane.writes;
  for (let j = 0; j < writes.length; j++) { const w = writes[j]!; next[w] = mkValue(bottom, Q.ofSmall(st[w]!)); }
  countBlocks(m.fused, p, done);
  m.fused.lane += done;
  return { env: next, fuel: LANE_OUT[0]! };
}

/** The fuel and rule applications a lane's run ends with (`LaneRun`'s `out`). */
const LANE_OUT = new Float64Array(2);

/** The fused shapes `n` iterations of a loop block stand for (`loopPlan`), added to `fused`. */
function countBlocks<L>(fused: Fused, p: LoopPlan<L>, n: number): void {
  fused.if += n; if (p.caps === undefined) fused.branchIn += n; fused.binop += p.binops * n; fused.saturated += n;
  fused.fix += n; fused.fixCurried += n; fused.lamBody += (p.k - 1) * n; fused.block += n;
}

/** No plan for this machine and self-call (the shape is not one the block runs): asked once, not again. */
interface NoPlan { readonly mid: number; readonly call: unknown; readonly none: true }

/**
 * Rule applications of quick code the block evaluates itself, `quickIn`'s count without failures: a variable or a
 * scalar literal 1, a binop over a literal pair 2 + its elements' (Prim, ArrayCons); -1 for anything else (or a
 * binop without a fast entry, or, `noUnit`, a read of slot 0 — the branch's `_`). `ops[0]` counts the binops.
 */
function blockSteps<L>(m: Machine<L>, c: Code<L>, noUnit: boolean, ops: number[]): number {
  if (c.k === 'var') return noUnit && c.slot === 0 ? -1 : 1;
  if (c.k === 'scalar') return 1;
  if (c.k !== 'prim' || c.arg.k !== 'array' || c.arg.elems.length !== 2 || !m.binops.has(c.name)) return -1;
  const a = blockSteps(m, c.arg.elems[0]!, noUnit, ops), b = blockSteps(m, c.arg.elems[1]!, noUnit, ops);
  if (a < 0 || b < 0) return -1;
  ops[0]!++;
  return 2 + a + b;
}

/**
 * The value of quick code `c` as `quickIn` gives it at pc ⊥ when every value it reads is a scalar at ⊥ (`caps`:
 * read slot s of the branch's environment as E's `caps[s − 1]`), or undefined where that does not hold or a binop
 * has no fast answer (the rules then run it: stuck, a label, a closure …). No rule is counted here.
 */
function blockValue<L>(m: Machine<L>, c: Code<L>, env: readonly V2<L>[], caps: readonly number[] | undefined): V2<L> | undefined {
  const bottom = m.lat.bottom;
  if (c.k === 'var') {
    const v = env[caps === undefined ? c.slot : caps[c.slot - 1]!]!;
    const bk = v.body.kind;
    return v.label === bottom && (bk === 'num' || bk === 'str' || bk === 'bool' || bk === 'null') ? v : undefined;
  }
  if (c.k === 'scalar') {
    const sc = c.fast as ScalarCache<L> | undefined;
    if (sc !== undefined && sc.mid === m.serial && sc.pc === bottom) return sc.v;
    const v = mkValue(bottom, c.e);
    c.fast = { mid: m.serial, pc: bottom, v };
    return v;
  }
  const p = c as Code<L> & { k: 'prim' }, a = p.arg as Code<L> & { k: 'array' };
  const x = blockValue(m, a.elems[0]!, env, caps);
  if (x === undefined) return undefined;
  const y = blockValue(m, a.elems[1]!, env, caps);
  if (y === undefined) return undefined;
  const r = m.binops.get(p.name)!(x.body, y.body);
  if (r === undefined) return undefined;
  const lat = m.lat;
  return mkValue(lat.join(bottom, lat.join(x.label, y.label)), r);
}

/**
 * The plan for B (`code`, the body `saturated` just entered with environment `env`) called again by `call` (whose
 * environment was `callEnv`), or NO_PLAN. One iteration from B's entry (pc ⊥, fuel F) to its next, as the frames
 * and fused shapes count it: B's App (1), IF's App ×3, the condition, fromBool, λ_, λf, λ_, λu, `{}`, App `t u`,
 * the reads of t and u (3 + C + 4 + 1 + 3), the branch entered at fuel F − 2; S's App (1), `saturated` (its inner
 * Apps k − 1, the read of f, a1, `x x v` 1 + 6 + 2, λx2 1, then a2 … ak and the Lams λx3 … λxk, k − 2), B at F − 3:
 * 12 + C + 2k + 9 + Σ ai. Fuel: every premise of an iteration needs at most a few units more than its own reads —
 * f's and h's depths, scalars' 2 — so 64 + 4k + both depths above what the iteration uses is more than enough.
 */
function loopPlan<L>(m: Machine<L>, call: Code<L> & { k: 'app' }, callEnv: readonly V2<L>[], code: Code<L>, env: readonly V2<L>[]): LoopPlan<L> | NoPlan {
  const none: NoPlan = { mid: m.serial, call, none: true };
  if (code.k !== 'app' || !m.fromBoolStandard || appShape(call).kind !== PLAIN) return none;
  const sh = appShape(code);
  if (sh.kind !== IF) return none;
  // The call in the branch's own environment (caps: slot s read from B's `caps[s − 1]`), or in the branch body
  // relocated into B's (`AppShape.ins`: no caps, slots are B's).
  const ins = sh.ins!, rel = ins[2] === call || ins[1] === call;
  const side = sh.else!.body === call || ins[2] === call ? 2 : sh.then!.body === call || ins[1] === call ? 1 : 0;
  if (side === 0) return none;
  const caps = rel ? undefined : (side === 1 ? sh.then! : sh.else!).caps;
  let c: Code<L> = call, k = 0;
  while (c.k === 'app') { k++; c = c.fn; }
  if (c.k !== 'var' || c.slot === 0 || k < 2 || k > SAT_MAX) return none;
  const ops = [0];
  const cond = (sh.prim as Code<L> & { k: 'prim' }).arg, sc = blockSteps(m, cond, false, ops);
  if (sc < 0) return none;
  const args: Code<L>[] = [];
  let sa = 0;
  for (let i = 1; i <= k; i++) {
    const a = argApp(call, k - i).arg, n = blockSteps(m, a, !rel, ops);
    if (n < 0) return none;
    args.push(a);
    sa += n;
  }
  // f, x, h as `saturated` found them (it just succeeded with this f), and B's environment laid out as it builds it.
  const fv = callEnv[c.slot]!, fvb = fv.body as Closure<L>, xxv = fvb.code.body as Code<L> & { k: 'app' };
  const x = fvb.env[((xxv.fn as Code<L> & { k: 'app' }).fn as Code<L> & { k: 'var' }).slot - 1]!, xb = x.body as Closure<L>;
  const ub = xb.code.body as Code<L> & { k: 'app' }, h = xb.env[(ub.fn as Code<L> & { k: 'var' }).slot - 1]!, hb = h.body as Closure<L>;
  const src = bodyLayout(hb.code.body as LamCode<L>, k);
  if (src.length !== env.length) return none;
  // The f the next iteration calls: the unrolled closure `lx:λv. x x v` that `saturated` just put in B's environment
  // (`unrolledClosure`: x's own λv, capturing this x) — on a loop's first iteration not the f of this call, which the
  // prelude's `fix` built from its other copy of `λx. f (λv. x x v)`; the iterations then carry it over.
  const fAt = caps === undefined ? c.slot : caps[c.slot - 1]!, fNext = env[fAt]!, fnb = fNext.body;
  if (fnb.kind !== 'clo' || fnb.code !== appShape(ub).then || fnb.env[0] !== x || fNext.label !== m.lat.bottom) return none;
  return {
    mid: m.serial, call, side, cond, args, caps, fAt, fv: fNext, src,
    steps: 12 + sc + 2 * k + 9 + sa, minFuel: 64 + 4 * k + depthOf(fNext) + depthOf(h), binops: ops[0]!, k,
    lane: numericLane(cond, args, caps, src),
  };
}

/**
 * LOOP BLOCK: after `saturated` entered a loop's body B (at pc ⊥, in a run that is neither a frontier run nor depth
 * first past a branch), B's iterations that call again are done here, each as one update — the rule applications,
 * fuel and fused-shape counts of the iteration added at once (`loopPlan`) — instead of premise by premise, while
 * every value the condition and the arguments read is a scalar at ⊥, every binop has its fast answer, f is the same
 * closure (the plan's: made again for another), fuel is above the plan's bound and the step budget has room for the
 * whole iteration (without that check the budget would still stop the run, at the loop's exit: the iteration where
 * the rules would stop is kept all the same). Anything else — the
 * exit branch, a label, a stuck binop, low fuel, the budget — leaves the iteration to the rules, exactly where it
 * starts. Returns B's environment and fuel after the iterations done, or undefined when none was.
 */
function loopBlock<L>(m: Machine<L>, call: Code<L> & { k: 'app' }, callEnv: readonly V2<L>[], code: Code<L>, env: readonly V2<L>[], fuel: number): { env: readonly V2<L>[]; fuel: number } | undefined {
  if (code.k !== 'app') return undefined;
  const sh = appShape(code);
  let p = sh.loop;
  // A plan per machine and self-call, made again for another activation of the same code (another f: a loop whose
  // function captured other values).
  if (p === undefined || p.mid !== m.serial || p.call !== call || (!('none' in p) && env[p.fAt] !== p.fv)) { p = loopPlan(m, call, callEnv, code, env); sh.loop = p; }
  if ('none' in p) return undefined;
  const max = m.opts.maxSteps, src = p.src, n = src.length, k = p.k;
  let e = env, f = fuel, done = 0;
  // On small integers first (the numeric lane), then, from where it stops, on values.
  let laned = false;
  if (p.lane !== null) {
    const l = laneBlock(m, p, p.lane, e, f);
    if (l !== undefined) { e = l.env; f = l.fuel; laned = true; }
  }
  const vals = new Array<V2<L>>(k);
  for (;;) {
    if (f < p.minFuel || m.steps + p.steps > max) break;
    const o = blockValue(m, p.cond, e, undefined);
    if (o === undefined) break;
    const ob = o.body;
    if ((ob.kind === 'bool' && !ob.value ? 2 : 1) !== p.side) break;
    let i = 0;
    for (; i < k; i++) { const v = blockValue(m, p.args[i]!, e, p.caps); if (v === undefined) break; vals[i] = v; }
    if (i < k) break;
    const next = new Array<V2<L>>(n);
    for (let j = 0; j < n; j++) { const a = src[j]!; next[j] = a === 0 ? e[j]! : vals[a - 1]!; }
    m.steps += p.steps; f -= 3; e = next; done++;
  }
  countBlocks(m.fused, p, done);
  return done === 0 && !laned ? undefined : { env: e, fuel: f };
}

/**
 * A non-tail recursion's plan (`recursionBlock`): its body B = `if C then … else …`, one side `P op f A1 … Ak` or
 * `f A1 … Ak op P` (the pending operand P quick, the self-call with k ≤ SAT_MAX quick arguments, done by `saturated`),
 * the other a quick base case, both sides relocated into B's environment (`AppShape.ins`). One level, from B's entry
 * (pc ⊥, fuel F) to the next B's, as the frames and fused shapes count it: B's IF as in `loopPlan` (12 + C, the branch
 * entered at F − 2); the branch's Prim and ArrayCons (2), P at F − 4 (its own count; with the call first, read after
 * it returns, at the same fuel), the PRIM_PAIR frame; the call's App (1) at F − 4 and `saturated` (as in `loopPlan`:
 * 2k + 8 + ΣAi without S's App), B entered at F − 6 for one argument, F − 5 for more: 23 + 2k + C + P + ΣAi. The base
 * level: 12 + C, then the base at F − 2 (its own count). The fold back up is `binopPair` per level, which counts no rule
 * application.
 */
interface RecursionPlan<L> {
  readonly mid: number;
  readonly lane: RecursionLane;
  /** Where B's environment holds f, which the self-call reads. */
  readonly fAt: number;
  /** The self-call's arguments. */
  readonly k: number;
  readonly perLevel: number;
  readonly baseSteps: number;
  /** Binops of a level (the condition, P, the arguments, and the fold's own) and of the base level (the condition, the base). */
  readonly binops: number;
  readonly baseBinops: number;
  /** Fuel from which no premise of a level runs out, besides f's and h's depths (added per run: see `recursionBlock`). */
  readonly minFuel: number;
  /** The lane gave up once in this machine (a value left the small integers, the fuel or the budget): not tried again. */
  off: boolean;
}

/** Fuel quick lane arithmetic needs at most: a read or a literal 1, a binop over a pair 2 more than its deeper element. */
function exprFuel<L>(c: Code<L>): number {
  return c.k === 'prim' && c.arg.k === 'array' ? 2 + Math.max(exprFuel(c.arg.elems[0]!), exprFuel(c.arg.elems[1]!)) : 1;
}

/**
 * The plan for B (`code`, entered by `saturated` in `env`), or NO_PLAN where B is not a recursion the lane runs (see
 * `RecursionPlan`). B's environment is laid out from h's lambdas (`bodyLayout`), found through the f it holds.
 */
function recursionPlan<L>(m: Machine<L>, code: Code<L> & { k: 'app' }, env: readonly V2<L>[]): RecursionPlan<L> | NoPlan {
  const none: NoPlan = { mid: m.serial, call: code, none: true };
  const sh = appShape(code);
  if (sh.kind !== IF || !m.fromBoolStandard) return none;
  const ins = sh.ins!;
  for (const rec of [2, 1]) {
    const r = ins[rec], base = ins[3 - rec];
    if (r === null || r === undefined || base === null || base === undefined || r.k !== 'prim' || r.arg.k !== 'array' || r.arg.elems.length !== 2) continue;
    // `P op f A…`, or the call first: `f A… op P` (a PRIM_PAIR frame keeping the environment; P read after the call
    // returns, at the same fuel F − 4 and with the same count).
    const e0 = r.arg.elems[0]!, e1 = r.arg.elems[1]!, callFirst = !e0.quick;
    const pending = callFirst ? e1 : e0, call = callFirst ? e0 : e1;
    if (!pending.quick || call.k !== 'app' || !m.binops.has(r.name)) continue;
    const args: Code<L>[] = [];
    let c: Code<L> = call;
    while (c.k === 'app') { if (!c.arg.quick) return none; args.unshift(c.arg); c = c.fn; }
    const k = args.length;
    if (c.k !== 'var' || k > SAT_MAX) return none;
    const h = selfRecursion(m, env[c.slot]!, code, k);
    if (h === undefined) return none;
    const src = bodyLayout((h.body as Closure<L>).code.body as LamCode<L>, k);
    if (src.length !== env.length) return none;
    // Binops counted per part: the condition's at every level, P's and the arguments' on the way down, the base's once.
    const cond = (sh.prim as Code<L> & { k: 'prim' }).arg, co = [0], lo = [0], bo = [0];
    const cs = blockSteps(m, cond, false, co), ps = blockSteps(m, pending, false, lo), bs = blockSteps(m, base, false, bo);
    let as = 0;
    for (const a of args) { const n = blockSteps(m, a, false, lo); if (n < 0) return none; as += n; }
    if (cs < 0 || ps < 0 || bs < 0) return none;
    const lane = recursionLane(cond, rec, pending, r.name, args, src, base, callFirst);
    if (lane === null) return none;
    const depth = Math.max(exprFuel(cond), exprFuel(pending), exprFuel(base), ...args.map((a) => exprFuel(a)));
    return {
      mid: m.serial, lane, fAt: c.slot, k, perLevel: 23 + 2 * k + cs + ps + as, baseSteps: 12 + cs + bs,
      binops: co[0]! + lo[0]! + 1, baseBinops: co[0]! + bo[0]!, minFuel: 64 + 4 * k + 2 * depth, off: false,
    };
  }
  return none;
}

/** The most levels a recursion lane descends (its pending operands held as doubles: 64 MB). */
const RECURSION_MAX_DEPTH = 1 << 23;
/** The result and rule applications a recursion lane ends with (`RecursionRun`'s `out`). */
const REC_OUT = new Float64Array(2);
/** Where a recursion lane reads B's environment as doubles (grown as needed). */
let recState = new Float64Array(8);

/**
 * h, when `g` (B's f) is the unrolled closure `λv. x x v` of a fix whose function h is `λf. λx1. … λxk. B` (B the
 * code `code`), all three at ⊥: the self-call then enters this same B again at ⊥ (`saturated` reads g, x and h, and
 * B's pc is h's label joined with x's, g's); else undefined.
 */
function selfRecursion<L>(m: Machine<L>, g: V2<L>, code: Code<L>, k: number): V2<L> | undefined {
  const bottom = m.lat.bottom, gb = g.body;
  if (g.label !== bottom || gb.kind !== 'clo') return undefined;
  const xxv = gb.code.body;
  if (xxv.k !== 'app' || appShape(xxv).kind !== SELF) return undefined;
  const x = gb.env[((xxv.fn as Code<L> & { k: 'app' }).fn as Code<L> & { k: 'var' }).slot - 1]!, xb = x.body;
  if (x.label !== bottom || xb.kind !== 'clo' || xb.code.body.k !== 'app' || appShape(xb.code.body).kind !== UNROLL) return undefined;
  const h = xb.env[(xb.code.body.fn as Code<L> & { k: 'var' }).slot - 1]!, hb = h.body;
  if (h.label !== bottom || hb.kind !== 'clo') return undefined;
  let lam: Code<L> = hb.code.body;
  for (let i = 0; i < k; i++) { if (lam.k !== 'lam') return undefined; lam = lam.body; }
  return lam === code ? h : undefined;
}

/**
 * RECURSION LANE: after `saturated` entered a function's body B (`code`, in `env`, at pc ⊥ with `fuel`, in a plain
 * run), the whole recursion from there on small integers (`recursionLane`), all or nothing: its value, with every
 * level's rule applications and fused shapes counted as the frames would (`RecursionPlan`); or undefined, nothing
 * done, where B is not such a recursion, a value it reads is not a small integer at ⊥, or the lane gave up (then not
 * tried again in this machine: the rules run it, as they would have).
 */
function recursionBlock<L>(m: Machine<L>, code: Code<L>, env: readonly V2<L>[], fuel: number): V2<L> | undefined {
  if (code.k !== 'app') return undefined;
  const sh = appShape(code);
  if (sh.kind !== IF) return undefined;
  let p = sh.rec;
  if (p === undefined || p.mid !== m.serial) { p = recursionPlan(m, code, env); sh.rec = p; }
  if ('none' in p || p.off) return undefined;
  const g = env[p.fAt]!, h = selfRecursion(m, g, code, p.k);
  if (h === undefined) return undefined;
  const bottom = m.lat.bottom, reads = p.lane.reads;
  if (recState.length < env.length) recState = new Float64Array(env.length);
  const st = recState;
  for (let r = 0; r < reads.length; r++) {
    const i = reads[r]!, v = env[i]!, b = v.body;
    const x = v.label === bottom && b.kind === 'num' ? Q.smallOf(b.value) : undefined;
    if (x === undefined) return undefined;
    st[i] = x;
  }
  const levels = p.lane.run(st, fuel, p.minFuel + depthOf(g) + depthOf(h), m.steps, p.perLevel, p.baseSteps, m.opts.maxSteps, RECURSION_MAX_DEPTH, p.k === 1 ? 6 : 5, REC_OUT);
  if (levels < 0) { p.off = true; return undefined; }
  m.steps = REC_OUT[1]!;
  const fu = m.fused;
  fu.if += levels + 1; fu.branchIn += levels + 1; fu.saturated += levels; fu.fix += levels; fu.fixCurried += levels;
  fu.lamBody += (p.k - 1) * levels; fu.binop += p.binops * levels + p.baseBinops; fu.recursion += levels;
  return mkValue(bottom, Q.ofSmall(REC_OUT[0]!));
}

/**
 * A fork's outcomes (Fork's premise run to the end, every path, in a run of its own), kept in the fork node's `fast`
 * slot for machine `mid` by the fuel they were computed at. Fork restores the conversation, so its result is a
 * function of its configuration alone: pc, conversation, the values in the body's slots and the fuel. A depth-first
 * run meets the same configuration again and again (`(fork @"flip").[1]` in a loop: every path at a level enters
 * the fork with the same conversation and fuel), and then takes the kept outcomes, with their rule applications
 * counted at once, instead of applying Fork's premise's rules (App, Lam, Send, Recv, the parsed response, …) again
 * on every path.
 */
interface ForkCache<L> {
  readonly mid: number;
  readonly byFuel: Map<number, ForkOutcomes<L>>;
}

/** A fork's outcomes at one configuration (`ForkCache`): values or failures, their weights, the premise's rule applications. */
interface ForkOutcomes<L> {
  readonly pc: L;
  readonly conv: Conv<L>;
  readonly env: readonly V2<L>[];
  readonly vals: readonly (V2<L> | Failure)[];
  readonly ws: readonly Q.Rational[];
  readonly steps: number;
}

/** Fork results kept per node (`ForkCache`), at most this many fuels: past it the node's table starts again. */
const FORK_KEPT = 64;

/** The outcomes kept for this fork at this configuration (`ForkCache`), if any; nothing counted. */
function forkKept<L>(m: Machine<L>, pc: L, conv: Conv<L>, code: Code<L> & { k: 'fork' }, env: readonly V2<L>[], fuel: number): ForkOutcomes<L> | undefined {
  const c = code.fast as ForkCache<L> | undefined;
  if (c === undefined || c.mid !== m.serial) return undefined;
  const hit = c.byFuel.get(fuel);
  return hit !== undefined && hit.pc === pc && hit.conv === conv && sameSlots(hit.env, env, code.uses) ? hit : undefined;
}

/**
 * Fork's premise (the body at `fuel − 1`) from the configuration the Fork rule was entered in, its Fork rule
 * application already counted, by a depth-first run of its own (`runDirect`, which counts its rule applications) with
 * the caller's branch limit `limit`; its outcomes are kept for the fork (`forkKept`). Undefined when that run gave up:
 * at a branch past `limit`, or below a node that merged, where the caller's own frames would give up too.
 */
function forkRun<L>(m: Machine<L>, pc: L, conv: Conv<L>, code: Code<L> & { k: 'fork' }, env: readonly V2<L>[], fuel: number, limit: number): ForkOutcomes<L> | undefined {
  const steps0 = m.steps;
  const outs = runDirect(m, { pc, conv, code: code.body, env, fuel: fuel - 1 }, limit);
  if (outs === undefined) return undefined;
  const vals = outs.map((o) => (o.out.kind === 'ok' ? o.out.value : o.out));
  const r: ForkOutcomes<L> = { pc, conv, env, vals, ws: outs.map((o) => o.weight), steps: m.steps - steps0 };
  let c = code.fast as ForkCache<L> | undefined;
  if (c === undefined || c.mid !== m.serial) { c = { mid: m.serial, byFuel: new Map() }; code.fast = c; }
  if (c.byFuel.size >= FORK_KEPT) c.byFuel.clear();
  c.byFuel.set(fuel, r);
  return r;
}

/** Whether `a` and `b` hold the same values in the slots `uses`. */
function sameSlots<L>(a: readonly V2<L>[], b: readonly V2<L>[], uses: readonly number[]): boolean {
  if (a === b) return true;
  for (let i = 0; i < uses.length; i++) { const s = uses[i]!; if (a[s] !== b[s]) return false; }
  return true;
}

/**
 * A choice point's copy of frames 0 … sp − 1 of `set` (eight slots a frame, in the order of the frame arrays), or
 * undefined when one of them is a rule's generator (a generator cannot be resumed on two paths).
 * (A RecordCons/ArrayCons frame's values array is shared with the path that goes on now; each later path gets its own
 * copy when restored, as an array value built from it keeps that very array.)
 */
function framesBelow(set: Frames, sp: number): unknown[] | undefined {
  const { fk, fpc, fcode, fenv, ffuel, fw, fx, fi } = set;
  for (let i = 0; i < sp; i++) if (fk[i] === GEN) return undefined;
  const frames = new Array<unknown>(8 * sp);
  for (let i = 0, j = 0; i < sp; i++, j += 8) {
    frames[j] = fk[i]; frames[j + 1] = fpc[i]; frames[j + 2] = fcode[i]; frames[j + 3] = fenv[i];
    frames[j + 4] = ffuel[i]; frames[j + 5] = fw[i]; frames[j + 6] = fx[i]; frames[j + 7] = fi[i];
  }
  return frames;
}

/**
 * The fast path's run of `root` on machine `m` (rule applications counted in `m.steps`): the result (empty
 * or one weighted outcome), or undefined when it gave up (the caller's general machine does the derivation). With
 * `stepLimit`, a depth-first run: branches are taken one after another and the result lists every path's outcome
 * (unmerged); it gives up when a rule generator is below a branch, when it enters a node that merged in this
 * machine after branching, or at a branch past `stepLimit` rule applications. Without it, the run becomes such a
 * run at its first branch, with the limit `m.afterBranch` rule applications later (none: it gives up there). With `tails` too, a frontier run
 * (`Machine.frontier`): branches are taken as in a depth-first run, but a path ends at its first tail premise (a
 * configuration entered with no frame below, other than the root), pushed on `tails` with the path's weight; the
 * result lists the outcomes of the paths that finished before one.
 */
export function runDirect<L>(m: Machine<L>, root: Cfg<L>, stepLimit?: number, tails?: Entry<L>[]): readonly WOut<L>[] | undefined {
  const f = takeFrames();
  try {
    return runFrames(m, root, stepLimit, tails, f);
  } finally {
    giveFrames(f);
  }
}

/** runDirect's run, with its set of frame arrays `set`. */
function runFrames<L>(m: Machine<L>, root: Cfg<L>, stepLimit: number | undefined, tails: Entry<L>[] | undefined, set: Frames): readonly WOut<L>[] | undefined {
  // The frames, as parallel arrays; frame i is in use while i < sp. `fx` holds the generator (GEN), App's
  // function once its first premise is done (APP_ARG) or the elements so far (CONS, PRIM_PAIR); `fw` the
  // weight the frame's result carries (the product of its premises' weights so far); `fenv` NO_ENV once no
  // premise left needs the environment. Slots above sp are stale and overwritten by the next push.
  const fk = set.fk, fpc = set.fpc as L[], fcode = set.fcode as Code<L>[], fenv = set.fenv as (readonly V2<L>[])[], ffuel = set.ffuel;
  const fw = set.fw as Q.Rational[], fx = set.fx;
  /** CONS, PRIM_PAIR: how many elements are done; PRIM_PAIR 2: the first, a small integer at ⊥, held in `fx` as its number. */
  const fi = set.fi;
  let sp = 0;
  const lat = m.lat, bottom = lat.bottom;
  // A depth-first run (`stepLimit` given): the outcomes of the finished paths, and the choice points left.
  const outs: WOut<L>[] = [];
  const choices: Choice<L>[] = [];
  let depthFirst = stepLimit !== undefined;
  let limit = stepLimit ?? 0;
  // A frontier run (`tails` given, with `stepLimit`): every path ends at the first configuration it enters with no
  // frame below other than the root itself (a tail premise of the root's derivation), which is handed to `tails`
  // with its weight for the caller's next round instead of being run here.
  let atRoot = true;
  // Paths ended so far (a depth-first or frontier run): past `maxOutcomes` the run gives up, so that the general
  // machine, which checks the limit on every distribution it builds, meets it where the rules would. Each distinct
  // outcome of a distribution built inside this derivation is the end of at least one path, so a run within the
  // limit builds nothing past it.
  let paths = 0;
  const maxPaths = m.opts.maxOutcomes;

  // The configuration to enter (pc, conv, code, env, fuel) and the weight `cw` its result carries.
  let pc = root.pc, conv = root.conv, code = root.code, env = root.env, fuel = root.fuel;
  let cw: Q.Rational = Q.ONE;
  // The result register: `has` false when a generator frame is to be started; else the premise's result —
  // none (`val` undefined: an empty distribution), or one outcome with weight `w`: a failure, or the value
  // `val` with the conversation `oc`.
  let has = true;
  let val: V2<L> | Failure | undefined;
  let oc: Conv<L> = conv;
  let w: Q.Rational = Q.ONE;

  for (;;) {
    // ENTER: run the configuration until a result is in the register or a frame waits for a premise.
    for (;;) {
      if (fuel <= 0) { has = true; val = FUEL; w = cw; break; }
      // Depth first, once this run has branched: a node whose entries merged in this machine's rounds would
      // merge these paths too (a merging loop inside), so enumerating them could cost exponentially more.
      if (tails !== undefined) {
        if (sp === 0 && !atRoot) { tails.push({ cfg: { pc, conv, code, env, fuel }, w: cw }); has = true; val = undefined; break; }
        atRoot = false;
      } else if (depthFirst && choices.length !== 0) {
        if (code.merged === m) return undefined;
        if (sp === 0 && repeats(m, m.tailSample, pc, conv, code, env, fuel)) return undefined;
      }
      if (code.quick) { has = true; val = quickIn(m, pc, code, env, fuel); oc = conv; w = cw; break; }
      if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
      const k = code.k;
      if (k === 'app') {
        const sh = appShape(code);
        if (sh.kind === SELF && fuel >= 5) {
          // `x x v`, the unrolled fix (see AppShape), with x holding `λx. f (λv. x x v)` (UNROLL): fused as the
          // spec's derivation — App `x x` (fuel − 1), the two reads of x (fuel − 2, ≥ 2), App `f (λv. x x v)` in
          // x's body at its label lx (fuel − 2), the read of f (fuel − 3, ≥ its depth), Lam (lx:λv. x x v
          // capturing x), then f's body entered with that closure at fuel − 3; a FIX_ARG frame then reads v
          // and applies the result to it (App `x x v`'s last premises). No environment for the two bodies.
          const slot = ((code.fn as Code<L> & { k: 'app' }).fn as Code<L> & { k: 'var' }).slot, x = env[slot]!, xb = x.body;
          if (xb.kind === 'clo' && xb.code.body.k === 'app' && appShape(xb.code.body).kind === UNROLL) {
            const ub = xb.code.body, f = xb.env[(ub.fn as Code<L> & { k: 'var' }).slot - 1]!;
            if (fuel - 3 >= depthOf(f)) {
              ticks(m, 6);
              m.fused.fix++;
              const x1 = m.readVar(pc, x);
              const f1 = m.readVar(x1.label, f);
              const g = unrolledClosure(m, ub, x1);
              const fb = f1.body;
              if (fb.kind !== 'clo') { has = true; val = m.appNonFunction(f1); w = cw; break; }
              const fbb = fb.code.body;
              if (fbb.k === 'lam') {
                // f's body is a lambda (a curried function, as every fix-defined loop): Lam gives its closure
                // f1.label:λ… at once, and App `x x v` finishes here without a frame: the read of v (fuel − 1,
                // ≥ its depth), then that closure applied to it — a lambda body is again a closure at once, else
                // its body is entered at f1.label with fuel − 1. (The closure itself is never built: only its
                // captured values, for the next environment.)
                ticks(m, 2);
                m.fused.fixCurried++;
                const a = env[0]!;
                if (fuel - 1 < depthOf(a)) { has = true; val = FUEL; w = cw; break; }
                const a1 = m.readVar(pc, a), c1b = fbb.body;
                if (c1b.k === 'lam') {
                  if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
                  m.fused.lamBody++;
                  has = true; val = mkValue(f1.label, { kind: 'clo', code: c1b, env: captureFrom(c1b, a1, captureFrom(fbb, g, fb.env)) }); oc = conv; w = cw;
                  break;
                }
                pc = f1.label; code = c1b; env = enterFrom(fbb, a1, g, fb.env); fuel -= 1;
                continue;
              }
              if (sp === fk.length) growFrames(set);
              fk[sp] = FIX_ARG; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = NO_ENV; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = env[0];
              sp++;
              pc = f1.label; code = fbb; env = bodyEnv(g, fb.env); fuel -= 3; cw = Q.ONE;
              continue;
            }
          }
        }
        if (sh.kind === IF && fuel >= 4) {
          // `if c then e2 else e3` with a quick condition, fused (no Church-boolean closures, no frames):
          // App, App, App (this tick and two), Prim and c by `quickValue` at fuel − 3; then, as the spec's
          // derivation: λ_.e2, the Church body λf, λ_.e3, λu, {} (pc:{}), App `t u`, the reads of t and u
          // (fuel ≥ 4 leaves every one of these premises fuel enough), and the chosen branch's body at the
          // label its read gives, pc ⊔ ℓ(fromBool c), with fuel − 2. The condition is deterministic, so
          // nothing here can branch.
          ticks(m, 3);
          const p = sh.prim as Code<L> & { k: 'prim' };
          const o = quickIn(m, pc, p.arg, env, fuel - 4);
          if (isFailure(o)) { has = true; val = o; w = cw; break; }
          // Prim `fromBool`: (pc ⊔ deepLabel(V)):church. The standard one on a scalar without a value (its
          // deep label is its label; anything but false is true); else by `primValue` and the result's shape.
          const ob = o.body;
          let side: number, cv: V2<L> | Failure | undefined;
          if (m.fromBoolStandard && ob.kind !== 'clo' && ob.kind !== 'record' && ob.kind !== 'array') side = ob.kind === 'bool' && !ob.value ? 2 : 1;
          else {
            cv = m.primValue(pc, o, p.name);
            if (isFailure(cv)) { has = true; val = cv; w = cw; break; }
            side = churchSide(cv);
          }
          if (side === 0) {
            // Not a standard Church boolean (a model's own fromBool): the three Apps as frames, the
            // innermost one handed its function's value.
            const a2 = code.fn as Code<L> & { k: 'app' }, a1 = a2.fn;
            for (let j = 0; j < 3; j++) {
              const c = j === 0 ? code : j === 1 ? a2 : a1;
              if (sp === fk.length) growFrames(set);
              fk[sp] = APP_FN; fpc[sp] = pc; fcode[sp] = c; fenv[sp] = env; ffuel[sp] = fuel - j; fw[sp] = j === 0 ? cw : Q.ONE; fx[sp] = undefined;
              sp++;
            }
            has = true; val = cv!; oc = conv; w = Q.ONE;
            break;
          }
          ticks(m, 4);
          m.fused.if++;
          const unit = quickIn(m, pc, code.arg, env, fuel - 1) as V2<L>;
          ticks(m, 3);
          const lb = cv !== undefined ? (cv as V2<L>).label : lat.join(pc, o.label);
          const sel = side === 1 ? sh.then! : sh.else!;
          // The read of the branch closure pc:λ_.e at lb (Machine.readVar on a closure), and its body's environment.
          let l1 = pc;
          if (lb !== bottom) { const j = lat.join(lb, pc); if (!lat.equals(j, pc)) l1 = j; }
          if (tails === undefined && !(depthFirst && choices.length !== 0)) {
            // A plain run (neither a frontier run nor depth first past a branch: none looks at code identities
            // here): the branch body moved into this environment, when it can be (it does not read `_`), is
            // entered in it — the same reads of the same values, without an environment per branch taken.
            const rel = sh.ins![side]!;
            if (rel !== null) { m.fused.branchIn++; pc = l1; code = rel; fuel -= 2; continue; }
          }
          const caps = sel.caps, n = caps.length;
          const e = new Array<V2<L>>(n + 1);
          e[0] = m.readVar(lb, unit);
          for (let i = 0; i < n; i++) e[i + 1] = env[caps[i]!]!;
          pc = l1; code = sel.body; env = e; fuel -= 2;
          continue;
        }
        const fc = code.fn;
        if (fc.k === 'app' && code.arg.quick && fuel >= 7) {
          // A fix-defined loop calling itself (SATURATED, `saturated`): its body's configuration, its outcome, or
          // undefined where the shape does not apply (nothing done then).
          const r = saturated(m, pc, code, env, fuel, depthFirst && choices.length !== 0, false);
          if (r !== undefined) {
            if (!('env' in r)) { has = true; val = r; w = cw; break; }
            const call = code, callEnv = env;
            pc = r.pc as L; code = r.code as Code<L>; env = r.env as readonly V2<L>[]; fuel = r.fuel; clearSat();
            if (pc === bottom && tails === undefined && !(depthFirst && choices.length !== 0)) {
              // The loop's further iterations at ⊥ as blocks (LOOP BLOCK, `loopBlock`); or a non-tail recursion on
              // small integers from here, whole (RECURSION LANE, `recursionBlock`): B's value.
              const b = loopBlock(m, call, callEnv, code, env, fuel);
              if (b !== undefined) { env = b.env; fuel = b.fuel; } else {
                const v = recursionBlock(m, code, env, fuel);
                if (v !== undefined) { has = true; val = v; oc = conv; w = cw; break; }
              }
            }
            continue;
          }
        }
        if (fc.k === 'var' && code.arg.quick && fuel >= 6 && tails === undefined && !(depthFirst && choices.length !== 0)) {
          // A one-argument loop calling itself (`f (n − 1)` in `sum`): SATURATED with k = 1, in a run that is neither
          // a frontier run nor depth first past a branch (those look at the tail `x x v` it passes over).
          const r = saturated(m, pc, code, env, fuel, false, true);
          if (r !== undefined) {
            if (!('env' in r)) { has = true; val = r; w = cw; break; }
            pc = r.pc as L; code = r.code as Code<L>; env = r.env as readonly V2<L>[]; fuel = r.fuel; clearSat();
            if (pc === bottom) {
              // A non-tail recursion on small integers from here, whole (RECURSION LANE, `recursionBlock`): B's value.
              const v = recursionBlock(m, code, env, fuel);
              if (v !== undefined) { has = true; val = v; oc = conv; w = cw; break; }
            }
            continue;
          }
        }
        if (!fc.quick) {
          if (sp === fk.length) growFrames(set);
          fk[sp] = APP_FN; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = env; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = undefined;
          sp++;
          code = fc; fuel--; cw = Q.ONE;
          continue;
        }
        // A quick function premise (a variable, a lambda): no frame for it; a quick argument too: no frame at all.
        const fn = quickIn(m, pc, fc, env, fuel - 1);
        if (isFailure(fn)) { has = true; val = fn; w = cw; break; }
        const ac = code.arg;
        if (!ac.quick) {
          // (Its environment is not needed after this premise: not kept, so a deep stack holds less.)
          if (sp === fk.length) growFrames(set);
          fk[sp] = APP_ARG; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = NO_ENV; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = fn;
          sp++;
          code = ac; fuel--; cw = Q.ONE;
          continue;
        }
        const arg = quickIn(m, pc, ac, env, fuel - 1);
        if (isFailure(arg)) { has = true; val = arg; w = cw; break; }
        const b = fn.body;
        if (b.kind !== 'clo') { has = true; val = m.appNonFunction(fn); w = cw; break; }
        // The body at l1 is App's tail premise: a lambda (a curried function) is its closure at once (Lam,
        // one step), else enter it in place.
        const bc = b.code.body;
        if (bc.k === 'lam' && fuel > 1) { if (m.steps < m.opts.maxSteps) m.steps++; else m.tick(); m.fused.lamBody++; has = true; val = mkValue(fn.label, { kind: 'clo', code: bc, env: captureFrom(bc, arg, b.env) }); oc = conv; w = cw; break; }
        pc = fn.label; code = bc; env = bodyEnv(arg, b.env); fuel--;
        continue;
      }
      if (k === 'prim' && code.arg.k === 'array' && code.arg.elems.length === 2) {
        // Prim over a literal pair that is not quick (`n + f (n - 1)`): one frame for both rules, the
        // elements kept for `primPair` (no array value, one frame less per level of a deep recursion).
        // ArrayCons's own application comes first: out of fuel is Prim's outcome, else one more step.
        if (fuel - 1 <= 0) { has = true; val = FUEL; w = cw; break; }
        if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
        const e0 = code.arg.elems[0]!;
        if (e0.quick) {
          // A quick first element (`n` in `n + f (n - 1)`): its value at once; the frame waits for the
          // second only, holding the first value and no environment.
          const x = quickIn(m, pc, e0, env, fuel - 2);
          if (isFailure(x)) { has = true; val = x; w = cw; break; }
          if (sp === fk.length) growFrames(set);
          // A small integer at ⊥ is held as its number (fi 2), not as its value: a deep recursion then keeps no
          // object alive per level (a V8 small integer in an array is no object), and the collector copies none.
          const xn = x.label === bottom && x.body.kind === 'num' ? smiOf(x.body.value) : undefined;
          fk[sp] = PRIM_PAIR; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = NO_ENV; ffuel[sp] = fuel - 1; fw[sp] = cw;
          if (xn !== undefined) { fx[sp] = xn; fi[sp] = 2; } else { fx[sp] = x; fi[sp] = 1; }
          sp++;
          code = code.arg.elems[1]!; fuel -= 2; cw = Q.ONE;
          continue;
        }
        if (sp === fk.length) growFrames(set);
        fk[sp] = PRIM_PAIR; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = env; ffuel[sp] = fuel - 1; fw[sp] = cw; fx[sp] = undefined; fi[sp] = 0;
        sp++;
        code = e0; fuel -= 2; cw = Q.ONE;
        continue;
      }
      if (k === 'prim' || k === 'record' || k === 'array') {
        // (A non-quick record or array has at least one element: an empty one is quick.)
        // Prim's environment is not needed after its premise; a record or array with one element neither.
        const kind = k === 'prim' ? PRIM : CONS;
        const x = k === 'prim' ? undefined : new Array<V2<L>>(code.elems.length);
        const e = k === 'prim' || code.elems.length === 1 ? NO_ENV : env;
        if (sp === fk.length) growFrames(set);
        fk[sp] = kind; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = e; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = x; fi[sp] = 0;
        sp++;
        code = k === 'prim' ? code.arg : code.elems[0]!; fuel--; cw = Q.ONE;
        continue;
      }
      if (k === 'fork' && maxPaths === Infinity && m.opts.forkOutcomes !== false) {
        // Fork's premise in one go: its outcomes kept from an earlier path that entered this fork alike, else run now
        // and kept (`forkKept`, `forkRun`). Several make a choice point as a recv's responses do, each handed to the
        // frames below as the body's value in the conversation before it (Fork's conclusion). The branch limits are
        // checked as at the recv inside, here at the fork's entry (fewer rule applications counted by then).
        const entryLimit = depthFirst ? limit : Math.min(m.steps + Math.max(m.afterBranch, 0), m.opts.maxSteps / 2);
        let fo = forkKept(m, pc, conv, code, env, fuel);
        if (fo !== undefined) {
          if (fo.vals.length > 1 && (depthFirst ? m.steps > limit : m.afterBranch <= 0 || m.steps > m.opts.maxSteps / 2)) return undefined;
          m.fused.fork++;
          ticks(m, fo.steps);
        } else {
          fo = forkRun(m, pc, conv, code, env, fuel, entryLimit);
          if (fo === undefined) return undefined;
        }
        const n = fo.vals.length;
        if (n > 1) {
          if (!depthFirst) { depthFirst = true; limit = entryLimit; }
          const frames = framesBelow(set, sp);
          if (frames === undefined) return undefined;
          choices.push({ sp, frames, rs: undefined, fork: fo, conv, fuel, at: 1, base: cw });
        }
        has = true; oc = conv;
        if (n === 0) { val = undefined; w = cw; } else { val = fo.vals[0]; w = mulW(cw, fo.ws[0]!); }
        break;
      }
      if (k === 'fork' || k === 'send' || k === 'field' || k === 'index') {
        // Fork: the body at fuel − 1, the frame keeping the conversation (restored on the body's value). Send:
        // the message at fuel − 1, then `sendAfter` (pc ⊑ lc, serialise(v) appended at lc ⊔ n). FieldAccess /
        // ArrayIndex: the target at fuel − 1 (then ArrayIndex's index, in the environment kept).
        const kind = k === 'fork' ? FORK : k === 'send' ? SEND : k === 'field' ? FIELD : INDEX;
        const e = k === 'index' ? env : NO_ENV, c = k === 'fork' ? conv : undefined;
        if (sp === fk.length) growFrames(set);
        fk[sp] = kind; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = e; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = c; fi[sp] = 0;
        sp++;
        code = k === 'fork' ? code.body : k === 'send' ? code.arg : code.target; fuel--; cw = Q.ONE;
        continue;
      }
      if (k === 'recv') {
        // Recv: pc ⊑ lc, then each response r with p > 0: parse(r) at pc = lc, r appended, fuel − 1 (tail,
        // weight p). Several responses branch: a depth-first run takes the first now and keeps the others as a
        // choice point (as a generator's further requests below); any other run gives up.
        if (!lat.leq(pc, conv.label)) { has = true; val = m.recvStuck(pc, conv); w = cw; break; }
        const rs = m.ev.responses(conv);
        if (rs.length === 0) { has = true; val = undefined; w = cw; break; }
        if (rs.length > 1) {
          if (!depthFirst) {
            // The first branch of a run that is not depth first: go on depth first for at most `m.afterBranch`
            // more rule applications (and not past half the step budget) rather than throw away the work so far.
            if (m.afterBranch <= 0 || m.steps > m.opts.maxSteps / 2) return undefined;
            depthFirst = true;
            limit = Math.min(m.steps + m.afterBranch, m.opts.maxSteps / 2);
          } else if (m.steps > limit) return undefined;
          const frames = framesBelow(set, sp);
          if (frames === undefined) return undefined;
          choices.push({ sp, frames, rs, fork: undefined, conv, fuel, at: 1, base: cw });
        }
        // Recv's premise for the first response (`Machine.recvTail`, without its request object): parse(r) at pc = lc,
        // r appended, fuel − 1, weight p.
        const r0 = rs[0]!;
        pc = conv.label; conv = m.ev.append(conv, r0[0], pc); code = m.responseCode(r0[0]); env = NO_ENV; fuel--;
        cw = mulW(cw, r0[1]);
        continue;
      }
      // Any other rule: its generator, started below.
      m.fused.generators++;
      const gen = m.rule({ pc, conv, code, env, fuel });
      if (sp === fk.length) growFrames(set);
      fk[sp] = GEN; fpc[sp] = pc; fcode[sp] = code; fenv[sp] = NO_ENV; ffuel[sp] = fuel; fw[sp] = cw; fx[sp] = gen;
      sp++;
      has = false;
      break;
    }

    // RETURN: hand the result to the frames until one starts a premise (back to ENTER) or none is left.
    for (;;) {
      if (sp === 0) {
        if (!depthFirst) return outcomes(m, oc, val, w);
        // A depth-first run: this path is done; take the next request of the latest choice point.
        // (Every path ends here: an outcome, nothing, or a tail just handed on.)
        if (++paths > maxPaths) return undefined;
        if (val !== undefined) outs.push(outcome(m, oc, val, w));
        const ch = choices[choices.length - 1];
        if (ch === undefined) { if (stepLimit === undefined) m.directAfterBranch++; return outs; }
        const at = ch.at++, rs = ch.rs, fo = ch.fork;
        if (ch.at === (rs !== undefined ? rs.length : fo!.vals.length)) choices.pop();
        sp = ch.sp;
        const fs = ch.frames;
        for (let i = 0, j = 0; i < sp; i++, j += 8) {
          const kind = fs[j] as number;
          fk[i] = kind; fpc[i] = fs[j + 1] as L; fcode[i] = fs[j + 2] as Code<L>; fenv[i] = fs[j + 3] as readonly V2<L>[];
          ffuel[i] = fs[j + 4] as number; fw[i] = fs[j + 5] as Q.Rational; fi[i] = fs[j + 7] as number;
          fx[i] = kind === CONS ? (fs[j + 6] as V2<L>[]).slice() : fs[j + 6];
        }
        if (fo !== undefined) {
          // The fork's next outcome, handed to the frames below.
          has = true; val = fo.vals[at]; oc = ch.conv; w = mulW(ch.base, fo.ws[at]!);
          continue;
        }
        // Recv's premise for the next response, as for the first one.
        const r = rs![at]!;
        pc = ch.conv.label; conv = m.ev.append(ch.conv, r[0], pc); code = m.responseCode(r[0]); env = NO_ENV; fuel = ch.fuel - 1;
        cw = mulW(ch.base, r[1]);
        break;
      }
      const top = sp - 1;
      let k = fk[top]!;
      if (k === GEN) {
        const gen = fx[top] as Rule<L>;
        const r = gen.next(has ? outcomes(m, oc, val, w) : undefined);
        if (r.done) { sp--; fx[top] = undefined; has = true; val = undefined; continue; }
        const q = r.value;
        if (q.t === 'sub') { ({ pc, conv, code, env, fuel } = q.cfg); cw = Q.ONE; break; }
        // A second terminal request: branching (no rule run as a generator here branches on one-outcome
        // premises: Recv, the only rule with a choice of its own, is done by hand above). Give up.
        if (!gen.next(undefined).done) return undefined;
        sp--;
        fx[top] = undefined;
        if (q.t === 'out') {
          has = true;
          w = mulW(fw[top]!, q.w);
          if (q.out.kind === 'ok') { val = q.out.value; oc = q.out.conv; } else val = q.out;
          continue;
        }
        ({ pc, conv, code, env, fuel } = q.cfg);
        cw = mulW(fw[top]!, q.w);
        break;
      }
      // App, Prim, RecordCons/ArrayCons: a premise has finished — none (empty), a failure (the rule's outcome), or a value.
      if (val === undefined) { sp--; continue; }
      w = mulW(fw[top]!, w);
      if (isFailure(val)) { sp--; continue; }
      if (k === APP_FN) {
        const c = fcode[top] as Code<L> & { k: 'app' };
        const ac = c.arg;
        if (ac.quick) {
          // A quick argument: evaluated here, then App's conclusion as in APP_ARG below.
          sp--;
          const f1 = ffuel[top]! - 1;
          const arg = quickIn(m, fpc[top]!, ac, fenv[top]!, f1);
          if (isFailure(arg)) { val = arg; continue; }
          const fn = val, b = fn.body;
          if (b.kind !== 'clo') { val = m.appNonFunction(fn); continue; }
          const bc = b.code.body;
          if (bc.k === 'lam' && f1 > 0) { if (m.steps < m.opts.maxSteps) m.steps++; else m.tick(); m.fused.lamBody++; val = mkValue(fn.label, { kind: 'clo', code: bc, env: captureFrom(bc, arg, b.env) }); continue; }
          pc = fn.label; conv = oc; code = bc; env = bodyEnv(arg, b.env); fuel = f1; cw = w;
          break;
        }
        fk[top] = APP_ARG; fx[top] = val; fw[top] = w;
        pc = fpc[top]!; conv = oc; code = c.arg; env = fenv[top]!; fuel = ffuel[top]! - 1; cw = Q.ONE;
        fenv[top] = NO_ENV;
        break;
      }
      if (k === FIX_ARG) {
        // After `x x` (fused above): App `x x v` reads v (its second premise, fuel − 1) and applies.
        const f1 = ffuel[top]! - 1;
        if (m.steps < m.opts.maxSteps) m.steps++; else m.tick();
        const a = fx[top] as V2<L>;
        if (f1 < depthOf(a)) { sp--; val = FUEL; continue; }
        fx[top] = val;
        val = m.readVar(fpc[top]!, a);
        k = APP_ARG;
      }
      if (k === APP_ARG) {
        sp--;
        // `appAfter` inline: stuck on a non-function, else the body at l1 replaces the frame (tail).
        const fn = fx[top] as V2<L>;
        const b = fn.body;
        if (b.kind !== 'clo') { val = m.appNonFunction(fn); continue; }
        const bc = b.code.body, f1 = ffuel[top]! - 1;
        if (bc.k === 'lam' && f1 > 0) { if (m.steps < m.opts.maxSteps) m.steps++; else m.tick(); m.fused.lamBody++; val = mkValue(fn.label, { kind: 'clo', code: bc, env: captureFrom(bc, val, b.env) }); continue; }
        pc = fn.label; conv = oc; code = bc; env = bodyEnv(val, b.env); fuel = f1; cw = w;
        break;
      }
      if (k === FORK) {
        // Fork's conclusion: the body's value, in the conversation before it.
        sp--;
        oc = fx[top] as Conv<L>;
        fx[top] = undefined;
        continue;
      }
      if (k === SEND) {
        sp--;
        const o = m.sendAfter(fpc[top]!, oc, val);
        if (o.kind === 'ok') { val = o.value; oc = o.conv; } else val = o;
        continue;
      }
      if (k === FIELD) {
        sp--;
        const o = m.fieldAfter(oc, val, (fcode[top] as Code<L> & { k: 'field' }).name);
        if (o.kind === 'ok') { val = o.value; oc = o.conv; } else val = o;
        continue;
      }
      if (k === INDEX) {
        fw[top] = w;
        if (fi[top] === 0) {
          // The target's value kept; the index next, in the target's conversation.
          fx[top] = val;
          fi[top] = 1;
          pc = fpc[top]!; conv = oc; code = (fcode[top] as Code<L> & { k: 'index' }).index; env = fenv[top]!; fuel = ffuel[top]! - 1; cw = Q.ONE;
          fenv[top] = NO_ENV;
          break;
        }
        sp--;
        const o = m.indexAfter(oc, fx[top] as V2<L>, val);
        fx[top] = undefined;
        if (o.kind === 'ok') { val = o.value; oc = o.conv; } else val = o;
        continue;
      }
      if (k === PRIM) {
        sp--;
        val = m.primValue(fpc[top]!, val, (fcode[top] as Code<L> & { k: 'prim' }).name);
        continue;
      }
      if (k === PRIM_PAIR) {
        const p = fcode[top] as Code<L> & { k: 'prim' };
        const a = p.arg as Code<L> & { k: 'array' };
        fw[top] = w;
        if (fi[top] === 0) {
          fx[top] = val;
          fi[top] = 1;
          pc = fpc[top]!; conv = oc; code = a.elems[1]!; env = fenv[top]!; fuel = ffuel[top]! - 1; cw = Q.ONE;
          fenv[top] = NO_ENV;
          break;
        }
        sp--;
        const x = fi[top] === 2 ? mkValue(bottom, Q.ofSmall(fx[top] as number)) : fx[top] as V2<L>;
        fx[top] = undefined;
        val = binopPair(m, fpc[top]!, p, a, x, val);
        continue;
      }
      // CONS
      const c = fcode[top] as Code<L> & { k: 'record' | 'array' };
      const vs = fx[top] as V2<L>[];
      const i = fi[top]!;
      vs[i] = val;
      fw[top] = w;
      if (i + 1 < c.elems.length) {
        pc = fpc[top]!; conv = oc; code = c.elems[i + 1]!; env = fenv[top]!; fuel = ffuel[top]! - 1; cw = Q.ONE;
        fi[top] = i + 1;
        // The last element starts: the frame no longer needs the environment.
        if (i + 2 === c.elems.length) fenv[top] = NO_ENV;
        break;
      }
      sp--;
      val = m.aggregate(fpc[top]!, c, vs);
    }
  }
}
