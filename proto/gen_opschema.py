#!/usr/bin/env python3
"""gen_opschema.py - nnav's operator table, from ONNX's and ONNX Runtime's
operator documentation, proven against the ONNX package's registry.

nnav holds every node to its operator's schema (src/include/opschema.h).
This script writes them, facts only (no documentation prose), as a C table
that is committed, so building nnav needs no Python:

    /usr/bin/python3 proto/gen_opschema.py SRC src/typed

It writes src/typed/opschema_onnx.c (the rows), opschema_pool.h and
opschema_pool_N.c (the arrays the rows point to, split so that no file
passes 110 KB).

SRC is a folder holding the fetched documentation (never committed; the
test cli_opschema_fresh looks for it in $NNAV_OPSCHEMA_SRC, else
~/.cache/nnav/opschema; proto/opschema_src.sh lays it out from git
snapshots of the two repositories):

    SRC/onnx/docs/Changelog.md, docs/Changelog-ml.md, VERSION_NUMBER, REVISION
        ONNX's changelog at a release: every version of every operator of
        ai.onnx, ai.onnx.preview, ai.onnx.preview.training (Changelog.md)
        and ai.onnx.ml (Changelog-ml.md), as onnx/defs/gen_doc.py writes it.
    SRC/onnxruntime/docs/ContribOperators.md, VERSION_NUMBER, REVISION
        ONNX Runtime's contrib operators (com.microsoft), in the same shape
        (tools/python/gen_contrib_doc.py), one version each.

Why the documentation and not a registry: the newest ONNX release is not
installed here (Debian's python3-onnx is 1.12, opset 17) and ONNX Runtime's
contrib schemas live only in its C++ and in that file. The documentation is
generated from the same registries and says, for every schema: since
version, deprecation, each attribute's type and whether it is required or
its default, each input and output with optional / variadic /
heterogeneous, the argument counts when they are a range, and each type
constraint's allowed types. What it does not say exactly, and how this
script makes up for it:
  - a float default is printed rounded to 5 decimals (gen_doc.py's
    np.round(v, 5)); Selu's alpha 1.67326319... is "1.67326". Where the
    installed onnx registry (any version; 1.12 here) knows the same schema,
    its exact value is taken, after checking that it prints as the doc
    does. A newer version whose default prints like an older version's
    takes the older one's exact value. Otherwise the text is read as a
    float32 (FLOAT_FROM_TEXT counts them; the table's header lists them).
  - a deprecated schema is printed without its body: the registry's is
    taken where it has one; the others (GroupNormalization-18 and ML's
    TreeEnsembleClassifier-5 / TreeEnsembleRegressor-5) get no formals and
    no attributes, and counts 0 to unbounded (nnav check stops at
    "deprecated" for them, as onnx.checker does).
  - ONNX Runtime's file prints no defaults at all: com.microsoft
    attributes have none in the table (whether one is required is printed).
Every schema the registry knows is compared with the parsed one field by
field (since, deprecation, counts, formals, attributes with type, required
and default, type constraints as sets); any difference stops the script,
unless KNOWN_DIFFERENCES lists it with its reason (the docs, the newer
release, then win).

It writes every schema sorted by domain, name and since_version: inputs
and outputs (name, type string, single, optional or variadic, homogeneous),
their counts, attributes (name, type, required, default value) sorted by
name, type constraints and their allowed types (sorted), and whether the
operator is deprecated; and each domain with its newest version.

The table records GENERATOR_VERSION and where it was read from.
CMakeLists.txt compares the recorded generator version with this file's and
stops the build when they disagree (a script changed without regenerating
the table, or a table edited by hand); the cli_opschema_fresh test reruns the
script when the same sources are at hand and compares byte for byte.
"""
import math
import os
import re
import struct
import sys

import numpy as np
import onnx
import onnx.defs
from onnx import AttributeProto, helper

# Bump when the output's layout or content rules change.
GENERATOR_VERSION = 3

UNBOUNDED = 2147483647
POOL_BYTES = 100000  # the most of one generated opschema_pool_N.c
OPTION = {'single': 'NNAV_OPF_SINGLE', 'optional': 'NNAV_OPF_OPTIONAL',
          'variadic': 'NNAV_OPF_VARIADIC'}
