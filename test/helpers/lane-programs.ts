/**
 * What the lane tests share (test/v2-lane.test.ts, test/v2-recursion-lane.test.ts): integer literals and arithmetic
 * that leave the small integers part-way, the comparisons, a countdown exit, and a run of the compiled package in a
 * child process with or without code generation from strings.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

const S = 2 ** 53 - 1;
/** Integer literals: small, negative (written as `0 - k`), and near 2^53 − 1, so that results leave the lane part-way. */
export const literal = fc.oneof(
  fc.integer({ min: 0, max: 9 }).map(String),
  fc.integer({ min: 1, max: 9 }).map((k) => `(0 - ${k})`),
  fc.constantFrom(String(S), String(S - 3), '94906265', String(3 ** 33), `(0 - ${S})`),
);
/** Arithmetic over `vars`: `+ − %` and products by a literal (a product of two variables would grow past any bound). */
export const arith = (vars: readonly string[]): fc.Arbitrary<string> => fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...vars),
    literal,
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '%'), tie('e')).map(([x, o, y]) => `(${x} ${o} ${y})`),
    fc.tuple(tie('e'), literal).map(([x, y]) => `(${x} * ${y})`),
  ),
})).e;
export const CMP = ['==', '<', '>', '<=', '>='] as const;
/** The exit: n counting down to 0, the call on the side the condition picks while n > 0. */
export const countdown = fc.oneof(
  fc.record({ cond: fc.constantFrom('n == 0', '0 >= n', 'n <= 0'), callIn: fc.constant('else') }),
  fc.record({ cond: fc.constantFrom('n > 0', '0 < n', 'n >= 1'), callIn: fc.constant('then') }),
);

/**
 * `program` evaluated by the compiled package (dist/) on v2 in a child process started with `flags` (e.g.
 * `--disallow-code-generation-from-strings`): its single outcome's value and weight, its rule applications and the
 * fused counts named in `fused`.
 */
export function childRun(program: string, flags: readonly string[], fused: readonly string[]): Record<string, unknown> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const script = [
    `const at = (p) => new URL('./dist/src/' + p + '.js', ${JSON.stringify(`file://${root}/`)}).href;`,
    `const Q = await import(at('distributions/rational'));`,
    `const { entries } = await import(at('distributions/subdist'));`,
    `const { latticeByName } = await import(at('lattice/registry'));`,
    `const { parse } = await import(at('syntax/parser'));`,
    `const { evaluateV2 } = await import(at('semantics/v2/index'));`,
    `const { resolveModel } = await import(at('semantics/models/index'));`,
    `const { closeProgram, loadPrelude } = await import(at('semantics/prelude'));`,
    `const lat = latticeByName('powerset-us'), model = resolveModel('coin:1/2');`,
    `const e = closeProgram(parse(${JSON.stringify(program)}, lat), loadPrelude(lat, model.preludeSource));`,
    `const r = evaluateV2(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, e, 1e9, {});`,
    `const [[f, w]] = entries(r.finals);`,
    `const out = { value: Q.show(f.value.body.value), weight: Q.show(w), steps: r.steps };`,
    `for (const k of ${JSON.stringify(fused)}) out[k] = r.fused[k];`,
    `console.log(JSON.stringify(out));`,
  ].join('\n');
  return JSON.parse(execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8' })) as Record<string, unknown>;
}
