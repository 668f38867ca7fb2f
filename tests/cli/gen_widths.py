"""Writes the widths tests' model: a chain of MatMul and Relu named the way
exporters name things (scopes 55 and more characters long, initializers
like onnx::MatMul_1634_...), whose values have long types (a symbolic dim
with a long name), and a second input whose type is longer than a box at
80 columns. Prints, for the tests to compare with, one fact a line:
  name NAME          every value's name, in the order nnav shapes lists them
  type NAME TYPE     the type the file declares, as nnav writes a type
  init NAME SHAPE    each initializer's shape, from its bytes (numpy)
  macs N / params N  the graph's MACs at the unset dims = 1 and its
                     parameter count, worked out here from the shapes."""
import sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh

S = "sequence_length_of_the_encoder"
LONG = "the_number_of_frames_the_feature_extractor_made_for_this_clip"
x = "input_hidden_states"
nodes, inits = [], []
for i in range(3):
    p = "/model/encoder/layers.%d/self_attention/attention_block/" % i
    w = "onnx::MatMul_%d_from_the_exporter_with_a_very_long_initializer_name" % (1634 + i)
    inits.append(nh.from_array(np.zeros((64, 64), np.float32), w))
    y = p + "MatMul_output_0"
    nodes.append(h.make_node("MatMul", [x, w], [y], name=p + "MatMul"))
    z = p + "Relu_output_0"
    nodes.append(h.make_node("Relu", [y], [z], name=p + "Relu"))
    x = z
nodes.append(h.make_node("Relu", ["frames"], ["frames_out"], name="frames_relu"))
ins = [h.make_tensor_value_info("input_hidden_states", TP.FLOAT, ["batch", 256, 1, S, 64]),
       h.make_tensor_value_info("frames", TP.FLOAT, ["batch", 256, 1, LONG, 80])]
outs = [h.make_tensor_value_info(x, TP.FLOAT, ["batch", 256, 1, S, 64]),
        h.make_tensor_value_info("frames_out", TP.FLOAT, ["batch", 256, 1, LONG, 80])]
g = h.make_graph(nodes, "main", ins, outs, inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
onnx.save(m, sys.argv[1])

m = onnx.load(sys.argv[1])


def type_of(vi):
    t = vi.type.tensor_type
    dims = [d.dim_param if d.HasField("dim_param") else str(d.dim_value) for d in t.shape.dim]
    return "%s[%s]" % ({TP.FLOAT: "float32"}[t.elem_type], ",".join(dims))


names = [v.name for v in m.graph.input] + [t.name for t in m.graph.initializer]
for n in m.graph.node:
    names += list(n.output)
for n in names:
    print("name", n)
for v in list(m.graph.input) + list(m.graph.output):
    print("type", v.name, type_of(v))
macs = params = 0
for t in m.graph.initializer:
    a = nh.to_array(t)
    print("init", t.name, "float32[%s]" % ",".join(str(d) for d in a.shape))
    params += a.size
for n in m.graph.node:
    if n.op_type == "MatMul":  # [1,256,1,1,K] x [K,N]: 256 rows of K*N
        k, nn = nh.to_array(next(t for t in m.graph.initializer if t.name == n.input[1])).shape
        macs += 256 * k * nn
print("macs", macs)
print("params", params)