REG_OPTION = {0: 'single', 1: 'optional', 2: 'variadic'}
# The domains the table holds, in table order (sorted by name).
DOMAINS = ['ai.onnx', 'ai.onnx.ml', 'ai.onnx.preview', 'ai.onnx.preview.training',
           'com.microsoft']
ATTR_TYPES = {'float': AttributeProto.FLOAT, 'int': AttributeProto.INT,
              'string': AttributeProto.STRING, 'tensor': AttributeProto.TENSOR,
              'graph': AttributeProto.GRAPH, 'list of floats': AttributeProto.FLOATS,
              'list of ints': AttributeProto.INTS, 'list of strings': AttributeProto.STRINGS,
              'list of tensors': AttributeProto.TENSORS, 'list of graphs': AttributeProto.GRAPHS,
              'sparse_tensor': AttributeProto.SPARSE_TENSOR,
              'list of sparse_tensors': AttributeProto.SPARSE_TENSORS,
              'type_proto': AttributeProto.TYPE_PROTO,
              'list of type_protos': AttributeProto.TYPE_PROTOS}

# (domain, op, since, field): why the registry and the docs differ there.
# The docs (the newer release) are kept. Filled from the script's own
# report of every difference; each one read in both sources.
KNOWN_DIFFERENCES = {
    ('ai.onnx', 'Erf', 13, 'type constraints'):
        'onnx 1.12 allows every numeric type; by 1.22 Erf-13 is written with the float unary '
        'generator (onnx/defs/math/defs.cc) and allows float16, float, double, bfloat16',
    ('ai.onnx', 'GridSample', 16, 'in'):
        'onnx 1.12 types grid T1 and Y T2, the wrong way round; onnx #4655 (Correct types in '
        'GridSample def.cc) made grid T2 and Y T1, as the operator means',
    ('ai.onnx', 'GridSample', 16, 'out'): 'the same fix (onnx #4655)',
}


def die(msg):
    sys.exit('gen_opschema.py: ' + msg)


# ---- reading the documentation ----

HEAD = re.compile(r'^### (?:<sub>experimental</sub> )?<a name="([^"]+)"></a>(?:<a name="[^"]*">)?'
                  r'\*\*([^*]+)\*\*( \(deprecated\))?</a>$')
VERSION = re.compile(r"^This version of the operator has been (available|deprecated) since "
                     r"version (\d+) of (?:the default ONNX operator set|the '([^']+)' operator "
                     r"set)\.$")
RANGE = re.compile(r'^#### (Inputs|Outputs)(?: \((\d+) - (\d+|&#8734;)\))?$')
DT = re.compile(r'^<dt><tt>(.*?)</tt>(.*)</dt>$')


