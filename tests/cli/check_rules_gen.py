#!/usr/bin/env python3
"""check_rules_gen.py - models for tests/cli/check_rules.sh, and the oracle.

  check_rules_gen.py rules DIR     a valid model and one model per broken rule
                                   (and models that must pass) into DIR, and
                                   DIR/cases.tsv: NAME, the rule word nnav must
                                   give ("-" none), the node it must name ("-")
  check_rules_gen.py torch DIR     small torch.onnx.export models (torch 1.13)
  check_rules_gen.py oracle FILE.. "NAME<TAB>ok" or "NAME<TAB>fail<TAB>why" per
                                   file: onnx.checker.check_model(path,
                                   full_check=True), and "lax" for the verdict
                                   without full_check when it differs

Every model is written with onnx.helper; which rule each breaks is said
beside it. The verdict is never written here: the test asks the oracle."""
import os
import sys

import onnx
from onnx import AttributeProto as AP
from onnx import TensorProto as TP
from onnx import helper as h


def F(name, shape=(2, 3)):
    return h.make_tensor_value_info(name, TP.FLOAT, list(shape))


def I32(name, shape=(2, 3)):
    return h.make_tensor_value_info(name, TP.INT32, list(shape))


def model(nodes, ins, outs, opsets=(("", 13),), funcs=(), vi=(), ir=None, inits=(), sparse=()):
    g = h.make_graph(nodes, "g", ins, outs, value_info=list(vi), initializer=list(inits),
                     sparse_initializer=list(sparse))
    m = h.make_model(g, opset_imports=[h.make_opsetid(d, v) for d, v in opsets],
                     functions=list(funcs))
    if ir is not None:
        m.ir_version = ir
    return m


def relu(name="r", ins=("x",), outs=("y",), **kw):
    return h.make_node("Relu", list(ins), list(outs), name=name, **kw)


def function(nodes, fopset=13, attributes=()):
    return h.make_function("my.fn", "F", ["a"], ["b"], nodes, [h.make_opsetid("", fopset)],
                           attributes=list(attributes))


CALL = h.make_node("F", ["x"], ["y"], name="call", domain="my.fn")


def B(name):
    return h.make_tensor_value_info(name, TP.BOOL, [])


def W(name, shape=(2, 3)):
    n = 1
    for d in shape:
        n *= d
    return h.make_tensor(name, TP.FLOAT, list(shape), [1.0] * n)


def if_node(then_nodes, then_outs, else_nodes=None, else_outs=("e",), outs=("y",), name="if",
            then_inits=()):
    """An If on the bool input c; the else branch a Relu of x unless given."""
    if else_nodes is None:
        else_nodes = [h.make_node("Relu", ["x"], ["e"], name="er")]
    then = h.make_graph(then_nodes, "then", [], [F(o) for o in then_outs],
                        initializer=list(then_inits))
    els = h.make_graph(else_nodes, "else", [], [F(o) for o in else_outs])
    return h.make_node("If", ["c"], list(outs), then_branch=then, else_branch=els, name=name)


def loop_node(body_nodes, body_ins, body_outs, ins=("n", "c", "x"), outs=("y",), name="loop",
              inits=()):
    """A Loop whose body takes (i, cond, body_ins...) and gives (cond_out, body_outs...)."""
    body = h.make_graph([h.make_node("Identity", ["cond"], ["cond_out"], name="ci")] + body_nodes,
                        "body", [h.make_tensor_value_info("i", TP.INT64, []), B("cond")] +
                        [F(v) for v in body_ins], [B("cond_out")] + [F(v) for v in body_outs],
                        initializer=list(inits))
    return h.make_node("Loop", list(ins), list(outs), body=body, name=name)


LOOP_INS = [F("x"), B("c"), h.make_tensor_value_info("n", TP.INT64, [])]


