#!/usr/bin/env bash
# ONNX export of models whose external data sits below the top level: a
# Constant's value, an If branch's initializer, a Loop body's Constant, a
# model-local function's Constant, TENSORS and sparse_tensor attributes, a
# body's sparse initializer (gen_external_bodies.py writes them with
# onnx.helper). With --external inline (the default) and keep, onnx.load of
# the output, data loaded from the output's own folder, gives every tensor the
# values of the input's, and onnx.checker passes where it passed on the input.
# A location that leaves the model's folder is refused in a body as at top
# level: exit 2, the tensor and the location named, nothing written. And the
# data files of tensors in bodies and sparse attributes are inputs: -o there
# is refused and leaves them unchanged.
set -u
. "$(dirname "$0")/lib.bash"
py=""
for c in /usr/bin/python3 python3; do
    if "$c" -c 'import onnx, numpy' 2> /dev/null; then py=$c; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with the onnx package (apt-get install python3-onnx)"
    exit 77
fi
GEN=$(dirname "$0")/gen_external_bodies.py
T=$NNAV_TMP/export_external; rm -rf "$T"; mkdir -p "$T/out"
"$py" "$GEN" gen "$T/in" || { echo "FAIL: the generator failed"; exit 1; }

# Run from elsewhere, so that no relative location resolves by accident.
cd "$T/out"
for m in const_top bodies func attrs; do
    for mode in inline keep; do
        o=$T/out/$m-$mode.onnx
        expect_status 0 "$NNAV_BIN" export "$T/in/$m.onnx" --format onnx --external $mode -o "$o"
        CHECKS=$((CHECKS + 1))
        if ! "$py" "$GEN" compare "$T/in/$m.onnx" "$o" > "$OUT" 2>&1; then
            fail "$m --external $mode: the output differs from the input"
            sed 's/^/  /' "$OUT" | head -12
        fi
        if [ $mode = inline ]; then
            [ -e "$o.data" ] && fail "$m: --external inline wrote $o.data"
            grep -q "$m.bin" "$o" && fail "$m: the input's data file is still named in $o"
        else
            [ -s "$o.data" ] || fail "$m: --external keep wrote no $o.data"
        fi
    done
done

# ../secret.bin: refused at top level and in an If branch alike, naming the
# tensor, the location and where the tensor sits; no file is left.
for m in secret_top secret_body; do
    for mode in inline keep; do
        o=$T/out/$m-$mode.onnx
        expect_status 2 "$NNAV_BIN" export "$T/in/m/$m.onnx" --format onnx --external $mode -o "$o"
        grep -q "tensor 'stolen'.*external data \"../secret.bin\" refused: \`..\` would leave the model's folder" "$ERR" ||
            fail "$m ($mode): refusal names the tensor and its location: $(cat "$ERR")"
        grep -qF "nnav export: $T/in/m/$m.onnx: " "$ERR" ||
            fail "$m ($mode): the refusal is the model's, so it names the model, not the output: $(cat "$ERR")"
        [ -e "$o" ] || [ -e "$o.data" ] && fail "$m ($mode): a file was written"
    done
done
grep -q "graph.node\[0\].attribute\[[0-9]\].g.initializer\[0\]: tensor 'stolen' (in graph /If_s/then_branch, TensorProto at offset [0-9]*): external" "$ERR" ||
    fail "the body tensor's field path and graph are named: $(cat "$ERR")"
ls -A "$T/out" | grep -q '\.nnav-' && fail "temporary file left behind"

# The data files of tensors in bodies, functions and sparse attributes are
# files the model reads: refused as targets, unchanged.
for pair in bodies:bodies.bin func:func.bin attrs:attrs.bin; do
    m=${pair%%:*} d=${pair#*:}
    cp "$T/in/$d" "$T/$d.orig"
    touch -d '2001-02-03 04:05:06' "$T/in/$d"
    before=$(stat -c '%s %.9Y %i' "$T/in/$d")
    expect_status 2 "$NNAV_BIN" export "$T/in/$m.onnx" --format onnx -o "$T/in/$d"
    grep -q "model being read (or its data): its external data file $d" "$ERR" ||
        fail "$m: -o its data file refused naming it: $(cat "$ERR")"
    [ "$(stat -c '%s %.9Y %i' "$T/in/$d")" = "$before" ] || fail "$m: $d touched"
    cmp -s "$T/$d.orig" "$T/in/$d" || fail "$m: $d changed"
done
# Named only by a sparse_tensor attribute (the index keeps no tensor for it).
cp "$T/in/sparse_attr.bin" "$T/sparse_attr.orig"
expect_status 2 "$NNAV_BIN" export "$T/in/sparse_attr.onnx" -o "$T/in/sparse_attr.bin"
grep -q "its external data file sparse_attr.bin" "$ERR" || fail "sparse attribute's data file refused: $(cat "$ERR")"
cmp -s "$T/sparse_attr.orig" "$T/in/sparse_attr.bin" || fail "sparse_attr.bin changed"
finish
