/**
 * `llmbda leak FILE.lam --secret NAME --domain D --observer LABEL`: the exact channel from a secret to
 * an observer's view of the program, and how much it leaks in bits (src/leakage, docs/leakage.md).
 */
import type { Command } from 'commander';
import * as Q from '../distributions/rational.ts';
import { resolveLattice } from '../lattice/registry.ts';
import { parse } from '../syntax/parser.ts';
import { resolveModel } from '../semantics/models/index.ts';
import { loadPrelude } from '../semantics/prelude.ts';
import { UserError } from '../util/absurd.ts';
import { DEFAULT_MAX_MEMORY_MB, duration, memoryMb, parseLabelFlag, positiveInt, readText, stackMb } from './common.ts';
import { inLargeStack } from './large-stack.ts';
import { renderTable } from '../util/table.ts';
import { resolveVariantSemantics } from './variant-option.ts';
import { parseDomain } from '../leakage/domain.ts';
import { programChannel } from '../leakage/channel.ts';
import { minEntropyLeakage, multiplicativeCapacity, shannonLeakage } from '../leakage/measures.ts';

interface LeakOpts {
  secret?: string;
  domain?: string;
  observer?: string;
  lattice: string;
  model: string;
  fuel: number;
  variant?: string;
  json?: boolean;
  stackMb: number;
  caseTimeout: number;
  maxMemoryMb: number;
}

export function registerLeak(program: Command): void {
  program
    .command('leak')
    .description('exact leakage of a secret to an observer: channel matrix, Shannon and min-entropy leakage, capacity (bits)')
    .argument('<file>', 'an LLMbda program (.lam) that defines `let NAME = …` at the top level or uses NAME free')
    .option('--secret <name>', 'the secret: a top-level definition whose right-hand side is replaced (its static label kept), or a free variable')
    .option('--domain <file|values>', 'the secret\'s values: A..B, comma-separated values, or a file (JSON array, or one value per line); uniform prior unless the JSON gives weights')
    .option('--observer <label>', 'the observer m (default ⊥, the public observer)')
    .option('--lattice <name|file.ts>', 'label lattice', 'powerset-us')
    .option('--model <spec>', 'model: coin:P, echo, const:TEXT, table:FILE.json, random:SEED', 'coin:1/2')
    .option('--fuel <n>', 'fuel = maximum derivation depth', positiveInt('--fuel'), 200)
    .option('--variant <name|file.ts>', 'evaluate under a variant semantics instead of the reference')
    .option('--json', 'machine-readable output')
    .option('--stack-mb <n>', 'JavaScript stack for the evaluation worker, in MB, at most 4096 (deep recursion under a variant needs more)', stackMb('--stack-mb'), 512)
    .option('--case-timeout <duration>', 'time limit of the whole computation, CPU time on Linux (a looping user lattice or variant is stopped and named)', duration('--case-timeout'), 60_000)
    .option('--max-memory-mb <n>', `heap cap of the evaluation worker in MB`, memoryMb('--max-memory-mb'), DEFAULT_MAX_MEMORY_MB)
    .action(async (file: string, opts: LeakOpts) => {
      // In a supervised worker, like \`run\`: user lattice/variant code may loop, a channel may exhaust the heap.
      process.stdout.write(await inLargeStack<string>('leak', { file, opts }, opts.stackMb, opts.caseTimeout, opts.maxMemoryMb));
    });
}

/** The body of `llmbda leak`: the report as text. */
export async function executeLeak(file: string, opts: LeakOpts): Promise<string> {
  if (!opts.secret) throw new UserError('leak needs --secret NAME');
  if (!opts.domain) throw new UserError('leak needs --domain A..B | V1,V2,… | FILE');
  const lat = await resolveLattice(opts.lattice);
  const model = resolveModel(opts.model);
  const prelude = loadPrelude(lat, model.preludeSource);
  const observer = opts.observer === undefined ? lat.bottom : parseLabelFlag(lat, '--observer', opts.observer);
  const semantics = opts.variant ? await resolveVariantSemantics(opts.variant) : undefined;
  const ch = programChannel({
    lattice: lat, model, prelude, program: parse(readText(file), lat, { file }), secret: opts.secret,
    domain: parseDomain(lat, opts.domain), observer, fuel: opts.fuel, file, ...(semantics ? { semantics } : {}),
  });
  const shannon = shannonLeakage(ch);
  const me = minEntropyLeakage(ch);
  const cap = multiplicativeCapacity(ch);
  if (opts.json) {
    return `${JSON.stringify({
      file, secret: opts.secret, observer: lat.show(observer), lattice: lat.name, model: model.name, fuel: opts.fuel,
      ...(semantics ? { variant: semantics.name } : {}),
      secrets: ch.secrets, prior: ch.prior.map(Q.show), outputs: ch.outputs, matrix: ch.rows.map((r) => r.map(Q.show)),
      shannonBits: shannon,
      minEntropy: { priorVulnerability: Q.show(me.priorVulnerability), posteriorVulnerability: Q.show(me.posteriorVulnerability), ratio: Q.show(me.ratio), bits: me.bits },
      capacity: { sum: Q.show(cap.sum), bits: cap.bits },
    }, null, 2)}\n`;
  }
  const out: string[] = [];
  out.push(`${file}: secret ${opts.secret} (${ch.secrets.length} values) → observer ${lat.show(observer)} on ${lat.name} under ${model.name}, fuel ${opts.fuel}${semantics ? `, variant ${semantics.name}` : ''}`);
  out.push('observations:');
  ch.outputs.forEach((o, j) => out.push(`  o${j + 1}  ${o}`));
  out.push('channel matrix P(o | secret):');
  out.push(renderTable(['secret', 'prior', ...ch.outputs.map((_, j) => `o${j + 1}`)], ch.rows.map((r, i) => [ch.secrets[i]!, Q.show(ch.prior[i]!), ...r.map(Q.show)])));
  out.push(`Shannon mutual information   ${fmt(shannon)} bits`);
  out.push(`min-entropy leakage          ${fmt(me.bits)} bits  = log2(${Q.show(me.posteriorVulnerability)} / ${Q.show(me.priorVulnerability)}) = log2 ${Q.show(me.ratio)}`);
  out.push(`multiplicative capacity      ${fmt(cap.bits)} bits  = log2 ${Q.show(cap.sum)}  (max over all priors)`);
  return `${out.join('\n')}\n`;
}

function fmt(x: number): string {
  return x.toFixed(6);
}
