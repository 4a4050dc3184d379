/**
 * Recording benchmark results: the machine they ran on, Markdown tables, and the generated sections of
 * `docs/benchmarks.md` (each script replaces only its own marked section, so the hand-written analysis
 * around them survives a re-run).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is `bench/lib/doc.ts`). */
export const ROOT: string = fileURLToPath(new URL('../..', import.meta.url));

/** The benchmark document both scripts update. */
export const DOC_PATH: string = `${ROOT}docs/benchmarks.md`;

/** Version of an installed package, read from its own `package.json` (`?` when absent). */
export function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(`${ROOT}node_modules/${name}/package.json`, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

/** The CPU model as the kernel reports it (first `model name` of /proc/cpuinfo). */
function cpuModel(): string {
  try {
    const m = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    return m?.[1]?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The checked-out commit, marked `+ uncommitted changes` when the tree is dirty (read-only git calls). */
function gitRevision(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

/** Everything a reader needs to judge a timing: machine, load, versions, date. */
export interface MachineInfo {
  readonly date: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  /** 1-minute load average when the benchmark started (other processes compete for the cores). */
  readonly load: number;
  readonly node: string;
  readonly versions: Readonly<Record<string, string>>;
  readonly revision: string;
}

/** Snapshot the machine now. */
export function machineInfo(packages: readonly string[]): MachineInfo {
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: availableParallelism(),
    cpuModel: cpuModel(),
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    load: loadavg()[0] ?? NaN,
    node: process.version,
    versions: Object.fromEntries(packages.map((p) => [p, packageVersion(p)])),
    revision: gitRevision(),
  };
}

/** The machine as Markdown bullet lines. */
export function machineMarkdown(m: MachineInfo, command: string, extra: readonly string[] = []): string {
  return [
    `- Date: ${m.date}; commit ${m.revision}`,
    `- Machine: ${m.cpus} cores (\`nproc\`), ${m.cpuModel}, ${m.memoryGiB} GiB RAM; 1-minute load average at start ${m.load.toFixed(2)}`,
    `- Node ${m.node}; ${Object.entries(m.versions).map(([p, v]) => `${p} ${v}`).join(', ')}`,
    `- Command: \`${command}\``,
    ...extra.map((e) => `- ${e}`),
  ].join('\n');
}

/** A Markdown table (cells must not contain `|`; they are escaped if they do). */
export function mdTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    `| ${header.map(cell).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

const begin = (name: string): string => `<!-- BEGIN GENERATED ${name}: written by \`npm run ${name}\`, do not edit by hand -->`;
const end = (name: string): string => `<!-- END GENERATED ${name} -->`;

/**
 * Replace the generated section `name` of `text` with `body` (markers kept); append the section when
 * the markers are missing. Pure, so it can be checked without touching the file.
 */
export function replaceSection(text: string, name: string, body: string): string {
  const b = begin(name);
  const e = end(name);
  const block = `${b}\n${body.trimEnd()}\n${e}`;
  const i = text.indexOf(b);
  const j = text.indexOf(e);
  if (i >= 0 && j > i) return text.slice(0, i) + block + text.slice(j + e.length);
  return `${text.trimEnd()}\n\n${block}\n`;
}

/** Write the generated section `name` of docs/benchmarks.md. */
export function updateDoc(name: string, body: string, path: string = DOC_PATH): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  writeFileSync(path, replaceSection(text, name, body));
}
