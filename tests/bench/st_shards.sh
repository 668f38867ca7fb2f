#!/usr/bin/env bash
# Opening a safetensors model of 1,000 shards (issue 31), run on demand:
#   bash tests/bench/st_shards.sh BUILD_DIR [WORK_DIR]
# Writes a folder of 1,000 shards as save_pretrained names them (each a
# real header of 8 bf16 tensors of 4096 x 640, 5 MiB each, the data a
# sparse hole: 40 GiB in all, nothing of it on disk), their
# model.safetensors.index.json and a config.json; then prints the best wall
# time of 5 runs and the max RSS of `nnav info`, `nnav tensors` and
# `nnav summary` on the folder. Each shard's header is one page: what
# opening reads is 1,000 pages, never a payload page (the RSS says so).
set -euo pipefail
build=${1:?usage: st_shards.sh BUILD_DIR [WORK_DIR]}
work=${2:-/tmp/nnav-bench}
d=$work/st_1000_shards
[ -e "$d/model.safetensors.index.json" ] || /usr/bin/python3 - "$d" << 'PY'
import json, os, struct, sys
d = sys.argv[1]
os.makedirs(d, exist_ok=True)
N, PER, R, C = 1000, 8, 4096, 640
wm, total = {}, 0
for s in range(N):
    name = "model-%05d-of-%05d.safetensors" % (s + 1, N)
    hdr, off = {"__metadata__": {"format": "pt"}}, 0
    for k in range(PER):
        t = "model.layers.%d.block.%d.weight" % (s, k)
        n = R * C * 2
        hdr[t] = {"dtype": "BF16", "shape": [R, C], "data_offsets": [off, off + n]}
        off += n
        wm[t] = name
    total += off
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(os.path.join(d, name), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        f.truncate(8 + len(h) + off)
with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
    json.dump({"metadata": {"total_size": total}, "weight_map": wm}, f)
with open(os.path.join(d, "config.json"), "w") as f:
    json.dump({"architectures": ["BenchForCausalLM"], "num_hidden_layers": N}, f)
PY
. "$(dirname "$0")/lib.bash"
echo "$(basename "$d"): $(ls "$d" | wc -l) files, $(du -sb --apparent-size "$d" | cut -f1) bytes, $(du -sk "$d" | cut -f1) KiB on disk"
for cmd in info tensors summary; do
    echo "nnav $cmd: $(best "$build/nnav" $cmd "$d") ms (best of 5), max RSS $(rss "$build/nnav" $cmd "$d") KiB"
done
