#!/usr/bin/env bash
# The explorer shows the module hierarchy (issue 14, item 4). A ViT-like
# stack named as PyTorch's exporter names it (/encoder/layers/encoder_layer_N/
# self_attention/q_proj/MatMul), 4 identical layers of 10 nodes: the Graphs
# pane holds the graph's scopes under its row with their node counts and
# params, a chain with no nodes of its own as one row (encoder/layers), the
# first of the identical layers marked x4 and the others =0; the tree's
# cursor on a layer narrows the node list to its nodes, named relative to
# it, with its params and MACs in the title; Right expands it; `:` to a node
# deep in layer 2 shows the whole graph with the node, and puts the tree's
# cursor on the node's scope (layer 2 and its self_attention expanded: y
# copies the scope's path); S shows the graphs only and back.
. "$(dirname "$0")/tmux.bash"

py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, numpy' 2> /dev/null && { py=$c; break; }; done
[ -n "$py" ] || skip "python3 with onnx and numpy is needed to write the model"
model=$NNAV_TMP/scope_tree.onnx
"$py" - "$model" << 'PY' || fail "could not write the test model"
import sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh
D, inits, nodes, x = 8, [], [], "input"
rng = np.random.default_rng(7)
def w(name, *shape):
    inits.append(nh.from_array(rng.standard_normal(shape).astype(np.float32), name))
    return name
for i in range(4):
    p, q = "/encoder/layers/encoder_layer_%d" % i, "encoder.layers.encoder_layer_%d" % i
    ln = p + "/ln_1/LayerNormalization"
    nodes.append(h.make_node("LayerNormalization", [x, w(q + ".ln_1.weight", D), w(q + ".ln_1.bias", D)],
                             [ln + "_output_0"], name=ln, axis=-1, epsilon=1e-6))
    y = ln + "_output_0"
    for part in ("q_proj", "out_proj"):
        s = "%s/self_attention/%s/" % (p, part)
        nodes.append(h.make_node("MatMul", [y, w("%s.self_attention.%s.weight" % (q, part), D, D)],
                                 [s + "MatMul_output_0"], name=s + "MatMul"))
        nodes.append(h.make_node("Add", [s + "MatMul_output_0", w("%s.self_attention.%s.bias" % (q, part), D)],
                                 [s + "Add_output_0"], name=s + "Add"))
        y = s + "Add_output_0"
    nodes.append(h.make_node("Add", [x, y], [p + "/Add_output_0"], name=p + "/Add"))
    r = p + "/Add_output_0"
    nodes.append(h.make_node("MatMul", [r, w(q + ".mlp.0.weight", D, 4 * D)], [p + "/mlp/mlp.0/MatMul_output_0"], name=p + "/mlp/mlp.0/MatMul"))
    nodes.append(h.make_node("Relu", [p + "/mlp/mlp.0/MatMul_output_0"], [p + "/mlp/mlp.1/Relu_output_0"], name=p + "/mlp/mlp.1/Relu"))
    nodes.append(h.make_node("MatMul", [p + "/mlp/mlp.1/Relu_output_0", w(q + ".mlp.3.weight", 4 * D, D)], [p + "/mlp/mlp.3/MatMul_output_0"], name=p + "/mlp/mlp.3/MatMul"))
    nodes.append(h.make_node("Add", [r, p + "/mlp/mlp.3/MatMul_output_0"], [p + "/Add_1_output_0"], name=p + "/Add_1"))
    x = p + "/Add_1_output_0"
nodes.append(h.make_node("Identity", [x], ["output"], name="/Identity_out"))
g = h.make_graph(nodes, "main", [h.make_tensor_value_info("input", TP.FLOAT, [1, 5, D])],
                 [h.make_tensor_value_info("output", TP.FLOAT, [1, 5, D])], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), sys.argv[1])
PY

