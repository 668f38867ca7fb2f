#!/usr/bin/env python3
"""Every ONNX export passes onnx.checker.check_model(full_check=True).

Usage: export_fullcheck.py NNAV GENERATED_DIR|- MODEL...

For each model, and for a copy of it passed through
onnx.shape_inference.infer_shapes (which writes an element type alone for a
value it cannot shape), these exports are written as ONNX and fully checked:
every graph `nnav tree` lists but the training graphs (main, If/Loop/Scan
bodies, functions), regions from the graph inputs to the first output of the
node at 25%, 50% and 75% of the main graph, neighbourhoods of depth 1 and 2 of
those nodes, and a depth-1 neighbourhood in every body. An export may fail
the full check only where its source model fails it with the same message
(printed, so the exception is seen).

Then the generated models (gen_export_types.py) are checked exactly:
types.onnx's region inputs and outputs carry the shape nnav inferred where
the file gave an element type alone, keep every axis and denotation the file
gave, and fill only the axis it left empty; training.onnx's whole export
keeps training_info and doc_string, a part of it keeps neither."""
import os
import subprocess
import sys
import tempfile

import onnx
import onnx.shape_inference
import yaml

NNAV, GEN = sys.argv[1], sys.argv[2]
TMP = tempfile.mkdtemp(prefix="nnav-fullcheck-", dir=os.environ.get("NNAV_TMP"))
OUT = os.path.join(TMP, "export.onnx")
passed = failed = 0


def report(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)


def full_check_error(model):
    try:
        onnx.checker.check_model(model, full_check=True)
        return None
    except Exception as e:  # the checker's message is the finding
        return str(e).strip()


def export(path, args):
    """The exported model, or None (a failure reported)."""
    r = subprocess.run([NNAV, "export", path, *args, "--format", "onnx", "-o", OUT],
                       capture_output=True)
    report(r.returncode == 0, f"{path} {args}: nnav exits {r.returncode}: "
           f"{r.stderr.decode(errors='replace').strip()}")
    return onnx.load(OUT) if r.returncode == 0 else None


def selections(path, model):
    tree = yaml.safe_load(subprocess.run([NNAV, "tree", path, "--yaml"], check=True,
                                         capture_output=True).stdout)
    for t in tree:
        if t["kind"] in ("main", "body", "function"):
            yield ["--graph", t["path"]]
    g = model.graph
    inits = {t.name for t in g.initializer}
    inputs = [i.name for i in g.input if i.name not in inits]
    for frac in (0.25, 0.5, 0.75):
        if not g.node:
            break
        n = g.node[int(len(g.node) * frac)]
        if inputs and n.output and n.output[0]:
            yield ["--inputs", ",".join(inputs), "--outputs", n.output[0]]
        if n.name:
            for depth in ("1", "2"):
                yield ["--node", n.name, "--depth", depth]
    # a neighbourhood in each body: paths as `nnav tree` spells them
    for t in tree:
        if t["kind"] != "body":
            continue
        sub = yaml.safe_load(subprocess.run([NNAV, "nodes", path, "--graph", t["path"], "--yaml"],
                                            check=True, capture_output=True).stdout)
        named = [n for n in (sub or []) if n.get("name")]
        if named:
            yield ["--graph", t["path"], "--node", named[len(named) // 2]["name"]]


def sweep(path, label):
    model = onnx.load(path)
    src_err = full_check_error(model)
    n = accepted = 0
    for args in selections(path, model):
        got = export(path, args)
        if got is None:
            continue
        n += 1
        err = full_check_error(got)
        if err is not None and err == src_err:
            accepted += 1
            continue
        report(err is None, f"{label} {args}: the export fails the full check: {err}")
    note = ""
    if accepted:
        note = f"; {accepted} fail it as the source itself does: {src_err.splitlines()[0]}"
    print(f"{label}: {n} exports fully checked{note}")


def shape_of(vi):
    t = vi.type.tensor_type
    return (t.elem_type, t.HasField("shape"),
            [d.dim_value if d.HasField("dim_value") else d.dim_param if d.HasField("dim_param")
             else None for d in t.shape.dim])


def check_generated():
    types = os.path.join(GEN, "types.onnx")
    # 'sq' and 'rs' have an element type alone in the file; nnav sizes both 2x3.
    m = export(types, ["--inputs", "sq", "--outputs", "rs"])
    if m:
        report(shape_of(m.graph.input[0]) == (1, True, [2, 3]) and
               shape_of(m.graph.output[0]) == (1, True, [2, 3]),
               f"types.onnx sq->rs: {m.graph.input} {m.graph.output}")
    m = export(types, ["--inputs", "X", "--outputs", "sq"])
    if m:
        report(shape_of(m.graph.output[0]) == (1, True, [2, 3]),
               f"types.onnx X->sq: output {m.graph.output}")
    # 'r': the file's axis 'width' stays (nnav infers 2), its empty axis gets
    # 3, the denotations stay.
    m = export(types, ["--inputs", "r", "--outputs", "rs"])
    if m:
        r = m.graph.input[0]
        report(shape_of(r) == (1, True, ["width", 3]) and r.type.denotation == "TENSOR" and
               r.type.tensor_type.shape.dim[1].denotation == "DATA_CHANNEL",
               f"types.onnx r->rs: input {r}")
    # A complete type from the file is copied byte for byte.
    m = export(types, ["--inputs", "X", "--outputs", "Y"])
    src = onnx.load(types)
    if m:
        report(m.graph.input[0] == src.graph.input[0] and m.graph.output[0] == src.graph.output[0],
               f"types.onnx X->Y: {m.graph.input} {m.graph.output}")

    training = os.path.join(GEN, "training.onnx")
    src = onnx.load(training)
    m = export(training, [])
    if m:
        report(len(m.training_info) == 1 and m.training_info == src.training_info,
               f"training.onnx whole: training_info {m.training_info}")
        report(m.doc_string == src.doc_string, f"training.onnx whole: doc_string {m.doc_string!r}")
        try:
            onnx.checker.check_model(m)
            report(True, "")
        except Exception as e:
            report(False, f"training.onnx whole fails onnx.checker: {e}")
    m = export(training, ["--node", "mul"])
    if m:
        report(len(m.training_info) == 0 and m.doc_string == "Extracted by nnav",
               f"training.onnx part: training_info {len(m.training_info)}, doc {m.doc_string!r}")


if GEN != "-":
    check_generated()
for path in sys.argv[3:]:
    base = os.path.basename(path)
    sweep(path, base)
    inferred = os.path.join(TMP, "inferred_" + base)
    onnx.save(onnx.shape_inference.infer_shapes(onnx.load(path)), inferred)
    sweep(inferred, base + " (through onnx.shape_inference.infer_shapes)")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
