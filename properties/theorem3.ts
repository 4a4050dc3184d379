/**
 * Theorem 3 (Oracular correctness): for `IsDist(M)`, running the deterministic interpreter `peval` on an
 * oracle drawn from `μ_M` has exactly the outcome distribution `⟦·⟧` — checked outcome by outcome, as
 * fractions, by exploring every oracle path. The missing mass must also agree: stuck with stuck, out of
 * fuel with out of fuel.
 */
import * as Q from '../src/distributions/rational.ts';
import { equals, show as showDist } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { singleArb, type SingleCase } from '../src/generators/pairs.ts';
import { runSingle, showSingle, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { modelOf } from '../src/generators/models.ts';
import { pevalDistribution } from '../src/semantics/oracle-tree.ts';

const pevalCache = new WeakMap<object, ReturnType<typeof pevalDistribution> | null>();

/** The exact peval distribution of a case, computed once per case object (`check` and `stats` share it). */
function pevalOf(c: SingleCase<unknown>, ctx: LlmbdaCtx<unknown>) {
  if (!pevalCache.has(c)) pevalCache.set(c, pevalDistribution(modelOf(c.model), ctx.lat, c.pc, c.conv, c.expr, c.fuel) ?? null);
  return pevalCache.get(c) ?? undefined;
}

export const theorem3: PropertySuite<SingleCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'theorem3',
  caseKind: 'single',
  needs: ['peval'],
  title: 'Theorem 3 (Oracular correctness): peval under μ_M has exactly the distribution ⟦·⟧',
  arbitrary: (ctx) => singleArb({ lat: ctx.lat, endorse: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const ev = runSingle(ctx, c);
    const pv = pevalOf(c, ctx);
    if (!pv) return HOLDS; // too many oracle paths to enumerate: counted by the 'enumerated' statistic
    if (!equals(ev.finals, pv.finals)) {
      return fails(`final distributions differ\n  evaluate: ${showDist(ev.finals)}\n  peval:    ${showDist(pv.finals)}`);
    }
    const evStuck = ev.missing.filter((m) => m.failure.kind === 'stuck').reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
    const evFuel = ev.missing.filter((m) => m.failure.kind === 'fuel').reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
    if (!Q.eq(evStuck, pv.stuck) || !Q.eq(evFuel, pv.fuel)) {
      return fails(`missing mass differs: evaluate stuck ${Q.show(evStuck)}, fuel ${Q.show(evFuel)}; peval stuck ${Q.show(pv.stuck)}, fuel ${Q.show(pv.fuel)}`);
    }
    return HOLDS;
  },
  show: (c, ctx) => showSingle(ctx, c),
  stats: (c, ctx) => {
    const ev = runSingle(ctx, c);
    const enumerated = pevalOf(c, ctx) !== undefined;
    return { 'positive mass': Q.lt(Q.ZERO, ev.mass), 'several outcomes': ev.finals.size > 1, enumerated };
  },
  thresholds: { 'positive mass': 1 / 2, enumerated: 0.95 },
};
