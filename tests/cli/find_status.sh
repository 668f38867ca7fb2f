#!/usr/bin/env bash
# nnav find's exit status is grep's (issue 32 item 9): 0 when something
# matches, 1 when nothing does. The oracle is onnx's own reading of the
# model: a node name it lists is found (and printed); a pattern built to be
# in no node, op, value or initializer name onnx lists is not.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx
M=$NNAV_SAMPLES/cnn.onnx
T=$NNAV_TMP/find_status; rm -rf "$T"; mkdir -p "$T"
"$py" - "$M" > "$T/names" <<'EOF' || fail "onnx could not read $M"
import onnx, sys
g = onnx.load(sys.argv[1]).graph
names = [n.name for n in g.node] + [n.op_type for n in g.node] + [t.name for t in g.initializer]
names += [v.name for v in list(g.input) + list(g.output) + list(g.value_info)]
names += [o for n in g.node for o in list(n.input) + list(n.output)]
# A pattern in none of them, case-insensitively: "q" repeated past the longest.
miss = "q" * (max(len(x) for x in names) + 1)
assert not any(miss in x.lower() for x in names)
print(next(n.name for n in g.node if n.name))
print(miss)
EOF
{ read -r hit; read -r miss; } < "$T/names"

expect_status 0 "$NNAV_BIN" find "$M" "$hit"
grep -qE "^node +$hit " "$OUT" || fail "find $hit: the node is not listed: $(cat "$OUT")"
expect_status 1 "$NNAV_BIN" find "$M" "$miss"
[ -s "$OUT" ] && fail "find with no match printed rows: $(cat "$OUT")"
grep -qx "nnav find: no matches" "$ERR" || fail "find with no match: stderr $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" find "$M" "$miss" --yaml
[ "$(cat "$OUT")" = "[]" ] || fail "find --yaml with no match: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" find "$M" "$hit" --yaml
"$py" -c 'import sys, yaml; l = yaml.safe_load(open(sys.argv[1])); sys.exit(not any(h["name"] == sys.argv[2] for h in l))' \
    "$OUT" "$hit" || fail "find --yaml $hit: $(cat "$OUT")"
# A script can branch on it as on grep.
if "$NNAV_BIN" find "$M" "$miss" > /dev/null 2>&1; then fail "'if nnav find' took a miss for a hit"; fi
# A usage error stays 1 and a bad file 2: the miss is not confused with them.
expect_status 2 "$NNAV_BIN" find "$T/names" "$hit"
finish
