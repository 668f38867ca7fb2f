#!/usr/bin/env bash
# opschema_src.sh ONNX_GIT REV ORT_GIT REV [DEST] - lay out the sources of
# proto/gen_opschema.py in DEST (default ~/.cache/nnav/opschema) from git
# directories of the onnx and onnxruntime repositories (bare is fine):
# only the generated operator docs and VERSION_NUMBER are taken, with the
# commit in REVISION. Nothing of them is committed here.
#   proto/opschema_src.sh /path/onnx.git v1.22.0 /path/onnxruntime.git main
set -eu
[ $# -ge 4 ] || { echo "usage: $0 ONNX_GIT REV ORT_GIT REV [DEST]" >&2; exit 1; }
dest=${5:-${XDG_CACHE_HOME:-$HOME/.cache}/nnav/opschema}
take() { # GIT REV SUBDIR REVISION_TEXT FILES...
    local git=$1 rev=$2 sub=$3 label=$4
    shift 4
    rm -rf "${dest:?}/$sub"
    mkdir -p "$dest/$sub"
    git --git-dir="$git" archive "$rev" "$@" | tar -x -C "$dest/$sub"
    printf '%s\n' "$label" > "$dest/$sub/REVISION"
}
c=$(git --git-dir="$1" rev-parse "$2^{commit}")
take "$1" "$2" onnx "$([ "$2" = "$c" ] && echo "$c" || echo "$2 $c")" \
    docs/Changelog.md docs/Changelog-ml.md VERSION_NUMBER
c=$(git --git-dir="$3" rev-parse "$4^{commit}")
take "$3" "$4" onnxruntime "$c" docs/ContribOperators.md VERSION_NUMBER
echo "$dest"
