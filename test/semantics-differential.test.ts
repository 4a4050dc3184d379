/**
 * Differential test of the executable spec: on a fixed sample of generated programs per shipped lattice,
 * the substitution evaluator (`ev.ts` + `rules.ts` + `decisions.ts`) must give exactly what two
 * independent implementations give — evaluator v2 (`src/semantics/v2/`, its own rule code, no
 * rules.ts/decisions.ts) and `peval` (an oracle-driven interpreter sharing only the syntax helpers, the
 * lattice and the model). Every final configuration with its exact weight, every stuck reason's mass,
 * the out-of-fuel mass. This is the cheapest strong judge of a change to the rule code, which is why
 * the mutation run (vitest.mutation.config.ts) runs it first; it also runs in `npm test`.
 *
 * It can fail: the same comparison against a catalogue variant run on the substitution side (the two
 * independent implementations run the reference) reports a difference on this very sample.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { equals, show as showDist } from '../src/distributions/subdist.ts';
import { singleArb, type SingleCase } from '../src/generators/pairs.ts';
import { modelOf } from '../src/generators/models.ts';
import { prettyPrint } from '../src/syntax/printer.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { pevalDistribution } from '../src/semantics/oracle-tree.ts';
import { failureKey } from '../src/semantics/config.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import type { Lattice } from '../src/lattice/lattice.ts';
import { CASE_STEP_BUDGET } from '../src/llmbda/context.ts';
import { BudgetExceeded } from '../src/semantics/errors.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';

/** Programs per lattice (`LLMBDA_DIFFERENTIAL_RUNS` to change; the sample is fixed by the seed). */
const RUNS = Number(process.env['LLMBDA_DIFFERENTIAL_RUNS'] ?? 200);
const SEED = 20261201;

/** Does the substitution evaluator finish the case within the suites' step budget? */
function withinBudget<L>(lat: Lattice<L>, c: SingleCase<L>): boolean {
  try {
    evaluate(modelOf(c.model), lat, c.pc, c.conv, c.expr, c.fuel, { engine: 'substitution', maxSteps: CASE_STEP_BUDGET });
    return true;
  } catch (e) {
    if (e instanceof BudgetExceeded) return false;
    throw e;
  }
}

/**
 * The fixed sample of generated cases on a lattice, without the few over the step budget (the suites
 * discard those too; `the sample is not vacuous` bounds how many).
 */
function sample<L>(lat: Lattice<L>): readonly SingleCase<L>[] {
  return rawSample(lat).filter((c) => withinBudget(lat, c));
}
function rawSample<L>(lat: Lattice<L>): readonly SingleCase<L>[] {
  return fc.sample(singleArb({ lat, endorse: true }), { numRuns: RUNS, seed: SEED });
}

/** Missing mass as `failureKey ↦ weight` text, in key order (stuck rule and reason, out of fuel). */
function missingText<L>(e: Evaluation<L>, kinds: readonly string[] = ['stuck', 'fuel']): string {
  const m = new Map<string, Q.Rational>();
  for (const x of e.missing) {
    if (!kinds.includes(x.failure.kind)) continue;
    const k = failureKey(x.failure);
    m.set(k, Q.add(m.get(k) ?? Q.ZERO, x.weight));
  }
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, w]) => `${k} ↦ ${Q.show(w)}`).join('; ');
}

const massOf = <L>(e: Evaluation<L>, kind: string): Q.Rational =>
  e.missing.filter((m) => m.failure.kind === kind).reduce((a, m) => Q.add(a, m.weight), Q.ZERO);

/**
 * How the substitution evaluator (under `semantics`, the reference by default) differs from v2 and from
 * peval on one case, or `undefined` when all three agree exactly.
 */
