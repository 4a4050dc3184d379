/**
 * The hunt report: everything a person needs to understand a counterexample without the tool —
 * both programs side by side with the differing high parts marked, observer, lattice, model and
 * conversations, the two m-observer distributions as a table of fractions with a bar per class,
 * `Σ max` against 1, the seed and path, and the command that replays it.
 */
import * as Q from '../distributions/rational.ts';
import { entries, type SubDist } from '../distributions/subdist.ts';
import type { Lattice } from '../lattice/lattice.ts';
import { prettyPrint } from '../syntax/printer.ts';
import type { Final } from '../semantics/config.ts';
import { showConversation } from '../semantics/config.ts';
import { classKey } from '../observe/indist.ts';
import { showModelSpec } from '../generators/models.ts';
import { conversationOf, programOf, type PairCase, type SingleCase } from '../generators/pairs.ts';
import type { LlmbdaCtx } from './context.ts';
import { runSide, runSingle } from './context.ts';
import { failureKey } from '../semantics/config.ts';
import type { Evaluation } from '../semantics/evaluate.ts';
import { holeCount, showSkeleton } from '../generators/skeleton.ts';
import { bar, renderObserved, rowsMaxSum, type ObservedRow } from './observed.ts';
import { explainPair, explainSingle, LEGEND, showObservedFinal, type CaseExplanation, type ObservedTable, type RunOutcomes } from './explain.ts';
import { exactWeight, type Divergence, type TraceFragment, type TraceStep } from '../semantics/trace.ts';
export { showObservedFinal, type CaseExplanation } from './explain.ts';
export { bar, renderObserved, rowsMaxSum, type ObservedRow } from './observed.ts';

/** The m-observations of two denotations, one row per `∼m` class (classes in canonical order). */
export function observedRows<L>(lat: Lattice<L>, m: L, d0: SubDist<Final<L>>, d1: SubDist<Final<L>>): ObservedRow[] {
  const key = classKey(lat, m);
  const rows = new Map<string, { shown: string; w0: Q.Rational; w1: Q.Rational }>();
  for (const [side, d] of [[0, d0], [1, d1]] as const) {
    for (const [f, w] of entries(d)) {
      const k = key(f);
      const r = rows.get(k) ?? { shown: showObservedFinal(lat, m, f), w0: Q.ZERO, w1: Q.ZERO };
      if (side === 0) r.w0 = Q.add(r.w0, w); else r.w1 = Q.add(r.w1, w);
      rows.set(k, r);
    }
  }
  return [...rows.keys()].sort().map((k) => rows.get(k)!);
}

/** Where each run's missing mass went (stuck, out of fuel). */
function missingLines<L>(e: Evaluation<L>, who: string): string[] {
  const out = e.missing.map((x) => `  ${who}: ${Q.show(x.weight)} ${failureKey(x.failure)}`);
  if (!Q.isZero(e.modelDeficit)) out.push(`  ${who}: ${Q.show(e.modelDeficit)} withheld by the model`);
  return out;
}

/** Two texts side by side (each cut into lines), with `│` between; lines that differ are marked `*`. */
export function sideBySide(left: string, right: string, heads: readonly [string, string] = ['run 0', 'run 1']): string {
  const a = left.split('\n'), b = right.split('\n');
  const w = Math.max(heads[0].length, ...a.map((l) => [...l].length));
  const n = Math.max(a.length, b.length);
  const pad = (s: string): string => s + ' '.repeat(Math.max(0, w - [...s].length));
  const out = [`    ${pad(heads[0])} │ ${heads[1]}`];
  for (let i = 0; i < n; i++) {
    const x = a[i] ?? '', y = b[i] ?? '';
    out.push(`  ${x === y ? ' ' : '*'} ${pad(x)} │ ${y}`);
  }
  return out.join('\n');
}

/** What the report says about where the case came from. */
export interface ReportHeader {
  readonly variant: string;
  readonly variantDescription: string;
  readonly suite: string;
  readonly suiteTitle: string;
  readonly lattice: string;
  readonly reason: string;
  readonly seed?: number;
  readonly path?: string;
  readonly testsToFailure?: number;
  readonly timeToFailureMs?: number;
  readonly shrinks?: number;
  readonly minimised?: { readonly before: number; readonly after: number; readonly steps: number };
  readonly replay: readonly string[];
}

