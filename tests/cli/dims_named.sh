#!/usr/bin/env bash
# Malformed dims are named for what they are (issue 13, item 15): a negative
# dimension says "negative dimension -5" and where in dims, a product of
# dims that overflows says "dims overflow"; neither says the stored data does
# not match dims x dtype. Models: tests/adversarial/cases (cases_dims.py).
set -u
. "$(dirname "$0")/lib.bash"
C=$NNAV_SRC/tests/adversarial/cases

expect_status 0 "$NNAV_BIN" info "$C/dims_neg5.onnx"
grep -q '^warning  *tensor "w": negative dimension -5 at dims\[1\]$' "$OUT" ||
    fail "negative dim named in info: $(grep warning "$OUT")"
grep -q 'does not match' "$OUT" && fail "a negative dim is not a data mismatch: $(grep warning "$OUT")"
expect_status 0 "$NNAV_BIN" tensors "$C/dims_neg5.onnx" --values 3
grep -q 'values: none (negative dimension -5 at dims\[1\])' "$OUT" || fail "values name the negative dim: $(cat "$OUT")"

expect_status 0 "$NNAV_BIN" info "$C/dims_overflow2.onnx"
grep -q '^warning  *tensor "w": dims overflow: their product passes 2^64 elements at dims\[1\]$' "$OUT" ||
    fail "overflow named in info: $(grep warning "$OUT")"
grep -q 'does not match' "$OUT" && fail "an overflow is not a data mismatch"
expect_status 0 "$NNAV_BIN" tensors "$C/dims_overflow2.onnx" --values 3
grep -q 'values: none (dims overflow' "$OUT" || fail "values name the overflow: $(cat "$OUT")"
# Elements that fit but whose bytes do not: an overflow too.
expect_status 0 "$NNAV_BIN" info "$C/dims_huge.onnx"
grep -q 'tensor "w": dims overflow: 4611686018427387904 elements of float32 take 2^64 bytes or more' "$OUT" ||
    fail "bytes overflow named: $(grep warning "$OUT")"

# A Constant's tensor, and many bad tensors: five named, the rest counted.
expect_status 0 "$NNAV_BIN" info "$C/dims_neg_constant.onnx"
grep -q 'tensor "kv": negative dimension -5' "$OUT" || fail "Constant's tensor named"
expect_status 0 "$NNAV_BIN" info "$C/dims_many_bad.onnx"
[ "$(grep -c '^warning  *tensor "w[0-9]": negative dimension' "$OUT")" = 5 ] || fail "five named"
grep -q 'and 2 more tensors with malformed dims' "$OUT" || fail "the rest counted: $(cat "$OUT")"

# TensorFlow refuses the values, status 2, with the same words and an offset.
expect_status 2 "$NNAV_BIN" tensors "$C/tf_dims_neg5.pb" --values 3
grep -q 'tensor has a malformed shape: negative dimension -5 at dims\[1\] at offset [0-9]' "$ERR" ||
    fail "TF negative dim named: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" tensors "$C/tf_dims_overflow.pb" --values 3
grep -q 'tensor has a malformed shape: dims overflow' "$ERR" || fail "TF overflow named: $(cat "$ERR")"
finish
