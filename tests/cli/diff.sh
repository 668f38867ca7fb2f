#!/usr/bin/env bash
# nnav diff A B (issue 18): exit status as diff(1) (0 same, 1 differences,
# 2 trouble, usage errors included); the text report (summary line first,
# then by graph the nodes +/-/~ and initializers, nothing about nodes that
# are the same) and the same facts in YAML that PyYAML reads. Pairs are made
# here from the samples and ../shared/corpus with onnx (tests/cli/diff_gen.py
# says what each edit changed), and held to numpy as the oracle for element
# counts and largest differences:
#  (a) a model against itself and a byte copy: 0, "no differences";
#  (b) one float weight element +0.5 and one node renamed: 1, that
#      initializer with 0.5 at its coordinates, that node renamed, no other
#      node line; --no-values and --tolerance on a weight-only change;
#  (c) an attribute changed, an Identity inserted, inputs swapped, an
#      initializer renamed (bytes identical), every node renamed as a
#      re-export renumbers them, an initializer retyped and one reshaped;
#  (d) ResNet-18 exported with batch norms folded and kept: +N
#      BatchNormalization with N counted in the files, nothing removed;
#  (e) TensorFlow: a SavedModel against itself; a GraphDef copy (protoc)
#      with one node's attr changed;
#  (f) ONNX against TensorFlow, a truncated file, bad options: 2.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
need_python onnx numpy yaml
T=$NNAV_TMP/diff; rm -rf "$T"; mkdir -p "$T"
G=$NNAV_SRC/tests/cli/diff_gen.py
S=$NNAV_SAMPLES
D() { expect_status "$1" "$NNAV_BIN" diff "${@:2}"; }

# ycheck FILE EXPR [JSON]: EXPR (python, over y = the YAML in FILE and
# i = JSON) holds; all(...) and any(...) read well there.
ycheck() {
    CHECKS=$((CHECKS + 1))
    "$py" - "$1" "$2" "${3:-null}" > "$T/ycheck.err" 2>&1 <<'PY' || fail "YAML: $2: $(head -c 600 "$T/ycheck.err")"
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
i = json.loads(sys.argv[3])
def nodes(): return [n for g in y["graphs"] for n in g["nodes"]]
def inits(): return [t for g in y["graphs"] for t in g["initializers"]]
ok = eval(sys.argv[2])
if not ok:
    print("no; the YAML:", json.dumps(y)[:500])
    sys.exit(1)
PY
}
# jget JSON EXPR: a field of the generator's JSON (python expression over i).
jget() { "$py" -c 'import json,sys; i=json.loads(sys.argv[1]); v=eval(sys.argv[2]); print(v if isinstance(v, str) else json.dumps(v, separators=(",", ":")))' "$1" "$2"; }
node_lines() { grep -cE '^[-+~] node ' "$1"; }
no_escapes() {
    CHECKS=$((CHECKS + 1))
    if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$1"; then fail "a control character reached the output: $2"; fi
}

# The models: the samples, then the corpus's (part corpus).
onnx_models="$S/cnn.onnx $S/control_flow.onnx"
tf_models="$S/tf_graph.pb $S/tf_saved_model"
if [ -d "$NNAV_CORPUS" ]; then
    onnx_models=$(ls "$NNAV_CORPUS"/onnx/*.onnx)
    tf_models=$(ls -d "$NNAV_CORPUS"/tensorflow/*/)
fi

