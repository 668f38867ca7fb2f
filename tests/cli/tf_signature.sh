#!/usr/bin/env bash
# TensorFlow value types come from the graph, not the signatures (issue 15,
# item 5). Models written here in text format and encoded by protoc:
#  - a SavedModel like TensorFlow Serving's half_plus_three: Placeholder
#    tf_example is DT_STRING, a signature says DT_FLOAT with no tensor_shape.
#    The value is string everywhere (shapes, export YAML); the signature is
#    listed as written, a scalar (TensorFlow reads an absent tensor_shape as
#    an empty TensorShapeProto); `check` exits 2 naming the file, the field
#    path and the byte offset of the dtype field (found here in the bytes);
#    a DT_STRING Const is no parameter (info, tensors, cost, summary);
#  - the same model with agreeing signatures: check exits 0;
#  - GraphDefs for Placeholder's legacy rule (versions.producer <= 21: a
#    shape with no dims is unknown; 22: a scalar; PlaceholderV2: a scalar).
#  - a library function whose ret names a node with _output_shapes: the
#    function's output has that shape (it had the output_arg's dtype only).
# tests/cli/tf_signature_check.py works out the same facts from protoc's
# --decode text and compares them with nnav's, and tf_decode_compare.py
# compares every node, attribute, _output_shapes and Const value (also of
# the bundled TensorFlow samples); on the corpus (its own
# ctest entry) both run on every TensorFlow SavedModel there.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/tf_signature; rm -rf "$T"; mkdir -p "$T"
D=$(dirname "$0")
PROTO=$D/../../proto
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import yaml' 2>/dev/null && { py=$c; break; }; done
if ! command -v protoc > /dev/null || [ -z "$py" ]; then
    echo "SKIP: needs protoc and python3 with PyYAML"
    exit 77
fi
enc() { protoc -I"$PROTO" --encode="tensorflow.$1" "tensorflow/$2" > "$3" || fail "protoc $3"; }
dec() { protoc -I"$PROTO" --decode="tensorflow.$1" "tensorflow/$2" < "$3" > "$4" || fail "protoc --decode $3"; }

if [ "${NNAV_PART:-all}" != corpus ]; then
graph='
  graph_def {
    versions { producer: 27 }
    node { name: "tf_example" op: "Placeholder" attr { key: "dtype" value { type: DT_STRING } }
      attr { key: "shape" value { shape { unknown_rank: true } } } }
    node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "shape" value { shape { dim { size: -1 } dim { size: 1 } } } } }
    node { name: "keys" op: "Const" attr { key: "dtype" value { type: DT_STRING } }
      attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 3 } }
        string_val: "x" string_val: "x2" string_val: "y" } } } }
    node { name: "keys/read" op: "Identity" input: "keys" attr { key: "T" value { type: DT_STRING } } }
    node { name: "w" op: "Const" attr { key: "dtype" value { type: DT_FLOAT } }
      attr { key: "value" value { tensor { dtype: DT_FLOAT tensor_shape { dim { size: 1 } dim { size: 2 } }
        float_val: 0.5 float_val: 3 } } } }
    node { name: "y" op: "MatMul" input: "x" input: "w" attr { key: "T" value { type: DT_FLOAT } } }
  }'
agree='
  signature_def { key: "serving_default" value {
    inputs { key: "x" value { name: "x:0" dtype: DT_FLOAT tensor_shape { dim { size: -1 } dim { size: 1 } } } }
    outputs { key: "y" value { name: "y:0" dtype: DT_FLOAT tensor_shape { dim { size: -1 } dim { size: 2 } } } }
    method_name: "tensorflow/serving/predict" } }
  signature_def { key: "classify" value {
    inputs { key: "inputs" value { name: "tf_example:0" dtype: DT_STRING tensor_shape { unknown_rank: true } } }
    outputs { key: "scores" value { name: "y:0" dtype: DT_FLOAT tensor_shape { dim { size: -1 } dim { size: 2 } } } }
    method_name: "tensorflow/serving/classify" } }'
# As half_plus_three has them: DT_FLOAT for the string input, no tensor_shape.
disagree='
  signature_def { key: "classify_x_to_y" value {
    inputs { key: "inputs" value { name: "tf_example:0" dtype: DT_FLOAT } }
    outputs { key: "scores" value { name: "y:0" dtype: DT_FLOAT tensor_shape { dim { size: -1 } dim { size: 2 } } } }
    method_name: "tensorflow/serving/classify" } }
  signature_def { key: "regress_x_to_y" value {
    inputs { key: "inputs" value { name: "x:0" dtype: DT_FLOAT } }
    outputs { key: "outputs" value { name: "y:0" dtype: DT_FLOAT tensor_shape { dim { size: -1 } dim { size: 2 } } } }
    method_name: "tensorflow/serving/regress" } }'
