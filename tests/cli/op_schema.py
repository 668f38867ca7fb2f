"""op_schema.py NNAV TMPDIR [CORPUS_MODEL...] - operator knowledge on the
command line (issue 17 items 3 and 5) against onnx.defs.

  - `nnav op NAME --opset V --domain D --yaml` for every schema of every op
    of the three standard domains in every version onnx.defs holds (the
    table is read from newer docs: it must equal this registry wherever the
    registry knows a schema, but for the differences proto/gen_opschema.py's
    KNOWN_DIFFERENCES lists with their reasons, and may hold more): since
    version, deprecated, counts, each input and output (name, type string,
    option, homogeneous), each attribute (type, required, default value),
    type constraints and the version history.
  - `nnav node --yaml` and text on generated models: Conv names X, W, B and
    shows auto_pad's default NOTSET (default: true); Resize, Split, LSTM,
    LinearClassifier (ai.onnx.ml), Upsample at opset 10 (deprecated), an
    unknown attribute, a com.microsoft node (in the table, as ONNX Runtime
    has it), a node of a domain not in the table, a Loop body's
    node (the outer opset in force), a hostile op name (escaped).
  - For each node of each model given (generated or corpus): every formal
    name and every default nnav adds equals the schema's onnx.defs resolves.
"""
import math
import os
import subprocess
import sys

import onnx
import yaml

sys.path.insert(0, os.path.join(os.environ["NNAV_SRC"], "proto"))
from gen_opschema import KNOWN_DIFFERENCES  # noqa: E402
from onnx import TensorProto, defs, helper

NNAV, TMP = sys.argv[1], sys.argv[2]
CORPUS = sys.argv[3:]
bad = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        bad.append(what)
    return ok


def run(*args, status=0):
    p = subprocess.run([NNAV, *args], capture_output=True)
    check(p.returncode == status, f"nnav {' '.join(args)}: exit {p.returncode}, wanted {status}: "
          f"{p.stderr.decode(errors='replace')[:300]}")
    return p


def yrun(*args):
    return yaml.safe_load(run(*args, "--yaml").stdout)


def dom_name(d):
    return d or "ai.onnx"


def default_value(a):
    if not a.default_value.name and a.default_value.type == 0:
        return None
    v = helper.get_attribute_value(a.default_value)
    if isinstance(v, bytes):
        return v.decode()
    if isinstance(v, list):
        return [x.decode() if isinstance(x, bytes) else x for x in v]
    return v


def same_value(got, want):
    if isinstance(want, float):
        return isinstance(got, (int, float)) and (got == want or math.isclose(got, want, rel_tol=1e-6))
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            same_value(g, w) for g, w in zip(got, want))
    return got == want


OPTION = {0: "single", 1: "optional", 2: "variadic"}
ATYPE = onnx.AttributeProto.AttributeType.Name

# ---- nnav op: every schema in every version ----
history = {}
for s in defs.get_all_schemas_with_history():
    history.setdefault((dom_name(s.domain), s.name), []).append(s.since_version)
for (dom, name), versions in sorted(history.items()):
    versions.sort()
    for v in versions:
        s = defs.get_schema(name, v, "" if dom == "ai.onnx" else dom)
        where = f"op {dom}:{name} v{v}"
        y = yrun("op", name, "--opset", str(v), "--domain", dom)
        if not check(isinstance(y, dict), where + ": YAML"):
            continue
        check(y["op"] == name and y["domain"] == dom, where + ": name and domain")
        check(y["since_version"] == s.since_version, f"{where}: since {y['since_version']}")
        check(y["deprecated"] == s.deprecated, where + ": deprecated")
        check(y["opset"] == v and y["in_force"], where + ": opset")
        known = {k[3] for k in KNOWN_DIFFERENCES if k[:3] == (dom, name, v)}
        check((y["min_input"], y["max_input"], y["min_output"], y["max_output"]) ==
              (s.min_input, s.max_input, s.min_output, s.max_output), where + ": counts")
        for key, formals in (("inputs", s.inputs), ("outputs", s.outputs)):
            got = [(f["name"], f["type"], f["option"], f.get("homogeneous", True)) for f in y[key]]
            want = [(f.name, f.typeStr, OPTION[int(f.option)],
                     f.isHomogeneous if int(f.option) == 2 else True) for f in formals]
            check(got == want or {"inputs": "in", "outputs": "out"}[key] in known, f"{where}: {key} {got} vs {want}")
        ya = {a["name"]: a for a in y["attributes"]}
        check(sorted(ya) == sorted(s.attributes), f"{where}: attribute names")
        for an, a in s.attributes.items():
            g = ya.get(an)
            if not g:
                continue
            check(g["type"] == ATYPE(a.type), f"{where}: {an} type {g['type']}")
            check(g["required"] == a.required, f"{where}: {an} required")
            dv = default_value(a)
            if dv is None:
                check("default" not in g, f"{where}: {an} has no default")
            else:
                check("default" in g and same_value(g["default"], dv),
                      f"{where}: {an} default {g.get('default')!r} vs {dv!r}")
        tcs = {t["param"]: sorted(t["allowed"]) for t in y["type_constraints"]}
        want = {t.type_param_str: sorted(t.allowed_type_strs) for t in s.type_constraints}
        check(tcs == want or "type constraints" in known, f"{where}: type constraints")
        # The registry's versions first; the table's newer ones after.
        hist = [h["since_version"] for h in y["history"]]
        check(hist[:len(versions)] == versions and all(x > versions[-1] for x in
                                                       hist[len(versions):]), f"{where}: history")
        check([h["shown"] for h in y["history"]] == [x == s.since_version for x in hist],
              f"{where}: the version shown in the history")
