// `node scripts/nonvacuity-seeds.mjs [FIRST] [LAST] [RUNS]`: run `llmbda check --runs RUNS --seed K --json` on the
// reference semantics for K = FIRST..LAST (default 1..20, 300 runs), one process per seed, and print every
// verdict that is not `holds` (docs/ci.md "Non-vacuity"). Exit 1 if there is any. CPU-heavy: minutes.
import { execFileSync } from 'node:child_process';

const [first = 1, last = 20, runs = 300] = process.argv.slice(2).map(Number);
let verdicts = 0;
const bad = [];
for (let k = first; k <= last; k++) {
  let out;
  try {
    out = execFileSync(process.execPath, ['bin/llmbda.js', 'check', '--runs', String(runs), '--seed', String(k), '--reporter', 'json', '--no-progress'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  } catch (e) {
    out = e.stdout; // exit 1: some verdict did not hold
  }
  const doc = JSON.parse(out);
  for (const c of doc.cases) {
    verdicts++;
    if (c.verdict !== 'holds') bad.push(`seed ${k}: ${c.suite} on ${c.lattice}: ${c.verdict} ${c.message.split('\n').slice(0, 3).join(' / ')}`);
  }
  process.stdout.write(`seed ${k}: ${doc.cases.length} verdicts, ${doc.cases.filter((c) => c.verdict !== 'holds').length} not holds\n`);
}
process.stdout.write(`${verdicts} verdicts over seeds ${first}..${last} at --runs ${runs}: ${bad.length} not holds\n${bad.join('\n')}\n`);
process.exit(bad.length === 0 ? 0 : 1);
