# Helpers for the CLI scripts: run a command, check its exit status, keep its
# output in $OUT and $ERR, count failures and print one closing line.
FAILS=0
CHECKS=0
# One pair per script: ctest -j runs scripts side by side in one NNAV_TMP.
OUT=$NNAV_TMP/$(basename "$0" .sh).last.out
ERR=$NNAV_TMP/$(basename "$0" .sh).last.err
. "$(dirname "${BASH_SOURCE[0]}")/../corpus_part.bash"
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
expect_status() {
    local want=$1; shift
    CHECKS=$((CHECKS + 1))
    "$@" > "$OUT" 2> "$ERR"
    local rc=$?
    if [ $rc -ne "$want" ]; then
        fail "exit $rc (wanted $want): $*"
        sed 's/^/  stderr: /' "$ERR" | head -5
    fi
}
finish() {
    echo "$CHECKS commands checked, $FAILS failures"
    [ "$FAILS" -eq 0 ]
}
