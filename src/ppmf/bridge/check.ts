/**
 * The PPMF ↔ LLMbda bridge, part 4: what the bridge's property suites share — their context (the
 * theorem suites' `LlmbdaCtx` on the `ppmf` lattice, plus the encoding under test), evaluation of a
 * scenario's programs, and the story-shaped rendering of a counterexample.
 */
import * as Q from '../../distributions/rational.ts';
import { entries } from '../../distributions/subdist.ts';
import type { PpmfLabel } from '../../lattice/instances.ts';
import { referenceCtx, showPair, type LlmbdaCtx } from '../../llmbda/context.ts';
import { evaluate, type Evaluation } from '../../semantics/evaluate.ts';
import { failureKey } from '../../semantics/config.ts';
import type { Expr } from '../../syntax/ast.ts';
import { prettyPrint } from '../../syntax/printer.ts';
import { modelOf, showModelSpec } from '../../generators/models.ts';
import type { Side } from '../../generators/programs.ts';
import { UserError } from '../../util/absurd.ts';
import { variantSemantics, variantSkipping, type Variant } from '../../variants/variant.ts';
import { REQUIRED_TRUST } from '../policy.ts';
import {
  BRIDGE_LATTICE, isHighObservation, leastTrust, observerOf, requiredLabel, sameTargetConfirmation, contextLabel,
  type BridgeScenario,
} from './scenario.ts';
import { REFERENCE_ENCODING, decisionOf, memoryProgram, pairCaseOf, startConversation, writerMessages, type Decision, type Encoding } from './encode.ts';
import { describeResponse } from './generators.ts';

/** The bridge suites' context: an `LlmbdaCtx` on `ppmf`, plus the encoding of the gate and confirmations. */
export interface BridgeCtx extends LlmbdaCtx<PpmfLabel> {
  /** Default: the reference encoding. */
  readonly encoding?: Encoding;
}

/** The reference context: reference semantics, reference encoding. */
export function bridgeCtx(extra: Partial<BridgeCtx> = {}): BridgeCtx {
  return { ...referenceCtx(BRIDGE_LATTICE), ...extra };
}

/** The context under a variant semantics (its skipping rules replaced too, as `llmbda check` does). */
export function bridgeVariantCtx(v: Variant, extra: Partial<BridgeCtx> = {}): BridgeCtx {
  return bridgeCtx({ semantics: variantSemantics(v), skipping: variantSkipping(v), ...extra });
}

/** The encoding in force. */
export function encodingOf(ctx: BridgeCtx): Encoding {
  return ctx.encoding ?? REFERENCE_ENCODING;
}

/** The bridge only makes sense on `ppmf`: say so instead of producing nonsense on another lattice. */
export function requirePpmf(ctx: LlmbdaCtx<unknown>): void {
  if (ctx.lat.name !== BRIDGE_LATTICE.name) throw new UserError(`the ppmf-bridge suites run on the ppmf lattice only, not ${ctx.lat.name}`);
}

/** Default step budget per evaluation (generous: bridge programs are small; runaway writers are discarded). */
export const BRIDGE_STEP_BUDGET = 50_000;

/** `⟦pc ⊢ C, e⟧` for one of the scenario's programs, from task B's context, under the context's semantics. */
export function evalScenario(ctx: BridgeCtx, s: BridgeScenario, expr: Expr<PpmfLabel>): Evaluation<PpmfLabel> {
  return evaluate(modelOf(s.writer), BRIDGE_LATTICE, contextLabel(s), startConversation(s), expr, s.fuel,
    { semantics: ctx.semantics, maxSteps: ctx.maxSteps ?? BRIDGE_STEP_BUDGET });
}

/** The probability of each decision, and the missing mass. */
export interface DecisionDist {
  readonly call: Q.Rational;
  readonly ask: Q.Rational;
  readonly other: Q.Rational;
  readonly missing: Q.Rational;
}

