#!/usr/bin/env bash
# Quantisation as a fact (issue 31 items 5 and 6): each tensor's storage
# type and bits per weight, the logical weight a packing stands for, and
# per scope and whole model the params, bytes and mean bpw, for every
# format.
#  - GPTQ and AWQ checkpoints (quant_gen.py packed: torch packs the int32
#    words; safetensors bytes from the spec, and torch.save state_dicts):
#    `tensors`, `summary` and `info` against the generator's own K, N,
#    bits, group and bytes.
#  - ONNX QDQ pairs of int8, INT4, UINT4 (blocked), FLOAT8E4M3FN and
#    FLOAT4E2M1 weights and a MatMulNBits (quant_gen.py onnx): types and
#    widths against the ONNX spec's, bytes against what was written; ONNX
#    Runtime (when installed) runs the opset-21 models, so they are files
#    a runtime accepts.
#  - GGUF (gguf_gen.py): every tensor's bpw within 0.01 of ggml's block
#    table (type_size x 8 / block_size) for the type Hugging Face's
#    @huggingface/gguf reads (when installed; else the type written), and
#    blocks that differ only in their quantisation types said to be "same
#    shape, different types" in summary's text and YAML, not identical.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
here=$(dirname "$0")
T=$NNAV_TMP/quant
rm -rf "$T"
mkdir -p "$T"

# Each file's tensors, summary and info as YAML, for the checks below.
dump() { # DIR FILE...
    local d=$1 f
    shift
    for f in "$@"; do
        expect_status 0 "$NNAV_BIN" tensors --yaml "$d/$f" && cp "$OUT" "$d/$f.tensors.yaml"
        expect_status 0 "$NNAV_BIN" summary --yaml "$d/$f" && cp "$OUT" "$d/$f.summary.yaml"
        expect_status 0 "$NNAV_BIN" info --yaml "$d/$f" && cp "$OUT" "$d/$f.info.yaml"
    done
}

# ---- GPTQ and AWQ ----
if /usr/bin/python3 -c 'import torch' 2> /dev/null; then
    P=$T/packed
    if /usr/bin/python3 "$here/quant_gen.py" packed "$P" > "$T/gen.log" 2>&1; then
        dump "$P" gptq.safetensors gptq.pt gptq_mixed.pt awq.safetensors notpacked.safetensors
        CHECKS=$((CHECKS + 1))
        "$py" - "$P" << 'PY' || fail "GPTQ/AWQ: nnav differs from the generator (above)"
import json, sys, yaml
d = sys.argv[1]
exp = json.load(open(d + "/expect.json"))
bad = 0
def no(msg):
    global bad
    bad += 1
    print("  " + msg)
