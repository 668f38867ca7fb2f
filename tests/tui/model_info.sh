#!/usr/bin/env bash
# i shows the model's details as 'nnav info' prints them, from the same
# function (issue 13, item 4): the header shortens nine opset domains to
# "opset 16 +8 domains", and the details list every one, with the whole path.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_model_info.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
command -v python3 > /dev/null || skip "no python3 to write the nine-domain model"

# A two-node model importing nine opset domains, written as protobuf bytes
# (no onnx package needed).
python3 - "$dir/manyops.onnx" << 'PY'
import sys
def varint(n):
    out = b""
    while True:
        b = n & 0x7f
        n >>= 7
        out += bytes([b | (0x80 if n else 0)])
        if not n:
            return out
def field(num, payload):  # length-delimited
    return varint(num << 3 | 2) + varint(len(payload)) + payload
def vint(num, n):
    return varint(num << 3) + varint(n)
s = lambda t: t.encode()
node = lambda i, o: field(1, s(i)) + field(2, s(o)) + field(4, b"Relu")
graph = (field(1, node("x", "y")) + field(1, node("y", "z")) + field(2, b"g")
         + field(11, field(1, b"x")) + field(12, field(1, b"z")))
doms = ["", "ai.onnx.ml", "com.microsoft", "com.microsoft.experimental",
        "ai.onnx.preview.training", "com.ms.internal.nhwc", "ai.onnx.training",
        "org.pytorch.aten", "com.microsoft.nchwc"]
model = vint(1, 8)
for d in doms:
    model += field(8, (field(1, s(d)) if d else b"") + vint(2, 16 if not d else 3))
model += field(7, graph)
open(sys.argv[1], "wb").write(model)
PY

"$NNAV_BIN" info "$dir/manyops.onnx" | grep -q "com.microsoft.nchwc 3" \
    || fail "nnav info does not list com.microsoft.nchwc"
start 120 30 "$dir/manyops.onnx"
wait_ready
expect_line "nnav " "opset 16 +8 domains"
keys i
wait_for "model details"
wait_for "opset_import"
for d in ai.onnx.ml com.microsoft com.microsoft.experimental ai.onnx.preview.training \
         com.ms.internal.nhwc ai.onnx.training org.pytorch.aten com.microsoft.nchwc; do
    screen | grep -qE "(^|[ ,])$d( |,|$)" || fail "the details lack opset domain $d"
done
# The whole path, which the header leaves out. The overlay wraps a long path
# (the checkout may sit deep), so it is looked for with the screen's line
# breaks, blanks and frame characters taken out.
wait_for "manyops.onnx"
flat=$(screen | sed 's/[│║ ]//g' | tr -d '\n')
want=$(printf '%s' "$dir/manyops.onnx (241 bytes)" | tr -d ' ')
case "$flat" in *"$want"*) ;; *) fail "the details lack the whole path $dir/manyops.onnx" ;; esac
wait_for "2 in the main graph, 2 in all graphs"
# The weight figures name what they count, as info's do (issue 15, item 9).
wait_for "parameters     0 in the main graph, 0 in all graphs"
pass "i lists all nine opset domains, the whole path and the counts"
keys Escape
wait_gone "model details"
expect_line "nnav " "opset 16 +8 domains"
pass "Esc closes the details"
quit_clean
