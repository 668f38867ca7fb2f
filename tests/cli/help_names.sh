#!/usr/bin/env bash
# The command line's words (issue 13, item 16): 'nnav help' and 'nnav help
# COMMAND' print what --help prints; a node or initializer name the model
# does not have is bad input (status 2, the model named, 'nnav find'
# suggested), not a usage error; counts agree with their nouns ("1 node");
# find, cost --nodes and nodes keep their columns aligned with long and wide names.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/help_names; rm -rf "$T"; mkdir -p "$T"
S=$NNAV_SAMPLES

# ---- help ----
"$NNAV_BIN" --help > "$T/help.want" 2>&1
expect_status 0 "$NNAV_BIN" help
cmp -s "$OUT" "$T/help.want" || fail "'nnav help' differs from 'nnav --help'"
grep -q 'help \[COMMAND\]' "$OUT" || fail "help lists itself"
for cmd in info tree nodes node tensors shapes cost check export find; do
    "$NNAV_BIN" "$cmd" --help > "$T/$cmd.want" 2>&1
    expect_status 0 "$NNAV_BIN" help "$cmd"
    cmp -s "$OUT" "$T/$cmd.want" || fail "'nnav help $cmd' differs from 'nnav $cmd --help'"
    grep -q "^Usage: nnav $cmd MODEL" "$OUT" || fail "'nnav help $cmd' shows its usage"
done
expect_status 1 "$NNAV_BIN" help frobnicate
grep -q "no command named 'frobnicate'" "$ERR" || fail "unknown help topic named: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" help info extra

# ---- names the model does not have: status 2, no 'Try --help' ----
expect_status 2 "$NNAV_BIN" node "$S/cnn.onnx" no_such_node
grep -q "cnn.onnx: no node named 'no_such_node'; 'nnav find MODEL NAME'" "$ERR" || fail "unknown node: $(cat "$ERR")"
grep -q 'Try' "$ERR" && fail "an unknown node is not a usage error: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" node "$S/control_flow.onnx" no_such_node --graph /
grep -q "no node in that graph named 'no_such_node'" "$ERR" || fail "unknown node in a graph: $(cat "$ERR")"
grep -q 'Try' "$ERR" && fail "an unknown node in a graph is not a usage error"
expect_status 2 "$NNAV_BIN" export "$S/cnn.onnx" --node no_such_node
grep -q 'Try' "$ERR" && fail "export --node with an unknown node is not a usage error"
expect_status 2 "$NNAV_BIN" tensors "$S/cnn.onnx" --name no_such_tensor
grep -q "no initializer named 'no_such_tensor'" "$ERR" || fail "unknown initializer: $(cat "$ERR")"
grep -q 'Try' "$ERR" && fail "an unknown initializer is not a usage error"

# ---- one spelling: "initializer", as ONNX writes it ----
CHECKS=$((CHECKS + 1))
if grep -rniE 'initialis(er|ed)' "$NNAV_SRC/src" "$NNAV_SRC/ui" "$NNAV_SRC/man" "$NNAV_SRC/README.md" \
        --include='*.c' --include='*.h' --include='*.md' --include='*.1' > "$T/spell"; then
    fail "spelled 'initialis...': $(head -3 "$T/spell")"
fi
for cmd in info tensors find; do "$NNAV_BIN" "$cmd" --help; done > "$T/helps"
grep -qi 'initialis' "$T/helps" && fail "--help spells 'initialis...'"

# ---- plurals ----
: > "$T/counts"
for f in cnn.onnx control_flow.onnx external.onnx tf_graph.pb tf_saved_model; do
    for args in info tree "tensors --all" "cost --all --nodes" "shapes --all" "check --all"; do
        # shellcheck disable=SC2086
        "$NNAV_BIN" $args "$S/$f" >> "$T/counts" 2>&1
    done
done
expect_status 0 "$NNAV_BIN" export "$S/cnn.onnx" --node conv1 --depth 0 -o "$T/one.yaml"
cat "$ERR" >> "$T/counts"
# summary's total line: a one-node model whose only parameter has one element.
pyo=
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx' 2>/dev/null && { pyo=$c; break; }; done
if [ -n "$pyo" ]; then
    "$pyo" - "$T/one_param.onnx" <<'PY'
import sys
from onnx import helper, TensorProto, save
g = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], name="add")], "g",
                      [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])],
                      [helper.make_tensor("w", TensorProto.FLOAT, [1], [2.0])])
