# Helpers for the CLI scripts: run a command, check its exit status, keep its
# output in $OUT and $ERR, count failures and print one closing line.
FAILS=0
CHECKS=0
# One pair per script: ctest -j runs scripts side by side in one NNAV_TMP.
OUT=$NNAV_TMP/$(basename "$0" .sh).last.out
ERR=$NNAV_TMP/$(basename "$0" .sh).last.err
. "$(dirname "${BASH_SOURCE[0]}")/../corpus_part.bash"
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
# need_python MODULE...: $py becomes a python3 that imports every module
# (Debian's /usr/bin/python3 first: python3-onnx and python3-torch are
# there), else the script is Skipped (exit 77) saying which are wanted.
need_python() {
    local c mods
    mods=$(IFS=,; echo "$*")
    py=""
    for c in /usr/bin/python3 python3; do
        if "$c" -c "import $mods" 2> /dev/null; then py=$c; return 0; fi
    done
    echo "SKIP: no python3 with the $* packages (Debian: python3-onnx python3-yaml python3-numpy)"
    exit 77
}
# need_torch [yaml]: Debian's /usr/bin/python3 imports torch and torchvision
# (and PyYAML with "yaml"), the real writer of the PyTorch tests, else the
# script is Skipped (exit 77) saying which packages are wanted.
need_torch() {
    local mods=torch,torchvision debs="python3-torch python3-torchvision"
    [ "${1:-}" = yaml ] && mods=$mods,yaml debs="$debs python3-yaml"
    /usr/bin/python3 -c "import $mods" 2> /dev/null && return 0
    echo "SKIP: no /usr/bin/python3 with $mods (Debian: $debs)"
    exit 77
}
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
