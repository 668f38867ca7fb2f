#!/usr/bin/env bash
# The initializer pane: sizes with share and bar, largest first; s sorts by
# name and back; the cursor's tensor shows its consumers; m computes stats.
# At 120 columns: in a narrower pane the share and bar give way to the
# shape (widths.sh).
. "$(dirname "$0")/tmux.bash"

start 120 30 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
expect_line "Initializers" "9  total 21.5 KiB  by size"
keys Tab Tab
wait_for "tensor 1/9"
first=$(screen | grep -F "Initializers" -A1 | tail -1)
case "$first" in *"18.0 KiB"*"83.8%"*conv2.weight*) ;; *) fail "largest is not first: $first";; esac
second=$(screen | grep -F "Initializers" -A2 | tail -1)
case "$second" in *"1.7 KiB"*conv1.weight*) ;; *) fail "second largest is not second: $second";; esac
wait_for "tensor conv2.weight"
wait_for "float32[32,16,3,3]"
wait_for "Consumers (1)"
wait_for "Conv conv2"
pass "largest first, with share; detail shows the consumer"

keys s
wait_for "by name"
first=$(screen | grep -F "Initializers" -A1 | tail -1)
case "$first" in *bn2.bias*) ;; *) fail "by name: bn2.bias is not first: $first";; esac
wait_for "tensor conv2.weight"   # the cursor stays on conv2.weight ...
keys k
wait_for "tensor 6/9"             # ... now 7th by name: up is conv1.weight
wait_for "tensor conv1.weight"
keys g
wait_for "tensor bn2.bias"
keys s
wait_for "by size"
pass "s sorts by name and back by size, keeping the cursor's tensor"

keys G
wait_for "tensor 9/9"
keys m
wait_for "min "
wait_for "mean "
pass "m computes min/max/mean"

keys BTab
wait_for "line 1/"
keys G Enter
wait_for "name fc"
wait_for "node #9 of 11"
pass "Enter on a consumer of the tensor goes to the node"
quit_clean