/** Does the report of this pair case show a leak (its observation table has `Σ max > 1`)? */
export function pairShowsLeak<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>): boolean {
  return headline(observedRows(ctx.lat, c.obs, runSide(ctx, c, 0).finals, runSide(ctx, c, 1).finals)).leak;
}

/** A report as text and as the plain data it renders (`explanation`, also rendered as HTML). */
export interface CaseReport {
  readonly text: string;
  readonly explanation: CaseExplanation;
}

/** The observation table as plain data (exact fractions as strings). */
export function observedTable(rows: readonly ObservedRow[]): ObservedTable {
  const sum = (f: (r: ObservedRow) => Q.Rational): Q.Rational => rows.reduce((a, r) => Q.add(a, f(r)), Q.ZERO);
  const ms = rowsMaxSum(rows);
  return {
    rows: rows.map((r) => ({ shown: r.shown, w0: exactWeight(r.w0), w1: exactWeight(r.w1) })),
    mass0: exactWeight(sum((r) => r.w0)), mass1: exactWeight(sum((r) => r.w1)), maxSum: exactWeight(ms), incompatible: Q.lt(Q.ONE, ms),
  };
}

/** The full report for a failing pair case (evaluated again here under `ctx`, the variant's context). */
export function pairReport<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, h: ReportHeader): string {
  return pairCaseReport(ctx, c, h).text;
}

/** The full report for a failing pair case, with its explanation as data. */
export function pairCaseReport<L>(ctx: LlmbdaCtx<L>, c: PairCase<L>, h: ReportHeader): CaseReport {
  const { lat } = ctx;
  const e0 = runSide(ctx, c, 0), e1 = runSide(ctx, c, 1);
  const p0 = prettyPrint(programOf(c, 0), lat, { multiline: true });
  const p1 = prettyPrint(programOf(c, 1), lat, { multiline: true });
  const cv0 = conversationOf(c, 0), cv1 = conversationOf(c, 1);
  const rows = observedRows(lat, c.obs, e0.finals, e1.finals);
  const skeleton = holeCount(c.skeleton) > 0 ? showSkeleton(lat, c.skeleton) : null;
  const explanation = explainPair(ctx, c, observedTable(rows), skeleton, showModelSpec(c.model));
  const lines = [
    ...headerLines(h, headline(rows)),
    '',
    `Lattice ${lat.name}; observer m = ${lat.show(c.obs)} (it sees labels ⊑ ${lat.show(c.obs)}); pc = ${lat.show(c.pc)}; fuel ${c.fuel}`,
    `Model: ${showModelSpec(c.model)}`,
    `Starting conversations: run 0 ${showConversation(lat, cv0)}, run 1 ${showConversation(lat, cv1)}${lat.leq(c.conv.label, c.obs) ? '' : ' (high: m cannot see it)'}`,
    '',
    skeleton !== null
      ? 'The two programs (one low skeleton; the high parts differ, marked ⟦label: run 0 | run 1⟧):'
      : 'The two programs are the same; the runs differ only in their (high) starting conversations:',
    `  ${showSkeleton(lat, c.skeleton)}`,
    '',
    sideBySide(p0, p1),
    '',
    `What m = ${lat.show(c.obs)} observes under ${h.variant} (exact ∼m-class probabilities):`,
    renderObserved(rows),
  ];
  const missing = [...missingLines(e0, 'run 0'), ...missingLines(e1, 'run 1')];
  if (missing.length > 0) lines.push('Missing mass:', ...missing);
  lines.push('', ...explanationLines(explanation));
  // TIPNI-style reasons repeat the table above; other suites' reasons carry their own comparison.
  const reason = /^observer distributions are incompatible/.test(h.reason) ? h.reason.split('\n')[0]! : h.reason;
  lines.push('', `Why the suite rejects it: ${reason}`, ...footerLines(h), '', ...legendLines());
  return { text: lines.join('\n'), explanation };
}

/** The full report for a failing single-run case (Confinement, Lemma 2, Theorem 3). */
export function singleReport<L>(ctx: LlmbdaCtx<L>, c: SingleCase<L>, h: ReportHeader): string {
  return singleCaseReport(ctx, c, h).text;
}

