/**
 * The body of `llmbda hunt` for the LLMbda system, run inside a supervised worker (src/cli/large-stack.ts):
 * the hunt itself, its progress posted as events (the CLI thread shows and saves them), and its result
 * as plain data (no case values cross the thread boundary, only corpus entries and text).
 */
import { hunt, type HuntProgress, type HuntResult } from '../api/hunt.ts';
import type { CorpusEntry } from '../llmbda/corpus.ts';

/** What the CLI passes to the worker. */
export interface HuntTaskArgs {
  readonly variant: string;
  readonly lattices?: string[];
  readonly suite?: string;
  readonly timeMs?: number;
  readonly seed?: number;
  readonly runs?: number;
  readonly primsFile?: string;
  readonly minimise: boolean;
  readonly maxSteps?: number;
  /** The folder the CLI saves entries in (--out): user files are recorded relative to it. */
  readonly entryDir?: string;
  /** Post the case count as `cases` events (for the CLI's progress line), at most every `progressMs`. */
  readonly progressMs?: number;
}

/** The count of generated cases so far, posted while the search runs (the CLI thread draws the progress line). */
export interface HuntCasesEvent {
  readonly kind: 'cases';
  readonly tried: number;
}

/** What the worker posts: findings as they are found and improved, and (when asked) case counts. */
export type HuntTaskEvent = HuntProgress | HuntCasesEvent;

/** What comes back: the result without the case value. */
export type HuntTaskResult = Omit<HuntResult, 'finding'> & {
  readonly finding?: Omit<NonNullable<HuntResult['finding']>, 'value'> & { readonly entry: CorpusEntry };
};

export async function executeHunt(a: HuntTaskArgs, emit: (ev: HuntTaskEvent) => void): Promise<HuntTaskResult> {
  // Case counts are throttled here, in the worker: one message per interval, not one per case.
  let lastPost = -Infinity;
  const every = a.progressMs;
  const onCase = every === undefined ? undefined : (tried: number): void => {
    const now = performance.now();
    if (now - lastPost < every) return;
    lastPost = now;
    emit({ kind: 'cases', tried });
  };
  const r = await hunt({
    variant: a.variant,
    ...(a.lattices ? { lattices: a.lattices } : {}),
    ...(a.suite ? { suite: a.suite } : {}),
    ...(a.timeMs !== undefined ? { timeMs: a.timeMs } : {}),
    ...(a.seed !== undefined ? { seed: a.seed } : {}),
    ...(a.runs !== undefined ? { runs: a.runs } : {}),
    ...(a.primsFile ? { primsFile: a.primsFile } : {}),
    ...(a.maxSteps !== undefined ? { maxSteps: a.maxSteps } : {}),
    ...(a.entryDir !== undefined ? { entryDir: a.entryDir } : {}),
    minimise: a.minimise,
    onProgress: emit,
    ...(onCase ? { onCase } : {}),
  });
  if (!r.finding) return r;
  const { value: _value, ...finding } = r.finding;
  return { ...r, finding };
}
