#!/usr/bin/env bash
# A model cut short while the explorer has it open: m on a tensor is refused
# (its size changed since it was opened, so its bytes are not what the index
# says) and moving about (drawing names from lost pages) neither crashes nor
# hangs; the status line says so; q still quits cleanly. Then the same with
# the file emptied altogether.
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
    # The weights lie past the cut.
    truncate -s "$cut" "$dir/model.onnx"
    keys m
    wait_for "model.onnx changed on disk (its size changed): not read again; reopen it"
    no_text "stats    min "
    no_text "nnav exited"
    pass "cut to $cut bytes: m on a tensor is refused, the file's change said"
    # Every pane is redrawn from the lost pages (names show as zero bytes,
    # escaped); another tensor, and m again.
    keys G k
    wait_for "(16 elements)"
    wait_for "the file shrank while open: what is shown may be stale"
    keys m
    wait_for "model.onnx changed on disk (its size changed): not read again; reopen it"
    no_text "nnav exited"
    pass "cut to $cut bytes: moving about and m again, still running"
    quit_clean
done