/** The full report for a failing single-run case, with its explanation as data. */
export function singleCaseReport<L>(ctx: LlmbdaCtx<L>, c: SingleCase<L>, h: ReportHeader): CaseReport {
  const { lat } = ctx;
  const e = runSingle(ctx, c);
  const explanation = explainSingle(ctx, c, showModelSpec(c.model));
  const lines = [
    ...headerLines(h, { leak: false, why: 'one run of one program: a broken law, not by itself a leak' }),
    '',
    `Lattice ${lat.name}; pc = ${lat.show(c.pc)}; fuel ${c.fuel}`,
    `Model: ${showModelSpec(c.model)}`,
    `Starting conversation: ${showConversation(lat, c.conv)}`,
    '',
    'The program:',
    prettyPrint(c.expr, lat, { multiline: true }).split('\n').map((l) => `  ${l}`).join('\n'),
    '',
    `Its exact denotation under ${h.variant}:`,
    ...entries(e.finals).map(([f, w]) => `  ${Q.show(w).padStart(7)} ${bar(w)}  ${showConversation(lat, f.conv)} ⊢ ${prettyPrint(f.value, lat)}`),
    ...missingLines(e, 'missing'),
    '',
    ...explanationLines(explanation),
    '',
    `Why the suite rejects it: ${h.reason}`,
    ...footerLines(h),
    '',
    ...legendLines(),
  ];
  return { text: lines.join('\n'), explanation };
}

/** One run's outcomes under one semantics: final configurations (unerased, then what m sees) and missing mass. */
function outcomeLines(o: RunOutcomes, indent: string): string[] {
  const shown = (x: { weight: { fraction: string } | null }): string => x.weight?.fraction ?? '?';
  const w = Math.max(1, ...o.finals.map((f) => shown(f).length), ...o.missing.map((m) => shown(m).length));
  const cw = Math.max(0, ...o.finals.map((f) => [...f.config].length));
  const out = o.finals.map((f) => `${indent}${shown(f).padStart(w)}  ${f.observed === null ? f.config : `${f.config}${' '.repeat(cw - [...f.config].length)}   m sees ${f.observed}`}`);
  out.push(...o.missing.map((m) => `${indent}${shown(m).padStart(w)}  ${m.what}`));
  if (out.length === 0) out.push(`${indent}(nothing: mass 0)`);
  return out;
}

/** A rule application on one line: rule, pc, conversation, expression. */
export function showStep(s: TraceStep): string {
  return `${s.rule} at pc ${s.pc}, conversation ${s.conv}: ${s.expr}`;
}

/** A fragment of a derivation: the diverging rule application, its premises with their outcomes, its outcomes. */
export function fragmentLines(f: TraceFragment): string[] {
  const outs = (os: TraceFragment['outcomes'], arrow: string, indent: string): string[] =>
    os.length === 0 ? [`${indent}${arrow} (no outcome)`] : os.map((o) => `${indent}${arrow} ${o.weight.fraction}  ${o.shown}`);
  return [
    `${f.step.rule}  pc ${f.step.pc}  conv ${f.step.conv}`,
    `  ${f.step.expr}`,
    ...f.premises.flatMap((p, i) => [`  premise ${i + 1}: ${p.step.rule} at pc ${p.step.pc}, conv ${p.step.conv}`, `    ${p.step.expr}`, ...outs(p.outcomes, '→', '    ')]),
    ...outs(f.outcomes, '⇒', '  '),
  ];
}

/** The first diverging rule application: the shared path, then the two fragments side by side. */
export function divergenceLines(d: Divergence, variant: string): string[] {
  const path = [...d.path.map((s) => s), { ...d.variant.step, expr: d.variant.step.expr.length > 72 ? `${d.variant.step.expr.slice(0, 71)}…` : d.variant.step.expr }];
  return [
    `  rule ${d.rule}: ${d.summary}`,
    '  derivation path (rule, pc, conversation label, expression), root first:',
    ...pathLines(path),
    '',
    sideBySide(fragmentLines(d.variant).join('\n'), fragmentLines(d.reference).join('\n'), [`under ${variant}`, 'under the reference']),
  ];
}

/** The path lines, root first, indented by depth (capped); a long path keeps its first and last steps. */
function pathLines(path: readonly TraceStep[]): string[] {
  const line = (s: TraceStep, i: number): string =>
    `  ${'  '.repeat(Math.min(i, MAX_INDENT))}${i === path.length - 1 ? '▶ ' : '└ '}${s.rule}  pc ${s.pc}  conv ${s.label}  ${s.expr}`;
  const all = path.map(line);
  if (all.length <= PATH_HEAD + PATH_TAIL + 1) return all;
  return [...all.slice(0, PATH_HEAD), `  ${'  '.repeat(Math.min(PATH_HEAD, MAX_INDENT))}… ${all.length - PATH_HEAD - PATH_TAIL} more rule applications …`, ...all.slice(-PATH_TAIL)];
}

