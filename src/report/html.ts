/**
 * The HTML reporter (`--html FILE` on check, hunt and replay): one self-contained page — inline CSS, no
 * scripts, no external assets — with the content of the text report: both programs, what the observer
 * sees, each run under the semantics under test and under the reference, the first diverging rule
 * application with the two derivation fragments side by side, and the legend. Every distribution is a
 * bar chart whose bar widths are the exact weights, written as exact decimal percentages (no floats).
 * Layout and anatomy: docs/reports.md.
 */
import * as Q from '../distributions/rational.ts';
import { LEGEND, type CaseExplanation, type FinalRow, type MissingRow, type RunExplanation, type RunOutcomes } from '../llmbda/explain.ts';
import type { Divergence, ExactWeight, TraceFragment, TraceOutcome, TraceStep } from '../semantics/trace.ts';
import type { ReportCase, ReportDocument } from './document.ts';
import { caseName } from './junit.ts';

/** Escape text for HTML element content and attribute values. */
export function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const e = htmlEscape;

/** The CSS width of a weight's bar: the exact weight as a percentage, eight decimals (computed on rationals). */
export function barPercent(w: ExactWeight): string {
  const q = Q.parseRational(w.fraction);
  if (q === undefined) throw new Error(`internal error: not a fraction: ${w.fraction}`);
  const clamped = Q.lt(q, Q.ZERO) ? Q.ZERO : Q.lt(Q.ONE, q) ? Q.ONE : q;
  return `${Q.toDecimal(Q.mul(clamped, Q.rat(100)), 8)}%`;
}

/** A weight: its exact fraction and its bar (the bar's `data-weight` is the fraction it draws). */
function weightCell(w: ExactWeight | null): string {
  if (w === null) return '<span class="w">?</span>';
  return `<span class="w">${e(w.fraction)}</span><span class="bar" data-weight="${e(w.fraction)}"><span class="fill" style="width: ${barPercent(w)}"></span></span>`;
}

const CSS = `
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #1a1a1a; max-width: 110em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.2em; margin-top: 1.6em; } h3 { font-size: 1.05em; margin-top: 1.2em; } h4 { margin: 0.3em 0; font-size: 1em; }
code, pre { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
pre { background: #f6f6f6; padding: 0.5em 0.7em; overflow-x: auto; margin: 0.3em 0; }
.case { border-top: 2px solid #ccc; padding-top: 0.5em; }
.failed > h2 { color: #a40000; } .passed > h2 { color: #1f6f1f; } .error > h2 { color: #8a5a00; }
.cols { display: flex; gap: 1.2em; align-items: flex-start; flex-wrap: wrap; }
.col { flex: 1 1 30em; min-width: 0; }
table { border-collapse: collapse; margin: 0.3em 0; }
th, td { text-align: left; padding: 0.2em 0.6em; border-bottom: 1px solid #e2e2e2; vertical-align: middle; }
.w { display: inline-block; min-width: 4.5em; text-align: right; margin-right: 0.5em; font-family: ui-monospace, Menlo, Consolas, monospace; }
.bar { display: inline-block; width: 12em; height: 0.9em; background: #e3e3e3; vertical-align: middle; margin-right: 0.6em; }
td.weight { white-space: nowrap; }
.fill { display: block; height: 100%; background: #3b6ea8; }
.missing .fill { background: #b5651d; }
.path { list-style: none; padding-left: 0; } .path li { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.92em; }
.diverge { background: #fff3d6; }
.differs { background: #ffe1e1; }
dl.legend { display: grid; grid-template-columns: max-content 1fr; gap: 0.2em 1em; } dl.legend dt { font-family: ui-monospace, Menlo, Consolas, monospace; }
.verdict { font-weight: bold; }
`;

