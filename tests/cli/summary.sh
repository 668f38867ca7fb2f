#!/usr/bin/env bash
# nnav summary (issue 14, items 1-3): the module hierarchy of a ViT-like
# stack written here with the ONNX package (N identical encoder layers named
# as PyTorch's exporter names them, the N LayerNorm weights merged into one
# initializer and N-1 Identity nodes): each scope's parameters equal the
# numbers the generator worked out, the N layers are one "×N identical" row,
# --depth cuts the tree, --yaml reads back with PyYAML and names each repeat's
# original, info says what the merge saved; the TensorFlow sample's scopes
# come from its names. On the corpus (its own ctest entry), every model's
# summary totals equal `nnav cost` and a parameter count made here from the
# ONNX package's view of the file.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/summary; rm -rf "$T"; mkdir -p "$T"
OUT=$T/last.out # our own: ctest -j runs the other CLI scripts beside this one
ERR=$T/last.err
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, yaml' 2>/dev/null && { py=$c; break; }; done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx and yaml packages (apt-get install python3-onnx python3-yaml)"
    exit 77
fi

# A parameter count by the rule of scope.h, from the ONNX package's view
# (tests/cli/param_rule.py: weights, their Identity names, buffers and
# constants by the inputs that read them).
cat > "$T/oracle.py" <<'EOF'
import os, sys, onnx
sys.path.insert(0, os.path.join(os.environ["NNAV_SRC"], "tests", "cli"))
import param_rule
m = onnx.load(sys.argv[1], load_external_data=False)
print(param_rule.counts(param_rule.model_graphs(m))[0])
EOF

# ---- a ViT-like stack of N identical layers ----
N=4 D=8
cat > "$T/gen.py" <<'EOF'
import sys, numpy as np, onnx
from onnx import helper, numpy_helper, TensorProto
N, D, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(7)
inits, nodes = [], []
def w(name, *shape, value=None):
    a = np.full(shape, value, np.float32) if value is not None else rng.standard_normal(shape).astype(np.float32)
    inits.append(numpy_helper.from_array(a, name))
    return name
# The N ln_1 weights are equal (ones): the exporter kept the first as an
# initializer and each other name as an Identity of it.
merged = w("encoder.layers.encoder_layer_0.ln_1.weight", D, value=1.0)
per_layer = {"ln_1": 2 * D, "self_attention": 2 * (D * D + D), "mlp": D * 4 * D + 4 * D + 4 * D * D + D}
x = "input"
for i in range(N):
    p = f"/encoder/layers/encoder_layer_{i}"
    q = f"encoder.layers.encoder_layer_{i}"
    lnw = f"{q}.ln_1.weight"
    if i:
        nodes.append(helper.make_node("Identity", [merged], [lnw], name=f"Identity_{i}"))
    lnb = w(f"{q}.ln_1.bias", D)
    nodes.append(helper.make_node("LayerNormalization", [x, lnw, lnb], [f"{p}/ln_1/LayerNormalization_output_0"],
                                  name=f"{p}/ln_1/LayerNormalization", axis=-1, epsilon=1e-6))
    h = f"{p}/ln_1/LayerNormalization_output_0"
    for name in ("q_proj", "out_proj"):
        nodes.append(helper.make_node("MatMul", [h, w(f"{q}.self_attention.{name}.weight", D, D)],
                                      [f"{p}/self_attention/{name}/MatMul_output_0"], name=f"{p}/self_attention/{name}/MatMul"))
        nodes.append(helper.make_node("Add", [f"{p}/self_attention/{name}/MatMul_output_0", w(f"{q}.self_attention.{name}.bias", D)],
                                      [f"{p}/self_attention/{name}/Add_output_0"], name=f"{p}/self_attention/{name}/Add"))
        h = f"{p}/self_attention/{name}/Add_output_0"
    nodes.append(helper.make_node("Add", [x, h], [f"{p}/Add_output_0"], name=f"{p}/Add"))
    h = f"{p}/Add_output_0"
    nodes.append(helper.make_node("MatMul", [h, w(f"{q}.mlp.0.weight", D, 4 * D)], [f"{p}/mlp/mlp.0/MatMul_output_0"], name=f"{p}/mlp/mlp.0/MatMul"))
    nodes.append(helper.make_node("Add", [f"{p}/mlp/mlp.0/MatMul_output_0", w(f"{q}.mlp.0.bias", 4 * D)], [f"{p}/mlp/mlp.0/Add_output_0"], name=f"{p}/mlp/mlp.0/Add"))
    nodes.append(helper.make_node("Relu", [f"{p}/mlp/mlp.0/Add_output_0"], [f"{p}/mlp/mlp.1/Relu_output_0"], name=f"{p}/mlp/mlp.1/Relu"))
    nodes.append(helper.make_node("MatMul", [f"{p}/mlp/mlp.1/Relu_output_0", w(f"{q}.mlp.3.weight", 4 * D, D)], [f"{p}/mlp/mlp.3/MatMul_output_0"], name=f"{p}/mlp/mlp.3/MatMul"))
    nodes.append(helper.make_node("Add", [f"{p}/mlp/mlp.3/MatMul_output_0", w(f"{q}.mlp.3.bias", D)], [f"{p}/mlp/mlp.3/Add_output_0"], name=f"{p}/mlp/mlp.3/Add"))
    nodes.append(helper.make_node("Add", [h, f"{p}/mlp/mlp.3/Add_output_0"], [f"{p}/Add_1_output_0"], name=f"{p}/Add_1"))
    x = f"{p}/Add_1_output_0"
