/**
 * The worked examples of spec §8, with every expected result written from the spec text (not from the
 * code): the two biased flips and their forked variant, Fenton/Denning, the six endorse probes, the
 * quarantine pattern and the bare-pc label-test leak of §3.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import * as Q from '../src/distributions/rational.ts';
import { entries } from '../src/distributions/subdist.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { evaluate, type Evaluation } from '../src/semantics/evaluate.ts';
import type { PModel } from '../src/semantics/model.ts';
import { coinModel, constModel, echoModel } from '../src/semantics/models/index.ts';
import type { Conversation } from '../src/semantics/config.ts';
import { compare, indistConversation, indistExpr, observe } from '../src/observe/indist.ts';
import { variantByName, CATALOGUE } from '../src/variants/catalogue.ts';
import { variantSemantics } from '../src/variants/variant.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';
import { render } from './helpers/render.ts';

const lat = powersetUS;
const EMPTY: Conversation<USLabel> = { label: US.bottom, messages: [] };

/** Parse, close over the prelude and evaluate a program on powerset-us. */
function run(src: string, model: PModel, o: { pc?: USLabel; conv?: Conversation<USLabel>; fuel?: number; semantics?: Semantics } = {}): Evaluation<USLabel> {
  const expr = closeProgram(parse(src, lat, { file: 'test' }), loadPrelude(lat, model.preludeSource));
  return evaluate(model, lat, o.pc ?? US.bottom, o.conv ?? EMPTY, expr, o.fuel ?? 200, o.semantics ? { semantics: o.semantics } : {});
}


/** The denotation as sorted rows `[value, conversation, probability]`. */
function table(res: Evaluation<USLabel>): string[][] {
  return entries(res.finals)
    .map(([f, w]) => [render(lat, f.value), `${lat.show(f.conv.label)}:${JSON.stringify(f.conv.messages)}`, Q.show(w)])
    .sort((a, b) => (a.join() < b.join() ? -1 : 1));
}

const sorted = (rows: string[][]): string[][] => [...rows].sort((a, b) => (a.join() < b.join() ? -1 : 1));

describe('spec §8.1: two biased flips under M.weight(c) = {"1": 3/10, "0": 7/10}', () => {
  const coin = coinModel(Q.rat(3, 10));
  const FOUR = sorted([
    ['[]:2', '[]:["flip","1","again","1"]', '9/100'],
    ['[]:1', '[]:["flip","1","again","0"]', '21/100'],
    ['[]:1', '[]:["flip","0","again","1"]', '21/100'],
    ['[]:0', '[]:["flip","0","again","0"]', '49/100'],
  ]);
  const MERGED = sorted([
    ['[]:0', '[]:[]', '49/100'],
    ['[]:1', '[]:[]', '42/100'],
    ['[]:2', '[]:[]', '9/100'],
  ].map(([v, c, p]) => [v!, c!, Q.show(Q.parseRational(p!)!)]));

  it('four outcomes 9/100, 21/100, 21/100, 49/100: the conversation keeps both answers apart', () => {
    const res = run('let x = @"flip" in let y = @"again" in x.[1] + y.[1]', coin);
    expect(table(res)).toEqual(FOUR);
    expect(Q.show(res.mass)).toBe('1');
    expect(res.missing).toEqual([]);
  });

  it('examples/coins.lam is that program', () => {
    expect(table(run(readFileSync('examples/coins.lam', 'utf8'), coin))).toEqual(FOUR);
  });

  it('forked: the outcomes merge to 0 ↦ 49/100, 1 ↦ 42/100, 2 ↦ 9/100, all with conversation ⊥:[]', () => {
    const res = run('let x = fork @"flip" in let y = fork @"again" in x.[1] + y.[1]', coin);
    expect(table(res)).toEqual(MERGED);
    expect(table(run(readFileSync('examples/coins-forked.lam', 'utf8'), coin))).toEqual(MERGED);
  });
});

describe('spec §8.2: Fenton/Denning', () => {
  const SRC = `let secret = true in let _ = @'Remember x = false' in let _ = if ["S"]:secret then @'Set x = true' else {} in @'Give me x'`;

  it('is stuck at the inner send (pc ["S"] does not flow to []): mass 0, all of it reported as that stuck reason', () => {
    for (const model of [coinModel(Q.rat(1, 2)), echoModel()]) {
      const res = run(SRC, model);
      expect(Q.show(res.mass)).toBe('0');
      expect(res.finals.size).toBe(0);
      expect(res.missing.map((m) => [m.failure.kind === 'stuck' ? `${m.failure.rule}: ${m.failure.reason}` : 'fuel', Q.show(m.weight)]))
        .toEqual([['Send: pc ["S"] does not flow to conversation label []', '1']]);
    }
  });

  it('examples/fenton-denning.lam is that program', () => {
    const res = run(readFileSync('examples/fenton-denning.lam', 'utf8'), coinModel(Q.rat(1, 2)));
    expect(Q.show(res.mass)).toBe('0');
  });

  it('without the no-sensitive-upgrade check (variant send-no-nsu) it runs to completion: the conversation records the secret branch', () => {
    const res = run(SRC, constModel('ok'), { semantics: variantSemantics(variantByName('send-no-nsu')!) });
    expect(Q.show(res.mass)).toBe('1');
    const es = entries(res.finals);
    expect(es).toHaveLength(1);
    expect(es[0]![0].conv.messages).toContain('Set x = true');
  });
});