# ---- (a) a model against itself and a byte copy ----
n=0
for m in $onnx_models $S/external.onnx $tf_models; do
    [ "${NNAV_PART:-}" = corpus ] && [ "$m" = "$S/external.onnx" ] && continue
    n=$((n + 1)); c=$T/copy$n; mkdir -p "$c"
    # A copy beside its external data file, or of the whole SavedModel folder.
    if [ -d "$m" ]; then cp -r "$m" "$c/m"; b=$c/m
    else cp "$m" "$c/"; [ -f "$m.data" ] && cp "$m.data" "$c/"; b=$c/$(basename "$m"); fi
    for other in "$m" "$b"; do
        D 0 "$m" "$other"
        [ "$(head -1 "$OUT")" = "no differences" ] || fail "$m vs $other: first line $(head -1 "$OUT")"
        [ "$(node_lines "$OUT")" = 0 ] || fail "$m vs $other: node lines in $(cat "$OUT")"
        D 0 "$m" "$other" --yaml
        ycheck "$OUT" 'y["differences"] is False and y["summary"] == "no differences" and y["graphs"] == [] and y["ops"] == [] and y["facts"] == [] and y["totals"]["nodes_a"] == y["totals"]["same"]'
    done
done

# ---- (b) one weight element +0.5 and one node renamed ----
n=0
for m in $onnx_models; do
    n=$((n + 1)); b=$T/wr$n.onnx
    info=$("$py" "$G" weight_rename "$m" "$b" 2> "$T/gen.err")
    case $? in
    0) ;;
    3) continue ;;  # nothing to edit in it (tests/cli/diff_gen.py says what)
    *) fail "weight_rename $m: $(tail -2 "$T/gen.err")"; continue ;;
    esac
    init=$(jget "$info" 'i["init"]'); old=$(jget "$info" 'i["node_old"]'); new=$(jget "$info" 'i["node_new"]')
    op=$(jget "$info" 'i["op"]'); at=$(jget "$info" 'i["coords"]')
    oracle=$("$py" "$G" oracle "$m" "$b")
    ndiff=$("$py" -c 'import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]]["differing"])' "$oracle" "$init")
    maxabs=$("$py" -c 'import json,sys; print(repr(json.loads(sys.argv[1])[sys.argv[2]]["max_abs"]))' "$oracle" "$init")
    [ "$maxabs" = 0.5 ] || fail "$m: the generator's change is not exactly 0.5 ($maxabs)"
    D 0 "$b" "$b"
    D 1 "$m" "$b"
    no_escapes "$OUT" "$m"
    grep -qxF -- "~ node $new  $op  renamed $old -> $new" "$OUT" || fail "$m: node $old renamed to $new: $(grep ' node ' "$OUT" | head -3)"
    [ "$(node_lines "$OUT")" = 1 ] || fail "$m: one node line, not $(node_lines "$OUT"): $(grep -E '^[-+~] node ' "$OUT" | head -4)"
    grep -qE "^~ initializer $(printf '%s' "$init" | sed 's/[.[\*^$]/\\&/g')  float32\[[0-9,]*\]  values\$" "$OUT" ||
        fail "$m: initializer $init values: $(grep initializer "$OUT" | head -3)"
    [ "$(grep -cE '^[-+~] initializer ' "$OUT")" = 1 ] || fail "$m: one initializer line"
    all=$("$py" -c 'import json,sys; print("{:,}".format(json.loads(sys.argv[1])[sys.argv[2]]["elements"]))' "$oracle" "$init")
    grep -qxE "    $ndiff of $all elements differs?" "$OUT" || fail "$m: $ndiff of $all (numpy): $(grep 'differ' "$OUT")"
    grep -qE "^    largest absolute difference $maxabs at \\[${at:1:-1}\\]: " "$OUT" ||
        fail "$m: largest difference $maxabs at $at: $(grep 'largest absolute' "$OUT")"
    head -1 "$OUT" | grep -q 'renamed' || fail "$m: summary names the rename: $(head -1 "$OUT")"
    D 1 "$m" "$b" --yaml
    ycheck "$OUT" 'y["differences"] is True and len(nodes()) == 1 and nodes()[0]["change"] == ["renamed"] and nodes()[0]["name_a"] == i["node_old"] and nodes()[0]["name_b"] == i["node_new"] and nodes()[0]["op_b"] == i["op"]' "$info"
    ycheck "$OUT" 'len(inits()) == 1 and inits()[0]["name_b"] == i["init"] and inits()[0]["change"] == ["values"] and inits()[0]["max_abs"] == 0.5 and inits()[0]["max_abs_at"] == i["coords"] and inits()[0]["max_abs_index"] == i["index"] and inits()[0]["value_a"] == i["a"] and inits()[0]["value_b"] == i["b"] and inits()[0]["differing_elements"] == 1' "$info"
    ycheck "$OUT" 'y["totals"]["renamed"] == 1 and y["totals"]["added"] == 0 and y["totals"]["removed"] == 0 and y["totals"]["same"] == y["totals"]["nodes_a"] - 1 and y["totals"]["nodes_a"] == y["totals"]["nodes_b"] and y["totals"]["initializers_changed"] == 1' "$info"
    # A weight-only change: --no-values and --tolerance above it see none.
    "$py" "$G" weight_rename "$m" "$T/w$n.onnx" 0 > /dev/null || fail "weight-only copy of $m"
    D 1 "$m" "$T/w$n.onnx"
    [ "$(node_lines "$OUT")" = 0 ] || fail "$m: a weight change is no node's"
    D 0 "$m" "$T/w$n.onnx" --no-values
    head -1 "$OUT" | grep -qx 'no differences' || fail "$m --no-values: $(head -1 "$OUT")"
    D 0 "$m" "$T/w$n.onnx" --tolerance 0.6
    D 0 "$m" "$T/w$n.onnx" --tolerance 0.5
    D 1 "$m" "$T/w$n.onnx" --tolerance 0.4 --yaml
    ycheck "$OUT" 'inits()[0]["differing_elements"] == 1 and inits()[0]["max_abs"] == 0.5'
    D 1 "$m" "$b" --no-values --yaml  # the rename stays
    ycheck "$OUT" 'len(nodes()) == 1 and inits() == []'
    [ "${NNAV_PART:-}" = corpus ] || break  # the samples: cnn.onnx is enough
