/**
 * Deep recursion (issue 3): the benchmark `fix` loop. Its exact distribution is computed here by an
 * independent dynamic programme over residues mod 5; a loop of a few hundred iterations must either
 * evaluate to it or stop with a `StackLimitError` naming the limit and a flag that exists — never a
 * raw `RangeError`.
 */
import { describe, it, expect } from 'vitest';
import { Command } from 'commander';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { StackLimitError } from '../src/semantics/ev.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { registerRun } from '../src/cli/cmd-run.ts';

const lat = powersetUS;
const coin = coinModel(Q.rat(1, 2));

/** The benchmark program of issue 3. */
const loop = (n: number): string =>
  `let step = fix (\\loop. \\n. \\acc. if n == 0 then acc else loop (n - 1) ((acc + (fork @"flip").[1]) % 5)) in step ${n} 0`;

/** The sum of n fair bits mod 5, by dynamic programming: `Q.show` of each residue's probability. */
function expectedResidues(n: number): string[] {
  let dist = [Q.ONE, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO];
  const half = Q.rat(1, 2);
  for (let i = 0; i < n; i++) {
    const next = [Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO];
    dist.forEach((p, r) => {
      next[r] = Q.add(next[r]!, Q.mul(p, half));
      next[(r + 1) % 5] = Q.add(next[(r + 1) % 5]!, Q.mul(p, half));
    });
    dist = next;
  }
  return dist.map(Q.show);
}

/** The evaluator's answer as residue ↦ probability (0 for absent residues). */
function residues(n: number, fuel: number): string[] {
  const expr = closeProgram(parse(loop(n), lat), loadPrelude(lat));
  const res = evaluate(coin, lat, US.bottom, { label: US.bottom, messages: [] }, expr, fuel);
  expect(Q.show(res.mass)).toBe('1');
  const out = ['0', '0', '0', '0', '0'];
  for (const [f, w] of entries(res.finals)) {
    expect(f.value.body.kind).toBe('num');
    if (f.value.body.kind === 'num') out[Number(Q.numerator(f.value.body.value))] = Q.show(w);
  }
  return out;
}

describe('deep recursion: the fix loop of issue 3', () => {
  it('N = 16 evaluates exactly to the distribution of 16 fair bits summed mod 5', () => {
    expect(residues(16, 1000)).toEqual(expectedResidues(16));
  });

  it('N = 300 either evaluates exactly or throws StackLimitError naming the stack limit and an existing flag (never a raw RangeError)', () => {
    // Observed on Node 20 with the default ~1 MB stack: StackLimitError (the CLI's large-stack worker
    // evaluates it; see test/cli.test.ts).
    try {
      expect(residues(300, 100_000)).toEqual(expectedResidues(300));
    } catch (e) {
      expect(e).not.toBeInstanceOf(RangeError);
      expect(e).toBeInstanceOf(StackLimitError);
      const msg = (e as Error).message;
      expect(msg).toMatch(/stack/i);
      const flags = msg.match(/--[a-z][a-z-]*/g) ?? [];
      expect(flags).toContain('--stack-mb');
      // the flag the message recommends must be one `llmbda run` accepts
      const program = new Command();
      registerRun(program, { exitCode: 0 });
      const runFlags = program.commands.find((c) => c.name() === 'run')!.options.map((o) => o.long);
      for (const f of flags) expect(runFlags).toContain(f);
    }
  });
});
