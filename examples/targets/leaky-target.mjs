#!/usr/bin/env node
// A deliberately leaky LLMbda interpreter, out of process (JSON lines on stdin/stdout, docs/targets.md).
// Written for the toolkit's own tests: plain JavaScript, substitution-based, labels as sets of atoms
// (two-point ["H"], powerset-us ["U","S"]; no endorse). Three rules are wrong on purpose (see BUGS):
//   1. binop-top-labels: a binary operator's result gets pc ⊔ the operands' top-level labels only
//      (nested labels inside array/record operands are forgotten: `send ([S:1] + [])` leaks).
//   2. field-drops-label: `e.s` returns the field without joining the record's label.
//   3. clear-no-nsu: `clear` resets the conversation without checking pc ⊑ ℓ(C).
// Misbehaviour on demand, to exercise the transport: evaluating the string "__crash__" exits,
// "__hang__" loops forever, "__garbage__" prints a line that is not JSON.
import { createInterface } from 'node:readline';

// `--bugs=binop,field,clear` plants only those (default: all three); `--correct` plants none.
const BUGS = new Set(process.argv.includes('--correct') ? [] : (process.argv.find((a) => a.startsWith('--bugs='))?.slice(7).split(',') ?? ['binop', 'field', 'clear']));
const ORDER = ['U', 'S', 'H'];
const join = (a, b) => [...new Set([...a, ...b])].sort((x, y) => ORDER.indexOf(x) - ORDER.indexOf(y) || (x < y ? -1 : 1));
const leq = (a, b) => a.every((x) => b.includes(x));
const BOT = [];

// Exact rationals as [numerator, denominator] BigInts.
const gcd = (a, b) => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const q = (n, d = 1n) => { if (d < 0n) { n = -n; d = -d; } const g = gcd(n, d) || 1n; return [n / g, d / g]; };
const readQ = (s) => { const [n, d] = String(s).split('/'); return q(BigInt(n), BigInt(d ?? 1)); };
const showQ = ([n, d]) => (d === 1n ? `${n}` : `${n}/${d}`);
function showNumber([n, d]) {
  if (d === 1n) return `${n}`;
  let r = d, k2 = 0, k5 = 0;
  while (r % 2n === 0n) { r /= 2n; k2++; }
  while (r % 5n === 0n) { r /= 5n; k5++; }
  if (r !== 1n) return `${n}/${d}`;
  const k = Math.max(k2, k5), digits = (((n < 0n ? -n : n) * 10n ** BigInt(k)) / d).toString().padStart(k + 1, '0');
  return `${n < 0n ? '-' : ''}${digits.slice(0, -k)}.${digits.slice(-k)}`;
}
const num = (r) => ({ kind: 'num', value: showQ(r) });
const V = (label, body) => ({ kind: 'label', label, body });
const unit = (l) => V(l, { kind: 'record', fields: [] });

class Halt { constructor(kind, reason) { this.kind = kind; this.reason = reason; } }
const stuck = (reason) => { throw new Halt('stuck', reason); };

function kids(e) {
  switch (e.kind) {
    case 'lam': case 'fork': case 'label': return [e.body];
    case 'app': return [e.fn, e.arg];
    case 'send': case 'prim': return [e.arg];
    case 'dynlabel': case 'test': case 'assert': case 'endorse': return [e.label, e.body];
    case 'record': return e.fields.map((f) => f.expr);
    case 'array': return e.elems;
    case 'field': return [e.target];
    case 'index': return [e.target, e.index];
    default: return [];
  }
}
const deepLabel = (e) => kids(e).reduce((acc, c) => join(acc, deepLabel(c)), e.kind === 'label' ? e.label : BOT);
function strip(e) {
  if (e.kind === 'label') return strip(e.body);
  const m = { ...e };
  for (const k of ['body', 'fn', 'arg', 'label', 'target', 'index']) if (e[k] && typeof e[k] === 'object' && !Array.isArray(e[k])) m[k] = strip(e[k]);
  if (e.kind === 'record') m.fields = e.fields.map((f) => ({ name: f.name, expr: strip(f.expr) }));
  if (e.kind === 'array') m.elems = e.elems.map(strip);
  return m;
}
function subst(e, x, v) {
  if (e.kind === 'var') return e.name === x ? v : e;
  if (e.kind === 'lam' && e.param === x) return e;
  if (e.kind === 'label') return { ...e, body: subst(e.body, x, v) };
  const m = { ...e };
  for (const k of ['body', 'fn', 'arg', 'label', 'target', 'index']) if (e[k] && typeof e[k] === 'object' && !Array.isArray(e[k])) m[k] = subst(e[k], x, v);
  if (e.kind === 'record') m.fields = e.fields.map((f) => ({ name: f.name, expr: subst(f.expr, x, v) }));
  if (e.kind === 'array') m.elems = e.elems.map((y) => subst(y, x, v));
  return m;
}
const wrap = (p) => (p.kind === 'array' ? { kind: 'array', elems: p.elems.map((x) => V(BOT, wrap(x))) }
  : p.kind === 'record' ? { kind: 'record', fields: p.fields.map((f) => ({ name: f.name, expr: V(BOT, wrap(f.expr)) })) } : p);
