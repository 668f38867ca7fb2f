#!/usr/bin/env bash
# A TensorFlow model's OpDefs as operator schemas (issue 17, item 1: "read
# the OpDefs a SavedModel carries (meta_info_def.stripped_op_list) and use
# them the same way"). test_tf_opdefs --dump prints what nnav made of them
# (every schema, every node's resolution, every warning); here that is held
# to `protoc --decode` of the same bytes by tf_opdefs_check.py, which works
# the schema out from op_def.proto's meaning:
#  - the bundled SavedModel (samples), and on the corpus (its own ctest
#    entry) every TensorFlow SavedModel: every field converted agrees, every
#    node resolves (FOUND / FUNCTION), each data input and output is named
#    by the formal it binds to through the node's count attrs (SaveV2's
#    tensors[0..4]), no attr of a node has another kind than its AttrDef,
#    no warning; half_plus_two's Add takes x, y, gives z,
#    and T allows the twelve types its OpDef lists;
#  - a hostile MetaGraphDef (tf_opdefs_hostile.pbtxt, encoded by protoc,
#    then patched): a DataType of 999, an unknown attr type, a default type
#    of 12345, a default func nested 30 deep, a length of 2^32 - 1 inside a
#    default and inside an ArgDef, a name defined twice, an attr twice, an
#    arg naming an absent attr, a default of the wrong kind: the file opens
#    (info exits 0), each gives its warning with a byte offset and field
#    path, only the good ops are schemas, and nodes of the broken ones are
#    UNKNOWN; under the sanitizer build the same, clean;
#  - a GraphDef (no op list): every node NO_SCHEMAS.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/tf_opdefs; rm -rf "$T"; mkdir -p "$T"
D=$(dirname "$0")
PROTO=$D/../../proto
DUMP=${NNAV_OPDEFS_DUMP:-}
[ -x "$DUMP" ] || { echo "SKIP: NNAV_OPDEFS_DUMP (test_tf_opdefs) not set: run through ctest"; exit 77; }
command -v protoc > /dev/null || { echo "SKIP: no protoc"; exit 77; }
py=/usr/bin/python3; [ -x $py ] || py=python3

# compare FILE DECODE_AS PROTO: dump and protoc agree
compare() {
    CHECKS=$((CHECKS + 1))
    protoc -I"$PROTO" --decode="tensorflow.$2" "tensorflow/$3" < "$1" > "$T/dec.txt" ||
        { fail "protoc --decode $1"; return; }
    local model=$1
    [ "$2" = SavedModel ] && model=$(dirname "$1")
    "$DUMP" --dump "$model" > "$T/dump.txt" 2> "$T/dump.err" || { fail "dump $model: $(cat "$T/dump.err")"; return; }
    "$py" "$D/tf_opdefs_check.py" "$T/dec.txt" "$T/dump.txt" > "$T/check.txt" ||
        fail "$model: $(cat "$T/check.txt")"
    echo "$model: $(tail -1 "$T/check.txt")"
}

if [ "${NNAV_PART:-all}" != corpus ]; then
    compare "$NNAV_SAMPLES/tf_saved_model/saved_model.pb" SavedModel saved_model.proto
    compare "$NNAV_SAMPLES/tf_graph.pb" GraphDef graph.proto

    # nnav op NAME --model: each OpDef the sample carries, as protoc decodes
    # it: domain tf, the input and output args by name, the attrs by name.
    CHECKS=$((CHECKS + 1))
    protoc -I"$PROTO" --decode=tensorflow.SavedModel tensorflow/saved_model.proto \
        < "$NNAV_SAMPLES/tf_saved_model/saved_model.pb" > "$T/sm.txt" || fail "protoc --decode the sample"
    "$py" - "$T/sm.txt" "$NNAV_BIN" "$NNAV_SAMPLES/tf_saved_model" << 'PY' || fail "nnav op --model against protoc"
