#!/usr/bin/env python3
"""tf_facts.py - what a TensorFlow file holds, read independently of nnav.

A small protobuf wire decoder in Python (no protobuf package, no TensorFlow)
with the field numbers of ../shared/formats/tensorflow-fields.md, and a reader
of the variables.index sorted table (LevelDB format, Snappy blocks). It reports
the facts nnav must agree with: graphs, node names and ops, library functions,
signatures, variables. With --compare NNAV it runs nnav on the same file and
checks that every count and name matches; otherwise it prints the facts as
JSON (that is how the counts in tests/unit/test_tf.c were established).

Usage: tf_facts.py [--compare NNAV] PATH...   (a SavedModel folder or a .pb)
"""
import json
import os
import subprocess
import sys

import yaml


def varint(b, i):
    v = s = 0
    while True:
        if i >= len(b):
            raise ValueError("cut varint")
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if not c & 0x80:
            return v, i


def fields(b):
    """(number, wire type, value) for each field; LEN values are bytes."""
    i = 0
    while i < len(b):
        tag, i = varint(b, i)
        num, wt = tag >> 3, tag & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % wt)
        yield num, wt, v


def get(b, num):
    return [v for n, _, v in fields(b) if n == num]


def text(v):
    return v.decode("utf-8", "replace")


def entry(b):
    k = get(b, 1)
    v = get(b, 2)
    return (k[0] if k else b""), (v[0] if v else b"")


def nodes(graph_or_fn, field):
    out = []
    for nd in get(graph_or_fn, field):
        name = get(nd, 1)
        op = get(nd, 2)
        out.append({"name": text(name[0]) if name else "", "op": text(op[0]) if op else "",
                    "inputs": [text(x) for x in get(nd, 3)]})
    return out


def shape(b):
    if any(v for v in get(b, 3)):
        return None
    dims = []
    for d in get(b, 2):
        s = get(d, 1)
        v = s[0] if s else 0
        if v >= 1 << 63:
            v -= 1 << 64
        dims.append(v)
    return dims


def graph_facts(g):
    lib = get(g, 2)
    fns = []
    for lb in lib:
        for fd in get(lb, 1):
            sig = get(fd, 1)
            name = text(get(sig[0], 1)[0]) if sig and get(sig[0], 1) else ""
            fns.append({"name": name, "nodes": nodes(fd, 3),
                        "inputs": [text(get(a, 1)[0]) for a in get(sig[0], 2)] if sig else [],
                        "outputs": [text(get(a, 1)[0]) for a in get(sig[0], 3)] if sig else []})
    unknown = sorted({n for n, _, _ in fields(g) if n not in (1, 2, 3, 4)})
    return {"nodes": nodes(g, 1), "functions": fns, "unknown_fields": unknown}


def tensorinfo(b):
    name = get(b, 1)
    dt = get(b, 2)
    sh = get(b, 3)
    return {"name": text(name[0]) if name else "", "dtype": dt[0] if dt else 0,
            "shape": shape(sh[0]) if sh else None}


def meta_facts(mg):
    info = get(mg, 1)
    tags = [text(t) for t in get(info[0], 4)] if info else []
    graph = get(mg, 2)
    facts = graph_facts(graph[0] if graph else b"")
    sigs = []
    for e in get(mg, 5):
        key, sd = entry(e)
        sigs.append({"key": text(key),
                     "inputs": {text(k): tensorinfo(v) for k, v in map(entry, get(sd, 1))},
                     "outputs": {text(k): tensorinfo(v) for k, v in map(entry, get(sd, 2))},
                     "method": text(get(sd, 3)[0]) if get(sd, 3) else ""})
    facts.update({"tags": tags, "signatures": sigs})
    return facts


# ---- variables.index ----

def unsnappy(b):
    n, i = varint(b, 0)
    out = bytearray()
    while i < len(b):
        tag = b[i]
        i += 1
        t = tag & 3
        if t == 0:
            ln = tag >> 2
            if ln >= 60:
                k = ln - 59
                ln = int.from_bytes(b[i:i + k], "little")
                i += k
            ln += 1
            out += b[i:i + ln]
            i += ln
            continue
        if t == 1:
            ln = 4 + ((tag >> 2) & 7)
            off = ((tag >> 5) << 8) | b[i]
            i += 1
        elif t == 2:
            ln = (tag >> 2) + 1
            off = int.from_bytes(b[i:i + 2], "little")
            i += 2
        else:
            ln = (tag >> 2) + 1
            off = int.from_bytes(b[i:i + 4], "little")
            i += 4
        for _ in range(ln):
            out.append(out[-off])
    assert len(out) == n
    return bytes(out)


def block(f, off, size):
    raw = f[off:off + size]
    return unsnappy(raw) if f[off + size] == 1 else raw


def block_entries(blk):
    nrest = int.from_bytes(blk[-4:], "little")
    end = len(blk) - 4 - 4 * nrest
    i, prev = 0, b""
    while i < end:
        shared, i = varint(blk, i)
        unshared, i = varint(blk, i)
        vlen, i = varint(blk, i)
        key = prev[:shared] + blk[i:i + unshared]
        i += unshared
        yield key, blk[i:i + vlen]
        i += vlen
        prev = key


