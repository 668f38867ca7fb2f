#!/usr/bin/env bash
# The operators past onnx 1.12 (opsets 18 to 23) and ONNX Runtime's contrib
# operators (com.microsoft), held by nnav check to the table generated from
# the newer docs (issue 30 items 7 and 6), with ONNX Runtime 1.30 as the
# oracle: onnx 1.12's checker knows neither (it stops at opset 17 and does
# not check com.microsoft), ONNX Runtime checks both when it loads a model.
# opschema_new_gen.py writes the models: ReduceMean/Max/L2/Sum with axes as
# an input, Col2Im, Split's num_outputs, GroupNormalization-21, DFT with
# dft_length and axis inputs, Cast to and from float8 and int4,
# DequantizeLinear of int4, RMSNormalization, Attention (4D and 3D),
# RotaryEmbedding, and MatMulNBits, GroupQueryAttention,
# MultiHeadAttention, SkipLayerNormalization,
# SkipSimplifiedLayerNormalization, RotaryEmbedding, FusedMatMul, QuickGelu,
# BiasGelu, Attention, QAttention, DynamicQuantizeMatMul and QMoE of
# com.microsoft; and one-rule-broken twins. A valid one must load and run
# in ONNX Runtime and pass nnav check (exit 0, its nodes held to a schema,
# none skipped); a broken one must be refused by ONNX Runtime when it loads
# and be exit 2 in nnav check with that rule's finding on that node.
# Then nnav op shows the new schemas: RMSNormalization, Attention (both),
# GroupNormalization, com.microsoft.MatMulNBits in its spellings. Last,
# every com.microsoft operator of the table is probed (opschema_probe_gen.py)
# for ONNX Runtime's own argument counts and attributes, which must be the
# table's but where opschema_probe_allow.txt says why not (a doc older than
# the runtime would show here).
# Skipped, saying so, without node and onnxruntime-node (see ort_oracle.sh).
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
find_ort || { echo "SKIP: $ort_why (the oracle of the new schemas)"; exit 77; }
here=$(dirname "$0")
T=$NNAV_TMP/opschema_new
rm -rf "$T"
mkdir -p "$T"
"$py" "$here/opschema_new_gen.py" "$T" > /dev/null || { echo "FAIL: opschema_new_gen.py"; exit 1; }
"$node" "$here/ort_oracle.js" "$pkg" "$T/cases.json" "$T/ort.json" 2> "$T/ort.err" ||
    { echo "FAIL: ort_oracle.js: $(head -5 "$T/ort.err")"; exit 1; }
echo "ONNX Runtime $("$node" -p 'require(process.argv[1] + "/package.json").version' "$pkg")"
CHECKS=$((CHECKS + 1))
"$py" - "$NNAV_BIN" "$T/cases.json" "$T/ort.json" <<'PY' || fail "nnav check against ONNX Runtime"
import json, subprocess, sys, yaml
nnav, cases, ort = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
bad = 0
valid = broken = 0
for c in cases:
    r = ort[c["id"]]
    err = r.get("error") or "; ".join("%s: %s" % (k, v["error"]) for k, v in r.get("values", {}).items()
                                     if "error" in v)
    p = subprocess.run([nnav, "check", "--yaml", c["model"]], capture_output=True)
    y = yaml.safe_load(p.stdout) if p.stdout else {}
    fs = (y or {}).get("operator_findings") or []
    chk = (y or {}).get("operator_check") or {}
    why = []
    if c["rule"] == "-":
        valid += 1
        if err:
            why.append("ONNX Runtime does not run it: " + err[:300])
        if p.returncode != 0 or fs:
            why.append("nnav check exits %d: %s" % (p.returncode, [f["detail"] for f in fs][:3]))
        if chk.get("not_checked") or chk.get("held") != chk.get("nodes"):
            why.append("not every node held to a schema: %r" % chk)
    else:
        broken += 1
        # Refused when loading: ONNX Runtime's checker, not a kernel's run.
        if not r.get("error") or not r["error"].startswith("Load model from"):
            why.append("ONNX Runtime does not refuse it at load: %r" % r)
        hits = [f for f in fs if f["rule"] == c["rule"] and f["node"] == c["node"]]
        if p.returncode != 2 or not hits:
            why.append("nnav check exits %d, findings %s" % (p.returncode,
                                                             [(f["rule"], f["node"]) for f in fs]))
        if len(fs) != 1:
            why.append("one rule broken, %d findings: %s" % (len(fs), [f["detail"] for f in fs]))
    if why:
        bad += 1
        print("FAIL: %s: %s" % (c["id"], "; ".join(why)))
