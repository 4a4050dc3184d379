/**
 * `npm run hunt:controls`: the controls must never be flagged. Hunts `assert-drops-n-check` and
 * `fork-joins-label` for 20,000 TIPNI cases each (split over the shipped lattices) and `test-bare-pc`
 * for 20,000 on two-point, and exits 1 if any of them produces a report. (The tests run ~2,000.)
 *
 *   npx tsx scripts/hunt/controls.ts [--cases 20000] [--seed 1]
 */
import { SHIPPED_LATTICES } from '../../src/lattice/registry.ts';
import { hunt } from '../../src/api/hunt.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const cases = Number(flag('--cases') ?? '20000');
const seed = Number(flag('--seed') ?? '1');

const runs: { variant: string; lattices: readonly string[] }[] = [
  { variant: 'assert-drops-n-check', lattices: SHIPPED_LATTICES },
  { variant: 'fork-joins-label', lattices: SHIPPED_LATTICES },
  { variant: 'test-bare-pc', lattices: ['two-point'] },
];
let flagged = 0;
for (const r of runs) {
  const res = await hunt({ variant: r.variant, lattices: r.lattices, runs: Math.ceil(cases / r.lattices.length), seed, timeMs: 24 * 3_600_000, save: false });
  process.stdout.write(`${res.found ? 'FLAGGED' : 'clean  '} ${r.variant.padEnd(22)} ${res.tried} cases on ${r.lattices.join(', ')} in ${(res.timeMs / 1000).toFixed(0)} s (seed ${seed})\n`);
  if (res.found) { flagged++; process.stdout.write(`${res.report}\n`); }
}
process.exit(flagged === 0 ? 0 : 1);
