#!/usr/bin/env python3
"""Models whose external data sits below the top level, and the check of an
export of them against the ONNX package (run by export_external.sh).

  gen DIR          write the models into DIR (each with its own data file)
  compare IN OUT   every tensor of OUT, wherever it sits (initializers of any
                   graph, Constant values, TENSOR/TENSORS/SPARSE_TENSOR(S)
                   attributes, sparse initializers, function bodies), holds the
                   values of the same tensor of IN, external data loaded from
                   each model's own folder; OUT names no data file but its own
                   OUT.data; onnx.checker passes on OUT where it passes on IN.
                   Exit 0 when all agree, 1 with one line per difference.

onnx.load (1.12) loads external data for graph initializers and node
attribute tensors only, not for function bodies or sparse tensors, so this
walks the protos itself and loads each external tensor with
external_data_helper.load_external_data_for_tensor."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.external_data_helper import load_external_data_for_tensor

OPSET = [helper.make_opsetid("", 13)]


class DataFile:
    """Appends tensors' bytes to one data file, 64-byte aligned, and turns the
    tensors external with the location given (which may leave the folder)."""

    def __init__(self, path, location):
        self.path, self.location = path, location
        self.f = open(path, "wb")

    def put(self, t):
        pad = (-self.f.tell()) % 64
        self.f.write(b"\0" * pad)
        off = self.f.tell()
        raw = t.raw_data if t.raw_data else numpy_helper.to_array(t).tobytes()
        self.f.write(raw)
        for fld in ("raw_data", "float_data", "int32_data", "int64_data", "double_data"):
            t.ClearField(fld)
        t.data_location = TensorProto.EXTERNAL
        for k, v in (("location", self.location), ("offset", str(off)), ("length", str(len(raw)))):
            e = t.external_data.add()
            e.key, e.value = k, v
        return t

    def close(self):
        self.f.close()


def arr(n, base, dtype=np.float32):
    return (np.arange(n, dtype=np.float64) * 0.25 + base).astype(dtype)


def tensor(name, n, base, dtype=np.float32):
    return numpy_helper.from_array(arr(n, base, dtype), name)


def const(out, t, name):
    return helper.make_node("Constant", [], [out], name=name, value=t)


def vi(name, n):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, [n])


def save(model, path):
    onnx.save(model, path)


def gen(d):
    os.makedirs(d, exist_ok=True)

    # 1. A Constant's value at top level.
    df = DataFile(os.path.join(d, "const_top.bin"), "const_top.bin")
    c = const("c", df.put(tensor("cval", 6, 1.0)), "Constant_top")
    g = helper.make_graph([c, helper.make_node("Relu", ["c"], ["y"], name="Relu_0")], "main", [],
                          [vi("y", 6)])
    df.close()
    save(helper.make_model(g, opset_imports=OPSET), os.path.join(d, "const_top.onnx"))

    # 2. An If whose then-branch has an external initializer (and the else
    # branch a Constant with external data); 3. a Loop body's Constant.
    df = DataFile(os.path.join(d, "bodies.bin"), "bodies.bin")
    then_g = helper.make_graph([helper.make_node("Identity", ["then_w"], ["t_out"], name="Id_then")],
                               "then_branch", [], [vi("t_out", 5)],
                               initializer=[df.put(tensor("then_w", 5, 10.0))])
    else_g = helper.make_graph([const("e_out", df.put(tensor("else_c", 5, 20.0)), "Const_else")],
                               "else_branch", [], [vi("e_out", 5)])
    if_n = helper.make_node("If", ["cond"], ["if_out"], name="If_0", then_branch=then_g,
                            else_branch=else_g)
    body = helper.make_graph(
        [const("k", df.put(tensor("loop_c", 3, 30.0)), "Const_loop"),
         helper.make_node("Identity", ["cond_in"], ["cond_out"], name="Id_cond"),
         helper.make_node("Add", ["acc_in", "k"], ["acc_out"], name="Add_loop")],
        "loop_body",
        [helper.make_tensor_value_info("iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []), vi("acc_in", 3)],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []), vi("acc_out", 3)])
    loop_n = helper.make_node("Loop", ["trip", "", "acc0"], ["acc_final"], name="Loop_0", body=body)
    g = helper.make_graph(
        [if_n, loop_n], "main",
        [helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
         helper.make_tensor_value_info("trip", TensorProto.INT64, []), vi("acc0", 3)],
        [vi("if_out", 5), vi("acc_final", 3)])
    df.close()
    save(helper.make_model(g, opset_imports=OPSET), os.path.join(d, "bodies.onnx"))

    # 4. A model-local function whose body holds a Constant with external data.
    df = DataFile(os.path.join(d, "func.bin"), "func.bin")
    fn = helper.make_function(
        "local", "AddBias", ["x"], ["y"],
        [const("b", df.put(tensor("fn_bias", 4, 40.0)), "Const_fn"),
         helper.make_node("Add", ["x", "b"], ["y"], name="Add_fn")],
        OPSET)
    call = helper.make_node("AddBias", ["x"], ["fy"], name="Call_0", domain="local")
    g = helper.make_graph([call], "main", [vi("x", 4)], [vi("fy", 4)])
    df.close()
    save(helper.make_model(g, opset_imports=OPSET + [helper.make_opsetid("local", 1)],
                           functions=[fn]),
         os.path.join(d, "func.onnx"))

    # 5. A node of an unregistered domain with TENSORS and SPARSE_TENSOR
    # attributes, a sparse initializer in an If branch, and the function
    # again (onnx.checker refuses external sparse tensors: the values are
    # compared, the checker is not asked to pass).
    df = DataFile(os.path.join(d, "attrs.bin"), "attrs.bin")
    fn = helper.make_function(
        "local", "AddBias", ["x"], ["y"],
        [const("b", df.put(tensor("fn_bias", 4, 45.0)), "Const_fn"),
         helper.make_node("Add", ["x", "b"], ["y"], name="Add_fn")],
        OPSET)
    sp_vals = df.put(tensor("sp_vals", 2, 50.0))
    sp_idx = df.put(numpy_helper.from_array(np.array([1, 3], dtype=np.int64), "sp_idx"))
    holder = helper.make_node(
        "Holder", ["x"], ["h"], name="Holder_0", domain="com.example",
        ts=[df.put(tensor("ts0", 2, 60.0)), df.put(tensor("ts1", 3, 70.0))],
        sp=helper.make_sparse_tensor(sp_vals, sp_idx, [4]))
    bsp = helper.make_sparse_tensor(df.put(tensor("bsp", 2, 80.0)),
                                    df.put(numpy_helper.from_array(np.array([0, 2], dtype=np.int64),
                                                                   "bsp_idx")), [4])
    then_g = helper.make_graph([helper.make_node("Identity", ["bsp"], ["s_out"], name="Id_sp")],
                               "then_branch", [], [vi("s_out", 4)], sparse_initializer=[bsp])
    else_g = helper.make_graph([helper.make_node("Identity", ["x"], ["s_out2"], name="Id_x")],
                               "else_branch", [], [vi("s_out2", 4)])
    if_n = helper.make_node("If", ["cond"], ["sel"], name="If_sp", then_branch=then_g,
                            else_branch=else_g)
    g = helper.make_graph([call, holder, if_n], "main",
                          [vi("x", 4), helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
                          [vi("fy", 4), vi("sel", 4)])
    df.close()
    save(helper.make_model(g, opset_imports=OPSET + [helper.make_opsetid("local", 1),
                                                     helper.make_opsetid("com.example", 1)],
                           functions=[fn]),
         os.path.join(d, "attrs.onnx"))

    # 6. External data named only by a sparse_tensor attribute, which nnav's
    # index keeps no tensor for.
    df = DataFile(os.path.join(d, "sparse_attr.bin"), "sparse_attr.bin")
    holder = helper.make_node(
        "Holder", ["x"], ["h"], name="Holder_1", domain="com.example",
        sp=helper.make_sparse_tensor(df.put(tensor("sa_vals", 2, 90.0)),
                                     df.put(numpy_helper.from_array(np.array([0, 1], dtype=np.int64),
                                                                    "sa_idx")), [3]))
    g = helper.make_graph([holder], "main", [vi("x", 4)], [vi("h", 4)])
    df.close()
    save(helper.make_model(g, opset_imports=OPSET + [helper.make_opsetid("com.example", 1)]),
         os.path.join(d, "sparse_attr.onnx"))

    # 7. Locations that leave the model's folder: in a body initializer, and
    # at top level for comparison. The model sits in DIR/m/, the data in DIR/.
    os.makedirs(os.path.join(d, "m"), exist_ok=True)
    for name, top in (("secret_body", False), ("secret_top", True)):
        df = DataFile(os.path.join(d, "secret.bin"), "../secret.bin")
        w = df.put(tensor("stolen", 4, 99.0))
        df.close()
        if top:
            g = helper.make_graph([helper.make_node("Relu", ["stolen"], ["y"], name="Relu_s")],
                                  "main", [], [vi("y", 4)], initializer=[w])
        else:
            then_g = helper.make_graph(
                [helper.make_node("Identity", ["stolen"], ["t_out"], name="Id_s")],
                "then_branch", [], [vi("t_out", 4)], initializer=[w])
            else_g = helper.make_graph(
                [helper.make_node("Identity", ["x"], ["e_out"], name="Id_e")],
                "else_branch", [], [vi("e_out", 4)])
            g = helper.make_graph(
                [helper.make_node("If", ["cond"], ["y"], name="If_s", then_branch=then_g,
                                  else_branch=else_g)],
                "main", [vi("x", 4), helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
                [vi("y", 4)])
        save(helper.make_model(g, opset_imports=OPSET), os.path.join(d, "m", name + ".onnx"))


# ---- compare ----

def tensors_of_graph(g, path, out):
    for i, t in enumerate(g.initializer):
        out.append((f"{path}/init:{t.name}", t))
    for i, s in enumerate(g.sparse_initializer):
        out.append((f"{path}/sparse[{i}].values", s.values))
        out.append((f"{path}/sparse[{i}].indices", s.indices))
    for n in g.node:
        tensors_of_node(n, f"{path}/{n.name}", out)


def tensors_of_node(n, path, out):
    for a in n.attribute:
        p = f"{path}.{a.name}"
        if a.HasField("t"):
            out.append((p, a.t))
        for i, t in enumerate(a.tensors):
            out.append((f"{p}[{i}]", t))
        if a.HasField("sparse_tensor"):
            out.append((p + ".values", a.sparse_tensor.values))
            out.append((p + ".indices", a.sparse_tensor.indices))
        for i, s in enumerate(a.sparse_tensors):
            out.append((f"{p}[{i}].values", s.values))
            out.append((f"{p}[{i}].indices", s.indices))
        if a.HasField("g"):
            tensors_of_graph(a.g, p, out)
        for i, sub in enumerate(a.graphs):
            tensors_of_graph(sub, f"{p}[{i}]", out)


def all_tensors(model):
    out = []
    tensors_of_graph(model.graph, "", out)
    for f in model.functions:
        for n in f.node:
            tensors_of_node(n, f"@{f.domain}.{f.name}/{n.name}", out)
        for a in (f.attribute_proto if hasattr(f, "attribute_proto") else []):
            if a.HasField("t"):
                out.append((f"@{f.domain}.{f.name}.{a.name}", a.t))
    return out


def values(path, bad):
    """{key: (external location or None, numpy array or None)} for every tensor;
    a tensor whose data cannot be read is None, with a line in bad."""
    m = onnx.load(path, load_external_data=False)
    base = os.path.dirname(os.path.abspath(path))
    res = {}
    for key, t in all_tensors(m):
        loc = None
        try:
            if t.data_location == TensorProto.EXTERNAL:
                loc = {e.key: e.value for e in t.external_data}.get("location")
                load_external_data_for_tensor(t, base)
                t.data_location = TensorProto.DEFAULT  # to_array would load it again, from .
                del t.external_data[:]
            res[key] = (loc, numpy_helper.to_array(t))
        except Exception as e:  # noqa: BLE001 - a missing or short data file
            bad.append(f"{os.path.basename(path)} {key}: data unreadable: {e}")
            res[key] = (loc, None)
    return res


def checks(path):
    try:
        onnx.checker.check_model(path)
        return None
    except Exception as e:  # noqa: BLE001 - any checker complaint
        return str(e).splitlines()[0]


def compare(inp, out):
    bad = []
    a, b = values(inp, bad), values(out, bad)
    if sorted(a) != sorted(b):
        bad.append(f"tensors differ: only in input {sorted(set(a) - set(b))}, "
                   f"only in output {sorted(set(b) - set(a))}")
    own = os.path.basename(out) + ".data"
    n_ext = 0
    for key in sorted(set(a) & set(b)):
        (la, va), (lb, vb) = a[key], b[key]
        n_ext += la is not None
        if lb is not None and lb != own:
            bad.append(f"{key}: output names data file {lb!r}, not {own!r}")
        if va is None or vb is None:
            continue
        if va.dtype != vb.dtype or va.shape != vb.shape or not np.array_equal(va, vb):
            bad.append(f"{key}: values differ ({va.dtype}{list(va.shape)} vs "
                       f"{vb.dtype}{list(vb.shape)})")
    ci, co = checks(inp), checks(out)
    if ci is None and co is not None:
        bad.append(f"onnx.checker passes on the input but not on the output: {co}")
    for line in bad:
        print("FAIL:", line)
    print(f"{os.path.basename(out)}: {len(b)} tensors ({n_ext} external in the input) compared, "
          f"checker {'ok' if co is None else 'fails: ' + co}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
