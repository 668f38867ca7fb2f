#!/usr/bin/env bash
# What nnav is given to open is a regular file, or it says what it is and
# exits 2 at once: a named pipe (open() would wait for a writer forever), a
# device, a socket, a folder that is no SavedModel; as MODEL or named as
# external data, through every command. Each run is held to a time limit,
# so a hang fails instead of stalling the suite.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/files; rm -rf "$T"; mkdir -p "$T"
S=$NNAV_SAMPLES

# timed STATUS ARGS...: as expect_status, within 10 s (124 = it hung).
timed() {
    local want=$1; shift
    expect_status "$want" timeout 10 "$@"
}

mkfifo "$T/pipe.onnx"
for cmd in info nodes tensors shapes check; do
    timed 2 "$NNAV_BIN" $cmd "$T/pipe.onnx"
    grep -q 'the model is not a regular file (a named pipe)' "$ERR" ||
        fail "$cmd on a FIFO: $(head -c 300 "$ERR")"
done
# The explorer opens the model before it takes the terminal.
timed 2 "$NNAV_BIN" "$T/pipe.onnx"
grep -q 'not a regular file (a named pipe)' "$ERR" || fail "explorer on a FIFO: $(head -c 300 "$ERR")"
# A FIFO with a writer waiting on it: still refused, the writer not fed.
(exec 3> "$T/pipe.onnx"; sleep 3) &
writer=$!
timed 2 "$NNAV_BIN" info "$T/pipe.onnx"
grep -q 'not a regular file' "$ERR" || fail "FIFO with a writer: $(head -c 300 "$ERR")"
kill "$writer" 2> /dev/null
wait "$writer" 2> /dev/null

timed 2 "$NNAV_BIN" info /dev/null
grep -q 'not a regular file (a device)' "$ERR" || fail "/dev/null: $(head -c 300 "$ERR")"
timed 2 "$NNAV_BIN" info /dev/zero
grep -q 'not a regular file (a device)' "$ERR" || fail "/dev/zero: $(head -c 300 "$ERR")"
if command -v python3 > /dev/null; then
    # A socket's path must fit sockaddr_un (108 bytes): bound in a short
    # folder, whatever the depth of the build.
    sd=$(mktemp -d /tmp/nnav-sock.XXXXXX)
    python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$sd/sock.onnx"
    timed 2 "$NNAV_BIN" info "$sd/sock.onnx"
    rm -rf "$sd"
    grep -q 'not a regular file (a socket)' "$ERR" || fail "socket: $(head -c 300 "$ERR")"
fi
mkdir "$T/folder.onnx"
timed 2 "$NNAV_BIN" info "$T/folder.onnx"
grep -q 'a folder with no model file in it (no saved_model.pb' "$ERR" || fail "folder: $(head -c 300 "$ERR")"
# A SavedModel whose saved_model.pb is a FIFO.
mkdir "$T/sm"
mkfifo "$T/sm/saved_model.pb"
timed 2 "$NNAV_BIN" info "$T/sm"
grep -q 'sm: the model is not a regular file (a named pipe)' "$ERR" || fail "SavedModel with a FIFO: $(head -c 300 "$ERR")"

# External data that is a FIFO: every command that reads data refuses it
# without waiting; the others never open it.
mkdir "$T/ext"
cp "$S/external.onnx" "$T/ext/model.onnx"
mkfifo "$T/ext/external.onnx.data"
for cmd in info tensors check; do
    timed 0 "$NNAV_BIN" $cmd "$T/ext/model.onnx"
done
timed 2 "$NNAV_BIN" tensors "$T/ext/model.onnx" --values 2
grep -q 'refused: not a regular file' "$ERR" || fail "FIFO as data: $(head -c 300 "$ERR")"
timed 2 "$NNAV_BIN" export "$T/ext/model.onnx" --format onnx -o "$T/out.onnx"
grep -q 'not a regular file' "$ERR" || fail "export with a FIFO as data: $(head -c 300 "$ERR")"

finish
