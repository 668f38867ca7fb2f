#!/usr/bin/env bash
# A checkpoint of 30,000 storages (issue 29), written by Debian's
# python3-torch: every tensor is found (its storage looked up in the zip's
# directory by name, sorted once, not by a walk of the directory per
# tensor), read against torch.load: the count, and the key, shape and value
# of every tenth tensor. How fast it opens is tests/bench/pt_storages.sh's
# to measure, not this test's. Skipped visibly without torch.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/pt_storages
rm -rf "$T"
mkdir -p "$T"
need_torch
/usr/bin/python3 - "$T/many.pt" > "$T/gen.log" 2>&1 <<'PY' || { fail "torch.save: $(tail -3 "$T/gen.log")"; finish; exit 1; }
import sys, torch
torch.save({"t%d" % i: torch.full((i % 3 + 1,), float(i)) for i in range(30000)}, sys.argv[1])
PY
expect_status 0 "$NNAV_BIN" tensors "$T/many.pt" --all --values 1
CHECKS=$((CHECKS + 1))
/usr/bin/python3 - "$T/many.pt" "$OUT" > "$T/cmp.log" 2>&1 <<'PY' || fail "tensors against torch.load: $(head -c 600 "$T/cmp.log")"
import re, sys, torch
want = torch.load(sys.argv[1])
got, cur = {}, None
lines = open(sys.argv[2]).read().splitlines()
for ln in lines:
    m = re.match(r"^(\S+) +float32\[([0-9,]*)\] ", ln)
    if m:
        cur = m.group(1)
        got[cur] = [m.group(2), None]
    m = re.match(r"^ +values: ([-0-9.e]+)", ln)
    if m and cur:
        got[cur][1] = float(m.group(1))
assert int(lines[-1].split()[0]) == len(want), (lines[-1], len(want))
assert set(got) == set(want), sorted(set(got) ^ set(want))[:5]
for i, (k, t) in enumerate(want.items()):
    if i % 10:
        continue
    shape = ",".join(str(d) for d in t.shape)
    assert got[k] == [shape, float(t[0])], (k, got[k], shape, float(t[0]))
print("ok", len(want))
PY
finish
