#!/usr/bin/env python3
"""gen_opschema.py - nnav's operator table, from the ONNX package's registry.

nnav holds every node to its operator's schema (src/include/opschema.h).
The schemas come from onnx.defs, the registry onnx.checker itself uses; this
script writes them, facts only (no documentation prose), as a C table that is
committed, so building nnav needs no Python:

    /usr/bin/python3 proto/gen_opschema.py > src/typed/opschema_onnx.c

It writes every schema of the domains ai.onnx, ai.onnx.ml and
ai.onnx.preview.training in every version, sorted by domain, name and
since_version: inputs and outputs (name, type string, single, optional or
variadic, homogeneous), their counts, attributes (name, type, required,
default value) sorted by name, type constraints and their allowed types, and
whether the operator is deprecated.

The table records GENERATOR_VERSION and the onnx version it was read from.
CMakeLists.txt compares the recorded generator version with this file's and
stops the build when they disagree (a script changed without regenerating
the table, or a table edited by hand); the cli_opschema_fresh test reruns the
script when the same onnx version is installed and compares byte for byte.
"""
import sys

import onnx
import onnx.defs
from onnx import AttributeProto

# Bump when the output's layout or content rules change.
GENERATOR_VERSION = 2

DOMAINS = {'': 'ai.onnx', 'ai.onnx': 'ai.onnx', 'ai.onnx.ml': 'ai.onnx.ml',
           'ai.onnx.preview.training': 'ai.onnx.preview.training'}
OPTION = {0: 'NNAV_OPF_SINGLE', 1: 'NNAV_OPF_OPTIONAL', 2: 'NNAV_OPF_VARIADIC'}
UNBOUNDED = 2147483647


def cstr(s):
    """A C string literal of s (bytes or str), every byte outside printable
    ASCII escaped, and no trigraphs."""
    if isinstance(s, str):
        s = s.encode('utf-8')
    out = []
    for c in s:
        if c in (0x22, 0x5c):
            out.append('\\' + chr(c))
        elif 0x20 <= c < 0x7f and c != 0x3f:
            out.append(chr(c))
        else:
            out.append('\\%03o' % c)
    return '"' + ''.join(out) + '"'


def cfloat(v):
    """A double literal that reads back to exactly v."""
    r = repr(float(v))
    if r in ('inf', '-inf', 'nan'):
        return {'inf': 'INFINITY', '-inf': '-INFINITY', 'nan': 'NAN'}[r]
    if 'e' not in r and '.' not in r:
        r += '.0'
    return r


class Out:
    def __init__(self):
        self.lines = []
        self.pool = {}  # interned arrays: text -> name

    def intern(self, ctype, items, prefix):
        """A static array of ctype holding items (C initializer texts),
        shared by every schema that has the same one."""
        if not items:
            return 'NULL'
        body = ', '.join(items)
        key = (ctype, body)
        if key not in self.pool:
            name = '%s%d' % (prefix, len(self.pool))
            self.pool[key] = name
            self.lines.append('static const %s %s[] = {%s};' % (ctype, name, body))
        return self.pool[key]


def default_of(out, a):
    """The nnav_op_default initializer of an attribute's default value."""
    dv = a.default_value
    if not (dv.name or dv.type):
        return None
    t = dv.type
    if t == AttributeProto.INT:
        return '{.kind = NNAV_ATTR_INT, .i = %dLL}' % dv.i
    if t == AttributeProto.FLOAT:
        return '{.kind = NNAV_ATTR_FLOAT, .f = %s}' % cfloat(dv.f)
    if t == AttributeProto.STRING:
        return '{.kind = NNAV_ATTR_STRING, .s = %s}' % cstr(dv.s)
    if t == AttributeProto.INTS:
        arr = out.intern('int64_t', ['%dLL' % v for v in dv.ints], 'di')
        return '{.kind = NNAV_ATTR_INTS, .count = %d, .ints = %s}' % (len(dv.ints), arr)
    if t == AttributeProto.FLOATS:
        arr = out.intern('double', [cfloat(v) for v in dv.floats], 'df')
        return '{.kind = NNAV_ATTR_FLOATS, .count = %d, .floats = %s}' % (len(dv.floats), arr)
    if t == AttributeProto.STRINGS:
        arr = out.intern('char *const', [cstr(v) for v in dv.strings], 'ds')
        return '{.kind = NNAV_ATTR_STRINGS, .count = %d, .strings = %s}' % (len(dv.strings), arr)
    sys.exit('gen_opschema.py: a default of attribute type %d is not handled' % t)


