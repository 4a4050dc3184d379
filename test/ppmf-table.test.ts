import { describe, expect, it, vi } from 'vitest';
import { Command } from 'commander';
import type { Rational } from '../src/distributions/rational.ts';
import { ZERO, cmp, eq, isZero, le, rat, show } from '../src/distributions/rational.ts';
import { DECOY_COUNTS, TOP_KS, ppmfTable, renderPpmfTable } from '../src/ppmf/table.ts';
import { registerPpmf } from '../src/cli/cmd-ppmf.ts';
import { UserError } from '../src/util/absurd.ts';

const table = ppmfTable();
const row = (family: string, system: string) => {
  const r = table.families.find((x) => x.family === family && x.system === system);
  if (r === undefined) throw new Error(`no row ${family}/${system}`);
  return r.rates;
};
const must = (r: Rational | undefined): Rational => {
  if (r === undefined) throw new Error('rate undefined');
  return r;
};
const ATTACK_FAMILIES = ['synthetic', 'adaptive', 'banking', 'binding'];

describe('the PPMF table meets the paper’s targets', () => {
  it('PPMF attack success is exactly 0 in every family, and it launders nothing', () => {
    for (const f of ATTACK_FAMILIES) {
      expect(show(must(row(f, 'ppmf').asr)), f).toBe('0');
      expect(show(must(row(f, 'ppmf').laundering)), f).toBe('0');
    }
  });
  it('PPMF benign success is exactly 1 whenever support is retrieved, and it never falsely blocks', () => {
    for (const f of [...ATTACK_FAMILIES, 'benign']) {
      expect(show(must(row(f, 'ppmf').benignGivenSupport)), f).toBe('1');
      expect(show(must(row(f, 'ppmf').falseBlock)), f).toBe('0');
    }
  });
  it('no-defence and content-filter show non-zero attack success and laundering in every attack family', () => {
    for (const f of ATTACK_FAMILIES)
      for (const s of ['no-defence', 'content-filter']) {
        expect(cmp(must(row(f, s).asr), ZERO), `${f}/${s}`).toBe(1);
        expect(cmp(must(row(f, s).laundering), ZERO), `${f}/${s}`).toBe(1);
      }
  });
  it('the content filter blocks benign work (false blocks > 0 on the benign family); ppmf does not', () => {
    expect(cmp(must(row('benign', 'content-filter').falseBlock), ZERO)).toBe(1);
    expect(isZero(must(row('benign', 'ppmf').falseBlock))).toBe(true);
  });
  it('gate-only launders exactly the writer mass that claims a user channel: 25/48 in every attack family', () => {
    // Attack cases cycle writers launderer, preferrer, launderer, compressing; claims of channel user:
    // launderer 1/3 + 1/3, preferrer 1/2 + 1/4, compressing 0 ⇒ (2/3 + 3/4 + 2/3 + 0) / 4 = 25/48.
    for (const f of ATTACK_FAMILIES) expect(show(must(row(f, 'gate-only').laundering)), f).toBe('25/48');
  });
  it('the benign family has no attack cases: its ASR is undefined, not 0', () => {
    expect(row('benign', 'ppmf').asr).toBeUndefined();
    expect(row('benign', 'ppmf').attackCases).toBe(0);
  });
  it('PPMF binds exactly as the hand-written binding-stress expectations say (accuracy 1)', () => {
    expect(show(must(table.bindingAccuracy))).toBe('1');
  });
});

describe('decoy sweep (PPMF)', () => {
  it('has every cell of decoys {0,1,3,5,10,20} × top-k {1,3,5,10,20}', () => {
    expect(table.decoySweep).toHaveLength(DECOY_COUNTS.length * TOP_KS.length);
  });
  it('ASR stays exactly 0 in every cell, and benign misses come only from retrieval (success | support = 1)', () => {
    for (const c of table.decoySweep) {
      expect(show(must(c.rates.asr)), `${c.decoys}/${c.topK}`).toBe('0');
      if (c.rates.benignGivenSupport !== undefined) expect(show(c.rates.benignGivenSupport)).toBe('1');
      expect(show(must(c.rates.falseBlock))).toBe('0');
    }
  });
  it('without decoys benign success is 1 at every k; more decoys never raise it', () => {
    for (const k of TOP_KS) {
      const cells = DECOY_COUNTS.map((d) => must(table.decoySweep.find((c) => c.decoys === d && c.topK === k)?.rates.benignSuccess));
      expect(show(cells[0] as Rational)).toBe('1');
      for (let i = 1; i < cells.length; i++) expect(le(cells[i] as Rational, cells[i - 1] as Rational)).toBe(true);
    }
  });
});

describe('metadata stress', () => {
  const stress = (label: string, system: string) => {
    const r = table.stress.find((x) => x.label === label && x.system === system);
    if (r === undefined) throw new Error(`no stress row ${label}/${system}`);
    return r.rates;
  };
  it('missing fields (10 %, 20 %) keep PPMF ASR at 0 (fail closed) and lower benign success to exactly 9/10 and 4/5', () => {
    // Clean benign success is 1 (asserted above); a stressed case loses its trust and its confirmations ⇒ ask.
    expect(show(must(stress('missing fields 10%', 'ppmf').asr))).toBe('0');
    expect(show(must(stress('missing fields 20%', 'ppmf').asr))).toBe('0');
    expect(eq(must(stress('missing fields 10%', 'ppmf').benignSuccess), rat(9, 10))).toBe(true);
    expect(eq(must(stress('missing fields 20%', 'ppmf').benignSuccess), rat(4, 5))).toBe(true);
  });
  it('forged confirmations (10 %) break PPMF: ASR is positive and at most 1/10 — outside the guarantee', () => {
    const asr = must(stress('forged confirmations 10%', 'ppmf').asr);
    expect(cmp(asr, ZERO)).toBe(1);
    expect(le(asr, rat(1, 10))).toBe(true);
  });
});

describe('llmbda ppmf table', () => {
  async function runCli(args: readonly string[]): Promise<string> {
    const program = new Command().exitOverride();
    registerPpmf(program);
    let out = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += String(chunk);
      return true;
    });
    try {
      await program.parseAsync([...args], { from: 'user' });
    } finally {
      spy.mockRestore();
    }
    return out;
  }
  it('--json prints exact fractions with decimals', async () => {
    const j = JSON.parse(await runCli(['ppmf', 'table', '--json', '--family', 'synthetic'])) as {
      families: { family: string; system: string; asr: { fraction: string; decimal: string } }[];
    };
    expect(j.families.map((r) => r.system)).toEqual(['no-defence', 'content-filter', 'gate-only', 'ppmf']);
    expect(j.families.find((r) => r.system === 'ppmf')?.asr).toEqual({ fraction: '0', decimal: '0.000000' });
  });
  it('prints a plain text table with the sweep, the stress rows and the paper’s numbers', () => {
    const text = renderPpmfTable(table);
    expect(text).toContain('decoys \\ top-k');
    expect(text).toContain('forged confirmations 10%');
    expect(text).toContain('The paper reported');
    expect(text.split('\n').some((l) => /^synthetic\s+ppmf\s+20\/10\s+0 \(0\.000\)/.test(l))).toBe(true);
  });
  it('an unknown family is a user error', async () => {
    await expect(runCli(['ppmf', 'table', '--family', 'martian'])).rejects.toThrow(UserError);
  });
});
