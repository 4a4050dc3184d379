/**
 * One direction of dependency: every import between top-level folders goes down this order (a folder
 * may import only itself and the folders before it). docs/design.md explains the layers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from './helpers/layers.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|js)$/.test(f) ? [p] : [];
  });
}

const layerOf = (p: string): number => LAYERS.findIndex((l) => p === l || p.startsWith(`${l}/`));

function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)]
    .map((m) => normalize(join(dirname(file), m[1] ?? m[2]!)));
}

/** The imports of `file` (resolved paths) that go up the layer order. */
function upward(file: string, targets: readonly string[]): string[] {
  return targets.filter((t) => layerOf(t) > layerOf(file)).map((t) => `${file} → ${t}`);
}

describe('layers', () => {
  const all = [...files('src'), ...files('properties')];

  it('every source file belongs to a layer', () => {
    expect(all.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('imports only go down (no cycle between folders)', () => {
    expect(all.flatMap((f) => upward(f, imports(f)))).toEqual([]);
  });

  it('the check is able to fail: an upward import is reported', () => {
    expect(layerOf('src/runner/suite.ts')).toBeLessThan(layerOf('src/api/registry.ts'));
    expect(layerOf('src/syntax/parser.ts')).toBeLessThan(layerOf('src/lattice/lattice.ts'));
    // The two imports the layering removed (runner → registry, syntax → lattice) would be reported.
    expect(upward('src/runner/jobs.ts', ['src/api/registry.ts', 'src/util/absurd.ts'])).toEqual(['src/runner/jobs.ts → src/api/registry.ts']);
    expect(upward('src/syntax/parser.ts', ['src/lattice/lattice.ts'])).toHaveLength(1);
  });

  it('the registries are imported only by the top layer', () => {
    const users = all.filter((f) => imports(f).some((t) => t === normalize('src/api/registry.ts')));
    expect(users.filter((f) => !f.startsWith('src/api/') && !f.startsWith('src/cli/') && f !== 'src/index.ts')).toEqual([]);
  });
});
