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
