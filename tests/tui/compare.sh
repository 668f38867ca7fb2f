#!/usr/bin/env bash
# Compare mode (issue 18, item 4): `nnav A B` on a pair made here from the
# cnn sample - pool1 renamed pool1_renamed with its strides changed, one
# element of conv1.weight moved by 0.5, a Relu (extra_relu) added after
# relu2. The header gives the summary and the side shown; the node list,
# the tree and the initializers mark ~ and +; ]c visits the three
# differences in order and wraps, [c goes back; the detail shows both sides
# of pool1 (old and new name and strides), side by side when wide and A
# above B when narrow; s sorts the initializers by difference; X shows side
# A, where the added node is a + row placed where B has it; `nnav B A` shows
# the same node as a - row on its side B; a model against itself says "no
# differences" and exits 0, the pair exits 1; two formats exit 2; and
# `nnav diff A B` on a terminal opens the same mode.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_compare.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
need_onnx_python
cp "$NNAV_SAMPLES/cnn.onnx" "$dir/old.onnx"
"$py" - "$dir/old.onnx" "$dir/new.onnx" << 'PYEOF' || fail "could not make the pair"
import sys, onnx
from onnx import helper as h, numpy_helper as nh
m = onnx.load(sys.argv[1])
g = m.graph
for n in g.node:
    if n.name == "pool1":
        n.name = "pool1_renamed"
        for a in n.attribute:
            if a.name == "strides":
                del a.ints[:]
                a.ints.extend([1, 1])
for i, t in enumerate(g.initializer):
    if t.name == "conv1.weight":
        w = nh.to_array(t).copy()
        w.flat[5] += 0.5
        g.initializer[i].CopyFrom(nh.from_array(w, t.name))
k = [i for i, n in enumerate(g.node) if n.name == "relu2"][0]
g.node.insert(k + 1, h.make_node("Relu", ["relu2_out"], ["extra_out"], name="extra_relu"))
onnx.save(m, sys.argv[2])
PYEOF

# node_row NAME: the node list's row of NAME (the tree is left of it).
node_row() { screen | grep -E -m1 -- "│[-+~ ] *([0-9]+|-) [A-Za-z]+ +$1( |$)"; }
expect_row() { # expect_row NAME REGEX
    node_row "$1" | grep -qE -- "$2" || fail "the row of $1 is not like '$2': $(node_row "$1")"
}

start_args 160 40 "$dir/old.onnx" "$dir/new.onnx"
wait_for "Initializers"
wait_for "compare: ]c next difference"
expect_line "nnav compare" "showing B (new) new.onnx"
expect_line "nnav compare" "vs A old.onnx"
expect_line "nnav compare" "+1 Relu"
expect_line "nnav compare" "MaxPool"
expect_line "nnav compare" "1 initializer"
pass "the header: the side shown, the other, the summary"
expect_row pool1_renamed '│~ +2 MaxPool'
expect_row extra_relu '│\+ +7 Relu'
expect_row conv2 '│  +3 Conv'
expect_row relu1 '│  +1 Relu'
screen | grep -qE '^~ .* main 12 ' || fail "the tree's main graph is not marked ~"
screen | grep -qE '│~ +1\.7 KiB .*conv1\.weight' || fail "conv1.weight is not marked ~"
screen | grep -qE '│  +18\.0 KiB .*conv2\.weight' || fail "conv2.weight is marked"
pass "marks: ~ changed, + added, blank the same, in the list, the tree and the initializers"
keys Tab Tab Tab # to the tree: the graph's detail counts its nodes by outcome
wait_for "compare nodes: 10 the same, +1, -0, 0 renamed, 1 changed"
keys Tab
wait_for "Nodes  main  #0 of 12"
pass "the graph's detail: its nodes by outcome"

