#!/usr/bin/env bash
# Convs after a Resize whose sizes or scales are computed get their MACs:
# resize_cost_gen.py builds Paddle2ONNX's patterns (sizes from the input's
# shape through Cast to float, Mul 2.0, Add 0.0, Cast back, also by way of
# int32; scales as Concat([1,1], Cast(ints))) and counts each model's MACs
# from the operators' definitions; `nnav cost --dim` must give exactly that,
# with no partial node, and `nnav shapes` the real dims. A factor of 0.5 is
# not folded: nnav says partial and gives no wrong dim.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
dir=$NNAV_TMP/resize_cost
rm -rf "$dir"
"$py" "$(dirname "$0")/resize_cost_gen.py" "$dir" || { echo "FAIL: resize_cost_gen.py"; exit 1; }
exec "$py" "$(dirname "$0")/resize_cost_check.py" "$NNAV_BIN" "$dir"
