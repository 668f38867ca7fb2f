"""GGUF files written from the format's specification (llama.cpp's
docs/gguf.md and gguf-py's writer), with tensors quantised here from ggml's
reference (quantize_row_q8_0_ref, quantize_row_q4_0_ref) and K-quant blocks
of random bytes, and the values ggml's reference dequantisation gives
(dequantize_row_*), computed in float32 with numpy as ggml does in C.

gguf_gen.py OUTDIR writes into OUTDIR:
  small_v3.gguf, small_v2.gguf, small_v1.gguf  every metadata value type, an
      array of arrays, and f32 / f16 / bf16 / i32 / q8_0 / q4_0 / q4_1 / q5_0 /
      q5_1 / q2_K / q3_K / q4_K / q5_K / q6_K / q8_K tensors
  small_be.gguf  the v3 file written big-endian (gguf-py --bigendian)
  llama.gguf     a Llama-shaped model: token_embd, blk.0 .. blk.5, output
  llama_mixed.gguf  the same whose blk.3 holds q6_K where the others hold q4_K
  more_quants.gguf  q8_1 / iq4_nl / iq4_xs / tq1_0 / tq2_0 / mxfp4 blocks of random bytes
  expect.json    for each file: every key and value, every tensor's name,
                 dims (as the file lists them), type, offset, bytes, and the
                 first 64 dequantised values with min, max, mean
"""
import json
import struct
import sys

import numpy as np

V_U8, V_I8, V_U16, V_I16, V_U32, V_I32, V_F32, V_BOOL, V_STR, V_ARR, V_U64, V_I64, V_F64 = range(13)
SCALAR = {V_U8: "B", V_I8: "b", V_U16: "H", V_I16: "h", V_U32: "I", V_I32: "i", V_F32: "f",
          V_BOOL: "?", V_U64: "Q", V_I64: "q", V_F64: "d"}
# ggml type: number, block elements, bytes per block
TYPES = {"f32": (0, 1, 4), "f16": (1, 1, 2), "q4_0": (2, 32, 18), "q4_1": (3, 32, 20),
         "q5_0": (6, 32, 22), "q5_1": (7, 32, 24), "q8_0": (8, 32, 34), "q4_K": (12, 256, 144),
         "q6_K": (14, 256, 210), "q8_K": (15, 256, 292), "bf16": (30, 1, 2), "i32": (26, 1, 4),
         "q2_K": (10, 256, 84), "q3_K": (11, 256, 110), "q5_K": (13, 256, 176),
         "iq4_xs": (23, 256, 136), "q8_1": (9, 32, 36), "iq4_nl": (20, 32, 18),
         "tq1_0": (34, 256, 54), "tq2_0": (35, 256, 66), "mxfp4": (39, 32, 17)}


def f16(x):
    return np.float32(np.float16(x))


# ---- quantisers: ggml's reference, row by row of blocks ----

def quant_q8_0(x):
    out = bytearray()
    for b in x.reshape(-1, 32).astype(np.float32):
        amax = np.float32(np.max(np.abs(b)))
        d = np.float32(amax / np.float32(127))
        idd = np.float32(1) / d if d else np.float32(0)
        q = np.sign(b * idd) * np.floor(np.abs(b * idd) + np.float32(0.5))
        out += np.float16(d).tobytes() + q.astype(np.int8).tobytes()
    return bytes(out)


def quant_q4_0(x):
    out = bytearray()
    for b in x.reshape(-1, 32).astype(np.float32):
        i = int(np.argmax(np.abs(b)))
        mx = np.float32(b[i])
        d = np.float32(mx / np.float32(-8))
        idd = np.float32(1) / d if d else np.float32(0)
        q = np.minimum(np.int32(15), (b * idd + np.float32(8.5)).astype(np.int8).astype(np.int32))
        qs = (q[:16] | (q[16:] << 4)).astype(np.uint8)
        out += np.float16(d).tobytes() + qs.tobytes()
    return bytes(out)


