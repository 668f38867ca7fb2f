#!/usr/bin/env python3
"""gen_quadratic.py - models shaped to expose work that grows faster than the
file: run by tests/bench/quadratic.sh, never by ctest.

    python3 gen_quadratic.py KIND N OUT

KIND:
  consumers     one graph input read by N nodes (a value with N consumers)
  samename      N nodes in a chain, every one named "same"
  initializers  N initialisers, each read by one Identity node
  deep          If inside If, N levels; every body reads the main graph's
                input (names resolve through every enclosing scope)
  functions     N model-local functions, each called once from the main graph
  undefined     N nodes, each reading a name that nothing defines
  tfchain       a TensorFlow GraphDef whose N library functions call each
                other in a chain (f0 calls f1 ... calls fN-1)

Written front to back with the wire format by hand (standard library only),
lengths computed first, so even N = 1,000,000 costs linear time and memory
in proportion to one node, not to the file.
"""
import struct
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def fb(num, payload):
    if isinstance(payload, str):
        payload = payload.encode()
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def fv(num, v):
    return varint(num << 3) + varint(v)


def node(op, ins, outs, name, domain=None):
    b = b"".join(fb(1, i) for i in ins) + b"".join(fb(2, o) for o in outs)
    b += fb(3, name) + fb(4, op)
    if domain:
        b += fb(7, domain)
    return b


def vinfo(name, elem=1):
    return fb(1, name) + fb(2, fb(1, fv(1, elem)))


class Model:
    """ModelProto written as: header, graph field (length known up front),
    then functions. The graph is produced twice by a generator function: once
    to measure it, once to write it."""

    def __init__(self, path):
        self.f = open(path, "wb")

    def write(self, graph_parts, function_parts=None, extra_opsets=()):
        size = sum(len(p) for p in graph_parts())
        head = fv(1, 8) + fb(8, fb(1, "") + fv(2, 17))
        for d in extra_opsets:
            head += fb(8, fb(1, d) + fv(2, 1))
        self.f.write(head + varint(7 << 3 | 2) + varint(size))
        for p in graph_parts():
            self.f.write(p)
        for fn in function_parts() if function_parts else ():
            self.f.write(fb(25, fn))
        self.f.close()


def consumers(n):
    def parts():
        yield fb(2, "consumers") + fb(11, vinfo("x"))
        for i in range(n):
            yield fb(1, node("Relu", ["x"], ["y%d" % i], "r%d" % i))
        yield fb(12, vinfo("y0"))
    return parts


def samename(n):
    def parts():
        yield fb(2, "samename") + fb(11, vinfo("v0"))
        for i in range(n):
            yield fb(1, node("Relu", ["v%d" % i], ["v%d" % (i + 1)], "same"))
        yield fb(12, vinfo("v%d" % n))
    return parts


def initializers(n):
    one = struct.pack("<f", 1.0)

    def parts():
        yield fb(2, "initializers")
        for i in range(n):
            yield fb(5, fv(1, 1) + fv(2, 1) + fb(8, "w%d" % i) + fb(9, one))
        for i in range(n):
            yield fb(1, node("Identity", ["w%d" % i], ["y%d" % i], "id%d" % i))
        yield fb(12, vinfo("y0"))
    return parts


def deep(n):
    # graph_i = node{x -> o_i, If, attribute{then_branch, GRAPH, g = graph_{i+1}}}
    attr_head = fb(1, "then_branch") + fv(20, 5)
    inner = fb(1, node("Identity", ["x"], ["leaf"], "leaf")) + fb(2, "leaf")
    heads = []
    size = len(inner)
    for i in reversed(range(n)):
        a_len = len(attr_head) + 1 + len(varint(size)) + size
        n_head = node("If", ["x"], ["o%d" % i], "n%d" % i)
        n_len = len(n_head) + 1 + len(varint(a_len)) + a_len
        h = varint(1 << 3 | 2) + varint(n_len) + n_head + varint(5 << 3 | 2) + varint(a_len) + \
            attr_head + varint(6 << 3 | 2) + varint(size)
        heads.append(h)
        size += len(h)

    def parts():
        for h in reversed(heads):
            yield h
        yield inner
        yield fb(2, "main") + fb(11, vinfo("x", 9)) + fb(12, vinfo("o0"))
    return parts


def functions(n):
    def parts():
        yield fb(2, "functions") + fb(11, vinfo("x"))
        for i in range(n):
            yield fb(1, node("f%d" % i, ["x"], ["y%d" % i], "call%d" % i, domain="local"))
        yield fb(12, vinfo("y0"))

    def fns():
        for i in range(n):
            yield (fb(1, "f%d" % i) + fb(4, "x") + fb(5, "y") +
                   fb(7, node("Relu", ["x"], ["y"], "relu")) + fb(9, fb(1, "") + fv(2, 17)) +
                   fb(10, "local"))
    return parts, fns


def undefined(n):
    def parts():
        yield fb(2, "undefined")
        for i in range(n):
            yield fb(1, node("Relu", ["nowhere%d" % i], ["y%d" % i], "r%d" % i))
    return parts


def tfchain(n, path):
    """GraphDef{node: in, start -> f0; library{f0 .. fN-1, fi calls fi+1}}."""
    def nodedef(name, op, ins):
        return fb(1, name) + fb(2, op) + b"".join(fb(3, i) for i in ins)

    def fdef(i):
        sig = fb(1, "f%d" % i) + fb(2, fb(1, "x") + fv(3, 1)) + fb(3, fb(1, "y") + fv(3, 1))
        callee = "f%d" % (i + 1) if i + 1 < n else "Identity"
        ret = "c:y:0" if i + 1 < n else "c:output:0"
        return fb(1, sig) + fb(3, nodedef("c", callee, ["x"])) + fb(4, fb(1, "y") + fb(2, ret))
    with open(path, "wb") as f:
        f.write(fb(1, nodedef("in", "Placeholder", [])) + fb(1, nodedef("start", "f0", ["in"])))
        size = sum(len(fb(1, fdef(i))) for i in range(n))
        f.write(varint(2 << 3 | 2) + varint(size))
        for i in range(n):
            f.write(fb(1, fdef(i)))
        f.write(fb(4, fv(1, 1)))


def main(argv):
    if len(argv) != 4:
        sys.stderr.write(__doc__)
        return 1
    kind, n, out = argv[1], int(argv[2]), argv[3]
    if kind == "tfchain":
        tfchain(n, out)
        return 0
    m = Model(out)
    if kind == "functions":
        parts, fns = functions(n)
        m.write(parts, fns, ["local"])
    elif kind in ("consumers", "samename", "initializers", "deep", "undefined"):
        m.write(globals()[kind](n))
    else:
        sys.stderr.write("unknown kind %s\n" % kind)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
