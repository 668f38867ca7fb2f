#!/usr/bin/env bash
# nnav completions bash|zsh (issue 32 item 9): the script is sourced in a
# real bash and its completion function asked as bash asks it (COMP_WORDS,
# COMP_CWORD, then COMPREPLY). The oracles: the commands `nnav --help`
# lists, the options `nnav summary --help` lists, and the node and
# initializer names onnx reads from the model. A hostile node name
# ('$(touch ...)') is offered as it is and never run.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx
T=$NNAV_TMP/completions; rm -rf "$T"; mkdir -p "$T/empty"
M=$NNAV_SAMPLES/cnn.onnx
expect_status 0 "$NNAV_BIN" completions bash
cp "$OUT" "$T/nnav.bash"
grep -qx 'complete -o default -F _nnav nnav' "$T/nnav.bash" || fail "no complete line: $(tail -2 "$T/nnav.bash")"
expect_status 0 "$NNAV_BIN" completions zsh
head -1 "$OUT" | grep -qx '#compdef nnav' || fail "zsh: no #compdef line: $(head -2 "$OUT")"
grep -q 'bashcompinit' "$OUT" || fail "zsh: the script does not load bashcompinit"
expect_status 1 "$NNAV_BIN" completions fish
grep -q "bash or zsh" "$ERR" || fail "completions fish: $(cat "$ERR")"

# ask WORDS...: what the script completes for the last word (empty dir:
# no file names mixed in), one a line, sorted.
ask() {
    (cd "$T/empty" && PATH=$(dirname "$NNAV_BIN"):$PATH bash -c '
        source "$1"; shift
        COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nnav
        printf "%s\n" "${COMPREPLY[@]}"' ask "$T/nnav.bash" "$@") | sed '/^$/d' | sort
}
same() { # WHAT GOT WANT
    CHECKS=$((CHECKS + 1))
    [ "$2" = "$3" ] || fail "$1: completed $(echo "$2" | tr '\n' ' '), wanted $(echo "$3" | tr '\n' ' ')"
}

# A command prefix: the commands nnav --help lists that start with "s".
"$NNAV_BIN" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF { print $1 }' | grep -v '^Commands:' > "$T/cmds"
[ "$(wc -l < "$T/cmds")" -ge 15 ] || fail "nnav --help lists $(wc -l < "$T/cmds") commands"
same "nnav s" "$(ask nnav s)" "$(grep '^s' "$T/cmds" | sort)"
same "nnav help ti" "$(ask nnav help t)" "$(grep '^t' "$T/cmds" | sort)"
grep -qx completions "$T/cmds" || fail "nnav --help does not list completions"
# An option prefix: summary's options from its --help.
"$NNAV_BIN" summary --help | grep -o -- '--[a-z-]*' | sort -u > "$T/sumopts"
same "nnav summary M --d" "$(ask nnav summary "$M" --d)" "$(grep -- '^--d' "$T/sumopts")"
same "nnav summary M --" "$(ask nnav summary "$M" --)" "$( (cat "$T/sumopts"; echo --help) | sort -u)"
# An option's choices, from the table (export --format yaml|onnx).
same "export --format" "$(ask nnav export "$M" --format '')" "$(printf 'onnx\nyaml')"

# Names: the model's node and initializer names as onnx reads them.
"$py" - "$M" "$T/evil.onnx" > "$T/names" <<'EOF' || fail "onnx"
import sys, onnx
from onnx import helper, TensorProto
g = onnx.load(sys.argv[1]).graph
print(" ".join(sorted(n.name for n in g.node if n.name.startswith("c"))))
print(" ".join(sorted(t.name for t in g.initializer if t.name.startswith("conv1"))))
n = helper.make_node("Relu", ["x"], ["y"], name="$(touch PWNED)relu")
q = helper.make_node("Relu", ["y"], ["z"], name="a, b'c \\\"d\\")  # quoted in find's YAML
e = helper.make_graph([n, q], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                      [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1])])
onnx.save(helper.make_model(e, opset_imports=[helper.make_opsetid("", 17)]), sys.argv[2])
EOF
{ read -r nodes; read -r inits; } < "$T/names"
[ -n "$nodes" ] && [ -n "$inits" ] || fail "the oracle found no names: '$nodes' '$inits'"
same "nnav node M c" "$(ask nnav node "$M" c)" "$(echo "$nodes" | tr ' ' '\n')"
same "tensors --name conv1" "$(ask nnav tensors "$M" --name conv1)" "$(echo "$inits" | tr ' ' '\n')"
same "nnav node EVIL \$" "$(ask nnav node "$T/evil.onnx" '$')" '$(touch PWNED)relu'
same "nnav node EVIL a" "$(ask nnav node "$T/evil.onnx" a)" 'a, b'"'"'c \"d\'
[ -e "$T/empty/PWNED" ] && fail "completing a hostile node name ran its \$(...)"
finish
