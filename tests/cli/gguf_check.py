"""gguf_check.py NNAV DIR [ORACLE_JSON]: every file gguf_gen.py wrote into DIR
as nnav reads it, against what the writer put there (DIR/expect.json) and,
for the files Hugging Face's @huggingface/gguf parser reads (ORACLE_JSON,
gguf_oracle.js's output for those files in expect.json's order), against it:
  - info --yaml: every metadata key, in order, with its value (an array: its
    item type and count, and its first items), the version, byte order,
    alignment, data section start, architecture, file type, vocabulary size,
    and the mean bits per weight as the bytes of ggml's block table give it;
  - tensors --yaml --values 64: every tensor's name, dims (the file's, last
    first), ggml type name, bytes (blocks x bytes per block), offset, and its
    first 64 values, min and max equal (as doubles) to ggml's reference
    dequantisation computed with numpy, the mean within 1e-9 relative.
Prints one line per failure and the count; exit 1 on any."""
import json
import math
import subprocess
import sys

import yaml

nnav, d = sys.argv[1], sys.argv[2]
exp = json.load(open(d + "/expect.json"))
oracle = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
fails = 0
checks = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg)


def run(*a):
    r = subprocess.run([nnav] + list(a), capture_output=True, text=True)
    if r.returncode:
        fail("%s: exit %d: %s" % (" ".join(a), r.returncode, r.stderr.strip()[:300]))
        return None
    return yaml.safe_load(r.stdout)


V_F32, V_STR, V_ARR = 6, 8, 9
VNAMES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string",
          "array", "uint64", "int64", "float64"]
BLOCK = {"f32": (1, 4), "f16": (1, 2), "bf16": (1, 2), "i32": (1, 4), "q4_0": (32, 18),
         "q4_1": (32, 20), "q5_0": (32, 22), "q5_1": (32, 24), "q8_0": (32, 34),
         "q4_K": (256, 144), "q6_K": (256, 210), "q8_K": (256, 292), "q2_K": (256, 84),
         "q3_K": (256, 110), "q5_K": (256, 176), "q8_1": (32, 36), "iq4_nl": (32, 18),
         "iq4_xs": (256, 136), "tq1_0": (256, 54), "tq2_0": (256, 66), "mxfp4": (32, 17)}
FTYPES = {7: "MOSTLY_Q8_0", 15: "MOSTLY_Q4_K_M", 30: "MOSTLY_IQ4_XS"}


def same_value(t, want, got):
    if t == V_ARR:
        return (isinstance(got, dict) and got.get("type") == VNAMES[want["type"]] and
                got.get("count") == len(want["items"]) and
                all(want["type"] == V_ARR or same_value(want["type"], w, g)
                    for w, g in zip(want["items"], got.get("items", []))))
    if t == V_F32 or t == 12:
        return isinstance(got, float) and got == want
    return got == want


