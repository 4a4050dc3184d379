/**
 * `--target SPEC`: a module (`.ts`/`.js`/`.mjs`/`.mts`) whose default export (or export `target`) is a
 * `Target` or a (possibly async) function of the lattice returning one; a Python file (run as
 * `python3 FILE`, out of process); or `stdio:COMMAND ARGS…` for any other out-of-process target.
 * Out-of-process targets use `--lattice` (default powerset-us) and `--mask`. Bad specs are `UserError`s.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AnyLattice } from '../lattice/lattice.ts';
import type { ExprKind } from '../syntax/ast.ts';
import { ALL_KINDS } from '../syntax/helpers.ts';
import { UserError } from '../util/absurd.ts';
import { importUserModule } from '../util/user-module.ts';
import { guardUserAsyncFn } from '../util/user-code.ts';
import { guardLattice } from '../lattice/registry.ts';
import { stdioTarget } from './stdio.ts';
import type { AnyTarget, FeatureMask } from './target.ts';

/** `--mask endorse,fork,prim:toStr`: constructs and primitives the target cannot express. */
export function parseMask(spec: string | undefined): FeatureMask | undefined {
  if (spec === undefined || spec.trim() === '') return undefined;
  const kinds: ExprKind[] = [], prims: string[] = [];
  for (const raw of spec.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
    if (raw.startsWith('prim:')) { prims.push(raw.slice(5)); continue; }
    if (!(ALL_KINDS as readonly string[]).includes(raw)) throw new UserError(`--mask: ${JSON.stringify(raw)} is not a construct; constructs are ${ALL_KINDS.join(', ')}, or prim:NAME`);
    kinds.push(raw as ExprKind);
  }
  return { kinds, prims };
}

/** Load a target from a spec; `lattice` is used by out-of-process targets and by module factories. */
export async function loadTarget(spec: string, lattice: AnyLattice, opts: { mask?: FeatureMask; timeoutMs?: number } = {}): Promise<AnyTarget> {
  const base = { ...(opts.mask ? { features: opts.mask } : {}), ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}) };
  if (spec.startsWith('stdio:')) {
    const argv = spec.slice(6).trim().split(/\s+/).filter((s) => s !== '');
    if (argv.length === 0) throw new UserError('--target stdio: needs a command, e.g. --target "stdio:node my-target.js"');
    return stdioTarget(lattice, { command: argv as [string, ...string[]], ...base });
  }
  const abs = resolve(spec);
  if (!existsSync(abs)) throw new UserError(`target file ${abs} does not exist (give a .ts/.js module, a .py file, or stdio:COMMAND)`);
  if (abs.endsWith('.py')) return stdioTarget(lattice, { command: ['python3', abs], name: spec, ...base });
  if (!/\.(ts|js|mjs|mts)$/.test(abs)) throw new UserError(`target file ${spec}: expected a .ts/.js/.mjs/.mts module or a .py file; for another program use --target "stdio:COMMAND ARGS"`);
  // As every user module: ESM, .ts compiled by tsx, failures named, and (from the CLI) probed for a top-level loop.
  const mod = await importUserModule(abs, 'target module');
  let t = mod['default'] ?? mod['target'];
  if (t === undefined) throw new UserError(`target module ${abs} has neither a default export nor an export named 'target'`);
  // The user's factory and run are guarded: an exception is theirs (file, line), a loop is named by the watchdog.
  if (typeof t === 'function') t = await guardUserAsyncFn(t as (l: AnyLattice) => unknown, spec, 'default export')(lattice);
  const o = (t ?? {}) as Record<string, unknown>;
  if (typeof o['name'] !== 'string' || typeof o['run'] !== 'function' || typeof o['lattice'] !== 'object' || o['lattice'] === null) {
    throw new UserError(`target module ${abs}: the export must be a target { name, lattice, run(request, oracle) } (see docs/targets.md)`);
  }
  const user = t as AnyTarget;
  // A lattice of the target's own (not the one it was given) is user code too: guarded like a --lattice file.
  const lat = user.lattice === lattice ? lattice : guardLattice(spec, user.lattice as AnyLattice);
  const target: AnyTarget = { name: user.name, ...(user.features ? { features: user.features } : {}), lattice: lat, run: guardUserAsyncFn(user.run.bind(user), spec, 'run'), ...(user.close ? { close: guardUserAsyncFn(user.close.bind(user), spec, 'close') } : {}) };
  if (!opts.mask) return target;
  const features = { kinds: [...(target.features?.kinds ?? []), ...(opts.mask.kinds ?? [])], prims: [...(target.features?.prims ?? []), ...(opts.mask.prims ?? [])] };
  return { name: target.name, lattice: target.lattice, features, run: (r, o) => target.run(r, o), close: () => target.close?.() };
}
