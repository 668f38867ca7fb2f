#!/usr/bin/env bash
# Run the fuzz targets: bash tests/fuzz/run.sh FUZZ_BUILD_DIR SECONDS [TARGET...]
# The build dir comes from: CC=clang cmake -S . -B build-fuzz -DNNAV_FUZZ=ON && cmake --build build-fuzz
# Seeds: the bundled samples, ../shared/corpus (when present) and the
# regression files in tests/fuzz/regressions (every crash found becomes one).
# Each target keeps its growing corpus in BUILD/fuzz-corpus/TARGET; a crash
# leaves BUILD/fuzz-crash-TARGET-* and makes this script fail.
# FUZZ_SEED and FUZZ_RUNS make a run repeatable (CI's smoke run uses them).
set -euo pipefail
build=${1:?usage: run.sh FUZZ_BUILD_DIR SECONDS [TARGET...]}
secs=${2:?seconds per target}
shift 2
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(onnx tf auto export)
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/../../../shared/corpus
seeds=$build/fuzz-seeds
mkdir -p "$seeds"
cp "$build"/samples/*.onnx "$seeds"/ 2> /dev/null || true
find "$build"/samples -name '*.pb' -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$seeds" \; 2> /dev/null || true
if [ -d "$corpus" ]; then
    find "$corpus" -type f \( -name '*.onnx' -o -name '*.pb' -o -name '*.index' \) -size -2M \
        -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$seeds" \;
fi
[ -d "$here/regressions" ] && cp "$here"/regressions/* "$seeds"/ 2> /dev/null || true
status=0
for t in "${targets[@]}"; do
    mkdir -p "$build/fuzz-corpus/$t"
    echo "=== fuzz_$t for ${secs}s"
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        "$build/tests/fuzz_$t" -max_total_time="$secs" ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
        ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -rss_limit_mb=4096 -max_len=1048576 \
        -timeout=20 -print_final_stats=1 -artifact_prefix="$build/fuzz-crash-$t-" \
        "$build/fuzz-corpus/$t" "$seeds" 2>&1 | grep -E '^(#[0-9]+.*(DONE|pulse|INITED)|stat::|==[0-9]+==|SUMMARY|Done)' || true
    if ls "$build"/fuzz-crash-"$t"-* > /dev/null 2>&1; then
        echo "fuzz_$t found a crash: $(ls "$build"/fuzz-crash-"$t"-*)"
        status=1
    fi
done
exit $status