def variables(folder):
    path = os.path.join(folder, "variables", "variables.index")
    if not os.path.exists(path):
        return []
    f = open(path, "rb").read()
    foot = f[-48:]
    _, j = varint(foot, 0)
    _, j = varint(foot, j)
    ioff, j = varint(foot, j)
    isize, j = varint(foot, j)
    out = []
    for _, h in block_entries(block(f, ioff, isize)):
        off, k = varint(h, 0)
        size, _ = varint(h, k)
        for key, val in block_entries(block(f, off, size)):
            if not key:
                continue
            sh = get(val, 2)
            sz = get(val, 5)
            ofs = get(val, 4)
            dt = get(val, 1)
            out.append({"name": text(key), "dtype": dt[0] if dt else 0,
                        "shape": shape(sh[0]) if sh else [],
                        "offset": ofs[0] if ofs else 0, "size": sz[0] if sz else 0})
    return out


def file_facts(path):
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    pb = os.path.join(path, "saved_model.pb") if os.path.isdir(path) else path
    b = open(pb, "rb").read()
    top = list(fields(b))
    if any(n == 2 and wt == 2 for n, wt, _ in top) and all(n in (1, 2) for n, _, _ in top) \
            and any(n == 1 and wt == 0 for n, wt, _ in top):
        return {"format": "TensorFlow SavedModel",
                "metas": [meta_facts(v) for n, _, v in top if n == 2],
                "variables": variables(folder)}
    # A NodeDef's field 2 is its op (text); a MetaInfoDef's is an OpList.
    if any(n == 1 and wt == 2 and get(v, 2) and
           all(32 <= c < 127 for c in get(v, 2)[0]) for n, wt, v in top[:1]):
        return {"format": "TensorFlow GraphDef", "metas": [graph_facts(b) | {"tags": [], "signatures": []}],
                "variables": []}
    return {"format": "TensorFlow MetaGraphDef", "metas": [meta_facts(b)], "variables": []}


# ---- comparing with nnav ----

FAILS = []


def check(what, got, want):
    if got != want:
        FAILS.append("%s: nnav says %r, the file holds %r" % (what, got, want))


def run(nnav, *args):
    r = subprocess.run([nnav] + list(args), capture_output=True)
    if r.returncode != 0:
        FAILS.append("nnav %s exited %d: %s" % (" ".join(args), r.returncode, r.stderr.decode()))
        return None
    return yaml.safe_load(r.stdout)


def compare(nnav, path):
    facts = file_facts(path)
    info = run(nnav, "info", "--yaml", path)
    if info is None:
        return
    check(path + ": format", info["format"], facts["format"])
    tree = run(nnav, "tree", "--yaml", path)
    metas = facts["metas"]
    roots = [g for g in tree if g["kind"] == "main"]
    fns = [g for g in tree if g["kind"] == "function"]
    check(path + ": root graphs", len(roots), len(metas))
    check(path + ": functions", len(fns), sum(len(m["functions"]) for m in metas))
    for i, m in enumerate(metas):
        gpath = "/" if i == 0 else "~meta[%d]" % i
        listed = run(nnav, "nodes", "--yaml", "--graph", gpath, path)
        check(path + ": nodes of " + gpath, [(n["name"], n["op_type"]) for n in listed],
              [(n["name"], n["op"]) for n in m["nodes"]])
        for fn in m["functions"]:
            fl = run(nnav, "nodes", "--yaml", "--graph", "@" + fn["name"], path)
            if fl is None:
                continue
            check(path + ": nodes of @" + fn["name"], [(n["name"], n["op_type"]) for n in fl],
                  [(n["name"], n["op"]) for n in fn["nodes"]])
        check(path + ": tags of " + gpath, tree[[t["path"] for t in tree].index(gpath)]["name"],
              ",".join(m["tags"]))
    sigs = info.get("signatures", [])
    want = [s for m in metas for s in m["signatures"]]
    check(path + ": signatures", [s["key"] for s in sigs], [s["key"] for s in want])
    for got, w in zip(sigs, want):
        for side in ("inputs", "outputs"):
            check("%s: signature %s %s" % (path, w["key"], side),
                  sorted((t["key"], t["name"]) for t in got[side]),
                  sorted((k, v["name"]) for k, v in w[side].items()))
    tensors = run(nnav, "tensors", "--yaml", path)
    var = [t for t in tensors["tensors"] if t.get("storage", "").startswith("external variables/")]
    check(path + ": variables", [(t["name"], t["dims"], t["bytes"]) for t in var],
          [(v["name"], v["shape"], v["size"]) for v in facts["variables"]])
    unknown = sorted({u["number"] for u in info["unknown_fields"] if u["message"] == "GraphDef"})
    check(path + ": GraphDef fields outside the schema", unknown,
          sorted({n for m in metas for n in m["unknown_fields"]}))


def main(argv):
    nnav = None
    if len(argv) > 2 and argv[1] == "--compare":
        nnav = argv[2]
        argv = argv[2:]
    for p in argv[1:]:
        if nnav:
            compare(nnav, p)
        else:
            f = file_facts(p)
            for m in f["metas"]:
                m["node_count"] = len(m["nodes"])
                m["function_count"] = len(m["functions"])
                m["function_nodes"] = {fn["name"]: len(fn["nodes"]) for fn in m["functions"]}
                del m["nodes"]
                for fn in m["functions"]:
                    del fn["nodes"]
            print(json.dumps({p: f}, indent=1))
    if nnav:
        for f in FAILS:
            print("FAIL:", f)
        print("%d files compared, %d differences" % (len(argv) - 1, len(FAILS)))
        return 1 if FAILS else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
