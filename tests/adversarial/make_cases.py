#!/usr/bin/env python3
"""make_cases.py - the adversarial model files, written as raw protobuf bytes.

    python3 make_cases.py OUTDIR          the small cases (tests/adversarial/cases/)
    python3 make_cases.py --big OUTDIR    the big ones, made at test time (deep
                                          nesting, a million nodes, long chains)

Standard library only: every byte is written here on purpose, including the
ones no protobuf library would write (field 0, wire types 3/4/6/7, varints
over ten bytes, lengths near 2^64). One file per case; what each case must do
is in expect.txt, and tests/cli/adversarial.sh checks it. Names say what is
wrong; the ext_* cases name data files that adversarial.sh lays out beside
them at test time (see the layout there).

Field numbers are onnx.proto's and tensorflow/*.proto's (../../proto/).
"""
import os
import struct
import sys

# ---- wire format ----

VARINT, I64, LEN, SGROUP, EGROUP, I32 = 0, 1, 2, 3, 4, 5


def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def tag(num, wt):
    return varint(num << 3 | wt)


def fv(num, v):
    """VARINT field (negative numbers as protobuf writes int64: ten bytes)."""
    return tag(num, VARINT) + varint(v)


def fb(num, payload):
    """LEN field."""
    if isinstance(payload, str):
        payload = payload.encode()
    return tag(num, LEN) + varint(len(payload)) + payload


def ff32(num, x):
    return tag(num, I32) + struct.pack("<f", x)


def cat(*parts):
    return b"".join(p.encode() if isinstance(p, str) else p for p in parts)


# ---- ONNX ----
# ModelProto: ir_version 1, producer 2, graph 7, opset_import 8, functions 25
# GraphProto: node 1, name 2, initializer 5, input 11, output 12, value_info 13
# NodeProto: input 1, output 2, name 3, op_type 4, attribute 5, domain 7
# AttributeProto: name 1, f 2, i 3, s 4, t 5, g 6, floats 7, ints 8, graphs 11, type 20
# TensorProto: dims 1, data_type 2, float_data 4, int32_data 5, int64_data 7,
#   name 8, raw_data 9, external_data 13, data_location 14
# FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10

FLOAT, INT64 = 1, 7
UINT4, INT4, FLOAT4E2M1, UINT2, INT2 = 21, 22, 23, 25, 26
ATTR_GRAPH, ATTR_FLOATS, ATTR_GRAPHS = 5, 6, 10


def opset(domain="", version=17):
    return cat(fb(1, domain), fv(2, version))


def model(graph=None, ir=8, extra=b"", functions=(), producer=None):
    out = fv(1, ir)
    if producer is not None:
        out += fb(2, producer)
    out += fb(8, opset())
    if graph is not None:
        out += fb(7, graph)
    for f in functions:
        out += fb(25, f)
    return out + extra


def vinfo(name, elem=FLOAT):
    tt = fv(1, elem)
    return cat(fb(1, name), fb(2, fb(1, tt)))


def node(op, ins=(), outs=(), name=None, attrs=(), domain=None):
    out = b"".join(fb(1, i) for i in ins) + b"".join(fb(2, o) for o in outs)
    if name is not None:
        out += fb(3, name)
    out += fb(4, op)
    for a in attrs:
        out += fb(5, a)
    if domain is not None:
        out += fb(7, domain)
    return out


def graph(nodes=(), inits=(), inputs=(), outputs=(), name="g", extra=b""):
    out = b"".join(fb(1, n) for n in nodes)
    out += fb(2, name)
    out += b"".join(fb(5, t) for t in inits)
    out += b"".join(fb(11, vinfo(i)) for i in inputs)
    out += b"".join(fb(12, vinfo(o)) for o in outputs)
    return out + extra


def tensor(name, dtype, dims, raw=None, float_data=None, int32_data=None, ext=None,
           packed_dims=False):
    out = b""
    if packed_dims:
        out += fb(1, b"".join(varint(d) for d in dims))
    else:
        out += b"".join(fv(1, d) for d in dims)
    out += fv(2, dtype) + fb(8, name)
    if raw is not None:
        out += fb(9, raw)
    if float_data is not None:
        out += fb(4, b"".join(struct.pack("<f", x) for x in float_data))
    if int32_data is not None:
        out += fb(5, b"".join(varint(x) for x in int32_data))
    if ext is not None:
        for k, v in ext:
            out += fb(13, cat(fb(1, k), fb(2, v)))
        out += fv(14, 1)
    return out


