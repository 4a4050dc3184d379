/** The exit codes of every `llmbda` command (also in README.md "Exit codes" and docs/ci.md). */
export const EXIT_CODES = {
  ok: 0,
  failed: 1,
  usage: 2,
  internal: 3,
} as const;

/** The `--help` epilogue listing them. */
export const EXIT_CODES_HELP = `
Exit codes:
  0  every verdict as expected (check: all hold; hunt: no counterexample, or one found with --expect-leak;
     replay: every entry as recorded)
  1  a verdict is not as expected (a suite fails or is vacuous, a hunt found a leak, or found none with
     --expect-leak, a replayed entry regressed)
  2  bad usage or input (unknown flag or name, unreadable or malformed file), one line on stderr
  3  internal error (a bug in llmbda-check: please report the stack trace)
  4  hunt: inconclusive, no counterexample but too few cases to call the variant clean (not with --expect-leak)`;
