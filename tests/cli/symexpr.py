"""symexpr.py - evaluate a dim as nnav prints it ("N*(S+1)", "(h-3)/2+1",
"min(seq,512)") at a binding of its names, with the arithmetic nnav means:
integers, * and / (floor division) binding tighter than + and -, both
grouping to the left, unary minus. Used by the tests that compare nnav's
symbolic shapes with real ones (symdims.sh, ort_oracle.sh).

evaluate(text, binding) returns the integer, or raises Unbound (a name with
no value) or ValueError (text that is not such an expression)."""
import re

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_.:]*)|(.))")


class Unbound(Exception):
    pass


def _tokens(text):
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError("cannot read %r at %d" % (text, pos))
        pos = m.end()
        if m.group(1) is not None:
            out.append(("num", int(m.group(1))))
        elif m.group(2) is not None:
            out.append(("name", m.group(2)))
        elif m.group(3).strip():
            out.append(("op", m.group(3)))
    return out


def evaluate(text, binding):
    toks = _tokens(str(text))
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else ("end", None)

    def take(kind=None, val=None):
        t = peek()
        if (kind and t[0] != kind) or (val is not None and t[1] != val):
            raise ValueError("expected %s in %r" % (val or kind, text))
        pos[0] += 1
        return t

    def primary():
        t = peek()
        if t == ("op", "-"):
            take()
            return -primary()
        if t == ("op", "("):
            take()
            v = expr()
            take("op", ")")
            return v
        if t[0] == "num":
            take()
            return t[1]
        if t[0] == "name":
            take()
            if t[1] in ("min", "max") and peek() == ("op", "("):
                take()
                a = expr()
                take("op", ",")
                b = expr()
                take("op", ")")
                return min(a, b) if t[1] == "min" else max(a, b)
            if t[1] not in binding:
                raise Unbound(t[1])
            return binding[t[1]]
        raise ValueError("unexpected %r in %r" % (t[1], text))

    def term():
        v = primary()
        while peek() in (("op", "*"), ("op", "/")):
            op = take()[1]
            w = primary()
            if op == "*":
                v = v * w
            else:
                if w == 0:
                    raise ValueError("division by zero in %r" % text)
                v = v // w
        return v

    def expr():
        v = term()
        while peek() in (("op", "+"), ("op", "-")):
            op = take()[1]
            w = term()
            v = v + w if op == "+" else v - w
        return v

    v = expr()
    if pos[0] != len(toks):
        raise ValueError("trailing text in %r" % text)
    return v


if __name__ == "__main__":
    assert evaluate("N*(S/2)", {"N": 3, "S": 3}) == 3
    assert evaluate("N*S/2", {"N": 3, "S": 3}) == 4
    assert evaluate("N/(N*S)", {"N": 3, "S": 3}) == 0
    assert evaluate("N/N*S", {"N": 3, "S": 3}) == 3
    assert evaluate("(h-3)/2+1", {"h": 10}) == 4
    assert evaluate("min(seq,512)", {"seq": 9}) == 9
    assert evaluate("-a/2", {"a": 3}) == -2
    print("ok")
