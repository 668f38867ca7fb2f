#!/usr/bin/env bash
# Refusals say one thing (issue 32 item 5). A file of no format nnav reads is
# told for what it is, with the one list of readable formats, built from the
# table of readers: the list in every refusal is the same text, names every
# reader of src/formats/readers.c's table with what it reads (the oracle is
# that table and each reader's row, read from the source here), and is the
# list `nnav --help` gives. A damaged file of a format nnav reads is told in
# that format's words (never protobuf's "field number 0"); a SavedModel's
# info keeps the sniffing's reasoning for --verbose. Exit 2 throughout.
set -u
. "$(dirname "$0")/lib.bash"
need_python json
T=$NNAV_TMP/refusals
rm -rf "$T"
mkdir -p "$T"

# ---- the oracle: the readers' table and what each row says it reads ----
"$py" - "$NNAV_SRC" > "$T/table.txt" << 'PY' || fail "cannot read the readers' table"
import glob, re, sys
src = sys.argv[1]
table = open(src + "/src/formats/readers.c").read()
rows = re.search(r"readers\[\]\s*=\s*\{([^}]*)\}", table).group(1)
for sym in re.findall(r"&(nnav_reader_\w+)", rows):
    for f in glob.glob(src + "/src/formats/*/*.c"):
        m = re.search(r"const nnav_reader " + sym + r" = \{(.*?)\n\};", open(f).read(), re.S)
        if m:
            name = re.search(r'\.name = "([^"]*)"', m.group(1)).group(1)
            reads = re.search(r'\.reads = "([^"]*)"', m.group(1))
            print(name + (" (" + reads.group(1) + ")" if reads else ""))
            break
    else:
        sys.exit("no row for " + sym)
PY
[ "$(wc -l < "$T/table.txt")" -ge 5 ] || fail "the readers' table has fewer than 5 rows: $(cat "$T/table.txt")"
grep -q '^PyTorch' "$T/table.txt" || fail "no PyTorch reader in the table"

# the list a refusal gives: the text after "nnav reads "
list_of() { sed -n 's/.*; nnav reads \(.*\)$/\1/p' "$1"; }
# in_order LIST: each row of the table in the list, in the table's order
in_order() {
    local rest=$1 row
    while IFS= read -r row; do
        case $rest in
            *"$row"*) rest=${rest#*"$row"} ;;
            *) fail "the list lacks '$row' (or has it out of the table's order): $1"; return ;;
        esac
    done < "$T/table.txt"
}
first_list=""
# refused FILE REGEX: nnav info FILE exits 2 saying REGEX, then the one list.
refused() {
    local f=$1 re=$2 l
    expect_status 2 "$NNAV_BIN" info "$f"
    grep -qE -- "$re" "$ERR" || fail "$(basename "$f"): wanted /$re/, got: $(head -c 400 "$ERR")"
    l=$(list_of "$ERR")
    [ -n "$l" ] || { fail "$(basename "$f"): no list of readable formats: $(cat "$ERR")"; return; }
    in_order "$l"
    [ -z "$first_list" ] && first_list=$l
    [ "$l" = "$first_list" ] || fail "$(basename "$f"): another list: '$l' (first: '$first_list')"
    grep -qE 'wire type|field (number )?[0-9]' "$ERR" && fail "$(basename "$f"): protobuf jargon: $(cat "$ERR")"
    # the same refusal as YAML is asked for: the same words
    expect_status 2 "$NNAV_BIN" info "$f" --yaml
    [ "$(list_of "$ERR")" = "$first_list" ] || fail "$(basename "$f") --yaml: another list: $(cat "$ERR")"
}

printf 'These are notes about the model,\nnot the model.\n' > "$T/notes.txt"
refused "$T/notes.txt" '^nnav: .*notes\.txt: this is a text file, not a model; nnav reads '
"$py" -c 'import json,sys; json.dump({"architectures": ["LlamaForCausalLM"], "hidden_size": 64}, open(sys.argv[1], "w"))' "$T/config.json"
refused "$T/config.json" 'this is a JSON file, not a model; nnav reads '

# A FlatBuffer with TFLite's file identifier, written by flatc from a schema
# that declares it (the real writer of the format's framing), else by hand:
# the root offset, then "TFL3" at byte 4.
if command -v flatc > /dev/null; then
    printf 'table Model { version: uint; description: string; }\nroot_type Model;\nfile_identifier "TFL3";\nfile_extension "tflite";\n' > "$T/tfl.fbs"
    printf '{ version: 3, description: "a converted model" }\n' > "$T/model.json"
    (cd "$T" && flatc -b tfl.fbs model.json) || fail "flatc could not write the model"
else
    echo "SKIP (partly): no flatc; the TFLite file is written by hand"
    printf '\x10\x00\x00\x00TFL3\x00\x00\x00\x00\x00\x00\x00\x00' > "$T/model.tflite"
fi
[ "$(dd if="$T/model.tflite" bs=1 skip=4 count=4 2> /dev/null)" = TFL3 ] || fail "model.tflite: no TFL3 at byte 4"
refused "$T/model.tflite" 'this is a TensorFlow Lite model \(FlatBuffers\), which nnav does not read; nnav reads '

# Bytes of no format at all (no magic number, not even one protobuf field:
# protobuf's field number 0 does not exist): refused as no model, with the
# list. Named .onnx, the same bytes are the ONNX reader's to explain.
printf '\000\000\000\000not a model at all' > "$T/blob.bin"
refused "$T/blob.bin" 'this is no model file nnav reads: it starts with no magic number of a format nnav knows, and not as protobuf; nnav reads '
cp "$T/blob.bin" "$T/blob.onnx"
expect_status 2 "$NNAV_BIN" info "$T/blob.onnx"
grep -q 'nnav reads' "$ERR" && fail "blob.onnx: refused as no model, not told by the ONNX reader: $(cat "$ERR")"