print("%d valid models ONNX Runtime runs and nnav check passes, %d broken ones both refuse"
      % (valid, broken))
sys.exit(bad > 0)
PY
# nnav op shows the new schemas; the facts asserted are those ONNX Runtime
# confirmed above (a required attribute it refused a model without, an
# attribute it refused on the other Attention, the input counts).
CHECKS=$((CHECKS + 1))
"$py" - "$NNAV_BIN" <<'PY' || fail "nnav op on the new schemas"
import subprocess, sys, yaml
nnav = sys.argv[1]
bad = []
def op(*a, status=0):
    p = subprocess.run([nnav, "op", *a, "--yaml"], capture_output=True)
    if p.returncode != status:
        bad.append("nnav op %s: exit %d: %s" % (" ".join(a), p.returncode, p.stderr.decode()[:200]))
        return {}
    return yaml.safe_load(p.stdout) if status == 0 else {}
def attrs(y):
    return {a["name"]: a for a in y.get("attributes", [])}
def ins(y):
    return [i["name"] for i in y.get("inputs", [])]
y = op("RMSNormalization")
if not (y.get("domain") == "ai.onnx" and y.get("since_version") == 23 and ins(y) == ["X", "scale"]
        and attrs(y).get("epsilon", {}).get("type") == "FLOAT" and "axis" in attrs(y)):
    bad.append("RMSNormalization: %r" % y)
y = op("GroupNormalization")
if not (y.get("since_version") == 21 and attrs(y).get("num_groups", {}).get("required") is True
        and [(h["since_version"], h["deprecated"]) for h in y["history"]] == [(18, True), (21, False)]):
    bad.append("GroupNormalization: %r" % y)
y = op("GroupNormalization", "--opset", "20")
if not (y.get("since_version") == 18 and y.get("deprecated") is True):
    bad.append("GroupNormalization at 20 is the deprecated 18: %r" % y)
y = op("ReduceMean", "--opset", "21")
if not (y.get("since_version") == 18 and ins(y) == ["data", "axes"] and "axes" not in attrs(y)):
    bad.append("ReduceMean at 21 takes axes as an input: %r" % y)
y = op("Attention", "--opset", "23")
if not (y.get("domain") == "ai.onnx" and y.get("since_version") == 23 and ins(y)[:3] == ["Q", "K", "V"]
        and y.get("min_input") == 3 and "num_heads" not in attrs(y) and "q_num_heads" in attrs(y)):
    bad.append("ai.onnx Attention: %r" % y)
for spelling in (["com.microsoft.Attention"], ["com.microsoft:Attention"],
                 ["Attention", "--domain", "com.microsoft"]):
    y = op(*spelling)
    if not (y.get("domain") == "com.microsoft" and y.get("since_version") == 1
            and attrs(y).get("num_heads", {}).get("required") is True and "q_num_heads" not in attrs(y)):
        bad.append("%s: %r" % (spelling, y))
mm = [op(*s) for s in (["com.microsoft.MatMulNBits"], ["com.microsoft:MatMulNBits"],
                       ["MatMulNBits", "--domain", "com.microsoft"], ["MatMulNBits"])]
if not (all(m == mm[0] for m in mm) and mm[0].get("domain") == "com.microsoft"
        and all(attrs(mm[0]).get(k, {}).get("required") for k in ("K", "N", "block_size"))
        and ins(mm[0])[:3] == ["A", "B", "scales"]):
    bad.append("MatMulNBits: %r" % mm)
y = op("com.microsoft.SkipLayerNormalization")
if not (y.get("min_input") == 3 and y.get("max_input") == 5):
    bad.append("SkipLayerNormalization counts: %r" % y)
