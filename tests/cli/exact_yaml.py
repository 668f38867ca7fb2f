#!/usr/bin/env python3
"""exact_yaml.py NNAV MODEL [MAX_NODES] - nnav's YAML and value listings against
the ONNX reference, value by value, exactly (issue 15, items 1, 2, 6, 7).

Runs `nnav export` (YAML), `nnav node --yaml` for the main graph's nodes (the
first MAX_NODES, all by default), `nnav tensors --values --yaml` and the same
as a table, and checks with onnx.load and numpy_helper that every attribute
and every tensor value equals the file's: STRINGS lists entry by entry
(bytes), int64 to the last bit, floats bit for bit (-0.0 and NaN included).
Every YAML output is read with yaml.safe_load and with yaml.load's full
loader, which must agree. Facts onnx cannot read back (sub-byte types, a
function's attribute_proto) come from MODEL.expect.json when it exists.
Prints one line per mismatch and a count; exits 1 on any mismatch."""
import json
import math
import os
import re
import subprocess
import sys

import numpy as np
import yaml
from onnx import AttributeProto, TensorProto, load, numpy_helper

NNAV, MODEL = sys.argv[1], sys.argv[2]
MAX_NODES = int(sys.argv[3]) if len(sys.argv) > 3 else 1 << 30
MAXV = 64
bad = []
checked = 0
expect = {}
if os.path.exists(MODEL + ".expect.json"):
    expect = json.load(open(MODEL + ".expect.json"))
SUBBYTE = {21, 22, 25, 26}


def fail(what):
    bad.append(what)
    if len(bad) <= 40:
        print("MISMATCH:", what)


def run(*args):
    p = subprocess.run([NNAV] + list(args), capture_output=True)
    if p.returncode != 0:
        fail("nnav %s exited %d: %s" % (" ".join(args), p.returncode, p.stderr[:300]))
    return p.stdout


def load_yaml(text, what):
    """safe_load, and the full loader (which knows the merge key) must agree."""
    try:
        a = yaml.safe_load(text)
    except yaml.YAMLError as e:
        fail("%s: yaml.safe_load: %s" % (what, str(e)[:200]))
        return None
    try:
        b = yaml.load(text, Loader=yaml.FullLoader)
    except yaml.YAMLError as e:
        fail("%s: yaml.load(FullLoader): %s" % (what, str(e)[:200]))
        return a
    if not same(a, b):
        fail("%s: safe_load and FullLoader read different things" % what)
    return a


def same(a, b):
    """Equal, with floats compared bit for bit (NaN equals NaN, -0.0 is not 0.0)."""
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def as_bytes(y):
    return y if isinstance(y, bytes) else y.encode() if isinstance(y, str) else y


def check(got, want, what):
    global checked
    checked += 1
    if not same(got, want):
        fail("%s: nnav %r, onnx %r" % (what, trunc(got), trunc(want)))


def trunc(x):
    s = repr(x)
    return s if len(s) < 300 else s[:300] + "..."


def tensor_values(t):
    """The tensor's values as Python numbers (ints for integer types), flat."""
    if t.data_type in SUBBYTE:
        return expect.get("values", {}).get(t.name)
    if t.data_location == TensorProto.EXTERNAL:
        return None
    if t.data_type == TensorProto.STRING:  # bytes as stored (numpy_helper decodes UTF-8)
        return list(t.string_data)
    a = numpy_helper.to_array(t)
    if a.dtype.kind in "c":
        out = []
        for z in a.flatten().tolist():
            out += [float(z.real), float(z.imag)]
        return out
    if a.dtype.kind == "b":
        return [int(x) for x in a.flatten().tolist()]
    if a.dtype.kind in "iu":
        return [int(x) for x in a.flatten().tolist()]
    return [float(x) for x in a.astype(np.float64).flatten().tolist()]


def nelems(t):
    n = 1
    for d in t.dims:
        n *= d
    return n