import subprocess, sys, yaml
# protoc's text format, one field per line: "name: value", "name {", "}".
root, stack = {}, []
cur = root
for line in open(sys.argv[1]):
    t = line.strip()
    if t.endswith("{"):
        child = {}
        cur.setdefault(t[:-1].strip(), []).append(child)
        stack.append(cur)
        cur = child
    elif t == "}":
        cur = stack.pop()
    elif ": " in t:
        k, v = t.split(": ", 1)
        cur.setdefault(k, []).append(v.strip('"'))
ops = root["meta_graphs"][0]["meta_info_def"][0]["stripped_op_list"][0]["op"]
assert ops, "no OpDefs in the sample"
for op in ops:
    name = op["name"][0]
    got = yaml.safe_load(subprocess.run([sys.argv[2], "op", name, "--model", sys.argv[3], "--yaml"],
                                        check=True, capture_output=True, text=True).stdout)
    assert got["domain"] == "tf", (name, got["domain"])
    for key, arg in (("inputs", "input_arg"), ("outputs", "output_arg")):
        want = [a["name"][0] for a in op.get(arg, [])]
        assert [f["name"] for f in got[key]] == want, (name, key, got[key], want)
    want = sorted(a["name"][0] for a in op.get("attr", []))
    assert [a["name"] for a in got["attributes"]] == want, (name, got["attributes"], want)
print("nnav op --model: %d OpDefs as protoc decodes them" % len(ops))
PY
    expect_status 1 "$NNAV_BIN" op NoSuchOp --domain tf --model "$NNAV_SAMPLES/tf_saved_model"
    grep -q "the model carries no op definition 'NoSuchOp'" "$ERR" || fail "an OpDef the model lacks: $(cat "$ERR")"

    # hostile
    "$py" - "$D/tf_opdefs_hostile.pbtxt" "$T/hostile.pbtxt" << 'PY'
import sys
text = open(sys.argv[1]).read()
deep = 'name: "g"'
for _ in range(30):
    deep = 'name: "g" attr { key: "a" value { func { %s } } }' % deep
open(sys.argv[2], 'w').write(text.replace('DEEP', 'func { %s }' % deep))
PY
    protoc -I"$PROTO" --encode=tensorflow.MetaGraphDef tensorflow/meta_graph.proto \
        < "$T/hostile.pbtxt" > "$T/hostile.enc" || fail "protoc --encode hostile"
    "$py" - "$T/hostile.enc" "$T/hostile.meta" << 'PY'
import sys
b = open(sys.argv[1], 'rb').read()
for old, new in ((b'\x12\x08HUGEHUGE', b'\x12\xff\xff\xff\xff\x0fHUGE'),
                 (b'\x0a\x08HUGEARG1', b'\x0a\xff\xff\xff\xff\x0fARG1')):
    assert b.count(old) == 1 and len(old) == len(new), old
    b = b.replace(old, new)
open(sys.argv[2], 'wb').write(b)
PY
    expect_status 0 "$NNAV_BIN" info "$T/hostile.meta"
    expect_status 0 "$DUMP" --dump "$T/hostile.meta"
    cp "$OUT" "$T/hostile.dump"
    while IFS= read -r want; do
        CHECKS=$((CHECKS + 1))
        grep -qF -- "$want" "$T/hostile.dump" || fail "hostile: no line with: $want"
    done << 'EOF2'
