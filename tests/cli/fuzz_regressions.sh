#!/usr/bin/env bash
# Every crash a fuzz campaign found is a file in tests/fuzz/regressions; each
# must now open cleanly or fail with status 2, with no sanitizer report, and
# every graph path `tree` prints must be accepted by --graph.
# The file's name says what it is (tests/fuzz/README.md):
#  - bundle-*: fuzz_bundle's layout: a variables.index up to its last table
#    magic, then the data shard (with checksums as fuzz_bundle makes them
#    before writing: keep the files it wrote, not its raw input), read as the
#    checkpoint of the sample SavedModel (fuzz_bundle's own 15-byte
#    saved_model.pb reads as ONNX when the format is left to the content);
#  - anything else: a model file, format by content (fuzz_onnx, fuzz_tf,
#    fuzz_auto and fuzz_export read their input so; fuzz_struct's crashes
#    are kept as the model it generated, FUZZ_STRUCT_OUT).
# Models also go through shapes, cost and check (fuzz_struct's paths).
set -u
. "$(dirname "$0")/lib.bash"
dir=$NNAV_SRC/tests/fuzz/regressions
sanitizer() { grep -qE 'runtime error|==ERROR|Sanitizer' "$ERR" && fail "$1: sanitizer report in $2"; }
for f in "$dir"/*; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    model=$f
    case $name in
    bundle-*)
        model=$NNAV_TMP/fuzz-regression-bundle
        rm -rf "$model"
        mkdir -p "$model/variables"
        cp "$NNAV_SAMPLES/tf_saved_model/saved_model.pb" "$model/"
        magic=$(LC_ALL=C grep -obUaP '\x57\xfb\x80\x8b\x24\x75\x47\xdb' "$f" | tail -n 1 | cut -d: -f1)
        if [ -n "$magic" ]; then
            head -c $((magic + 8)) "$f" > "$model/variables/variables.index"
            tail -c +$((magic + 9)) "$f" > "$model/variables/variables.data-00000-of-00001"
        else
            cp "$f" "$model/variables/variables.index"
            : > "$model/variables/variables.data-00000-of-00001"
        fi
        ;;
    esac
    CHECKS=$((CHECKS + 1))
    "$NNAV_BIN" info "$model" > "$OUT" 2> "$ERR"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$name: info exited $rc"
    sanitizer "$name" info
    [ $rc -eq 0 ] || continue
    for cmd in "shapes --all" "cost --all --nodes" "check --all"; do
        CHECKS=$((CHECKS + 1))
        # shellcheck disable=SC2086
        "$NNAV_BIN" $cmd "$model" > /dev/null 2> "$ERR"
        rc=$?
        [ $rc -eq 0 ] || [ $rc -eq 2 ] || fail "$name: $cmd exited $rc"
        sanitizer "$name" "${cmd%% *}"
    done
    "$NNAV_BIN" tree "$model" --yaml > "$OUT" 2> "$ERR" || fail "$name: tree failed"
    "$NNAV_BIN" tensors "$model" --all --constants --values 4 > /dev/null 2> "$ERR"
    sanitizer "$name" tensors
    "$NNAV_BIN" export "$model" --binary > /dev/null 2> "$ERR"
    sanitizer "$name" export
    # Paths, one per line, as YAML wrote them (plain or quoted).
    sed -n 's/^- path: //p' "$OUT" | sed "s/^! //; s/^'\(.*\)'\$/\1/; s/^\"\(.*\)\"\$/\1/" > "$NNAV_TMP/paths"
    while IFS= read -r p; do
        CHECKS=$((CHECKS + 1))
        "$NNAV_BIN" nodes "$model" --graph "$p" > /dev/null 2> "$ERR" || fail "$name: path '$p' not accepted: $(cat "$ERR")"
    done < "$NNAV_TMP/paths"
done
finish
