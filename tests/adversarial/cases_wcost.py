"""cases_wcost.py - hostile models for the whole-model cost (src/wcost.c):
Loops nested past NNAV_WCOST_DEPTH (64), a Loop of INT64_MAX trips (past
the dims' range: counted once, per iteration) and one of 2^40 trips whose
product passes 2^63 (too large to count, never a wrapped number), a local
function that calls itself and two that call each other. What each must
do: expect_wcost.txt. Every case is well formed and opens; each is run
through every command under ASan+UBSan by adversarial.sh.
"""
import struct

from make_cases import *  # noqa: F401,F403 (model, graph, node, tensor, function, fb, fv...)

GRAPH_ATTR, INT64_T, BOOL_T = 5, 7, 9


def tvi(name, dims=None, elem=FLOAT):
    tt = fv(1, elem)
    if dims is not None:
        tt += fb(2, b"".join(fb(1, fv(1, d)) for d in dims))
    return cat(fb(1, name), fb(2, fb(1, tt)))


def a_g(name, g):
    return cat(fb(1, name), fv(20, GRAPH_ATTR), fb(6, g))


def m_init(trip):
    return tensor("M", INT64_T, [], raw=struct.pack("<q", trip))


def loop_graph(nodes, name, extra=b""):
    """A Loop body without states: (i, c) in, c_out out."""
    return cat(b"".join(fb(1, n) for n in nodes), fb(2, name),
               fb(11, tvi("i", [], INT64_T)), fb(11, tvi("c", [], BOOL_T)),
               fb(12, tvi("c_out", [], BOOL_T)), extra)


def deep_loops(depth, trip):
    """`depth` Loops, each the body of the one above, every one of trip
    count M (the main graph's constant); the innermost multiplies the main
    graph's X [1,4] by W [4,4] (16 MACs)."""
    body = loop_graph([node("Identity", ["c"], ["c_out"]),
                       node("MatMul", ["X", "W"], ["leaf"], "leaf")], "leaf_body")
    for i in reversed(range(1, depth)):
        body = loop_graph([node("Identity", ["c"], ["c_out"]),
                           node("Loop", ["M", "c"], [], "loop%d" % i, [a_g("body", body)])],
                          "body%d" % i)
    w = tensor("W", FLOAT, [4, 4], raw=b"\0" * 64)
    main = cat(fb(1, node("Loop", ["M", "cond"], [], "loop0", [a_g("body", body)])),
               fb(2, "main"), fb(5, m_init(trip)), fb(5, w),
               fb(11, tvi("X", [1, 4])), fb(11, tvi("cond", [], BOOL_T)),
               fb(12, tvi("X")))
    return model(main)


def costly_loop(trip):
    """Loop(M) whose body multiplies X [1,4096] by W [4096,4096] (graph
    inputs with shapes, no data): 16.8 M MACs a trip."""
    body = loop_graph([node("Identity", ["c"], ["c_out"]),
                       node("MatMul", ["X", "W"], ["y"], "mm")], "body")
    main = cat(fb(1, node("Loop", ["M", "cond"], [], "loop", [a_g("body", body)])),
               fb(2, "main"), fb(5, m_init(trip)),
               fb(11, tvi("X", [1, 4096])), fb(11, tvi("W", [4096, 4096])),
               fb(11, tvi("cond", [], BOOL_T)), fb(12, tvi("X")))
    return model(main)


def calls(pairs):
    """Local functions (name, callee): each multiplies x by a Constant
    [4,4] weight, then calls its callee; the main graph calls the first."""
    funcs = []
    for name, callee in pairs:
        w = cat(fb(1, "value"), fv(20, 4), fb(5, tensor("", FLOAT, [4, 4], raw=b"\0" * 64)))
        funcs.append(function(name, [node("Constant", [], ["k"], attrs=[w]),
                                     node("MatMul", ["x", "k"], ["m"]),
                                     node(callee, ["m"], ["y"], domain="local")]))
    main = cat(fb(1, node(pairs[0][0], ["X"], ["Y"], "call", domain="local")), fb(2, "main"),
               fb(11, tvi("X", [1, 4])), fb(12, tvi("Y")))
    return cat(fv(1, 8), fb(8, opset()), fb(8, opset("local", 1)), fb(7, main),
               b"".join(fb(25, f) for f in funcs))


def small_cases():
    return {
        "wcost_deep_loops.onnx": deep_loops(80, 3),
        "wcost_deep_loops_once.onnx": deep_loops(80, 1),
        "wcost_loop_int64max.onnx": costly_loop(2**63 - 1),
        "wcost_loop_overflow.onnx": costly_loop(2**40),
        "wcost_self_call.onnx": calls([("F", "F")]),
        "wcost_mutual_calls.onnx": calls([("F", "G"), ("G", "F")]),
    }
