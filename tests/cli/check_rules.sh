#!/usr/bin/env bash
# nnav check as an operator checker (issue 17 item 4), against onnx.checker
# (onnx 1.12, check_model(path, full_check=True)) as the oracle:
#  - check_rules_gen.py writes a valid model and one model per broken rule
#    (and some that must pass: omitted optionals, "__" attributes, an opset
#    past the table, com.microsoft imported...). On each, nnav check exits 2
#    exactly when the oracle rejects the model; a model meant to break a rule
#    must be rejected by the oracle (else the case is wrong), and nnav must
#    name the rule's word and the node in its YAML and the node in its text.
#    onnx.checker finds input_type and input_shape only with full_check (its
#    type and shape inference): that is asserted too. The opset past the
#    table and the skipped domain are said once, as notices, and exit 0.
#  - The graph's rules (issue 30: ssa, topological_order, undefined_input,
#    duplicate_initializer, initializer_not_input), each broken in the main
#    graph and in a body (and a function), and what onnx.checker accepts
#    (bodies reading outer values, names a body hides or reuses, an
#    initializer that is also an input): the same verdicts, the finding
#    naming the value (YAML value) and, for a node's, the node. A finding
#    of no node (an initializer, a graph input) names its graph.
#  - the bundled ONNX samples, small torch.onnx.export models (python3-torch)
#    and, in the _corpus part, every ONNX model of ../shared/corpus: nnav
#    check --all exits 0 exactly when the oracle accepts the model, with one
#    difference written down: a sparse initializer feeding an operator
#    (samples/control_flow.onnx's Add) is a tensor to IR.md and onnxruntime,
#    a sparse_tensor(float) to onnx's inference, which rejects it.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
D=$(dirname "$0")
T=$NNAV_TMP/check_rules; rm -rf "$T"; mkdir -p "$T/rules" "$T/yaml" "$T/torch"
OUT=$T/last.out
ERR=$T/last.err
need_python onnx yaml