def check_values(yv, t, what):
    want = tensor_values(t)
    if want is None:
        return
    if yv is None:
        fail("%s: no values" % what)
        return
    if t.data_type == TensorProto.STRING:
        yv = [as_bytes(x) for x in yv]
    check(yv, want[:len(yv)] if len(yv) < len(want) else want, what + " values")


def check_attr(ya, a, what, node_view):
    check(as_bytes(ya.get("name")), a.name.encode(), what + " name")
    if a.ref_attr_name:
        check(as_bytes(ya.get("ref_attr_name")), a.ref_attr_name.encode(), what + " ref_attr_name")
        return
    v = ya.get("value")
    T = AttributeProto
    if a.type == T.FLOAT:
        check(v, float(a.f), what)
    elif a.type == T.INT:
        check(v, a.i, what)
    elif a.type == T.STRING:
        check(as_bytes(v), a.s, what)
    elif a.type == T.FLOATS:
        check(v, [float(x) for x in a.floats], what)
    elif a.type == T.INTS:
        check(v, list(a.ints), what)
    elif a.type == T.STRINGS:
        check([as_bytes(x) for x in v] if isinstance(v, list) else v, list(a.strings), what)
        if "value_error" in ya:
            fail("%s: false value_error %r" % (what, ya["value_error"]))
    elif a.type in (T.TENSOR, T.TENSORS):
        ts = [a.t] if a.type == T.TENSOR else list(a.tensors)
        vs = [v] if a.type == T.TENSOR and isinstance(v, dict) else v
        if node_view and a.type == T.TENSOR and isinstance(v, list):
            vs = v
        if not isinstance(vs, list) or len(vs) != len(ts):
            fail("%s: %d tensors, not %r" % (what, len(ts), trunc(v)))
            return
        for k, (yt, t) in enumerate(zip(vs, ts)):
            if not isinstance(yt, dict):
                fail("%s[%d]: a tensor as %r, without its values" % (what, k, trunc(yt)))
                continue
            if node_view or nelems(t) <= MAXV:
                check_values(yt.get("values"), t, "%s[%d]" % (what, k))
    elif a.type in (T.SPARSE_TENSOR, T.SPARSE_TENSORS):
        sps = [a.sparse_tensor] if a.type == T.SPARSE_TENSOR else list(a.sparse_tensors)
        vs = [v] if a.type == T.SPARSE_TENSOR and isinstance(v, dict) else v
        if not isinstance(vs, list) or len(vs) != len(sps):
            fail("%s: %d sparse tensors, not %r" % (what, len(sps), trunc(v)))
            return
        for k, (ys, sp) in enumerate(zip(vs, sps)):
            if not isinstance(ys, dict):
                fail("%s[%d]: %r, not dims, values, indices" % (what, k, trunc(ys)))
                continue
            check(ys.get("dims"), list(sp.dims), "%s[%d] dims" % (what, k))
            for key, t in (("values", sp.values), ("indices", sp.indices)):
                yt = ys.get(key)
                if not isinstance(yt, dict):
                    fail("%s[%d]: no %s" % (what, k, key))
                    continue
                check(yt.get("dims"), list(t.dims), "%s[%d].%s dims" % (what, k, key))
                check_values(yt.get("values"), t, "%s[%d].%s" % (what, k, key))
    elif a.type == T.TYPE_PROTO:
        check(isinstance(v, str), True, what + " is a string")
    elif a.type == T.TYPE_PROTOS:
        check(isinstance(v, list) and len(v), len(a.type_protos), what + " is a list of each type")


def node_label(n, i):
    return n.name if n.name else "#%d" % i


m = load(MODEL)
g = m.graph
nodes = list(g.node)

