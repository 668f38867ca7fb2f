#!/usr/bin/env bash
# nnav summary on PyTorch checkpoints (issue 19): the module hierarchy from
# the tensors' key paths. Checkpoints written by Debian's python3-torch
# (pt_summary.py: a torchvision resnet18 state_dict, a training checkpoint
# nesting it under "model", a 2-layer TransformerEncoder with a Linear head);
# every scope's params in `nnav summary --yaml` equal torch's
# sum(p.numel() for p in module.parameters()) for a dozen modules each
# (BatchNorm's running_mean/running_var are buffers: not params, their
# elements said apart and equal to torch's float buffers); identical layers
# fold (layer1's two blocks, the encoder's two layers), different ones do
# not (layer2.0 has a downsample, layer2.1 not). Skipped visibly without torch.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/pt_summary
rm -rf "$T"
mkdir -p "$T"
HERE=$(dirname "$0")
need_torch yaml
/usr/bin/python3 "$HERE/pt_summary.py" "$T" > "$T/gen.log" 2>&1 || { fail "pt_summary.py: $(tail -3 "$T/gen.log")"; finish; exit 1; }

for n in resnet18 train enc; do
    expect_status 0 "$NNAV_BIN" summary --yaml "$T/$n.pt"
    cp "$OUT" "$T/$n.yaml"
    # Each oracle line against the YAML's scope of that path.
    CHECKS=$((CHECKS + 1))
    /usr/bin/python3 - "$T/$n.yaml" "$T/oracle.txt" "$n.pt" > "$T/$n.cmp" 2>&1 <<'PY' || fail "$n: $(head -c 600 "$T/$n.cmp")"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
sc = {s["path"]: s for s in d["scopes"]}
bad = 0
for line in open(sys.argv[2]):
    f, path, want = line.split()
    if f != sys.argv[3]:
        continue
    if path == "buffers":
        got = d.get("buffer_elements", 0)
    else:
        s = sc.get("" if path == "-" else path)
        got = s["params"] if s else None
    if got != int(want):
        print("%s: nnav %s, torch %s" % (path, got, want))
        bad += 1
sys.exit(1 if bad else 0)
PY
done

# Folding: identical siblings by their tensors' names, types and shapes.
/usr/bin/python3 - "$T/resnet18.yaml" "$T/enc.yaml" > "$T/fold.cmp" 2>&1 <<'PY' || fail "folding: $(head -c 600 "$T/fold.cmp")"
import sys, yaml
r = {s["path"]: s for s in yaml.safe_load(open(sys.argv[1]))["scopes"]}
e = {s["path"]: s for s in yaml.safe_load(open(sys.argv[2]))["scopes"]}
want = [(r, "layer1/1", "layer1/0"), (r, "layer2/1", None), (r, "layer4/1", None),
        (r, "layer1/0/bn2", "layer1/0/bn1"), (e, "encoder/layers/1", "encoder/layers/0")]
bad = 0
for t, path, to in want:
    if t[path]["identical_to"] != to:
        print("%s identical_to %s, wanted %s" % (path, t[path]["identical_to"], to))
        bad += 1
sys.exit(1 if bad else 0)
PY
CHECKS=$((CHECKS + 1))

# The table: the fold and the buffers said on the total line.
expect_status 0 "$NNAV_BIN" summary "$T/resnet18.pt"
grep -qE '^    0 … 1  ×2 identical ' "$OUT" || fail "layer1's blocks not folded: $(head -8 "$OUT")"
grep -qE '^total: 0 nodes in 57 scopes, 11,689,512 params \(62 names\), .*9,600 buffer elements not counted' "$OUT" ||
    fail "total line: $(tail -1 "$OUT")"
expect_status 0 "$NNAV_BIN" summary "$T/train.pt" --depth 1
grep -qE '^  model +float32 +11,689,512 ' "$OUT" || fail "train.pt's model scope: $(cat "$OUT")"
finish
