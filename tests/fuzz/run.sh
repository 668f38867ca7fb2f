#!/usr/bin/env bash
# Run the fuzz targets: bash tests/fuzz/run.sh FUZZ_BUILD_DIR SECONDS [TARGET...]
# The build dir comes from: CC=clang cmake -S . -B build-fuzz -DNNAV_FUZZ=ON && cmake --build build-fuzz
# Targets: every tests/fuzz/fuzz_NAME.c is target NAME (the default is all of
# them); each runs for SECONDS.
# Seeds: the bundled samples, ../shared/corpus (when present) and the
# regression files in tests/fuzz/regressions (every crash found becomes one:
# see tests/fuzz/README). fuzz_struct reads its input as a generator's
# choices, not as a file: any bytes seed it, and it gets short inputs
# (-max_len=8192) at full length from the start (-len_control=0).
# Each target keeps its growing corpus in BUILD/fuzz-corpus/TARGET and its
# log in BUILD/fuzz-TARGET.log; a crash (or leak, timeout, out-of-memory)
# leaves BUILD/fuzz-crash-TARGET-* and makes the target fail. The last line
# is "fuzz: N passed, M failed"; the status is 1 when any target failed.
# FUZZ_SEED and FUZZ_RUNS make a run repeatable.
set -euo pipefail
build=${1:?usage: run.sh FUZZ_BUILD_DIR SECONDS [TARGET...]}
secs=${2:?seconds per target}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    for f in "$here"/fuzz_*.c; do
        n=${f##*/fuzz_}
        targets+=("${n%.c}")
    done
fi
corpus=$here/../../../shared/corpus
seeds=$build/fuzz-seeds
mkdir -p "$seeds"
cp "$build"/samples/*.onnx "$seeds"/ 2> /dev/null || true
find "$build"/samples \( -name '*.pb' -o -name '*.index' \) -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$seeds" \; 2> /dev/null || true
if [ -d "$corpus" ]; then
    find "$corpus" -type f \( -name '*.onnx' -o -name '*.pb' -o -name '*.index' \) -size -2M \
        -exec sh -c 'cp "$1" "$2/$(echo "$1" | tr / _)"' _ {} "$seeds" \;
fi
# fuzz_pickle: the pickles of the PyTorch test files (hostile ones too), when
# tests/cli/pt_checkpoint.sh has made them in this build.
find "$build"/tests/tmp -path '*pt_checkpoint*' -type f \( -name '*.pkl' -o -name '*.pt' \) -size -2M \
    -exec sh -c 'cp "$1" "$2/pt_$(basename "$1")"' _ {} "$seeds" \; 2> /dev/null || true
# ...and the hostile pickles of the adversarial suite (legacy checkpoints
# with code in any of their five pickles, tar checkpoints, reference bombs).
cp "$here"/../adversarial/cases/pt_* "$seeds"/ 2> /dev/null || true
[ -d "$here/regressions" ] && cp "$here"/regressions/* "$seeds"/ 2> /dev/null || true
passed=0 failed=0
for t in "${targets[@]}"; do
    bin=$build/tests/fuzz_$t log=$build/fuzz-$t.log stamp=$build/.fuzz-start-$t
    echo "=== fuzz_$t for ${secs}s"
    if [ ! -x "$bin" ]; then
        echo "fuzz_$t: $bin is not built (cmake --build $build --target fuzz_$t)"
        failed=$((failed + 1))
        continue
    fi
    opts=(-max_len=1048576)
    [ "$t" = struct ] && opts=(-max_len=8192 -len_control=0)
    mkdir -p "$build/fuzz-corpus/$t"
    touch "$stamp"
    rc=0
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
        UBSAN_OPTIONS=print_stacktrace=1 \
        "$bin" -max_total_time="$secs" ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
        ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -rss_limit_mb=4096 "${opts[@]}" \
        -timeout=20 -print_final_stats=1 -artifact_prefix="$build/fuzz-crash-$t-" \
        "$build/fuzz-corpus/$t" "$seeds" > "$log" 2>&1 || rc=$?
    grep -E '^(#[0-9]+.*(DONE|INITED)|stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)|==[0-9]+==|SUMMARY|Done)' "$log" || true
    # Artifacts of this run only: older ones may be kept by hand.
    new=$(find "$build" -maxdepth 1 -name "fuzz-crash-$t-*" -newer "$stamp" | sort)
    if [ $rc -ne 0 ] || [ -n "$new" ]; then
        echo "fuzz_$t FAILED (status $rc): ${new:-no artifact}; the last lines of $log:"
        tail -n 40 "$log"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
done
echo "fuzz: $passed passed, $failed failed"
[ $failed -eq 0 ]
