#!/usr/bin/env python3
"""gen_exact_yaml.py OUT.onnx - a model to check nnav's YAML and values against
the ONNX reference bit for bit (issue 15, items 1, 2, 6, 7; exact_yaml.sh):

- one node ("=") with an attribute of every type: FLOAT, INT (INT64_MAX,
  INT64_MIN, 2^53+1), STRING (not UTF-8), TENSOR, GRAPH, FLOATS, INTS, STRINGS
  (['x', ''], ['é'], [b'\\xff'], a YAML-typed word), TENSORS, GRAPHS,
  SPARSE_TENSOR(S), TYPE_PROTO(S);
- hostile names: '<<' (YAML 1.1's merge key), '=', 'yes', '~', '1e3', a tab
  and a control character, unnamed nodes whose outputs others consume;
- an initializer of every integer type at its extremes, raw and in the typed
  fields, int4/uint4/int2/uint2 packed; float64 and float32 edge values
  (denormals, -0.0, inf, nan, 1e+20); Constant nodes without a name;
- a local function with attribute names, attribute_proto defaults (field 11,
  which this onnx version does not know, so appended as bytes) and its own
  opset imports.
Written with onnx.helper; the facts onnx cannot read back (sub-byte types,
attribute_proto) are also written to OUT.expect.json."""
import json
import sys

import numpy as np
from onnx import AttributeProto, FunctionProto, TensorProto, helper, numpy_helper

I64MAX, I64MIN = 2**63 - 1, -2**63
BIG = 2**53 + 1
out = sys.argv[1]


def t_np(name, arr):
    return numpy_helper.from_array(np.array(arr[1], dtype=arr[0]), name)


def typed(name, dt, field, vals, dims=None):
    t = TensorProto(name=name, data_type=dt, dims=[len(vals)] if dims is None else dims)
    getattr(t, field).extend(vals)
    return t


def raw(name, dt, dims, data):
    return TensorProto(name=name, data_type=dt, dims=dims, raw_data=bytes(data))


inits = [
    t_np("i8", (np.int8, [127, -128, 0, -1])),
    t_np("i16", (np.int16, [32767, -32768, 1])),
    t_np("i32", (np.int32, [2**31 - 1, -2**31, 7])),
    t_np("i64", (np.int64, [I64MAX, I64MIN, BIG, -BIG, 0])),
    t_np("u8", (np.uint8, [255, 0, 1])),
    t_np("u16", (np.uint16, [65535, 0])),
    t_np("u32", (np.uint32, [2**32 - 1, 0, 2**31])),
    t_np("u64", (np.uint64, [2**64 - 1, 0, 2**63, BIG])),
    t_np("b", (np.bool_, [True, False, True])),
    t_np("f64", (np.float64, [1e-310, -0.0, 1e+20, float("inf"), float("-inf"), 5e-324,
                             1.7976931348623157e308, 0.1, 1.0, -2.5e-8])),
    t_np("f64nan", (np.float64, [float("nan"), 3.0])),
    t_np("f32", (np.float32, [1e-40, -0.0, 3.4028235e38, 1.0, 0.1])),
    t_np("f16", (np.float16, [65504.0, -0.0, 6e-08, 1.5])),
    t_np("ten_thousand", (np.int64, [1000000, 123456789, -5])),
    typed("i64_typed", TensorProto.INT64, "int64_data", [I64MAX, I64MIN, BIG]),
    typed("i32_typed", TensorProto.INT32, "int32_data", [2**31 - 1, -2**31]),
    typed("u64_typed", TensorProto.UINT64, "uint64_data", [2**64 - 1, 2**63 + 1]),
    typed("u32_typed", TensorProto.UINT32, "uint64_data", [2**32 - 1, 5]),
    typed("i8_typed", TensorProto.INT8, "int32_data", [-128, 127]),
    typed("f64_typed", TensorProto.DOUBLE, "double_data", [1e-310, 1e+20]),
    typed("s", TensorProto.STRING, "string_data", [b"x", b"", "é".encode(), b"\xff", b"<<", b"yes"]),
    # ONNX 1.16's sub-byte types (21 UINT4, 22 INT4, 25 UINT2, 26 INT2), low bits first
    raw("u4", 21, [3], [0x0f | 0x30, 0x0a]),
    raw("i4", 22, [3], [0x87, 0x07]),
    raw("u2", 25, [5], [0b11100100, 0b11]),
    raw("i2", 26, [4], [0b11100100]),
]
expect_values = {
    "u4": [15, 3, 10], "i4": [7, -8, 7],
    "u2": [0, 1, 2, 3, 3], "i2": [0, 1, -2, -1],
}

sp_vals = numpy_helper.from_array(np.array([I64MAX, I64MIN], dtype=np.int64), "sp_v")
sp_idx = numpy_helper.from_array(np.array([1, 5], dtype=np.int64), "sp_i")
sparse_init = helper.make_sparse_tensor(sp_vals, sp_idx, [2, 4])
sparse_init.values.name = "sparse_w"


def sparse_attr_tensor(tag):
    v = numpy_helper.from_array(np.array([1.5, -2.0], dtype=np.float32), tag + "_v")
    i = numpy_helper.from_array(np.array([[0, 1], [2, 3]], dtype=np.int64), tag + "_i")
    return helper.make_sparse_tensor(v, i, [3, 4])


