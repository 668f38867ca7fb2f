#!/usr/bin/env bash
# The named wire field numbers are generated from proto/ by
# proto/gen_fields.py and committed (the build needs no Python): rerunning
# the script gives the committed headers byte for byte. (test_fields checks
# the numbers against protoc-c's descriptors; this checks the files are the
# script's output, so a schema change that forgot to rerun it is caught.)
set -u
. "$(dirname "$0")/lib.bash"
py=""
for c in /usr/bin/python3 python3; do command -v "$c" > /dev/null && { py=$c; break; }; done
[ -n "$py" ] || { echo "SKIP: no python3 to rerun proto/gen_fields.py"; exit 77; }
cd "$NNAV_SRC" || exit 1
gen() { # gen NAME HEADER PROTO...
    local name=$1 header=$2; shift 2
    CHECKS=$((CHECKS + 1))
    if ! "$py" proto/gen_fields.py "$name" "$@" > "$NNAV_TMP/fields_$name.h"; then
        fail "proto/gen_fields.py $name failed"
    elif ! cmp -s "$NNAV_TMP/fields_$name.h" "$header"; then
        fail "$header is not what proto/gen_fields.py writes now:"
        diff "$header" "$NNAV_TMP/fields_$name.h" | head -10
    fi
}
gen onnx src/index/onnx_fields.h proto/onnx.proto
gen tf src/formats/tf/tf_fields.h proto/tensorflow/*.proto
finish
