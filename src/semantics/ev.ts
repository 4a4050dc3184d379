/**
 * The evaluation context every rule receives: the lattice, the model, the recursive judgement `eval`,
 * distribution plumbing (`then`, `ret`, `stuck`), and the spec's helpers with per-evaluation caches.
 *
 * Evaluation of a configuration `(pc, C, e, fuel)` is a pure function, so `eval` memoises it on interned
 * keys: expressions are hash-consed to small ids (subtrees shared by substitution keep their id).
 */
import * as Q from '../distributions/rational.ts';
import type { BareValue, Expr, PlainValue, Value } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { absurd } from '../util/absurd.ts';
import { deepLabel, stripLabels, subst, wrapValues } from '../syntax/helpers.ts';
import type { PModel, PrimResult, ResponseDist } from './model.ts';
import { ODist, type Conv, type Msgs, type Outcome } from './odist.ts';
import type { Failure } from './config.ts';
import type { RuleTable, Semantics } from './rules-types.ts';
import { BudgetExceeded, outcomeLimitMessage, stepLimitMessage } from './errors.ts';
import type { Prelude } from './prelude.ts';
import { parsedResponse } from './prelude.ts';


export { BudgetExceeded, StackLimitError } from './errors.ts';

const LABEL_KEYS = new WeakMap<object, Map<unknown, string>>();
/** Bound on a lattice's shared label-key table (labels of an infinite lattice could otherwise pile up). */
const LABEL_KEYS_LIMIT = 4096;

function sharedLabelKeys<L>(lat: Lattice<L>): Map<unknown, string> {
  let m = LABEL_KEYS.get(lat);
  if (!m) { m = new Map(); LABEL_KEYS.set(lat, m); }
  else if (m.size >= LABEL_KEYS_LIMIT) m.clear();
  return m;
}

export class Ev<L> {
  // Per-evaluation caches, each created on first use: most evaluations of a suite are small programs that
  // need two or three of them, and an `Ev` is built per evaluation (a WeakMap is costly to create and to
  // collect: the garbage collector treats its entries as ephemerons).
  private ids: WeakMap<object, number> | undefined;
  private idOfKey: Map<string, number> | undefined;
  /** Interned message lists: by the list before, then by its last message (no key string made per append). */
  private msgsAfter: Map<number, Map<string, Msgs>> | undefined;
  private msgsCount = 0;
  private memo: Map<string, ODist<L>> | undefined;
  private deepCache: WeakMap<object, L> | undefined;
  private stripCache: WeakMap<object, Expr<never>> | undefined;
  private weightCache: Map<number, ResponseDist> | undefined;
  private messagesCache: Map<number, readonly string[]> | undefined;
  /** `lat.show` of scalar labels, shared by every evaluation on this lattice (`show` is a pure function of it). */
  private readonly labelKeys: Map<unknown, string>;
  /** Number of rule applications (a cost measure for benchmarks). */
  steps = 0;
  memoHits = 0;

  constructor(
    readonly lat: Lattice<L>,
    readonly model: PModel,
    readonly semantics: Semantics,
    readonly prelude: Prelude<L>,
    /** The observer `m` (only the skipping semantics reads it). */
    readonly observer: L | undefined,
    readonly memoise: boolean,
    /** Abort with `BudgetExceeded` after this many rule applications. */
    readonly maxSteps: number = Infinity,
    /** Abort with `BudgetExceeded` (limit `outcomes`) when a distribution grows past this many outcomes. */
    readonly maxOutcomes: number = Infinity,
  ) {
    this.labelKeys = sharedLabelKeys(lat);
  }

  // ------------------------------------------------------------------------------------------
  // The judgement.

