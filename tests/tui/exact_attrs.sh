#!/usr/bin/env bash
# The detail pane shows attribute values whole and exact (issue 15, items 2
# and 7): a STRING tensor attribute's strings (not numbers from an unfilled
# buffer), int64 and uint64 extremes to the last digit in TENSOR(S)
# attributes, and a SPARSE_TENSOR(S) attribute's dims, indices and values.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_exact_attrs.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, numpy' 2>/dev/null && { py=$c; break; }; done
[ -n "$py" ] || skip "no python3 with onnx to write the model (apt-get install python3-onnx)"
"$py" "$NNAV_SRC/tests/cli/gen_exact_yaml.py" "$dir/exact.onnx" || fail "gen_exact_yaml.py"

start_args 200 72 --no-declutter "$dir/exact.onnx"
wait_ready
keys Down
wait_for "Attributes (22)"
wait_for 't_str = string[3] {"a", "", "\xFF"}'
pass "a STRING tensor attribute shows its strings"
wait_for "t_i64 = int64[3] {9223372036854775807, -9223372036854775808, 9007199254740993}"
pass "an int64 TENSOR attribute shows its values exactly"
wait_for "[0] uint64[1] {18446744073709551615}"
wait_for "sp = sparse float32[3,4] indices {0, 1, 2, 3} values {1.5, -2}"
wait_for "sps = sparse float32[3,4] indices {0, 1, 2, 3} values {1.5, -2}, sparse float32[3,4]"
pass "SPARSE_TENSOR(S) attributes show dims, indices and values"
quit_clean
