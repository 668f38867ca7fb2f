"""Models for whole_cost.sh, each with its MACs computed by hand here.

python3 whole_cost_gen.py DIR writes if.onnx, loop.onnx, lstm.onnx,
const_w.onnx and prints "NAME MACS PARAMS" lines: the expected whole-model
figures."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]


def w(name, shape, seed=0):
    rng = np.random.default_rng(seed)
    return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)


def save(name, graph):
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, f"{out}/{name}")


# If: then = X[1,4] @ A[4,8] (32 MACs); else = X @ B[4,8] @ C[8,8] (32 + 64).
# The whole model costs the dearer branch: 96 MACs.
then_g = helper.make_graph(
    [helper.make_node("MatMul", ["X", "A"], ["t"])], "then",
    [], [helper.make_tensor_value_info("t", TensorProto.FLOAT, [1, 8])], [w("A", [4, 8], 1)])
else_g = helper.make_graph(
    [helper.make_node("MatMul", ["X", "B"], ["e1"]), helper.make_node("MatMul", ["e1", "C"], ["e"])],
    "else", [], [helper.make_tensor_value_info("e", TensorProto.FLOAT, [1, 8])],
    [w("B", [4, 8], 2), w("C", [8, 8], 3)])
save("if.onnx", helper.make_graph(
    [helper.make_node("If", ["cond"], ["Y"], then_branch=then_g, else_branch=else_g)], "ifm",
    [helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
     helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 8])]))
print("if.onnx", max(1 * 4 * 8, 1 * 4 * 8 + 1 * 8 * 8), 32 + 32 + 64)

# Loop with a constant trip count 5: body s[1,4] @ W[4,4] = 16 MACs a trip.
body = helper.make_graph(
    [helper.make_node("Identity", ["c_in"], ["c_out"]),
     helper.make_node("MatMul", ["s_in", "W"], ["s_out"])], "body",
    [helper.make_tensor_value_info("i", TensorProto.INT64, []),
     helper.make_tensor_value_info("c_in", TensorProto.BOOL, []),
     helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("c_out", TensorProto.BOOL, []),
     helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [1, 4])])
save("loop.onnx", helper.make_graph(
    [helper.make_node("Loop", ["M", "cond", "S"], ["Y"], body=body)], "loopm",
    [helper.make_tensor_value_info("S", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 4])],
    [numpy_helper.from_array(np.array(5, np.int64), "M"),
     numpy_helper.from_array(np.array(True), "cond"), w("W", [4, 4], 4)]))
print("loop.onnx", 5 * 1 * 4 * 4, 16)

# LSTM, bidirectional: seq 7, batch 2, input 3, hidden 5, 4 gates.
# MACs = seq * batch * directions * gates * hidden * (input + hidden).
seq, batch, inp, hid, dirs = 7, 2, 3, 5, 2
save("lstm.onnx", helper.make_graph(
    [helper.make_node("LSTM", ["X", "W", "R"], ["Y"], hidden_size=hid, direction="bidirectional")],
    "lstmm", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [seq, batch, inp])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [seq, dirs, batch, hid])],
    [w("W", [dirs, 4 * hid, inp], 5), w("R", [dirs, 4 * hid, hid], 6)]))
print("lstm.onnx", seq * batch * dirs * 4 * hid * (inp + hid), dirs * 4 * hid * (inp + hid))

# Weights held by a Constant node (as PaddleOCR's exporter writes them):
# X[1,16] @ K[16,8]; K's 128 elements are parameters; 128 MACs.
save("const_w.onnx", helper.make_graph(
    [helper.make_node("Constant", [], ["K"], value=w("K", [16, 8], 7)),
     helper.make_node("MatMul", ["X", "K"], ["Y"])], "constm",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 16])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 8])]))
print("const_w.onnx", 128, 128)

# A local function holding its weight in a Constant node, called twice
# (from scopes /a and /b): its 16 weights count once, 2 x 16 MACs.
fn = helper.make_function(
    "local", "F", ["x"], ["y"],
    [helper.make_node("Constant", [], ["K"], value=w("K", [4, 4], 8)),
     helper.make_node("MatMul", ["x", "K"], ["y"])],
    [helper.make_opsetid("", 17)])
g = helper.make_graph(
    [helper.make_node("F", ["X"], ["Y1"], domain="local", name="/a/F"),
     helper.make_node("F", ["Y1"], ["Y"], domain="local", name="/b/F")], "funcm",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 4])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 4])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)],
                      functions=[fn])
m.ir_version = 8
onnx.checker.check_model(m)
onnx.save(m, f"{out}/func.onnx")
print("func.onnx", 2 * 16, 16)

# BatchNormalization in inference: a scale and a shift per element, one MAC
# each (as TensorFlow's FusedBatchNorm); scale and B are 2 x 3 params, mean
# and var torch's buffers (not parameters). [1,3,4,4]: 48 MACs.
save("bn.onnx", helper.make_graph(
    [helper.make_node("BatchNormalization", ["X", "s", "b", "mu", "var"], ["Y"])], "bnm",
    [helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, 4, 4])],
    [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [1, 3, 4, 4])],
    [w("s", [3], 9), w("b", [3], 10), w("mu", [3], 11),
     numpy_helper.from_array(np.ones(3, np.float32), "var")]))
print("bn.onnx", 1 * 3 * 4 * 4, 2 * 3)