stripped_op_list.op[1] ("BadEnum") at byte 
input_arg[0]: type 999 is not a DataType; the op's definition is not used
stripped_op_list.op[2] ("BadAttrType") at byte 
attr[0]: type "list(banana)" is none TensorFlow knows
stripped_op_list.op[3] ("BadDefaultEnum") at byte 
attr[0].default_value.type: 12345 is not a DataType
stripped_op_list.op[5] ("Huge") at byte 
attr[0].default_value: length 4294967295 (field 2) runs past the end of its message
stripped_op_list.op[6] ("HugeArg") at byte 
input_arg[0].name: length 4294967295 (field 1) runs past the end of its message
stripped_op_list.op[7] ("Add") at byte 
defined again (first: meta_info_def.stripped_op_list.op[0]); the first is used
stripped_op_list.op[8] ("DupAttr") at byte 
a second attr "a"
stripped_op_list.op[9] ("NoTypeAttr") at byte 
type_attr "T" is no attr of the op
stripped_op_list.op[10] ("WrongDefault") at byte 
attr[0].default_value: a list(float) where the attr's type is list(int)
attr	f	func	0	1	FUNC	g
tc	T	tensor(float),tensor(int32)
node	a	Add	FOUND	Add
node	b	BadEnum	UNKNOWN	-
node	c	Deep	FOUND	Deep
node	d	Nope	UNKNOWN	-
node	e	HugeArg	UNKNOWN	-
node	call	fn	FUNCTION	-
node	inner	Add	FOUND	Add
EOF2
    CHECKS=$((CHECKS + 1))
    ops=$(grep -c '^op	' "$T/hostile.dump")
    [ "$ops" = 2 ] || fail "hostile: $ops schemas, wanted 2 (Add, Deep): $(grep '^op	' "$T/hostile.dump")"
    CHECKS=$((CHECKS + 1))
    n=$(grep -c '^warning	' "$T/hostile.dump")
    [ "$n" = 9 ] || fail "hostile: $n warnings, wanted 9: $(grep '^warning' "$T/hostile.dump")"
    # Each byte offset named lies inside the file and at the field it names:
    # the DataType 999's varint follows ArgDef.type's tag (0x18).
    CHECKS=$((CHECKS + 1))
    off=$(sed -n 's/.*("BadEnum") at byte \([0-9]*\):.*/\1/p' "$T/hostile.dump")
    [ "$(od -An -tx1 -j "${off:-0}" -N 3 "$T/hostile.meta" | tr -d ' ')" = 18e707 ] ||
        fail "hostile: byte ${off:-?} is not ArgDef.type = 999"

    # GraphDef: no op list, nothing to resolve against
    protoc -I"$PROTO" --encode=tensorflow.GraphDef tensorflow/graph.proto \
        < "$D/tf_int64.pbtxt" > "$T/g.pb" || fail "protoc --encode graph"
    expect_status 0 "$DUMP" --dump "$T/g.pb"
    CHECKS=$((CHECKS + 1))
    [ "$(grep -c '^node	.*	NO_SCHEMAS	-$' "$OUT")" = 3 ] && ! grep -q '^op	' "$OUT" ||
        fail "GraphDef: $(cat "$OUT")"
fi

if [ "${NNAV_PART:-all}" != samples ]; then
    if [ -d "${NNAV_CORPUS:-}/tensorflow" ]; then
        for f in "$NNAV_CORPUS"/tensorflow/*/saved_model.pb; do
            compare "$f" SavedModel saved_model.proto
        done
        hp=$NNAV_CORPUS/tensorflow/saved_model_half_plus_two_cpu
        if [ -d "$hp" ]; then
            "$DUMP" --dump "$hp" > "$T/hp.dump"
            CHECKS=$((CHECKS + 1))
            sed -n '/^op	Add	/,/^op	[^A]/p' "$T/hp.dump" | head -6 > "$T/add.txt"
            printf '%s\n' "op	Add	tf	0	0	2	2	1	1" "in	x	T	0	0" "in	y	T	0	0" \
                "out	z	T	0	0" "attr	T	type	1	0" \
                "tc	T	tensor(bfloat16),tensor(float16),tensor(float),tensor(double),tensor(uint8),tensor(int8),tensor(int16),tensor(int32),tensor(int64),tensor(complex64),tensor(complex128),tensor(string)" |
                diff - "$T/add.txt" > /dev/null || fail "half_plus_two Add: $(cat "$T/add.txt")"
        fi
    else
        echo "SKIP (partly): no corpus at ${NNAV_CORPUS:-(unset)}: the real SavedModels are not compared"
    fi
fi
finish
