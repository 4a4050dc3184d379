/** Option parsing shared by the subcommands: exact numbers, labels, files. */
import { readFileSync } from 'node:fs';
import { UserError } from '../util/absurd.ts';
import type { AnyLattice } from '../lattice/lattice.ts';
import { parse } from '../syntax/parser.ts';

/** A positive integer flag. */
export function positiveInt(flag: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UserError(`${flag} needs a positive integer, got ${JSON.stringify(v)}`);
    return n;
  };
}

/** A non-negative integer flag (seeds). */
export function integer(flag: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!Number.isInteger(n)) throw new UserError(`${flag} needs an integer, got ${JSON.stringify(v)}`);
    return n;
  };
}

/** Default per-case time limit of every command (CPU time of the thread on Linux) (a case normally takes milliseconds). */
export const DEFAULT_CASE_TIMEOUT_MS = 10_000;

/** The largest seed: seeds are 32-bit (fast-check's generator takes them modulo 2^32). */
export const MAX_SEED = 0xffff_ffff;

/** A seed flag: an integer 0..2^32-1 (larger or negative seeds would silently wrap to the same run). */
/** Commander's accumulator for a repeatable option (`--suite a --suite b`). */
export const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

export function seed32(flag: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || !Number.isSafeInteger(n) || n > MAX_SEED) {
      throw new UserError(`${flag} needs an integer from 0 to ${MAX_SEED} (seeds are 32-bit), got ${JSON.stringify(v)}`);
    }
    return n;
  };
}

/** `--stack-mb`: a positive integer, at most 4096 (a thread's stack is reserved when it starts). */
export function stackMb(flag: string): (v: string) => number {
  return (v) => {
    const n = positiveInt(flag)(v);
    if (n > 4096) throw new UserError(`${flag} must be at most 4096 (MB), got ${n}`);
    return n;
  };
}

/**
 * Default heap cap of a worker thread that runs cases (MB): a case whose distributions would exhaust the
 * heap is reported ("case N exceeded the memory limit") instead of the process dying out of memory.
 */
export const DEFAULT_MAX_MEMORY_MB = 768;

/** The smallest and largest `--max-memory-mb` (a worker needs room to load the sources; past 64 GB is a typo). */
export const MIN_MEMORY_MB = 64;
export const MAX_MEMORY_MB = 65_536;

/** `--max-memory-mb`: an integer from MIN_MEMORY_MB to MAX_MEMORY_MB. */
export function memoryMb(flag: string): (v: string) => number {
  return (v) => {
    const n = positiveInt(flag)(v);
    if (n < MIN_MEMORY_MB || n > MAX_MEMORY_MB) throw new UserError(`${flag} must be from ${MIN_MEMORY_MB} to ${MAX_MEMORY_MB} (MB), got ${n}`);
    return n;
  };
}

/** A duration like `30s`, `2m`, `500ms` or a bare number of seconds, in milliseconds. */
export function duration(flag: string): (v: string) => number {
  return (v) => {
    const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v.trim());
    if (!m) throw new UserError(`${flag} needs a duration like 30s, 2m or 500ms, got ${JSON.stringify(v)}`);
    const x = Number(m[1]);
    return m[2] === 'ms' ? x : m[2] === 'm' ? x * 60_000 : x * 1000;
  };
}

/** Parse a label written in surface syntax (e.g. `["S"]`) for a lattice. */
export function parseLabelFlag<L>(lat: AnyLattice, flag: string, text: string): L {
  let e;
  try {
    e = parse(text, lat, { file: flag });
  } catch (err) {
    throw new UserError(`${flag}: ${(err as Error).message}`);
  }
  const l = e.kind === 'label' ? undefined : lat.toLabel(e as never);
  if (l === undefined) {
    const examples = (lat.elements ?? []).slice(0, 4).map((x: unknown) => lat.show(x)).join(', ');
    throw new UserError(`${flag}: ${text} is not a label of ${lat.name}${examples ? ` (labels look like ${examples})` : ''}`);
  }
  return l as L;
}

/** Read a text file or fail with a user error naming it. */
export function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
}
