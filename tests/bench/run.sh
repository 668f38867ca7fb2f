#!/usr/bin/env bash
# Benchmarks, run on demand (never by ctest):
#   bash tests/bench/run.sh BUILD_DIR [WORK_DIR [REAL_MODEL...]]
# Generates synthetic models (ONNX chains of 10 thousand to 10 million nodes, a
# TensorFlow GraphDef chain of a million, sparse files whose single initializer
# holds 1 to 5 GB, and a 24-layer encoder generated to the shape of a BERT-large
# export, 1.34 GB of weights, also sparse) and measures `nnav info`: the best
# wall time of 5 runs, and one run's peak memory split into anonymous and
# file-backed resident pages, sampled from /proc every 0.5 ms (a sampler's peak
# can miss a spike shorter than that); then `find`, `cat FILE > /dev/null` as a
# reference, `nnav cost` and `nnav summary` beside each other, `nnav cost` of
# the BERT-shaped model beside its MACs worked out
# by hand, the ONNX Python package's onnx.load on the same files, and the
# explorer in tmux. The 10M-node chain takes about 400 MB in WORK_DIR.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [WORK_DIR [REAL_MODEL...]]}
work=${2:-/tmp/nnav-bench}
shift $(( $# >= 2 ? 2 : $# ))
mkdir -p "$work"
gen=$work/gen_chain
cc -O2 -o "$gen" "$(dirname "$0")/gen_chain.c"
nnav=$build/nnav
chains="10000 100000 1000000 10000000"

# Peak anonymous and file-backed RSS of a command, sampled from /proc every
# 0.5 ms with the shell's builtins only (no process is started for a sample,
# so a run of a few milliseconds gets several), counting only samples whose
# process name is the command's (not the shell between fork and exec); the
# figures are also left in M_SEC, M_ANON and M_FILE.
measure() {
    local t0 t1 pid anon=0 file=0 a f k v name want sfd
    want=$(basename "$1")
    want=${want:0:15}
    exec {sfd}<> <(:) # a pipe nobody writes: `read -t` on it is a builtin sleep
    t0=$(date +%s.%N)
    "$@" > /dev/null &
    pid=$!
    while kill -0 "$pid" 2> /dev/null; do
        a=0 f=0 name=
        { while read -r k v _; do
            case $k in Name:) name=$v ;; RssAnon:) a=$v ;; RssFile:) f=$v ;; esac
        done < "/proc/$pid/status"; } 2> /dev/null || true
        if [ "$name" = "$want" ]; then
            [ "$a" -gt "$anon" ] && anon=$a
            [ "$f" -gt "$file" ] && file=$f
        fi
        read -t 0.0005 -u "$sfd" _ || true
    done
    exec {sfd}>&-
    wait "$pid"
    t1=$(date +%s.%N)
    M_SEC=$(echo "$t1 - $t0" | bc) M_ANON=$anon M_FILE=$file
}
# A run shorter than the first sample shows n/a rather than 0.
show_measure() {
    if [ "$M_ANON" -eq 0 ] && [ "$M_FILE" -eq 0 ]; then
        printf '%8.3f s  %8s KiB anon  %8s KiB file' "$M_SEC" n/a n/a
    else
        printf '%8.3f s  %8d KiB anon  %8d KiB file' "$M_SEC" "$M_ANON" "$M_FILE"
    fi
}

best_of() { # best wall time of 5 runs, in milliseconds (3 decimals) in BEST_MS
    local best=999999999999 t0 t1
    for _ in 1 2 3 4 5; do
        t0=$(date +%s%N)
        "$@" > /dev/null
        t1=$(date +%s%N)
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    BEST_MS="$((best / 1000000)).$(printf '%03d' $(((best / 1000) % 1000)))"
}