for oi, (fname, rec) in enumerate(exp.items()):
    f = d + "/" + fname
    info = run("info", f, "--yaml")
    # a big-endian file's quantised blocks are refused (exit 2): its plain
    # tensors' values are asked one by one
    tens = run("tensors", f, "--yaml", *([] if rec["big_endian"] else ["--values", "64"]))
    if info is None or tens is None:
        continue
    md = info.get("metadata", {})
    check(list(md.keys()) == [kv["key"] for kv in rec["kv"]], "%s: metadata keys %s" % (fname, list(md.keys())))
    for kv in rec["kv"]:
        check(same_value(kv["type"], kv["value"], md.get(kv["key"])),
              "%s: %s is %r, wrote %r" % (fname, kv["key"], md.get(kv["key"]), kv["value"]))
    g = info.get("gguf", {})
    check(g.get("version") == rec["version"], "%s: version %r" % (fname, g.get("version")))
    check(g.get("byte order") == ("big-endian" if rec["big_endian"] else "little-endian"),
          "%s: byte order %r" % (fname, g.get("byte order")))
    check(g.get("data offset") == rec["data_start"], "%s: data offset %r, wrote %d" %
          (fname, g.get("data offset"), rec["data_start"]))
    check(g.get("alignment") == 32 and g.get("tensors") == len(rec["tensors"]) and
          g.get("metadata pairs") == len(rec["kv"]), "%s: alignment, counts %r" % (fname, g))
    check(g.get("architecture") == "llama", "%s: architecture %r" % (fname, g.get("architecture")))
    ft = [kv["value"] for kv in rec["kv"] if kv["key"] == "general.file_type"][0]
    check(g.get("file type") == "%s (%d)" % (FTYPES[ft], ft), "%s: file type %r" % (fname, g.get("file type")))
    voc = [len(kv["value"]["items"]) for kv in rec["kv"] if kv["key"] == "tokenizer.ggml.tokens"][0]
    check(g.get("vocabulary size") == voc, "%s: vocabulary size %r" % (fname, g.get("vocabulary size")))
    tb = sum(t["bytes"] for t in rec["tensors"])
    te = sum(math.prod(t["dims"]) for t in rec["tensors"])
    check(abs(g.get("bits per weight", 0) - tb * 8 / te) < 1e-12,
          "%s: bits per weight %r, the block table gives %.4f" % (fname, g.get("bits per weight"), tb * 8 / te))
    rows = tens.get("tensors", [])
    check(len(rows) == len(rec["tensors"]), "%s: %d tensors, wrote %d" % (fname, len(rows), len(rec["tensors"])))
    for row, t in zip(rows, rec["tensors"]):
        n = t["name"]
        check(row["name"] == n, "%s: tensor %r, wrote %r" % (fname, row["name"], n))
        check(row["dims"] == t["dims"][::-1], "%s: %s dims %r, wrote %r" % (fname, n, row["dims"], t["dims"]))
        want_type = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "i32": "int32"}.get(t["type"], t["type"])
        check(row["data_type"] == want_type, "%s: %s type %r, wrote %s" % (fname, n, row["data_type"], t["type"]))
        blk, size = BLOCK[t["type"]]
        check(row["bytes"] == math.prod(t["dims"]) // blk * size == t["bytes"],
              "%s: %s bytes %r, wrote %d" % (fname, n, row["bytes"], t["bytes"]))
        check(("@byte %d" % (rec["data_start"] + t["offset"])) in row["storage"],
              "%s: %s storage %r, offset %d" % (fname, n, row["storage"], t["offset"]))
        v = t["values"]
        if rec["big_endian"]:
            r = subprocess.run([nnav, "tensors", f, "--name", n, "--yaml", "--values", "64"],
                               capture_output=True, text=True)
            if blk > 1:
                check(r.returncode == 2 and "big-endian" in r.stderr,
                      "%s: %s quantised values big-endian: exit %d %s" % (fname, n, r.returncode, r.stderr[:200]))
                continue
            row = yaml.safe_load(r.stdout)["tensors"][0]
        check(row.get("values") == v["first"], "%s: %s values %r, ggml's reference %r" %
              (fname, n, (row.get("values") or [])[:4], v["first"][:4]))
        check(row.get("min") == v["min"] and row.get("max") == v["max"],
              "%s: %s min/max %r %r, reference %r %r" % (fname, n, row.get("min"), row.get("max"), v["min"], v["max"]))
        check(row.get("mean") is not None and abs(row["mean"] - v["mean"]) <= 1e-9 * max(1, abs(v["mean"])),
              "%s: %s mean %r, reference %r" % (fname, n, row.get("mean"), v["mean"]))
    if oracle is None or rec["big_endian"]:
        continue
    o = oracle[oi]
    if "error" in o:
        # @huggingface/gguf reads versions 2 and 3 only
        check(rec["version"] == 1, "%s: the oracle refused it: %s" % (fname, o["error"]))
        continue
    om = o["metadata"]
    for k, val in md.items():
        w = om.get(k)
        if isinstance(val, dict):
            check(isinstance(w, list) and len(w) == val["count"], "%s: %s: oracle has %r items" % (fname, k, w if not isinstance(w, list) else len(w)))
        else:
            check(str(w) == str(val) or w == val or (isinstance(val, bool) and w is val),
                  "%s: %s: nnav %r, oracle %r" % (fname, k, val, w))
    check(o["data_offset"] == rec["data_start"], "%s: oracle's data offset %r" % (fname, o["data_offset"]))
    for row, ot in zip(rows, o["tensors"]):
        check(row["name"] == ot["name"] and row["dims"] == ot["shape"][::-1],
              "%s: %s %r, oracle %s %r" % (fname, row["name"], row["dims"], ot["name"], ot["shape"]))
        check(("@byte %d" % (o["data_offset"] + ot["offset"])) in row["storage"],
              "%s: %s storage %r, oracle's offset %d" % (fname, row["name"], row["storage"], ot["offset"]))

print("%d checks, %d failures" % (checks, fails))
sys.exit(1 if fails else 0)
