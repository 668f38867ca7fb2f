#!/usr/bin/env bash
# TorchScript archives and whole pickled modules (issue 19), written by
# Debian's python3-torch (pt_torchscript.py writes them and torch's answers):
# a scripted and a traced torchvision resnet18, a scripted module with a
# float16 buffer and a transposed parameter, a traced one with a tensor
# constant, and torch.save of two modules themselves. Each file's tensors
# (names as torch's state_dict gives them, dtypes, shapes, first values),
# parameters, per-module parameters, every module torch names (a ReLU
# too) and its class (summary's class column) equal torch.jit.load's
# (torch.load's);
# a TorchScript constant is CONSTANTS.c0 with its values; the code files
# listed are the zip's; scan calls a TorchScript archive clean (exit 0) and a
# whole module dangerous (exit 2, its class named); tied weights (one
# tensor under two names, in a state_dict two views of one storage) count
# once, as torch's parameters() does. Skipped visibly without torch.
set -u
. "$(dirname "$0")/lib.bash"
T=$NNAV_TMP/pt_torchscript
rm -rf "$T"
mkdir -p "$T"
HERE=$(dirname "$0")
need_torch yaml
/usr/bin/python3 "$HERE/pt_torchscript.py" "$T" > "$T/gen.log" 2>&1 || { fail "pt_torchscript.py: $(tail -3 "$T/gen.log")"; finish; exit 1; }
has() { grep -qE -- "$1" "$OUT" "$ERR" || fail "wanted /$1/ in: $(head -c 400 "$OUT") $(head -c 300 "$ERR")"; }

for n in rn_script rn_trace small const whole whole_rn tied tied_whole tied_script; do
    f=$n.pt
    expect_status 0 "$NNAV_BIN" tensors --yaml "$T/$f"
    cp "$OUT" "$T/$n.tensors.yaml"
    expect_status 0 "$NNAV_BIN" info --yaml "$T/$f"
    cp "$OUT" "$T/$n.info.yaml"
    expect_status 0 "$NNAV_BIN" summary --yaml "$T/$f"
    cp "$OUT" "$T/$n.summary.yaml"
    for k in 0 1 2 3; do
        name=$(awk -v f=$f '$1 == f && $2 == "values" {print $3}' "$T/oracle.txt" | sed -n "$((k + 1))p")
        [ -n "$name" ] || continue
        expect_status 0 "$NNAV_BIN" tensors "$T/$f" --name "$name" --values 8
        sed -n 's/^ *values: //p' "$OUT" | sed 's/, \.\.\. .*//; s/,//g' > "$T/$n.values.$k"
    done
    CHECKS=$((CHECKS + 1))
    /usr/bin/python3 - "$T" "$n" > "$T/$n.cmp" 2>&1 <<'PY' || fail "$f: $(head -c 900 "$T/$n.cmp")"
import sys, yaml
T, n = sys.argv[1], sys.argv[2]
f = n + ".pt"
o = [l.split() for l in open(T + "/oracle.txt") if l.split()[0] == f]
tens = yaml.safe_load(open(T + "/%s.tensors.yaml" % n))
info = yaml.safe_load(open(T + "/%s.info.yaml" % n))
summ = yaml.safe_load(open(T + "/%s.summary.yaml" % n))
bad = []
got = {t["name"]: t for t in tens["tensors"]}
want = [x for x in o if x[1] == "tensor"]
consts = {x[2]: x[3:] for x in o if x[1] == "const"}
if len(got) != len(want) + len(consts):
    bad.append("%d tensors, torch %d (+%d constants)" % (len(got), len(want), len(consts)))
for x in want:
    t = got.get(x[2])
    if t is None:
        bad.append("no tensor " + x[2])
    elif t["data_type"] != x[3] or ",".join(str(d) for d in t["dims"]) != (x[4] if len(x) > 4 else ""):
        bad.append("%s: %s%s, torch %s[%s]" % (x[2], t["data_type"], t["dims"], x[3], x[4] if len(x) > 4 else ""))
# Parameters: torch's, but for a TorchScript module's own buffers, which only
# its (compressed) code says apart: small.pt's float16 scale counts.
params = [int(x[2]) for x in o if x[1] == "params"][0]
extra = 3 if n == "small" else 0
pm = info["counts"].get("parameters_main_graph", info.get("parameters"))
sc = {s["path"]: s for s in summ["scopes"]}
if tens["parameters"] != params + extra:
    bad.append("tensors' parameters %d, torch %d" % (tens["parameters"], params))
