/**
 * A second shrinking pass after fast-check's: greedy minimisation of a failing case, keeping pairs
 * related by construction (every move edits the shared skeleton, a hole's filling, the conversation
 * pair or the model, never one program alone outside a hole).
 *
 * fast-check shrinks each generator choice in place; it cannot move a high hole upwards, replace a
 * subterm by a deeper one or inline a `let`. Those moves are what turns
 * `if ⟦S: true | false⟧ then send 1 else {}` into `⟦S: send 1 | {}⟧`. Every accepted candidate is
 * re-judged by the suite's own `check` and is strictly smaller in the order: AST nodes of both
 * programs, conversation messages, model, hole depth, fuel, pc, conversation label. Side steps (another
 * pc or conversation label, then a new descent) are kept only when they end strictly lower.
 */
import * as Q from '../distributions/rational.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { children, freeVars, size, subst, withChildren } from '../syntax/helpers.ts';
import type { LlmbdaCtx } from './context.ts';
import type { ConvPair, PairCase, SingleCase } from '../generators/pairs.ts';
import type { ModelSpec, ResponseSpec } from '../generators/models.ts';
import { programOf } from '../generators/pairs.ts';
import type { LlmbdaSuite } from './context.ts';
import { judge } from '../runner/suite.ts';
import { absurd } from '../util/absurd.ts';
import { holeNode, holeParts, resolveBoth, toRaw } from '../generators/skeleton.ts';
import { isPairCase } from './variant-ctx.ts';

/** A case of any LLMbda suite. */
export type AnyCase<L> = PairCase<L> | SingleCase<L>;

/** What the minimiser did. */
export interface Minimised<L> {
  readonly value: AnyCase<L>;
  /** Accepted moves. */
  readonly steps: number;
  /** Candidates judged. */
  readonly checks: number;
  /** Size (AST nodes of all programs) before and after. */
  readonly before: number;
  readonly after: number;
  /** True when the time budget ran out before a fixpoint. */
  readonly interrupted: boolean;
}

/** AST nodes of all programs of a case. */
export function caseSize<L>(c: AnyCase<L>): number {
  return isPairCase(c) ? size(programOf(c, 0)) + size(programOf(c, 1)) : size(c.expr);
}

/** The order the minimiser descends: size first, then the rest of the case. */
function measure<L>(lat: Lattice<L>, c: AnyCase<L>): number[] {
  const messages = isPairCase(c) ? c.conv.messages0.length + c.conv.messages1.length : c.conv.messages.length;
  const convLow = lat.equals(c.conv.label, lat.bottom) ? 0 : 1;
  return [caseSize(c), messages, modelWeight(c.model), isPairCase(c) ? holeDepth(c.skeleton) : 0, c.fuel, lat.equals(c.pc, lat.bottom) ? 0 : 1, convLow];
}

function less(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i]! !== b[i]!) return a[i]! < b[i]!;
  return false;
}

/** Sum over holes of their depth in the skeleton (lifting a hole lowers it). */
function holeDepth<L>(e: Expr<L>, d = 0): number {
  if (holeParts(e)) return d;
  return children(e).reduce((n, c) => n + holeDepth(c, d + 1), 0);
}

/** Responses count twice; a response other than the plain `0` counts once more (simpler reports). */
function modelWeight(m: ModelSpec): number {
  const table = (t: ResponseSpec): number => t.reduce((n, [r]) => n + (r === '0' ? 2 : 3), 0);
  switch (m.kind) {
    case 'constant': return table(m.responses);
    case 'echo': return 5;
    case 'hashed': return 20 + m.tables.reduce((n, t) => n + table(t), 0);
    default: return absurd(m);
  }
}

// ---------------------------------------------------------------------------------------------
// Moves on expressions

/** Small leaves tried in place of any subterm. */
function leaves<L>(): Expr<L>[] {
  return [{ kind: 'record', fields: [] }, { kind: 'num', value: Q.ZERO }, { kind: 'bool', value: true }];
}

/** An array or record with one element or field left out (each in turn). */
function dropElements<L>(e: Expr<L>): Expr<L>[] {
  if (e.kind === 'array' && e.elems.length > 1) return e.elems.map((_, i) => ({ kind: 'array', elems: dropAt(e.elems, i) }));
  if (e.kind === 'record' && e.fields.length > 1) return e.fields.map((_, i) => ({ kind: 'record', fields: dropAt(e.fields, i) }));
  return [];
}

/** Names bound anywhere inside `e`. */
function binders<L>(e: Expr<L>, acc = new Set<string>()): Set<string> {
  if (e.kind === 'lam') acc.add(e.param);
  for (const c of children(e)) binders(c, acc);
  return acc;
}

