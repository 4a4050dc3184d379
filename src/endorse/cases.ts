/**
 * Generated cases for the constrained-endorse suites (properties/endorse-*.ts): small contexts written
 * as LLMbda source over named inputs (correct by construction: every construct is parenthesised, so any
 * combination parses), run on `powerset-use` under a model whose prelude is the one under test.
 */
import fc from 'fast-check';
import * as Q from '../distributions/rational.ts';
import { powersetUSE, type USELabel } from '../lattice/instances.ts';
import { standardModel } from '../semantics/models/index.ts';
import type { PModel } from '../semantics/model.ts';
import { evaluate, type Evaluation } from '../semantics/evaluate.ts';
import { closeProgram, loadPrelude } from '../semantics/prelude.ts';
import { parse } from '../syntax/parser.ts';
import { preludeSourceOf } from './variants.ts';

/** The context the endorse suites run in: which prelude (reference or a prelude variant). */
export interface EndorseCtx {
  /** `reference` or a prelude variant's name (src/endorse/variants.ts). */
  readonly prelude: string;
}

/** The models the cases run under: `echo` (responses are the sent values, parsed back) or a fair coin. */
export type ModelName = 'echo' | 'coin';

/** A model with the context's prelude. */
export function modelFor(ctx: EndorseCtx, m: ModelName): PModel {
  const preludeSource = preludeSourceOf(ctx.prelude);
  return m === 'echo'
    ? standardModel(`echo (prelude ${ctx.prelude})`, (c) => [[c.length === 0 ? '' : c[c.length - 1]!, Q.ONE]], { deterministic: true, preludeSource })
    : standardModel(`coin:1/2 (prelude ${ctx.prelude})`, () => [['1', Q.rat(1, 2)], ['0', Q.rat(1, 2)]], { preludeSource });
}

/** A context term over `vars`: arithmetic, arrays, branches, conversations, label tests, optionally robust_endorse. */
export function contextArb(vars: readonly string[], withRobust: boolean): fc.Arbitrary<string> {
  return fc.letrec<{ t: string }>((tie) => {
    const t = tie('t');
    const forms: fc.Arbitrary<string>[] = [
      fc.constantFrom(...vars),
      fc.constantFrom(...vars),
      fc.integer({ min: 0, max: 3 }).map(String),
      fc.tuple(t, t).map(([a, b]) => `(${a} + ${b})`),
      fc.tuple(t, t).map(([a, b]) => `[${a}, ${b}]`),
      fc.tuple(t, t, t, t).map(([a, b, c, d]) => `(if ${a} == ${b} then ${c} else ${d})`),
      fc.tuple(t, t).map(([a, b]) => `(let _ = send ${a} in ${b})`),
      t.map((a) => `((@${a}).[1])`),
      t.map((a) => `(fork ${a})`),
      t.map((a) => `(["U","S"] ? ${a})`),
      t.map((a) => `(${a}.[0])`),
    ];
    if (withRobust) forms.push(t.map((a) => `(robust_endorse ${a})`));
    return { t: fc.oneof({ depthSize: 'small', maxDepth: 4, withCrossShrink: true }, ...forms) };
  }).t;
}

/** Evaluate a source program on powerset-use from `⊥:[]` at pc ⊥. */
export function runSource(ctx: EndorseCtx, model: ModelName, source: string, fuel = 120): Evaluation<USELabel> {
  const lat = powersetUSE;
  const m = modelFor(ctx, model);
  const prelude = loadPrelude(lat, m.preludeSource);
  const e = closeProgram(parse(source, lat, { file: 'endorse case' }), prelude);
  return evaluate(m, lat, lat.bottom, { label: lat.bottom, messages: [] }, e, fuel, { prelude, maxSteps: 200_000 });
}
