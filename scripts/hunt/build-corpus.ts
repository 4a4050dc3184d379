/**
 * Rebuild the catalogue's corpus entries: for every unsound catalogue variant, hunt on each lattice
 * it should leak on with a few seeds, keep the smallest counterexample (ties: powerset-us first, then
 * fewer conversation messages) and save it to counterexamples/. Hand-written entries are not touched, and
 * a hand-minimised smallest (`*-hand.json`) is kept unless the hunt does better.
 *
 *   npx tsx scripts/hunt/build-corpus.ts [--seeds 4] [--variant NAME] [--dry-run]
 *   npx tsx scripts/hunt/build-corpus.ts --render   (only: recompute every entry's size, rewrite the .lam files)
 */
import { CATALOGUE } from '../../src/variants/catalogue.ts';
import { hunt, type Finding } from '../../src/api/hunt.ts';
import { corpusFiles, entryCase, loadEntry, saveEntry, slug, CORPUS_DIR } from '../../src/llmbda/corpus.ts';
import { caseSize } from '../../src/llmbda/minimise.ts';
import { resolveLattice } from '../../src/lattice/registry.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const seeds = Number(flag('--seeds') ?? '4');
const only = flag('--variant');
const dry = args.includes('--dry-run');

if (args.includes('--render')) {
  for (const file of corpusFiles(CORPUS_DIR)) {
    const entry = loadEntry(file);
    const lat = await resolveLattice(entry.lattice);
    const size = caseSize(entryCase(file, entry, lat).value);
    saveEntry(CORPUS_DIR, file.replace(/^.*\//, '').replace(/\.json$/, ''), { ...entry, size }, lat);
    process.stdout.write(`${file}: size ${size}${size !== entry.size ? ` (was ${entry.size})` : ''}\n`);
  }
  process.exit(0);
}

const messages = (f: Finding): number => f.entry.conversations.reduce((n, c) => n + c.messages.length, 0);
for (const v of CATALOGUE) {
  if (only && v.name !== only) continue;
  const leaks = v.expected?.leaksOn ?? [];
  if (leaks.length === 0) continue;
  let best: Finding | undefined;
  for (const lattice of leaks) {
    for (let seed = 1; seed <= seeds; seed++) {
      const r = await hunt({ variant: v.name, lattices: [lattice], seed, timeMs: 30_000, save: false, minimiseMs: 20_000 });
      const f = r.finding;
      if (!f) continue;
      const better = !best || f.size < best.size ||
        (f.size === best.size && (lattice === 'powerset-us' && best.lattice !== 'powerset-us' || messages(f) < messages(best)));
      if (better) best = f;
    }
  }
  if (!best) { process.stdout.write(`${v.name}: NOT FOUND\n`); continue; }
  if (v.smallest?.file.includes('-hand') && best.size >= v.smallest.size) {
    process.stdout.write(`${v.name}: hunted size ${best.size}; keeping the hand-minimised ${v.smallest.file} (size ${v.smallest.size})\n`);
    continue;
  }
  const name = `${slug(v.name)}-${slug(best.lattice)}-${best.seed}`;
  process.stdout.write(`${v.name}: size ${best.size} on ${best.lattice} (seed ${best.seed}) → ${name}.json\n`);
  if (!dry) saveEntry(CORPUS_DIR, name, { ...best.entry, title: `${v.name}: ${v.description}` }, await resolveLattice(best.lattice));
}
