#!/usr/bin/env bash
# Exports checked against the ONNX package (region = onnx.utils.Extractor,
# YAML read back by PyYAML, ONNX output through onnx.checker), on the samples
# and ../shared/corpus.
set -u
py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx, yaml' 2>/dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx and yaml packages (apt-get install python3-onnx python3-yaml)"
    exit 77
fi
. "$(dirname "$0")/lib.bash"
corpus_part
files=("$NNAV_SAMPLES"/*.onnx)
[ "${NNAV_PART:-all}" = corpus ] && files=()
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; checking the samples only"
fi
exec "$py" "$(dirname "$0")/export_compare.py" "$NNAV_BIN" "${files[@]}"
