#!/usr/bin/env bash
# Whole-model cost (issue 14, item 7): models written here with the ONNX
# package (tests/cli/whole_cost_gen.py prints the MACs and params it worked
# out by hand) and a TensorFlow GraphDef encoded by protoc from
# whole_cost_tf.pbtxt. An If costs its dearer branch (both shown), a Loop
# its body times its constant trip count, an LSTM its gates' products,
# weights held by a Constant node count as params, and a TensorFlow Conv2D
# and MatMul have MACs (BiasAdd none).
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/whole_cost; rm -rf "$T"; mkdir -p "$T"
D=$(dirname "$0")
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, yaml, numpy' 2>/dev/null && { py=$c; break; }; done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx, numpy and yaml packages"
    exit 77
fi
"$py" "$D/whole_cost_gen.py" "$T" > "$T/expect.txt" || { echo "FAIL: generator"; exit 1; }

# cost --yaml: the main graph's MACs and params equal the hand-computed ones.
while read -r name macs params; do
    expect_status 0 "$NNAV_BIN" cost --yaml "$T/$name"
    "$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))["graphs"][0]
assert d["macs"] == int(sys.argv[2]), ("macs", d["macs"], sys.argv[2])
assert d["params"] == int(sys.argv[3]), ("params", d["params"], sys.argv[3])' "$OUT" "$macs" "$params" ||
        fail "$name: cost --yaml MACs/params differ from $macs/$params"
    expect_status 0 "$NNAV_BIN" info --yaml "$T/$name"
    "$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))["compute"]
assert d["macs"] == int(sys.argv[2]) and d["params"] == int(sys.argv[3]), d' "$OUT" "$macs" "$params" ||
        fail "$name: info --yaml compute differs from $macs/$params"
    # summary's totals are the whole model's too (weights in bodies and functions).
    expect_status 0 "$NNAV_BIN" summary --yaml "$T/$name"
    "$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["macs"] == int(sys.argv[2]) and d["params"] == int(sys.argv[3]), (d["macs"], d["params"])
assert d["scopes"][0]["params"] == d["params"], d["scopes"][0]' "$OUT" "$macs" "$params" ||
        fail "$name: summary --yaml totals differ from $macs/$params"
done < "$T/expect.txt"

# The If's body weights count in the If node's scope; the function's
# weights once, in the scope holding both calls (the root).
expect_status 0 "$NNAV_BIN" summary "$T/if.onnx"
grep -q '^total: 1 node in 1 scope, 128 params' "$OUT" || fail "if: summary total: $(tail -1 "$OUT")"
expect_status 0 "$NNAV_BIN" summary --yaml "$T/func.onnx"
"$py" -c 'import sys, yaml
d = {s["path"]: s for s in yaml.safe_load(open(sys.argv[1]))["scopes"]}
assert d["a"]["params"] == 0 and d["b"]["params"] == 0 and d[""]["params"] == 16, d
assert d["a"]["macs"] == 16 and d["b"]["macs"] == 16, d' "$OUT" || fail "func: summary scopes: $(cat "$OUT")"

# Both branches shown, the dearer counted; the trip count said.
expect_status 0 "$NNAV_BIN" cost "$T/if.onnx"
grep -q 'then 32 MACs, else 96 MACs: the dearer (else) counted' "$OUT" || fail "if: branches not shown: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" info "$T/if.onnx"
grep -q '^compute        96 MACs, 128 params in the whole model$' "$OUT" || fail "if: info: $(grep compute "$OUT")"
expect_status 0 "$NNAV_BIN" cost "$T/loop.onnx"
grep -q 'body 16 MACs x 5 trips' "$OUT" || fail "loop: trip count not said: $(cat "$OUT")"
# The op table's params follow the same rule: the int64 trip count M is not one.
expect_status 0 "$NNAV_BIN" cost --yaml "$T/loop.onnx"
"$py" -c 'import sys, yaml
ops = {o["op_type"]: o for o in yaml.safe_load(open(sys.argv[1]))["graphs"][0]["ops"]}
assert ops["Loop"]["params"] == 0, ops' "$OUT" || fail "loop: the trip count counted as a param"

# TensorFlow: Conv2D 1x8x8x4 outputs x 3x3x3 filter = 6912 MACs, MatMul
# 2x6 outputs x 5 = 60, BiasAdd none; params 108 + 4 + 30 held by Const nodes.
if command -v protoc > /dev/null; then
    protoc -I"$D/../../proto" --encode=tensorflow.GraphDef tensorflow/graph.proto \
        < "$D/whole_cost_tf.pbtxt" > "$T/tf_conv.pb" || fail "protoc"
    expect_status 0 "$NNAV_BIN" cost --yaml "$T/tf_conv.pb"
    "$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))["graphs"][0]
ops = {o["op_type"]: o for o in d["ops"]}
assert d["macs"] == 6912 + 60, d["macs"]
assert ops["Conv2D"]["macs"] == 6912 and ops["MatMul"]["macs"] == 60 and ops["BiasAdd"]["macs"] == 0, ops
assert d["params"] == 108 + 4 + 30, d["params"]' "$OUT" || fail "tf: Conv2D/MatMul MACs or params wrong: $(head -3 "$OUT")"
else
    echo "SKIP (partly): no protoc for the TensorFlow case"
fi
finish
