#!/usr/bin/env bash
# A mistyped name gets the closest one (issue 32, item 1): a command that is
# no file ("summry" is read as a command, "did you mean 'summary'?", status
# 1), a file before its command (the order said), help's argument, and an
# option of the command (among those it takes), a node or initializer name
# the model does not have (its closest names among the model's, status 2;
# the candidates are the sample's own, listed by `nnav nodes`/`tensors`). A
# name that is a file, or that reads as one, is opened as before.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/suggest; rm -rf "$T"; mkdir -p "$T"
OUT=$T/last.out
ERR=$T/last.err
S=$NNAV_SAMPLES/cnn.onnx
expect_status 1 "$NNAV_BIN" summry "$S"
grep -qxF "nnav: unknown command 'summry'; did you mean 'summary'?" "$ERR" || fail "summry: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" sumary "$S"
grep -qF "did you mean 'summary'?" "$ERR" || fail "sumary: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" infoo "$S"
grep -qF "did you mean 'info'?" "$ERR" || fail "infoo: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" "$S" info
grep -qxF "nnav: the command comes first: nnav info $S" "$ERR" || fail "order: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" help sumary
grep -qxF "nnav: help: no command named 'sumary'; did you mean 'summary'?" "$ERR" || fail "help: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" summary --grph / "$S"
grep -qxF "nnav summary: unknown option '--grph'; did you mean '--graph'?" "$ERR" || fail "--grph: $(cat "$ERR")"
expect_status 1 "$NNAV_BIN" tensors "$S" --valus=3
grep -qxF "nnav tensors: unknown option '--valus=3'; did you mean '--values'?" "$ERR" || fail "--valus: $(cat "$ERR")"
# Only the options the command takes: summary has no --values.
expect_status 1 "$NNAV_BIN" summary "$S" --valus
grep -qF "did you mean '--values'" "$ERR" && fail "summary suggests an option it does not take: $(cat "$ERR")"
# Not close to anything: as before.
expect_status 1 "$NNAV_BIN" summary "$S" --zzzzzz
grep -qxF "nnav summary: unknown option '--zzzzzz'" "$ERR" || fail "--zzzzzz: $(cat "$ERR")"
# A file that does not exist, and names that read as files, are still opened (status 2).
expect_status 2 "$NNAV_BIN" no_such_model.onnx
grep -qF "cannot open" "$ERR" || fail "no_such_model.onnx: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" ./infoo
# A file named like a mistyped command is a file.
cp "$S" "$T/infoo"
(cd "$T" && "$NNAV_BIN" infoo > /dev/null 2> "$ERR" < /dev/null)
CHECKS=$((CHECKS + 1))
grep -qF "did you mean" "$ERR" && fail "a file named infoo was read as a command"
# Names in the model: the closest node and initializer names.
expect_status 2 "$NNAV_BIN" tensors "$S" --name fc.weigh
grep -qF "no initializer named 'fc.weigh' (did you mean 'fc.weight'?);" "$ERR" || fail "--name fc.weigh: $(cat "$ERR")"
"$NNAV_BIN" tensors "$S" | grep -q '^fc.weight ' || fail "cnn.onnx has fc.weight"
expect_status 2 "$NNAV_BIN" node "$S" conv
grep -qF "no node named 'conv' (did you mean 'conv1' or 'conv2'?);" "$ERR" || fail "node conv: $(cat "$ERR")"
"$NNAV_BIN" nodes "$S" | grep -Eq ' conv2 ' || fail "cnn.onnx has conv2"
expect_status 2 "$NNAV_BIN" node "$S" zzzzzzzz
grep -qF "did you mean" "$ERR" && fail "nothing is close to zzzzzzzz: $(cat "$ERR")"
finish