for f, e in exp.items():
    ts = {t["name"]: t for t in yaml.safe_load(open("%s/%s.tensors.yaml" % (d, f)))["tensors"]}
    for p in e["packed"]:
        t = ts[p["name"]]
        want = "int%d (%s, group %d)" % (p["bits"], p["scheme"], p["group"])
        if t["type"] != want or abs(t["bpw"] - p["bits"]) > 1e-9 or \
           t["logical_elements"] != p["k"] * p["n"] or t["role"] != "parameter":
            no("%s %s: %s %s bpw, %s elements, %s; wanted %s, %d bpw, %d x %d, parameter"
               % (f, p["name"], t["type"], t["bpw"], t["logical_elements"], t["role"], want,
                  p["bits"], p["k"], p["n"]))
    for q in e["data"]:
        t = ts[q["name"]]
        if not t["type"].endswith("(%s %s)" % (q["scheme"], q["part"])) or t["bpw"] is not None:
            no("%s %s: %s, bpw %s; wanted its %s %s, no bpw" % (f, q["name"], t["type"], t["bpw"],
                                                                 q["scheme"], q["part"]))
    s = yaml.safe_load(open("%s/%s.summary.yaml" % (d, f)))
    i = yaml.safe_load(open("%s/%s.info.yaml" % (d, f)))
    if s["params"] != e["params"] or i["parameters_main_graph"] != e["params"]:
        no("%s: params summary %s, info %s; the generator's K x N and float elements: %d"
           % (f, s["params"], i["parameters_main_graph"], e["params"]))
    if not e["packed"]:
        for q in "xyzw":
            t = ts[q + ".qweight"]
            if t["type"] != "int32" or t["bpw"] is not None or t["role"] is not None:
                no("%s: %s.qweight of no packing read as %s, %s bpw, %s" % (f, q, t["type"], t["bpw"], t["role"]))
        continue
    bpw = e["bytes"] * 8 / e["params"]
    if s["bytes"] != e["bytes"] or abs(s["bpw"] - bpw) > 1e-9 or abs(i["bits_per_weight"] - bpw) > 1e-9:
        no("%s: bytes %s, bpw %s (info %s); wanted %d bytes, %.6f bpw"
           % (f, s["bytes"], s["bpw"], i["bits_per_weight"], e["bytes"], bpw))
    sc = {x["path"]: x for x in s["scopes"]}
    l0, l1 = sc["model/layers/0"], sc["model/layers/1"]
    if l0["params"] != e["layer0_params"] or l1["identical_to"] != "model/layers/0":
        no("%s: layer 0 has %s params (wanted %d), layer 1 identical to %s"
           % (f, l0["params"], e["layer0_params"], l1["identical_to"]))
