#!/usr/bin/env bash
# Every count and name nnav reports equals what the ONNX Python package reads,
# on the bundled samples and on ../shared/corpus.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml
corpus_part
files=("$NNAV_SAMPLES"/*.onnx)
[ "${NNAV_PART:-all}" = corpus ] && files=()
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; comparing the samples only"
fi
exec "$py" "$(dirname "$0")/onnx_compare.py" "$NNAV_BIN" "${files[@]}"
