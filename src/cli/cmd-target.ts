/**
 * Testing someone else's interpreter (issue 13, docs/targets.md):
 *
 *   llmbda check --target SPEC   TIPNI, Insulated TIPNI and differential agreement against the target
 *   llmbda hunt  --target SPEC   the same suites until the first counterexample; shrunk, saved, replayable
 *   llmbda check --target SPEC --replay FILE   judge a saved target counterexample again
 *   llmbda diff  --target SPEC   differential agreement with the reference; every disagreement shrunk
 *                                and classified by the constructs involved
 *
 * SPEC is a target module, a `.py` file, or `stdio:COMMAND` (src/targets/load.ts). `check` and `hunt` call
 * `runTargetCheck`/`runTargetHunt` when `--target` is given; `diff` is registered here.
 */
import type { Command } from 'commander';
import pc from 'picocolors';
import { resolveLattice } from '../lattice/registry.ts';
import type { AnyLattice } from '../lattice/lattice.ts';
import { UserError } from '../util/absurd.ts';
import { caseToEntry, entryCase, loadEntry, saveEntry, slug } from '../llmbda/corpus.ts';
import { loadTarget, parseMask } from '../targets/load.ts';
import { TARGET_SUITES, runTargetSuite, targetDiff, targetSuiteByName, type AnyTargetSuite, type TargetEnv, type TargetVerdict } from '../targets/suites.ts';
import type { AnyTarget } from '../targets/target.ts';
import { positiveInt, seed32 } from './common.ts';
import { renderTable } from '../util/table.ts';
import type { CommandResult } from './main.ts';

/** The flags the target commands share (check and hunt pass theirs through). */
export interface TargetFlags {
  target: string;
  lattice?: string[];
  mask?: string;
  runs?: number;
  seed?: number;
  suite?: string | string[];
  replay?: string;
  time?: number;
  out?: string;
  save?: boolean;
  json?: boolean;
}

async function openTarget(f: TargetFlags): Promise<{ target: AnyTarget; lat: AnyLattice }> {
  if ((f.lattice?.length ?? 0) > 1) throw new UserError('--target runs on one lattice: give --lattice once');
  const lat = await resolveLattice(f.lattice?.[0] ?? 'powerset-us');
  const mask = parseMask(f.mask);
  const target = await loadTarget(f.target, lat, mask ? { mask } : {});
  return { target, lat: target.lattice };
}

function suitesOf(f: TargetFlags): AnyTargetSuite[] {
  const names = f.suite === undefined ? [] : Array.isArray(f.suite) ? f.suite : [f.suite];
  if (names.length === 0 || names.includes('all')) return [...TARGET_SUITES];
  return names.map((n) => targetSuiteByName(n) ?? (() => { throw new UserError(`unknown target suite ${JSON.stringify(n)}; target suites are ${TARGET_SUITES.map((s) => s.name).join(', ')}, stat-tipni`); })());
}

const pct = (v: number): string => `${(v * 100).toFixed(0)}%`;

function describe(v: TargetVerdict<unknown>, spec: string, lat: AnyLattice, runs: number): string[] {
  const out = [pc.bold(`${v.suite} on ${lat.name}: ${v.title}`)];
  if (v.counterexample) {
    const c = v.counterexample;
    out.push(`counterexample after ${c.testsToFailure} tests, ${c.shrinks} shrinks:`, c.pretty, `why: ${c.reason}`,
      `constructs involved: ${(v.constructs ?? []).join(', ') || '(none beyond data)'}`,
      `replay: npx llmbda check --target '${spec}' --lattice '${lat.name}' --suite ${v.suite} --seed ${c.seed} --runs ${runs}  (path ${c.path})`);
  }
  if (v.vacuous.length) out.push(`vacuous: ${v.vacuous.join('; ')}`);
  if (v.error) out.push(`error: ${v.error}`);
  return out;
}

