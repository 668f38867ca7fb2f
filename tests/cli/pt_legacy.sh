#!/usr/bin/env bash
# The legacy PyTorch format (torch < 1.6; issue 19): pickles of the magic
# number, protocol version and sys_info, the object pickle, the storage
# keys, then each storage as an 8-byte count and its raw bytes. Checkpoints
# written by Debian's python3-torch with _use_new_zipfile_serialization=False
# (pt_legacy.py) read against torch.load: tensor count, every key and shape,
# the first values of every tensor (a non-contiguous view and views sharing
# a storage among them); `nnav diff` of the legacy and the zip resnet18
# compares every byte and finds only the producer version changed; summary
# gives torch's params. Cut and corrupted copies are refused with the
# storage and offset named. Skipped visibly without torch.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/pt_legacy
rm -rf "$T"
mkdir -p "$T"
HERE=$(dirname "$0")
need_torch
/usr/bin/python3 "$HERE/pt_legacy.py" "$T" > "$T/gen.log" 2>&1 || { fail "pt_legacy.py: $(tail -3 "$T/gen.log")"; finish; exit 1; }
has() { grep -qE -- "$1" "$OUT" "$ERR" || fail "wanted /$1/ in: $(head -c 400 "$OUT") $(head -c 300 "$ERR")"; }
O=$T/oracle.txt

for f in resnet18_legacy.pt train_legacy.pt mixed_legacy.pt; do
    expect_status 0 "$NNAV_BIN" tensors "$T/$f" --values 4
    cp "$OUT" "$T/$f.tensors"
    CHECKS=$((CHECKS + 1))
    /usr/bin/python3 - "$T/$f.tensors" "$O" "$f" > "$T/$f.cmp" 2>&1 <<'PY' || fail "$f: $(head -c 800 "$T/$f.cmp")"
import re, sys
got, cur = {}, None
lines = open(sys.argv[1]).read().splitlines()
for ln in lines:
    m = re.match(r"^(\S+) +[a-z0-9]+\[([0-9,]*)\] ", ln)
    if m:
        cur = m.group(1)
        got[cur] = {"shape": m.group(2), "values": None}
    m = re.match(r"^ +values: (.*)$", ln)
    if m and cur:
        got[cur]["values"] = [float(x) for x in m.group(1).split(", ")[:4] if not x.startswith("...")]
count = int(lines[-1].split()[0])
bad = []
for ln in open(sys.argv[2]):
    f, kind, rest = ln.rstrip("\n").split(" ", 2)
    if f != sys.argv[3]:
        continue
    if kind == "count":
        if count != int(rest): bad.append("count %d, torch %s" % (count, rest))
        continue
    key, val = rest.split(" ", 1)
    g = got.get(key)
    if g is None:
        bad.append("%s missing" % key)
    elif kind == "shape" and g["shape"] != val:
        bad.append("%s shape [%s], torch [%s]" % (key, g["shape"], val))
    elif kind == "values":
        want = [float(x) for x in val.split()]
        have = g["values"] or []
        if len(have) != len(want) or any(abs(a - b) > 1e-6 * max(1.0, abs(b)) for a, b in zip(have, want)):
            bad.append("%s values %s, torch %s" % (key, have, want))
print("\n".join(bad[:10]))
sys.exit(1 if bad else 0)
PY
done
expect_status 0 "$NNAV_BIN" info "$T/resnet18_legacy.pt" --verbose
has "format +PyTorch checkpoint \(read as a legacy PyTorch checkpoint"
has "clean: every call is in torch's weights_only allowlist"
grep -qE '^t +float32\[6,4\] .*legacy storage [0-9]+ @byte [0-9]+, a non-contiguous view, strides \[1,6\], its storage shared with 2 other tensors' \
    "$T/mixed_legacy.pt.tensors" || fail "mixed_legacy: the transposed view: $(grep '^t ' "$T/mixed_legacy.pt.tensors")"
CHECKS=$((CHECKS + 1))
expect_status 0 "$NNAV_BIN" scan "$T/count128_legacy.pt"
has "^count128_legacy.pt: 3 globals in 5 pickles$|: [0-9]+ globals in 5 pickles$"
has "^clean: every call is in torch's weights_only allowlist"
# The same state_dict in both formats: every byte equal.
expect_status 1 "$NNAV_BIN" diff "$T/resnet18_legacy.pt" "$T/resnet18_zip.pt"
has "^initializers: 0 added, 0 removed, 0 renamed, 0 changed; 46,796,608 bytes compared$"
has "^~ producer_version: legacy 1001 -> 3$"
expect_status 0 "$NNAV_BIN" summary "$T/train_legacy.pt" --depth 1
has "^  model +float32 +11,689,512 "

# Hostile copies: cut inside a storage, inside the key list, a count too big.
/usr/bin/python3 - "$T" <<'PY'
import sys
d = open(sys.argv[1] + "/mixed_legacy.pt", "rb").read()
open(sys.argv[1] + "/cut_storage.pt", "wb").write(d[:-1])  # the last storage one byte short
k = d.rindex(b"e.")  # the end of the storage-key list pickle (a list: APPENDS, STOP)
open(sys.argv[1] + "/cut_keys.pt", "wb").write(d[:k - 3])
b = bytearray(d)
b[k + 2:k + 10] = (2 ** 62).to_bytes(8, "little")
open(sys.argv[1] + "/huge_count.pt", "wb").write(bytes(b))
PY
expect_status 2 "$NNAV_BIN" info "$T/cut_storage.pt"
has "legacy storages: storage '[0-9]+' \(2 of the list\): [0-9]+ elements of [124] bytes run past the end of the file at offset [0-9]+"
expect_status 2 "$NNAV_BIN" tensors "$T/cut_keys.pt"
has "legacy storage-key pickle"
expect_status 2 "$NNAV_BIN" tensors "$T/huge_count.pt"
has "storage '[0-9]+' \(0 of the list\): 4611686018427387904 elements of [0-9] bytes run past the end"
finish
