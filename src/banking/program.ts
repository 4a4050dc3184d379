/**
 * Assembling and running a banking planner program: variant preludes (policy, endorse) + the tools +
 * the task's program, closed over the standard prelude and the labelled world; evaluated exactly under
 * a Q-LLM model. The final value is `{w, answer}`; the effects are `w.log`.
 */
import { readFileSync } from 'node:fs';
import type { Expr, PlainValue, Value } from '../syntax/ast.ts';
import { parse } from '../syntax/parser.ts';
import { stripValue } from '../syntax/helpers.ts';
import { powersetUS, US, type USLabel } from '../lattice/instances.ts';
import { closeProgram, loadPrelude } from '../semantics/prelude.ts';
import { evaluate, type Evaluation } from '../semantics/evaluate.ts';
import { emptyConversation } from '../semantics/config.ts';
import type { Semantics } from '../semantics/rules-types.ts';
import { STANDARD_PRELUDE_SOURCE } from '../semantics/prelude.ts';
import { qllmModel, type QllmSpec } from './qllm.ts';
import { worldExpr, type WorldData } from './world.ts';

/** The three deployments compared. */
export const VARIANTS = ['ifc-off', 'ifc-on-no-endorse', 'ifc-on-endorse'] as const;
export type Variant = (typeof VARIANTS)[number];

const text = (f: string): string => readFileSync(new URL(f, import.meta.url), 'utf8');
const POLICY = { on: text('./policy-on.lam'), off: text('./policy-off.lam') };
const ENDORSE = { on: text('./endorse-on.lam'), off: text('./endorse-off.lam') };
const TOOLS = text('./tools.lam');

/** The definitions a variant puts in front of every planner program. */
export function variantPrelude(v: Variant): string {
  switch (v) {
    case 'ifc-off': return `${POLICY.off}\n${ENDORSE.on}\n${TOOLS}`;
    case 'ifc-on-no-endorse': return `${POLICY.on}\n${ENDORSE.off}\n${TOOLS}`;
    case 'ifc-on-endorse': return `${POLICY.on}\n${ENDORSE.on}\n${TOOLS}`;
    default: return v satisfies never;
  }
}

/** Fuel (maximum derivation depth) for every banking run: ample for the shipped world. */
export const BANKING_FUEL = 4000;

const parsed = new Map<string, Expr<USLabel>>();

/** The planner program of a task under a variant, closed over the prelude and `world`. */
export function closedProgram(variant: Variant, programSource: string, file: string, world: WorldData): Expr<USLabel> {
  const key = `${variant}\u0000${file}\u0000${programSource}`;
  let e = parsed.get(key);
  if (!e) {
    e = parse(`${variantPrelude(variant)}\n${programSource}`, powersetUS, { file });
    parsed.set(key, e);
  }
  const prelude = new Map(loadPrelude(powersetUS, STANDARD_PRELUDE_SOURCE));
  prelude.set('world', worldExpr(world));
  return closeProgram(e, prelude, file);
}

/** Run a closed program exactly. */
export function runProgram(expr: Expr<USLabel>, qllm: QllmSpec, semantics?: Semantics): Evaluation<USLabel> {
  return evaluate(qllmModel(qllm), powersetUS, US.bottom, emptyConversation(powersetUS), expr, BANKING_FUEL, semantics ? { semantics } : {});
}

/** One effect the tools logged, label-free (what the bank executes: it does not see labels). */
export type Effect = Readonly<Record<string, PlainValue>>;

function field(v: PlainValue, name: string): PlainValue | undefined {
  return v.kind === 'record' ? v.fields.find((f) => f.name === name)?.expr : undefined;
}

/** The outcome of a run read off its final value `{w, answer}`: effects oldest first, the answer. */
export interface RunOutcome {
  readonly effects: readonly Effect[];
  readonly answer: PlainValue;
}

export function readOutcome(v: Value<USLabel>): RunOutcome | undefined {
  const plain = stripValue(v);
  const w = field(plain, 'w');
  const answer = field(plain, 'answer');
  if (!w || !answer) return undefined;
  const effects: Effect[] = [];
  for (let l = field(w, 'log'); l && field(l, 'nil')?.kind === 'bool' && !(field(l, 'nil') as { value: boolean }).value; l = field(l, 'tail')) {
    const h = field(l, 'head');
    if (!h || h.kind !== 'record') return undefined;
    effects.push(Object.fromEntries(h.fields.map((f) => [f.name, f.expr])));
  }
  return { effects: effects.reverse(), answer };
}