describe('spec §8.3: the six endorse probes on powerset-us', () => {
  const m = constModel('unused');
  const only = (src: string): string[][] => table(run(src, m)).map(([v]) => [v!]);

  it('endorse [] (["U"]:"untrusted") ↦ []:"untrusted"', () => {
    expect(only('endorse [] (["U"]:"untrusted")')).toEqual([['[]:"untrusted"']]);
  });
  it('endorse [] (["S"]:"password") ↦ ["S"]:"password" (endorse never declassifies)', () => {
    expect(only('endorse [] (["S"]:"password")')).toEqual([['["S"]:"password"']]);
  });
  it('if ["U"]:true then endorse [] "x" else "skip" ↦ ["U"]:"x" (the pc stays on the result)', () => {
    expect(only('if ["U"]:true then endorse [] "x" else "skip"')).toEqual([['["U"]:"x"']]);
  });
  it('let m = endorse [] (["U"]:42) in m * 2 ↦ 84', () => {
    expect(only('let m = endorse [] (["U"]:42) in m * 2')).toEqual([['[]:84']]);
  });
  it('endorse "not a label" (["U"]:"d") is stuck', () => {
    const res = run('endorse "not a label" (["U"]:"d")', m);
    expect(Q.show(res.mass)).toBe('0');
    expect(res.missing).toHaveLength(1);
    expect(res.missing[0]!.failure).toMatchObject({ kind: 'stuck', rule: 'Endorse' });
  });
  it('let w = endorse [] (["U"]:"x") in if ["S"] ? w then "accepted" else "rejected" ↦ ["S"]:"accepted"', () => {
    expect(only('let w = endorse [] (["U"]:"x") in if ["S"] ? w then "accepted" else "rejected"')).toEqual([['["S"]:"accepted"']]);
  });
});

describe('the quarantine pattern (prelude `quarantine`, spec §4)', () => {
  const coin = coinModel(Q.rat(1, 4));
  const SECRET_FIRST = 'let _ = send (["S"]:"the password is hunter2") in ';

  it('a secret in the conversation taints an ordinary answer: it comes back labelled ["S"]', () => {
    const res = run(`${SECRET_FIRST}(@"summarise").[1]`, coin);
    expect(table(res)).toEqual(sorted([
      ['["S"]:1', '["S"]:["the password is hunter2","summarise","1"]', '1/4'],
      ['["S"]:0', '["S"]:["the password is hunter2","summarise","0"]', '3/4'],
    ]));
  });

  it('a quarantined answer is untainted ([]), and the original conversation is restored untouched', () => {
    const res = run(`${SECRET_FIRST}quarantine "summarise"`, coin);
    expect(table(res)).toEqual(sorted([
      ['[]:1', '["S"]:["the password is hunter2"]', '1/4'],
      ['[]:0', '["S"]:["the password is hunter2"]', '3/4'],
    ]));
  });
});

describe('the example programs document what they print', () => {
  it('examples/quarantine.lam: the tainted answer is ["S"], the quarantined one [], under coin:1/4', () => {
    const res = run(readFileSync('examples/quarantine.lam', 'utf8'), coinModel(Q.rat(1, 4)));
    expect(Q.show(res.mass)).toBe('1');
    for (const [f] of entries(res.finals)) {
      expect(f.value.body.kind).toBe('record');
      if (f.value.body.kind !== 'record') continue;
      expect(f.value.body.fields.map((x) => `${x.name} ${lat.show(x.expr.label)}`)).toEqual(['tainted ["S"]', 'clean []']);
    }
  });

  it('examples/bare-pc-leak.lam: ["S"]:true under the reference, []:true under test-bare-pc', () => {
    const src = readFileSync('examples/bare-pc-leak.lam', 'utf8');
    expect(table(run(src, constModel('0')))).toEqual([['["S"]:true', '[]:[]', '1']]);
    expect(table(run(src, constModel('0'), { semantics: variantSemantics(variantByName('test-bare-pc')!) }))).toEqual([['[]:true', '[]:[]', '1']]);
  });
});

describe('spec §3 / §8.4: the bare-pc label-test leak', () => {
  // `["S"] ? y` where y is {S}:0 in one run and {U,S}:0 in the other; observer ["U"] sees neither y.
  const RUN0 = '["S"] ? (["S"]:0)';
  const RUN1 = '["S"] ? (["U","S"]:0)';
  const m = US.U;
  const prog = (src: string) => closeProgram(parse(src, lat), loadPrelude(lat));
  const observed = (src: string, semantics?: Semantics) => {
    const res = evaluate(constModel('0'), lat, US.bottom, EMPTY, prog(src), 50, semantics ? { semantics } : {});
    return observe(lat, m, res.finals);
  };

  it('the two programs and conversations are ∼["U"]-related', () => {
    expect(indistExpr(lat, m, prog(RUN0), prog(RUN1))).toBe(true);
    expect(indistConversation(lat, m, EMPTY, EMPTY)).toBe(true);
  });

  it('under the reference LabelTest (answer at pc ⊔ n ⊔ l) the ["U"]-observations are compatible', () => {
    const cmp = compare(observed(RUN0), observed(RUN1));
    expect(cmp.compatible).toBe(true);
  });

  it('under test-bare-pc (answer at pc ⊔ n) they are incompatible: Σ max = 2', () => {
    const bare = variantSemantics(CATALOGUE.find((v) => v.name === 'test-bare-pc')!);
    const cmp = compare(observed(RUN0, bare), observed(RUN1, bare));
    expect(cmp.compatible).toBe(false);
    expect(Q.show(cmp.maxSum)).toBe('2');
  });
});
