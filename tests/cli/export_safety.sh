#!/usr/bin/env bash
# Export writes safely: never through a symlink, never over the input, never
# a partial file (temporary file then rename), clear errors for a missing
# folder and a full disk; YAML to stdout when no file is named.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/export_safety; rm -rf "$T"; mkdir -p "$T"
S=$NNAV_SAMPLES
cp "$S/cnn.onnx" "$T/model.onnx"

expect_status 0 "$NNAV_BIN" export "$T/model.onnx"
grep -q '^graph:' "$OUT" || fail "YAML goes to stdout"
expect_status 1 "$NNAV_BIN" export "$T/model.onnx" --format onnx
grep -q 'needs -o FILE' "$ERR" || fail "ONNX without -o is a usage error"
expect_status 1 "$NNAV_BIN" export "$T/model.onnx" --format xml
expect_status 1 "$NNAV_BIN" export "$T/model.onnx" --inputs input --outputs nosuch
grep -q "no value named 'nosuch'" "$ERR" || fail "unknown output named: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" export "$T/model.onnx" --inputs pool1_out --outputs conv1_out
grep -q "value 'input' is needed but is neither a chosen input nor computable" "$ERR" || fail "missing input named: $(cat "$ERR")"

# A symlink as the target: refused, and what it points to is untouched.
echo precious > "$T/precious"
ln -s "$T/precious" "$T/link.yaml"
expect_status 2 "$NNAV_BIN" export "$T/model.onnx" -o "$T/link.yaml"
grep -q 'symbolic link' "$ERR" || fail "symlink refused with a reason"
[ "$(cat "$T/precious")" = precious ] || fail "symlink target changed"

# The input itself, and a hard link to it.
expect_status 2 "$NNAV_BIN" export "$T/model.onnx" --format onnx -o "$T/model.onnx"
grep -q 'model being read' "$ERR" || fail "input refused"
ln "$T/model.onnx" "$T/hard.onnx"
expect_status 2 "$NNAV_BIN" export "$T/model.onnx" --format onnx -o "$T/hard.onnx"
cmp -s "$S/cnn.onnx" "$T/model.onnx" || fail "the input changed"

# A folder that does not exist.
expect_status 2 "$NNAV_BIN" export "$T/model.onnx" -o "$T/no/such/dir/out.yaml"
grep -q 'folder does not exist' "$ERR" || fail "missing folder named"

# Overwriting an ordinary file is allowed and atomic; nothing temporary remains.
echo old > "$T/out.yaml"
expect_status 0 "$NNAV_BIN" export "$T/model.onnx" -o "$T/out.yaml"
grep -q '^graph:' "$T/out.yaml" || fail "file written"
grep -q 'wrote .*out.yaml' "$ERR" || fail "confirmation names the file"
ls -A "$T" | grep -q '\.nnav-' && fail "temporary file left behind"

# Targets that are not ordinary files, refused at once (a FIFO must not
# block the export waiting for a reader); the input under other spellings.
mkfifo "$T/fifo.yaml"
mkdir -p "$T/dir.yaml" "$T/sub"
for target in "$T/fifo.yaml" "$T/dir.yaml" /dev/null; do
    expect_status 2 timeout 10 "$NNAV_BIN" export "$T/model.onnx" -o "$target"
    grep -q 'it exists and is not a regular file' "$ERR" || fail "$target refused with a reason: $(cat "$ERR")"
done
for target in "$T/sub/../model.onnx" "$T/./model.onnx"; do
    expect_status 2 "$NNAV_BIN" export "$T/model.onnx" --format onnx -o "$target"
    grep -q 'model being read' "$ERR" || fail "input as $target refused"
done
cmp -s "$S/cnn.onnx" "$T/model.onnx" || fail "the input changed"

# External data: its file is the input too, and so is OUT.data when it is a
# symbolic or hard link to it; a FIFO there is refused like any other.
cp "$S/external.onnx" "$S/external.onnx.data" "$T/"
expect_status 2 "$NNAV_BIN" export "$T/external.onnx" -o "$T/external.onnx.data"
grep -q 'model being read (or its data)' "$ERR" || fail "data file refused: $(cat "$ERR")"
ln -s external.onnx.data "$T/xsym.onnx.data"
expect_status 2 "$NNAV_BIN" export "$T/external.onnx" --format onnx --external keep -o "$T/xsym.onnx"
grep -q 'it is a symbolic link.*: .*xsym.onnx.data$' "$ERR" || fail "OUT.data symlink refused: $(cat "$ERR")"
ln "$T/external.onnx.data" "$T/xhard.onnx.data"
expect_status 2 "$NNAV_BIN" export "$T/external.onnx" --format onnx --external keep -o "$T/xhard.onnx"
grep -q 'it is the model being read.*: .*xhard.onnx.data$' "$ERR" || fail "OUT.data hard link refused: $(cat "$ERR")"
mkfifo "$T/xfifo.onnx.data"
expect_status 2 timeout 10 "$NNAV_BIN" export "$T/external.onnx" --format onnx --external keep -o "$T/xfifo.onnx"
grep -q 'it exists and is not a regular file: .*xfifo.onnx.data$' "$ERR" || fail "OUT.data FIFO refused: $(cat "$ERR")"
cmp -s "$S/external.onnx.data" "$T/external.onnx.data" || fail "the input's data changed"
for f in xsym xhard xfifo; do [ -e "$T/$f.onnx" ] && fail "$f.onnx written though its data was refused"; done
ls -A "$T" | grep -q '\.nnav-' && fail "temporary file left behind"