def random_blocks(rng, t, n):
    """n blocks of type t of random bytes, their fp16 scales made finite."""
    _, blk, size = TYPES[t]
    raw = bytearray(rng.integers(0, 256, size=n * size, dtype=np.uint8).tobytes())
    def put16(off, lo, hi):
        raw[off:off + 2] = np.float16(rng.uniform(lo, hi)).tobytes()
    for k in range(n):
        o = k * size
        if t in ("q4_0", "q8_0", "q5_0"):
            put16(o, -0.1, 0.1)
        elif t in ("q4_1", "q5_1"):
            put16(o, 0.001, 0.1), put16(o + 2, -1, 1)
        elif t in ("q4_K", "q5_K"):
            put16(o, 0.001, 0.01), put16(o + 2, 0.001, 0.01)
        elif t == "q2_K":
            put16(o + 80, 0.001, 0.01), put16(o + 82, 0.001, 0.01)
        elif t == "q3_K":
            put16(o + 108, 0.0001, 0.01)
        elif t == "q6_K":
            put16(o + 208, 0.0001, 0.01)
        elif t == "q8_K":
            raw[o:o + 4] = np.float32(rng.uniform(0.001, 0.01)).tobytes()
        elif t in ("q8_1", "iq4_nl", "iq4_xs"):
            put16(o, 0.001, 0.1)
        elif t == "tq1_0":
            put16(o + 52, 0.001, 0.1)
        elif t == "tq2_0":
            put16(o + 64, 0.001, 0.1)
        elif t == "mxfp4":
            raw[o] = int(rng.integers(100, 140))
    return bytes(raw)


# ---- ggml's reference dequantisation, vectorised ----

def h(buf):
    return np.frombuffer(buf, dtype="<f2").astype(np.float32)


