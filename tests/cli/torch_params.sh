#!/usr/bin/env bash
# Parameters as torch counts them (issue 30, items 1-3 and 8), against torch
# itself: torch_params_gen.py exports torchvision's MobileNetV3-small (with
# BatchNorm kept, and folded by the default eval-mode export), a GRU + LSTM +
# BatchNorm1d model (kept and default) and a transformer encoder with
# torch.onnx, and writes torch's named_modules() counts beside them.
#  - every summary scope that is a torch module (its path read back to the
#    module's dotted name) has torch's sum(p.numel() for p in
#    module.parameters()) as params and its float buffers' elements as
#    buffers, where the export keeps BatchNorm; 80 % of the modules with
#    parameters must be found (a ModuleList, or an out_proj that attention
#    inlines, has no nodes of its own);
#  - the totals of summary, info, cost and the explorer's figures (info's
#    parameters line) are torch's where BatchNorm is kept;
#  - where the export folded BatchNorm, summary and info say so once, with
#    torch's number of BatchNorm modules as the number of folded layers, and
#    nowhere else do they say it;
#  - tensors' per-tensor roles add up to info's parameters and buffers, and
#    where exporter-merged names make the by-name count differ from the
#    stored one, tensors says how;
#  - node shows a Conv's bias that reaches it through an Identity as its own
#    parameter (the Identity has none).
set -u
. "$(dirname "$0")/lib.bash"
need_torch yaml
need_python onnx yaml
PY=$py
D=$(dirname "$0")
T=$NNAV_TMP/torch_params; rm -rf "$T"; mkdir -p "$T"
OUT=$T/last.out
ERR=$T/last.err
/usr/bin/python3 "$D/torch_params_gen.py" "$T" > "$T/gen.log" 2>&1 ||
    { cat "$T/gen.log"; fail "torch_params_gen.py"; finish; }

for name in mnv3_kept mnv3_folded rnn rnn_default enc; do
    f=$T/$name.onnx
    expect_status 0 "$NNAV_BIN" summary "$f" --yaml
    cp "$OUT" "$T/$name.summary.yaml"
    expect_status 0 "$NNAV_BIN" summary "$f"
    cp "$OUT" "$T/$name.summary.txt"
    expect_status 0 "$NNAV_BIN" info "$f" --yaml
    cp "$OUT" "$T/$name.info.yaml"
    expect_status 0 "$NNAV_BIN" info "$f"
    cp "$OUT" "$T/$name.info.txt"
    expect_status 0 "$NNAV_BIN" cost "$f" --yaml
    cp "$OUT" "$T/$name.cost.yaml"
    expect_status 0 "$NNAV_BIN" tensors "$f" --yaml
    cp "$OUT" "$T/$name.tensors.yaml"
    expect_status 0 "$NNAV_BIN" tensors "$f"
    cp "$OUT" "$T/$name.tensors.txt"
    "$PY" - "$T" "$name" <<'EOF' || fail "$name: counts differ from torch's"
import json, re, sys, yaml
T, name = sys.argv[1], sys.argv[2]
o = json.load(open(f"{T}/oracle.json"))[name]
mods, folded = o["modules"], o["folded"]
y = yaml.safe_load(open(f"{T}/{name}.summary.yaml"))
info = yaml.safe_load(open(f"{T}/{name}.info.yaml"))
cost = yaml.safe_load(open(f"{T}/{name}.cost.yaml"))["graphs"][0]
tens = yaml.safe_load(open(f"{T}/{name}.tensors.yaml"))
stext = open(f"{T}/{name}.summary.txt").read()
itext = open(f"{T}/{name}.info.txt").read()
bad = []

def torch_name(path):
    """A scope path of torch.onnx's names (features/features.0/block/
    block.0) as the module's dotted name (features.0.block.0)."""
    full, prev = "", ""
    for c in path.split("/"):
        if prev and c.startswith(prev + "."):
            full += c[len(prev):]
        else:
            full = full + "." + c if full else c
        prev = c
    return full

found = 0
with_params = [m for m, (p, b) in mods.items() if m and p]
for sc in y["scopes"]:
    if not sc["path"]:
        continue
    m = torch_name(sc["path"])
    if m not in mods:
        continue
    found += m in with_params
    p, b = mods[m]
    if folded:
        continue
    if sc["params"] != p:
        bad.append(f"scope {sc['path']} ({m}): params {sc['params']}, torch {p}")
    if sc["buffers"] != b:
        bad.append(f"scope {sc['path']} ({m}): buffers {sc['buffers']}, torch {b}")
