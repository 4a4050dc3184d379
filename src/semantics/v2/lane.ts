/**
 * A loop block's NUMERIC LANE (direct.ts, `loopBlock`), compiled: the iterations of a fix-defined loop whose every
 * value read is a small integer at ⊥ (an integer of magnitude at most 2^53 − 1, as rational.ts keeps it), with `+`,
 * `−`, `*` and `%` of such integers and the comparisons, exact on doubles while each result is one again (rational.ts's
 * own fast paths, the same argument). The iterations build no value and no environment: B's environment is made
 * once, when the lane stops.
 *
 * The lane is generated as the source of ONE small JavaScript function per loop shape (`new Function`), its state in
 * local variables, instead of a tree of closures called per iteration (the eleventh round's form). Why: a cold process
 * runs a loop of 10³–10⁴ iterations before TurboFan has compiled anything, and there a tree of closures costs
 * ≈ 0.4 µs an iteration against tens of nanoseconds for straight-line code; and a small function is compiled by
 * TurboFan in a millisecond where the closures are inlined into the large `laneBlock` (docs/evaluator-v2.md,
 * "Thirty-second round"). The functions are cached by their source (the same loop in the next evaluation, or another
 * loop of the same shape, runs the same function, already compiled), so the cache holds at most one function per
 * distinct shape, bounded by `LANE_CACHE_MAX`.
 *
 * Where the host forbids code generation from strings (`node --disallow-code-generation-from-strings`, a CSP),
 * `numericLane` answers null and the loop block runs the iterations on values, as it does for loops with no lane: the
 * same answers, rule applications and fuel (test/v2-lane.test.ts).
 */
import type { Code } from './code.ts';
import * as Q from '../../distributions/rational.ts';

/**
 * The compiled lane's iterations: from the state `st` (B's environment as doubles, at the lane's `reads`) with fuel
 * `f` and `steps` rule applications so far, while `f ≥ minFuel`, `steps + perStep ≤ maxSteps`, the condition picks
 * `side` and every argument is a small integer. Writes the state back into `st` (at the lane's `writes`), and
 * `out[0]` the fuel left and `out[1]` the rule applications; returns the number of iterations done.
 */
export type LaneRun = (st: Float64Array, f: number, minFuel: number, steps: number, perStep: number, maxSteps: number, side: number, out: Float64Array) => number;

/** A loop's numeric lane: its compiled iterations and the positions of B's environment it reads and writes. */
export interface Lane {
  readonly run: LaneRun;
  /** Positions of B's environment the lane reads: each must hold a small integer at ⊥ when it starts. */
  readonly reads: readonly number[];
  /** Positions an iteration writes (made into values when the lane stops). */
  readonly writes: readonly number[];
  /** The generated function's source (for tests and diagnostics). */
  readonly source: string;
}

/** `Number.MAX_SAFE_INTEGER` as the generated code spells it. */
const SAFE = String(Number.MAX_SAFE_INTEGER);

/** The comparisons a lane decides a condition with (a standard binop's answer on two numbers). */
const LANE_COMPARE: Readonly<Record<string, string>> = {
  'binop_==': '===', 'binop_<': '<', 'binop_>': '>', 'binop_<=': '<=', 'binop_>=': '>=',
};

/** `t = a op b` on two small integers: the double itself when it is one again (then exact), else NaN. */
function ranged(op: string): (t: string, a: string, b: string) => string {
  return (t, a, b) => `let ${t} = ${a} ${op} ${b}; if (!(${t} <= ${SAFE} && ${t} >= -${SAFE})) ${t} = NaN;`;
}

/** The arithmetic a lane computes: the generated statement for `t = a op b`, NaN where the result is not a small integer. */
const LANE_ARITH: Readonly<Record<string, (t: string, a: string, b: string) => string>> = {
  'binop_+': ranged('+'), 'binop_-': ranged('-'), 'binop_*': ranged('*'),
  // Truncating, the sign of the dividend, as `Q.mod`; by zero (−0 too) stuck: NaN, left to the rules.
  'binop_%': (t, a, b) => `const ${t} = ${b} === 0 ? NaN : ${a} % ${b};`,
};

/** Generated code of one iteration's values: statements, and fresh temporaries. */
class Emitter {
  readonly lines: string[] = [];
  readonly reads: number[] = [];
  private temps = 0;

  /** Quick code `c` as a double (a local, a literal or a temporary), or undefined (not arithmetic on small integers). */
  value<L>(c: Code<L>, caps: readonly number[] | undefined): string | undefined {
    if (c.k === 'var') {
      const i = caps === undefined ? c.slot : caps[c.slot - 1]!;
      if (!this.reads.includes(i)) this.reads.push(i);
      return `s${i}`;
    }
    if (c.k === 'scalar') {
      const e = c.e, x = e.kind === 'num' ? Q.smallOf(e.value) : undefined;
      return x === undefined ? undefined : `(${x})`;
    }
    if (c.k !== 'prim' || c.arg.k !== 'array' || c.arg.elems.length !== 2) return undefined;
    const op = LANE_ARITH[c.name];
    if (op === undefined) return undefined;
    const a = this.value(c.arg.elems[0]!, caps);
    if (a === undefined) return undefined;
    const b = this.value(c.arg.elems[1]!, caps);
    if (b === undefined) return undefined;
    const t = `t${this.temps++}`;
    this.lines.push(op(t, a, b));
    return t;
  }
}

