/**
 * What a benchmark's measuring process runs (docs/benchmarks.md, "What the measuring process runs").
 *
 * By default the COMPILED package: dist/ (built first when it is not the compiled form of the sources), imported by a
 * plain-JavaScript measuring process under plain `node`. That is what `llmbda` and the package's exports run, and how
 * WebPPL's runner runs WebPPL. With a bench's `--source` the measuring process imports the TypeScript sources through
 * tsx instead (no build needed while developing). tsx's loader runs on a thread of its own; such a process holds ≈ 34 MB
 * more and times differently (short cold evaluations dearer, long allocating ones cheaper), so numbers taken that way
 * do not compare with the recorded ones.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ensureBuild } from '../../scripts/inputs-hash.mjs';
import { SHAPES } from '../eval-v2-shapes.ts';
import { ROOT } from './doc.ts';

export type Loading = 'compiled' | 'source';

/**
 * The loading a bench's `--source` flag asks for. For `compiled`, dist/ is built first when it is not the compiled
 * form of the sources, unless `build` is false (a bench's `--no-build`: dist/ is used as it is, and must exist).
 */
export function prepareLoading(source: boolean | undefined, who: string, build = true): Loading {
  if (source) return 'source';
  if (build) ensureBuild(who, ROOT);
  else if (!existsSync(`${ROOT}dist/src/index.js`)) {
    throw new Error(`${who}: --no-build, but there is no dist/ (run npm run build)`);
  }
  return 'compiled';
}

/** Node's arguments before a measuring process's file: tsx's loader for the sources, nothing for the compiled package. */
export const loaderArgs = (l: Loading): readonly string[] => (l === 'source' ? ['--import', 'tsx'] : []);

/** How `loading` is spelled in a generated section's header. */
export const loadingLine = (l: Loading): string =>
  l === 'compiled'
    ? 'Measured: the compiled package (dist/, as `llmbda` runs it) under plain `node`, no tsx in the measuring process'
    : 'Measured: the TypeScript sources through tsx (`--source`; not comparable with runs of the compiled package)';

/** The evaluation runner (`bench/eval-v2-one.mjs`). */
export const EVAL_ONE: string = fileURLToPath(new URL('../eval-v2-one.mjs', import.meta.url));

/** The engines `bench/eval-v2-one.mjs` runs. */
export type EvalEngine = 'v2' | 'v2-general' | 'v2-rounds' | 'v2-unwarmed' | 'substitution';

/** The runner's protocol: measured evaluations, unmeasured ones first, and the CPU time past which it stops repeating. */
export interface EvalProtocol { readonly repeats: number; readonly warmup?: number; readonly repeatBelowMs?: number }

/** The JSON argument of `bench/eval-v2-one.mjs` for shape `shape` at size `n`. */
export function evalTask(shape: string, n: number, engine: EvalEngine, p: EvalProtocol, loading: Loading): Record<string, unknown> {
  const s = SHAPES[shape];
  if (s === undefined) throw new Error(`unknown shape ${shape}`);
  return {
    program: s.llmbda(n), model: s.model, engine, repeats: p.repeats,
    ...(p.warmup ? { warmup: p.warmup } : {}),
    ...(p.repeatBelowMs !== undefined && Number.isFinite(p.repeatBelowMs) ? { repeatBelowMs: p.repeatBelowMs } : {}),
    ...(loading === 'source' ? { source: true } : {}),
  };
}

/** What `bench/eval-v2-one.mjs` prints (the fields the synchronous callers read). */
export interface EvalRun { readonly ok: boolean; readonly error?: string; readonly cpuMs: number; readonly cpus: readonly number[]; readonly coldCpuMs: number; readonly steps: number }

/**
 * One measurement by `bench/eval-v2-one.mjs` in a fresh process, waited for (bench:jit, bench:warm-up), under V8 flags
 * `nodeFlags`; throws, naming the measurement, when the process fails or reports an error.
 */
export function measureEvalSync(shape: string, n: number, engine: EvalEngine, p: EvalProtocol, loading: Loading, nodeFlags: readonly string[] = []): EvalRun {
  const what = `${shape} N = ${n} (${engine}${nodeFlags.length ? ` under ${nodeFlags.join(' ')}` : ''})`;
  const r = spawnSync(process.execPath, [...nodeFlags, ...loaderArgs(loading), EVAL_ONE, JSON.stringify(evalTask(shape, n, engine, p, loading))], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (!line.startsWith('{')) throw new Error(`measuring ${what} failed (${r.status}): ${r.stderr.slice(-500)}`);
  const out = JSON.parse(line) as EvalRun;
  if (!out.ok) throw new Error(`measuring ${what}: ${out.error}`);
  return out;
}
