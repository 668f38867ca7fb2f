#!/usr/bin/env bash
# YAML and value listings exact to the last bit (issue 15, items 1, 2, 6, 7):
# a generated model with every attribute type, every integer dtype at its
# extremes, float64 denormals and hostile names ('<<', '=', 'yes', unnamed
# nodes), then the bundled samples and ../shared/corpus, each checked by
# exact_yaml.py against onnx.load and numpy_helper (node --yaml, export YAML,
# tensors --values as YAML and as a table; yaml.safe_load and the full loader).
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
corpus_part
T=$NNAV_TMP/exact_yaml; rm -rf "$T"; mkdir -p "$T"
here=$(dirname "$0")
check() { # MODEL [MAX_NODES]
    CHECKS=$((CHECKS + 1))
    "$py" "$here/exact_yaml.py" "$NNAV_BIN" "$@" > "$T/out" 2>&1 || fail "$(basename "$1"): $(tail -1 "$T/out")"
    cat "$T/out" | head -30
}
if [ "${NNAV_PART:-all}" != corpus ]; then
    "$py" "$here/gen_exact_yaml.py" "$T/exact.onnx" || fail "gen_exact_yaml.py"
    check "$T/exact.onnx"
    # The name the table shows an unnamed Constant's tensor by is one --name takes.
    expect_status 0 "$NNAV_BIN" tensors "$T/exact.onnx" --name '(#2.value)' --values 4
    grep -q '^    values: 9223372036854775807, -9223372036854775808, 9007199254740993, -1$' "$OUT" ||
        fail "tensors --name '(#2.value)': $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" tensors "$T/exact.onnx" --name '(=.t_str)' --values 4
    grep -qF 'values: "a", "", "\xFF"' "$OUT" || fail "tensors --name '(=.t_str)': $(cat "$OUT")"
    # The table view of attributes: strings of a STRING tensor, sparse parts, exact ints.
    expect_status 0 "$NNAV_BIN" node "$T/exact.onnx" =
    grep -qF 't_str                TENSOR   string[3] {"a", "", "\xFF"}' "$OUT" || fail "node = t_str: $(grep t_str "$OUT")"
    grep -qF 'sparse float32[3,4] indices {0, 1, 2, 3} values {1.5, -2}' "$OUT" || fail "node = sp: $(grep ' sp ' "$OUT")"
    grep -qF '{9223372036854775807, -9223372036854775808, 9007199254740993}' "$OUT" || fail "node = t_i64: $(grep t_i64 "$OUT")"
    for f in "$NNAV_SAMPLES"/*.onnx; do
        "$py" -c 'import onnx, sys; onnx.load(sys.argv[1])' "$f" 2>/dev/null || continue
        check "$f" 40
    done
fi
if [ -d "$NNAV_CORPUS/onnx" ]; then
    for f in "$NNAV_CORPUS"/onnx/*.onnx; do
        check "$f" 25
    done
elif [ "${NNAV_PART:-all}" != samples ]; then
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; the generated model and samples only"
fi
finish
