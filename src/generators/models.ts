/**
 * Generated models as serialisable data (`ModelSpec`), so a counterexample can be saved, printed and
 * replayed. Responses are LLMbda source: data ("1", "[1, 2]") and code ("send \"x\"", "clear",
 * "[\"S\"]:1", "\\x. x", "endorse [] 1") — `recv` runs the parsed response.
 */
import fc from 'fast-check';
import * as Q from '../distributions/rational.ts';
import type { PModel, ResponseDist } from '../semantics/model.ts';
import { standardModel, hashString } from '../semantics/models/index.ts';
import { absurd } from '../util/absurd.ts';

/** A response distribution as data: `[response, "p/q"]` pairs. */
export type ResponseSpec = readonly (readonly [string, string])[];

export type ModelSpec =
  /** Every conversation gets the same distribution. */
  | { readonly kind: 'constant'; readonly responses: ResponseSpec }
  /** Answers with the last message (the prompt-injection channel), or `fallback` on an empty conversation. */
  | { readonly kind: 'echo'; readonly fallback: string }
  /** The conversation's hash (with `seed`) picks one of the tables: the answer depends on what was said. */
  | { readonly kind: 'hashed'; readonly seed: number; readonly tables: readonly ResponseSpec[] };

/** Build the model a spec denotes. */
export function modelOf(spec: ModelSpec): PModel {
  const dist = (r: ResponseSpec): ResponseDist => r.map(([s, w]) => [s, Q.parseRational(w)!] as const);
  switch (spec.kind) {
    case 'constant': {
      const d = dist(spec.responses);
      return standardModel(showModelSpec(spec), () => d, { deterministic: d.length <= 1 });
    }
    case 'echo':
      return standardModel(showModelSpec(spec), (c) => [[c.length === 0 ? spec.fallback : c[c.length - 1]!, Q.ONE]], { deterministic: true });
    case 'hashed': {
      const ds = spec.tables.map(dist);
      return standardModel(showModelSpec(spec), (c) => ds[hashString(JSON.stringify(c), spec.seed) % ds.length]!, {
        deterministic: ds.every((d) => d.length <= 1),
      });
    }
    default:
      return absurd(spec);
  }
}

/** Human rendering of a model spec. */
export function showModelSpec(spec: ModelSpec): string {
  const r = (x: ResponseSpec): string => `{${x.map(([s, w]) => `${JSON.stringify(s)}: ${w}`).join(', ')}}`;
  switch (spec.kind) {
    case 'constant': return `constant ${r(spec.responses)}`;
    case 'echo': return `echo (empty conversation: ${JSON.stringify(spec.fallback)})`;
    case 'hashed': return `hashed(seed ${spec.seed}) [${spec.tables.map(r).join(' | ')}]`;
    default: return absurd(spec);
  }
}

/** Is every response distribution of the spec a point mass or empty (Lemma 3's deterministic models)? */
export function isDeterministicSpec(spec: ModelSpec): boolean {
  switch (spec.kind) {
    case 'constant': return spec.responses.length <= 1;
    case 'echo': return true;
    case 'hashed': return spec.tables.every((t) => t.length <= 1);
    default: return absurd(spec);
  }
}

/** Does every response distribution sum to exactly 1 (`IsDist(M)`, Theorem 3)? */
export function isDistSpec(spec: ModelSpec): boolean {
  const total = (r: ResponseSpec): boolean => Q.eq(r.reduce((a, [, w]) => Q.add(a, Q.parseRational(w)!), Q.ZERO), Q.ONE);
  switch (spec.kind) {
    case 'constant': return total(spec.responses);
    case 'echo': return true;
    case 'hashed': return spec.tables.every(total);
    default: return absurd(spec);
  }
}

/** Responses that are data. */
export const DATA_RESPONSES: readonly string[] = ['0', '1', 'true', 'false', '"yes"', '[1, 2]', '{a: 1}', 'null'];
/** Responses that are code: sends, clears, labelled values, lambdas, endorse, nested prompts. */
export const CODE_RESPONSES: readonly string[] = [
  'send "leak"', 'clear', '["S"]:1', '["U"]:true', '["H"]:1', '[2]:0', '\\x. x', 'endorse [] 1', '@"again"', 'fork @"peek"', 'recv',
];

const responseArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DATA_RESPONSES) },
  { weight: 2, arbitrary: fc.constantFrom(...CODE_RESPONSES) },
  { weight: 1, arbitrary: fc.constantFrom('not (valid', '', ')') },
);

/** A response distribution with exact weights; total exactly 1 unless `sub` (then ≤ 1). */
export function responseSpecArb(opts: { sub?: boolean; maxResponses?: number } = {}): fc.Arbitrary<ResponseSpec> {
  const n = opts.maxResponses ?? 3;
  return fc
    .tuple(fc.uniqueArray(responseArb, { minLength: 1, maxLength: n }), fc.array(fc.integer({ min: 1, max: 6 }), { minLength: n + 1, maxLength: n + 1 }))
    .map(([rs, ws]) => {
      const den = ws.slice(0, rs.length).reduce((a, b) => a + b, 0) + (opts.sub ? ws[n]! : 0);
      return rs.map((r, i) => [r, Q.show(Q.rat(ws[i]!, den))] as const);
    });
}

/** Models: constant, echo-like, conversation-hashed; `IsDist` unless `sub`. Biased to small, readable ones. */
export function modelSpecArb(opts: { sub?: boolean; deterministic?: boolean } = {}): fc.Arbitrary<ModelSpec> {
  const table = opts.deterministic ? responseSpecArb({ ...opts, maxResponses: 1 }) : responseSpecArb(opts);
  return fc.oneof(
    { weight: 4, arbitrary: table.map((responses): ModelSpec => ({ kind: 'constant', responses })) },
    { weight: 1, arbitrary: fc.constantFrom(...DATA_RESPONSES).map((fallback): ModelSpec => ({ kind: 'echo', fallback })) },
    {
      weight: 2,
      arbitrary: fc.record({ seed: fc.integer({ min: 0, max: 1000 }), tables: fc.array(table, { minLength: 2, maxLength: 3 }) })
        .map(({ seed, tables }): ModelSpec => ({ kind: 'hashed', seed, tables })),
    },
  );
}
