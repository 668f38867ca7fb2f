#!/usr/bin/env bash
# safetensors files (issue 31) as safetensors_gen.py writes them from the
# format's spec: every dtype's values as torch.frombuffer (numpy for the
# unsigned types torch 1.13 lacks; the OCP definitions for the 8- and 4-bit
# floats) reads the same bytes, exactly, with min and max; a Llama-shaped
# model with transformers' names: `summary` folds its 32 decoder layers
# into one row "0 … 31 ×32 identical" with each layer's params, the total
# params are the sum of every tensor's numel, `info` shows the header, the
# tensors of each dtype and __metadata__ (text and YAML); `find` and
# `tensors` reach a tensor by name; a file cut short is exit 2 naming the
# rule; and no source outside src/formats/safetensors/ names the format
# but the readers' table.
set -u
. "$(dirname "$0")/lib.bash"
need_python numpy,torch,yaml
T=$NNAV_TMP/safetensors
rm -rf "$T"
mkdir -p "$T"
"$py" "$NNAV_SRC/tests/cli/safetensors_gen.py" "$T" || { fail "safetensors_gen.py failed"; finish; }

# ---- every dtype's values ----
expect_status 0 "$NNAV_BIN" tensors "$T/dtypes.safetensors" --yaml --values 40
cp "$OUT" "$T/dtypes.yaml"
"$py" - "$T/dtypes.yaml" "$T/oracle.json" > "$T/cmp.txt" << 'PY' || fail "dtype values: $(head -c 600 "$T/cmp.txt")"
import json, math, sys, yaml
got = {t["name"]: t for t in yaml.safe_load(open(sys.argv[1]))["tensors"]}
want = json.load(open(sys.argv[2]))["dtypes"]
bad = 0
def same(a, b):
    if b is None:
        return isinstance(a, float) and math.isnan(a)
    if b in ("inf", "-inf"):
        return a == float(b)
    return a == b and type(a) is type(b) or (isinstance(b, float) and a == b)
for name, vals in sorted(want.items()):
    g = got.get(name)
    if g is None:
        print("missing", name); bad += 1; continue
    if len(g["values"]) != len(vals) or not all(same(a, b) for a, b in zip(g["values"], vals)):
        print(name, "values", g["values"][:6], "want", vals[:6]); bad += 1; continue
    fin = [v for v in vals if v is not None and v not in ("inf", "-inf")]
    fin += [float(v) for v in vals if v in ("inf", "-inf")]
    if name != "t_c64" and fin and (g["min"] != min(fin) or g["max"] != max(fin)):
        print(name, "min/max", g["min"], g["max"], "want", min(fin), max(fin)); bad += 1
print(len(want), "dtypes compared,", bad, "wrong")
sys.exit(1 if bad else 0)
PY
grep -q "^18 dtypes compared, 0 wrong" "$T/cmp.txt" || fail "not all 18 dtypes compared: $(cat "$T/cmp.txt")"

# ---- a Llama-shaped model ----
read -r params tensors layer_params <<< "$("$py" -c 'import json,sys; o=json.load(open(sys.argv[1]))["llama"]; print(o["params"], o["tensors"], o["layer_params"])' "$T/oracle.json")"
fmt() { "$py" -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$1"; }
expect_status 0 "$NNAV_BIN" summary "$T/llama.safetensors"
grep -Eq "^      0 … 31  ×32 identical +bfloat16 +$(fmt "$layer_params") .* 16\.00$" "$OUT" ||
    fail "summary: no '0 … 31 ×32 identical' bfloat16 row with $layer_params params at 16.00 bpw: $(head -8 "$OUT")"
grep -q "^total: .*, $(fmt "$params") params ($(fmt "$tensors") names)" "$OUT" ||
    fail "summary: total is not $params params of $tensors names: $(tail -1 "$OUT")"
expect_status 0 "$NNAV_BIN" info "$T/llama.safetensors" --verbose
grep -q "^format *safetensors (read as safetensors" "$OUT" || fail "info: format not safetensors"
expect_status 0 "$NNAV_BIN" info "$T/llama.safetensors"
grep -q "^parameters *$(fmt "$params")$" "$OUT" || fail "info: parameters not $params"
grep -q "^  dtypes *BF16 $tensors$" "$OUT" || fail "info: no 'dtypes BF16 $tensors' line"
grep -q "^metadata (2 keys)$" "$OUT" || fail "info: no metadata heading"
grep -q "^  model *tiny-llama é$" "$OUT" || fail "info: metadata 'model' not shown"
expect_status 0 "$NNAV_BIN" info "$T/llama.safetensors" --yaml
"$py" - "$OUT" "$T/oracle.json" << 'PY' || fail "info --yaml: metadata differs from the file's"
import json, sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
o = json.load(open(sys.argv[2]))["llama"]
sys.exit(0 if d["metadata"] == o["metadata"] and d["safetensors"]["dtypes"] == "BF16 %d" % o["tensors"] else 1)
PY
expect_status 0 "$NNAV_BIN" find "$T/llama.safetensors" layers.17.mlp.down_proj
grep -q "model\.layers\.17\.mlp\.down_proj\.weight *bfloat16\[8,16\]" "$OUT" || fail "find: layers.17 down_proj not found"
expect_status 0 "$NNAV_BIN" tensors "$T/llama.safetensors" --name model.norm.weight --values 2
grep -q "^model\.norm\.weight *bfloat16\[8\] *16  BF16, data bytes" "$OUT" || fail "tensors --name: $(head -2 "$OUT")"

# ---- a file cut short: the rule and the offset ----
size=$(wc -c < "$T/llama.safetensors")
head -c $((size - 100)) "$T/llama.safetensors" > "$T/cut.safetensors"
expect_status 2 "$NNAV_BIN" info "$T/cut.safetensors"
grep -q "ends at data offset [0-9]*, past the end of the file (.* bytes of data) at offset [0-9]" "$ERR" ||
    fail "a file cut in its data: $(cat "$ERR")"
head -c 5000 "$T/llama.safetensors" > "$T/cut.safetensors"
expect_status 2 "$NNAV_BIN" info "$T/cut.safetensors"
grep -q "header length [0-9]* runs past the end of the file (4992 bytes after the length) at offset 0" "$ERR" ||
    fail "a file cut in its header: $(cat "$ERR")"

# ---- the seam: only the readers' table names the format ----
names=$(cd "$NNAV_SRC" && grep -ril safetensors src ui | grep -v '^src/formats/safetensors/' |
        grep -v -x -e src/formats/readers.c -e src/formats/readers.h -e src/include/nnav.h)
[ -z "$names" ] || fail "files outside src/formats/safetensors/ name the format: $names"
incl=$(cd "$NNAV_SRC" && grep -rl '#include "\(safetensors\|formats/safetensors\)' src ui | grep -v '^src/formats/safetensors/')
[ -z "$incl" ] || fail "files outside src/formats/safetensors/ include its headers: $incl"
finish
