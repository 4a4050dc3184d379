/**
 * The distribution of `peval`'s outcomes when its oracle is drawn from `μ_M` (Theorem 3), computed
 * exactly by exploring the tree of `recv` answers: each path is a sequence of answers, weighted by the
 * model's probability of each answer given the conversation at that point.
 */
import * as Q from '../distributions/rational.ts';
import { fromEntries, type SubDist } from '../distributions/subdist.ts';
import type { Expr } from '../syntax/ast.ts';
import type { Lattice } from '../lattice/lattice.ts';
import type { Conversation, Final } from './config.ts';
import type { PModel } from './model.ts';
import { peval } from './peval.ts';
import { loadPrelude } from './prelude.ts';
import { finalKey } from './evaluate.ts';

/** Unwinds `peval` when the run asks for an answer beyond the current path. */
class NeedAnswer {
  constructor(readonly messages: readonly string[]) {}
}

export interface OracleDistribution<L> {
  readonly finals: SubDist<Final<L>>;
  /** Mass of paths ending in a runtime error (stuck). */
  readonly stuck: Q.Rational;
  /** Mass of paths running out of fuel. */
  readonly fuel: Q.Rational;
  readonly paths: number;
}

/** Explore every oracle path (at most `maxPaths`; `undefined` when there are more). */
export function pevalDistribution<L>(
  model: PModel, lat: Lattice<L>, pc: L, conv: Conversation<L>, e: Expr<L>, fuel: number, maxPaths = 5000,
): OracleDistribution<L> | undefined {
  const prelude = loadPrelude(lat, model.preludeSource);
  const finals: [Final<L>, Q.Rational][] = [];
  let stuck = Q.ZERO, outOfFuel = Q.ZERO, paths = 0;
  const stack: { answers: readonly string[]; weight: Q.Rational }[] = [{ answers: [], weight: Q.ONE }];
  while (stack.length > 0) {
    const { answers, weight } = stack.pop()!;
    const oracle = (i: number, messages: readonly string[]): string => {
      if (i < answers.length) return answers[i]!;
      throw new NeedAnswer(messages);
    };
    try {
      const r = peval(model, lat, oracle, 0, fuel, pc, conv, e, prelude);
      if (++paths > maxPaths) return undefined;
      if (r.kind === 'ok') finals.push([{ conv: r.conv, value: r.value }, weight]);
      else if (r.kind === 'fuel') outOfFuel = Q.add(outOfFuel, weight);
      else stuck = Q.add(stuck, weight);
    } catch (x) {
      if (!(x instanceof NeedAnswer)) throw x;
      for (const [resp, p] of model.weight(x.messages)) {
        if (Q.lt(Q.ZERO, p)) stack.push({ answers: [...answers, resp], weight: Q.mul(weight, p) });
      }
    }
  }
  return { finals: fromEntries(finals, finalKey(lat)), stuck, fuel: outOfFuel, paths };
}
