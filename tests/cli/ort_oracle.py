#!/usr/bin/env python3
"""Compare nnav's inferred shapes and folded constants with what ONNX Runtime
really computes.

usage: ort_oracle.py NNAV NODE ORT_PACKAGE_DIR TMPDIR ALLOWLIST MODEL...

For every model:
  - inputs are made from the declared types and shapes, each named dim bound
    to a small number (the same binding is passed to `nnav shapes --dim`);
    when ONNX Runtime cannot run the model at that binding (a spectrogram
    needs more samples than its window), larger ones are tried, and the one
    used is printed;
  - a temporary copy (python onnx) lists every node output of the main graph
    as a graph output, so that ONNX Runtime (ort_oracle.js, CPU, no graph
    optimisation) reports each value's element type and dims;
  - every such value must have, in `nnav shapes MODEL --yaml --dim ...`, the
    same element type, the same rank, and each dim the same number: a
    number, or a symbolic dim evaluated at the binding (symexpr.py). A dim
    or type nnav leaves unknown is counted, not a mismatch; so is a symbol
    nnav took from the file's value_info with no binding (it names no input
    dim);
  - every folded constant nnav shows (`nnav nodes --declutter --yaml`:
    `folded:` lists on the inputs they feed) must equal the real value: the
    initializer's data, or what ONNX Runtime computed for that value.
A mismatch fails the test unless ALLOWLIST lists it (one line
"MODEL VALUE  reason", the reason required); an entry that matches nothing
fails too (when its model was run), so the list cannot go stale. A model ONNX Runtime cannot run at
all is listed with its error (it has nothing to compare)."""
import json
import os
import re
import subprocess
import sys

import numpy as np
import onnx
import yaml
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symexpr  # noqa: E402

NNAV, NODE, ORT, TMP, ALLOW = sys.argv[1:6]
MODELS = sys.argv[6:]
JS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ort_oracle.js")
DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
          7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64", 12: "uint32",
          13: "uint64", 14: "complex64", 15: "complex128", 16: "bfloat16"}
# Bindings tried in turn: the k-th named input dim takes BINDINGS[attempt][k % len].
# Small and distinct first (N*(S/2) and N*S/2 differ at N=3, S=5).
BINDINGS = [[3, 5, 2, 7, 11, 13], [2, 64, 48, 40, 56, 24], [2, 1600, 1280, 1760, 1200, 1440]]
os.makedirs(TMP, exist_ok=True)

allow = {}
for line in open(ALLOW, encoding="utf-8"):
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    parts = line.split(None, 2)
    if len(parts) < 3:
        sys.exit("%s: an entry needs MODEL VALUE and a reason: %r" % (ALLOW, line))
    allow[(parts[0], parts[1])] = parts[2]
allow_used = set()

totals = dict(models=0, run=0, not_run=0, values=0, agree=0, mismatch=0, allowed=0,
              nnav_unknown=0, unbound=0, ort_missing=0, folded=0)
problems = []


