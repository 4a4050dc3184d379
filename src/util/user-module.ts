/**
 * Loading a user's own module (`--lattice ./x.ts`, `--variant ./v.ts`, `--prims ./p.ts`, a target
 * adapter): always as an ES module, wherever the file lives, with TypeScript compiled on the fly by tsx.
 *
 * A `.ts` file outside an ESM package (no `"type": "module"` above it) would be compiled by tsx as
 * CommonJS, which cannot import this ESM package back (`ERR_REQUIRE_CYCLE_MODULE`). Such a file is
 * loaded through a `.mts` copy beside it (same folder, so its relative imports resolve), removed at once.
 * Every failure is the user's: a `UserError` naming the file.
 */
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UserError } from './absurd.ts';
import { userLine } from './user-code.ts';
import { enterLoading, HEARTBEAT_BYTES, isWatched, leaveLoading, loadingMessage, Watchdog } from './heartbeat.ts';
import { Worker } from 'node:worker_threads';

/** Is `file` inside a package whose nearest package.json says `"type": "module"`? */
function inEsmScope(file: string): boolean {
  let dir = dirname(file);
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        return (JSON.parse(readFileSync(pj, 'utf8')) as { type?: unknown }).type === 'module';
      } catch {
        return false;
      }
    }
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}

async function importTs(abs: string): Promise<Record<string, unknown>> {
  const { tsImport } = await import('tsx/esm/api');
  return (await tsImport(pathToFileURL(abs).href, import.meta.url)) as Record<string, unknown>;
}

/**
 * How long a user module may take to load (compiling it and running its top level), in ms: 10 s, or
 * `LLMBDA_IMPORT_TIMEOUT_MS`. A top-level `await` that never settles is reported instead of hanging
 * (or of Node's silent exit 13).
 */
export function importTimeoutMs(): number {
  const v = Number(process.env['LLMBDA_IMPORT_TIMEOUT_MS']);
  return Number.isFinite(v) && v > 0 ? v : 10_000;
}

let probing = false;

/**
 * Probe user modules before importing them in an unwatched thread (the CLI turns this on for its own
 * thread): each is first loaded in a throwaway worker under the import limit, so a file that loops at its
 * top level is reported instead of hanging the thread no timer can interrupt. Costs one worker start per file.
 */
export function probeUserImports(on: boolean): void {
  probing = on;
}

/** Load `file` in a supervised throwaway worker; throws the user error it would give (or the import limit's). */
async function probeImport(file: string, what: string): Promise<void> {
  const limit = importTimeoutMs();
  const heartbeat = new SharedArrayBuffer(HEARTBEAT_BYTES);
  const sites = new Map<number, string>();
  const entry = import.meta.url.endsWith('.ts') ? './import-probe-entry.js' : './import-probe.js';
  const worker = new Worker(new URL(entry, import.meta.url), { workerData: { file, what, heartbeat } });
  // The worker's own start (compiling the sources) is not the user's time: only the loading slot is limited.
  const dog = new Watchdog(new Int32Array(heartbeat), sites, { caseMs: Infinity, firstMs: Infinity, importMs: limit });
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((done, fail) => {
      worker.on('message', (m: { site: number; where: string } | { ok: true } | { ok: false; message: string }) => {
        if ('site' in m) sites.set(m.site, m.where);
        else if (m.ok) done();
        else fail(new UserError(m.message));
      });
      worker.once('error', (e) => fail(new UserError(`could not load ${what} ${file}: ${e instanceof Error ? e.message : String(e)}`)));
      worker.once('exit', () => done()); // no verdict: the real import below says what is wrong
      timer = setInterval(() => {
        const stall = dog.poll();
        if (stall?.kind === 'loading') fail(new UserError(loadingMessage(stall.file, stall.ms)));
      }, 100);
    });
  } finally {
    clearInterval(timer);
    await worker.terminate();
  }
}

/** Import a user module as ESM; `what` names it in errors ("lattice file", "variant file", …). */
export async function importUserModule(file: string, what: string): Promise<Record<string, unknown>> {
  if (probing && !isWatched()) await probeImport(file, what);
  const limit = importTimeoutMs();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UserError(loadingMessage(`${what} ${file}`, limit))), limit);
  });
  // A supervising thread's watchdog sees this and stops even a synchronous loop at the file's top level.
  const loading = enterLoading(`${what} ${file}`);
  try {
    return await Promise.race([importUserModuleNow(file, what), timeout]);
  } finally {
    leaveLoading(loading);
    clearTimeout(timer);
  }
}

async function importUserModuleNow(file: string, what: string): Promise<Record<string, unknown>> {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new UserError(`cannot read ${what} ${file}: no such file`);
  try {
    if (/\.(m?js)$/.test(abs)) return (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
    if (/\.mts$/.test(abs) || (/\.ts$/.test(abs) && inEsmScope(abs))) return await importTs(abs);
    if (/\.ts$/.test(abs)) {
      const copy = join(dirname(abs), `.${basename(abs, '.ts')}.llmbda-${process.pid}-${Date.now()}.mts`);
      try {
        copyFileSync(abs, copy);
      } catch {
        return await importTs(abs); // a read-only folder: load in place (works for ESM-compatible code)
      }
      try {
        return await importTs(copy);
      } finally {
        rmSync(copy, { force: true });
      }
    }
    return (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof UserError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    const at = userLine(e, file)?.replace(/^.*:(\d+)$/, ':$1') ?? '';
    throw new UserError(`could not load ${what} ${file}${at}: ${msg.split('\n')[0]}`);
  }
}