def rules(d):
    cases = []  # (name, rule word or "-", node name or "-", model)

    def case(name, rule, node, m):
        cases.append((name, rule, node, m))

    # Must pass: what onnx.checker accepts.
    case("valid", "-", "-", model([relu()], [F("x")], [F("y")]))
    conv = h.make_node("Conv", ["x", "w"], ["y"], name="conv1", kernel_shape=[3, 3], group=1)
    case("valid_conv", "-", "-", model([conv], [F("x", (1, 3, 8, 8)), F("w", (4, 3, 3, 3))],
                                       [F("y", (1, 4, 6, 6))]))
    case("internal_attr", "-", "-", model([relu(__nnav=1)], [F("x")], [F("y")]))
    clip = h.make_node("Clip", ["x", "", ""], ["y"], name="clip")  # trailing omitted optionals
    case("omitted_optional_in", "-", "-", model([clip], [F("x")], [F("y")]))
    drop = h.make_node("Dropout", ["x"], ["y", ""], name="drop")
    case("omitted_optional_out", "-", "-", model([drop], [F("x")], [F("y")]))
    case("relu_int32_at_14", "-", "-", model([relu()], [I32("x")], [I32("y")], opsets=(("", 14),)))
    # Nodes of a domain the table does not hold, imported: skipped, said once.
    # (com.microsoft is in the table: tests/cli/opschema_new.sh holds its
    # nodes to ONNX Runtime, the oracle for them.)
    ms = [h.make_node("FusedGemm", ["x" if i == 0 else "t%d" % (i - 1)],
                      ["t%d" % i if i < 11 else "y"], name="ms%d" % i, domain="com.example")
          for i in range(12)]
    case("custom_12", "-", "-", model(ms, [F("x")], [F("y")],
                                      opsets=(("", 13), ("com.example", 1))))
    # An opset past the table (it knows 27): a notice, not a finding.
    case("opset_99", "-", "-", model([relu()], [F("x")], [F("y")], opsets=(("", 99),)))
    # A function's attribute reference of the schema's type; a call of it.
    inner = h.make_node("Softmax", ["a"], ["b"], name="inner")
    ref = AP(name="axis", ref_attr_name="ax", type=AP.INT)
    inner.attribute.append(ref)
    call = h.make_node("F", ["x"], ["y"], name="call", domain="my.fn", ax=1)
    case("function_ref_attr", "-", "-", model([call], [F("x")], [F("y")],
                                              opsets=(("", 13), ("my.fn", 1)),
                                              funcs=[function([inner], attributes=["ax"])]))

    # Must fail, one rule each.
    case("unknown_operator", "unknown_operator", "frob",
         model([h.make_node("Frobnicate", ["x"], ["y"], name="frob")], [F("x")], [F("y")]))
    conv = h.make_node("Conv", ["x", "w"], ["y"], name="conv1", kernel_shape=[3, 3], group="1")
    case("attribute_type", "attribute_type", "conv1",
         model([conv], [F("x", (1, 3, 8, 8)), F("w", (4, 3, 3, 3))], [F("y", (1, 4, 6, 6))]))
    sm = h.make_node("Softmax", ["x"], ["y"], name="sm", axis=1)
    sm.attribute[0].ClearField("type")
    case("attribute_no_type", "attribute_type", "sm", model([sm], [F("x")], [F("y")]))
    case("missing_attribute", "missing_attribute", "cast",
         model([h.make_node("Cast", ["x"], ["y"], name="cast")], [F("x")], [F("y")]))
    cat = h.make_node("Concat", ["x", "x"], ["y"], name="cat")
    case("missing_attribute_concat", "missing_attribute", "cat",
         model([cat], [F("x")], [F("y", (4, 3))]))
    case("too_many_inputs", "input_count", "r", model([relu(ins=("x", "x"))], [F("x")], [F("y")]))
    case("omitted_past_max", "input_count", "r", model([relu(ins=("x", ""))], [F("x")], [F("y")]))
    case("too_few_inputs", "input_count", "add",
         model([h.make_node("Add", ["x"], ["y"], name="add")], [F("x")], [F("y")]))
    case("too_few_outputs", "output_count", "r", model([relu(outs=())], [F("x")], []))
    case("too_many_outputs", "output_count", "r",
         model([relu(outs=("y", "z"))], [F("x")], [F("y")]))
    case("unknown_attribute", "unknown_attribute", "r", model([relu(foo=1)], [F("x")], [F("y")]))
    case("underscore_attribute", "unknown_attribute", "r",
         model([relu(_foo=1)], [F("x")], [F("y")]))
    dup = h.make_node("Softmax", ["x"], ["y"], name="sm", axis=1)
    dup.attribute.append(h.make_attribute("axis", 1))
    case("duplicate_attribute", "duplicate_attribute", "sm", model([dup], [F("x")], [F("y")]))
    case("empty_single_input", "missing_input", "add",
         model([h.make_node("Add", ["x", ""], ["y"], name="add")], [F("x")], [F("y")]))
    # onnx.checker finds these two only with full_check (its type inference).
    case("input_type", "input_type", "r", model([relu()], [I32("x")], [I32("y")]))
    case("type_bound_twice", "input_type", "add",
         model([h.make_node("Add", ["x", "z"], ["y"], name="add")], [F("x"), I32("z")], [F("y")]))
    ln = h.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln")
    case("not_yet", "not_yet", "ln", model([ln], [F("x"), F("s", (3,))], [F("y")]))
    case("no_opset_ml", "no_opset", "sc",
         model([h.make_node("Scaler", ["x"], ["y"], name="sc", domain="ai.onnx.ml")],
               [F("x")], [F("y")]))
    case("no_opset_microsoft", "no_opset", "fg",
         model([h.make_node("FusedGemm", ["x"], ["y"], name="fg", domain="com.microsoft")],
               [F("x")], [F("y")]))
    # onnx.checker: a node of "ai.onnx" needs an import spelled "ai.onnx".
    case("no_opset_spelled", "no_opset", "r", model([relu(domain="ai.onnx")], [F("x")], [F("y")]))
    up = h.make_node("Upsample", ["x", "s"], ["y"], name="up")
    case("deprecated", "deprecated", "up",
         model([up], [F("x", (1, 1, 2, 2)), F("s", (4,))], [F("y", (1, 1, 4, 4))],
               opsets=(("", 10),)))
    case("opset_zero", "opset_range", "-", model([relu()], [F("x")], [F("y")], opsets=(("", 0),)))
    bad = relu(name="inner", ins=("a",), outs=("b",), foo=3)
    case("function_body", "unknown_attribute", "inner",
         model([CALL], [F("x")], [F("y")], opsets=(("", 13), ("my.fn", 1)),
               funcs=[function([bad])]))
    ln = h.make_node("LayerNormalization", ["a", "a"], ["c"], name="ln")
    case("function_opset", "function_opset", "ln",
         model([CALL], [F("x")], [F("y")], opsets=(("", 13), ("my.fn", 1)),
               funcs=[function([relu(name="r", ins=("a",), outs=("b",)), ln], fopset=17)]))
    then = h.make_graph([h.make_node("Frob", ["x"], ["t"], name="deep")], "then", [], [F("t")])
    els = h.make_graph([h.make_node("Relu", ["x"], ["e"], name="e")], "else", [], [F("e")])
    iff = h.make_node("If", ["c"], ["y"], then_branch=then, else_branch=els, name="if")
    case("body_node", "unknown_operator", "deep",
         model([iff], [F("x"), h.make_tensor_value_info("c", TP.BOOL, [])], [F("y")]))
    # Today's finding, kept: value_info says [1,4], Relu gives [1,3].
    case("type_contradiction", "-", "-",
         model([relu(ins=("x",), outs=("y",)), h.make_node("Neg", ["y"], ["z"], name="neg")],
               [F("x", (1, 3))], [F("z", (1, 3))], vi=[F("y", (1, 4))]))

    # Counts past what is kept or named: 10,001 unknown attributes (10,000
    # findings are listed), 20 custom domains (16 named), a node with one
    # name given 3 times among 12 attributes.
    many = [relu("r%d" % i, ("x",), ("y%d" % i,), foo=i) for i in range(10001)]
    case("many_findings", "unknown_attribute", "r0",
         model(many, [F("x")], [F("y%d" % i) for i in range(10001)]))
    doms = [h.make_node("Op", ["x"], ["y%d" % i], name="c%d" % i, domain="d%02d" % i)
            for i in range(20)]
    case("twenty_domains", "-", "-",
         model(doms, [F("x")], [F("y%d" % i) for i in range(20)],
               opsets=[("", 13)] + [("d%02d" % i, 1) for i in range(20)]))
    attrs = {"a%d" % i: i for i in range(10)}
    busy = h.make_node("Softmax", ["x"], ["y"], name="busy", axis=1, **attrs)
    busy.attribute.extend([h.make_attribute("axis", 1), h.make_attribute("axis", 1)])
    case("duplicate_among_many", "duplicate_attribute", "busy", model([busy], [F("x")], [F("y")]))

    # ---- the graph's rules (issue 30): each broken once in the main graph
    # and once in a body, and what onnx.checker accepts ----
    n = h.make_node
    IFIN = [F("x"), B("c")]
    # ssa: a name written twice
    case("ssa_two_writers", "ssa", "b",
         model([relu("a"), n("Neg", ["x"], ["y"], name="b")], [F("x")], [F("y")]))
    case("ssa_two_writers_body", "ssa", "tb",
         model([if_node([relu("ta", outs=("t",)), n("Neg", ["x"], ["t"], name="tb")], ["t"])],
               IFIN, [F("y")]))
    case("ssa_one_node_twice", "ssa", "s",
         model([n("Split", ["x"], ["y", "y"], name="s", axis=0)], [F("x", (4, 3))], [F("y")]))
    case("ssa_overwrites_input", "ssa", "a",
         model([relu("a", outs=("x",)), n("Neg", ["x"], ["y"], name="b")], [F("x")], [F("y")]))
    case("ssa_overwrites_initializer", "ssa", "a",
         model([relu("a", outs=("w",)), n("Add", ["x", "w"], ["y"], name="b")], [F("x")], [F("y")],
               inits=[W("w")]))
    case("ssa_body_overwrites_outer", "ssa", "tr",
         model([n("Neg", ["x"], ["a"], name="neg"), if_node([relu("tr", outs=("a",))], ["a"])],
               IFIN, [F("y")]))
    case("ssa_body_overwrites_input", "ssa", "tr",
         model([if_node([relu("tr", ins=("x",), outs=("x",))], ["x"])], IFIN, [F("y")]))
    case("ssa_input_twice", "ssa", "-",
         model([n("Add", ["x", "x"], ["y"], name="add")], [F("x"), F("x")], [F("y")]))
    case("ssa_body_input_twice", "ssa", "-",
         model([loop_node([relu("br", ins=("v",), outs=("v_out",))], ["v", "v"], ["v_out"],
                          ins=("n", "c", "x", "x"), outs=("y", "y2"))],
               LOOP_INS, [F("y"), F("y2")]))
    fn = h.make_function("my.fn", "F", ["a"], ["b"],
                         [relu("r1", ins=("a",), outs=("b",)), n("Neg", ["a"], ["b"], name="r2")],
                         [h.make_opsetid("", 13)])
    case("ssa_function", "ssa", "r2",
         model([CALL], [F("x")], [F("y")], opsets=(("", 13), ("my.fn", 1)), funcs=[fn]))
    fno = h.make_function("my.fn", "F", ["a"], ["b", "b"], [relu("r1", ins=("a",), outs=("b",))],
                          [h.make_opsetid("", 13)])
    case("ssa_function_output_twice", "ssa", "-",
         model([n("F", ["x"], ["y", "z"], name="call", domain="my.fn")], [F("x")], [F("y"), F("z")],
               opsets=(("", 13), ("my.fn", 1)), funcs=[fno]))
    # onnx.checker holds a function's body to the graph rules from IR version 8 only.
    case("ssa_function_ir7", "-", "-",
         model([CALL], [F("x")], [F("y")], opsets=(("", 13), ("my.fn", 1)), funcs=[fn], ir=7))
    # topological_order: a node reading what a later node writes
    case("order", "topological_order", "b",
         model([n("Neg", ["t"], ["y"], name="b"), relu("a", outs=("t",))], [F("x")], [F("y")]))
    case("order_self", "topological_order", "a",
         model([n("Add", ["x", "t"], ["t"], name="a"), relu("b", ins=("t",))], [F("x")], [F("y")]))
    case("order_body", "topological_order", "tb",
         model([if_node([n("Neg", ["t"], ["u"], name="tb"), relu("ta", outs=("t",))], ["u"])],
               IFIN, [F("y")]))
    case("order_body_outer_later", "topological_order", "tr",
         model([if_node([relu("tr", ins=("a",), outs=("t",))], ["t"]),
                n("Neg", ["x"], ["a"], name="neg")], IFIN, [F("y"), F("a")]))
    fn2 = h.make_function("my.fn", "F", ["a"], ["b"],
                          [n("Neg", ["t"], ["b"], name="r2"), relu("r1", ins=("a",), outs=("t",))],
                          [h.make_opsetid("", 13)])
    case("order_function", "topological_order", "r2",
         model([CALL], [F("x")], [F("y")], opsets=(("", 13), ("my.fn", 1)), funcs=[fn2]))
    # undefined_input: a name nothing defines where the node can see it
    case("undefined", "undefined_input", "add",
         model([n("Add", ["x", "zz"], ["y"], name="add")], [F("x")], [F("y")]))
    case("undefined_body", "undefined_input", "tr",
         model([if_node([n("Add", ["x", "zz"], ["t"], name="tr")], ["t"])], IFIN, [F("y")]))
    case("undefined_body_value_outside", "undefined_input", "neg",
         model([if_node([relu("tr", outs=("t",))], ["t"]), n("Neg", ["t"], ["z"], name="neg")],
               IFIN, [F("y"), F("z")]))
    case("undefined_sibling_body", "undefined_input", "er",
         model([if_node([relu("tr", outs=("t",))], ["t"], [relu("er", ins=("t",), outs=("e",))])],
               IFIN, [F("y")]))
    # duplicate_initializer: one name, two initializers (or a sparse one; or none)
    case("initializer_twice", "duplicate_initializer", "-",
         model([n("Add", ["x", "w"], ["y"], name="add")], [F("x")], [F("y")], inits=[W("w"), W("w")]))
    case("initializer_twice_body", "duplicate_initializer", "-",
         model([if_node([n("Add", ["x", "w"], ["t"], name="tr")], ["t"], then_inits=[W("w"), W("w")])],
               IFIN, [F("y")]))
    sp = h.make_sparse_tensor(h.make_tensor("w", TP.FLOAT, [1], [1.0]),
                              h.make_tensor("wi", TP.INT64, [1], [0]), [2, 3])
    case("initializer_sparse_twice", "duplicate_initializer", "-",
         model([n("Add", ["x", "w"], ["y"], name="add")], [F("x")], [F("y")], inits=[W("w")],
               sparse=[sp]))
    case("initializer_unnamed", "duplicate_initializer", "-",
         model([relu()], [F("x")], [F("y")], inits=[W("")]))
    # initializer_not_input: IR version 3 lists every initializer as an input
    case("initializer_not_input_ir3", "initializer_not_input", "-",
         model([n("Add", ["x", "w"], ["y"], name="add")], [F("x")], [F("y")], inits=[W("w")],
               opsets=(("", 8),), ir=3))
    case("initializer_not_input_ir3_body", "initializer_not_input", "-",
         model([if_node([n("Add", ["x", "w"], ["t"], name="tr")], ["t"], then_inits=[W("w")])],
               IFIN, [F("y")], opsets=(("", 8),), ir=3))
    case("initializer_is_input_ir3", "-", "-",
         model([n("Add", ["x", "w"], ["y"], name="add")], [F("x"), F("w")], [F("y")],
               inits=[W("w")], opsets=(("", 8),), ir=3))
    # input_shape: MatMul's inner sizes disagree (onnx.checker's inference,
    # full_check only, and in the main graph only: in a body it says nothing)
    case("matmul_inner", "input_shape", "mm",
         model([n("MatMul", ["x", "v"], ["y"], name="mm")], [F("x"), F("v", (5, 4))],
               [F("y", (2, 4))]))
    case("matmul_batch", "input_shape", "mm",
         model([n("MatMul", ["x", "v"], ["y"], name="mm")], [F("x", (2, 2, 3)), F("v", (3, 3, 4))],
               [F("y", (3, 2, 4))]))
    case("matmul_body", "-", "-",
         model([if_node([n("MatMul", ["x", "v"], ["t"], name="mm")], ["t"])],
               IFIN + [F("v", (5, 4))], [F("y")]))
    case("matmul_symbolic", "-", "-",
         model([n("MatMul", ["x", "v"], ["y"], name="mm")],
               [h.make_tensor_value_info("x", TP.FLOAT, ["a", "k"]), F("v", (5, 4))],
               [h.make_tensor_value_info("y", TP.FLOAT, ["a", 4])]))
    # Must pass: outer values in bodies, names a body may reuse or hide.
    case("if_outer_values", "-", "-",
         model([n("Neg", ["x"], ["a"], name="neg"),
                if_node([n("Add", ["a", "w"], ["t"], name="tr")], ["t"])], IFIN, [F("y")],
               inits=[W("w")]))
    case("loop_outer_values", "-", "-",
         model([loop_node([n("Add", ["x", "w"], ["x_out"], name="add")], ["x"], ["x_out"])],
               LOOP_INS + [F("w")], [F("y")]))
    inner = if_node([n("Add", ["v", "x"], ["t"], name="deep")], ["t"], outs=("v_out",), name="inner")
    inner.input[0] = "cond"
    case("nested_bodies_outer_values", "-", "-",
         model([loop_node([inner], ["v"], ["v_out"])], LOOP_INS, [F("y")]))
    case("body_initializer_hides_outer", "-", "-",
         model([if_node([n("Add", ["x", "w"], ["t"], name="tr")], ["t"], then_inits=[W("x")])],
               IFIN + [F("w")], [F("y")]))
    case("body_name_reused_later", "-", "-",
         model([if_node([relu("tr", outs=("a",))], ["a"]), n("Neg", ["x"], ["a"], name="neg")],
               IFIN, [F("y"), F("a")]))
    case("body_output_named_as_node_output", "-", "-",
         model([if_node([relu("tr", outs=("y",))], ["y"])], IFIN, [F("y")]))
    case("initializer_is_input", "-", "-",
         model([n("Add", ["x", "w"], ["y"], name="add")], [F("x"), F("w")], [F("y")],
               inits=[W("w")]))
    fn3 = h.make_function("my.fn", "F", ["a", "c"], ["b"],
                          [if_node([relu("ft", ins=("a",), outs=("t",))], ["t"], outs=("b",),
                                   else_nodes=[relu("fe", ins=("a",), outs=("e",))], name="fif")],
                          [h.make_opsetid("", 13)])
    call = n("F", ["x", "c"], ["y"], name="call", domain="my.fn")
    case("function_body_outer_values", "-", "-",
         model([call], IFIN, [F("y")], opsets=(("", 13), ("my.fn", 1)), funcs=[fn3]))
    # Two nodes, both findings: both are counted as checked.
    case("two_nodes_two_findings", "unknown_operator", "a",
         model([n("Frob", ["x"], ["t"], name="a"), relu("b", ins=("t",), foo=1)], [F("x")],
               [F("y")]))

    with open(os.path.join(d, "cases.tsv"), "w") as f:
        for name, rule, node, m in cases:
            onnx.save(m, os.path.join(d, name + ".onnx"))
            f.write("%s\t%s\t%s\n" % (name, rule, node))
    print(len(cases))


