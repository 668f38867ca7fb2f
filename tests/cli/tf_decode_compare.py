#!/usr/bin/env python3
"""tf_decode_compare.py - every node's facts in a TensorFlow file as protoc
decodes it, against nnav's.

  tf_decode_compare.py NNAV MODEL DECODED

DECODED is `protoc --decode` of MODEL's .pb (SavedModel, or GraphDef). For
the main graph of each meta graph and every library function, node by node:
name, op, inputs (a bare "x" is "x:0" outside functions), the attribute
names, and each attribute's value for the kinds type, int, float, bool,
string, shape, list(type), tensor (dtype and dims) and `_output_shapes`,
which is also each output's shape in nnav's type of that value; and every
Const's value (dtype, dims, first 64 elements: the *_val fields with
TensorFlow's rule that the last one repeats, or tensor_content read
little-endian) against `nnav tensors --all --constants --values 64 --yaml`.
Prints a count and every mismatch; exit 1 when there is one.
"""
import math
import os
import struct
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtxt as P  # noqa: E402
from tf_signature_check import DTYPES, dims_of  # noqa: E402


def shape_text(d):
    return '[...]' if d is None else '[' + ','.join('?' if e is None else str(e) for e in d) + ']'


class Cmp:
    def __init__(self, nnav, model):
        self.nnav, self.model = nnav, model
        self.bad = []
        self.attrs = self.nodes = 0

    def run(self, *a):
        return subprocess.run([self.nnav, *a], capture_output=True, text=True).stdout

    def attr(self, where, key, kind, x, got, outs):
        b = self.bad
        if kind == 'type':
            want = DTYPES.get(x, x[3:].lower())
            if got != want:
                b.append(f'{where}.{key}: nnav {got!r}, the file {want!r}')
        elif kind == 'i':
            if got != x:
                b.append(f'{where}.{key}: nnav {got!r}, the file {x!r}')
        elif kind == 'f':
            if not isinstance(x, float) or abs(float(got) - x) > 1e-6 * max(1, abs(x)):
                b.append(f'{where}.{key}: nnav {got!r}, the file {x!r}')
        elif kind == 'b':
            if got != (x == 'true'):
                b.append(f'{where}.{key}: nnav {got!r}, the file {x!r}')
        elif kind == 's':
            g = got.decode('latin-1') if isinstance(got, bytes) else str(got)
            if g != x:
                b.append(f'{where}.{key}: nnav {got!r}, the file {x!r}')
        elif kind == 'shape':
            want = shape_text(dims_of(x))
            if str(got) != want:
                b.append(f'{where}.{key}: nnav {got!r}, the file {want!r}')
        elif kind == 'tensor':
            dt = DTYPES.get(P.one(x, 'dtype'), '?')
            d = dims_of(P.one(x, 'tensor_shape', []))
            if isinstance(got, list) and len(got) == 1:  # the brief form "float32[2,3]"
                ok = got[0] == dt + shape_text(d)
            else:
                ok = isinstance(got, dict) and got.get('dims') == d and got.get('data_type', '').lower() in (
                    dt, {'float32': 'float', 'float64': 'double'}.get(dt, dt))
            if not ok:
                b.append(f'{where}.{key}: nnav {got!r}, the file {dt}{shape_text(d)}')
        elif kind == 'list':
            types = P.get(x, 'type')
            if types:
                want = [DTYPES.get(t, t[3:].lower()) for t in types]
                if [str(g) for g in got] != want:
                    b.append(f'{where}.{key}: nnav {got!r}, the file {want!r}')
            shapes = P.get(x, 'shape')
            if shapes and key == '_output_shapes':
                ds = [dims_of(sh) for sh in shapes]
                want = '[' + ', '.join(shape_text(d) for d in ds) + ']'
                if str(got).replace(' ', '') != want.replace(' ', ''):
                    b.append(f'{where}.{key}: nnav {got!r}, the file {want!r}')
                for j, d in enumerate(ds):
                    if j < len(outs) and outs[j].get('type'):
                        t = outs[j]['type']
                        if t[t.index('['):] != shape_text(d):
                            b.append(f'{where} output {j}: nnav {t}, _output_shapes {shape_text(d)}')

    def graph(self, path, nodes, in_fn):
        ny = yaml.safe_load(self.run('nodes', '--yaml', '--graph', path, self.model)) or []
        if len(ny) != len(nodes):
            self.bad.append(f'{path}: nnav {len(ny)} nodes, the file {len(nodes)}')
            return
        for i, (fn, nn) in enumerate(zip(nodes, ny)):
            self.nodes += 1
            name, op = P.one(fn, 'name'), P.one(fn, 'op')
            where = f'{path} #{i} {name}'
            if nn['name'] != name or nn['op_type'] != op:
                self.bad.append(f'{where}: nnav {nn["name"]} ({nn["op_type"]}), the file {name} ({op})')
            want = [x if x.startswith('^') or in_fn or ':' in x else x + ':0' for x in P.get(fn, 'input')]
            if nn['input'] != want:
                self.bad.append(f'{where}: inputs {nn["input"]}, the file {want}')
            det = yaml.safe_load(self.run('node', '--yaml', '--graph', path, self.model, f'#{i}'))
            fa = {P.one(a, 'key'): P.one(a, 'value', []) for a in P.get(fn, 'attr')}
            na = {a['name']: a for a in det.get('attribute') or [] if not a.get('default')}
            if set(fa) != set(na):
                self.bad.append(f'{where}: attrs {sorted(na)}, the file {sorted(fa)}')
            for key, v in fa.items():
                if key in na and v:
                    self.attrs += 1
                    self.attr(where, key, v[0][0], v[0][1], na[key]['value'], det.get('output') or [])


