/**
 * The banking case study's property suites (docs/banking.md): per task family, generated related world
 * pairs, exact evaluation of the task's planner program on both, and a compatibility check (TIPNI's
 * conclusion, spec §5) of what an observer sees.
 *
 * - `banking-insulated-tipni`: the worlds differ only in the secrets (["S"]); the observer is m = ["U"]
 *   (I-maximal: Theorem 2, endorse included). Observed: the final configuration up to ∼m, and the
 *   transfers the bank executes (labels stripped: the bank ignores them).
 * - `banking-integrity`: the worlds differ only in third-party text and the injection (["U"]);
 *   observed: the effects the bank executes, labels stripped. Holds with IFC on for endorse-free plans;
 *   fails with IFC off, and on the plans that endorse a Q-LLM answer (the flow they chose to trust).
 */
import fc from 'fast-check';
import * as Q from '../src/distributions/rational.ts';
import { compare, observe } from '../src/observe/indist.ts';
import { pushforward, show as showDist, type SubDist } from '../src/distributions/subdist.ts';
import { fails, HOLDS, type CaseOutcome, type PropertySuite } from '../src/runner/suite.ts';
import { powersetUS, US, type USLabel } from '../src/lattice/instances.ts';
import type { Final } from '../src/semantics/config.ts';
import type { Evaluation } from '../src/semantics/evaluate.ts';
import type { Semantics } from '../src/semantics/rules-types.ts';
import { showPlain } from '../src/semantics/serialise.ts';
import { closedProgram, readOutcome, runProgram, type Effect, type Variant } from '../src/banking/program.ts';
import type { Task } from '../src/banking/data.ts';
import { qllmName, type QllmSpec } from '../src/banking/qllm.ts';
import { injectionArb, secretsArb, trustedArb, untrustedArb, worldOf, type Secrets, type Trusted, type Untrusted } from '../src/banking/generators.ts';

/** Where the banking suites run: one task family, one deployment, the Q-LLMs to draw from. */
export interface BankingCtx {
  readonly task: Task;
  readonly variant: Variant;
  readonly qllms: readonly QllmSpec[];
  /** Integrity pairs: vary only the injection text (the rest of the third-party text is shared). */
  readonly injectionOnly?: boolean;
  /** The semantics (default: the reference); a broken variant shows the suites can fail. */
  readonly semantics?: Semantics;
}

/** A related pair of worlds: shared parameters, and the group the observer cannot see on each side. */
export interface BankingCase<Hidden> {
  readonly qllm: QllmSpec;
  readonly trusted: Trusted;
  readonly shared: Untrusted | Secrets;
  readonly hidden: readonly [Hidden, Hidden];
}

const qllmArb = (ctx: BankingCtx) => fc.constantFrom(...ctx.qllms);

function run(ctx: BankingCtx, qllm: QllmSpec, t: Trusted, s: Secrets, u: Untrusted): Evaluation<USLabel> {
  return runProgram(closedProgram(ctx.variant, ctx.task.source, `tasks/${ctx.task.program}`, worldOf(t, s, u)), qllm, ctx.semantics);
}

const showEffect = (e: Effect): string => `{${Object.entries(e).map(([k, v]) => `${k}: ${showPlain(v)}`).join(', ')}}`;

/** The effects the bank executes (labels stripped), keyed; only transfers when `transfersOnly`. */
function executed(mu: SubDist<Final<USLabel>>, transfersOnly: boolean): SubDist<string> {
  return pushforward(mu, (f) => {
    const out = readOutcome(f.value);
    if (!out) return 'no {w, answer} result';
    const es = transfersOnly ? out.effects.filter((e) => { const k = e['kind']; return k?.kind === 'str' && (k.value === 'send_money' || k.value === 'schedule_transaction'); }) : out.effects;
    return `[${es.map(showEffect).join(', ')}]`;
  });
}