# the help gives the same list (its lines joined)
expect_status 0 "$NNAV_BIN" --help
help=$(sed -n '/^MODEL is/,/^Exit status/p' "$OUT" | sed '$d' | tr '\n' ' ')
case $help in
    *"$first_list."*) ;;
    *) fail "--help lists another set of formats: $help (refusals: $first_list)" ;;
esac

# ---- damaged files of formats nnav reads: told in their own words ----
# safetensors, its header not JSON where a key belongs: the JSON fault, at
# the byte Python's json decoder finds it (8 bytes of length before it).
"$py" - "$T" << 'PY'
import json, struct, sys
t = sys.argv[1]
def write(name, header, length=None, body=b""):
    with open(t + "/" + name, "wb") as f:
        f.write(struct.pack("<Q", len(header) if length is None else length) + header + body)
bad = b'{weight: {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'
write("bad_key.safetensors", bad, body=b"\0" * 8)
try:
    json.loads(bad)
except json.JSONDecodeError as e:
    open(t + "/bad_key.pos", "w").write(str(8 + e.pos))
good = b'{"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}'
write("huge_len.safetensors", good, length=0x0101010101010101, body=b"\0" * 8)
write("cut_header.safetensors", good[:30], length=len(good))
open(t + "/cut_header.want", "w").write("header length %d runs past the end of the file (30 bytes after the length)" % len(good))
PY
pos=$(cat "$T/bad_key.pos")
expect_status 2 "$NNAV_BIN" info "$T/bad_key.safetensors"
grep -q "expected a member's key (a string) in an object, found 'w' at offset $pos\$" "$ERR" ||
    fail "bad_key.safetensors: not the JSON fault at offset $pos: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" info "$T/huge_len.safetensors"
grep -q "header length $((0x0101010101010101)) is over safetensors' limit of 100000000 bytes" "$ERR" ||
    fail "huge_len.safetensors: not the header length rule: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" info "$T/cut_header.safetensors"
grep -qF "$(cat "$T/cut_header.want")" "$ERR" ||
    fail "cut_header.safetensors: not the header length rule: $(cat "$ERR")"
for f in bad_key huge_len cut_header; do
    expect_status 2 "$NNAV_BIN" info "$T/$f.safetensors"
    grep -qE 'field number|wire type|nnav reads' "$ERR" && fail "$f.safetensors: told as no safetensors file: $(cat "$ERR")"
done

# GGUF cut short: in its header, and in its first key, each named by its
# field with what it wants and what is left, as the format's layout (laid
# out here from the specification: magic, version, n_tensors, n_kv; a key a
# uint64 length and its bytes) says. (Hugging Face's @huggingface/gguf is no
# oracle here: it reads past the end of a cut file as zeros.)
"$py" - "$T" << 'PY'
import struct, sys
t = sys.argv[1]
key = b"general.architecture"
whole = (b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + struct.pack("<Q", len(key)) + key +
         struct.pack("<I", 8) + struct.pack("<Q", 5) + b"llama")
cut = 12  # inside n_tensors, which starts at byte 8
open(t + "/cut_header.gguf", "wb").write(whole[:cut])
open(t + "/cut_header.gguf.want", "w").write(
    "header.n_tensors: the file ends inside it (8 bytes wanted, %d left) at offset 8" % (cut - 8))
cut = 24 + 8 + 10  # inside the first key's bytes
open(t + "/cut_key.gguf", "wb").write(whole[:cut])
open(t + "/cut_key.gguf.want", "w").write(
    "kv[0].key: a string of %d bytes, past the end of the file (%d left) at offset 24" % (len(key), cut - 32))
PY
for f in cut_header cut_key; do
    expect_status 2 "$NNAV_BIN" info "$T/$f.gguf"
    grep -qF "$(cat "$T/$f.gguf.want")" "$ERR" || fail "$f.gguf: wanted '$(cat "$T/$f.gguf.want")', got: $(cat "$ERR")"
    grep -qE 'field number|wire type|nnav reads' "$ERR" && fail "$f.gguf: told as no GGUF file: $(cat "$ERR")"
done
# named .gguf but with no magic: the GGUF reader says so
printf 'GGUX\003\000\000\000' > "$T/no_magic.gguf"
expect_status 2 "$NNAV_BIN" info "$T/no_magic.gguf"
grep -q 'header.magic: the file starts with "GGUX", not GGUF.s magic "GGUF" at offset 0' "$ERR" ||
    fail "no_magic.gguf: the magic is not named: $(cat "$ERR")"

# ---- a SavedModel's info: the format, its reasoning only with --verbose ----
SM=$NNAV_SAMPLES/tf_saved_model
expect_status 0 "$NNAV_BIN" info "$SM"
grep -q '^format *TensorFlow SavedModel$' "$OUT" || fail "info: format line: $(grep '^format' "$OUT")"
grep -qE 'read as|field 2|MetaGraphDef|ModelProto' "$OUT" && fail "info shows the sniffing's reasoning: $(grep -E 'read as|field 2' "$OUT")"
expect_status 0 "$NNAV_BIN" info "$SM" --verbose
grep -q '^format *TensorFlow SavedModel (read as a TensorFlow SavedModel: field 2 holds a MetaGraphDef' "$OUT" ||
    fail "info --verbose: no reasoning: $(grep '^format' "$OUT")"
expect_status 0 "$NNAV_BIN" info "$SM" --yaml
grep -q '^format_reason: ' "$OUT" || fail "info --yaml: no format_reason"
expect_status 1 "$NNAV_BIN" tree "$SM" --verbose
finish
