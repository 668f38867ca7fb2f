#!/usr/bin/env bash
# Symbolic dims are printed so that they read as the number they are:
# models built by symdims_gen.py (Flatten, Reshape with -1, Div and Mul of
# shape values, as in PaddleOCR rec's flatten_14.tmp_0) give dims such as
# N*(S/2), N/(N*S) and N*120*(S+1)/(N*120); each printed dim, evaluated at
# several bindings passed with --dim (floor division, the usual precedence),
# equals the size the operators give, and a product divided by its own
# factors is printed simplified (S+1). symdims_check.py says more.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml
dir=$NNAV_TMP/symdims
rm -rf "$dir"
"$py" "$(dirname "$0")/symexpr.py" > /dev/null || { echo "FAIL: symexpr.py's own checks"; exit 1; }
"$py" "$(dirname "$0")/symdims_gen.py" "$dir" || { echo "FAIL: symdims_gen.py"; exit 1; }
exec "$py" "$(dirname "$0")/symdims_check.py" "$NNAV_BIN" "$dir"
