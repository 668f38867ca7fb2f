#!/usr/bin/env bash
# export's format follows the output file's extension (.onnx -> ONNX,
# .yaml/.yml -> YAML, any case), --format overrides it only where the name
# does not say, a contradiction is a usage error that writes nothing, and the
# confirmation names the format written (issue 13, item 12).
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/export_format; rm -rf "$T"; mkdir -p "$T"
S=$NNAV_SAMPLES

# is_onnx FILE: a ModelProto (ir_version field first), not YAML text.
is_onnx() { [ "$(head -c 1 "$1" | od -An -tx1 | tr -d ' ')" = 08 ]; }

expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" -o "$T/piece.onnx"
is_onnx "$T/piece.onnx" || fail "-o piece.onnx wrote no ONNX: $(head -c 40 "$T/piece.onnx")"
grep -q '^nnav export: wrote ONNX to .*piece\.onnx (.* bytes, 11 nodes)$' "$ERR" ||
    fail "confirmation names ONNX: $(cat "$ERR")"
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" -o "$T/PIECE.ONNX"
is_onnx "$T/PIECE.ONNX" || fail "-o PIECE.ONNX wrote no ONNX"
for ext in yaml yml YAML; do
    expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" -o "$T/piece.$ext"
    grep -q '^graph:' "$T/piece.$ext" || fail "-o piece.$ext wrote no YAML"
    grep -q "^nnav export: wrote YAML to .*piece\.$ext (" "$ERR" || fail "confirmation names YAML: $(cat "$ERR")"
done
# A name that says nothing: YAML unless --format says otherwise.
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" -o "$T/piece.txt"
grep -q '^graph:' "$T/piece.txt" || fail "-o piece.txt wrote no YAML"
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" --format onnx -o "$T/piece.bin"
is_onnx "$T/piece.bin" || fail "--format onnx -o piece.bin wrote no ONNX"
grep -q 'wrote ONNX to' "$ERR" || fail "confirmation names ONNX for piece.bin"
# Agreeing --format is fine.
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" --format onnx -o "$T/agree.onnx"
is_onnx "$T/agree.onnx" || fail "--format onnx -o agree.onnx"
# Contradictions: usage errors, nothing written.
expect_status 1 "$NNAV_BIN" export "$S/cnn.onnx" --format yaml -o "$T/x.onnx"
grep -q "contradicts the .onnx name" "$ERR" || fail "contradiction explained: $(cat "$ERR")"
[ ! -e "$T/x.onnx" ] || fail "a contradiction wrote x.onnx"
expect_status 1 "$NNAV_BIN" export "$S/cnn.onnx" --format onnx -o "$T/x.yaml"
grep -q "contradicts the .yaml name" "$ERR" || fail "contradiction explained: $(cat "$ERR")"
[ ! -e "$T/x.yaml" ] || fail "a contradiction wrote x.yaml"
# A TensorFlow model to .onnx: refused with the reason, nothing written.
expect_status 1 "$NNAV_BIN" export "$S/tf_graph.pb" -o "$T/tf.onnx"
grep -q 'ONNX output is only written from ONNX models' "$ERR" || fail "TF to .onnx refused: $(cat "$ERR")"
[ ! -e "$T/tf.onnx" ] || fail "a refused TF export wrote tf.onnx"
# One node: "1 node".
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" --node conv1 --depth 0 -o "$T/one.onnx"
grep -q '(.* bytes, 1 node)$' "$ERR" || fail "singular node count: $(cat "$ERR")"

# The ONNX package loads and checks what -o x.onnx wrote (a region, a whole
# model with bodies and functions, and external data kept).
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx' 2>/dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    expect_status 0 "$NNAV_BIN" export "$S/control_flow.onnx" -o "$T/cf.onnx"
    expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" --inputs input --outputs conv1_out -o "$T/region.onnx"
    for f in piece.onnx PIECE.ONNX cf.onnx region.onnx one.onnx; do
        CHECKS=$((CHECKS + 1))
        "$py" -c 'import onnx, sys; m = onnx.load(sys.argv[1]); onnx.checker.check_model(m)' \
            "$T/$f" > "$T/py.err" 2>&1 || fail "onnx.load + check_model refused $f: $(tail -2 "$T/py.err")"
    done
else
    echo "SKIP (partly): no python3 with onnx to load the exports"
fi
finish
