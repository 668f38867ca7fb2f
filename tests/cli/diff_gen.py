"""Pairs of models for tests/cli/diff.sh (nnav diff), and the oracles it
holds nnav's report to. Each subcommand prints one JSON object saying what it
changed, so the script asserts on what was made, not on names it guesses.

  weight_rename SRC DST [0]  one float weight element +0.5, one node renamed
                             (with 0: the weight only)
  evil SRC DST               a node and an initializer renamed with escapes
  edits SRC DIR              one pair member per kind of edit (see edits())
  oracle A B                 per initializer name on both: differing elements,
                             largest |b - a| and its flat index (numpy)
  count FILE OP              nodes of op OP in FILE's main graph
  resnet DIR                 ResNet-18 (seeded random weights) exported twice:
                             batch norms folded, and kept
"""
import copy
import json
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper


def load(path):
    # In memory: nothing is written back into the source (../shared).
    return onnx.load_model_from_string(open(path, "rb").read())


def save(m, path):
    open(path, "wb").write(m.SerializeToString())


def float_inits(m):
    return [t for t in m.graph.initializer
            if t.data_type == onnx.TensorProto.FLOAT and np.prod(t.dims, dtype=np.int64) >= 2
            and t.data_location != onnx.TensorProto.EXTERNAL]


def set_element(t, k, v):
    """Element k of a FLOAT tensor to v, in the field the tensor uses."""
    if t.raw_data:
        a = np.frombuffer(t.raw_data, dtype="<f4").copy()
        a[k] = v
        t.raw_data = a.tobytes()
    else:
        t.float_data[k] = v


def all_nodes(g):
    """The nodes of g and of every body below it."""
    for nd in g.node:
        yield nd
        for a in nd.attribute:
            for body in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                yield from all_nodes(body)


def coords(dims, k):
    return list(np.unravel_index(k, tuple(dims))) if dims else []


def evil(src, dst):
    """A node and an initializer renamed with terminal escapes in their names."""
    m = load(src)
    nd = m.graph.node[0]
    nd.name = "evil\x1b[2J\x1b]0;title\x07" + nd.name
    t = m.graph.initializer[0]
    old = t.name
    t.name = "\x1b[31mred" + old
    for n in all_nodes(m.graph):
        for i, x in enumerate(n.input):
            if x == old:
                n.input[i] = t.name
    save(m, dst)
    print(json.dumps({"node": nd.name, "init": t.name}))


def unsuitable(why):
    """The model lacks what the edit needs: status 3, the script moves on."""
    print(why, file=sys.stderr)
    sys.exit(3)


