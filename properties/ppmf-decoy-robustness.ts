/**
 * Decoy robustness: adding up to 20 same-domain decoy memories (trusted user memories naming other
 * targets) never turns a call that was not allowed into an allowed one. Decoys change what top-k
 * retrieval returns; the agent proposes the call only when a retrieved memory names its targets.
 */
import fc from 'fast-check';
import type { PropertySuite } from '../src/runner/suite.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import type { DecoySpec } from '../src/ppmf/generators.ts';
import { arbDecoySpec, arbScenario, decoysFor } from '../src/ppmf/generators.ts';
import { showDecision } from '../src/ppmf/gate.ts';
import type { Branch, Scenario } from '../src/ppmf/scenario.ts';
import { allowed, runBranch } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { story } from './ppmf-truth.ts';

/** A scenario (without decoys) and the decoys to add. */
export interface DecoyCase {
  readonly scenario: Scenario;
  readonly decoys: DecoySpec;
}

function withDecoys(c: DecoyCase): Scenario {
  return { ...c.scenario, decoys: decoysFor(c.scenario, c.decoys) };
}

function firstFlip(c: DecoyCase, ctx: PpmfCtx): { before: Branch; after: Branch } | undefined {
  const sd = withDecoys(c);
  for (const r of c.scenario.writer.responses) {
    const before = runBranch(ctx.system, c.scenario, r.rewrite, r.weight);
    const after = runBranch(ctx.system, sd, r.rewrite, r.weight);
    if (allowed(after) && !allowed(before)) return { before, after };
  }
  return undefined;
}

/** The decoy-robustness suite. */
export const ppmfDecoyRobustness: PropertySuite<DecoyCase, PpmfCtx> = {
  name: 'ppmf-decoy-robustness',
  caseKind: 'ppmf-decoys',
  title: 'PPMF decoy robustness: adding ≤ 20 same-domain decoys never turns a deny into an allow',
  arbitrary: () => fc.record({ scenario: arbScenario, decoys: arbDecoySpec }),
  check: (c, ctx) => {
    const f = firstFlip(c, ctx);
    return f === undefined ? HOLDS : fails(`without decoys: ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}; with ${c.decoys.count} decoys: ${showDecision(f.after.decision)}`);
  },
  show: (c, ctx) => {
    const f = firstFlip(c, ctx);
    const before = f === undefined ? '' : `Without decoys the call was ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}; with ${c.decoys.count} decoys:`;
    return story(ctx, withDecoys(c), f?.after, [before]);
  },
  stats: (c, ctx) => {
    const sd = withDecoys(c);
    const r = c.scenario.writer.responses[0];
    const after = r === undefined ? undefined : runBranch(ctx.system, sd, r.rewrite, r.weight);
    return {
      'has decoys': c.decoys.count > 0,
      'a decoy is retrieved': after !== undefined && after.retrieved.some((m) => m.id.startsWith('decoy-')),
      'attack scenario': c.scenario.kind === 'attack',
    };
  },
  thresholds: { 'has decoys': 0.5, 'a decoy is retrieved': 0.3 },
};