# The Graphs pane: its rows (below its title, above the detail's) up to the
# first separator.
tree() { screen | sed -n '/^ Graphs /,/^ Detail /p' | sed '1d;$d; s/│.*//'; }
tree_has() { tree | grep -qE -- "$1" || fail "no tree row like '$1'"; }
tree_lacks() { tree | grep -qE -- "$1" && fail "a tree row like '$1'"; return 0; }
wait_tree() {
    local i=0
    while [ "$i" -lt $((TUI_TIMEOUT * 20)) ]; do
        tree | grep -qE -- "$1" && return 0
        sleep 0.05
        i=$((i + 1))
    done
    fail "timed out waiting for a tree row like '$1'"
}

start 120 30 "$model"
wait_ready
wait_for "node #0 of 41"
# A layer's 10 nodes (its 672 params do not fit in the 30 columns the tree
# has at 120: they are in the node list's title when it is chosen).
tree_has '^▾ main 41 *$'
tree_has '^  ▾ encoder/layers 40 2\.69kp'
tree_has '^   ▸ encoder_layer_0 ×4 10 *$'
tree_has '^   ▸ encoder_layer_1 =0 10 *$'
tree_has '^   ▸ encoder_layer_3 =0 10 *$'
pass "the tree holds the scopes with node counts and params, identical layers marked"

# The tree's cursor onto layer 1 (rows: main, encoder/layers, layer 0, layer 1).
# With the focus, the tree widens (to two fifths of the width) so its rows
# show their params and MACs; the node list's title shortens the path.
keys BTab
keys j j j
wait_for "…/encoder_layer_1  10 nodes  672 params  3.2 k MACs"
tree_has '^   ▸ encoder_layer_1 =0 10 672p 3\.2kMAC *$'
tree_has '^  ▾ encoder/layers 40 2\.69kp 12\.8kMAC *$'
pass "the tree with the focus shows the scopes' params and MACs"
screen | grep -qE '│10 LayerNorm[^ ]* +ln_1/LayerNorm' || fail "layer 1's first node named relative to the layer"
screen | grep -qE '│16 MatMul +mlp/mlp\.0/MatMul ' || fail "layer 1's mlp.0 MatMul named relative to the layer"
screen | grep -qE '│19 Add +Add_1 ' || fail "layer 1's last node, Add_1"
no_text "/encoder_layer_1/"
no_text "│20 "
no_text "│ 9 "
pass "a layer narrows the node list to its 10 nodes, named relative to it"

keys Right
wait_tree '^    ▸ self_attention 4 144p'
tree_has '^    · ln_1 1 16p'
tree_has '^    ▸ mlp 3 512p'
pass "Right expands the layer"

keys :
typ "/encoder/layers/encoder_layer_2/self_attention/out_proj/Add"
keys Enter
wait_for "Nodes  main  #24 of 41"
no_text "  in encoder/"
wait_tree '^     · out_proj =q_proj 2 72p'
tree_has '^   ▾ encoder_layer_2 =0'
tree_has '^    ▾ self_attention 4 144p'
pass "a jump deep into layer 2 shows the whole graph and expands the node's scope in the tree"
keys BTab
keys y
wait_for "copied encoder/layers/encoder_layer_2/self_attention/out_proj"
wait_for "_attention/out_proj  2 nodes  72 params"
pass "the tree's cursor is on the node's scope"
keys Tab
wait_tree '^   ▾ encoder_layer_2 =0 10 *$'
tree_has '^  ▾ encoder/layers 40 2\.69kp *$'
pass "the focus on the node list: the tree back to a quarter, the list has the room"
keys BTab

keys S
wait_for "graphs only"
wait_for "Nodes  main  #"
tree_lacks 'encoder'
no_text "  in encoder/"
keys S
wait_for "scopes shown"
wait_tree 'encoder_layer_2'
pass "S toggles between the scope tree and the graphs only"
quit_clean

# At 80 columns the layers' names still show whole.
start 80 24 "$model"
wait_ready
wait_tree '^   ▸ encoder_layer_3 *$'
pass "80 columns: the layer rows"
quit_clean
