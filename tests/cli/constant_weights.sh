#!/usr/bin/env bash
# Weights held by Constant nodes in nnav tensors (issue 14, item 7): the
# facts come from tfacts.c as in the explorer's pane. Without --constants
# the listing is the initializers and a closing line says how many weights
# Constant nodes hold (by scope.h's rule, so a shape constant is not one)
# and that --constants lists them; with it they are tagged "Constant, raw".
# The model is tests/tui/constant_weights.pbtxt, encoded by protoc.
set -u
. "$(dirname "$0")/lib.bash"
command -v protoc > /dev/null || { echo "SKIP: protoc is not installed"; exit 77; }
D=$(cd "$(dirname "$0")" && pwd)
M=$NNAV_TMP/constant_weights_cli.onnx
protoc -I"$D/../../proto" --encode=onnx.ModelProto onnx.proto < "$D/../tui/constant_weights.pbtxt" > "$M" ||
    { echo "FAIL: protoc"; exit 1; }

expect_status 0 "$NNAV_BIN" tensors "$M"
grep -q '^1 tensor, 16 bytes (16 B), 4 parameters$' "$OUT" || fail "total: $(cat "$OUT")"
grep -q '^2 weights held by Constant nodes (160 parameters): --constants lists them$' "$OUT" ||
    fail "no hint for the Constant-held weights: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" tensors --constants "$M"
grep -q '^K  *float32\[16,8\]  *512  Constant, raw$' "$OUT" || fail "K not tagged: $(cat "$OUT")"
grep -q '^J  *float32\[8,4\]  *128  Constant, raw$' "$OUT" || fail "J not tagged: $(cat "$OUT")"
grep -q 'held by' "$OUT" && fail "--constants lists them: no hint wanted"
# A shape is held by a Constant node too (tagged) but is no weight.
grep -q '^(const_shape.value) .*Constant, ' "$OUT" || fail "shape constant: $(cat "$OUT")"
# Parameters agree with summary's and info's (164 = 4 + 128 + 32).
expect_status 0 "$NNAV_BIN" info "$M"
grep -q '160 MACs, 164 params in the whole model' "$OUT" || fail "info: $(grep compute "$OUT")"
# A model without Constant-held weights says nothing more.
expect_status 0 "$NNAV_BIN" tensors "$NNAV_SAMPLES/cnn.onnx"
grep -q 'held by' "$OUT" && fail "cnn: unexpected hint"
finish
