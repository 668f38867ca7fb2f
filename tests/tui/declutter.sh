#!/usr/bin/env bash
# D, the decluttered view (issue 14, item 6; on at start, issue 32 item 2),
# on an exporter-style model written here: the explorer opens decluttered
# (the header says how many nodes are hidden), D shows every node and D
# again hides them; --no-declutter opens on the file as written. The Constant, Identity and folded Shape -> Gather ->
# Unsqueeze -> Concat rows leave the node list, the header counts them
# ("12 nodes (decluttered: 9 hidden)"), a row shows a folded input as its value, the
# Reshape's detail shows its shape input as "= [1,197,16,64] (folded)" and
# its weight's real source (the initializer behind the Identity), the graph
# view has no box for the folded Concat or Shape, and a second D brings
# every node back.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_declutter.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
need_onnx_python
"$py" - "$dir/vit.onnx" << 'EOF'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
def const(name, v):
    return h.make_node("Constant", [], [name], name="/" + name,
                       value=nh.from_array(np.array(v, dtype=np.int64), name))
n = [h.make_node("Identity", ["ln.weight"], ["enc.ln.weight"], name="/enc/Identity"),
     h.make_node("Mul", ["x", "enc.ln.weight"], ["m"], name="/enc/Mul"),
     h.make_node("Shape", ["m"], ["s"], name="/enc/Shape"), const("zero_c", 0),
     h.make_node("Gather", ["s", "zero_c"], ["b"], name="/enc/Gather", axis=0),
     const("axes_c", [0]),
     h.make_node("Unsqueeze", ["b", "axes_c"], ["bu"], name="/enc/Unsqueeze"),
     const("rest_c", [197, 16, 64]),
     h.make_node("Concat", ["bu", "rest_c"], ["shp"], name="/enc/Concat", axis=0),
     h.make_node("Reshape", ["m", "shp"], ["r"], name="/enc/Reshape"),
     const("back_c", [1, 197, 1024]),
     h.make_node("Reshape", ["r", "back_c"], ["y"], name="/enc/Reshape_1")]
g = h.make_graph(n, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 197, 1024])],
                 [h.make_tensor_value_info("y", T.FLOAT, None)],
                 [nh.from_array(np.ones(1024, dtype=np.float32), "ln.weight")])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), sys.argv[1])
EOF

start 160 30 "$dir/vit.onnx"
wait_ready
expect_line "nnav " "12 nodes (decluttered: 9 hidden)"
no_text "/zero_c"
pass "opens decluttered, the header says so and how many nodes are hidden"
keys D
wait_for "/zero_c"
wait_for "/enc/Concat"
wait_gone "decluttered: 9"
pass "D: every node listed"
keys D
wait_for "12 nodes (decluttered: 9 hidden)"
wait_gone "/enc/Concat"
no_text "/zero_c"
rows=$(screen | grep -cE '│ *[0-9]+ (Identity|Shape|Gather|Unsqueeze|Concat|Constant) ')
[ "$rows" -eq 0 ] || fail "$rows clutter rows left in the node list"
expect_line "1 B: enc.ln.weight ←" "initializer"
wait_for "/enc/Reshape_1"
expect_line "/enc/Reshape_1" "r,[1,197,1024] (folded)"
pass "D: the Constant, Identity and folded shape rows hidden, the header counts them"
# Enter on the Mul's weight goes through the hidden Identity to the initializer.
keys Tab
wait_for "line 1/"
keys Down Down
keys Enter
wait_for "tensor ln.weight"
pass "Enter on an input walks through the hidden Identity to its real producer"
keys BSpace
wait_for "name /enc/Mul"
typ "/enc/Reshape"
keys Enter
wait_for "= [1,197,16,64] (folded)"
pass "the Reshape's shape input shows its folded value"
keys v
wait_for "Mul"
wait_for "Reshape_1"
no_text "Concat"
no_text "Shape"
pass "graph view of the Reshape: the Mul above it, no folded Concat or Shape box"
keys D
wait_for "Concat"
wait_gone "decluttered"
pass "a second D: the graph view shows the Concat again"
keys v
wait_for "/enc/Concat"
pass "and the node list every node"
quit_clean
start_args 160 30 --no-declutter "$dir/vit.onnx"
wait_ready
wait_for "/zero_c"
expect_line "nnav " "12 nodes  "
pass "--no-declutter: the file as written"
quit_clean