print(len(exp), "files checked,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
        expect_status 0 "$NNAV_BIN" summary "$P/gptq.safetensors"
        grep -qE '^      0 … 1  ×2 identical +int4 \(GPTQ, group 128\),float16 +197,120 ' "$OUT" ||
            fail "summary gptq: no folded layer row of int4 (GPTQ, group 128): $(head -8 "$OUT")"
        grep -qE '^          down_proj +int4 \(GPTQ, group 128\) +131,072 +66\.5 KiB +4\.16$' "$OUT" ||
            fail "summary gptq: down_proj is not 512 x 256 at 4.16 bpw (its scales and zeros counted): $(grep down_proj "$OUT")"
    else
        fail "quant_gen.py packed: $(tail -3 "$T/gen.log")"
    fi
else
    echo "SKIP (partly): no torch for /usr/bin/python3: GPTQ/AWQ not checked"
fi

# ---- ONNX ----
O=$T/onnx
if /usr/bin/python3 "$here/quant_gen.py" onnx "$O" > "$T/gen_onnx.log" 2>&1; then
    dump "$O" qdq.onnx qdq_f4.onnx mnb.onnx
    CHECKS=$((CHECKS + 1))
    "$py" - "$O" << 'PY' || fail "ONNX: nnav differs from the spec's widths (above)"
import json, sys, yaml
d = sys.argv[1]
exp = json.load(open(d + "/expect.json"))
bad = 0
for f, e in exp.items():
    ts = {t["name"]: t for t in yaml.safe_load(open("%s/%s.tensors.yaml" % (d, f)))["tensors"]}
    for n, w in e["weights"].items():
        t = ts[n]
        if t["type"] != w["type"] or abs(t["bpw"] - w["bits"]) > 1e-9 or t["bytes"] != w["bytes"] or \
           t["logical_elements"] != w["elems"] or t["role"] != "parameter":
            bad += 1
            print("  %s %s: %s" % (f, n, t), "wanted", w)
    for n, q in e["data"].items():
        t = ts[n]
        if t["type"] != q["type"] or t["role"] != "constant" or t["bytes"] != q["bytes"]:
            bad += 1
            print("  %s %s: %s" % (f, n, t), "wanted", q)
    params = sum(w["elems"] for w in e["weights"].values())
    nbytes = sum(w["bytes"] for w in e["weights"].values()) + sum(q["bytes"] for q in e["data"].values())
    s = yaml.safe_load(open("%s/%s.summary.yaml" % (d, f)))
    i = yaml.safe_load(open("%s/%s.info.yaml" % (d, f)))
    bpw = nbytes * 8 / params
    if s["params"] != params or s["bytes"] != nbytes or abs(s["bpw"] - bpw) > 1e-9 or \
       abs(i["bits_per_weight"] - bpw) > 1e-9 or i["parameters_main_graph"] != params:
        bad += 1
        print("  %s: summary %s params %s bytes %s bpw, info %s; wanted %d, %d, %.6f"
              % (f, s["params"], s["bytes"], s["bpw"], i["bits_per_weight"], params, nbytes, bpw))
print(len(exp), "models checked,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
    expect_status 0 "$NNAV_BIN" tensors "$O/mnb.onnx"
    grep -qE '^B +uint8\[32,2,16\] +1,024 +raw += int4 \(MatMulNBits, block 32\), 4\.00 bpw, 64 x 32$' "$OUT" ||
        fail "tensors mnb.onnx: B's line: $(head -1 "$OUT")"
    if find_ort; then
        printf '[%s, %s]\n' \
            "{\"id\": \"qdq\", \"model\": \"$O/qdq.onnx\", \"inputs\": [{\"name\": \"X\", \"type\": \"float32\", \"dims\": [2, 64]}], \"fetch\": [\"Y\"]}" \
            "{\"id\": \"mnb\", \"model\": \"$O/mnb.onnx\", \"inputs\": [{\"name\": \"X\", \"type\": \"float32\", \"dims\": [2, 64]}], \"fetch\": [\"Y\"]}" \
            > "$O/jobs.json"
        CHECKS=$((CHECKS + 1))
        "$node" "$here/ort_oracle.js" "$pkg" "$O/jobs.json" "$O/res.json" > "$O/ort.log" 2>&1 ||
            fail "ort_oracle.js: $(tail -3 "$O/ort.log")"
        "$py" -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if all("error" not in r[k] and r[k]["values"]["Y"]["dims"]==[2,32] for k in ("qdq","mnb")) else 1)' "$O/res.json" ||
            fail "ONNX Runtime does not run the quantised models: $(head -c 400 "$O/res.json")"
    else
        echo "SKIP (partly): $ort_why: the ONNX models are not run"
    fi
else
    fail "quant_gen.py onnx: $(tail -3 "$T/gen_onnx.log")"
fi

# ---- GGUF ----
G=$T/gguf
mkdir -p "$G"
"$py" "$here/gguf_gen.py" "$G" > "$T/gen_gguf.log" 2>&1 || fail "gguf_gen.py: $(tail -3 "$T/gen_gguf.log")"
dump "$G" small_v3.gguf llama_mixed.gguf
hf=${NNAV_HFGGUF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/nnav/hfgguf}
oracle=""
if command -v node > /dev/null 2>&1 &&
   node -e 'require(process.argv[1] + "/node_modules/@huggingface/gguf")' "$hf" 2> /dev/null; then
    node "$here/gguf_oracle.js" "$hf" "$G/small_v3.gguf" "$G/llama_mixed.gguf" > "$G/oracle.json" ||
        fail "gguf_oracle.js"
    oracle=$G/oracle.json
else
    echo "note: no @huggingface/gguf at $hf: the types are the writer's"
fi
CHECKS=$((CHECKS + 1))
"$py" - "$G" "$here" "$oracle" << 'PY' || fail "GGUF: bpw not ggml's block table's (above)"
import json, sys, yaml
d, here, oracle = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, here)
from gguf_gen import TYPES  # ggml's table: type -> (number, block elements, bytes per block)
by_num = {v[0]: (k, v[1], v[2]) for k, v in TYPES.items()}
exp = json.load(open(d + "/expect.json"))
files = ["small_v3.gguf", "llama_mixed.gguf"]
orc = json.load(open(oracle)) if oracle else None
bad = n = 0
PLAIN = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32"}
for k, f in enumerate(files):
    ts = {t["name"]: t for t in yaml.safe_load(open("%s/%s.tensors.yaml" % (d, f)))["tensors"]}
    types = {t["name"]: t["dtype"] for t in orc[k]["tensors"]} if orc else \
            {t["name"]: t["ggml"] for t in exp[f]["tensors"]}
    for name, num in types.items():
        tname, blk, size = by_num[num]
        want = size * 8 / blk
        t = ts[name]
        n += 1
        if tname == "i32":  # indices or shapes: no weights, no bpw (scope.h's rule)
            if t["bpw"] is not None or t["type"] != "int32":
                bad += 1
                print("  %s %s: %s at %s bpw; an int32 tensor has none" % (f, name, t["type"], t["bpw"]))
            continue
        if abs(t["bpw"] - want) > 0.01 or t["type"] != PLAIN.get(tname, tname):
            bad += 1
            print("  %s %s: %s at %s bpw; ggml's %s is %.4f" % (f, name, t["type"], t["bpw"], tname, want))
    # The weights: every tensor but an int32 one (an index, a shape: no weight by scope.h's rule).
    s = yaml.safe_load(open("%s/%s.summary.yaml" % (d, f)))
    ws = [t for t in exp[f]["tensors"] if t["type"] != "i32"]
    nb = sum(t["bytes"] for t in ws)
    ne = sum(eval("*".join(map(str, t["dims"]))) for t in ws)
    if s["bytes"] != nb or abs(s["bpw"] - nb * 8 / ne) > 1e-9:
        bad += 1
        print("  %s: %s bytes, %s bpw; the file holds %d bytes for %d weights" % (f, s["bytes"], s["bpw"], nb, ne))
