/**
 * The worker pool keeps a group's jobs on one worker (`PoolOptions.groupOf`, `nextJob`), so that the suites of a
 * family share their evaluations with two workers or more, and still never leaves a worker idle while jobs wait.
 */
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { nextJob, runPool } from '../src/runner/pool.ts';
import { runJob, type ThreadJob } from './fixtures/pool/thread-job.ts';

const groupOf = (j: { readonly group?: string }): string | undefined => j.group;
const q = (...gs: (string | undefined)[]): { group?: string }[] => gs.map((group) => (group === undefined ? {} : { group }));

describe('nextJob', () => {
  it("takes the next job of the worker's own group first, wherever it is in the queue", () => {
    expect(nextJob(q('b', undefined, 'a', 'a'), groupOf, new Map([['a', 0]]), 0, 'a')).toBe(2);
  });
  it("leaves a group another worker runs to that worker: it takes the first job of no group or of a group no one runs", () => {
    const owners = new Map([['a', 1]]);
    expect(nextJob(q('a', 'a', 'b'), groupOf, owners, 0, undefined)).toBe(2);
    expect(nextJob(q('a', undefined, 'b'), groupOf, owners, 0, 'c')).toBe(1);
    // its own group, though no longer its last one, is not another's
    expect(nextJob(q('a', 'b'), groupOf, new Map([['a', 0]]), 0, 'c')).toBe(0);
  });
  it("takes the first job rather than wait when every job left belongs to a group another worker runs", () => {
    expect(nextJob(q('a', 'b'), groupOf, new Map([['a', 1], ['b', 2]]), 0, undefined)).toBe(0);
  });
});

// The pool never runs more workers than cores: on one core there is no second worker to keep a group from.
describe.skipIf(availableParallelism() < 2)('runPool with groupOf (two workers)', () => {
  const mod = { url: new URL('./fixtures/pool/thread-job.ts', import.meta.url), run: runJob };

  it("runs each group's jobs on one worker while the other workers have other jobs", async () => {
    // Queued group by group (as check's familyOrder queues them): without groupOf the second worker takes a2 at once.
    const jobs: ThreadJob[] = [
      ...['a1', 'a2', 'a3'].map((name) => ({ name, group: 'a', ms: 20 })),
      ...['b1', 'b2', 'b3'].map((name) => ({ name, group: 'b', ms: 20 })),
      { name: 'c', ms: 1500 }, { name: 'd', ms: 1500 },
    ];
    const results = await runPool(jobs, mod, { workers: 2, threads: true, groupOf });
    const threadsOf = (g: string): Set<number> => new Set(results.filter((r) => r.name.startsWith(g)).map((r) => r.thread));
    expect(results.map((r) => r.name)).toEqual(jobs.map((j) => j.name));
    expect(threadsOf('a').size).toBe(1);
    expect(threadsOf('b').size).toBe(1);
    expect([...threadsOf('a')][0]).not.toBe([...threadsOf('b')][0]);
  }, 60_000);

  it('with only one group left, an idle worker takes its jobs too: every job runs', async () => {
    const jobs: ThreadJob[] = ['a1', 'a2', 'a3', 'a4'].map((name) => ({ name, group: 'a', ms: 300 }));
    const results = await runPool(jobs, mod, { workers: 2, threads: true, groupOf });
    expect(results.map((r) => r.name)).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(new Set(results.map((r) => r.thread)).size).toBe(2);
  }, 60_000);
});
