#!/usr/bin/env bash
# The man page stays in step with the CLI: every option each command's --help
# lists, every YAML key the commands emit, and every key of the explorer's key
# table (ui/KEYS.md, generated from the request list) appear in man/nnav.1.
set -u
. "$(dirname "$0")/lib.bash"
MAN=$NNAV_SRC/man/nnav.1
# roff writes "-" as "\-": compare against a plain-text copy.
plain=$NNAV_TMP/man.txt
sed 's/\\-/-/g; s/\\e/\\/g; s/\\f[BIRP]//g' "$MAN" > "$plain"

for cmd in info tree nodes node tensors find export; do
    expect_status 0 "$NNAV_BIN" "$cmd" --help
    for opt in $(grep -o -- '--[a-z]*' "$OUT" | sort -u); do
        grep -q -- "$opt" "$plain" || fail "man page lacks $cmd's option $opt"
    done
done

py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import yaml' 2>/dev/null && { py=$c; break; }; done
if [ -n "$py" ]; then
    S=$NNAV_SAMPLES
    : > "$NNAV_TMP/yaml_keys"
    for args in "info $S/control_flow.onnx" "tree $S/control_flow.onnx" "nodes $S/cnn.onnx" \
                "node $S/control_flow.onnx loop" "node $S/control_flow.onnx then_mul" \
                "tensors $S/control_flow.onnx --all --constants --values 2" "find $S/cnn.onnx conv" \
                "export $S/control_flow.onnx --binary" "export $S/external.onnx --max-values 200"; do
        # shellcheck disable=SC2086
        case "$args" in export*) extra="" ;; *) extra=--yaml ;; esac
        # shellcheck disable=SC2086
        expect_status 0 "$NNAV_BIN" $args $extra
        "$py" - "$OUT" >> "$NNAV_TMP/yaml_keys" <<'PY'
import sys, yaml
def walk(x):
    if isinstance(x, dict):
        for k, v in x.items():
            print(k); walk(v)
    elif isinstance(x, list):
        for v in x: walk(v)
walk(yaml.safe_load(open(sys.argv[1])))
PY
    done
    for k in $(sort -u "$NNAV_TMP/yaml_keys"); do
        grep -qw -- "$k" "$plain" || fail "man page lacks YAML key $k"
    done
else
    echo "SKIP (partly): no PyYAML to list the YAML keys"
fi

if [ -f "$NNAV_SRC/ui/KEYS.md" ]; then
    # The explorer's keys in nnav(1) are the key table's, both ways: every key
    # (and mouse action) of ui/KEYS.md, generated from NNAV_REQUESTS, is the
    # tag of an entry in EXPLORER, and every tag there is one of them. A tag
    # line is the one after .TP; its bold words are keys (".BR Up \", \" k").
    # "| `Up, k` | move-up | ..." -> Up k
    grep -o '^| `[^`]*`' "$NNAV_SRC/ui/KEYS.md" | sed 's/^| `//; s/`$//; s/, /\n/g' |
        grep -vxE 'C-m|KP-Enter|DEL|C-h' | sort -u > "$NNAV_TMP/keys_table"  # synonyms the man page folds
    sed -n '/^\.SH EXPLORER/,/^\.SH /p' "$MAN" | awk '
        prev == ".TP" {
            line = $0; gsub(/\\-/, "-", line); gsub(/\\e/, "\\", line)
            n = 0; rest = line; sub(/^\.[A-Z]+ */, "", rest)
            macro = substr(line, 2, index(line " ", " ") - 2)
            while (length(rest)) {   # roff words: "quoted" or bare
                if (substr(rest, 1, 1) == "\"") { e = index(substr(rest, 2), "\""); w = substr(rest, 2, e - 1); rest = substr(rest, e + 2) }
                else { e = index(rest " ", " "); w = substr(rest, 1, e - 1); rest = substr(rest, e) }
                sub(/^ +/, "", rest); n++
                bold = macro == "B" || (macro == "BR" && n % 2 == 1) || (macro == "RB" && n % 2 == 0)
                if (bold) print w
            }
        }
        { prev = $0 }' | sort -u > "$NNAV_TMP/keys_man"
    CHECKS=$((CHECKS + 1))
    for key in $(comm -23 "$NNAV_TMP/keys_table" "$NNAV_TMP/keys_man"); do
        fail "nnav(1) EXPLORER has no entry for key $key (ui/keys.h)"
    done
    for key in $(comm -13 "$NNAV_TMP/keys_table" "$NNAV_TMP/keys_man"); do
        fail "nnav(1) EXPLORER lists key $key, which the key table (ui/keys.h) does not bind"
    done
fi
finish
