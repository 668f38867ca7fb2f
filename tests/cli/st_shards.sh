#!/usr/bin/env bash
# A sharded safetensors model (issue 31 item 3) as transformers'
# save_pretrained lays one out, written by st_shards_gen.py with torch's
# tensors: `nnav FOLDER` and `nnav FOLDER/model.safetensors.index.json` open
# every shard the index names as one model - the tensor count, params and
# bytes are torch's, every tensor's dtype and shape are the state_dict's, the
# storage column names the shard the index maps it to, a tensor's values and
# min/max are torch's, `summary` folds the 32 decoder layers ("×32
# identical") under the class config.json names, `info` shows config.json's
# keys and the shards; the same files in a Hugging Face cache (the repository
# folder, its snapshot, links into blobs/) open alike and say "HF blob"; a
# shard link out of the repository is refused naming --follow-links; a
# missing shard, a tensor mapped to the wrong shard are exit 2 naming the
# shard; a shard the index does not name is reported; a folder of several
# models lists them; a GPTQ qweight with only its scales beside it (no
# qzeros, no g_idx to give its bits) is a 4-bit K x N weight when
# config.json's quantization_config says bits 4, and stays int32 without it.
set -u
. "$(dirname "$0")/lib.bash"
need_python torch,yaml
T=$NNAV_TMP/st_shards
rm -rf "$T"
mkdir -p "$T"
"$py" "$NNAV_SRC/tests/cli/st_shards_gen.py" "$T" || { fail "st_shards_gen.py failed"; finish; }
O=$T/oracle.json
R=$T/hub/models--org--tiny-llama
SNAP=$R/snapshots/89abcdef0123456789abcdef0123456789abcdef

# Every tensor's name, dtype, shape and shard, and the totals, as torch has them.
check_tensors() { # WHAT: `tensors --yaml` of the last run against the oracle
    CHECKS=$((CHECKS + 1))
    "$py" - "$OUT" "$O" "$2" > "$T/cmp.txt" << 'PY' || fail "$1: $(head -c 800 "$T/cmp.txt")"
import json, sys, yaml
got = yaml.safe_load(open(sys.argv[1]))["tensors"]
o = json.load(open(sys.argv[2]))
via = sys.argv[3]
DT = {"BF16": "bfloat16", "F32": "float32"}
bad = []
if len(got) != o["tensors"]:
    bad.append("%d tensors, want %d" % (len(got), o["tensors"]))
for t in got:
    n = t["name"]
    if n not in o["dtype"]:
        bad.append("unknown tensor " + n); continue
    if t["data_type"] != DT[o["dtype"][n]] or t["dims"] != o["shape"][n]:
        bad.append("%s: %s%s, want %s%s" % (n, t["data_type"], t["dims"], o["dtype"][n], o["shape"][n]))
    want = o["shard"][n] + via + ", " + o["dtype"][n] + ", "
    if not t["storage"].startswith(want):
        bad.append("%s: storage %r, want it to start %r" % (n, t["storage"], want))
print(len(got), "tensors compared,", len(bad), "wrong:", bad[:5])
sys.exit(1 if bad else 0)
PY
}

