#!/usr/bin/env bash
# TensorFlow files through every command: the bundled samples (a GraphDef and
# a SavedModel folder) and, when present, ../shared/corpus/tensorflow (three
# SavedModels from TensorFlow Serving's tests) plus a MetaGraphDef and a
# GraphDef cut out of them. Counts and names are compared with what the files
# hold, read by tests/cli/tf_facts.py (an independent Python wire decoder).
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/tf_cli; rm -rf "$T"; mkdir -p "$T"
S=$NNAV_SAMPLES
C=$NNAV_CORPUS/tensorflow

py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import yaml' 2>/dev/null && { py=$c; break; }; done

inputs=("$S/tf_graph.pb" "$S/tf_saved_model" "$S/tf_saved_model/saved_model.pb")
if [ -d "$C" ]; then
    inputs+=("$C/saved_model_half_plus_two_cpu" "$C/saved_model_half_plus_two_tf2_cpu"
             "$C/matrix_half_plus_two/saved_model.pb")
    if [ -n "$py" ]; then
        # A MetaGraphDef and a frozen-style GraphDef cut out of real files.
        "$py" -c '
import sys, os
sys.path.insert(0, sys.argv[3])
import tf_facts as t
for name in ("saved_model_half_plus_two_cpu", "saved_model_half_plus_two_tf2_cpu"):
    b = open(os.path.join(sys.argv[1], name, "saved_model.pb"), "rb").read()
    mg = t.get(b, 2)[0]
    open(os.path.join(sys.argv[2], name + ".meta.pb"), "wb").write(mg)
    open(os.path.join(sys.argv[2], name + ".graph.pb"), "wb").write(t.get(mg, 2)[0])
