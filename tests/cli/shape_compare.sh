#!/usr/bin/env bash
# Wherever the ONNX package's shape inference gives a type, a rank or a size,
# nnav shapes gives the same, on the bundled samples and on ../shared/corpus;
# what nnav knows beyond it is counted. Run twice: onnx's plain inference,
# then with its data propagation (which folds shape computations as nnav does).
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
. "$(dirname "$0")/lib.bash"
corpus_part
files=("$NNAV_SAMPLES"/*.onnx)
[ "${NNAV_PART:-all}" = corpus ] && files=()
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; comparing the samples only"
fi
rc=0
echo "== onnx.shape_inference.infer_shapes(strict_mode=False)"
"$py" "$(dirname "$0")/shape_compare.py" "$NNAV_BIN" "${files[@]}" || rc=1
echo "== the same with data_prop=True"
SHAPE_COMPARE_DATA_PROP=1 "$py" "$(dirname "$0")/shape_compare.py" "$NNAV_BIN" "${files[@]}" || rc=1
exit $rc
