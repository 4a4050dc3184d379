/**
 * Lemma 12 (High-blindness): `IMaximal(m)` and related inputs ⟹ `⟦pc ⊢ C0,e0⟧♯ₘ = ⟦pc ⊢ C1,e1⟧♯ₘ`.
 */
import * as Q from '../src/distributions/rational.ts';
import { equals } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import type { PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair } from '../src/llmbda/pair-eval.ts';
import { observe } from '../src/observe/indist.ts';
import { showObserved } from '../src/llmbda/observed.ts';
import { skippingPairArb } from './stripping.ts';

export const highBlindness: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'high-blindness',
  caseKind: 'pair',
  title: 'Lemma 12 (High-blindness): related inputs give equal ⟦·⟧♯ₘ for I-maximal m',
  arbitrary: skippingPairArb,
  needs: ['skipping'],
  check: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c, true);
    const w0 = observe(ctx.lat, c.obs, e0.finals);
    const w1 = observe(ctx.lat, c.obs, e1.finals);
    return equals(w0, w1) ? HOLDS : fails(`⟦·⟧♯ₘ differs between the two runs\n${showObserved(w0, w1)}`);
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    return { 'raw outcomes differ': !equals(e0.finals, e1.finals), 'positive mass': Q.lt(Q.ZERO, e0.mass) && Q.lt(Q.ZERO, e1.mass) };
  },
  thresholds: { 'raw outcomes differ': 1 / 3, 'positive mass': 1 / 2 },
};
