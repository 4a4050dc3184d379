/**
 * Durable writes: every file this tool writes goes through `writeFileAtomic` (a temporary file in the
 * same folder, fsync, rename over the target), so a crash, a full disk or a signal leaves either the old
 * file or the new one, never a torn or empty one. Failures are the user's (`UserError`: the path and
 * the reason), since they come from the folder they named. `withFileLock` serialises writers of one
 * file across processes (an exclusive lock file beside it; a stale lock is broken after a while).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UserError } from './absurd.ts';

/** Why a write failed, in words (the errno code when it is a common one). */
export function writeFailure(path: string, e: unknown): UserError {
  const err = e as NodeJS.ErrnoException;
  const why: Record<string, string> = {
    EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'read-only file system', ENOSPC: 'no space left on device',
    EDQUOT: 'disk quota exceeded', ENOTDIR: 'a path component is a file, not a folder', EEXIST: 'a file is in the way', EISDIR: 'is a folder',
  };
  const reason = (err.code && why[err.code]) ?? err.message ?? String(e);
  return new UserError(`cannot write ${path}: ${reason}`);
}

/** Create `dir` (and parents) or fail with a user error naming it. */
export function ensureDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw writeFailure(dir, e);
  }
  let isDir = false;
  try { isDir = statSync(dir).isDirectory(); } catch { /* reported below */ }
  if (!isDir) throw new UserError(`cannot write into ${dir}: it is not a folder`);
}

/** Write `data` to `path` atomically: temp file in the same folder, fsync, rename. */
export function writeFileAtomic(path: string, data: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx', 0o644);
    const buf = Buffer.from(data, 'utf8');
    for (let off = 0; off < buf.length; ) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) try { closeSync(fd); } catch { /* already failing */ }
    rmSync(tmp, { force: true });
    throw writeFailure(path, e);
  }
  // Make the rename itself durable (best effort: not every platform can fsync a folder).
  try {
    const dfd = openSync(dirname(path), 'r');
    try { fsyncSync(dfd); } finally { closeSync(dfd); }
  } catch { /* ignore */ }
}

/** Sleep this thread (no event loop needed): used between lock attempts. */
function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Run `fn` holding an exclusive lock on `path` (the file `path.lock`, created with O_EXCL). Waits up
 * to `waitMs`; a lock older than `staleMs` (its holder died) is broken.
 */
export function withFileLock<T>(path: string, fn: () => T, waitMs = 10_000, staleMs = 30_000): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw writeFailure(lock, e);
      try {
        if (Date.now() - statSync(lock).mtimeMs > staleMs) { rmSync(lock, { force: true }); continue; }
      } catch { continue; /* released meanwhile */ }
      if (Date.now() > deadline) throw new UserError(`cannot write ${path}: locked by another process (${lock}); remove it if no llmbda is running`);
      sleepMs(20 + Math.floor(Math.random() * 30));
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
