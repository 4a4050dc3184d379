/**
 * Evaluator v2's compiled code (src/semantics/v2/code.ts): which code is cached, and for how long.
 * `compileClosed` gives one code per expression (closures met during evaluation: equal closures need equal
 * code ids to merge); an evaluation's top-level program is compiled afresh (`compileProgram`), so its code, and
 * the machine its nodes' caches point to, can be collected once the evaluation returns although the caller
 * still holds the program (a property runner keeps each case while it shrinks and reports). Kept that long,
 * they cost a suite 22–30 % of its CPU in garbage collection (docs/benchmarks.md, thirteenth round).
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
import { compileClosed, compileProgram } from '../src/semantics/v2/code.ts';

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