def one_init(t, extra_nodes=()):
    """A model whose main graph holds tensor t as its only initialiser, read
    by one Identity node."""
    return model(graph(nodes=[node("Identity", ["w"], ["y"], "id")] + list(extra_nodes),
                       inits=[t], outputs=["y"]))


def floats(*xs):
    return b"".join(struct.pack("<f", x) for x in xs)


def function(name, nodes, ins=("x",), outs=("y",), domain="local"):
    out = fb(1, name)
    out += b"".join(fb(4, i) for i in ins) + b"".join(fb(5, o) for o in outs)
    out += b"".join(fb(7, n) for n in nodes)
    out += fb(9, opset()) + fb(9, opset(domain, 1)) + fb(10, domain)
    return out


# ---- TensorFlow ----
# GraphDef: node 1, library 2, versions 4
# NodeDef: name 1, op 2, input 3, device 4, attr 5 (map entry: key 1, value 2)
# AttrValue: list 1, s 2, i 3, f 4, b 5, type 6, shape 7, tensor 8, func 10
# NameAttrList: name 1, attr 2
# TensorProto: dtype 1, tensor_shape 2, tensor_content 4, float_val 5, int_val 7
# TensorShapeProto: dim 2 (Dim: size 1, name 2)
# FunctionDefLibrary: function 1; FunctionDef: signature 1 (OpDef), node_def 3, ret 4
# OpDef: name 1, input_arg 2, output_arg 3 (ArgDef: name 1, type 3)

DT_FLOAT = 1


def tf_attr(key, av):
    return fb(5, cat(fb(1, key), fb(2, av)))


def tf_node(name, op, ins=(), attrs=()):
    out = cat(fb(1, name), fb(2, op))
    out += b"".join(fb(3, i) for i in ins)
    out += b"".join(tf_attr(k, v) for k, v in attrs)
    return out


def tf_shape(*dims):
    return b"".join(fb(2, fv(1, d)) for d in dims)


def tf_tensor(dtype, dims, content=None, float_val=None, packed_float=None):
    out = fv(1, dtype) + fb(2, tf_shape(*dims))
    if content is not None:
        out += fb(4, content)
    if float_val is not None:
        out += b"".join(ff32(5, x) for x in float_val)
    if packed_float is not None:
        out += fb(5, packed_float)
    return out


def tf_const(name, t, dtype=DT_FLOAT):
    return tf_node(name, "Const", attrs=[("dtype", fv(6, dtype)), ("value", fb(8, t))])


def tf_func_av(name, attrs=b""):
    return fb(10, cat(fb(1, name), attrs))


def tf_function(name, nodes, ret):
    sig = cat(fb(1, name), fb(2, cat(fb(1, "x"), fv(3, DT_FLOAT))),
              fb(3, cat(fb(1, "y"), fv(3, DT_FLOAT))))
    out = fb(1, sig) + b"".join(fb(3, n) for n in nodes)
    out += fb(4, cat(fb(1, "y"), fb(2, ret)))
    return out


def tf_graph(nodes, functions=()):
    out = b"".join(fb(1, n) for n in nodes)
    if functions:
        out += fb(2, b"".join(fb(1, f) for f in functions))
    return out + fb(4, fv(1, 1))


# ---- hostile names ----

HOSTILE = [
    b"osc\x1b]0;PWNED\x07title",         # sets the terminal title if obeyed
    b"csi\x1b[2J\x1b[31mred",           # clears the screen, colours
    b"nul\x00byte",
    b"bad\xff\xfeutf8",                 # bytes that are never UTF-8
    b"overlong\xc0\xaf",                # overlong '/'
    b"surrogate\xed\xa0\x80",           # UTF-16 surrogate in UTF-8
    b"cut\xe2\x82",                     # a character cut short
    b"c1csi\xc2\x9b31m",                # U+009B, the 8-bit CSI
    b"c1nel\xc2\x85",                   # U+0085
    b"bidi\xe2\x80\xaeevil\xe2\x81\xa6x\xe2\x81\xa9",  # RLO, LRI, PDI
    b"del\x7fcr\rlf\ntab\tbs\x08",
]