FMT = {'float16': 'e', 'float32': 'f', 'float64': 'd', 'int32': 'i', 'int64': 'q', 'uint8': 'B',
       'int8': 'b', 'int16': 'h', 'uint16': 'H', 'bool': '?', 'uint32': 'I', 'uint64': 'Q'}
VAL_FIELD = {'float32': 'float_val', 'float64': 'double_val', 'int32': 'int_val', 'int64': 'int64_val',
             'bool': 'bool_val', 'string': 'string_val', 'uint8': 'int_val', 'int8': 'int_val',
             'int16': 'int_val', 'uint16': 'int_val', 'uint32': 'uint32_val', 'uint64': 'uint64_val',
             'float16': 'half_val'}


def const_value(t):
    """(dtype, dims, first 64 values) of a decoded TensorProto."""
    dt = DTYPES.get(P.one(t, 'dtype'), '?')
    dims = dims_of(P.one(t, 'tensor_shape', [])) or []
    ne = 1
    for d in dims:
        ne *= d
    tc = P.one(t, 'tensor_content')
    if tc is not None and dt in FMT:
        raw = tc.encode('latin-1')
        k = struct.calcsize(FMT[dt])
        vals = list(struct.unpack('<%d%s' % (len(raw) // k, FMT[dt]), raw[:len(raw) // k * k]))
    else:
        vals = P.get(t, VAL_FIELD.get(dt, '?'))
        if dt == 'float16':
            vals = [struct.unpack('<e', struct.pack('<H', h & 0xffff))[0] for h in vals]
        if dt == 'bool':
            vals = [v == 'true' for v in vals]
        if vals and len(vals) < ne:
            vals = vals + [vals[-1]] * (ne - len(vals))
        if not vals:
            vals = [''] * ne if dt == 'string' else [0] * ne
    return dt, dims, vals[:64]


def same_value(a, b, dt):
    if dt == 'string':
        return (a.decode('latin-1') if isinstance(a, bytes) else str(a)) == b
    if dt in ('float16', 'float32', 'float64'):
        a, b = float(a), float(b)
        return (math.isnan(a) and math.isnan(b)) or a == b or abs(a - b) <= 1e-6 * max(abs(a), abs(b))
    return a == b


def consts(c, path, nodes, listed):
    for node in nodes:
        if P.one(node, 'op') != 'Const':
            continue
        v = None
        for a in P.get(node, 'attr'):
            if P.one(a, 'key') == 'value':
                v = P.one(P.one(a, 'value', []), 'tensor')
        if v is None:
            continue
        name = P.one(node, 'name')
        t = listed.get((path, name))
        c.consts += 1
        if t is None:
            c.bad.append(f'{path} {name}: its value is not listed by tensors --constants')
            continue
        dt, dims, vals = const_value(v)
        got = t.get('values') or []
        if t['data_type'] != dt or t['dims'] != dims:
            c.bad.append(f'{path} {name}: nnav {t["data_type"]}{t["dims"]}, the file {dt}{dims}')
        elif len(got) != len(vals) or not all(same_value(x, y, dt) for x, y in zip(got, vals)):
            c.bad.append(f'{path} {name}: nnav values {got[:8]}, the file {vals[:8]}')


def main(argv):
    c = Cmp(argv[1], argv[2])
    c.consts = 0
    top = P.parse(open(argv[3], encoding='latin-1').read())
    metas = P.get(top, 'meta_graphs')
    graphs = [P.one(mg, 'graph_def', []) for mg in metas] if metas else [top]
    out = c.run('tensors', '--all', '--constants', '--values', '64', '--yaml', c.model)
    listed = {}
    for t in (yaml.safe_load(out) or {}).get('tensors') or []:
        listed.setdefault((t.get('graph'), t['name']), t)
    for g in graphs[:1]:  # nnav's / is the first meta graph's graph
        c.graph('/', P.get(g, 'node'), False)
        consts(c, '/', P.get(g, 'node'), listed)
        for f in P.get(P.one(g, 'library', []), 'function'):
            path = '@' + P.one(P.one(f, 'signature', []), 'name')
            c.graph(path, P.get(f, 'node_def'), True)
            consts(c, path, P.get(f, 'node_def'), listed)
    print(f'{c.nodes} nodes, {c.attrs} attributes, {c.consts} Const values compared, '
          f'{len(c.bad)} mismatches')
    for b in c.bad:
        print('FAIL:', b)
    return 1 if c.bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