# llama_mixed: blk.3 is q6_K where the others are q4_K.
s = {x["path"]: x for x in yaml.safe_load(open(d + "/llama_mixed.gguf.summary.yaml"))["scopes"]}
if s["blk/3"]["identical_to"] is not None or s["blk/3"]["same_shape_as"] != "blk/0" or \
   s["blk/1"]["identical_to"] != "blk/0" or s["blk/4"]["identical_to"] != "blk/0" or \
   s["blk/0"]["same_shape_as"] is not None or s["blk/3"]["types"] != ["q6_K", "float32"]:
    bad += 1
    print("  llama_mixed: blk/3 identical to %s, same shape as %s, types %s; blk/4 identical to %s"
          % (s["blk/3"]["identical_to"], s["blk/3"]["same_shape_as"], s["blk/3"]["types"],
             s["blk/4"]["identical_to"]))
print(n, "tensors checked,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
expect_status 0 "$NNAV_BIN" summary "$G/llama_mixed.gguf"
grep -qE '^    0 … 2  ×3 identical +q4_K,q6_K,\+1 ' "$OUT" || fail "llama_mixed: blk.0 … 2 not one row: $(head -6 "$OUT")"
grep -qE '^    3  same shape as 0, different types +q6_K,float32 ' "$OUT" ||
    fail "llama_mixed: blk.3 not 'same shape as 0, different types': $(grep -E '^    3' "$OUT")"
grep -qE '^    4 … 5  ×2 identical, same as 0 ' "$OUT" || fail "llama_mixed: blk.4 … 5 not 'identical, same as 0'"
[ "$(grep -cE '^      attn_q ' "$OUT")" = 2 ] || fail "llama_mixed: blk.4 and 5 are shown again: $(grep -c attn_q "$OUT") attn_q rows"
grep -qE '^total: .* 3,558,656 params \(57 names\), 2\.3 MiB of weights, 5\.35 bpw, ' "$OUT" ||
    fail "llama_mixed: total: $(tail -1 "$OUT")"
finish
