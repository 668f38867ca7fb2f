#!/usr/bin/env python3
"""Compare nnav's inferred types and shapes with the ONNX package's inference.

usage: shape_compare.py NNAV MODEL...

For every model: onnx.shape_inference.infer_shapes (strict_mode off) gives an
element type and shape for the values it can infer, in the main graph and in
every body (If, Loop, Scan...), found by nnav's graph path. `nnav shapes MODEL
--all --yaml` must say the same wherever onnx says something:
  - the same element type;
  - the same rank;
  - the same number where onnx has a dim_value;
  - a symbolic (string) dim where onnx has a dim_param from the file or from
    its own rules; the names are only counted, same or different.
onnx also makes up a fresh name, unk__N, for every dim whose size it does not
know: such a dim says nothing of the size, so nnav may leave it unknown
(counted), or know a number or a symbol for it (counted as knowing more).
Sequences are compared by their elements. Where onnx says nothing, what nnav
says is counted as "more". Exit 1 on any mismatch (each one is listed); SHAPE_COMPARE_VERBOSE=1 also
lists every value and dim nnav knows beyond onnx."""
import os
import re
import subprocess
import sys

import onnx
import yaml

NNAV = sys.argv[1]
DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
          7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64", 12: "uint32",
          13: "uint64", 14: "complex64", 15: "complex128", 16: "bfloat16"}
DATA_PROP = bool(os.environ.get("SHAPE_COMPARE_DATA_PROP"))
GENERATED = re.compile(r"^unk__\d+$")

totals = {"models": 0, "inference_failed": 0, "values": 0, "agree": 0, "mismatch": 0,
          "nnav_typed_more": 0, "nnav_dims_more": 0, "names_same": 0, "names_differ": 0,
          "nnav_number_for_unk": 0, "both_unknown": 0}
mismatches = []
more = []


def graphs_of(graph):
    """(path, GraphProto) for the main graph and every body, in nnav's path scheme."""
    out = []
    todo = [("/", graph)]
    while todo:
        path, g = todo.pop(0)
        out.append((path, g))
        for i, n in enumerate(g.node):
            label = n.name if n.name else "#%d" % i
            for a in n.attribute:
                base = ("" if path == "/" else path) + "/" + label + "/" + a.name
                if a.type == onnx.AttributeProto.GRAPH:
                    todo.append((base, a.g))
                elif a.type == onnx.AttributeProto.GRAPHS:
                    for k, sub in enumerate(a.graphs):
                        todo.append((base + "[%d]" % k, sub))
    return out


def onnx_fact(tp):
    """(kind, elem_type name or None, dims list or None) of a TypeProto; dims
    are ints, ("param", name) or None. None when onnx says nothing usable."""
    kind = "tensor"
    which = tp.WhichOneof("value")
    if which == "sequence_type":
        kind = "seq"
        tp = tp.sequence_type.elem_type
        which = tp.WhichOneof("value")
    if which != "tensor_type":
        return None
    t = tp.tensor_type
    et = DTYPES.get(t.elem_type) if t.elem_type else None
    dims = None
    if t.HasField("shape"):
        dims = []
        for d in t.shape.dim:
            if d.HasField("dim_value"):
                dims.append(d.dim_value)
            elif d.HasField("dim_param"):
                dims.append(("param", d.dim_param))
            else:
                dims.append(None)
    if et is None and dims is None:
        return None
    return kind, et, dims


def onnx_values(g):
    vals = {}
    for vi in list(g.input) + list(g.value_info) + list(g.output):
        f = onnx_fact(vi.type)
        if f is not None:
            vals[vi.name] = f
    return vals


def nnav_kind(v):
    t = v.get("type") or ""
    return "seq" if t.startswith("seq(") else "tensor"


def nnav_seq_shape(t):
    """The element shape of a sequence from its type, "seq(float32[N,?,3])"."""
    m = re.match(r"^seq\([a-z0-9]+\[(.*)\]\)$", t or "")
    if not m or m.group(1) == "...":
        return None
    if m.group(1) == "":
        return []
    return [int(x) if re.match(r"^-?\d+$", x) else None if x == "?" else x
            for x in m.group(1).split(",")]


