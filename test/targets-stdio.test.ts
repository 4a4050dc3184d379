/**
 * The out-of-process transport (issue 13): the Python reference client passes the protocol test
 * (its exact distributions equal the reference semantics); a target that crashes, hangs or prints
 * garbage gives a clear per-run outcome and the run goes on; child processes are cleaned up; the
 * deliberately leaky JavaScript target's three planted bugs are each found and shrunk, and without them
 * TIPNI holds against it.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import * as Q from '../src/distributions/rational.ts';
import { equals, show } from '../src/distributions/subdist.ts';
import { powersetUS, twoPoint, type USLabel } from '../src/lattice/instances.ts';
import type { LabelCodec } from '../src/targets/wire.ts';
import { parse } from '../src/syntax/parser.ts';
import { size } from '../src/syntax/helpers.ts';
import { emptyConversation } from '../src/semantics/config.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { modelOf } from '../src/generators/models.ts';
import { programOf, type PairCase } from '../src/generators/pairs.ts';
import { enumerate, lostKey, lostMass } from '../src/targets/enumerate.ts';
import { liveChildren, stdioTarget } from '../src/targets/stdio.ts';
import { runTargetSuite, targetTipni } from '../src/targets/suites.ts';
import type { Target } from '../src/targets/target.ts';

const file = (f: string): string => fileURLToPath(new URL(`../examples/targets/${f}`, import.meta.url));
const coin = modelOf({ kind: 'constant', responses: [['1', '1/3'], ['0', '2/3']] });
const opened: Target<unknown>[] = [];
afterAll(async () => { for (const t of opened) await t.close?.(); });

describe('the Python reference client passes the protocol test', () => {
  const py = stdioTarget(powersetUS, { command: ['python3', file('reference_client.py')] });
  opened.push(py as Target<unknown>);
  const programs = [
    '["S"]:1',
    '(\\x. send x) (["S"]:"a")',
    '[1, ["U"]:2].[1]',
    '(\\_. recv) (send "q")',
    '(\\f. f (f 1)) (\\x. ["U"]:x)',
    '(\\a. (\\b. [a.[1], b.[1]]) ((\\_. recv) (send "r"))) ((\\_. recv) (send "q"))',
    '["S"]:(\\_. recv) (send "q")',
  ];
  for (const src of programs) {
    it(`exact distribution of ${src} equals the reference`, async () => {
      const e = parse(src, powersetUS);
      const d = await enumerate(py, coin, 0, emptyConversation(powersetUS), e, 40);
      const r = evaluate(coin, powersetUS, 0, emptyConversation(powersetUS), e, 40);
      expect(show(d.finals)).toBe(show(r.finals));
      expect(equals(d.finals, r.finals)).toBe(true);
      // stuck with stuck (reasons are the target's own words), nothing else missing
      const refStuck = r.missing.reduce((a, m) => Q.add(a, m.weight), Q.ZERO);
      expect(r.missing.every((m) => m.failure.kind === 'stuck')).toBe(true);
      expect(d.missing.every((m) => m.lost.kind === 'stuck')).toBe(true);
      expect(Q.show(lostMass(d, ['stuck']))).toBe(Q.show(refStuck));
      expect(Q.eq(d.modelDeficit, r.modelDeficit)).toBe(true);
    });
  }
  it('reports a construct outside its fragment as stuck (to be masked), and the stream stays in sync', async () => {
    const d = await enumerate(py, coin, 0, emptyConversation(powersetUS), parse('{a: 1}', powersetUS), 10);
    expect(d.missing.map((m) => lostKey(m.lost))).toEqual(['stuck: unsupported construct record']);
    const again = await enumerate(py, coin, 0, emptyConversation(powersetUS), parse('send "x"', powersetUS), 10);
    expect(Q.show(again.mass)).toBe('1');
  });
});

describe('a misbehaving target yields a clear per-run outcome and the run continues', () => {
  const leaky = stdioTarget(powersetUS, { command: ['node', file('leaky-target.mjs'), '--correct'], timeoutMs: 1500 });
  opened.push(leaky as Target<unknown>);
  const run = (src: string) => enumerate(leaky, coin, 0, emptyConversation(powersetUS), parse(src, powersetUS), 20);
  it('crash, hang and garbage, each followed by a normal run on the same target', async () => {
    const cases: [string, RegExp][] = [
      ['send "__crash__"', /^crash: the target process exited \(code 3\)/],
      ['(\\_. "__hang__") (send "q")', /^timeout after 1500 ms$/],
      ['send "__garbage__"', /^garbage: not a protocol message: "this is not JSON"/],
    ];
    for (const [bad, why] of cases) {
      const d = await run(bad);
      expect(d.finals.size).toBe(0);
      expect(d.missing).toHaveLength(1);
      expect(lostKey(d.missing[0]!.lost)).toMatch(why);
      expect(Q.show(d.missing[0]!.weight)).toBe('1');
      const ok = await run('(\\_. recv) (send "q")');
      expect(Q.show(ok.mass)).toBe('1');
      expect(ok.finals.size).toBe(2);
    }
  }, 20_000);
  it('a command that does not exist is a crash outcome, not an exception', async () => {
    const t = stdioTarget(powersetUS, { command: ['/nonexistent/interpreter'] });
    const d = await enumerate(t, coin, 0, emptyConversation(powersetUS), parse('1', powersetUS), 5);
    expect(lostKey(d.missing[0]!.lost)).toMatch(/^crash: could not start/);
    await t.close?.();
  });
  it('closing the targets leaves no child process behind', async () => {
    const t = stdioTarget(twoPoint, { command: ['node', file('leaky-target.mjs')] });
    await enumerate(t, coin, 'L', emptyConversation(twoPoint), parse('send "x"', twoPoint), 5);
    expect(liveChildren()).toBeGreaterThan(0);
    await t.close?.();
    await leaky.close?.();
    for (const o of opened) await o.close?.();
    expect(liveChildren()).toBe(0);
  });
});

describe('the leaky target\'s planted bugs are each found by TIPNI and shrunk', () => {
  const bugs: [string, string][] = [['binop', 'prim binop_+'], ['field', 'field'], ['clear', 'clear']];
  for (const [bug, construct] of bugs) {
    it(`${bug}: a counterexample involving ${construct}, at most 40 AST nodes`, async () => {
      const t = stdioTarget(twoPoint, { command: ['node', file('leaky-target.mjs'), `--bugs=${bug}`], features: { kinds: ['endorse'] } });
      const v = await runTargetSuite(targetTipni, { target: t, profile: 'tuned' }, { runs: 3000, seed: 1 });
      await t.close?.();
      expect(v.counterexample, `${bug} survived ${v.runs} cases`).toBeDefined();
      expect(v.counterexample!.reason).toMatch(/incompatible/);
      expect(v.constructs).toContain(construct);
      const c = v.counterexample!.value as PairCase<unknown>;
      expect(size(programOf(c, 0)) + size(programOf(c, 1))).toBeLessThanOrEqual(40);
      expect(v.masked['endorse'] ?? 0).toBeGreaterThan(0);
    }, 60_000);
  }
  it('without the planted bugs, TIPNI holds against it (300 pairs, not vacuous)', async () => {
    const t = stdioTarget(twoPoint, { command: ['node', file('leaky-target.mjs'), '--correct'], features: { kinds: ['endorse'] } });
    const v = await runTargetSuite(targetTipni, { target: t, profile: 'tuned' }, { runs: 300, seed: 1 });
    await t.close?.();
    expect(v.counterexample?.reason).toBeUndefined();
    expect(v.ok).toBe(true);
    expect(v.stats['raw outcomes differ']).toBeGreaterThan(0.3);
  }, 60_000);
});

describe('labels across representations: a target\'s own label encoding, mapped by a codec', () => {
  // The leaky target with --labels=text writes powerset-us labels as "U+S", "S", "" instead of ["U","S"], ….
  const text: LabelCodec<USLabel> = {
    encode: (l) => [(l & 1) !== 0 ? 'U' : '', (l & 2) !== 0 ? 'S' : ''].filter((a) => a !== '').join('+'),
    decode: (j) => (typeof j === 'string' ? powersetUS.toLabel({ kind: 'array', elems: (j === '' ? [] : j.split('+')).map((value) => ({ kind: 'str', value })) }) : undefined),
  };
  const cmd = (...flags: string[]): [string, ...string[]] => ['node', file('leaky-target.mjs'), '--labels=text', ...flags];
  it('with the codec, the exact distribution equals the reference\'s; without it, the run fails and is reported (the target cannot read the toolkit\'s labels)', async () => {
    const e = parse('(\\x. send x) (["S"]:[["U"]:1])', powersetUS);
    const r = evaluate(coin, powersetUS, 0, emptyConversation(powersetUS), e, 20);
    const withCodec = stdioTarget(powersetUS, { command: cmd('--correct'), labels: text });
    const without = stdioTarget(powersetUS, { command: cmd('--correct') });
    const d = await enumerate(withCodec, coin, 0, emptyConversation(powersetUS), e, 20);
    const g = await enumerate(without, coin, 0, emptyConversation(powersetUS), e, 20);
    await withCodec.close?.();
    await without.close?.();
    expect(show(d.finals)).toBe(show(r.finals));
    expect(g.finals.size).toBe(0);
    expect(['crash', 'garbage']).toContain(g.missing[0]?.lost.kind);
  });
  it('with the codec, TIPNI finds the planted operator bug, and holds without it', async () => {
    const bad = stdioTarget(powersetUS, { command: cmd('--bugs=binop'), labels: text, features: { kinds: ['endorse'] } });
    const good = stdioTarget(powersetUS, { command: cmd('--correct'), labels: text, features: { kinds: ['endorse'] } });
    const vb = await runTargetSuite(targetTipni, { target: bad, profile: 'tuned' }, { runs: 3000, seed: 2 });
    const vg = await runTargetSuite(targetTipni, { target: good, profile: 'tuned' }, { runs: 300, seed: 2 });
    await bad.close?.();
    await good.close?.();
    expect(vb.constructs).toContain('prim binop_+');
    expect(vg.counterexample?.reason).toBeUndefined();
    expect(vg.ok).toBe(true);
  }, 60_000);
});
