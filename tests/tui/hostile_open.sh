#!/usr/bin/env bash
# The explorer opens models whose attributes sit at edge integers (from
# tests/cli/op_sweep.py) and stays up: the Release build used to die at open
# on ConvTranspose, ConvInteger, QLinearConv and SequenceConstruct, before
# drawing anything, because inference read an attribute as a symbolic dim.
# Each model: the four panes and its node count show, moving through the
# nodes and the detail works, the typed view toggles, and q quits cleanly.
. "$(dirname "$0")/tmux.bash"

need_onnx_python " (apt-get install python3-onnx)"

dir=$NNAV_TMP/tui_hostile_open.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
ops="ConvTranspose ConvInteger QLinearConv SequenceConstruct MaxPool Conv"
# shellcheck disable=SC2086
"$py" "$NNAV_SRC/tests/cli/op_sweep.py" "$dir" $ops > /dev/null || fail "op_sweep.py failed"

for op in $ops; do
    start 120 30 "$dir/$op.onnx"
    wait_ready
    wait_for "name n1"
    no_text "nnav exited"
    # Down the node list to its end: the detail follows each node.
    keys j j j
    wait_for "#3 in main"
    keys End
    wait_gone "#3 in main"
    wait_gone "node #0 of"
    # The typed view off and on again, then into the detail pane.
    keys T
    keys T
    keys Tab
    keys j j j j
    no_text "nnav exited"
    pass "$op: opens, moves and toggles types"
    quit_clean
done
