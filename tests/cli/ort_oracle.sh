#!/usr/bin/env bash
# ONNX Runtime as the oracle: every sample (and the models symdims_gen.py,
# resize_cost_gen.py and llm_ops_gen.py build), and as ort_oracle_corpus every ../shared/corpus
# ONNX model, is run by ONNX Runtime's Node.js package on inputs made from
# its declared shapes (named dims bound to small numbers, the same binding
# given to `nnav shapes --dim`), with every intermediate value fetched; each
# value's real element type and dims must be nnav's, and every folded
# constant nnav shows must be the real value (ort_oracle.py says how).
# Mismatches fail unless ort_oracle_allow.txt lists them with a reason.
#
# The package is found in $NNAV_ORT_DIR, else in
# ${XDG_CACHE_HOME:-~/.cache}/nnav/ort (outside the checkout), where
# .ci/run installs it:
#   ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix DIR onnxruntime-node@1.30.0
# (skip: its postinstall would fetch CUDA libraries from NuGet; the CPU
# library is in the npm package). Skipped, saying so, without node or it.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
find_ort || { echo "SKIP: $ort_why"; exit 77; }
corpus_part
here=$(dirname "$0")
work=$NNAV_TMP/ort_oracle
rm -rf "$work"
mkdir -p "$work"
files=()
if [ "${NNAV_PART:-all}" != corpus ]; then
    "$py" "$here/symdims_gen.py" "$work/gen" > /dev/null || { echo "FAIL: symdims_gen.py"; exit 1; }
    "$py" "$here/resize_cost_gen.py" "$work/gen" > /dev/null || { echo "FAIL: resize_cost_gen.py"; exit 1; }
    "$py" "$here/llm_ops_gen.py" "$work/gen" > /dev/null || { echo "FAIL: llm_ops_gen.py"; exit 1; }
    files+=("$NNAV_SAMPLES"/*.onnx "$work"/gen/*.onnx)
fi
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
elif [ "${NNAV_PART:-all}" != samples ]; then
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS"
fi
echo "ONNX Runtime: $pkg ($("$node" -p 'require(process.argv[1] + "/package.json").version' "$pkg")), node $("$node" --version)"
exec "$py" "$here/ort_oracle.py" "$NNAV_BIN" "$node" "$pkg" "$work" "$here/ort_oracle_allow.txt" "${files[@]}"
