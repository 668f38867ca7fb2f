#!/usr/bin/env bash
# Mouse: a click focuses a pane and selects the row under it; the wheel
# scrolls the pane under the pointer. Events are typed into the pane as the
# xterm (X10) mouse reports the terminal would send.
. "$(dirname "$0")/tmux.bash"

# mouse BUTTON X Y: one report (0 = left press, 3 = release, 64/65 = wheel up/down)
mouse() {
    local b=$(($1 + 32)) x=$(($2 + 33)) y=$(($3 + 33))
    keys -l "$(printf '\033[M')$(printf "\\$(printf %03o "$b")\\$(printf %03o "$x")\\$(printf %03o "$y")")"
}

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
wait_for "node #0 of 11"
mouse 0 30 6      # node list, fifth row: press ...
wait_for "node #4 of 11"
wait_for "name cast_var"
mouse 3 30 6      # ... and release
pass "click selects a node"
mouse 0 50 16     # initializer pane, fourth row
wait_for "tensor 4/9"
wait_for "tensor bn2.bias"
mouse 3 50 16
pass "click focuses the initializer pane"
mouse 65 30 6
wait_for "Nodes  main  #7 of 11"
mouse 64 30 6
wait_for "Nodes  main  #4 of 11"
wait_for "tensor 4/9"   # the focus stays
pass "the wheel scrolls the pane under the pointer"
quit_clean
