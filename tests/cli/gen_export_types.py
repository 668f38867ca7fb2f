#!/usr/bin/env python3
"""Models for export_fullcheck (issue 15, items 4 and 7), written to the folder
given as the first argument.

types.onnx: value_info as onnx's own shape inference leaves it for values it
  cannot shape (an element type alone: 'sq', 'rs'), one with a partial shape
  ('r': an axis named 'width' that inference sizes 2, then an axis with a
  denotation and no size, a TypeProto denotation), where nnav infers every shape
  (Squeeze's axes and Reshape's shape fold from Shape). The model itself
  passes onnx.checker.check_model(full_check=True).
training.onnx: a model doc_string and a training_info (initialization and
  algorithm graphs, both bindings) that a whole-graph export must keep."""
import os
import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h

out = sys.argv[1]


def types_model():
    i64 = lambda name, v: h.make_node("Constant", [], [name], name="c_" + name,
                                       value=h.make_tensor("v", T.INT64, [1], [v]))
    nodes = [
        h.make_node("Shape", ["X"], ["s"], name="shape"),
        i64("one", 1),
        i64("two", 2),
        h.make_node("Slice", ["s", "one", "two"], ["ax"], name="slice"),
        h.make_node("Squeeze", ["X", "ax"], ["sq"], name="squeeze"),
        h.make_node("Relu", ["sq"], ["r"], name="relu"),
        h.make_node("Shape", ["r"], ["s2"], name="shape2"),
        h.make_node("Reshape", ["r", "s2"], ["rs"], name="reshape"),
        h.make_node("Identity", ["rs"], ["Y"], name="id"),
    ]
    r = h.make_tensor_value_info("r", T.FLOAT, ["width", None])
    r.type.denotation = "TENSOR"
    r.type.tensor_type.shape.dim[1].denotation = "DATA_CHANNEL"
    vi = [h.make_tensor_value_info("sq", T.FLOAT, None), r,
          h.make_tensor_value_info("rs", T.FLOAT, None)]
    g = h.make_graph(nodes, "types", [h.make_tensor_value_info("X", T.FLOAT, [2, 1, 3])],
                     [h.make_tensor_value_info("Y", T.FLOAT, [2, 3])], value_info=vi)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def training_model():
    w = h.make_tensor("W", T.FLOAT, [2], [1.0, 2.0])
    g = h.make_graph([h.make_node("Mul", ["X", "W"], ["Y"], name="mul")], "main",
                     [h.make_tensor_value_info("X", T.FLOAT, [2])],
                     [h.make_tensor_value_info("Y", T.FLOAT, [2])], initializer=[w])
    init = h.make_graph([h.make_node("Constant", [], ["W0"], name="init_w",
                                     value=h.make_tensor("v", T.FLOAT, [2], [0.5, 0.5]))],
                        "initialization", [], [h.make_tensor_value_info("W0", T.FLOAT, [2])])
    lr = h.make_tensor("lr", T.FLOAT, [], [0.1])
    algo = h.make_graph([h.make_node("Mul", ["W", "lr"], ["dW"], name="step"),
                         h.make_node("Sub", ["W", "dW"], ["W_new"], name="update")],
                        "algorithm", [], [h.make_tensor_value_info("W_new", T.FLOAT, [2])],
                        initializer=[lr])
    ti = onnx.TrainingInfoProto()
    ti.initialization.CopyFrom(init)
    ti.algorithm.CopyFrom(algo)
    ti.initialization_binding.add(key="W", value="W0")
    ti.update_binding.add(key="W", value="W_new")
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8,
                     doc_string="a model's own doc string \u2713")
    m.training_info.append(ti)
    onnx.checker.check_model(m)
    return m


onnx.save(types_model(), os.path.join(out, "types.onnx"))
onnx.save(training_model(), os.path.join(out, "training.onnx"))
