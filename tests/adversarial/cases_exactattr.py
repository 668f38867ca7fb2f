"""cases_exactattr.py - attributes nnav now reads whole when asked (issue 15,
items 1 and 7): SPARSE_TENSOR(S) attributes, whose SparseTensorProto and
TensorProtos are not indexed at open but decoded for node, export YAML and the
explorer, and STRINGS lists. Hostile shapes of them: a values tensor that is
not a message, dims whose product overflows, external data inside the
attribute, int64 numbers in float_data, raw data shorter than the dims, a
sparse tensor with 100 dims, and STRINGS entries that read as packed varints
or are empty. What each must do: expect_exactattr.txt.
"""
from make_cases import *  # noqa: F401,F403 (fb, fv, cat, node, graph, model, tensor...)

ATTR_STRINGS_T, ATTR_SPARSE_T, ATTR_SPARSES_T = 8, 11, 12


def sparse(values, indices, dims):
    return cat(fb(1, values), fb(2, indices), b"".join(fv(3, d) for d in dims))


def attr_sparse(name, sp, many=False):
    return cat(fb(1, name), fb(23 if many else 22, sp), fv(20, ATTR_SPARSES_T if many else ATTR_SPARSE_T))


def one_node(attrs):
    return model(graph(nodes=[node("Holder", ["x"], ["y"], "h", attrs=attrs, domain="test")],
                       inputs=["x"], outputs=["y"]))


def small_cases():
    idx = tensor("i", INT64, [1], raw=struct.pack("<q", 0))
    ok_vals = tensor("v", FLOAT, [1], raw=struct.pack("<f", 1.5))
    cases = {}
    # The values "tensor" is not a message: a LEN field cut short inside.
    cases["xattr_sparse_garbage.onnx"] = one_node(
        [attr_sparse("sp", sparse(b"\x0a\x05ab", idx, [4]))])
    # dims of 2^62 x 2^62: the product overflows.
    cases["xattr_sparse_overflow.onnx"] = one_node(
        [attr_sparse("sp", sparse(tensor("v", FLOAT, [1 << 62, 1 << 62], raw=b"\0" * 8), idx,
                                  [1 << 62, 1 << 62]))])
    # External data named inside an attribute, with a path that climbs out.
    cases["xattr_sparse_external.onnx"] = one_node(
        [attr_sparse("sp", sparse(tensor("v", FLOAT, [1], ext=[("location", "../../etc/passwd")]),
                                  idx, [4]))])
    # int64 values held in float_data: refused, not read as floats.
    cases["xattr_sparse_wrong_field.onnx"] = one_node(
        [attr_sparse("sp", sparse(tensor("v", INT64, [2], float_data=[1.0, 2.0]), idx, [4]))])
    # 1,000 values claimed, 4 bytes stored; 100 dense dims; two of them in a list.
    short = tensor("v", FLOAT, [1000], raw=struct.pack("<f", 2.5))
    cases["xattr_sparse_short.onnx"] = one_node(
        [attr_sparse("sps", sparse(short, idx, [1] * 100), many=True) +
         b"".join([fb(23, sparse(ok_vals, idx, [3]))])])
    # STRINGS whose entries look like packed varints, are empty, or are not UTF-8.
    entries = [b"\x96\x01", b"", b"", b"\xff\xfe", b"\x80"]
    cases["xattr_strings_varints.onnx"] = one_node(
        [cat(fb(1, "ss"), b"".join(fb(9, e) for e in entries), fv(20, ATTR_STRINGS_T))])
    return cases