# ---- export --format yaml ----
ex = load_yaml(run("export", MODEL, "--format", "yaml", "--max-values", str(MAXV)), "export")
if ex:
    yg = ex["graph"]
    check(len(yg["node"]), len(nodes), "export node count")
    for i, (yn, n) in enumerate(zip(yg["node"], nodes)):
        w = "export node[%d]" % i
        check(as_bytes(yn["name"]), n.name.encode(), w + " name")
        check([as_bytes(x) for x in yn["input"]], [x.encode() for x in n.input], w + " input")
        check([as_bytes(x) for x in yn["output"]], [x.encode() for x in n.output], w + " output")
        check(len(yn["attribute"]), len(n.attribute), w + " attribute count")
        for k, (ya, a) in enumerate(zip(yn["attribute"], n.attribute)):
            check_attr(ya, a, "%s.attribute[%d] %s" % (w, k, a.name), False)
    check(len(yg["initializer"]), len(g.initializer), "export initializer count")
    for yt, t in zip(yg["initializer"], g.initializer):
        check(as_bytes(yt["name"]), t.name.encode(), "export initializer name")
        if nelems(t) <= MAXV:
            check_values(yt.get("values"), t, "export initializer %s" % t.name)
    for k, (ys, sp) in enumerate(zip(yg.get("sparse_initializer", []), g.sparse_initializer)):
        check(ys["dims"], list(sp.dims), "export sparse_initializer[%d] dims" % k)
        check_values(ys["values"].get("values"), sp.values, "export sparse_initializer[%d].values" % k)
        check_values(ys["indices"].get("values"), sp.indices, "export sparse_initializer[%d].indices" % k)
    fe = expect.get("function")
    for yf in ex.get("functions", []) or []:
        if fe and yf.get("name") == fe["name"]:
            check(yf.get("attribute"), fe["attribute"], "function attribute")
            got = {a.get("name"): a.get("value") for a in yf.get("attribute_proto") or []}
            check(got, fe["attribute_proto"], "function attribute_proto")
            check([[o.get("domain"), o.get("version")] for o in yf.get("opset_import") or []],
                  fe["opset_import"], "function opset_import")
    for fn in m.functions:
        yf = [f for f in ex.get("functions", []) or [] if f.get("name") == fn.name]
        if yf:
            check(yf[0].get("attribute"), list(fn.attribute), "function %s attribute" % fn.name)
            check([[o.get("domain"), o.get("version")] for o in yf[0].get("opset_import") or []],
                  [[o.domain, o.version] for o in fn.opset_import], "function %s opset_import" % fn.name)

# ---- node --yaml ----
producer = {}
consumers = {}
for i, n in enumerate(nodes):
    for o in n.output:
        producer[o] = (i, n)


def add_consumers(graph_nodes, shadow):
    """Every node that reads a main-graph value: in the main graph and in
    bodies below it (by its index in its own graph), unless a body defines
    the name itself."""
    for i, n in enumerate(graph_nodes):
        for x in n.input:
            if x and x not in shadow:
                consumers.setdefault(x, []).append((i, n))
        for a in n.attribute:
            for b in ([a.g] if a.type == AttributeProto.GRAPH else
                      list(a.graphs) if a.type == AttributeProto.GRAPHS else []):
                inner = set(shadow) | {v.name for v in b.input} | {t.name for t in b.initializer}
                inner |= {o for bn in b.node for o in bn.output}
                add_consumers(b.node, inner)


