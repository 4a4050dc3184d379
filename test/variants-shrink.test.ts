/**
 * Hunting an unsound catalogue variant ends with a counterexample no larger (AST nodes of both
 * programs) than twice the catalogue's smallest known one, and that smallest one is a corpus file of
 * the recorded size that replays: reference holds, variant fails.
 */
import { describe, it, expect } from 'vitest';
import { CATALOGUE } from '../src/variants/catalogue.ts';
import { hunt, replay } from '../src/api/hunt.ts';
import { loadEntry } from '../src/llmbda/corpus.ts';

const unsound = CATALOGUE.filter((v) => (v.expected?.leaksOn.length ?? 0) > 0);

describe('hunting shrinks to within twice the smallest known counterexample', () => {
  for (const v of unsound) {
    const s = v.smallest!;
    it(`${v.name} on ${s.lattice}: shrunk size ≤ 2 × ${s.size}, and the smallest known replays`, async () => {
      const r = await hunt({ variant: v.name, lattices: [s.lattice], seed: 1, timeMs: 30_000 });
      expect(r.finding?.suite).toBe(s.suite);
      expect(r.finding!.size).toBeLessThanOrEqual(2 * s.size);
      const entry = loadEntry(s.file);
      expect(entry).toMatchObject({ variant: v.name, suite: s.suite, lattice: s.lattice, size: s.size });
      const rp = await replay(s.file);
      expect([rp.reference.outcome, rp.variant.outcome]).toEqual(['holds', 'fails']);
    });
  }
});
