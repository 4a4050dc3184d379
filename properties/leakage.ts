/**
 * Quantitative leakage on related runs (src/leakage, docs/leakage.md). A related pair is a two-secret
 * channel (the two high fillings, uniform prior) from the secret to the observer's `∼m` class, with
 * non-termination as one more observation `⊥`. TIPNI (`μ0 ⌣ μ1`) in bits:
 *
 *   capacity `Σ_o max_s C(s,o) ≤ 1 + max(div μ0, div μ1)`, so min-entropy leakage ≤ log2(1 + max div),
 *   and exactly 0 bits (all three measures) when both runs terminate with mass 1;
 *   Shannon leakage ≤ min-entropy capacity (Smith's ordering), checked as a sanity bound on the measures.
 *
 * The capacity bound is Lemma 5's quantitative reading: what leaks is paid for by divergence.
 */
import * as Q from '../src/distributions/rational.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair, pairStats } from '../src/llmbda/pair-eval.ts';
import { observe } from '../src/observe/indist.ts';
import { channelOfObservations } from '../src/leakage/channel.ts';
import { minEntropyLeakage, multiplicativeCapacity, shannonLeakage } from '../src/leakage/measures.ts';

function pairChannel(ctx: LlmbdaCtx<unknown>, c: PairCase<unknown>) {
  const { e0, e1 } = evalPair(ctx, c);
  const ch = channelOfObservations(['filling 0', 'filling 1'], [observe(ctx.lat, c.obs, e0.finals), observe(ctx.lat, c.obs, e1.finals)]);
  const div = Q.max(Q.sub(Q.ONE, e0.mass), Q.sub(Q.ONE, e1.mass));
  return { ch, div };
}

export const leakage: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'leakage',
  caseKind: 'pair',
  title: 'Leakage in bits: capacity ≤ log2(1 + max divergence) on related runs (0 bits when both terminate)',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: !ctx.lat.factoring, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const { ch, div } = pairChannel(ctx, c);
    const cap = multiplicativeCapacity(ch);
    const bound = Q.add(Q.ONE, div);
    if (Q.lt(bound, cap.sum)) {
      return fails(`capacity Σ_o max_s C(s,o) = ${Q.show(cap.sum)} exceeds 1 + max divergence = ${Q.show(bound)} (${cap.bits.toFixed(6)} bits leak)`);
    }
    const me = minEntropyLeakage(ch);
    if (Q.lt(cap.sum, me.ratio)) return fails(`min-entropy leakage ratio ${Q.show(me.ratio)} exceeds the capacity ${Q.show(cap.sum)}`);
    const sh = shannonLeakage(ch);
    if (sh > cap.bits + 1e-9) return fails(`Shannon leakage ${sh} exceeds the min-entropy capacity ${cap.bits}`);
    if (Q.isZero(div) && (sh !== 0 || !Q.eq(me.ratio, Q.ONE))) return fails(`both runs terminate, yet Shannon = ${sh}, min-entropy ratio = ${Q.show(me.ratio)}`);
    return HOLDS;
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => {
    const { ch, div } = pairChannel(ctx, c);
    return {
      ...pairStats(ctx, c),
      'some divergence': !Q.isZero(div),
      'positive bits (termination channel)': Q.lt(Q.ONE, multiplicativeCapacity(ch).sum),
    };
  },
  thresholds: { 'positive mass': 1 / 2 },
};