def parse_doc(path, domain_of_section):
    """The schemas of one generated markdown file, as dicts. Each field is
    taken from its fixed line shape; a line of a section that is not of its
    shape stops the script (the format changed: the parser must follow)."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    out = []
    section_domain = None
    cur = None
    part = None
    for ln, line in enumerate(lines, 1):
        where = '%s:%d' % (path, ln)
        if line.startswith('# ') or line.startswith('## '):
            d = domain_of_section(line)
            if d:
                section_domain = d
            part = None
            continue
        if line.startswith('### '):
            m = HEAD.match(line)
            if not m:
                die('%s: an operator heading of an unknown shape: %r' % (where, line))
            full = m.group(2)
            if not section_domain:
                die('%s: an operator outside a domain section' % where)
            name = full
            if section_domain != 'ai.onnx':
                if not full.startswith(section_domain + '.'):
                    die('%s: %r is not of domain %s' % (where, full, section_domain))
                name = full[len(section_domain) + 1:]
            since = None
            vm = re.match(r'^(.*)-(\d+)$', name)
            if vm and section_domain != 'com.microsoft':
                name, since = vm.group(1), int(vm.group(2))
            cur = {'domain': section_domain, 'name': name, 'since': since,
                   'deprecated': bool(m.group(3)), 'attrs': {}, 'in': [], 'out': [],
                   'tcs': [], 'range': {}, 'where': where, 'experimental': False,
                   'float_text': {}}
            out.append(cur)
            part = None
            continue
        if cur is None:
            continue
        if line == '#### Version':
            part = 'version'
            continue
        if line == '#### Attributes':
            part = 'attrs'
            continue
        if line == '#### Type Constraints':
            part = 'tcs'
            continue
        rm = RANGE.match(line)
        if rm:
            part = 'in' if rm.group(1) == 'Inputs' else 'out'
            if rm.group(2) is not None:
                hi = UNBOUNDED if rm.group(3) == '&#8734;' else int(rm.group(3))
                cur['range'][part] = (int(rm.group(2)), hi)
            continue
        if line.startswith('#### '):
            part = None  # a section nnav does not read (examples...)
            continue
        if part == 'version':
            vm = VERSION.match(line)
            if vm:
                dom = vm.group(3) or 'ai.onnx'
                if dom != cur['domain']:
                    die('%s: the version line names domain %s' % (where, dom))
                v = int(vm.group(2))
                if cur['since'] is not None and v != cur['since']:
                    die('%s: the heading says version %d, the text %d' % (where, cur['since'], v))
                cur['since'] = v
                if (vm.group(1) == 'deprecated') != cur['deprecated']:
                    die('%s: deprecation said differently in heading and text' % where)
            elif line == 'No versioning maintained for experimental ops.':
                cur['experimental'] = True
                if cur['since'] is None:
                    cur['since'] = 1
            continue
        if part not in ('attrs', 'in', 'out', 'tcs') or not line.startswith('<dt>'):
            continue
        m = DT.match(line)
        if not m:
            die('%s: a <dt> line of an unknown shape: %r' % (where, line))
        name, rest = m.group(1), m.group(2)
        if part == 'attrs':
            am = re.match(r'^ : ([a-z_ ]+?)(?: \((required|default is (.*))\))?$', rest)
            if not am or am.group(1) not in ATTR_TYPES:
                die('%s: an attribute line of an unknown shape: %r' % (where, line))
            a = {'type': ATTR_TYPES[am.group(1)], 'required': am.group(2) == 'required',
                 'default': None}
            if am.group(3) is not None:
                a['default'] = am.group(3)
            cur['attrs'][name] = a
        elif part in ('in', 'out'):
            fm = re.match(r'^(?: \(([a-z, -]+)\))? : (\S+)$', rest)
            if not fm:
                die('%s: a formal line of an unknown shape: %r' % (where, line))
            tags = [t.strip() for t in (fm.group(1) or '').split(',') if t.strip()]
            opt, homog = 'single', True
            for t in tags:
                if t == 'optional':
                    opt = 'optional'
                elif t == 'variadic':
                    opt = 'variadic'
                elif t == 'heterogeneous':
                    homog = False
                elif t not in ('differentiable', 'non-differentiable'):
                    die('%s: an unknown tag %r' % (where, t))
            cur[part].append({'name': name, 'type': fm.group(2), 'option': opt,
                              'homogeneous': homog})
        else:
            tm = re.match(r'^ : (.*)$', rest)
            if not tm:
                die('%s: a type constraint line of an unknown shape: %r' % (where, line))
            allowed = split_types(tm.group(1))
            cur['tcs'].append({'param': name, 'allowed': allowed})
    for s in out:
        if s['since'] is None:
            die('%s: no version line' % s['where'])
        for part in ('in', 'out'):
            if part in s['range']:
                s['min_' + part], s['max_' + part] = s['range'][part]
            else:  # gen_doc prints a range only when min != max
                n = len(s[part])
                s['min_' + part] = s['max_' + part] = n
    return out


def split_types(text):
    """'tensor(float), map(int64, float)' -> its types (a comma inside
    parentheses is a type's own)."""
    out, depth, cur = [], 0, ''
    for c in text:
        if c == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
            continue
        depth += (c == '(') - (c == ')')
        cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def onnx_section(line):
    m = re.match(r'^# (\S+)', line)
    if not m:
        return None
    d = m.group(1)
    return 'ai.onnx' if d == 'ai.onnx' else d


def ort_section(line):
    m = re.match(r'^## (com\.microsoft)$', line)
    return m.group(1) if m else None


# ---- defaults ----

def f32(v):
    return struct.unpack('<f', struct.pack('<f', v))[0]


def doc_float(v):
    """A float as gen_doc.py prints a default."""
    formatted = str(np.round(v, 5))
    if len(formatted) > 10:
        formatted = str(f'({v:e})')
    return formatted


def doc_value(v):
    if isinstance(v, list):
        return str([doc_value(x) for x in v])
    if isinstance(v, float):
        return doc_float(v)
    if isinstance(v, (bytes, bytearray)):
        return v.decode('utf-8')
    return str(v)


def reg_default(a):
    """The registry's default of an attribute, as Python values, or None."""
    dv = a.default_value
    if not (dv.name or dv.type):
        return None
    v = helper.get_attribute_value(dv)
    if isinstance(v, bytes):
        return v.decode('utf-8')
    if isinstance(v, list):
        return [x.decode('utf-8') if isinstance(x, bytes) else x for x in v]
    return v


def parse_float_text(t):
    t = t.strip()
    if t.startswith('(') and t.endswith(')'):
        t = t[1:-1]
    return f32(float(t))


def parse_default(text, atype, where):
    """A default from its printed text (no exact value known)."""
    if atype == AttributeProto.INT:
        return int(text)
    if atype == AttributeProto.FLOAT:
        return parse_float_text(text)
    if atype == AttributeProto.STRING:
        return text
    if atype in (AttributeProto.INTS, AttributeProto.FLOATS, AttributeProto.STRINGS):
        if not (text.startswith('[') and text.endswith(']')):
            die('%s: a list default of an unknown shape: %r' % (where, text))
        body = text[1:-1].strip()
        items = re.findall(r"'((?:[^'\\]|\\.)*)'", body) if body else []
        if atype == AttributeProto.INTS:
            return [int(x) for x in items]
        if atype == AttributeProto.FLOATS:
            return [parse_float_text(x) for x in items]
        return items
    die('%s: a default of attribute type %d is not read' % (where, atype))


def floatish(atype):
    return atype in (AttributeProto.FLOAT, AttributeProto.FLOATS)


# ---- the registry: proof and exact values ----

def reg_schemas():
    out = {}
    for s in onnx.defs.get_all_schemas_with_history():
        d = s.domain or 'ai.onnx'
        if d in DOMAINS:
            out[(d, s.name, s.since_version)] = s
    return out


def reg_as_parsed(s):
    """A registry schema in the parsed form (defaults as values)."""
    def formals(fs):
        return [{'name': f.name, 'type': f.typeStr, 'option': REG_OPTION[int(f.option.value)],
                 'homogeneous': bool(f.isHomogeneous)} for f in fs]
    return {
        'min_in': s.min_input, 'max_in': min(s.max_input, UNBOUNDED),
        'min_out': s.min_output, 'max_out': min(s.max_output, UNBOUNDED),
        'in': formals(s.inputs), 'out': formals(s.outputs),
        'attrs': {n: {'type': int(a.type.value), 'required': bool(a.required),
                      'default': reg_default(a)} for n, a in s.attributes.items()},
        'tcs': [{'param': t.type_param_str, 'allowed': list(t.allowed_type_strs)}
                for t in s.type_constraints],
        'deprecated': bool(s.deprecated),
    }


def homog_view(fs):
    # The docs print "heterogeneous" only for a variadic formal: elsewhere
    # the registry's flag says nothing.
    return [(f['name'], f['type'], f['option'],
             f['homogeneous'] if f['option'] == 'variadic' else True) for f in fs]


def compare(p, r, key, diffs):
    """Differences between a parsed schema p (defaults as text) and the
    registry's r, each as (field, parsed, registry)."""
    out = []
    if p['deprecated'] != r['deprecated']:
        out.append(('deprecated', p['deprecated'], r['deprecated']))
    if p['deprecated']:
        return out  # the docs print no body for it
    for k in ('min_in', 'max_in', 'min_out', 'max_out'):
        if p[k] != r[k]:
            out.append((k, p[k], r[k]))
    for k in ('in', 'out'):
        if homog_view(p[k]) != homog_view(r[k]):
            out.append((k, homog_view(p[k]), homog_view(r[k])))
    if sorted(p['attrs']) != sorted(r['attrs']):
        out.append(('attribute names', sorted(p['attrs']), sorted(r['attrs'])))
    for n in sorted(set(p['attrs']) & set(r['attrs'])):
        pa, ra = p['attrs'][n], r['attrs'][n]
        if pa['type'] != ra['type'] or pa['required'] != ra['required']:
            out.append(('attribute ' + n, (pa['type'], pa['required']),
                        (ra['type'], ra['required'])))
            continue
        want = None if ra['default'] is None else doc_value(ra['default'])
        if pa['default'] != want:
            out.append(('attribute %s default' % n, pa['default'], want))
    pt = {t['param']: sorted(t['allowed']) for t in p['tcs']}
    rt = {t['param']: sorted(t['allowed']) for t in r['tcs']}
    if pt != rt:
        out.append(('type constraints', pt, rt))
    return out


# ---- the C text ----

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
        self.arrays = []  # (ctype, name, body), in the order first met
        self.pool = {}  # interned arrays: text -> name

    def intern(self, ctype, items, prefix):
        """A static array of ctype holding items (C initializer texts),
        shared by every schema that has the same one."""
        if not items:
            return 'NULL'
        body = ', '.join(items)
        key = (ctype, body)
        if key not in self.pool:
            name = 'nnav_osp_%s%d' % (prefix, len(self.pool))
            self.pool[key] = name
            self.arrays.append((ctype, name, body))
        return self.pool[key]


def default_c(out, t, v):
    """The nnav_op_default initializer of a default value v of type t."""
    if t == AttributeProto.INT:
        return '{.kind = NNAV_ATTR_INT, .i = %dLL}' % v
    if t == AttributeProto.FLOAT:
        return '{.kind = NNAV_ATTR_FLOAT, .f = %s}' % cfloat(v)
    if t == AttributeProto.STRING:
        return '{.kind = NNAV_ATTR_STRING, .s = %s}' % cstr(v)
    if t == AttributeProto.INTS:
        arr = out.intern('int64_t', ['%dLL' % x for x in v], 'di')
        return '{.kind = NNAV_ATTR_INTS, .count = %d, .ints = %s}' % (len(v), arr)
    if t == AttributeProto.FLOATS:
        arr = out.intern('double', [cfloat(x) for x in v], 'df')
        return '{.kind = NNAV_ATTR_FLOATS, .count = %d, .floats = %s}' % (len(v), arr)
    if t == AttributeProto.STRINGS:
        arr = out.intern('char *const', [cstr(x) for x in v], 'ds')
        return '{.kind = NNAV_ATTR_STRINGS, .count = %d, .strings = %s}' % (len(v), arr)
    die('a default of attribute type %d is not handled' % t)


def read_text(path):
    try:
        with open(path, encoding='utf-8') as f:
            return f.read().strip()
    except OSError:
        return ''


def main():
    if len(sys.argv) != 3:
        die('usage: gen_opschema.py SRC OUTDIR (see the header)')
    src, outdir = sys.argv[1], sys.argv[2]
    onnx_docs = os.path.join(src, 'onnx', 'docs')
    ort_doc = os.path.join(src, 'onnxruntime', 'docs', 'ContribOperators.md')
    for p in (os.path.join(onnx_docs, 'Changelog.md'), os.path.join(onnx_docs, 'Changelog-ml.md'),
              ort_doc):
        if not os.path.isfile(p):
            die('%s is missing (see the header for SRC\'s layout)' % p)
    parsed = (parse_doc(os.path.join(onnx_docs, 'Changelog.md'), onnx_section) +
              parse_doc(os.path.join(onnx_docs, 'Changelog-ml.md'), onnx_section) +
              parse_doc(ort_doc, ort_section))
    seen = {}
    for s in parsed:
        if s['domain'] not in DOMAINS:
            die('%s: domain %s is not one the table holds' % (s['where'], s['domain']))
        key = (s['domain'], s['name'], s['since'])
        if key in seen:
            die('%s: %s-%d already at %s' % (s['where'], s['name'], s['since'], seen[key]))
        seen[key] = s['where']
    parsed.sort(key=lambda s: (s['domain'], s['name'], s['since']))

    reg = reg_schemas()
    diffs = []
    proven = 0
    float_from_text = []
    exact = {}  # (domain, op, attr) -> (printed text, exact value) of the newest version so far
    for s in parsed:
        key = (s['domain'], s['name'], s['since'])
        r = reg.get(key)
        rp = reg_as_parsed(r) if r else None
        if rp:
            proven += 1
            for field, got, want in compare(s, rp, key, diffs):
                if (key + (field,)) not in KNOWN_DIFFERENCES:
                    diffs.append('%s %s-%d %s: docs %r, registry %r' % (
                        key[0], key[1], key[2], field, got, want))
            if s['deprecated']:  # the docs print no body: the registry's
                for k in ('min_in', 'max_in', 'min_out', 'max_out', 'in', 'out', 'tcs'):
                    s[k] = rp[k]
                s['attrs'] = {n: dict(a, default=None if a['default'] is None else
                                      doc_value(a['default'])) for n, a in rp['attrs'].items()}
        elif s['deprecated']:
            s['min_in'] = s['min_out'] = 0
            s['max_in'] = s['max_out'] = UNBOUNDED
        # Defaults as values: exact where the registry or an older version
        # prints the same text, else read from the text.
        for n, a in s['attrs'].items():
            text = a['default']
            if text is None:
                a['value'] = None
                continue
            ra = rp['attrs'].get(n) if rp else None
            if ra and ra['default'] is not None and doc_value(ra['default']) == text:
                a['value'] = ra['default']
            elif floatish(a['type']) and exact.get((key[0], key[1], n), (None,))[0] == text:
                a['value'] = exact[(key[0], key[1], n)][1]
            else:
                a['value'] = parse_default(text, a['type'], s['where'])
                if floatish(a['type']):
                    float_from_text.append('%s %s-%d %s = %s' % (key + (n, text)))
            if floatish(a['type']):
                exact[(key[0], key[1], n)] = (text, a['value'])
    missing = sorted(k for k in reg if k not in seen)
    if missing:
        diffs.append('the registry has schemas the docs do not: %s' % missing[:20])
    if diffs:
        die('the docs and the registry (onnx %s) disagree:\n  ' % onnx.__version__ +
            '\n  '.join(diffs))

    onnx_ver = read_text(os.path.join(src, 'onnx', 'VERSION_NUMBER')) or '?'
    onnx_rev = read_text(os.path.join(src, 'onnx', 'REVISION'))
    ort_ver = read_text(os.path.join(src, 'onnxruntime', 'VERSION_NUMBER')) or '?'
    ort_rev = read_text(os.path.join(src, 'onnxruntime', 'REVISION'))
    origin = 'onnx %s docs, onnxruntime %s ContribOperators.md' % (onnx_ver, ort_ver)

    out = Out()
    rows = []
    for s in parsed:
        def formals(fs):
            return out.intern('nnav_op_formal', ['{%s, %s, %s, %d}' % (
                cstr(f['name']), cstr(f['type']), OPTION[f['option']],
                1 if f['homogeneous'] else 0) for f in fs], 'f')
        attrs = []
        for name in sorted(s['attrs']):
            a = s['attrs'][name]
            d = default_c(out, a['type'], a['value']) if a.get('value') is not None else None
            attrs.append('{%s, %d, %d, %d, %s}' % (cstr(name), a['type'],
                                                   1 if a['required'] else 0, 1 if d else 0,
                                                   d or '{0}'))
        tcs = []
        for tc in s['tcs']:
            allowed = out.intern('char *const', [cstr(t) for t in sorted(tc['allowed'])], 't')
            tcs.append('{%s, %s, %d}' % (cstr(tc['param']), allowed, len(tc['allowed'])))
        rows.append('{%s, %s, %d, %d, %d, %d, %d, %d, %s, %s, %d, %d, %s, %d, %s, %d}' % (
            cstr(s['domain']), cstr(s['name']), s['since'], 1 if s['deprecated'] else 0,
            s['min_in'], s['max_in'], s['min_out'], s['max_out'],
            formals(s['in']), formals(s['out']), len(s['in']), len(s['out']),
            out.intern('nnav_op_attr', attrs, 'a'), len(attrs),
            out.intern('nnav_op_tc', tcs, 'c'), len(tcs)))
    head = ['/* %s - GENERATED by proto/gen_opschema.py from',
            ' *   onnx %s (%s): docs/Changelog.md, docs/Changelog-ml.md' % (onnx_ver, onnx_rev),
            ' *   onnxruntime %s (%s): docs/ContribOperators.md' % (ort_ver, ort_rev),
            ' * do not edit: rerun the script (see its header). */']
    main_c = [head[0] % 'opschema_onnx.c'] + head[1:3] + [
        ' * proven against the onnx %s registry (%d schemas equal, field by field).'
        % (onnx.__version__, proven),
        ' * do not edit: rerun the script (see its header). %d schemas. */' % len(rows),
        '/* Float defaults read from the docs\' rounded text (no exact value known):']
    main_c += [' *   %s' % t for t in float_from_text] + [' */']
    main_c += ['#include <stddef.h>', '', '#include "opschema.h"', '#include "opschema_pool.h"',
               '#include "opschema_table.h"', '',
               '/* The generator version this table was written by; CMakeLists.txt',
               ' * compares it with GENERATOR_VERSION in proto/gen_opschema.py. */',
               '#define NNAV_OPSCHEMA_GENERATOR_VERSION %d' % GENERATOR_VERSION,
               'const int nnav_opschema_generator_version = NNAV_OPSCHEMA_GENERATOR_VERSION;',
               'const char nnav_opschema_origin[] = %s;' % cstr(origin), '']
    maxes = {}
    for s in parsed:
        maxes[s['domain']] = max(maxes.get(s['domain'], 0), s['since'])
    main_c += ['/* Each domain the table holds and its newest version (the highest',
               ' * since_version of any of its operators), sorted by name. */',
               'const nnav_op_domain nnav_opschema_domains[] = {']
    main_c += ['    {%s, %d},' % (cstr(d), maxes.get(d, 0)) for d in DOMAINS]
    main_c += ['};', 'const size_t nnav_opschema_domain_count = %d;' % len(DOMAINS), '',
               'const nnav_op_schema nnav_opschema_onnx[] = {']
    main_c += ['    %s,' % r for r in rows]
    main_c += ['};', 'const size_t nnav_opschema_onnx_count = %d;' % len(rows)]
    # The arrays the rows point to: declared in one header, defined in
    # files of at most POOL_BYTES each (no source file of nnav passes
    # 110 KB: tests/cli/layers.sh).
    pool_h = [head[0] % 'opschema_pool.h'] + head[1:] + [
        '/* The arrays the operator table\'s rows point to (formals, attributes,',
        ' * defaults, type constraints and their types), shared by every row that',
        ' * has the same one; defined in opschema_pool_N.c. */',
        '#ifndef NNAV_OPSCHEMA_POOL_H', '#define NNAV_OPSCHEMA_POOL_H', '', '#include <stdint.h>',
        '', '#include "opschema.h"', '']
    pool_h += ['extern const %s %s[];' % (t, n) for t, n, _ in out.arrays]
    pool_h += ['', '#endif']
    parts, cur, size = [], [], 0
    for t, n, b in out.arrays:
        line = 'const %s %s[] = {%s};' % (t, n, b)
        if cur and size + len(line) > POOL_BYTES:
            parts.append(cur)
            cur, size = [], 0
        cur.append(line)
        size += len(line) + 1
    if cur:
        parts.append(cur)
    files = {'opschema_onnx.c': main_c, 'opschema_pool.h': pool_h}
    for i, lines in enumerate(parts, 1):
        name = 'opschema_pool_%d.c' % i
        files[name] = [head[0] % name] + head[1:] + [
            '#include <math.h>', '#include <stdint.h>', '', '#include "opschema.h"',
            '#include "opschema_pool.h"', ''] + lines
    stale = [f for f in os.listdir(outdir) if re.match(r'^opschema_pool_\d+\.c$', f) and f not in files]
    if stale:
        die('%s holds %s, which this run does not write: remove them' % (outdir, ', '.join(stale)))
    for name, lines in files.items():
        with open(os.path.join(outdir, name), 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    main()