const MAX_INDENT = 16, PATH_HEAD = 4, PATH_TAIL = 20;

/** The explanation sections: each run beside the reference, then the first diverging rule application. */
export function explanationLines(x: CaseExplanation): string[] {
  const out: string[] = [];
  const compared = x.runs.some((r) => r.reference !== null);
  out.push(compared
    ? `Each run under ${x.semantics} and under the reference (exact weights; final configurations C ⊢ V before erasure${x.observer !== null ? ', then what m sees' : ''}):`
    : `Each run (the semantics under test is the reference; final configurations C ⊢ V before erasure${x.observer !== null ? ', then what m sees' : ''}):`);
  for (const r of x.runs) {
    out.push(`  ${r.run}, from ${r.start}:`);
    out.push(`    under ${r.variant.semantics}:`, ...outcomeLines(r.variant, '      '));
    if (r.reference) out.push('    under the reference:', ...outcomeLines(r.reference, '      '));
  }
  if (!compared) return out;
  for (const r of x.runs) {
    out.push('');
    if (r.divergence) out.push(`First diverging rule application (${r.run}):`, ...divergenceLines(r.divergence, x.semantics));
    else if (r.untraced !== null) out.push(`First diverging rule application (${r.run}): not traced: ${r.untraced}`);
    else out.push(`First diverging rule application (${r.run}): none: the variant and the reference derive the same outcomes.`);
  }
  return out;
}

/** The legend of every notation the reports use. */
export function legendLines(): string[] {
  const w = Math.max(...LEGEND.map(([k]) => [...k].length));
  return ['Legend:', ...LEGEND.map(([k, v]) => `  ${k}${' '.repeat(w - [...k].length)}  ${v}`)];
}

/** What the headline may claim. */
export interface Headline {
  /** A leak: the evidence printed below shows two related runs that `m` tells apart. */
  readonly leak: boolean;
  /** Without a leak, what the failure is instead. */
  readonly why?: string;
}

/**
 * The headline of a pair report, computed from the observation table it prints: "leak" exactly when
 * `Σ max > 1` there (m can tell the runs apart under the semantics under test); otherwise the suite's
 * law failed (e.g. Stripping compares ⇓ with ⇓♯) and the report says so rather than cry leak.
 */
export function headline(rows: readonly ObservedRow[]): Headline {
  return Q.lt(Q.ONE, rowsMaxSum(rows))
    ? { leak: true }
    : { leak: false, why: 'what m observes of the two runs (below) is compatible' };
}

function headerLines(h: ReportHeader, head: Headline): string[] {
  const found = [
    h.testsToFailure !== undefined ? `after ${h.testsToFailure} generated case${h.testsToFailure === 1 ? '' : 's'}` : undefined,
    h.timeToFailureMs !== undefined ? `in ${(h.timeToFailureMs / 1000).toFixed(2)} s` : undefined,
  ].filter((x) => x !== undefined).join(' ');
  const shrunk = [
    h.shrinks !== undefined ? `fast-check shrank it ${h.shrinks} time${h.shrinks === 1 ? '' : 's'}` : undefined,
    h.minimised ? `the minimiser took it from ${h.minimised.before} to ${h.minimised.after} AST nodes in ${h.minimised.steps} step${h.minimised.steps === 1 ? '' : 's'}` : undefined,
  ].filter((x) => x !== undefined).join('; ');
  return [
    head.leak
      ? `LEAK FOUND: ${h.suite} fails under variant ${h.variant} on ${h.lattice}${found ? ` ${found}` : ''}`
      : `PROPERTY FAILS (no leak shown): ${h.suite} fails under variant ${h.variant} on ${h.lattice}${found ? ` ${found}` : ''}; ${head.why ?? ''}`,
    `  variant: ${h.variantDescription}`,
    `  suite:   ${h.suiteTitle}`,
    ...(shrunk ? [`  ${shrunk}`] : []),
  ];
}

function footerLines(h: ReportHeader): string[] {
  return [
    '',
    `Seed ${h.seed ?? '(none: hand-written)'}${h.path ? `, path ${h.path}` : ''}`,
    ...h.replay.map((r) => `Replay: ${r}`),
  ];
}
