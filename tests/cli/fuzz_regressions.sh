#!/usr/bin/env bash
# Every crash a fuzz campaign found is a file in tests/fuzz/regressions; each
# must now open cleanly or fail with status 2, with no sanitizer report, and
# every graph path `tree` prints must be accepted by --graph.
set -u
. "$(dirname "$0")/lib.bash"
dir=$NNAV_SRC/tests/fuzz/regressions
for f in "$dir"/*; do
    [ -f "$f" ] || continue
    CHECKS=$((CHECKS + 1))
    "$NNAV_BIN" info "$f" > "$OUT" 2> "$ERR"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$(basename "$f"): info exited $rc"
    grep -qE 'runtime error|==ERROR|Sanitizer' "$ERR" && fail "$(basename "$f"): sanitizer report"
    [ $rc -eq 0 ] || continue
    "$NNAV_BIN" tree "$f" --yaml > "$OUT" 2> "$ERR" || fail "$(basename "$f"): tree failed"
    "$NNAV_BIN" tensors "$f" --all --constants --values 4 > /dev/null 2> "$ERR"
    grep -qE 'runtime error|==ERROR|Sanitizer' "$ERR" && fail "$(basename "$f"): sanitizer report in tensors"
    "$NNAV_BIN" export "$f" --binary > /dev/null 2> "$ERR"
    grep -qE 'runtime error|==ERROR|Sanitizer' "$ERR" && fail "$(basename "$f"): sanitizer report in export"
    # Paths, one per line, as YAML wrote them (plain or quoted).
    sed -n 's/^- path: //p' "$OUT" | sed "s/^! //; s/^'\(.*\)'\$/\1/; s/^\"\(.*\)\"\$/\1/" > "$NNAV_TMP/paths"
    while IFS= read -r p; do
        CHECKS=$((CHECKS + 1))
        "$NNAV_BIN" nodes "$f" --graph "$p" > /dev/null 2> "$ERR" || fail "$(basename "$f"): path '$p' not accepted: $(cat "$ERR")"
    done < "$NNAV_TMP/paths"
done
finish
