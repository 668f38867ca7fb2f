#!/usr/bin/env bash
# nnav diff across formats (issue 31 item 8): a store of tensors on either
# side compares tensors alone. Files written by torch (torch.save of a
# state_dict, torch.onnx.export), by safetensors_gen.py's layout and by
# gguf_gen.py's GGUF writer (tests/cli/diff_weights_gen.py); torch is the
# oracle for values (how many elements differ, the largest |b - a|), ggml's
# reference dequantisation (gguf_gen.py's numpy port) for q8_0, onnx's
# numpy_helper for which initializer is which state_dict key transposed:
#  (a) a state_dict against the same tensors in safetensors: the one stored
#      as BF16 is "dtype, values" with torch's count and largest difference,
#      nothing else; exit 1; the same file against itself 0;
#  (b) +0.5 at one element, a tensor left out and one added: exactly those,
#      the element's coordinates and both values;
#  (c) transformers' names against llama.cpp's (safetensors and GGUF): every
#      tensor "renamed" to the name the oracle's table gives, none added or
#      removed; the GGUF's q8_0 and f16 tensors compared with their
#      dequantised values (differing elements and largest difference as the
#      oracle computes them), its f32 ones equal;
#  (d) torch.onnx.export's initializers against the state_dict: equal names
#      unlisted, each onnx::MatMul_N "renamed, transposed" from the key whose
#      transpose it is, the keys the export dropped "removed";
#  (e) two GGUF files: blocks of another type are "dtype q4_K -> q6_K" (not
#      "unread"), and one byte changed inside a q4_K tensor is found (block
#      types' bytes were once never compared) with the count of differing
#      elements ggml's dequantisation of the two payloads gives; a
#      big-endian file's values equal the little-endian one's;
#  (e2) float32 against BF16 of 4,300,800 elements, compared element by
#      element over the map: torch's count and largest difference;
#  (f) --no-values pairs by name only; ONNX against TensorFlow still exit 2.
set -u
. "$(dirname "$0")/lib.bash"
need_torch yaml
py=/usr/bin/python3
"$py" -c 'import onnx, numpy' 2> /dev/null || { echo "SKIP: no onnx/numpy beside torch"; exit 77; }
T=$NNAV_TMP/diff_weights; rm -rf "$T"; mkdir -p "$T"
"$py" "$NNAV_SRC/tests/cli/diff_weights_gen.py" "$T" > "$T/gen.log" 2>&1 ||
    { fail "diff_weights_gen.py: $(grep -v Warn "$T/gen.log" | tail -3)"; finish; }
O=$T/oracle.json
D() { expect_status "$1" "$NNAV_BIN" diff "${@:2}"; }
# ycheck FILE EXPR: EXPR (python over y = the YAML, o = the oracle, t = the
# initializers by name_b or name_a) holds.
ycheck() {
    CHECKS=$((CHECKS + 1))
    "$py" - "$1" "$O" "$2" > "$T/ycheck.err" 2>&1 <<'PY' || fail "YAML: $2: $(head -c 700 "$T/ycheck.err")"
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
o = json.load(open(sys.argv[2]))
inits = [i for g in y["graphs"] for i in g["initializers"]]
t = {(i["name_b"] if i["name_b"] is not None else i["name_a"]): i for i in inits}
if not eval(sys.argv[3]):
    print("no; initializers:", json.dumps(inits)[:600])
    sys.exit(1)
PY
}

# ---- (a) ----
D 0 "$T/hf.safetensors" "$T/hf.safetensors"
D 0 "$T/hf.pt" "$T/hf.pt"
D 1 "$T/hf.pt" "$T/hf.safetensors"
grep -qxF 'A: '"$T"'/hf.pt (PyTorch checkpoint)' "$OUT" || fail "A's format named: $(sed -n 2p "$OUT")"
grep -q '^tensors alone compared' "$OUT" || fail "the text says nodes are not compared"
grep -q '^nodes:' "$OUT" && fail "no node counts across formats: $(grep '^nodes' "$OUT")"
grep -qxE '~ initializer model\.norm\.weight  bfloat16\[32\]  dtype float32\[32\] -> bfloat16\[32\], values' "$OUT" ||
    fail "the BF16 tensor: $(grep initializer "$OUT")"
