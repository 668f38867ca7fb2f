#!/usr/bin/env bash
# The house drawn from the imports (issue 16): every #include "..." in src/
# and ui/ is resolved to the folder holding the header, and the folders'
# graph must run one way,
#
#   formats (readers) -> index <- typed view <- export, report <- faces (cli, ui)
#
# readers build the index; the typed view reads it; the faces read the
# public API (src/include) only. No arrow back: the index names no reader,
# the core names no face. Also: nothing outside src/formats/tf names the
# TensorFlow reader's internals, no second inference engine, no source file
# over 110 KB. With --draw it prints the folder graph (the "house") and the
# include count of each arrow.
set -u
. "$(dirname "$0")/lib.bash"
cd "$NNAV_SRC" || exit 1

# Which layer a file or a header belongs to.
layer_of() {
    case $1 in
        src/include/*) echo include ;;
        src/formats/onnx/*) echo formats/onnx ;;
        src/formats/tf/*) echo formats/tf ;;
        src/formats/pt/*) echo formats/pt ;;
        src/formats/*) echo formats ;;
        src/index/*) echo index ;;
        src/typed/*) echo typed ;;
        src/export/*) echo export ;;
        src/report/*) echo report ;;
        src/cli/*) echo cli ;;
        ui/*) echo ui ;;
        *) echo other ;;
    esac
}
# What each layer may include (besides itself).
allowed() { # allowed FROM TO
    case "$1>$2" in
        "include>include") return 0 ;;
        formats*">index" | formats*">include" | formats*">formats") return 0 ;;
        "formats/onnx>proto-onnx" | "formats/tf>proto-tf") return 0 ;;
        "index>include") return 0 ;;
        "typed>index" | "typed>include") return 0 ;;
        "export>index" | "export>include" | "export>typed" | "export>proto-onnx") return 0 ;;
        "report>index" | "report>include" | "report>typed") return 0 ;;
        "cli>include" | "ui>include") return 0 ;;
    esac
    [ "$1" = "$2" ]
}

declare -A where edges
while IFS= read -r h; do
    b=$(basename "$h")
    [ -n "${where[$b]:-}" ] && fail "two headers named $b: ${where[$b]} and $h (an include would be ambiguous)"
    where[$b]=$(layer_of "$h")
done < <(find src ui -name '*.h' | sort)
where[onnx.pb-c.h]=proto-onnx

CHECKS=$((CHECKS + 1))
while IFS= read -r f; do
    from=$(layer_of "$f")
    while IFS= read -r inc; do
        case $inc in
            tensorflow/*) to=proto-tf ;;
            *) to=${where[$(basename "$inc")]:-unknown} ;;
        esac
        [ "$to" = unknown ] && { fail "$f includes \"$inc\", found nowhere in src/ or ui/"; continue; }
        [ "$from" = "$to" ] && continue
        edges["$from>$to"]=$(( ${edges["$from>$to"]:-0} + 1 ))
        # The program's entry point picks a face: the only file of one face
        # that names the other.
        [ "$f" = src/cli/main.c ] && [ "$inc" = tui.h ] && continue
        allowed "$from" "$to" || fail "$f ($from) includes \"$inc\" ($to): an arrow against the layers"
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src ui -name '*.[ch]' | sort)

# A reader is one folder: the functions its private headers declare, its
# state and its generated protobuf code are named nowhere else.
for r in onnx tf pt; do
    CHECKS=$((CHECKS + 1))
    # Names declared at the top level of the reader's headers (a function's
    # name is the word before its first parenthesis).
    names=$(grep -hE '^[A-Za-z].*\(' src/formats/$r/*.h 2>/dev/null | grep -vE '^(typedef|#)' |
            sed -E 's/\(.*//' | grep -oE '[A-Za-z_][A-Za-z0-9_]*$' | grep -E '^(nnav_|tf_|onnx_|pt_|pk_)' | sort -u)
    [ -n "$names" ] || { fail "no functions found in src/formats/$r/*.h"; continue; }
    hits=$(grep -rnwE "$(echo $names | tr ' ' '|')" src ui --include='*.[ch]' | grep -v "^src/formats/$r/")
    [ -z "$hits" ] || { fail "$r reader internals named outside src/formats/$r:"; echo "$hits" | head -20; }
done
CHECKS=$((CHECKS + 1))
hits=$(grep -rnE 'struct nnav_tf\b|\bm->tf\b|"tf\.h"|tensorflow/[a-z_]+\.pb-c\.h' src ui --include='*.[ch]' |
       grep -v '^src/formats/tf/')
[ -z "$hits" ] || { fail "TensorFlow reader state named outside src/formats/tf:"; echo "$hits" | head -20; }

CHECKS=$((CHECKS + 1))
[ -e src/infer.c ] || [ -e src/typed/infer.c ] && fail "a second inference engine (infer.c) is still there"
grep -rn 'nnav_value_elem_type\|nnav_infer_ranks' src ui --include='*.[ch]' > /dev/null &&
    fail "nnav_value_elem_type / nnav_infer_ranks (the older inference) are still named"
CHECKS=$((CHECKS + 1))
[ -e src/cli.c ] && fail "src/cli.c is in the core folder"
CHECKS=$((CHECKS + 1))
big=$(find src ui tests samples -type f \( -name '*.c' -o -name '*.h' -o -name '*.py' -o -name '*.sh' \) -size +110k)
[ -z "$big" ] || fail "source files over 110 KB: $big"

if [ "${1:-}" = --draw ]; then
    echo "include arrows between folders (count of #include lines):"
    for e in "${!edges[@]}"; do printf '  %-22s %s\n' "${e/>/ -> }" "${edges[$e]}"; done | sort
fi
finish
