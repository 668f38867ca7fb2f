#!/usr/bin/env python3
"""nnav's shapes and MACs of the transformer-era operators (llm_ops_gen.py's
models) against what ONNX Runtime really computes.

usage: llm_ops_check.py NNAV NODE ORT_PACKAGE_DIR TMPDIR MODEL...

Each model runs in ONNX Runtime (ort_oracle.js, CPU, every node output
fetched) with its named dims bound as DIMS says. Then:
  - every value ONNX Runtime returns must have, in `nnav shapes --yaml`, the
    same element type and every dim known and equal (unlike ort_oracle.py,
    an unknown type or dim fails: these ops have rules now), but for the
    dims DATA_DIMS names, which only the data fixes (those must be unknown);
  - a value the Node.js binding cannot return (int4, uint4, float8) must have
    the element type its node's definition fixes (Cast's `to`,
    QuantizeLinear's output_dtype or zero point's type) and the shape of the
    value it was made from, as ONNX Runtime computed it for the node reading it;
  - every node's MACs in `nnav cost --nodes --yaml` must equal the count
    worked out here from ONNX Runtime's real shapes and the node's
    attributes: the products each operator's definition holds, counted as
    MatMul counts them (M * N * K per product), and no node partial."""
import json
import os
import subprocess
import sys

import onnx
import yaml
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symexpr  # noqa: E402

NNAV, NODE, ORT, TMP = sys.argv[1:5]
MODELS = sys.argv[5:]
JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort_oracle.js")
DIMS = {"B": 2, "S": 5, "L": 3, "P": 4, "T": 6, "M": 7, "N": 3}
DTYPES = {1: "float32", 2: "uint8", 3: "int8", 6: "int32", 7: "int64", 8: "string", 9: "bool",
          10: "float16"}
NNAV_TYPE = {17: "float8e4m3fn", 18: "float8e4m3fnuz", 19: "float8e5m2", 20: "float8e5m2fnuz",
             21: "uint4", 22: "int4", 23: "float4e2m1"}
# dims that are the data's, not any rule's: (model, value, axis) and why
DATA_DIMS = {("llm_text20.onnx", "split_y", 2): "StringSplit's most pieces of any element"}
os.makedirs(TMP, exist_ok=True)
problems = []


def fail(model, text):
    problems.append("%s: %s" % (model, text))


