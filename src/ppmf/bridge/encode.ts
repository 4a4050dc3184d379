/**
 * The PPMF ↔ LLMbda bridge, part 2: a scenario as an LLMbda program on the `ppmf` lattice (ppmf.md,
 * "The bridge to LLMbda"; docs/ppmf.md, "The LLMbda bridge"):
 *
 * ```
 * let memory = (fork (let _ = clear in let _ = send o1 in … let _ = send ok in recv)).[1] in
 * let call = {tool: "send_money", risk: "EFFECT", target: "PM-A011"} in
 * let confirmation = {risk: "EFFECT", target: "PM-A011"} in                      # if one exists
 * let memory = if call.target == confirmation.target && call.risk == confirmation.risk
 *              then endorse ["USER_CONFIRMED"] memory else memory in
 * if REQ ? memory then (let _ = assert REQ memory in "call send_money(PM-A011)")
 * else "ask: confirm send_money(PM-A011)"
 * ```
 *
 * Observations are values labelled by their source's trust; consolidation is a quarantined `recv` over
 * them (the response runs at pc = the conversation's label, the least trust of everything sent); the
 * gate is an `assert` of the risk's policy label `REQ` at the tool, guarded by a label test so that a
 * denial is a visible "ask" rather than missing mass; a confirmation is an `endorse` on the branch where
 * the call's target and risk equal the confirmed ones.
 */
import type { Expr } from '../../syntax/ast.ts';
import * as A from '../../syntax/ast.ts';
import { ONE } from '../../distributions/rational.ts';
import { ifThenElse, letIn, logicalAnd, binop } from '../../syntax/helpers.ts';
import { absurd } from '../../util/absurd.ts';
import { ppmfLabel, type PpmfLabel } from '../../lattice/instances.ts';
import type { Conversation, Final } from '../../semantics/config.ts';
import { plainToExpr, type Side } from '../../generators/programs.ts';
import { holeNode } from '../../generators/hole.ts';
import type { PairCase, SingleCase } from '../../generators/pairs.ts';
import {
  BRIDGE_LATTICE, askText, callText, contextLabel, isHighObservation, observerOf, requiredLabel, trustLabel,
  type BridgeScenario, type Observation,
} from './scenario.ts';

/**
 * How the bridge writes the gate and the confirmation. The reference encoding is the one argued for in
 * the docs; the others are deliberately weaker, to show what each piece is for.
 */
export interface Encoding {
  /**
   * `bound`: endorse only when the call's target and risk equal the confirmation's (the reference).
   * `unbound`: endorse whenever some confirmation exists (the "unrelated confirmation upgrades" bug).
   */
  readonly binding: 'bound' | 'unbound';
  /**
   * `test-then-assert`: `if REQ ? memory then (assert …; call) else ask` (the reference).
   * `assert-only`: `assert REQ memory; call`, where a denial is a stuck run: missing mass, which TIPNI
   * cannot tell from a mass-1 run (docs).
   */
  readonly gate: 'test-then-assert' | 'assert-only';
}

/** The reference encoding. */
export const REFERENCE_ENCODING: Encoding = { binding: 'bound', gate: 'test-then-assert' };

/** The trust a confirmation endorses to: the user confirmed this call. */
export const CONFIRMATION_TRUST = 'USER_CONFIRMED' as const;

/** A label as a literal expression (the operand of `?`, `assert`, `endorse`). */
function labelLit(l: PpmfLabel): Expr<PpmfLabel> {
  return plainToExpr(BRIDGE_LATTICE.fromLabel(l));
}

/** `{name1: "v1", …}` of platform strings. */
function stringRecord(fields: readonly (readonly [string, string])[]): Expr<PpmfLabel> {
  return A.record(fields.map(([name, s]) => ({ name, expr: A.str(s) })));
}

/** How an observation's content is written: one side's text, or a pair hole (high observations only). */
type ObservationForm = { readonly kind: 'side'; readonly side: Side } | { readonly kind: 'hole' };

