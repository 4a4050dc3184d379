/**
 * Hunting: `hunt` finds, shrinks, reports and saves a counterexample that replays; a control gives a
 * clean bill with the number of cases tried; corpus files are validated with errors naming the file
 * and the field; pairs survive the trip programs → skeleton → programs. (The CLI: hunt-cli.test.ts.)
 */
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { hunt, replay } from '../src/api/hunt.ts';
import { loadEntry, validateEntry, entryCase, type CorpusEntry } from '../src/llmbda/corpus.ts';
import { mergePrograms, showSkeleton, toRaw } from '../src/generators/skeleton.ts';
import { sideBySide } from '../src/llmbda/report.ts';
import { minimise, caseSize } from '../src/llmbda/minimise.ts';
import { variantCtx, loadVariant } from '../src/llmbda/variant-ctx.ts';
import { suiteNamed } from '../src/api/registry.ts';
import { judge } from '../src/runner/suite.ts';
import { catalogueEntry } from '../src/variants/catalogue.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { pairArb, programOf } from '../src/generators/pairs.ts';
import { exprEquals } from '../src/syntax/helpers.ts';
import { resolve } from '../src/generators/programs.ts';
import { parse } from '../src/syntax/parser.ts';
import { UserError } from '../src/util/absurd.ts';

const powerset = latticeByName('powerset-us')!;

function tmp(): string {
  return mkdtempSync(join(tmpdir(), 'llmbda-hunt-'));
}

