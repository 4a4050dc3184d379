// `check` minimises each counterexample it prints with a budget of judgements, not of time, so the printed case
// depends on the seed alone (issue 16: "verdicts that depend on the seed alone"), even on a slow or loaded machine.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { runJob } from '../src/api/jobs.ts';

const job = { suite: 'tipni', lattice: 'powerset-us', variant: 'send-no-nsu', runs: 300, seed: 1 } as const;

afterEach(() => { vi.restoreAllMocks(); });

describe('check minimises by a count of judgements', () => {
  it('the printed case is the same when every clock read is 1 s later than the last (a 2 s budget would stop after two reads)', async () => {
    const real = await runJob({ ...job });
    expect(real.status).toBe('fails');
    let t = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (t += 1000));
    const slow = await runJob({ ...job });
    vi.restoreAllMocks();
    expect(slow.status).toBe('fails');
    expect(slow.counterexample?.pretty).toBe(real.counterexample?.pretty);
    expect(slow.report).toBe(real.report);
  }, 120_000);
});
