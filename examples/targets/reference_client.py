#!/usr/bin/env python3
"""Reference client of the llmbda target protocol (docs/targets.md): JSON lines on stdin/stdout.
Interprets a small fragment (scalars, labels, arrays, indexing, lambdas, send, recv) on label sets
(two-point ["H"], powerset-us ["U","S"]); anything else is reported stuck. Declare the rest masked."""
import json, sys
from decimal import Decimal
from fractions import Fraction

def out(m): print(json.dumps(m), flush=True)
def join(a, b): return sorted(set(a) | set(b), key="USH".find)
def V(l, body): return {"kind": "label", "label": l, "body": body}
class Stuck(Exception): pass

def deep(e):  # deepLabel: the join of every label inside
    ls = e["label"] if e["kind"] == "label" else []
    for k in ("body", "fn", "arg", "target", "index"):
        if isinstance(e.get(k), dict): ls = join(ls, deep(e[k]))
    for x in e.get("elems", []): ls = join(ls, deep(x))
    return ls

def show(v):  # serialise a label-free view of a value (integers, strings, booleans, arrays)
    b = v["body"]
    if b["kind"] == "array": return "[" + ", ".join(show(x) if x["body"]["kind"] != "str" else json.dumps(x["body"]["value"]) for x in b["elems"]) + "]"
    if b["kind"] == "record" and not b["fields"]: return "{}"
    return {"num": lambda: num(b["value"]), "str": lambda: b["value"], "bool": lambda: str(b["value"]).lower(), "null": lambda: "null"}.get(b["kind"], lambda: "<fn>")()

def num(s):  # exact "p/q" → the toolkit's serialisation: integer, finite decimal, else p/q
    q, d = Fraction(s), Fraction(s).denominator
    while d % 2 == 0: d //= 2
    while d % 5 == 0: d //= 5
    return str(q) if q.denominator == 1 or d != 1 else format(Decimal(q.numerator) / Decimal(q.denominator), "f")

def subst(e, x, v):
    if e["kind"] == "var": return v if e["name"] == x else e
    if e["kind"] == "lam" and e["param"] == x: return e
    f = {k: (subst(c, x, v) if isinstance(c, dict) else c) for k, c in e.items()}
    if "elems" in e: f["elems"] = [subst(c, x, v) for c in e["elems"]]
    return f

def run(req):
    st = {"conv": req["conv"]}
    def ev(pc, e):
        k, c = e["kind"], st["conv"]
        if k in ("num", "str", "bool", "null", "lam"): return V(pc, e)
        if k == "label": return ev(join(pc, e["label"]), e["body"])
        if k == "array": return V(pc, {"kind": "array", "elems": [ev(pc, x) for x in e["elems"]]})
        if k == "record" and not e["fields"]: return V(pc, e)  # the unit {} that send returns
        if k == "app":
            f, a = ev(pc, e["fn"]), ev(pc, e["arg"])
            if f["body"]["kind"] != "lam": raise Stuck("application of a non-function")
            return ev(f["label"], subst(f["body"]["body"], f["body"]["param"], a))
        if k == "index":
            a, i = ev(pc, e["target"]), ev(pc, e["index"])
            if a["body"]["kind"] != "array" or i["body"]["kind"] != "num": raise Stuck("bad index")
            x = a["body"]["elems"][int(i["body"]["value"])]
            return V(join(join(a["label"], i["label"]), x["label"]), x["body"])
        if k == "send":
            v = ev(pc, e["arg"])
            c = st["conv"]  # after the argument ran: it may have sent too (found by llmbda diff, docs/targets.md)
            if set(pc) - set(c["label"]): raise Stuck("send: no-sensitive-upgrade")
            st["conv"] = {"label": join(c["label"], deep(v)), "messages": c["messages"] + [show(v)]}
            return V(pc, {"kind": "record", "fields": []})
        if k == "recv":
            if set(pc) - set(c["label"]): raise Stuck("recv: no-sensitive-upgrade")
            out({"type": "recv", "id": req["id"], "messages": c["messages"]})
            a = json.loads(sys.stdin.readline())
            if a["type"] != "answer": raise Stuck("aborted")
            st["conv"] = {"label": c["label"], "messages": c["messages"] + [a["response"]]}
            return ev(c["label"], a["code"])
        raise Stuck("unsupported construct " + k)
    try: return {"outcome": "ok", "value": ev(req["pc"], req["program"]), "conv": st["conv"]}
    except Stuck as s: return {"outcome": "stuck", "reason": str(s)}
    except RecursionError: return {"outcome": "stuck", "reason": "recursion limit"}

for line in sys.stdin:
    req = json.loads(line)
    if req.get("type") == "run": out(dict(type="result", id=req["id"], **run(req)))