[ "$(grep -c '^[-+~] initializer' "$OUT")" = 1 ] || fail "one initializer line: $(grep -c '^[-+~] initializer' "$OUT")"
D 1 "$T/hf.pt" "$T/hf.safetensors" --yaml
ycheck "$OUT" 'y["totals"]["weights_only"] is True and y["format_a"] == "PyTorch checkpoint" and y["format_b"] == "safetensors" and y["facts"] == [] and len(inits) == 1'
ycheck "$OUT" 'inits[0]["change"] == ["dtype", "values"] and inits[0]["differing_elements"] == o["bf16"]["differing"] and inits[0]["max_abs"] == o["bf16"]["max_abs"]'
D 1 "$T/hf.pt" "$T/hf.safetensors" --no-values --yaml  # the storage type is a record's
ycheck "$OUT" 'len(inits) == 1 and inits[0]["change"] == ["dtype"]'

# ---- (b) ----
D 1 "$T/hf.pt" "$T/edit.safetensors" --yaml
ycheck "$OUT" 'len(inits) == 3 and t[o["edit"]["removed"]]["change"] == ["removed"] and t[o["edit"]["added"]]["change"] == ["added"]'
ycheck "$OUT" 't[o["edit"]["name"]]["change"] == ["values"] and t[o["edit"]["name"]]["differing_elements"] == o["edit"]["differing"] == 1 and t[o["edit"]["name"]]["max_abs"] == o["edit"]["max_abs"] and t[o["edit"]["name"]]["max_abs_at"] == o["edit"]["at"] and t[o["edit"]["name"]]["value_a"] == o["edit"]["a"] and t[o["edit"]["name"]]["value_b"] == o["edit"]["b"] and t[o["edit"]["name"]]["elements"] == o["edit"]["elements"]'
D 1 "$T/hf.pt" "$T/edit.safetensors"
grep -qE '^    1 of 2,048 elements differs$' "$OUT" || fail "edit: 1 of 2,048: $(grep differ "$OUT")"
D 1 "$T/hf.pt" "$T/edit.safetensors" --tolerance 0.5 --yaml  # the +0.5 is within it; the rest stays
ycheck "$OUT" 'len(inits) == 2 and o["edit"]["name"] not in t'

# ---- (c) ----
D 1 "$T/hf.pt" "$T/cpp.safetensors" --yaml
ycheck "$OUT" 'len(inits) == len(o["names"]) and all(i["change"] == ["renamed"] and o["cpp"][i["name_a"]] == i["name_b"] for i in inits)'
ycheck "$OUT" 'y["totals"]["initializers_added"] == 0 and y["totals"]["initializers_removed"] == 0 and y["totals"]["initializers_renamed"] == len(o["names"])'
D 1 "$T/cpp.safetensors" "$T/hf.pt" --yaml  # the other way round
ycheck "$OUT" 'all(i["change"] == ["renamed"] and o["cpp"][i["name_b"]] == i["name_a"] for i in inits) and len(inits) == len(o["names"])'
D 1 "$T/hf.pt" "$T/cpp.gguf" --yaml
ycheck "$OUT" 'len(inits) == len(o["gguf"]) and all(i["name_a"] == o["gguf"][i["name_b"]]["from"] for i in inits)'
ycheck "$OUT" 'all(i["change"] == ["renamed"] for i in inits if o["gguf"][i["name_b"]]["type"] == "f32") and all(o["gguf"][k]["differing"] == 0 for k in o["gguf"] if o["gguf"][k]["type"] == "f32")'
ycheck "$OUT" 'all(i["change"] == ["renamed", "dtype", "values"] and i["type_b"].startswith({"f16": "float16"}.get(o["gguf"][i["name_b"]]["type"], o["gguf"][i["name_b"]]["type"]) + "[") and i["differing_elements"] == o["gguf"][i["name_b"]]["differing"] and i["max_abs"] == o["gguf"][i["name_b"]]["max_abs"] for i in inits if o["gguf"][i["name_b"]]["type"] != "f32")'
ycheck "$OUT" 'sum(1 for i in inits if i["type_b"].startswith("q8_0[")) == 2'

# ---- (d) ----
D 1 "$T/lin.pt" "$T/lin.onnx"
for k in $("$py" -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["onnx"]["transposed"]))' "$O"); do
    from=$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["onnx"]["transposed"][sys.argv[2]])' "$O" "$k")
    grep -qE "^~ initializer $k  float32\[[0-9,]+\]  renamed $from -> $k, transposed float32\[" "$OUT" ||
        fail "ONNX: $k renamed from $from, transposed: $(grep "$k" "$OUT")"
done
D 1 "$T/lin.pt" "$T/lin.onnx" --yaml
ycheck "$OUT" 'sorted(i["name_a"] for i in inits if i["change"] == ["removed"]) == o["onnx"]["removed"] and {i["name_b"]: i["name_a"] for i in inits if i["change"] == ["renamed", "transposed"]} == o["onnx"]["transposed"] and len(inits) == len(o["onnx"]["removed"]) + len(o["onnx"]["transposed"])'
ycheck "$OUT" 'not any(i["name_b"] in o["onnx"]["same"] for i in inits if i["name_b"])'
D 1 "$T/lin.onnx" "$T/lin.pt" --yaml
ycheck "$OUT" '{i["name_a"]: i["name_b"] for i in inits if i["change"] == ["renamed", "transposed"]} == o["onnx"]["transposed"]'