  /** `pc ⊢ conv, e ⇓ …` with `fuel` = remaining derivation depth. */
  eval(pc: L, conv: Conv<L>, e: Expr<L>, fuel: number): ODist<L> {
    if (fuel <= 0) return this.fail({ kind: 'fuel' });
    let key: string | undefined;
    if (this.memoise) {
      key = `${this.labelKey(pc)}|${this.labelKey(conv.label)}/${conv.msgs?.id ?? 0}|${this.exprId(e)}|${fuel}`;
      const hit = (this.memo ??= new Map()).get(key);
      if (hit) { this.memoHits++; return hit; }
    }
    if (++this.steps > this.maxSteps) throw new BudgetExceeded(stepLimitMessage(this.maxSteps), 'steps', this.maxSteps);
    const entry = this.semantics.entry?.(this, pc, conv, e, fuel - 1);
    const out = entry ?? this.dispatch(pc, conv, e, fuel - 1);
    this.checkOutcomes(out.size);
    if (key !== undefined) this.memo!.set(key, out);
    return out;
  }

  private dispatch(pc: L, conv: Conv<L>, e: Expr<L>, fuel: number): ODist<L> {
    const r = this.semantics.rules;
    switch (e.kind) {
      case 'var': return r.Var(this, pc, conv, e, fuel);
      case 'lam': return r.Lam(this, pc, conv, e, fuel);
      case 'app': return r.App(this, pc, conv, e, fuel);
      case 'send': return r.Send(this, pc, conv, e, fuel);
      case 'recv': return r.Recv(this, pc, conv, e, fuel);
      case 'fork': return r.Fork(this, pc, conv, e, fuel);
      case 'clear': return r.Clear(this, pc, conv, e, fuel);
      case 'label': return r.Labelled(this, pc, conv, e, fuel);
      case 'dynlabel': return r.LabelFlow(this, pc, conv, e, fuel);
      case 'test': return r.LabelTest(this, pc, conv, e, fuel);
      case 'assert': return r.LabelAssert(this, pc, conv, e, fuel);
      case 'endorse': return r.Endorse(this, pc, conv, e, fuel);
      case 'num': case 'str': case 'bool': case 'null': return r.ScalarLit(this, pc, conv, e, fuel);
      case 'prim': return r.Prim(this, pc, conv, e, fuel);
      case 'record': return e.fields.length === 0 ? r.RecordNil(this, pc, conv, e, fuel) : r.RecordCons(this, pc, conv, e, fuel);
      case 'array': return e.elems.length === 0 ? r.ArrayNil(this, pc, conv, e, fuel) : r.ArrayCons(this, pc, conv, e, fuel);
      case 'field': return r.FieldAccess(this, pc, conv, e, fuel);
      case 'index': return r.ArrayIndex(this, pc, conv, e, fuel);
      default: return absurd(e);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Distribution plumbing.

  /** The point mass on a final configuration. */
  ret(conv: Conv<L>, value: Value<L>): ODist<L> {
    const d = new ODist<L>();
    d.push(this.okKey(conv, value), { kind: 'ok', conv, value }, Q.ONE);
    return d;
  }

  /** The point mass on a failure. */
  fail(f: Failure): ODist<L> {
    const d = new ODist<L>();
    d.push(failureId(f), f, Q.ONE);
    return d;
  }

  /** A stuck run: no rule applies (`rule` names the rule that could not fire, `reason` says why). */
  stuck(rule: string, reason: string): ODist<L> {
    return this.fail({ kind: 'stuck', rule, reason });
  }

  /** Sequencing of premises: run `k` on every final configuration of `d`; failures pass through. */
  then(d: ODist<L>, k: (conv: Conv<L>, value: Value<L>) => ODist<L>): ODist<L> {
    const one = d.single();
    if (one) return one.outcome.kind === 'ok' ? k(one.outcome.conv, one.outcome.value) : d;
    const out = new ODist<L>();
    for (const [key, { outcome, weight }] of d.map) {
      if (outcome.kind !== 'ok') { out.push(key, outcome, weight); continue; }
      for (const [k2, w2] of k(outcome.conv, outcome.value).map) out.push(k2, w2.outcome, Q.mul(weight, w2.weight));
      this.checkOutcomes(out.size);
    }
    return out;
  }

  /** Enforce `maxOutcomes` on a distribution (or a frontier of partial runs) of `size` entries. */
  checkOutcomes(size: number): void {
    if (size > this.maxOutcomes) throw new BudgetExceeded(outcomeLimitMessage(this.maxOutcomes), 'outcomes', this.maxOutcomes);
  }

  /** Weighted sum of distributions (used by Recv over the model's responses). */
  sum(parts: readonly (readonly [Q.Rational, ODist<L>])[]): ODist<L> {
    const out = new ODist<L>();
    for (const [p, d] of parts) {
      for (const [k, w] of d.map) out.push(k, w.outcome, Q.mul(p, w.weight));
      this.checkOutcomes(out.size);
    }
    return out;
  }

  // ------------------------------------------------------------------------------------------
  // Labels and values.

  join(a: L, b: L): L { return this.lat.join(a, b); }
  leq(a: L, b: L): boolean { return this.lat.leq(a, b); }
  show(l: L): string { return this.lat.show(l); }
  /** `l:v` */
  value(label: L, body: BareValue<L>): Value<L> { return { kind: 'label', label, body }; }
  /** `l:V` for a labelled value `V`: the labels join (spec §2). */
  raise(l: L, v: Value<L>): Value<L> {
    const joined = this.lat.join(l, v.label);
    return this.lat.equals(joined, v.label) ? v : { kind: 'label', label: joined, body: v.body };
  }
  /** The unit value `l:{}`. */
  unit(label: L): Value<L> { return { kind: 'label', label, body: EMPTY_RECORD }; }

  deepLabel(e: Expr<L>): L {
    const hit = (this.deepCache ??= new WeakMap()).get(e);
    if (hit !== undefined) return hit;
    const l = deepLabel(this.lat, e);
    this.deepCache.set(e, l);
    return l;
  }
  strip(e: Expr<L>): PlainValue {
    const cache = (this.stripCache ??= new WeakMap());
    let hit = cache.get(e);
    if (hit === undefined) { hit = stripLabels(e) as Expr<never>; cache.set(e, hit); }
    return hit as unknown as PlainValue;
  }
  /** `flatten(V) = deepLabel(V):stripLabels(V)`. */
  flatten(v: Value<L>): { readonly label: L; readonly plain: PlainValue } {
    return { label: this.deepLabel(v), plain: this.strip(v) };
  }
  toLabel(v: PlainValue): L | undefined { return this.lat.toLabel(v); }
  wrap(v: PlainValue): BareValue<L> { return wrapValues(this.lat, v); }
  subst(e: Expr<L>, x: string, v: Value<L>): Expr<L> { return subst(e, x, v); }
  primEval(p: string, v: PlainValue): PrimResult {
    const f = this.model.prims[p];
    return f ? f(v) : { ok: false, reason: `unknown primitive ${JSON.stringify(p)}` };
  }
  serialise(v: PlainValue): string { return this.model.serialise(v); }

  // ------------------------------------------------------------------------------------------
  // Conversations and the model.

  /** `c ++ [msg]` with label `label`. */
  append(conv: Conv<L>, msg: string, label: L): Conv<L> {
    const prevId = conv.msgs?.id ?? 0;
    const after = (this.msgsAfter ??= new Map());
    let table = after.get(prevId);
    if (table === undefined) { table = new Map(); after.set(prevId, table); }
    let m = table.get(msg);
    if (!m) {
      m = { id: ++this.msgsCount, prev: conv.msgs, last: msg, length: (conv.msgs?.length ?? 0) + 1 };
      table.set(msg, m);
    }
    return { label, msgs: m };
  }
  /** The message list of a conversation, as an array (cached). */
  messages(msgs: Msgs | null): readonly string[] {
    if (msgs === null) return EMPTY_MESSAGES;
    let hit = this.messagesCache?.get(msgs.id);
    if (!hit) { hit = [...this.messages(msgs.prev), msgs.last]; (this.messagesCache ??= new Map()).set(msgs.id, hit); }
    return hit;
  }
  /** `weight(c)`, only the responses with positive weight. */
  responses(conv: Conv<L>): ResponseDist {
    const id = conv.msgs?.id ?? 0;
    let hit = this.weightCache?.get(id);
    if (!hit) {
      hit = this.model.weight(this.messages(conv.msgs)).filter(([, p]) => Q.lt(Q.ZERO, p));
      (this.weightCache ??= new Map()).set(id, hit);
    }
    return hit;
  }
  /** `parse(r)[prelude]`: the expression `[true, e]` or `[false, "parse error: …"]`. */
  parse(r: string): Expr<L> {
    return parsedResponse(r, this.lat, this.prelude);
  }
  /** Intern an external conversation's messages. */
  internMessages(messages: readonly string[]): Msgs | null {
    let conv: Conv<L> = { label: this.lat.bottom, msgs: null };
    for (const m of messages) conv = this.append(conv, m, this.lat.bottom);
    return conv.msgs;
  }

  // ------------------------------------------------------------------------------------------
  // Hash-consing.

  labelKey(l: L): string {
    if (typeof l !== 'object' || l === null) {
      let k = this.labelKeys.get(l);
      if (k === undefined) { k = this.lat.show(l); this.labelKeys.set(l, k); }
      return k;
    }
    return this.lat.show(l);
  }

  okKey(conv: Conv<L>, value: Value<L>): string {
    return `${this.labelKey(conv.label)}/${conv.msgs?.id ?? 0}#${this.exprId(value)}`;
  }

  /** A small id, equal for structurally equal expressions within this evaluation. */
  exprId(e: Expr<L>): number {
    const ids = (this.ids ??= new WeakMap());
    const hit = ids.get(e);
    if (hit !== undefined) return hit;
    let k: string;
    switch (e.kind) {
      case 'var': k = `v${e.name}`; break;
      case 'lam': k = `l${e.param} ${this.exprId(e.body)}`; break;
      case 'app': k = `a${this.exprId(e.fn)} ${this.exprId(e.arg)}`; break;
      case 'send': k = `s${this.exprId(e.arg)}`; break;
      case 'recv': k = 'R'; break;
      case 'fork': k = `f${this.exprId(e.body)}`; break;
      case 'clear': k = 'C'; break;
      case 'label': k = `L${this.labelKey(e.label)} ${this.exprId(e.body)}`; break;
      case 'dynlabel': k = `D${this.exprId(e.label)} ${this.exprId(e.body)}`; break;
      case 'test': k = `T${this.exprId(e.label)} ${this.exprId(e.body)}`; break;
      case 'assert': k = `A${this.exprId(e.label)} ${this.exprId(e.body)}`; break;
      case 'endorse': k = `E${this.exprId(e.label)} ${this.exprId(e.body)}`; break;
      case 'num': k = `n${Q.show(e.value)}`; break;
      case 'str': k = `q${e.value}`; break;
      case 'bool': k = e.value ? 't' : 'F'; break;
      case 'null': k = 'N'; break;
      case 'prim': k = `p${e.name} ${this.exprId(e.arg)}`; break;
      case 'record': k = `r${e.fields.map((f) => `${JSON.stringify(f.name)}=${this.exprId(f.expr)}`).join(',')}`; break;
      case 'array': k = `y${e.elems.map((x) => this.exprId(x)).join(',')}`; break;
      case 'field': k = `.${JSON.stringify(e.name)} ${this.exprId(e.target)}`; break;
      case 'index': k = `i${this.exprId(e.target)} ${this.exprId(e.index)}`; break;
      default: return absurd(e);
    }
    const table = (this.idOfKey ??= new Map());
    let id = table.get(k);
    if (id === undefined) { id = table.size + 1; table.set(k, id); }
    ids.set(e, id);
    return id;
  }

  /** Public form of an internal conversation. */
  publicConv(conv: Conv<L>): { label: L; messages: readonly string[] } {
    return { label: conv.label, messages: this.messages(conv.msgs) };
  }

  /** The rule table in force (for rules that delegate to the reference behaviour). */
  get rules(): RuleTable { return this.semantics.rules; }
}

const EMPTY_RECORD = { kind: 'record', fields: [] } as const;
const EMPTY_MESSAGES: readonly string[] = [];

function failureId(f: Failure): string {
  return f.kind === 'fuel' ? '!fuel' : `!stuck ${f.rule}: ${f.reason}`;
}

export type { Outcome };
