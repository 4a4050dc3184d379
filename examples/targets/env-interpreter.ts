/**
 * "Someone else's interpreter": a small LLMbda port written the way third-party ports are, to show the
 * toolkit adapting it (env-target.ts). It imports nothing from the toolkit. Evaluation is async and
 * environment-based (closures capture frames; let-bound functions are recursive, as in many ports),
 * programs are built through its AST constructors (no parser), labels are whatever `LabelOps` says, and
 * the model's primitives and serialisation come from the host (the semantics is parametric in them).
 *
 * `Faults` plants the three faults found in a real port (off by default):
 *   binopTopLabels  a binary operator labels its result with the operands' top-level labels only;
 *   varTopLabel     a variable read joins pc into the value's top label only, not into nested values;
 *   deepLabelWalksEnv  deepLabel of a closure walks its whole environment with no visited set, so it
 *                   over-taints and never terminates on the cyclic environment of a let-bound function.
 */
export type IExpr<T> =
  | { k: 'var'; x: string } | { k: 'lam'; x: string; body: IExpr<T> } | { k: 'app'; f: IExpr<T>; a: IExpr<T> }
  | { k: 'let'; x: string; e1: IExpr<T>; e2: IExpr<T> } | { k: 'lit'; v: Scalar } | { k: 'labelled'; l: T; e: IExpr<T> }
  | { k: 'dyn'; op: 'flow' | 'test' | 'assert' | 'endorse'; l: IExpr<T>; e: IExpr<T> }
  | { k: 'send'; e: IExpr<T> } | { k: 'recv' } | { k: 'fork'; e: IExpr<T> } | { k: 'clear' }
  | { k: 'prim'; p: string; e: IExpr<T> } | { k: 'arr'; es: IExpr<T>[] } | { k: 'rec'; fs: [string, IExpr<T>][] }
  | { k: 'get'; e: IExpr<T>; name: string } | { k: 'at'; e: IExpr<T>; i: IExpr<T> };
export type Scalar = { t: 'num'; n: string } | { t: 'str'; s: string } | { t: 'bool'; b: boolean } | { t: 'null' };

export interface Env<T> { readonly vars: Map<string, Val<T>>; readonly up: Env<T> | null }
export type Body<T> = Scalar | { t: 'clo'; x: string; body: IExpr<T>; env: Env<T> } | { t: 'arr'; es: Val<T>[] } | { t: 'rec'; fs: [string, Val<T>][] };
export interface Val<T> { readonly l: T; readonly b: Body<T> }

export interface LabelOps<T> {
  bottom: T; join(a: T, b: T): T; leq(a: T, b: T): boolean;
  /** `⟨i←, s→⟩` for endorse. */
  endorse(i: T, s: T): T;
}
/** What the host (the model) supplies. `prim` and `toLabel` see values; errors are strings. */
export interface Host<T> {
  prim(p: string, v: Val<T>): Body<T> | string;
  serialise(v: Val<T>): string;
  toLabel(v: Val<T>): T | undefined;
  /** The answer at a `recv`: the response and its parsed code. */
  recv(messages: readonly string[]): Promise<{ response: string; code: IExpr<T> }>;
}
export interface Faults { binopTopLabels?: boolean; varTopLabel?: boolean; deepLabelWalksEnv?: boolean }
export type Outcome<T> = { ok: true; value: Val<T>; conv: { l: T; msgs: string[] } } | { ok: false; error: string; fuel: boolean };

class Fail { constructor(readonly error: string, readonly fuel = false) {} }

