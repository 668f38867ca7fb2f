#!/usr/bin/env python3
"""usage: resize_cost_check.py NNAV DIR   (DIR made by resize_cost_gen.py)

`nnav cost MODEL --yaml --dim ...` gives each model the MACs counted by the
generator, with no partial node; `nnav shapes --yaml` gives every listed
value its real dims. Where the generator says nnav cannot know (macs null),
nnav says partial and no dim it gives differs from the real one. Exit 1 on
any difference, each listed."""
import json
import os
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import symexpr  # noqa: E402

NNAV, DIR = sys.argv[1], sys.argv[2]
expect = json.load(open(os.path.join(DIR, "resize_cost.json")))
bad = []
for fname, e in sorted(expect.items()):
    path = os.path.join(DIR, fname)
    dims = []
    for k, v in sorted(e["dims"].items()):
        dims += ["--dim", "%s=%d" % (k, v)]
    cost = yaml.safe_load(subprocess.run([NNAV, "cost", path, "--yaml"] + dims, check=True,
                                         capture_output=True, text=True).stdout)
    g = cost["graphs"][0]
    if e["macs"] is None:
        if not g["partial_nodes"]:
            bad.append("%s: nnav gives %d MACs as complete; they cannot be known" % (fname, g["macs"]))
    else:
        if g["macs"] != e["macs"] or g["partial_nodes"]:
            bad.append("%s: nnav %d MACs (%d partial nodes), counted %d"
                       % (fname, g["macs"], g["partial_nodes"], e["macs"]))
    doc = yaml.safe_load(subprocess.run([NNAV, "shapes", path, "--yaml"] + dims, check=True,
                                        capture_output=True, text=True).stdout)
    got = {v["name"]: v.get("shape") for v in doc["graphs"][0]["values"]}
    for name, real in sorted(e["shapes"].items()):
        shape = got.get(name)
        if shape is None or len(shape) != len(real):
            bad.append("%s %s: nnav %s, really %s" % (fname, name, shape, real))
            continue
        for i, (d, r) in enumerate(zip(shape, real)):
            try:
                v = symexpr.evaluate(d, e["dims"]) if d not in (None, "?") else None
            except (symexpr.Unbound, ValueError):
                v = None
            must = e.get("must_know", {}).get(name, [e["macs"] is not None] * len(real))[i]
            if v is None and must:
                bad.append("%s %s dim %d: nnav %r, really %d" % (fname, name, i, d, r))
            elif v is not None and v != r:
                bad.append("%s %s dim %d: nnav %r = %d, really %d" % (fname, name, i, d, v, r))
for b in bad:
    print("FAIL:", b)
print("%d models checked, %d differences" % (len(expect), len(bad)))
sys.exit(1 if bad else 0)
