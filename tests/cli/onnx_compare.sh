#!/usr/bin/env bash
# Every count and name nnav reports equals what the ONNX Python package reads,
# on the bundled samples and on ../shared/corpus.
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
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; comparing the samples only"
fi
exec "$py" "$(dirname "$0")/onnx_compare.py" "$NNAV_BIN" "${files[@]}"