function compatibleOr(what: string, a: SubDist<string>, b: SubDist<string>): CaseOutcome {
  const c = compare(a, b);
  if (c.compatible) return HOLDS;
  return fails(`${what} are incompatible: Σ max = ${Q.show(c.maxSum)} > 1\n  world 0: ${showDist(a)}\n  world 1: ${showDist(b)}`);
}

const showParams = (o: object): string => JSON.stringify(o);

export const bankingInsulatedTipni: PropertySuite<BankingCase<Secrets>, BankingCtx> = {
  name: 'banking-insulated-tipni',
  caseKind: 'banking-world-pair',
  title: 'Banking: Insulated TIPNI at m = ["U"] on worlds differing only in secrets',
  arbitrary: (ctx) => fc.record({ qllm: qllmArb(ctx), trusted: trustedArb, shared: untrustedArb, hidden: fc.tuple(secretsArb, secretsArb) }),
  check: (c, ctx) => {
    const u = c.shared as Untrusted;
    const r0 = run(ctx, c.qllm, c.trusted, c.hidden[0], u);
    const r1 = run(ctx, c.qllm, c.trusted, c.hidden[1], u);
    const seen = compatibleOr('∼["U"] observations of the final configurations', observe(powersetUS, US.U, r0.finals), observe(powersetUS, US.U, r1.finals));
    if (!seen.ok) return seen;
    return compatibleOr('transfers executed by the bank', executed(r0.finals, true), executed(r1.finals, true));
  },
  show: (c, ctx) => `task ${ctx.task.id} (${ctx.variant}), Q-LLM ${qllmName(c.qllm)}\n  trusted: ${showParams(c.trusted)}\n  shared untrusted: ${showParams(c.shared)}\n  secrets 0: ${showParams(c.hidden[0])}\n  secrets 1: ${showParams(c.hidden[1])}`,
  stats: (c) => ({ 'secrets differ': c.hidden[0].iban !== c.hidden[1].iban || c.hidden[0].password !== c.hidden[1].password }),
  thresholds: { 'secrets differ': 1 / 2 },
};

export const bankingIntegrity: PropertySuite<BankingCase<Untrusted>, BankingCtx> = {
  name: 'banking-integrity',
  caseKind: 'banking-world-pair',
  title: 'Banking: integrity TIPNI for side-effecting tools (third-party text never changes the effects)',
  arbitrary: (ctx) => fc.record({
    qllm: qllmArb(ctx),
    trusted: trustedArb,
    shared: secretsArb,
    hidden: ctx.injectionOnly
      ? fc.tuple(untrustedArb, injectionArb, injectionArb).map(([u, i0, i1]) => [{ ...u, injection: i0 }, { ...u, injection: i1 }] as const)
      : fc.tuple(untrustedArb, untrustedArb),
  }),
  check: (c, ctx) => {
    const s = c.shared as Secrets;
    const r0 = run(ctx, c.qllm, c.trusted, s, c.hidden[0]);
    const r1 = run(ctx, c.qllm, c.trusted, s, c.hidden[1]);
    return compatibleOr('effects executed by the bank', executed(r0.finals, false), executed(r1.finals, false));
  },
  show: (c, ctx) => `task ${ctx.task.id} (${ctx.variant}), Q-LLM ${qllmName(c.qllm)}\n  trusted: ${showParams(c.trusted)}\n  secrets: ${showParams(c.shared)}\n  untrusted 0: ${showParams(c.hidden[0])}\n  untrusted 1: ${showParams(c.hidden[1])}`,
  stats: (c) => ({ 'injection differs': c.hidden[0].injection !== c.hidden[1].injection }),
  thresholds: { 'injection differs': 1 / 2 },
};

/** Does the task's planner program endorse (call `trust`)? Such plans are outside the integrity claim. */
export function endorses(task: Task): boolean {
  return /\btrust\b/.test(task.source.split('\n').filter((l) => !l.trimStart().startsWith('#')).join('\n'));
}