add_consumers(nodes, set())
for i, n in enumerate(nodes[:MAX_NODES]):
    y = load_yaml(run("node", MODEL, "#%d" % i, "--yaml"), "node #%d" % i)
    if not y:
        continue
    w = "node #%d" % i
    check(as_bytes(y["name"]), n.name.encode(), w + " name")
    check(y["index"], i, w + " index")
    for k, (ya, a) in enumerate(zip(y["attribute"], n.attribute)):
        check_attr(ya, a, "%s.attribute[%d] %s" % (w, k, a.name), True)
    for k, (yi, x) in enumerate(zip(y["input"], n.input)):
        check(as_bytes(yi["name"]), x.encode(), "%s input[%d] name" % (w, k))
        if x in producer and yi.get("source") == "node":
            pi, pn = producer[x]
            check(as_bytes(yi.get("producer")), pn.name.encode(), "%s input[%d] producer" % (w, k))
            check(yi.get("producer_index"), pi, "%s input[%d] producer_index" % (w, k))
    for k, (yo, x) in enumerate(zip(y["output"], n.output)):
        if not x:
            continue
        cs = consumers.get(x, [])
        got = sorted(zip([as_bytes(c) for c in yo.get("consumers", [])], yo.get("consumer_index") or []))
        check(got, sorted((c.name.encode(), ci) for ci, c in cs),
              "%s output[%d] consumers (raw name, index)" % (w, k))
        check(len(yo.get("consumers", [])), len(cs), "%s output[%d] consumer count" % (w, k))

# ---- tensors --values ----
want = {}
for t in g.initializer:
    want[("", t.name)] = t
for sp in g.sparse_initializer:
    want[("sparse", sp.values.name)] = sp.values
held = {}
for i, n in enumerate(nodes):
    for a in n.attribute:
        if a.type == AttributeProto.TENSOR:
            held["(%s.%s)" % (node_label(n, i), a.name)] = a.t
ty = load_yaml(run("tensors", MODEL, "--constants", "--values", str(MAXV), "--yaml"), "tensors --yaml")
text = run("tensors", MODEL, "--constants", "--values", str(MAXV)).decode("utf-8", "replace")
rows = {}
cur = None
for line in text.split("\n"):
    if line and not line.startswith(" "):
        cur = line.split()[0]
    elif line.startswith("    values:") and cur:
        rows.setdefault(cur, {})["values"] = line[len("    values:"):]
    elif line.startswith("    min ") and cur:
        mm = re.match(r"    min (\S+)  max (\S+)  mean (\S+)", line)
        if mm:
            rows.setdefault(cur, {})["minmax"] = mm.groups()
if ty:
    for yt in ty["tensors"]:
        name = as_bytes(yt["name"]).decode("utf-8", "replace")
        t = None
        if yt.get("constant"):
            t = held.get(yt.get("shown_as")) if not name else None
            if t is None:
                t = next((a.t for n in nodes for a in n.attribute
                          if a.type == AttributeProto.TENSOR and a.t.name == name and name), None)
        elif ("", name) in want:
            t = want[("", name)]
        elif ("sparse", name) in want:
            t = want[("sparse", name)]
        if t is None:
            continue
        vals = tensor_values(t)
        if vals is None or "values" not in yt:
            continue
        w = "tensors --yaml %s" % (name or yt.get("shown_as"))
        check_values(yt["values"], t, w)
        nums = [x for x in vals if not (isinstance(x, float) and math.isnan(x))]
        if nums and t.data_type != TensorProto.STRING and "min" in yt:
            check(yt["min"], min(nums), w + " min")
            check(yt["max"], max(nums), w + " max")
            if all(isinstance(x, int) for x in nums):
                from fractions import Fraction
                exact = Fraction(sum(nums), len(nums))
                check(abs(Fraction(yt["mean"]) - exact) <= abs(exact) * Fraction(1, 2**50),
                      True, w + " mean within rounding")
        # The table: integer types as integers, exactly.
        key = name if name and not yt.get("constant") else (name or yt.get("shown_as"))
        r = rows.get(key)
        if r and vals and all(isinstance(x, int) for x in vals):
            got = [int(x) for x in r["values"].replace(", ...", "").split("(")[0].replace(",", " ").split()]
            check(got, vals[:len(got)], "tensors (table) %s values" % key)
            if "minmax" in r:
                check([int(r["minmax"][0]), int(r["minmax"][1])], [min(vals), max(vals)],
                      "tensors (table) %s min/max" % key)

print("%s: %d facts checked, %d mismatches" % (os.path.basename(MODEL), checked, len(bad)))
sys.exit(1 if bad else 0)
