#!/usr/bin/env python3
"""Models whose shapes are products, quotients and sums of symbolic dims
(Flatten, Reshape with -1, shape arithmetic with Div and Mul feeding
ConstantOfShape), the pattern of PaddleOCR rec's flatten_14.tmp_0
(N*120*(S+1) / (N*120)), with what each value's shape really is, computed
here from the operators' definitions at a binding of N and S.

usage: symdims_gen.py OUTDIR
writes OUTDIR/symdims_*.onnx and OUTDIR/symdims.json:
  {file: {value: {"dims": [python expression over N and S, ...],
                  "text": [nnav's exact text per dim, or null]}}}
"text" pins the simplified spelling where it is unique (a product divided by
its own factors is its other factors)."""
import json
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
expect = {}


def i64(name, vals, scalar=False):
    return h.make_tensor(name, T.INT64, [] if scalar else [len(vals)], vals)


def save(fname, nodes, inputs, outputs, inits, values):
    g = h.make_graph(nodes, fname[:-5], inputs,
                     [h.make_tensor_value_info(o, T.FLOAT, [None] * len(values[o]["dims"]))
                      for o in outputs], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m, full_check=True)
    onnx.save(m, os.path.join(out, fname))
    expect[fname] = values  # "__folded__": {value: its real data}, computed here


# z = x ++ y on the last axis: [N, 120, S+1]; then Flatten and Reshape.
x = h.make_tensor_value_info("x", T.FLOAT, ["N", 120, "S"])
y = h.make_tensor_value_info("y", T.FLOAT, ["N", 120, 1])
nodes = [
    h.make_node("Concat", ["x", "y"], ["z"], axis=2),
    h.make_node("Flatten", ["z"], ["flat1"], axis=1),
    h.make_node("Flatten", ["z"], ["flat2"], axis=2),
    h.make_node("Reshape", ["z", "to_m1_120"], ["rows120"]),
    h.make_node("Reshape", ["z", "to_0_m1"], ["keep0"]),
    h.make_node("Reshape", ["z", "to_0_2_m1"], ["halves"]),
    # The shape [N*120, -1] computed from z's own shape (PaddleOCR's pattern):
    h.make_node("Shape", ["z"], ["zs"]),
    h.make_node("Gather", ["zs", "i0"], ["zn"]),
    h.make_node("Gather", ["zs", "i1"], ["zc"]),
    h.make_node("Mul", ["zn", "zc"], ["znc"]),
    h.make_node("Concat", ["znc", "m1"], ["to_nc_m1"], axis=0),
    h.make_node("Reshape", ["z", "to_nc_m1"], ["flatten_14"]),
    h.make_node("Unsqueeze", ["flatten_14", "ax0"], ["flat4"]),
    h.make_node("Reshape", ["flat4", "to_m1_120"], ["back"]),
]
inits = [i64("to_m1_120", [-1, 120]), i64("to_0_m1", [0, -1]), i64("to_0_2_m1", [0, 2, -1]),
         i64("i0", [0]), i64("i1", [1]), i64("m1", [-1]), i64("ax0", [0])]
save("symdims_flatten.onnx", nodes, [x, y],
     ["flat1", "flat2", "rows120", "keep0", "halves", "flatten_14", "back"], inits, {
         "z": {"dims": ["N", "120", "S+1"], "text": ["N", "120", "S+1"]},
         "flat1": {"dims": ["N", "120*(S+1)"], "text": ["N", None]},
         "flat2": {"dims": ["N*120", "S+1"], "text": [None, "S+1"]},
         "rows120": {"dims": ["N*(S+1)", "120"], "text": ["N*(S+1)", "120"]},
         "keep0": {"dims": ["N", "120*(S+1)"], "text": ["N", None]},
         "halves": {"dims": ["N", "2", "60*(S+1)"], "text": ["N", "2", None]},
         "flatten_14": {"dims": ["N*120", "S+1"], "text": [None, "S+1"]},
         "flat4": {"dims": ["1", "N*120", "S+1"], "text": ["1", None, "S+1"]},
         "back": {"dims": ["N*(S+1)", "120"], "text": ["N*(S+1)", "120"]},
     })

