#!/usr/bin/env bash
# A packed quantised weight counts what it stands for (issue 30, item 6):
# ONNX Runtime's com.microsoft MatMulNBits holds its K x N weight as uint8
# blocks of `bits`-wide numbers ([N, K/block_size, block_size*bits/8]),
# with float scales and zero points beside them. Its parameters are K x N
# (and its bias), not the bytes stored; scales and zero points are
# quantisation's constants. ONNX Runtime (when installed) runs the model,
# so the file is one it accepts; summary, info, cost and node agree.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
T=$NNAV_TMP/params_quant; rm -rf "$T"; mkdir -p "$T"
OUT=$T/last.out
ERR=$T/last.err
K=64 N=32 BLOCK=32
"$py" - "$T/mnb.onnx" "$K" "$N" "$BLOCK" <<'EOF' || fail "generator"
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto as T
path, K, N, bs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rng = np.random.default_rng(5)
nb = K // bs
B = numpy_helper.from_array(rng.integers(0, 255, (N, nb, bs * 4 // 8), dtype=np.uint8), "B")
sc = numpy_helper.from_array(rng.random(N * nb).astype(np.float32), "scales")
bias = numpy_helper.from_array(rng.random(N).astype(np.float32), "bias")
node = helper.make_node("MatMulNBits", ["A", "B", "scales", "", "", "bias"], ["Y"], domain="com.microsoft",
                        K=K, N=N, bits=4, block_size=bs, name="fc/MatMulNBits")
g = helper.make_graph([node], "g", [helper.make_tensor_value_info("A", T.FLOAT, [2, K])],
                      [helper.make_tensor_value_info("Y", T.FLOAT, [2, N])], [B, sc, bias])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21), helper.make_opsetid("com.microsoft", 1)])
m.ir_version = 10
onnx.save(m, path)
EOF
want=$((K * N + N))
expect_status 0 "$NNAV_BIN" summary "$T/mnb.onnx" --yaml
"$py" -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); assert d["params"]==int(sys.argv[2]), d["params"]' "$OUT" "$want" ||
    fail "summary params: not K x N + N = $want"
expect_status 0 "$NNAV_BIN" info "$T/mnb.onnx" --yaml
"$py" -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1])); assert d["parameters_all_graphs"]==int(sys.argv[2]) and d["constant_weights"]=='"$((N * K / BLOCK))"', d' "$OUT" "$want" ||
    fail "info: parameters not $want or the scales not constants"
expect_status 0 "$NNAV_BIN" cost "$T/mnb.onnx" --yaml
"$py" -c 'import sys,yaml; d=yaml.safe_load(open(sys.argv[1]))["graphs"][0]; assert d["params"]==int(sys.argv[2]), d' "$OUT" "$want" ||
    fail "cost params: not $want"
expect_status 0 "$NNAV_BIN" node "$T/mnb.onnx" fc/MatMulNBits --yaml
"$py" -c 'import sys,yaml; c=yaml.safe_load(open(sys.argv[1]))["cost"]; assert c["params"]==int(sys.argv[2]), c' "$OUT" "$want" ||
    fail "node params: not $want"

if find_ort; then
    echo "[{\"id\": \"m\", \"model\": \"$T/mnb.onnx\", \"inputs\": [{\"name\": \"A\", \"type\": \"float32\", \"dims\": [2, $K]}], \"fetch\": [\"Y\"]}]" > "$T/jobs.json"
    "$node" "$(dirname "$0")/ort_oracle.js" "$pkg" "$T/jobs.json" "$T/res.json" > "$T/ort.log" 2>&1 ||
        fail "ort_oracle.js: $(tail -3 "$T/ort.log")"
    "$py" -c 'import json,sys; r=json.load(open(sys.argv[1]))["m"]; assert "error" not in r and r["values"]["Y"]["dims"]==[2,int(sys.argv[2])], r' "$T/res.json" "$N" ||
        fail "ONNX Runtime does not run the MatMulNBits model: $(cat "$T/res.json")"
else
    echo "SKIP (partly): $ort_why: the model is not run"
fi
finish
