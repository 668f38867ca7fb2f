#!/usr/bin/env bash
# nnav meta MODEL [KEY] (issue 31 item 4): every key, or one value whole.
#  - GGUF files gguf_gen.py writes (every value type, v1 to v3, big-endian):
#    each key's value by `meta FILE KEY --yaml` equals what the writer put
#    and what Hugging Face's @huggingface/gguf parser reads (when installed;
#    gguf_oracle.js); an array's every item, in order; in text the items one
#    a line and nothing else (the vocabulary's line count is its size);
#  - safetensors __metadata__ against Python's json reading of the header,
#    with a control character (escaped in text, the bytes in YAML) and a
#    value of 20,000 bytes printed whole;
#  - ONNX metadata_props against onnx.load's, the same way;
#  - an unknown key: status 2 naming the closest; `nnav help meta`.
set -u
. "$(dirname "$0")/lib.bash"
need_python yaml numpy
T=$NNAV_TMP/meta; rm -rf "$T"; mkdir -p "$T"
here=$NNAV_SRC/tests/cli
"$py" "$here/gguf_gen.py" "$T" || { fail "gguf_gen.py"; finish; }
hf=${NNAV_HFGGUF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nnav/hfgguf}
files="small_v3.gguf small_v2.gguf small_v1.gguf small_be.gguf llama.gguf"
js=null
if command -v node > /dev/null 2>&1 &&
   node -e 'require(process.argv[1] + "/node_modules/@huggingface/gguf")' "$hf" 2> /dev/null; then
    # shellcheck disable=SC2086
    (cd "$T" && node "$here/gguf_oracle.js" "$hf" $files) > "$T/js.json" || fail "gguf_oracle.js"
    js=$T/js.json
else
    echo "note: no @huggingface/gguf at $hf: checked against the writer only"
fi

# ---- GGUF: every key, against the writer and the JS parser ----
k=0
for f in $files; do
    expect_status 0 "$NNAV_BIN" meta "$T/$f"
    grep -q '^  general.name ' "$OUT" || fail "meta $f lists the keys: $(head -5 "$OUT")"
    for key in $("$py" -c 'import json,sys; print(" ".join(kv["key"] for kv in json.load(open(sys.argv[1]))[sys.argv[2]]["kv"]))' "$T/expect.json" "$f"); do
        expect_status 0 "$NNAV_BIN" meta "$T/$f" "$key" --yaml
        cp "$OUT" "$T/one.yaml"
        expect_status 0 "$NNAV_BIN" meta "$T/$f" "$key"
        "$py" - "$T/one.yaml" "$OUT" "$T/expect.json" "$f" "$key" "$js" $k > "$T/cmp.txt" 2>&1 <<'PY' || fail "meta $f $key: $(head -c 600 "$T/cmp.txt")"
import json, sys, yaml
import numpy as np
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
text = open(sys.argv[2], encoding="utf-8").read()
f, key = sys.argv[4], sys.argv[5]
kv = {x["key"]: x for x in json.load(open(sys.argv[3]))[f]["kv"]}[key]
V_F32, V_STR, V_ARR, V_F64 = 6, 8, 9, 12
def same(t, want, got):
    if t == V_F32:
        return np.float32(got) == np.float32(want)
    if t == V_ARR:
        return isinstance(want, dict) and len(want["items"]) == got
    return got == want and type(got) is type(want)
assert y["key"] == key and y["section"] == "metadata", y
if kv["type"] == V_ARR:
    et, items = kv["value"]["type"], kv["value"]["items"]
    assert y["count"] == len(items), (y["count"], len(items))
    if et == V_ARR:  # arrays of arrays: each item's count in text
        pass
    else:
        assert len(y["items"]) == len(items) and all(same(et, w, g) for w, g in zip(items, y["items"])), (y["items"][:5], items[:5])
        lines = text.split("\n")
        assert lines[-1] == "" and len(lines) - 1 == len(items), (len(lines), len(items))
        if et == V_STR:
            assert lines[:-1] == items, (lines[:5], items[:5])