def compare_value(where, name, of, nv):
    kind, et, dims = of
    bad = []
    if nv is None:
        mismatches.append(f"{where}: {name}: onnx says {describe(of)}, nnav lists no such value")
        return False
    if nnav_kind(nv) != kind:
        bad.append(f"onnx says a {kind}, nnav says {nv.get('type')}")
    if et is not None and nv.get("elem_type") != et:
        bad.append(f"element type {et} vs nnav {nv.get('elem_type')}")
    ns = nv.get("shape")
    if kind == "seq" and nnav_kind(nv) == "seq" and ns is None:
        ns = nnav_seq_shape(nv.get("type"))
    if dims is not None:
        if ns is None:
            bad.append(f"onnx has rank {len(dims)}, nnav no shape")
        elif len(ns) != len(dims):
            bad.append(f"rank {len(dims)} vs nnav {len(ns)}")
        else:
            for i, (d, n) in enumerate(zip(dims, ns)):
                if isinstance(d, int):
                    if n != d:
                        bad.append(f"dim {i}: {d} vs nnav {n!r}")
                elif isinstance(d, tuple) and GENERATED.match(d[1]) and n is None:
                    totals["both_unknown"] += 1
                elif isinstance(d, tuple):
                    if isinstance(n, str):
                        if n == d[1]:
                            totals["names_same"] += 1
                        else:
                            totals["names_differ"] += 1
                            more.append(f"{where}: {name}: dim {i}: onnx {d[1]}, nnav {n}")
                    elif isinstance(n, int) and GENERATED.match(d[1]):
                        totals["nnav_number_for_unk"] += 1
                        totals["nnav_dims_more"] += 1
                        more.append(f"{where}: {name}: dim {i}: onnx {d[1]}, nnav {n}")
                    else:
                        bad.append(f"dim {i}: symbolic {d[1]} vs nnav {n!r}")
                elif n is not None:
                    totals["nnav_dims_more"] += 1
                    more.append(f"{where}: {name}: dim {i}: onnx unknown, nnav {n!r}")
    elif ns is not None:
        totals["nnav_dims_more"] += sum(1 for n in ns if n is not None)
        more.append(f"{where}: {name}: onnx has no shape, nnav {nv.get('type')}")
    if et is None and nv.get("elem_type") is not None:
        totals["nnav_typed_more"] += 1
        more.append(f"{where}: {name}: onnx has no element type, nnav {nv.get('type')}")
    if bad:
        mismatches.append(f"{where}: {name}: onnx {describe(of)}, nnav {nv.get('type')} "
                          f"(source {nv.get('source')}): " + "; ".join(bad))
        return False
    return True


def describe(of):
    kind, et, dims = of
    if dims is None:
        s = f"{et or '?'}[...]"
    else:
        s = (f"{et or '?'}[" + ",".join("?" if d is None else d[1] if isinstance(d, tuple)
                                         else str(d) for d in dims) + "]")
    return f"seq({s})" if kind == "seq" else s


def compare(path):
    totals["models"] += 1
    model = onnx.load(path)
    try:
        inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False,
                                                   data_prop=DATA_PROP)
    except Exception as e:  # onnx refuses some models outright: say so, compare nothing
        totals["inference_failed"] += 1
        print(f"{path}: onnx shape inference failed: {str(e).splitlines()[0] if str(e) else e!r}")
        return
    out = subprocess.run([NNAV, "shapes", path, "--all", "--yaml"], capture_output=True)
    if out.returncode != 0:
        mismatches.append(f"{path}: nnav shapes failed: {out.stderr.decode(errors='replace')}")
        return
    doc = yaml.safe_load(out.stdout)
    ngraphs = {g["path"]: {v["name"]: v for v in g["values"]} for g in doc["graphs"]}
    counts = {"values": 0, "agree": 0, "more": 0}
    for gpath, g in graphs_of(inferred.graph):
        ov = onnx_values(g)
        nvals = ngraphs.get(gpath)
        where = f"{path.rsplit('/', 1)[-1]}:{gpath}"
        if nvals is None:
            if ov:
                mismatches.append(f"{where}: graph missing from nnav shapes --all")
            continue
        for name, of in ov.items():
            counts["values"] += 1
            if compare_value(where, name, of, nvals.get(name)):
                counts["agree"] += 1
        for name, nv in nvals.items():
            if name in ov:
                continue
            if nv.get("elem_type") is not None:
                totals["nnav_typed_more"] += 1
                counts["more"] += 1
                more.append(f"{where}: {name}: onnx nothing, nnav {nv.get('type')}")
            totals["nnav_dims_more"] += sum(1 for n in (nv.get("shape") or []) if n is not None)
    totals["values"] += counts["values"]
    totals["agree"] += counts["agree"]
    print(f"{path}: {counts['values']} values compared, {counts['agree']} agree, "
          f"{counts['more']} more typed by nnav")


for p in sys.argv[2:]:
    compare(p)

totals["mismatch"] = len(mismatches)
for m in mismatches:
    print("MISMATCH:", m)
if os.environ.get("SHAPE_COMPARE_VERBOSE"):
    for m in more:
        print("MORE:", m)
print("models {models} (onnx inference failed on {inference_failed}); values compared {values}, "
      "agreements {agree}, mismatches {mismatch}; values nnav types that onnx does not "
      "{nnav_typed_more}; dims nnav knows that onnx does not {nnav_dims_more} (of them "
      "numbers where onnx made up a name: {nnav_number_for_unk}); symbolic names same "
      "{names_same}, different {names_differ}; dims both leave unknown (onnx unk__N) "
      "{both_unknown}".format(**totals))
sys.exit(1 if mismatches else 0)
