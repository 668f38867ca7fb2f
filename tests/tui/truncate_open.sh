#!/usr/bin/env bash
# A model cut short while the explorer has it open: reading values (m on a
# tensor) and moving about neither crash nor hang; the status line says the
# file shrank and what is shown may be stale; q still quits cleanly. Then
# the same with the file emptied altogether.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_truncate.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT

for cut in 1000 0; do
    cp "$NNAV_SAMPLES/cnn.onnx" "$dir/model.onnx"
    start 100 30 "$dir/model.onnx"
    wait_ready
    keys Tab Tab
    wait_for "tensor 1/9"
    wait_for "tensor conv2.weight"
    # The weights lie past the cut: computing their statistics touches pages
    # that are gone.
    truncate -s "$cut" "$dir/model.onnx"
    keys m
    wait_for "min/max/mean: the model file shrank while its values were read"
    no_text "nnav exited"
    pass "cut to $cut bytes: m on a tensor reports the file shrank"
    # Every pane is redrawn from the lost pages (names show as zero bytes,
    # escaped); another tensor, and m again.
    keys G k
    wait_for "(16 elements)"
    wait_gone "min/max/mean:"
    keys m
    wait_for "min/max/mean: the model file shrank while its values were read"
    no_text "nnav exited"
    pass "cut to $cut bytes: moving about and m again, still running"
    quit_clean
done
