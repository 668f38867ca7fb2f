#!/usr/bin/env bash
# A model rewritten on disk while the explorer has it open, its size kept:
# the index no longer matches the bytes, so values, statistics and export
# would show or write other data. The status line says the file changed
# (even with no key pressed), and m and e are refused with that reason
# instead of acting; moving about and quitting still work. Then the same
# with the file replaced under its name (a new file renamed over it), and
# with it removed.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_changed.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cd "$dir" || fail "cannot enter $dir"

size=$(wc -c < "$NNAV_SAMPLES/cnn.onnx" | tr -d ' ')

# open_on_weights: the explorer on a fresh copy, the cursor on conv2.weight.
open_on_weights() {
    cp "$NNAV_SAMPLES/cnn.onnx" "$dir/model.onnx"
    start 120 30 "$dir/model.onnx"
    wait_ready
    keys Tab Tab
    wait_for "tensor 1/9"
    wait_for "tensor conv2.weight"
}

# expect_refused WHY: the status line and m / e say the file changed.
expect_refused() {
    local why=$1
    wait_for "model.onnx changed on disk ($why)"
    keys m
    wait_for "model.onnx changed on disk ($why): not read again; reopen it"
    no_text "min/max/mean:"
    keys e
    wait_for "model.onnx changed on disk ($why): not read again; reopen it"
    no_text "export graph"
    # Another tensor's values are not previewed from the changed file.
    keys j
    wait_for "(not read: the file changed on disk)"
    no_text "nnav exited"
}

# ---- written in place, same size ----
open_on_weights
# A moment later than the copy, so the modification time moves on every
# file system; then the weights' bytes overwritten, the size kept.
sleep 0.05
printf 'nnav was here, in the middle of the weights' |
    dd of="$dir/model.onnx" bs=1 seek=$((size - 400)) conv=notrunc status=none
[ "$(wc -c < "$dir/model.onnx" | tr -d ' ')" = "$size" ] || fail "the rewrite changed the size"
expect_refused "it was written to"
pass "rewritten in place (same size): said on the status line, m and e refused"
quit_clean
[ ! -e "$dir/cnn-main.yaml" ] || fail "an export was written from the changed file"

# ---- replaced under its name ----
open_on_weights
cp "$NNAV_SAMPLES/cnn.onnx" "$dir/new.onnx"
mv "$dir/new.onnx" "$dir/model.onnx"
expect_refused "another file took its name"
pass "replaced by rename: said, m and e refused"
quit_clean

# ---- removed ----
open_on_weights
rm "$dir/model.onnx"
expect_refused "it was removed or renamed"
pass "removed: said, m and e refused"
quit_clean

# ---- changed while the export prompt is open ----
open_on_weights
keys e
wait_for "to: model-main.yaml"
sleep 0.05
printf 'x' | dd of="$dir/model.onnx" bs=1 seek=$((size - 400)) conv=notrunc status=none
keys Enter
wait_for "changed on disk (it was written to): not read again; reopen it"
[ ! -e "$dir/model-main.yaml" ] || fail "the export was written after the file changed"
pass "changed while the file name was typed: the export is refused"
quit_clean

# ---- untouched: nothing said, m works ----
open_on_weights
keys m
wait_for "stats    min -0.0829568  max 0.0829878"
no_text "changed on disk"
pass "an untouched file: no warning, m works"
quit_clean