printf 'meta_graphs { meta_info_def { tags: "serve" } %s %s %s }\n' "$graph" "$disagree" "$agree" |
    enc SavedModel saved_model.proto "$T/hp3.pb"
printf 'meta_graphs { meta_info_def { tags: "serve" } %s %s }\n' "$graph" "$agree" |
    enc SavedModel saved_model.proto "$T/agree.pb"
dec SavedModel saved_model.proto "$T/hp3.pb" "$T/hp3.txt"
dec SavedModel saved_model.proto "$T/agree.pb" "$T/agree.txt"

# The value's type is the node's, in every view.
expect_status 0 "$NNAV_BIN" shapes "$T/hp3.pb"
grep -q '^tf_example:0  *string\[\.\.\.\] ' "$OUT" || fail "shapes: tf_example:0 is a string: $(grep tf_example "$OUT")"
grep -q '^x:0  *float32\[?,1\] ' "$OUT" || fail "shapes: x:0 has its shape attr: $(grep '^x:0' "$OUT")"
grep -q '^y:0  *float32\[?,2\] ' "$OUT" || fail "shapes: y:0 inferred from x:0: $(grep '^y:0' "$OUT")"
expect_status 0 "$NNAV_BIN" export --format yaml "$T/hp3.pb"
"$py" -c 'import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))["graph"]
ins = {v["name"]: v for v in g["input"]}
assert ins["tf_example:0"]["elem_type"] == "STRING", ins["tf_example:0"]
assert ins["x:0"]["type"] == "float32[?,1]", ins["x:0"]' "$OUT" || fail "export yaml: graph inputs typed by their Placeholders"
expect_status 0 "$NNAV_BIN" node "$T/hp3.pb" tf_example
grep -q 'string\[\.\.\.\]' "$OUT" || fail "node tf_example: its output is a string: $(cat "$OUT")"

# Signatures as written: no tensor_shape is a scalar, unknown_rank is [...].
expect_status 0 "$NNAV_BIN" info "$T/hp3.pb"
grep -q 'input  inputs  *tf_example:0  *float32\[\]$' "$OUT" || fail "info: classify_x_to_y's input as written"
grep -q 'input  inputs  *tf_example:0  *string\[\.\.\.\]$' "$OUT" || fail "info: classify's input as written"
grep -q 'input  inputs  *x:0  *float32\[\]$' "$OUT" || fail "info: regress_x_to_y's input, a scalar"

# A DT_STRING Const is no parameter: the float Const's 2 elements only.
grep -Eq '^parameters +2 in the main graph, 2 in all graphs \(2 held by Constant nodes\)$' "$OUT" ||
    fail "info: 2 parameters, the strings not among them: $(grep '^weights\|^parameters' "$OUT")"
grep -q '^compute .* 2 params in the whole model' "$OUT" || fail "info: compute has 2 params: $(grep '^compute' "$OUT")"
expect_status 0 "$NNAV_BIN" tensors --yaml "$T/hp3.pb"
"$py" -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["parameters"] == 2, d["parameters"]' "$OUT" ||
    fail "tensors: 2 parameters"
expect_status 0 "$NNAV_BIN" info --yaml "$T/hp3.pb"
"$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
p = [d[k] for k in ("parameters", "parameters_main_graph", "parameters_all_graphs") if k in d]
assert p and all(x == 2 for x in p), d' "$OUT" ||
    fail "info --yaml: 2 parameters"
expect_status 0 "$NNAV_BIN" cost --yaml "$T/hp3.pb"
"$py" -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); assert d["graphs"][0]["params"] == 2, d["graphs"][0]' "$OUT" ||
    fail "cost: 2 params"
expect_status 0 "$NNAV_BIN" summary "$T/hp3.pb"
grep -q '^total: .* 2 params ' "$OUT" || fail "summary: 2 params: $(tail -1 "$OUT")"
expect_status 0 "$NNAV_BIN" tensors "$T/hp3.pb"
grep -q '^2 tensors, .* 2 parameters$' "$OUT" || fail "tensors: 2 parameters: $(tail -1 "$OUT")"