tp, tb = mods[""]
n_bn = o["batchnorms"]
# Modules with no node of their own are no scope (a ModuleList, an
# attention's out_proj that F.multi_head_attention_forward inlines; folded
# BatchNorms): most of the others must be found.
if found < 0.8 * (len(with_params) - (n_bn if folded else 0)):
    bad.append(f"only {found} of torch's {len(with_params)} modules with parameters found as scopes")
if not folded:
    for what, got in (("summary params", y["params"]), ("info parameters_all_graphs", info["parameters_all_graphs"]),
                      ("cost params", cost["params"]), ("info compute params", info["compute"]["params"])):
        if got != tp:
            bad.append(f"{what} {got}, torch {tp}")
    for what, got in (("summary buffer_elements", y["buffer_elements"]), ("info buffers", info["buffers"])):
        if got != tb:
            bad.append(f"{what} {got}, torch {tb}")
    if y["folded_norms"] or info["folded_norms"] or "folded" in stext or "folded" in itext:
        bad.append("says BatchNorm was folded where the export kept it")
else:
    if y["folded_norms"] != n_bn or info["folded_norms"] != n_bn:
        bad.append(f"folded_norms {y['folded_norms']}/{info['folded_norms']}, torch has {n_bn} BatchNorm modules")
    want = (f"BatchNorm folded into the preceding Conv by the exporter ({n_bn} Conv layers): "
            "counts are the file's, not the framework's")
    if stext.count(want) != 1:
        bad.append(f"summary says {stext.count(want)} times: {want}")
    if itext.count(want) != 1:
        bad.append(f"info says {itext.count(want)} times: {want}")
# tensors: each stored tensor's role; the sums are the stored elements.
roles = {}
for t in tens["tensors"]:
    if t["role"]:
        n = 1
        for d in t["dims"]:
            n *= d
        roles[t["role"]] = roles.get(t["role"], 0) + n
if roles.get("parameter", 0) != tens["parameters"] or roles.get("buffer", 0) != tens["buffers"]:
    bad.append(f"tensors: roles {roles} but totals {tens['parameters']}, {tens['buffers']}")
tt = open(f"{T}/{name}.tensors.txt").read()
byname = info["parameters_main_graph"]
if info["merged_parameter_names"] and tens["parameters"] != byname:
    want = f"{byname:,} parameters by name (info, summary): {info['merged_parameter_names']} names share"
    if want not in tt:
        bad.append(f"tensors does not explain its count against info's: wants '{want}'")
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOF
done

# A conv whose bias the exporter merged and passes through an Identity: the
# bias is the conv's parameter, the Identity has none.
"$PY" - "$T/mnv3_folded.onnx" > "$T/ident.txt" <<'EOF'
import sys, onnx
m = onnx.load(sys.argv[1])
init = {t.name: t for t in m.graph.initializer}
prod = {n.output[0]: n for n in m.graph.node if n.output}
for n in m.graph.node:
    if n.op_type == "Conv" and len(n.input) == 3 and n.input[2] in prod and prod[n.input[2]].op_type == "Identity":
        src = init[prod[n.input[2]].input[0]]
        w = init[n.input[1]]
        k = 1
        for d in w.dims:
            k *= d
        b = 1
        for d in src.dims:
            b *= d
        print(n.name, prod[n.input[2]].name, k + b)
        break
EOF
read -r conv ident want < "$T/ident.txt"
[ -n "${want:-}" ] || fail "mnv3_folded.onnx has no Conv whose bias comes through an Identity"
if [ -n "${want:-}" ]; then
    expect_status 0 "$NNAV_BIN" node "$T/mnv3_folded.onnx" "$conv" --yaml
    "$PY" -c 'import sys,yaml; c=yaml.safe_load(open(sys.argv[1]))["cost"]; assert c["params"]==int(sys.argv[2]), c' \
        "$OUT" "$want" || fail "node $conv: params are not its weight and bias ($want)"
    expect_status 0 "$NNAV_BIN" node "$T/mnv3_folded.onnx" "$ident" --yaml
    "$PY" -c 'import sys,yaml; c=yaml.safe_load(open(sys.argv[1]))["cost"]; assert c["params"]==0, c' \
        "$OUT" || fail "node $ident: an Identity forwarding a bias has params"
fi
finish