done

# Names with terminal escapes: escaped in text, the file's bytes in YAML.
info=$("$py" "$G" evil "$S/cnn.onnx" "$T/evil.onnx") || fail "evil names"
D 1 "$S/cnn.onnx" "$T/evil.onnx"
no_escapes "$OUT" "escaped names"
D 1 "$S/cnn.onnx" "$T/evil.onnx" --yaml
ycheck "$OUT" 'nodes()[0]["name_b"] == i["node"] and any(t["name_b"] == i["init"] for t in inits())' "$info"

# ---- (c) edits of one kind each ----
if [ "${NNAV_PART:-}" = corpus ]; then
    edit_models=$(ls "$NNAV_CORPUS"/onnx/*.onnx)
else
    edit_models=$S/cnn.onnx
fi
n=0
for m in $edit_models; do
    n=$((n + 1)); E=$T/edits$n; mkdir -p "$E"
    info=$("$py" "$G" edits "$m" "$E" 2> "$T/gen.err")
    case $? in
    0) ;;
    3) continue ;;
    *) fail "edits of $m: $(tail -2 "$T/gen.err")"; continue ;;
    esac
    # An attribute changed: that node, its old and new values.
    D 1 "$m" "$E/attr.onnx"
    node=$(jget "$info" 'i["attr"]["node"]'); op=$(jget "$info" 'i["attr"]["op"]'); an=$(jget "$info" 'i["attr"]["attr"]')
    grep -qxF "~ node $node  $op  attributes" "$OUT" || fail "$m attr: $(grep ' node ' "$OUT")"
    grep -qE "^    attribute $an: .+ -> .+\$" "$OUT" || fail "$m attr line: $(cat "$OUT")"
    [ "$(node_lines "$OUT")" = 1 ] || fail "$m attr: one node line"
    D 1 "$m" "$E/attr.onnx" --yaml
    ycheck "$OUT" 'len(nodes()) == 1 and nodes()[0]["change"] == ["attributes"] and nodes()[0]["attributes"][0]["name"] == i["attr"]["attr"] and [int(x) for x in __import__("re").findall(r"-?\d+", nodes()[0]["attributes"][0]["a"])] == (i["attr"]["a"] if isinstance(i["attr"]["a"], list) else [i["attr"]["a"]]) and [int(x) for x in __import__("re").findall(r"-?\d+", nodes()[0]["attributes"][0]["b"])] == (i["attr"]["b"] if isinstance(i["attr"]["b"], list) else [i["attr"]["b"]])' "$info"
    # A node inserted: +1 Identity, nothing removed, its readers rewired.
    D 1 "$m" "$E/insert.onnx"
    grep -qxF "+ node inserted_identity  Identity" "$OUT" || fail "$m insert: $(grep ' node ' "$OUT")"
    grep -q '^- ' "$OUT" && fail "$m insert: something removed: $(grep '^- ' "$OUT")"
    head -1 "$OUT" | grep -qE '(^|, )\+1 Identity(,|$)' || fail "$m insert summary: $(head -1 "$OUT")"
    D 1 "$m" "$E/insert.onnx" --yaml
    ycheck "$OUT" 'y["totals"]["added"] == 1 and y["totals"]["removed"] == 0 and all("inputs" in n["change"] for n in nodes() if n["name_a"] is not None)'
    # Inputs swapped: both lists, slots 0 and 1 bracketed.
    D 1 "$m" "$E/swap.onnx"
    node=$(jget "$info" 'i["swap"]["node"]')
    grep -qE "^~ node $(printf '%s' "$node" | sed 's/[.[\*^$/]/\\&/g')  .*inputs\$" "$OUT" || fail "$m swap: $(grep ' node ' "$OUT")"
    grep -qE '^    inputs A: \[[^]]*\], \[' "$OUT" && grep -qE '^    inputs B: \[[^]]*\], \[' "$OUT" ||
        fail "$m swap: the two slots marked: $(grep inputs "$OUT")"
    [ "$(node_lines "$OUT")" = 1 ] || fail "$m swap: one node line: $(grep ' node ' "$OUT")"
    D 1 "$m" "$E/swap.onnx" --yaml
    ycheck "$OUT" 'len(nodes()) == 1 and nodes()[0]["inputs_differ"] == [0, 1] and nodes()[0]["inputs_b"][:2] == i["swap"]["inputs"][:2] and nodes()[0]["inputs_a"][:2] == i["swap"]["inputs"][1::-1]' "$info"
    # An initializer renamed, bytes identical: renamed, not added + removed;
    # its readers read the same value, so no node changed.
    D 1 "$m" "$E/init_rename.onnx"
    grep -qE '^[-+] initializer' "$OUT" && fail "$m init_rename: added/removed: $(grep initializer "$OUT")"
    a=$(jget "$info" 'i["init_rename"]["a"]'); b=$(jget "$info" 'i["init_rename"]["b"]')
    grep -qE "^~ initializer .*  renamed $(printf '%s' "$a" | sed 's/[.[\*^$/]/\\&/g') -> " "$OUT" || fail "$m init_rename: $(grep initializer "$OUT")"
    [ "$(node_lines "$OUT")" = 0 ] || fail "$m init_rename: no node line: $(grep ' node ' "$OUT")"
    D 1 "$m" "$E/init_rename.onnx" --yaml
    ycheck "$OUT" 'len(inits()) == 1 and inits()[0]["change"] == ["renamed"] and inits()[0]["name_a"] == i["init_rename"]["a"] and inits()[0]["name_b"] == i["init_rename"]["b"] and y["totals"]["initializers_renamed"] == 1' "$info"
    # Every node renamed as a re-export renumbers them: all renamed.
    D 1 "$m" "$E/renumber.onnx"
    k=$(jget "$info" 'i["renumber"]["nodes"]')
    [ "$(grep -cE '^~ node .*  renamed ' "$OUT")" = "$k" ] || fail "$m renumber: $k renamed, not $(grep -cE '^~ node .*  renamed ' "$OUT")"
    grep -qE '^[-+] node ' "$OUT" && fail "$m renumber: added/removed: $(grep -E '^[-+] node ' "$OUT" | head -3)"
    D 1 "$m" "$E/renumber.onnx" --yaml
    ycheck "$OUT" 'y["totals"]["renamed"] == i["renumber"]["nodes"] and y["totals"]["added"] == 0 and y["totals"]["removed"] == 0' "$info"
    # Retyped, reshaped.
    D 1 "$m" "$E/retype.onnx"
    grep -qE '^~ initializer .*  float16\[.*dtype float32\[.*\] -> float16\[' "$OUT" || fail "$m retype: $(grep initializer "$OUT")"
    D 1 "$m" "$E/retype.onnx" --yaml
    ycheck "$OUT" 'inits()[0]["name_b"] == i["retype"]["init"] and "dtype" in inits()[0]["change"] and inits()[0]["type_b"].startswith("float16[")' "$info"
    D 1 "$m" "$E/reshape.onnx"
    grep -qE '^~ initializer .*  shape float32\[[0-9,]*\] -> float32\[[0-9]*\]' "$OUT" || fail "$m reshape: $(grep initializer "$OUT")"
    D 1 "$m" "$E/reshape.onnx" --yaml
    ycheck "$OUT" 'inits()[0]["name_b"] == i["reshape"]["init"] and "shape" in inits()[0]["change"] and "dtype" not in inits()[0]["change"] and inits()[0]["type_b"] == "float32[%d]" % i["reshape"]["b"][0]' "$info"
done

# ---- (d) ResNet-18 with batch norms folded and kept (samples part) ----
if [ "${NNAV_PART:-}" != corpus ]; then
    if "$py" -c 'import torch, torchvision' 2> /dev/null; then
        "$py" "$G" resnet "$T" > /dev/null 2> "$T/resnet.err" || fail "export: $(grep -v Warning "$T/resnet.err" | tail -3)"
        bn=$("$py" "$G" count "$T/resnet_bn.onnx" BatchNormalization)
        bf=$("$py" "$G" count "$T/resnet_folded.onnx" BatchNormalization)
        added=$((bn - bf))
        [ "$added" -gt 0 ] || fail "the two exports have $bn and $bf batch norms"
        D 1 "$T/resnet_folded.onnx" "$T/resnet_bn.onnx"
        head -1 "$OUT" | grep -qE "(^|, )\\+$added BatchNormalization(,|\$)" || fail "ResNet: +$added BatchNormalization: $(head -1 "$OUT")"
        head -1 "$OUT" | grep -qE '(^|, )-[0-9]' && fail "ResNet: the summary says something removed: $(head -1 "$OUT")"
        [ "$(grep -c '^+ node .*  BatchNormalization$' "$OUT")" = "$added" ] || fail "ResNet: $added BN lines"
        grep -q '^- node ' "$OUT" && fail "ResNet: a node removed: $(grep '^- node ' "$OUT" | head -3)"
        D 1 "$T/resnet_folded.onnx" "$T/resnet_bn.onnx" --yaml
        ycheck "$OUT" 'y["totals"]["removed"] == 0 and y["totals"]["added"] == i and [o["added"] for o in y["ops"] if o["op"] == "BatchNormalization"] == [i] and sum(o["added"] for o in y["ops"]) == i' "$added"
        # The other way round: -N, nothing added.
        D 1 "$T/resnet_bn.onnx" "$T/resnet_folded.onnx" --yaml
        ycheck "$OUT" 'y["totals"]["added"] == 0 and y["totals"]["removed"] == i' "$added"
    else
        echo "SKIP (partly): no torch/torchvision for the ResNet exports"
    fi
fi

# ---- (e) TensorFlow ----
if [ "${NNAV_PART:-}" != corpus ] && command -v protoc > /dev/null; then
    P=$NNAV_SRC/proto
    protoc -I"$P" --decode=tensorflow.GraphDef tensorflow/graph.proto < "$S/tf_graph.pb" > "$T/tf.txt" || fail "protoc --decode"
    "$py" - "$T/tf.txt" "$T/tf2.txt" <<'PY' || fail "editing the GraphDef"
import re, sys
s = open(sys.argv[1]).read()
# protoc prints the fields graph.proto lacks by number (the sample's debug
# info, field 5) and cannot read them back: left out of the copy.
s = re.sub(r"(?ms)^\d+ \{\n.*?^\}\n", "", s)
a = 'key: "num_split"\n    value {\n      i: 3\n'
assert s.count(a) == 1, "the sample's Split moved"
open(sys.argv[2], "w").write(s.replace(a, a.replace("i: 3", "i: 4")))
PY
    protoc -I"$P" --encode=tensorflow.GraphDef tensorflow/graph.proto < "$T/tf2.txt" > "$T/tf2.pb" || fail "protoc --encode"
    D 1 "$S/tf_graph.pb" "$T/tf2.pb"
    grep -qxF '~ node split  Split  attributes' "$OUT" || fail "TF attr: $(grep ' node ' "$OUT")"
    grep -qxF '    attribute num_split: 3 -> 4' "$OUT" || fail "TF attr values: $(grep attribute "$OUT")"
    [ "$(node_lines "$OUT")" = 1 ] || fail "TF: one node line: $(cat "$OUT")"
    D 1 "$S/tf_graph.pb" "$T/tf2.pb" --yaml
    ycheck "$OUT" 'len(nodes()) == 1 and nodes()[0]["attributes"] == [{"name": "num_split", "a": "3", "b": "4"}]'
elif [ "${NNAV_PART:-}" != corpus ]; then
    echo "SKIP (partly): no protoc to edit the GraphDef"
fi

# ---- (f) trouble: status 2 ----
D 2 "$S/cnn.onnx" "$S/tf_saved_model"
grep -qi 'format' "$ERR" || fail "two formats: $(cat "$ERR")"
grep -q 'Try' "$ERR" && fail "two formats is not a wrong command line"
D 2 "$S/tf_graph.pb" "$S/cnn.onnx" --yaml
[ -s "$OUT" ] && fail "two formats: nothing on stdout"
head -c 700 "$S/cnn.onnx" > "$T/short.onnx"
D 2 "$S/cnn.onnx" "$T/short.onnx"
grep -q 'short.onnx: .*offset [0-9]' "$ERR" || fail "truncated: the file and offset named: $(cat "$ERR")"
D 2 "$T/short.onnx" "$S/cnn.onnx"
D 2 "$S/cnn.onnx" "$T/no_such_file.onnx"
grep -q 'no_such_file.onnx' "$ERR" || fail "a missing file named: $(cat "$ERR")"
D 2 "$S/cnn.onnx"
D 2 "$S/cnn.onnx" "$S/cnn.onnx" "$S/cnn.onnx"
D 2 "$S/cnn.onnx" "$S/cnn.onnx" --frobnicate
D 2 "$S/cnn.onnx" "$S/cnn.onnx" --all
grep -q 'does not apply' "$ERR" || fail "another command's option: $(cat "$ERR")"
for x in -1 nan inf -inf abc 1e400 "" 0.5x; do
    D 2 "$S/cnn.onnx" "$S/cnn.onnx" --tolerance "$x"
    grep -q -- '--tolerance' "$ERR" || fail "--tolerance '$x': the option named: $(cat "$ERR")"
done
D 2 "$S/cnn.onnx" "$S/cnn.onnx" --tolerance
D 0 "$S/cnn.onnx" "$S/cnn.onnx" --tolerance 0
D 0 "$S/cnn.onnx" "$S/cnn.onnx" --tolerance 1e-3 --declutter --no-values --follow-links

# ---- help: every option listed, and taken ----
D 0 --help
for o in --yaml --no-values --tolerance --declutter --follow-links; do
    grep -q -- "^  $o\\b" "$OUT" || fail "diff --help lacks $o"
done
grep -q 'Exit status as diff(1): 0 no' "$OUT" || fail "diff --help tells the exit status"
"$NNAV_BIN" diff --help > "$T/help.want"
expect_status 0 "$NNAV_BIN" help diff
cmp -s "$OUT" "$T/help.want" || fail "'nnav help diff' differs from 'nnav diff --help'"
finish