function maskedNote(v: TargetVerdict<unknown>): string {
  const es = Object.entries(v.masked);
  return es.length === 0 ? '0' : `${es.reduce((a, [, n]) => a + n, 0)} (${es.map(([k, n]) => `${k} ${n}`).join(', ')})`;
}

/** `llmbda check --target SPEC`. */
export async function runTargetCheck(f: TargetFlags, result: CommandResult): Promise<void> {
  const { target, lat } = await openTarget(f);
  try {
    if (f.replay) return await replayTarget(f, target, lat, result);
    const seed = f.seed ?? Date.now() % 2_147_483_647;
    const runs = f.runs ?? 2000;
    const env: TargetEnv<unknown> = { target, profile: 'tuned' };
    const verdicts: TargetVerdict<unknown>[] = [];
    for (const s of suitesOf(f)) verdicts.push(await runTargetSuite(s, env, { runs, seed }));
    const ok = verdicts.every((v) => v.ok);
    result.exitCode = ok ? 0 : 1;
    if (f.json) {
      process.stdout.write(`${JSON.stringify({ target: target.name, lattice: lat.name, seed, runs, ok, results: verdicts.map(({ counterexample, ...v }) => ({ ...v, ...(counterexample ? { counterexample: { ...counterexample, value: undefined } } : {}) })) }, null, 2)}\n`);
      return;
    }
    const rows = verdicts.map((v) => [v.suite, lat.name, String(v.runs), maskedNote(v), `${(v.timeMs / 1000).toFixed(1)}s`,
      v.ok ? pc.green(v.suite === 'stat-tipni' ? 'no evidence of a leak' : 'holds') : v.counterexample ? pc.red('FAILS') : pc.yellow('VACUOUS'), Object.entries(v.stats).map(([k, x]) => `${k} ${pct(x)}`).join(', ')]);
    const out = [`target ${target.name}, seed ${seed}`, renderTable(['suite', 'lattice', 'runs', 'masked', 'time', 'result', 'non-vacuity'], rows)];
    for (const v of verdicts) if (!v.ok) out.push('', ...describe(v, f.target, lat, runs));
    out.push('', ok ? pc.green(`all ${verdicts.length} verdicts hold`) : pc.red(`${verdicts.filter((v) => !v.ok).length} of ${verdicts.length} verdicts do not hold`));
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await target.close?.();
  }
}

async function replayTarget(f: TargetFlags, target: AnyTarget, lat: AnyLattice, result: CommandResult): Promise<void> {
  const entry = loadEntry(f.replay!);
  if (entry.lattice !== lat.name) throw new UserError(`${f.replay}: saved on lattice ${entry.lattice}, but the target runs on ${lat.name} (pass --lattice ${entry.lattice})`);
  const suite = targetSuiteByName(entry.suite);
  if (!suite) throw new UserError(`${f.replay}: suite ${JSON.stringify(entry.suite)} is not a target suite (${TARGET_SUITES.map((s) => s.name).join(', ')})`);
  const c = entryCase(f.replay!, entry, lat);
  const env: TargetEnv<unknown> = { target, profile: 'tuned' };
  const { outcome } = await suite.check(c.value, env);
  process.stdout.write(`${suite.show(c.value, env)}\n${outcome.ok ? pc.green('holds') : `${pc.red('FAILS')}: ${outcome.reason}`}\n`);
  result.exitCode = outcome.ok ? 0 : 1;
}