describe('hunt', () => {
  it('finds the Fenton/Denning leak of send-no-nsu, shrinks it to within twice the smallest known, reports and saves it', async () => {
    const dir = tmp();
    try {
      const r = await hunt({ variant: 'send-no-nsu', lattices: ['powerset-us'], seed: 1, timeMs: 20_000, save: dir });
      expect(r.found).toBe(true);
      const f = r.finding!;
      expect(f.suite).toBe('tipni');
      expect(f.lattice).toBe('powerset-us');
      expect(f.size).toBeLessThanOrEqual(f.shrunkSize);
      expect(f.size).toBeLessThanOrEqual(2 * catalogueEntry('send-no-nsu')!.smallest!.size);
      // The report a person reads: the marked pair, observer, model, distributions, Σ max, seed, replay.
      for (const part of ['⟦["', 'observer m = ', 'Model: ', 'run 0', 'run 1', '#### ', 'Σ max = 2 > 1', `Seed 1, path ${f.path}`, `Replay the saved case: npx llmbda replay ${join(dir, 'send-no-nsu-tipni-powerset-us-1.json')}`, 'Replay: npx llmbda hunt --variant send-no-nsu']) {
        expect(r.report).toContain(part);
      }
      // Saved: JSON and .lam; the JSON replays as recorded.
      expect(f.savedTo).toBe(join(dir, 'send-no-nsu-tipni-powerset-us-1.json'));
      expect(existsSync(join(dir, 'send-no-nsu-tipni-powerset-us-1.lam'))).toBe(true);
      const entry = loadEntry(f.savedTo!);
      expect(entry).toMatchObject({ version: 1, variant: 'send-no-nsu', suite: 'tipni', lattice: 'powerset-us', seed: 1, size: f.size });
      const rp = await replay(f.savedTo!);
      expect(rp.reference.outcome).toBe('holds');
      expect(rp.variant.outcome).toBe('fails');
      expect(rp.ok).toBe(true);
      // The .lam's code is the run-0 program, which parses.
      const lam = readFileSync(join(dir, 'send-no-nsu-tipni-powerset-us-1.lam'), 'utf8');
      expect(() => parse(lam, powerset)).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is reproducible: the same seed finds the same case', async () => {
    const a = await hunt({ variant: 'prim-shallow', lattices: ['chain(3)'], seed: 3, timeMs: 20_000 });
    const b = await hunt({ variant: 'prim-shallow', lattices: ['chain(3)'], seed: 3, timeMs: 20_000 });
    expect(a.finding!.path).toBe(b.finding!.path);
    expect(a.finding!.entry.programs).toEqual(b.finding!.entry.programs);
  });

  it('gives a clean bill with the number of cases tried when nothing fails (a control)', async () => {
    const r = await hunt({ variant: 'assert-drops-n-check', lattices: ['two-point', 'chain(3)'], runs: 40, seed: 1, timeMs: 20_000 });
    expect(r.found).toBe(false);
    expect(r.tried).toBe(80);
    expect(r.report).toContain('survived 80 generated cases');
  });

  it('a replay under a sound variant reports the regression (the verdict differs from the recorded one)', async () => {
    const rp = await replay('counterexamples/send-no-nsu-powerset-us-1.json', { variant: 'fork-joins-label' });
    expect(rp.reference.outcome).toBe('holds');
    expect(rp.variant.outcome).toBe('holds');
    expect(rp.ok).toBe(false);
    expect(rp.report).toContain('NOT AS EXPECTED');
  });
});

describe('the minimiser', () => {
  it('keeps the case failing and never makes it larger', async () => {
    const lat = latticeByName('two-point')!;
    const ctx = variantCtx(lat, await loadVariant('app-at-pc'));
    const r = await hunt({ variant: 'app-at-pc', lattices: ['two-point'], seed: 2, timeMs: 20_000, minimise: false });
    const start = r.finding!.value;
    const m = minimise(suiteNamed('tipni'), ctx, start, 10_000);
    expect(judge(suiteNamed('tipni'), ctx, m.value).ok).toBe(false);
    expect(caseSize(m.value)).toBeLessThanOrEqual(caseSize(start));
    expect(m.after).toBe(caseSize(m.value));
  });
});

describe('pairs as one skeleton', () => {
  it('merging the two programs of a generated pair gives back both programs (up to variable names)', () => {
    const lat = powerset;
    fc.assert(fc.property(pairArb({ lat, endorse: false }), (c) => {
      const p0 = programOf(c, 0), p1 = programOf(c, 1);
      const m = mergePrograms(lat, c.obs, p0, p1);
      if (!m.ok) return false;
      return exprEquals(lat, resolve(m.skeleton, 0), resolve(toRaw(p0), 0)) && exprEquals(lat, resolve(m.skeleton, 1), resolve(toRaw(p1), 0));
    }), { numRuns: 150, seed: 11 });
  });

  it('rejects programs that differ outside any high label, naming where', () => {
    const lat = powerset;
    const a = parse('let x = ["S"]:1 in send x', lat), b = parse('let x = ["S"]:1 in send 2', lat);
    const m = mergePrograms(lat, lat.bottom, a, b);
    expect(m.ok).toBe(false);
    if (!m.ok) expect(m.reason).toContain('differ outside any label');
  });

  it('marks the differing high parts ⟦l: run 0 | run 1⟧', () => {
    const lat = powerset;
    const m = mergePrograms(lat, lat.bottom, parse('if ["S"]:true then send 1 else {}', lat), parse('if ["S"]:false then send 1 else {}', lat));
    expect(m.ok && showSkeleton(lat, m.skeleton)).toBe('if ⟦["S"]: true | false⟧ then send 1 else {}');
  });

  it('lays two programs side by side, marking the lines that differ', () => {
    expect(sideBySide('a\nb', 'a\nc')).toBe(['    run 0 │ run 1', '    a     │ a', '  * b     │ c'].join('\n'));
  });
});

describe('corpus files are validated on load', () => {
  const good: CorpusEntry = loadEntry('counterexamples/send-no-nsu-powerset-us-1.json');
  const bad = (patch: Record<string, unknown>): unknown => ({ ...good, ...patch });
  const cases: [string, unknown, RegExp][] = [
    ['not an object', [1, 2], /x\.json: a corpus file is a JSON object/],
    ['wrong version', bad({ version: 2 }), /x\.json: field "version" must be 1/],
    ['unknown field', bad({ colour: 'red' }), /x\.json: field "colour" is not part of the corpus schema/],
    ['one program for a pair', bad({ programs: ['1'] }), /x\.json: field "programs" must be an array of 2 program source strings/],
    ['bad weight', bad({ model: { kind: 'constant', responses: [['1', '0.3.1']] } }), /x\.json: field "model\.responses\[0\]\[1\]" must be an exact non-negative rational/],
    ['bad model kind', bad({ model: { kind: 'oracle' } }), /x\.json: field "model\.kind" must be "constant", "echo" or "hashed"/],
    ['bad expectation', bad({ expected: { reference: 'holds', variant: 'maybe' } }), /x\.json: field "expected\.variant" must be "holds" or "fails"/],
    ['zero fuel', bad({ fuel: 0 }), /x\.json: field "fuel" must be a positive integer/],
    ['missing observer', bad({ observer: undefined }), /x\.json: field "observer" must be a non-empty string/],
  ];
  for (const [what, json, msg] of cases) {
    it(`rejects ${what} with a message naming the file and the field`, () => {
      expect(() => validateEntry('x.json', JSON.parse(JSON.stringify(json)))).toThrow(msg);
      expect(() => validateEntry('x.json', JSON.parse(JSON.stringify(json)))).toThrow(UserError);
    });
  }

  it('rejects a label that is not one of the lattice, and programs that are not related', () => {
    expect(() => entryCase('x.json', { ...good, observer: '["Q"]' }, powerset)).toThrow(/x\.json: field "observer": \["Q"\] is not a label of powerset-us/);
    expect(() => entryCase('x.json', { ...good, programs: ['send 1', 'send 2'] }, powerset)).toThrow(/x\.json: field "programs": the two programs are not related/);
    expect(() => entryCase('x.json', { ...good, programs: ['send (', '1'] }, powerset)).toThrow(/x\.json: programs\[0\]/);
  });
});
