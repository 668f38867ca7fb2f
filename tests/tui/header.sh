#!/usr/bin/env bash
# The header names the file, not its whole path, and keeps the counts and
# the cost whatever the folder's depth or the number of opset domains: the
# opset list is shortened to "opset 16 +8 domains" when room is short, and
# at 80 columns the IR version and opset give way to the cost (widths.sh).
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_header.$$
deep=$dir/a/much/longer/folder/that/someone/cloned/their/models/into/over/the/years/nnav
mkdir -p "$deep"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cp "$NNAV_SAMPLES/cnn.onnx" "$deep/cnn.onnx"

start 80 24 "$deep/cnn.onnx"
wait_ready
expect_line "nnav " " nnav  cnn.onnx  ONNX  1 graph  11 nodes  9 tensors"
expect_line "nnav " "1.63M MACs 5.45k params"
no_text "much/longer"
pass "a deep path: the file's name, counts and the cost at 80 columns (the IR version and opset give way)"
quit_clean
start 100 24 "$deep/cnn.onnx"
wait_ready
expect_line "nnav " " nnav  cnn.onnx  ONNX  IR 8  1 graph  11 nodes"
expect_line "nnav " "opset 17"
expect_line "nnav " "1.63 M MACs  5.45 k params"
pass "and the IR version, opset and the cost in full at 100"
quit_clean

need_onnx_python ": the many-domain header is not checked"
"$py" - "$dir/manyops.onnx" << 'EOF'
import sys
import onnx
from onnx import helper as h, TensorProto as T
g = h.make_graph([h.make_node("Relu", ["x"], ["y"]), h.make_node("Relu", ["y"], ["z"])], "g",
                 [h.make_tensor_value_info("x", T.FLOAT, [1, 4])],
                 [h.make_tensor_value_info("z", T.FLOAT, [1, 4])])
doms = ["ai.onnx.ml", "com.microsoft", "com.microsoft.experimental", "ai.onnx.preview.training",
        "com.ms.internal.nhwc", "ai.onnx.training", "org.pytorch.aten", "com.microsoft.nchwc"]
m = h.make_model(g, opset_imports=[h.make_opsetid("", 16)] + [h.make_opsetid(d, 1) for d in doms])
onnx.save(m, sys.argv[1])
EOF
start 120 24 "$dir/manyops.onnx"
wait_ready
expect_line "nnav " "manyops.onnx  ONNX  IR 8  1 graph  2 nodes  0 tensors  opset 16 +8 domains"
expect_line "nnav " "0 MACs"
pass "nine opset domains at 120 columns: counts and cost kept, the list shortened"
quit_clean
start 300 24 "$dir/manyops.onnx"
wait_ready
expect_line "nnav " "opset 16, ai.onnx.ml 1, com.microsoft 1,"
expect_line "nnav " "com.microsoft.nchwc 1"
pass "at 300 columns the whole list"
quit_clean
