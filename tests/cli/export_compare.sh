#!/usr/bin/env bash
# Exports checked against the ONNX package (region = onnx.utils.Extractor,
# YAML read back by PyYAML, ONNX output through onnx.checker), on the samples
# and ../shared/corpus.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml
corpus_part
files=("$NNAV_SAMPLES"/*.onnx)
[ "${NNAV_PART:-all}" = corpus ] && files=()
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; checking the samples only"
fi
exec "$py" "$(dirname "$0")/export_compare.py" "$NNAV_BIN" "${files[@]}"
