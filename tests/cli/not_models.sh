#!/usr/bin/env bash
# Files that are not models, made by the real tools that make them (gzip, xz,
# bzip2, zstd, tar, zip, numpy, pickle) or byte for byte from their format's
# header (safetensors, GGUF, TFLite, HDF5), are each named for what they are,
# with what to do, exit 2, and no protobuf jargon ("wire type", "field N")
# and no " at offset 0". A real model still opens.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/not_models
rm -rf "$T"
mkdir -p "$T"
M=$NNAV_SAMPLES/cnn.onnx

# kind FILE REGEX: nnav info FILE exits 2 and its message matches REGEX.
kind() {
    local f=$1 re=$2
    expect_status 2 "$NNAV_BIN" info "$f"
    grep -qE -- "$re" "$ERR" || fail "$(basename "$f"): wanted /$re/, got: $(head -c 300 "$ERR")"
    grep -qE 'wire type|field [0-9]|at offset 0$' "$ERR" &&
        fail "$(basename "$f"): protobuf jargon or a meaningless offset: $(head -c 300 "$ERR")"
}

printf 'hello, this is a README\nwith two lines\n' > "$T/notes.txt"
kind "$T/notes.txt" 'this is a text file, not a model'
printf '{"model": "resnet", "layers": [1, 2, 3]}\n' > "$T/config.json"
kind "$T/config.json" 'this is a JSON file'
printf '  [1, 2, 3]\n' > "$T/list.json"
kind "$T/list.json" 'this is a JSON file'
printf 'model:\n  name: resnet\n  layers: 3\n' > "$T/config.yaml"
kind "$T/config.yaml" 'this is a YAML file'
printf 'ir_version: 8\ngraph {\n  node {\n    op_type: "Relu"\n  }\n}\n' > "$T/model.pbtxt"
kind "$T/model.pbtxt" 'protobuf text format'
"$NNAV_BIN" export "$M" > "$T/export.yaml" 2> /dev/null
kind "$T/export.yaml" 'this is a YAML file'

gzip -c "$M" > "$T/model.onnx.gz"
kind "$T/model.onnx.gz" 'gzip-compressed file: gunzip it first'
# compressor EXT REGEX TOOL ARGS...: a model compressed by TOOL, if installed.
compressor() {
    local ext=$1 re=$2 tool=$3
    shift 3
    if command -v "$tool" > /dev/null; then
        "$tool" "$@" < "$M" > "$T/model.onnx.$ext"
        kind "$T/model.onnx.$ext" "$re"
    else
        echo "SKIP (partly): no $tool: its files are not checked"
    fi
}
compressor xz 'xz-compressed file: unxz it first' xz -c
compressor bz2 'bzip2-compressed file: bunzip2 it first' bzip2 -c
compressor zst 'zstd-compressed file' zstd -q -c
(cd "$NNAV_SAMPLES" && tar cf "$T/models.tar" cnn.onnx)
kind "$T/models.tar" 'tar archive: extract it first'

py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import numpy' 2> /dev/null; then py=$c; break; fi
done
if [ -n "$py" ]; then
    "$py" - "$T" "$M" << 'EOF'
import io, os, pickle, struct, sys, zipfile
import numpy as np
t, m = sys.argv[1], sys.argv[2]
np.save(os.path.join(t, "a.npy"), np.arange(6, dtype=np.float32))
np.savez(os.path.join(t, "a.npz"), w=np.zeros(3))
with zipfile.ZipFile(os.path.join(t, "model.zip"), "w") as z:
    z.write(m, "cnn.onnx")
with zipfile.ZipFile(os.path.join(t, "other.zip"), "w") as z:
    z.writestr("readme.txt", "hi")
# torch.save's zip layout: ARCHIVE/data.pkl first, stored.
with zipfile.ZipFile(os.path.join(t, "ckpt.pt"), "w", zipfile.ZIP_STORED) as z:
    z.writestr("ckpt/data.pkl", pickle.dumps({"w": 1}, protocol=2))
    z.writestr("ckpt/version", "3\n")
with open(os.path.join(t, "legacy.pt"), "wb") as f:
    pickle.dump({"state_dict": {"w": [1.0, 2.0]}}, f, protocol=2)
hdr = b'{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}'
with open(os.path.join(t, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(hdr)) + hdr + struct.pack("<2f", 1, 2))
with open(os.path.join(t, "model.gguf"), "wb") as f:
    f.write(b"GGUF" + struct.pack("<IQQ", 3, 0, 0))
with open(os.path.join(t, "model.tflite"), "wb") as f:
    f.write(struct.pack("<I", 16) + b"TFL3" + bytes(24))
with open(os.path.join(t, "weights.h5"), "wb") as f:
    f.write(b"\x89HDF\r\n\x1a\n" + bytes(64))
EOF
    kind "$T/a.npy" 'NumPy .npy array'
    kind "$T/a.npz" 'NumPy .npz archive'
    kind "$T/model.zip" 'zip archive holding a model: unzip it'
    kind "$T/other.zip" 'zip archive, not a model: unzip it first'
    # Since issue 19 torch.save's zip opens: its pickle read, nothing in it run.
    expect_status 0 "$NNAV_BIN" info "$T/ckpt.pt"
    grep -q 'format *PyTorch checkpoint' "$OUT" || fail "ckpt.pt: not read as a PyTorch checkpoint"
    kind "$T/legacy.pt" 'Python pickle, not a checkpoint nnav opens: .nnav scan FILE. lists what unpickling it would run'
    # Since issue 31 a safetensors file opens.
    expect_status 0 "$NNAV_BIN" info "$T/model.safetensors"
    grep -q 'format *safetensors' "$OUT" || fail "model.safetensors: not read as safetensors"
    # Since issue 31 a GGUF file opens (this one: no tensors, no metadata).
    expect_status 0 "$NNAV_BIN" info "$T/model.gguf"
    grep -q 'format *GGUF' "$OUT" || fail "model.gguf: not read as GGUF"
    kind "$T/model.tflite" 'TensorFlow Lite model'
    kind "$T/weights.h5" 'HDF5 file'
else
    echo "SKIP (partly): no python3 with numpy: npy, npz, zip, pickle, safetensors, GGUF, TFLite, HDF5 not checked"
fi

# Real models are still models.
for f in "$NNAV_SAMPLES"/*.onnx "$NNAV_SAMPLES"/tf_graph.pb "$NNAV_SAMPLES"/tf_saved_model; do
    expect_status 0 "$NNAV_BIN" info "$f"
done
finish
