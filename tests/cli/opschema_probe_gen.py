"""opschema_probe_gen.py NNAV DIR - for every com.microsoft operator in
nnav's table, two models that ONNX Runtime must refuse, each in a way whose
message states a fact of ONNX Runtime's own schema (onnx's OpSchema::Verify,
which ONNX Runtime runs on every node it loads, checks a node's attributes
first, then its argument counts, and names the range it wanted):

  counts_in:  no inputs, one output, the table's required attributes: ONNX
              Runtime says "has input size 0 not in range [min=A, max=B]"
              (or, when the table's minimum is 0, the same of the outputs),
              or names a required attribute the table does not require.
  counts_out: the table's minimum of inputs, no outputs, every attribute
              the table has: "has output size 0 not in range [min=C,
              max=D]", or names an attribute it does not know or whose type
              differs.

DIR/probes.json lists them for ort_oracle.js, with what the table says:
{"id", "model", "inputs": [], "fetch": [], "op", "probe", "table": {...}}.
"""
import json
import os
import subprocess
import sys

import onnx
import yaml
from onnx import TensorProto, helper

NNAV, OUT = sys.argv[1], sys.argv[2]
os.makedirs(OUT, exist_ok=True)


def yrun(*args):
    p = subprocess.run([NNAV, *args, "--yaml"], capture_output=True, check=True)
    return yaml.safe_load(p.stdout)


DUMMY = {"INT": lambda n: helper.make_attribute(n, 1),
         "FLOAT": lambda n: helper.make_attribute(n, 1.0),
         "STRING": lambda n: helper.make_attribute(n, "x"),
         "INTS": lambda n: helper.make_attribute(n, [1]),
         "FLOATS": lambda n: helper.make_attribute(n, [1.0]),
         "STRINGS": lambda n: helper.make_attribute(n, ["x"]),
         "TENSOR": lambda n: helper.make_attribute(n, helper.make_tensor("t", TensorProto.FLOAT, [1], [1.0]))}


def graph_attr(n):
    g = helper.make_graph([helper.make_node("Identity", ["gi"], ["go"])], "g",
                          [helper.make_tensor_value_info("gi", TensorProto.FLOAT, [1])],
                          [helper.make_tensor_value_info("go", TensorProto.FLOAT, [1])])
    return helper.make_attribute(n, g)


DUMMY["GRAPH"] = graph_attr


def model(path, op, n_in, n_out, attrs):
    ins = ["i%d" % k for k in range(n_in)]
    outs = ["o%d" % k for k in range(n_out)]
    node = helper.make_node(op, ins, outs, name="probe", domain="com.microsoft")
    node.attribute.extend(attrs)
    # A graph output of its own, that the graph has one; the probe's outputs
    # are graph outputs too, that it is not dead code.
    keep = helper.make_node("Identity", ["z"], ["zo"], name="keep")
    g = helper.make_graph([node, keep], "probe",
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1]) for n in ins + ["z"]],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
                           for n in ["zo"] + outs])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21),
                                            helper.make_opsetid("com.microsoft", 1)])
    m.ir_version = 10
    onnx.save(m, path)


probes = []
for entry in yrun("op", "--list", "--domain", "com.microsoft"):
    op = entry["op"]
    s = yrun("op", op, "--domain", "com.microsoft")
    attrs = {a["name"]: a for a in s["attributes"]}
    table = {"min_input": s["min_input"], "max_input": s["max_input"],
             "min_output": s["min_output"], "max_output": s["max_output"],
             "required": sorted(n for n, a in attrs.items() if a["required"]),
             "attributes": sorted(attrs)}
    usable = {n: a for n, a in attrs.items() if a["type"] in DUMMY}
    req = [DUMMY[a["type"]](n) for n, a in sorted(usable.items()) if a["required"]]
    p = os.path.join(OUT, "%s_in.onnx" % op)
    model(p, op, 0, 1, req)
    probes.append({"id": op + "_in", "model": p, "inputs": [], "fetch": [], "op": op,
                   "probe": "counts_in", "table": table})
    p = os.path.join(OUT, "%s_out.onnx" % op)
    model(p, op, s["min_input"], 0, [DUMMY[a["type"]](n) for n, a in sorted(usable.items())])
    probes.append({"id": op + "_out", "model": p, "inputs": [], "fetch": [], "op": op,
                   "probe": "counts_out", "table": table,
                   "skipped_attributes": sorted(set(attrs) - set(usable))})
with open(os.path.join(OUT, "probes.json"), "w") as f:
    json.dump(probes, f, indent=1)
print(len(probes), "probes")
