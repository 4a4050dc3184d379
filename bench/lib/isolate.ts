/**
 * Running one measurement in isolation with a time cap: LLMbda in a fresh worker thread (with a large
 * stack, since deep recursion nests derivations deeply), WebPPL in a fresh child process. Both report
 * "ready" once loaded/compiled; the cap is timed from then, so start-up cost never counts as inference.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

/** How a capped measurement ended: its result, the cap, or a crash (with the message). */
export type Capped<R> =
  | { readonly kind: 'done'; readonly result: R }
  | { readonly kind: 'timeout'; readonly capMs: number }
  | { readonly kind: 'crash'; readonly message: string };

/** Messages a benchmark worker posts: `ready` once loaded, then one `result`. */
export type WorkerMessage<R> = { readonly ready: true } | { readonly result: R };

/** Stack size and time cap of a one-shot benchmark worker. */
export interface WorkerOptions {
  /** Stack of the worker thread in MB (`resourceLimits.stackSizeMb`); Node's default for workers is 4. */
  readonly stackSizeMb?: number;
  readonly capMs: number;
}

/**
 * Start `entry` (a module path relative to `bench/`) in a fresh worker, send it `task` when it is
 * ready, and wait for its result or the cap (then the worker is terminated).
 */
export function runInWorker<T, R>(entry: string, task: T, opts: WorkerOptions): Promise<Capped<R>> {
  const worker = new Worker(new URL('../worker-entry.js', import.meta.url), {
    workerData: { entry },
    ...(opts.stackSizeMb !== undefined ? { resourceLimits: { stackSizeMb: opts.stackSizeMb } } : {}),
  });
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (c: Capped<R>): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      void worker.terminate();
      resolve(c);
    };
    worker.on('message', (m: WorkerMessage<R>) => {
      if ('ready' in m) {
        timer = setTimeout(() => finish({ kind: 'timeout', capMs: opts.capMs }), opts.capMs);
        worker.postMessage(task);
      } else {
        finish({ kind: 'done', result: m.result });
      }
    });
    worker.on('error', (e) => finish({ kind: 'crash', message: `${e.name}: ${e.message}` }));
    worker.on('exit', (code) => finish({ kind: 'crash', message: `worker exited with code ${code}` }));
  });
}

/** What the WebPPL runner reports. */
export interface WebpplResult {
  readonly compileMs: number;
  /** Fastest run (runs under 1 s are repeated up to three times). */
  readonly inferMs: number;
  /** First (cold) run of the process, warm-up runs included. */
  readonly coldMs: number;
  /** Measured runs (warm-up runs excluded). */
  readonly runs: number;
  /** Per measured run: wall time of inference, and CPU time of the WebPPL process (`process.cpuUsage`). */
  readonly times: readonly number[];
  readonly cpus: readonly number[];
  /** Unmeasured runs made first. */
  readonly warmup: number;
  readonly medianMs: number;
  readonly medianCpuMs: number;
  /** CPU time of the first run of the process. */
  readonly coldCpuMs: number;
  /** Peak resident set of the WebPPL process (MB), compilation included. */
  readonly maxRssMB: number;
  /** `[value, probability]` rows of the marginal. */
  readonly dist: readonly (readonly [unknown, number])[];
}

const WEBPPL_RUNNER = fileURLToPath(new URL('../webppl-runner.cjs', import.meta.url));

/**
 * Run a WebPPL program in a fresh `node` process; the cap counts from the end of compilation. After
 * `warmup` unmeasured runs (default 0), runs faster than `repeatBelowMs` are repeated up to `maxRuns`
 * times; every measured run's wall and CPU time is reported, `inferMs` is the fastest.
 */
export function runWebppl(source: string, capMs: number, repeat: { readonly repeatBelowMs: number; readonly maxRuns: number; readonly warmup?: number }): Promise<Capped<WebpplResult>> {
  const env = { ...process.env, BENCH_REPEAT_BELOW_MS: String(repeat.repeatBelowMs), BENCH_MAX_RUNS: String(repeat.maxRuns), BENCH_WARMUP: String(repeat.warmup ?? 0) };
  const child = spawn(process.execPath, [WEBPPL_RUNNER], { stdio: ['pipe', 'pipe', 'pipe'], env });
  return new Promise((resolve) => {
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (c: Capped<WebpplResult>): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      child.kill('SIGKILL');
      resolve(c);
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        const msg = JSON.parse(line) as { compiled?: number } | WebpplResult;
        if ('compiled' in msg) timer = setTimeout(() => finish({ kind: 'timeout', capMs }), capMs);
        else finish({ kind: 'done', result: msg as WebpplResult });
      }
    });
    child.stderr.on('data', (chunk: string) => { err += chunk; });
    child.on('close', (code) => finish({ kind: 'crash', message: `webppl exited with code ${code}: ${err.split('\n').slice(0, 3).join(' ')}` }));
    child.stdin.end(source);
  });
}

/**
 * Run `node NODE_ARGS FILE ARG` in a fresh process and read its last stdout line as JSON; killed after
 * `killAfterMs` (reported as a timeout at `capMs`). One measurement per process: no shared JIT or heap. `nodeArgs`:
 * `loaderArgs` of bench/lib/measured.ts (nothing for the compiled package, tsx's loader for the sources).
 */
export function runInProcess<R>(file: string, arg: unknown, capMs: number, killAfterMs: number, nodeArgs: readonly string[]): Promise<Capped<R>> {
  const child = spawn(process.execPath, [...nodeArgs, file, JSON.stringify(arg)], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve) => {
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); resolve({ kind: 'timeout', capMs }); }, killAfterMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (c: string) => { out += c; });
    child.on('close', (code) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (line?.startsWith('{')) resolve({ kind: 'done', result: JSON.parse(line) as R });
      else resolve({ kind: 'crash', message: `exit ${code}` });
    });
  });
}
