#!/usr/bin/env bash
# Wherever the ONNX package's shape inference gives a type, a rank or a size,
# nnav shapes gives the same, on the bundled samples and on ../shared/corpus;
# what nnav knows beyond it is counted.
set -u
py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx, onnx.shape_inference, yaml' 2>/dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx and yaml packages (apt-get install python3-onnx python3-yaml)"
    exit 77
fi
if ! "$NNAV_BIN" shapes --help > /dev/null 2>&1; then
    echo "SKIP: this nnav has no shapes command"
    exit 77
fi
files=("$NNAV_SAMPLES"/*.onnx)
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; comparing the samples only"
fi
exec "$py" "$(dirname "$0")/shape_compare.py" "$NNAV_BIN" "${files[@]}"
