/**
 * Ability to fail: every suite of `LLMBDA_SUITES`, run against a semantics broken in the way that suite
 * is meant to catch, finds a (shrunk) counterexample — a property violation, not a crash — and that
 * counterexample replays from its seed and path (the replay fails again on its very first case).
 * The shrunk counterexamples are quoted in docs/properties.md.
 */
import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { llmbdaSuiteByName, LLMBDA_SUITES } from '../src/api/registry.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx, type LlmbdaCtx } from '../src/llmbda/context.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { REFERENCE, REFERENCE_RULES } from '../src/semantics/rules.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';
import { SKIPPING, SKIPPING_RULES } from '../src/skipping/skipping.ts';
import type { Ev } from '../src/semantics/ev.ts';
import type { PairCase } from '../src/generators/pairs.ts';
import { HOLE } from '../src/generators/hole.ts';

const variant = (name: string): Semantics => variantSemantics(variantByName(name)!);

/** `l ⋢ m` for the skipping semantics' observer. */
const high = <L>(ev: Ev<L>, l: L): boolean => !ev.leq(l, ev.observer!);

/** Lemma 2's target: a Recv that doubles every response weight (mass can exceed 1). */
const RECV_DOUBLES: Semantics = {
  ...REFERENCE,
  name: 'recv-doubles',
  description: 'Recv multiplies every response weight by 2.',
  rules: { ...REFERENCE_RULES, Recv: (ev, pc, conv, e, fuel) => ev.sum([[Q.rat(2), REFERENCE_RULES.Recv(ev, pc, conv, e, fuel)]]) },
};

/** Stripping's target: skip at entry drops the branch (stuck) instead of returning pc:{} with weight 1. */
const SKIP_DROPS: Semantics = {
  ...SKIPPING,
  name: 'skip-drops-mass',
  description: 'Skip at entry is stuck instead of returning pc:{}.',
  entry: (ev, pc) => (high(ev, pc) ? ev.stuck('Skip', 'dropped') : undefined),
};

/** High-blindness's target: no skip at entry, so ⇓♯ evaluates high subcomputations (and their effects). */
const NO_SKIP_AT_ENTRY: Semantics = {
  name: 'no-skip-at-entry',
  description: 'The skipping rules without rule 1 (skip at entry): high subcomputations are evaluated.',
  rules: SKIPPING_RULES,
};

/** Lemma 13's target: skip at entry returns pc:{} with weight 2. */
const SKIP_DOUBLES: Semantics = {
  ...SKIPPING,
  name: 'skip-doubles-mass',
  description: 'Skip at entry returns pc:{} with weight 2.',
  entry: (ev, pc, conv) => (high(ev, pc) ? ev.sum([[Q.rat(2), ev.ret(conv, ev.unit(pc))]]) : undefined),
};

interface Breakage {
  readonly suite: string;
  readonly lattice: string;
  readonly broken: Partial<LlmbdaCtx<unknown>>;
  readonly what: string;
  /** Not reachable from the CLI, so docs/properties.md quotes this test's counterexample (checked here). */
  readonly quoted?: true;
}

const BREAKAGES: readonly Breakage[] = [
  { suite: 'confinement', lattice: 'powerset-us', broken: { semantics: variant('lam-bottom') }, what: 'Lam labels closures ⊥ (TEST_VARIANTS lam-bottom)' },
  { suite: 'lemma2', lattice: 'two-point', broken: { semantics: RECV_DOUBLES }, what: 'Recv doubles the response weights', quoted: true },
  { suite: 'tipni', lattice: 'powerset-us', broken: { semantics: variant('test-bare-pc') }, what: 'LabelTest answers at the bare pc (catalogue test-bare-pc)' },
  { suite: 'insulated-tipni', lattice: 'powerset-us', broken: { semantics: variant('endorse-declassifies') }, what: 'Endorse also declassifies (catalogue endorse-declassifies)' },
  { suite: 'stripping', lattice: 'powerset-us', broken: { skipping: SKIP_DROPS }, what: 'skip at entry drops the mass', quoted: true },
  { suite: 'high-blindness', lattice: 'powerset-us', broken: { skipping: NO_SKIP_AT_ENTRY }, what: '⇓♯ without skip at entry evaluates high code', quoted: true },
  { suite: 'lemma13', lattice: 'two-point', broken: { skipping: SKIP_DOUBLES }, what: 'skip at entry duplicates the mass', quoted: true },
  { suite: 'lemma3', lattice: 'two-point', broken: { semantics: variant('send-no-nsu') }, what: 'Send without no-sensitive-upgrade (catalogue send-no-nsu): TINI fails, and so does TIPNI' },
  { suite: 'lemma4', lattice: 'powerset-us', broken: { semantics: variant('test-bare-pc') }, what: 'a total-mass TIPNI leak (test-bare-pc): mass-1 observations that differ' },
  { suite: 'lemma5', lattice: 'two-point', broken: { semantics: variant('app-at-pc') }, what: 'App runs bodies at pc (catalogue app-at-pc): Δ exceeds the divergence bound' },
  { suite: 'leakage', lattice: 'powerset-us', broken: { semantics: variant('send-no-nsu') }, what: 'Send without no-sensitive-upgrade (catalogue send-no-nsu): bits leak with no divergence to pay for them' },
  { suite: 'theorem3', lattice: 'powerset-us', broken: { semantics: variant('recv-at-pc') }, what: 'the evaluator runs responses at pc, peval at lc (catalogue recv-at-pc)' },
  { suite: 'adapter-theorem3', lattice: 'powerset-us', broken: { semantics: variant('recv-at-pc') }, what: 'the evaluator runs responses at pc, the reference target (enumerated through the oracle) at lc' },
];

