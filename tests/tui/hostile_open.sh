#!/usr/bin/env bash
# The explorer opens models whose attributes sit at edge integers (from
# tests/cli/op_sweep.py) and stays up: the Release build used to die at open
# on ConvTranspose, ConvInteger, QLinearConv and SequenceConstruct, before
# drawing anything, because inference read an attribute as a symbolic dim.
# Each model: the four panes and its node count show, moving through the
# nodes and the detail works, the typed view toggles, and q quits cleanly.
. "$(dirname "$0")/tmux.bash"

py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx' 2> /dev/null; then py=$c; break; fi
done
[ -n "$py" ] || skip "no python3 with the onnx package (apt-get install python3-onnx)"

dir=$NNAV_TMP/tui_hostile_open.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
ops="ConvTranspose ConvInteger QLinearConv SequenceConstruct MaxPool Conv"
# shellcheck disable=SC2086
"$py" "$NNAV_SRC/tests/cli/op_sweep.py" "$dir" $ops > /dev/null || fail "op_sweep.py failed"

for op in $ops; do
    start 120 30 "$dir/$op.onnx"
    wait_ready
    wait_for "sweep_$op"
    no_text "nnav exited"
    keys Tab
    keys j j j j j J J J J End
    keys Tab Tab
    keys T
    keys T
    keys Tab
    keys Home
    wait_for "n1 "
    no_text "nnav exited"
    pass "$op: opens, moves and toggles types"
    quit_clean
done
