#!/usr/bin/env bash
# Weights held by Constant nodes in the initializer pane (issue 14, item 7):
# listed with the initializers, tagged "Constant, raw", counted in the
# pane's total, sorted with the rest; the detail names the holding node and
# Enter on that line reaches it in the node list. A Constant holding a
# shape is not a weight and stays out. The model: constant_weights.pbtxt,
# encoded by protoc.
. "$(dirname "$0")/tmux.bash"
command -v protoc > /dev/null || skip "protoc is not installed"
D=$(cd "$(dirname "$0")" && pwd)
M=$NNAV_TMP/constant_weights.onnx
protoc -I"$D/../../proto" --encode=onnx.ModelProto onnx.proto < "$D/constant_weights.pbtxt" > "$M" ||
    fail "protoc"

start 180 30 "$M"
wait_ready
# b 16 B + K 512 B + J 128 B = 656 B; the shape Constant's 16 B are not in.
expect_line "Initializers" "3  total 656 B  by size"
keys Tab Tab
wait_for "tensor 1/3"
rows=$(screen | grep -F "Initializers" -A3 | tail -3 | sed 's/.*│//')
echo "$rows" | sed -n 1p | grep -q "512 B.*K .*float32\[16,8\]  Constant, raw" || fail "K not first: $rows"
echo "$rows" | sed -n 2p | grep -q "128 B.*J .*float32\[8,4\]  Constant, raw" || fail "J not second: $rows"
echo "$rows" | sed -n 3p | grep -q "16 B.* b .*float32\[4\]" || fail "b not third: $rows"
echo "$rows" | sed -n 3p | grep -q "Constant" && fail "b is not held by a Constant: $rows"
pass "Constant-held weights listed, tagged and counted, by size with the initializer"

keys s
wait_for "by name"
rows=$(screen | grep -F "Initializers" -A3 | tail -3 | sed 's/.*│//')
case "$(echo "$rows" | tr '\n' '|')" in *"J "*"|"*"K "*"|"*" b "*) ;; *) fail "by name (bytes): J, K, b: $rows";; esac
pass "s sorts them with the rest by name"

keys g
wait_for "tensor J"
wait_for "held by"
wait_for "const_J"
keys Enter
wait_for "line 1/"
keys j
keys Enter
wait_for "name const_J"
wait_for "#1 of 7"
pass "the detail names the Constant node; Enter on it reaches the node"
quit_clean