/** Push an evaluation of the whole program forward to the gate's decisions. */
export function decisions(s: BridgeScenario, ev: Evaluation<PpmfLabel>): DecisionDist {
  const acc: Record<Decision, Q.Rational> = { call: Q.ZERO, ask: Q.ZERO, other: Q.ZERO };
  for (const [f, w] of entries(ev.finals)) { const d = decisionOf(s, f); acc[d] = Q.add(acc[d], w); }
  return { ...acc, missing: Q.sub(Q.ONE, ev.mass) };
}

/** The decisions of the scenario's whole program under the context. */
export function scenarioDecisions(ctx: BridgeCtx, s: BridgeScenario): DecisionDist {
  return decisions(s, evalScenario(ctx, s, memoryProgram(s, encodingOf(ctx))));
}

/** `call 1, ask 0, …` plus where missing mass went. */
export function showDecisions(d: DecisionDist, ev?: Evaluation<PpmfLabel>): string {
  const parts = [`call ${Q.show(d.call)}`, `ask ${Q.show(d.ask)}`];
  if (!Q.isZero(d.other)) parts.push(`other ${Q.show(d.other)}`);
  if (!Q.isZero(d.missing)) {
    const why = ev?.missing.map((m) => `${Q.show(m.weight)} ${failureKey(m.failure)}`).join('; ');
    parts.push(`missing ${Q.show(d.missing)}${why ? ` (${why})` : ''}`);
  }
  return parts.join(', ');
}

/** The writer's first answer to one side's observations, with what each response does. */
function showWriterAnswer(s: BridgeScenario, side: Side): string {
  const dist = modelOf(s.writer).weight(writerMessages(s, side));
  if (dist.length === 0) return '(no answer)';
  return dist.map(([r, w]) => `${r}${describeResponse(r) ? `  — ${describeResponse(r)}` : ''}  (probability ${Q.show(w)})`).join('\n      ');
}

/**
 * The scenario as the paper tells it: task A's sources and what the writer made of them, task B's call,
 * the confirmation, the requirement. With `pair`, the high texts and writer answers of both runs.
 */
export function showStory(s: BridgeScenario, pair = false): string {
  const lines: string[] = [];
  lines.push(`Task A (consolidation), writer ${showModelSpec(s.writer)}:`);
  s.observations.forEach((o, i) => {
    const alt = pair && isHighObservation(s, o) ? `   | run 1: ${JSON.stringify(o.texts[1])}` : '';
    lines.push(`  ${i + 1}. ${o.channel} (${o.trust}): ${JSON.stringify(o.texts[0])}${alt}`);
  });
  lines.push(`  the writer answers${pair ? ' (run 0)' : ''}: ${showWriterAnswer(s, 0)}`);
  if (pair) lines.push(`  the writer answers (run 1): ${showWriterAnswer(s, 1)}`);
  lines.push(`Task B: proposed call ${s.tool}(${s.target}), risk ${s.risk}, requires ${REQUIRED_TRUST[s.risk]} (gate label ${BRIDGE_LATTICE.show(requiredLabel(s.risk))}); least trusted source${s.context === 'SYSTEM' ? '' : ' or context'}: ${leastTrust(s)}; context ${s.context}`);
  const c = s.confirmation;
  lines.push(`  confirmation: ${c === null ? 'none' : `${c.risk} on ${c.target} (${sameTargetConfirmation(s) ? 'same target and risk' : 'unrelated'})`}`);
  if (pair) lines.push(`  observer m = ${BRIDGE_LATTICE.show(observerOf(s))}`);
  return lines.join('\n');
}

/** A single-run counterexample: the story and the program. */
export function showScenario(ctx: BridgeCtx, s: BridgeScenario): string {
  return `${showStory(s)}\nprogram (fuel ${s.fuel}):\n  ${prettyPrint(memoryProgram(s, encodingOf(ctx)), BRIDGE_LATTICE)}`;
}

/** A pair counterexample: the story with both runs, and the pair as the TIPNI suite prints it. */
export function showScenarioPair(ctx: BridgeCtx, s: BridgeScenario): string {
  return `${showStory(s, true)}\n${showPair(ctx, pairCaseOf(s, encodingOf(ctx)))}`;
}
