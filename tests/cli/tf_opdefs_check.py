#!/usr/bin/env python3
"""tf_opdefs_check.py DECODED DUMP - the operator schemas nnav made of a
TensorFlow file's OpDefs, against the same OpDefs in `protoc --decode` text.

DECODED: protoc's text of the file as a SavedModel, MetaGraphDef or GraphDef
(the top message is told by its fields). DUMP: `test_tf_opdefs --dump FILE`.

The expected schema of each OpDef is worked out here from op_def.proto's
meaning (not from nnav's code): formals in order with their type (a fixed
DataType as ONNX's type string, else the type_attr / type_list_attr name),
VARIADIC for number_attr (homogeneous) and type_list_attr; min_in / max_in
from the args (a list counts its attr's minimum, and makes max unbounded);
attrs sorted by name with their type word, required = no default_value, the
default's value; one type constraint per type or list(type) attr with its
allowed_values. The first OpDef of a name across meta graphs is the one kept.
Every node (graphs and function bodies) must resolve: FUNCTION when its op
names a library function, else FOUND when an OpDef has its name, else
UNKNOWN; NO_SCHEMAS when the file has no OpDef. Each data input and output
of a FOUND node is named by the formal it binds to ("x", "tensors[3]"): a
number_attr list holds the node's int attr of that name many, a
type_list_attr list as many as its list(type) attr holds. No node attr may have a kind
other than its AttrDef's ("kind" lines), and no warning may be given.
Prints what differs; exits 1 when anything does."""
import struct
import sys
from collections import Counter

sys.path.insert(0, __import__('os').path.dirname(__file__))
import pbtxt  # noqa: E402

UNBOUNDED = 2**31 - 1
# DataType name -> (ONNX type string element, the reader's dtype word)
DT = {
    'DT_FLOAT': ('float', 'float32'), 'DT_DOUBLE': ('double', 'float64'),
    'DT_INT32': ('int32', 'int32'), 'DT_UINT8': ('uint8', 'uint8'),
    'DT_INT16': ('int16', 'int16'), 'DT_INT8': ('int8', 'int8'),
    'DT_STRING': ('string', 'string'), 'DT_COMPLEX64': ('complex64', 'complex64'),
    'DT_INT64': ('int64', 'int64'), 'DT_BOOL': ('bool', 'bool'),
    'DT_QINT8': ('qint8', 'qint8'), 'DT_QUINT8': ('quint8', 'quint8'),
    'DT_QINT32': ('qint32', 'qint32'), 'DT_BFLOAT16': ('bfloat16', 'bfloat16'),
    'DT_QINT16': ('qint16', 'qint16'), 'DT_QUINT16': ('quint16', 'quint16'),
    'DT_UINT16': ('uint16', 'uint16'), 'DT_COMPLEX128': ('complex128', 'complex128'),
    'DT_HALF': ('float16', 'float16'), 'DT_RESOURCE': ('resource', 'resource'),
    'DT_VARIANT': ('variant', 'variant'), 'DT_UINT32': ('uint32', 'uint32'),
    'DT_UINT64': ('uint64', 'uint64'),
}


def dt(name):
    base = name[:-4] if name.endswith('_REF') else name
    if base not in DT:
        raise SystemExit('tf_opdefs_check.py: no entry for %s' % name)
    return DT[base]


def f32(x):
    return '%.9g' % struct.unpack('<f', struct.pack('<f', float(x)))[0]


def shape_text(sh):
    if pbtxt.one(sh, 'unknown_rank') == 'true':
        return '[...]'
    dims = []
    for d in pbtxt.get(sh, 'dim'):
        size = pbtxt.one(d, 'size', 0)
        dims.append(str(size) if size >= 0 else (pbtxt.one(d, 'name') or '?'))
    return '[' + ','.join(dims) + ']'


def bool_word(v):
    return 'true' if v in ('true', 1, 't', 'True') else 'false'


SCALAR = {'i': 'INT', 'f': 'FLOAT', 's': 'STRING', 'b': 'BOOL', 'type': 'TYPE',
          'shape': 'SHAPE', 'tensor': 'TENSOR', 'func': 'FUNC'}
LIST = {'i': 'INTS', 'f': 'FLOATS', 's': 'STRINGS', 'b': 'BOOLS', 'type': 'TYPES',
        'shape': 'SHAPES', 'tensor': 'TENSORS', 'func': 'FUNCS'}
WORD_LIST = {'list(int)': 'INTS', 'list(float)': 'FLOATS', 'list(string)': 'STRINGS',
             'list(bool)': 'BOOLS', 'list(type)': 'TYPES', 'list(shape)': 'SHAPES',
             'list(tensor)': 'TENSORS', 'list(func)': 'FUNCS'}


