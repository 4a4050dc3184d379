/**
 * Statistical mode (issue 13): sampled runs and a two-sample compatibility test whose rejection is wrong
 * with probability at most δ. It rejects a leak (deterministic and randomised), and does not reject
 * compatible runs drawn from a random model.
 */
import { describe, it, expect } from 'vitest';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { emptyConversation } from '../src/semantics/config.ts';
import { modelOf } from '../src/generators/models.ts';
import { compatibilityTest, sampleClasses } from '../src/targets/statistical.ts';
import { makeEnvTarget } from '../examples/targets/env-target.ts';
import seedrandom from 'seedrandom';
import type { Target } from '../src/targets/target.ts';
import { runTargetSuite, targetStatTipni } from '../src/targets/suites.ts';

const lat = powersetUS;
const coin = modelOf({ kind: 'constant', responses: [['1', '1/2'], ['0', '1/2']] });
const C = emptyConversation(lat);
const p = (s: string) => parse(s, lat);

describe('the statistical two-sample test', () => {
  it('rejects the operator leak of the faulty example target (δ = 10⁻⁶, 200 runs a side)', async () => {
    const t = makeEnvTarget(lat, { binopTopLabels: true });
    const s0 = await sampleClasses(t, coin, US.bottom, US.bottom, C, p('send ([["S"]:0, 0] + [])'), 30, 200, 1);
    const s1 = await sampleClasses(t, coin, US.bottom, US.bottom, C, p('send ([["S"]:1, 0] + [])'), 30, 200, 2);
    const r = compatibilityTest(s0, s1, 1e-6);
    expect(r.rejected).toBe(true);
    expect(r.statistic).toBe(2);
  });

  it('does not reject the correct target on the same pair, nor on a random model\'s compatible runs (20 seeds)', async () => {
    const t = makeEnvTarget(lat);
    const s0 = await sampleClasses(t, coin, US.bottom, US.bottom, C, p('send ([["S"]:0, 0] + [])'), 30, 200, 1);
    const s1 = await sampleClasses(t, coin, US.bottom, US.bottom, C, p('send ([["S"]:1, 0] + [])'), 30, 200, 2);
    expect(compatibilityTest(s0, s1, 1e-6).rejected).toBe(false);
    const ask = p('send ((\\_. recv) (send "q"))');
    for (let seed = 0; seed < 20; seed++) {
      const a = await sampleClasses(t, coin, US.bottom, US.bottom, C, ask, 40, 200, 100 + seed);
      const b = await sampleClasses(t, coin, US.bottom, US.bottom, C, ask, 40, 200, 200 + seed);
      const r = compatibilityTest(a, b, 0.01);
      expect(r.rejected, `seed ${seed}: ${r.statistic} > ${r.threshold}`).toBe(false);
    }
  });

  it('finds a leak that only happens half of the time in a target with internal randomness', async () => {
    const rng = seedrandom('internal');
    const flaky: Target<USLabel> = {
      name: 'flaky', lattice: lat,
      run: (req) => {
        // sends its secret input's digit publicly on a coin flip of its own (not the oracle's)
        const secret = req.program.kind === 'label' && req.program.body.kind === 'num' ? String(req.program.body.value) : '?';
        const msg = rng() < 0.5 ? secret : 'x';
        return { kind: 'ok', value: { kind: 'label', label: US.bottom, body: { kind: 'record', fields: [] } }, conv: { label: US.bottom, messages: [msg] } };
      },
    };
    const s0 = await sampleClasses(flaky, coin, US.bottom, US.bottom, C, p('["S"]:0'), 10, 400, 1);
    const s1 = await sampleClasses(flaky, coin, US.bottom, US.bottom, C, p('["S"]:1'), 10, 400, 2);
    const r = compatibilityTest(s0, s1, 1e-3);
    expect(r.rejected).toBe(true);
    expect(r.statistic).toBeGreaterThan(1.3);
  });

  it('the stat-tipni suite finds the faulty target\'s leak and reports nothing against the correct one', async () => {
    const bad = await runTargetSuite(targetStatTipni, { target: makeEnvTarget(lat, { binopTopLabels: true }), profile: 'tuned' }, { runs: 1000, seed: 1, noShrink: true });
    expect(bad.counterexample?.reason).toMatch(/incompatible \(sampled: .*error probability ≤ 0.000001\)/);
    const good = await runTargetSuite(targetStatTipni, { target: makeEnvTarget(lat), profile: 'tuned' }, { runs: 100, seed: 1 });
    expect(good.counterexample?.reason).toBeUndefined();
  }, 120_000);
});