# Shape arithmetic on N and S feeding ConstantOfShape: the output's one dim
# is the computed number, floor division included.
x = h.make_tensor_value_info("x", T.FLOAT, ["N", "S"])
nodes = [
    h.make_node("Shape", ["x"], ["xs"]),
    h.make_node("Gather", ["xs", "i0"], ["n"]),
    h.make_node("Gather", ["xs", "i1"], ["s"]),
    h.make_node("Add", ["s", "one"], ["s1"]),
    h.make_node("Sub", ["s", "one"], ["sm1"]),
    h.make_node("Mul", ["n", "s"], ["ns"]),
    h.make_node("Div", ["s", "two"], ["s_2"]),
    h.make_node("Div", ["s1", "two"], ["s1_2"]),
]
values = {}
cases = [  # (output, nodes making it from the above, its size)
    ("n_times_s_half", [("Mul", ["n", "s_2"])], "N*(S//2)"),
    ("s_half_times_n", [("Mul", ["s_2", "n"])], "(S//2)*N"),
    ("n_over_ns", [("Div", ["n", "ns"])], "N//(N*S)"),
    ("ns_over_s", [("Div", ["ns", "s"])], "N"),
    ("ns_over_n", [("Div", ["ns", "n"])], "S"),
    ("n_times_s1_half", [("Mul", ["n", "s1_2"])], "N*((S+1)//2)"),
    ("n_s1_over_2", [("Mul", ["n", "s1"]), ("Div", ["@", "two"])], "(N*(S+1))//2"),
    ("ns_minus_s_half", [("Sub", ["ns", "s_2"])], "N*S-S//2"),
    ("ns_minus_sm1", [("Sub", ["ns", "sm1"])], "N*S-(S-1)"),
    ("ns_over_sm1", [("Div", ["ns", "sm1"])], "(N*S)//(S-1)"),
    ("n_over_s_times_s", [("Div", ["n", "s"]), ("Mul", ["@", "s"])], "(N//S)*S"),
    ("n_s1_over_n_s1_2", [("Mul", ["n", "s1"]), ("Mul", ["n", "s1_2"]), ("Div", ["@1", "@"])],
     "(N*(S+1))//(N*((S+1)//2))"),
    ("ns_s1_over_ns", [("Mul", ["ns", "s1"]), ("Div", ["@", "ns"])], "S+1"),
    ("n_over_s_over_2", [("Div", ["n", "s"]), ("Div", ["@", "two"])], "N//S//2"),
    ("neg_s_half", [("Sub", ["zero", "s_2"]), ("Neg", ["@"]), ("Mul", ["@", "n"])],
     "(S//2)*N"),
]
outs = []
for name, steps, size in cases:
    prev = []
    for k, (op, ins) in enumerate(steps):
        ins = [prev[-1] if a == "@" else prev[-2] if a == "@1" else a for a in ins]
        o = "%s_%d" % (name, k)
        nodes.append(h.make_node(op, ins, [o]))
        prev.append(o)
    nodes.append(h.make_node("ConstantOfShape", [prev[-1]], [name]))
    outs.append(name)
    values[name] = {"dims": [size], "text": [None]}
values["ns_over_s"]["text"] = ["N"]
values["ns_over_n"]["text"] = ["S"]
values["ns_s1_over_ns"]["text"] = ["S+1"]
inits = [i64("i0", [0]), i64("i1", [1]), i64("one", [1], True), i64("two", [2], True),
         i64("zero", [0], True)]
save("symdims_arith.onnx", nodes, [x], outs, inits, values)