/** Render a report document as one self-contained HTML page. */
export function renderHtml(d: ReportDocument): string {
  const title = `llmbda ${d.command}: ${d.variant}, ${d.summary.passed} of ${d.summary.cases} passed`;
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${e(title)}</title><style>${CSS}</style></head><body>`,
    `<h1>${e(title)}</h1>`,
    `<p>llmbda-check ${e(d.tool.version)}; ${d.seed !== null ? `seed ${d.seed}; ` : ''}${d.summary.failed} failed, ${d.summary.errors} error${d.summary.errors === 1 ? '' : 's'}; exit code ${d.exitCode}.</p>`,
    summaryTable(d),
    ...d.cases.filter((c) => c.result !== 'passed' || c.explanation !== null).map((c) => caseSection(c, d.command)),
    legendSection(),
    '</body></html>',
    '',
  ].join('\n');
}

function summaryTable(d: ReportDocument): string {
  const rows = d.cases.map((c) => `<tr class="${c.result}"><td>${e(caseName(c, d.command))}</td><td>${e(c.variant)}</td><td class="verdict">${e(c.verdict)}</td><td>${e(c.expected)}</td><td>${e(c.result)}</td><td>${c.runs}</td></tr>`);
  return `<table class="summary"><tr><th>case</th><th>variant</th><th>verdict</th><th>expected</th><th>result</th><th>runs</th></tr>\n${rows.join('\n')}\n</table>`;
}

function caseSection(c: ReportCase, command: ReportDocument['command']): string {
  const x = c.explanation;
  const out = [`<section class="case ${c.result}" id="${e(c.id)}">`, `<h2>${e(caseName(c, command))}: ${e(c.verdict.toUpperCase())} (expected ${e(c.expected)})</h2>`];
  if (c.counterexample) out.push(`<p>Why the suite rejects it: ${e(c.counterexample.reason)}</p>`);
  if (x) out.push(explanationHtml(x));
  if (c.message !== '') out.push(`<details${x ? '' : ' open'}><summary>The text report</summary><pre>${e(c.message)}</pre></details>`);
  if (c.replay.length > 0) out.push(`<p>Replay:</p><pre>${c.replay.map(e).join('\n')}</pre>`);
  out.push('</section>');
  return out.join('\n');
}

/** The explanation of a failing case (the same content as the text report's sections). */
export function explanationHtml(x: CaseExplanation): string {
  const out: string[] = [];
  out.push(`<p>Lattice <code>${e(x.lattice)}</code>${x.observer !== null ? `; observer m = <code>${e(x.observer)}</code> (it sees labels ⊑ <code>${e(x.observer)}</code>)` : ''}; pc = <code>${e(x.pc)}</code>; fuel ${x.fuel}; model <code>${e(x.model)}</code>; semantics under test: <code>${e(x.semantics)}</code>.</p>`);
  out.push(x.kind === 'pair' ? '<h3>The two programs</h3>' : '<h3>The program</h3>');
  if (x.skeleton !== null) out.push(`<p>Low skeleton (high parts marked <code>⟦label: run 0 | run 1⟧</code>): <code>${e(x.skeleton)}</code></p>`);
  out.push('<div class="cols programs">', ...x.programs.map((p, i) => `<div class="col"><h4>${x.kind === 'pair' ? `run ${i}` : 'the run'}</h4><p>starting conversation <code>${e(x.conversations[i] ?? '')}</code></p><pre class="program">${e(p)}</pre></div>`), '</div>');
  if (x.observed) {
    const t = x.observed;
    out.push(`<h3>What m = <code>${e(x.observer ?? '')}</code> observes under <code>${e(x.semantics)}</code> (exact ∼m-class probabilities)</h3>`);
    out.push('<table class="dist observed"><tr><th>what m sees (conversation ⊢ value)</th><th>run 0</th><th>run 1</th></tr>');
    for (const r of t.rows) out.push(`<tr><td><code>${e(r.shown)}</code></td><td class="weight">${weightCell(r.w0)}</td><td class="weight">${weightCell(r.w1)}</td></tr>`);
    out.push(`<tr><td>mass</td><td class="weight">${weightCell(t.mass0)}</td><td class="weight">${weightCell(t.mass1)}</td></tr></table>`);
    out.push(`<p>Σ max = <code>${e(t.maxSum.fraction)}</code> ${t.incompatible ? '&gt; 1: incompatible — no single sub-distribution covers both runs, so m tells them apart (a leak)' : '≤ 1: compatible'}</p>`);
  }
  const compared = x.runs.some((r) => r.reference !== null);
  out.push(compared ? `<h3>Each run under <code>${e(x.semantics)}</code> and under the reference</h3>` : '<h3>Each run (the semantics under test is the reference)</h3>');
  out.push(`<p>Final configurations <code>C ⊢ V</code> before erasure, with exact weights${x.observer !== null ? ', and what m sees of each' : ''}; then where the missing mass went.</p>`);
  for (const r of x.runs) out.push(runHtml(r));
  for (const r of x.runs) {
    if (!compared) break;
    out.push(`<h3>First diverging rule application (${e(r.run)})</h3>`);
    if (r.divergence) out.push(divergenceHtml(r.divergence, x.semantics));
    else if (r.untraced !== null) out.push(`<p>Not traced: ${e(r.untraced)}</p>`);
    else out.push('<p>None: the variant and the reference derive the same outcomes.</p>');
  }
  return out.join('\n');
}

function outcomesTable(o: RunOutcomes): string {
  const fin = (f: FinalRow): string => `<tr><td class="weight">${weightCell(f.weight)}</td><td><code>${e(f.config)}</code></td>${f.observed !== null ? `<td><code>${e(f.observed)}</code></td>` : ''}</tr>`;
  const miss = (m: MissingRow): string => `<tr class="missing"><td class="weight">${weightCell(m.weight)}</td><td colspan="2">${e(m.what)}</td></tr>`;
  const observed = o.finals.some((f) => f.observed !== null);
  const rows = [...o.finals.map(fin), ...o.missing.map(miss)];
  return `<table class="dist outcomes"><tr><th>weight</th><th>C ⊢ V (before erasure)</th>${observed ? '<th>m sees</th>' : ''}</tr>${rows.length ? rows.join('') : '<tr><td colspan="3">nothing: mass 0</td></tr>'}</table>`;
}

function runHtml(r: RunExplanation): string {
  return [
    `<h4>${e(r.run)}, from <code>${e(r.start)}</code></h4>`,
    '<div class="cols runs">',
    `<div class="col"><p>under <code>${e(r.variant.semantics)}</code></p>${outcomesTable(r.variant)}</div>`,
    ...(r.reference ? [`<div class="col"><p>under the reference</p>${outcomesTable(r.reference)}</div>`] : []),
    '</div>',
  ].join('\n');
}

const stepText = (s: TraceStep): string => `${s.rule}  pc ${s.pc}  conv ${s.label}  ${s.expr}`;

function outcomesList(os: readonly TraceOutcome[], arrow: string, other: readonly TraceOutcome[] | undefined): string {
  const key = (o: TraceOutcome): string => `${o.weight.fraction} ${o.shown}`;
  const same = other !== undefined && other.map(key).join('\n') === os.map(key).join('\n');
  if (os.length === 0) return `<div class="${same ? '' : 'differs'}">${arrow} (no outcome)</div>`;
  return os.map((o) => `<div class="${same ? '' : 'differs'}">${arrow} ${weightCell(o.weight)}<code>${e(o.shown)}</code></div>`).join('');
}

function fragmentHtml(f: TraceFragment, other: TraceFragment, title: string): string {
  const premises = f.premises.map((p, i) => {
    const q = other.premises[i];
    const differs = !q || stepText(q.step) !== stepText(p.step);
    return `<li class="${differs ? 'differs' : ''}"><code>premise ${i + 1}: ${e(p.step.rule)} at pc ${e(p.step.pc)}, conv ${e(p.step.conv)}</code><br><code>${e(p.step.expr)}</code>${outcomesList(p.outcomes, '→', q?.outcomes)}</li>`;
  });
  return [
    `<div class="col fragment"><h4>${e(title)}</h4>`,
    `<p><code>${e(f.step.rule)}  pc ${e(f.step.pc)}  conv ${e(f.step.conv)}</code><br><code>${e(f.step.expr)}</code></p>`,
    `<ol class="premises">${premises.join('')}</ol>`,
    `<div class="conclusion">${outcomesList(f.outcomes, '⇒', other.outcomes)}</div>`,
    '</div>',
  ].join('\n');
}

/** The derivation path and the two fragments side by side. */
export function divergenceHtml(d: Divergence, semantics: string): string {
  const steps = [...d.path.map((s) => `<li>└ ${e(stepText(s))}</li>`), `<li class="diverge">▶ ${e(stepText(d.variant.step))}</li>`];
  return [
    `<p>Rule <strong>${e(d.rule)}</strong>: ${e(d.summary)}</p>`,
    '<p>Derivation path (rule, pc, conversation label, expression), root first:</p>',
    `<ol class="path">${steps.join('')}</ol>`,
    '<div class="cols fragments">',
    fragmentHtml(d.variant, d.reference, `under ${semantics}`),
    fragmentHtml(d.reference, d.variant, 'under the reference'),
    '</div>',
  ].join('\n');
}

function legendSection(): string {
  return `<section class="legend"><h2>Legend</h2><dl class="legend">${LEGEND.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`
    + '<p>In this page every bar is drawn at the exact weight: its filled part is that fraction of the whole bar.</p></section>';
}
