#!/usr/bin/env python3
"""quant_gen.py packed OUTDIR - GPTQ and AWQ packed checkpoints written from the
layouts AutoGPTQ and AutoAWQ save (the int32 packing done here with torch),
as safetensors files (bytes written from the format's spec: the 8-byte
header length, the JSON header, the data) and as torch.save state_dicts,
and what a reader must find in them: OUTDIR/expect.json.

GPTQ packs along K: qweight [K*bits/32, N] int32, qzeros [K/g, N*bits/32]
int32, scales [K/g, N] float16, g_idx [K] int32. AWQ packs along N:
qweight [K, N*bits/32], qzeros [K/g, N*bits/32], scales [K/g, N]. The
numbers packed are random codes; the packing is a bit stream of `bits`-wide
codes, 32 to a word for 2, 4 and 8 bits and across words for 3 bits, as
AutoGPTQ's pack does.

  gptq.safetensors  Llama-shaped: two layers of 4-bit group 128 GPTQ
                    projections (q_proj with g_idx and a bias, down_proj
                    without g_idx), float16 norms, embedding and head
  gptq.pt           the same as a state_dict saved by torch.save
  gptq_mixed.pt     3-bit group 64 (with g_idx) and 8-bit group 32 layers
  awq.safetensors   two layers of 4-bit group 64 AWQ projections
  notpacked.safetensors  qweights whose shapes fit no packing (columns
                    neither the scales' nor giving 2, 3, 4 or 8 bits; AWQ's
                    ratio at 5 bits; qzeros' rows not the scales'; a g_idx
                    of another K): each stays the int32 tensor it is

quant_gen.py onnx OUTDIR - ONNX models of quantised weights written with
onnx's helper, and OUTDIR/expect.json:
  qdq.onnx     (opset 21) QDQ pairs: DequantizeLinear of an int8 weight
               (per tensor, a zero point), an INT4 one (per axis), a
               FLOAT8E4M3FN one, a UINT4 one in blocks of 32, each into a
               MatMul; ONNX Runtime runs it
  qdq_f4.onnx  (opset 23) a FLOAT4E2M1 weight's QDQ pair (ONNX Runtime's
               CPU DequantizeLinear has no FLOAT4E2M1: not run)
  mnb.onnx     com.microsoft MatMulNBits, K 64, N 32, 4 bits, block 32
The widths are the ONNX spec's (onnx.proto: INT4, UINT4 and FLOAT4E2M1
packed two to a byte); the payloads are random bytes.
"""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[2]
os.makedirs(out, exist_ok=True)
if sys.argv[1] == "packed":
    import torch
    g = torch.Generator().manual_seed(31)
    ST = {torch.float16: "F16", torch.int32: "I32", torch.float32: "F32"}


