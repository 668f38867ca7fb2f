#!/usr/bin/env bash
# Inferred types in the explorer (issue 8): the node list's type column, the
# detail's type line under each input and output with where the type comes
# from, the node's cost, the graph's MACs and params in the header; T hides
# and shows them all. A model over 200,000 nodes opens without types and
# infers them at the first T.
. "$(dirname "$0")/tmux.bash"

# header_totals: the header (the first row) ends in the graph's MACs and
# params, brief or, when a long path leaves less room, tight.
header_totals() {
    screen | head -1 | grep -qE '[0-9] ?[kMGTPE]? MACs {1,2}[0-9.]+ ?[kMGTPE]? params *$' ||
        fail "the header lacks the totals"
}

# The sample CNN declares no type for conv1's output: only the Conv rule
# (3x3, pads 1, 16 filters over float32[1,3,32,32]) can give its shape.
# Tall enough for conv1's whole detail, its schema's lines included.
start 120 50 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
wait_for "name conv1"
header_totals
expect_line " conv1 " "float32[1,16,32,32]"
wait_for "type float32[1,16,32,32]  inferred"
wait_for "type float32[1,3,32,32]  from the file"
expect_line "cost " "MACs"
expect_line "cost " "params"
# The Conv's MACs: 16*3*3*3 per output element, 16*32*32 elements.
expect_line "cost " "442 k MACs"
pass "sample: conv1's inferred shape in the node list and the detail, its cost, the totals"

keys T
wait_for "types hidden"
no_text "MACs"
no_text "float32[1,16,32,32]"
no_text "inferred"
no_text "cost "
# Hidden, the detail is as before: the file's type on the input's own line.
expect_line "0 X: input " "float32[1,3,32,32]"
pass "T hides the column, the type lines, the cost and the totals"

keys T
wait_for "types shown"
header_totals
expect_line " conv1 " "float32[1,16,32,32]"
wait_for "type float32[1,16,32,32]  inferred"
pass "T shows them again"

# The graph's detail: its cost and type counts, and its output's type checked
# against the file's.
keys BTab
wait_for "graph main  main graph"
expect_line "cost " "1.63 M MACs"
expect_line "types " "21/21 values typed"
wait_for "type float32[1,10]  inferred, the file agrees"
keys Tab
pass "the graph's detail: cost, type counts, its output's type against the file's"

# The graph view's boxes carry the inferred type too.
keys v
wait_for "Graph view  depth 2"
wait_for "└float32[1,16,32,32]"  # conv1's box (the file gives it no type)
pass "the graph view's box shows the inferred type"
keys v
wait_for "Nodes  main"

# The help says what T does (on its second page: the keys take more than 40 rows).
keys ?
wait_for "nnav help: keys"
keys PageDown
wait_for "Show or hide inferred types"
keys Escape
wait_gone "nnav help: keys"
pass "the help says what T does"
quit_clean

# A file that lies about a value's shape, and a symbolic batch (made with the
# ONNX package, as tests/cli/typed.sh does; skipped without it).
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, numpy' 2> /dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    "$py" - "$NNAV_TMP" << 'PY' || fail "could not write the test models"
import sys
import numpy as np
import onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh
d = sys.argv[1]
# x[1,3] -> Relu -> y -> Neg -> z. value_info claims y is [1,4]: a lie.
g = h.make_graph([h.make_node("Relu", ["x"], ["y"], name="relu"),
                  h.make_node("Neg", ["y"], ["z"], name="neg")], "liar",
                 [h.make_tensor_value_info("x", TP.FLOAT, [1, 3])],
                 [h.make_tensor_value_info("z", TP.FLOAT, [1, 3])],
                 value_info=[h.make_tensor_value_info("y", TP.FLOAT, [1, 4])])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), d + "/types_liar.onnx")
# N x 3 x 8 x 8 -> Conv(4 filters, 3x3) -> N x 4 x 6 x 6; the output untyped.
w = nh.from_array(np.zeros((4, 3, 3, 3), np.float32), "w")
g = h.make_graph([h.make_node("Conv", ["x", "w"], ["y"], name="conv")], "sym",
                 [h.make_tensor_value_info("x", TP.FLOAT, ["N", 3, 8, 8])],
                 [onnx.ValueInfoProto(name="y")], [w])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13)]), d + "/types_sym.onnx")
PY
    start 140 34 "$NNAV_TMP/types_liar.onnx"
    wait_ready
    wait_for "name relu"
    expect_line " relu " "float32[1,3]"
    wait_for "type float32[1,3]  inferred, DISAGREE: the file says float32[1,4]"
    pass "a value the file mistypes: DISAGREE with the file's type"
    quit_clean
    start 140 40 "$NNAV_TMP/types_sym.onnx" # the Conv's schema lines and its output in view
    wait_ready
    wait_for "name conv"
    expect_line " conv " "float32[N,4,6,6]"
    wait_for "type float32[N,4,6,6]  inferred"
    expect_line "cost " "(assumed N=1)"
    pass "a symbolic batch: the shape keeps N, the cost says what it assumed"
    quit_clean
    rm -f "$NNAV_TMP/types_liar.onnx" "$NNAV_TMP/types_sym.onnx"
else
    echo "SKIP (partly): no ONNX Python package to write the mistyped and symbolic models"
fi

# A model past the eager limit: the first screen does not wait for inference.
cc=$(command -v cc || command -v gcc || true)
if [ -n "$cc" ]; then
    gen=$NNAV_TMP/types_gen_chain
    chain=$NNAV_TMP/types_chain.onnx
    "$cc" -O2 -o "$gen" "$NNAV_SRC/tests/bench/gen_chain.c" || fail "gen_chain did not build"
    "$gen" chain 200500 "$chain" || fail "gen_chain failed"
    start 120 34 "$chain"
    wait_ready
    wait_for "T: types"
    wait_for "of 200500"
    no_text "MACs"
    no_text "cost "
    line_with " n1 " | grep -qF "float32" && fail "types shown before T on a big model"
    keys T
    wait_for "types shown"
    header_totals
    expect_line " n1 " "float32"
    wait_for "cost "
    pass "200,500 nodes: no types at first, the first T infers them"
    quit_clean
    rm -f "$gen" "$chain"
else
    echo "SKIP (partly): no C compiler to make the 200,500-node chain"
fi

# A corpus model: ResNet-50's first convolution, inferred through the graph.
model=${NNAV_CORPUS:-}/onnx/light_resnet50.onnx
corpus_model "$model"
start 140 44 "$model"
wait_ready
wait_for "4.1 G MACs"
keys :
typ "n0"
keys Enter
wait_for "name n0"
expect_line " n0 " "float32[1,64,112,112]"
wait_for "type float32[1,64,112,112]  inferred"
wait_for "type float32[1,3,224,224]  from the file"
expect_line "cost " "118 M MACs"
pass "resnet50: conv1's float32[1,64,112,112] in the list and the detail, 118 M MACs, 4.1 G in all"
keys T
wait_gone "4.1 G MACs"
no_text "float32[1,64,112,112]"
pass "resnet50: T hides them"
quit_clean