read -r tensors params bytes layer_params probe <<< "$("$py" -c '
import json,sys; o=json.load(open(sys.argv[1]))
print(o["tensors"], o["params"], o["bytes"], o["layer_params"], o["probe"])' "$O")"
commas() { "$py" -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$1"; }

for M in "$T/sharded" "$T/sharded/model.safetensors.index.json" "$R" "$SNAP"; do
    via=""
    case $M in "$R"|"$SNAP") via=" (HF blob)" ;; esac
    expect_status 0 "$NNAV_BIN" tensors "$M" --yaml
    check_tensors "tensors of $M" "$via"
    expect_status 0 "$NNAV_BIN" info "$M"
    grep -q "^tensors        $tensors$" "$OUT" || fail "info $M: tensor count: $(head -12 "$OUT")"
    grep -q "^parameters     $(commas "$params")$" "$OUT" ||
        fail "info $M: params, want $params: $(grep parameters "$OUT")"
    grep -q "^weights        $(commas "$bytes") bytes" "$OUT" || fail "info $M: bytes, want $bytes: $(grep weights "$OUT")"
    grep -q "^  shards  *8$" "$OUT" || fail "info $M: 8 shards: $(cat "$OUT")"
    grep -q "^  architectures  *LlamaForCausalLM$" "$OUT" || fail "info $M: config's architectures: $(cat "$OUT")"
    grep -q "^  num_hidden_layers  *32$" "$OUT" || fail "info $M: config's num_hidden_layers"
    grep -q "^  quantization_config.quant_method fp8$" "$OUT" || fail "info $M: a nested config key: $(grep quant "$OUT")"
    [ -s "$ERR" ] && fail "info $M: stderr: $(cat "$ERR")"
done

# summary: 32 identical layers, each the oracle's params, under config's class.
expect_status 0 "$NNAV_BIN" summary "$T/sharded"
grep -Eq "^/ +LlamaForCausalLM +bfloat16,float32 +$(commas "$params") " "$OUT" || fail "summary's root: $(head -3 "$OUT")"
grep -Eq "^      0 … 31  ×32 identical +- +bfloat16,float32 +$(commas "$layer_params") " "$OUT" ||
    fail "summary: 32 identical layers of $layer_params params: $(cat "$OUT")"

# A tensor's values and stats, read from its shard through the cache's link.
expect_status 0 "$NNAV_BIN" tensors "$R" --name "$probe" --values 6 --yaml
"$py" - "$OUT" "$O" > "$T/cmp.txt" << 'PY' || fail "probe values: $(cat "$T/cmp.txt")"
import json, sys, yaml
t = yaml.safe_load(open(sys.argv[1]))["tensors"][0]
o = json.load(open(sys.argv[2]))
ok = t["values"] == o["probe_values"] and t["min"] == o["probe_min"] and t["max"] == o["probe_max"]
print(t["values"], t["min"], t["max"], "want", o["probe_values"], o["probe_min"], o["probe_max"])
sys.exit(0 if ok else 1)
PY

# ---- what is wrong with a folder ----
expect_status 2 "$NNAV_BIN" info "$T/missing"
grep -q 'shard "model-00002-of-00008.safetensors" is missing' "$ERR" || fail "missing shard named: $(cat "$ERR")"
expect_status 2 "$NNAV_BIN" tensors "$T/wrongmap"
grep -q "maps tensor 'model.norm.weight' to shard 'model-00001-of-00008.safetensors', but shard 'model-00008-of-00008.safetensors' holds it" "$ERR" ||
    fail "a tensor mapped to the wrong shard: $(cat "$ERR")"
expect_status 0 "$NNAV_BIN" info "$T/stray"
grep -q "^  shards_not_in_index  *model-00004-of-00004.safetensors$" "$OUT" || fail "a stray shard reported: $(cat "$OUT")"
expect_status 2 "$NNAV_BIN" info "$T"
grep -q "a folder of 4 model files, not one model: give one of them (missing/model.safetensors.index.json (safetensors, " "$ERR" ||
    fail "a folder of models lists them: $(cat "$ERR")"
