#!/usr/bin/env python3
"""Check nnav's symbolic dims against what they really are.

usage: symdims_check.py NNAV DIR   (DIR made by symdims_gen.py)

For each generated model and each of several bindings of N and S:
`nnav shapes --yaml --dim N=.. --dim S=..` must give every listed value a
known dim whose text, evaluated at the binding with nnav's arithmetic
(symexpr.py: / is floor division, * and / bind tighter than + and -), is the
size the operators really give (symdims.json). Where symdims.json pins a
spelling (a product divided by its own factors, simplified), the text must be
exactly that. `nnav shapes` (the table) and `nnav nodes --shapes` must show
the same text. A folded constant `nnav nodes --declutter` shows on an input
fed by a Constant or an initializer is the tensor's value (INT64_MAX too),
and on one the generator computed ("__folded__": float32 arithmetic past
2^24) that value.
A value marked may_be_unknown (Sign, Clip of a shape) may have unknown dims,
never wrong ones. Exit 1 on any difference, each one listed."""
import json
import os
import subprocess
import sys

import onnx
import yaml
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symexpr  # noqa: E402

NNAV, DIR = sys.argv[1], sys.argv[2]
expect = json.load(open(os.path.join(DIR, "symdims.json")))
BINDINGS = [{"N": 3, "S": 5}, {"N": 4, "S": 2}, {"N": 2, "S": 7}, {"N": 5, "S": 3}]
bad = []
checked = 0


def run(*args):
    p = subprocess.run([NNAV] + list(args), capture_output=True, text=True)
    if p.returncode != 0:
        bad.append("nnav %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return p.stdout


for fname, values in sorted(expect.items()):
    path = os.path.join(DIR, fname)
    for bind in BINDINGS:
        dims = []
        for k, v in bind.items():
            dims += ["--dim", "%s=%d" % (k, v)]
        doc = yaml.safe_load(run("shapes", path, "--yaml", *dims))
        got = {}
        for g in doc["graphs"]:
            for v in g["values"]:
                got[v["name"]] = v
        table = run("shapes", path, *dims)
        listing = run("nodes", path, "--shapes")
        for name, want in sorted(values.items()):
            if name == "__folded__":
                continue
            checked += 1
            v = got.get(name)
            lax = want.get("may_be_unknown")
            if lax and (not v or v.get("shape") is None):
                continue
            if not v or v.get("shape") is None:
                bad.append("%s %s: nnav gives no shape" % (fname, name))
                continue
            shape = v["shape"]
            if len(shape) != len(want["dims"]):
                bad.append("%s %s: rank %d, really %d" % (fname, name, len(shape), len(want["dims"])))
                continue
            for i, (d, w) in enumerate(zip(shape, want["dims"])):
                real = eval(w, {}, dict(bind))  # the generator's own formula
                if lax and d in (None, "?"):
                    continue
                try:
                    val = symexpr.evaluate(d, bind)
                except (symexpr.Unbound, ValueError) as e:
                    bad.append("%s %s dim %d: %r does not evaluate: %s" % (fname, name, i, d, e))
                    continue
                if val != real:
                    bad.append("%s %s dim %d at %s: nnav %r = %d, really %s = %d"
                               % (fname, name, i, bind, d, val, w, real))
                pin = want["text"][i]
                if pin is not None and str(d) != pin:
                    bad.append("%s %s dim %d: nnav %r, simplified it is %r" % (fname, name, i, d, pin))
            if lax and None in shape:
                continue
            text = "[%s]" % ",".join(str(d) for d in shape)
            if text not in table:
                bad.append("%s %s: the table does not show %s" % (fname, name, text))
            if text not in listing:
                bad.append("%s %s: nodes --shapes does not show %s" % (fname, name, text))

# Every folded constant `nodes --declutter` shows on an input a Constant
# node or an initializer feeds is that tensor's value.
for fname in sorted(expect):
    path = os.path.join(DIR, fname)
    m = onnx.load(path)
    consts = {t.name: numpy_helper.to_array(t).ravel().tolist() for t in m.graph.initializer}
    consts.update(expect[fname].get("__folded__", {}))
    for n in m.graph.node:
        if n.op_type == "Constant":
            for a in n.attribute:
                if a.name == "value":
                    consts[n.output[0]] = numpy_helper.to_array(a.t).ravel().tolist()
    for n in yaml.safe_load(run("nodes", path, "--declutter", "--yaml")) or []:
        for inp, fv in zip(n.get("input", []), n.get("folded", []) or []):
            if isinstance(fv, list) and inp in consts:
                checked += 1
                if fv != consts[inp]:
                    bad.append("%s %s: shown folded as %s, the file holds %s"
                               % (fname, inp, fv, consts[inp]))

for b in bad:
    print("FAIL:", b)
print("%d values x bindings checked, %d differences" % (checked, len(bad)))
sys.exit(1 if bad else 0)
