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

# find_ort: ONNX Runtime's Node.js package, for the tests that run models.
# Sets node (the interpreter) and pkg (the package, from $NNAV_ORT_DIR, else
# ${XDG_CACHE_HOME:-~/.cache}/nnav/ort, where .ci/run installs it; see
# ort_oracle.sh) and returns 0; else returns 1 with ort_why saying what is
# missing, for the caller's SKIP line.
find_ort() {
    local c dir=${NNAV_ORT_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nnav/ort}
    node="" pkg="" ort_why=""
    for c in node nodejs; do
        if command -v "$c" > /dev/null 2>&1; then node=$(command -v "$c"); break; fi
    done
    if [ -z "$node" ]; then
        ort_why="no node (apt-get install nodejs npm), so no ONNX Runtime"
        return 1
    fi
    pkg=$dir/node_modules/onnxruntime-node
    [ -d "$pkg" ] || pkg=$dir # NNAV_ORT_DIR may name the package itself
    if ! "$node" -e 'require(process.argv[1])' "$pkg" > /dev/null 2>&1; then
        ort_why="onnxruntime-node is not installed at $dir (ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix $dir onnxruntime-node@1.30.0; or set NNAV_ORT_DIR)"
        return 1
    fi
    return 0
}
