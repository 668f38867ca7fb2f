"""cases_files.py - hostile cases about what a file holds and how its names
show: invisible characters and piles of combining marks in names, numbers in
the TensorProto field of another type, external data far shorter than its
dims, sparse indices that contradict their dims (expectations in
expect_files.txt). The ext_* cases name the data files adversarial.sh lays
out beside them (data.bin: 64 bytes)."""
import struct

from make_cases import *

INT32, STRING, DOUBLE, UINT32, UINT64 = 6, 8, 11, 12, 13


def typed(name, dtype, dims, field, payload):
    """A TensorProto whose values sit in the given field (packed bytes)."""
    return cat(b"".join(fv(1, d) for d in dims), fv(2, dtype), fb(8, name), fb(field, payload))


def doubles(*xs):
    return b"".join(struct.pack("<d", x) for x in xs)


def sparse_init(name, dims, values, indices, idx_dims=None):
    """A sparse initializer: float values, int64 indices (raw)."""
    if idx_dims is None:
        idx_dims = [len(indices)]
    vals = tensor(name, FLOAT, [len(values)], raw=floats(*values))
    idx = tensor(name + "_idx", INT64, idx_dims,
                 raw=b"".join(struct.pack("<q", i) for i in indices))
    return cat(fb(1, vals), fb(2, idx), b"".join(fv(3, d) for d in dims))


def sparse_model(sp, name="sp"):
    return model(graph(nodes=[node("Identity", [name], ["y"], "id")], outputs=["y"],
                       extra=fb(15, sp)))


def small_cases():
    c = {}
    zwj, zwsp, wj, bom = "\u200d", "\u200b", "\u2060", "\ufeff"
    zalgo = "Z" + "".join(chr(0x300 + i) for i in range(20)) + "algo"
    # Names that look alike, or shift the columns after them, unless their
    # invisible characters are shown: the node list, tensors and errors.
    nodes = [node("Relu", ["x"], ["weight"], "conv" + zwj + "1"),
             node("Relu", ["weight"], ["wei" + zwsp + "ght"], "conv1"),
             node("Relu", ["wei" + zwsp + "ght"], ["w" + wj + "j"], zalgo),
             node("Relu", ["w" + wj + "j"], ["\u0301lead"], bom + "bom"),
             node("Relu", ["\u0301lead"], ["y"], "caf\u0065\u0301 \u6a21\u578b \U0001f642")]
    inits = [tensor("w" + zwj, FLOAT, [1], raw=floats(1)), tensor("w", FLOAT, [1], raw=floats(2))]
    c["names_invisible.onnx"] = model(graph(nodes=nodes, inits=inits, inputs=["x"],
                                            outputs=["y"], name="g" + zwj))

    # Numbers in the field of another type: an int64 tensor's NaN in
    # double_data (no reader takes it as an int64), floats in int64_data,
    # int32 in float_data, uint64 in int64_data. The right fields pass.
    c["int64_in_double_data.onnx"] = one_init(
        typed("w", INT64, [2], 10, doubles(float("nan"), 1.0)))
    c["float_in_int64_data.onnx"] = one_init(
        typed("w", FLOAT, [2], 7, varint(1) + varint(2)))
    c["int32_in_float_data.onnx"] = one_init(typed("w", INT32, [1], 4, floats(7)))
    c["uint64_in_int64_data.onnx"] = one_init(typed("w", UINT64, [1], 7, varint(5)))
    c["typed_fields_right.onnx"] = model(graph(
        nodes=[node("Identity", ["a"], ["y"], "id")],
        inits=[typed("a", INT64, [2], 7, varint(3) + varint(2**64 - 1)),
               typed("b", DOUBLE, [1], 10, doubles(0.5)),
               typed("c", UINT64, [1], 11, varint(2**64 - 1)),
               typed("d", INT32, [2], 5, varint(7) + varint(2**64 - 8)),
               typed("e", UINT32, [2], 11, varint(2**32 + 5) + varint(7))],
        outputs=["y"]))

    # External data without a length whose file (64 bytes) is far shorter
    # than dims say (2^40 floats, 4 TiB): a warning, and the weights count
    # what is there. With a length past the file's end: the same.
    big = [1024, 1024, 1024, 1024]
    c["ext_short_no_length.onnx"] = one_init(
        tensor("w", FLOAT, big, ext=[("location", "data.bin")]))
    c["ext_short_offset.onnx"] = one_init(
        tensor("w", FLOAT, [16], ext=[("location", "data.bin"), ("offset", "32")]))
    c["ext_short_length.onnx"] = one_init(
        tensor("w", FLOAT, big, ext=[("location", "data.bin"), ("length", "4398046511104")]))

    # Sparse indices that contradict their dims.
    c["sparse_index_out_of_range.onnx"] = sparse_model(sparse_init("sp", [2, 4], [1, 2], [3, 8]))
    c["sparse_index_negative.onnx"] = sparse_model(sparse_init("sp", [8], [1, 2], [-1, 5]))
    c["sparse_index_unsorted.onnx"] = sparse_model(
        sparse_init("sp", [8], [1, 2, 3, 4], [1, 5, 3, 2]))
    c["sparse_index_duplicate.onnx"] = sparse_model(sparse_init("sp", [8], [1, 2, 3], [1, 4, 4]))
    c["sparse_index_count.onnx"] = sparse_model(sparse_init("sp", [8], [1, 2, 3], [1, 4]))
    c["sparse_coords_out_of_range.onnx"] = sparse_model(
        sparse_init("sp", [2, 4], [1, 2], [0, 1, 1, 4], idx_dims=[2, 2]))
    c["sparse_coords_unsorted.onnx"] = sparse_model(
        sparse_init("sp", [2, 4], [1, 2], [1, 0, 0, 3], idx_dims=[2, 2]))
    c["sparse_index_max.onnx"] = sparse_model(
        sparse_init("sp", [2**62, 4], [1, 2], [2**63 - 1, -2**63]))
    c["sparse_ok.onnx"] = sparse_model(
        sparse_init("sp", [2, 4], [1, 2, 3], [0, 1, 1, 0, 1, 3], idx_dims=[3, 2]))
    return c
