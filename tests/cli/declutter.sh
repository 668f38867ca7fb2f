#!/usr/bin/env bash
# nnav nodes --declutter (issue 14, item 6): on a model written here with the
# ONNX package as PyTorch's exporter writes attention reshapes (per layer a
# Shape -> Gather -> Unsqueeze -> Concat chain into a Reshape, Constants for
# indices and sizes, Identity nodes naming a merged weight), the decluttered
# list has no Constant, Identity, Shape, Gather, Unsqueeze or Concat left,
# each Reshape reads its shape as '[1,197,16,64] (folded)', it keeps exactly
# the generator's count of real nodes, and plain `nodes` still lists all;
# --yaml reads back with PyYAML with the folded value as a list of ints; on
# a dynamic batch the Shape chain does not fold and stays. On the corpus (its
# own ctest entry): every ONNX model's decluttered list is `nnav nodes` with
# rows left out (never changed in op or name), none of them Constant or Identity.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/declutter; rm -rf "$T"; mkdir -p "$T"
OUT=$T/last.out
ERR=$T/last.err
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, yaml' 2>/dev/null && { py=$c; break; }; done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx and yaml packages (apt-get install python3-onnx python3-yaml)"
    exit 77
fi

if [ "${NNAV_PART:-all}" != corpus ]; then
cat > "$T/gen.py" <<'EOF'
import sys, numpy as np, onnx
from onnx import helper as h, TensorProto as TP, numpy_helper as nh
layers, batch, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
nodes, inits = [], []
def const(name, arr):
    nodes.append(h.make_node("Constant", [], [name], name="/" + name,
                             value=nh.from_array(np.array(arr, dtype=np.int64), name)))
inits.append(nh.from_array(np.ones(1024, dtype=np.float32), "ln.weight"))
x = "x"
real = 0
for i in range(layers):
    p = "/encoder/layers/encoder_layer_%d" % i
    w = "encoder.layers.encoder_layer_%d.ln.weight" % i
    nodes.append(h.make_node("Identity", ["ln.weight"], [w], name=p + "/Identity"))
    nodes.append(h.make_node("Mul", [x, w], [p + "/mul"], name=p + "/Mul")); real += 1
    nodes.append(h.make_node("Shape", [p + "/mul"], [p + "/shape"], name=p + "/Shape"))
    const(p[1:].replace("/", "_") + "_c0", 0)
    nodes.append(h.make_node("Gather", [p + "/shape", p[1:].replace("/", "_") + "_c0"], [p + "/b"],
                             name=p + "/Gather", axis=0))
    const(p[1:].replace("/", "_") + "_ax", [0])
    nodes.append(h.make_node("Unsqueeze", [p + "/b", p[1:].replace("/", "_") + "_ax"], [p + "/bu"],
                             name=p + "/Unsqueeze"))
    const(p[1:].replace("/", "_") + "_rest", [197, 16, 64])
    nodes.append(h.make_node("Concat", [p + "/bu", p[1:].replace("/", "_") + "_rest"], [p + "/shp"],
                             name=p + "/Concat", axis=0))
    nodes.append(h.make_node("Reshape", [p + "/mul", p + "/shp"], [p + "/r"], name=p + "/Reshape")); real += 1
    const(p[1:].replace("/", "_") + "_back", [0, 197, 1024])
    nodes.append(h.make_node("Reshape", [p + "/r", p[1:].replace("/", "_") + "_back"], [p + "/out"],
                             name=p + "/Reshape_1")); real += 1
    x = p + "/out"
nodes.append(h.make_node("Relu", [x], ["y"], name="/Relu")); real += 1
b = int(batch) if batch.isdigit() else batch
g = h.make_graph(nodes, "vitish", [h.make_tensor_value_info("x", TP.FLOAT, [b, 197, 1024])],
                 [h.make_tensor_value_info("y", TP.FLOAT, None)], inits)
onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 17)]), out)
print(len(nodes), real)
EOF
read -r all real < <("$py" "$T/gen.py" 3 1 "$T/vit.onnx")
read -r dall dreal < <("$py" "$T/gen.py" 2 batch "$T/dyn.onnx")

expect_status 0 "$NNAV_BIN" nodes "$T/vit.onnx"
n=$(wc -l < "$OUT")
[ "$n" -eq "$all" ] || fail "nodes lists $n rows, not the file's $all"
expect_status 0 "$NNAV_BIN" nodes --declutter "$T/vit.onnx"
cp "$OUT" "$T/decl.txt"
n=$(wc -l < "$T/decl.txt")
[ "$n" -eq "$real" ] || { fail "nodes --declutter lists $n rows, not the $real real nodes"; cat "$T/decl.txt"; }
left=$(awk '$2 ~ /^(Constant|Identity|Shape|Gather|Unsqueeze|Concat)$/' "$T/decl.txt" | wc -l)
[ "$left" -eq 0 ] || fail "$left clutter nodes left in the decluttered list"
grep -q '/encoder/layers/encoder_layer_2/Reshape .*/encoder/layers/encoder_layer_2/mul, \[1,197,16,64\] (folded) -> ' \
    "$T/decl.txt" || { fail "the Reshape does not read its shape as [1,197,16,64] (folded)"; cat "$T/decl.txt"; }
grep -q 'Reshape_1 .* \[0,197,1024\] (folded) -> ' "$T/decl.txt" ||
    fail "a Constant shape does not read as its folded value"
# The Identity's name stays on the Mul that reads it: the parameter's name.
grep -q 'encoder_layer_1/Mul .*, encoder.layers.encoder_layer_1.ln.weight -> ' "$T/decl.txt" ||
    fail "the Mul does not name its weight as the Identity did"

expect_status 0 "$NNAV_BIN" nodes --declutter --yaml "$T/vit.onnx"
"$py" - "$OUT" "$real" <<'EOF' || fail "nodes --declutter --yaml"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert len(d) == int(sys.argv[2]), len(d)
r = [n for n in d if n["name"] == "/encoder/layers/encoder_layer_0/Reshape"][0]
assert r["folded"] == [None, [1, 197, 16, 64]], r
assert not any(n["op_type"] in ("Constant", "Identity", "Shape") for n in d)
assert "folded" not in [n for n in d if n["op_type"] == "Relu"][0]
EOF

# A dynamic batch: Shape gives [batch,197,1024], nothing folds, the chain stays.
expect_status 0 "$NNAV_BIN" nodes --declutter "$T/dyn.onnx"
for op in Shape Gather Unsqueeze Concat; do
    c=$(awk -v op=$op '$2 == op' "$OUT" | wc -l)
    [ "$c" -eq 2 ] || fail "$op on a dynamic batch: $c rows, not 2"
done
c=$(awk '$2 == "Constant" || $2 == "Identity"' "$OUT" | wc -l)
[ "$c" -eq 0 ] || fail "Constant or Identity left on the dynamic model"

# summary --declutter: the same params and MACs, the hidden nodes counted,
# no clutter op named in the class/op column.
expect_status 0 "$NNAV_BIN" summary "$T/vit.onnx"
plain_total=$(tail -1 "$OUT")
expect_status 0 "$NNAV_BIN" summary --declutter "$T/vit.onnx"
grep -q "^total: $all nodes, $((all - real)) decluttered, in " "$OUT" ||
    fail "summary --declutter total: $(tail -1 "$OUT")"
[ "$(tail -1 "$OUT" | sed 's/.* scopes\{0,1\}, //')" = "$(echo "$plain_total" | sed 's/.* scopes\{0,1\}, //')" ] ||
    fail "summary --declutter changed params or MACs: $(tail -1 "$OUT") vs $plain_total"