export const freeVars = <T>(e: IExpr<T>, bound: Set<string> = new Set(), out: Set<string> = new Set()): Set<string> => {
  const go = (e: IExpr<T>, b: Set<string>): void => {
    switch (e.k) {
      case 'var': if (!b.has(e.x)) out.add(e.x); return;
      case 'lam': return go(e.body, new Set([...b, e.x]));
      case 'let': go(e.e1, e.e1.k === 'lam' ? new Set([...b, e.x]) : b); return go(e.e2, new Set([...b, e.x]));
      case 'app': go(e.f, b); return go(e.a, b);
      case 'labelled': case 'send': case 'fork': case 'prim': case 'get': return go(e.e, b);
      case 'dyn': go(e.l, b); return go(e.e, b);
      case 'arr': return e.es.forEach((x) => go(x, b));
      case 'rec': return e.fs.forEach(([, x]) => go(x, b));
      case 'at': go(e.e, b); return go(e.i, b);
      default: return;
    }
  };
  go(e, bound);
  return out;
};
export function lookup<T>(env: Env<T> | null, x: string): Val<T> | undefined {
  for (let f = env; f; f = f.up) { const v = f.vars.get(x); if (v) return v; }
  return undefined;
}
const staticLabels = <T>(ops: LabelOps<T>, e: IExpr<T>): T => {
  let acc = ops.bottom;
  const go = (e: IExpr<T>): void => {
    if (e.k === 'labelled') acc = ops.join(acc, e.l);
    for (const c of Object.values(e)) if (c && typeof c === 'object' && 'k' in c) go(c as IExpr<T>);
    if (e.k === 'arr') e.es.forEach(go);
    if (e.k === 'rec') e.fs.forEach(([, x]) => go(x));
  };
  go(e);
  return acc;
};

export function deepLabel<T>(ops: LabelOps<T>, v: Val<T>, faults: Faults = {}): T {
  const b = v.b;
  if (b.t === 'arr') return b.es.reduce((a, x) => ops.join(a, deepLabel(ops, x, faults)), v.l);
  if (b.t === 'rec') return b.fs.reduce((a, [, x]) => ops.join(a, deepLabel(ops, x, faults)), v.l);
  if (b.t !== 'clo') return v.l;
  let acc = ops.join(v.l, staticLabels(ops, b.body));
  if (faults.deepLabelWalksEnv) { // every binding of every frame, no visited set
    for (let f: Env<T> | null = b.env; f; f = f.up) for (const x of f.vars.values()) acc = ops.join(acc, deepLabel(ops, x, faults));
    return acc;
  }
  for (const x of freeVars(b.body, new Set([b.x]))) { const y = lookup(b.env, x); if (y) acc = ops.join(acc, deepLabel(ops, y, faults)); }
  return acc;
}

/** Reading a value at pc: the Labelled rule re-runs it, raising every nested label by pc ⊔ the outer labels. */
function raise<T>(ops: LabelOps<T>, pc: T, v: Val<T>, faults: Faults): Val<T> {
  const l = ops.join(pc, v.l);
  if (faults.varTopLabel) return { l, b: v.b };
  if (v.b.t === 'arr') return { l, b: { t: 'arr', es: v.b.es.map((x) => raise(ops, l, x, faults)) } };
  if (v.b.t === 'rec') return { l, b: { t: 'rec', fs: v.b.fs.map(([n, x]) => [n, raise(ops, l, x, faults)]) } };
  return { l, b: v.b };
}

