# Helpers for the CLI scripts: run a command, check its exit status, keep its
# output in $OUT and $ERR, count failures and print one closing line.
FAILS=0
CHECKS=0
# One pair per script: ctest -j runs scripts side by side in one NNAV_TMP.
OUT=$NNAV_TMP/$(basename "$0" .sh).last.out
ERR=$NNAV_TMP/$(basename "$0" .sh).last.err
# Scripts with a part that reads ../shared/corpus run twice under ctest
# (tests/CMakeLists.txt): as NAME with NNAV_PART=samples, the corpus left out,
# and as NAME_corpus with NNAV_PART=corpus, which reports Skipped (exit 77,
# the reason on stdout) when the corpus is absent. Unset: everything.
corpus_part() {
    case ${NNAV_PART:-all} in
        samples) NNAV_CORPUS=/nonexistent/the-corpus-part-is-its-own-ctest-entry ;;
        corpus)
            if [ ! -d "${NNAV_CORPUS:-}" ]; then
                echo "SKIP: no corpus at ${NNAV_CORPUS:-(unset)} (the real exports in ../shared/corpus beside the checkout)"
                exit 77
            fi
            ;;
    esac
}
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
