#!/usr/bin/env bash
# Opening a big GGUF file (issue 31), run on demand:
#   bash tests/bench/gguf_sparse.sh BUILD_DIR [WORK_DIR]
# Writes a Llama-70B-shaped GGUF header (80 blocks of q4_K / q6_K tensors,
# hidden 8192, feed-forward 28672, vocabulary 128256: about 40 GB of
# tensor data) and extends the file to its full size as a sparse file, so
# no payload byte is on disk; then prints the best wall time of 5 runs and
# the max RSS of `nnav info`, `nnav tensors` and `nnav summary` on it.
set -euo pipefail
build=${1:?usage: gguf_sparse.sh BUILD_DIR [WORK_DIR]}
work=${2:-/tmp/nnav-bench}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
f=$work/llama70b_sparse.gguf
[ -e "$f" ] || /usr/bin/python3 - "$f" "$here/../cli" << 'PY'
import os, sys
sys.path.insert(0, sys.argv[2])
import gguf_gen as G
w = G.W(3)
w.add("general.architecture", G.V_STR, "llama")
w.add("general.name", G.V_STR, "sparse 70B")
w.add("general.file_type", G.V_U32, 15)
for k, v in (("block_count", 80), ("embedding_length", 8192), ("feed_forward_length", 28672),
             ("attention.head_count", 64), ("attention.head_count_kv", 8), ("context_length", 8192)):
    w.add("llama." + k, G.V_U32, v)
w.add("tokenizer.ggml.tokens", G.V_ARR, (G.V_STR, ["t%d" % i for i in range(128256)]))
D, F, V = 8192, 28672, 128256
ts = [("token_embd.weight", [D, V], "q4_K")]
for b in range(80):
    p = "blk.%d." % b
    ts += [(p + "attn_norm.weight", [D], "f32"), (p + "attn_q.weight", [D, D], "q4_K"),
           (p + "attn_k.weight", [D, 1024], "q4_K"), (p + "attn_v.weight", [D, 1024], "q6_K"),
           (p + "attn_output.weight", [D, D], "q4_K"), (p + "ffn_norm.weight", [D], "f32"),
           (p + "ffn_gate.weight", [D, F], "q4_K"), (p + "ffn_up.weight", [D, F], "q4_K"),
           (p + "ffn_down.weight", [F, D], "q6_K")]
ts += [("output_norm.weight", [D], "f32"), ("output.weight", [D, V], "q6_K")]
out = bytearray(b"GGUF" + G.struct.pack("<I", 3) + w.n(len(ts)) + w.n(len(w.kv)))
for k, t, x in w.kv:
    out += w.s(k) + G.struct.pack("<I", t) + w.val(t, x)
off = 0
for name, dims, t in ts:
    n = 1
    for d in dims:
        n *= d
    _, blk, size = G.TYPES[t]
    out += w.s(name) + G.struct.pack("<I", len(dims)) + b"".join(G.struct.pack("<Q", d) for d in dims)
    out += G.struct.pack("<IQ", G.TYPES[t][0], off)
    off += n // blk * size
    off += (-off) % 32
out += b"\0" * ((-len(out)) % 32)
with open(sys.argv[1], "wb") as fh:
    fh.write(out)
    fh.truncate(len(out) + off)
PY
. "$(dirname "$0")/lib.bash"
echo "$(basename "$f"): $(stat -c %s "$f") bytes, $(du -k "$f" | cut -f1) KiB on disk"
for cmd in info tensors summary; do
    echo "nnav $cmd: $(best "$build/nnav" $cmd "$f") ms (best of 5), max RSS $(rss "$build/nnav" $cmd "$f") KiB"
done
