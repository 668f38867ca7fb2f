#!/usr/bin/env bash
# The detail pane's cursor stops only on lines Enter acts on (issue 13, item
# 11): from the top, one Down reaches a node's first input, past its header,
# name, cost, plain attributes and section titles; the type line under an
# input is skipped by the keys and a click on it selects the input. With one
# graph the Graphs pane is as wide as its row, and the node list gets the rest.
. "$(dirname "$0")/tmux.bash"

# mouse BUTTON X Y: one xterm (X10) report (0 = left press, 3 = release)
mouse() {
    local b=$(($1 + 32)) x=$(($2 + 33)) y=$(($3 + 33))
    keys -l "$(printf '\033[M')$(printf "\\$(printf %03o "$b")\\$(printf %03o "$x")\\$(printf %03o "$y")")"
}
# sep_col TEXT: the column (0-based) of the first separator on the line with TEXT.
sep_col() {
    line_with "$1" | sed 's/│.*//' | tr -d '\n' | LC_ALL=C.UTF-8 wc -m
}

# Tall enough that the detail pane shows conv1 whole (the click below).
start 120 40 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
wait_for "name conv1"
# conv1's detail: head, name, schema, cost, Attributes (3 set, 2 by
# default), the 3 set, the 2 defaults and the line of those not set (issue
# 17), Inputs (3), then input 0 on line 13; each input has its type line.
wait_for "  0 X: input ← graph input"
keys Tab
wait_for "line 1/21"
keys Down
wait_for "line 13/21"
pass "one Down from the top reaches input 0"
keys Down
wait_for "line 15/21"            # input 1, over input 0's type line
keys Down Down
wait_for "line 20/21"            # output 0, over the Outputs title
keys Down
wait_for "line 20/21"
keys Up
wait_for "line 17/21"            # input 2
keys Up Up Up
wait_for "line 1/21"             # the top, over the attributes and the defaults
keys End
wait_for "line 20/21"
keys Home
wait_for "line 1/21"
pass "Up/Down/Home/End go from input to input and to the top, over titles and types"

# A click on input 1's type line (line 16, the 16th body row) selects input 1.
top=$(screen | grep -n "Detail " | head -1 | cut -d: -f1)   # 1-based row of the title
mouse 0 8 $((top + 15))
mouse 3 8 $((top + 15))
wait_for "line 15/21"
# A click on the Attributes title snaps to the nearest stop in view.
mouse 0 8 $((top + 4))
mouse 3 8 $((top + 4))
wait_for "line 1/21"
pass "a click on a type line selects its input; on a title, the nearest stop"

keys Down Enter
wait_for "value input  graph input"
pass "Enter on the line reached acts on input 0"

# The Graphs pane: one graph needs a dozen columns, not a quarter of 120.
w1=$(sep_col "· main 11")
[ "$w1" -ge 11 ] && [ "$w1" -le 16 ] || fail "one graph: the Graphs pane is $w1 columns wide"
expect_line "· main 11" "0 Conv               conv1"
quit_clean

start 120 30 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
w6=$(sep_col "body_if.else_branch 2")
line_with "body_if.else_branch 2" | grep -qF "    · body_if.else_branch 2 " ||
    fail "the longest tree row is cut"
[ "$w6" -gt "$w1" ] && [ "$w6" -le 30 ] || fail "six graphs: the Graphs pane is $w6 columns wide"
pass "Graphs pane: $w1 columns for one graph, $w6 for the six of control_flow (all rows whole)"
quit_clean
