"""cases_safetensors.py - hostile safetensors files (issue 31): one per rule
of the format (huggingface/safetensors, safetensors/src/tensor.rs) and per
hostile JSON (depth, numbers past 64 bits, bytes that are not UTF-8, a lone
surrogate, trailing bytes), and names that would drive a terminal. Each is
written byte for byte here; what each must do: expect_safetensors.txt.
"""
import json
import struct

from make_cases import graph, model, node


def st(header, data=b"", pad=True):
    """A file: the 8-byte length, the header (text or bytes), the data."""
    h = header.encode() if isinstance(header, str) else header
    if pad:
        h += b" " * ((8 - len(h) % 8) % 8)
    return struct.pack("<Q", len(h)) + h + data


def ent(dtype, shape, b, e):
    return {"dtype": dtype, "shape": shape, "data_offsets": [b, e]}


def js(obj):
    return json.dumps(obj, separators=(",", ":"))


def small_cases():
    f32x2 = struct.pack("<2f", 1.5, -2)
    c = {}
    c["st_hlen_past_end.safetensors"] = struct.pack("<Q", 1000) + b'{"a":{}}' + bytes(16)
    c["st_hlen_over_limit.safetensors"] = struct.pack("<Q", 100000001) + b'{"a":{}}' + bytes(16)
    c["st_header_array.safetensors"] = st('["w"]')
    c["st_not_json.safetensors"] = st('{"w":}')
    c["st_trailing_json.safetensors"] = st('{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}x', f32x2)
    c["st_deep.safetensors"] = st('{"w":' + "[" * 200 + "]" * 200 + "}")
    c["st_entry_not_object.safetensors"] = st('{"w":[1,2]}')
    c["st_hole.safetensors"] = st(js({"a": ent("F32", [2], 0, 8), "b": ent("F32", [2], 16, 24)}), bytes(24))
    c["st_hole_start.safetensors"] = st(js({"a": ent("F32", [2], 8, 16)}), bytes(16))
    c["st_overlap.safetensors"] = st(js({"a": ent("F32", [2], 0, 8), "b": ent("F32", [2], 4, 12)}), bytes(12))
    c["st_offsets_reversed.safetensors"] = st(js({"a": ent("F32", [2], 8, 0)}), bytes(8))
    c["st_past_end.safetensors"] = st(js({"a": ent("F32", [4], 0, 16)}), bytes(8))
    c["st_trailing_data.safetensors"] = st(js({"a": ent("F32", [2], 0, 8)}), bytes(12))
    c["st_size_mismatch.safetensors"] = st(js({"a": ent("F32", [2], 0, 12)}), bytes(12))
    c["st_dup_name.safetensors"] = st('{"a":%s,"a":%s}' % (js(ent("F32", [2], 0, 8)), js(ent("F32", [2], 8, 16))),
                          bytes(16))
    c["st_dup_escaped.safetensors"] = st('{"ab":%s,"a\\u0062":%s}' % (js(ent("F32", [2], 0, 8)),
                                                          js(ent("F32", [2], 8, 16))), bytes(16))
    c["st_neg_dim.safetensors"] = st(js({"a": ent("F32", [-2], 0, 8)}), bytes(8))
    c["st_float_dim.safetensors"] = st(js({"a": ent("F32", [2.0], 0, 8)}), bytes(8))
    c["st_dim_past_64.safetensors"] = st('{"a":{"dtype":"F32","shape":[18446744073709551616],'
                             '"data_offsets":[0,8]}}', bytes(8))
    c["st_dims_overflow.safetensors"] = st(js({"a": ent("F32", [4294967296, 4294967296, 16], 0, 8)}), bytes(8))
    c["st_offset_past_64.safetensors"] = st('{"a":{"dtype":"F32","shape":[2],'
                                '"data_offsets":[0,99999999999999999999]}}', bytes(8))
    c["st_bad_dtype.safetensors"] = st(js({"a": ent("F128", [2], 0, 8)}), bytes(8))
    c["st_no_offsets.safetensors"] = st(js({"a": {"dtype": "F32", "shape": [2]}}), bytes(8))
    c["st_three_offsets.safetensors"] = st('{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8,8]}}', bytes(8))
    c["st_meta_number.safetensors"] = st(js({"__metadata__": {"n": 1}, "a": ent("F32", [2], 0, 8)}), bytes(8))
    c["st_meta_dup.safetensors"] = st('{"__metadata__":{"k":"1","k":"2"},"a":%s}' % js(ent("F32", [2], 0, 8)),
                          bytes(8))
    c["st_not_utf8.safetensors"] = st(b'{"a\xff":' + js(ent("F32", [2], 0, 8)).encode() + b"}", bytes(8))
    c["st_lone_surrogate.safetensors"] = st('{"a\\ud800":%s}' % js(ent("F32", [2], 0, 8)), bytes(8))
    c["st_huge_exponent.safetensors"] = st('{"__metadata__":{"k":"v"},"a":{"dtype":"F32","shape":[2],'
                               '"data_offsets":[0,8],"x":1e999}}', bytes(8))
    c["st_f4_odd.safetensors"] = st(js({"a": ent("F4", [3], 0, 2)}), bytes(2))
    c["st_empty.safetensors"] = st("{}")
    # Names and metadata that would drive a terminal: open, shown escaped.
    c["st_hostile_names.safetensors"] = st(js({"__metadata__": {"\u001b]0;PWNED\u0007": "\u001b[31mred"},
                                   "x.\u001b[2J\u202e.w": ent("F32", [2], 0, 8)}), f32x2)
    # An ONNX model whose bytes 8 and 9 are '{"' (in its producer name):
    # still ONNX, not claimed as safetensors (its "header length" is past
    # the file and over 2^40).
    c["st_onnx_lookalike.onnx"] = model(graph(nodes=[node("Relu", ["x"], ["y"])]),
                                        producer='abcd{"x":1}')
    return c