/** `(λx. b) a` (a `let`) with `a` inlined for `x`, when no capture can happen. */
function beta<L>(fn: Expr<L>, arg: Expr<L>): Expr<L> | undefined {
  if (fn.kind !== 'lam') return undefined;
  const inner = binders(fn.body);
  for (const x of freeVars(arg)) if (inner.has(x)) return undefined;
  return subst(fn.body, fn.param, arg);
}

/**
 * Inline an application: `(λx. b) a` becomes `b[x := a]`; a high function applied to a low argument,
 * `⟦l: f0 | f1⟧ a`, becomes `⟦l: f0' | f1'⟧` where a lambda side is inlined and a side that is not a
 * lambda either keeps the application or drops it (two candidates).
 */
function inline<L>(e: Expr<L>): Expr<L>[] {
  if (e.kind !== 'app') return [];
  const h = holeParts(e.fn);
  if (!h) {
    const b = beta(e.fn, e.arg);
    return b ? [b] : [];
  }
  const keep = (f: Expr<L>): Expr<L> => beta(f, e.arg) ?? { kind: 'app', fn: f, arg: e.arg };
  const drop = (f: Expr<L>): Expr<L> => beta(f, e.arg) ?? f;
  return [holeNode(h.label, keep(h.left), keep(h.right)), holeNode(h.label, drop(h.left), drop(h.right))];
}

/** Positions of a tree as child-index paths, pre-order; hole internals are addressed through their fillings. */
type Path = readonly number[];

function subterm<L>(e: Expr<L>, p: Path): Expr<L> {
  let x = e;
  for (const i of p) x = children(x)[i]!;
  return x;
}

function replaceAt<L>(e: Expr<L>, p: Path, r: Expr<L>): Expr<L> {
  if (p.length === 0) return r;
  const kids = children(e);
  kids[p[0]!] = replaceAt(kids[p[0]!]!, p.slice(1), r);
  return withChildren(e, kids);
}

/**
 * Every position where a subterm may be replaced: all nodes except a hole's internal `prim`/array
 * nodes (a hole is replaced whole, or one of its fillings is edited).
 */
function positions<L>(e: Expr<L>): Path[] {
  const out: Path[] = [];
  const go = (x: Expr<L>, p: Path): void => {
    out.push(p);
    const h = holeParts(x);
    if (h) {
      go(h.left, [...p, 0, 0, 0]);
      go(h.right, [...p, 0, 0, 1]);
      return;
    }
    children(x).forEach((c, i) => go(c, [...p, i]));
  };
  go(e, []);
  return out;
}

/** Proper descendants usable as replacements (not a hole's internal nodes). */
function descendants<L>(e: Expr<L>): Expr<L>[] {
  return positions(e).slice(1).map((p) => subterm(e, p));
}

/** Every hole below `e` (with `e` not a hole) has label `l`: the holes can be lifted to `e` as one. */
function liftHoles<L>(lat: Lattice<L>, e: Expr<L>): Expr<L> | undefined {
  if (holeParts(e)) return undefined;
  const labels: L[] = [];
  const collect = (x: Expr<L>): void => {
    const h = holeParts(x);
    if (h) { labels.push(h.label); return; }
    children(x).forEach(collect);
  };
  collect(e);
  const l = labels[0];
  if (l === undefined || labels.some((m) => !lat.equals(m, l))) return undefined;
  const side = (x: Expr<L>, s: 0 | 1): Expr<L> => {
    const h = holeParts(x);
    if (h) return s === 0 ? h.left : h.right;
    return withChildren(x, children(x).map((c) => side(c, s)));
  };
  return holeNode(l, side(e, 0), side(e, 1));
}

/**
 * Candidate expressions: each subterm replaced by a smaller one (a descendant or a leaf), or the holes
 * below it lifted to it. A lift adds a derivation step (the Labelled rule), hence `moreFuel`.
 */
function exprCandidates<L>(lat: Lattice<L>, e: Expr<L>): { readonly expr: Expr<L>; readonly moreFuel: boolean }[] {
  const out: { expr: Expr<L>; moreFuel: boolean }[] = [];
  for (const p of positions(e)) {
    const t = subterm(e, p);
    const st = size(t);
    for (const d of descendants(t)) if (size(d) < st) out.push({ expr: replaceAt(e, p, d), moreFuel: false });
    for (const leaf of leaves<L>()) if (st > 1 || t.kind !== leaf.kind) out.push({ expr: replaceAt(e, p, leaf), moreFuel: false });
    const lifted = liftHoles(lat, t);
    if (lifted) out.push({ expr: replaceAt(e, p, lifted), moreFuel: true });
    for (const inlined of inline(t)) out.push({ expr: replaceAt(e, p, inlined), moreFuel: false });
    for (const dropped of dropElements(t)) out.push({ expr: replaceAt(e, p, dropped), moreFuel: false });
  }
  // Replacing a subterm can unbind a variable: only closed candidates are programs.
  return out.filter((x) => freeVars(x.expr).size === 0);
}