if sc[""]["params"] != params + extra:
    bad.append("summary params %d, torch %d" % (sc[""]["params"], params))
for x in o:
    if x[1] == "scope":
        p = "" if x[2] == "-" else x[2]
        s = sc.get(p)
        w = int(x[3]) + (extra if p == "" else 0)
        if not s or s["params"] != w:
            bad.append("scope %s: %s, torch %s" % (p, s and s["params"], x[3]))
for x in o:
    if x[1] == "class":
        s = sc.get("" if x[2] == "-" else x[2])
        if not s or s["class"] != x[3]:
            bad.append("class of %s: %s, torch %s" % (x[2], s and s["class"], x[3]))
mods = [x for x in o if x[1] == "module"]
for x in mods:
    s = sc.get("" if x[2] == "-" else x[2])
    if not s or s["class"] != x[3]:
        bad.append("module %s (%s): %s" % (x[2], x[3], s and s["class"]))
if mods and len(sc) != len(mods):
    bad.append("%d scopes, torch names %d modules" % (len(sc), len(mods)))
vals = [x for x in o if x[1] == "values"]
for k, x in enumerate(vals):
    a = [float(v) for v in open(T + "/%s.values.%d" % (n, k)).read().split()]
    b = [float(v) for v in x[3:]]
    if len(a) != len(b) or any(abs(p - q) > 1e-6 * max(1, abs(q)) for p, q in zip(a, b)):
        bad.append("values of %s: %s, torch %s" % (x[2], a, b))
code = [(x[2], int(x[3])) for x in o if x[1] == "code"]
gc = list(info.get("code", {}).items())
if sorted(gc) != sorted(code):
    bad.append("code files %s, zip %s" % (gc[:3], code[:3]))
ts = n in ("rn_script", "rn_trace", "small", "const", "tied_script")
if info["pickle"]["torchscript"] != ts or info["producer_name"] != ("torch.jit.save" if ts else "torch.save"):
    bad.append("torchscript %s, producer %s" % (info["pickle"]["torchscript"], info["producer_name"]))
if ts and info["pickle"]["would_run"] != 0:
    bad.append("would_run %d in a TorchScript archive" % info["pickle"]["would_run"])
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
done
# A tied weight is said to be one: its second name is the first's.
for f in tied tied_whole tied_script; do
    expect_status 0 "$NNAV_BIN" tensors "$T/$f.pt" --name head.weight
    has "the same tensor as emb\.weight"
done
# info's parameters are torch's (BatchNorm statistics are buffers).
expect_status 0 "$NNAV_BIN" info "$T/rn_script.pt"
want=$(awk '$1 == "rn_script.pt" && $2 == "params" {print $3}' "$T/oracle.txt")
got=$(sed -n 's/^parameters *\([0-9,]*\)$/\1/p' "$OUT" | tr -d ,)
CHECKS=$((CHECKS + 1))
[ "$got" = "$want" ] || fail "rn_script.pt: info says $got parameters, torch $want"
has "^code \([0-9]+ TorchScript files: listed; nnav compiles and runs none\)"
has "^  layer2\.0\.stride +2$"
# The constant a traced module holds, by the name its code gives it.
expect_status 0 "$NNAV_BIN" tensors "$T/const.pt" --name CONSTANTS.c0 --values 3
has "^CONSTANTS\.c0 +float32\[3\] .*raw zip entry const/constants/0"
has "values: 1\.25, 2\.5, -3\.75"
# A TorchScript archive is clean; a whole module would import and call its classes.
expect_status 0 "$NNAV_BIN" scan "$T/rn_script.pt"
has "clean: .*TorchScript archive"
has "torch\.jit\._pickle\.build_intlist +yes"
expect_status 2 "$NNAV_BIN" scan "$T/whole.pt"
has "WOULD RUN __main__\.Small\(\) \(NEWOBJ"
expect_status 2 "$NNAV_BIN" scan "$T/whole_rn.pt"
has "WOULD RUN torchvision\.models\.resnet\.ResNet\(\)"
# A whole module's hyper-parameters are its entries; its hooks are not.
expect_status 0 "$NNAV_BIN" info "$T/whole.pt"
has "^  fc\.in_features +4$"
CHECKS=$((CHECKS + 1))
sed -n '/^checkpoint/,/^pickle/p' "$OUT" | grep -q "_hooks\|training" && fail "a module's hooks listed as entries"
finish
