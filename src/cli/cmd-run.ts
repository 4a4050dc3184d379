/**
 * `llmbda run FILE.lam`: the exact distribution of a program as a table, the missing mass by reason,
 * or (`--sample N`) frequencies of N seeded `peval` runs.
 */
import type { Command } from 'commander';
import { UserError } from '../util/absurd.ts';
import * as Q from '../distributions/rational.ts';
import { entries } from '../distributions/subdist.ts';
import { resolveLattice } from '../lattice/registry.ts';
import type { AnyLattice } from '../lattice/lattice.ts';
import { parse } from '../syntax/parser.ts';
import { prettyPrint } from '../syntax/printer.ts';
import { evaluate } from '../semantics/evaluate.ts';
import { resolveModel } from '../semantics/models/index.ts';
import { closeProgram, loadPrelude } from '../semantics/prelude.ts';
import { failureKey, showConversation, type Conversation } from '../semantics/config.ts';
import { peval } from '../semantics/peval.ts';
import { makeRng, NoResponse, sampledOracle } from '../semantics/sampling.ts';
import { DEFAULT_MAX_MEMORY_MB, duration, memoryMb, parseLabelFlag, positiveInt, readText, seed32, stackMb } from './common.ts';
import { BudgetExceeded } from '../semantics/errors.ts';
import { renderTable } from '../util/table.ts';
import type { CommandResult } from './main.ts';
import { inLargeStack } from './large-stack.ts';
import { resolveVariantSemantics } from './variant-option.ts';
import { addOracleOptions, executeLiveRun, wantsLiveRun, type OracleOpts } from './oracle.ts';
import { parseModelSpec } from '../llmbda/corpus.ts';
import { modelOf } from '../generators/models.ts';

export interface RunOpts extends OracleOpts {
  lattice: string;
  model: string;
  fuel: number;
  maxSteps?: number;
  maxOutcomes?: number;
  pc?: string;
  conv?: string;
  sample?: number;
  seed: number;
  json?: boolean;
  variant?: string;
  /** JavaScript stack of the evaluation worker (MB). */
  stackMb: number;
  caseTimeout?: number;
  maxMemoryMb?: number;
}

