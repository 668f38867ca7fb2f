#!/usr/bin/env bash
# PyTorch checkpoints (issue 19). Part one, with no torch needed: hostile
# pickles and zips made byte by byte (pt_hostile.py; nothing is unpickled):
# each shell command they hold is named by `nnav scan` (exit 2) and by
# `nnav info`, and never run (the file it would touch stays absent); memo,
# mark and stack bombs, a truncated pickle, zip entries past the end or
# overlapping, compressed entries and a cut legacy checkpoint are refused with
# where and why. Part two, with Debian's python3-torch: checkpoints written
# by torch.save (a torchvision resnet18 state_dict, a training checkpoint
# nesting it with epoch and optimizer state, fp16/bf16/int/bool/complex
# tensors, a non-contiguous view, views sharing a storage) read by nnav and
# compared with torch.load's answers (pt_gen.py writes both): tensor count,
# elements, every tensor's shape, first values of several weights.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/pt_checkpoint
rm -rf "$T"
mkdir -p "$T/h"
MARK=$T/PWNED
HERE=$(dirname "$0")
python3 "$HERE/pt_hostile.py" "$T/h" "$MARK" || fail "pt_hostile.py failed"
H=$T/h

# has REGEX: the last command's stdout+stderr match REGEX.
has() { grep -qE -- "$1" "$OUT" "$ERR" || fail "wanted /$1/ in: $(head -c 400 "$OUT") $(head -c 300 "$ERR")"; }

