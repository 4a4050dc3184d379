/**
 * No false alarms (issue 17, part 4). A report's headline says LEAK FOUND exactly when the evidence it
 * prints shows a leak (two related runs whose m-observations are incompatible, `Σ max > 1`); a suite
 * that needs a skipping semantics (or peval) never compares a variant with the reference's; and sound
 * variants — the catalogue's controls and four sound rule changes in examples/sound/ — run clean under
 * `--suite all` (a short budget here; docs/variants.md records 60 s per lattice).
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { LLMBDA_SUITES } from '../src/api/registry.ts';
import { hunt } from '../src/api/hunt.ts';
import { check } from '../src/api/check.ts';
import { runSuite } from '../src/runner/suite.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { variantCtx, loadVariant, suiteRefusal } from '../src/llmbda/variant-ctx.ts';
import { pairReport, singleReport, type ReportHeader } from '../src/llmbda/report.ts';
import { latticeByName, SHIPPED_LATTICES } from '../src/lattice/registry.ts';
import { variantByName } from '../src/variants/catalogue.ts';
import { deriveSkipping, SKIP_CHANGED_RULES, type Variant } from '../src/variants/variant.ts';
import { SKIPPING, SKIPPING_RULES } from '../src/skipping/skipping.ts';
import { REFERENCE_RULES } from '../src/semantics/rules.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';
import { UserError } from '../src/util/absurd.ts';
import { DiscardCase } from '../src/util/discard.ts';
import { isPairCase } from '../src/llmbda/variant-ctx.ts';

const header = (suite: string): ReportHeader => ({
  variant: 'v', variantDescription: 'd', suite, suiteTitle: 't', lattice: 'l', reason: 'r', replay: [],
});

const SOUND_FILES = [
  'examples/sound/array-joins-elements.ts', 'examples/sound/record-joins-fields.ts',
  'examples/sound/clear-keeps-label.ts', 'examples/sound/send-result-at-lc.ts',
];

describe('the headline is computed from the printed evidence', () => {
  for (const suite of LLMBDA_SUITES) {
    it(`${suite.name}: LEAK FOUND exactly when the printed table says Σ max > 1`, () => {
      const ctx = variantCtx(latticeByName('powerset-us')!, variantByName('send-no-nsu')!);
      const cases = fc.sample(suite.arbitrary(ctx), { seed: 17, numRuns: 25 });
      let leaks = 0;
      for (const c of cases) {
        let report: string;
        try {
          report = isPairCase(c) ? pairReport(ctx, c, header(suite.name)) : singleReport(ctx, c, header(suite.name));
        } catch (e) {
          if (DiscardCase.isDiscard(e)) continue; // over the step budget: the runner discards it, no report is ever written
          throw e;
        }
        const saysLeak = report.startsWith('LEAK FOUND');
        expect(saysLeak || report.startsWith('PROPERTY FAILS (no leak shown)')).toBe(true);
        expect(saysLeak).toBe(/Σ max = \S+ > 1: incompatible/.test(report));
        if (saysLeak) leaks++;
      }
      // Single-run suites have no second run to tell apart: never a leak headline.
      if (suite.caseKind === 'single') expect(leaks).toBe(0);
    });
  }

  it('a Stripping failure whose observations are compatible is reported as a failed law, not a leak', () => {
    // ⇓♯ whose skip at entry drops the mass: Stripping fails, yet both runs are observed alike under ⇓.
    const dropping: Semantics = { ...SKIPPING, entry: (ev, pc) => (!ev.leq(pc, ev.observer!) ? ev.stuck('Skip', 'dropped') : undefined) };
    const ctx = referenceCtx(latticeByName('powerset-us')!, { skipping: dropping });
    const stripping = LLMBDA_SUITES.find((s) => s.name === 'stripping')!;
    const v = runSuite(stripping, ctx, { runs: 2000, seed: 1 });
    expect(v.status).toBe('fails');
    const report = pairReport(ctx, v.counterexample!.value as never, header('stripping'));
    expect(report).toMatch(/^PROPERTY FAILS \(no leak shown\): stripping fails/);
    expect(report).toContain('≤ 1: compatible');
    expect(report).not.toContain('LEAK FOUND');
  });
});

describe('⇓♯ of a variant: derived where spec §7 applies, refused where it does not', () => {
  it('the rules §7 changes are exactly those whose ⇓♯ entry differs', () => {
    expect([...SKIP_CHANGED_RULES].sort()).toEqual(['App', 'ArrayIndex', 'Clear', 'Endorse', 'FieldAccess', 'LabelAssert', 'LabelFlow', 'LabelTest', 'Prim', 'Recv', 'Send']);
  });

  it('a replaced rule §7 leaves alone is lifted into ⇓♯ as it is; label decisions carry over', () => {
    const fork = variantByName('fork-joins-label')!;
    const d = deriveSkipping(fork);
    expect(d.missing).toEqual([]);
    expect(d.semantics.rules.Fork).toBe(fork.rules.Fork);
    expect(d.semantics.rules.Send).toBe(SKIPPING_RULES.Send);
    expect(d.semantics.entry).toBe(SKIPPING.entry);
    const mutant: Variant = { name: 'mut', description: 'm', rules: {}, decisions: { Send: { nsu: false } } };
    expect(deriveSkipping(mutant).semantics.decisions?.Send.nsu).toBe(false);
    expect(deriveSkipping(mutant).missing).toEqual([]);
  });

  it('a replaced rule §7 changes needs the variant\'s own skippingRules; given, they are used', () => {
    const v = variantByName('assert-drops-n-check')!;
    expect(deriveSkipping(v).missing).toEqual(['LabelAssert']);
    const withOwn: Variant = { ...v, skippingRules: { LabelAssert: REFERENCE_RULES.LabelAssert } };
    expect(deriveSkipping(withOwn).missing).toEqual([]);
    expect(deriveSkipping(withOwn).semantics.rules.LabelAssert).toBe(REFERENCE_RULES.LabelAssert);
    const stripping = LLMBDA_SUITES.find((s) => s.name === 'stripping')!;
    expect(suiteRefusal(stripping, v)).toMatch(/^suite stripping needs skipping rules for assert-drops-n-check: it replaces LabelAssert/);
    expect(suiteRefusal(stripping, withOwn)).toBeUndefined();
    expect(suiteRefusal(LLMBDA_SUITES.find((s) => s.name === 'tipni')!, v)).toBeUndefined();
    // Theorem 3 under a variant is a differential check against the reference interpreter: only when named.
    const theorem3 = LLMBDA_SUITES.find((s) => s.name === 'theorem3')!;
    expect(suiteRefusal(theorem3, v)).toMatch(/under assert-drops-n-check it is only a differential check/);
    expect(suiteRefusal(theorem3, v, { named: true })).toBeUndefined();
  });

  it('hunt and check refuse a named suite that cannot judge the variant, and leave it out (said so) under all', async () => {
    await expect(hunt({ variant: 'assert-drops-n-check', suite: 'high-blindness', timeMs: 100 })).rejects.toThrow(UserError);
    await expect(hunt({ variant: 'assert-drops-n-check', suite: 'lemma13', timeMs: 100 })).rejects.toThrow(/needs skipping rules for assert-drops-n-check/);
    // Named, Theorem 3 runs as a differential check (a verdict, never refused); under `all` it is left out.
    const named = await check({ variant: 'send-no-nsu', suites: ['theorem3'], runs: 5, seed: 1 });
    expect(named.verdicts.map((x) => x.suite)).toEqual(['theorem3', 'theorem3', 'theorem3']);
    const r = await hunt({ variant: 'assert-drops-n-check', suite: 'all', lattices: ['two-point'], runs: 5, seed: 1, timeMs: 60_000 });
    expect(r.skipped.map((s) => s.suite).sort()).toEqual(['adapter-theorem3', 'high-blindness', 'lemma13', 'stripping', 'theorem3']);
    expect(r.searched.map((s) => s.suite)).not.toContain('stripping');
    expect(r.report).toContain('not run: suite stripping needs skipping rules for assert-drops-n-check');
  });

  it('the CLI says "needs skipping rules" in one line and exits 2', async () => {
    const r = await new Promise<{ code: number; stderr: string }>((done) => {
      execFile(process.execPath, ['bin/llmbda.js', 'hunt', '--variant', 'examples/sound/send-result-at-lc.ts', '--suite', 'stripping', '--time', '1s'],
        { env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 }, (err, _out, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stderr }));
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^llmbda: suite stripping needs skipping rules for send-result-at-lc: it replaces Send/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('sound variants run clean under --suite all', () => {
  const clean = async (variant: string | Variant, lattices: readonly string[]): Promise<void> => {
    const r = await hunt({ variant, suite: 'all', lattices, runs: 25, seed: 5, timeMs: 600_000, minimise: false });
    expect(r.finding?.reason, r.report).toBeUndefined();
    expect(r.found).toBe(false);
    // Every suite that can judge the variant ran on every lattice.
    expect(r.searched.length).toBe((LLMBDA_SUITES.length - r.skipped.length) * lattices.length);
  };
  for (const file of SOUND_FILES) {
    it(`${file} (every shipped lattice)`, async () => {
      const v = await loadVariant(file);
      expect(v.expected?.soundOn).toEqual([...SHIPPED_LATTICES]);
      await clean(file, SHIPPED_LATTICES);
    });
  }
  for (const name of ['assert-drops-n-check', 'fork-joins-label', 'test-bare-pc', 'endorse-drops-pc']) {
    it(`catalogue ${name} on the lattices it is sound on`, async () => {
      const soundOn = variantByName(name)!.expected!.soundOn;
      expect(soundOn.length).toBeGreaterThan(0);
      await clean(name, soundOn);
    });
  }
  it('the lifted and own-⇓♯ sound variants keep the skipping suites', async () => {
    for (const file of SOUND_FILES.slice(0, 3)) {
      const v = await loadVariant(file);
      for (const s of LLMBDA_SUITES.filter((x) => x.needs?.includes('skipping'))) expect(suiteRefusal(s, v)).toBeUndefined();
    }
  });
});