def item(member, v):
    if member == 'i':
        return str(v)
    if member == 'f':
        return f32(v)
    if member == 's':
        return v
    if member == 'b':
        return bool_word(v)
    if member == 'type':
        return dt(v)[1]
    if member == 'shape':
        return shape_text(v)
    if member == 'func':
        return pbtxt.one(v, 'name', '')
    if member == 'tensor':
        d = pbtxt.one(v, 'dtype')
        sh = pbtxt.one(v, 'tensor_shape')
        return 'tensor %s%s' % (dt(d)[1] if d else 'invalid', shape_text(sh) if sh is not None else '[]')
    raise SystemExit('member %s' % member)


def default_text(attr_type, av):
    """The dump's "KIND<TAB>VALUE" for an AttrValue."""
    for member, kind in SCALAR.items():
        v = pbtxt.one(av, member)
        if v is not None:
            return '%s\t%s' % (kind, item(member, v))
    lst = pbtxt.one(av, 'list')
    if lst is None:
        raise SystemExit('a default with no value')
    for member, kind in LIST.items():
        vals = pbtxt.get(lst, member)
        if vals:
            items = [item(member, v) for v in vals]
            if kind in ('INTS', 'FLOATS', 'STRINGS'):
                return '%s\t%s' % (kind, ','.join(items))
            shown = items[:64] + (['... (%d in all)' % len(items)] if len(items) > 64 else [])
            return '%s\t[%s]' % (kind, ', '.join(shown))
    kind = WORD_LIST[attr_type]
    return '%s\t%s' % (kind, '' if kind in ('INTS', 'FLOATS', 'STRINGS') else '[]')


def expect_op(op):
    lines = []
    attrs = {pbtxt.one(a, 'name'): a for a in reversed(pbtxt.get(op, 'attr'))}

    def minimum(name):
        a = attrs[name]
        return pbtxt.one(a, 'minimum', 0) if pbtxt.one(a, 'has_minimum') == 'true' else 0

    counts = []
    for side, field in (('in', 'input_arg'), ('out', 'output_arg')):
        lo, variadic = 0, False
        args = pbtxt.get(op, field)
        for a in args:
            t = pbtxt.one(a, 'type')
            typ = ('tensor(%s)' % dt(t)[0]) if t and t != 'DT_INVALID' else (
                pbtxt.one(a, 'type_attr') or pbtxt.one(a, 'type_list_attr'))
            na, tl = pbtxt.one(a, 'number_attr'), pbtxt.one(a, 'type_list_attr')
            if na or tl:
                variadic = True
                lo += max(minimum(na or tl), 0)
            else:
                lo += 1
            lines.append('%s\t%s\t%s\t%d\t%d' % (side, pbtxt.one(a, 'name'), typ,
                                                2 if (na or tl) else 0, 1 if na else 0))
        counts += [lo, UNBOUNDED if variadic else len(args)]
    head = 'op\t%s\ttf\t0\t%d\t%d\t%d\t%d\t%d' % (
        pbtxt.one(op, 'name'), 1 if pbtxt.one(op, 'deprecation') is not None else 0, *counts)
    tcs = []
    for name in sorted(attrs, key=lambda s: s.encode('latin-1')):
        a = attrs[name]
        typ = pbtxt.one(a, 'type')
        dv = pbtxt.one(a, 'default_value')
        line = 'attr\t%s\t%s\t%d\t%d' % (name, typ, dv is None, dv is not None)
        if dv is not None:
            line += '\t' + default_text(typ, dv)
        lines.append(line)
        if typ in ('type', 'list(type)'):
            al = pbtxt.one(a, 'allowed_values')
            types = pbtxt.get(pbtxt.one(al, 'list', []), 'type') if al is not None else []
            tcs.append('tc\t%s\t%s' % (name, ','.join('tensor(%s)' % dt(t)[0] for t in types)))
    return [head] + [x for x in lines if x.startswith(('in\t', 'out\t'))] + \
        [x for x in lines if x.startswith('attr\t')] + tcs


