#!/usr/bin/env python3
"""Compare what nnav reports with what the ONNX Python package reads.

For every model given: every graph (main, each graph-valued attribute's body,
functions) is found by its nnav path, and its nodes (order, name, op_type,
domain, inputs, outputs, attribute names and types), initializers (name,
dtype, dims), inputs and outputs must agree; so must info's counts.
Exit 0 when all agree, 1 with a list of differences."""
import subprocess
import sys

import numpy as np
import onnx
import yaml
from onnx import numpy_helper

NNAV = sys.argv[1]
DTYPES = {1: "float32", 2: "uint8", 3: "int8", 4: "uint16", 5: "int16", 6: "int32",
          7: "int64", 8: "string", 9: "bool", 10: "float16", 11: "float64", 12: "uint32",
          13: "uint64", 14: "complex64", 15: "complex128", 16: "bfloat16"}
ATYPES = {v: k for k, v in onnx.AttributeProto.AttributeType.items()}
problems = []


def nnav(*args):
    out = subprocess.run([NNAV, *args, "--yaml"], check=True, capture_output=True).stdout
    return yaml.safe_load(out)


def plain(s):
    return all(0x20 <= ord(c) < 0x7f and c != "\\" for c in s)


def graphs_of(model):
    """(path, GraphProto or FunctionProto, kind) in nnav's path scheme."""
    out = []
    todo = [("/", model.graph)]
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


def check(cond, what):
    if not cond:
        problems.append(what)


def compare(path):
    model = onnx.load(path)
    info = nnav("info", path)
    c = info["counts"]
    check(info["ir_version"] == model.ir_version, f"{path}: ir_version")
    check(info["producer_name"] == model.producer_name, f"{path}: producer_name")
    check(c["nodes"] == len(model.graph.node), f"{path}: nodes {c['nodes']} vs {len(model.graph.node)}")
    check(c["initializers_main_graph"] == len(model.graph.initializer), f"{path}: initializers")
    check(c["inputs"] == len(model.graph.input), f"{path}: inputs")
    check(c["outputs"] == len(model.graph.output), f"{path}: outputs")
    check(c["functions"] == len(model.functions), f"{path}: functions")
    check([(o["domain"], o["version"]) for o in info["opset_import"]] ==
          [(o.domain, o.version) for o in model.opset_import], f"{path}: opset_import")
    check([(m["key"], m["value"]) for m in info["metadata_props"]] ==
          [(m.key, m.value) for m in model.metadata_props], f"{path}: metadata_props")
    gs = graphs_of(model)
    check(c["subgraphs"] == len(gs) - 1, f"{path}: subgraphs {c['subgraphs']} vs {len(gs) - 1}")
    check(c["nodes_all_graphs"] == sum(len(g.node) for _, g in gs) +
          sum(len(f.node) for f in model.functions), f"{path}: nodes in all graphs")
    tree = {t["path"]: t for t in nnav("tree", path)}
    for gpath, g in gs:
        if not plain(gpath):
            continue
        check(gpath in tree, f"{path}: graph {gpath} missing from tree")
        if gpath not in tree:
            continue
        check(tree[gpath]["nodes"] == len(g.node), f"{path}:{gpath}: node count")
        nodes = nnav("nodes", path, "--graph", gpath)
        check(len(nodes) == len(g.node), f"{path}:{gpath}: nodes listed")
        for i, (a, b) in enumerate(zip(nodes, g.node)):
            same = (a["index"] == i and a["name"] == b.name and a["op_type"] == b.op_type and
                    a["domain"] == b.domain and a["input"] == list(b.input) and
                    a["output"] == list(b.output))
            check(same, f"{path}:{gpath}: node {i} differs: {a} vs {b.name} {b.op_type}")
        tens = nnav("tensors", path, "--graph", gpath, "--values", "4")["tensors"]
        dense = [t for t in tens if not t["storage"].startswith("sparse")]
        check(len(dense) == len(g.initializer), f"{path}:{gpath}: initializer count")
        for a, b in zip(dense, g.initializer):
            check(a["name"] == b.name and a["dims"] == list(b.dims) and
                  a["data_type"] == DTYPES.get(b.data_type, a["data_type"]),
                  f"{path}:{gpath}: initializer {b.name}")
            if b.data_type == onnx.TensorProto.STRING or not a.get("values"):
                continue
            arr = numpy_helper.to_array(b).astype(np.complex128 if np.iscomplexobj(numpy_helper.to_array(b)) else np.float64)
            if np.iscomplexobj(arr):
                continue
            flat = arr.flatten()
            check(np.allclose(a["values"], flat[:4], rtol=1e-7, atol=0, equal_nan=True),
                  f"{path}:{gpath}: first values of {b.name}: {a['values']} vs {flat[:4]}")
            finite = flat[np.isfinite(flat)]
            if len(finite) and "min" in a:
                check(a["min"] == finite.min() and a["max"] == finite.max() and
                      np.isclose(a["mean"], finite.mean(), rtol=1e-9),
                      f"{path}:{gpath}: min/max/mean of {b.name}")
        # One node in full: attributes and types, for nodes with unique plain names.
        names = [n.name for n in g.node]
        for n in g.node:
            if not n.name or names.count(n.name) != 1 or not plain(n.name):
                continue
            d = nnav("node", path, n.name, "--graph", gpath)
            # The file's attributes; the schema's defaults follow them (default: true).
            d["attribute"] = [x for x in d["attribute"] if not x.get("default")]
            check([(x["name"], x["type"]) for x in d["attribute"]] ==
                  [(x.name, ATYPES[x.type]) for x in n.attribute],
                  f"{path}:{gpath}: attributes of {n.name}")
            for x, y in zip(d["attribute"], n.attribute):
                if y.type == onnx.AttributeProto.INT:
                    check(x["value"] == y.i, f"{path}: {n.name}.{y.name} int")
                elif y.type == onnx.AttributeProto.INTS:
                    check(x["value"] == list(y.ints), f"{path}: {n.name}.{y.name} ints")
                elif y.type == onnx.AttributeProto.FLOAT:
                    check(abs(x["value"] - y.f) <= 1e-6 * max(1, abs(y.f)), f"{path}: {n.name}.{y.name} float")
                elif y.type == onnx.AttributeProto.STRING:
                    check(x["value"] == y.s.decode("utf-8", "replace"), f"{path}: {n.name}.{y.name} string")
    for f in model.functions:
        fp = "@" + f.name
        if plain(fp) and fp in tree:
            check(tree[fp]["nodes"] == len(f.node), f"{path}: function {f.name} nodes")
        elif plain(fp):
            check(any(t.get("function_name") == f.name for t in tree.values()),
                  f"{path}: function {f.name} missing")


for p in sys.argv[2:]:
    try:
        compare(p)
    except subprocess.CalledProcessError as e:
        problems.append(f"{p}: nnav failed: {e.stderr.decode(errors='replace')}")
    print(f"compared {p}")

for p in problems:
    print("DIFF:", p)
print(f"{len(sys.argv) - 2 - len({p.split(':')[0] for p in problems})} passed, "
      f"{len({p.split(':')[0] for p in problems})} failed")
sys.exit(1 if problems else 0)
