/** Small helpers on runtime values shared by the rules (rendering for stuck reasons). */
import type { Expr } from '../syntax/ast.ts';
import type { Ev } from './ev.ts';
import { prettyPrint } from '../syntax/printer.ts';

/** A short rendering of a value for a stuck reason (truncated with an explicit marker). */
export function describeValue<L>(ev: Ev<L>, v: Expr<L>): string {
  const s = prettyPrint(v, ev.lat);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
