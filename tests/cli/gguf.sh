#!/usr/bin/env bash
# GGUF files written from the format's specification by gguf_gen.py (v1, v2,
# v3, big-endian; every metadata value type; f32, f16, bf16, i32 and q4_0 ...
# q8_K tensors, quantised by ggml's reference quantisers or of random
# blocks), read by nnav and compared by gguf_check.py with what was written,
# with ggml's reference dequantisation (numpy) and, where it is installed,
# with Hugging Face's @huggingface/gguf parser (gguf_oracle.js; .ci/run
# installs it in ${XDG_CACHE_HOME:-~/.cache}/nnav/hfgguf, or NNAV_HFGGUF_DIR).
# Then a Llama-shaped file's summary: its blocks folded as identical, and
# not when one block's tensors are of another quantisation.
set -u
. "$(dirname "$0")/lib.bash"
need_python yaml numpy
here=$(dirname "$0")
work=$NNAV_TMP/gguf
rm -rf "$work"
mkdir -p "$work"
"$py" "$here/gguf_gen.py" "$work" || { fail "gguf_gen.py"; finish; exit; }
oracle=()
hf=${NNAV_HFGGUF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nnav/hfgguf}
if command -v node > /dev/null 2>&1 &&
   node -e 'require(process.argv[1] + "/node_modules/@huggingface/gguf")' "$hf" 2> /dev/null; then
    files=$("$py" -c 'import json,sys; print(" ".join(sys.argv[1] + "/" + k for k in json.load(open(sys.argv[1] + "/expect.json"))))' "$work")
    # shellcheck disable=SC2086
    node "$here/gguf_oracle.js" "$hf" $files > "$work/oracle.json" || fail "gguf_oracle.js"
    oracle=("$work/oracle.json")
else
    echo "note: no @huggingface/gguf at $hf: checked against the writer and numpy only"
fi
CHECKS=$((CHECKS + 1))
"$py" "$here/gguf_check.py" "$NNAV_BIN" "$work" "${oracle[@]}" || fail "gguf_check.py"

# Scopes from the tensor names: blk.0 ... blk.5 alike.
expect_status 0 "$NNAV_BIN" summary "$work/llama.gguf"
grep -q '0 … 5  ×6 identical' "$OUT" || fail "llama.gguf: blk.0 … 5 not folded ×6: $(head -8 "$OUT")"
grep -q 'ffn_gate … ffn_up  ×2 identical' "$OUT" || fail "llama.gguf: ffn_gate and ffn_up not alike"
expect_status 0 "$NNAV_BIN" summary "$work/llama_mixed.gguf"
grep -q '×6 identical' "$OUT" && fail "llama_mixed.gguf: blk.3 (q6_K) folded with the q4_K blocks"
grep -q '0 … 2  ×3 identical' "$OUT" || fail "llama_mixed.gguf: blk.0 … 2 not folded"
# The text of info: the architecture, the hyper-parameters, the vocabulary
# size, never the vocabulary.
expect_status 0 "$NNAV_BIN" info "$work/llama.gguf"
for w in 'format         GGUF' 'architecture                   llama' \
         'file type                      MOSTLY_Q4_K_M (15)' 'llama.block_count              6' \
         'llama.attention.head_count     4' 'vocabulary size                32'; do
    grep -qF "$w" "$OUT" || fail "info llama.gguf: no '$w'"
done
grep -q "'t20'" "$OUT" && fail "info llama.gguf prints the vocabulary past its first items"
finish