# One row: label, file, node count (0: no bytes-a-node column). A run over
# before the sampler's first look is run again, up to 10 times; the row then
# says which run its memory comes from.
row() {
    local label=$1 f=$2 n=$3 per="" i=1
    best_of "$nnav" info "$f"
    measure "$nnav" info "$f"
    while [ "$M_ANON" -eq 0 ] && [ "$M_FILE" -eq 0 ] && [ "$i" -lt 10 ]; do
        i=$((i + 1))
        measure "$nnav" info "$f"
    done
    [ "$n" -gt 0 ] && per=$(printf '%6d B/node' $((M_ANON * 1024 / n)))
    [ "$i" -gt 1 ] && per="$per(run $i)"
    printf '%-28s %10s ms  %s %s\n' "$label" "$BEST_MS" "$(show_measure)" "$per"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr); load average at start: $(cut -d" " -f1-3 /proc/loadavg)"
echo
printf '%-28s %13s  %s\n' "model" "info best/5" "one run: time, peak anon, peak file, anon a node"
growth=""
for n in $chains; do
    f=$work/chain_$n.onnx
    [ -f "$f" ] || "$gen" chain "$n" "$f"
    row "chain, $n nodes" "$f" "$n"
    growth="$growth$n $BEST_MS $M_ANON"$'\n'
done
f=$work/tfchain_1000000.pb
[ -f "$f" ] || "$gen" tfchain 1000000 "$f"
row "TF GraphDef, 1000000 nodes" "$f" 1000000
wgrowth=""
for b in 1000000000 2500000000 3300000000 5000000000; do
    f=$work/weights_$b.onnx
    [ -f "$f" ] || "$gen" weights "$b" "$f"
    row "one tensor, $((b / 1000000)) MB" "$f" 0
    wgrowth="$wgrowth$b $BEST_MS $M_ANON"$'\n'
done
# Synthetic, generated to the shape of a BERT-large PyTorch export (not an
# exporter's file): 1227 nodes, 406 initializers, 335M parameters.
bert=$work/bert_large_24.onnx
[ -f "$bert" ] || "$gen" bert 24 "$bert"
row "BERT-large shape, 1.34 GB" "$bert" 0
# Exact peaks beside the sample: the whole resident set from getrusage, and
# the malloc heap from heaptrack when it is installed.
printf '  %s\n' "BERT info, peak resident set (getrusage, anon + file): $( { /usr/bin/time -f '%M' "$nnav" info "$bert" > /dev/null; } 2>&1 | tail -1) KiB"
if command -v heaptrack > /dev/null && command -v heaptrack_print > /dev/null; then
    rm -f "$work"/heaptrack-bert.*
    heaptrack -o "$work/heaptrack-bert" "$nnav" info "$bert" > /dev/null 2>&1 || true
    for h in "$work"/heaptrack-bert.*; do
        [ -f "$h" ] && printf '  BERT info, %s (heaptrack)\n' "$(heaptrack_print "$h" 2> /dev/null | grep -m1 'peak heap memory')"
    done
fi

# How cost grows: a factor per 10x nodes, and a chart on a log scale (each
# mark doubles), so linear growth shows as about 3.3 marks a row.
echo
echo "growth with nodes (ONNX chain), each step 10x the nodes:"
printf '%s' "$growth" | awk 'NR > 1 { printf "  %8d -> %8d nodes: time x%.1f, anon memory x%.1f\n", pn, $1, $2 / pt, $3 / pa }
                            { pn = $1; pt = $2; pa = $3 }'
echo "growth with weight bytes (one tensor), 1000 MB -> 5000 MB (5x):"
printf '%s' "$wgrowth" | awk 'NR == 1 { t = $2; a = $3 }
    END { printf "  time %.1f -> %.1f ms (x%.1f), peak anon %d -> %d KiB\n", t, $2, $2 / t, a, $3 }'
echo
echo "chart, log scale (one # per doubling): info time | peak anon memory"
printf '%s' "$growth" | awk '
    function bar(v, lo,   k, s) { k = int(log(v / lo) / log(2) + 1.5); s = ""; while (k-- > 0) s = s "#"; return s }
    { n[NR] = $1; t[NR] = $2; a[NR] = $3; if (NR == 1 || $2 < tl) tl = $2; if (NR == 1 || $3 < al) al = $3 }
    END { for (i = 1; i <= NR; i++)
              printf "  %8d nodes  %-22s %9.1f ms | %-22s %8.1f MiB\n", n[i], bar(t[i], tl), t[i], bar(a[i], al), a[i] / 1024 }'

