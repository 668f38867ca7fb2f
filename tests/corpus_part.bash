# corpus_part.bash - sourced by tests/cli/lib.bash.
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