/** Cache of compiled lanes by parameters and source (one per loop shape), and whether this host generates code from strings. */
const LANE_CACHE_MAX = 256;
const compiled = new Map<string, unknown>();
let codegen: boolean | undefined;

const LOOP_PARAMS = ['st', 'f', 'minFuel', 'steps', 'perStep', 'maxSteps', 'side', 'out'] as const;
const RECURSION_PARAMS = ['st', 'f', 'minFuel', 'steps', 'perLevel', 'baseSteps', 'maxSteps', 'maxDepth', 'fuelPerLevel', 'out'] as const;

/** The function of `params` and `body` (cached by both), or undefined where the host forbids generating code. */
function compileAs<F>(params: readonly string[], body: string): F | undefined {
  const key = `${params.join(',')}\n${body}`;
  const hit = compiled.get(key);
  if (hit !== undefined) return hit as F;
  if (codegen === false) return undefined;
  let run: F;
  try {
    run = new Function(...params, body) as F;
  } catch (e) {
    // EvalError: code generation from strings disallowed. Anything else is a bug in the generator.
    if (!(e instanceof EvalError)) throw e;
    codegen = false;
    return undefined;
  }
  codegen = true;
  if (compiled.size >= LANE_CACHE_MAX) compiled.clear();
  compiled.set(key, run);
  return run;
}

/**
 * The next state's code, shared by both lanes: each argument into `a<i>` (read through `caps` as `Emitter.value`
 * reads), `exit` where one is not a small integer, then position j of B's next environment set from argument
 * `src[j] − 1` (0: kept); undefined where an argument is not lane arithmetic.
 */
function nextState<L>(em: Emitter, args: readonly Code<L>[], caps: readonly number[] | undefined, src: readonly number[], exit: string): { argLines: string[]; assigns: string[]; writes: number[] } | undefined {
  const argLines: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const v = em.value(args[i]!, caps);
    if (v === undefined) return undefined;
    argLines.push(...em.lines.splice(0), `const a${i} = ${v}; if (a${i} !== a${i}) ${exit};`);
  }
  const writes: number[] = [], assigns: string[] = [];
  for (let j = 0; j < src.length; j++) if (src[j]! > 0) { writes.push(j); assigns.push(`s${j} = a${src[j]! - 1};`); }
  return { argLines, assigns, writes };
}

/** The state's positions: every one the lane's code read (`em.reads`) or an iteration writes, in order. */
function stateSlots(em: Emitter, writes: readonly number[]): number[] {
  return [...new Set([...em.reads, ...writes])].sort((x, y) => x - y);
}

/**
 * The numeric lane of a loop whose condition is `cond` (read in B's environment) and whose self-call passes `args`
 * (read through `caps`: slot s is B's `caps[s − 1]`; undefined: B's own slots), B's next environment taking position
 * j from argument `src[j] − 1` (0: kept), or null. The condition: a comparison of two lane values (decided: 1 then,
 * 2 else; not a small integer: 0, which is no side), or a lane value alone (a number: 1, true).
 */
export function numericLane<L>(cond: Code<L>, args: readonly Code<L>[], caps: readonly number[] | undefined, src: readonly number[]): Lane | null {
  const em = new Emitter();
  const c = conditionOf(em, cond);
  if (c === undefined) return null;
  const condLines = em.lines.splice(0);
  const next = nextState(em, args, caps, src, 'break');
  if (next === undefined) return null;
  const { argLines, assigns, writes } = next, slots = stateSlots(em, writes);
  const body = [
    `"use strict";`,
    ...slots.map((s) => `let s${s} = st[${s}];`),
    'let done = 0;',
    'for (;;) {',
    '  if (f < minFuel || steps + perStep > maxSteps) break;',
    ...condLines.map((l) => `  ${l}`),
    `  if ((${c}) !== side) break;`,
    ...argLines.map((l) => `  ${l}`),
    ...assigns.map((l) => `  ${l}`),
    '  steps += perStep; f -= 3; done++;',
    '}',
    ...writes.map((w) => `st[${w}] = s${w};`),
    'out[0] = f; out[1] = steps;',
    'return done;',
  ].join('\n');
  const run = compileAs<LaneRun>(LOOP_PARAMS, body);
  return run === undefined ? null : { run, reads: em.reads, writes, source: body };
}

