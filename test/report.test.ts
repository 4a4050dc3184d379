/**
 * Reporters and CI behaviour, end to end as a CI job runs the CLI: the JSON of check, hunt and replay
 * validates against the published schema (docs/schema/report.schema.json), the JUnit XML against our
 * junit.xsd with libxml2's validator plus the count checks (test/helpers/junit-xsd.ts), GitHub annotations are workflow commands; `replay`
 * takes a whole folder in one process; `check --path` reproduces the printed case; `hunt --expect-leak`
 * inverts the exit code; user lattice and variant files replay from another directory; tables pad
 * without counting colour escapes; progress stays off when piped.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validate } from './helpers/json-schema.ts';
import { countErrors, validateJunit } from './helpers/junit-xsd.ts';
import { renderTable, visibleWidth } from '../src/util/table.ts';
import { progressText } from '../src/cli/progress.ts';
import { corpusFiles, loadEntry } from '../src/llmbda/corpus.ts';
import { PPMF_SUITES } from '../src/api/registry.ts';
import { renderJunit, systemHuntDocument } from '../src/report/index.ts';
import { systemHuntExit } from '../src/cli/cmd-hunt.ts';

const SCHEMA = JSON.parse(readFileSync('docs/schema/report.schema.json', 'utf8')) as Record<string, unknown>;
const REPO = process.cwd();

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }

function llmbda(args: readonly string[], cwd: string = REPO): Promise<Ran> {
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, 'bin/llmbda.js'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('the helpers can fail', () => {
  it('the schema validator rejects a number where a ratio is, and an unknown field', () => {
    const bad = { schemaVersion: 1, tool: { name: 'llmbda-check', version: '1' }, command: 'check', variant: 'reference', seed: 1, ok: true, exitCode: 0, timeMs: 1,
      summary: { cases: 0, passed: 0, failed: 0, errors: 0 }, cases: [], text: '', extra: 1 };
    expect(validate(SCHEMA, bad)).toEqual(['$: unexpected property extra']);
    const ratio = (SCHEMA['$defs'] as Record<string, Record<string, unknown>>)['ratio']!;
    expect(validate({ ...SCHEMA, ...ratio }, { fraction: '6/75', decimal: 0.08 })).toEqual(['$.decimal: is number, not string']);
    expect(validate({ ...SCHEMA, ...ratio }, { fraction: '6/75', decimal: '0.08' })).toEqual(['$.decimal: "0.08" does not match ^-?[0-9]+\\.[0-9]{6}$']);
  });

  it('the JUnit validator (libxml2 against test/fixtures/junit.xsd) rejects what junit-4.xsd forbids, with libxml2\'s message', async () => {
    const ok = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="n" tests="1" failures="1" errors="0" time="0.5">\n<testsuite name="s" tests="1" failures="1" errors="0" skipped="0" time="0.5" timestamp="2026-12-01T23:00:00" hostname="h">\n'
      + '<properties><property name="seed" value="1"/></properties>\n<testcase name="a" classname="c" time="0.1"><failure message="m" type="fails">report</failure></testcase>\n<system-out>out</system-out>\n</testsuite>\n</testsuites>\n';
    expect(await validateJunit(ok)).toEqual([]);
    const bad = async (xml: string): Promise<string> => (await validateJunit(xml)).join('\n');
    expect(await bad('<testsuites><testsuite tests="1"><testcase name="a"/></testsuite></testsuites>'))
      .toBe("line 1: Schemas validity error : Element 'testsuite': The attribute 'name' is required but missing.");
    expect(await bad('<testsuite name="s" tests="0"><system-out/><properties/></testsuite>')).toMatch(/Element 'properties': This element is not expected/);
    expect(await bad('<testsuite name="s" tests="0" timestamp="2026-12-01T23:00:00Z"/>')).toMatch(/attribute 'timestamp': \[facet 'pattern'\]/);
    expect(await bad('<testsuite name="s" tests="-1"/>')).toMatch(/attribute 'tests': '-1' is not a valid value/);
    expect(await bad('<testsuite name="s" tests="0" time="1s"/>')).toMatch(/attribute 'time': '1s' is not a valid value of the atomic type 'Seconds'/);
    expect(await bad('<testsuite name="s" tests="1"><testcase name="a"><failure/><skipped/></testcase></testsuite>')).toMatch(/Element 'skipped': This element is not expected/);
    expect(await bad('<testsuite name="s" tests="1"><testcase name="a" result="x"/></testsuite>')).toMatch(/attribute 'result': The attribute 'result' is not allowed/);
    expect(await bad('<testsuite name="" tests="0"/>')).toMatch(/attribute 'name'.*\[facet 'minLength'\]/);
    expect(await bad('<report/>')).toMatch(/No matching global declaration available for the validation root/);
    expect(await bad('<testsuite name="a & b" tests="0"/>')).toMatch(/parser error : xmlParseEntityRef: no name/);
    expect(await bad('<testsuite name="s" tests="0">')).toMatch(/parser error/);
  });

  it('the count checks reject what the schema cannot express: tests, failures and errors that disagree with the testcases', async () => {
    const xml = '<testsuite name="s" tests="2" failures="0" errors="1"><testcase name="a"><failure message="x">y</failure></testcase></testsuite>';
    expect(await validateJunit(xml)).toEqual(['testsuite: tests=2 but 1 testcases', 'testsuite: failures=0 but 1 failed testcases', 'testsuite: errors=1 but 0 testcases in error']);
    expect(countErrors('<testsuites><testsuite name="s" tests="1"><testcase name="a"/></testsuite><testsuite name="t" tests="0"><testcase name="b"/></testsuite></testsuites>'))
      .toEqual(['testsuites/testsuite[1]: tests=0 but 1 testcases']);
  });
});

describe('reporters', () => {
  it('check: junit (one testcase per suite and lattice, the failure carries the report), json (schema), github (::error)', async () => {
    const args = ['check', '--variant', 'recv-no-nsu', '--suite', 'tipni', '--suite', 'lemma2', '--lattice', 'two-point', '--seed', '3', '--runs', '300'];
    const [junit, json, gh] = await Promise.all([llmbda([...args, '--reporter', 'junit']), llmbda([...args, '--reporter', 'json']), llmbda([...args, '--reporter', 'github'])]);
    for (const r of [junit, json, gh]) expect(r.code, r.stderr).toBe(1);
    expect(await validateJunit(junit.stdout)).toEqual([]);
    expect(junit.stdout).toMatch(/<testcase name="lemma2 on two-point" classname="llmbda.check.lemma2" time="[0-9.]+"\/>/);
    // The failure carries the same report `hunt` prints: both programs, the reference's outcome, the first diverging rule.
    expect(junit.stdout).toMatch(/<testcase name="tipni on two-point"[^>]*>\n\s*<failure message="tipni on two-point: Theorem 1 \(TIPNI\)[^"]*" type="fails">[^<]*\* \["H"\]:true │ \["H"\]:recv/);
    expect(junit.stdout).toContain('stuck at Recv: pc ["H"] does not flow to conversation label []');
    expect(junit.stdout).toMatch(/First diverging rule application \(run 1\):\n {2}rule Recv:/);
    const doc = JSON.parse(json.stdout) as { cases: { id: string; verdict: string; result: string; counterexample: { reason: string } | null; replay: string[]; nonVacuity: { estimate: { fraction: string } }[];
      explanation: { runs: { divergence: { rule: string } | null; reference: { missing: { what: string }[] } | null }[] } | null }[]; ok: boolean };
    expect(validate(SCHEMA, doc)).toEqual([]);
    expect(doc.cases[0]!.explanation).toBeNull();
    expect(doc.cases[1]!.explanation!.runs.map((r) => r.divergence?.rule ?? null)).toEqual([null, 'Recv']);
    expect(doc.cases[1]!.explanation!.runs[1]!.reference!.missing[0]!.what).toBe('stuck at Recv: pc ["H"] does not flow to conversation label []');
    expect(doc.ok).toBe(false);
    expect(doc.cases.map((c) => [c.id, c.verdict, c.result])).toEqual([['lemma2/two-point', 'holds', 'passed'], ['tipni/two-point', 'fails', 'failed']]);
    expect(json.stdout).not.toMatch(/#####|\.{10}/); // no bar charts, even in the human texts (the fractions stay)
    // (the response depends on how far check's time-budgeted minimiser simplified the model: "0" when idle)
    expect(json.stdout).toMatch(/ {8}0 {8}1 {2}\[\]:\[\\"[^\\]*\\"\] ⊢/);
    expect(doc.cases[1]!.counterexample!.reason).toBe('observer distributions are incompatible: Σ max = 2 > 1');
    expect(doc.cases[1]!.replay).toEqual([`npx llmbda check --suite tipni --lattice 'two-point' --seed 3 --runs 300 --variant recv-no-nsu --path '6:2:1:1:1:1:1:1:1'`]);
    expect(gh.stdout).toMatch(/^::error title=llmbda check%3A tipni on two-point FAILS::tipni on two-point: Theorem 1 .*%0A/m);
    expect(gh.stdout).toMatch(/^::notice title=llmbda check::1 of 2 passed, 1 failed, 0 errors$/m);
  });

  it('check --path reproduces exactly the printed case, and its own replay line is the same', async () => {
    const first = await llmbda(['check', '--variant', 'recv-no-nsu', '--suite', 'tipni', '--lattice', 'two-point', '--seed', '3', '--runs', '300']);
    const line = /^Replay: npx llmbda (.*)$/m.exec(first.stdout)![1]!;
    const argv = [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const again = await llmbda(argv);
    expect(again.code).toBe(1);
    const caseOf = (s: string): string => s.slice(s.indexOf('Lattice two-point; observer'), s.indexOf('Why the suite rejects it:'));
    expect(caseOf(again.stdout)).toBe(caseOf(first.stdout));
    expect(caseOf(first.stdout)).toMatch(/\* \["H"\]:true │ \["H"\]:recv/);
    expect(again.stdout).toContain(`Replay: npx llmbda ${line}`);
    expect(again.stdout).toMatch(/LEAK FOUND: tipni fails under variant recv-no-nsu on two-point after 1 generated case\b/);
  });

  it('check --time is a budget: a huge --runs stops at the time share and says how many cases ran', async () => {
    const r = await llmbda(['check', '--suite', 'tipni', '--lattice', 'two-point', '--runs', '1000000', '--time', '2s', '--seed', '1', '--reporter', 'json']);
    const doc = JSON.parse(r.stdout) as { cases: { runs: number; verdict: string; timeMs: number }[] };
    expect(validate(SCHEMA, doc)).toEqual([]);
    expect(doc.cases).toHaveLength(1);
    expect(doc.cases[0]!.runs).toBeGreaterThan(0);
    expect(doc.cases[0]!.runs).toBeLessThan(1000000);
    expect(doc.cases[0]!.verdict).toBe('holds');
  });

  it('a case found by trying the corpus names the corpus file (the variant\'s own, smallest entry first)', async () => {
    const r = await llmbda(['check', '--variant', 'send-no-nsu', '--suite', 'tipni', '--lattice', 'powerset-us', '--seed', '1', '--runs', '50']);
    expect(r.code).toBe(1);
    // Saved cases are replayed apart from the generated runs (not tried first as fast-check examples);
    // under --variant one the variant fails still fails the check and is named, the variant's own smallest first.
    expect(r.stdout).toContain('tipni on powerset-us: a saved case shows it fails: counterexamples/send-no-nsu-powerset-us-1.json');
    expect(r.stdout.indexOf('send-no-nsu-powerset-us-1.json')).toBeLessThan(r.stdout.indexOf('camel-'));
    expect(r.stdout).not.toContain('fuel 440');
  });
});

describe('hunt and replay for CI', () => {
  it('hunt --expect-leak exits 0 on a leak and 1 without; hunt --help shows the real default; --help lists exit codes', async () => {
    const [leak, none, plain, help] = await Promise.all([
      llmbda(['hunt', '--variant', 'send-no-nsu', '--lattice', 'powerset-us', '--seed', '1', '--time', '20s', '--expect-leak', '--reporter', 'json']),
      // 200 cases: fewer is an inconclusive hunt (exit 4, "too few to call it clean"), not a clean one.
      llmbda(['hunt', '--variant', 'reference', '--lattice', 'two-point', '--runs', '200', '--seed', '1', '--expect-leak', '--reporter', 'junit']),
      llmbda(['hunt', '--variant', 'reference', '--lattice', 'two-point', '--runs', '200', '--seed', '1']),
      llmbda(['hunt', '--help']),
    ]);
    expect(leak.code, leak.stderr).toBe(0);
    const doc = JSON.parse(leak.stdout) as { command: string; ok: boolean; cases: { verdict: string; result: string; counterexample: { entry: unknown } | null }[] };
    expect(validate(SCHEMA, doc)).toEqual([]);
    expect(doc.cases.at(-1)!.verdict).toBe('fails');
    expect(doc.cases.at(-1)!.counterexample!.entry).toBeTruthy();
    expect(none.code).toBe(1);
    expect(await validateJunit(none.stdout)).toEqual([]);
    expect(none.stdout).toMatch(/<failure message="No counterexample: variant reference survived 200 generated cases/);
    expect(plain.code).toBe(0);
    expect(help.stdout).toMatch(/--time <duration>[\s\S]*\(default: 30s\)/);
    expect(help.stdout).not.toContain('30000');
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}every verdict as expected[\s\S]* {2}2 {2}bad usage[\s\S]* {2}3 {2}internal error/);
  });

  it('hunt --system ppmf|endorse|banking: junit has one testcase per suite hunted, the failure is the readable report; github annotates it', async () => {
    const [ppmfBad, ppmfClean, endorseBad, banking] = await Promise.all([
      llmbda(['hunt', '--system', 'ppmf', '--variant', 'no-defence', '--seed', '1', '--time', '10s', '--reporter', 'junit']),
      llmbda(['hunt', '--system', 'ppmf', '--variant', 'ppmf', '--seed', '1', '--runs', '10', '--reporter', 'junit']),
      llmbda(['hunt', '--system', 'endorse', '--variant', 'robust-endorse-no-mark', '--seed', '1', '--time', '10s', '--reporter', 'github']),
      llmbda(['hunt', '--system', 'banking', '--variant', 'ifc-off', '--seed', '1', '--runs', '50', '--expect-leak', '--reporter', 'junit']),
    ]);
    expect(ppmfBad.code, ppmfBad.stderr).toBe(1);
    expect(await validateJunit(ppmfBad.stdout)).toEqual([]);
    expect(ppmfBad.stdout).toMatch(/<testsuite name="llmbda hunt --variant no-defence" tests="1" failures="1" errors="0"/);
    // The failure: a headline (JUnit's message), then the hunt's own report with its story and replay line.
    expect(ppmfBad.stdout).toMatch(/<testcase name="ppmf-gate-soundness" classname="llmbda.hunt.ppmf-gate-soundness" time="[0-9.]+">\n\s*<failure message="ppmf-gate-soundness: counterexample under --system ppmf --variant no-defence after \d+ case\(s\): EFFECT call on [^"]*" type="fails">/);
    expect(ppmfBad.stdout).toMatch(/<failure [^>]*>[^<]*FOUND a counterexample to ppmf-gate-soundness[^<]*ATTACK SUCCEEDS[^<]*Replay: npx llmbda hunt --system ppmf --variant no-defence --seed 1<\/failure>/);
    // A clean hunt: every PPMF suite is a passing testcase.
    expect(ppmfClean.code, ppmfClean.stderr).toBe(0);
    expect(await validateJunit(ppmfClean.stdout)).toEqual([]);
    expect([...ppmfClean.stdout.matchAll(/<testcase name="([^"]+)"[^>]*\/>/g)].map((m) => m[1])).toEqual(PPMF_SUITES.map((x) => x.name));
    expect(ppmfClean.stdout).not.toContain('<failure');
    expect(endorseBad.code).toBe(1);
    expect(endorseBad.stdout).toMatch(/^::error title=llmbda hunt%3A endorse-no-cascade FAILS::endorse-no-cascade: counterexample under --system endorse --variant robust-endorse-no-mark after \d+ case\(s\): .*%0A%0Aendorse hunt on robust-endorse-no-mark/m);
    expect(endorseBad.stdout).toMatch(/^::notice title=llmbda hunt::0 of 1 passed, 1 failed, 0 errors$/m);
    // --expect-leak: the leak found is the pass.
    expect(banking.code, banking.stderr).toBe(0);
    expect(await validateJunit(banking.stdout)).toEqual([]);
    expect(banking.stdout).toMatch(/<testsuite name="llmbda hunt --variant ifc-off" tests="1" failures="0" errors="0"/);
    expect(banking.stdout).toMatch(/<testcase name="banking-integrity" classname="llmbda.hunt.banking-integrity" time="[0-9.]+"\/>/);
  });

  it('hunt --system documents: a crashed suite is a JUnit <error>; --expect-leak with nothing found fails every suite', async () => {
    const base = { system: 'ppmf' as const, variant: 'v', seed: 7, timeMs: 12, report: 'PPMF hunt on system v\nReplay: npx llmbda hunt --system ppmf --variant v --seed 7' };
    const crashed = systemHuntDocument({ ...base, found: true, searched: [{ suite: 'ppmf-a', cases: 5, ms: 1 }, { suite: 'ppmf-b', cases: 2, ms: 1 }],
      failure: { suite: 'ppmf-b', error: true, reason: 'TypeError: boom', path: null, testsToFailure: 0, shrinks: 0 } }, { version: '0', expectLeak: false });
    expect(crashed.cases.map((c) => [c.id, c.verdict, c.result])).toEqual([['ppmf-a/-', 'holds', 'passed'], ['ppmf-b/-', 'error', 'error']]);
    const xml = renderJunit(crashed);
    expect(await validateJunit(xml)).toEqual([]);
    expect(xml).toMatch(/<testsuite name="llmbda hunt --variant v" tests="2" failures="0" errors="1"/);
    expect(xml).toContain('<error message="ppmf-b: the suite crashed under --system ppmf --variant v: TypeError: boom" type="error">');
    expect(crashed.cases[1]!.replay).toEqual(['npx llmbda hunt --system ppmf --variant v --seed 7']);
    const clean = systemHuntDocument({ ...base, found: false, searched: [{ suite: 'ppmf-a', cases: 5, ms: 1 }] }, { version: '0', expectLeak: true });
    expect([clean.ok, clean.cases[0]!.result, clean.cases[0]!.message.split('\n')[0]]).toEqual([false, 'failed', 'ppmf-a: no counterexample in 5 case(s) under --system ppmf --variant v (--expect-leak wanted one)']);
    expect(validate(SCHEMA, clean)).toEqual([]);
    // The exit code: a crashed suite is never a leak, with or without --expect-leak (1, as the document's exitCode).
    const crash = { found: true, failure: { suite: 'ppmf-b', error: true, reason: 'TypeError: boom', path: null, testsToFailure: 0, shrinks: 0 } };
    const leak = { found: true, failure: { ...crash.failure, error: false } };
    expect([systemHuntExit(crash, false), systemHuntExit(crash, true)]).toEqual([1, 1]);
    expect(systemHuntDocument({ ...base, ...crash, searched: [{ suite: 'ppmf-b', cases: 2, ms: 1 }] }, { version: '0', expectLeak: true }).exitCode).toBe(1);
    expect([systemHuntExit(leak, false), systemHuntExit(leak, true)]).toEqual([1, 0]);
    expect([systemHuntExit({ found: false }, false), systemHuntExit({ found: false }, true)]).toEqual([0, 1]);
  });

  it('replay takes the whole corpus folder in one process, with a summary; JUnit has one testcase per entry', async () => {
    const files = corpusFiles('counterexamples');
    const [text, junit] = await Promise.all([llmbda(['replay', 'counterexamples']), llmbda(['replay', 'counterexamples/', '--reporter', 'junit'])]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`Replayed ${files.length} entries: ${files.length} as recorded, 0 regressed, 0 could not be loaded.`);
    expect(await validateJunit(junit.stdout)).toEqual([]);
    expect([...junit.stdout.matchAll(/<testcase name="([^"]+)"/g)].map((m) => m[1])).toEqual(files);
  });

  it('replay reports a regression (exit 1) and a bad file among others (exit 2) without stopping', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-replay-'));
    try {
      cpSync('counterexamples/send-no-nsu-powerset-us-1.json', join(dir, 'a.json'));
      writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...loadEntry('counterexamples/send-no-nsu-powerset-us-1.json'), expected: { reference: 'holds', variant: 'holds' } }));
      const regressed = await llmbda(['replay', join(dir, 'a.json'), join(dir, 'b.json'), '--reporter', 'json']);
      expect(regressed.code).toBe(1);
      const doc = JSON.parse(regressed.stdout) as { cases: { result: string }[] };
      expect(validate(SCHEMA, doc)).toEqual([]);
      expect(doc.cases.map((c) => c.result)).toEqual(['passed', 'failed']);
      writeFileSync(join(dir, 'c.json'), '{"version": 1');
      const bad = await llmbda(['replay', dir]);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toMatch(/c\.json\n {2}ERROR: .*c\.json: not valid JSON/);
      expect(bad.stdout).toContain('Replayed 3 entries: 1 as recorded, 1 regressed, 1 could not be loaded.');
      // replay --lattice: the recorded case judged on a lattice given on the command line.
      const onLattice = await llmbda(['replay', join(dir, 'a.json'), '--lattice', 'powerset-us']);
      expect(onLattice.code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a counterexample on a user lattice and user variant replays from another directory, and after the project moves', async () => {
    const root = mkdtempSync(join(tmpdir(), 'llmbda-roundtrip-'));
    try {
      const proj = join(root, 'proj');
      mkdirSync(join(proj, 'lattices'), { recursive: true });
      mkdirSync(join(proj, 'variants'));
      mkdirSync(join(root, 'elsewhere'));
      // The example files, importing this checkout's sources (a consumer imports the installed package).
      writeFileSync(join(proj, 'lattices/diamond.ts'), readFileSync('examples/my-lattice.ts', 'utf8').replaceAll("'llmbda-check/lattice'", `'${resolve('src/lattice/index.ts')}'`));
      writeFileSync(join(proj, 'variants/v.ts'), readFileSync('examples/my-variant.ts', 'utf8').replaceAll("'llmbda-check/variants'", `'${resolve('src/variants/index.ts')}'`));
      const h = await llmbda(['hunt', '--variant', 'variants/v.ts', '--lattice', 'lattices/diamond.ts', '--seed', '1', '--time', '20s', '--out', 'ce'], proj);
      expect(h.code, h.stderr).toBe(1);
      expect(h.stdout).toContain("Replay: npx llmbda hunt --variant variants/v.ts --suite tipni --lattice 'lattices/diamond.ts' --seed 1");
      const [file] = corpusFiles(join(proj, 'ce'));
      const entry = loadEntry(file!);
      expect([entry.variant, entry.lattice, entry.latticeFile]).toEqual(['../variants/v.ts', 'diamond', '../lattices/diamond.ts']);
      const name = file!.slice(file!.lastIndexOf('/') + 1);
      const there = await llmbda(['replay', `../proj/ce/${name}`], join(root, 'elsewhere'));
      expect(there.code, there.stdout + there.stderr).toBe(0);
      expect(there.stdout).toMatch(/labelled-value-only +FAILS +\(expected fails\)/);
      renameSync(proj, join(root, 'moved'));
      const moved = await llmbda(['replay', '../moved/ce'], join(root, 'elsewhere'));
      expect(moved.code, moved.stdout + moved.stderr).toBe(0);
      expect(moved.stdout).toContain('Both verdicts as recorded.');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('terminal output', () => {
  it('tables pad by what is visible: colour escapes take no width', () => {
    const red = (s: string): string => `\x1b[31m${s}\x1b[39m`;
    expect(visibleWidth(red('FAILS'))).toBe(5);
    const t = renderTable(['suite', 'result', 'seed'], [['tipni', red('FAILS'), '1'], ['confinement', 'holds', '2']]).split('\n');
    expect(t[2]).toBe(`tipni        ${red('FAILS')}   1`);
    expect(t[3]).toBe('confinement  holds   2');
  });

  it('the progress line shows cases, cases per second and the time left', () => {
    expect(progressText({ label: 'checking', done: 1200, total: 3000, elapsedMs: 10_000 })).toBe('checking 1200/3000 cases  120/s  ETA 15s');
    expect(progressText({ label: 'hunting', done: 50, elapsedMs: 2_000, leftMs: 125_000 })).toBe('hunting 50 cases  25/s  ETA 2m05s');
  });

  it('no progress line when stderr is piped', async () => {
    const r = await llmbda(['check', '--suite', 'tipni', '--lattice', 'two-point', '--runs', '50', '--seed', '1']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});
