"""cases_exporttypes.py - hostile types and training_info for the ONNX export
(src/export_onnx.c, issue 15 items 4 and 7). Each types case is X float[2,3]
-> Relu -> Y, where nnav infers Y float[2,3] and Y's declared TypeProto is
odd: an element type alone (filled), elem_type 0 with a shape (filled), a
sparse tensor type alone (filled), empty axes with a denotation (filled),
and forms the export copies as they are: two tensor types, a tensor type then
a sequence type, two shapes, a dim that is a varint, a dim_value written as
bytes, another rank than inferred (1,000 empty axes), bytes that are no
message. training_info with external data: inside the folder (inlined) and
through ../ (refused, with the field path). Expectations:
expect_exporttypes.txt."""
from make_cases import *  # noqa: F401,F403 (the helpers: model, graph, node, tensor, fv, fb...)


def relu_with_output_type(type_bytes):
    x = cat(fb(1, "X"), fb(2, fb(1, cat(fv(1, FLOAT), fb(2, cat(fb(1, fv(1, 2)),
                                                                  fb(1, fv(1, 3))))))))
    y = cat(fb(1, "Y"), fb(2, type_bytes))
    return model(graph(nodes=[node("Relu", ["X"], ["Y"], "relu")],
                       extra=cat(fb(11, x), fb(12, y))))


def shape(*dims):
    return fb(2, b"".join(fb(1, d) for d in dims))


def training(keys):
    w = tensor("W", FLOAT, [4], raw=b"\0" * 16)
    main = graph(nodes=[node("Identity", ["W"], ["Y"], "id")], inits=[w], outputs=["Y"])
    algo = graph(nodes=[node("Add", ["W", "lr"], ["W_new"], "step")],
                 inits=[tensor("lr", FLOAT, [4], ext=keys)], outputs=["W_new"], name="algo")
    ti = cat(fb(2, algo), fb(4, cat(fb(1, "W"), fb(2, "W_new"))))
    return model(main, extra=fb(20, ti))


def small_cases():
    T = lambda *parts: cat(*parts)
    c = {
        "xtype_elem_only.onnx": T(fb(1, fv(1, FLOAT))),
        "xtype_elem_zero.onnx": T(fb(1, cat(fv(1, 0), shape(fv(1, 2), fv(1, 3))))),
        "xtype_sparse_elem_only.onnx": T(fb(8, fv(1, FLOAT))),
        "xtype_empty_axes.onnx": T(fb(1, cat(fv(1, FLOAT), shape(b"", fb(3, "DATA_FEATURE"))))),
        "xtype_two_tensor_types.onnx": T(fb(1, fv(1, FLOAT)), fb(1, fv(1, FLOAT))),
        "xtype_tensor_then_seq.onnx": T(fb(1, fv(1, FLOAT)), fb(4, fb(1, fb(1, fv(1, FLOAT))))),
        "xtype_two_shapes.onnx": T(fb(1, cat(fv(1, FLOAT), shape(b""), shape(b"")))),
        "xtype_dim_varint.onnx": T(fb(1, cat(fv(1, FLOAT), fb(2, fv(1, 2))))),
        "xtype_dim_value_bytes.onnx": T(fb(1, cat(fv(1, FLOAT), shape(fb(1, "2"), b"")))),
        "xtype_rank_1000.onnx": T(fb(1, cat(fv(1, FLOAT), shape(*([b""] * 1000))))),
        "xtype_garbage.onnx": b"\xff\xff",
    }
    c = {k: relu_with_output_type(v) for k, v in c.items()}
    c["xtraining_ext.onnx"] = training([("location", "data.bin"), ("offset", "0"),
                                        ("length", "16")])
    c["xtraining_dotdot.onnx"] = training([("location", "../secret.bin")])
    return c
