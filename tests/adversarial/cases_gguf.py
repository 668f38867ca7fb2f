"""cases_gguf.py - hostile GGUF files (issue 31): counts near 2^64 (tensors,
pairs, an array's items), string lengths past the end, arrays whose count x
item size overflows, arrays nested deep, dims whose product overflows or
that pass int64, offsets not aligned, past the end or overlapping, a
repeated key or tensor name, an unknown version, value type, ggml type or
alignment, a first dim that is no multiple of its block, more than four
dims, a file cut short; and well-formed ones (v1, big-endian, hostile
names, an unknown ggml type) that must open. Written byte by byte here with
the standard library. What each must do: expect_gguf.txt.
"""
import struct

U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)


class G:
    def __init__(self, version=3, e="<"):
        self.v, self.e = version, e

    def n(self, x):
        return struct.pack(self.e + ("I" if self.v == 1 else "Q"), x & ((1 << (32 if self.v == 1 else 64)) - 1))

    def u32(self, x):
        return struct.pack(self.e + "I", x & 0xFFFFFFFF)

    def u64(self, x):
        return struct.pack(self.e + "Q", x & ((1 << 64) - 1))

    def s(self, x):
        b = x.encode() if isinstance(x, str) else x
        return self.n(len(b)) + b

    def head(self, nt, nkv):
        return b"GGUF" + self.u32(self.v) + self.n(nt) + self.n(nkv)

    def kv(self, key, t, payload):
        return self.s(key) + self.u32(t) + payload

    def ti(self, name, dims, t, off):
        return (self.s(name) + self.u32(len(dims)) +
                b"".join((self.u32 if self.v == 1 else self.u64)(d) for d in dims) +
                self.u32(t) + self.u64(off))


def pad(b, a=32):
    return b + b"\0" * ((-len(b)) % a)


def model(g, kvs, tis, data=b"", align=32):
    """A whole file: header, pairs, infos, padding, data."""
    return pad(g.head(len(tis), len(kvs)) + b"".join(kvs) + b"".join(tis), align) + data


def small_cases():
    g = G()
    c = {}
    arch = g.kv("general.architecture", STR, g.s("llama"))
    f32 = struct.pack("<4f", 1.5, -2.0, 3.25, 0.0)
    c["gguf_ok.gguf"] = model(g, [arch], [g.ti("w", [4], 0, 0)], f32)
    c["gguf_magic_only.gguf"] = b"GGUF"
    c["gguf_version.gguf"] = g.head(0, 0)[:4] + g.u32(7) + g.head(0, 0)[8:]
    c["gguf_n_tensors_huge.gguf"] = g.head(2 ** 64 - 1, 0) + b"\0" * 64
    c["gguf_n_kv_huge.gguf"] = g.head(0, 2 ** 63) + b"\0" * 64
    c["gguf_key_past_end.gguf"] = g.head(0, 1) + g.n(2 ** 64 - 2) + b"abc" + b"\0" * 16
    c["gguf_str_past_end.gguf"] = g.head(0, 1) + g.s("k") + g.u32(STR) + g.n(1000) + b"short"
    c["gguf_value_type.gguf"] = g.head(0, 1) + g.s("k") + g.u32(13) + b"\0" * 16
    c["gguf_array_overflow.gguf"] = g.head(0, 1) + g.kv("k", ARR, g.u32(U64) + g.n(2 ** 61 + 1)) + b"\0" * 64
    c["gguf_array_strings.gguf"] = g.head(0, 1) + g.kv("k", ARR, g.u32(STR) + g.n(2 ** 62)) + b"\0" * 64
    nest = g.u32(I32) + g.n(0)
    for _ in range(100):
        nest = g.u32(ARR) + g.n(1) + nest
    c["gguf_nested_deep.gguf"] = g.head(0, 1) + g.kv("k", ARR, nest)
    c["gguf_dup_key.gguf"] = model(g, [arch, arch], [])
    c["gguf_alignment.gguf"] = model(g, [g.kv("general.alignment", U32, g.u32(24))], [])
    c["gguf_alignment_type.gguf"] = model(g, [g.kv("general.alignment", STR, g.s("32"))], [])
    c["gguf_dims_overflow.gguf"] = model(g, [], [g.ti("w", [2 ** 32, 2 ** 32, 2 ** 32], 0, 0)], f32)
    c["gguf_dim_int64.gguf"] = model(g, [], [g.ti("w", [2 ** 63], 0, 0)], f32)
    c["gguf_too_many_dims.gguf"] = model(g, [], [g.ti("w", [1, 1, 1, 1, 4], 0, 0)], f32)
    c["gguf_offset_unaligned.gguf"] = model(g, [], [g.ti("a", [4], 0, 0), g.ti("b", [1], 0, 8)], f32 + b"\0" * 32)
    c["gguf_offset_past_end.gguf"] = model(g, [], [g.ti("w", [4], 0, 2 ** 40)], f32)
    c["gguf_offset_wraps.gguf"] = model(g, [], [g.ti("w", [4], 0, 2 ** 64 - 32)], f32)
    c["gguf_data_past_end.gguf"] = model(g, [], [g.ti("w", [1000], 0, 0)], f32)
    c["gguf_overlap.gguf"] = model(g, [], [g.ti("a", [16], 0, 0), g.ti("b", [4], 0, 32)], f32 * 6)
    c["gguf_dup_name.gguf"] = model(g, [], [g.ti("w", [4], 0, 0), g.ti("w", [4], 0, 32)], pad(f32) + f32)
    c["gguf_block.gguf"] = model(g, [], [g.ti("w", [33], 2, 0)], b"\0" * 64)
    c["gguf_block_scalar.gguf"] = model(g, [], [g.ti("w", [], 8, 0)], b"\0" * 64)
    c["gguf_unknown_type.gguf"] = model(g, [arch], [g.ti("w", [4, 2], 45, 0), g.ti("v", [4], 0, 0)], f32)
    whole = model(g, [arch], [g.ti("w", [4], 0, 0)], f32)
    c["gguf_truncated.gguf"] = whole[:len(g.head(1, 1)) + len(arch) + 6]
    c["gguf_no_data.gguf"] = g.head(1, 0) + g.ti("w", [4], 0, 0)
    # well formed: version 1 (32-bit counts, lengths and dims), big-endian,
    # names that hold escape sequences and bidi controls, a q8_0 tensor
    g1 = G(1)
    c["gguf_v1.gguf"] = model(g1, [g1.kv("general.architecture", STR, g1.s("llama"))],
                              [g1.ti("w", [4], 0, 0)], f32)
    gb = G(3, ">")
    c["gguf_be.gguf"] = model(gb, [gb.kv("general.architecture", STR, gb.s("llama"))],
                              [gb.ti("w", [4], 0, 0)], struct.pack(">4f", 1.5, -2.0, 3.25, 0.0))
    evil = "\x1b]0;PWNED\x07\x1b[31m\u202e\u009b"
    q8 = struct.pack("<e", 0.5) + bytes(range(32))
    c["gguf_hostile_names.gguf"] = model(g, [g.kv("k" + evil, STR, g.s("v" + evil)), arch],
                                         [g.ti("blk.0." + evil, [32], 8, 0)], q8)
    return c
