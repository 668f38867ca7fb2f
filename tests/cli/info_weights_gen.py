#!/usr/bin/env python3
"""A model whose weights sit in several graphs, for info_weights.sh (issue 15,
item 9): the main graph holds initializer W (float [2,3], 24 bytes) and a
sparse initializer SP (2 float values, 8 bytes, dense [4]); an If's then
branch holds B (float [5], 20 bytes); training_info's algorithm holds lr
(float scalar, 4 bytes). Main graph: 1 initializer (+1 sparse), 32 bytes,
8 parameters; all graphs: 3 (+1 sparse), 56 bytes, 14 parameters.
Writes the model to the path given."""
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

f32 = lambda name, shape: nh.from_array(np.arange(np.prod(shape), dtype=np.float32)
                                         .reshape(shape), name)
then_g = h.make_graph([h.make_node("Add", ["X", "B"], ["t"], name="then_add")], "then", [],
                      [h.make_tensor_value_info("t", T.FLOAT, [5])], initializer=[f32("B", [5])])
else_g = h.make_graph([h.make_node("Identity", ["X"], ["e"], name="else_id")], "else", [],
                      [h.make_tensor_value_info("e", T.FLOAT, [5])])
sp = onnx.SparseTensorProto()
sp.values.CopyFrom(nh.from_array(np.array([1.5, 2.5], dtype=np.float32), "SP"))
sp.indices.CopyFrom(nh.from_array(np.array([0, 3], dtype=np.int64), "SP_indices"))
sp.dims.extend([4])
g = h.make_graph([h.make_node("If", ["C"], ["Y"], name="if", then_branch=then_g,
                              else_branch=else_g),
                  h.make_node("MatMul", ["A", "W"], ["Z"], name="mm"),
                  h.make_node("Add", ["P", "SP"], ["Q"], name="add_sp")],
                 "weights", [h.make_tensor_value_info("C", T.BOOL, []),
                             h.make_tensor_value_info("X", T.FLOAT, [5]),
                             h.make_tensor_value_info("A", T.FLOAT, [1, 2]),
                             h.make_tensor_value_info("P", T.FLOAT, [4])],
                 [h.make_tensor_value_info("Y", T.FLOAT, [5]),
                  h.make_tensor_value_info("Z", T.FLOAT, [1, 3]),
                  h.make_tensor_value_info("Q", T.FLOAT, [4])],
                 initializer=[f32("W", [2, 3])], sparse_initializer=[sp])
algo = h.make_graph([h.make_node("Mul", ["W", "lr"], ["W_new"], name="step")], "algorithm", [],
                    [h.make_tensor_value_info("W_new", T.FLOAT, [2, 3])],
                    initializer=[nh.from_array(np.array(0.1, dtype=np.float32), "lr")])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
ti = m.training_info.add()
ti.algorithm.CopyFrom(algo)
ti.update_binding.add(key="W", value="W_new")
onnx.save(m, sys.argv[1])