' "$C" "$T" "$(dirname "$0")"
        inputs+=("$T"/*.meta.pb "$T"/*.graph.pb)
    fi
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; the samples only"
fi

# Every command, text and YAML, on every input: exit 0, YAML that parses,
# nothing raw from the file on the terminal.
for f in "${inputs[@]}"; do
    for args in "info" "tree" "nodes" "tensors --all --constants --values 3" "find"; do
        after=""
        [ "$args" = find ] && after=a
        # shellcheck disable=SC2086
        expect_status 0 "$NNAV_BIN" $args "$f" $after
        if LC_ALL=C grep -q $'\x1b' "$OUT"; then fail "raw ESC in '$args' of $f"; fi
        # shellcheck disable=SC2086
        expect_status 0 "$NNAV_BIN" $args --yaml "$f" $after
        if [ -n "$py" ]; then
            "$py" -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$OUT" ||
                fail "'$args --yaml' of $f is not YAML"
        fi
    done
    # Every graph's node list, by path; one node of each in detail.
    "$NNAV_BIN" tree --yaml "$f" | sed -n 's/^  path: //p' | sed "s/^'\(.*\)'$/\1/; s/^! //" > "$T/paths"
    while read -r g; do
        expect_status 0 "$NNAV_BIN" nodes --graph "$g" "$f"
        first=$(awk 'NR == 1 { print "#0" }' "$OUT")
        [ -n "$first" ] && expect_status 0 "$NNAV_BIN" node --graph "$g" "$f" "#0"
    done < "$T/paths"
done

# What the samples hold.
expect_status 0 "$NNAV_BIN" info "$S/tf_saved_model"
grep -q '^format *TensorFlow SavedModel' "$OUT" || fail "folder read as a SavedModel"
grep -q 'tf_saved_model/saved_model.pb' "$OUT" || fail "folder opens its saved_model.pb"
grep -q '^signatures *2' "$OUT" || fail "two signatures listed"
grep -q 'input  x  *serving_default_x:0 *float32\[?,4\]' "$OUT" || fail "signature input with its type"
grep -q '^functions *6' "$OUT" || fail "six library functions"
expect_status 0 "$NNAV_BIN" node --graph / "$S/tf_saved_model" StatefulPartitionedCall
grep -q 'f  *FUNC  *@__inference_signature_wrapper_40 (3 nodes)' "$OUT" || fail "call links its function"
grep -q '^device' "$OUT" || fail "node shows the device line"
expect_status 0 "$NNAV_BIN" nodes "$S/tf_saved_model" --graph @__inference_serve_30
grep -q 'split:output:0, split:output:1, split:output:2' "$OUT" || fail "num_split outputs named by arg"
expect_status 0 "$NNAV_BIN" tensors "$S/tf_saved_model" --values 2
grep -q 'dense/kernel/.ATTRIBUTES/VARIABLE_VALUE *float32\[4,3\] *48  external variables/variables.data-00000-of-00001 @0 +48' "$OUT" ||
    fail "variable with shape, bytes and shard"
expect_status 0 "$NNAV_BIN" info "$S/tf_graph.pb"
grep -q 'GraphDef field 5 (wire type 2, 6 bytes)' "$OUT" || fail "debug_info shown by number"
expect_status 0 "$NNAV_BIN" tensors "$S/tf_graph.pb" --name big_splat --values 3
grep -q 'int_val (splat: 1 value for 1000000)' "$OUT" || fail "splat named"
grep -q 'min 7  max 7  mean 7' "$OUT" || fail "splat stats"
expect_status 0 "$NNAV_BIN" node "$S/tf_graph.pb" pick --yaml
grep -q 'control: true' "$OUT" || fail "control input flagged in YAML"
expect_status 0 "$NNAV_BIN" node "$S/tf_graph.pb" attrs
grep -q 'a_string  *STRING  *"hello \\x1B\[31mred"' "$OUT" || fail "string attr escaped"

# Bad input: status 2, the file, an offset, a field path.
head -c 700 "$S/tf_saved_model/saved_model.pb" > "$T/cut.pb"
expect_status 2 "$NNAV_BIN" info "$T/cut.pb"
grep -q 'cut.pb: meta_graphs.*runs past the end of the file.* at offset [0-9]' "$ERR" ||
    fail "cut SavedModel names field and offset: $(cat "$ERR")"
mkdir -p "$T/empty_folder"
expect_status 2 "$NNAV_BIN" info "$T/empty_folder"
grep -q 'no saved_model.pb' "$ERR" || fail "folder without saved_model.pb says so"
cp -r "$S/tf_saved_model" "$T/damaged"
printf 'X' | dd of="$T/damaged/variables/variables.index" bs=1 seek=12 conv=notrunc 2>/dev/null
expect_status 2 "$NNAV_BIN" tensors "$T/damaged"
grep -q 'variables/variables.index: data block @0: block checksum' "$ERR" ||
    fail "damaged index named: $(cat "$ERR")"

# The same counts and names as the files hold, read independently.
if [ -n "$py" ]; then
    CHECKS=$((CHECKS + 1))
    "$py" "$(dirname "$0")/tf_facts.py" --compare "$NNAV_BIN" "${inputs[@]:1}" ||
        fail "tf_facts.py found differences"
else
    echo "SKIP (partly): no PyYAML for the comparison with tf_facts.py"
fi

# Every YAML key the TensorFlow outputs add is documented in nnav(1).
if [ -n "$py" ]; then
    plain=$T/man.txt
    sed 's/\\-/-/g; s/\\e/\\/g; s/\\f[BIRP]//g' "$NNAV_SRC/man/nnav.1" > "$plain"
    : > "$T/keys"
    for args in "info $S/tf_saved_model" "node $S/tf_graph.pb pick" "node $S/tf_graph.pb attrs" \
                "tensors $S/tf_saved_model --values 1" "tree $S/tf_saved_model"; do
        # shellcheck disable=SC2086
        "$NNAV_BIN" $args --yaml > "$T/y.yaml"
        "$py" - "$T/y.yaml" >> "$T/keys" <<'PY'
import sys, yaml
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            print(k); walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(yaml.safe_load(open(sys.argv[1])))
PY
    done
    for k in $(sort -u "$T/keys"); do
        CHECKS=$((CHECKS + 1))
        grep -qw -- "$k" "$plain" || fail "man page lacks YAML key $k"
    done
fi
finish
