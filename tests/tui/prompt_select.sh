#!/usr/bin/env bash
# A prompt's suggestion is selected text (issue 13, item 5): the first
# printable key replaces it (f on an Add node, then typing MatMul, filters
# for MatMul, not AddMatMul; E's typed outputs replace the suggested ones),
# Backspace deletes it whole, and arrows, Home and End keep it for editing.
# The selection is drawn underlined so it shows as selected.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_prompt_select.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cd "$dir" || fail "cannot enter $dir"

# external.onnx: fc1 MatMul, fc1_bias Add, relu Relu, fc2 MatMul, fc2_bias Add.
start 120 30 "$NNAV_SAMPLES/external.onnx"
wait_ready
# Down to fc1_bias, an Add node (f suggests the selected node's op type).
keys j f
wait_for "filter op: Add"
# The suggestion is drawn underlined (SGR 4) on the status line.
tm capture-pane -p -e -t "$TUI_S" | grep "filter op: " | grep -qE $'\e\\[([0-9]+;)*4(;[0-9]+)*m(\e\\[[0-9;]*m)*Add' \
    || fail "the suggestion 'Add' is not drawn as selected"
typ "MatMul"
wait_for "filter op: MatMul"
no_text "AddMatMul"
keys Enter
wait_for "2 nodes of op type MatMul"
pass "f on an Add node, then MatMul: the suggestion replaced, 2 MatMul nodes"

keys f
wait_for "filter op: MatMul"
keys BSpace
wait_gone "filter op: MatMul"
wait_for "filter op:"
typ "Relu"
keys Enter
wait_for "1 node of op type Relu"
pass "Backspace on a suggestion deletes it whole"

keys f
wait_for "filter op: Relu"
keys End BSpace
wait_for "filter op: Rel"
typ "u"
keys Enter
wait_for "1 node of op type Relu"
keys f
wait_for "filter op: Relu"
keys Home
typ "X"
wait_for "filter op: XRelu"
keys Left Left
typ "Y"
wait_for "filter op: YXRelu"
keys C-u Escape
wait_gone "filter op:"
pass "End, Home and Left keep the suggestion for editing, inserting at the cursor"
quit_clean

# E: the suggested inputs and outputs are replaced by what is typed.
start 120 30 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
keys E
wait_for "region of main, inputs: input"
typ "relu1_out"
wait_for "inputs: relu1_out"
keys Enter
wait_for "region of main, outputs: conv1_out"
typ "bn2_out"
wait_for "outputs: bn2_out"
no_text "conv1_outbn2_out"
keys Enter
wait_for "export region of main (4 nodes) to: cnn-main-region.yaml"
keys Enter
wait_for "wrote cnn-main-region.yaml ("
grep -q "name: cast_var" cnn-main-region.yaml || fail "the region lacks cast_var"
grep -q "name: conv1$" cnn-main-region.yaml && fail "the region holds conv1"
pass "E: typed inputs and outputs replace the suggestions (4 nodes written)"
quit_clean
