#!/usr/bin/env bash
# Benchmarks, run on demand (never by ctest):
#   bash tests/bench/run.sh BUILD_DIR [WORK_DIR [REAL_MODEL...]]
# Generates synthetic models (a chain of N nodes; one sparse file whose single
# initializer holds B bytes) and measures `nnav info`: the best wall time of 5
# runs, and one run's peak memory split into anonymous and file-backed resident
# pages, sampled from /proc every 2 ms (a sampler's peak can miss a spike
# shorter than that); `cat FILE > /dev/null` is given as a reference.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [WORK_DIR]}
work=${2:-/tmp/nnav-bench}
shift $(( $# >= 2 ? 2 : $# ))
mkdir -p "$work"
gen=$work/gen_chain
cc -O2 -o "$gen" "$(dirname "$0")/gen_chain.c"
nnav=$build/nnav

# Peak anonymous and file-backed RSS of a command, sampled from /proc every 2 ms.
measure() {
    local t0 t1 pid anon=0 file=0 a f
    t0=$(date +%s.%N)
    "$@" > /dev/null &
    pid=$!
    while kill -0 "$pid" 2> /dev/null; do
        if read -r a f < <(awk '/RssAnon/{a=$2} /RssFile/{f=$2} END{print a+0, f+0}' "/proc/$pid/status" 2> /dev/null); then
            [ "$a" -gt "$anon" ] && anon=$a
            [ "$f" -gt "$file" ] && file=$f
        fi
        sleep 0.002
    done
    wait "$pid"
    t1=$(date +%s.%N)
    printf '%8.3f s  %8d KiB anon  %8d KiB file' "$(echo "$t1 - $t0" | bc)" "$anon" "$file"
}

best_of() { # best wall time of 5 runs, in milliseconds
    local best=999999999 t0 t1
    for _ in 1 2 3 4 5; do
        t0=$(date +%s%N)
        "$@" > /dev/null
        t1=$(date +%s%N)
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    echo "$((best / 1000000)).$(printf '%03d' $(((best / 1000) % 1000)))"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sr)"
echo
printf '%-28s %13s  %s\n' "model" "info best/5" "one run: time, peak anon, peak file"
for n in 10000 100000 1000000; do
    f=$work/chain_$n.onnx
    [ -f "$f" ] || "$gen" chain "$n" "$f"
    printf '%-28s %10s ms  %s\n' "chain, $n nodes" "$(best_of "$nnav" info "$f")" "$(measure "$nnav" info "$f")"
done
for b in 1000000000 2500000000 3300000000 5000000000; do
    f=$work/weights_$b.onnx
    [ -f "$f" ] || "$gen" weights "$b" "$f"
    printf '%-28s %10s ms  %s\n' "one tensor, $((b / 1000000)) MB" "$(best_of "$nnav" info "$f")" "$(measure "$nnav" info "$f")"
done
echo
f=$work/chain_1000000.onnx
printf '%-28s %s\n' "find on 1M nodes" "$(measure "$nnav" find "$f" n999999)"
printf '%-28s %s\n' "cat 1M-node file" "$(measure cat "$f")"

# References: the ONNX Python package's load, beside nnav info, same files.
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx' 2> /dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    echo
    printf '%-28s %12s %12s   %12s %12s\n' "onnx.load vs nnav info" "onnx s" "onnx MiB" "nnav s" "nnav MiB"
    for ref in "$work/chain_100000.onnx" "$work/chain_1000000.onnx" "$work/weights_1000000000.onnx" "$@"; do
        [ -f "$ref" ] || continue
        o=$( { /usr/bin/time -f '%e %M' "$py" -c 'import onnx,sys; onnx.load(sys.argv[1])' "$ref" > /dev/null; } 2>&1 | tail -1)
        n=$( { /usr/bin/time -f '%e %M' "$nnav" info "$ref" > /dev/null; } 2>&1 | tail -1)
        printf '%-28s %12s %12s   %12s %12s\n' "$(basename "$ref")" "${o% *}" "$(( ${o#* } / 1024 ))" "${n% *}" "$(( ${n#* } / 1024 ))"
    done
fi

# The explorer in tmux: time to the first screen, and from the last keystroke
# of a search to its result, on the million-node chain.
if command -v tmux > /dev/null; then
    echo
    sock=nnavbench$$
    t0=$(date +%s%N)
    tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$nnav $f"
    until tmux -L "$sock" capture-pane -p | grep -q '/1000000'; do sleep 0.005; done
    t1=$(date +%s%N)
    printf '%-28s %8d ms\n' "TUI first screen, 1M nodes" $(((t1 - t0) / 1000000))
    tmux -L "$sock" send-keys / ; sleep 0.3
    tmux -L "$sock" send-keys -l n99999 ; sleep 1
    t0=$(date +%s%N)
    tmux -L "$sock" send-keys -l 9
    until tmux -L "$sock" capture-pane -p | grep -qE 'hit 1/1( |$)'; do sleep 0.002; done
    t1=$(date +%s%N)
    printf '%-28s %8d ms\n' "TUI search n999999 (last key)" $(((t1 - t0) / 1000000))
    tmux -L "$sock" send-keys Escape q
    tmux -L "$sock" kill-server 2> /dev/null || true
fi