else:
    assert same(kv["type"], kv["value"], y["value"]), (y["value"], kv["value"])
    if kv["type"] == V_STR:
        assert text == kv["value"] + "\n", repr(text)
    elif kv["type"] in (V_F32, V_F64):
        assert float(text) == (float(np.float32(kv["value"])) if kv["type"] == V_F32 else kv["value"]), text
    elif isinstance(kv["value"], bool):
        assert text == ("true\n" if kv["value"] else "false\n"), text
    else:
        assert int(text) == kv["value"], text
if sys.argv[6] != "null":
    js = json.load(open(sys.argv[6]))[["small_v3.gguf", "small_v2.gguf", "small_v1.gguf", "small_be.gguf", "llama.gguf"].index(f)]["metadata"][key]
    if kv["type"] == V_ARR:
        assert len(js) == y["count"], (len(js), y["count"])
        if kv["value"]["type"] != V_ARR:
            got = y["items"]
            want = [int(v) if isinstance(v, str) and kv["value"]["type"] in (10, 11) else v for v in js]
            assert all(same(kv["value"]["type"], w, g) for w, g in zip(want, got)), (got[:4], want[:4])
    else:
        want = int(js) if isinstance(js, str) and kv["type"] in (10, 11) else js
        assert same(kv["type"], want, y["value"]) or (kv["type"] == V_F64 and js == y["value"]), (y["value"], js)
print("ok")
PY
        CHECKS=$((CHECKS + 1))
    done
    k=$((k + 1))
done
# The vocabulary whole, one token a line.
n=$("$NNAV_BIN" meta "$T/small_v3.gguf" tokenizer.ggml.tokens | wc -l)
[ "$n" = 300 ] || fail "tokenizer.ggml.tokens: $n lines, not 300"
expect_status 0 "$NNAV_BIN" meta "$T/small_v3.gguf" metadata.general.name
[ "$(cat "$OUT")" = "tiny test" ] || fail "SECTION.KEY: $(cat "$OUT")"

# ---- unknown keys, usage ----
expect_status 2 "$NNAV_BIN" meta "$T/llama.gguf" tokenizer.ggml.token
grep -q "no key 'tokenizer.ggml.token'; did you mean 'tokenizer.ggml.tokens'" "$ERR" || fail "unknown key: $(cat "$ERR")"
grep -q 'Try' "$ERR" && fail "an unknown key is no usage error"
expect_status 2 "$NNAV_BIN" meta "$T/llama.gguf" qqqqqqqqqqqq
grep -q "no key 'qqqqqqqqqqqq'; 'nnav meta MODEL' lists the keys" "$ERR" || fail "unknown key, nothing close: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" meta "$T/llama.gguf" general.name extra
expect_status 0 "$NNAV_BIN" meta --help
cp "$OUT" "$T/help.want"
expect_status 0 "$NNAV_BIN" help meta
cmp -s "$OUT" "$T/help.want" || fail "'nnav help meta' differs from 'nnav meta --help'"
grep -q '^Usage: nnav meta MODEL \[KEY\]' "$OUT" || fail "meta's usage line: $(head -1 "$OUT")"

