/**
 * Theorem 3 as a property of the target adapter (issue 13): the reference semantics wrapped as a target
 * (`referenceTarget`, every request and result through the JSON codec) and enumerated through the oracle
 * has exactly the distribution `⟦·⟧` of `evaluate`: the same finals with the same fractions, the same
 * stuck, out-of-fuel and model-withheld mass. Where the enumeration hit its run budget, the enumerated
 * finals must still be below `⟦·⟧` pointwise (counted by the `exhausted` statistic).
 */
import * as Q from '../src/distributions/rational.ts';
import { equals, leq, show as showDist } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type PropertySuite } from '../src/runner/suite.ts';
import { singleArb, type SingleCase } from '../src/generators/pairs.ts';
import { runSingle, showSingle, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { modelOf } from '../src/generators/models.ts';
import { enumerateSync, lostKey, lostMass, type TargetDistribution } from '../src/targets/enumerate.ts';
import { referenceTarget } from '../src/targets/reference.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import type { Target } from '../src/targets/target.ts';

const targets = new WeakMap<object, Target<unknown>>();
const enumerated = new WeakMap<object, TargetDistribution<unknown>>();

/** The enumerated distribution of a case, once per case object (`check` and `stats` share it). */
function enumerateCase(c: SingleCase<unknown>, lat: Lattice<unknown>): TargetDistribution<unknown> {
  let t = targets.get(lat);
  if (!t) { t = referenceTarget(lat, { wire: true }); targets.set(lat, t); }
  let d = enumerated.get(c);
  if (!d) { d = enumerateSync(t, modelOf(c.model), c.pc, c.conv, c.expr, c.fuel, { maxRuns: 2000 }); enumerated.set(c, d); }
  return d;
}

const exhausted = (d: TargetDistribution<unknown>): boolean => d.missing.every((m) => m.lost.kind === 'stuck' || m.lost.kind === 'fuel');

export const adapterTheorem3: PropertySuite<SingleCase<unknown>, LlmbdaCtx<unknown>> = {
  name: 'adapter-theorem3',
  caseKind: 'single',
  // Like Theorem 3, a comparison with the reference interpreter: only a differential check under a variant.
  needs: ['peval'],
  title: 'Theorem 3 through the target adapter: the reference as a target, enumerated, equals ⟦·⟧ exactly',
  arbitrary: (ctx) => singleArb({ lat: ctx.lat, endorse: true, subModels: true, profile: ctx.profile, ...(ctx.maxDepth ? { maxDepth: ctx.maxDepth } : {}) }),
  check: (c, ctx) => {
    const ev = runSingle(ctx, c);
    const td = enumerateCase(c, ctx.lat);
    if (!exhausted(td)) {
      return leq(td.finals, ev.finals) ? HOLDS : fails(`enumeration (partial: ${td.missing.map((m) => lostKey(m.lost)).join('; ')}) exceeds ⟦·⟧\n  evaluate:   ${showDist(ev.finals)}\n  enumerated: ${showDist(td.finals)}`);
    }
    if (!equals(ev.finals, td.finals)) return fails(`final distributions differ\n  evaluate:   ${showDist(ev.finals)}\n  enumerated: ${showDist(td.finals)}`);
    const evStuck = ev.missing.filter((m) => m.failure.kind === 'stuck').reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
    const evFuel = ev.missing.filter((m) => m.failure.kind === 'fuel').reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
    const tStuck = lostMass(td, ['stuck']), tFuel = lostMass(td, ['fuel']);
    if (!Q.eq(evStuck, tStuck) || !Q.eq(evFuel, tFuel) || !Q.eq(ev.modelDeficit, td.modelDeficit)) {
      return fails(`missing mass differs: evaluate stuck ${Q.show(evStuck)}, fuel ${Q.show(evFuel)}, model ${Q.show(ev.modelDeficit)}; ` +
        `enumerated stuck ${Q.show(tStuck)}, fuel ${Q.show(tFuel)}, model ${Q.show(td.modelDeficit)}`);
    }
    return HOLDS;
  },
  show: (c, ctx) => showSingle(ctx, c),
  stats: (c, ctx) => {
    const ev = runSingle(ctx, c);
    const td = enumerateCase(c, ctx.lat);
    return { 'positive mass': Q.lt(Q.ZERO, ev.mass), 'several outcomes': ev.finals.size > 1, 'model deficit': Q.lt(Q.ZERO, ev.modelDeficit), exhausted: exhausted(td) };
  },
  thresholds: { 'positive mass': 1 / 2, 'several outcomes': 0.05, exhausted: 0.95 },
};