# check: the two contradictions, where they are.
off=$("$py" -c 'import sys
b = open(sys.argv[1], "rb").read()
ti = b"\n\x0ctf_example:0\x10\x01"   # TensorInfo: name, then dtype DT_FLOAT
assert b.count(ti) == 1
print(b.index(ti) + 14)' "$T/hp3.pb")
expect_status 2 "$NNAV_BIN" check "$T/hp3.pb"
grep -qF "$T/hp3.pb: meta_graphs[0].signature_def[\"classify_x_to_y\"].inputs[\"inputs\"].dtype: signature \"classify_x_to_y\" input \"inputs\" (tf_example:0) says float32[] (no tensor_shape: a scalar to TensorFlow), the graph gives string[...] (node \"tf_example\", Placeholder) at offset $off" "$OUT" ||
    fail "check: the dtype contradiction with file, field path and offset $off: $(cat "$OUT")"
grep -qF 'signature_def["regress_x_to_y"].inputs["inputs"]: signature "regress_x_to_y" input "inputs" (x:0) says float32[] (no tensor_shape: a scalar to TensorFlow), the graph gives float32[?,1]' "$OUT" ||
    fail "check: the shape contradiction: $(cat "$OUT")"
grep -q '^8 signature tensors checked against the graph: 2 contradict it$' "$OUT" || fail "check: counts: $(tail -1 "$OUT")"
grep -q 'nnav check: 2 signature tensors contradicting the graph' "$ERR" || fail "check: says why it exits 2: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" check --yaml "$T/hp3.pb"
"$py" -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
s = {(x["signature"], x["side"], x["key"]): x for x in d["signature_disagreements"]}
assert set(s) == {("classify_x_to_y", "input", "inputs"), ("regress_x_to_y", "input", "inputs")}, s
x = s[("classify_x_to_y", "input", "inputs")]
assert (x["what"], x["offset"], x["signature_type"], x["graph_type"], x["node"], x["op_type"]) == \
    ("dtype", int(sys.argv[2]), "float32[]", "string[...]", "tf_example", "Placeholder"), x
assert x["field"] == "meta_graphs[0].signature_def[\"classify_x_to_y\"].inputs[\"inputs\"].dtype", x
assert s[("regress_x_to_y", "input", "inputs")]["what"] == "shape"
assert d["signature_disagreement_count"] == 2 and d["signature_tensors_checked"] == 8, d' "$OUT" "$off" ||
    fail "check --yaml: the two findings"
# The same MetaGraphDef as a file of its own: the path starts at signature_def.
off=$("$py" -c 'import sys
sys.path.insert(0, sys.argv[3])
import tf_facts as t
mg = t.get(open(sys.argv[1], "rb").read(), 2)[0]
open(sys.argv[2], "wb").write(mg)
print(mg.index(b"\n\x0ctf_example:0\x10\x01") + 14)' "$T/hp3.pb" "$T/hp3.meta.pb" "$D")
expect_status 2 "$NNAV_BIN" check "$T/hp3.meta.pb"
grep -qF "$T/hp3.meta.pb: signature_def[\"classify_x_to_y\"].inputs[\"inputs\"].dtype: signature \"classify_x_to_y\"" "$OUT" ||
    fail "check on a MetaGraphDef file: $(head -1 "$OUT")"
grep -q "(node \"tf_example\", Placeholder) at offset $off\$" "$OUT" || fail "check on a MetaGraphDef file: offset $off"
expect_status 0 "$NNAV_BIN" check "$T/agree.pb"
grep -q '^4 signature tensors checked against the graph: 0 contradict it$' "$OUT" || fail "check: agreeing signatures pass"

# The same facts worked out from protoc's decode.
"$py" "$D/tf_signature_check.py" "$NNAV_BIN" "$T/hp3.pb" "$T/hp3.txt" > "$T/hp3.cmp" ||
    fail "hp3.pb against protoc's decode: $(grep FAIL "$T/hp3.cmp")"
"$py" "$D/tf_signature_check.py" "$NNAV_BIN" "$T/agree.pb" "$T/agree.txt" > "$T/agree.cmp" ||
    fail "agree.pb against protoc's decode: $(grep FAIL "$T/agree.cmp")"

# Placeholder's legacy rule: producer 21 reads shape {} as unknown, 22 as a scalar.
for v in 21 22; do
    printf 'versions { producer: %s }
node { name: "p" op: "Placeholder" attr { key: "dtype" value { type: DT_INT64 } } attr { key: "shape" value { shape { } } } }
node { name: "p2" op: "PlaceholderV2" attr { key: "dtype" value { type: DT_INT64 } } attr { key: "shape" value { shape { } } } }
node { name: "p3" op: "Placeholder" attr { key: "dtype" value { type: DT_BOOL } } }
node { name: "p4" op: "PlaceholderWithDefault" input: "p3" attr { key: "dtype" value { type: DT_BOOL } } attr { key: "shape" value { shape { dim { size: 4 } } } } }
' "$v" | enc GraphDef graph.proto "$T/legacy$v.pb"
    expect_status 0 "$NNAV_BIN" shapes "$T/legacy$v.pb"
    if [ "$v" = 21 ]; then want='int64\[\.\.\.\]'; else want='int64\[\]'; fi
    grep -q "^p:0  *$want " "$OUT" || fail "producer $v: Placeholder shape {} is $want: $(grep '^p:0' "$OUT")"
    grep -q '^p2:0  *int64\[\] ' "$OUT" || fail "producer $v: PlaceholderV2 shape {} is a scalar: $(grep '^p2:0' "$OUT")"
    grep -q '^p3:0  *bool\[\.\.\.\] ' "$OUT" || fail "producer $v: no shape attr is unknown rank: $(grep '^p3:0' "$OUT")"
    grep -q '^p4:0  *bool\[4\] ' "$OUT" || fail "producer $v: PlaceholderWithDefault has its shape attr: $(grep '^p4:0' "$OUT")"
    dec GraphDef graph.proto "$T/legacy$v.pb" "$T/legacy$v.txt"
    "$py" "$D/tf_signature_check.py" "$NNAV_BIN" "$T/legacy$v.pb" "$T/legacy$v.txt" > "$T/legacy$v.cmp" ||
        fail "legacy$v.pb against protoc's decode: $(grep FAIL "$T/legacy$v.cmp")"
done

# A function's output is its node's value: the _output_shapes of the node
# its ret names, not the output_arg's bare dtype.
printf '%s\n' 'versions { producer: 27 }
node { name: "x" op: "Placeholder" attr { key: "dtype" value { type: DT_FLOAT } } attr { key: "shape" value { shape { dim { size: 1 } } } } }
node { name: "call" op: "f" input: "x" }
library { function { signature { name: "f" input_arg { name: "x" type: DT_FLOAT } output_arg { name: "y" type: DT_FLOAT } }
  node_def { name: "Identity" op: "Identity" input: "x" attr { key: "T" value { type: DT_FLOAT } }
    attr { key: "_output_shapes" value { list { shape { dim { size: 1 } } } } } }
  ret { key: "y" value: "Identity:output:0" } } }' | enc GraphDef graph.proto "$T/fn.pb"
expect_status 0 "$NNAV_BIN" node --yaml --graph @f "$T/fn.pb" Identity
"$py" -c 'import sys, yaml
o = yaml.safe_load(open(sys.argv[1]))["output"][0]
assert (o["name"], o["type"], o["graph_output"]) == ("Identity:output:0", "float32[1]", True), o' "$OUT" ||
    fail "function output typed by its node's _output_shapes: $(grep -A2 '^output' "$OUT")"

# Every node, attribute and _output_shapes of these files against protoc's decode.
dec GraphDef graph.proto "$T/fn.pb" "$T/fn.txt"
cp "$NNAV_SAMPLES/tf_graph.pb" "$T/sample_graph.pb"
dec GraphDef graph.proto "$T/sample_graph.pb" "$T/sample_graph.txt"
cp "$NNAV_SAMPLES/tf_saved_model/saved_model.pb" "$T/sample_saved.pb"
dec SavedModel saved_model.proto "$T/sample_saved.pb" "$T/sample_saved.txt"
for f in hp3 legacy21 fn sample_graph sample_saved; do
    "$py" "$D/tf_decode_compare.py" "$NNAV_BIN" "$T/$f.pb" "$T/$f.txt" > "$T/$f.dcmp" ||
        fail "$f.pb's nodes against protoc's decode: $(grep FAIL "$T/$f.dcmp" | head -5)"
done
fi

# ---- the corpus: every SavedModel's Placeholders and signatures ----
if [ "${NNAV_PART:-all}" != samples ] && [ -d "${NNAV_CORPUS:-/nonexistent}/tensorflow" ]; then
    n=0
    for pb in "$NNAV_CORPUS"/tensorflow/*/saved_model.pb; do
        name=$(basename "$(dirname "$pb")")
        dec SavedModel saved_model.proto "$pb" "$T/$name.txt"
        "$py" "$D/tf_signature_check.py" "$NNAV_BIN" "$pb" "$T/$name.txt" > "$T/$name.cmp" ||
            fail "$name against protoc's decode: $(grep FAIL "$T/$name.cmp")"
        "$py" "$D/tf_decode_compare.py" "$NNAV_BIN" "$pb" "$T/$name.txt" > "$T/$name.dcmp" ||
            fail "$name's nodes against protoc's decode: $(grep FAIL "$T/$name.dcmp" | head -5)"
        echo "  $name: $(head -1 "$T/$name.dcmp")"
        n=$((n + 1))
    done
    # half_plus_two's tf_example is DT_STRING in its node and its signatures.
    C=$NNAV_CORPUS/tensorflow/saved_model_half_plus_two_cpu
    if [ -d "$C" ]; then
        grep -q '^  placeholder tf_example:0 string\[\.\.\.\]$' "$T/saved_model_half_plus_two_cpu.cmp" ||
            fail "half_plus_two: tf_example:0 is a string"
        expect_status 0 "$NNAV_BIN" check "$C"
    fi
    echo "corpus: $n SavedModels compared with protoc's decode"
elif [ "${NNAV_PART:-all}" != samples ]; then
    echo "SKIP (partly): no corpus at ${NNAV_CORPUS:-(unset)}"
fi
finish