# ---- safetensors __metadata__ ----
"$py" - "$T/st.safetensors" > "$T/st.json" <<'PY' || fail "writing the safetensors file"
import json, struct, sys
meta = {"format": "pt", "evil": "a\x1b[31mb\u202e", "long": "x" * 20000 + "END", "uni": "tiny-llama \u00e9"}
hdr = {"__metadata__": meta, "w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}
h = json.dumps(hdr).encode()
h += b" " * ((8 - len(h) % 8) % 8)
open(sys.argv[1], "wb").write(struct.pack("<Q", len(h)) + h + b"\0" * 8)
# The oracle: Python's json reading the header back from the file.
b = open(sys.argv[1], "rb").read()
print(json.dumps(json.loads(b[8:8 + struct.unpack("<Q", b[:8])[0]])["__metadata__"]))
PY
for key in format evil long uni; do
    expect_status 0 "$NNAV_BIN" meta "$T/st.safetensors" "$key" --yaml
    "$py" -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8")); want = json.load(open(sys.argv[2]))[sys.argv[3]]
assert y == {"section": "metadata", "key": sys.argv[3], "value": want}, (y, want[:40])' "$OUT" "$T/st.json" "$key" ||
        fail "safetensors $key YAML: $(head -c 300 "$OUT")"
    CHECKS=$((CHECKS + 1))
done
expect_status 0 "$NNAV_BIN" meta "$T/st.safetensors" long
[ "$(wc -c < "$OUT")" = 20004 ] || fail "the long value whole: $(wc -c < "$OUT") bytes"
expect_status 0 "$NNAV_BIN" meta "$T/st.safetensors" evil
LC_ALL=C grep -q $'\x1b' "$OUT" && fail "a control character reached the terminal: $(od -c "$OUT" | head -2)"
grep -qF 'a\x1B[31mb\u{202E}' "$OUT" || fail "evil escaped: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" meta "$T/st.safetensors"
grep -qE '^  long +x{60}' "$OUT" || fail "every key, the long one shortened: $(grep long "$OUT" | head -c 200)"
[ "$(grep -c 'x' "$OUT")" -ge 1 ] && [ "$(wc -c < "$OUT")" -lt 5000 ] || fail "the listing shortens values ($(wc -c < "$OUT") bytes)"

# ---- ONNX metadata_props ----
if "$py" -c 'import onnx' 2> /dev/null; then
    "$py" - "$NNAV_SAMPLES/cnn.onnx" "$T/props.onnx" > "$T/props.json" <<'PY' || fail "writing metadata_props"
import json, sys, onnx
m = onnx.load(sys.argv[1])
onnx.helper.set_model_props(m, {"author": "me\x07\x1b]0;t\x07", "long": "y" * 9000, "k": "v"})
onnx.save(m, sys.argv[2])
print(json.dumps({p.key: p.value for p in onnx.load(sys.argv[2]).metadata_props}))
PY
    for key in author long k; do
        expect_status 0 "$NNAV_BIN" meta "$T/props.onnx" "$key" --yaml
        "$py" -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8")); want = json.load(open(sys.argv[2]))[sys.argv[3]]
assert y == {"section": "metadata_props", "key": sys.argv[3], "value": want}, y' "$OUT" "$T/props.json" "$key" ||
            fail "ONNX $key: $(head -c 300 "$OUT")"
        CHECKS=$((CHECKS + 1))
    done
    expect_status 0 "$NNAV_BIN" meta "$T/props.onnx" long
    [ "$(cat "$OUT")" = "$(printf 'y%.0s' $(seq 9000))" ] || fail "ONNX long value whole"
    expect_status 0 "$NNAV_BIN" meta "$T/props.onnx" metadata_props.k
    [ "$(cat "$OUT")" = v ] || fail "metadata_props.k: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" meta "$T/props.onnx" --yaml
    "$py" -c '
import json, sys, yaml
y = yaml.safe_load(open(sys.argv[1], encoding="utf-8")); want = json.load(open(sys.argv[2]))
assert {p["key"]: p["value"] for p in y["metadata_props"]} == want' "$OUT" "$T/props.json" || fail "ONNX every key in YAML"
    CHECKS=$((CHECKS + 1))
    expect_status 2 "$NNAV_BIN" meta "$T/props.onnx" autor
    grep -q "did you mean 'author'" "$ERR" || fail "ONNX unknown key: $(cat "$ERR")"
else
    echo "SKIP (partly): no onnx for metadata_props"
fi
expect_status 0 "$NNAV_BIN" meta "$NNAV_SAMPLES/cnn.onnx"
expect_status 2 "$NNAV_BIN" meta "$NNAV_SAMPLES/cnn.onnx" anything
finish
