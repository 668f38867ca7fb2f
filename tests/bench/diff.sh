#!/usr/bin/env bash
# Benchmark of `nnav diff` (issue 18), run on demand (never by ctest):
#   bash tests/bench/diff.sh BUILD_DIR [WORK_DIR]
# Generates in WORK_DIR (default /tmp/nnav-diff-bench; about 3.6 GB of disk,
# removed at the end unless KEEP=1): a chain of 1,000,000 Relu nodes, a copy
# whose node n500000 is a Tanh, a copy with every node renamed (the scoped
# names a PyTorch export writes), the same at 250,000 nodes, and a model whose
# one initializer holds 1.2 GB of float32 (sparse), a dense byte copy of it,
# and a dense copy with one element set to 0.5. Then measures with
# /usr/bin/time the wall time (best of 3) and the peak resident set of
#   nnav diff A B
# for each pair, checks what each must report (exit status 0 for the same;
# the one changed node and nothing else; the one changed element with its
# largest difference 0.5), and prints a table. The 1.2 GB pairs are also
# measured with both files dropped from the page cache first (dd
# iflag=nocache, which needs no root), beside cat of the same two files.
# Last, the core alone (tests/bench/diff_core.c over nnav_diff_run): the
# comparison's time and the anonymous memory it adds, per node, at 250,000
# and 1,000,000 nodes.
# NNAV_DIFF=CMD measures CMD A B instead of BUILD_DIR/nnav diff A B.
set -euo pipefail
build=${1:?usage: diff.sh BUILD_DIR [WORK_DIR]}
build=$(cd "$build" && pwd)
work=${2:-/tmp/nnav-diff-bench}
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
[ "${KEEP:-0}" = 1 ] || trap 'rm -f "$work"/*.onnx' EXIT
gen=$work/gen_chain core=$work/diff_core
cc -O2 -o "$gen" "$src/tests/bench/gen_chain.c"
cc -O2 -I"$src/src/include" -o "$core" "$src/tests/bench/diff_core.c" \
    "$build/libnnav_core.a" "$build/libnnav_proto.a" -lyaml -lprotobuf-c -lm
read -r -a diffcmd <<< "${NNAV_DIFF:-$build/nnav diff}"
[ -x /usr/bin/time ] || { echo "diff.sh: needs /usr/bin/time (GNU time)" >&2; exit 2; }

for n in 250000 1000000; do
    [ -f "$work/chain_$n.onnx" ] || "$gen" chain "$n" "$work/chain_$n.onnx"
    [ -f "$work/chainop_$n.onnx" ] || "$gen" chainop "$n" "$work/chainop_$n.onnx"
    [ -f "$work/scoped_$n.onnx" ] || "$gen" scoped "$n" "$work/scoped_$n.onnx"
done
bytes=1200000000 elem=100000000
w=$work/weights.onnx wc=$work/weights_copy.onnx w1=$work/weights_one.onnx
if [ ! -f "$w1" ]; then
    "$gen" weights "$bytes" "$w"
    cp --sparse=never "$w" "$wc"
    cp --sparse=never "$w" "$w1"
    # The payload follows the tensor's name "w" (field 8) and raw_data's tag
    # (field 9) and its 5-byte length; element elem becomes 0.5f (00 00 00 3f).
    at=$(LC_ALL=C grep -obUaP '\x42\x01w\x4a' "$w" | head -1 | cut -d: -f1)
    printf '\x00\x00\x00\x3f' |
        dd of="$w1" bs=1 seek=$((at + 4 + 5 + 4 * elem)) conv=notrunc status=none
fi

uncache() { for f in "$@"; do dd if="$f" iflag=nocache count=0 status=none; done; }