def main():
    schemas = [s for s in onnx.defs.get_all_schemas_with_history() if s.domain in DOMAINS]
    schemas.sort(key=lambda s: (DOMAINS[s.domain], s.name, s.since_version))
    out = Out()
    rows = []
    for s in schemas:
        def formals(fs):
            return out.intern('nnav_op_formal', ['{%s, %s, %s, %d}' % (
                cstr(f.name), cstr(f.typeStr), OPTION[int(f.option.value)],
                1 if f.isHomogeneous else 0) for f in fs], 'f')
        attrs = []
        for name in sorted(s.attributes):
            a = s.attributes[name]
            d = default_of(out, a)
            attrs.append('{%s, %d, %d, %d, %s}' % (cstr(name), int(a.type.value),
                                                   1 if a.required else 0, 1 if d else 0,
                                                   d or '{0}'))
        tcs = []
        for tc in s.type_constraints:
            allowed = out.intern('char *const', [cstr(t) for t in sorted(tc.allowed_type_strs)],
                                 't')
            tcs.append('{%s, %s, %d}' % (cstr(tc.type_param_str), allowed,
                                         len(tc.allowed_type_strs)))
        rows.append('{%s, %s, %d, %d, %d, %d, %d, %d, %s, %s, %d, %d, %s, %d, %s, %d}' % (
            cstr(DOMAINS[s.domain]), cstr(s.name), s.since_version, 1 if s.deprecated else 0,
            s.min_input, min(s.max_input, UNBOUNDED), s.min_output,
            min(s.max_output, UNBOUNDED), formals(s.inputs), formals(s.outputs),
            len(s.inputs), len(s.outputs),
            out.intern('nnav_op_attr', attrs, 'a'), len(attrs),
            out.intern('nnav_op_tc', tcs, 'c'), len(tcs)))
    print('/* opschema_onnx.c - GENERATED by proto/gen_opschema.py from onnx %s;'
          % onnx.__version__)
    print(' * do not edit: rerun the script (see its header). %d schemas. */' % len(rows))
    print('#include <math.h>')
    print('#include <stddef.h>')
    print('')
    print('#include "opschema.h"')
    print('#include "opschema_table.h"')
    print('')
    print('/* The generator version this table was written by; CMakeLists.txt')
    print(' * compares it with GENERATOR_VERSION in proto/gen_opschema.py. */')
    print('#define NNAV_OPSCHEMA_GENERATOR_VERSION %d' % GENERATOR_VERSION)
    print('const int nnav_opschema_generator_version = NNAV_OPSCHEMA_GENERATOR_VERSION;')
    print('const char nnav_opschema_origin[] = "onnx %s";' % onnx.__version__)
    print('')
    for line in out.lines:
        print(line)
    print('')
    maxes = {}
    for s in schemas:
        d = DOMAINS[s.domain]
        maxes[d] = max(maxes.get(d, 0), s.since_version)
    print('/* The newest version of each domain (the highest since_version), in the')
    print(' * order ai.onnx, ai.onnx.ml, ai.onnx.preview.training. */')
    print('const int32_t nnav_opschema_domain_max[3] = {%d, %d, %d};' % (
        maxes['ai.onnx'], maxes['ai.onnx.ml'], maxes['ai.onnx.preview.training']))
    print('')
    print('const nnav_op_schema nnav_opschema_onnx[] = {')
    for r in rows:
        print('    %s,' % r)
    print('};')
    print('const size_t nnav_opschema_onnx_count = %d;' % len(rows))


if __name__ == '__main__':
    main()