print(f"nnav op: {sum(len(v) for v in history.values())} schemas of {len(history)} operators")

# The text form, read by eyes: Split's history at opset 12, Conv's default.
t = run("op", "Split", "--opset", "12").stdout.decode()
check("  v11      in force at opset 12" in t and "\n  v13\n" in t and "\n  v1\n" in t and
      "\n  v2\n" in t, "op Split --opset 12 history: " + t)
t = run("op", "Conv").stdout.decode()
check('  auto_pad             STRING   default "NOTSET"' in t, "op Conv auto_pad: " + t)
check("  B        T                        optional" in t, "op Conv B optional: " + t)
amax = max(x["versions"][-1] for x in yrun("op", "--list", "--domain", "ai.onnx"))
check(amax >= 23, "the table's ai.onnx reaches %d" % amax)
t = run("op", "Relu", "--opset", "99").stdout.decode()
check("version    14 (in force at opset 99; the table knows up to %d)\n" % amax in t,
      "past the table: " + t)
t = run("op", "Upsample", "--opset", "10").stdout.decode()
check("version    10 (in force at opset 10), deprecated" in t, "Upsample deprecated: " + t)
# Found in its own domain without --domain; qualified names too.
check(yrun("op", "LinearClassifier")["domain"] == "ai.onnx.ml", "LinearClassifier's domain")
check(yrun("op", "ai.onnx.preview.training:Gradient")["domain"] == "ai.onnx.preview.training",
      "Gradient qualified")
# Unknown: a usage error naming close names.
p = run("op", "conv", status=1)
check(b"close names: Conv, ConvInteger, ConvTranspose" in p.stderr, "op conv: " + p.stderr.decode())
p = run("op", "Frobnicate", status=1)
check(b"no operator 'Frobnicate'" in p.stderr and b"close names" not in p.stderr,
      "op Frobnicate: " + p.stderr.decode())
run("op", "Conv", "--domain", "com.microsoft", status=1)
run("op", "Conv", "--opset", "0", status=1)
run("op", status=1)
run("op", "Conv", "Relu", status=1)
p = run("op", "\x1b[31mX\x07", status=1)
check(b"\x1b" not in p.stderr and b"\x07" not in p.stderr and b"\\x1B[31mX\\x07" in p.stderr,
      "hostile op name escaped: %r" % p.stderr)
# Before its first version: its first version, said on stderr.
p = run("op", "LayerNormalization", "--opset", "13")
check(b"does not exist at ai.onnx opset 13" in p.stderr and b"version    17" in p.stdout,
      "LayerNormalization at 13: %r" % p.stderr)
# --list: every operator once.
lst = yrun("op", "--list")
listed = {(x["domain"], x["op"]): x["versions"] for x in lst}
check(len(listed) == len(lst) and set(history) <= set(listed), "op --list operators")
check(all(listed[k][:len(v)] == v for k, v in history.items() if k in listed), "op --list versions")
lst = yrun("op", "--list", "--domain", "ai.onnx.ml")
check({x["domain"] for x in lst} == {"ai.onnx.ml"} and len(lst) >= sum(
    d == "ai.onnx.ml" for d, _ in history), "op --list --domain ai.onnx.ml")

# ---- generated models, nnav node ----
F = TensorProto.FLOAT