# Size, mtime (to the nanosecond) and inode: a refused target keeps all three.
stamp() { stat -c '%s %.9Y %i' "$1"; }

# A SavedModel: every file it reads is refused as the target, compared by
# device and inode: its variables/variables.index under its own name, a hard
# link, a symbolic link, a linked folder and a detour through ..; its shard and
# saved_model.pb. Each refusal names the file; the index is left unchanged.
cp -r "$S/tf_saved_model" "$T/sm"
IDX=$T/sm/variables/variables.index
touch -d '2001-02-03 04:05:06' "$IDX"
cp "$IDX" "$T/index.orig"
before=$(stamp "$IDX")
ln "$IDX" "$T/idx-hard.yaml"
ln -s "$IDX" "$T/idx-sym.yaml"
ln -s "$T/sm/variables" "$T/vlink"
for model in "$T/sm" "$T/sm/saved_model.pb"; do
    for target in "$IDX" "$T/idx-hard.yaml" "$T/idx-sym.yaml" "$T/vlink/variables.index" \
                  "$T/sm/variables/../variables/variables.index"; do
        expect_status 2 "$NNAV_BIN" export "$model" -o "$target"
        grep -q 'model being read (or its data): its variables/variables.index' "$ERR" ||
            fail "-o $target refused naming the index: $(cat "$ERR")"
        cmp -s "$T/index.orig" "$IDX" || fail "-o $target changed the index"
        [ "$(stamp "$IDX")" = "$before" ] || fail "-o $target touched the index"
    done
done
expect_status 2 "$NNAV_BIN" export "$T/sm" -o "$T/sm/variables/variables.data-00000-of-00001"
grep -q 'its external data file variables/variables.data-00000-of-00001' "$ERR" || fail "shard refused: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" export "$T/sm" -o "$T/sm/saved_model.pb"
grep -q 'model being read (or its data): the model file' "$ERR" || fail "saved_model.pb refused: $(cat "$ERR")"
cmp -s "$S/tf_saved_model/saved_model.pb" "$T/sm/saved_model.pb" || fail "saved_model.pb changed"
cmp -s "$S/tf_saved_model/variables/variables.data-00000-of-00001" \
    "$T/sm/variables/variables.data-00000-of-00001" || fail "the shard changed"
ls -A "$T" "$T/sm" "$T/sm/variables" | grep -q '\.nnav-' && fail "temporary file left behind"
# An ordinary file beside it is still written.
expect_status 0 "$NNAV_BIN" export "$T/sm" -o "$T/sm/variables/export.yaml"

# An ONNX model's data file under -o, by name and by hard link: bytes and
# mtime unchanged.
touch -d '2001-02-03 04:05:06' "$T/external.onnx.data"
before=$(stamp "$T/external.onnx.data")
for target in "$T/external.onnx.data" "$T/xhard.onnx.data"; do
    for fmt in yaml onnx; do
        expect_status 2 "$NNAV_BIN" export "$T/external.onnx" --format $fmt -o "$target"
        grep -q 'model being read (or its data): its external data file external.onnx.data' "$ERR" ||
            fail "-o $target ($fmt) refused naming the data file: $(cat "$ERR")"
    done
done
[ "$(stamp "$T/external.onnx.data")" = "$before" ] || fail "the data file was touched"
cmp -s "$S/external.onnx.data" "$T/external.onnx.data" || fail "the input's data changed"

# A full disk: a small tmpfs when we may mount one, else a file-size limit.
D=$T/full; mkdir -p "$D"
if mount -t tmpfs -o size=16k tmpfs "$D" 2> /dev/null; then
    expect_status 2 "$NNAV_BIN" export "$T/model.onnx" --format onnx -o "$D/big.onnx"
    grep -q 'disk is full' "$ERR" || fail "full disk named: $(cat "$ERR")"
    [ -e "$D/big.onnx" ] && fail "partial file left on a full disk"
    ls -A "$D" | grep -q . && fail "temporary file left on a full disk"
    umount "$D"
else
    (trap '' XFSZ; ulimit -f 8; "$NNAV_BIN" export "$T/model.onnx" --format onnx -o "$D/big.onnx" > "$OUT" 2> "$ERR")
    rc=$?
    CHECKS=$((CHECKS + 1))
    [ $rc -eq 2 ] || fail "file-size limit: exit $rc"
    grep -q 'write' "$ERR" || fail "write failure named: $(cat "$ERR")"
    [ -e "$D/big.onnx" ] && fail "partial file left"
    ls -A "$D" | grep -q . && fail "temporary file left"
    echo "note: no tmpfs mount here; a file-size limit stood in for a full disk"
fi
finish