function difference<L>(lat: Lattice<L>, c: SingleCase<L>, semantics?: Semantics): string | undefined {
  const model = modelOf(c.model);
  const spec = evaluate(model, lat, c.pc, c.conv, c.expr, c.fuel, { engine: 'substitution', maxSteps: CASE_STEP_BUDGET, ...(semantics ? { semantics } : {}) });
  const v2 = evaluateV2(model, lat, c.pc, c.conv, c.expr, c.fuel, { maxSteps: 4 * CASE_STEP_BUDGET });
  const where = `pc ${lat.show(c.pc)}, conv ${lat.show(c.conv.label)}:${JSON.stringify(c.conv.messages)}, fuel ${c.fuel}: ${prettyPrint(c.expr, lat)}`;
  if (!equals(spec.finals, v2.finals)) return `${where}\n  finals: substitution ${showDist(spec.finals)}\n          v2           ${showDist(v2.finals)}`;
  if (missingText(spec) !== missingText(v2)) return `${where}\n  missing: substitution ${missingText(spec)}\n           v2           ${missingText(v2)}`;
  if (!Q.eq(spec.modelDeficit, v2.modelDeficit)) return `${where}\n  model deficit: ${Q.show(spec.modelDeficit)} vs v2 ${Q.show(v2.modelDeficit)}`;
  const pv = pevalDistribution(model, lat, c.pc, c.conv, c.expr, c.fuel);
  if (pv === undefined) return undefined; // too many oracle paths: v2 alone judged this case
  if (!equals(spec.finals, pv.finals)) return `${where}\n  finals: substitution ${showDist(spec.finals)}\n          peval        ${showDist(pv.finals)}`;
  if (!Q.eq(massOf(spec, 'stuck'), pv.stuck) || !Q.eq(massOf(spec, 'fuel'), pv.fuel)) {
    return `${where}\n  missing: substitution stuck ${Q.show(massOf(spec, 'stuck'))}, fuel ${Q.show(massOf(spec, 'fuel'))}; peval stuck ${Q.show(pv.stuck)}, fuel ${Q.show(pv.fuel)}`;
  }
  return undefined;
}

describe('the substitution evaluator agrees exactly with v2 and peval on generated programs', () => {
  for (const name of SHIPPED_LATTICES) {
    it(`on ${name} (${RUNS} programs, seed ${SEED})`, () => {
      const lat = latticeByName(name)!;
      for (const c of sample(lat)) {
        const d = difference(lat, c);
        if (d !== undefined) expect.fail(d);
      }
    });
  }

  it('the sample is not vacuous: it reaches successes, several outcomes, stuck and out-of-fuel runs', () => {
    const lat = latticeByName('powerset-us')!;
    let ok = 0, several = 0, stuck = 0, fuel = 0;
    for (const c of sample(lat)) {
      const e = evaluate(modelOf(c.model), lat, c.pc, c.conv, c.expr, c.fuel, { engine: 'substitution', maxSteps: CASE_STEP_BUDGET });
      if (Q.lt(Q.ZERO, e.mass)) ok++;
      if (e.finals.size > 1) several++;
      if (e.missing.some((m) => m.failure.kind === 'stuck')) stuck++;
      if (e.missing.some((m) => m.failure.kind === 'fuel')) fuel++;
    }
    expect(sample(lat).length).toBeGreaterThanOrEqual(RUNS * 0.98);
    expect(ok).toBeGreaterThan(RUNS * 0.4);
    expect(several).toBeGreaterThan(0);
    expect(stuck).toBeGreaterThan(0);
    expect(fuel).toBeGreaterThan(0);
  });

  it.each(['lam-bottom', 'app-at-pc', 'clear-to-bottom', 'field-drops-label'])('reports a difference for the catalogue variant %s on the substitution side', (variant) => {
    const lat = latticeByName('powerset-us')!;
    const semantics = variantSemantics(variantByName(variant)!);
    const found = sample(lat).map((c) => difference(lat, c, semantics)).find((d) => d !== undefined);
    expect(found).toBeDefined();
  });
});