def torch_models(d):
    try:
        import torch
        import torch.nn as nn
        import torch.nn.functional as tf
    except ImportError:
        print("0")
        return
    import warnings
    warnings.filterwarnings("ignore")
    torch.manual_seed(0)

    class CNN(nn.Module):
        def __init__(s):
            super().__init__()
            s.c, s.b, s.l = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.Linear(128, 10)

        def forward(s, x):
            x = tf.max_pool2d(tf.relu(s.b(s.c(x))), 2)
            return tf.softmax(s.l(torch.flatten(x, 1)), -1)

    class RNN(nn.Module):
        def __init__(s):
            super().__init__()
            s.l, s.g = nn.LSTM(8, 16, batch_first=True), nn.GRU(16, 8)

        def forward(s, x):
            return s.g(s.l(x)[0])[0]

    class Encoder(nn.Module):
        def __init__(s):
            super().__init__()
            s.e = nn.Embedding(50, 32)
            s.t = nn.TransformerEncoderLayer(32, 4, 64, batch_first=True)
            s.n = nn.LayerNorm(32)

        def forward(s, x):
            return tf.gelu(s.n(s.t(s.e(x))))

    class Misc(nn.Module):
        def forward(s, x):
            y = tf.pad(tf.interpolate(x, scale_factor=2, mode="nearest"), (1, 1, 1, 1))
            z = torch.cat([y, y * 2], 1).cumsum(1)
            w = torch.where(z > 0, z, -z).argmax(1, keepdim=True).float()
            return w.mean(-1), z.reshape(z.shape[0], -1).topk(3)[0], x.clamp(0, 1).sum((2, 3))

    mods = {"cnn": (CNN(), torch.randn(1, 3, 8, 8), (9, 13, 17)),
            "rnn": (RNN(), torch.randn(2, 5, 8), (9, 13, 17)),
            "encoder": (Encoder(), torch.randint(0, 50, (2, 7)), (13, 17)),
            "misc": (Misc(), torch.randn(1, 3, 4, 4), (11, 17))}
    n = 0
    for name, (m, x, opsets) in mods.items():
        m.eval()
        for op in opsets:
            torch.onnx.export(m, (x,), os.path.join(d, "torch_%s_op%d.onnx" % (name, op)),
                              opset_version=op, input_names=["x"],
                              dynamic_axes={"x": {0: "batch"}})
            n += 1
    print(n)


def oracle(files):
    for p in files:
        name = os.path.basename(p)
        verdict = []
        # Never check_model(PATH, full_check=True): onnx 1.12 then runs
        # infer_shapes_path, which writes the inferred model over PATH (the
        # corpus, the samples). The model is loaded (its external data too)
        # and checked in memory.
        m = onnx.load(p)
        for full in (True, False):
            try:
                onnx.checker.check_model(m, full_check=full)
                verdict.append("ok")
            except Exception as e:  # the checker's own exception types vary
                verdict.append("fail\t" + " ".join(str(e).split())[:200])
        line = name + "\t" + verdict[0]
        if verdict[0] != verdict[1]:
            line += "\tlax:" + verdict[1].split("\t")[0]
        print(line)


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "rules":
        rules(sys.argv[2])
    elif what == "torch":
        torch_models(sys.argv[2])
    elif what == "oracle":
        oracle(sys.argv[2:])
    else:
        sys.exit("usage: check_rules_gen.py rules|torch DIR | oracle FILE...")
