"""cases_export.py - hostile models for the ONNX export (src/export_onnx.c):
external data below the top level (a Constant's value, an If branch's
initializer, a Loop body's Constant, a function's Constant, a sparse_tensor
attribute the index keeps no tensor for), with a location inside the model's
folder (data.bin, laid out by adversarial.sh) or one that leaves it
(../secret.bin); external_data keys without data_location; a sparse_tensor
attribute whose bytes are not a message; an unnamed graph output with no type
(the export once passed its NULL name to memcpy). What each must do:
expect_export.txt.
"""
from make_cases import *  # noqa: F401,F403 (the helpers: model, graph, node, tensor, fv, fb...)

TENSOR, GRAPH, SPARSE_TENSOR = 4, 5, 11
OK = [("location", "data.bin"), ("offset", "0"), ("length", "16")]
DOTDOT = [("location", "../secret.bin")]


def a_t(name, t):
    return cat(fb(1, name), fv(20, TENSOR), fb(5, t))


def a_g(name, g):
    return cat(fb(1, name), fv(20, GRAPH), fb(6, g))


def a_sparse(name, sp):
    return cat(fb(1, name), fv(20, SPARSE_TENSOR), fb(22, sp))


def const(out, keys, name="c"):
    return node("Constant", [], [out], name, [a_t("value", tensor("cv", FLOAT, [4], ext=keys))])


def const_top(keys):
    return model(graph(nodes=[const("y", keys)], outputs=["y"]))


def if_branch_init(keys):
    then_g = graph(nodes=[node("Identity", ["w"], ["t"], "id_t")],
                   inits=[tensor("w", FLOAT, [4], ext=keys)], outputs=["t"], name="then")
    else_g = graph(nodes=[node("Identity", ["x"], ["e"], "id_e")], outputs=["e"], name="else")
    return model(graph(nodes=[node("If", ["cond"], ["y"], "if0",
                                   [a_g("then_branch", then_g), a_g("else_branch", else_g)])],
                       inputs=["cond", "x"], outputs=["y"]))


def loop_body_const(keys):
    body = graph(nodes=[const("k", keys, "c_body"),
                        node("Identity", ["cin"], ["cout"], "id_c"),
                        node("Add", ["acc", "k"], ["acc_out"], "add")],
                 inputs=["i", "cin", "acc"], outputs=["cout", "acc_out"], name="body")
    return model(graph(nodes=[node("Loop", ["n", "", "a0"], ["a"], "loop0", [a_g("body", body)])],
                       inputs=["n", "a0"], outputs=["a"]))


def function_const(keys):
    fn = function("F", [const("b", keys, "c_fn"), node("Add", ["x", "b"], ["y"], "add_fn")])
    return model(graph(nodes=[node("F", ["x"], ["y"], "call", domain="local")],
                       inputs=["x"], outputs=["y"]), functions=[fn])


def sparse_attr(values):
    sp = cat(fb(1, values), fb(2, tensor("idx", INT64, [2], raw=b"\0" * 16)), fv(3, 4))
    return model(graph(nodes=[node("Holder", ["x"], ["y"], "h", [a_sparse("sp", sp)],
                                   domain="com.example")],
                       inputs=["x"], outputs=["y"]))


def small_cases():
    c = {}
    for where, make in (("const", const_top), ("if_init", if_branch_init),
                        ("loop_const", loop_body_const), ("fn_const", function_const)):
        c["export_%s_ext.onnx" % where] = make(OK)
        c["export_%s_dotdot.onnx" % where] = make(DOTDOT)
    c["export_sparse_attr_ext.onnx"] = sparse_attr(tensor("sv", FLOAT, [2], ext=[
        ("location", "data.bin"), ("offset", "4"), ("length", "8")]))
    c["export_sparse_attr_dotdot.onnx"] = sparse_attr(tensor("sv", FLOAT, [2], ext=DOTDOT))
    c["export_sparse_attr_basepath.onnx"] = sparse_attr(tensor("sv", FLOAT, [2], ext=[
        ("location", "data.bin"), ("basepath", "/etc")]))
    # A sparse_tensor attribute whose bytes are no message (field number 0):
    # copied as it is. One that nnav's reader cannot read (a group, which
    # protobuf parsers skip) around a values tensor naming ../secret.bin:
    # refused, since a lenient parser would find the location.
    def holder(sp_bytes):
        return model(graph(nodes=[node("Holder", ["x"], ["y"], "h",
                                       [cat(fb(1, "sp"), fv(20, SPARSE_TENSOR), fb(22, sp_bytes))],
                                       domain="com.example")],
                           inputs=["x"], outputs=["y"]))
    c["export_sparse_attr_garbage.onnx"] = holder(b"\x00\x00\x00")
    c["export_sparse_attr_group_location.onnx"] = holder(cat(
        tag(9, SGROUP), tag(9, EGROUP), fb(1, tensor("sv", FLOAT, [2], ext=DOTDOT))))
    # external_data naming ../secret.bin without data_location: not external,
    # and the keys must not reach the output.
    stray = cat(fv(1, 4), fv(2, FLOAT), fb(8, "cv"), fb(9, floats(1, 2, 3, 4)),
                fb(13, cat(fb(1, "location"), fb(2, "../secret.bin"))))
    c["export_stray_location.onnx"] = model(graph(
        nodes=[node("Constant", [], ["y"], "c", [a_t("value", stray)])], outputs=["y"]))
    # A graph output with neither a name nor a type.
    c["export_unnamed_output.onnx"] = model(
        graph(nodes=[node("Relu", ["x"], [""], "r")], inputs=["x"]) + fb(12, b""))
    return c
