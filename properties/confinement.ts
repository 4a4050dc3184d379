/**
 * Lemma 1 (Confinement): `pc ⊢ C,e ⇓ C',V` implies `pc ⊑ ℓ(V)` and
 * (`C' = C` or (`pc ⊑ ℓ(C)` and `pc ⊑ ℓ(C')`)), for every final configuration with positive weight.
 */
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { singleArb, type SingleCase } from '../src/generators/pairs.ts';
import { runSingle, showSingle, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { conversationKey, showConversation } from '../src/semantics/config.ts';
import { prettyPrint } from '../src/syntax/printer.ts';

export const confinement: PropertySuite<SingleCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'confinement',
  caseKind: 'single',
  title: 'Lemma 1 (Confinement): results are labelled at least pc; conversations change only at pc ⊑ their label',
  arbitrary: (ctx) => singleArb({ lat: ctx.lat, endorse: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const { lat } = ctx;
    const res = runSingle(ctx, c);
    const before = conversationKey(lat, c.conv);
    for (const [f, w] of entries(res.finals)) {
      if (!lat.leq(c.pc, f.value.label)) {
        return fails(`pc ${lat.show(c.pc)} does not flow to the result's label: ${prettyPrint(f.value, lat)} (probability ${Q.show(w)})`);
      }
      const same = conversationKey(lat, f.conv) === before;
      if (!same && !(lat.leq(c.pc, c.conv.label) && lat.leq(c.pc, f.conv.label))) {
        return fails(`the conversation changed under pc ${lat.show(c.pc)}: ${showConversation(lat, c.conv)} became ${showConversation(lat, f.conv)} (probability ${Q.show(w)})`);
      }
    }
    return HOLDS;
  },
  show: (c, ctx) => showSingle(ctx, c),
  stats: (c, ctx) => {
    const res = runSingle(ctx, c);
    return { 'positive mass': Q.lt(Q.ZERO, res.mass), 'pc above ⊥': !ctx.lat.equals(c.pc, ctx.lat.bottom) };
  },
  thresholds: { 'positive mass': 1 / 2 },
};
