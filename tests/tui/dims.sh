#!/usr/bin/env bash
# Named dims in the explorer (issue 32 item 3): a Conv over x[batch,3,h,w]
# written here counts each unset dim as 1, and the header says so ("dims
# batch, h, w unset (=1, d sets)"); d opens a prompt listing the dims at
# their values, and setting them infers the shapes and the cost again: the
# header's MACs become batch x 8 x h x w x 3 x 3 x 3 (the Conv's
# multiply-accumulates at those sizes, computed here), the same figure
# `nnav cost --dim` prints; --dim at start gives the same; a malformed
# binding is refused in the status line, the dims kept.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_dims.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
need_onnx_python
"$py" - "$dir/conv.onnx" << 'EOF2'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as T, numpy_helper as nh
g = h.make_graph([h.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[1, 1, 1, 1])], "g",
                 [h.make_tensor_value_info("x", T.FLOAT, ["batch", 3, "h", "w"])],
                 [h.make_tensor_value_info("y", T.FLOAT, None)],
                 [nh.from_array(np.ones((8, 3, 3, 3), dtype=np.float32), "w")])
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), sys.argv[1])
EOF2
macs=$((2 * 8 * 32 * 48 * 3 * 3 * 3))   # 663,552: shown as 664 k
got=$("$NNAV_BIN" cost "$dir/conv.onnx" --dim batch=2,h=32,w=48 --yaml | grep -m1 '^  macs:')
[ "$got" = "  macs: $macs" ] || fail "nnav cost --dim: '$got', want $macs MACs"

start 160 30 "$dir/conv.onnx"
wait_ready
expect_line "nnav " "dims batch, h, w unset (=1, d sets)"
pass "the header says which dims are unset"
keys d
wait_for "dims (NAME=N, comma-separated): batch=1,h=1,w=1"
pass "d lists the model's dims at their values"
keys C-u
typ "batch=2, h=32,w=48"
keys Enter
wait_for "dims set: 664 k MACs"
expect_line "nnav " "664 k MACs"
no_text "unset (=1"
pass "setting them infers again: the header's MACs are the Conv's at 2x3x32x48"
keys d
wait_for "batch=2,h=32,w=48"
keys C-u
typ "batch=two"
keys Enter
wait_for "dims: NAME=N (or NAME=N,NAME=N) with N from 0 to 2^40, not 'batch=two'"
expect_line "nnav " "664 k MACs"
pass "a malformed binding is refused, the dims kept"
quit_clean
start_args 160 30 --dim batch=2 "$dir/conv.onnx" --dim=h=32,w=48
wait_ready
expect_line "nnav " "664 k MACs"
no_text "unset (=1"
pass "--dim before and after the model sets them at start"
quit_clean