/** `l:"text"`, or the pair hole `l:(prim "__hole" ["text0", "text1"])` when the observation is high. */
function observationExpr(s: BridgeScenario, o: Observation, form: ObservationForm): Expr<PpmfLabel> {
  const l = trustLabel(o.trust);
  if (!isHighObservation(s, o)) return A.labelled(l, A.str(o.texts[0]));
  switch (form.kind) {
    case 'side': return A.labelled(l, A.str(o.texts[form.side]));
    case 'hole': return holeNode(l, A.str(o.texts[0]), A.str(o.texts[1]));
    default: return absurd(form);
  }
}

/** `(fork (let _ = clear in let _ = send o1 in … in recv)).[1]`: the writer's memory, quarantined. */
function consolidationExpr(s: BridgeScenario, form: ObservationForm): Expr<PpmfLabel> {
  let body: Expr<PpmfLabel> = A.recv;
  for (const o of [...s.observations].reverse()) body = letIn('_', A.send(observationExpr(s, o, form)), body);
  return A.index(A.fork(letIn('_', A.clear, body)), A.num(ONE));
}

/** The gate at the tool, reading the variable `memory`. */
function gateExpr(s: BridgeScenario, enc: Encoding): Expr<PpmfLabel> {
  const req = requiredLabel(s.risk);
  const memory = A.v('memory');
  const allowed = letIn('_', A.assert(labelLit(req), memory), A.str(callText(s)));
  switch (enc.gate) {
    case 'test-then-assert': return ifThenElse(A.test(labelLit(req), memory), allowed, A.str(askText(s)));
    case 'assert-only': return allowed;
    default: return absurd(enc.gate);
  }
}

/** `memory` after a confirmation: endorsed to the confirmation's trust only when the call is the confirmed one. */
function confirmedMemory(enc: Encoding): Expr<PpmfLabel> {
  const memory: Expr<PpmfLabel> = A.v('memory');
  const endorsed: Expr<PpmfLabel> = A.endorse(labelLit(ppmfLabel(CONFIRMATION_TRUST)), memory);
  const sameCall: Expr<PpmfLabel> = logicalAnd<PpmfLabel>(
    binop('==', A.field(A.v('call'), 'target'), A.field(A.v('confirmation'), 'target')),
    binop('==', A.field(A.v('call'), 'risk'), A.field(A.v('confirmation'), 'risk')),
  );
  switch (enc.binding) {
    case 'bound': return ifThenElse(sameCall, endorsed, memory);
    case 'unbound': return endorsed;
    default: return absurd(enc.binding);
  }
}

/** Task B after consolidation: the call, the confirmation (if the platform has one), the gate. */
function taskB(s: BridgeScenario, enc: Encoding): Expr<PpmfLabel> {
  const gate = gateExpr(s, enc);
  const c = s.confirmation;
  const afterCall: Expr<PpmfLabel> = c === null
    ? gate
    : letIn('confirmation', stringRecord([['risk', c.risk], ['target', c.target]]), letIn('memory', confirmedMemory(enc), gate));
  return letIn('call', stringRecord([['tool', s.tool], ['risk', s.risk], ['target', s.target]]), afterCall);
}

/** The program with observations written in `form`. */
function programWith(s: BridgeScenario, enc: Encoding, form: ObservationForm): Expr<PpmfLabel> {
  return letIn('memory', consolidationExpr(s, form), taskB(s, enc));
}

/** The whole scenario as one closed program (side 0's texts unless told otherwise). */
export function memoryProgram(s: BridgeScenario, enc: Encoding = REFERENCE_ENCODING, side: Side = 0): Expr<PpmfLabel> {
  return programWith(s, enc, { kind: 'side', side });
}

/** Consolidation alone: the program whose value is the memory (non-amplification reads its label). */
export function consolidationProgram(s: BridgeScenario, side: Side = 0): Expr<PpmfLabel> {
  return consolidationExpr(s, { kind: 'side', side });
}

/** Task B's starting conversation: empty, labelled by the context. */
export function startConversation(s: BridgeScenario): Conversation<PpmfLabel> {
  return { label: contextLabel(s), messages: [] };
}

