#!/usr/bin/env bash
# An initializer of no scope of its own (torch.onnx names a Linear's
# transposed weight onnx::MatMul_N) is shown with the node that reads it
# (issue 32 item 9): `tensors` text says "used by /layer.0/query/MatMul",
# YAML gives every initializer's consumer_scope. The model is torch's real
# export; the oracle is onnx's reading of it: each initializer's first
# consumer in node order.
set -u
. "$(dirname "$0")/lib.bash"
need_torch yaml
py=/usr/bin/python3
"$py" -c 'import onnx' 2> /dev/null || { echo "SKIP: no onnx in /usr/bin/python3"; exit 77; }
T=$NNAV_TMP/tensors_consumer; rm -rf "$T"; mkdir -p "$T"
"$py" - "$T/m.onnx" > "$T/gen.log" 2>&1 <<'EOF' || fail "torch.onnx.export: $(tail -3 "$T/gen.log")"
import sys, torch
class Att(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.query = torch.nn.Linear(8, 8, bias=False)
        s.out = torch.nn.Linear(8, 8)
    def forward(s, x):
        return s.out(torch.relu(s.query(x)))
class M(torch.nn.Module):
    def __init__(s):
        super().__init__()
        s.layer = torch.nn.ModuleList([Att(), Att()])
    def forward(s, x):
        for l in s.layer:
            x = l(x)
        return x
torch.onnx.export(M().eval(), torch.randn(1, 3, 8), sys.argv[1], opset_version=13)
EOF
expect_status 0 "$NNAV_BIN" tensors "$T/m.onnx" --yaml
cp "$OUT" "$T/t.yaml"
expect_status 0 "$NNAV_BIN" tensors "$T/m.onnx"
cp "$OUT" "$T/t.txt"
"$py" - "$T/m.onnx" "$T/t.yaml" "$T/t.txt" <<'EOF' || fail "consumer_scope against onnx"
import onnx, sys, yaml
g = onnx.load(sys.argv[1]).graph
first = {}
for n in g.node:
    for i in n.input:
        first.setdefault(i, n.name)
got = {t["name"]: t["consumer_scope"] for t in yaml.safe_load(open(sys.argv[2]))["tensors"]}
text = {l.split()[0]: l.rstrip("\n") for l in open(sys.argv[3]) if l.split() and l.split()[0] in got}
bad = 0
unscoped = 0
for t in g.initializer:
    want = first.get(t.name)
    if got.get(t.name, "missing") != want:
        bad += 1
        print("  %s: consumer_scope %r, onnx's first consumer %r" % (t.name, got.get(t.name, "missing"), want))
    line = text.get(t.name, "")
    plain = "/" not in t.name and "." not in t.name
    unscoped += plain
    said = line.endswith("  used by " + want) if want else False
    if plain != said or (not plain and "used by" in line):
        bad += 1
        print("  %s: text %r (a name of no scope: %s)" % (t.name, line, plain))
if unscoped < 2:
    bad += 1
    print("  the export has %d onnx::MatMul_N names: the test proves nothing" % unscoped)
print(len(g.initializer), "initializers,", unscoped, "of no scope,", bad, "wrong")
sys.exit(1 if bad else 0)
EOF
finish