export function registerRun(program: Command, result: CommandResult): void {
  addOracleOptions(program
    .command('run'))
    .description('evaluate a program exactly and print its distribution (or sample it with --sample)')
    .argument('<file>', 'an LLMbda program (.lam)')
    .option('--lattice <name|file.ts>', 'label lattice: two-point, powerset-us, chain(N), ppmf, or a .ts file', 'powerset-us')
    .option('--model <spec>', 'model: coin:P, echo, const:TEXT, table:FILE.json, random:SEED, or a corpus entry\'s "model" as JSON', 'coin:1/2')
    .option('--fuel <n>', 'fuel = maximum derivation depth', positiveInt('--fuel'), 200)
    .option('--max-outcomes <n>', 'stop (exit 2) when a distribution grows past this many distinct outcomes', positiveInt('--max-outcomes'), 10_000)
    .option('--pc <label>', 'starting program-counter label (default ⊥)')
    .option('--conv <label:messages>', 'starting conversation, as reports print it, e.g. \'["S"]:["secret"]\' (default ⊥:[], empty)')
    .option('--variant <name|file.ts>', 'evaluate under a variant semantics instead of the reference ("reference": the default)')
    .option('--sample <n>', 'run peval N times with a seeded sampled oracle and print frequencies', positiveInt('--sample'))
    .option('--seed <s>', 'seed for --sample', seed32("--seed"), 1)
    .option('--stack-mb <n>', 'JavaScript stack for the evaluation worker, in MB, at most 4096 (deep recursion needs more)', stackMb('--stack-mb'), 512)
    .option('--case-timeout <duration>', 'time limit of the evaluation, CPU time on Linux (it is stopped and reported)', duration('--case-timeout'), 60_000)
    .option('--max-steps <n>', 'evaluation steps before the run is stopped (default: unlimited, fuel and --case-timeout bound it)', positiveInt('--max-steps'))
    .option('--max-memory-mb <n>', `heap cap of the evaluation worker in MB: past it the run stops with a clear error, exit 2`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .option('--json', 'machine-readable output')
    .action(async (file: string, opts: RunOpts) => {
      const { stdout, stderr, exitCode } = await inLargeStack<RunOutput>('run', { file, opts }, opts.stackMb, opts.caseTimeout ?? 60_000, opts.maxMemoryMb);
      process.stdout.write(stdout);
      if (stderr) process.stderr.write(stderr);
      result.exitCode = exitCode;
    });
}

/** `--conv LABEL:MESSAGES`: a starting conversation in the notation reports and corpus files print (`["S"]:["secret"]`). */
export function parseConvFlag(lat: AnyLattice, text: string): Conversation<unknown> {
  // The label may itself contain `:`; the messages are the JSON array of strings after one of them.
  for (let i = text.indexOf(':'); i !== -1; i = text.indexOf(':', i + 1)) {
    let messages: unknown;
    try {
      messages = JSON.parse(text.slice(i + 1));
    } catch {
      continue;
    }
    if (Array.isArray(messages) && messages.every((m) => typeof m === 'string')) return { label: parseLabelFlag(lat, '--conv', text.slice(0, i)), messages };
  }
  throw new UserError(`--conv: expected LABEL:["message", …], e.g. '["S"]:["secret"]' or '[]:[]', got ${JSON.stringify(text)}`);
}

export interface RunOutput { readonly stdout: string; readonly stderr?: string; readonly exitCode: number }

/** The body of `llmbda run` (runs inside a worker thread with a large stack). */
export async function executeRun(file: string, opts: RunOpts): Promise<RunOutput> {
  const lat = await resolveLattice(opts.lattice);
  // A corpus entry's model spec (JSON) evaluates the entry's runs exactly as replay does.
  const model = opts.model.trimStart().startsWith('{') ? modelOf(parseModelSpec(opts.model, '--model')) : resolveModel(opts.model);
  const prelude = loadPrelude(lat, model.preludeSource);
  const expr = closeProgram(parse(readText(file), lat, { file }), prelude, file);
  const pc = opts.pc === undefined ? lat.bottom : parseLabelFlag(lat, '--pc', opts.pc);
  const conv: Conversation<unknown> = opts.conv === undefined ? { label: lat.bottom, messages: [] } : parseConvFlag(lat, opts.conv);
  if (wantsLiveRun(opts)) {
    if (opts.sample !== undefined || opts.variant !== undefined) throw new UserError('--oracle/--replay run peval once under the reference rules: drop --sample and --variant');
    return executeLiveRun({ file, lat, model, prelude, expr, pc, conv, fuel: opts.fuel }, opts);
  }
  if (opts.sample !== undefined) return { stdout: sampleRun(lat, model, opts, pc, conv, expr, prelude), exitCode: 0 };
  // `--variant reference` is the default, spelled out (as hunt and check accept it).
  const semantics = opts.variant !== undefined && opts.variant !== 'reference' ? await resolveVariantSemantics(opts.variant) : undefined;
  let res;
  try {
    // One evaluation in this process: v2's warm-up evaluations would only cost (docs/evaluator-v2.md).
    res = evaluate(model, lat, pc, conv, expr, opts.fuel, { prelude, warmUp: false, ...(semantics ? { semantics } : {}), ...(opts.maxSteps !== undefined ? { maxSteps: opts.maxSteps } : {}), ...(opts.maxOutcomes !== undefined ? { maxOutcomes: opts.maxOutcomes } : {}) });
  } catch (e) {
    if (e instanceof BudgetExceeded) throw new UserError(`${file}: ${e.message}`);
    throw e;
  }
  const rows = entries(res.finals);
  if (opts.json) {
    return {
      exitCode: 0,
      stdout: `${JSON.stringify({
        lattice: lat.name, model: model.name, fuel: opts.fuel,
        distribution: rows.map(([f, w]) => ({
          value: prettyPrint(f.value, lat),
          conversation: { label: lat.show(f.conv.label), messages: f.conv.messages },
          probability: Q.show(w), decimal: Q.toDecimal(w, 6), // a string, as in every JSON report (docs/ci.md)
        })),
        mass: Q.show(res.mass),
        missing: res.missing.map((m) => ({ reason: failureKey(m.failure), probability: Q.show(m.weight) })),
        modelDeficit: Q.show(res.modelDeficit),
      }, null, 2)}\n`,
    };
  }
  const out: string[] = [];
  out.push(`${file} on ${lat.name} under ${model.name}, fuel ${opts.fuel}${semantics ? `, variant ${semantics.name}` : ''}`);
  out.push(renderTable(['value', 'conversation', 'probability', '≈'], rows.map(([f, w]) => [
    prettyPrint(f.value, lat), showConversation(lat, f.conv), Q.show(w), Q.toDecimal(w, 6),
  ])));
  out.push(`mass ${Q.show(res.mass)} (≈ ${Q.toDecimal(res.mass, 6)})`);
  if (res.missing.length > 0 || !Q.isZero(res.modelDeficit)) {
    out.push('missing mass:');
    for (const m of res.missing) out.push(`  ${Q.show(m.weight).padEnd(12)} ${failureKey(m.failure)}`);
    if (!Q.isZero(res.modelDeficit)) out.push(`  ${Q.show(res.modelDeficit).padEnd(12)} withheld by the model (sub-distribution)`);
  }
  return { stdout: `${out.join('\n')}\n`, exitCode: 0 };
}

function sampleRun(lat: AnyLattice, model: ReturnType<typeof resolveModel>, opts: RunOpts, pc: unknown, conv: Conversation<unknown>, expr: ReturnType<typeof parse>, prelude: ReturnType<typeof loadPrelude>): string {
  const rng = makeRng(opts.seed);
  const counts = new Map<string, number>();
  const n = opts.sample!;
  for (let i = 0; i < n; i++) {
    let key: string;
    try {
      const r = peval(model, lat, sampledOracle(model, rng), 0, opts.fuel, pc, conv, expr, prelude);
      key = r.kind === 'ok' ? `${prettyPrint(r.value, lat)}  ${showConversation(lat, r.conv)}` : r.kind === 'fuel' ? '(out of fuel)' : `(stuck: ${r.reason})`;
    } catch (e) {
      if (!(e instanceof NoResponse)) throw e;
      key = '(no response: model sub-distribution)';
    }
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1]);
  if (opts.json) {
    return `${JSON.stringify({ samples: n, seed: opts.seed, frequencies: rows.map(([k, c]) => ({ outcome: k, count: c, frequency: c / n })) }, null, 2)}\n`;
  }
  return `${n} seeded peval runs (seed ${opts.seed}) on ${lat.name} under ${model.name}\n` +
    `${renderTable(['outcome', 'count', 'frequency'], rows.map(([k, c]) => [k, String(c), (c / n).toFixed(4)]))}\n`;
}
