/**
 * Depth without a large stack (issue 12 part 3): with v2 the default engine, a non-tail recursion 10^5
 * deep evaluates on the default stack — in this process through `evaluate`, and through `llmbda run` with
 * its evaluation worker given a 1 MB stack (`--stack-mb 1`, about Node's default). The substitution
 * evaluator, on the same program at a tenth of the depth, runs out of JS stack (so the depth is real).
 * The 10^6-deep run is measured in bench:eval-v2-loops (docs/benchmarks.md).
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { StackLimitError } from '../src/semantics/ev.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { print } from '../src/syntax/printer.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));
// (The call nested under two binops: frames per level. `n + f (n - 1)` on small integers runs whole in the recursion
// lane, without frames — test/v2-recursion-lane.test.ts; this file is about the frames, as its first test checks.)
const sum = (n: number): string => `let sum = fix (\\f. \\n. if n == 0 then 0 else n + (f (n - 1) + 0)) in sum ${n}`;
const N = 100_000;
/** n(n+1)/2, written out. */
const TRIANGLE = '5000050000';

describe('non-tail recursion 10^5 deep on the default stack', () => {
  it('evaluate (default engine) gives n(n+1)/2 exactly', () => {
    // On the frames, not in a lane (which would make the depth no test of them).
    const small = evaluateV2(coin, lat, US.bottom, { label: US.bottom, messages: [] }, closeProgram(parse(sum(100), lat), loadPrelude(lat)), 100_000);
    expect(small.fused).toMatchObject({ recursion: 0, lane: 0, saturated: 100 });
    const e = closeProgram(parse(sum(N), lat), loadPrelude(lat));
    const r = evaluate(coin, lat, US.bottom, { label: US.bottom, messages: [] }, e, 100 * N);
    expect(Q.show(r.mass)).toBe('1');
    expect(entries(r.finals).map(([f]) => print(f.value, lat))).toEqual([`[]:${TRIANGLE}`]);
  });

  it('the substitution evaluator runs out of JS stack at a tenth of that depth (StackLimitError)', () => {
    const e = closeProgram(parse(sum(N / 10), lat), loadPrelude(lat));
    expect(() => evaluate(coin, lat, US.bottom, { label: US.bottom, messages: [] }, e, 100 * N, { engine: 'substitution' })).toThrow(StackLimitError);
  });

  it('llmbda run with a 1 MB evaluation stack (--stack-mb 1) prints it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-depth-'));
    try {
      const file = join(dir, 'sum.lam');
      writeFileSync(file, `${sum(N)}\n`);
      const r = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(process.execPath, ['bin/llmbda.js', 'run', file, '--stack-mb', '1', '--fuel', String(100 * N), '--json'],
          { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, timeout: 110_000 },
          (err, stdout, stderr) => done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
      });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout) as { mass: string; distribution: { value: string; probability: string }[] };
      expect(j.mass).toBe('1');
      expect(j.distribution.map((d) => [d.value, d.probability])).toEqual([[`[]:${TRIANGLE}`, '1']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
