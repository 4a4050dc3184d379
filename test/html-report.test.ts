/**
 * The HTML report (`--html FILE`) in a real headless browser (Debian's chromium, driven by playwright-core):
 * it renders with no request beyond the file itself, shows both programs and the first diverging rule,
 * and every bar's rendered width is its exact weight times the full bar's width, within a pixel. Skipped,
 * with a warning naming the binary, only where /usr/bin/chromium does not exist; nothing is installed here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { validate } from './helpers/json-schema.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.warn(`html-report.test.ts: SKIPPED the headless browser tests: no browser binary at ${CHROMIUM} (install Debian's chromium package)`);

const REPO = process.cwd();
const SCHEMA = JSON.parse(readFileSync('docs/schema/report.schema.json', 'utf8')) as Record<string, unknown>;

interface Ran { readonly code: number; readonly stdout: string; readonly stderr: string }

function llmbda(args: readonly string[]): Promise<Ran> {
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, 'bin/llmbda.js'), ...args], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/**
 * A hand-written corpus entry with weights other than 0 and 1: under recv-no-nsu, run 0 asks the model at
 * pc ["U"] (responses "0" with 1/3, "1" with 2/3); run 1 does not ask. The reference is stuck in run 0.
 */
const ENTRY = {
  version: 1, variant: 'recv-no-nsu', suite: 'tipni', lattice: 'powerset-us', kind: 'pair', observer: '[]', pc: '[]',
  programs: ['["U"]:recv', '["U"]:[]'],
  conversations: [{ label: '[]', messages: [] }, { label: '[]', messages: [] }],
  model: { kind: 'constant', responses: [['0', '1/3'], ['1', '2/3']] },
  fuel: 4, size: 4, expected: { reference: 'holds', variant: 'fails' }, reason: 'observer distributions are incompatible',
  title: 'recv-no-nsu: a recv at a high pc into a low conversation (hand-written for the HTML test)',
};

/** Each bar's weight (its `data-weight` fraction), its fill's width and the full bar's width, as rendered. */
async function measureBars(page: Page): Promise<{ weight: string; fill: number; full: number }[]> {
  return page.$$eval('.bar', (bars) => bars.map((b) => ({
    weight: b.getAttribute('data-weight') ?? '',
    fill: b.querySelector('.fill')!.getBoundingClientRect().width,
    full: b.getBoundingClientRect().width,
  })));
}

/** The bars whose rendered fill is more than a pixel away from weight × full width (the fraction parsed here). */
function misdrawn(bars: readonly { weight: string; fill: number; full: number }[]): string[] {
  return bars.flatMap((b) => {
    const [p, q] = b.weight.includes('/') ? b.weight.split('/').map(Number) : [Number(b.weight), 1];
    const expected = (p! / q!) * b.full;
    return Math.abs(b.fill - expected) <= 1 ? [] : [`${b.weight}: fill ${b.fill}px, expected ${expected}px of ${b.full}px`];
  });
}

