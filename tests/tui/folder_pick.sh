#!/usr/bin/env bash
# A folder that is no one model (issue 32 item 4): `nnav FOLDER` lists the
# model files it holds, and its folders' (a folder that is one model, such as
# a SavedModel, as one row), each with its reader and size, sorted by name;
# the move keys and Enter open the one chosen in the explorer; q quits with
# status 0. The CLI's refusal lists the same files.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_folder_pick.$$
mkdir -p "$dir/sm"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cp "$NNAV_SAMPLES/cnn.onnx" "$NNAV_SAMPLES/control_flow.onnx" "$dir/"
cp -r "$NNAV_SAMPLES/tf_saved_model/." "$dir/sm/"
"$NNAV_BIN" info "$dir" > /dev/null 2> "$dir/err"
grep -q "a folder of 3 model files, not one model: give one of them (cnn.onnx (ONNX, 23.4 KB), control_flow.onnx (ONNX, 2.6 KB), sm/saved_model.pb (TensorFlow, " "$dir/err" ||
    fail "the CLI's listing: $(cat "$dir/err")"
start 100 20 "$dir"
wait_for "a folder of 3 model files, not one model"
expect_line "cnn.onnx" "ONNX"
expect_line "sm/saved_model.pb" "TensorFlow"
pass "the folder's model files listed with reader and size"
keys j Enter
wait_for "control_flow.onnx  ONNX"
wait_ready
pass "Enter opens the one chosen"
quit_clean
start 100 20 "$dir"
wait_for "a folder of 3 model files"
quit_clean
