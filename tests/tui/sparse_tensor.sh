#!/usr/bin/env bash
# A sparse initializer looks the same in the explorer as in `nnav tensors`
# (issue 13, item 9): the sample's sparse_w is a 3x4 float tensor stored as 3
# values plus 3 int64 indices. The facts are read from the CLI here and looked
# for on screen: the dense shape (not the values' [3]), the sparse storage, the
# bytes of values and indices (not the values' 12), and its consumer.
. "$(dirname "$0")/tmux.bash"

model="$NNAV_SAMPLES/control_flow.onnx"
row=$("$NNAV_BIN" tensors --name sparse_w "$model") || fail "nnav tensors failed"
read -r cname cshape cbytes cstore <<<"$row"
[ "$cname" = sparse_w ] || fail "the CLI row names '$cname', not sparse_w: $row"
case "$cstore" in sparse*) ;; *) fail "the CLI does not call sparse_w sparse: $row";; esac
# The CLI's own facts are the right ones: [3,4], 3 values, 36 bytes.
[ "$cshape" = "float32[3,4]" ] || fail "CLI shape '$cshape'"
[ "$cbytes" = 36 ] || fail "CLI bytes '$cbytes'"
[ "$cstore" = "sparse (3 values)" ] || fail "CLI storage '$cstore'"
"$NNAV_BIN" node "$model" add_sparse | grep -E '^  \[1\] B  sparse_w .*from sparse initializer' >/dev/null ||
    fail "the CLI does not say add_sparse reads the sparse initializer"

start 200 36 "$model"
wait_ready
keys Tab Tab
wait_for "tensor sparse_w"
# The initializer pane's row: bytes, name, shape and storage as the CLI says.
r=$(screen | grep -F "Initializers" -A1 | tail -1)
case "$r" in *" $cbytes B "*"sparse_w  $cshape  $cstore"*) ;;
    *) fail "the initializer row differs from the CLI's ($cshape, $cbytes B, $cstore): $r";; esac
# The pane's total: sparse_w's bytes and the 16 B of the weight the
# Constant const_scale holds (listed too, as --constants lists it).
expect_line "Initializers" "2  total $((cbytes + 16)) B"
# The detail: the same shape, storage and bytes, and the consumer.
wait_for "type     $cshape  (12 elements)"
wait_for "storage  $cstore"
wait_for "bytes    $cbytes B ($cbytes)"
wait_for "Consumers (1)"
wait_for "→ Add add_sparse"
no_text "float32[3]  "
pass "sparse_w: $cshape, $cstore, $cbytes B and its consumer add_sparse, as the CLI says"

# Enter on the consumer goes to the node, whose input 1 is the sparse initializer.
keys BTab
wait_for "line 1/"
keys G Enter
wait_for "name add_sparse"
expect_line "1 B: sparse_w" "sparse initializer"
pass "Enter on the consumer reaches add_sparse, which reads the sparse initializer"
quit_clean