# ]c: each difference in order, then around; [c back.
typ "]c"
wait_for "difference 1 of 3: ~ node pool1_renamed"
expect_line "~ name" "pool1 "
expect_line "~ name" "| pool1_renamed"
expect_line "~ attr  strides" "strides = [2, 2]"
expect_line "~ attr  strides" "| strides = [1, 1]"
expect_line "  attr  kernel_shape" "| kernel_shape = [2, 2]"
expect_line "compare ~" "renamed"
pass "]c to pool1_renamed; the detail shows A | B, the name and strides marked ~"
typ "]c"
wait_for "difference 2 of 3: + node extra_relu (added)"
wait_for "compare + added: only on B"
typ "]c"
wait_for "difference 3 of 3: ~ initializer conv1.weight"
wait_for "tensor conv1.weight"
expect_line "largest |B-A| 0.5" "1 of 432 differ"
typ "]c"
wait_for "past the last, from the first: difference 1 of 3"
pass "]c: the added node, the changed weight (one element, by 0.5), then around"
typ "[c"
wait_for "before the first, from the last: difference 3 of 3"
typ "[c"
wait_for "difference 2 of 3: + node extra_relu"
typ "[c"
wait_for "difference 1 of 3: ~ node pool1_renamed"
pass "[c back through them"
# ] alone is still forward: after a second, or with another key after it.
wait_for "Nodes  main  #2 of 12"
keys BSpace
wait_for "Nodes  main  #7 of 12"
keys "]"
wait_for "Nodes  main  #2 of 12"
keys BSpace
wait_for "Nodes  main  #7 of 12"
keys "]" Down
wait_for "Nodes  main  #3 of 12"
pass "] alone still goes forward"

# s, s: by name, then by difference, with the count and the largest |B-A|.
keys s
wait_for "by name"
keys s
wait_for "by difference"
screen | grep -m1 -A1 "total .* by difference" | tail -1 | grep -qE '│~ +1 0\.5 .*conv1\.weight' \
    || fail "sorted by difference, conv1.weight is not first with 1 and 0.5"
pass "s sorts the initializers by difference, showing the count and the largest |B-A|"

# X: side A, the cursor on the same node, the added node as a + row.
typ "[c" # from conv2 (#3) back to pool1_renamed
wait_for "difference 1 of 3"
keys X
wait_for "showing A (old) old.onnx"
expect_line "nnav compare" "vs B new.onnx"
wait_for "Nodes  main  #2 of 11"
expect_row pool1 '│~ +2 MaxPool'
expect_row extra_relu '│\+ +- Relu .*\(only on B\) relu2_out'
screen | grep -B1 -F "extra_relu" | head -1 | grep -qF "relu2 " || fail "the + row is not after relu2"
pass "X: side A, on pool1; extra_relu a + row after relu2"
keys X
wait_for "showing B (new) new.onnx"
wait_for "Nodes  main  #2 of 12"
pass "X again: back on B, on pool1_renamed"
keys q
wait_for "nnav exited 1"
terminal_clean
pass "the pair: exit status 1, the terminal restored"

# nnav B A: the Relu only on A is a - row on side B, reached by ]c.
start_args 160 40 "$dir/new.onnx" "$dir/old.onnx"
wait_for "compare: ]c next difference"
expect_row extra_relu '│- +- Relu .*\(only on A\)'
typ "]c"
typ "]c"
wait_for "difference 2 of 3: - node extra_relu (removed)"
wait_for "node only on A"
wait_for "compare - removed: only on A"
expect_line "  name  extra_relu" "extra_relu"
pass "a removed node is a - row where it was, ]c reaches it, the detail shows its one side"
keys q
wait_for "nnav exited 1"

# Narrow: A above B.
start_args 100 40 "$dir/old.onnx" "$dir/new.onnx"
wait_for "compare: ]c next difference"
typ "]c"
wait_for "difference 1 of 3"
wait_for "A: strides = [2, 2]"
wait_for "B: strides = [1, 1]"
wait_for "B: pool1_renamed"
pass "narrow: each changed line as A above B"
keys q
wait_for "nnav exited 1"

# A model against itself.
start_args 160 40 "$dir/old.onnx" "$dir/old.onnx"
wait_for "no differences: ]c next difference"
expect_line "nnav compare" "no differences"
typ "]c"
wait_for "the two models are the same"
no_text "│~"
keys q
wait_for "nnav exited 0"
pass "the same model twice: no differences, exit status 0"

# Two formats: refused with the core's message, exit 2, no explorer.
start_args 160 40 "$dir/old.onnx" "$NNAV_SAMPLES/tf_graph.pb"
wait_for "nnav exited 2"
no_text "Initializers"
screen | grep -q "^nnav: " || fail "no message for two formats"
pass "an ONNX model and a TensorFlow graph: refused, exit status 2"

# nnav diff A B on a terminal: the same mode (the CLI calls the hook main.c
# registers); its exit status is the explorer's.
start_args 160 40 diff "$dir/old.onnx" "$dir/new.onnx"
wait_for "compare: ]c next difference"
expect_line "nnav compare" "showing B (new) new.onnx"
typ "]c"
wait_for "difference 1 of 3: ~ node pool1_renamed"
keys q
wait_for "nnav exited 1"
terminal_clean
pass "nnav diff A B on a terminal opens compare mode"
