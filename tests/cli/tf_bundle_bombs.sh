#!/usr/bin/env bash
# SavedModel checkpoints built byte by byte at test time by tf_bundle_gen.py
# (the standard library only; no TensorFlow): memory bombs in
# variables/variables.index, and string variables.
#
# Each bomb is an index under 900 KB that an unbounded reader turns into
# gigabytes: keys that each repeat the whole previous key (4.7 GB rebuilt),
# one 140 KB block named by 60,000 index entries (8.4 GB of copies), a Snappy
# block decoding to 8 MB named 1,000 times (8.4 GB), 2.8 million 3-byte
# entries out of one Snappy block. Each must end in well under 10 s, exit 2
# and name what it broke: the index's memory budget (with the file and an
# offset) or the rule that a table names its data blocks once each, in file
# order. Runs are held to 2 GB of address space where the build allows it
# (not under ASan, which reserves terabytes; there the time limit holds).
# Within budget, the same 8 MB Snappy block named once opens.
#
# Strings: a DT_STRING variable in a data shard (varint lengths, their masked
# CRC-32C, the bytes) is decoded by `tensors --values` and printed escaped;
# damaged lengths are an error naming the shard and byte. The real TF2
# SavedModel of the corpus has one (_CHECKPOINTABLE_OBJECT_GRAPH): it must
# read as the same bytes the model's own Const holds.
set -u
. "$(dirname "$0")/lib.bash"
corpus_part
T=$NNAV_TMP/tf_bundle_bombs
rm -rf "$T"
mkdir -p "$T"
GEN=$(dirname "$0")/tf_bundle_gen.py
PB=$NNAV_SAMPLES/tf_saved_model/saved_model.pb
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import struct' 2> /dev/null && { py=$c; break; }; done
if [ -z "$py" ]; then
    echo "SKIP: no python3 to write the checkpoints"
    exit 77
fi
for k in strings keybomb refbomb snappybomb snappyonce tinybomb; do
    "$py" "$GEN" "$k" "$T/$k" "$PB" || fail "tf_bundle_gen.py $k failed"
done

LIMITS="ulimit -s 1024"
if { (ulimit -v 2000000 && exec "$NNAV_BIN" --version) > /dev/null 2>&1; } 2> /dev/null; then
    LIMITS="$LIMITS; ulimit -v 2000000"
else
    echo "note: no address-space limit (a sanitizer build): the bombs are held to their time limit only"
fi

# bomb NAME WANT-IN-STDERR...: every reading command exits 2 within 10 s,
# saying each phrase; no sanitizer report.
bomb() {
    local name=$1 cmd
    shift
    for cmd in info tensors; do
        CHECKS=$((CHECKS + 1))
        (eval "$LIMITS"; exec timeout 10 "$NNAV_BIN" $cmd "$T/$name") > "$OUT" 2> "$ERR"
        local rc=$?
        if [ $rc -ne 2 ]; then
            fail "$name: $cmd exited $rc (wanted 2; 124 is the 10 s limit): $(head -c 300 "$ERR")"
            continue
        fi
        grep -qE 'runtime error|==ERROR|Sanitizer' "$ERR" && fail "$name: sanitizer report"
        local want
        for want in "$@"; do
            grep -qF -- "$want" "$ERR" || fail "$name: $cmd does not say '$want': $(head -c 400 "$ERR")"
        done
    done
}

bomb keybomb "$T/keybomb: variables/variables.index: data block @0 entry[" \
    "needs more memory than its budget of $((16 * 1048576 + 32 * 750103)) bytes (16 MiB + 32 bytes per byte of its 750103)" \
    " at offset "
bomb tinybomb "variables/variables.index: data block @0 entry[" \
    "needs more memory than its budget of $((16 * 1048576 + 32 * 393333)) bytes (16 MiB + 32 bytes per byte of its 393333)"
bomb refbomb "variables/variables.index: index block: entry[1] names the data block at offset 0" \
    "a table names its data blocks once each, in file order" "at offset 140057"
bomb snappybomb "variables/variables.index: index block: entry[1] names the data block at offset 0" \
    "a table names its data blocks once each, in file order"

# The 8 MB Snappy block named once is within budget: it opens, its variable listed.
CHECKS=$((CHECKS + 1))
(eval "$LIMITS"; exec timeout 10 "$NNAV_BIN" tensors "$T/snappyonce" --values 1) > "$OUT" 2> "$ERR" ||
    fail "snappyonce: tensors failed: $(head -c 300 "$ERR")"
grep -q '^v  *float32\[\]' "$OUT" || fail "snappyonce: variable v not listed: $(head -c 300 "$OUT")"

# A string variable: every element, escaped as strings from the file are.
expect_status 0 "$NNAV_BIN" tensors "$T/strings" --values 10
want='    values: "hello", "", "esc \x1B[31mred", "naïve ✓", "tab\tnul\x00end", "'$(printf 'x%.0s' $(seq 300))'"'
grep -qxF -- "$want" "$OUT" || fail "strings: values line is not the six strings: $(grep values: "$OUT" | head -c 300)"
grep -q '^words  *string\[2,3\]  *349  external variables/variables.data-00000-of-00001 @12 +349$' "$OUT" ||
    fail "strings: the variable's line"
grep -q '    values: 1.5, -2, 0.25' "$OUT" || fail "strings: the float variable beside it"
expect_status 0 "$NNAV_BIN" tensors "$T/strings" --name words --values 2
grep -qxF '    values: "hello", "", ... (6 in all)' "$OUT" || fail "strings: first two of six: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" tensors "$T/strings" --name words --values 3 --yaml
grep -qF 'values: [hello, "", "esc \e[31mred"]' "$OUT" || fail "strings: YAML values: $(grep values "$OUT")"

# The lengths' checksum damaged (byte 13 of the shard is the length of the
# empty string: 0 -> 1): an error naming the shard and the byte where the
# checksum sits (12 + seven length bytes).
cp -r "$T/strings" "$T/damaged"
printf '\001' | dd of="$T/damaged/variables/variables.data-00000-of-00001" bs=1 seek=13 conv=notrunc 2> /dev/null
expect_status 2 "$NNAV_BIN" tensors "$T/damaged" --name words --values 3
grep -qF "the strings' lengths do not match their checksum" "$ERR" ||
    fail "damaged lengths: $(cat "$ERR")"
grep -qF 'at byte 19 of variables/variables.data-00000-of-00001' "$ERR" ||
    fail "damaged lengths: shard and byte not named: $(cat "$ERR")"

# The real one: TensorFlow 2.14's object graph, the same bytes as the Const
# in saved_model.pb that holds it (both printed escaped, whole).
C=$NNAV_CORPUS/tensorflow/saved_model_half_plus_two_tf2_cpu
if [ -d "$C" ]; then
    expect_status 0 "$NNAV_BIN" tensors "$C" --name _CHECKPOINTABLE_OBJECT_GRAPH --values 1
    var=$(grep '    values:' "$OUT")
    expect_status 0 "$NNAV_BIN" tensors "$C" --constants --name Const --values 1
    const=$(grep '    values:' "$OUT")
    case $var in
        '    values: "\n\x98\x01\n\x05\x12\x01a\x08\x01'*) ;;
        *) fail "corpus object graph: $(echo "$var" | head -c 200)" ;;
    esac
    [ "$var" = "$const" ] || fail "corpus object graph differs from the Const that holds it"
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS"
fi
finish
