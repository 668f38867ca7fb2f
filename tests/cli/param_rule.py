"""param_rule.py - the parameter rule of src/include/scope.h, written again
from the ONNX package's view of a file, as the tests' oracle for what nnav's
info, summary, cost and tensors count (imported by tests/cli scripts).

A weight is a value of a graph holding elements of a weight type (not
int32/int64/uint32/uint64, bool or string): an initializer (dense or
sparse), a Constant node's `value` tensor of more than one element, or the
output of an Identity of a weight (a name of its own). A weight counts
unless Identity nodes naming it anew are all that read it (and it is no
graph output). What it is comes from the inputs that read it, looking
through nodes that pass input 0 on converted or reshaped (PASS, at most 8
deep, within one graph): a buffer where BatchNormalization reads it as its
running mean or variance, a constant where a recurrent op reads it as its
sequence lengths or initial state, Resize/Upsample as roi, scales or sizes,
Pad as pads/value/axes, Clip as bounds, com.microsoft MatMulNBits as
scales, zero points or g_idx; a parameter where anything else reads it, or
nothing does. Any parameter reading wins, then a buffer one. (MatMulNBits'
packed B counts K x N: tests/cli/params_quant.sh checks that.)
"""
import numpy as np
import onnx

NOT_WEIGHT = {0, 6, 7, 8, 9, 12, 13}
PASS = {"Identity", "Cast", "Reshape", "Expand", "Transpose", "Unsqueeze", "Squeeze",
        "Flatten", "Tile", "Slice"}
SLOTS = {"BatchNormalization": ("buffer", {3, 4}), "RNN": ("constant", {4, 5}),
         "GRU": ("constant", {4, 5}), "LSTM": ("constant", {4, 5, 6}),
         "Resize": ("constant", {1, 2, 3}), "Upsample": ("constant", {1}),
         "Pad": ("constant", {1, 2, 3}), "Clip": ("constant", {1, 2})}


def std(n):
    return n.domain in ("", "ai.onnx")


def slot_role(n, k):
    if std(n) and n.op_type in SLOTS and k in SLOTS[n.op_type][1]:
        return SLOTS[n.op_type][0]
    if n.domain == "com.microsoft" and n.op_type == "MatMulNBits" and k in (2, 3, 4):
        return "constant"  # scales, zero points, g_idx
    return "parameter"


def elems(dims):
    return int(np.prod(dims)) if len(dims) else 1


def bodies(n):
    for a in n.attribute:
        if a.type == onnx.AttributeProto.GRAPH:
            yield a.g
        elif a.type == onnx.AttributeProto.GRAPHS:
            yield from a.graphs


def held_of(g):
    """name -> elements of the weights graph g defines."""
    held = {}
    for t in g.initializer:
        if t.data_type not in NOT_WEIGHT:
            held[t.name] = elems(t.dims)
    for s in g.sparse_initializer:
        if s.values.data_type not in NOT_WEIGHT:
            held[s.values.name] = elems(s.values.dims)  # the values it stores
    for n in g.node:
        if n.op_type == "Constant" and std(n) and n.output:
            for a in n.attribute:
                if a.name == "value" and a.type == onnx.AttributeProto.TENSOR and \
                        a.t.data_type not in NOT_WEIGHT and elems(a.t.dims) > 1:
                    held[n.output[0]] = elems(a.t.dims)
    changed = True
    while changed:  # Identity chains, in any order
        changed = False
        for n in g.node:
            if n.op_type == "Identity" and std(n) and n.input and n.output and \
                    n.input[0] in held and n.output[0] not in held:
                held[n.output[0]] = held[n.input[0]]
                changed = True
    return held


def weights(graphs):
    """Every weight of the given graphs and the graphs below them:
    [(graph_index, name, elements, counts, role)]."""
    out = []
    gid = [0]

    def visit(g, scope):
        me = gid[0]
        gid[0] += 1
        held = held_of(g)
        producer = {}
        for n in g.node:
            if n.output:
                producer[n.output[0]] = n
        # Names visible here: the enclosing graphs' (graph id) and our own.
        sc = dict(scope)
        for name in held:
            sc[name] = me
        for n in g.node:
            for o in n.output:
                if o not in held:
                    sc[o] = (me, "value")
        for i in g.input:
            if i.name not in held:
                sc[i.name] = (me, "value")
        info = {name: {"fwd": 0, "real": 0, "bits": set()} for name in held}
        registry[me] = (held, info, producer)
        outputs = {o.name for o in g.output}

        def read(n, k, name):
            owner = sc.get(name)
            if isinstance(owner, tuple) and owner[0] == me:
                # A value of this graph: back through PASS nodes to a weight.
                w, steps = name, 0
                while w not in held and steps < 8:
                    p = producer.get(w)
                    if p is None or not std(p) or p.op_type not in PASS or not p.input or \
                            p.output[0] != w:
                        return
                    w, steps = p.input[0], steps + 1
                if w in held:
                    info[w]["bits"].add(slot_role(n, k))
                return
            if isinstance(owner, int):
                h, inf, _ = registry[owner]
                if name in h:
                    inf[name]["bits"].add(slot_role(n, k))

        def readers(nodes):
            for n in nodes:
                passes = std(n) and n.op_type in PASS and n.input and n.output
                for k, name in enumerate(n.input):
                    if not name or (passes and k == 0):
                        continue
                    read(n, k, name)
                for b in bodies(n):
                    visit(b, sc)

        for n in g.node:
            for name in n.input:
                if name in info:
                    if n.op_type == "Identity" and std(n) and n.input[:1] == [name] and \
                            n.output and n.output[0] in held:
                        info[name]["fwd"] += 1
                    else:
                        info[name]["real"] += 1
        # A body's reads of our names count as real reads too.
        def body_names(b, acc):
            for m2 in b.node:
                acc.update(x for x in m2.input if x)
                for bb in bodies(m2):
                    body_names(bb, acc)
        for n in g.node:
            for b in bodies(n):
                acc = set()
                body_names(b, acc)
                for name in acc & set(info):
                    info[name]["real"] += 1
        readers(g.node)
        for name, k in held.items():
            i = info[name]
            counts = bool(i["real"] or not i["fwd"] or name in outputs)
            pending.append((me, name, k, counts, lambda i=i: i))
        return me

    registry = {}
    pending = []
    for g in graphs:
        visit(g, {})
    for me, name, k, counts, get in pending:
        b = get()["bits"]
        role = "parameter" if not b or "parameter" in b else "buffer" if "buffer" in b else "constant"
        out.append((me, name, k, counts, role))
    return out


def counts(graphs):
    """(parameters, buffers, constants): elements of the counted weights."""
    tot = {"parameter": 0, "buffer": 0, "constant": 0}
    for _, _, k, c, role in weights(graphs):
        if c:
            tot[role] += k
    return tot["parameter"], tot["buffer"], tot["constant"]


def model_graphs(m):
    """The main graph and the local functions' bodies as graphs."""
    gs = [m.graph]
    for f in m.functions:
        gs.append(onnx.helper.make_graph(list(f.node), f.name, [], []))
    return gs