def nnav(*args):
    p = subprocess.run([NNAV] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("nnav %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr[:300]))
    return yaml.safe_load(p.stdout)


def prod(xs):
    r = 1
    for x in xs:
        r *= x
    return r


def attrs_of(n):
    return {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}


# ---- MACs from real shapes ----
# shape(name): the real dims of a value (a graph input's from its declaration
# at DIMS, an initializer's, or what ONNX Runtime returned); value(name): a
# scalar's number (an initializer's, or what ONNX Runtime computed).

def macs_of(n, shape, value):
    a = attrs_of(n)
    op, ins, outs = n.op_type, list(n.input) + [""] * 10, list(n.output) + [""] * 4
    if n.domain in ("", "ai.onnx") and op == "Attention":
        q, k, v = shape(ins[0]), shape(ins[1]), shape(ins[2])
        if len(q) == 4:
            b, hq, sq, d = q
            dv, t = v[3], k[2]
        else:
            hq, hkv = a["q_num_heads"], a["kv_num_heads"]
            b, sq, d, dv, t = q[0], q[1], q[2] // hq, v[2] // hkv, k[1]
        if ins[4]:
            t += shape(ins[4])[2]
        return b * hq * sq * t * d + b * hq * sq * t * dv  # Q K^T, then P V
    if n.domain in ("", "ai.onnx") and op == "DeformConv":
        # a Conv's products at its sampled points (the bilinear sampling of
        # the offsets is not a product of the weights)
        return prod(shape(outs[0])) * prod(shape(ins[1])[1:])
    if n.domain != "com.microsoft":
        return 0
    if op == "MultiHeadAttention":
        q, nh = shape(ins[0]), a["num_heads"]
        k, v = shape(ins[1]), shape(ins[2])
        if len(k) == 4:  # BNSH
            t, d, dv = k[2], k[3], v[3]
        else:
            t, d, dv = k[1], q[2] // nh, v[2] // nh
            if ins[6]:
                t += shape(ins[6])[2]
        return q[0] * nh * q[1] * t * (d + dv)
    if op == "GroupQueryAttention":
        q, nh, nkv = shape(ins[0]), a["num_heads"], a["kv_num_heads"]
        d = q[2] // (nh if ins[1] else nh + 2 * nkv)
        t = int(value(ins[6]))
        return 2 * q[0] * nh * q[1] * t * d
    if op in ("Attention", "QAttention"):
        x, w, nh = shape(ins[0]), shape(ins[1]), a["num_heads"]
        hid, vh = a.get("qkv_hidden_sizes", [w[1] // 3, 0, w[1] // 3])[0::2]
        past = ins[8] if op == "QAttention" else ins[4]
        t = x[1] + (shape(past)[3] if past else 0)
        b, s = x[0], x[1]
        return b * s * x[2] * w[1] + b * nh * s * t * (hid // nh) + b * nh * s * t * (vh // nh)
    if op == "FusedMatMul":
        A = list(shape(ins[0]))
        if a.get("transBatchA", 0):
            A = A[1:-1] + [A[0], A[-1]]
        if a.get("transA", 0):
            A[-1], A[-2] = A[-2], A[-1]
        return prod(shape(outs[0])) * A[-1]
    if op == "MatMulNBits":
        return prod(shape(outs[0])) * a["K"]
    if op == "DynamicQuantizeMatMul":
        return prod(shape(outs[0])) * shape(ins[0])[-1]
    if op == "QMoE":
        x, fc1, fc2 = shape(ins[0]), shape(ins[2]), shape(ins[5])
        hid, inter = x[-1], fc1[1] // (2 if a.get("swiglu_fusion", 0) else 1)
        per = hid * fc1[1] + inter * hid + (inter * hid if ins[8] else 0)
        return prod(x[:-1]) * a.get("k", 1) * per
    return 0


def unfetched_type(n, inits):
    """The element type a node's definition fixes for a value the binding
    cannot return, or None."""
    a = attrs_of(n)
    if n.domain not in ("", "ai.onnx"):
        return None
    if n.op_type == "Cast" and a.get("to") in NNAV_TYPE:
        return a["to"]
    if n.op_type == "QuantizeLinear":
        z = inits.get(n.input[2]) if len(n.input) > 2 and n.input[2] else None
        t = z.data_type if z is not None else a.get("output_dtype")
        return t if t in NNAV_TYPE else None
    return None


jobs, prepared = [], {}
for idx, path in enumerate(MODELS):
    m = onnx.load(path)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    have = {o.name for o in g.output}
    fetch = [o.name for o in g.output]
    unfetched = {}
    for n in g.node:
        t = unfetched_type(n, inits)
        for o in n.output:
            if not o:
                continue
            if t is not None:
                unfetched[o] = (t, n.input[0])
            elif o not in have:
                have.add(o)
                fetch.append(o)
                g.output.append(onnx.ValueInfoProto(name=o))
    ins = []
    for vi in g.input:
        if vi.name in inits:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else DIMS[d.dim_param]
                for d in vi.type.tensor_type.shape.dim]
        ins.append({"name": vi.name, "type": DTYPES[vi.type.tensor_type.elem_type], "dims": dims})
    copy = os.path.join(TMP, "c%02d_%s" % (idx, os.path.basename(path)))
    onnx.save(m, copy)
    jobs.append({"id": path, "model": copy, "inputs": ins, "fetch": fetch})
    prepared[path] = (onnx.load(path), ins, unfetched)

jp, rp = os.path.join(TMP, "jobs.json"), os.path.join(TMP, "results.json")
json.dump(jobs, open(jp, "w"))
p = subprocess.run([NODE, JS, ORT, jp, rp], capture_output=True, text=True)
if p.returncode != 0:
    sys.exit("FAIL: node %s: exit %d: %s" % (JS, p.returncode, p.stderr[-2000:]))
results = json.load(open(rp))

totals = dict(models=0, values=0, unfetched=0, nodes=0, macs=0)
for path in MODELS:
    base = os.path.basename(path)
    m, ins, unfetched = prepared[path]
    r = results.get(path, {"error": "no result"})
    if "error" in r:
        fail(base, "ONNX Runtime cannot run it: %s" % r["error"])
        continue
    totals["models"] += 1
    real = {k: v for k, v in r["values"].items() if "error" not in v}
    for k, v in r["values"].items():
        if "error" in v:
            fail(base, "ONNX Runtime returned no %s: %s" % (k, v["error"]))
    inits = {t.name: t for t in m.graph.initializer}
    shapes = {i["name"]: i["dims"] for i in ins}
    shapes.update({k: list(t.dims) for k, t in inits.items()})
    shapes.update({k: v["dims"] for k, v in real.items()})
    used = {k: v for k, v in DIMS.items() if any(k in i["dims"] for i in [
        {"dims": [d.dim_param for d in vi.type.tensor_type.shape.dim]} for vi in m.graph.input])}
    dimargs = ["--dim", ",".join("%s=%d" % kv for kv in used.items())] if used else []
    doc = nnav("shapes", path, "--yaml", *dimargs)
    facts = {v["name"]: v for v in [g for g in doc["graphs"] if g["path"] == "/"][0]["values"]}

    def dims_of(f):
        return [symexpr.evaluate(d, used) if d not in (None, "?") else None
                for d in (f.get("shape") or [])] if f.get("shape") is not None else None

    for name, rv in real.items():
        totals["values"] += 1
        f = facts.get(name, {})
        got_t, got_d = f.get("elem_type"), dims_of(f)
        for (mb, vn, ax) in DATA_DIMS:
            if mb == base and vn == name and got_d and ax < len(got_d) and got_d[ax] is None:
                got_d[ax] = rv["dims"][ax]  # unknown, rightly
        if got_t != rv["type"] or got_d != rv["dims"]:
            fail(base, "%s: nnav %s%s, really %s%s" % (name, got_t, f.get("shape"), rv["type"],
                                                      rv["dims"]))
    for name, (t, src) in unfetched.items():
        totals["unfetched"] += 1
        f = facts.get(name, {})
        if f.get("elem_type") != NNAV_TYPE[t] or dims_of(f) != shapes.get(src):
            fail(base, "%s: nnav %s%s, by its definition %s%s" % (
                name, f.get("elem_type"), f.get("shape"), NNAV_TYPE[t], shapes.get(src)))
    cost = nnav("cost", path, "--nodes", "--yaml", *dimargs)
    node_costs = {c["name"]: c for c in cost["graphs"][0]["node_costs"]}

    def value(name):
        """An initializer's numbers, or what ONNX Runtime computed."""
        if name in inits:
            return numpy_helper.to_array(inits[name])
        return float(real[name]["data"][0])

    for n in m.graph.node:
        totals["nodes"] += 1
        c = node_costs.get(n.name)
        want = macs_of(n, lambda k: shapes[k], value)
        # a string's bytes are its data's, not its type's: such a node's
        # output bytes, so its cost, are partial
        partial_ok = any(real.get(o, {}).get("type") == "string" for o in n.output)
        if c is None or (not c["known"] and not partial_ok) or c["macs"] != want:
            fail(base, "node %s (%s): nnav %s MACs%s, from the real shapes %d" % (
                n.name, n.op_type, c and c["macs"], "" if c and c["known"] else " (partial)", want))
        elif want:
            totals["macs"] += 1
    print("%s (%s): %d values, %d by definition, %d nodes" % (
        base, ", ".join("%s=%d" % kv for kv in used.items()) or "no named dims", len(real),
        len(unfetched), len(m.graph.node)))

for p in problems:
    print("FAIL:", p)
print("models %(models)d; values from ONNX Runtime %(values)d, typed by definition %(unfetched)d; "
      "nodes %(nodes)d (%(macs)d with MACs)" % totals)
sys.exit(1 if problems else 0)