def weight_rename(src, dst, rename="1"):
    m = load(src)
    if not float_inits(m) or not [nd for nd in m.graph.node if nd.name]:
        unsuitable("no float weight of two elements or more, or no named node")
    # The largest float weight with an element to which +0.5 adds exactly
    # in float32 (so the largest difference is 0.5 to the last bit), from
    # its middle on.
    for t in sorted(float_inits(m), key=lambda t: -int(np.prod(t.dims, dtype=np.int64))):
        a = numpy_helper.to_array(t).reshape(-1)
        n = a.size
        k = next((i for i in list(range(n // 2, n)) + list(range(0, n // 2))
                  if float(np.float32(a[i] + np.float32(0.5))) - float(a[i]) == 0.5), None)
        if k is not None:
            break
    else:
        unsuitable("no float weight element to which 0.5 adds exactly")
    new = np.float32(a[k] + np.float32(0.5))
    set_element(t, k, new)
    named = [nd for nd in m.graph.node if nd.name]
    nd = named[len(named) // 2]
    old = nd.name
    if rename == "1":
        nd.name = old + "_renamed"
    save(m, dst)
    print(json.dumps({"init": t.name, "index": int(k), "coords": [int(c) for c in coords(t.dims, k)],
                      "a": float(a[k]), "b": float(new), "node_old": old, "node_new": nd.name,
                      "op": nd.op_type, "nodes": len(m.graph.node)}))


def edits(src, out):
    """From SRC, one file per edit: attr (an INT or INTS attribute changed),
    insert (an Identity after a node, its consumers reading the Identity),
    swap (a node's first two inputs swapped), init_rename (an initializer
    and its readers renamed, bytes identical), renumber (every node renamed
    as a re-export renumbers), retype (a float initializer stored as
    float16), reshape (an initializer's dims flattened to one axis)."""
    base = load(src)
    info = {}
    if not float_inits(base) or not [t for t in float_inits(base) if len(t.dims) >= 2] or \
            len([nd for nd in base.graph.node if nd.name]) < len(base.graph.node):
        unsuitable("not every node named, or no float weight of two axes")

    m = copy.deepcopy(base)
    for nd in m.graph.node:
        ints = [a for a in nd.attribute if a.type in (onnx.AttributeProto.INT, onnx.AttributeProto.INTS)]
        if nd.name and ints:
            a = ints[0]
            old = helper.get_attribute_value(a)
            if a.type == onnx.AttributeProto.INT:
                a.i += 1
            else:
                a.ints[0] += 1
            info["attr"] = {"node": nd.name, "op": nd.op_type, "attr": a.name,
                            "a": old if isinstance(old, int) else list(old),
                            "b": helper.get_attribute_value(a) if a.type == onnx.AttributeProto.INT
                            else list(a.ints)}
            break
    save(m, "%s/attr.onnx" % out)

    m = copy.deepcopy(base)
    at = len(m.graph.node) // 2
    nd = m.graph.node[at]
    v = nd.output[0]
    for other in m.graph.node:
        for i, x in enumerate(other.input):
            if x == v:
                other.input[i] = v + "_id"
    ident = helper.make_node("Identity", [v], [v + "_id"], name="inserted_identity")
    m.graph.node.insert(at + 1, ident)
    save(m, "%s/insert.onnx" % out)
    info["insert"] = {"node": "inserted_identity", "after": nd.name}

    m = copy.deepcopy(base)
    for nd in m.graph.node:
        if nd.name and len(nd.input) >= 2 and nd.input[0] != nd.input[1]:
            nd.input[0], nd.input[1] = nd.input[1], nd.input[0]
            info["swap"] = {"node": nd.name, "op": nd.op_type, "inputs": list(nd.input)}
            break
    save(m, "%s/swap.onnx" % out)

    m = copy.deepcopy(base)
    t = m.graph.initializer[0]
    old = t.name
    t.name = old + "_renamed"
    for nd in all_nodes(m.graph):
        for i, x in enumerate(nd.input):
            if x == old:
                nd.input[i] = t.name
    for i in m.graph.input:
        if i.name == old:
            i.name = t.name
    save(m, "%s/init_rename.onnx" % out)
    info["init_rename"] = {"a": old, "b": t.name}

    m = copy.deepcopy(base)
    for i, nd in enumerate(m.graph.node):
        nd.name = "onnx::%s_%d" % (nd.op_type, 1000 + i)
    save(m, "%s/renumber.onnx" % out)
    info["renumber"] = {"nodes": len(m.graph.node)}

    m = copy.deepcopy(base)
    t = float_inits(m)[0]
    a = numpy_helper.to_array(t).astype(np.float16)
    t.CopyFrom(numpy_helper.from_array(a, t.name))
    save(m, "%s/retype.onnx" % out)
    info["retype"] = {"init": t.name}

    m = copy.deepcopy(base)
    t = [t for t in float_inits(m) if len(t.dims) >= 2][0]
    n = int(np.prod(t.dims, dtype=np.int64))
    old = list(t.dims)
    del t.dims[:]
    t.dims.extend([n])
    save(m, "%s/reshape.onnx" % out)
    info["reshape"] = {"init": t.name, "a": old, "b": [n]}
    print(json.dumps(info))


def oracle(pa, pb):
    a, b = load(pa), load(pb)
    ta = {t.name: t for t in a.graph.initializer}
    res = {}
    for t in b.graph.initializer:
        if t.name not in ta:
            continue
        x = numpy_helper.to_array(ta[t.name]).astype(np.float64).reshape(-1)
        y = numpy_helper.to_array(t).astype(np.float64).reshape(-1)
        if x.shape != y.shape:
            continue
        with np.errstate(invalid="ignore", over="ignore"):
            differ = (x != y) & ~(np.isnan(x) & np.isnan(y))
            d = np.where(differ, np.abs(y - x), 0)
        nd = int(np.count_nonzero(differ))
        if nd:
            k = int(np.argmax(d))
            res[t.name] = {"differing": nd, "elements": int(x.size), "max_abs": float(d[k]),
                           "index": k, "coords": [int(c) for c in coords(t.dims, k)]}
    print(json.dumps(res))


def count(path, op):
    print(sum(1 for nd in load(path).graph.node if nd.op_type == op))


def resnet(out):
    import torch
    import torchvision
    torch.manual_seed(18)
    net = torchvision.models.resnet18(weights=None)
    # Non-trivial batch-norm statistics, so folding changes the Conv weights.
    for mod in net.modules():
        if isinstance(mod, torch.nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.1, 0.1)
            mod.running_var.uniform_(0.5, 1.5)
    x = torch.randn(1, 3, 64, 64)
    net.eval()
    torch.onnx.export(net, x, "%s/resnet_folded.onnx" % out, opset_version=13,
                      do_constant_folding=True, input_names=["input"], output_names=["logits"])
    # Kept: torch 1.13 folds batch norms into the Conv in eval mode even
    # with do_constant_folding=False (leaving Identity nodes); exporting the
    # module in training mode (PRESERVE after model.train()) keeps every
    # BatchNormalization (training_mode, five outputs).
    net.train()
    torch.onnx.export(net, x, "%s/resnet_bn.onnx" % out, opset_version=13,
                      training=torch.onnx.TrainingMode.PRESERVE, do_constant_folding=False,
                      input_names=["input"], output_names=["logits"])


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"weight_rename": weight_rename, "evil": evil, "edits": edits, "oracle": oracle, "count": count,
     "resnet": resnet}[cmd](*args)
