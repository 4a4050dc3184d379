/**
 * Unrelated confirmation (gate rule 5): confirmations bound to another target, risk, principal or
 * scope — or a user-confirmed memory about another target, even one the call cites — never upgrade an
 * external-derived target: adding them to an attack scenario never turns "not allowed" into "allowed".
 */
import fc from 'fast-check';
import type { PropertySuite } from '../src/runner/suite.ts';
import { HOLDS, fails } from '../src/runner/suite.ts';
import type { UnrelatedSpec } from '../src/ppmf/generators.ts';
import { arbAttackScenario, arbUnrelatedSpec, withUnrelated } from '../src/ppmf/generators.ts';
import { showDecision } from '../src/ppmf/gate.ts';
import type { Branch, Scenario } from '../src/ppmf/scenario.ts';
import { allowed, runBranch } from '../src/ppmf/scenario.ts';
import type { PpmfCtx } from './ppmf-truth.ts';
import { story } from './ppmf-truth.ts';

/** An attack scenario and the unrelated authority to add. */
export interface UnrelatedCase {
  readonly scenario: Scenario;
  readonly unrelated: UnrelatedSpec;
}

function firstFlip(c: UnrelatedCase, ctx: PpmfCtx): { before: Branch; after: Branch } | undefined {
  const more = withUnrelated(c.scenario, c.unrelated);
  for (const r of c.scenario.writer.responses) {
    const before = runBranch(ctx.system, c.scenario, r.rewrite, r.weight);
    const after = runBranch(ctx.system, more, r.rewrite, r.weight);
    if (allowed(after) && !allowed(before)) return { before, after };
  }
  return undefined;
}

/** The unrelated-confirmation suite. */
export const ppmfUnrelatedConfirmation: PropertySuite<UnrelatedCase, PpmfCtx> = {
  name: 'ppmf-unrelated-confirmation',
  caseKind: 'ppmf-unrelated',
  title: 'PPMF rule 5: an unrelated confirmation or confirmed memory never upgrades an external-derived target',
  arbitrary: () => fc.record({ scenario: arbAttackScenario, unrelated: arbUnrelatedSpec }),
  check: (c, ctx) => {
    const f = firstFlip(c, ctx);
    return f === undefined ? HOLDS : fails(`before: ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}; with unrelated authority: ${showDecision(f.after.decision)}`);
  },
  show: (c, ctx) => {
    const f = firstFlip(c, ctx);
    const pre = f === undefined ? [] : [`Before adding unrelated authority: ${f.before.proposed ? showDecision(f.before.decision) : 'not proposed'}. After:`];
    return story(ctx, withUnrelated(c.scenario, c.unrelated), f?.after, pre);
  },
  stats: (c) => ({
    'adds events': c.unrelated.changes.length > 0,
    'adds a confirmed memory': c.unrelated.confirmedMemory !== 'none',
  }),
  thresholds: { 'adds events': 0.5, 'adds a confirmed memory': 0.3 },
};