def nnav(*args):
    p = subprocess.run([NNAV] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("nnav %s: exit %d: %s" % (" ".join(args), p.returncode,
                                                       p.stderr.strip()[:300]))
    return yaml.safe_load(p.stdout)


# float8, float4, int4 and uint4 values: ONNX Runtime's Node.js binding has no
# tensor type for the floats (it refuses a session with one as an output), and
# runs out of memory converting a 4-bit integer one (1.30), so Casts and
# QuantizeLinears to them are not fetched; what reads them is.
NO_JS_TYPE = {17, 18, 19, 20, 21, 22, 23, 24}


def unfetchable(n, inits_type):
    attrs = {a.name: a.i for a in n.attribute if a.type == onnx.AttributeProto.INT}
    if n.op_type == "Cast" and n.domain in ("", "ai.onnx"):
        return attrs.get("to") in NO_JS_TYPE
    if n.op_type == "QuantizeLinear" and n.domain in ("", "ai.onnx"):
        z = inits_type.get(n.input[2]) if len(n.input) > 2 else None
        return attrs.get("output_dtype") in NO_JS_TYPE or z in NO_JS_TYPE
    return False


def prepare(path, idx):
    """The copy with every node output fetched, and the model's inputs with their
    named dims. None and a reason when the model's inputs cannot be made."""
    m = onnx.load(path)
    g = m.graph
    inits = {t.name for t in g.initializer}
    inputs, names = [], []
    for vi in g.input:
        if vi.name in inits:
            continue
        tt = vi.type
        if tt.WhichOneof("value") != "tensor_type":
            return None, None, None, "input %s is a %s, not a tensor" % (vi.name, tt.WhichOneof("value"))
        dt = DTYPES.get(tt.tensor_type.elem_type)
        if not tt.tensor_type.HasField("shape"):
            return None, None, None, "input %s has no shape" % vi.name
        dims = []
        for d in tt.tensor_type.shape.dim:
            if d.HasField("dim_value"):
                dims.append(d.dim_value)
            elif d.dim_param:
                if d.dim_param not in names:
                    names.append(d.dim_param)
                dims.append(d.dim_param)
            else:
                dims.append(None)
        inputs.append({"name": vi.name, "type": dt, "dims": dims})
    # ONNX Runtime's StringNormalizer builds the node's locale (en_US.UTF-8
    # by default), which a machine without that locale lacks; C.UTF-8 is
    # always there, and on the ASCII inputs made here the shapes are the same.
    for n in g.node:
        if n.op_type == "StringNormalizer":
            for a in list(n.attribute):
                if a.name == "locale":
                    n.attribute.remove(a)
            n.attribute.append(onnx.helper.make_attribute("locale", "C.UTF-8"))
    have = {o.name for o in g.output}
    fetch = [o.name for o in g.output]
    inits_type = {t.name: t.data_type for t in g.initializer}
    for n in g.node:
        for o in n.output:
            if o and o not in have and not unfetchable(n, inits_type):
                have.add(o)
                fetch.append(o)
                g.output.append(onnx.ValueInfoProto(name=o))
    copy = os.path.join(TMP, "m%03d_%s" % (idx, os.path.basename(path)))
    onnx.save(m, copy)
    # (an element type python onnx cannot read, int4 or float8, is left out)
    values = {t.name: numpy_helper.to_array(t) for t in g.initializer
              if t.data_type in DTYPES and t.data_type != onnx.TensorProto.STRING
              and np.prod(t.dims) <= 64}
    return copy, (inputs, names, fetch), values, None


def bind_of(names, attempt):
    b = BINDINGS[attempt]
    return {n: b[k % len(b)] for k, n in enumerate(names)}


def job_of(jid, copy, inputs, binding, fetch):
    ins = []
    for inp in inputs:
        dims = [binding[d] if isinstance(d, str) else (3 if d is None else d) for d in inp["dims"]]
        ins.append({"name": inp["name"], "type": inp["type"], "dims": dims})
    return {"id": jid, "model": copy, "inputs": ins, "fetch": fetch}


def run_jobs(jobs, tag):
    jp, rp = os.path.join(TMP, "jobs_%s.json" % tag), os.path.join(TMP, "results_%s.json" % tag)
    with open(jp, "w") as f:
        json.dump(jobs, f)
    p = subprocess.run([NODE, JS, ORT, jp, rp], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("FAIL: node %s: exit %d: %s" % (JS, p.returncode, p.stderr.strip()[:2000]))
    return json.load(open(rp))


def mismatch(model, value, text):
    key = (model, value)
    if key in allow:
        allow_used.add(key)
        totals["allowed"] += 1
        print("  allowed: %s %s: %s (%s)" % (model, value, text, allow[key]))
    else:
        totals["mismatch"] += 1
        problems.append("%s %s: %s" % (model, value, text))


def compare(path, binding, real, inits):
    base = os.path.basename(path)
    dims = []
    for k, v in binding.items():
        dims += ["--dim", "%s=%d" % (k, v)]
    doc = nnav("shapes", path, "--yaml", *dims)
    main = [g for g in doc["graphs"] if g["path"] == "/"][0]
    facts = {v["name"]: v for v in main["values"]}
    counts = dict(values=0, agree=0, unknown=0, unbound=0, missing=0, folded=0)
    for name, r in real.items():
        if "error" in r:
            counts["missing"] += 1
            continue
        counts["values"] += 1
        f = facts.get(name)
        if f is None:
            mismatch(base, name, "nnav lists no such value; really %s%s" % (r["type"], r["dims"]))
            continue
        ok, unknown, unbound = True, False, False
        et = f.get("elem_type")
        if et in (None, "?"):
            unknown = True
        elif et != r["type"]:
            mismatch(base, name, "nnav %s, really %s" % (et, r["type"]))
            ok = False
        shape = f.get("shape")
        if ok and shape is None:
            unknown = True
        elif ok and len(shape) != len(r["dims"]):
            mismatch(base, name, "nnav rank %d %s, really %s" % (len(shape), shape, r["dims"]))
            ok = False
        elif ok:
            for i, (d, rd) in enumerate(zip(shape, r["dims"])):
                if d in (None, "?"):
                    unknown = True
                    continue
                try:
                    v = symexpr.evaluate(d, binding)
                except symexpr.Unbound:
                    unbound = True
                    continue
                except ValueError as e:
                    mismatch(base, name, "dim %d %r cannot be read: %s" % (i, d, e))
                    ok = False
                    break
                if v != rd:
                    mismatch(base, name, "dim %d: nnav %r = %d, really %d (shape %s, really %s)"
                             % (i, d, v, rd, shape, r["dims"]))
                    ok = False
                    break
        if ok:
            counts["agree"] += 1
            counts["unknown"] += unknown
            counts["unbound"] += unbound
    # folded constants nnav shows
    nodes = nnav("nodes", path, "--declutter", "--yaml") or []
    for n in nodes:
        for inp, fv in zip(n.get("input", []), n.get("folded", []) or []):
            if not isinstance(fv, list):
                continue
            want = inits.get(inp)
            if want is None and inp in real and "data" in real[inp]:
                want = real[inp]["data"]
            if want is None:
                mismatch(base, inp, "nnav shows folded %s; no real value to compare" % fv)
                continue
            got = [int(x) if isinstance(x, str) else x for x in np.asarray(want).ravel().tolist()]
            counts["folded"] += 1
            if len(got) != len(fv) or any(float(a) != float(b) for a, b in zip(got, fv)):
                mismatch(base, inp, "nnav folds it to %s, really %s" % (fv, got))
    return counts


prepared = {}
for idx, path in enumerate(MODELS):
    totals["models"] += 1
    try:
        copy, info, inits, why = prepare(path, idx)
    except Exception as e:  # a file python onnx cannot load or save
        copy, info, inits, why = None, None, None, "python onnx: %s" % str(e).split("\n")[0]
    if why:
        totals["not_run"] += 1
        print("not run: %s: %s" % (os.path.basename(path), why))
        continue
    prepared[path] = (copy, info, inits)

pending = list(prepared)
results = {}
for attempt in range(len(BINDINGS)):
    if not pending:
        break
    jobs = []
    for path in pending:
        copy, (inputs, names, fetch), _ = prepared[path]
        jobs.append(job_of(path, copy, inputs, bind_of(names, attempt), fetch))
    got = run_jobs(jobs, str(attempt))
    again = []
    for path in pending:
        r = got.get(path, {"error": "no result"})
        names = prepared[path][1][1]
        if "error" in r and names and attempt + 1 < len(BINDINGS):
            again.append(path)
            continue
        results[path] = (r, bind_of(names, attempt))
    pending = again

for path in MODELS:
    if path not in results:
        continue
    r, binding = results[path]
    base = os.path.basename(path)
    if "error" in r:
        totals["not_run"] += 1
        print("not run: %s: ONNX Runtime: %s" % (base, r["error"]))
        continue
    totals["run"] += 1
    try:
        c = compare(path, binding, r["values"], prepared[path][2])
    except RuntimeError as e:
        problems.append(str(e))
        continue
    for k in ("values", "agree", "folded"):
        totals[k] += c[k]
    totals["nnav_unknown"] += c["unknown"]
    totals["unbound"] += c["unbound"]
    totals["ort_missing"] += c["missing"]
    print("%s (%s): %d values, %d agree (%d partly unknown to nnav, %d with a file's unbound symbol), "
          "%d not returned by ONNX Runtime, %d folded constants"
          % (base, ", ".join("%s=%d" % kv for kv in binding.items()) or "no named dims",
             c["values"], c["agree"], c["unknown"], c["unbound"], c["missing"], c["folded"]))

ran = {os.path.basename(p) for p in MODELS}
for key in sorted(set(allow) - allow_used):
    if key[0] in ran:
        problems.append("allowlist entry matches nothing (remove it): %s %s" % key)
for p in problems:
    print("FAIL:", p)
print("models %(models)d (run %(run)d, not run %(not_run)d); values %(values)d: agree %(agree)d, "
      "mismatch %(mismatch)d, allowed %(allowed)d; partly unknown to nnav %(nnav_unknown)d, "
      "unbound file symbols %(unbound)d, not returned %(ort_missing)d; folded constants %(folded)d"
      % totals)
sys.exit(1 if problems else 0)
