#!/usr/bin/env bash
# The transformer-era operators, against ONNX Runtime: llm_ops_gen.py builds
# models of ONNX's opset 18-23 operators (Attention 3-D and 4-D with a KV
# cache, RotaryEmbedding, RMSNormalization, GroupNormalization, Col2Im,
# DeformConv, AffineGrid, the text ops of opset 20, Split's num_outputs,
# Pad's axes, Resize's axes and keep_aspect_ratio_policy, the Reduce ops with
# axes as an input, DFT and STFT, Cast / QuantizeLinear / DequantizeLinear
# through int4, uint4 and float8 with blocks) and of ONNX Runtime's
# com.microsoft contrib operators (MatMulNBits, FusedMatMul,
# DynamicQuantizeMatMul, QuickGelu, BiasGelu, FastGelu, Gelu, the Skip norms,
# SimplifiedLayerNormalization, RotaryEmbedding, MultiHeadAttention,
# GroupQueryAttention, Attention, QAttention, QMoE); ONNX Runtime (Node.js,
# CPU) runs each, and llm_ops_check.py holds nnav to what it computed: every
# value's element type and every dim known and equal, and every node's MACs
# equal to the count worked out from the real shapes. ort_oracle.sh runs the
# same models in its sweep (where an unknown dim is counted, not failed).
# Skipped, saying so, without node or the package (ort_oracle.sh says how to
# install it).
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
find_ort || { echo "SKIP: $ort_why"; exit 77; }
here=$(dirname "$0")
work=$NNAV_TMP/llm_ops
rm -rf "$work"
"$py" "$here/llm_ops_gen.py" "$work/gen" || { echo "FAIL: llm_ops_gen.py"; exit 1; }
# The rules follow the node's domain: another domain's Attention, and a
# com.microsoft op ONNX Runtime does not define, have none (ONNX's Relu is
# not com.microsoft's), while com.microsoft's Attention reads its merged
# weights, not ONNX's Q, K, V.
"$py" - "$work/domains.onnx" <<'PY' || { echo "FAIL: writing domains.onnx"; exit 1; }
import sys
import onnx
from onnx import TensorProto as T, helper as h
nodes = [h.make_node("Attention", ["x", "w"], ["y_other"], domain="my.domain", num_heads=2),
         h.make_node("Relu", ["x"], ["y_relu"], domain="com.microsoft"),
         h.make_node("Attention", ["x", "w"], ["y_ms"], domain="com.microsoft", num_heads=2),
         h.make_node("Attention", ["x", "x", "x"], ["y_onnx"], q_num_heads=2, kv_num_heads=2)]
g = h.make_graph(nodes, "domains", [h.make_tensor_value_info("x", T.FLOAT, [1, 4, 8]),
                                    h.make_tensor_value_info("w", T.FLOAT, [8, 30])],
                 [h.make_tensor_value_info("y_ms", 0, None)])
g.output[0].ClearField("type")
m = h.make_model(g, opset_imports=[h.make_opsetid("", 23), h.make_opsetid("com.microsoft", 1),
                                   h.make_opsetid("my.domain", 1)])
onnx.save(m, sys.argv[1])
PY
out=$("$NNAV_BIN" shapes "$work/domains.onnx" 2>&1)
echo "$out" | grep -q '^y_other .*no rule for my.domain:Attention' ||
    fail "my.domain's Attention got a rule: $out"
echo "$out" | grep -q '^y_relu .*no rule for com.microsoft:Relu' ||
    fail "com.microsoft's Relu got a rule: $out"
echo "$out" | grep -q '^y_ms  *float32\[1,4,10\] ' || fail "com.microsoft's Attention: $out"
echo "$out" | grep -q '^y_onnx  *float32\[1,4,8\] ' || fail "ONNX's Attention: $out"
[ "$FAILS" = 0 ] || { finish; exit 1; }
exec "$py" "$here/llm_ops_check.py" "$NNAV_BIN" "$node" "$pkg" "$work/run" "$work"/gen/*.onnx