echo
# Chains named as PyTorch names nodes (/b12/l34/Relu_56: 100 layers of 100
# nodes a block), so summary's scope tree has 10,101 scopes a million nodes.
for n in 1000000 10000000; do
    f=$work/scoped_$n.onnx
    [ -f "$f" ] || "$gen" scoped "$n" "$f"
done
for f in "$work/chain_1000000.onnx" "$work/chain_10000000.onnx" "$work/tfchain_1000000.pb"; do
    n=$(basename "$f" | tr -dc 0-9)
    measure "$nnav" find "$f" "n$((n - 1))"
    printf '%-36s %s\n' "find n$((n - 1)), $(basename "$f")" "$(show_measure)"
done
measure "$nnav" find "$bert" layer.23.output.LayerNorm
printf '%-36s %s\n' "find layer.23.output.LayerNorm, BERT" "$(show_measure)"
# summary (scope tree, parameters, identical layers) beside cost (the same
# inference without the tree): the difference is what the tree costs.
for f in "$work/chain_1000000.onnx" "$work/chain_10000000.onnx" "$work/scoped_1000000.onnx" \
    "$work/scoped_10000000.onnx" "$bert"; do
    for c in cost summary; do
        measure "$nnav" "$c" "$f"
        printf '%-36s %s\n' "$c $(basename "$f")" "$(show_measure)"
    done
done
for f in "$work/chain_1000000.onnx" "$work/chain_10000000.onnx" "$bert"; do
    measure cat "$f"
    printf '%-36s %s\n' "cat $(basename "$f")" "$(show_measure)"
done

# nnav cost of the BERT-shaped model (batch 1; seq 1 by default, then 128),
# and the MACs of its MatMuls by hand: per layer 4 s H H (Q, K, V, output),
# 2 s s H (scores and context over all heads), 2 s H F (FFN), plus the
# pooler's H H, with H 1024, F 4096, 24 layers.
echo
for d in 1 128; do
    printf 'nnav cost BERT, seq %-4s %s\n' "$d" "$("$nnav" cost "$bert" --dim "seq=$d" | head -1)"
done
for d in 1 128; do
    awk -v s="$d" 'BEGIN { H = 1024; F = 4096; m = 24 * (4 * s * H * H + 2 * s * s * H + 2 * s * H * F) + H * H
        printf "by hand,   seq %-4s  %.0f MACs (%.3g G)\n", s, m, m / 1e9 }'
done