export async function run<T>(ops: LabelOps<T>, host: Host<T>, pc0: T, conv0: { l: T; msgs: string[] }, e0: IExpr<T>, fuel: number, faults: Faults = {}): Promise<Outcome<T>> {
  let conv = conv0;
  const label = async (pc: T, e: IExpr<T>, env: Env<T>, k: number) => {
    const v = await ev(pc, e, env, k);
    const l = host.toLabel(v);
    if (l === undefined) throw new Fail('not a label');
    return { n: deepLabel(ops, v, faults), l };
  };
  const ev = async (pc: T, e: IExpr<T>, env: Env<T>, k: number): Promise<Val<T>> => {
    if (k <= 0) throw new Fail('out of fuel', true);
    k--;
    switch (e.k) {
      case 'var': { const v = lookup(env, e.x); if (!v) throw new Fail(`unbound ${e.x}`); return raise(ops, pc, v, faults); }
      case 'lit': return { l: pc, b: e.v };
      case 'lam': return { l: pc, b: { t: 'clo', x: e.x, body: e.body, env } };
      case 'let': {
        const frame: Env<T> = { vars: new Map(), up: env };
        const v = await ev(pc, e.e1, e.e1.k === 'lam' ? frame : env, k); // let-bound functions see themselves
        frame.vars.set(e.x, v);
        return ev(pc, e.e2, frame, k);
      }
      case 'app': {
        const f = await ev(pc, e.f, env, k), a = await ev(pc, e.a, env, k);
        if (f.b.t !== 'clo') throw new Fail('applying a non-function');
        return ev(f.l, f.b.body, { vars: new Map([[f.b.x, a]]), up: f.b.env }, k);
      }
      case 'labelled': return ev(ops.join(pc, e.l), e.e, env, k);
      case 'send': {
        const v = await ev(pc, e.e, env, k);
        if (!ops.leq(pc, conv.l)) throw new Fail('send: no-sensitive-upgrade');
        conv = { l: ops.join(conv.l, deepLabel(ops, v, faults)), msgs: [...conv.msgs, host.serialise(v)] };
        return { l: pc, b: { t: 'rec', fs: [] } };
      }
      case 'recv': {
        if (!ops.leq(pc, conv.l)) throw new Fail('recv: no-sensitive-upgrade');
        const { response, code } = await host.recv(conv.msgs);
        conv = { l: conv.l, msgs: [...conv.msgs, response] };
        return ev(conv.l, code, { vars: new Map(), up: null }, k);
      }
      case 'fork': { const saved = conv; const v = await ev(pc, e.e, env, k); conv = saved; return v; }
      case 'clear':
        if (!ops.leq(pc, conv.l)) throw new Fail('clear: no-sensitive-upgrade');
        conv = { l: pc, msgs: [] };
        return { l: pc, b: { t: 'rec', fs: [] } };
      case 'dyn': {
        if (e.op === 'assert') {
          const v1 = await ev(pc, e.l, env, k);
          if (!ops.leq(deepLabel(ops, v1, faults), pc)) throw new Fail('assert: policy label above pc');
          const l = host.toLabel(v1);
          if (l === undefined) throw new Fail('not a label');
          const v2 = await ev(pc, e.e, env, k);
          if (!ops.leq(v2.l, l)) throw new Fail('assert: policy violation');
          return { l: pc, b: { t: 'rec', fs: [] } };
        }
        const { n, l } = await label(pc, e.l, env, k);
        if (e.op === 'flow') return ev(ops.join(ops.join(pc, n), l), e.e, env, k);
        const v2 = await ev(ops.join(pc, n), e.e, env, k);
        if (e.op === 'test') return { l: ops.join(ops.join(pc, n), l), b: { t: 'bool', b: ops.leq(v2.l, l) } };
        return { l: ops.join(pc, ops.endorse(l, v2.l)), b: v2.b };
      }
      case 'prim': {
        const v = await ev(pc, e.e, env, k);
        const r = host.prim(e.p, v);
        if (typeof r === 'string') throw new Fail(r);
        const shallow = faults.binopTopLabels && e.p.startsWith('binop_') && v.b.t === 'arr';
        return { l: ops.join(pc, shallow && v.b.t === 'arr' ? v.b.es.reduce((a, x) => ops.join(a, x.l), v.l) : deepLabel(ops, v, faults)), b: r };
      }
      case 'arr': { const es: Val<T>[] = []; for (const x of e.es) es.push(await ev(pc, x, env, k)); return { l: pc, b: { t: 'arr', es } }; }
      case 'rec': { const fs: [string, Val<T>][] = []; for (const [n, x] of e.fs) fs.push([n, await ev(pc, x, env, k)]); return { l: pc, b: { t: 'rec', fs } }; }
      case 'get': {
        const r = await ev(pc, e.e, env, k);
        const f = r.b.t === 'rec' ? r.b.fs.find(([n]) => n === e.name) : undefined;
        if (!f) throw new Fail(`no field ${e.name}`);
        return { l: ops.join(r.l, f[1].l), b: f[1].b };
      }
      case 'at': {
        const a = await ev(pc, e.e, env, k), i = await ev(pc, e.i, env, k);
        const x = a.b.t === 'arr' && i.b.t === 'num' && /^\d+$/.test(i.b.n) ? a.b.es[Number(i.b.n)] : undefined;
        if (!x) throw new Fail('bad index');
        return { l: ops.join(ops.join(a.l, i.l), x.l), b: x.b };
      }
    }
  };
  try {
    const value = await ev(pc0, e0, { vars: new Map(), up: null }, fuel);
    return { ok: true, value, conv };
  } catch (x) {
    if (x instanceof Fail) return { ok: false, error: x.error, fuel: x.fuel };
    throw x;
  }
}