# Would-run files: scan names the call and exits 2; nothing is created.
expect_status 2 "$NNAV_BIN" scan "$H/system.pt"
has "posix\.system\('touch $MARK'\)"
has "WOULD RUN .*REDUCE @[0-9]+ in archive/data\.pkl"
expect_status 2 "$NNAV_BIN" scan --yaml "$H/system.pt"
has "would_run: 1"
has "module: posix, name: system"
expect_status 0 "$NNAV_BIN" info "$H/system.pt"
has "DANGER: loading this file .* would run 1 call"
has "format +PyTorch checkpoint"
# info --yaml: the pickle section in the one document, read by PyYAML.
# pyassert FILE PYTHON: PYTHON (d is FILE's YAML) prints nothing when it holds.
pyassert() {
    CHECKS=$((CHECKS + 1))
    local r
    r=$(/usr/bin/python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
'"$2" "$1" 2>&1) || r="python failed: $r"
    [ -z "$r" ] || fail "$1: $r"
}
if /usr/bin/python3 -c 'import yaml' 2> /dev/null; then
    expect_status 0 "$NNAV_BIN" info --yaml "$H/system.pt"
    cp "$OUT" "$T/system.yaml"
    pyassert "$T/system.yaml" '
p = d["pickle"]
if p["would_run"] != 1 or not p["complete"]: print("pickle:", p)
bad = [g for g in p["globals"] if not g["allowed"]]
if len(bad) != 1 or bad[0]["module"] != "posix" or bad[0]["name"] != "system" or bad[0]["called_by"] != "REDUCE":
    print("globals:", p["globals"])
elif bad[0]["call"] != "posix.system('"'"'touch '"$MARK"''"'"')": print("call:", bad[0]["call"])
if d["format"] != "PyTorch checkpoint": print("format:", d["format"])'
else
    echo "SKIP (info --yaml checks): no PyYAML in /usr/bin/python3 (Debian: python3-yaml)"
fi
expect_status 0 "$NNAV_BIN" tensors "$H/system.pt" --values 4
has "^w +float32\[2,2\]"
has "values: 1\.5, -2, 3\.25, 0"
expect_status 2 "$NNAV_BIN" scan "$H/os_system.pkl"
has "os\.system\('touch $MARK'\)"
expect_status 2 "$NNAV_BIN" scan "$H/exec.pkl"
has "builtins\.exec\('import os; os\.system\(\\\\'touch"
expect_status 2 "$NNAV_BIN" scan "$H/popen.pt"
has "subprocess\.Popen\(\['touch', '$MARK'\]\)"
expect_status 2 "$NNAV_BIN" scan "$H/chain.pkl"
has "builtins\.getattr\(builtins\.__import__\('os'\), 'system'\)\('touch $MARK'\)"
expect_status 2 "$NNAV_BIN" scan "$H/newobj.pkl"
has "evil\.Payload\(\) \(NEWOBJ"
has "__setstate__.*BUILD"
# A clean one: exit 0, and its tensor read.
expect_status 0 "$NNAV_BIN" scan "$H/clean.pt"
has "^clean: every call is in torch's weights_only allowlist"
# Bombs and damage: refused with the offset and why.
expect_status 2 "$NNAV_BIN" scan "$H/memo_get.pkl"
has "pickle@3: LONG_BINGET memo index 99999 not set"
expect_status 2 "$NNAV_BIN" scan "$H/memo_put.pkl"
has "LONG_BINPUT memo index 4294967280 jumps far past"
expect_status 2 "$NNAV_BIN" scan "$H/marks.pkl"
has "more than 4096 MARKs open"
expect_status 2 "$NNAV_BIN" scan "$H/stack.pkl"
has "the stack holds more than 1048576 items"
expect_status 2 "$NNAV_BIN" info "$H/truncated.pt"
has "archive/data\.pkl@[0-9]+: .*cut short"
expect_status 2 "$NNAV_BIN" info "$H/past_end.pt"
has "zip central directory\[1\]: the entry's 1073741824 bytes at offset [0-9]+ run past the end"
expect_status 2 "$NNAV_BIN" info "$H/overlap.pt"
has "zip entry 'archive/data/0' at offset 0 overlaps entry 'archive/data\.pkl'"
expect_status 2 "$NNAV_BIN" info "$H/deflate_pkl.pt"
has "'archive/data\.pkl' is compressed \(deflate"
# A zip bomb's entry (64 MB of zeros deflated): listed, never inflated.
expect_status 0 "$NNAV_BIN" tensors "$H/bomb.pt"
has "compressed zip entry archive/data/0"
expect_status 2 "$NNAV_BIN" tensors "$H/bomb.pt" --values 2
has "is compressed \(deflate, [0-9]+ bytes to 67108864\)"
expect_status 2 "$NNAV_BIN" info "$H/legacy.pt"
has "legacy sys_info pickle: the file ends before this pickle at offset 21"
CHECKS=$((CHECKS + 1))
[ -e "$MARK" ] && fail "$MARK exists: something ran a command from a pickle"

# Part two: checkpoints torch writes, against torch.load.
if ! /usr/bin/python3 -c 'import torch, torchvision' 2> /dev/null; then
    echo "SKIP (part two): no /usr/bin/python3 with torch and torchvision (Debian: python3-torch python3-torchvision)"
    finish
    exit $?
fi
/usr/bin/python3 "$HERE/pt_gen.py" "$T" > "$T/gen.log" 2>&1 || { fail "pt_gen.py: $(tail -3 "$T/gen.log")"; finish; exit 1; }
O=$T/oracle.txt
for n in resnet18 train mixed; do
    expect_status 0 "$NNAV_BIN" tensors "$T/$n.pt"
    cp "$OUT" "$T/$n.tensors"
    want=$(awk -v n=$n '$1 == n && $2 == "count" {print $3}' "$O")
    got=$(tail -1 "$T/$n.tensors" | awk '{print $1}')
    CHECKS=$((CHECKS + 1))
    [ "$got" = "$want" ] || fail "$n: $got tensors, torch.load finds $want"
    # Every tensor's name and shape, as torch gives them.
    awk -v n=$n '$1 == n && $2 == "shape" {print $3, $4}' "$O" | sort > "$T/$n.want"
    sed -n 's/^\([^ ]*\)  *[a-z0-9]*\[\([0-9,]*\)\].*/\1 \2/p' "$T/$n.tensors" | sort > "$T/$n.got"
    CHECKS=$((CHECKS + 1))
    diff "$T/$n.want" "$T/$n.got" > "$T/$n.diff" || fail "$n: shapes differ from torch's: $(head -5 "$T/$n.diff")"
    expect_status 0 "$NNAV_BIN" info "$T/$n.pt"
    want=$(awk -v n=$n '$1 == n && $2 == "params" {print $3}' "$O")
    got=$(sed -n 's/^elements *\([0-9,]*\) .*/\1/p' "$OUT" | tr -d ,)
    CHECKS=$((CHECKS + 1))
    [ "$got" = "$want" ] || fail "$n: $got elements, torch.load counts $want"
    has "clean: every call is in torch's weights_only allowlist"
    expect_status 0 "$NNAV_BIN" scan "$T/$n.pt"
done
# Values: the first 8 of several tensors, to float32 precision.
while read -r n _ key vals; do
    expect_status 0 "$NNAV_BIN" tensors "$T/$n.pt" --name "$key" --values 8
    got=$(sed -n 's/^ *values: //p' "$OUT" | sed 's/, \.\.\. .*//; s/,//g')
    CHECKS=$((CHECKS + 1))
    /usr/bin/python3 -c '
import sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
sys.exit(0 if len(a) == len(b) and all(abs(x - y) <= 1e-6 * max(1, abs(y)) for x, y in zip(a, b)) else 1)
' "$got" "$vals" || fail "$n $key: nnav gives [$got], torch [$vals]"
done < <(grep ' values ' "$O")
# The int64 values exactly, the dtypes, the view and the shared storage.
expect_status 0 "$NNAV_BIN" tensors "$T/mixed.pt" --name big --values 2
has "values: -4611686018427387904, 4611686018427387905"
grep -qE '^half +float16\[10\]' "$T/mixed.tensors" || fail "half is not float16[10]"
grep -qE '^bf16 +bfloat16\[7\]' "$T/mixed.tensors" || fail "bf16 is not bfloat16[7]"
grep -qE '^cplx +complex64\[2\]' "$T/mixed.tensors" || fail "cplx is not complex64[2]"
grep -qE '^t +float32\[6,4\] .*a non-contiguous view, strides \[1,6\], its storage shared with 2 other tensors' "$T/mixed.tensors" ||
    fail "the transposed view is not said to be one: $(grep '^t ' "$T/mixed.tensors")"
grep -qE '^row .*@element 12' "$T/mixed.tensors" || fail "row's storage offset is not said"
CHECKS=$((CHECKS + 5))
# The training checkpoint's nested state_dict and optimizer state are found.
grep -qE '^model\.layer1\.0\.conv1\.weight +float32\[64,64,3,3\]' "$T/train.tensors" ||
    fail "model.layer1.0.conv1.weight not found in the training checkpoint"
grep -qE '^optimizer\.state\.0\.momentum_buffer ' "$T/train.tensors" || fail "optimizer state not found"
CHECKS=$((CHECKS + 2))
# nnav diff of two checkpoints: tensor by tensor, values compared (exit 1: differences).
expect_status 1 "$NNAV_BIN" diff "$T/resnet18.pt" "$T/resnet18_b.pt"
has "^1 initializer changed \(values\), 1 initializer added, 1 initializer removed$"
has "~ initializer fc\.bias +float32\[1000\] +values"
has "1 of 1,000 elements differs"
has "^- initializer layer4\.1\.bn2\.num_batches_tracked"
expect_status 0 "$NNAV_BIN" diff "$T/resnet18.pt" "$T/resnet18.pt"
# Against an ONNX model: its tensors alone (issue 31 item 8; diff_weights.sh
# holds that comparison to torch), no longer refused.
expect_status 1 "$NNAV_BIN" diff "$T/resnet18.pt" "$NNAV_SAMPLES/cnn.onnx"
has "^tensors alone compared"
# Its other entries, as data.
expect_status 0 "$NNAV_BIN" info "$T/train.pt"
has "^  epoch +7$"
has "^  hparams +\{'lr': 0\.1, 'arch': 'resnet18'\}$"
has "^  optimizer\.param_groups\.0\.momentum 0\.9$"
if /usr/bin/python3 -c 'import yaml' 2> /dev/null; then
expect_status 0 "$NNAV_BIN" info --yaml "$T/train.pt"
cp "$OUT" "$T/train.yaml"
pyassert "$T/train.yaml" '
e = d["checkpoint"]
want = {"epoch": "7", "hparams": "{'"'lr': 0.1, 'arch': 'resnet18'"'}", "optimizer.param_groups.0.momentum": "0.9",
        "optimizer.param_groups.0.nesterov": "False"}
for k, v in want.items():
    if e.get(k) != v: print(k, "is", repr(e.get(k)), "wanted", repr(v))
if any(k.startswith("model.") for k in e): print("a tensor among the entries")
if d["pickle"]["would_run"] != 0 or not d["pickle"]["complete"]: print("pickle:", d["pickle"])
if d["counts"]["initializers_main_graph"] != 184: print("counts:", d["counts"])'
else
    echo "SKIP (info --yaml of train.pt): no PyYAML in /usr/bin/python3 (Debian: python3-yaml)"
fi
# The oracle for the danger report: torch.load (without weights_only) of the
# same hostile file, made to touch a file of the test's own, really runs the
# call scan names; weights_only=True refuses it.
mkdir -p "$T/h2"
python3 "$HERE/pt_hostile.py" "$T/h2" "$T/RAN_BY_TORCH"
/usr/bin/python3 -c 'import sys, torch; torch.load(sys.argv[1])' "$T/h2/system.pt" > /dev/null 2>&1
CHECKS=$((CHECKS + 1))
[ -e "$T/RAN_BY_TORCH" ] || fail "torch.load did not run posix.system: the hostile file proves nothing"
expect_status 2 "$NNAV_BIN" scan "$T/h2/system.pt"
has "posix\.system\('touch $T/RAN_BY_TORCH'\)"
/usr/bin/python3 -c 'import sys, torch; torch.load(sys.argv[1], weights_only=True)' "$T/h2/popen.pt" > /dev/null 2>&1 &&
    fail "torch's weights_only loader took subprocess.Popen"
# torch.save(tensor): one tensor named "tensor".
expect_status 0 "$NNAV_BIN" tensors "$T/bare.pt" --values 6
has "^tensor +float32\[2,3\]"
has "values: 0, 1, 2, 3, 4, 5"
# A TorchScript archive (pt_torchscript.sh has more): its tensors by attribute.
expect_status 0 "$NNAV_BIN" tensors "$T/jit.pt"
has "^weight +float32\[2,3\]"
has "^bias +float32\[2\]"
# bytes and a tensor class are allowed globals: clean.
expect_status 0 "$NNAV_BIN" scan "$T/bytes.pt"
has "_codecs\.encode +yes"
has "torch\.FloatTensor +yes"
expect_status 0 "$NNAV_BIN" info "$T/bytes.pt"
has "^  b +_codecs\.encode\('abc\\\\x01', 'latin1'\)$"
# A whole module pickled: loading it would call its class (weights_only refuses it).
expect_status 2 "$NNAV_BIN" scan "$T/module.pt"
has "WOULD RUN torch\.nn\.modules\.linear\.Linear\(\)"
finish