op("com.microsoft.Frobnicate", status=1)
ml = subprocess.run([nnav, "op", "--list", "--domain", "com.microsoft", "--yaml"], capture_output=True)
lst = yaml.safe_load(ml.stdout)
names = {x["op"] for x in lst}
want = {"MatMulNBits", "QMoE", "GroupQueryAttention", "MultiHeadAttention", "SkipLayerNormalization",
        "SkipSimplifiedLayerNormalization", "RotaryEmbedding", "FusedMatMul", "QuickGelu", "BiasGelu",
        "Attention", "QAttention", "DynamicQuantizeMatMul"}
if not want <= names or any(x["versions"] != [1] for x in lst):
    bad.append("op --list --domain com.microsoft lacks %s" % sorted(want - names))
for b in bad:
    print("FAIL: " + b[:600])
sys.exit(bool(bad))
PY
# Every com.microsoft operator of the table against ONNX Runtime's own
# schema: two probe models each (opschema_probe_gen.py) that it refuses,
# naming the input and output count ranges it wants; those must be the
# table's, and it must name no attribute of the table unknown or of another
# type, nor one the table does not require as missing.
"$py" "$here/opschema_probe_gen.py" "$NNAV_BIN" "$T/probe" > /dev/null || { echo "FAIL: opschema_probe_gen.py"; exit 1; }
"$node" "$here/ort_oracle.js" "$pkg" "$T/probe/probes.json" "$T/probe.json" 2> "$T/probe.err" ||
    { echo "FAIL: ort_oracle.js (probes): $(head -5 "$T/probe.err")"; exit 1; }
CHECKS=$((CHECKS + 1))
"$py" - "$T/probe/probes.json" "$T/probe.json" "$here/opschema_probe_allow.txt" <<'PY' || fail "the table's com.microsoft schemas against ONNX Runtime's"
import json, re, sys
probes, ort = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
allow = {}
for line in open(sys.argv[3]):
    if line.strip() and not line.startswith("#"):
        op, kind, reason = line.rstrip("\n").split(" ", 2)
        assert reason.strip(), line
        allow[(op, kind)] = reason
used, bad, agree = set(), 0, 0
count = re.compile(r"has (input|output) size (\d+) not in range \[min=(\d+), max=(\d+)\]")
for p in probes:
    op, t, err = p["op"], p["table"], ort[p["id"]].get("error", "")
    why = None
    m = count.search(err)
    if ("Unrecognized attribute" in err or "Required attribute" in err or
            ("Node(probe)" in err and "attribute" in err.lower() and "type" in err.lower())):
        why = "ONNX Runtime on an attribute: " + err[-200:]
    elif "not a registered function/op" in err or "No Op registered" in err:
        why = "ONNX Runtime does not know it: " + err[-200:]
    elif m:
        kind, got = m.group(1), (int(m.group(3)), int(m.group(4)))
        want = (t["min_" + kind], t["max_" + kind])
        if got != want:
            why = "%s counts: ONNX Runtime %s, the table %s" % (kind, got, want)
    elif p["probe"] == "counts_in":
        # No count said: right only where the table takes 0 inputs and 1 output.
        if t["min_input"] > 0 or not t["min_output"] <= 1 <= t["max_output"]:
            why = "ONNX Runtime said no count (the table: %d+ inputs, %d+ outputs): %s" % (
                t["min_input"], t["min_output"], err[-200:])
    elif t["min_output"] > 0:
        why = "ONNX Runtime said no output count (the table's minimum is %d): %s" % (
            t["min_output"], err[-200:])
    if why is None:
        agree += 1
        continue
    k = next((k for k in ((op, m.group(1)) if m else None, (op, "counts")) if k in allow), None)
    if k:
        used.add(k)
        continue
    bad += 1
    print("FAIL: %s %s: %s" % (op, p["probe"], why))
for k in sorted(set(allow) - used):
    bad += 1
    print("FAIL: opschema_probe_allow.txt lists %s %s, which agrees now: drop it" % k)
ops = len({p["op"] for p in probes})
print("%d com.microsoft operators probed: %d of %d probes agree with ONNX Runtime, %d listed as newer in it"
      % (ops, agree, len(probes), len(used)))
sys.exit(bad > 0)
PY
finish