nodes.append(helper.make_node("Identity", [x], ["output"], name="/Identity_out"))
g = helper.make_graph(nodes, "vit_like", [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 5, D])],
                      [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 5, D])], inits)
onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), out)
layer = sum(per_layer.values())
print(layer, per_layer["ln_1"], per_layer["self_attention"], per_layer["mlp"], N * layer, D * 4)
EOF
if [ "${NNAV_PART:-all}" != corpus ]; then
    read -r layer ln attn mlp total saved < <("$py" "$T/gen.py" $N $D "$T/vit.onnx") || fail "generator"
    M=$T/vit.onnx
    expect_status 0 "$NNAV_BIN" summary "$M"
    grep -qE '^      encoder_layer_0 … encoder_layer_3  ×4 identical ' "$OUT" ||
        fail "the 4 layers are one row: $(grep encoder_layer "$OUT" | head -3)"
    [ "$(grep -c encoder_layer "$OUT")" = 1 ] || fail "repeats are folded: $(grep -c encoder_layer "$OUT") rows"
    # The params column: the number with thousands commas before the MACs.
    params_of() { grep -E "$1" "$OUT" | sed -E 's/.* ([0-9,]+) +[0-9.]+( [kMGTPE])?$/\1/' | tr -d ,; }
    row=$(params_of 'encoder_layer_0 …')
    [ "$row" = "$layer" ] || fail "a layer's params: $row, the generator says $layer"
    row=$(params_of '^        mlp ')
    [ "$row" = "$mlp" ] || fail "mlp params: $row, the generator says $mlp"
    grep -qE "^total: .* $(echo "$total" | sed -E ':a;s/^([0-9]+)([0-9]{3})/\1,\2/;ta') params " "$OUT" ||
        fail "total params $total: $(tail -1 "$OUT")"
    # The root row names the model (issue 32 item 7): the graph's name as
    # onnx reads it back, else (a graph of no name) the file's base name.
    gname=$("$py" -c 'import onnx, sys; print(onnx.load(sys.argv[1]).graph.name)' "$M")
    grep -qE "^/ +$gname +float32" "$OUT" || fail "the root row is not named '$gname': $(sed -n 2p "$OUT")"
    "$py" -c 'import onnx, sys; m = onnx.load(sys.argv[1]); m.graph.name = ""; onnx.save(m, sys.argv[2])' \
        "$M" "$T/no_name.onnx" || fail "clearing the graph's name"
    expect_status 0 "$NNAV_BIN" summary "$T/no_name.onnx"
    grep -qE '^/ +no_name\.onnx +float32' "$OUT" || fail "a graph of no name: the root row is not the file's name: $(sed -n 2p "$OUT")"
    expect_status 0 "$NNAV_BIN" summary "$T/no_name.onnx" --yaml
    "$py" -c 'import yaml, sys; y = yaml.safe_load(open(sys.argv[1])); sys.exit(y["model"] != "no_name.onnx" or y["model_from"] != "file" or y["scopes"][0]["class"] is not None)' "$OUT" ||
        fail "YAML model/model_from: $(grep -E '^model' "$OUT")"
    expect_status 0 "$NNAV_BIN" summary "$M" --depth 2
    grep -q encoder_layer "$OUT" && fail "--depth 2 shows no layer (depth 3)"
    grep -qE '^    layers ' "$OUT" || fail "--depth 2 shows layers: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" summary "$M" --yaml
    cp "$OUT" "$T/vit.yaml"
    expect_status 0 "$NNAV_BIN" cost "$M" --yaml
    cp "$OUT" "$T/vit.cost.yaml"
    "$py" - "$T/vit.yaml" "$T/vit.cost.yaml" $N "$layer" "$ln" "$attn" "$mlp" "$total" <<'EOF' || fail "summary --yaml"
