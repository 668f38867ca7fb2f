#!/usr/bin/env bash
# 64-bit integers of a TensorFlow file never pass through a double (issue 15,
# item 2): tensors --values, in text and YAML, gives INT64_MAX, INT64_MIN,
# 2^53 + 1 and uint64's 2^64 - 1 exactly, from int64_val, tensor_content and
# a splat, with exact min and max; export YAML the same. The GraphDef is
# encoded by protoc from tf_int64.pbtxt; PyYAML reads the YAML back.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/tf_int64; rm -rf "$T"; mkdir -p "$T"
D=$(dirname "$0")
command -v protoc > /dev/null || { echo "SKIP: no protoc to encode the GraphDef"; exit 77; }
protoc -I"$D/../../proto" --encode=tensorflow.GraphDef tensorflow/graph.proto \
    < "$D/tf_int64.pbtxt" > "$T/g.pb" || { echo "FAIL: protoc"; exit 1; }

expect_status 0 "$NNAV_BIN" tensors "$T/g.pb" --all --constants --values 4
grep -q '^    values: 9223372036854775807, -9223372036854775808, 9007199254740993, -1$' "$OUT" ||
    fail "int64_val: $(grep -A1 '^a ' "$OUT")"
grep -q '^    min -9223372036854775808  max 9223372036854775807 ' "$OUT" || fail "int64 min/max: $(cat "$OUT")"
grep -q '^    values: 18446744073709551615, 9007199254740993$' "$OUT" || fail "uint64 tensor_content: $(cat "$OUT")"
grep -q '^    min 9007199254740993  max 18446744073709551615 ' "$OUT" || fail "uint64 min/max"
grep -q '^    values: 9007199254740993, 9007199254740993, 9007199254740993$' "$OUT" || fail "splat: $(cat "$OUT")"

py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import yaml' 2> /dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    expect_status 0 "$NNAV_BIN" tensors "$T/g.pb" --all --constants --values 4 --yaml
    "$py" -c 'import sys, yaml
d = {t["name"]: t for t in yaml.safe_load(open(sys.argv[1]))["tensors"]}
assert d["a"]["values"] == [2**63 - 1, -2**63, 2**53 + 1, -1], d["a"]
assert d["a"]["min"] == -2**63 and d["a"]["max"] == 2**63 - 1, d["a"]
assert d["b"]["values"] == [2**64 - 1, 2**53 + 1] and d["b"]["max"] == 2**64 - 1, d["b"]
assert d["c"]["values"] == [2**53 + 1] * 3 and d["c"]["min"] == 2**53 + 1, d["c"]' "$OUT" ||
        fail "tensors --yaml: the integers are not exact"
    expect_status 0 "$NNAV_BIN" export "$T/g.pb"
    "$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
text = open(sys.argv[1]).read()
for v in ("9223372036854775807", "-9223372036854775808", "18446744073709551615", "9007199254740993"):
    assert v in text, v
assert "e+18" not in text and "e+15" not in text, "a 64-bit integer written as a float"' "$OUT" ||
        fail "export YAML: the integers are not exact"
else
    echo "SKIP (partly): no python3 with PyYAML for the YAML checks"
fi
finish
