#!/usr/bin/env bash
# Open the sample CNN at 80x24: header, four panes, status; move with vi keys
# and arrows; Tab moves the focus; q leaves a clean terminal.
. "$(dirname "$0")/tmux.bash"

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
expect_line "nnav " "cnn.onnx"
expect_line "nnav " "ONNX"
expect_line "nnav " "11 nodes  9 tensors"
expect_line "nnav " "1.63M MACs 5.45k params" # the IR version and opset give way at 80 (header.sh)
wait_for "node #0 of 11"
# The op column is as wide as the widest op type (BatchNormalization), whole.
wait_for "0 Conv               conv1"
wait_for "5 BatchNormalization bn2"
wait_for "name conv1"
pass "opened: header, panes, status with position"

keys j j
wait_for "node #2 of 11"
wait_for "name pool1"
keys Down
wait_for "node #3 of 11"
keys k
wait_for "node #2 of 11"
keys G
wait_for "node #10 of 11"
keys g
wait_for "node #0 of 11"
keys C-d
wait_for "name "
keys End
wait_for "node #10 of 11"
keys Home
wait_for "node #0 of 11"
pass "j/k/Down/G/g/C-d/End/Home move the node cursor"

keys Tab
wait_for "line 1/"
keys Tab
wait_for "tensor 1/9"
wait_for "tensor conv2.weight"
keys BTab BTab
wait_for "node #0 of 11"
keys BTab
wait_for "graph 1/1"
pass "Tab and Shift-Tab move the focus; detail follows"

quit_clean
