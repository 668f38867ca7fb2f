#!/usr/bin/env bash
# An initializer named with no scope of its own (torch.onnx's
# onnx::MatMul_3182) is shown in the initializer pane after the node that
# reads it, "…/attention/MatMul ← onnx::MatMul_3182" (issue 32 item 9), the
# node `nnav tensors` names ("used by ..."); a scoped name is shown alone.
. "$(dirname "$0")/tmux.bash"
need_onnx_python
T=$NNAV_TMP/tui_tensor_consumer; rm -rf "$T"; mkdir -p "$T"
"$py" - "$T/m.onnx" <<'PY' || fail "generator"
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto
w = numpy_helper.from_array(np.ones((4, 4), np.float32), "onnx::MatMul_3182")
b = numpy_helper.from_array(np.ones((4,), np.float32), "encoder.layer.0.attention.bias")
n1 = helper.make_node("MatMul", ["x", "onnx::MatMul_3182"], ["h"], name="/encoder/layer.0/attention/MatMul")
n2 = helper.make_node("Add", ["h", "encoder.layer.0.attention.bias"], ["y"], name="/encoder/layer.0/attention/Add")
g = helper.make_graph([n1, n2], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])], [w, b])
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[1])
PY
# The CLI's consumer of each: the node the explorer must show.
cli=$("$NNAV_BIN" tensors "$T/m.onnx") || fail "nnav tensors failed"
used=$(printf '%s\n' "$cli" | sed -n 's/^onnx::MatMul_3182 .*  used by //p')
[ "$used" = /encoder/layer.0/attention/MatMul ] || fail "the CLI's consumer of onnx::MatMul_3182: '$used' ($cli)"
printf '%s\n' "$cli" | grep '^encoder\.layer\.0\.attention\.bias ' | grep -q 'used by' &&
    fail "the CLI names a scoped tensor's consumer in text: $cli"

start 200 30 "$T/m.onnx"
wait_ready
r=$(screen | grep -F "Initializers" -A2 | grep -F "onnx::MatMul_3182")
case "$r" in *"/attention/MatMul ← onnx::MatMul_3182  float32[4,4]"*) ;;
    *) fail "the row does not name its consumer as the CLI does ($used): $r";; esac
r=$(screen | grep -F "Initializers" -A2 | grep -F "attention.bias")
case "$r" in *"←"*) fail "a scoped name got a consumer: $r";; esac
pass "onnx::MatMul_3182 shown after its consumer ${used##*/}, a scoped name alone"
quit_clean
