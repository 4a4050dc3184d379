/**
 * Lemma 3: for deterministic models (every `weight(c)` a point mass or empty), TIPNI(m) ⇔ TINI(m), where
 * TINI(m) says that when both runs terminate their final configurations are `∼m`-related. Both sides
 * are computed independently and must agree (and, on a sound semantics, both hold).
 */
import { entries } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { pairArb, type PairCase } from '../src/generators/pairs.ts';
import { showPair, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { evalPair, pairStats } from '../src/llmbda/pair-eval.ts';
import { classKey, compare, observe } from '../src/observe/indist.ts';

export const lemma3: PropertySuite<PairCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'lemma3',
  caseKind: 'pair',
  title: 'Lemma 3: for deterministic models, TIPNI(m) ⇔ TINI(m) (both checked)',
  arbitrary: (ctx) => pairArb({ lat: ctx.lat, endorse: !ctx.lat.factoring, deterministicModels: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const { e0, e1 } = evalPair(ctx, c);
    const f0 = entries(e0.finals), f1 = entries(e1.finals);
    if (f0.length > 1 || f1.length > 1) return fails(`a deterministic model produced ${Math.max(f0.length, f1.length)} outcomes`);
    const key = classKey(ctx.lat, c.obs);
    const tini = f0.length === 0 || f1.length === 0 || key(f0[0]![0]) === key(f1[0]![0]);
    const tipni = compare(observe(ctx.lat, c.obs, e0.finals), observe(ctx.lat, c.obs, e1.finals)).compatible;
    if (tini !== tipni) return fails(`TIPNI ${tipni ? 'holds' : 'fails'} but TINI ${tini ? 'holds' : 'fails'}`);
    if (!tini) return fails(`both runs terminate in distinguishable configurations:\n  run 0: ${key(f0[0]![0])}\n  run 1: ${key(f1[0]![0])}`);
    return HOLDS;
  },
  show: (c, ctx) => showPair(ctx, c),
  stats: (c, ctx) => pairStats(ctx, c),
  thresholds: { 'positive mass': 1 / 2 },
};