def main():
    top = pbtxt.parse(open(sys.argv[1], encoding='latin-1').read())
    dump = open(sys.argv[2], encoding='latin-1').read().splitlines()
    metas = pbtxt.get(top, 'meta_graphs')
    if not metas:
        metas = [top] if pbtxt.get(top, 'graph_def') or pbtxt.get(top, 'meta_info_def') else []
    graphs = [pbtxt.one(m, 'graph_def', []) for m in metas] or [top]
    ops, seen = [], set()
    for m in metas:
        info = pbtxt.one(m, 'meta_info_def', [])
        for op in pbtxt.get(pbtxt.one(info, 'stripped_op_list', []), 'op'):
            if pbtxt.one(op, 'name') not in seen:
                seen.add(pbtxt.one(op, 'name'))
                ops.append(op)
    ops.sort(key=lambda o: pbtxt.one(o, 'name').encode('latin-1'))
    want = []
    for op in ops:
        want += expect_op(op)
    have = [x for x in dump if x.split('\t')[0] in ('op', 'in', 'out', 'attr', 'tc')]
    bad = 0
    if want != have:
        bad = 1
        for i, (a, b) in enumerate(zip(want + [''] * len(have), have + [''] * len(want))):
            if a != b:
                print('schema line %d: protoc says %r, nnav %r' % (i, a, b))
                break
    # nodes
    fnames = set()
    nodes = []
    for g in graphs:
        lib = pbtxt.one(g, 'library', [])
        for fn in pbtxt.get(lib, 'function'):
            fnames.add(pbtxt.one(pbtxt.one(fn, 'signature', []), 'name'))
            nodes += pbtxt.get(fn, 'node_def')
        nodes += pbtxt.get(g, 'node')
    exp = Counter()
    for nd in nodes:
        op = pbtxt.one(nd, 'op', '')
        st = ('FUNCTION' if op in fnames else 'NO_SCHEMAS' if not ops else
              'FOUND' if op in seen else 'UNKNOWN')
        exp[(op, st)] += 1
    got = Counter((x.split('\t')[2], x.split('\t')[3]) for x in dump if x.startswith('node\t'))
    # Each data input and output of a node whose op is FOUND, by the formal
    # it binds to: a number_attr list holds the node's int attr of that
    # name many, a type_list_attr list as many as its list(type) attr holds
    # (absent: the OpDef's default); unknown from there on ("-").
    byname = {pbtxt.one(op, 'name'): op for op in ops}
    want_args, have_args = Counter(), Counter(tuple(x.split('\t')[1:]) for x in dump
                                              if x.startswith('arg\t'))
    for nd in nodes:
        op = byname.get(pbtxt.one(nd, 'op', ''))
        if op is None or pbtxt.one(nd, 'op') in fnames:
            continue
        attrs = {pbtxt.one(e, 'key'): pbtxt.one(e, 'value', []) for e in pbtxt.get(nd, 'attr')}
        defs = {pbtxt.one(a, 'name'): pbtxt.one(a, 'default_value') for a in pbtxt.get(op, 'attr')}

        def count(arg):
            na, tl = pbtxt.one(arg, 'number_attr'), pbtxt.one(arg, 'type_list_attr')
            if not (na or tl):
                return 1
            v = attrs.get(na or tl, defs.get(na or tl))
            if v is None:
                return None
            if na:
                i = pbtxt.one(v, 'i')
                return i if isinstance(i, int) and i >= 0 else None
            lst = pbtxt.one(v, 'list')
            return None if lst is None else len(pbtxt.get(lst, 'type'))

        def names(field):
            out = []
            for arg in pbtxt.get(op, field):
                c = count(arg)
                if c is None:
                    return out, False
                variadic = pbtxt.one(arg, 'number_attr') or pbtxt.one(arg, 'type_list_attr')
                out += ['%s[%d]' % (pbtxt.one(arg, 'name'), k) if variadic else pbtxt.one(arg, 'name')
                        for k in range(c)]
            return out, True

        name = pbtxt.one(nd, 'name', '')
        ins = [x for x in pbtxt.get(nd, 'input') if not x.startswith('^')]
        exp_in, _ = names('input_arg')
        for k in range(len(ins)):
            want_args[(name, 'in', str(k), exp_in[k] if k < len(exp_in) else '-')] += 1
        exp_out, known = names('output_arg')
        if known:
            for k, o in enumerate(exp_out):
                want_args[(name, 'out', str(k), o)] += 1
    # outputs are the reader's: compare them where the OpDef fixes them
    have_cmp = Counter({a: c for a, c in have_args.items()
                        if a[1] == 'in' or any(b[0] == a[0] and b[1] == 'out' for b in want_args)})
    if want_args != have_cmp:
        bad = 1
        print('args: protoc says %s, nnav %s' % (sorted((want_args - have_cmp).items())[:5],
                                                 sorted((have_cmp - want_args).items())[:5]))
    if exp != got:
        bad = 1
        print('nodes: protoc says %s, nnav %s' % (sorted((exp - got).items())[:5],
                                                  sorted((got - exp).items())[:5]))
    for x in dump:
        if x.startswith(('kind\t', 'warning\t')):
            bad = 1
            print('unexpected: ' + x)
    print('%d op definitions, %d nodes, %d arg names compared' % (len(ops), sum(exp.values()),
                                                                 sum(want_args.values())))
    return bad


if __name__ == '__main__':
    sys.exit(main())
