#!/usr/bin/env bash
# The explorer on a model in a Hugging Face cache (snapshots/REV/FILE ->
# ../../blobs/SHA256, as huggingface_hub makes them): the initializer pane and
# the detail say `external (HF blob)`, the detail previews the weights'
# values and m computes their min/max/mean. A data file linked into another
# repository's blobs/ is refused naming --follow-links; `nnav --follow-links
# MODEL` reads it.
. "$(dirname "$0")/tmux.bash"

T=$NNAV_TMP/tui_hf_cache
rm -rf "$T"
R=$T/hub/models--org--mlp
REV=0123456789abcdef0123456789abcdef01234567
mkdir -p "$R/blobs" "$R/refs" "$R/snapshots/$REV" "$R/snapshots/cross" "$T/hub/models--org--other/blobs"
msha=$(sha256sum < "$NNAV_SAMPLES/external.onnx" | cut -c1-64)
dsha=$(sha256sum < "$NNAV_SAMPLES/external.onnx.data" | cut -c1-64)
cp "$NNAV_SAMPLES/external.onnx" "$R/blobs/$msha"
cp "$NNAV_SAMPLES/external.onnx.data" "$R/blobs/$dsha"
ln -s "../../blobs/$msha" "$R/snapshots/$REV/external.onnx"
ln -s "../../blobs/$dsha" "$R/snapshots/$REV/external.onnx.data"
cp "$NNAV_SAMPLES/external.onnx.data" "$T/hub/models--org--other/blobs/$dsha"
ln -s "../../blobs/$msha" "$R/snapshots/cross/external.onnx"
ln -s "../../../models--org--other/blobs/$dsha" "$R/snapshots/cross/external.onnx.data"

start 200 32 "$R/snapshots/$REV/external.onnx"
wait_ready
keys Tab Tab
wait_for "tensor fc1.weight"
expect_line "fc1.bias  float32" "external (HF blob) external"
wait_for "storage  external (HF blob) external.onnx.data @0 +32768"
wait_for "{0.0499543, -0.013959"
no_text "unreadable"
pass "HF layout: storage says HF blob, the detail previews the values"
keys m
wait_for "min -0.124986  max 0.124995  mean 0.000587268"
pass "HF layout: m computes min/max/mean"
quit_clean

start 200 32 "$R/snapshots/cross/external.onnx"
wait_ready
keys Tab Tab
wait_for "tensor fc1.weight"
keys m
wait_for "--follow-links"
no_text "min -0.124986"
pass "a link into another repository's blobs/ is refused naming --follow-links"
quit_clean

# `nnav --follow-links MODEL`: start runs $NNAV_BIN MODEL, so through a wrapper.
W=$T/nnav-follow
printf '#!/bin/sh\nexec %q --follow-links "$@"\n' "$NNAV_BIN" > "$W"
chmod +x "$W"
NNAV_BIN=$W start 200 32 "$R/snapshots/cross/external.onnx"
wait_ready
keys Tab Tab
wait_for "storage  external (link) external.onnx.data @0 +32768"
keys m
wait_for "min -0.124986  max 0.124995  mean 0.000587268"
pass "nnav --follow-links MODEL reads it"
quit_clean