def hostile_onnx():
    nodes = []
    prev = "in"
    for i, h in enumerate(HOSTILE):
        out = h + b"_out"
        nodes.append(node(h, [prev], [out], name=h + b"_node", domain=h if i == 0 else None))
        prev = out
    inits = [tensor(HOSTILE[3] + b"_w", FLOAT, [1], raw=floats(1.5))]
    g = graph(nodes=nodes, inits=inits, inputs=["in"], outputs=[prev], name=HOSTILE[1])
    meta = fb(14, cat(fb(1, HOSTILE[0]), fb(2, HOSTILE[9])))
    return model(g, producer=HOSTILE[0], extra=meta + fb(6, HOSTILE[10]))


def hostile_tf(first_plain=True):
    """Hostile node names, ops, inputs and attr keys; the first node plainly
    named or not (content sniffing looks at the first node)."""
    first = b"plain" if first_plain else HOSTILE[0] + b"/const"
    nodes = [tf_const(first, tf_tensor(DT_FLOAT, [1], float_val=[2.0]))]
    prev = first
    for h in HOSTILE:
        nodes.append(tf_node(h, h, [prev], attrs=[("T", fv(6, DT_FLOAT)), (h, fb(2, h))]))
        prev = h
    return tf_graph(nodes)


# ---- the small cases ----