describe.skipIf(!HAVE_CHROMIUM)('the HTML report in headless Chromium', () => {
  let dir = '';
  let browser: Browser | undefined;
  let html = '';
  let doc: { cases: { explanation: { programs: string[] } | null }[] } | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'llmbda-html-'));
    const entry = join(dir, 'recv-thirds.json');
    writeFileSync(entry, JSON.stringify(ENTRY, null, 2));
    const out = join(dir, 'report.html');
    const r = await llmbda(['replay', entry, '--reporter', 'json', '--html', out]);
    expect(r.code, r.stderr).toBe(0);
    doc = JSON.parse(r.stdout) as typeof doc;
    html = readFileSync(out, 'utf8');
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const open = async (): Promise<{ page: Page; requests: string[] }> => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
    const requests: string[] = [];
    page.on('request', (q) => requests.push(q.url()));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    return { page, requests };
  };

  it('the page is self-contained: no script, no external asset, one request (the file)', async () => {
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\bsrc=|url\(|@import/i);
    expect(html).not.toMatch(/https?:\/\//);
    const { page, requests } = await open();
    expect(requests).toEqual([pathToFileURL(join(dir, 'report.html')).href]);
    await page.close();
  });

  it('renders both programs, the reference beside the variant, and the first diverging rule', async () => {
    expect(validate(SCHEMA, doc)).toEqual([]);
    const { page } = await open();
    const text = await page.innerText('body');
    expect(text).toContain('["U"]:recv');
    expect(text).toContain('["U"]:[]');
    const programs = await page.$$eval('pre.program', (ps) => ps.map((p) => p.textContent ?? ''));
    expect(programs).toEqual(doc!.cases[0]!.explanation!.programs);
    expect(text).toContain('stuck at Recv: pc ["U"] does not flow to conversation label []');
    expect(text).toMatch(/First diverging rule application \(run 0\)/);
    expect(await page.innerText('.fragments')).toContain('under recv-no-nsu');
    expect(await page.innerText('.fragments')).toContain('under the reference');
    expect(await page.$$eval('.path li.diverge', (ls) => ls.map((l) => l.textContent ?? ''))).toEqual([expect.stringMatching(/^▶ Recv\s+pc \["U"\]/)]);
    expect(text).toContain('Legend');
    await page.close();
  });

  it('every bar is drawn at its exact weight (within a pixel), 1/3 and 2/3 among them', async () => {
    const { page } = await open();
    const bars = await measureBars(page);
    expect(bars.length).toBeGreaterThan(10);
    expect(bars.map((b) => b.weight)).toEqual(expect.arrayContaining(['1/3', '2/3', '1', '0']));
    expect(bars.every((b) => b.full > 50)).toBe(true);
    expect(misdrawn(bars)).toEqual([]);
    // The check can fail: a bar drawn at another width is reported.
    await page.$eval('.bar[data-weight="1/3"] .fill', (f) => { f.setAttribute('style', 'width: 40%'); });
    expect(misdrawn(await measureBars(page))).toEqual([expect.stringMatching(/^1\/3: fill/)]);
    await page.close();
  });
});

describe('--html on check and hunt (the same page, no browser needed)', () => {
  it('check writes the failing verdict\'s explanation; hunt the finding\'s; --target refuses --html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llmbda-html-'));
    try {
      const [check, hunt, target] = await Promise.all([
        llmbda(['check', '--variant', 'recv-no-nsu', '--suite', 'tipni', '--lattice', 'two-point', '--seed', '3', '--runs', '300', '--html', join(dir, 'check.html')]),
        llmbda(['hunt', '--variant', 'send-no-nsu', '--lattice', 'powerset-us', '--seed', '1', '--runs', '300', '--html', join(dir, 'hunt.html')]),
        llmbda(['check', '--target', 'examples/targets/env-interpreter.ts', '--html', join(dir, 'target.html')]),
      ]);
      expect(check.code, check.stderr).toBe(1);
      expect(hunt.code, hunt.stderr).toBe(1);
      const c = readFileSync(join(dir, 'check.html'), 'utf8'), h = readFileSync(join(dir, 'hunt.html'), 'utf8');
      expect(c).toMatch(/<h3>First diverging rule application \(run 1\)<\/h3>\n<p>Rule <strong>Recv<\/strong>/);
      expect(c).toContain('stuck at Recv: pc [&quot;H&quot;] does not flow to conversation label []');
      expect(h).toMatch(/Rule <strong>Send<\/strong>/);
      for (const page of [c, h]) expect(page).not.toMatch(/<script|https?:\/\//);
      expect(target.code).toBe(2);
      expect(target.stderr.trim()).toBe('llmbda: --html reports LLMbda checks only (not --target)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--html write errors', () => {
  it('a folder that does not exist is one clear line (exit 2), not a stack trace', async () => {
    const r = await llmbda(['replay', 'counterexamples/send-no-nsu-powerset-us-1.json', '--html', '/nonexistent-llmbda-dir/report.html']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('llmbda: --html /nonexistent-llmbda-dir/report.html: the folder /nonexistent-llmbda-dir does not exist');
  });
});