// ---------------------------------------------------------------------------------------------
// Moves on conversations, models, fuel, pc

function modelCandidates(m: ModelSpec): ModelSpec[] {
  const renorm = (r: ResponseSpec): ResponseSpec => {
    const total = r.reduce((a, [, w]) => Q.add(a, Q.parseRational(w)!), Q.ZERO);
    return Q.isZero(total) ? r : r.map(([s, w]) => [s, Q.show(Q.div(Q.parseRational(w)!, total))] as const);
  };
  switch (m.kind) {
    case 'constant': {
      const out: ModelSpec[] = m.responses.length <= 1 ? [] : m.responses.map((_, i) => ({ kind: 'constant', responses: renorm(m.responses.filter((__, j) => j !== i)) }));
      // A response replaced by the plain `0` (when no other response is `0` already).
      if (!m.responses.some(([r]) => r === '0')) m.responses.forEach((_, i) => out.push({ kind: 'constant', responses: m.responses.map(([r, w], j) => [j === i ? '0' : r, w] as const) }));
      return out;
    }
    case 'echo':
      return [{ kind: 'constant', responses: [[m.fallback, '1']] }];
    case 'hashed':
      return m.tables.map((t): ModelSpec => ({ kind: 'constant', responses: t }));
    default:
      return absurd(m);
  }
}

function dropAt<T>(xs: readonly T[], i: number): T[] {
  return xs.filter((_, j) => j !== i);
}

function convPairCandidates<L>(lat: Lattice<L>, obs: L, c: ConvPair<L>): ConvPair<L>[] {
  const out: ConvPair<L>[] = [];
  const low = lat.leq(c.label, obs);
  if (low) {
    c.messages0.forEach((_, i) => out.push({ ...c, messages0: dropAt(c.messages0, i), messages1: dropAt(c.messages1, i) }));
  } else {
    c.messages0.forEach((_, i) => out.push({ ...c, messages0: dropAt(c.messages0, i) }));
    c.messages1.forEach((_, i) => out.push({ ...c, messages1: dropAt(c.messages1, i) }));
  }
  if (!lat.equals(c.label, lat.bottom)) out.push({ label: lat.bottom, messages0: c.messages0, messages1: c.messages0 });
  return out;
}

/** Every candidate one move away from `c`. */
function candidates<L>(lat: Lattice<L>, c: AnyCase<L>): AnyCase<L>[] {
  const out: AnyCase<L>[] = [];
  const common = (x: AnyCase<L>): void => {
    for (const model of modelCandidates(x.model)) out.push({ ...x, model });
    if (x.fuel > 1) out.push({ ...x, fuel: x.fuel - 1 }, { ...x, fuel: Math.max(1, Math.floor(x.fuel / 2)) });
    if (!lat.equals(x.pc, lat.bottom)) out.push({ ...x, pc: lat.bottom });
  };
  if (isPairCase(c)) {
    // Moves are made on the named form (resolved, holes kept), then turned back into a raw skeleton.
    for (const { expr, moreFuel } of exprCandidates(lat, resolveBoth(c.skeleton))) out.push({ ...c, skeleton: toRaw(expr), ...(moreFuel ? { fuel: c.fuel + 2 } : {}) });
    for (const conv of convPairCandidates(lat, c.obs, c.conv)) out.push({ ...c, conv });
  } else {
    for (const { expr } of exprCandidates(lat, c.expr)) out.push({ ...c, expr });
    c.conv.messages.forEach((_, i) => out.push({ ...c, conv: { ...c.conv, messages: dropAt(c.conv.messages, i) } }));
    if (!lat.equals(c.conv.label, lat.bottom)) out.push({ ...c, conv: { ...c.conv, label: lat.bottom } });
  }
  common(c);
  return out;
}

/**
 * Side steps that make nothing smaller by themselves but open new descents: start the run at another
 * pc, with another conversation label (a high one gets two different one-message conversations: a
 * leak may come from the conversation instead of a program hole), or under the echo model (what the
 * model answers then depends on the conversation).
 */