def small_cases():
    c = {}

    # Not protobuf at all.
    c["empty.onnx"] = b""
    c["html_page.onnx"] = b"<!DOCTYPE html>\n<html><head><title>404</title></head></html>\n"
    c["lfs_pointer.onnx"] = (b"version https://git-lfs.github.com/spec/v1\n"
                             b"oid sha256:4d7a2146b3e0b5a1b0e7c5f1b0e7c5f1b0e7c5f1b0e7c5f1b0e7c5f1b0e7c5f1\n"
                             b"size 1271370\n")
    c["html_page.pb"] = b"  \n<html><body>Not Found</body></html>"

    # Varints.
    c["cut_tag.onnx"] = b"\x80"                                # a tag varint cut short
    c["cut_varint.onnx"] = fv(1, 8)[:1] + b"\x80\x80"          # ir_version cut mid-varint
    # graph{node{input: a length varint the end of the file cuts}}
    c["cut_varint_nested.onnx"] = model() + tag(7, LEN) + varint(4) + b"\x0a\x02\x0a\x80"
    c["varint_11_bytes.onnx"] = b"\x08" + b"\xff" * 10 + b"\x01"
    c["varint_10th_byte.onnx"] = b"\x08" + b"\xff" * 9 + b"\x02"   # 10 bytes, over 64 bits
    c["tag_11_bytes.onnx"] = b"\xff" * 11

    # Lengths.
    c["len_past_end.onnx"] = fv(1, 8) + tag(7, LEN) + varint(100) + b"\x0a\x00"
    c["len_2p64.onnx"] = fv(1, 8) + tag(7, LEN) + varint(2**64 - 1) + b"\x0a\x00"
    c["len_2p63.onnx"] = fv(1, 8) + tag(7, LEN) + varint(2**63) + b"\x0a\x00"
    # Inside a node, a length that fits the file but not its message.
    inner = tag(1, LEN) + varint(2**64 - 2) + b"x"
    c["len_2p64_nested.onnx"] = model(cat(fb(1, inner), fb(2, "g")))
    bad_node = cat(fb(4, "Relu"), tag(3, LEN), varint(40))     # name runs past the node
    c["len_past_message.onnx"] = model(cat(fb(1, bad_node), fb(2, "g" * 60)))

    # Field numbers and wire types.
    c["field0.onnx"] = fv(1, 8) + b"\x00\x01"
    c["field0_nested.onnx"] = model(cat(fb(1, cat(fb(4, "Relu"), b"\x00\x00")), fb(2, "g")))
    c["field_too_big.onnx"] = fv(1, 8) + varint((2**29) << 3) + b"\x00"
    for wt in (3, 4, 6, 7):
        c["wiretype%d.onnx" % wt] = fv(1, 8) + tag(9, wt) + b"\x00"
        n = cat(fb(4, "Relu"), tag(3, wt), b"\x00\x00\x00\x00")
        c["wiretype%d_nested.onnx" % wt] = model(cat(fb(1, n), fb(2, "g")))
    # ir_version as LEN, then a graph (field 7): ONNX's shape, not a GraphDef's
    # (a bare field-1 LEN would read as a GraphDef node, by design).
    c["wrong_wiretype.onnx"] = tag(1, LEN) + varint(1) + b"x" + tag(7, LEN) + varint(0)
    c["wrong_wiretype_nested.onnx"] = model(cat(fb(1, cat(tag(4, VARINT), varint(3))), fb(2, "g")))

    # Recursion through functions: links, never expanded.
    self_call = function("f", [node("f", ["x"], ["y"], "again", domain="local")])
    c["function_self.onnx"] = model(
        graph(nodes=[node("f", ["x"], ["y"], "call", domain="local")], inputs=["x"],
              outputs=["y"]),
        functions=[self_call], extra=fb(8, opset("local", 1)))
    f1 = function("f", [node("g", ["x"], ["y"], "to_g", domain="local")])
    g1 = function("g", [node("f", ["x"], ["y"], "to_f", domain="local")])
    c["function_mutual.onnx"] = model(
        graph(nodes=[node("f", ["x"], ["y"], "call", domain="local")], inputs=["x"],
              outputs=["y"]),
        functions=[f1, g1], extra=fb(8, opset("local", 1)))
    c["tf_function_self.pb"] = tf_graph(
        [tf_node("start", "f", ["in"]), tf_node("in", "Placeholder",
                                                 attrs=[("dtype", fv(6, DT_FLOAT))])],
        [tf_function("f", [tf_node("again", "f", ["x"])], "again:y:0")])
    c["tf_function_mutual.pb"] = tf_graph(
        [tf_node("start", "PartitionedCall", attrs=[("f", tf_func_av("f"))])],
        [tf_function("f", [tf_node("call", "PartitionedCall", ["x"],
                                    attrs=[("f", tf_func_av("g"))])], "call:output:0"),
         tf_function("g", [tf_node("call", "f", ["x"])], "call:y:0")])

    # Dims.
    c["dims_negative.onnx"] = one_init(tensor("w", FLOAT, [-1, 3], raw=floats(1, 2, 3)))
    c["dims_huge.onnx"] = one_init(tensor("w", FLOAT, [2**62], raw=floats(7)))
    c["dims_product_overflow.onnx"] = one_init(tensor("w", FLOAT, [2**32, 2**32, 2**32],
                                                      raw=floats(7)))
    c["dims_bytes_overflow.onnx"] = one_init(tensor("w", FLOAT, [2**63 - 1], raw=floats(7)))
    c["dims_packed_bad_varint.onnx"] = one_init(
        cat(fb(1, b"\x02\x80"), fv(2, FLOAT), fb(8, "w"), fb(9, floats(1, 2))))

    # Stored bytes against dims x dtype.
    c["raw_short.onnx"] = one_init(tensor("w", FLOAT, [4], raw=floats(1, 2)))
    c["raw_long.onnx"] = one_init(tensor("w", FLOAT, [2], raw=floats(1, 2, 3, 4)))
    c["raw_odd_bytes.onnx"] = one_init(tensor("w", FLOAT, [2], raw=b"\x00\x00\x80\x3f\x00\x00"))
    c["typed_short.onnx"] = one_init(tensor("w", FLOAT, [4], float_data=[1, 2]))
    c["typed_long.onnx"] = one_init(tensor("w", FLOAT, [2], float_data=[1, 2, 3, 4]))
    c["no_data.onnx"] = one_init(tensor("w", FLOAT, [3]))

    # Sub-byte types with odd counts: raw bytes round up; int32_data packs
    # several per word.
    c["int4_odd.onnx"] = one_init(tensor("w", INT4, [3], raw=b"\x21\x0f"))     # 1, 2, -1
    c["uint4_odd.onnx"] = one_init(tensor("w", UINT4, [3], raw=b"\x21\x0f"))   # 1, 2, 15
    c["int2_odd.onnx"] = one_init(tensor("w", INT2, [5], raw=b"\xe4\x03"))     # 0,1,-2,-1,-1
    c["uint2_odd.onnx"] = one_init(tensor("w", UINT2, [5], raw=b"\xe4\x03"))   # 0,1,2,3,3
    c["float4e2m1_odd.onnx"] = one_init(tensor("w", FLOAT4E2M1, [3], raw=b"\x42\x0f"))  # 1,2,-6
    c["int4_short.onnx"] = one_init(tensor("w", INT4, [5], raw=b"\x21"))
    c["int4_typed_odd.onnx"] = one_init(tensor("w", INT4, [3], int32_data=[0x21, 0x0f]))
    c["int4_typed_short.onnx"] = one_init(tensor("w", INT4, [5], int32_data=[0x21]))

    # Element types nobody defined.
    c["dtype_unknown.onnx"] = one_init(tensor("w", 999, [2], raw=floats(1, 2)))
    c["dtype_undefined.onnx"] = one_init(tensor("w", 0, [2], raw=floats(1, 2)))
    c["dtype_huge.onnx"] = one_init(tensor("w", 2**40, [2], raw=floats(1, 2)))
    c["dtype_negative.onnx"] = one_init(tensor("w", -3, [2], raw=floats(1, 2)))

    # Packed fields whose length is not a multiple of the element.
    c["packed_floats_7.onnx"] = one_init(cat(fv(1, 2), fv(2, FLOAT), fb(8, "w"),
                                             fb(4, b"\x00" * 7)))
    attr = cat(fb(1, "alpha"), fv(20, ATTR_FLOATS), fb(7, b"\x00" * 5))
    c["packed_attr_floats_5.onnx"] = model(graph(
        nodes=[node("LeakyRelu", ["x"], ["y"], "lr", attrs=[attr])], inputs=["x"], outputs=["y"]))
    c["packed_int64_bad_varint.onnx"] = one_init(cat(fv(1, 2), fv(2, INT64), fb(8, "w"),
                                                     fb(7, b"\x01\x80")))
    c["tf_packed_float_7.pb"] = tf_graph([tf_const("c", tf_tensor(DT_FLOAT, [2],
                                                                  packed_float=b"\x00" * 7))])

    # A TensorFlow splat that describes a terabyte: one float_val for
    # 2^40 / 4 elements. Values and stats are arithmetic, nothing is allocated.
    c["tf_splat_terabyte.pb"] = tf_graph([tf_const("big", tf_tensor(
        DT_FLOAT, [1099511627776 // 4], float_val=[0.5]))])
    c["tf_splat_overflow.pb"] = tf_graph([tf_const("big", tf_tensor(
        DT_FLOAT, [2**40, 2**40], float_val=[0.5]))])
    c["tf_content_short.pb"] = tf_graph([tf_const("c", tf_tensor(DT_FLOAT, [4],
                                                                 content=floats(1, 2)))])
    c["tf_dims_negative.pb"] = tf_graph([tf_const("c", tf_tensor(DT_FLOAT, [-5, 2],
                                                                 float_val=[1.0]))])
    c["tf_dtype_unknown.pb"] = tf_graph([tf_const("c", tf_tensor(777, [2], content=floats(1, 2)),
                                                  dtype=777)])
    # Wire faults inside a TensorFlow node.
    # Wire faults inside a TensorFlow node (the second: the first is what
    # content sniffing reads), and the same faults in the first node.
    ok = tf_node("a", "NoOp")
    c["tf_len_past_end.pb"] = tf_graph([ok]) + tag(1, LEN) + varint(50) + fb(1, "b")
    c["tf_len_2p64.pb"] = tf_graph([ok, cat(fb(1, "b"), tag(2, LEN), varint(2**64 - 1), b"x")])
    faults = {"wiretype6": tag(4, 6) + b"\x00", "wiretype3": tag(4, 3) + b"\x00",
              "field0": b"\x00\x00", "varint_11_bytes": b"\x38" + b"\xff" * 10 + b"\x01"}
    for k, bad in faults.items():
        c["tf_%s.pb" % k] = tf_graph([ok, cat(tf_node("b", "NoOp"), bad)])
        c["tf_%s_first_node.pb" % k] = tf_graph([cat(tf_node("b", "NoOp"), bad), ok])

    # Two functions of one name in different domains: paths name the domain.
    c["function_same_name.onnx"] = model(
        graph(nodes=[node("f", ["x"], ["y"], "call_a", domain="a"),
                     node("f", ["y"], ["z"], "call_b", domain="b")], inputs=["x"], outputs=["z"]),
        functions=[function("f", [node("Relu", ["x"], ["y"], "ra")], domain="a"),
                   function("f", [node("Neg", ["x"], ["y"], "nb")], domain="b")],
        extra=fb(8, opset("a", 1)) + fb(8, opset("b", 1)))
    # A cycle (a reads b's output, b reads a's), a node reading its own
    # output, a name two nodes write, a node reading one value twice.
    c["graph_cycle.onnx"] = model(graph(
        nodes=[node("Add", ["x", "q"], ["p"], "a"), node("Relu", ["p"], ["q"], "b"),
               node("Relu", ["s"], ["s"], "self"), node("Neg", ["x"], ["dup"], "w1"),
               node("Abs", ["x"], ["dup"], "w2"), node("Mul", ["dup", "dup"], ["sq"], "twice")],
        inputs=["x"], outputs=["q", "sq"]))
    # The graph field given twice: protobuf merges the two into one message.
    c["graph_twice.onnx"] = model(graph(nodes=[node("Relu", ["x"], ["y"], "first")],
                                        inputs=["x"])) + \
        fb(7, graph(nodes=[node("Neg", ["y"], ["z"], "second")], outputs=["z"], name="g2"))
    # A sparse initializer whose dims describe 2^40 elements, one stored.
    sp = cat(fb(1, tensor("sp", FLOAT, [1], raw=floats(3))),
             fb(2, tensor("sp_idx", INT64, [1], raw=struct.pack("<q", 2**40 + 5))),
             fv(3, 2**40))
    c["sparse_huge.onnx"] = model(graph(nodes=[node("Identity", ["sp"], ["y"], "id")],
                                        outputs=["y"], extra=fb(15, sp)))
    # A type nested 40 deep (formatting stops at 32).
    c["type_deep_40.onnx"] = deep_type(40)

    # Attribute values that are malformed inside (found when shown, not at
    # open): a packed ints list cut in a varint, a TypeProto of garbage, a
    # strings list of hostile bytes, a sparse tensor of garbage, a tensor
    # whose dims describe 2^40 elements.
    attrs = [cat(fb(1, "ints"), fv(20, 7), fb(8, b"\x01\x80")),
             cat(fb(1, "type"), fv(20, 13), fb(14, b"\x0a\x05\xff")),
             cat(fb(1, "strings"), fv(20, 8)) + b"".join(fb(9, h) for h in HOSTILE),
             cat(fb(1, "sparse"), fv(20, 11), fb(22, b"\x0a\x03\x08")),
             cat(fb(1, "value"), fv(20, 4), fb(5, tensor("c", FLOAT, [2**40], raw=floats(1))))]
    c["attr_malformed.onnx"] = model(graph(
        nodes=[node("Custom", ["x"], ["y"], "custom", attrs=attrs, domain="x")],
        inputs=["x"], outputs=["y"]), extra=fb(8, opset("x", 1)))
    # An opset_import whose version is negative: signed wherever it is shown.
    c["opset_negative.onnx"] = model(graph(
        nodes=[node("Relu", ["x"], ["y"], "r")], inputs=["x"], outputs=["y"]),
        extra=fb(8, opset("neg.domain", -5)))
    # A string tensor of hostile strings, and one whose count disagrees.
    st = cat(fv(1, 3), fv(2, 8), fb(8, "w")) + b"".join(fb(6, h) for h in HOSTILE[:3])
    c["string_tensor_hostile.onnx"] = one_init(st)
    c["string_tensor_short.onnx"] = one_init(cat(fv(1, 5), fv(2, 8), fb(8, "w"), fb(6, "only")))
    # Training info: bodies under ~training[0]/initialization and algorithm.
    body = graph(nodes=[node("Relu", ["x"], ["y"], "inner")], inputs=["x"], outputs=["y"],
                 name="tbody")
    init = graph(nodes=[node("If", ["c"], ["o"], "tif",
                              attrs=[cat(fb(1, "then_branch"), fv(20, ATTR_GRAPH), fb(6, body))])],
                 name="init")
    algo = graph(nodes=[node("Neg", ["w"], ["w2"], "step")], name="algo")
    c["training_info.onnx"] = model(graph(nodes=[node("Relu", ["x"], ["y"], "r")]),
                                    extra=fb(20, cat(fb(1, init), fb(2, algo))))

    # Names that would drive a terminal.
    c["names_hostile.onnx"] = hostile_onnx()
    c["tf_names_hostile.pb"] = hostile_tf()
    c["tf_names_hostile_first_node.pb"] = hostile_tf(first_plain=False)
    # An error whose field path quotes a hostile attr key (an i given as LEN).
    c["tf_hostile_attr_error.pb"] = tf_graph([
        tf_node("a", "NoOp"),
        tf_node("b", "NoOp", attrs=[(HOSTILE[0] + HOSTILE[9], tag(3, LEN) + varint(2) + b"zz")])])

    # External data: the data files are laid out at test time (adversarial.sh).
    def ext(name, keys):
        return one_init(tensor("w", FLOAT, [4], ext=keys))
    c["ext_ok.onnx"] = ext("ok", [("location", "data.bin"), ("offset", "0"), ("length", "16")])
    c["ext_dotdot.onnx"] = ext("dd", [("location", "../secret.bin")])
    c["ext_dotdot_inner.onnx"] = ext("dd", [("location", "sub/../../secret.bin")])
    c["ext_backslash.onnx"] = ext("bs", [("location", "..\\secret.bin")])
    c["ext_absolute.onnx"] = ext("abs", [("location", "/etc/passwd")])
    c["ext_symlink_file.onnx"] = ext("sl", [("location", "link.bin")])
    c["ext_symlink_folder.onnx"] = ext("sd", [("location", "linkdir/data.bin")])
    c["ext_hardlink.onnx"] = ext("hl", [("location", "hard.bin")])
    c["ext_fifo.onnx"] = ext("fifo", [("location", "fifo.bin")])
    c["ext_folder.onnx"] = ext("dir", [("location", "sub")])
    c["ext_missing.onnx"] = ext("miss", [("location", "nosuch.bin")])
    c["ext_nul.onnx"] = ext("nul", [("location", b"data.bin\x00.txt")])
    c["ext_long_component.onnx"] = ext("long", [("location", "x" * 300)])
    c["ext_no_location.onnx"] = ext("noloc", [("offset", "0")])
    c["ext_offset_text.onnx"] = ext("ot", [("location", "data.bin"), ("offset", "12x")])
    c["ext_offset_negative.onnx"] = ext("on", [("location", "data.bin"), ("offset", "-1")])
    c["ext_offset_overflow.onnx"] = ext("oo", [("location", "data.bin"),
                                               ("offset", "99999999999999999999")])
    c["ext_offset_past_end.onnx"] = ext("ope", [("location", "data.bin"), ("offset", "4096")])
    c["ext_length_overflow.onnx"] = ext("lo", [("location", "data.bin"), ("offset", "8"),
                                               ("length", "9223372036854775807")])
    c["ext_duplicate_key.onnx"] = ext("dup", [("location", "data.bin"),
                                              ("location", "../secret.bin")])
    c["ext_basepath.onnx"] = ext("bp", [("location", "data.bin"), ("basepath", "/etc")])
    c["ext_hostile_location.onnx"] = ext("hl", [("location", HOSTILE[0] + HOSTILE[7] + b".bin")])
    return c


# ---- the big cases (made at test time) ----

def deep_if(depth):
    """If inside If, `depth` levels: each body's node reads x from the main
    graph (so names resolve through every enclosing scope). Written front to
    back with the lengths computed first, so it costs linear time."""
    attr_head = cat(fb(1, "then_branch"), fv(20, ATTR_GRAPH))
    inner = cat(fb(1, node("Identity", ["x"], ["leaf"], "leaf")), fb(2, "leaf_graph"))
    heads = []
    size = len(inner)
    for i in reversed(range(depth)):
        # graph_i = node{ in x, out o_i, name n_i, op If, attribute{ ..., g = graph_{i+1} } }
        a_len = len(attr_head) + len(tag(6, LEN)) + len(varint(size)) + size
        n_head = node("If", ["x"], ["o%d" % i], "n%d" % i)
        n_len = len(n_head) + len(tag(5, LEN)) + len(varint(a_len)) + a_len
        heads.append(cat(tag(1, LEN), varint(n_len), n_head, tag(5, LEN), varint(a_len),
                         attr_head, tag(6, LEN), varint(size)))
        size = len(heads[-1]) + size
    heads.reverse()
    tail = cat(fb(2, "main"), fb(11, vinfo("x", 9)), fb(12, vinfo("o0")))
    body = b"".join(heads) + inner + tail
    return model(extra=tag(7, LEN) + varint(len(body)) + body)


def deep_type(depth):
    """A value_info whose TypeProto is seq(seq(...(float)...)), `depth` deep."""
    t = fb(1, fv(1, FLOAT))                 # TypeProto{tensor_type{elem_type}}
    # TypeProto.sequence_type = 4, Sequence.elem_type = 1
    pre = []
    size = len(t)
    for _ in range(depth):
        head = cat(tag(4, LEN), varint(size + len(tag(1, LEN)) + len(varint(size))),
                   tag(1, LEN), varint(size))
        pre.append(head)
        size += len(head)
    ty = b"".join(reversed(pre)) + t
    vi = cat(fb(1, "y"), fb(2, ty))
    g = cat(fb(1, node("Relu", ["x"], ["y"], "relu")), fb(2, "g"), fb(11, vinfo("x")),
            fb(12, vi))
    return model(g)


def empty_nodes(n):
    """A main graph of n empty NodeProtos (two bytes each)."""
    body = b"\x0a\x00" * n + fb(2, "empty")
    return model(extra=tag(7, LEN) + varint(len(body)) + body)


def tf_func_chain(n):
    """Library functions f0 -> f1 -> ... -> f(n-1), each calling the next by op."""
    fns = [tf_function("f%d" % i, [tf_node("c", "f%d" % (i + 1), ["x"])], "c:y:0")
           for i in range(n - 1)]
    fns.append(tf_function("f%d" % (n - 1), [tf_node("c", "Identity", ["x"])], "c:output:0"))
    return tf_graph([tf_node("in", "Placeholder", attrs=[("dtype", fv(6, DT_FLOAT))]),
                     tf_node("start", "f0", ["in"])], fns)


def tf_deep_func_attr(depth):
    """A func attr whose NameAttrList holds a func attr whose ... `depth` deep."""
    av = tf_func_av("leaf")
    for i in range(depth):
        entry = fb(2, cat(fb(1, "a"), fb(2, av)))
        av = tf_func_av("f", entry)
    return tf_graph([tf_node("call", "PartitionedCall", attrs=[("f", av)])])


def long_name_bodies(name_len, bodies):
    """A node whose name is name_len bytes holds `bodies` graphs (a GRAPHS
    attribute): every body's path starts with that name."""
    attr = cat(fb(1, "branches"), fv(20, ATTR_GRAPHS)) + b"".join(fb(11, fb(2, "b")) for _ in range(bodies))
    n = node("Switch", ["x"], ["y"], "n" * name_len, attrs=[attr])
    return model(graph(nodes=[n], inputs=["x"], outputs=["y"]))


def big_cases():
    return {
        "long_name_bodies.onnx": long_name_bodies(100000, 3000),
        "deep_if_10000.onnx": deep_if(10000),
        "deep_if_25000.onnx": deep_if(25000),
        "deep_type_100000.onnx": deep_type(100000),
        "empty_nodes_1000000.onnx": empty_nodes(1000000),
        "tf_func_chain_10000.pb": tf_func_chain(10000),
        "tf_deep_func_attr_20000.pb": tf_deep_func_attr(20000),
    }


def main(argv):
    big = "--big" in argv
    args = [a for a in argv[1:] if a != "--big"]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 1
    out = args[0]
    os.makedirs(out, exist_ok=True)
    cases = big_cases() if big else small_cases()
    if not big:
        # More cases live in one module per topic (cases_*.py beside this
        # file), each with small_cases() built on the helpers above.
        import glob
        import importlib
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        for mod in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases_*.py"))):
            more = importlib.import_module(os.path.basename(mod)[:-3]).small_cases()
            clash = set(more) & set(cases)
            if clash:
                raise SystemExit("%s: cases named twice: %s" % (mod, sorted(clash)))
            cases.update(more)
    for name in sorted(cases):
        with open(os.path.join(out, name), "wb") as f:
            f.write(cases[name])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
