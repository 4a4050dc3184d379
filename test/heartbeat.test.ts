/**
 * The watchdog's judgement (src/util/heartbeat.ts), with the clock given: a case that stops progressing is
 * stalled after the case limit (longer before the first case), a user file that is loading only after the
 * import limit (plus its slack), and the case clock starts again when loading ends.
 */
import { describe, expect, it } from 'vitest';
import { BEATS, HEARTBEAT_BYTES, IMPORT_SLACK_MS, LOADING, SITE, TID, threadCpuMs, Watchdog, wallBackstop } from '../src/util/heartbeat.ts';
import { Worker } from 'node:worker_threads';

const limits = { caseMs: 1000, firstMs: 5000, importMs: 3000 };
const setup = (): { buf: Int32Array; sites: Map<number, string> } => ({ buf: new Int32Array(new SharedArrayBuffer(HEARTBEAT_BYTES)), sites: new Map() });

describe('Watchdog', () => {
  // Without a CPU clock (no thread id published: not Linux, or the thread not started yet), wall-clock time.
  it('before the first case the longer limit applies; after it, the case limit, counted from the last beat', () => {
    const { buf, sites } = setup();
    const dog = new Watchdog(buf, sites, limits, 0);
    expect(dog.poll(4999)).toBeUndefined();
    expect(dog.poll(5001)).toEqual({ kind: 'case', beats: 0, site: undefined, ms: 5000, clock: 'wall' });
    Atomics.store(buf, BEATS, 3);
    expect(dog.poll(6000)).toBeUndefined(); // progress seen at 6000
    expect(dog.poll(7000)).toBeUndefined();
    sites.set(7, 'my-variant.ts:Recv');
    Atomics.store(buf, SITE, 7);
    expect(dog.poll(7001)).toEqual({ kind: 'case', beats: 3, site: 'my-variant.ts:Recv', ms: 1000, clock: 'wall' });
  });

  it('a user file loading is judged by the import limit alone, and the case clock restarts when it ends', () => {
    const { buf, sites } = setup();
    Atomics.store(buf, BEATS, 2);
    const dog = new Watchdog(buf, sites, limits, 0);
    sites.set(4, 'lattice file x.ts');
    Atomics.store(buf, LOADING, 4);
    expect(dog.poll(100)).toBeUndefined(); // loading starts (seen) at 100
    expect(dog.poll(100 + 3000 + IMPORT_SLACK_MS)).toBeUndefined(); // far past the case limit, within the import limit
    expect(dog.poll(101 + 3000 + IMPORT_SLACK_MS)).toEqual({ kind: 'loading', file: 'lattice file x.ts', ms: 3000 });
    Atomics.store(buf, LOADING, 0);
    expect(dog.poll(10_000)).toBeUndefined(); // loading ended at 10 000: a fresh case clock
    expect(dog.poll(11_000)).toBeUndefined();
    expect(dog.poll(11_001)).toEqual({ kind: 'case', beats: 2, site: undefined, ms: 1000, clock: 'wall' });
  });

  it('with a CPU clock, a case is judged by the thread\'s CPU time (a starved thread is not stuck), with a wall-clock backstop', () => {
    const { buf, sites } = setup();
    Atomics.store(buf, BEATS, 1);
    const dog = new Watchdog(buf, sites, limits, 0, 0);
    expect(dog.poll(30_000, 900)).toBeUndefined(); // 30 s of wall time, but only 0.9 s of CPU: starved, not stuck
    expect(dog.poll(31_000, 1001)).toEqual({ kind: 'case', beats: 1, site: undefined, ms: 1000, clock: 'cpu' });
    const idle = new Watchdog(buf, sites, limits, 0, 0);
    expect(idle.poll(wallBackstop(1000), 0)).toBeUndefined();
    expect(idle.poll(wallBackstop(1000) + 1, 0)).toEqual({ kind: 'case', beats: 1, site: undefined, ms: 60_000, clock: 'wall' });
  });

  it('a watched worker publishes its thread id, and its CPU time is read from /proc (Linux)', async () => {
    if (process.platform !== 'linux') return;
    const buf = new Int32Array(new SharedArrayBuffer(HEARTBEAT_BYTES));
    const url = new URL('../src/util/heartbeat.ts', import.meta.url).href;
    // A worker that installs the heartbeat, then spins for ~300 ms of CPU and reports.
    const w = new Worker(`import('tsx/esm/api').then(async ({ tsImport }) => {
      const { installHeartbeat } = await tsImport(${JSON.stringify(url)}, ${JSON.stringify(import.meta.url)});
      const { workerData, parentPort } = await import('node:worker_threads');
      installHeartbeat(workerData, () => {});
      const t = Date.now(); while (Date.now() - t < 300) {}
      parentPort.postMessage('spun');
      setInterval(() => {}, 1 << 30); // stay alive until terminated: a finished worker's thread leaves /proc before it is read
    });`, { eval: true, workerData: buf.buffer });
    await new Promise<void>((done, fail) => { w.once('message', () => done()); w.once('error', fail); });
    const tid = Atomics.load(buf, TID);
    expect(tid).toBeGreaterThan(0);
    expect(threadCpuMs(tid)).toBeGreaterThan(0);
    await w.terminate();
  }, 60_000);
});