/** `llmbda hunt --target SPEC`: the suites in turn until the first counterexample (shrunk, saved). */
export async function runTargetHunt(f: TargetFlags, result: CommandResult): Promise<void> {
  const { target, lat } = await openTarget(f);
  try {
    const seed = f.seed ?? Date.now() % 2_147_483_647;
    const env: TargetEnv<unknown> = { target, profile: 'tuned' };
    const suites = suitesOf(f);
    const perSuiteMs = Math.max(1000, Math.floor((f.time ?? 30_000) / suites.length));
    let tried = 0;
    for (const s of suites) {
      const v = await runTargetSuite(s, env, { runs: f.runs ?? 1_000_000, seed, timeoutMs: perSuiteMs });
      tried += v.runs;
      if (!v.counterexample) continue;
      result.exitCode = 1;
      const out = describe(v, f.target, lat, f.runs ?? 1_000_000);
      if (f.save !== false) {
        const entry = caseToEntry(lat, { kind: s.kind, value: v.counterexample.value } as never, {
          variant: `target:${f.target}`, suite: s.name, seed, path: v.counterexample.path, reason: v.counterexample.reason,
          title: `${target.name}: ${s.title}`, expected: { reference: 'holds', variant: 'fails' },
        });
        const file = saveEntry(f.out ?? 'counterexamples/targets', `${slug(f.target)}-${s.name}-${slug(lat.name)}`, entry, lat);
        out.push(`saved: ${file}`, `replay: npx llmbda check --target '${f.target}' --lattice '${lat.name}' --replay ${file}`);
      }
      process.stdout.write(`${out.join('\n')}\n`);
      return;
    }
    process.stdout.write(`no counterexample in ${tried} cases (${suites.map((s) => s.name).join(', ')}) against ${target.name}, seed ${seed}\n`);
  } finally {
    await target.close?.();
  }
}

/** Register `llmbda diff`. */
export function registerDiff(program: Command, result: CommandResult): void {
  program
    .command('diff')
    .description('differential agreement of a target with the reference semantics: every disagreement shrunk and classified by construct')
    .requiredOption('--target <file|stdio:cmd>', 'the implementation under test (docs/targets.md)')
    .option('--lattice <name>', 'lattice for out-of-process targets (default powerset-us)', (v: string, p: string[] | undefined) => [...(p ?? []), v])
    .option('--mask <constructs>', 'constructs the target cannot express, e.g. endorse,fork,prim:toStr')
    .option('--runs <n>', 'generated programs in all', positiveInt('--runs'), 2000)
    .option('--seed <s>', 'seed (default: random; printed for replay)', seed32('--seed'))
    .option('--max <n>', 'stop after this many disagreements', positiveInt('--max'), 5)
    .action(async (f: TargetFlags & { max: number }) => {
      const { target, lat } = await openTarget(f);
      try {
        const seed0 = f.seed ?? Date.now() % 2_147_483_647;
        const env: TargetEnv<unknown> = { target, profile: 'tuned' };
        let left = f.runs ?? 2000, round = 0;
        const found: (TargetVerdict<unknown> & { budget: number })[] = [];
        while (left > 0 && found.length < f.max) {
          const v = await runTargetSuite(targetDiff, env, { runs: left, seed: seed0 + round++ });
          if (!v.counterexample) { left = 0; break; }
          found.push({ ...v, budget: left });
          left -= v.counterexample.testsToFailure;
        }
        result.exitCode = found.length === 0 ? 0 : 1;
        if (found.length === 0) {
          process.stdout.write(`${pc.green('agrees')}: ${target.name} and the reference semantics on ${f.runs} generated programs (${lat.name}, seed ${seed0})\n`);
          return;
        }
        const classes = new Map<string, number>();
        for (const v of found) { const k = (v.constructs ?? []).join(' + ') || 'data only'; classes.set(k, (classes.get(k) ?? 0) + 1); }
        const out = [`${found.length} disagreement(s) between ${target.name} and the reference semantics (${lat.name}, seed ${seed0}), by construct:`,
          renderTable(['constructs involved', 'disagreements'], [...classes].map(([k, n]) => [k, String(n)]))];
        found.forEach((v, i) => out.push('', pc.bold(`disagreement ${i + 1}`), v.counterexample!.pretty, `why: ${v.counterexample!.reason}`, `constructs: ${(v.constructs ?? []).join(', ') || '(data only)'}`,
          `replay: npx llmbda check --target '${f.target}' --lattice '${lat.name}' --suite diff --seed ${v.counterexample!.seed} --runs ${v.budget}`));
        process.stdout.write(`${out.join('\n')}\n`);
      } finally {
        await target.close?.();
      }
    });
}