function perturbations<L>(lat: Lattice<L>, c: AnyCase<L>): AnyCase<L>[] {
  const out: AnyCase<L>[] = [];
  const differing = { messages0: ['0'], messages1: ['1'] } as const;
  for (const l of lat.elements ?? []) {
    if (!lat.equals(l, c.pc)) out.push({ ...c, pc: l });
    if (isPairCase(c)) {
      const same = lat.equals(l, c.conv.label);
      if (lat.leq(l, c.obs)) {
        if (!same) out.push({ ...c, conv: { label: l, messages0: c.conv.messages0, messages1: c.conv.messages0 } });
      } else if (!same || JSON.stringify(c.conv.messages0) !== JSON.stringify(differing.messages0) || JSON.stringify(c.conv.messages1) !== JSON.stringify(differing.messages1)) {
        out.push({ ...c, conv: { label: l, ...differing } });
      }
    } else if (!lat.equals(l, c.conv.label)) {
      out.push({ ...c, conv: { ...c.conv, label: l } });
    }
  }
  if (c.model.kind !== 'echo') out.push({ ...c, model: { kind: 'echo', fallback: '0' } });
  return out;
}

interface Descent<L> { value: AnyCase<L>; m: number[]; steps: number; checks: number; interrupted: boolean }

/** Greedy descent from `start`: take the smallest candidate the suite still rejects, until none is left. */
function descend<L>(suite: LlmbdaSuite, ctx: LlmbdaCtx<L>, start: AnyCase<L>, out: () => boolean, failsOn: (c: AnyCase<L>) => boolean, onStep?: (c: AnyCase<L>) => void): Descent<L> {
  let current = start;
  let m = measure(ctx.lat, current);
  let steps = 0, checks = 0;
  outer: for (;;) {
    const cands = candidates(ctx.lat, current)
      .map((c) => ({ c, m: measure(ctx.lat, c) }))
      .filter((x) => less(x.m, m))
      .sort((a, b) => (less(a.m, b.m) ? -1 : less(b.m, a.m) ? 1 : 0));
    for (const { c, m: mc } of cands) {
      if (out()) return { value: current, m, steps, checks, interrupted: true };
      checks++;
      if (failsOn(c)) {
        current = c;
        m = mc;
        steps++;
        onStep?.(c);
        continue outer;
      }
    }
    return { value: current, m, steps, checks, interrupted: false };
  }
}

/**
 * Minimise a failing case: a greedy descent, then side steps (`perturbations`) each followed by a
 * descent, kept when they end strictly lower — until nothing improves or `budgetMs` runs out.
 */
export interface MinimiseOptions<L> {
  /** Called with each case smaller (in AST nodes) than any reported before, as the search finds it. */
  readonly onImprove?: (c: AnyCase<L>) => void;
  /** Most judgements (a deterministic budget, unlike time: the same case minimises the same way under any load). */
  readonly maxChecks?: number;
}

export function minimise<L>(suite: LlmbdaSuite, ctx: LlmbdaCtx<L>, start: AnyCase<L>, budgetMs = 10_000, opts: MinimiseOptions<L> = {}): Minimised<L> {
  const deadline = performance.now() + budgetMs;
  let judged = 0;
  const out = (): boolean => performance.now() > deadline || judged >= (opts.maxChecks ?? Infinity);
  // A leak must stay a leak: a candidate that crashes the evaluator is a different failure.
  const first = judge(suite, ctx, start);
  const crashed = first.ok === false && first.crashed;
  const failsOn = (c: AnyCase<L>): boolean => {
    judged++;
    const j = judge(suite, ctx, c);
    return j.ok === false && j.crashed === crashed;
  };
  let reported = caseSize(start);
  const onStep = opts.onImprove ? (c: AnyCase<L>): void => {
    const n = caseSize(c);
    if (n < reported) { reported = n; opts.onImprove!(c); }
  } : undefined;
  let best = descend(suite, ctx, start, out, failsOn, onStep);
  let steps = best.steps, checks = best.checks, interrupted = best.interrupted;
  improve: while (!interrupted) {
    for (const p of perturbations(ctx.lat, best.value)) {
      const d = descend(suite, ctx, p, out, failsOn);
      checks += d.checks + 1;
      if (d.interrupted) { interrupted = true; break improve; }
      if (less(d.m, best.m) && failsOn(d.value)) {
        best = d;
        onStep?.(d.value);
        steps += d.steps + 1;
        continue improve;
      }
    }
    break;
  }
  return { value: best.value, steps, checks, before: caseSize(start), after: caseSize(best.value), interrupted };
}