# The oracle must not write what it reads (onnx 1.12's check_model(PATH,
# full_check=True) writes the inferred model over PATH): checksums of every
# model read, before and after.
sums() { cksum "$NNAV_SAMPLES"/*.onnx "$NNAV_CORPUS"/onnx/*.onnx 2> /dev/null; }
sums > "$T/sums.before"

# compare FILE ORACLE_LINE: nnav check --all exits 0 iff the oracle says ok.
compare() {
    local f=$1 verdict=$2 want=0
    [ "$verdict" = ok ] || want=2
    expect_status $want "$NNAV_BIN" check --all "$f"
    if [ "$want" = 0 ] && [ -s "$ERR" ]; then
        fail "$(basename "$f"): nnav check said on stderr: $(head -2 "$ERR")"
    fi
    [ $want = 2 ] && ! grep -q . "$OUT" && fail "$(basename "$f"): exit 2 with nothing said"
}

if [ "${NNAV_PART:-all}" != corpus ]; then
    # ---- one broken rule each ----
    n=$("$py" "$D/check_rules_gen.py" rules "$T/rules") || fail "check_rules_gen.py rules"
    [ "${n:-0}" -ge 75 ] || fail "only ${n:-0} rule models written"
    "$py" "$D/check_rules_gen.py" oracle "$T"/rules/*.onnx > "$T/rules.oracle" || fail "the oracle"
    : > "$T/expect.tsv"
    while IFS=$'\t' read -r name rule node; do
        line=$(grep -P "^\Q$name.onnx\E\t" "$T/rules.oracle")
        verdict=$(cut -f2 <<< "$line")
        if [ "$rule" != - ] && [ "$verdict" != fail ]; then
            fail "$name: meant to break $rule, but onnx.checker accepts it (the case is wrong)"
        fi
        want=0
        [ "$verdict" = fail ] && want=2
        expect_status $want "$NNAV_BIN" check "$T/rules/$name.onnx"
        if [ "$want" = 2 ] && [ "$rule" != - ] && [ "$node" != - ]; then
            grep -q "node '$node' (#" "$OUT" || fail "$name: the text names no node '$node': $(cat "$OUT")"
        fi
        [ "$want" = 0 ] && grep -q 'operator finding' "$ERR" && fail "$name: a false alarm: $(cat "$OUT")"
        "$NNAV_BIN" check --yaml "$T/rules/$name.onnx" > "$T/yaml/$name.yaml" 2> /dev/null
        printf '%s\t%s\t%s\t%s\n' "$name" "$rule" "$node" "$verdict" >> "$T/expect.tsv"
    done < "$T/rules/cases.tsv"
    CHECKS=$((CHECKS + 1))
    # The table's origin and its newest ai.onnx version, as nnav op says them.
    table=$(sed -n 's/^const char nnav_opschema_origin\[\] = "\(.*\)";$/\1/p' "$NNAV_SRC/src/typed/opschema_onnx.c")
    amax=$(sed -n 's/^    {"ai\.onnx", \([0-9]*\)},$/\1/p' "$NNAV_SRC/src/typed/opschema_onnx.c")
    "$py" - "$T/expect.tsv" "$T/yaml" "$T/rules.oracle" "$table" "$amax" <<'PY' || fail "the YAML findings"
import sys, yaml
words = {"unknown_operator", "not_yet", "no_opset", "deprecated", "unknown_attribute",
         "duplicate_attribute", "attribute_type", "missing_attribute", "input_count",
         "output_count", "missing_input", "missing_output", "input_type", "opset_range",
         "function_opset", "ssa", "topological_order", "undefined_input",
         "duplicate_initializer", "initializer_not_input", "input_shape"}
graph_words = {"ssa", "topological_order", "undefined_input", "duplicate_initializer",
               "initializer_not_input"}
keys = ["graph", "node", "index", "op_type", "domain", "since_version", "opset", "rule",
        "attribute", "position", "value", "detail"]
table, amax = sys.argv[4], int(sys.argv[5])
lax = {l.split("\t")[0][:-5]: l.rstrip("\n").split("\t")[-1]
       for l in open(sys.argv[3]) if "\tlax:" in l}
bad = 0
for line in open(sys.argv[1]):
    name, rule, node, verdict = line.rstrip("\n").split("\t")
    d = yaml.safe_load(open("%s/%s.yaml" % (sys.argv[2], name)))
    fs = d["operator_findings"]
    try:
        c = d["operator_check"]
        assert c["listed"] == len(fs) and c["count"] == sum(c["rules"].values()), c
        assert c["count"] == c["listed"] or name == "many_findings", c
        assert c["table"] == table and c["nodes"] >= c["held"], c
        for f in fs:
            assert list(f) == keys and f["rule"] in words and f["detail"], f
        if name == "custom_12":
            assert c["not_checked"] == [{"domain": "com.example", "count": 12}], c
        if name == "opset_99":
            assert c["opset_notices"] == [{"domain": "ai.onnx", "version": 99, "table_max": amax}], c
        if name == "many_findings":
            assert c["count"] == 10001 and c["listed"] == 10000 == len(fs), c
        if name == "twenty_domains":
            nc = c["not_checked"]
            assert len(nc) == 17 and nc[16] == {"domain": None, "count": 4}, nc
            assert nc[0] == {"domain": "d00", "count": 1}, nc
        if name == "duplicate_among_many":
            dup = [f for f in fs if f["rule"] == "duplicate_attribute"]
            assert len(dup) == 1 and dup[0]["attribute"] == "axis" and "3 times" in dup[0]["detail"], fs
            assert sum(f["rule"] == "unknown_attribute" for f in fs) == 10, fs
        if name == "function_ref_attr":
            assert c["function_calls"] == 1 and c["held"] == 1, c
        if name == "two_nodes_two_findings":
            assert c["nodes"] == 2 and c["held"] == 2 and c["count"] == 2, c
        for f in fs:
            if f["rule"] in graph_words:
                assert f["value"] is not None and f["graph"] and f["position"] is not None, f
                assert (f["node"] is None) == (f["index"] is None), f
            else:
                assert f["value"] is None, f
        if rule == "-":
            assert fs == [], fs
            continue
        hits = [f for f in fs if f["rule"] == rule]
        assert hits, (rule, fs)
        if node != "-":
            assert any(f["node"] == node for f in hits), (node, hits)
        elif rule in graph_words:
            assert all(f["node"] is None for f in hits), hits
        if name.endswith("_body"):
            assert all(f["graph"] != "/" for f in hits), hits
        # The checker sees these only through its inference.
        assert (rule in ("input_type", "input_shape")) == (name in lax), (name, lax.get(name))
    except AssertionError as e:
        bad += 1
        print("FAIL: %s: %s" % (name, str(e)[:400]))
sys.exit(bad > 0)
PY
    # What a finding says, in text: the node, its index, the schema version.
    expect_status 2 "$NNAV_BIN" check "$T/rules/attribute_type.onnx"
    grep -qx "/  node 'conv1' (#0, Conv v11): attribute 'group' is STRING, the schema says INT \\[attribute_type\\]" "$OUT" ||
        fail "attribute_type's line: $(cat "$OUT")"
    grep -q '^nnav check: 1 operator finding' "$ERR" || fail "the count on stderr: $(cat "$ERR")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/missing_attribute.onnx"
    grep -qx "/  node 'cast' (#0, Cast v13): required attribute 'to' is missing \\[missing_attribute\\]" "$OUT" || fail "Cast without to: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/too_many_inputs.onnx"
    grep -qx "/  node 'r' (#0, Relu v13): 2 inputs, the schema takes 1 \\[input_count\\]" "$OUT" || fail "Relu with 2 inputs: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/body_node.onnx"
    grep -q "^/if/then_branch  node 'deep' (#0, Frob): no operator 'Frob' in ai.onnx" "$OUT" ||
        fail "a body's node is checked without --all, named by its graph: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" check "$T/rules/body_node.onnx" --graph /if/else_branch
    # Today's lines come first; the operator lines after them.
    expect_status 2 "$NNAV_BIN" check "$T/rules/type_contradiction.onnx"
    head -1 "$OUT" | grep -q '^/  y: the file says float32\[1,4\], inferred float32\[1,3\]' || fail "today's line first: $(head -1 "$OUT")"
    tail -1 "$OUT" | grep -qxF "2 nodes checked against the operator schemas: 0 findings (table: $table)" ||
        fail "the operator summary last: $(tail -1 "$OUT")"
    # Said once: the domain the table does not hold, the opset past it.
    expect_status 0 "$NNAV_BIN" check "$T/rules/custom_12.onnx"
    [ "$(grep -c 'not checked' "$OUT")" = 1 ] && grep -qx '12 nodes in domains the table does not hold were not checked: com.example (12)' "$OUT" ||
        fail "com.example said once: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" check "$T/rules/opset_99.onnx"
    grep -qxF "opset_import ai.onnx 99 is newer than the table knows ($amax, $table): nodes are held to the newest schemas known" "$OUT" ||
        fail "opset 99 is a notice: $(cat "$OUT")"
    # The graph's rules in text: the node (or the graph, for an initializer)
    # and what wrote the name first.
    expect_status 2 "$NNAV_BIN" check "$T/rules/ssa_two_writers.onnx"
    grep -qx "/  node 'b' (#1, Neg v13): output 0 'y' is already defined: output 0 of node 'a' (#0) \\[ssa\\]" "$OUT" ||
        fail "ssa's line: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/ssa_body_overwrites_input.onnx"
    grep -qx "/if/then_branch  node 'tr' (#0, Relu v13): output 0 'x' is already defined: graph input #0 of graph / \\[ssa\\]" "$OUT" ||
        fail "a body's ssa line: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/order_body_outer_later.onnx"
    grep -qx "/if/then_branch  node 'tr' (#0, Relu v13): input 0 'a' is written only after it: output 0 of node 'neg' (#1) of graph / \\[topological_order\\]" "$OUT" ||
        fail "an outer value written after the body's node: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/initializer_twice_body.onnx"
    grep -qx "/if/then_branch  initializer #1 'w' has the name of initializer #0 \\[duplicate_initializer\\]" "$OUT" ||
        fail "a body's initializer named twice: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/matmul_inner.onnx"
    grep -qx "/  node 'mm' (#0, MatMul v13): its inputs' shapes contradict the operator: inner sizes 3 and 5 differ \\[input_shape\\]" "$OUT" ||
        fail "MatMul's inner sizes: $(cat "$OUT")"
    # shapes counts it a disagreement, saying why.
    expect_status 0 "$NNAV_BIN" shapes "$T/rules/matmul_inner.onnx"
    grep -q '^y .* DISAGREE  (MatMul (node "mm"): inner sizes 3 and 5 differ)$' "$OUT" && grep -q ' 1 DISAGREE,' "$OUT" ||
        fail "shapes on MatMul's inner sizes: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" shapes "$T/rules/matmul_body.onnx" --graph /if/then_branch
    grep -q ' 1 DISAGREE,' "$OUT" || fail "shapes in a body: $(cat "$OUT")"
    # --graph: a body's findings alone, its outer names still in view.
    expect_status 2 "$NNAV_BIN" check "$T/rules/ssa_body_overwrites_outer.onnx" --graph /if/then_branch
    [ "$(grep -c '\[ssa\]$' "$OUT")" = 1 ] || fail "--graph on a body: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" check "$T/rules/undefined_body_value_outside.onnx" --graph /if/then_branch
    # Every node counts as checked, a finding or not (it said 1 of 2).
    expect_status 2 "$NNAV_BIN" check "$T/rules/two_nodes_two_findings.onnx"
    tail -1 "$OUT" | grep -qx '2 nodes checked against the operator schemas: 2 findings (table: '"$table"')' ||
        fail "two nodes, two findings: $(tail -1 "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/many_findings.onnx"
    grep -qx '\.\.\. and 1 more operator findings (the first 10000 are listed)' "$OUT" || fail "findings past those kept: $(tail -3 "$OUT")"
    grep -q '^nnav check: 10001 operator findings' "$ERR" || fail "all counted: $(cat "$ERR")"
    expect_status 0 "$NNAV_BIN" check "$T/rules/twenty_domains.onnx"
    grep -qx '20 nodes in domains the table does not hold were not checked: d00 (1), .*, d15 (1), 4 in other domains' "$OUT" ||
        fail "twenty domains: $(grep 'not checked' "$OUT")"
    expect_status 2 "$NNAV_BIN" check "$T/rules/opset_zero.onnx"
    grep -q '^model  opset_import ai.onnx ("") version 0: versions start at 1' "$OUT" || fail "opset 0: $(cat "$OUT")"

    # ---- TensorFlow: nodes held to the OpDefs the SavedModel carries ----
    # The sample SavedModel, and a copy (protoc) whose function body's Relu
    # takes a second input and an attr its OpDef lacks, and one of whose
    # nodes is an op the model defines nowhere; control inputs and "_"
    # attrs are TensorFlow's own and not findings.
    P=$NNAV_SRC/proto
    if command -v protoc > /dev/null; then
        mkdir -p "$T/tfbad"
        protoc -I"$P" --decode=tensorflow.SavedModel tensorflow/saved_model.proto \
            < "$NNAV_SAMPLES/tf_saved_model/saved_model.pb" > "$T/tf.txt" || fail "protoc --decode"
        "$py" - "$T/tf.txt" "$T/tfbad.txt" <<'PY' || fail "editing the SavedModel"
import sys
s = open(sys.argv[1]).read()
relu = 'name: "relu"\n          op: "Relu"\n          input: "BiasAdd:z:0"\n'
assert s.count(relu) == 1, "the sample's Relu moved"
s = s.replace(relu, relu + '          input: "BiasAdd:z:0"\n          input: "^BiasAdd"\n'
              '          attr {\n            key: "bogus"\n            value {\n              i: 1\n'
              '            }\n          }\n          attr {\n            key: "_mine"\n'
              '            value {\n              i: 1\n            }\n          }\n')
neg = 'op: "Neg"'
assert s.count(neg) == 1, "the sample's Neg moved"
s = s.replace(neg, 'op: "Frobnicate"')
open(sys.argv[2], "w").write(s)
PY
        protoc -I"$P" --encode=tensorflow.SavedModel tensorflow/saved_model.proto \
            < "$T/tfbad.txt" > "$T/tfbad/saved_model.pb" || fail "protoc --encode"
        expect_status 0 "$NNAV_BIN" check "$NNAV_SAMPLES/tf_saved_model"
        grep -q 'the model carries no op definitions' "$OUT" &&
            fail "the sample SavedModel's nodes are not held to its OpDefs: $(tail -2 "$OUT")"
        {
            grep -qE "^[0-9]+ nodes checked against the model's op definitions: 0 findings\$" "$OUT" ||
                fail "the sample SavedModel against its OpDefs: $(tail -2 "$OUT")"
            expect_status 2 "$NNAV_BIN" check "$T/tfbad"
            grep -q " node 'relu' (#[0-9]*, Relu): attribute 'bogus' is not in the OpDef \\[unknown_attribute\\]$" "$OUT" ||
                fail "TF unknown attr: $(cat "$OUT")"
            grep -q " node 'relu' (#[0-9]*, Relu): 2 inputs, the OpDef takes 1 \\[input_count\\]$" "$OUT" ||
                fail "TF input count (the control input left out): $(cat "$OUT")"
            grep -q "(#[0-9]*, Frobnicate): no op definition 'Frobnicate' among those the model carries \\[unknown_operator\\]$" "$OUT" ||
                fail "TF unknown op: $(cat "$OUT")"
            [ "$(grep -c ' node ' "$OUT")" = 3 ] || fail "TF: three findings, no more: $(cat "$OUT")"
        }
    else
        echo "SKIP (partly): no protoc; the TensorFlow models are not made"
    fi

    # ---- the bundled samples and torch exports: no false alarm ----
    for f in "$NNAV_SAMPLES"/*.onnx; do
        v=$("$py" "$D/check_rules_gen.py" oracle "$f" | cut -f2-)
        if [ "$(basename "$f")" = control_flow.onnx ]; then
            # The one difference (see the top): nnav exits 0, onnx refuses
            # the sparse initializer; anything else the oracle says is new.
            CHECKS=$((CHECKS + 1))
            grep -q 'add_sparse.*unsupported type: sparse_tensor(float)' <<< "$v" ||
                fail "control_flow.onnx: the oracle now says: $v"
            v=ok
        fi
        compare "$f" "${v%%$'\t'*}"
    done
    if "$py" -c 'import torch' 2> /dev/null; then
        n=$("$py" "$D/check_rules_gen.py" torch "$T/torch" 2> "$T/torch.err") || fail "torch exports: $(tail -3 "$T/torch.err")"
        [ "${n:-0}" -ge 8 ] || fail "only ${n:-0} torch exports"
        "$py" "$D/check_rules_gen.py" oracle "$T"/torch/*.onnx > "$T/torch.oracle"
        while IFS=$'\t' read -r name verdict _; do
            compare "$T/torch/$name" "$verdict"
        done < "$T/torch.oracle"
        echo "torch: ${n:-0} exports compared with onnx.checker"
    else
        echo "SKIP (partly): no torch in $py (Debian: python3-torch)"
    fi
fi

if [ "${NNAV_PART:-all}" != samples ]; then
    if [ -d "$NNAV_CORPUS/onnx" ]; then
        "$py" "$D/check_rules_gen.py" oracle "$NNAV_CORPUS"/onnx/*.onnx > "$T/corpus.oracle"
        n=0
        while IFS=$'\t' read -r name verdict _; do
            compare "$NNAV_CORPUS/onnx/$name" "$verdict"
            n=$((n + 1))
        done < "$T/corpus.oracle"
        echo "corpus: $n ONNX models compared with onnx.checker"
    else
        echo "SKIP (partly): no corpus at ${NNAV_CORPUS:-(unset)}"
    fi
fi
CHECKS=$((CHECKS + 1))
sums | cmp -s - "$T/sums.before" || fail "a model read here was written to (the oracle must check in memory)"
finish
