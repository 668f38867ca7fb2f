#!/usr/bin/env bash
# Widths at 80x24 and 200x50 (issue 32 item 8), on gen_widths.py's model
# (long scopes, exporter-made initializer names, types with long symbolic
# dims); what is expected comes from python's reading of the file it wrote:
#  - the header keeps the graph's MACs and params (worked out by the
#    generator from the shapes) at 80 columns as at 200;
#  - each initializer row shows its shape (numpy's, from the bytes) after
#    its name, the name cut in its middle (a start and an end of the real
#    name) where the row is short of room: at 200 columns 40 or more of its
#    69 characters;
#  - the graph view's boxes hold a whole type and name at 200 columns, and
#    at 80 a type wider than the pane wraps onto a second row: the two rows
#    read the file's type.
. "$(dirname "$0")/tmux.bash"
need_onnx_python ": the widths model cannot be written"
"$py" -c 'import numpy' 2> /dev/null || skip "python3 without numpy"
model=$NNAV_TMP/tui_widths.onnx
facts=$NNAV_TMP/tui_widths.facts
"$py" "$NNAV_SRC/tests/cli/gen_widths.py" "$model" > "$facts" || fail "gen_widths.py"
fact() { awk -v k="$1" -v n="$2" '$1 == k && $2 == n { $1 = ""; $2 = ""; sub(/^  /, ""); print }' "$facts"; }
# si N: three significant figures and a decimal unit, as MACs are shown
si() { "$py" -c 'import sys
v, u = float(sys.argv[1]), ""
for u in ["", "k", "M", "G", "T"]:
    if v < 999.5: break
    v /= 1000
print(("%.3g" % v) + ("" if sys.argv[2] == "tight" else " ") + u)' "$1" "$2"; }
macs=$(awk '$1 == "macs" { print $2 }' "$facts")
params=$(awk '$1 == "params" { print $2 }' "$facts")

# check_inits LEAST WHERE: every initializer's row holds "NAME  SHAPE" or
# "START…END  SHAPE", START and END from its name (LEAST characters in
# all), SHAPE numpy's.
check_inits() {
    screen > "$NNAV_TMP/tui_widths.screen"
    "$py" - "$facts" "$NNAV_TMP/tui_widths.screen" "$1" << 'PY' || fail "initializer rows at $2"
import re, sys
facts, scr, least = sys.argv[1], open(sys.argv[2], encoding="utf-8").read(), int(sys.argv[3])
bad = 0
for l in open(facts):
    if not l.startswith("init "):
        continue
    _, name, shape = l.split()
    ok = (name + "  " + shape) in scr
    for m in re.finditer(r" (\S+)\u2026(\S+)  " + re.escape(shape), scr):
        a, b = m.group(1), m.group(2)
        ok |= (name.startswith(a) and name.endswith(b) and len(a) >= 2 and len(b) >= 4 and
               len(a) + len(b) >= least)
    if not ok:
        print("FAIL: no row shows %s (or %d or more of its characters, its start and end)"
              " and then its shape %s" % (name, least, shape))
        bad += 1
sys.exit(1 if bad else 0)
PY
}

start 80 24 "$model"
wait_ready
tight="$(si "$macs" tight) MACs $(si "$params" tight) params"
expect_line "nnav " "$tight"
pass "80x24: the header keeps MACs and params ($tight)"
check_inits 6 80x24
pass "80x24: each initializer's row has its shape, the name cut in its middle"
keys :
typ "frames_relu"
keys Enter
wait_for "name frames_relu"
keys v
wait_for "Graph view  depth 2"
want=$(fact type frames)
screen > "$NNAV_TMP/tui_widths.screen"
"$py" - "$want" "$NNAV_TMP/tui_widths.screen" << 'PY' || fail "the wrapped type (screen above)"
import re, sys
want, rows = sys.argv[1], open(sys.argv[2], encoding="utf-8").read().split("\n")
for i, r in enumerate(rows[:-1]):
    m = re.search(r"\u2502(float32\[[^\u2502]*)\u2502", r)
    n = re.search(r"\u2514([^\u2500\u2518]*)\u2500*\u2518", rows[i + 1])
    if m and n:
        got = m.group(1).rstrip() + n.group(1)
        if got == want and len(m.group(1)) < len(want):
            sys.exit(0)
        print("FAIL: the type reads %r, not %r" % (got, want))
        sys.exit(1)
print("FAIL: no box with a type wrapped onto two rows")
sys.exit(1)
PY
pass "80x24: a type wider than the pane wraps onto a second row and reads whole"
quit_clean

start 200 50 "$model"
wait_ready
brief="$(si "$macs" brief) MACs  $(si "$params" brief) params"
expect_line "nnav " "$brief"
expect_line "nnav " "IR 8"
expect_line "nnav " "opset 17"
pass "200x50: the header has MACs and params ($brief), the IR version and opset"
check_inits 40 200x50
pass "200x50: each initializer's row has 40 or more of its name's characters and its shape"
node=/model/encoder/layers.1/self_attention/attention_block/MatMul
keys :
typ "$node"
keys Enter
wait_for "name $node"
keys v
wait_for "Graph view  depth 2"
want=$(fact type input_hidden_states)
wait_for "│$node "
wait_for "└$want─"
pass "200x50: the graph view's boxes hold the whole name and type ($want)"
quit_clean
