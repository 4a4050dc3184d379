/**
 * Derivation traces and the first diverging rule application (src/semantics/trace.ts): tracing changes
 * no denotation, the reference never diverges from itself, and for every catalogue variant with a corpus
 * entry the report names, as the first diverging rule, a rule the variant replaces.
 */
import { describe, expect, it } from 'vitest';
import * as Q from '../src/distributions/rational.ts';
import { equals } from '../src/distributions/subdist.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { REFERENCE } from '../src/semantics/rules.ts';
import { firstDivergence, traceEvaluation, tracedSemantics } from '../src/semantics/trace.ts';
import { emptyConversation } from '../src/semantics/config.ts';
import { parse } from '../src/syntax/parser.ts';
import { powersetUS } from '../src/lattice/instances.ts';
import { CATALOGUE } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import { mutantByName } from '../src/variants/mutants.ts';
import { modelOf } from '../src/generators/models.ts';
import { replay } from '../src/api/hunt.ts';
import { entryCase, loadEntry } from '../src/llmbda/corpus.ts';
import { pairCaseReport } from '../src/llmbda/report.ts';
import { referenceCtx } from '../src/llmbda/context.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const lat = powersetUS;
const model = modelOf({ kind: 'constant', responses: [['0', '1/3'], ['1', '2/3']] });
const conv = emptyConversation(lat);
const send = CATALOGUE.find((v) => v.name === 'send-no-nsu')!;

describe('derivation traces', () => {
  const programs = [
    '["U"]:(send false)',
    '(\\x. [x, x]) (recv)',
    '[fork (send "a"), recv].[1]',
    '{a: ["S"]:1, b: recv}.a',
  ];
  for (const src of programs) {
    it(`tracing leaves the denotation unchanged: ${src}`, () => {
      const e = parse(src, lat);
      const plain = evaluate(model, lat, lat.bottom, conv, e, 12);
      const rec = tracedSemantics<unknown>(REFERENCE);
      const traced = evaluate(model, lat, lat.bottom, conv, e, 12, { semantics: rec.semantics, memoise: false });
      expect(equals(plain.finals, traced.finals)).toBe(true);
      expect(traced.missing.map((m) => Q.show(m.weight))).toEqual(plain.missing.map((m) => Q.show(m.weight)));
      expect(rec.roots).toHaveLength(1);
      expect(rec.roots[0]!.result).toBeDefined();
    });
  }

  it('records premises in call order, with the rule names of the paper', () => {
    const t = traceEvaluation(model, lat, lat.bottom, conv, parse('["U"]:(send false)', lat), 5, REFERENCE);
    expect(t.kind).toBe('traced');
    if (t.kind !== 'traced') return;
    expect(t.root!.rule).toBe('Labelled');
    expect(t.root!.premises.map((p) => p.rule)).toEqual(['Send']);
    expect(t.root!.premises[0]!.premises.map((p) => p.rule)).toEqual(['ScalarLit']);
  });

  it('the reference does not diverge from itself', () => {
    const e = parse('(\\x. [x, x]) (recv)', lat);
    const a = traceEvaluation(model, lat, lat.bottom, conv, e, 12, REFERENCE);
    const b = traceEvaluation(model, lat, lat.bottom, conv, e, 12, REFERENCE);
    if (a.kind !== 'traced' || b.kind !== 'traced') throw new Error('not traced');
    expect(firstDivergence(lat, a.root!, b.root!)).toBeUndefined();
  });

  it('send-no-nsu parts from the reference at Send, with the path down to it', () => {
    const e = parse('["U"]:(send false)', lat);
    const v = traceEvaluation(model, lat, lat.bottom, conv, e, 5, variantSemantics(send));
    const r = traceEvaluation(model, lat, lat.bottom, conv, e, 5, REFERENCE);
    if (v.kind !== 'traced' || r.kind !== 'traced') throw new Error('not traced');
    const d = firstDivergence(lat, v.root!, r.root!)!;
    expect(d.rule).toBe('Send');
    expect(d.kind).toBe('conclusion');
    expect(d.path.map((s) => [s.rule, s.pc, s.label])).toEqual([['Labelled', '[]', '[]']]);
    expect(d.variant.step.pc).toBe('["U"]');
    expect(d.reference.outcomes).toEqual([{ weight: { fraction: '1', decimal: '1.000000' }, shown: 'stuck at Send: pc ["U"] does not flow to conversation label []' }]);
    expect(d.variant.outcomes).toEqual([{ weight: { fraction: '1', decimal: '1.000000' }, shown: '["U"]:["false"] ⊢ ["U"]:{}' }]);
  });

  it('a changed premise configuration is blamed on the rule that chose it (app-at-pc: App, not the body\'s rule)', () => {
    const app = CATALOGUE.find((v) => v.name === 'app-at-pc')!;
    const e = parse('(["S"]:(\\x. x)) 1', lat);
    const v = traceEvaluation(model, lat, lat.bottom, conv, e, 8, variantSemantics(app));
    const r = traceEvaluation(model, lat, lat.bottom, conv, e, 8, REFERENCE);
    if (v.kind !== 'traced' || r.kind !== 'traced') throw new Error('not traced');
    const d = firstDivergence(lat, v.root!, r.root!)!;
    expect(d.rule).toBe('App');
    expect(d.kind).toBe('premise');
    expect(d.premise).toBe(2);
  });

  it('a generated mutant (changed label decisions, no replaced rule function) is blamed on the rule whose decision changed', () => {
    const m = mutantByName('m-send-nsu-off')!;
    expect(Object.keys(m.rules)).toEqual([]);
    const e = parse('["U"]:(send false)', lat);
    const v = traceEvaluation(model, lat, lat.bottom, conv, e, 5, variantSemantics(m));
    const r = traceEvaluation(model, lat, lat.bottom, conv, e, 5, REFERENCE);
    if (v.kind !== 'traced' || r.kind !== 'traced') throw new Error('not traced');
    expect(firstDivergence(lat, v.root!, r.root!)!.rule).toBe('Send');
    expect(Object.keys(m.decisions!)).toEqual(['Send']);
  });

  it('an evaluation over the step budget is reported as untraced, not thrown', () => {
    const t = traceEvaluation(model, lat, lat.bottom, conv, parse('[recv, recv, recv]', lat), 12, REFERENCE, { maxSteps: 3 });
    expect(t.kind).toBe('untraced');
  });
});

