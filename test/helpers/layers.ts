/** The layers, bottom to top (test/layers.test.ts checks imports go down; README's layout table lists them in this order). */
export const LAYERS: readonly string[] = [
  'src/util', 'src/distributions', 'src/syntax', 'src/lattice', 'src/semantics', 'src/skipping', 'src/observe', 'src/variants', 'src/leakage', 'src/oracle',
  'src/runner', 'src/generators', 'src/llmbda', 'src/ppmf', 'src/endorse', 'src/banking', 'src/targets', 'properties', 'src/api', 'src/report', 'src/cli', 'src/index.ts', 'src/vitest.ts',
];