/** The messages the writer has seen when it answers (one side's texts, in order). */
export function writerMessages(s: BridgeScenario, side: Side): readonly string[] {
  return s.observations.map((o) => (isHighObservation(s, o) ? o.texts[side] : o.texts[0]));
}

/** A single-run case (the shape of the Confinement suite) for a program of the scenario. */
export function singleCaseOf(s: BridgeScenario, expr: Expr<PpmfLabel>): SingleCase<PpmfLabel> {
  return { pc: contextLabel(s), expr, conv: startConversation(s), model: s.writer, fuel: s.fuel };
}

/**
 * Named variables → the generators' `#k` references (k = position of the binder in scope, outermost
 * first, `_` binders not counted), so that `resolve` (which renames binders) yields the same program.
 */
export function toSkeleton<L>(e: Expr<L>): Expr<L> {
  const go = (e: Expr<L>, scope: readonly string[]): Expr<L> => {
    switch (e.kind) {
      case 'var': {
        const k = scope.lastIndexOf(e.name);
        if (k < 0) throw new Error(`internal error: toSkeleton on an open term (${e.name})`);
        return A.v(`#${k}`);
      }
      case 'lam': return A.lam(e.param, go(e.body, e.param === '_' ? scope : [...scope, e.param]));
      case 'app': return A.app(go(e.fn, scope), go(e.arg, scope));
      case 'send': return A.send(go(e.arg, scope));
      case 'recv': case 'clear': case 'num': case 'str': case 'bool': case 'null': return e;
      case 'fork': return A.fork(go(e.body, scope));
      case 'label': return A.labelled(e.label, go(e.body, scope));
      case 'dynlabel': return A.dynlabel(go(e.label, scope), go(e.body, scope));
      case 'test': return A.test(go(e.label, scope), go(e.body, scope));
      case 'assert': return A.assert(go(e.label, scope), go(e.body, scope));
      case 'endorse': return A.endorse(go(e.label, scope), go(e.body, scope));
      case 'prim': return A.prim(e.name, go(e.arg, scope));
      case 'record': return A.record(e.fields.map((f) => ({ name: f.name, expr: go(f.expr, scope) })));
      case 'array': return A.array(e.elems.map((x) => go(x, scope)));
      case 'field': return A.field(go(e.target, scope), e.name);
      case 'index': return A.index(go(e.target, scope), go(e.index, scope));
      default: return absurd(e);
    }
  };
  return go(e, []);
}

const pairCache = new WeakMap<BridgeScenario, Map<string, PairCase<PpmfLabel>>>();

/**
 * The TIPNI pair of a scenario: one skeleton whose high holes are the untrusted observations' texts, the
 * integrity observer `⟨REQ, ⊤⟩`, the context's pc. Cached per scenario and encoding, so that a suite's
 * `stats` and `check` share `evalPair`'s cache.
 */
export function pairCaseOf(s: BridgeScenario, enc: Encoding = REFERENCE_ENCODING): PairCase<PpmfLabel> {
  const key = `${enc.binding}/${enc.gate}`;
  let per = pairCache.get(s);
  if (!per) { per = new Map(); pairCache.set(s, per); }
  const hit = per.get(key);
  if (hit) return hit;
  const c: PairCase<PpmfLabel> = {
    obs: observerOf(s),
    pc: contextLabel(s),
    skeleton: toSkeleton(programWith(s, enc, { kind: 'hole' })),
    conv: { label: contextLabel(s), messages0: [], messages1: [] },
    model: s.writer,
    fuel: s.fuel,
  };
  per.set(key, c);
  return c;
}

/** The gate's answer in a final configuration. */
export type Decision = 'call' | 'ask' | 'other';

/** Classify a final value: the call string, the ask string, or anything else (a bug in the encoding). */
export function decisionOf(s: BridgeScenario, f: Final<PpmfLabel>): Decision {
  const b = f.value.body;
  if (b.kind !== 'str') return 'other';
  return b.value === callText(s) ? 'call' : b.value === askText(s) ? 'ask' : 'other';
}
