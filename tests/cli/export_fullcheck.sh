#!/usr/bin/env bash
# Every ONNX export passes onnx.checker.check_model(full_check=True): every
# graph, regions and neighbourhoods of the samples, generated models and
# ../shared/corpus, and of copies passed through onnx's shape inference
# (issue 15, items 4 and 7: export_fullcheck.py says what is checked).
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml
corpus_part
gen=$NNAV_TMP/export_fullcheck.gen
files=()
if [ "${NNAV_PART:-all}" = corpus ]; then
    gen=-
else
    rm -rf "$gen" && mkdir -p "$gen" || exit 1
    "$py" "$(dirname "$0")/gen_export_types.py" "$gen" || exit 1
    files=("$NNAV_SAMPLES"/*.onnx "$gen"/*.onnx)
fi
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; checking the samples and generated models only"
fi
exec "$py" "$(dirname "$0")/export_fullcheck.py" "$NNAV_BIN" "$gen" "${files[@]}"