def body(tag):
    return helper.make_graph([helper.make_node("Identity", ["bx"], ["by"], name=tag + "_id")],
                             tag, [helper.make_tensor_value_info("bx", TensorProto.FLOAT, [1])],
                             [helper.make_tensor_value_info("by", TensorProto.FLOAT, [1])])


tp1 = helper.make_tensor_type_proto(TensorProto.INT64, [2, "N"])
tp2 = helper.make_sequence_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, None))
tp3 = helper.make_tensor_type_proto(TensorProto.STRING, [])

attrs = [
    helper.make_attribute("f", 1e-40),
    helper.make_attribute("f_neg0", -0.0),
    helper.make_attribute("i_max", I64MAX),
    helper.make_attribute("i_min", I64MIN),
    helper.make_attribute("i_big", BIG),
    helper.make_attribute("s_bin", b"\xff\xfe"),
    helper.make_attribute("s_merge", "<<"),
    helper.make_attribute("t_i64", numpy_helper.from_array(
        np.array([I64MAX, I64MIN, BIG], dtype=np.int64), "")),
    helper.make_attribute("t_str", typed("", TensorProto.STRING, "string_data", [b"a", b"", b"\xff"])),
    helper.make_attribute("g", body("g_body")),
    helper.make_attribute("fs", [1e-40, 3.4028235e38, -0.0, 0.1]),
    helper.make_attribute("is", [I64MAX, I64MIN, BIG, -BIG, 0]),
    helper.make_attribute("ss_empty", [b"x", b""]),
    helper.make_attribute("ss_utf8", ["é"]),
    helper.make_attribute("ss_bin", [b"\xff"]),
    helper.make_attribute("ss_words", [b"<<", b"yes", b"~", b"", b"1e3", b"a\tb"]),
    helper.make_attribute("ts", [numpy_helper.from_array(np.array([2**64 - 1], dtype=np.uint64), "tu"),
                                 numpy_helper.from_array(np.array([1e-310], dtype=np.float64), "td")]),
    helper.make_attribute("gs", [body("gs0"), body("gs1")]),
    helper.make_attribute("sp", sparse_attr_tensor("sp")),
    helper.make_attribute("sps", [sparse_attr_tensor("sps0"), sparse_attr_tensor("sps1")]),
    helper.make_attribute("tp", tp1),
    helper.make_attribute("tps", [tp1, tp2, tp3]),
]

nodes = [
    helper.make_node("Identity", ["<<"], ["yes"], name=""),
    helper.make_node("Attrs", ["yes"], ["1e3"], name="=", domain="test.exact"),
    helper.make_node("Constant", [], ["c0"], name="",
                     value=numpy_helper.from_array(np.array([I64MAX, I64MIN, BIG, -1], dtype=np.int64), "")),
    helper.make_node("Constant", [], ["cs"], name="",
                     value=typed("", TensorProto.STRING, "string_data", [b"a", b"", "é".encode()])),
    helper.make_node("Identity", ["yes"], ["t2"], name="tab\there\x01"),
    helper.make_node("F", ["yes"], ["fout"], name="call", domain="local", alpha=7),
    helper.make_node("Add", ["1e3", "t2"], ["~"], name="<<"),
    helper.make_node("Identity", ["c0"], ["c0_out"], name="use_c0"),
]
nodes[1].attribute.extend(attrs)

graph = helper.make_graph(
    nodes, "exact",
    [helper.make_tensor_value_info("<<", TensorProto.FLOAT, [2])],
    [helper.make_tensor_value_info("~", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("fout", TensorProto.FLOAT, [2]),
     helper.make_tensor_value_info("c0_out", TensorProto.INT64, [4]),
     helper.make_tensor_value_info("cs", TensorProto.STRING, [3])],
    initializer=inits, sparse_initializer=[sparse_init])

fn = FunctionProto(name="F", domain="local", input=["x"], output=["y"], attribute=["alpha"],
                   node=[helper.make_node("Identity", ["x"], ["y"], name="f_id")],
                   opset_import=[helper.make_opsetid("", 13), helper.make_opsetid("test.exact", 1)])
# FunctionProto.attribute_proto (field 11, IR 9): defaults for beta and gamma.
defaults = [helper.make_attribute("beta", 0.5), helper.make_attribute("gamma", [I64MAX, -1])]


def varint(n):
    b = bytearray()
    while True:
        c = n & 0x7f
        n >>= 7
        b.append(c | (0x80 if n else 0))
        if not n:
            return bytes(b)


extra = b"".join(b"\x5a" + varint(len(a.SerializeToString())) + a.SerializeToString() for a in defaults)
fn = FunctionProto.FromString(fn.SerializeToString() + extra)

model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13),
                                                helper.make_opsetid("test.exact", 1),
                                                helper.make_opsetid("local", 1)],
                          functions=[fn], producer_name="gen_exact_yaml")
model.ir_version = 8
with open(out, "wb") as fh:
    fh.write(model.SerializeToString())
with open(out + ".expect.json", "w") as fh:
    json.dump({"values": expect_values,
               "function": {"name": "F", "attribute": ["alpha"],
                            "attribute_proto": {"beta": 0.5, "gamma": [I64MAX, -1]},
                            "opset_import": [["", 13], ["test.exact", 1]]}}, fh)