# ---- (e) two GGUF files ----
G=$T/g; mkdir -p "$G"
"$py" "$NNAV_SRC/tests/cli/gguf_gen.py" "$G" > /dev/null 2>&1 || fail "gguf_gen.py"
D 1 "$G/llama.gguf" "$G/llama_mixed.gguf"
grep -q 'differ in length' "$OUT" && fail "q4_K against q6_K read as one type: $(grep -B1 'differ in length' "$OUT" | head -2)"
grep -qE '^~ initializer blk\.3\.attn_q\.weight  q6_K\[256,256\]  dtype q4_K\[256,256\] -> q6_K\[256,256\], values$' "$OUT" ||
    fail "blk.3.attn_q: $(grep 'blk.3.attn_q' "$OUT")"
# One byte of blk.2.attn_q.weight's codes changed; the oracle dequantises both.
"$py" - "$G" "$NNAV_SRC/tests/cli" > "$T/flip.json" <<'PY' || fail "flipping a byte: $(cat "$T/flip.json")"
import json, sys
sys.path.insert(0, sys.argv[2])
import numpy as np
import gguf_gen
e = json.load(open(sys.argv[1] + "/expect.json"))["llama.gguf"]
t = [x for x in e["tensors"] if x["name"] == "blk.2.attn_q.weight"][0]
data = bytearray(open(sys.argv[1] + "/llama.gguf", "rb").read())
at = e["data_start"] + t["offset"] + 100  # inside the first block's codes
a = bytes(data[e["data_start"] + t["offset"]:][:t["bytes"]])
data[at] ^= 0x5a
b = bytes(data[e["data_start"] + t["offset"]:][:t["bytes"]])
open(sys.argv[1] + "/flip.gguf", "wb").write(data)
n = int(np.prod(t["dims"]))
x = gguf_gen.dequant(t["type"], a, n).astype(np.float32)
y = gguf_gen.dequant(t["type"], b, n).astype(np.float32)
print(json.dumps({"differing": int((x != y).sum()), "max_abs": float(np.max(np.abs(y - x)))}))
PY
D 1 "$G/llama.gguf" "$G/flip.gguf" --yaml
"$py" - "$OUT" "$T/flip.json" <<'PY' || fail "a changed q4_K byte: $(head -c 600 "$OUT")"
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1]))
o = json.load(open(sys.argv[2]))
inits = [i for g in y["graphs"] for i in g["initializers"]]
assert len(inits) == 1 and inits[0]["name_b"] == "blk.2.attn_q.weight", inits
assert inits[0]["change"] == ["values"], inits[0]
assert inits[0]["differing_elements"] == o["differing"] > 0, (inits[0]["differing_elements"], o)
assert inits[0]["max_abs"] == o["max_abs"], (inits[0]["max_abs"], o)
PY
CHECKS=$((CHECKS + 1))
D 0 "$G/llama.gguf" "$G/llama.gguf"
# The same values in a big-endian file (gguf_gen.py byte-swaps f32, f16,
# bf16 and i32): equal, though their bytes are not.
D 0 "$G/small_v3.gguf" "$G/small_be.gguf"

# ---- a pair of two storage types past what is decoded into memory ----
D 1 "$T/wide.pt" "$T/wide.safetensors" --yaml
ycheck "$OUT" 'len(inits) == 1 and inits[0]["change"] == ["dtype", "values"] and inits[0]["elements"] == o["wide"]["elements"] > 4194304 and inits[0]["differing_elements"] == o["wide"]["differing"] and inits[0]["max_abs"] == o["wide"]["max_abs"]'

# ---- (f) ----
D 1 "$T/hf.pt" "$T/cpp.safetensors" --no-values --yaml
ycheck "$OUT" 'y["totals"]["bytes_compared"] == 0 and all(i["change"] == ["renamed"] for i in inits)'
D 1 "$T/lin.pt" "$T/lin.onnx" --no-values --yaml  # no payload read: transposes are not sought
ycheck "$OUT" 'not any("transposed" in i["change"] for i in inits) and y["totals"]["bytes_compared"] == 0'
D 2 "$NNAV_SAMPLES/cnn.onnx" "$NNAV_SAMPLES/tf_saved_model"
grep -qi 'format' "$ERR" || fail "ONNX against TensorFlow: $(cat "$ERR")"
finish