# Unary ops on a folded shape: only Identity, Floor, Ceil and Round leave
# the value as it is; Abs and Relu are worked out; Sign and Clip are not the
# input (nnav may not know them, but must not give the input's value).
x = h.make_tensor_value_info("x", T.FLOAT, ["N", "S"])
nodes = [
    h.make_node("Shape", ["x"], ["xs"]),
    h.make_node("Neg", ["xs"], ["neg"]),
    h.make_node("Abs", ["neg"], ["abs"]),
    # Relu by way of float (ONNX Runtime has no int64 Relu): a float fold
    h.make_node("Cast", ["neg"], ["neg_f"], to=T.FLOAT),
    h.make_node("Relu", ["neg_f"], ["relu_f"]),
    h.make_node("Cast", ["relu_f"], ["relu"], to=T.INT64),
    h.make_node("Cast", ["xs"], ["xs_f"], to=T.FLOAT),
    h.make_node("Relu", ["xs_f"], ["relu_pos_f"]),
    h.make_node("Cast", ["relu_pos_f"], ["relu_pos"], to=T.INT64),
    h.make_node("Sign", ["xs"], ["sign"]),
    h.make_node("Clip", ["xs", "", "two"], ["clip"]),
    h.make_node("Identity", ["xs"], ["ident"]),
]
values = {}
for v, size, known in [("abs", ["N", "S"], 1), ("relu", ["0", "0"], 1), ("relu_pos", ["N", "S"], 1),
                       ("sign", ["1", "1"], 0), ("clip", ["min(N,2)", "min(S,2)"], 0),
                       ("ident", ["N", "S"], 1)]:
    nodes.append(h.make_node("ConstantOfShape", [v], ["of_" + v]))
    values["of_" + v] = {"dims": size, "text": [None, None], "may_be_unknown": not known}
save("symdims_unary.onnx", nodes, [x], sorted(values),
     [i64("two", [2], True)], values)

# Slices to the end and back to the start: torch writes INT64_MAX and
# -INT64_MAX as Constant nodes; a folded constant shown must be that value,
# not the 2^62 the dims arithmetic clamps it to.
I64MAX = 2 ** 63 - 1
x = h.make_tensor_value_info("x", T.FLOAT, ["N", "S"])
nodes = [
    h.make_node("Constant", [], ["one"], value=i64("v1", [1])),
    h.make_node("Constant", [], ["end"], value=i64("v2", [I64MAX])),
    h.make_node("Constant", [], ["start_back"], value=i64("v3", [-1])),
    h.make_node("Constant", [], ["end_back"], value=i64("v4", [-I64MAX])),
    h.make_node("Constant", [], ["step_back"], value=i64("v5", [-1])),
    h.make_node("Slice", ["x", "one", "end", "one"], ["tail"]),
    h.make_node("Slice", ["x", "start_back", "end_back", "one", "step_back"], ["reversed"]),
]
save("symdims_slice.onnx", nodes, [x], ["tail", "reversed"], [], {
    "tail": {"dims": ["N", "S-1"], "text": ["N", "S-1"]},
    "reversed": {"dims": ["N", "S"], "text": ["N", "S"]},
})

# Shape arithmetic in float32 past 2^24 is not exact: ReduceProd of
# [4097, 4097] cast to float is 16785408, not 16785409. A folded value
# nnav shows must be the float result (or nnav shows none).
x = h.make_tensor_value_info("x", T.FLOAT, ["N", "S"])
nodes = [
    h.make_node("Constant", [], ["big"], value=i64("v1", [4097, 4097])),
    h.make_node("Cast", ["big"], ["big_f"], to=T.FLOAT),
    h.make_node("ReduceProd", ["big_f"], ["prod_f"], keepdims=1),
    h.make_node("Cast", ["prod_f"], ["prod"], to=T.INT64),
    h.make_node("Cast", ["big"], ["big_f2"], to=T.FLOAT),
    h.make_node("Mul", ["big_f2", "big_f2"], ["sq_f"]),
    h.make_node("Cast", ["sq_f"], ["sq"], to=T.INT64),
    h.make_node("Concat", ["prod", "sq"], ["both"], axis=0),
    h.make_node("Add", ["both", "z"], ["sums"]),
    h.make_node("Shape", ["x"], ["xs"]),
    h.make_node("Reshape", ["x", "xs"], ["same"]),
]
z = h.make_tensor_value_info("z", T.INT64, [3])
save("symdims_floatprod.onnx", nodes, [x, z], ["same"], [], {
    "same": {"dims": ["N", "S"], "text": ["N", "S"]},
    "__folded__": {"prod": [16785408], "sq": [16785408, 16785408],
                   "both": [16785408, 16785408, 16785408]},
})

with open(os.path.join(out, "symdims.json"), "w") as f:
    json.dump(expect, f, indent=1, sort_keys=True)