# A shard linked out of the cache repository: refused, unless --follow-links.
mkdir -p "$T/elsewhere"
s3=$SNAP/model-00003-of-00008.safetensors
cp "$T/sharded/model-00003-of-00008.safetensors" "$T/elsewhere/"
rm "$s3"
ln -s "$T/elsewhere/model-00003-of-00008.safetensors" "$s3"
expect_status 2 "$NNAV_BIN" info "$SNAP"
grep -q 'shard "model-00003-of-00008.safetensors" refused: .*--follow-links' "$ERR" || fail "a link out of the cache refused: $(cat "$ERR")"
expect_status 0 "$NNAV_BIN" tensors "$SNAP" --follow-links --name model.layers.10.mlp.up_proj.weight
grep -q "model-00003-of-00008.safetensors (link), BF16" "$OUT" || fail "--follow-links reads the linked shard: $(cat "$OUT" "$ERR")"
# Hostile indexes: each exit 2 naming the rule (and where).
H=$T/hostile
mkdir -p "$H"
cp "$T/sharded"/model-0000[12]-of-00008.safetensors "$H/"
hostile() { # INDEX-JSON PATTERN: the index refused with the pattern in stderr
    printf '%s' "$1" > "$H/model.safetensors.index.json"
    expect_status 2 "$NNAV_BIN" info "$H"
    grep -q -- "$2" "$ERR" || fail "hostile index $1: want '$2': $(cat "$ERR")"
}
hostile '{"weight_map": []}' 'weight_map is an array, not an object of tensor names to shard files'
hostile '{"weight_map": {}}' 'weight_map names no tensor'
hostile '{"weight_map": {"a": 3}}' 'a weight_map value is a number, not the name of a shard file'
hostile '{"weight_map": {"a": "../x.safetensors"}}' 'shard "../x.safetensors" refused: `..` would leave'
hostile '{"weight_map": {"a": "/etc/passwd"}}' 'shard "/etc/passwd" refused: absolute paths'
hostile '{"weight_map": {"nope": "model-00001-of-00008.safetensors"}}' "maps tensor 'nope' to shard 'model-00001-of-00008.safetensors', which does not hold it"
hostile '{"metadata": 1, "weight_map": {"a": "b"}}' 'metadata is a number, not an object'
hostile '{"weight_map": {"a": "b"}, "weight_map": {"a": "b"}}' 'the index names "weight_map" twice'
hostile '{"weight_map": {"a": "b"' "\$.weight_map: expected ',' or '}' after an object member, found the end of the text at offset 24"
# A shard whose header is broken: the shard's rule, led by its name.
printf 'abcdefgh{}' > "$H/bad.safetensors"
hostile '{"weight_map": {"a": "bad.safetensors"}}' "shard 'bad.safetensors': header length 7523094288207667809 is over safetensors' limit of 100000000 bytes at offset 0"
# Two shards that both hold one name.
cp "$T/sharded/model-00001-of-00008.safetensors" "$H/again.safetensors"
hostile '{"weight_map": {"model.embed_tokens.weight": "model-00001-of-00008.safetensors", "lm_head.weight": "again.safetensors"}}' "is also in shard"
# GPTQ's bits from config.json: qweight [K*4/32, N] int32, scales [K/128, N].
G=$T/gptq
mkdir -p "$G"
"$py" - "$G" "$NNAV_SRC/tests/cli" << 'PY' || fail "writing the GPTQ file"
import json, os, sys
sys.path.insert(0, sys.argv[2])
from st_write import write
K, N = 256, 64
write(os.path.join(sys.argv[1], "model.safetensors"),
      {"l.qweight": ("I32", (K * 4 // 32, N), bytes(K * 4 // 32 * N * 4)),
       "l.scales": ("F16", (K // 128, N), bytes(K // 128 * N * 2))})
PY
expect_status 0 "$NNAV_BIN" tensors "$G" --name l.qweight --yaml
grep -q "type: int32$" "$OUT" || fail "no config: qweight stays int32: $(cat "$OUT")"
printf '{"architectures": ["LlamaForCausalLM"], "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128}}' > "$G/config.json"
expect_status 0 "$NNAV_BIN" tensors "$G" --name l.qweight --yaml
grep -q "type: int4 (GPTQ, group 128)$" "$OUT" || fail "config's bits: $(cat "$OUT")"
grep -q "logical_elements: $((256 * 64))$" "$OUT" || fail "config's bits: K x N: $(cat "$OUT")"
finish
