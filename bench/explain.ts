/**
 * `npm run bench:explain`: what explaining a counterexample costs. For every corpus entry (counterexamples/),
 * the time of the suite's own judgement of the case under its variant (the work a replay does anyway)
 * beside the time of the report with its explanation (each run under the variant and the reference, both
 * traced without memoisation, and the parallel walk), median of REPEATS in-process runs; and the rule
 * applications a traced evaluation records. Written to docs/benchmarks.md.
 */
import { judge } from '../src/runner/suite.ts';
import { corpusFiles, entryCase, loadEntry } from '../src/llmbda/corpus.ts';
import { loadVariant, variantCtx } from '../src/llmbda/variant-ctx.ts';
import { pairCaseReport, singleCaseReport, type ReportHeader } from '../src/llmbda/report.ts';
import { latticeByName } from '../src/lattice/registry.ts';
import { suiteNamed } from '../src/api/registry.ts';
import { tracedSemantics } from '../src/semantics/trace.ts';
import { evaluate } from '../src/semantics/evaluate.ts';
import { modelOf } from '../src/generators/models.ts';
import { conversationOf, programOf } from '../src/generators/pairs.ts';
import type { RawNode } from '../src/semantics/trace.ts';
import { machineInfo, machineMarkdown, mdTable, updateDoc } from './lib/doc.ts';

const REPEATS = Number(process.env['REPEATS'] ?? 5);
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };
const time = (f: () => unknown): number => { const t = performance.now(); f(); return performance.now() - t; };
const count = (n: RawNode<unknown>): number => 1 + n.premises.reduce((a, p) => a + count(p), 0);

const machine = machineInfo(['fast-check']);
const rows: string[][] = [];
for (const file of corpusFiles()) {
  const entry = loadEntry(file);
  const lat = latticeByName(entry.lattice)!;
  const suite = suiteNamed(entry.suite);
  const variant = await loadVariant(entry.variant);
  const ctx = variantCtx(lat, variant);
  const c = entryCase(file, entry, lat);
  const header: ReportHeader = { variant: variant.name, variantDescription: variant.description, suite: suite.name, suiteTitle: suite.title, lattice: lat.name, reason: '', replay: [] };
  const explain = (): unknown => (c.kind === 'pair' ? pairCaseReport(ctx, c.value, header) : singleCaseReport(ctx, c.value, header));
  const judged: number[] = [], explained: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const fresh = entryCase(file, entry, lat).value; // a new case object: the suites cache evaluations per case object
    judged.push(time(() => judge(suite, ctx, fresh)));
    explained.push(time(explain));
  }
  // Rule applications recorded in run 0 (or the single run) under the variant.
  const rec = tracedSemantics<unknown>(ctx.semantics);
  if (c.kind === 'pair') evaluate(modelOf(c.value.model), lat as never, c.value.pc, conversationOf(c.value, 0), programOf(c.value, 0), c.value.fuel, { semantics: rec.semantics, memoise: false });
  else evaluate(modelOf(c.value.model), lat as never, c.value.pc, c.value.conv, c.value.expr, c.value.fuel, { semantics: rec.semantics, memoise: false });
  const nodes = rec.roots.reduce((a, r) => a + count(r), 0);
  rows.push([file.replace(/^counterexamples\//, ''), String(entry.size), String(nodes), median(judged).toFixed(1), median(explained).toFixed(1)]);
  console.log(rows.at(-1)!.join('\t'));
}
updateDoc('bench:explain', [
  '## Explaining a counterexample (docs/reports.md)',
  '',
  machineMarkdown(machine, 'npm run bench:explain', [`median of ${REPEATS} in-process runs per entry`]),
  '',
  'For each corpus entry: its size, the rule applications a traced evaluation of run 0 records (no memoisation),',
  'the time of the suite\'s judgement under the variant, and the time of the full report with its explanation',
  '(both runs under the variant and the reference, traced, and the walk to the first diverging rule). Untraced',
  'evaluations are unchanged: the trace is a wrapped copy of the rule table, used only here.',
  '',
  mdTable(['entry', 'AST nodes', 'rule applications traced (run 0)', 'judge (ms)', 'report + explanation (ms)'], rows),
].join('\n'));
