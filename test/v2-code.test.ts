/**
 * Evaluator v2's compiled code (src/semantics/v2/code.ts): which code is cached, and for how long.
 * `compileClosed` gives one code per expression (closures met during evaluation: equal closures need equal
 * code ids to merge); an evaluation's top-level program is compiled afresh (`compileProgram`), so its code, and
 * the machine its nodes' caches point to, can be collected once the evaluation returns although the caller
 * still holds the program (a property runner keeps each case while it shrinks and reports). Kept that long,
 * they cost a suite 22–30 % of its CPU in garbage collection (docs/benchmarks-history.md, thirteenth round).
 */
import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as Q from '../src/distributions/rational.ts';
import { powersetUS, US } from '../src/lattice/instances.ts';
import { parse } from '../src/syntax/parser.ts';
import { closeProgram, loadPrelude } from '../src/semantics/prelude.ts';
import { coinModel } from '../src/semantics/models/index.ts';
import { evaluateV2 } from '../src/semantics/v2/index.ts';
import { compileClosed, compileProgram, relocate, type Code } from '../src/semantics/v2/code.ts';

const lat = powersetUS;
const prelude = loadPrelude(lat);
const program = (src: string) => closeProgram(parse(src, lat), prelude);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Let the current job end (a WeakRef's target is kept until then), then collect twice. */
async function collect(): Promise<void> {
  await new Promise((r) => setTimeout(r, 0));
  gc();
  await new Promise((r) => setTimeout(r, 0));
  gc();
}

describe('v2 code: cached per expression, or per evaluation', () => {
  it('compileClosed gives the same code for the same expression, compileProgram new code each time', () => {
    const e = program('\\x. x + 1');
    expect(compileClosed(e)).toBe(compileClosed(e));
    const a = compileProgram(e), b = compileProgram(e);
    expect(a).not.toBe(b);
    expect(a.id).not.toBe(b.id);
    // Same code otherwise: same kind, same slots read.
    expect([a.k, a.uses, a.quick]).toEqual([b.k, b.uses, b.quick]);
  });

  it('an evaluation leaves nothing of its machine behind while the caller keeps the program', async () => {
    // The counter's literals and `+`/`-`/`==` nodes get per-machine caches (direct.ts) pointing at the machine;
    // `fused` is the machine's own counter object, so it lives exactly as long as the machine.
    const e = program('let count = fix (\\f. \\n. \\acc. if n == 0 then acc else f (n - 1) (acc + 1)) in count 50 0');
    const refs: WeakRef<object>[] = [];
    const run = (): void => {
      const r = evaluateV2(coinModel(Q.rat(1, 2)), lat, US.bottom, { label: US.bottom, messages: [] }, e, 100_000, { prelude });
      expect(Q.show(r.mass)).toBe('1');
      expect(r.fused.binop).toBeGreaterThan(0);
      refs.push(new WeakRef(r.fused));
    };
    run();
    run();
    await collect();
    expect(refs.map((w) => w.deref() === undefined)).toEqual([true, true]);
    expect(e.kind).toBe('app'); // the program itself is still held here
  });
});

describe('v2 code: relocate (an if\'s branch body moved into the if\'s environment)', () => {
  /**
   * The lambda `src` compiled as the second element of `\a. \b. \c. [a, src]`: its enclosing environment is
   * [c, a, …] (a read first there), its own captures in the order it reads them.
   */
  const lamIn = (src: string): Code<unknown> & { k: 'lam' } => {
    let c = compileProgram(parse(`\\a. \\b. \\c. [a, ${src}]`, lat)) as Code<unknown>;
    for (let i = 0; i < 3; i++) c = (c as Code<unknown> & { k: 'lam' }).body;
    return (c as Code<unknown> & { k: 'array' }).elems[1] as Code<unknown> & { k: 'lam' };
  };
  /** Every variable node's name and slot, left to right. */
  const vars = (c: Code<unknown>): string[] => {
    switch (c.k) {
      case 'var': return [`${c.name}@${c.slot}`];
      case 'app': return [...vars(c.fn), ...vars(c.arg)];
      case 'prim': case 'send': return vars(c.arg);
      case 'record': case 'array': return c.elems.flatMap(vars);
      case 'field': return vars(c.target);
      case 'index': return [...vars(c.target), ...vars(c.index)];
      case 'label': case 'fork': return vars(c.body);
      case 'dynlabel': case 'test': case 'assert': case 'endorse': return [...vars(c.label), ...vars(c.body)];
      default: return [];
    }
  };

  it('reads each captured variable from the enclosing slot it was captured from, with its uses mapped and sorted', () => {
    // λu. [c, b + a, endorse [] c]: its scope is [u, c, b, a] (the order it reads them), the enclosing one [c, a, b].
    const lam = lamIn('\\u. [c, b + a, endorse [] c]');
    expect(lam.capNames).toEqual(['c', 'b', 'a']);
    expect(lam.caps).toEqual([0, 2, 1]);
    const r = relocate(lam.body, lam.caps)!;
    expect(vars(lam.body)).toEqual(['c@1', 'b@2', 'a@3', 'c@1']);
    expect(vars(r)).toEqual(['c@0', 'b@2', 'a@1', 'c@0']);
    expect(lam.body.uses).toEqual([1, 2, 3]);
    expect(r.uses).toEqual([0, 1, 2]);
    expect(r.id).not.toBe(lam.body.id);
    // the copy keeps every field of the node kinds it copies (kind, names, quickness)
    expect(r.k).toBe(lam.body.k);
    expect(r.quick).toBe(lam.body.quick);
    // a sub-term reading one slot: its uses alone
    const second = (r as Code<unknown> & { k: 'array' }).elems[1]!;
    expect(second.uses).toEqual([1, 2]);
    expect((r as Code<unknown> & { k: 'array' }).elems[2]!.uses).toEqual([0]);
  });

  it('shares what reads no slot (closed lambdas included), copies nothing else', () => {
    const lam = lamIn('\\u. [1, \\z. z, a]');
    const r = relocate(lam.body, lam.caps)! as Code<unknown> & { k: 'array' };
    const orig = lam.body as Code<unknown> & { k: 'array' };
    expect(r.elems[0]).toBe(orig.elems[0]);
    expect(r.elems[1]).toBe(orig.elems[1]);
    expect(r.elems[2]).not.toBe(orig.elems[2]);
  });

  it('gives up on a body that reads the lambda\'s own parameter, or holds a lambda that captures', () => {
    const own = lamIn('\\u. [u, a]');
    expect(relocate(own.body, own.caps)).toBeUndefined();
    const capturing = lamIn('\\u. [\\z. a, b]');
    expect(relocate(capturing.body, capturing.caps)).toBeUndefined();
  });
});
