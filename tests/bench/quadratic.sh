#!/usr/bin/env bash
# No quadratic paths: run on demand (never by ctest):
#   bash tests/bench/quadratic.sh BUILD_DIR [WORK_DIR] [SCALE]
# For each shape that tempts an indexer into work that grows faster than the
# file (a value with N consumers, N nodes of one name, N initialisers, If
# nested N deep, N local functions, N undefined names, a TensorFlow library
# of N functions calling each other in a chain), generates a model at
# N/10 and at N and times `nnav info`, `nnav tree`, `nnav find` and `nnav check`
# (its graph rules walk every name in scope) on both
# (the best of 3 runs). Linear work gives a ratio near 10; quadratic work
# near 100. SCALE divides every N (2 halves them) for a quick look.
# A ratio above 20 is flagged; the script exits 1 if any is.
set -euo pipefail
build=${1:?usage: quadratic.sh BUILD_DIR [WORK_DIR] [SCALE]}
work=${2:-/tmp/nnav-quadratic}
scale=${3:-1}
nnav=$build/nnav
gen=$(dirname "$0")/gen_quadratic.py
mkdir -p "$work"

best_ms() { # best wall time of 3 runs, in milliseconds (output discarded)
    local best=999999999999 t0 t1
    for _ in 1 2 3; do
        t0=$(date +%s%N)
        "$@" > /dev/null 2>&1 || true
        t1=$(date +%s%N)
        [ $((t1 - t0)) -lt "$best" ] && best=$((t1 - t0))
    done
    echo $((best / 1000000))
}

# Ratios under a few milliseconds are noise: the small size is then rounded
# up to 5 ms before dividing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a < 5) a = 5; printf "%.1f", b / a }'; }

echo "machine: $(nproc) cores, $(uname -sr); nnav: $nnav"
printf '%-14s %9s %9s   %-6s %10s %10s %7s\n' shape "N/10" N command "t(N/10)" "t(N)" ratio
bad=0
# shape, N, find pattern (one that matches a few names, so the output stays small)
while read -r kind n pat; do
    n=$((n / scale))
    small=$((n / 10))
    for k in "$small" "$n"; do
        f=$work/${kind}_$k.model
        [ -s "$f" ] || python3 "$gen" "$kind" "$k" "$f"
    done
    for cmd in info tree find check; do
        args=()
        [ "$cmd" = find ] && args=("$pat")
        a=$(best_ms "$nnav" "$cmd" "$work/${kind}_$small.model" "${args[@]}")
        b=$(best_ms "$nnav" "$cmd" "$work/${kind}_$n.model" "${args[@]}")
        r=$(ratio "$a" "$b")
        flag=""
        if awk -v r="$r" 'BEGIN { exit !(r > 20) }'; then
            flag="  <-- superlinear"
            bad=1
        fi
        printf '%-14s %9d %9d   %-6s %8d ms %8d ms %7s%s\n' "$kind" "$small" "$n" "$cmd" "$a" "$b" "$r" "$flag"
    done
done <<'EOF'
consumers 1000000 r99999
samename 1000000 v99999
initializers 1000000 w99999
deep 10000 leaf
functions 100000 call9999
undefined 1000000 nowhere99999
tfchain 100000 f9999
EOF
exit $bad