def pack(codes, bits, dim):
    """codes (int64, 0 .. 2^bits-1) packed along dim into int32 words."""
    c = codes.transpose(0, 1) if dim == 1 else codes
    k, n = c.shape
    words = torch.zeros((k * bits // 32 + 1, n), dtype=torch.int64)
    for i in range(k):
        p = i * bits
        w, s = p // 32, p % 32
        words[w] |= (c[i] << s) & 0xFFFFFFFF
        if s + bits > 32:
            words[w + 1] |= c[i] >> (32 - s)
    words = words[: k * bits // 32]
    words = torch.where(words >= 2 ** 31, words - 2 ** 32, words).to(torch.int32)
    return words.transpose(0, 1).contiguous() if dim == 1 else words


def codes(shape, bits):
    return torch.randint(0, 2 ** bits, shape, generator=g, dtype=torch.int64)


def half(*shape):
    return (torch.rand(shape, generator=g) * 0.02).to(torch.float16)


def gptq(sd, exp, prefix, k, n, bits, group, gidx=False, bias=False):
    sd[prefix + ".qweight"] = pack(codes((k, n), bits), bits, 0)
    sd[prefix + ".qzeros"] = pack(codes((k // group, n), bits), bits, 1)
    sd[prefix + ".scales"] = half(k // group, n)
    if gidx:
        sd[prefix + ".g_idx"] = (torch.arange(k) // group).to(torch.int32)
    if bias:
        sd[prefix + ".bias"] = half(n)
    exp["packed"].append({"name": prefix + ".qweight", "scheme": "GPTQ", "k": k, "n": n,
                          "bits": bits, "group": group})
    for part, word in (("qzeros", "zeros"), ("scales", "scales"), ("g_idx", "g_idx")):
        if prefix + "." + part in sd:
            exp["data"].append({"name": prefix + "." + part, "scheme": "GPTQ", "part": word})


def awq(sd, exp, prefix, k, n, bits, group):
    sd[prefix + ".qweight"] = pack(codes((k, n), bits), bits, 1)
    sd[prefix + ".qzeros"] = pack(codes((k // group, n), bits), bits, 1)
    sd[prefix + ".scales"] = half(k // group, n)
    exp["packed"].append({"name": prefix + ".qweight", "scheme": "AWQ", "k": k, "n": n,
                          "bits": bits, "group": group})
    exp["data"] += [{"name": prefix + ".qzeros", "scheme": "AWQ", "part": "zeros"},
                    {"name": prefix + ".scales", "scheme": "AWQ", "part": "scales"}]


def finish(sd, exp):
    """The counts a reader must find: parameters (K x N for each packed
    weight, the elements of every float tensor that is no packing's data),
    bytes of every tensor, and those of layer 0."""
    data = {d["name"] for d in exp["data"]}
    packed = {p["name"]: p["k"] * p["n"] for p in exp["packed"]}
    def count(nm, t):
        return packed.get(nm, 0 if nm in data or not t.is_floating_point() else t.numel())
    exp["params"] = sum(count(nm, t) for nm, t in sd.items())
    exp["bytes"] = sum(t.numel() * t.element_size() for t in sd.values())
    exp["layer0_params"] = sum(count(nm, t) for nm, t in sd.items() if nm.startswith("model.layers.0."))
    exp["tensors"] = len(sd)
    return exp


def write_st(path, sd):
    hdr, off, blobs = {}, 0, []
    for nm, t in sd.items():
        b = t.numpy().astype("<i4" if t.dtype == torch.int32 else "<f2").tobytes()
        hdr[nm] = {"dtype": ST[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))


def llama(kind):
    sd, exp = {}, {"packed": [], "data": []}
    H, F, V = 256, 512, 64
    sd["model.embed_tokens.weight"] = half(V, H)
    for layer in range(2):
        p = "model.layers.%d." % layer
        sd[p + "input_layernorm.weight"] = half(H)
        if kind == "gptq":
            gptq(sd, exp, p + "self_attn.q_proj", H, H, 4, 128, gidx=True, bias=True)
            gptq(sd, exp, p + "mlp.down_proj", F, H, 4, 128)
        elif kind == "mixed":
            gptq(sd, exp, p + "self_attn.q_proj", H, H, 3, 64, gidx=True)
            gptq(sd, exp, p + "mlp.down_proj", F, H, 8, 32)
        else:
            awq(sd, exp, p + "self_attn.q_proj", H, 128, 4, 64)
            awq(sd, exp, p + "mlp.down_proj", F, H, 4, 64)
    sd["model.norm.weight"] = half(H)
    sd["lm_head.weight"] = half(V, H)
    return sd, finish(sd, exp)


def packed():
    expect = {}
    sd, e = llama("gptq")
    write_st(out + "/gptq.safetensors", sd)
    torch.save(sd, out + "/gptq.pt")
    expect["gptq.safetensors"] = expect["gptq.pt"] = e
    sd, e = llama("mixed")
    torch.save(sd, out + "/gptq_mixed.pt")
    expect["gptq_mixed.pt"] = e
    sd, e = llama("awq")
    write_st(out + "/awq.safetensors", sd)
    expect["awq.safetensors"] = e
    # 100 columns against the scales' 128: no GPTQ (not equal), no AWQ
    # (100 x 32 / 128 = 25 bits).
    # y: GPTQ's columns, but qzeros with a row more than scales; z: AWQ's
    # ratio would be 5 bits (qweight [K, N*5/32]); w: g_idx of another K.
    sd = {"x.qweight": torch.zeros((32, 100), dtype=torch.int32), "x.scales": half(2, 128),
          "y.qweight": torch.zeros((16, 64), dtype=torch.int32), "y.scales": half(1, 64),
          "y.qzeros": torch.zeros((2, 8), dtype=torch.int32),
          "z.qweight": torch.zeros((64, 10), dtype=torch.int32), "z.scales": half(1, 64),
          "w.qweight": torch.zeros((16, 64), dtype=torch.int32), "w.scales": half(1, 64),
          "w.g_idx": torch.zeros(100, dtype=torch.int32)}
    write_st(out + "/notpacked.safetensors", sd)
    expect["notpacked.safetensors"] = finish(sd, {"packed": [], "data": []})
    with open(out + "/expect.json", "w") as f:
        json.dump(expect, f, indent=1)


def onnx_models():
    import onnx
    from onnx import helper, TensorProto as T
    rng = np.random.default_rng(7)
    K, N = 64, 32
    # The ONNX element types by number and width (onnx.proto's DataType).
    DT = {"int8": (3, 8), "uint8": (2, 8), "int4": (22, 4), "uint4": (21, 4),
          "float8e4m3fn": (17, 8), "float4e2m1": (23, 4)}
    st = {}

    def fresh():
        st.update(inits=[], nodes=[], outs=[], exp={"weights": {}, "data": {}})

    def raw_tensor(name, dtype, dims, nbytes):
        t = T()
        t.name, t.data_type = name, DT[dtype][0]
        t.dims.extend(dims)
        t.raw_data = rng.integers(0, 256, nbytes, dtype=np.uint8).tobytes()
        return t

    def f32(name, arr):
        return helper.make_tensor(name, T.FLOAT, arr.shape, arr.ravel().tolist())

    def qdq(tag, dtype, scale_shape, zp=False, **attrs):
        n = K * N
        nbytes = (n * DT[dtype][1] + 7) // 8
        st["inits"].append(raw_tensor("w_" + tag, dtype, [K, N], nbytes))
        sc = rng.uniform(0.001, 0.01, scale_shape).astype(np.float32)
        st["inits"].append(f32("s_" + tag, sc))
        ins = ["w_" + tag, "s_" + tag]
        st["exp"]["weights"]["w_" + tag] = {
            "type": dtype + (" (QDQ, block %d)" % attrs["block_size"] if "block_size" in attrs else " (QDQ)"),
            "bits": DT[dtype][1], "elems": n, "bytes": nbytes}
        st["exp"]["data"]["s_" + tag] = {"type": "float32 (QDQ scale)", "bytes": sc.nbytes}
        if zp:
            zn = int(np.prod(scale_shape)) if scale_shape else 1
            zb = (zn * DT[dtype][1] + 7) // 8
            st["inits"].append(raw_tensor("z_" + tag, dtype, list(scale_shape), zb))
            ins.append("z_" + tag)
            st["exp"]["data"]["z_" + tag] = {"type": dtype + " (QDQ zero point)", "bytes": zb}
        st["nodes"].append(helper.make_node("DequantizeLinear", ins, ["d_" + tag], name="dq_" + tag, **attrs))
        st["nodes"].append(helper.make_node("MatMul", ["X", "d_" + tag], ["y_" + tag], name="mm_" + tag))
        st["outs"].append("y_" + tag)

    def save(name, opsets):
        outs = st["outs"]
        if len(outs) > 1:
            st["nodes"].append(helper.make_node("Sum", outs, ["Y"], name="sum"))
        else:
            st["nodes"][-1].output[0] = "Y"
        g_ = helper.make_graph(st["nodes"], "g", [helper.make_tensor_value_info("X", T.FLOAT, [2, K])],
                               [helper.make_tensor_value_info("Y", T.FLOAT, [2, N])], st["inits"])
        m = helper.make_model(g_, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
        m.ir_version = 11 if opsets[0][1] >= 23 else 10
        with open(out + "/" + name, "wb") as f:
            f.write(m.SerializeToString())
        return st["exp"]

    expect = {}
    fresh()
    qdq("i8", "int8", [], zp=True)
    qdq("i4", "int4", [N], zp=True, axis=1)
    qdq("f8", "float8e4m3fn", [])
    qdq("u4b", "uint4", [K // 32, N], zp=True, axis=0, block_size=32)
    expect["qdq.onnx"] = save("qdq.onnx", [("", 21)])
    fresh()
    qdq("f4", "float4e2m1", [])
    expect["qdq_f4.onnx"] = save("qdq_f4.onnx", [("", 23)])
    # MatMulNBits: B [N, K/block, block*bits/8] uint8, scales [N*K/block].
    fresh()
    bs, nb = 32, K // 32
    b_bytes = N * nb * bs * 4 // 8
    st["inits"].append(raw_tensor("B", "uint8", [N, nb, bs * 4 // 8], b_bytes))
    sc = rng.uniform(0.001, 0.01, N * nb).astype(np.float32)
    st["inits"].append(f32("scales", sc))
    st["nodes"].append(helper.make_node("MatMulNBits", ["X", "B", "scales"], ["Y"], domain="com.microsoft",
                                        K=K, N=N, bits=4, block_size=bs, name="fc"))
    st["exp"]["weights"]["B"] = {"type": "int4 (MatMulNBits, block 32)", "bits": 4, "elems": K * N,
                                 "bytes": b_bytes}
    st["exp"]["data"]["scales"] = {"type": "float32 (MatMulNBits scales)", "bytes": sc.nbytes}
    expect["mnb.onnx"] = save("mnb.onnx", [("", 21), ("com.microsoft", 1)])
    with open(out + "/expect.json", "w") as f:
        json.dump(expect, f, indent=1)


packed() if sys.argv[1] == "packed" else onnx_models()