describe('the first diverging rule of every catalogue variant\'s corpus entry is a rule it replaces', () => {
  it('every unsound catalogue variant has a corpus entry (so none is left out of this check)', () => {
    expect(CATALOGUE.filter((x) => (x.expected?.leaksOn.length ?? 0) > 0 && x.smallest === undefined).map((x) => x.name)).toEqual([]);
    expect(CATALOGUE.filter((x) => x.smallest).length).toBeGreaterThanOrEqual(17);
  });
  for (const v of CATALOGUE.filter((x) => x.smallest)) {
    it(`${v.name} (${v.smallest!.file})`, async () => {
      const r = await replay(v.smallest!.file);
      const replaced = [...Object.keys(v.rules), ...Object.keys(v.decisions ?? {})];
      const x = r.explanation!;
      expect(x).not.toBeNull();
      const named = x.runs.flatMap((run) => (run.divergence ? [run.divergence.rule] : []));
      expect(named.length).toBeGreaterThan(0);
      for (const rule of named) expect(replaced).toContain(rule);
      expect(r.report).toContain(`First diverging rule application`);
      expect(r.report).toContain(`rule ${named[0]}:`);
    });
  }
});

describe('the explanation of a case (the report as data)', () => {
  // recv-no-nsu on a model answering "0" with 1/3 and "1" with 2/3: run 0 asks at pc ["U"], run 1 does not.
  const entry = {
    version: 1, variant: 'recv-no-nsu', suite: 'tipni', lattice: 'powerset-us', kind: 'pair', observer: '[]', pc: '[]',
    programs: ['["U"]:recv', '["U"]:[]'], conversations: [{ label: '[]', messages: [] }, { label: '[]', messages: [] }],
    model: { kind: 'constant', responses: [['0', '1/3'], ['1', '2/3']] }, fuel: 4, size: 4, expected: { reference: 'holds', variant: 'fails' },
  };

  it('gives each run\'s exact outcomes under the variant and the reference, before erasure and as m sees them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-explain-'));
    try {
      const file = join(dir, 'recv-thirds.json');
      writeFileSync(file, JSON.stringify(entry));
      const r = await replay(file);
      const [run0, run1] = r.explanation!.runs;
      expect(run0!.variant.finals.map((f) => [f.weight.fraction, f.config, f.observed])).toEqual([
        ['1/3', '[]:["0"] ⊢ []:[[]:true, []:0]', '[]:["0"] ⊢ []:[[]:true, []:0]'],
        ['2/3', '[]:["1"] ⊢ []:[[]:true, []:1]', '[]:["1"] ⊢ []:[[]:true, []:1]'],
      ]);
      expect(run0!.reference!.finals).toEqual([]);
      expect(run0!.reference!.missing).toEqual([{ weight: { fraction: '1', decimal: '1.000000' }, what: 'stuck at Recv: pc ["U"] does not flow to conversation label []' }]);
      expect(run0!.divergence!.rule).toBe('Recv');
      expect(run0!.divergence!.kind).toBe('premise-count');
      expect(run1!.divergence).toBeNull();
      expect(run1!.variant.finals.map((f) => [f.weight.fraction, f.config, f.observed])).toEqual([['1', '[]:[] ⊢ ["U"]:[]', '[]:[] ⊢ •']]);
      expect(r.explanation!.observed!.maxSum.fraction).toBe('2');
      expect(r.report).toMatch(/\n {6}1\/3 {2}\[\]:\["0"\] ⊢ \[\]:\[\[\]:true, \[\]:0\]/);
      expect(r.report).toContain('Legend:\n  l:e');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('under the reference itself there is nothing to compare: outcomes only, no divergence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-explain-'));
    try {
      const file = join(dir, 'recv-thirds.json');
      writeFileSync(file, JSON.stringify({ ...entry, variant: 'reference', expected: { reference: 'holds', variant: 'holds' } }));
      const lat = powersetUS;
      const c = entryCase(file, loadEntry(file), lat);
      if (c.kind !== 'pair') throw new Error('a pair entry');
      const cr = pairCaseReport(referenceCtx(lat), c.value, { variant: 'reference', variantDescription: '', suite: 'tipni', suiteTitle: '', lattice: lat.name, reason: '', replay: [] });
      expect(cr.explanation.runs.map((x) => [x.reference, x.divergence])).toEqual([[null, null], [null, null]]);
      expect(cr.explanation.runs[0]!.variant.missing[0]!.what).toBe('stuck at Recv: pc ["U"] does not flow to conversation label []');
      expect(cr.text).toContain('Each run (the semantics under test is the reference;');
      expect(cr.text).not.toContain('First diverging rule application (');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
