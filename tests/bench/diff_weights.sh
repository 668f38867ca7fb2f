#!/usr/bin/env bash
# Benchmark of `nnav diff` on two large weights files (issue 31 item 8), run
# on demand (never by ctest):
#   bash tests/bench/diff_weights.sh BUILD_DIR [WORK_DIR] [MB]
# Writes in WORK_DIR (default /tmp/nnav-diffw-bench; about 3 x MB of disk,
# MB default 1024, removed at the end unless KEEP=1), with numpy and torch:
#   a.safetensors  MB/16 float32 tensors of 16 MiB, "layers.N.weight", in
#                  safetensors' order (by name: layers.10 before layers.2)
#   b.safetensors  the same, its last tensor's last element +1
#   a.pt           torch.save of a's tensors (file order layers.0, 1, 2 ...)
# Then measures with /usr/bin/time the wall time (best of 3) and peak
# resident set of
#   cat A B > /dev/null              what reading both files costs
#   nnav diff a.safetensors b.safetensors
#   nnav diff a.pt b.safetensors     two formats, two orders of the tensors
# each with the files in the page cache and dropped from it first (dd
# iflag=nocache, no root needed), checks that each diff finds the one element
# (exit status 1, "1 of 4,194,304 elements differs"), and prints a table
# with GB/s over the two files' bytes.
set -euo pipefail
build=${1:?usage: diff_weights.sh BUILD_DIR [WORK_DIR] [MB]}
build=$(cd "$build" && pwd)
work=${2:-/tmp/nnav-diffw-bench}
mb=${3:-1024}
mkdir -p "$work"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$work"/a.safetensors "$work"/b.safetensors "$work"/a.pt' EXIT
[ -x /usr/bin/time ] || { echo "diff_weights.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }
if [ ! -f "$work/a.pt" ]; then
    /usr/bin/python3 - "$work" "$mb" <<'PY'
import json, struct, sys
import numpy as np
import torch
out, mb = sys.argv[1], int(sys.argv[2])
n = max(1, mb // 16)
def tensors(side):
    rng = np.random.default_rng(5)
    for k in range(n):
        x = rng.standard_normal(4 << 20, dtype=np.float32)
        if side == "b" and k == n - 1:
            x[-1] += 1.0
        yield "layers.%d.weight" % k, x.reshape(1024, 4096)
for side in ("a", "b"):
    names = sorted("layers.%d.weight" % k for k in range(n))
    hdr, off = {}, 0
    for nm in names:
        hdr[nm] = {"dtype": "F32", "shape": [1024, 4096], "data_offsets": [off, off + (16 << 20)]}
        off += 16 << 20
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    data = dict(tensors(side))
    with open("%s/%s.safetensors" % (out, side), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for nm in names:
            f.write(data[nm].tobytes())
    if side == "a":
        torch.save({k: torch.from_numpy(v) for k, v in data.items()}, out + "/a.pt")
    del data
PY
fi
A=$work/a.safetensors B=$work/b.safetensors P=$work/a.pt
uncache() { for f in "$@"; do dd if="$f" iflag=nocache count=0 status=none; done; }
size() { stat -c %s "$1"; }
measure() { # label, files for cold (or ""), expected status, check, command...
    local label=$1 cold=$2 want=$3 check=$4 best="" rss=0 t m rc bytes
    shift 4
    bytes=$(( $(size "${@: -2:1}") + $(size "${@: -1}") ))
    for _ in 1 2 3; do
        # shellcheck disable=SC2086
        [ -n "$cold" ] && uncache $cold
        set +e
        /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" > "$work/out.txt" 2>&1
        rc=$?
        set -e
        read -r t m < <(tail -1 "$work/time.txt")
        [ "$rc" = "$want" ] || { echo "$label: exit status $rc, not $want" >&2; head -20 "$work/out.txt" >&2; exit 1; }
        if [ -n "$check" ] && ! grep -Eq "$check" "$work/out.txt"; then
            echo "$label: no /$check/ in the output" >&2; head -20 "$work/out.txt" >&2; exit 1
        fi
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    printf '| %-44s | %6.2f s | %5.2f GB/s | %5d MiB |\n' "$label" "$best" \
        "$(echo "scale=3; $bytes / 1000000000 / ($best + 0.0001)" | bc)" $((rss / 1024))
}
one='1 of 4,194,304 elements differs'
printf '| %-44s | %8s | %10s | %9s |\n' "two files of $((mb)) MB" time speed "peak RSS"
printf '|%s|%s|%s|%s|\n' "$(printf -- '-%.0s' $(seq 46))" ---------- ------------ -----------
cat "$A" "$B" "$P" > /dev/null  # warm
CAT=(sh -c 'cat "$0" "$1" > /dev/null')
measure "cat a.safetensors b.safetensors, cached" "" 0 "" "${CAT[@]}" "$A" "$B"
measure "diff a.safetensors b.safetensors, cached" "" 1 "$one" "$build/nnav" diff "$A" "$B"
measure "diff a.pt b.safetensors, cached" "" 1 "$one" "$build/nnav" diff "$P" "$B"
measure "cat a.safetensors b.safetensors, cold" "$A $B" 0 "" "${CAT[@]}" "$A" "$B"
measure "diff a.safetensors b.safetensors, cold" "$A $B" 1 "$one" "$build/nnav" diff "$A" "$B"
measure "cat a.pt b.safetensors, cold" "$P $B" 0 "" "${CAT[@]}" "$P" "$B"
measure "diff a.pt b.safetensors, cold" "$P $B" 1 "$one" "$build/nnav" diff "$P" "$B"
