import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { executeRun, type RunOpts } from '../src/cli/cmd-run.ts';

const WRITER = 'table:examples/ppmf/writer.json';
const VARIANT = './examples/ppmf/consolidation-trusts-writer.ts';

interface RunJson {
  readonly distribution: readonly { readonly value: string; readonly probability: string }[];
  readonly mass: string;
  readonly missing: readonly unknown[];
}

async function run(file: string, variant?: string): Promise<RunJson> {
  const opts: RunOpts = { lattice: 'ppmf', model: WRITER, fuel: 200, seed: 1, json: true, stackMb: 512, ...(variant ? { variant } : {}) };
  const out = await executeRun(file, opts);
  expect(out.exitCode).toBe(0);
  return JSON.parse(out.stdout) as RunJson;
}

const rows = (r: RunJson): [string, string][] => r.distribution.map((d) => [d.value, d.probability]);

describe('examples/ppmf: the laundering story as a runnable LLMbda program', () => {
  it('laundering.lam under the reference: the gate asks for confirmation with probability 1', async () => {
    const r = await run('examples/ppmf/laundering.lam');
    expect(rows(r)).toEqual([['["USER_CONFIRMED","secret"]:"ask: confirm send_money(PM-A011)"', '1']]);
    expect(r.mass).toBe('1');
  });

  it('laundering.lam under consolidation-trusts-writer: the call goes through at the writer\'s laundering rate 479/500', async () => {
    const r = await run('examples/ppmf/laundering.lam', VARIANT);
    expect(rows(r)).toEqual([
      ['["USER_CONFIRMED","secret"]:"ask: confirm send_money(PM-A011)"', '21/500'],
      ['["USER_CONFIRMED","secret"]:"call send_money(PM-A011)"', '479/500'],
    ]);
  });

  it('confirmation.lam: only the same-target, same-risk confirmation upgrades', async () => {
    const r = await run('examples/ppmf/confirmation.lam');
    expect(rows(r)).toEqual([[
      '[]:{same_target: ["USER_CONFIRMED","secret"]:"call send_money(PM-A011)", ' +
        'other_target: ["USER_CONFIRMED","secret"]:"ask: confirm send_money(PM-A011)", ' +
        'other_risk: ["USER_CONFIRMED","secret"]:"ask: confirm send_money(PM-A011)"}',
      '1',
    ]]);
  });

  it('the documented command line works: llmbda run … --variant ./examples/ppmf/consolidation-trusts-writer.ts', () => {
    const out = execFileSync('node', ['bin/llmbda.js', 'run', 'examples/ppmf/laundering.lam', '--lattice', 'ppmf', '--model', WRITER, '--variant', VARIANT], { encoding: 'utf8' });
    expect(out).toContain('variant consolidation-trusts-writer');
    expect(out).toMatch(/"call send_money\(PM-A011\)"\s+\[\]:\[\]\s+479\/500/);
  });
});
