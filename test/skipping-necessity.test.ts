/**
 * Spec §7 claims every check the m-skipping semantics drops is necessary: restoring any one of them breaks
 * Stripping (Lemma 11) or High-blindness (Lemma 12). For each dropped check we restore the reference
 * rule inside ⇓♯ and show a suite catches it, on the lattice where the check matters (Send and Clear
 * checks are unfalsifiable on total orders: pc ⊑ m ⊏ lc implies pc ⊑ lc).
 */
import { describe, expect, it } from 'vitest';
import { runSuite } from '../src/runner/suite.ts';
import { llmbdaSuiteByName } from '../src/api/registry.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { SKIPPING, SKIPPING_RULES } from '../src/skipping/skipping.ts';
import { REFERENCE_RULES } from '../src/semantics/rules.ts';
import type { RuleTable } from '../src/semantics/rules-types.ts';

const CASES: readonly [keyof RuleTable, string, 'stripping' | 'high-blindness'][] = [
  ['App', 'powerset-us', 'stripping'],
  ['Prim', 'two-point', 'stripping'],
  ['Recv', 'powerset-us', 'high-blindness'],
  ['Send', 'powerset-us', 'high-blindness'],
  ['Clear', 'powerset-us', 'high-blindness'],
  ['LabelAssert', 'chain(3)', 'high-blindness'],
];

describe('Spec §7: each check dropped by ⇓♯ is necessary', () => {
  for (const [rule, lattice, suite] of CASES) {
    it(`restoring the reference ${rule} inside ⇓♯ breaks ${suite} on ${lattice}`, () => {
      const skipping = { ...SKIPPING, rules: { ...SKIPPING_RULES, [rule]: REFERENCE_RULES[rule] } };
      const v = runSuite(llmbdaSuiteByName(suite)!, referenceCtx(latticeByName(lattice)!, { skipping }), { runs: 3000, seed: 3 });
      expect(v.counterexample, `${suite} should catch a restored ${rule}`).toBeDefined();
    });
  }
});
