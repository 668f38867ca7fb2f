#!/usr/bin/env bash
# Enter on an input jumps to its producer; Backspace / Ctrl-O go back and ]
# forward; Enter on an output with several consumers offers them to pick;
# Enter on a graph attribute descends into the body. Types are shown (the
# default), so the detail has a cost line under the name and a type line
# under each input and output; the cursor steps over those, over titles and
# plain attributes, from the top to the lines Enter acts on.
. "$(dirname "$0")/tmux.bash"

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
keys j
wait_for "name relu1"
keys Tab
wait_for "line 1/11"
keys j
wait_for "line 7/11"    # input 0, past the name, schema, cost and titles
expect_line "0 X: conv1_out" "Conv conv1"
keys Enter
wait_for "name conv1"
wait_for "node #0 of 11"
pass "Enter on an input goes to the producer"

keys BSpace
wait_for "name relu1"
wait_for "line 7/11"    # back where the cursor was, in the detail pane
keys ]
wait_for "name conv1"
keys C-o
wait_for "name relu1"
pass "back (Backspace, C-o) and forward (])"

# input 1 of conv1 is an initializer: Enter shows it among the initializers
keys BTab
wait_for "node #1 of 11"
keys k
wait_for "name conv1"
keys Tab j j
wait_for "line 15/"     # input 1, past the schema's attributes and input 0's type line
expect_line "1 W: conv1.weight" "initializer"
keys Enter
wait_for "tensor conv1.weight"
wait_for "tensor 2/9"
pass "Enter on a weight input shows the initializer"
quit_clean

start 100 30 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
wait_for "name const_scale"
keys Tab
wait_for "line 1/12"   # the Constant's schema line and its unset attributes (2 lines)
keys G
wait_for "line 11/12"   # the last output (its type line is read, not visited)
expect_line "0 output: scale" "(+2 more)"
keys Enter
wait_for "3 consumers of scale"
keys j Enter
wait_gone "consumers of scale"
wait_for "name then_mul"
wait_for "Nodes  body_if.then_branch"
keys BSpace
wait_for "name const_scale"
pass "Enter on an output lists its consumers and jumps to the chosen one"

keys :
typ "loop"
keys Enter
wait_for "name loop"
keys Tab
wait_for "line 1/"
keys j
wait_for "line 6/"      # the body attribute, past the schema, the cost and the title
expect_line "body = " "1 graph"
keys Enter
wait_for "Nodes  loop.body"
keys BSpace
wait_for "Nodes  main"
pass "Enter on a graph attribute descends into the body"
quit_clean
