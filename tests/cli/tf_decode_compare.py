#!/usr/bin/env python3
"""tf_decode_compare.py - every node's facts in a TensorFlow file as protoc
decodes it, against nnav's.

  tf_decode_compare.py NNAV MODEL DECODED

DECODED is `protoc --decode` of MODEL's .pb (SavedModel, or GraphDef). For
the main graph of each meta graph and every library function, node by node:
name, op, inputs (a bare "x" is "x:0" outside functions), the attribute
names, and each attribute's value for the kinds type, int, float, bool,
string, shape, list(type), tensor (dtype and dims) and `_output_shapes`,
which is also each output's shape in nnav's type of that value. Prints a
count and every mismatch; exit 1 when there is one.
"""
import os
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
            na = {a['name']: a for a in det.get('attribute') or []}
            if set(fa) != set(na):
                self.bad.append(f'{where}: attrs {sorted(na)}, the file {sorted(fa)}')
            for key, v in fa.items():
                if key in na and v:
                    self.attrs += 1
                    self.attr(where, key, v[0][0], v[0][1], na[key]['value'], det.get('output') or [])


def main(argv):
    c = Cmp(argv[1], argv[2])
    top = P.parse(open(argv[3], encoding='latin-1').read())
    metas = P.get(top, 'meta_graphs')
    graphs = [P.one(mg, 'graph_def', []) for mg in metas] if metas else [top]
    for g in graphs[:1]:  # nnav's / is the first meta graph's graph
        c.graph('/', P.get(g, 'node'), False)
        for f in P.get(P.one(g, 'library', []), 'function'):
            c.graph('@' + P.one(P.one(f, 'signature', []), 'name'), P.get(f, 'node_def'), True)
    print(f'{c.nodes} nodes, {c.attrs} attributes compared, {len(c.bad)} mismatches')
    for b in c.bad:
        print('FAIL:', b)
    return 1 if c.bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
