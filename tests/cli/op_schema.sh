#!/usr/bin/env bash
# Operator knowledge on the command line (issue 17 items 3 and 5): nnav op
# for every schema in every version, and nnav node's formal names, defaults
# and schema line on generated models, held to onnx.defs by op_schema.py;
# the corpus part compares real exports' nodes (a Conv among them).
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml
corpus_part
T=$NNAV_TMP/op_schema; rm -rf "$T"; mkdir -p "$T"
here=$(dirname "$0")
if [ "${NNAV_PART:-all}" != corpus ]; then
    # op takes no model; its --help says so and lists its options, each taken.
    expect_status 0 "$NNAV_BIN" op --help
    grep -q '^Usage: nnav op NAME \[OPTIONS\]' "$OUT" || fail "op --help usage: $(head -1 "$OUT")"
    for opt in --opset --domain --model --list --yaml; do
        grep -q -- "^  $opt" "$OUT" || fail "op --help lacks $opt"
    done
    expect_status 0 "$NNAV_BIN" op Relu --opset 6 --domain ai.onnx --yaml
    expect_status 0 "$NNAV_BIN" op --list --domain ai.onnx.preview.training
    grep -q '^ai.onnx.preview.training *Gradient *1$' "$OUT" || fail "op --list: $(cat "$OUT")"
    expect_status 1 "$NNAV_BIN" op Relu --graph /
    grep -q 'does not apply' "$ERR" || fail "op --graph: $(cat "$ERR")"
    expect_status 1 "$NNAV_BIN" node "$NNAV_SAMPLES/cnn.onnx" conv1 --opset 3
    expect_status 2 "$NNAV_BIN" op Conv --model "$T/no_such.onnx"
    CHECKS=$((CHECKS + 1))
    "$py" "$here/op_schema.py" "$NNAV_BIN" "$T" > "$T/out" 2>&1 || fail "op_schema.py: $(grep FAIL "$T/out" | head -20)"
    cat "$T/out" | tail -4
else
    models=()
    for f in pytorch-operator_conv.onnx light_resnet50.onnx light_squeezenet.onnx light_inception_v1.onnx \
             light_densenet121.onnx hey_jarvis_v0.1.onnx melspectrogram.onnx; do
        [ -f "$NNAV_CORPUS/onnx/$f" ] && models+=("$NNAV_CORPUS/onnx/$f")
    done
    [ ${#models[@]} -gt 0 ] || fail "no corpus model found"
    # A real Conv export: X, W and B, and auto_pad's default NOTSET.
    c=$NNAV_CORPUS/onnx/pytorch-operator_conv.onnx
    if [ -f "$c" ]; then
        expect_status 0 "$NNAV_BIN" node "$c" '#0'
        grep -q '^  \[0\] X ' "$OUT" && grep -q '^  \[1\] W ' "$OUT" || fail "corpus Conv formals: $(cat "$OUT")"
        grep -q '^  auto_pad  *STRING  *"NOTSET" (default)$' "$OUT" || fail "corpus Conv auto_pad: $(cat "$OUT")"
    fi
    CHECKS=$((CHECKS + 1))
    "$py" "$here/op_schema.py" "$NNAV_BIN" "$T" "${models[@]}" > "$T/out" 2>&1 || fail "op_schema.py: $(grep FAIL "$T/out" | head -20)"
    cat "$T/out" | tail -4
fi
finish
