#!/usr/bin/env bash
# One options table (issue 16 item 4) writes each command's --help and decides
# which options the command takes: every option a command's --help lists is
# taken (no "does not apply"), and every other option of the CLI is refused
# with status 1. The one exception is export --yaml, taken without effect.
set -u
. "$(dirname "$0")/lib.bash"
S=$NNAV_SAMPLES/cnn.onnx
cmds="info tree nodes node tensors shapes cost summary check export find"
all=""
for cmd in $cmds; do
    expect_status 0 "$NNAV_BIN" "$cmd" --help
    all="$all $(grep -o -- '--[a-z-]*' "$OUT")"
done
all=$(echo "$all" | tr ' ' '\n' | grep -v -- '--help' | sort -u)
[ "$(echo "$all" | wc -l)" -ge 20 ] || fail "the commands' --help list too few options: $all"
# A value each option takes (--output writes, so into the scratch folder).
value() {
    case $1 in
    --graph) echo /;; --op) echo Conv;; --sort) echo size;; --values|--depth|--max-values) echo 1;;
    --name|--node|--inputs|--outputs) echo x;; --format) echo yaml;;
    --output) echo "$NNAV_TMP/options_table.yaml";; --external) echo keep;; --dim) echo N=1;;
    esac
}
for cmd in $cmds; do
    "$NNAV_BIN" "$cmd" --help > "$NNAV_TMP/options_table.help"
    for opt in $all; do
        v=$(value "$opt")
        # shellcheck disable=SC2086
        "$NNAV_BIN" "$cmd" "$S" "$opt" $v > "$OUT" 2> "$ERR"
        st=$?
        refused=0
        grep -q 'does not apply to this command' "$ERR" && refused=1
        if grep -q -- "^  \(-o, \)\?$opt\b" "$NNAV_TMP/options_table.help" ||
           [ "$cmd $opt" = "export --yaml" ]; then
            CHECKS=$((CHECKS + 1))
            [ $refused = 0 ] || fail "$cmd refuses $opt, which its --help lists"
        else
            CHECKS=$((CHECKS + 1))
            [ $refused = 1 ] && [ $st = 1 ] || fail "$cmd takes $opt, which its --help does not list (status $st)"
        fi
    done
done
finish
