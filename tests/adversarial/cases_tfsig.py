"""cases_tfsig.py - TensorFlow SavedModels whose signatures contradict their
graphs (issue 15, item 5): the Placeholder's attrs are the value's type, a
signature that disagrees is a finding of `nnav check` (status 2, the field
path and the byte offset of the dtype field). Hostile signature and tensor
keys, a signature naming no tensor, dims below -1, an unknown dtype number,
a COO sparse TensorInfo, Placeholders with a shape attr that is not a shape
and with dims below -1. What each must do: expect_tfsig.txt.
"""
from make_cases import *  # noqa: F401,F403 (fb, fv, cat, tf_node, tf_attr, HOSTILE...)

DT_STRING, DT_INT64 = 7, 9


def shape(*dims, unknown=False):
    return b"".join(fb(2, fv(1, d)) for d in dims) + (fv(3, 1) if unknown else b"")


def placeholder(name, dtype, shape_av=None, op="Placeholder", ins=()):
    attrs = [("dtype", fv(6, dtype))]
    if shape_av is not None:
        attrs.append(("shape", shape_av))
    return tf_node(name, op, ins=ins, attrs=attrs)


def tensor_info(name, dtype=None, shp=None, coo=None):
    out = fb(1, name) if name is not None else b""
    if coo is not None:
        out += fb(4, cat(fb(1, coo[0]), fb(2, coo[1]), fb(3, coo[2])))
    if dtype is not None:
        out += fv(2, dtype)
    if shp is not None:
        out += fb(3, shp)
    return out


def signature(key, inputs=(), outputs=(), method="tensorflow/serving/predict"):
    body = b"".join(fb(1, cat(fb(1, k), fb(2, ti))) for k, ti in inputs)
    body += b"".join(fb(2, cat(fb(1, k), fb(2, ti))) for k, ti in outputs)
    body += fb(3, method)
    return fb(5, cat(fb(1, key), fb(2, body)))


def saved_model(nodes, sigs, producer=27):
    graph = b"".join(fb(1, n) for n in nodes) + fb(4, fv(1, producer))
    meta = fb(1, fb(4, "serve")) + fb(2, graph) + b"".join(sigs)
    return fv(1, 1) + fb(2, meta)


def small_cases():
    cases = {}
    # half_plus_three's contradiction: a string Placeholder, a float signature.
    cases["tfsig_string_vs_float.pb"] = saved_model(
        [placeholder("tf_example", DT_STRING, fb(7, shape(unknown=True))),
         tf_node("x", "Identity", ins=["tf_example"], attrs=[("T", fv(6, DT_STRING))])],
        [signature("cls", inputs=[("inputs", tensor_info("tf_example:0", DT_FLOAT))],
                   outputs=[("out", tensor_info("x:0", DT_STRING, shape(unknown=True)))])])
    # Hostile keys, a missing tensor, dims below -1, dtype 999, COO sparse,
    # a shape attr that is an int, a PlaceholderWithDefault's dims below -1.
    cases["tfsig_hostile.pb"] = saved_model(
        [placeholder("p", DT_INT64, fv(3, 3)),
         placeholder("q", DT_FLOAT, fb(7, shape(-7, 2)), op="PlaceholderWithDefault", ins=["p"]),
         placeholder(HOSTILE[1], DT_FLOAT, fb(7, shape(2)))],
        [signature(HOSTILE[0],
                   inputs=[(HOSTILE[9], tensor_info("p:0", DT_FLOAT, shape(-5, 3))),
                           ("gone", tensor_info("nowhere:3", DT_FLOAT)),
                           ("odd", tensor_info("q:0", 999, shape(4, 2))),
                           ("sparse", tensor_info(None, DT_FLOAT, shape(5, 5),
                                                  coo=("q:0", "p:0", "q:0")))],
                   outputs=[(HOSTILE[2], tensor_info(HOSTILE[1] + b":0", DT_FLOAT, shape(3)))])],
        producer=21)
    return cases