save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[1])
PY
    "$NNAV_BIN" summary "$T/one_param.onnx" >> "$T/counts" 2>&1
    CHECKS=$((CHECKS + 1))
    grep -q '^total: 1 node in 1 scope, 1 param (1 name)' "$T/counts" || fail "summary says '1 param': $(grep '^total' "$T/counts")"
else
    echo "SKIP (partly): no python3 with onnx to write the one-parameter model"
fi
for f in cnn.onnx control_flow.onnx; do "$NNAV_BIN" summary "$S/$f" >> "$T/counts" 2>&1; done
CHECKS=$((CHECKS + 1))
if grep -nE '(^|[^0-9.,])1 (nodes|tensors|graphs|values|functions|signatures|parameters|params|names|scopes|bytes|initializers)\b' "$T/counts" > "$T/bad"; then
    fail "a count of 1 with a plural noun: $(head -3 "$T/bad")"
fi
grep -q '^@__inference_cond_true_31 .* 1 node ' "$T/counts" || fail "tree says '1 node'"
grep -q '^1 tensor, 36 bytes' "$T/counts" || fail "tensors says '1 tensor'"
grep -q 'bytes, 1 node)$' "$T/counts" || fail "export says '1 node'"

# ---- columns stay aligned with long and wide names ----
# Four Relu nodes named x..., one 60 letters long, one CJK (two columns a
# character), one with a combining accent (none), one short.
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import unicodedata' 2>/dev/null && { py=$c; break; }; done
if [ -z "$py" ]; then
    echo "SKIP (partly): no python3 to write and measure the wide-name model"
    finish
    exit
fi
"$py" - "$T/wide.onnx" <<'PY'
import sys
def varint(v):
    out = b""
    while True:
        b = v & 0x7f; v >>= 7
        if v: out += bytes([b | 0x80])
        else: return out + bytes([b])
def fb(n, p):
    p = p.encode() if isinstance(p, str) else p
    return varint(n << 3 | 2) + varint(len(p)) + p
def vi(name):  # ValueInfoProto with a float tensor type
    return fb(1, name) + fb(2, fb(1, bytes([0x08, 0x01])))
names = ["x" * 60, "x模型模型", "xe\u0301", "x"]
g = b""
for i, n in enumerate(names):
    g += fb(1, fb(1, "v%d" % i) + fb(2, "v%d" % (i + 1)) + fb(3, n) + fb(4, "Relu"))
g += fb(2, "g") + fb(11, vi("v0")) + fb(12, vi("v4"))
model = bytes([0x08, 0x08]) + fb(7, g) + fb(8, fb(1, "") + bytes([0x10, 17]))
open(sys.argv[1], "wb").write(model)
PY
cat > "$T/cols.py" <<'PY'
import sys, unicodedata
def cols(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch): continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w
mode, path = sys.argv[1], sys.argv[2]
lines = [l.rstrip("\n") for l in open(path, encoding="utf-8")]
if mode == "find":   # every line ends in the graph path "/": at one column
    ends = {cols(l[:l.rindex(" /")]) for l in lines if l.endswith(" /")}
    sys.exit(0 if len(ends) == 1 and len(lines) >= 4 else "find: path column at %s" % sorted(ends))
if mode == "nodes":  # the inputs column ("vN -> vM") starts at one column
    starts = {cols(l[:l.index(" v")]) for l in lines}
    sys.exit(0 if len(starts) == 1 and len(lines) == 4 else "nodes: inputs at %s" % sorted(starts))
rows = lines[[i for i, l in enumerate(lines) if l.split()[:1] == ["index"]][0]:]
rows = [l[:-len("  partial")] if l.endswith("  partial") else l for l in rows]
ends = {cols(l) for l in rows}
sys.exit(0 if len(ends) == 1 and len(rows) == 5 else "cost: rows end at %s" % sorted(ends))
PY
expect_status 0 "$NNAV_BIN" find "$T/wide.onnx" x
grep '^node ' "$OUT" > "$T/find.txt"
"$py" "$T/cols.py" find "$T/find.txt" 2> "$T/py.err" || fail "find columns: $(cat "$T/py.err"; cat "$T/find.txt")"
expect_status 0 "$NNAV_BIN" cost "$T/wide.onnx" --nodes
"$py" "$T/cols.py" cost "$OUT" 2> "$T/py.err" || fail "cost --nodes columns: $(cat "$T/py.err"; cat "$OUT")"
expect_status 0 "$NNAV_BIN" nodes "$T/wide.onnx"
"$py" "$T/cols.py" nodes "$OUT" 2> "$T/py.err" || fail "nodes columns: $(cat "$T/py.err"; cat "$OUT")"
finish
