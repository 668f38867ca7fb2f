"""cases_dims.py - malformed dims named for what they are (issue 13, item 15):
a negative dimension says "negative dimension -5 at dims[i]", a product of
dims that overflows says "dims overflow", in info's warnings, in the values
line of tensors, and in TensorFlow's refusal to read values; not that the
stored data does not match. Expectations: expect_dims.txt."""
from make_cases import *


def small_cases():
    c = {}
    # A negative dimension after a good one: the index in dims is named.
    c["dims_neg5.onnx"] = one_init(tensor("w", FLOAT, [3, -5], raw=floats(1, 2, 3)))
    # A product that overflows at the second dim (2^40 x 2^40).
    c["dims_overflow2.onnx"] = one_init(tensor("w", FLOAT, [2**40, 2**40], raw=floats(1)))
    # A negative dimension in a Constant node's tensor (an attribute, not an
    # initializer).
    c["dims_neg_constant.onnx"] = model(graph(
        nodes=[node("Constant", [], ["k"], "k",
                    attrs=[cat(fb(1, "value"), fv(20, 4),
                               fb(5, tensor("kv", FLOAT, [-5], raw=floats(1))))])],
        outputs=["k"]))
    # Seven bad tensors: info names five, then counts the rest.
    c["dims_many_bad.onnx"] = model(graph(
        nodes=[node("Identity", ["w0"], ["y"], "id")],
        inits=[tensor("w%d" % i, FLOAT, [-1 - i], raw=floats(1)) for i in range(7)],
        outputs=["y"]))
    # TensorFlow: a Const whose shape overflows, and one with a negative dim.
    c["tf_dims_overflow.pb"] = tf_graph([tf_const("c", tf_tensor(DT_FLOAT, [2**40, 2**40, 2**40],
                                                                 float_val=[1.0]))])
    c["tf_dims_neg5.pb"] = tf_graph([tf_const("c", tf_tensor(DT_FLOAT, [2, -5],
                                                             float_val=[1.0]))])
    return c
