#!/usr/bin/env bash
# YAML and value listings exact to the last bit (issue 15, items 1, 2, 6, 7):
# a generated model with every attribute type, every integer dtype at its
# extremes, float64 denormals and hostile names ('<<', '=', 'yes', unnamed
# nodes), then the bundled samples and ../shared/corpus, each checked by
# exact_yaml.py against onnx.load and numpy_helper (node --yaml, export YAML,
# tensors --values as YAML and as a table; yaml.safe_load and the full loader).
set -u
py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx, yaml, numpy' 2>/dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx, yaml and numpy packages (apt-get install python3-onnx python3-yaml)"
    exit 77
fi
. "$(dirname "$0")/lib.bash"
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
