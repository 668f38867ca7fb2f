#!/usr/bin/env python3
"""tf_signature_check.py - a TensorFlow file's Placeholder and signature types
as protoc decodes them, against nnav's.

  tf_signature_check.py NNAV MODEL DECODED

DECODED is `protoc --decode=tensorflow.SavedModel` (or MetaGraphDef, or
GraphDef) of MODEL's .pb. What TensorFlow's own rules give, worked out here
from the decoded text alone:
  - a Placeholder's (PlaceholderV2's, PlaceholderWithDefault's) output has
    its `dtype` attr and its `shape` attr (absent: unknown rank); for
    Placeholder in a graph whose versions.producer is 21 or less, a shape
    with no dims is unknown (array_ops.cc's legacy rule);
  - a signature TensorInfo with no tensor_shape is a scalar (TensorShape of an
    empty TensorShapeProto), with unknown_rank it is unknown;
  - `nnav check` reports each signature tensor naming a Placeholder's output
    whose dtype differs from the attr, or whose known dims contradict it.
Each is compared with `nnav shapes --yaml` (the value's type), `nnav info
--yaml` (the signatures as written) and `nnav check --yaml`. Prints what it
compared; exit 1 on the first list of mismatches.
"""
import os
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbtxt as P  # noqa: E402

DTYPES = {
    'DT_FLOAT': 'float32', 'DT_DOUBLE': 'float64', 'DT_INT32': 'int32', 'DT_UINT8': 'uint8',
    'DT_INT16': 'int16', 'DT_INT8': 'int8', 'DT_STRING': 'string', 'DT_INT64': 'int64',
    'DT_BOOL': 'bool', 'DT_UINT16': 'uint16', 'DT_HALF': 'float16', 'DT_UINT32': 'uint32',
    'DT_UINT64': 'uint64', 'DT_BFLOAT16': 'bfloat16', 'DT_COMPLEX64': 'complex64',
    'DT_COMPLEX128': 'complex128',
}
PLACEHOLDERS = ('Placeholder', 'PlaceholderV2', 'PlaceholderWithDefault')


def run(nnav, *args):
    p = subprocess.run([nnav, *args], capture_output=True, text=True)
    return p.returncode, p.stdout


def dims_of(shape_msg):
    """None for unknown rank, else a list (None for an unknown dim)."""
    if P.one(shape_msg, 'unknown_rank') == 'true':
        return None
    out = []
    for d in P.get(shape_msg, 'dim'):
        s = P.one(d, 'size', 0)
        out.append(None if s < 0 else s)
    return out


def type_text(dtype, dims):
    if dims is None:
        return dtype + '[...]'
    return dtype + '[' + ','.join('?' if d is None else str(d) for d in dims) + ']'


def attr(node, key):
    for a in P.get(node, 'attr'):
        if P.one(a, 'key') == key:
            return P.one(a, 'value', [])
    return None


def placeholder_type(node, producer):
    op = P.one(node, 'op')
    dt = attr(node, 'dtype')
    dtype = DTYPES[P.one(dt, 'type')] if dt is not None else '?'
    sh = attr(node, 'shape')
    dims = dims_of(P.one(sh, 'shape', [])) if sh is not None and P.get(sh, 'shape') else None
    if op == 'Placeholder' and producer <= 21 and dims == []:
        dims = None
    return dtype, dims


def contradicts(sig_dtype, sig_dims, dtype, dims):
    if sig_dtype != dtype:
        return True
    if sig_dims is None or dims is None:
        return False
    if len(sig_dims) != len(dims):
        return True
    return any(a is not None and b is not None and a != b for a, b in zip(sig_dims, dims))


def main(argv):
    nnav, model, decoded = argv[1], argv[2], argv[3]
    top = P.parse(open(decoded, encoding='latin-1').read())
    metas = P.get(top, 'meta_graphs') or ([top] if P.get(top, 'graph_def') else [])
    graphs = [P.one(mg, 'graph_def', []) for mg in metas] or [top]
    bad = []

    # Placeholders: the value NAME:0 has the attrs' type (first graph: nnav's /).
    rc, out = run(nnav, 'shapes', '--yaml', model)
    if rc != 0:
        print(f'FAIL: nnav shapes exit {rc}')
        return 1
    vals = {v['name']: v for v in yaml.safe_load(out)['graphs'][0]['values']}
    g0 = graphs[0]
    producer = P.one(P.one(g0, 'versions', []), 'producer', 0)
    ph = {}
    for node in P.get(g0, 'node'):
        if P.one(node, 'op') not in PLACEHOLDERS:
            continue
        name = P.one(node, 'name')
        dtype, dims = placeholder_type(node, producer)
        ph[name + ':0'] = (dtype, dims)
        v = vals.get(name + ':0')
        want = type_text(dtype, dims)
        if v is None or v['type'] != want:
            bad.append(f'{name}:0: nnav {v and v["type"]}, the node says {want}')
        else:
            print(f'  placeholder {name}:0 {want}')

    # Signatures as written, and check's findings on the Placeholders.
    rc, out = run(nnav, 'info', '--yaml', model)
    info_sigs = yaml.safe_load(out).get('signatures') or []
    got = {}
    for s in info_sigs:
        for side in ('inputs', 'outputs'):
            for t in s.get(side) or []:
                got[(s['key'], side, t['key'])] = (t['name'], t['type'])
    want_findings = set()
    for mi, mg in enumerate(metas):
        for entry in P.get(mg, 'signature_def'):
            key, sd = P.one(entry, 'key'), P.one(entry, 'value', [])
            for side in ('inputs', 'outputs'):
                for te in P.get(sd, side):
                    tkey, ti = P.one(te, 'key'), P.one(te, 'value', [])
                    if not P.get(ti, 'name'):
                        continue
                    name = P.one(ti, 'name')
                    dtype = DTYPES.get(P.one(ti, 'dtype', ''), '?')
                    shapes = P.get(ti, 'tensor_shape')
                    dims = dims_of(shapes[-1]) if shapes else []
                    want = (name, type_text(dtype, dims))
                    if got.get((key, side, tkey)) != want:
                        bad.append(f'signature {key} {side} {tkey}: nnav {got.get((key, side, tkey))}, '
                                   f'the file {want}')
                    else:
                        print(f'  signature {key} {side} {tkey}: {want[0]} {want[1]}')
                    tname = name if ':' in name else name + ':0'
                    if mi == 0 and tname in ph and contradicts(dtype, dims, *ph[tname]):
                        want_findings.add((key, side[:-1], tkey))
    rc, out = run(nnav, 'check', '--yaml', model)
    doc = yaml.safe_load(out)
    found = {(d['signature'], d['side'], d['key']) for d in doc.get('signature_disagreements') or []}
    if not want_findings <= found:
        bad.append(f'check: wanted findings {sorted(want_findings)}, got {sorted(found)}')
    if (rc == 2) != bool(found or doc.get('count')):
        bad.append(f'check: exit {rc} with findings {sorted(found)}')
    print(f'  check: {len(found)} signature finding(s), exit {rc}')
    for b in bad:
        print('FAIL:', b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
