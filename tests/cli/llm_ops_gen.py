#!/usr/bin/env python3
"""Models of the operators transformer exports use, for ONNX Runtime to run:
ONNX's newer ones (opsets 18 to 23: Attention with and without its KV cache,
3-D and 4-D, RotaryEmbedding, RMSNormalization, GroupNormalization, Col2Im,
the Reduce ops with axes as an input, DFT with dft_length and axis as
inputs, STFT, Cast to and QuantizeLinear / DequantizeLinear through int4,
uint4 and float8 with block quantisation) and ONNX Runtime's com.microsoft
contrib operators (MatMulNBits, FusedMatMul, DynamicQuantizeMatMul,
QuickGelu, BiasGelu, SkipLayerNormalization,
SkipSimplifiedLayerNormalization, RotaryEmbedding, MultiHeadAttention,
GroupQueryAttention, Attention, QAttention, QMoE).

usage: llm_ops_gen.py OUTDIR
writes OUTDIR/llm_*.onnx. onnx 1.12's helper writes them, the opset
versions and the com.microsoft domain set by hand (its checker knows
neither opset 23 nor the contrib ops, so it is not run). Inputs have named
dims where ONNX Runtime's run does not depend on their values (ort_oracle.py
binds them); a GroupQueryAttention's sequence lengths are data, so its
models are all numbers, with those lengths as initializers."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(30)
MS = "com.microsoft"
# element types onnx 1.12's TensorProto does not name
FLOAT8E4M3FN, FLOAT8E5M2, UINT4, INT4 = 17, 19, 21, 22
# (float4e2m1, 23: ONNX Runtime 1.30's CPU provider has no Cast to it, so no
# model here has one)


def const(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def f32(name, *shape):
    return const(name, rng.standard_normal(shape).astype(np.float32))


def vi(name, et, dims):
    return h.make_tensor_value_info(name, et, dims)


def save(fname, nodes, inputs, outputs, inits=(), opset=23, ms=False):
    g = h.make_graph(nodes, fname[:-5], inputs, [h.make_tensor_value_info(o, 0, None)
                                                 for o in outputs], list(inits))
    # no type on the outputs: what they are is for the oracle to say
    for o in g.output:
        o.ClearField("type")
    ops = [h.make_opsetid("", opset)]
    if ms:
        ops.append(h.make_opsetid(MS, 1))
    m = h.make_model(g, opset_imports=ops, producer_name="llm_ops_gen")
    m.ir_version = 10 if opset >= 21 else 8
    onnx.save(m, os.path.join(out, fname))


# ---- ONNX, opset 23 ----

# Attention, 4-D, grouped (4 query heads over 2 KV heads), with a past
save("llm_attention4d.onnx", [
    h.make_node("Attention", ["q", "k", "v", "", "past_k", "past_v"],
                ["y", "present_k", "present_v", "qk"], name="attn", is_causal=0),
], [vi("q", T.FLOAT, ["B", 4, "S", 8]), vi("k", T.FLOAT, ["B", 2, "L", 8]),
    vi("v", T.FLOAT, ["B", 2, "L", 6]), vi("past_k", T.FLOAT, ["B", 2, "P", 8]),
    vi("past_v", T.FLOAT, ["B", 2, "P", 6])], ["y", "present_k", "present_v", "qk"])

# Attention, 3-D: heads from q_num_heads and kv_num_heads; a mask
save("llm_attention3d.onnx", [
    h.make_node("Attention", ["q", "k", "v", "mask"], ["y"], name="attn3",
                q_num_heads=4, kv_num_heads=2),
    h.make_node("Attention", ["q", "k", "v"], ["y2", "pk2", "pv2"], name="attn3c",
                q_num_heads=4, kv_num_heads=2, is_causal=1),
], [vi("q", T.FLOAT, ["B", "S", 32]), vi("k", T.FLOAT, ["B", "L", 16]),
    vi("v", T.FLOAT, ["B", "L", 12]), vi("mask", T.FLOAT, ["S", "L"])], ["y", "y2", "pk2", "pv2"])

# RotaryEmbedding (4-D with position_ids, 3-D with num_heads), RMSNormalization,
# GroupNormalization (21)
save("llm_norms.onnx", [
    h.make_node("RotaryEmbedding", ["x4", "cos", "sin", "pos"], ["r4"], name="rope4"),
    h.make_node("RotaryEmbedding", ["x3", "cos", "sin", "pos"], ["r3"], name="rope3",
                num_heads=2, interleaved=1),
    h.make_node("RMSNormalization", ["x3", "g16"], ["rms"], name="rms", axis=-1),
    h.make_node("GroupNormalization", ["img", "gs", "gb"], ["gn"], name="gn", num_groups=2),
], [vi("x4", T.FLOAT, ["B", 2, "S", 8]), vi("x3", T.FLOAT, ["B", "S", 16]),
    vi("pos", T.INT64, ["B", "S"]), vi("img", T.FLOAT, ["B", 4, 5, 6])],
    ["r4", "r3", "rms", "gn"], [f32("cos", 16, 4), f32("sin", 16, 4), f32("g16", 16),
                                 f32("gs", 4), f32("gb", 4)])

# Reduce* with axes as an input (opset 18), keepdims both ways, an empty axes
# input with noop_with_empty_axes
reduce_nodes = []
for i, op in enumerate(["ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                        "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare",
                        "ReduceSum"]):
    reduce_nodes.append(h.make_node(op, ["x", "ax%d" % (i % 3)], ["r_%s" % op], name=op,
                                    keepdims=i % 2))
reduce_nodes.append(h.make_node("ReduceMean", ["x", "none"], ["r_noop"], name="noop",
                                noop_with_empty_axes=1))
reduce_nodes.append(h.make_node("ReduceMax", ["x"], ["r_all"], name="all", keepdims=0))
save("llm_reduce18.onnx", reduce_nodes, [vi("x", T.FLOAT, ["B", 3, "S", 4])],
     [n.output[0] for n in reduce_nodes],
     [const("ax0", np.array([1], np.int64)), const("ax1", np.array([-1, 0], np.int64)),
      const("ax2", np.array([2, 1], np.int64)), const("none", np.array([], np.int64))], opset=18)

# Col2Im (18): 2 channels of 2x3 blocks folded into a 5x6 image
save("llm_col2im.onnx", [
    h.make_node("Col2Im", ["cols", "ishape", "bshape"], ["img"], name="col2im"),
], [vi("cols", T.FLOAT, ["N", 12, 16])], ["img"],
    [const("ishape", np.array([5, 6], np.int64)), const("bshape", np.array([2, 3], np.int64))],
    opset=18)

# DFT (20): dft_length and axis as inputs, onesided and inverse; STFT (17)
save("llm_dft20.onnx", [
    h.make_node("DFT", ["sig", "n16", "ax1"], ["d1"], name="dft_len"),
    h.make_node("DFT", ["sig", "", "ax1"], ["d2"], name="dft_one", onesided=1),
    h.make_node("DFT", ["d2", "", "ax1"], ["d3"], name="dft_inv", inverse=1),
    h.make_node("DFT", ["sig2"], ["d4"], name="dft_default"),
    h.make_node("STFT", ["sig3", "step", "win"], ["st"], name="stft"),
], [vi("sig", T.FLOAT, ["B", 12, 1]), vi("sig2", T.FLOAT, ["B", 10, 7, 2]),
    vi("sig3", T.FLOAT, ["B", 64, 1])], ["d1", "d2", "d3", "d4", "st"],
    [const("n16", np.array(16, np.int64)), const("ax1", np.array(1, np.int64)),
     const("step", np.array(8, np.int64)),
     const("win", np.hanning(16).astype(np.float32))], opset=20)

# float8, int4 and uint4 through Cast, QuantizeLinear (output_dtype, blocks)
# and DequantizeLinear; each chain ends in float so that the value can be
# fetched whatever ONNX Runtime's Node.js binding returns
qdq = [
    h.make_node("Cast", ["x", ], ["c8"], name="to_f8", to=FLOAT8E4M3FN),
    h.make_node("Cast", ["c8"], ["c8f"], name="f8_back", to=T.FLOAT),
    h.make_node("Cast", ["x"], ["c5"], name="to_e5m2", to=FLOAT8E5M2),
    h.make_node("Cast", ["c5"], ["c5f"], name="e5m2_back", to=T.FLOAT16),
    h.make_node("Cast", ["x"], ["c4"], name="to_i4", to=INT4),
    h.make_node("Cast", ["c4"], ["c4f"], name="i4_back", to=T.FLOAT),
    h.make_node("QuantizeLinear", ["x", "s1"], ["q_u4"], name="q_u4", output_dtype=UINT4),
    h.make_node("DequantizeLinear", ["q_u4", "s1"], ["dq_u4"], name="dq_u4"),
    h.make_node("QuantizeLinear", ["w", "sblk", "zblk"], ["q_blk"], name="q_blk", axis=1,
                block_size=4),
    h.make_node("DequantizeLinear", ["q_blk", "sblk", "zblk"], ["dq_blk"], name="dq_blk",
                axis=1, block_size=4),
    h.make_node("QuantizeLinear", ["x", "s1"], ["q_f8"], name="q_f8",
                output_dtype=FLOAT8E4M3FN),
    h.make_node("DequantizeLinear", ["q_f8", "s1"], ["dq_f8"], name="dq_f8"),
    h.make_node("QuantizeLinear", ["x", "s1", "z8"], ["q_i8"], name="q_i8"),
    h.make_node("DequantizeLinear", ["q_i8", "s1h", "z8"], ["dq_i8"], name="dq_i8"),
]
zblk = T(name="zblk", data_type=INT4, dims=[6, 2], raw_data=bytes(6))  # 12 packed zeros
save("llm_lowbits.onnx", qdq, [vi("x", T.FLOAT, ["B", "S"])],
     ["c8f", "c5f", "c4f", "dq_u4", "dq_blk", "dq_f8", "dq_i8", "q_i8"],
     [const("s1", np.array(0.05, np.float32)), const("s1h", np.array(0.05, np.float16)),
      const("z8", np.array(3, np.int8)), f32("w", 6, 8),
      const("sblk", np.full((6, 2), 0.1, np.float32)), zblk])

# What changed in opsets 18 to 20 for ops older than that: Split's
# num_outputs (an uneven last piece), Pad's axes input, Resize's axes and
# keep_aspect_ratio_policy, AveragePool's dilations, LpPool's ceil_mode;
# and DeformConv (19) and AffineGrid (20)
save("llm_opset18.onnx", [
    h.make_node("Split", ["x"], ["p0", "p1", "p2"], name="split3", axis=1, num_outputs=3),
    h.make_node("Pad", ["img", "pads", "", "pad_axes"], ["padded"], name="pad_axes"),
    h.make_node("Resize", ["img", "", "", "rsizes"], ["rs"], name="resize_axes", axes=[2, 3],
                keep_aspect_ratio_policy="not_larger"),
    h.make_node("Resize", ["img", "", "", "rsizes2"], ["rs2"], name="resize_ns", axes=[3, 2],
                keep_aspect_ratio_policy="not_smaller"),
    h.make_node("AveragePool", ["img"], ["ap"], name="avgpool_dil", kernel_shape=[2, 2],
                dilations=[2, 1]),
    h.make_node("LpPool", ["img"], ["lp"], name="lppool_ceil", kernel_shape=[2, 2],
                strides=[2, 2], ceil_mode=1),
    h.make_node("DeformConv", ["img", "dw", "doff"], ["dc"], name="deform", kernel_shape=[3, 3]),
    h.make_node("AffineGrid", ["theta", "gsize"], ["grid"], name="affine"),
], [vi("x", T.FLOAT, ["B", 10]), vi("img", T.FLOAT, [2, 4, 7, 9]),
    vi("theta", T.FLOAT, [2, 2, 3])],
    ["p0", "p1", "p2", "padded", "rs", "rs2", "ap", "lp", "dc", "grid"],
    [const("pads", np.array([1, 2, 0, 3], np.int64)), const("pad_axes", np.array([1, 3], np.int64)),
     const("rsizes", np.array([14, 12], np.int64)), const("rsizes2", np.array([10, 30], np.int64)), f32("dw", 5, 4, 3, 3),
     f32("doff", 2, 18, 5, 7), const("gsize", np.array([2, 3, 6, 5], np.int64))], opset=20)

# the text ops of opset 20: StringConcat broadcasts, RegexFullMatch is a
# boolean per element, StringSplit adds an axis as long as the most pieces
# (the data's: llm_ops_check.py knows that dim is not nnav's to know)
save("llm_text20.onnx", [
    h.make_node("StringConcat", ["t", "t1"], ["cat"], name="concat"),
    h.make_node("RegexFullMatch", ["cat"], ["match"], name="regex", pattern="mon.*"),
    h.make_node("StringSplit", ["cat"], ["split_y", "split_z"], name="split", delimiter="n"),
], [vi("t", T.STRING, ["B", 3]), vi("t1", T.STRING, [3])], ["cat", "match", "split_y", "split_z"],
    opset=20)

# ---- com.microsoft ----


def nbits_weight(n, k, block, bits=4):
    kb = (k + block - 1) // block
    return (const("B", rng.integers(0, 255, (n, kb, block * bits // 8), dtype=np.uint8)),
            const("scales", np.full((n, kb), 0.01, np.float32)))


b_, sc_ = nbits_weight(32, 64, 32)
b2, sc2 = nbits_weight(24, 40, 16, bits=8)
b2.name, sc2.name = "B2", "scales2"
save("llm_ms_matmul.onnx", [
    h.make_node("MatMulNBits", ["a", "B", "scales"], ["y"], name="nbits", domain=MS, K=64, N=32,
                bits=4, block_size=32),
    h.make_node("MatMulNBits", ["a2", "B2", "scales2", "", "", "bias24"], ["y2"], name="nbits8",
                domain=MS, K=40, N=24, bits=8, block_size=16),
    h.make_node("FusedMatMul", ["fa", "fb"], ["f0"], name="fused", domain=MS, alpha=0.5),
    h.make_node("FusedMatMul", ["fa", "fbt"], ["f1"], name="fused_tb", domain=MS, transB=1),
    h.make_node("FusedMatMul", ["fat", "fb"], ["f2"], name="fused_ta", domain=MS, transA=1),
    h.make_node("FusedMatMul", ["fab", "fb3"], ["f3"], name="fused_tba", domain=MS, transBatchA=1),
    h.make_node("FusedMatMul", ["fab2", "fb3"], ["f4"], name="fused_tba_ta", domain=MS,
                transBatchA=1, transA=1),
    h.make_node("FusedMatMul", ["fab", "fbb"], ["f5"], name="fused_tbb", domain=MS,
                transBatchA=1, transBatchB=1, transB=1),
    h.make_node("DynamicQuantizeMatMul", ["a", "qb", "qbs", "qbz"], ["dq"], name="dqmm",
                domain=MS),
    h.make_node("QuickGelu", ["y"], ["qg"], name="quickgelu", domain=MS, alpha=1.702),
    h.make_node("BiasGelu", ["y", "bias32"], ["bg"], name="biasgelu", domain=MS),
], [vi("a", T.FLOAT, ["B", "S", 64]), vi("a2", T.FLOAT, ["M", 40]),
    vi("fa", T.FLOAT, ["B", 5, 6]), vi("fb", T.FLOAT, [6, 7]), vi("fbt", T.FLOAT, [7, 6]),
    vi("fat", T.FLOAT, ["B", 6, 5]), vi("fab", T.FLOAT, [3, "B", 6]),
    vi("fab2", T.FLOAT, [6, "B", 4]), vi("fb3", T.FLOAT, ["B", 6, 7]),
    vi("fbb", T.FLOAT, [7, "B", 6])],
    ["y", "y2", "f0", "f1", "f2", "f3", "f4", "f5", "dq", "qg", "bg"],
    [b_, sc_, b2, sc2, f32("bias24", 24), f32("bias32", 32),
     const("qb", rng.integers(-100, 100, (64, 16), dtype=np.int8)),
     const("qbs", np.array([0.02], np.float32)), const("qbz", np.array([0], np.int8))], ms=True)

# norms and rotary
save("llm_ms_norms.onnx", [
    h.make_node("SkipLayerNormalization", ["x", "skip", "g", "b", "bias"],
                ["sln", "mean", "inv", "sum"], name="sln", domain=MS, epsilon=1e-5),
    h.make_node("SkipSimplifiedLayerNormalization", ["x", "skip", "g"], ["ssln", "", "", "ssum"],
                name="ssln", domain=MS, epsilon=1e-5),
    h.make_node("SkipLayerNormalization", ["x", "skip", "g"], ["sln2"], name="sln_plain",
                domain=MS),
    h.make_node("SkipLayerNormalization", ["x16", "x16", "g16"], ["sln16", "mean16", "inv16"],
                name="sln_half", domain=MS),
    h.make_node("RotaryEmbedding", ["x", "pos", "cos", "sin"], ["rope"], name="rope", domain=MS,
                num_heads=2),
    h.make_node("RotaryEmbedding", ["x4", "pos", "cos", "sin"], ["rope4"], name="rope4",
                domain=MS, interleaved=1),
], [vi("x", T.FLOAT, ["B", "S", 16]), vi("skip", T.FLOAT, ["B", "S", 16]),
    vi("pos", T.INT64, ["B", "S"]), vi("x4", T.FLOAT, ["B", 2, "S", 8]),
    vi("x16", T.FLOAT16, ["B", "S", 16])],
    ["sln", "mean", "inv", "sum", "ssln", "ssum", "sln2", "sln16", "mean16", "inv16", "rope",
     "rope4"],
    [const("g16", np.ones(16, np.float16)), f32("g", 16), f32("b", 16), f32("bias", 16), f32("cos", 32, 4), f32("sin", 32, 4)], ms=True)

# more of the activations ONNX Runtime fuses (its GemmFastGelu has no CPU
# kernel, so no rule either), and its SimplifiedLayerNormalization,
# which it registers in the default domain (RMS norm exports before opset 23)
save("llm_ms_fused.onnx", [
    h.make_node("FastGelu", ["x", "b"], ["fg"], name="fastgelu", domain=MS),
    h.make_node("Gelu", ["x"], ["gl"], name="gelu", domain=MS),
    h.make_node("SimplifiedLayerNormalization", ["x", "b"], ["sl", "sl_inv"], name="simplified",
                axis=-1, epsilon=1e-6),
], [vi("x", T.FLOAT, ["B", "S", 16])], ["fg", "gl", "sl", "sl_inv"],
    [f32("b", 16)], opset=17, ms=True)

# MultiHeadAttention: self with a past; cross with BNSH key and value (ONNX
# Runtime's CPU kernel has no packed KV)
save("llm_ms_mha.onnx", [
    h.make_node("MultiHeadAttention", ["q", "k", "v", "", "", "", "pk", "pv"],
                ["o", "present_k", "present_v"], name="mha", domain=MS, num_heads=4),
    h.make_node("MultiHeadAttention", ["q", "kb", "vb"], ["o2"], name="mha_cross", domain=MS,
                num_heads=4),
], [vi("q", T.FLOAT, ["B", "S", 32]), vi("k", T.FLOAT, ["B", "L", 32]),
    vi("v", T.FLOAT, ["B", "L", 32]), vi("pk", T.FLOAT, ["B", 4, "P", 8]),
    vi("pv", T.FLOAT, ["B", 4, "P", 8]), vi("kb", T.FLOAT, ["B", 4, "T", 8]),
    vi("vb", T.FLOAT, ["B", 4, "T", 8])],
    ["o", "present_k", "present_v", "o2"], ms=True)

# Attention (merged QKV weights), with a past; QAttention
save("llm_ms_attention.onnx", [
    h.make_node("Attention", ["x", "w", "bias"], ["o", "present"], name="attn", domain=MS,
                num_heads=3),
    h.make_node("Attention", ["x", "w", "bias", "", "past"], ["o2", "present2"], name="attn_past",
                domain=MS, num_heads=3),
    h.make_node("Attention", ["x", "w2", "bias2"], ["o3"], name="attn_sizes", domain=MS,
                num_heads=3, qkv_hidden_sizes=[24, 24, 12]),
    h.make_node("QAttention", ["xq", "wq", "bias", "xs", "ws", "", "xz", "wz"],
                ["oq", "presentq"], name="qattn", domain=MS, num_heads=3),
], [vi("x", T.FLOAT, ["B", "S", 24]), vi("past", T.FLOAT, [2, "B", 3, "P", 8]),
    vi("xq", T.UINT8, ["B", "S", 24])],
    ["o", "present", "o2", "present2", "o3", "oq", "presentq"],
    [f32("w", 24, 72), f32("bias", 72), f32("w2", 24, 60), f32("bias2", 60),
     const("wq", rng.integers(0, 255, (24, 72), dtype=np.uint8)),
     const("xs", np.array(0.02, np.float32)), const("ws", np.array(0.01, np.float32)),
     const("xz", np.array(128, np.uint8)), const("wz", np.array(128, np.uint8))], ms=True)


# GroupQueryAttention: the lengths are data (seqlens_k, total_sequence_length),
# so these models have numbers for dims. S=3, 4 query heads and 2 KV heads of
# 8: a prompt of batch 2 (no past); a step after a past of 4, and one with a
# buffer of 10 shared with the past (batch 1: ONNX Runtime takes more than one
# new token after a past only then), both with output_qk; a packed QKV.
def gqa(fname, past, total, packed=False):
    B = 1 if past else 2
    nodes, inputs, inits = [], [vi("q", T.FLOAT, [B, 3, 64 if packed else 32])], []
    names = ["q", "" if packed else "k", "" if packed else "v"]
    if not packed:
        inputs += [vi("k", T.FLOAT, [B, 3, 16]), vi("v", T.FLOAT, [B, 3, 16])]
    if past:
        inputs += [vi("pk", T.FLOAT, [B, 2, past, 8]), vi("pv", T.FLOAT, [B, 2, past, 8])]
        names += ["pk", "pv"]
    else:
        names += ["", ""]
    names += ["seqlens", "total"]
    inits += [const("seqlens", np.full(B, total - 1, np.int32)),
              const("total", np.array(total, np.int32))]
    outs = ["o", "present_k", "present_v"] + (["qk"] if past else [])
    nodes.append(h.make_node("GroupQueryAttention", names, outs, name="gqa", domain=MS,
                             num_heads=4, kv_num_heads=2, qk_output=1 if past else 0))
    save(fname, nodes, inputs, outs, inits, ms=True)


gqa("llm_ms_gqa_prompt.onnx", 0, 3)
gqa("llm_ms_gqa_past.onnx", 4, 7)
gqa("llm_ms_gqa_packed.onnx", 0, 3, packed=True)
gqa("llm_ms_gqa_shared.onnx", 10, 7)

# GroupQueryAttention as ONNX Runtime's generator exports it: seqlens_k and
# total_sequence_length computed from the attention mask (its row sums minus
# one, and its width), so the present cache's length is the mask's symbolic
# width
save("llm_ms_gqa_mask.onnx", [
    h.make_node("Cast", ["mask"], ["mask_i"], name="mask_int", to=T.INT32),
    h.make_node("ReduceSum", ["mask_i", "one"], ["rows"], name="row_sums", keepdims=0),
    h.make_node("Sub", ["rows", "one_i32"], ["seqlens"], name="seqlens_k"),
    h.make_node("Shape", ["mask"], ["mshape"], name="mask_shape"),
    h.make_node("Gather", ["mshape", "one"], ["width"], name="width", axis=0),
    h.make_node("Squeeze", ["width", "zero"], ["width0"], name="scalar"),
    h.make_node("Cast", ["width0"], ["total"], name="total", to=T.INT32),
    h.make_node("GroupQueryAttention", ["q", "k", "v", "", "", "seqlens", "total"],
                ["o", "present_k", "present_v"], name="gqa", domain=MS, num_heads=4,
                kv_num_heads=2),
], [vi("q", T.FLOAT, ["B", "S", 32]), vi("k", T.FLOAT, ["B", "S", 16]),
    vi("v", T.FLOAT, ["B", "S", 16]), vi("mask", T.BOOL, ["B", "S"])],
    ["o", "present_k", "present_v"],
    [const("one", np.array([1], np.int64)), const("zero", np.array([0], np.int64)),
     const("one_i32", np.array(1, np.int32))], ms=True)

# QMoE: 4 experts, top 2, 4-bit weights (two per byte along the hidden axis)
E, HID, INTER = 4, 16, 32
save("llm_ms_qmoe.onnx", [
    h.make_node("QMoE", ["x", "router", "fc1", "fc1s", "", "fc2", "fc2s"], ["y"], name="qmoe",
                domain=MS, k=2, expert_weight_bits=4, activation_type="gelu"),
], [vi("x", T.FLOAT, ["N", HID]), vi("router", T.FLOAT, ["N", E])], ["y"],
    [const("fc1", rng.integers(0, 255, (E, INTER, HID // 2), dtype=np.uint8)),
     const("fc1s", np.full((E, INTER), 0.01, np.float32)),
     const("fc2", rng.integers(0, 255, (E, HID, INTER // 2), dtype=np.uint8)),
     const("fc2s", np.full((E, HID), 0.01, np.float32))], ms=True)
