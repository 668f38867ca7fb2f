#!/usr/bin/env bash
# Benchmarks, run on demand (never by ctest):
#   bash tests/bench/run.sh BUILD_DIR [WORK_DIR]
# Generates synthetic models (a chain of N nodes; one sparse file whose single
# initializer holds B bytes) and measures `nnav info`: the best wall time of 5
# runs, and one run's peak memory split into anonymous and file-backed resident
# pages, sampled from /proc every 2 ms (a sampler's peak can miss a spike
# shorter than that); `cat FILE > /dev/null` is given as a reference.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [WORK_DIR]}
work=${2:-/tmp/nnav-bench}
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