def vi(name, shape, dt=F):
    return helper.make_tensor_value_info(name, dt, shape)


def save(name, nodes, inputs, outputs, opsets, inits=(), functions=()):
    g = helper.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets],
                          functions=list(functions))
    m.ir_version = 8
    path = os.path.join(TMP, name + ".onnx")
    onnx.save(m, path)
    return path


def node_yaml(path, node, *extra):
    return yrun("node", path, node, *extra)


def attr_map(y):
    return {a["name"]: a for a in y["attribute"]}


conv = save("conv", [helper.make_node("Conv", ["x", "w", "b"], ["y"], "conv", kernel_shape=[3, 3])],
            [vi("x", [1, 2, 5, 5]), vi("w", [4, 2, 3, 3]), vi("b", [4])], [vi("y", None)],
            [("", 13)])
y = node_yaml(conv, "conv")
check([i.get("formal") for i in y["input"]] == ["X", "W", "B"], "Conv formals %r" % y["input"])
check([o.get("formal") for o in y["output"]] == ["Y"], "Conv output formal")
a = attr_map(y)
check(a.get("auto_pad") == {"name": "auto_pad", "type": "STRING", "value": "NOTSET", "default": True},
      "Conv auto_pad default %r" % a.get("auto_pad"))
check(a.get("group", {}).get("value") == 1 and a["group"].get("default") is True, "Conv group default")
check(a["kernel_shape"] == {"name": "kernel_shape", "type": "INTS", "value": [3, 3]},
      "Conv kernel_shape is the file's, unmarked")
check(y["attribute"][0]["name"] == "kernel_shape", "the file's attributes come first")
check(y["schema"] == {"status": "found", "domain": "ai.onnx", "since_version": 11,
                      "deprecated": False, "opset": 13,
                      "unset_attributes": ["dilations", "pads", "strides"]},
      "Conv schema %r" % y["schema"])
t = run("node", conv, "conv").stdout.decode()
check("schema     Conv v11 (ai.onnx, opset 13 in force)\n" in t, "Conv schema line: " + t)
check("  [0] X  x " in t and "  [1] W  w " in t and "  [2] B  b " in t and "  [0] Y  y " in t,
      "Conv inputs X W B in text: " + t)
check('  auto_pad             STRING   "NOTSET" (default)\n' in t, "Conv auto_pad in text: " + t)
check("  (not set: dilations, pads, strides)\n" in t, "Conv dilations unset: " + t)
check("attributes (1 set, 2 by default):\n" in t, "Conv attribute count: " + t)
# --model marks the version the model uses, and is the opset by default.
y = yrun("op", "Conv", "--model", conv)
check(y["opset"] == 13 and y["model_opset"] == 13 and y["model_since_version"] == 11 and
      [h["model"] for h in y["history"]] == [False, True, False], "op Conv --model %r" % y)

# Resize at 11 and 13: an omitted roi keeps its formal name; Split's variadic outputs.
for ver, sv in ((11, 11), (13, 13)):
    r = save(f"resize{ver}", [helper.make_node("Resize", ["x", "", "s"], ["y"], "rs", mode="linear")],
             [vi("x", [1, 1, 2, 2]), vi("s", [4])], [vi("y", None)], [("", ver)])
    y = node_yaml(r, "rs")
    check([i.get("formal") for i in y["input"]] == ["X", "roi", "scales"], f"Resize {ver} formals")
    check(y["schema"]["since_version"] == sv, f"Resize {ver} version")
    a = attr_map(y)
    check(a["coordinate_transformation_mode"]["value"] == "half_pixel" and
          a["coordinate_transformation_mode"]["default"], f"Resize {ver} defaults")
    check(a["mode"] == {"name": "mode", "type": "STRING", "value": "linear"}, "Resize mode the file's")
    t = run("node", r, "rs").stdout.decode()
    check('  [1] roi     "" (omitted optional input)' in t, f"Resize {ver} omitted roi: " + t)
sp = save("split", [helper.make_node("Split", ["x", "s"], ["a", "b", "c"], "sp", axis=0)],
          [vi("x", [6]), vi("s", [3], TensorProto.INT64)], [vi("a", None), vi("b", None), vi("c", None)],
          [("", 13)])
y = node_yaml(sp, "sp")
check([o.get("formal") for o in y["output"]] == ["outputs[0]", "outputs[1]", "outputs[2]"],
      "Split outputs %r" % y["output"])
