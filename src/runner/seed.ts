/** Seeds: one formula for every command and API entry point that is not given one. */

/** A fresh 31-bit seed (printed with every result, so the run can be replayed with `--seed`). */
export function defaultSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x7fffffff)) & 0x7fffffff;
}