/**
 * A non-tail recursion's compiled lane (direct.ts, `recursionBlock`): from B's state `st` (B's environment as doubles
 * at the lane's `reads`), fuel `f` and `steps` rule applications so far, the descent — while the condition picks the
 * recursive side: the pending operand pushed, the arguments made the next level's parameters, `perLevel` rule
 * applications and `fuelPerLevel` fuel a level, each level entered with fuel ≥ `minFuel` and no deeper than `maxDepth`
 * — then the base case (`baseSteps`), then the fold of the pending operands back up. All or nothing: returns the number
 * of levels and writes `out[0]` the result and `out[1]` the rule applications, or −1 (nothing to undo: no state outside
 * the function was written) where a value is not a small integer, a modulo is by zero, the fuel, the depth or the step
 * budget `maxSteps` would be passed.
 */
export type RecursionRun = (st: Float64Array, f: number, minFuel: number, steps: number, perLevel: number, baseSteps: number, maxSteps: number, maxDepth: number, fuelPerLevel: number, out: Float64Array) => number;

/** A non-tail recursion's lane: its compiled run and the positions of B's environment it reads. */
export interface RecursionLane {
  readonly run: RecursionRun;
  /** Positions of B's environment the lane reads or writes: each must hold a small integer at ⊥ when it starts. */
  readonly reads: readonly number[];
  /** The generated function's source (for tests and diagnostics). */
  readonly source: string;
}

/** The condition's code: the side it picks (1 then, 2 else), 0 where a value read is not a small integer. */
function conditionOf<L>(em: Emitter, cond: Code<L>): string | undefined {
  const cmp = cond.k === 'prim' && cond.arg.k === 'array' && cond.arg.elems.length === 2 ? LANE_COMPARE[cond.name] : undefined;
  if (cmp !== undefined) {
    const pair = (cond as Code<L> & { k: 'prim' }).arg as Code<L> & { k: 'array' };
    const a = em.value(pair.elems[0]!, undefined), b = a === undefined ? undefined : em.value(pair.elems[1]!, undefined);
    return a === undefined || b === undefined ? undefined : `${a} !== ${a} || ${b} !== ${b} ? 0 : ${a} ${cmp} ${b} ? 1 : 2`;
  }
  const v = em.value(cond, undefined);
  return v === undefined ? undefined : `${v} === ${v} ? 1 : 0`;
}

/**
 * The lane of a recursion whose body B is `if cond then … else …`, the side `rec` (1 then, 2 else) being
 * `pending op f args…` (`callFirst`: `f args… op pending`) and the other `base`, all read in B's environment, the next
 * level's environment taking position j from argument `src[j] − 1` (0: kept, as `bodyLayout` gives it), or null where
 * one of them is not lane arithmetic or `op` is not `+ − * %`. (With the call first, the pending operand is evaluated
 * after the call returns; on small integers, where nothing fails, the order changes nothing but the fold's operands.)
 */
export function recursionLane<L>(cond: Code<L>, rec: number, pending: Code<L>, op: string, args: readonly Code<L>[], src: readonly number[], base: Code<L>, callFirst: boolean): RecursionLane | null {
  const fold = LANE_ARITH[op];
  if (fold === undefined) return null;
  const em = new Emitter();
  const c = conditionOf(em, cond);
  if (c === undefined) return null;
  const condLines = em.lines.splice(0);
  const p = em.value(pending, undefined);
  if (p === undefined) return null;
  const pLines = em.lines.splice(0);
  const next = nextState(em, args, undefined, src, 'return -1');
  if (next === undefined) return null;
  const { argLines, assigns, writes } = next;
  const b = em.value(base, undefined);
  if (b === undefined) return null;
  const bLines = em.lines.splice(0), slots = stateSlots(em, writes);
  const body = [
    `"use strict";`,
    ...slots.map((s) => `let s${s} = st[${s}];`),
    // The pending operands, as doubles (a typed array doubled when full: at 10^6 levels 8 MB, not a JS array's growth).
    'let stk = new Float64Array(64), d = 0;',
    'for (;;) {',
    '  if (f < minFuel || steps + perLevel > maxSteps || d >= maxDepth) return -1;',
    ...condLines.map((l) => `  ${l}`),
    `  const c = ${c};`,
    `  if (c === ${3 - rec}) break;`,
    `  if (c !== ${rec}) return -1;`,
    ...pLines.map((l) => `  ${l}`),
    `  const p = ${p}; if (p !== p) return -1;`,
    ...argLines.map((l) => `  ${l}`),
    '  if (d === stk.length) { const b = new Float64Array(2 * d); b.set(stk); stk = b; }',
    '  stk[d++] = p;',
    ...assigns.map((l) => `  ${l}`),
    '  steps += perLevel; f -= fuelPerLevel;',
    '}',
    'if (steps + baseSteps > maxSteps) return -1;',
    ...bLines,
    `let r = ${b}; if (r !== r) return -1;`,
    'for (let i = d - 1; i >= 0; i--) {',
    `  ${callFirst ? fold('u', 'r', 'stk[i]') : fold('u', 'stk[i]', 'r')}`,
    '  if (u !== u) return -1;',
    '  r = u;',
    '}',
    'out[0] = r; out[1] = steps + baseSteps;',
    'return d;',
  ].join('\n');
  const run = compileAs<RecursionRun>(RECURSION_PARAMS, body);
  return run === undefined ? null : { run, reads: slots, source: body };
}
