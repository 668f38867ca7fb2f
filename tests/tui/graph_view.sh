#!/usr/bin/env bash
# v draws the neighbourhood of a node with several producers and consumers:
# boxes with op and name, edges in box-drawing characters; hjkl follow edges,
# Enter re-centres, +/- change the depth, v returns to the list.
. "$(dirname "$0")/tmux.bash"

# A sample node with three consumers (two of them in nested bodies) ...
start 80 24 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
keys :
typ "loop"
keys Enter
wait_for "name loop"
keys v
wait_for "Graph view  depth 2"
wait_for "┌Loop"
wait_for "│loop "
wait_for "▼"
wait_for "┌Scan"
wait_for "input"
pass "sample: Loop with its inputs above and consumers below"
keys v
wait_for "Nodes  main"
quit_clean

model=${NNAV_CORPUS:-}/onnx/light_densenet121.onnx
corpus_model "$model"
start 100 34 "$model"
wait_ready
keys :
typ "n22"
keys Enter
wait_for "name n22"
keys v
wait_for "Graph view  depth 2"
wait_for "┌Concat"
wait_for "┌MaxPool"
wait_for "│n7 "
wait_for "│n21 "
wait_for "│n23 "
wait_for "│n37 "
wait_for "┴"
wait_for "▼"
pass "densenet Concat n22: two producers above, two consumers below"

keys k
wait_for "name n7"
keys l
wait_for "name n21"
keys j
wait_for "name n22"
keys j
wait_for "name n23"
pass "k/l/j move along edges and the detail follows"

keys Enter
wait_for "Graph view  depth 2  BatchNormalization n23"
keys BSpace
wait_for "Graph view  depth 2  Concat n22"
pass "Enter re-centres; back returns"

keys +
wait_for "Graph view  depth 3"
keys - -
wait_for "Graph view  depth 1"
pass "+/- change the depth"

keys v
wait_for "Nodes  main"
wait_for "name n22"
quit_clean
