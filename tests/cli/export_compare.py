#!/usr/bin/env python3
"""Exports checked against the ONNX package, on real models.

1. Region: for models of the corpus (and the samples), nnav's region between
   a graph input and an intermediate value, written as ONNX, holds exactly the
   nodes onnx.utils.Extractor selects, in the same order, and passes
   onnx.checker.
2. Whole graphs, every body included: the YAML export loads in PyYAML with the
   node count, names, op types, inputs/outputs and attribute values that the
   ONNX package reports; the ONNX export opens again in onnx with the same
   nodes and passes the checker.
Prints one line per check group and a closing 'N passed, N failed' line."""
import os
import subprocess
import sys
import tempfile

import onnx
import onnx.utils
import yaml

NNAV = sys.argv[1]
TMP = tempfile.mkdtemp(prefix="nnav-export-", dir=os.environ.get("NNAV_TMP"))
passed = failed = 0


def report(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def run(*args):
    return subprocess.run([NNAV, *args], check=True, capture_output=True).stdout


def node_key(n):
    return (n.name, n.op_type, tuple(n.input), tuple(n.output))


def attr_value(a):
    T = onnx.AttributeProto
    if a.type == T.INT:
        return a.i
    if a.type == T.FLOAT:
        return a.f
    if a.type == T.STRING:
        return a.s.decode("utf-8")
    if a.type == T.INTS:
        return list(a.ints)
    if a.type == T.FLOATS:
        return list(a.floats)
    if a.type == T.STRINGS:
        return [s.decode("utf-8") for s in a.strings]
    return None


def same_float(x, y):
    return abs(x - y) <= 1e-6 * max(1.0, abs(y))


def compare_graph_yaml(g, y, where):
    ok = len(y["node"]) == len(g.node)
    report(ok, f"{where}: node count {len(y['node'])} vs {len(g.node)}")
    for yn, n in zip(y["node"], g.node):
        report((yn["name"], yn["op_type"], yn["domain"], yn["input"], yn["output"]) ==
               (n.name, n.op_type, n.domain, list(n.input), list(n.output)),
               f"{where}: node {n.name}")
        report([a["name"] for a in yn["attribute"]] == [a.name for a in n.attribute],
               f"{where}: attribute names of {n.name}")
        for ya, a in zip(yn["attribute"], n.attribute):
            want = attr_value(a)
            if a.type in (onnx.AttributeProto.GRAPH,):
                compare_graph_yaml(a.g, ya["value"], where + "/" + (n.name or "?") + "/" + a.name)
            elif a.type == onnx.AttributeProto.GRAPHS:
                for k, (sub, ysub) in enumerate(zip(a.graphs, ya["value"])):
                    compare_graph_yaml(sub, ysub, f"{where}/{n.name}/{a.name}[{k}]")
            elif a.type == onnx.AttributeProto.FLOAT:
                report(same_float(ya["value"], want), f"{where}: {n.name}.{a.name}")
            elif a.type == onnx.AttributeProto.FLOATS:
                report(len(ya["value"]) == len(want) and
                       all(same_float(p, q) for p, q in zip(ya["value"], want)),
                       f"{where}: {n.name}.{a.name}")
            elif want is not None:
                report(ya["value"] == want, f"{where}: {n.name}.{a.name}: {ya['value']} vs {want}")


def check_region(path, inputs, outputs):
    model = onnx.load(path)
    try:
        ext = onnx.utils.Extractor(model)
        ref = ext.extract_model(inputs, outputs)
    except Exception as e:  # the reference cannot do it (no inferred type): skip
        print(f"  (reference extractor failed on {os.path.basename(path)}: {type(e).__name__})")
        return
    out = os.path.join(TMP, "region.onnx")
    run("export", path, "--inputs", ",".join(inputs), "--outputs", ",".join(outputs),
        "--format", "onnx", "-o", out)
    got = onnx.load(out)
    report([node_key(n) for n in got.graph.node] == [node_key(n) for n in ref.graph.node],
           f"{path}: region {inputs}->{outputs}: {len(got.graph.node)} nodes vs "
           f"{len(ref.graph.node)}")
    report(sorted(t.name for t in got.graph.initializer) ==
           sorted(t.name for t in ref.graph.initializer), f"{path}: region initializers")
    # Before IR 4 initializers are listed as inputs as well.
    inits = {t.name for t in got.graph.initializer}
    report([i.name for i in got.graph.input if i.name not in inits] == inputs and
           [o.name for o in got.graph.output] == outputs, f"{path}: region inputs/outputs")
    try:
        onnx.checker.check_model(got)
        report(True, "")
    except Exception as e:
        report(False, f"{path}: region fails onnx.checker: {e}")


def check_whole(path):
    model = onnx.load(path)
    y = yaml.safe_load(run("export", path))
    compare_graph_yaml(model.graph, y["graph"], os.path.basename(path))
    out = os.path.join(TMP, "whole.onnx")
    run("export", path, "--format", "onnx", "-o", out)
    got = onnx.load(out)
    report([node_key(n) for n in got.graph.node] == [node_key(n) for n in model.graph.node],
           f"{path}: whole ONNX export nodes")
    report([t.name for t in got.graph.initializer] == [t.name for t in model.graph.initializer],
           f"{path}: whole ONNX export initializers")
    try:
        onnx.checker.check_model(got)
        report(True, "")
    except Exception as e:
        report(False, f"{path}: whole export fails onnx.checker: {e}")
    # every body on its own, as YAML
    tree = yaml.safe_load(run("tree", path, "--yaml"))
    bodies = [t for t in tree if t["kind"] == "body"]
    todo = [("/", model.graph)]
    found = {}
    while todo:
        p, g = todo.pop()
        found[p] = g
        for i, n in enumerate(g.node):
            for a in n.attribute:
                base = ("" if p == "/" else p) + "/" + (n.name or "#%d" % i) + "/" + a.name
                if a.type == onnx.AttributeProto.GRAPH:
                    todo.append((base, a.g))
                for k, sub in enumerate(a.graphs):
                    todo.append((base + "[%d]" % k, sub))
    for b in bodies:
        if b["path"] in found:
            yb = yaml.safe_load(run("export", path, "--graph", b["path"]))
            compare_graph_yaml(found[b["path"]], yb["graph"], f"{os.path.basename(path)}:{b['path']}")


for path in sys.argv[2:]:
    print("checking", path)
    check_whole(path)
    m = onnx.load(path)
    inits = {t.name for t in m.graph.initializer}
    real_inputs = [i.name for i in m.graph.input if i.name not in inits]
    nodes = m.graph.node
    # onnx.utils.Extractor's search is quadratic: keep the reference to models
    # of a few hundred nodes (ResNet-50 has 415).
    if 8 <= len(nodes) <= 600 and real_inputs:
        for frac in (0.3, 0.6):
            n = nodes[int(len(nodes) * frac)]
            if n.output and n.output[0]:
                check_region(path, real_inputs[:1], [n.output[0]])
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