check([i.get("formal") for i in y["input"]] == ["input", "split"], "Split inputs")
lstm = save("lstm", [helper.make_node("LSTM", ["x", "w", "r"], ["y"], "lstm", hidden_size=4)],
            [vi("x", [2, 1, 3]), vi("w", [1, 16, 3]), vi("r", [1, 16, 4])], [vi("y", None)], [("", 14)])
up = save("upsample", [helper.make_node("Upsample", ["x", "s"], ["y"], "up")],
          [vi("x", [1, 1, 2, 2]), vi("s", [4])], [vi("y", None)], [("", 10)])
y = node_yaml(up, "up")
check(y["schema"]["deprecated"] is True and y["schema"]["since_version"] == 10, "Upsample deprecated")
check(", deprecated\n" in run("node", up, "up").stdout.decode(), "Upsample deprecated in text")
ml = save("linclass", [helper.make_node("LinearClassifier", ["x"], ["y", "z"], "lc",
                                        domain="ai.onnx.ml", coefficients=[1.0, 2.0],
                                        classlabels_ints=[0, 1])],
          [vi("x", [1, 1])], [vi("y", None, TensorProto.INT64), vi("z", None)],
          [("", 13), ("ai.onnx.ml", 3)])
y = node_yaml(ml, "lc")
check(y["schema"]["domain"] == "ai.onnx.ml" and y["schema"]["opset"] == 3, "LinearClassifier schema")
check(attr_map(y)["post_transform"] == {"name": "post_transform", "type": "STRING",
                                        "value": "NONE", "default": True}, "post_transform default")
mm = save("missing_required", [helper.make_node("LinearClassifier", ["x"], ["y", "z"], "lc",
                                                domain="ai.onnx.ml", classlabels_ints=[0, 1])],
          [vi("x", [1, 1])], [vi("y", None, TensorProto.INT64), vi("z", None)],
          [("", 13), ("ai.onnx.ml", 1)])
t = run("node", mm, "lc").stdout.decode()
check("  (missing, required: coefficients)\n" in t and "  (not set: classlabels_strings, intercepts)\n" in t,
      "missing required attribute: " + t)
check(node_yaml(mm, "lc")["schema"]["unset_attributes"] == ["classlabels_strings", "coefficients",
                                                            "intercepts"], "unset_attributes")
unk = save("unknown_attr", [helper.make_node("Relu", ["x"], ["y"], "relu", frobnicate=3)],
           [vi("x", [2])], [vi("y", None)], [("", 14)])
y = node_yaml(unk, "relu")
check(y["schema"].get("unknown_attributes") == ["frobnicate"], "unknown attribute %r" % y["schema"])
check(y["attribute"] == [{"name": "frobnicate", "type": "INT", "value": 3}], "unknown attribute kept")
check("(unknown to Relu v14)" in run("node", unk, "relu").stdout.decode(), "unknown attribute text")
ms = save("msdomain", [helper.make_node("FusedConv", ["x", "w"], ["y"], "fc", domain="com.microsoft",
                                        activation="Relu")],
          [vi("x", [1, 1, 3, 3]), vi("w", [1, 1, 1, 1])], [vi("y", None)],
          [("", 13), ("com.microsoft", 1)])
y = node_yaml(ms, "fc")
check(y["schema"].get("domain") == "com.microsoft" and y["schema"].get("since_version") == 1,
      "com.microsoft schema %r" % y["schema"])
check([i.get("formal") for i in y["input"]] == ["X", "W"], "com.microsoft formals %r" % y["input"])
cu = save("customdomain", [helper.make_node("FusedConv", ["x", "w"], ["y"], "fc", domain="com.example",
                                            activation="Relu")],
          [vi("x", [1, 1, 3, 3]), vi("w", [1, 1, 1, 1])], [vi("y", None)],
          [("", 13), ("com.example", 1)])
y = node_yaml(cu, "fc")
check(y["schema"] == {"status": "nonstandard", "domain": "com.example"},
      "com.example schema %r" % y["schema"])
check(all("formal" not in i for i in y["input"]) and len(y["attribute"]) == 1, "com.example formals")
t = run("node", cu, "fc").stdout.decode()
check("schema     not in the table: domain com.example\n" in t and "  [0] x " in t,
      "com.example text: " + t)