# One row: label, expected exit status, a check on the output (an extended
# regex that must match, or ""), then the command. RUNS runs (default 3): the
# best wall time, and the largest peak resident set seen. With COLD="F..."
# those files are dropped from the page cache before each run; OUT=FILE
# takes the output instead of WORK_DIR/out.txt.
measure() {
    local label=$1 want=$2 check=$3 best="" rss=0 t m rc
    shift 3
    for _ in $(seq "${RUNS:-3}"); do
        [ -n "${COLD:-}" ] && uncache $COLD
        set +e
        /usr/bin/time -f '%e %M' -o "$work/time.txt" "$@" > "${OUT:-$work/out.txt}" 2>&1
        rc=$?
        set -e
        read -r t m < <(tail -1 "$work/time.txt")
        if [ "$rc" != "$want" ]; then
            echo "diff.sh: $label: exit status $rc, expected $want" >&2
            head -50 "$work/out.txt" >&2
            exit 1
        fi
        if [ -n "$check" ] && ! grep -Eq "$check" "$work/out.txt"; then
            echo "diff.sh: $label: the output does not match /$check/" >&2
            head -50 "$work/out.txt" >&2
            exit 1
        fi
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
        [ "$m" -gt "$rss" ] && rss=$m
    done
    printf '| %-56s | %7.2f s | %7d MiB |\n' "$label" "$best" $((rss / 1024))
}
row() { # label, exit status, check, A, B
    measure "$1" "$2" "$3" "${diffcmd[@]}" "$4" "$5"
}

# The one-node copy must name n500000 and no other node of the chain.
only_node() {
    local names
    names=$(grep -oE '\bn[0-9]+\b' "$work/out.txt" | sort -u | tr '\n' ' ')
    if [ "$names" != "n$1 " ]; then
        echo "diff.sh: expected node n$1 alone, the output names: $names" >&2
        exit 1
    fi
}

echo "nnav: $("$build/nnav" --version 2> /dev/null | head -1 || true)," \
    "commit $(git -C "$src" rev-parse --short HEAD 2> /dev/null || echo unknown)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {print int($2/1048576) " GiB"}' /proc/meminfo)," \
    "$(uname -sr); command: ${diffcmd[*]} A B"
echo
echo "| pair (A vs B)                                            |  wall     | max RSS     |"
echo "|----------------------------------------------------------|-----------|-------------|"
c=$work/chain_1000000.onnx
measure "nnav info, 1M-node chain (one open, for reference)" 0 "" "$build/nnav" info "$c"
row "1M-node chain vs itself" 0 "" "$c" "$c"
row "1M-node chain vs a copy with one node's op changed" 1 "n500000" "$c" "$work/chainop_1000000.onnx"
only_node 500000
row "1M-node chain vs a copy with every node renamed" 1 "renamed" "$c" "$work/scoped_1000000.onnx"
row "1.2 GB initializer vs itself" 0 "" "$w" "$w"
row "1.2 GB initializer vs a byte copy" 0 "" "$w" "$wc"
row "1.2 GB initializer vs a copy with one element +0.5" 1 "0\.5" "$w" "$w1"
OUT=/dev/null COLD="$wc $w1" RUNS=1 measure "cat of the copy and the +0.5 copy, out of the page cache" 0 "" \
    cat "$wc" "$w1"
COLD="$wc $w1" RUNS=1 row "the byte copy vs the +0.5 copy, out of the page cache" 1 "0\.5" "$wc" "$w1"
echo

echo "The core alone (nnav_diff_run, both models already open):"
echo
echo "| chain nodes | pair                      | open both | compare   | anon after open | added by the diff | per node |"
echo "|-------------|---------------------------|-----------|-----------|-----------------|-------------------|----------|"
for n in 250000 1000000; do
    for kind in chain chainop scoped; do
        set +e
        "$core" "$work/chain_$n.onnx" "$work/${kind}_$n.onnx" > "$work/core.txt"
        rc=$?
        set -e
        [ "$rc" -le 1 ] || { cat "$work/core.txt" >&2; exit 1; }
        read -r open_ms diff_ms nodes anon_open anon_diff hwm < "$work/core.txt"
        case $kind in chain) what="itself" ;; chainop) what="one node's op changed" ;;
            scoped) what="every node renamed" ;; esac
        printf '| %11d | %-25s | %6.0f ms | %6.0f ms | %11d KiB | %13d KiB | %6.1f B |\n' \
            "$nodes" "$what" "$open_ms" "$diff_ms" "$anon_open" $((anon_diff - anon_open)) \
            "$(echo "($anon_diff - $anon_open) * 1024 / $nodes" | bc -l)"
    done
done
