/**
 * Fail-closed monotonicity: removing or corrupting any platform field (a source's channel,
 * confirmation or inputs; a memory's source, trust, history, risk tags or external flag; a
 * confirmation entry's principal, target, risk or scope) never turns a deny into an allow. Checked at
 * the gate: corruption changes no content, so it changes neither retrieval nor the proposal.
 */
import fc from 'fast-check';
import type { PropertySuite } from '../src/runner/suite.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import { arbCorruptions, arbScenario } from '../src/ppmf/generators.ts';
import { showDecision } from '../src/ppmf/gate.ts';
import type { Branch, Corruption, Scenario } from '../src/ppmf/scenario.ts';
import { runBranch } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { story } from './ppmf-truth.ts';

/** A clean scenario and the corruptions to apply. */
export interface CorruptionCase {
  readonly scenario: Scenario;
  readonly corruptions: readonly Corruption[];
}

function corrupted(c: CorruptionCase): Scenario {
  return { ...c.scenario, corruptions: c.corruptions };
}

function firstFlip(c: CorruptionCase, ctx: PpmfCtx): { before: Branch; after: Branch } | undefined {
  const bad = corrupted(c);
  for (const r of c.scenario.writer.responses) {
    const before = runBranch(ctx.system, c.scenario, r.rewrite, r.weight);
    const after = runBranch(ctx.system, bad, r.rewrite, r.weight);
    if (after.decision.decision === 'allow' && before.decision.decision !== 'allow') return { before, after };
  }
  return undefined;
}

/** The fail-closed suite. */
export const ppmfFailClosed: PropertySuite<CorruptionCase, PpmfCtx> = {
  name: 'ppmf-fail-closed',
  caseKind: 'ppmf-corruptions',
  title: 'PPMF fail-closed monotonicity: removing or corrupting an authority field never turns a deny into an allow',
  arbitrary: () => fc.record({ scenario: arbScenario, corruptions: arbCorruptions }),
  check: (c, ctx) => {
    const f = firstFlip(c, ctx);
    return f === undefined ? HOLDS : fails(`clean: ${showDecision(f.before.decision)}; corrupted: ${showDecision(f.after.decision)}`);
  },
  show: (c, ctx) => {
    const f = firstFlip(c, ctx);
    return story(ctx, corrupted(c), f?.after, f === undefined ? [] : [`With intact metadata: ${showDecision(f.before.decision)}. After corruption:`]);
  },
  stats: (c) => ({
    'corrupts a memory': c.corruptions.some((x) => x.where === 'memory'),
    'corrupts a source': c.corruptions.some((x) => x.where === 'source'),
    'corrupts a confirmation': c.corruptions.some((x) => x.where === 'confirmation') && c.scenario.log.entries.length > 0,
  }),
  thresholds: { 'corrupts a memory': 0.2, 'corrupts a source': 0.2, 'corrupts a confirmation': 0.05 },
};
