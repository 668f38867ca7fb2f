#!/usr/bin/env bash
# Long machine-made names stay readable (issue 14, item 5). A model named the
# way PyTorch exports are (/encoder/layers/encoder_layer_N/self_attention/Op)
# is opened at 80 and 120 columns: the node jumped to shows the END of its
# name in the node list (the part that tells it from its neighbours), two
# initializers that share a 46-character prefix are told apart in their
# pane (each its name's start and end, and its shape), the detail pane holds
# the whole name (wrapped over lines where the pane is narrower than it), the
# graph view's boxes their whole names,
# and z zooms the focused pane to the whole screen and back.
. "$(dirname "$0")/tmux.bash"

py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, numpy' 2> /dev/null && { py=$c; break; }; done
[ -n "$py" ] || skip "python3 with onnx and numpy is needed to write the model"
model=$NNAV_TMP/long_names.onnx
"$py" - "$model" << 'PY' || fail "could not write the test model"
import sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh
nodes, inits, x = [], [], "x"
for i in range(12):
    p = "/encoder/layers/encoder_layer_%d/self_attention/" % i
    for op in ("MatMul", "Transpose", "Softmax"):
        ins = [x]
        if op == "MatMul":
            w = "encoder.layers.encoder_layer_%d.self_attention.in_proj_weight" % i
            b = "encoder.layers.encoder_layer_%d.self_attention.in_proj_bias" % i
            if i == 5:  # one layer's pair: same 46-character prefix
                inits.append(nh.from_array(np.zeros((8, 8), np.float32), w))
                inits.append(nh.from_array(np.zeros((8,), np.float32), b))
            else:
                w = "w%d" % i
                inits.append(nh.from_array(np.zeros((8, 8), np.float32), w))
            ins.append(w)
        y = p + op + "_output_0"
        nodes.append(h.make_node(op, ins, [y], name=p + op,
                                 **({"perm": [1, 0]} if op == "Transpose" else {})))
        x = y
g = h.make_graph(nodes, "main", [h.make_tensor_value_info("x", TP.FLOAT, [8, 8])],
                 [h.make_tensor_value_info(x, TP.FLOAT, [8, 8])], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), sys.argv[1])
PY

name=/encoder/layers/encoder_layer_5/self_attention/Transpose
tail=self_attention/Transpose

# jump W H: open at W x H and go to the node with : (the cursor row shows it)
jump() {
    start "$1" "$2" "$model"
    wait_ready
    keys :
    typ "$name"
    keys Enter
    wait_for "node #16 of 36"
}

# The node list's row for #16: its index, its op type and its name's tail.
row16() { screen | grep -E '(^|│| )16 +Transpose +' | head -1; }

for w in 80 120; do
    jump "$w" 30
    r=$(row16)
    [ -n "$r" ] || fail "at $w columns no node list row for #16 Transpose"
    case $r in *"$tail"*) ;; *) fail "at $w columns the row of #16 lacks '$tail': $r" ;; esac
    pass "at $w columns the jumped-to node's row ends in its name's tail ($tail)"

    # The initializers encoder.layers.encoder_layer_5.self_attention.in_proj_{weight,bias}
    # share 46 characters: their rows must show where they differ.
    # Each row has its name's start and end (cut in the middle) and then
    # its shape.
    screen | grep -qE ' enc[a-z_.]*…[a-z_.]*weight  float32\[8,8\] *$' ||
        fail "at $w columns the weight's row is not 'enc…weight  float32[8,8]'"
    screen | grep -qE ' enc[a-z_.]*…[a-z_.]*bias  float32\[8\] *$' ||
        fail "at $w columns the bias's row is not 'enc…bias  float32[8]'"
    pass "at $w columns the two initializers with a long common prefix are told apart"

    # The graph view's boxes: as wide as their names (53 to 56 columns,
    # which the graph pane has at 80 columns too), so each shows its whole
    # name and the three boxes read MatMul, Transpose, Softmax.
    keys v
    wait_for "Graph view"
    screen | grep -qE '│/encoder/layers/encoder_layer_5/self_attention/MatMul *│' ||
        fail "at $w columns the MatMul box lacks its whole name"
    screen | grep -qE '│/encoder/layers/encoder_layer_5/self_attention/Transpose│' ||
        fail "at $w columns the Transpose box is not as wide as its name"
    pass "at $w columns the graph view's boxes show their whole names"
    keys v
    wait_for "Nodes  main"

    quit_clean
done

# 80 columns: the detail pane (44 columns) holds the whole name over two lines,
# after "name " and then indented under it.
jump 80 30
piece=$((80 * 55 / 100 - 5))
first=${name:0:$piece}
rest=${name:$piece}
wait_for "name $first"
screen | grep -qE "^     ${rest}( |│|$)" || fail "the name's rest '$rest' is not on the next line of the detail"
pass "at 80 columns the detail wraps the whole name: '$first' then '$rest'"

# z zooms the node list (focused after the jump) to the whole screen: no other
# pane, the rows span the width (the whole name fits now), and more rows show.
keys z
wait_gone "Initializers"
no_text "Graphs"
no_text "Detail"
wait_for "Nodes"
rows=$(screen | grep -cE '^ *[0-9]+ +(MatMul|Transpose|Softmax) ')
[ "$rows" -ge 26 ] || fail "zoomed, the node list shows $rows rows, not the 27 between header and status"
pass "z zooms the node list to the whole screen ($rows rows)"
keys z
wait_for "Initializers"
wait_for "Graphs"
wait_for "Detail"
pass "z again shows every pane"

# Tab to the detail, z: the detail is 80 columns wide and the name fits one line.
keys Tab
keys z
wait_gone "Initializers"
wait_for "name $name"
no_text "Nodes"
pass "z zooms the detail pane; its name is laid out again at the new width (one line)"
keys z
wait_for "Initializers"
quit_clean
