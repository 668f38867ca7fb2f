#!/usr/bin/env bash
# What e offers (issue 13, item 10): a TensorFlow model can be written as
# YAML only, so its prompt says so, Tab does not switch to .onnx, and a typed
# .onnx name is refused before anything is written, with the reason. The
# suggested name is the plain MODEL-GRAPH.yaml even when it exists (no
# -2/-3 numbering); Enter on an existing name asks y/n, Esc keeps the file.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_export_offer.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cd "$dir" || fail "cannot enter $dir"

# ---- a TensorFlow GraphDef: YAML only ----
start 120 30 "$NNAV_SAMPLES/tf_graph.pb"
wait_ready
keys e
wait_for "to: tf_graph-main.yaml"
wait_for "as YAML (ONNX only from ONNX models)"
no_text "Tab: .onnx"
keys Tab
wait_for "to: tf_graph-main.yaml"
no_text "tf_graph-main.onnx"
pass "TensorFlow: the prompt offers YAML only, Tab keeps .yaml"

keys C-u
typ "tf.onnx"
wait_for "not .onnx: a TensorFlow model exports as YAML"
keys Enter
wait_for "export refused: ONNX is written from ONNX models only; this TensorFlow model exports as YAML"
[ ! -e tf.onnx ] || fail "tf.onnx was written"
[ -z "$(ls -A .)" ] || fail "the refusal left files: $(ls -A .)"
pass "TensorFlow: a .onnx name is refused at once with the reason, nothing written"

keys e
wait_for "to: tf_graph-main.yaml"
keys Enter
wait_for "wrote tf_graph-main.yaml ("
expect_line "wrote tf_graph-main.yaml" "YAML)"
grep -q '^graph:' tf_graph-main.yaml || fail "tf_graph-main.yaml holds no graph"
before=$(cksum < tf_graph-main.yaml)
pass "TensorFlow: Enter writes the YAML suggested"

# ---- the same name again: plain, and the question ----
keys e
wait_for "to: tf_graph-main.yaml"
no_text "tf_graph-main-2"
keys Enter
wait_for "tf_graph-main.yaml exists: overwrite? y/n"
keys Escape
wait_for "export cancelled"
[ "$(cksum < tf_graph-main.yaml)" = "$before" ] || fail "Esc changed tf_graph-main.yaml"
[ "$(ls -A . | wc -l)" -eq 1 ] || fail "other files appeared: $(ls -A .)"
keys e Enter
wait_for "overwrite? y/n"
keys y
wait_for "wrote tf_graph-main.yaml ("
pass "the suggestion stays tf_graph-main.yaml when it exists; Enter asks, Esc keeps it, y writes"
quit_clean

# ---- an ONNX model: both formats, and no numbering after existing names ----
: > cnn-main.yaml
: > cnn-main-2.yaml
start 120 30 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
keys e
wait_for "to: cnn-main.yaml"
wait_for "Tab: .onnx"
keys Tab
wait_for "to: cnn-main.onnx"
keys Enter
wait_for "wrote cnn-main.onnx ("
keys e
wait_for "to: cnn-main.onnx"          # the format written last, the same plain name
no_text "cnn-main-2.onnx"
no_text "cnn-main-3"
keys Escape
wait_for "export cancelled"
pass "ONNX: Tab offers .onnx; the next suggestion is the plain cnn-main.onnx"
quit_clean