import sys, yaml
y = yaml.safe_load(open(sys.argv[1])); c = yaml.safe_load(open(sys.argv[2]))
N, layer, ln, attn, mlp, total = map(int, sys.argv[3:])
sc = {s["path"]: s for s in y["scopes"]}
bad = []
for i in range(N):
    p = f"encoder/layers/encoder_layer_{i}"
    if sc[p]["params"] != layer: bad.append(f"{p}: {sc[p]['params']} != {layer}")
    for part, want in (("ln_1", ln), ("self_attention", attn), ("mlp", mlp)):
        if sc[p + "/" + part]["params"] != want: bad.append(f"{p}/{part}: {sc[p + '/' + part]['params']} != {want}")
    want = None if i == 0 else "encoder/layers/encoder_layer_0"
    if sc[p]["identical_to"] != want: bad.append(f"{p} identical_to {sc[p]['identical_to']}")
if sc["encoder/layers/encoder_layer_0"]["repeats"] != N: bad.append("repeats")
if y["params"] != total or sc[""]["params"] != total: bad.append(f"total {y['params']} != {total}")
g = c["graphs"][0]
if y["macs"] != g["macs"] or y["nodes"] != g["nodes"]: bad.append(f"macs/nodes {y['macs']}/{y['nodes']} vs cost {g['macs']}/{g['nodes']}")
l1 = sc["encoder/layers/encoder_layer_1"]
if [v["name"] for v in l1["inputs"]] != ["/encoder/layers/encoder_layer_0/Add_1_output_0"]: bad.append(f"layer 1 inputs {l1['inputs']}")
if l1["outputs"][0]["type"] != "float32[1,5,8]": bad.append(f"layer 1 output type {l1['outputs']}")
print("\n".join(bad)); sys.exit(1 if bad else 0)
EOF
    expect_status 0 "$NNAV_BIN" info "$M"
    # N-1 names of D floats each were not stored again.
    grep -qE "^merged +$((N - 1)) parameter names kept as an Identity of an equal initializer: the merge saves $(((N - 1) * D * 4)) bytes " "$OUT" ||
        fail "info says what merging the LayerNorm weights saved: $(grep -i merg "$OUT")"
    # Options: --depth takes a count; --values is not summary's.
    expect_status 1 "$NNAV_BIN" summary "$M" --depth x
    expect_status 1 "$NNAV_BIN" summary "$M" --values 3
    expect_status 1 "$NNAV_BIN" summary "$M" --graph /nope
    # TensorFlow: scopes from GraphDef names.
    expect_status 0 "$NNAV_BIN" summary "$NNAV_SAMPLES/tf_graph.pb"
    grep -qE '^  dense ' "$OUT" || fail "tf_graph.pb has a dense scope: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" summary "$NNAV_SAMPLES/control_flow.onnx" --graph /loop/body --yaml
fi

# ---- the corpus: totals equal cost's and the count made here ----
if [ "${NNAV_PART:-all}" != samples ] && [ -d "${NNAV_CORPUS:-/nonexistent}/onnx" ]; then
    for f in "$NNAV_CORPUS"/onnx/*.onnx; do
        expect_status 0 "$NNAV_BIN" summary "$f" --yaml
        cp "$OUT" "$T/c.yaml"
        expect_status 0 "$NNAV_BIN" cost "$f" --yaml
        cp "$OUT" "$T/c.cost.yaml"
        want=$("$py" "$T/oracle.py" "$f")
        "$py" - "$T/c.yaml" "$T/c.cost.yaml" "$want" <<'EOF' || fail "$(basename "$f"): summary totals"
import sys, yaml
y = yaml.safe_load(open(sys.argv[1])); g = yaml.safe_load(open(sys.argv[2]))["graphs"][0]
bad = []
if y["macs"] != g["macs"]: bad.append(f"macs {y['macs']} != cost {g['macs']}")
if y["flops"] != g["flops"]: bad.append(f"flops {y['flops']} != cost {g['flops']}")
if y["nodes"] != g["nodes"]: bad.append(f"nodes {y['nodes']} != cost {g['nodes']}")
if y["params"] != int(sys.argv[3]): bad.append(f"params {y['params']} != {sys.argv[3]} counted by the ONNX package")
if sum(s["own_nodes"] for s in y["scopes"]) != y["nodes"]: bad.append("own nodes do not add up")
print("\n".join(bad)); sys.exit(1 if bad else 0)
EOF
    done
fi
finish
