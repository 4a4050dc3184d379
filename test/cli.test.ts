/**
 * The `llmbda` command end to end (spawned as a child process, as a user runs it): `run` prints the
 * spec's tables, `--json` parses, errors point at line and column and exit 2 without a stack trace,
 * `--sample` frequencies lie near the exact distribution, `check` exits 0 on the reference and non-zero
 * on a broken user lattice, and a deep `fix` loop evaluates in the large-stack worker.
 * Each invocation costs about a second of tsx startup, so there are only a handful, run concurrently.
 */
import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Q from '../src/distributions/rational.ts';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/main.ts';
import { duration } from '../src/cli/common.ts';

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }

/** At most this many CLI processes at once: one per core of the 2-core target machine (tsx startup is CPU-bound). */
const MAX_CHILDREN = 2;
let running = 0;
const waiting: (() => void)[] = [];

/** Run `node bin/llmbda.js …` in the repository root. */
async function llmbda(...args: string[]): Promise<Ran> {
  if (running >= MAX_CHILDREN) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await new Promise((resolve) => {
      execFile(process.execPath, ['bin/llmbda.js', ...args], { cwd: process.cwd(), env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000 }, (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** No JavaScript stack trace in what the user sees. */
const noStackTrace = (s: string): void => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

/** Table rows `value  conversation  probability  ≈` printed by `llmbda run` (after the header rule). */
function tableRows(stdout: string): string[][] {
  const lines = stdout.split('\n');
  const rule = lines.findIndex((l) => /^-+\s+-+/.test(l));
  const rows: string[][] = [];
  for (const l of lines.slice(rule + 1)) {
    if (l.startsWith('mass ') || l.trim() === '') break;
    rows.push(l.trim().split(/\s{2,}/));
  }
  return rows;
}

describe.concurrent('llmbda run', () => {
  it('examples/coins.lam --model coin:3/10 prints the four-row table of spec §8.1', async () => {
    const r = await llmbda('run', 'examples/coins.lam', '--model', 'coin:3/10');
    expect(r.code).toBe(0);
    const rows = tableRows(r.stdout).map(([v, c, p]) => [v, c, p]).sort((a, b) => (a.join() < b.join() ? -1 : 1));
    expect(rows).toEqual([
      ['[]:0', '[]:["flip", "0", "again", "0"]', '49/100'],
      ['[]:1', '[]:["flip", "0", "again", "1"]', '21/100'],
      ['[]:1', '[]:["flip", "1", "again", "0"]', '21/100'],
      ['[]:2', '[]:["flip", "1", "again", "1"]', '9/100'],
    ]);
    expect(r.stdout).toMatch(/^mass 1\b/m);
  });

  it('--json output parses and carries the same distribution', async () => {
    const r = await llmbda('run', 'examples/coins.lam', '--model', 'coin:3/10', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { mass: string; distribution: { value: string; probability: string; decimal: string; conversation: { label: string; messages: string[] } }[] };
    expect(j.mass).toBe('1');
    expect(j.distribution.map((d) => `${d.value} ${d.conversation.messages.join(',')} ${d.probability}`).sort()).toEqual([
      '[]:0 flip,0,again,0 49/100', '[]:1 flip,0,again,1 21/100', '[]:1 flip,1,again,0 21/100', '[]:2 flip,1,again,1 9/100',
    ]);
    // Decimals one way in every JSON output: a string with six digits after the point, beside the exact fraction.
    expect(j.distribution.map((d) => d.decimal).sort()).toEqual(['0.090000', '0.210000', '0.210000', '0.490000']);
  });

  it('--conv and a corpus entry\'s model (JSON) evaluate a corpus .lam exactly as replay does (recv-at-pc run 0; send-no-nsu run 0)', async () => {
    const entry = JSON.parse(readFileSync('counterexamples/recv-at-pc-powerset-us-1.json', 'utf8')) as { model: unknown; conversations: { label: string; messages: string[] }[]; fuel: number };
    const conv0 = `${entry.conversations[0]!.label}:${JSON.stringify(entry.conversations[0]!.messages)}`;
    expect(conv0).toBe('["S"]:[]');
    const [withConv, without, send, badConv, badModel] = await Promise.all([
      llmbda('run', 'counterexamples/recv-at-pc-powerset-us-1.lam', '--fuel', String(entry.fuel), '--model', JSON.stringify(entry.model), '--conv', conv0, '--json'),
      llmbda('run', 'counterexamples/recv-at-pc-powerset-us-1.lam', '--fuel', String(entry.fuel), '--model', JSON.stringify(entry.model), '--json'),
      llmbda('run', 'counterexamples/send-no-nsu-powerset-us-1.lam', '--fuel', '3', '--model', '{"kind": "constant", "responses": [["0", "1"]]}', '--conv', '[]:[]'),
      llmbda('run', 'examples/coins.lam', '--conv', '["S"]'),
      llmbda('run', 'examples/coins.lam', '--model', '{"kind": "echo"}'),
    ]);
    // What `llmbda replay counterexamples/recv-at-pc-powerset-us-1.json` shows for run 0 under the reference:
    // 1  ["S"]:["0"] ⊢ ["S"]:[["S"]:true, ["S"]:0]
    const j = JSON.parse(withConv.stdout) as { distribution: { value: string; conversation: { label: string; messages: string[] }; probability: string }[] };
    expect(j.distribution).toEqual([{ value: '["S"]:[["S"]:true, ["S"]:0]', conversation: { label: '["S"]', messages: ['0'] }, probability: '1', decimal: '1.000000' }]);
    // Without the starting conversation it is another run (the answer runs at [], the conversation stays []).
    expect((JSON.parse(without.stdout) as typeof j).distribution[0]!.conversation.label).toBe('[]');
    expect(send.code).toBe(0);
    expect(send.stdout).toMatch(/^mass 0\b/m);
    expect(send.stdout).toContain('stuck Send: pc ["U"] does not flow to conversation label []');
    expect([badConv.code, badConv.stderr.trim()]).toEqual([2, 'llmbda: --conv: expected LABEL:["message", …], e.g. \'["S"]:["secret"]\' or \'[]:[]\', got "[\\"S\\"]"']);
    expect([badModel.code, badModel.stderr.trim()]).toEqual([2, 'llmbda: --model: model.fallback must be a string']);
  });

  it('--help shows every duration default as it is typed (10s, 1m), never as milliseconds, and each default once', () => {
    const program = buildProgram({ exitCode: 0 });
    const problems: string[] = [];
    let durations = 0;
    const walk = (c: Command, path: string): void => {
      const help = c.helpInformation().replace(/\s+/g, ' ');
      for (const o of c.options) {
        if (o.flags.includes('<duration>') && typeof o.defaultValue === 'number') {
          durations++;
          const shown = o.defaultValueDescription ?? '';
          // the shown default, typed back, is the default
          if (duration(o.long!)(shown) !== o.defaultValue) problems.push(`${path} ${o.long}: shows ${JSON.stringify(shown)} for ${o.defaultValue} ms`);
        }
      }
      if (/\(default:? \d+\) \(default: \d+\)/.test(help)) problems.push(`${path}: a default written twice`);
      for (const sub of c.commands) walk(sub, `${path} ${sub.name()}`);
    };
    walk(program, 'llmbda');
    expect(problems).toEqual([]);
    expect(durations).toBeGreaterThanOrEqual(6);
    expect(program.commands.find((c) => c.name() === 'check')!.helpInformation().replace(/\s+/g, ' ')).toMatch(/--case-timeout <duration> .*\(default: 10s\)/);
  });

  it('--variant reference is accepted and is the reference semantics (as for hunt and check)', async () => {
    const [plain, named] = await Promise.all([llmbda('run', 'examples/fenton-denning.lam'), llmbda('run', 'examples/fenton-denning.lam', '--variant', 'reference')]);
    expect(named.code, named.stderr).toBe(0);
    expect(named.stdout).toBe(plain.stdout);
    expect(named.stdout).toContain('Send: pc ["S"] does not flow to conversation label []');
  });

  it('examples/fenton-denning.lam prints mass 0 and the Send reason', async () => {
    const r = await llmbda('run', 'examples/fenton-denning.lam');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^mass 0\b/m);
    expect(r.stdout).toContain('Send: pc ["S"] does not flow to conversation label []');
  });

  it('a parse error prints file:line:col and a caret, exits 2, and shows no stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-cli-'));
    const file = join(dir, 'bad.lam');
    writeFileSync(file, 'let x = 1 in\nlet y = (x + in\ny\n');
    const r = await llmbda('run', file);
    rmSync(dir, { recursive: true, force: true });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:2:14`);
    const lines = r.stderr.split('\n');
    const caret = lines.findIndex((l) => /^\s*\^\s*$/.test(l));
    expect(caret).toBeGreaterThan(0);
    // the caret sits under column 14 of the echoed source line
    expect(lines[caret - 1]).toContain('let y = (x + in');
    expect(lines[caret]!.indexOf('^') - lines[caret - 1]!.indexOf('let y')).toBe(13);
    noStackTrace(r.stderr);
  });

  it('an unknown flag exits 2', async () => {
    const r = await llmbda('run', 'examples/coins.lam', '--no-such-flag');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option/);
    noStackTrace(r.stderr);
  });

  it('--sample 2000 --seed 1: frequencies within a Hoeffding bound (δ = 1e-9) of the exact 9/100, 21/100, 21/100, 49/100', async () => {
    const r = await llmbda('run', 'examples/coins.lam', '--model', 'coin:3/10', '--sample', '2000', '--seed', '1', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { samples: number; frequencies: { outcome: string; count: number }[] };
    expect(j.samples).toBe(2000);
    const exact: Record<string, number> = { '0,0': 0.49, '0,1': 0.21, '1,0': 0.21, '1,1': 0.09 };
    // P(|freq − p| ≥ ε) ≤ 2·exp(−2Nε²) per outcome; union bound over 4 outcomes at δ = 1e-9
    const eps = Math.sqrt(Math.log((2 * 4) / 1e-9) / (2 * 2000));
    let total = 0;
    for (const f of j.frequencies) {
      const m = /"flip", "(\d)", "again", "(\d)"/.exec(f.outcome);
      expect(m, f.outcome).not.toBeNull();
      const p = exact[`${m![1]},${m![2]}`]!;
      expect(Math.abs(f.count / 2000 - p)).toBeLessThan(eps);
      total += f.count;
    }
    expect(total).toBe(2000);
  });

  it('a fix loop of 300 iterations (examples/fix-loop.lam) evaluates exactly in the large-stack worker', async () => {
    const r = await llmbda('run', 'examples/fix-loop.lam', '--fuel', '5000', '--json');
    noStackTrace(r.stderr);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as { mass: string; distribution: { value: string; probability: string }[] };
    expect(j.mass).toBe('1');
    // 300 fair bits summed mod 5, by dynamic programming
    let dist = [Q.ONE, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO];
    for (let i = 0; i < 300; i++) dist = dist.map((_, r) => Q.mul(Q.add(dist[r]!, dist[(r + 4) % 5]!), Q.rat(1, 2)));
    expect(Object.fromEntries(j.distribution.map((d) => [d.value, d.probability]))).toEqual(
      Object.fromEntries(dist.map((p, r) => [`[]:${r}`, Q.show(p)])),
    );
  });
});

describe.concurrent('llmbda check', () => {
  it('check --suite tipni --lattice two-point --runs 50 exits 0', async () => {
    const r = await llmbda('check', '--suite', 'tipni', '--lattice', 'two-point', '--runs', '50', '--seed', '1', '--no-progress');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tipni\s+two-point\s+50\s+\S+\s+holds/);
  });

  it('the suites sharing evaluations give what --no-shared gives: verdicts, counts, counterexamples (reference and a leaky variant)', async () => {
    // The families' suites on two lattices, and under test-bare-pc (which TIPNI and Lemma 5 catch, so counterexamples
    // with their seeds, paths and shrinks are compared too).
    const suites = (names: string[]) => names.flatMap((s) => ['--suite', s]);
    const families = ['tipni', 'lemma5', 'leakage', 'confinement', 'lemma2'];
    const common = ['check', '--runs', '120', '--seed', '5', '--no-progress', '--no-corpus', '--json'];
    // The variant replaces LabelTest, which the skipping suites then refuse: they run on the reference only.
    const leaky = [...suites(families), '--lattice', 'powerset-us', '--variant', 'test-bare-pc'];
    const runs = [[...suites([...families, 'stripping', 'high-blindness']), '--lattice', 'two-point', '--lattice', 'chain(3)'], leaky];
    for (const extra of runs) {
      const [shared, alone] = await Promise.all([llmbda(...common, ...extra), llmbda(...common, ...extra, '--no-shared')]);
      expect(shared.code).toBe(alone.code);
      const cases = (r: Ran) => (JSON.parse(r.stdout) as { cases: Record<string, unknown>[] }).cases.map(({ timeMs: _t, ...rest }) => rest);
      expect(cases(shared)).toEqual(cases(alone));
      expect(cases(shared).length).toBeGreaterThan(0);
    }
    const failing = await llmbda(...common, ...leaky);
    expect(failing.code).toBe(1); // the variant run really compared counterexamples
  });

  it('check --lattice ./examples/broken-lattice.ts exits non-zero and names associativity', async () => {
    const r = await llmbda('check', '--lattice', './examples/broken-lattice.ts', '--runs', '50', '--seed', '1', '--no-progress');
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/associativ/);
    noStackTrace(r.stdout + r.stderr);
  });
});