def dequant(t, raw, n):
    _, blk, size = TYPES[t]
    B = np.frombuffer(raw, dtype=np.uint8).reshape(-1, size)
    if t == "f32":
        return np.frombuffer(raw, dtype="<f4").astype(np.float32)
    if t == "f16":
        return np.frombuffer(raw, dtype="<f2").astype(np.float32)
    if t == "bf16":
        return (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
    if t == "i32":
        return np.frombuffer(raw, dtype="<i4").astype(np.float64)
    if t == "q8_0":
        d = h(B[:, 0:2].tobytes())[:, None]
        return (B[:, 2:].view(np.int8).astype(np.float32) * d).reshape(-1)
    if t in ("q4_0", "q4_1"):
        one = t == "q4_1"
        d = h(B[:, 0:2].tobytes())[:, None]
        qs = B[:, 4:] if one else B[:, 2:]
        lo, hi = (qs & 15).astype(np.int32), (qs >> 4).astype(np.int32)
        if one:
            m = h(B[:, 2:4].tobytes())[:, None]
            return np.concatenate([lo.astype(np.float32) * d + m, hi.astype(np.float32) * d + m], 1).reshape(-1)
        return np.concatenate([(lo - 8).astype(np.float32) * d, (hi - 8).astype(np.float32) * d], 1).reshape(-1)
    if t in ("q5_0", "q5_1"):
        one = t == "q5_1"
        d = h(B[:, 0:2].tobytes())[:, None]
        o = 4 if one else 2
        qh = B[:, o:o + 4].copy().view("<u4").astype(np.uint32)
        qs = B[:, o + 4:]
        j = np.arange(16, dtype=np.uint32)
        xh0 = ((qh >> j) << 4) & 0x10
        xh1 = (qh >> (j + 12)) & 0x10
        x0 = ((qs & 15).astype(np.uint32) | xh0).astype(np.int32)
        x1 = ((qs >> 4).astype(np.uint32) | xh1).astype(np.int32)
        if one:
            m = h(B[:, 2:4].tobytes())[:, None]
            return np.concatenate([x0.astype(np.float32) * d + m, x1.astype(np.float32) * d + m], 1).reshape(-1)
        return np.concatenate([(x0 - 16).astype(np.float32) * d, (x1 - 16).astype(np.float32) * d], 1).reshape(-1)
    if t == "q2_K":
        sc = B[:, 0:16].astype(np.int32)
        qs = B[:, 16:80].astype(np.int32)
        d, dmin = h(B[:, 80:82].tobytes())[:, None], h(B[:, 82:84].tobytes())[:, None]
        out = np.zeros((B.shape[0], 256), dtype=np.float32)
        y = 0
        for n in range(2):
            q = qs[:, 32 * n:32 * n + 32]
            for j in range(4):
                for half_ in range(2):
                    s_ = sc[:, 8 * n + 2 * j + half_][:, None]
                    dl, ml = d * (s_ & 15).astype(np.float32), dmin * (s_ >> 4).astype(np.float32)
                    out[:, y:y + 16] = dl * ((q[:, 16 * half_:16 * half_ + 16] >> (2 * j)) & 3).astype(np.float32) - ml
                    y += 16
        return out.reshape(-1)
    if t == "q3_K":
        hm = B[:, 0:32].astype(np.int32)
        qs = B[:, 32:96].astype(np.int32)
        raw = B[:, 96:108].copy()
        aux = raw.view("<u4").astype(np.uint32)  # three words a block
        a0, a1, tmp = aux[:, 0], aux[:, 1], aux[:, 2]
        k1, k2 = np.uint32(0x03030303), np.uint32(0x0f0f0f0f)
        w = np.stack([(a0 & k2) | (((tmp >> 0) & k1) << 4), (a1 & k2) | (((tmp >> 2) & k1) << 4),
                      ((a0 >> 4) & k2) | (((tmp >> 4) & k1) << 4), ((a1 >> 4) & k2) | (((tmp >> 6) & k1) << 4)], 1)
        scales = w.astype("<u4").view(np.int8).reshape(-1, 16).astype(np.int32)
        d = h(B[:, 108:110].tobytes())[:, None]
        out = np.zeros((B.shape[0], 256), dtype=np.float32)
        y, m, is_ = 0, 1, 0
        for n in range(2):
            q = qs[:, 32 * n:32 * n + 32]
            for j in range(4):
                for half_ in range(2):
                    dl = d * (scales[:, is_] - 32).astype(np.float32)[:, None]
                    sl = slice(16 * half_, 16 * half_ + 16)
                    v = ((q[:, sl] >> (2 * j)) & 3) - np.where(hm[:, sl] & m, 0, 4)
                    out[:, y:y + 16] = dl * v.astype(np.float32)
                    y += 16
                    is_ += 1
                m <<= 1
        return out.reshape(-1)
    if t == "q5_K":
        d = h(B[:, 0:2].tobytes())
        dmin = h(B[:, 2:4].tobytes())
        sc = B[:, 4:16].astype(np.int32)
        qh, ql = B[:, 16:48].astype(np.int32), B[:, 48:176].astype(np.int32)
        out = np.zeros((B.shape[0], 256), dtype=np.float32)
        def smk5(j):
            if j < 4:
                return sc[:, j] & 63, sc[:, j + 4] & 63
            return (sc[:, j + 4] & 15) | ((sc[:, j - 4] >> 6) << 4), (sc[:, j + 4] >> 4) | ((sc[:, j] >> 6) << 4)
        for g in range(4):
            s1, m1 = smk5(2 * g)
            s2, m2 = smk5(2 * g + 1)
            d1, mm1 = d * s1.astype(np.float32), dmin * m1.astype(np.float32)
            d2, mm2 = d * s2.astype(np.float32), dmin * m2.astype(np.float32)
            q = ql[:, 32 * g:32 * g + 32]
            u1, u2 = 1 << (2 * g), 2 << (2 * g)
            out[:, 64 * g:64 * g + 32] = d1[:, None] * ((q & 15) + np.where(qh & u1, 16, 0)).astype(np.float32) - mm1[:, None]
            out[:, 64 * g + 32:64 * g + 64] = d2[:, None] * ((q >> 4) + np.where(qh & u2, 16, 0)).astype(np.float32) - mm2[:, None]
        return out.reshape(-1)
    if t == "q4_K":
        d = h(B[:, 0:2].tobytes())
        dmin = h(B[:, 2:4].tobytes())
        sc = B[:, 4:16].astype(np.int32)
        qs = B[:, 16:]
        out = np.zeros((B.shape[0], 256), dtype=np.float32)
        def smk(j):
            if j < 4:
                return sc[:, j] & 63, sc[:, j + 4] & 63
            return (sc[:, j + 4] & 15) | ((sc[:, j - 4] >> 6) << 4), (sc[:, j + 4] >> 4) | ((sc[:, j] >> 6) << 4)
        for g in range(4):
            s1, m1 = smk(2 * g)
            s2, m2 = smk(2 * g + 1)
            d1, mm1 = d * s1.astype(np.float32), dmin * m1.astype(np.float32)
            d2, mm2 = d * s2.astype(np.float32), dmin * m2.astype(np.float32)
            q = qs[:, 32 * g:32 * g + 32]
            out[:, 64 * g:64 * g + 32] = d1[:, None] * (q & 15).astype(np.float32) - mm1[:, None]
            out[:, 64 * g + 32:64 * g + 64] = d2[:, None] * (q >> 4).astype(np.float32) - mm2[:, None]
        return out.reshape(-1)
    if t == "q6_K":
        ql, qh = B[:, 0:128].astype(np.int32), B[:, 128:192].astype(np.int32)
        sc = B[:, 192:208].view(np.int8).astype(np.float32)
        d = h(B[:, 208:210].tobytes())
        out = np.zeros((B.shape[0], 256), dtype=np.float32)
        for half_ in range(2):
            L, H, S, Y = ql[:, 64 * half_:], qh[:, 32 * half_:], sc[:, 8 * half_:], 128 * half_
            for l in range(32):
                is_ = l // 16
                q1 = ((L[:, l] & 15) | (((H[:, l] >> 0) & 3) << 4)) - 32
                q2 = ((L[:, l + 32] & 15) | (((H[:, l] >> 2) & 3) << 4)) - 32
                q3 = ((L[:, l] >> 4) | (((H[:, l] >> 4) & 3) << 4)) - 32
                q4 = ((L[:, l + 32] >> 4) | (((H[:, l] >> 6) & 3) << 4)) - 32
                out[:, Y + l] = d * S[:, is_] * q1.astype(np.float32)
                out[:, Y + l + 32] = d * S[:, is_ + 2] * q2.astype(np.float32)
                out[:, Y + l + 64] = d * S[:, is_ + 4] * q3.astype(np.float32)
                out[:, Y + l + 96] = d * S[:, is_ + 6] * q4.astype(np.float32)
        return out.reshape(-1)
    if t == "q8_K":
        d = B[:, 0:4].copy().view("<f4").reshape(-1, 1)
        return (d * B[:, 4:260].view(np.int8).astype(np.float32)).reshape(-1)
    if t == "q8_1":  # d, s (the codes' sum times d), 32 int8 codes: d * q
        d = h(B[:, 0:2].tobytes())[:, None]
        return (B[:, 4:].view(np.int8).astype(np.float32) * d).reshape(-1)
    if t in ("iq4_nl", "iq4_xs"):  # 4-bit indices into ggml's non-linear table
        out = []
        qs = B[:, 2:] if t == "iq4_nl" else B[:, 8:]
        d = h(B[:, 0:2].tobytes())
        groups = 1 if t == "iq4_nl" else 8
        for ib in range(groups):
            if t == "iq4_nl":
                dl = d
            else:
                sh = B[:, 2].astype(np.int32) | (B[:, 3].astype(np.int32) << 8)
                lo = (B[:, 4 + ib // 2].astype(np.int32) >> (4 * (ib % 2))) & 15
                ls = lo | (((sh >> (2 * ib)) & 3) << 4)
                dl = d * (ls - 32).astype(np.float32)
            q = qs[:, 16 * ib:16 * ib + 16]
            out.append(dl[:, None] * IQ4NL[q & 15])
            out.append(dl[:, None] * IQ4NL[q >> 4])
        return np.concatenate(out, axis=1).reshape(-1)
    if t == "mxfp4":  # an E8M0 scale, 32 E2M1 codes: value = e2m1 x 2^(e - 127)
        d = np.ldexp(np.float32(1), B[:, 0].astype(np.int32) - 128).astype(np.float32)
        q = B[:, 1:]
        return np.concatenate([d[:, None] * MXFP4[q & 15], d[:, None] * MXFP4[q >> 4]],
                              axis=1).reshape(-1)
    if t == "tq2_0":  # 2-bit codes 0..2 meaning -1, 0, 1, times d
        d = h(B[:, 64:66].tobytes())[:, None]
        qs = B[:, 0:64].astype(np.int32)
        parts = []
        for j in (0, 32):
            for l in range(4):
                parts.append(((qs[:, j:j + 32] >> (2 * l)) & 3) - 1)
        return (np.concatenate(parts, axis=1).astype(np.float32) * d).reshape(-1)
    if t == "tq1_0":  # five trits a byte (base-3 fixed point), four in each qh byte
        d = h(B[:, 52:54].tobytes())[:, None]
        qs, qh = B[:, 0:48].astype(np.int32), B[:, 48:52].astype(np.int32)
        parts = []

        def trit(x, n):
            q = (x * 3 ** n) & 255
            return ((q * 3) >> 8) - 1
        for n in range(5):
            parts.append(trit(qs[:, 0:32], n))
        for n in range(5):
            parts.append(trit(qs[:, 32:48], n))
        for n in range(4):
            parts.append(trit(qh, n))
        return (np.concatenate(parts, axis=1).astype(np.float32) * d).reshape(-1)
    raise ValueError(t)


# ggml's kvalues_iq4nl, and kvalues_mxfp4 (E2M1's values doubled; the
# scale halved to match).
IQ4NL = np.array([-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113],
                 dtype=np.float32)
MXFP4 = np.array([0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12], dtype=np.float32)


# ---- the writer ----

class W:
    def __init__(self, version=3, be=False, alignment=32):
        self.v, self.e, self.align = version, ">" if be else "<", alignment
        self.kv, self.tensors = [], []

    def n(self, x):  # a count or length
        return struct.pack(self.e + ("I" if self.v == 1 else "Q"), x)

    def s(self, x):
        b = x.encode() if isinstance(x, str) else x
        return self.n(len(b)) + b

    def val(self, t, x):
        if t == V_STR:
            return self.s(x)
        if t == V_ARR:
            et, items = x
            return struct.pack(self.e + "I", et) + self.n(len(items)) + b"".join(self.val(et, i) for i in items)
        return struct.pack(self.e + SCALAR[t], x)

    def add(self, key, t, x):
        self.kv.append((key, t, x))

    def tensor(self, name, dims, t, raw):
        self.tensors.append((name, dims, t, raw))

    def bytes(self):
        e = self.e
        out = bytearray(b"GGUF" + struct.pack(e + "I", self.v))
        out += self.n(len(self.tensors)) + self.n(len(self.kv))
        for k, t, x in self.kv:
            out += self.s(k) + struct.pack(e + "I", t) + self.val(t, x)
        offs, off = [], 0
        for name, dims, t, raw in self.tensors:
            offs.append(off)
            off += len(raw)
            off += (-off) % self.align
        for (name, dims, t, raw), o in zip(self.tensors, offs):
            out += self.s(name) + struct.pack(e + "I", len(dims))
            for d in dims:
                out += struct.pack(e + ("I" if self.v == 1 else "Q"), d)
            out += struct.pack(e + "I", TYPES[t][0]) + struct.pack(e + "Q", o)
        out += b"\0" * ((-len(out)) % self.align)
        self.data_start = len(out)
        for (name, dims, t, raw), o in zip(self.tensors, offs):
            out += b"\0" * (self.data_start + o - len(out))
            out += raw
        self.offs = offs
        return bytes(out)


def jsonable(t, x):
    if t == V_ARR:
        et, items = x
        return {"type": et, "items": [jsonable(et, i) for i in items]}
    if t == V_F32:
        return float(np.float32(x))
    return x


def record(w, data, vals):
    return {
        "version": w.v, "big_endian": w.e == ">", "data_start": w.data_start,
        "kv": [{"key": k, "type": t, "value": jsonable(t, x)} for k, t, x in w.kv],
        "tensors": [{"name": n, "dims": list(d), "type": t, "ggml": TYPES[t][0], "offset": o,
                     "bytes": len(raw), "values": vals[n]}
                    for (n, d, t, raw), o in zip(w.tensors, w.offs)],
        "size": len(data),
    }


def stats(v):
    v = np.asarray(v, dtype=np.float64)
    return {"first": [float(x) for x in v[:64]], "min": float(v.min()), "max": float(v.max()),
            "mean": float(v.mean()), "count": int(v.size)}


def small(version, be=False):
    rng = np.random.default_rng(7)
    w = W(version, be)
    w.add("general.architecture", V_STR, "llama")
    w.add("general.name", V_STR, "tiny test")
    w.add("general.file_type", V_U32, 7)
    w.add("general.alignment", V_U32, 32)
    w.add("t.u8", V_U8, 200)
    w.add("t.i8", V_I8, -100)
    w.add("t.u16", V_U16, 60000)
    w.add("t.i16", V_I16, -30000)
    w.add("t.u32", V_U32, 4000000000)
    w.add("t.i32", V_I32, -2000000000)
    w.add("t.f32", V_F32, 0.1)
    w.add("t.bool", V_BOOL, True)
    w.add("t.u64", V_U64, 2 ** 63 + 5)
    w.add("t.i64", V_I64, -(2 ** 62))
    w.add("t.f64", V_F64, 2.718281828459045)
    w.add("t.strings", V_ARR, (V_STR, ["a", "bc", "", "dé"]))
    w.add("t.nested", V_ARR, (V_ARR, [(V_I32, [1, 2, 3]), (V_STR, ["x"]), (V_ARR, [(V_U8, [9])])]))
    w.add("t.empty", V_ARR, (V_F32, []))
    w.add("llama.context_length", V_U32, 2048)
    w.add("llama.embedding_length", V_U32, 64)
    w.add("llama.block_count", V_U32, 1)
    w.add("tokenizer.ggml.tokens", V_ARR, (V_STR, ["tok%d" % i for i in range(300)]))
    vals = {}
    x = rng.standard_normal(64 * 8).astype(np.float32)
    specs = [("w.f32", [16, 4], "f32", x[:64].tobytes()),
             ("w.f16", [8, 8], "f16", x[:64].astype(np.float16).tobytes()),
             ("w.bf16", [64], "bf16", (x[:64].view(np.uint32) >> 16).astype(np.uint16).tobytes()),
             ("w.i32", [5], "i32", np.arange(-2, 3, dtype="<i4").tobytes()),
             ("w.q8_0", [64, 8], "q8_0", quant_q8_0(x)),
             ("w.q4_0", [64, 8], "q4_0", quant_q4_0(x))]
    for t, n in (("q4_1", 4), ("q5_0", 4), ("q5_1", 4), ("q2_K", 2), ("q3_K", 2), ("q4_K", 2),
                 ("q5_K", 2), ("q6_K", 2), ("q8_K", 1)):
        blk = TYPES[t][1]
        specs.append(("w." + t, [blk, n], t, random_blocks(rng, t, n)))
    for name, dims, t, raw in specs:
        vals[name] = stats(dequant(t, raw, int(np.prod(dims))))
        if be and t in ("f32", "f16", "bf16", "i32"):
            dt = {"f32": "f4", "f16": "f2", "bf16": "u2", "i32": "i4"}[t]
            raw = np.frombuffer(raw, dtype="<" + dt).astype(">" + dt).tobytes()
        w.tensor(name, dims, t, raw)
    vals["w.q8_0"]["source_max_err"] = float(np.max(np.abs(dequant("q8_0", quant_q8_0(x), 512) - x)))
    vals["w.q4_0"]["source_max_err"] = float(np.max(np.abs(dequant("q4_0", quant_q4_0(x), 512) - x)))
    vals["w.q8_0"]["source_amax"] = float(np.max(np.abs(x)))
    data = w.bytes()
    return data, record(w, data, vals)


def more_quants():
    """The types of ggml whose blocks need no lattice table: q8_1, iq4_nl,
    iq4_xs, tq1_0, tq2_0, mxfp4, random blocks with finite scales."""
    rng = np.random.default_rng(13)
    w = W(3)
    w.add("general.architecture", V_STR, "llama")
    w.add("general.name", V_STR, "more quants")
    w.add("general.file_type", V_U32, 30)
    w.add("tokenizer.ggml.tokens", V_ARR, (V_STR, ["a", "b", "c"]))
    vals = {}
    for t, n in (("q8_1", 4), ("iq4_nl", 4), ("iq4_xs", 2), ("tq1_0", 2), ("tq2_0", 2),
                 ("mxfp4", 4)):
        blk = TYPES[t][1]
        raw = random_blocks(rng, t, n)
        vals["w." + t] = stats(dequant(t, raw, blk * n))
        w.tensor("w." + t, [blk, n], t, raw)
    data = w.bytes()
    return data, record(w, data, vals)


def llama(mixed=False, nblk=6, dim=256, ff=512, vocab=32):
    rng = np.random.default_rng(11)
    w = W(3)
    w.add("general.architecture", V_STR, "llama")
    w.add("general.name", V_STR, "llama shaped")
    w.add("general.file_type", V_U32, 15)
    for k, v in (("context_length", 4096), ("embedding_length", dim), ("block_count", nblk),
                 ("feed_forward_length", ff), ("attention.head_count", 4),
                 ("attention.head_count_kv", 2), ("rope.dimension_count", dim // 4)):
        w.add("llama." + k, V_U32, v)
    w.add("llama.attention.layer_norm_rms_epsilon", V_F32, 1e-5)
    w.add("tokenizer.ggml.model", V_STR, "llama")
    w.add("tokenizer.ggml.tokens", V_ARR, (V_STR, ["t%d" % i for i in range(vocab)]))
    w.add("tokenizer.ggml.scores", V_ARR, (V_F32, [float(-i) for i in range(vocab)]))
    vals = {}

    def put(name, dims, t):
        n = int(np.prod(dims))
        if t == "f32":
            raw = rng.standard_normal(n).astype(np.float32).tobytes()
        else:
            raw = random_blocks(rng, t, n // TYPES[t][1])
        vals[name] = stats(dequant(t, raw, n))
        w.tensor(name, dims, t, raw)

    put("token_embd.weight", [dim, vocab], "q4_K")
    for b in range(nblk):
        q = "q6_K" if mixed and b == 3 else "q4_K"
        put("blk.%d.attn_norm.weight" % b, [dim], "f32")
        put("blk.%d.attn_q.weight" % b, [dim, dim], q)
        put("blk.%d.attn_k.weight" % b, [dim, dim // 2], q)
        put("blk.%d.attn_v.weight" % b, [dim, dim // 2], "q6_K")
        put("blk.%d.attn_output.weight" % b, [dim, dim], q)
        put("blk.%d.ffn_norm.weight" % b, [dim], "f32")
        put("blk.%d.ffn_gate.weight" % b, [dim, ff], q)
        put("blk.%d.ffn_up.weight" % b, [dim, ff], q)
        put("blk.%d.ffn_down.weight" % b, [ff, dim], "q6_K")
    put("output_norm.weight", [dim], "f32")
    put("output.weight", [dim, vocab], "q6_K")
    data = w.bytes()
    return data, record(w, data, vals)


def main():
    out = sys.argv[1]
    exp = {}
    for name, (data, rec) in (("small_v3.gguf", small(3)), ("small_v2.gguf", small(2)),
                              ("small_v1.gguf", small(1)), ("small_be.gguf", small(3, True)),
                              ("llama.gguf", llama()), ("llama_mixed.gguf", llama(True)),
                              ("more_quants.gguf", more_quants())):
        with open(out + "/" + name, "wb") as f:
            f.write(data)
        exp[name] = rec
    with open(out + "/expect.json", "w") as f:
        json.dump(exp, f)


if __name__ == "__main__":
    main()
