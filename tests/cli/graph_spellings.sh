#!/usr/bin/env bash
# --graph takes every spelling nnav prints for a graph, the same ones the
# explorer's `:` takes (src/place.c): the path `nnav tree` prints, with or
# without its leading slash and with a trailing one, the label the explorer's
# tree and breadcrumbs show (NODE.ATTR, main), @FUNCTION. What names no graph
# is refused with the text (escaped) and the spellings it could have been.
set -u
. "$(dirname "$0")/lib.bash"
M=$NNAV_SAMPLES/control_flow.onnx

# spelling CMD... : the nodes of `--graph SPELLING` must be exactly WANT.
spelled() {
    local want=$1 spelling=$2
    expect_status 0 "$NNAV_BIN" nodes --graph "$spelling" "$M"
    local got
    got=$(awk '{ printf "%s%s", (NR > 1 ? "," : ""), $3 }' "$OUT")
    [ "$got" = "$want" ] || fail "--graph '$spelling' lists '$got', wanted '$want'"
}
for s in /loop/body loop/body loop/body/ loop.body; do
    spelled body_zero,body_sum,body_pos,body_if,body_cond "$s"
done
for s in /loop/body/body_if/else_branch loop/body/body_if/else_branch body_if.else_branch; do
    spelled else_neg,else_sub "$s"
done
spelled scan_add,scan_mul scan.body
spelled fn_add,fn_leaky @AddLeakyRelu
spelled const_scale,const_bias,const_pads,const_labels,loop,scan,call_addleaky,add_bias,add_sparse,pad,normalize main

# Other commands read --graph the same way.
expect_status 0 "$NNAV_BIN" node --graph body_if.then_branch "$M" then_add
grep -q 'then_add' "$OUT" || fail "node --graph NODE.ATTR finds the node in that body"
expect_status 0 "$NNAV_BIN" tensors --graph loop/body "$M"
expect_status 0 "$NNAV_BIN" export --graph body_if.then_branch "$M"
grep -q 'then_mul' "$OUT" || fail "export --graph NODE.ATTR exports that body"

# A node name is not a graph; an unknown label names itself and the spellings.
expect_status 1 "$NNAV_BIN" nodes --graph then_mul "$M"
grep -q "no graph at path 'then_mul'" "$ERR" || fail "a node name given as a graph is refused by name"
grep -q "NODE.ATTR" "$ERR" || fail "the refusal lists the spellings"
expect_status 1 "$NNAV_BIN" nodes --graph body_if.no_branch "$M"
grep -q "body_if.no_branch" "$ERR" || fail "an unknown attribute of a real node is refused"
expect_status 1 "$NNAV_BIN" nodes --graph $'loop.\e[31mbody' "$M"
if grep -q $'\e' "$ERR"; then fail "a control byte typed in --graph reaches stderr raw"; fi

# TensorFlow: functions by @NAME, the SavedModel's main graph by label.
expect_status 0 "$NNAV_BIN" nodes --graph main "$NNAV_SAMPLES/tf_saved_model"
grep -q 'StatefulPartitionedCall' "$OUT" || fail "main names a SavedModel's graph"
finish
