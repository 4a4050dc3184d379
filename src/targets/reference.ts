/**
 * The reference semantics wrapped as a target: `peval` (the deterministic oracle-driven interpreter of
 * Theorem 3) behind the target interface. Enumerating it must give exactly `evaluate` (the adapter's
 * Theorem 3, `properties/adapter-theorem3.ts`). With `wire: true` every request, oracle answer and result
 * also makes a round trip through the JSON codec, so the same property checks the protocol's encoding.
 */
import type { Lattice } from '../lattice/lattice.ts';
import { peval } from '../semantics/peval.ts';
import { standardModel } from '../semantics/models/index.ts';
import { conversationFromJson, conversationToJson, defaultLabelCodec, exprFromJson, exprToJson, valueFromJson } from './wire.ts';
import type { RunOutcome, RunRequest, Target, TargetOracle } from './target.ts';

/** The standard model's serialise, primitives and prelude (its weights are never asked: the oracle answers). */
const MODEL = standardModel('reference-target', () => []);

export function referenceTarget<L>(lattice: Lattice<L>, opts: { readonly wire?: boolean } = {}): Target<L> {
  const codec = defaultLabelCodec(lattice);
  const trip = <T>(x: T, enc: (x: T) => unknown, dec: (j: unknown) => T): T => (opts.wire ? dec(JSON.parse(JSON.stringify(enc(x)))) : x);
  return {
    name: opts.wire ? 'reference (through the JSON codec)' : 'reference',
    lattice,
    run(req: RunRequest<L>, oracle: TargetOracle<L>): RunOutcome<L> {
      const pc = trip(req.pc, codec.encode, (j) => codec.decode(j)!);
      const conv = trip(req.conv, (c) => conversationToJson(codec, c), (j) => conversationFromJson(codec, j));
      const program = trip(req.program, (e) => exprToJson(codec, e), (j) => exprFromJson(codec, j));
      const r = peval(MODEL, lattice, (_i, messages) => oracle(messages).response, 0, req.fuel, pc, conv, program);
      switch (r.kind) {
        case 'ok': return {
          kind: 'ok',
          value: trip(r.value, (v) => exprToJson(codec, v), (j) => valueFromJson(codec, j)),
          conv: trip(r.conv, (c) => conversationToJson(codec, c), (j) => conversationFromJson(codec, j)),
        };
        case 'error': return { kind: 'stuck', reason: r.reason };
        case 'fuel': return { kind: 'fuel' };
      }
    },
  };
}
