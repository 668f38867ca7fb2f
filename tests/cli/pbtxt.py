#!/usr/bin/env python3
"""pbtxt.py - read protobuf text format as `protoc --decode` writes it.

No protobuf package: a tokenizer and a recursive reader. A message is a list
of (field name, value) pairs in file order; a value is a nested message (a
list), a str (quoted strings with C escapes decoded to bytes, then latin-1,
so every byte survives), an int, a float, or an enum/bool identifier (str).
Map fields stay lists of `key`/`value` messages, as the text has them.

  parse(text) -> message
  get(msg, name) -> the values of field `name`, in order
  one(msg, name, default=None) -> the last value of `name`, or default
"""
import re

_TOKEN = re.compile(r'\s+|#[^\n]*|"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|[{}:<>\[\],;]|[^\s{}:<>\[\],;"\']+',
                    re.S)


def _unescape(body):
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != '\\':
            out += c.encode('utf-8')
            i += 1
            continue
        i += 1
        e = body[i]
        simple = {'n': 10, 't': 9, 'r': 13, '"': 34, "'": 39, '\\': 92, 'a': 7, 'b': 8, 'f': 12,
                  'v': 11, '?': 63}
        if e in simple:
            out.append(simple[e])
            i += 1
        elif e in 'xX':
            m = re.match(r'[0-9a-fA-F]{1,2}', body[i + 1:])
            out.append(int(m.group(0), 16))
            i += 1 + len(m.group(0))
        else:
            m = re.match(r'[0-7]{1,3}', body[i:])
            out.append(int(m.group(0), 8) & 0xff)
            i += len(m.group(0))
    return out.decode('latin-1')


def _tokens(text):
    for m in _TOKEN.finditer(text):
        t = m.group(0)
        if t.isspace() or t.startswith('#'):
            continue
        yield t


def _scalar(t):
    if t[0] in '"\'':
        return _unescape(t[1:-1])
    try:
        return int(t, 0)
    except ValueError:
        pass
    try:
        return float(t.rstrip('fF'))
    except ValueError:
        return t


def _message(toks, i, close):
    msg = []
    while i < len(toks):
        t = toks[i]
        if t == close:
            return msg, i + 1
        name = t
        i += 1
        if toks[i] == ':':
            i += 1
        if toks[i] in '{<':
            sub, i = _message(toks, i + 1, '}' if toks[i] == '{' else '>')
            msg.append((name, sub))
        elif toks[i] == '[':
            i += 1
            while toks[i] != ']':
                if toks[i] == ',':
                    i += 1
                    continue
                if toks[i] in '{<':
                    sub, i = _message(toks, i + 1, '}' if toks[i] == '{' else '>')
                    msg.append((name, sub))
                else:
                    msg.append((name, _scalar(toks[i])))
                    i += 1
            i += 1
        else:
            # adjacent string literals join
            v = _scalar(toks[i])
            i += 1
            while isinstance(v, str) and i < len(toks) and toks[i][0] in '"\'':
                v += _scalar(toks[i])
                i += 1
            msg.append((name, v))
        if i < len(toks) and toks[i] in ',;':
            i += 1
    return msg, i


def parse(text):
    toks = list(_tokens(text))
    msg, _ = _message(toks, 0, None)
    return msg


def get(msg, name):
    return [v for k, v in msg if k == name]


def one(msg, name, default=None):
    vals = get(msg, name)
    return vals[-1] if vals else default