# References: the ONNX Python package beside nnav info, same files. Two
# times for Python: onnx.load alone, timed inside the interpreter (best of 3),
# and the whole `python3 -c "import onnx; onnx.load(FILE)"` process (best of
# 3), which like nnav's time (best of 5) includes starting up. Memory is each
# process's peak resident set (anonymous + file); the first row is what
# Python and the onnx package hold before any load. The ratios are Python's
# figure over nnav's: "x load" compares onnx.load alone, "x process" the
# whole processes, "x memory" the peaks. onnx.load reads every weight into
# memory (the 1 GB single tensor, the 1.34 GB BERT-shaped model); nnav reads
# only the tensors' headers, never their bytes.
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx' 2> /dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    echo
    printf '%-24s %10s %10s %8s   %9s %8s   %7s %9s %8s\n' "onnx vs nnav info" "load ms" "python ms" \
        "py MiB" "nnav ms" "nnav MiB" "x load" "x process" "x memory"
    base=$( { /usr/bin/time -f '%M' "$py" -c 'import onnx' > /dev/null; } 2>&1 | tail -1)
    printf '%-24s %10s %10s %8.1f\n' "(python3 + import onnx)" "-" "-" "$(echo "$base / 1024" | bc -l)"
    for ref in "$work/chain_100000.onnx" "$work/chain_1000000.onnx" "$work/weights_1000000000.onnx" "$bert" "$@"; do
        [ -f "$ref" ] || continue
        oms=$("$py" -c '
import onnx, sys, time
best = None
for _ in range(3):
    t = time.perf_counter()
    onnx.load(sys.argv[1])
    t = time.perf_counter() - t
    best = t if best is None or t < best else best
print("%.3f" % (best * 1000))' "$ref")
        okb=$( { /usr/bin/time -f '%M' "$py" -c 'import onnx, sys; onnx.load(sys.argv[1])' "$ref" > /dev/null; } 2>&1 | tail -1)
        best_of3=999999999999
        for _ in 1 2 3; do
            t0=$(date +%s%N)
            "$py" -c 'import onnx, sys; onnx.load(sys.argv[1])' "$ref" > /dev/null
            t1=$(date +%s%N)
            [ $((t1 - t0)) -lt "$best_of3" ] && best_of3=$((t1 - t0))
        done
        pms=$(echo "scale=3; $best_of3 / 1000000" | bc)
        best_of "$nnav" info "$ref"
        nkb=$( { /usr/bin/time -f '%M' "$nnav" info "$ref" > /dev/null; } 2>&1 | tail -1)
        printf '%-24s %10s %10s %8.1f   %9s %8.1f   %7.1f %9.1f %8.1f\n' "$(basename "$ref")" "$oms" \
            "$pms" "$(echo "$okb / 1024" | bc -l)" "$BEST_MS" "$(echo "$nkb / 1024" | bc -l)" \
            "$(echo "$oms / $BEST_MS" | bc -l)" \
            "$(echo "$pms / $BEST_MS" | bc -l)" "$(echo "$okb / $nkb" | bc -l)"
    done
fi

# The explorer in tmux: time to the first screen, and from the last keystroke
# of a search to its result. A wait gives up after 120 s.
wait_screen() { # PATTERN: poll the pane until it shows the pattern
    local t0
    t0=$(date +%s)
    until tmux -L "$sock" capture-pane -p | grep -qE "$1"; do
        [ $(($(date +%s) - t0)) -lt 120 ] || { echo "timed out waiting for $1" >&2; return 1; }
        sleep 0.002
    done
}
tui() { # FILE NODES
    local f=$1 n=$2 t0 t1 target="n$(($2 - 1))"
    sock=nnavbench$$-$n
    t0=$(date +%s%N)
    tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$nnav $f"
    wait_screen "of $n( |$)"
    t1=$(date +%s%N)
    printf '%-28s %8d ms\n' "TUI first screen, $n nodes" $(((t1 - t0) / 1000000))
    tmux -L "$sock" send-keys / ; sleep 0.3
    tmux -L "$sock" send-keys -l "${target%?}" ; sleep 3
    t0=$(date +%s%N)
    tmux -L "$sock" send-keys -l "${target: -1}"
    wait_screen 'hit 1/1( |$)'
    t1=$(date +%s%N)
    printf '%-28s %8d ms\n' "TUI search $target (last key)" $(((t1 - t0) / 1000000))
    tmux -L "$sock" send-keys Escape q
    tmux -L "$sock" kill-server 2> /dev/null || true
}
# The explorer's scope tree of a graph past 65,536 nodes is built when first
# asked for: from Right on the graph's row (the tree pane focused) to its
# first block's row.
tui_scopes() { # FILE NODES
    local f=$1 n=$2 t0 t1
    sock=nnavbench$$-s$n
    tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$nnav $f"
    wait_screen "of $n( |$)"
    tmux -L "$sock" send-keys BTab ; sleep 0.5
    t0=$(date +%s%N)
    tmux -L "$sock" send-keys Right
    wait_screen ' b0 ×[0-9]+ '
    t1=$(date +%s%N)
    printf '%-28s %8d ms\n' "TUI scope tree, $n nodes" $(((t1 - t0) / 1000000))
    tmux -L "$sock" send-keys q
    tmux -L "$sock" kill-server 2> /dev/null || true
}
if command -v tmux > /dev/null; then
    echo
    tui "$work/chain_1000000.onnx" 1000000
    tui "$work/chain_10000000.onnx" 10000000
    tui_scopes "$work/scoped_1000000.onnx" 1000000
    tui_scopes "$work/scoped_10000000.onnx" 10000000
fi
