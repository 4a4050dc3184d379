// One process of `npm run bench:instructions` (bench/instructions.ts runs it under valgrind's callgrind).
// Plain JavaScript on a compiled package, so that the same file runs against any checkout's build:
//   node instructions-child.mjs <dist dir> <program source> <model> <reps>
// Loads and closes the program untimed, then evaluates it `reps` times with evaluator v2 (0: load only, the
// baseline the benchmark subtracts). Prints one JSON line: the rule applications of the last evaluation.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [dist, source, modelName, repsText] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(dist, p)).href);
const { latticeByName } = await load('src/lattice/registry.js');
const { parse } = await load('src/syntax/parser.js');
const { evaluateV2 } = await load('src/semantics/v2/index.js');
const { resolveModel } = await load('src/semantics/models/index.js');
const { closeProgram, loadPrelude } = await load('src/semantics/prelude.js');
const lat = latticeByName('powerset-us');
const model = resolveModel(modelName);
const prelude = loadPrelude(lat, model.preludeSource);
const expr = closeProgram(parse(source, lat), prelude);
let steps = 0;
for (let i = 0; i < Number(repsText); i++) {
  steps = evaluateV2(model, lat, lat.bottom, { label: lat.bottom, messages: [] }, expr, 1_000_000_000, { prelude }).steps;
}
process.stdout.write(`${JSON.stringify({ steps })}\n`);
