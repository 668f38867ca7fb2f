#!/usr/bin/env bash
# Every operator the ONNX package knows, with each attribute and int64 operand
# pushed to an edge (tests/cli/op_sweep.py), through every command that reads
# attributes or infers types. Each run must exit 0 or 2 in time, print nothing
# raw and leave no sanitizer report (CI runs it under ASan+UBSan). The same
# sweep found Release segfaults in ConvInteger, ConvTranspose, QLinearConv
# (attributes read as symbolic dims) and SequenceConstruct (an omitted input).
set -u
. "$(dirname "$0")/lib.bash"
py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx' 2> /dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx package (apt-get install python3-onnx)"
    exit 77
fi
T=$NNAV_TMP/op_sweep
rm -rf "$T"
mkdir -p "$T/models" "$T/out"
n=$("$py" "$(dirname "$0")/op_sweep.py" "$T/models") || { echo "FAIL: op_sweep.py"; exit 1; }
[ "$n" -gt 150 ] || fail "op_sweep.py wrote only $n models"
SAN_RE='runtime error|==[0-9]+==ERROR|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer'
for f in "$T"/models/*.onnx; do
    name=$(basename "$f" .onnx)
    for action in info shapes cost check node export; do
        case $action in
            info) args=(info "$f") ;;
            shapes) args=(shapes "$f" --all) ;;
            cost) args=(cost "$f" --all --nodes) ;;
            check) args=(check "$f" --all --yaml) ;;
            node) args=(node "$f" n1) ;;
            export) args=(export "$f" --format onnx -o "$T/out/$name.onnx") ;;
        esac
        CHECKS=$((CHECKS + 1))
        (ulimit -s 256; exec timeout 60 "$NNAV_BIN" "${args[@]}") > "$OUT" 2> "$ERR"
        rc=$?
        case $rc in
            0 | 2) ;;
            124) fail "$name $action: timed out" ;;
            *) fail "$name $action: exit $rc"; head -3 "$ERR" | sed 's/^/  stderr: /' ;;
        esac
        if grep -qE "$SAN_RE" "$ERR"; then
            fail "$name $action: sanitizer report"
            grep -m3 -E "$SAN_RE" "$ERR" | sed 's/^/  /'
        fi
        if LC_ALL=C grep -q $'[\001-\011\013-\037\177]' "$OUT" "$ERR"; then
            fail "$name $action: a raw control byte"
        fi
    done
done
rm -rf "$T/out"
finish