describe('ability to fail: each suite catches the breakage it is meant for, and the counterexample replays', () => {
  it('every suite but the generator meta-suite (below) and v2-equivalence (test/v2-equivalence.test.ts) has a breakage here', () => {
    expect(new Set(BREAKAGES.map((b) => b.suite))).toEqual(new Set(LLMBDA_SUITES.map((s) => s.name).filter((n) => n !== 'generators' && n !== 'v2-equivalence')));
  });

  it.each(BREAKAGES.map((b) => [b.suite, b.lattice, b.what, b] as const))('%s on %s fails when %s', (_s, _l, _w, b) => {
    const suite = llmbdaSuiteByName(b.suite)!;
    const ctx = referenceCtx(latticeByName(b.lattice)!, b.broken);
    const v = runSuite(suite, ctx, { runs: 2000, seed: 1 });
    expect(v.ok).toBe(false);
    expect(v.error, v.error).toBeUndefined(); // a property violation, not a crash
    const cx = v.counterexample!;
    expect(cx).toBeDefined();
    expect(cx.pretty.length).toBeGreaterThan(0);
    expect(cx.path).toMatch(/^\d+(:\d+)*$/);
    // replay: the same seed and path fail again, on the first case, with the same shrunk counterexample
    const again = runSuite(suite, ctx, { runs: 2000, seed: cx.seed, path: cx.path });
    expect(again.ok).toBe(false);
    expect(again.counterexample?.testsToFailure).toBe(1);
    expect(again.counterexample?.pretty).toBe(cx.pretty);
    expect(again.counterexample?.reason).toBe(cx.reason);
    // the doc's block for a test-only breakage is this very counterexample
    if (b.quoted) expect(readFileSync('docs/properties.md', 'utf8'), `docs/properties.md should quote:\n${cx.pretty}`).toContain(`\n${cx.pretty}\n`);
  });

  it('the same suites hold on the unbroken reference at the same seed (the failures above are the breakages\' doing)', () => {
    for (const b of BREAKAGES.filter((x) => ['stripping', 'lemma13', 'lemma2'].includes(x.suite))) {
      const v = runSuite(llmbdaSuiteByName(b.suite)!, referenceCtx(latticeByName(b.lattice)!), { runs: 100, seed: 1 });
      expect(v.counterexample?.pretty).toBeUndefined();
    }
  });
});

describe('spec §8.4: the bare-pc test leak is found on powerset-us and chain(3), never on two-point', () => {
  const bare = { semantics: variant('test-bare-pc') };
  it('TIPNI finds it on chain(3)', () => {
    const v = runSuite(llmbdaSuiteByName('tipni')!, referenceCtx(latticeByName('chain(3)')!, bare), { runs: 2000, seed: 1 });
    expect(v.counterexample).toBeDefined();
  });
  it('TIPNI holds for it on two-point (Austin & Flanagan\'s setting, where the bare pc is sound)', () => {
    const v = runSuite(llmbdaSuiteByName('tipni')!, referenceCtx(latticeByName('two-point')!, bare), { runs: 400, seed: 1 });
    expect(v.counterexample?.pretty).toBeUndefined();
  });
});

describe('ability to fail: the generator meta-suite', () => {
  it('rejects a pair whose "hole" is visible to the observer, and the rejection replays', () => {
    const lat = latticeByName('two-point')!;
    // A broken generator output: a hole under the LOW label L, so the two runs differ visibly.
    const broken: PairCase<unknown> = {
      obs: 'L', pc: 'L', fuel: 10,
      skeleton: { kind: 'label', label: 'L', body: { kind: 'prim', name: HOLE, arg: { kind: 'array', elems: [{ kind: 'num', value: Q.rat(0) }, { kind: 'num', value: Q.rat(1) }] } } },
      conv: { label: 'L', messages0: [], messages1: [] },
      model: { kind: 'constant', responses: [['0', '1']] },
    };
    const suite = llmbdaSuiteByName('generators')!;
    const ctx = referenceCtx(lat);
    const v = runSuite(suite, ctx, { runs: 20, seed: 1, examples: [broken] });
    expect(v.ok).toBe(false);
    expect(v.counterexample?.reason).toMatch(/not ∼m-related/);
    const again = runSuite(suite, ctx, { runs: 20, seed: v.counterexample!.seed, path: v.counterexample!.path, examples: [broken] });
    expect(again.counterexample?.testsToFailure).toBe(1);
    expect(again.counterexample?.pretty).toBe(v.counterexample!.pretty);
  });
});