grep -q 'identical  Mul,Reshape ' "$OUT" || fail "summary --declutter: the layers' ops are not Mul,Reshape"
expect_status 0 "$NNAV_BIN" summary --declutter --yaml "$T/vit.onnx"
"$py" - "$OUT" "$((all - real))" <<'EOF' || fail "summary --declutter --yaml"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
assert d["decluttered"] == int(sys.argv[2]), d["decluttered"]
assert d["scopes"][0]["decluttered"] == int(sys.argv[2])
EOF

# export --format yaml --declutter: the real nodes only, folded values in
# "folded"; the ONNX export keeps every node, so --declutter is refused there.
expect_status 0 "$NNAV_BIN" export --declutter "$T/vit.onnx"
"$py" - "$OUT" "$real" "$((all - real))" <<'EOF' || fail "export --declutter (YAML)"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
nodes = d["graph"]["node"]
assert len(nodes) == int(sys.argv[2]), len(nodes)
assert d["selection"]["decluttered"] == int(sys.argv[3]), d["selection"]
assert not any(n["op_type"] in ("Constant", "Identity", "Shape", "Concat") for n in nodes)
r = [n for n in nodes if n["name"].endswith("encoder_layer_1/Reshape")][0]
assert r["folded"] == [None, [1, 197, 16, 64]], r
EOF
expect_status 0 "$NNAV_BIN" export "$T/vit.onnx"
grep -q "folded" "$OUT" && fail "export without --declutter writes folded values"
expect_status 1 "$NNAV_BIN" export --declutter -o "$T/x.onnx" "$T/vit.onnx"
[ -e "$T/x.onnx" ] && fail "export --declutter -o x.onnx wrote a file"

# Every hostile case (tests/adversarial/cases) through the three faces of
# --declutter: a clean answer or a named refusal (0 or 2), never a crash
# (under ASan+UBSan in the sanitizer build).
for f in "$NNAV_SRC"/tests/adversarial/cases/*; do
    for c in nodes summary export; do
        CHECKS=$((CHECKS + 1))
        "$NNAV_BIN" $c --declutter "$f" > "$OUT" 2> "$ERR"
        rc=$?
        [ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$c --declutter $(basename "$f"): exit $rc"
    done
done

expect_status 1 "$NNAV_BIN" info --declutter "$T/vit.onnx"
grep -q 'does not apply' "$ERR" || fail "info --declutter is not named a usage error"
fi

if [ "${NNAV_PART:-all}" != samples ] && [ -d "${NNAV_CORPUS:-}" ]; then
    for f in "$NNAV_CORPUS"/onnx/*.onnx; do
        b=$(basename "$f")
        expect_status 0 "$NNAV_BIN" nodes "$f"; cut -c1-58 "$OUT" > "$T/all.txt"
        expect_status 0 "$NNAV_BIN" nodes --declutter "$f"; cut -c1-58 "$OUT" > "$T/d.txt"
        a=$(wc -l < "$T/all.txt"); d=$(wc -l < "$T/d.txt")
        [ "$d" -le "$a" ] || fail "$b: $d decluttered rows of $a"
        # Every decluttered row is a row of the full list (index, op, name).
        miss=$(grep -vxF -f "$T/all.txt" "$T/d.txt" | wc -l)
        [ "$miss" -eq 0 ] || fail "$b: $miss decluttered rows are not rows of nnav nodes"
        c=$(awk '$2 == "Constant" || $2 == "Identity"' "$T/d.txt" | wc -l)
        [ "$c" -eq 0 ] || fail "$b: $c Constant or Identity rows left"
        # Counts add up: the rows left out are the hidden ones.
        [ $((a - d)) -eq $(grep -vxF -f "$T/d.txt" "$T/all.txt" | wc -l) ] ||
            fail "$b: rows left out do not add up ($a - $d)"
    done
    m=$NNAV_CORPUS/onnx/melspectrogram.onnx
    expect_status 0 "$NNAV_BIN" nodes --declutter "$m"
    grep -q 'Unsqueeze_1 .*input, \[1\] (folded) -> ' "$OUT" ||
        fail "melspectrogram: Unsqueeze_1 does not read its axes as [1] (folded)"
fi
finish