# A Loop body's node is held to the model's opset (11: Add v7, not v14).
body = helper.make_graph([helper.make_node("Add", ["v", "one"], ["v2"], "body_add"),
                          helper.make_node("Identity", ["cond"], ["cond2"], "body_id")], "body",
                         [vi("i", [], TensorProto.INT64), vi("cond", [], TensorProto.BOOL), vi("v", [1])],
                         [vi("cond2", [], TensorProto.BOOL), vi("v2", [1])],
                         initializer=[helper.make_tensor("one", F, [1], [1.0])])
loop = save("loop", [helper.make_node("Loop", ["n", "c", "v0"], ["vout"], "loop", body=body)],
            [vi("n", [], TensorProto.INT64), vi("c", [], TensorProto.BOOL), vi("v0", [1])],
            [vi("vout", [1])], [("", 11)])
y = node_yaml(loop, "body_add")
check(y["schema"]["opset"] == 11 and y["schema"]["since_version"] == 7, "Loop body Add %r" % y["schema"])
check([i.get("formal") for i in y["input"]] == ["A", "B"], "Loop body Add formals")
y = node_yaml(loop, "loop")
check([i.get("formal") for i in y["input"]] == ["M", "cond", "v_initial[0]"], "Loop formals %r" % y["input"])
# Hostile: escape bytes in an op type and a domain reach no terminal.
hz = save("hostile", [helper.make_node("Re\x1b[2Jlu", ["x"], ["y"], "h1"),
                      helper.make_node("Op\x07", ["x"], ["z"], "h2", domain="evil\x1b]0;t\x07")],
          [vi("x", [2])], [vi("y", None), vi("z", None)], [("", 13), ("evil\x1b]0;t\x07", 1)])
for n in ("h1", "h2"):
    p = run("node", hz, n)
    check(b"\x1b" not in p.stdout and b"\x07" not in p.stdout, f"hostile {n} escaped: {p.stdout!r}")
check(b"no operator Re\\x1B[2Jlu in ai.onnx (opset 13 in force)" in run("node", hz, "h1").stdout,
      "hostile unknown op line")
check(node_yaml(hz, "h1")["schema"]["status"] == "unknown", "hostile op unknown")


# ---- every node of every model: formals and defaults equal onnx.defs' ----
def opsets_of(m):
    return {dom_name(o.domain): o.version for o in m.opset_import}


def compare_nodes(path, limit=60):
    m = onnx.load(path, load_external_data=False)
    ops = opsets_of(m)
    n_checked = 0
    for i, n in enumerate(m.graph.node[:limit]):
        dom = dom_name(n.domain)
        if dom not in ("ai.onnx", "ai.onnx.ml", "ai.onnx.preview.training") or dom not in ops:
            continue
        try:
            s = defs.get_schema(n.op_type, ops[dom], "" if dom == "ai.onnx" else dom)
        except Exception:
            continue
        y = yrun("node", path, "#%d" % i)
        where = f"{os.path.basename(path)} #{i} {n.op_type}"
        check(y["schema"]["since_version"] == s.since_version, where + " since_version")
        for side, vals, formals in (("input", n.input, s.inputs), ("output", n.output, s.outputs)):
            for k in range(len(vals)):
                if k < len(formals) - 1 or (k < len(formals) and int(formals[-1].option) != 2):
                    want = formals[k].name
                elif formals and int(formals[-1].option) == 2:
                    want = "%s[%d]" % (formals[-1].name, k - len(formals) + 1)
                else:
                    want = None
                check(y[side][k].get("formal") == want, f"{where} {side}[{k}] formal "
                      f"{y[side][k].get('formal')} vs {want}")
        set_names = {a.name for a in n.attribute}
        added = {a["name"]: a for a in y["attribute"] if a.get("default")}
        want = {an: default_value(a) for an, a in s.attributes.items()
                if an not in set_names and default_value(a) is not None}
        check(sorted(added) == sorted(want), f"{where}: defaults {sorted(added)} vs {sorted(want)}")
        for an, dv in want.items():
            if an in added:
                check(same_value(added[an]["value"], dv), f"{where}: {an} {added[an]['value']!r} vs {dv!r}")
        check([a["name"] for a in y["attribute"] if not a.get("default")] == [a.name for a in n.attribute],
              where + ": the file's attributes unchanged and first")
        n_checked += 1
    return n_checked


total = 0
for p in [conv, lstm, ml, sp, up] + CORPUS:
    total += compare_nodes(p)
print(f"nnav node: {total} nodes compared with onnx.defs")
for b in bad[:40]:
    print("FAIL:", b)
print(f"{checks} checks, {len(bad)} failures")
sys.exit(1 if bad else 0)