function showPlain(p) {
  switch (p.kind) {
    case 'num': return showNumber(readQ(p.value));
    case 'str': return JSON.stringify(p.value);
    case 'bool': return String(p.value);
    case 'null': return 'null';
    case 'array': return `[${p.elems.map(showPlain).join(', ')}]`;
    case 'record': return `{${p.fields.map((f) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) ? f.name : JSON.stringify(f.name)}: ${showPlain(f.expr)}`).join(', ')}}`;
    default: return '<function>'; // not the toolkit's printer: a known, unplanted difference
  }
}
const serialise = (p) => (p.kind === 'str' ? p.value : showPlain(p));
const ATOMS = { 'two-point': ['H'], 'powerset-us': ['U', 'S'] };
let atoms = [];
const toLabel = (p) => (p.kind === 'array' && p.elems.every((x) => x.kind === 'str' && atoms.includes(x.value)) && new Set(p.elems.map((x) => x.value)).size === p.elems.length
  ? join(BOT, p.elems.map((x) => x.value)) : stuck(`not a label: ${showPlain(p)}`));
const church = (t) => ({ kind: 'lam', param: 't', body: { kind: 'lam', param: 'f', body: { kind: 'lam', param: 'u', body: { kind: 'app', fn: { kind: 'var', name: t }, arg: { kind: 'var', name: 'u' } } } } });

function prim(name, p) {
  const two = () => (p.kind === 'array' && p.elems.length === 2 ? p.elems : stuck(`${name} expects two operands`));
  const nums = () => { const [a, b] = two(); return a.kind === 'num' && b.kind === 'num' ? [readQ(a.value), readQ(b.value)] : stuck(`${name} expects numbers`); };
  const cmp = () => { const [[a, b], [c, d]] = nums(); const x = a * d - c * b; return x < 0n ? -1 : x > 0n ? 1 : 0; };
  switch (name) {
    case 'binop_+': {
      const [a, b] = two();
      if (a.kind === 'num' && b.kind === 'num') { const [[x, y], [z, w]] = nums(); return num(q(x * w + z * y, y * w)); }
      if (a.kind === 'str' && b.kind === 'str') return { kind: 'str', value: a.value + b.value };
      if (a.kind === 'array' && b.kind === 'array') return { kind: 'array', elems: [...a.elems, ...b.elems] };
      return stuck('binop_+ expects two numbers, strings or arrays');
    }
    case 'binop_-': { const [[x, y], [z, w]] = nums(); return num(q(x * w - z * y, y * w)); }
    case 'binop_*': { const [[x, y], [z, w]] = nums(); return num(q(x * z, y * w)); }
    case 'binop_<': return { kind: 'bool', value: cmp() < 0 };
    case 'binop_>': return { kind: 'bool', value: cmp() > 0 };
    case 'binop_<=': return { kind: 'bool', value: cmp() <= 0 };
    case 'binop_>=': return { kind: 'bool', value: cmp() >= 0 };
    case 'binop_==': {
      const [a, b] = two();
      if (a.kind !== b.kind || !['num', 'str', 'bool', 'null'].includes(a.kind)) return stuck('binop_== compares scalars of the same kind');
      return { kind: 'bool', value: a.kind === 'num' ? cmp() === 0 : a.value === b.value };
    }
    case 'fromBool': return church(p.kind === 'bool' && !p.value ? 'f' : 't');
    case 'toStr': return { kind: 'str', value: serialise(p) };
    case 'shape': {
      const f = (name, expr) => ({ name, expr }), s = (v) => ({ kind: 'str', value: v }), n = (k) => num(q(BigInt(k)));
      const t = { num: 'number', str: 'string', bool: 'boolean', null: 'null', lam: 'function', array: 'array', record: 'record' }[p.kind];
      const extra = p.kind === 'str' ? [f('length', n([...p.value].length))] : p.kind === 'array' ? [f('length', n(p.elems.length))]
        : p.kind === 'record' ? [f('fields', { kind: 'array', elems: p.fields.map((x) => s(x.name)) })] : [];
      return { kind: 'record', fields: [f('type', s(t)), ...extra] };
    }
    case 'recordUpdate': {
      const [r, s, x] = p.kind === 'array' && p.elems.length === 3 ? p.elems : stuck('recordUpdate expects [record, "field", value]');
      if (r.kind !== 'record' || s.kind !== 'str') return stuck('recordUpdate expects [record, "field", value]');
      const at = r.fields.findIndex((f) => f.name === s.value);
      return { kind: 'record', fields: at < 0 ? [...r.fields, { name: s.value, expr: x }] : r.fields.map((f, i) => (i === at ? { name: f.name, expr: x } : f)) };
    }
    default: return stuck(`unknown primitive ${name}`);
  }
}

async function runProgram(req, ask) {
  let conv = req.conv;
  const decode = (v) => ({ n: deepLabel(v), l: toLabel(strip(v)) });
  const ev = async (pc, e, k) => {
    if (k <= 0) throw new Halt('fuel');
    k--;
    switch (e.kind) {
      case 'var': return stuck(`unbound variable ${e.name}`);
      case 'lam': case 'num': case 'bool': case 'null': return V(pc, e);
      case 'str':
        if (e.value === '__crash__') process.exit(3);
        if (e.value === '__hang__') for (;;);
        if (e.value === '__garbage__') process.stdout.write('this is not JSON\n');
        return V(pc, e);
      case 'app': {
        const f = await ev(pc, e.fn, k), a = await ev(pc, e.arg, k);
        if (f.body.kind !== 'lam') return stuck('application of a non-function');
        return ev(f.label, subst(f.body.body, f.body.param, a), k);
      }
      case 'send': {
        const v = await ev(pc, e.arg, k);
        if (!leq(pc, conv.label)) return stuck('send: no-sensitive-upgrade');
        conv = { label: join(conv.label, deepLabel(v)), messages: [...conv.messages, serialise(strip(v))] };
        return unit(pc);
      }
      case 'recv': {
        if (!leq(pc, conv.label)) return stuck('recv: no-sensitive-upgrade');
        const { response, code } = await ask(conv.messages);
        conv = { label: conv.label, messages: [...conv.messages, response] };
        return ev(conv.label, code, k);
      }
      case 'fork': { const saved = conv; const v = await ev(pc, e.body, k); conv = saved; return v; }
      case 'clear':
        if (!BUGS.has('clear') && !leq(pc, conv.label)) return stuck('clear: no-sensitive-upgrade'); // PLANTED 3: check skipped
        conv = { label: pc, messages: [] };
        return unit(pc);
      case 'label': return ev(join(pc, e.label), e.body, k);
      case 'dynlabel': { const { n, l } = decode(await ev(pc, e.label, k)); return ev(join(join(pc, n), l), e.body, k); }
      case 'test': {
        const { n, l } = decode(await ev(pc, e.label, k));
        const v2 = await ev(join(pc, n), e.body, k);
        return V(join(join(pc, n), l), { kind: 'bool', value: leq(v2.label, l) });
      }
      case 'assert': {
        const v1 = await ev(pc, e.label, k);
        if (!leq(deepLabel(v1), pc)) return stuck('assert: label of the policy is above pc');
        const { l } = decode(v1);
        const v2 = await ev(pc, e.body, k);
        return leq(v2.label, l) ? unit(pc) : stuck('assert: policy violation');
      }
      case 'prim': {
        const v = await ev(pc, e.arg, k);
        const r = prim(e.name, strip(v));
        // PLANTED 1: binary operators join only the operands' top-level labels
        const shallow = BUGS.has('binop') && e.name.startsWith('binop_') && v.body.kind === 'array';
        return V(join(pc, shallow ? v.body.elems.reduce((a, x) => join(a, x.label), v.label) : deepLabel(v)), wrap(r));
      }
      case 'record': { const fields = []; for (const f of e.fields) fields.push({ name: f.name, expr: await ev(pc, f.expr, k) }); return V(pc, { kind: 'record', fields }); }
      case 'array': { const elems = []; for (const x of e.elems) elems.push(await ev(pc, x, k)); return V(pc, { kind: 'array', elems }); }
      case 'field': {
        const r = await ev(pc, e.target, k);
        if (r.body.kind !== 'record') return stuck('field access on a non-record');
        const f = r.body.fields.find((x) => x.name === e.name) ?? stuck(`missing field ${e.name}`);
        return V(BUGS.has('field') ? f.expr.label : join(r.label, f.expr.label), f.expr.body); // PLANTED 2: record label dropped
      }
      case 'index': {
        const a = await ev(pc, e.target, k), i = await ev(pc, e.index, k);
        if (a.body.kind !== 'array') return stuck('indexing a non-array');
        if (i.body.kind !== 'num' || !/^-?\d+$/.test(i.body.value)) return stuck('index is not an integer');
        const x = a.body.elems[Number(i.body.value)] ?? stuck('index out of bounds');
        return V(join(join(a.label, i.label), x.label), x.body);
      }
      default: return stuck(`unsupported construct ${e.kind}`);
    }
  };
  try {
    const value = await ev(req.pc, req.program, req.fuel);
    return { outcome: 'ok', value, conv };
  } catch (x) {
    if (x instanceof Halt && x.kind !== 'aborted') return x.kind === 'fuel' ? { outcome: 'fuel' } : { outcome: 'stuck', reason: x.reason };
    throw x;
  }
}

// `--labels=text`: this target's own label encoding on the wire, "U+S" (or "" for ⊥) instead of ["U","S"];
// the toolkit side maps it with a LabelCodec (test/targets-stdio.test.ts).
const TEXT = process.argv.includes('--labels=text');
const relabel = (x, f) => {
  if (Array.isArray(x)) return x.map((y) => relabel(y, f));
  if (x === null || typeof x !== 'object') return x;
  const o = {};
  for (const [k, v] of Object.entries(x)) o[k] = (k === 'label' && (x.kind === 'label' || 'messages' in x)) || k === 'pc' ? f(v) : relabel(v, f);
  return o;
};
const fromWire = (m) => (TEXT ? relabel(m, (l) => (l === '' ? [] : l.split('+'))) : m);
const toWire = (m) => (TEXT ? relabel(m, (l) => l.join('+')) : m);

// The protocol loop: one run at a time; answers to our recv questions arrive on the same stdin.
const waiting = [];
const lines = createInterface({ input: process.stdin });
const out = (m) => process.stdout.write(`${JSON.stringify(toWire(m))}\n`);
let current;
lines.on('line', async (line) => {
  const msg = fromWire(JSON.parse(line));
  if (msg.type === 'answer' || msg.type === 'abort') return waiting.shift()?.(msg);
  if (msg.type !== 'run') return;
  current = msg.id;
  atoms = ATOMS[msg.lattice] ?? [];
  const ask = (messages) => new Promise((resolve, reject) => {
    waiting.push((m) => (m.type === 'answer' ? resolve(m) : reject(new Halt('aborted'))));
    out({ type: 'recv', id: msg.id, messages });
  });
  try {
    out({ type: 'result', id: msg.id, ...(await runProgram(msg, ask)) });
  } catch (x) {
    if (!(x instanceof Halt) || current !== msg.id) throw x;
  }
});
