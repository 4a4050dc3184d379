/**
 * A rendering of runtime values independent of the printer under test: `label:bare`, labels shown by the
 * lattice, lambdas as `λx`. Tests compare against strings written from the spec in this notation.
 */
import type { BareValue, Value } from '../../src/syntax/ast.ts';
import type { Lattice } from '../../src/lattice/lattice.ts';
import * as Q from '../../src/distributions/rational.ts';
import { absurd } from '../../src/util/absurd.ts';

export function render<L>(l: Lattice<L>, v: Value<L>): string {
  return `${l.show(v.label)}:${renderBare(l, v.body)}`;
}

export function renderBare<L>(l: Lattice<L>, b: BareValue<L>): string {
  switch (b.kind) {
    case 'num': return Q.show(b.value);
    case 'str': return JSON.stringify(b.value);
    case 'bool': return String(b.value);
    case 'null': return 'null';
    case 'lam': return `λ${b.param}`;
    case 'record': return `{${b.fields.map((f) => `${f.name}: ${render(l, f.expr)}`).join(', ')}}`;
    case 'array': return `[${b.elems.map((x) => render(l, x)).join(', ')}]`;
    default: return absurd(b);
  }
}
