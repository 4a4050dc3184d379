// One process of `npm run bench:instructions` (bench/instructions.ts runs it under valgrind's callgrind).
// Plain JavaScript on a compiled package, so that the same file runs against any checkout's build:
//   node instructions-child.mjs <dist dir> <task JSON>
// Task `{ "program": source, "model": name, "reps": K }`: loads and closes the program untimed, then evaluates it K
// times with evaluator v2. Task `{ "suite": name, "lattice": name, "runs": N }`: runs the property suite for N
// generated cases (seed 1, tuned profile, reference semantics), as bench:suites' first pass does. K or N = 0 loads
// only: the baseline the benchmark subtracts. Prints one JSON line: the rule applications of the last evaluation,
// or the suite's verdict.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [dist, taskText] = process.argv.slice(2);
const task = JSON.parse(taskText);
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { latticeByName } = await load('src/lattice/registry.js');
if (task.suite !== undefined) {
  const { runSuite } = await load('src/runner/suite.js');
  const { referenceCtx } = await load('src/llmbda/context.js');
  const { LLMBDA_SUITES } = await load('src/api/registry.js');
  const suite = LLMBDA_SUITES.find((s) => s.name === task.suite);
  if (suite === undefined) throw new Error(`no suite ${task.suite}`);
  const ctx = referenceCtx(latticeByName(task.lattice), { profile: 'tuned' });
  const v = task.runs > 0 ? runSuite(suite, ctx, { runs: task.runs, seed: 1 }) : undefined;
  process.stdout.write(`${JSON.stringify({ steps: 0, ok: v?.ok ?? true })}\n`);
} else {
  const { parse } = await load('src/syntax/parser.js');
  const { evaluateV2 } = await load('src/semantics/v2/index.js');
  const { resolveModel } = await load('src/semantics/models/index.js');
  const { closeProgram, loadPrelude } = await load('src/semantics/prelude.js');
  const lat = latticeByName('powerset-us');
  const model = resolveModel(task.model);
  const prelude = loadPrelude(lat, model.preludeSource);
  const expr = closeProgram(parse(task.program, lat), prelude);
  let steps = 0;
  for (let i = 0; i < task.reps; i++) {
    steps = evaluateV2(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, expr, 1_000_000_000, { prelude }).steps;
  }
  process.stdout.write(`${JSON.stringify({ steps })}\n`);
}
