/**
 * Statistical mode (issue 13): for a target that cannot be enumerated exactly (internal randomness, no
 * replay), sample runs with oracles drawn from `μ_M` and test observer-distribution compatibility
 * (TIPNI's conclusion `μ0 ⌣ μ1`) with a sound two-sample test whose error probability is reported.
 *
 * The test. `μ0 ⌣ μ1` iff `Σ_q max(μ0(q), μ1(q)) ≤ 1`, and that sum is `max_A μ0(A) + μ1(Aᶜ)` over sets of
 * observer classes `A` (failed runs belong to no class). Each sample is split in two halves: the first
 * halves choose `A = {q : freq0(q) > freq1(q)}`; on the independent second halves, Hoeffding bounds each of
 * `μ0(A)`, `μ1(Aᶜ)` within `t = √(ln(2/δ)/2m)` with probability ≥ 1 − δ/2. So when the runs ARE compatible,
 * `p̂0(A) + p̂1(Aᶜ) > 1 + t0 + t1` happens with probability ≤ δ: rejecting then is wrong at most δ of the
 * time. Not rejecting proves nothing (it is never reported as "holds").
 */
import type { Expr } from '../syntax/ast.ts';
import type { Conversation } from '../semantics/config.ts';
import type { PModel } from '../semantics/model.ts';
import { loadPrelude, parseResponse } from '../semantics/prelude.ts';
import { classKey } from '../observe/indist.ts';
import { makeRng, sampledOracle, NoResponse } from '../semantics/sampling.ts';
import { runRequest } from './enumerate.ts';
import { OracleAbort, type Target } from './target.ts';
import { isUserCodeError } from '../util/user-code.ts';

/** Observer classes of `n` sampled runs (`undefined`: the run did not end in a final configuration). */
export async function sampleClasses<L>(
  target: Target<L>, model: PModel, obs: L, pc: L, conv: Conversation<L>, program: Expr<L>, fuel: number, n: number, seed: number,
): Promise<(string | undefined)[]> {
  const lat = target.lattice;
  const prelude = loadPrelude(lat, model.preludeSource);
  const rng = makeRng(seed);
  const key = classKey(lat, obs);
  const out: (string | undefined)[] = [];
  const req = runRequest(target, pc, conv, program, fuel);
  for (let k = 0; k < n; k++) {
    const draw = sampledOracle(model, rng);
    let i = 0;
    try {
      const r = await target.run(req, (messages) => {
        let response: string;
        try { response = draw(i++, messages); } catch (e) { if (e instanceof NoResponse) throw new OracleAbort(e.message); throw e; }
        return { response, code: parseResponse(response, lat, prelude) };
      });
      out.push(r.kind === 'ok' ? key({ conv: r.conv, value: r.value }) : undefined);
    } catch (e) {
      if (isUserCodeError(e)) throw e; // an in-process target's own exception: the user's, reported as such
      out.push(undefined); // withheld by the model, or an out-of-process target failed: no final configuration
    }
  }
  return out;
}

/** The verdict of the two-sample test. */
export interface CompatibilityTest {
  /** True: incompatible, with error probability at most `delta`. False: no evidence (not a proof of compatibility). */
  readonly rejected: boolean;
  readonly delta: number;
  /** `p̂0(A) + p̂1(Aᶜ)` on the second halves, and the threshold `1 + t0 + t1` it is compared with. */
  readonly statistic: number;
  readonly threshold: number;
}

/** Test `μ0 ⌣ μ1` from two samples of observer classes; rejecting is wrong with probability ≤ `delta`. */
export function compatibilityTest(s0: readonly (string | undefined)[], s1: readonly (string | undefined)[], delta: number): CompatibilityTest {
  const half = (s: readonly (string | undefined)[]) => [s.slice(0, Math.floor(s.length / 2)), s.slice(Math.floor(s.length / 2))] as const;
  const [a0, b0] = half(s0), [a1, b1] = half(s1);
  const freq = (s: readonly (string | undefined)[]) => {
    const m = new Map<string, number>();
    for (const q of s) if (q !== undefined) m.set(q, (m.get(q) ?? 0) + 1 / s.length);
    return m;
  };
  const f0 = freq(a0), f1 = freq(a1);
  const A = new Set([...f0].filter(([q, p]) => p > (f1.get(q) ?? 0)).map(([q]) => q));
  const p0A = b0.filter((q) => q !== undefined && A.has(q)).length / Math.max(1, b0.length);
  const p1notA = b1.filter((q) => q !== undefined && !A.has(q)).length / Math.max(1, b1.length);
  const t = (m: number): number => (m === 0 ? Infinity : Math.sqrt(Math.log(2 / delta) / (2 * m)));
  const threshold = 1 + t(b0.length) + t(b1.length);
  const statistic = p0A + p1notA;
  return { rejected: statistic > threshold, delta, statistic, threshold };
}
