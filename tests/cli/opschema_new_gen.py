"""opschema_new_gen.py DIR - models of the operators past onnx 1.12's
registry (opsets 18 to 23) and of ONNX Runtime's contrib operators
(com.microsoft), for opschema_new.sh to hold nnav check to ONNX Runtime.

Written with onnx 1.12's helper: the opset_import and IR version are set by
hand, and the types onnx 1.12 does not name (float8, int4) by their numbers
(TensorProto.data_type and TypeProto's elem_type are int32 fields).

Each case is valid (ONNX Runtime must load and run it and nnav check must
exit 0) or breaks one schema rule (ONNX Runtime must refuse to load it and
nnav check must exit 2 with that rule's finding on that node). DIR/cases.json
lists them: {"id", "model", "inputs": [{"name", "type", "dims"}], "fetch",
"rule" ("-" when valid), "node"}; the inputs are what ort_oracle.js makes.
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
F, I64, I32, U8, I8, D = (TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32,
                          TensorProto.UINT8, TensorProto.INT8, TensorProto.DOUBLE)
FLOAT8E4M3FN, FLOAT8E5M2, INT4 = 17, 19, 22  # TensorProto.DataType numbers of onnx >= 1.14
JS = {F: "float32", I64: "int64", I32: "int32", U8: "uint8", I8: "int8", D: "float64"}
IR = {18: 8, 21: 10, 23: 11}  # the IR version each opset came with
cases = []


def vi(name, dt, shape):
    return helper.make_tensor_value_info(name, dt, shape)


def init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def case(cid, nodes, inputs, outputs, inits=(), opset=21, ms=False, rule="-", node="-"):
    """inputs: (name, elem_type, dims) made by ort_oracle.js; outputs: names
    (their types left to inference)."""
    g = helper.make_graph(nodes, cid, [vi(n, t, d) for n, t, d in inputs],
                          [helper.make_empty_tensor_value_info(o) for o in outputs],
                          initializer=list(inits))
    imports = [helper.make_opsetid("", opset)]
    if ms:
        imports.append(helper.make_opsetid("com.microsoft", 1))
    m = helper.make_model(g, opset_imports=imports, producer_name="opschema_new_gen")
    m.ir_version = IR[opset]
    path = os.path.join(OUT, cid + ".onnx")
    onnx.save(m, path)
    cases.append({"id": cid, "model": path, "rule": rule, "node": node, "fetch": list(outputs),
                  "inputs": [{"name": n, "type": JS[t], "dims": d} for n, t, d in inputs]})


def node(op, ins, outs, name, ms=False, **attrs):
    return helper.make_node(op, ins, outs, name=name, domain="com.microsoft" if ms else None,
                            **attrs)


def raw_tensor(name, dtype, dims, raw):
    """An initializer of an element type onnx 1.12 cannot make (by number)."""
    t = TensorProto()
    t.name = name
    t.data_type = dtype
    t.dims.extend(dims)
    t.raw_data = bytes(raw)
    return t


rng = np.random.default_rng(30)


def w(*shape, dt=np.float32):
    return (rng.standard_normal(shape) * 0.5).astype(dt)


# ---- ai.onnx, opset 18: Reduce* take axes as an input; Col2Im; Split's num_outputs ----
axes1 = init("axes", np.array([1], np.int64))
case("reduce18", [node("ReduceMean", ["x", "axes"], ["m"], "mean", keepdims=1),
                  node("ReduceMax", ["x", "axes"], ["mx"], "max", keepdims=0),
                  node("ReduceL2", ["x", "axes"], ["l2"], "l2")],
     [("x", F, [2, 3, 4])], ["m", "mx", "l2"], [axes1], opset=18)
case("col2im18", [node("Col2Im", ["x", "image_shape", "block_shape"], ["y"], "col2im")],
     [("x", F, [1, 4, 4])], ["y"],
     [init("image_shape", np.array([3, 3], np.int64)), init("block_shape", np.array([2, 2], np.int64))],
     opset=18)
case("split18", [node("Split", ["x"], ["a", "b"], "split", axis=1, num_outputs=2)],
     [("x", F, [2, 4])], ["a", "b"], opset=18)
# Broken: axes as an attribute, as opset 17 had it.
case("reduce18_axes_attribute", [node("ReduceMean", ["x"], ["m"], "mean", axes=[1])],
     [("x", F, [2, 3, 4])], ["m"], opset=18, rule="unknown_attribute", node="mean")
case("col2im18_float_shape", [node("Col2Im", ["x", "image_shape", "block_shape"], ["y"], "col2im")],
     [("x", F, [1, 4, 4])], ["y"],
     [init("image_shape", np.array([3, 3], np.float32)), init("block_shape", np.array([2, 2], np.int64))],
     opset=18, rule="input_type", node="col2im")

# ---- ai.onnx, opset 21: GroupNormalization-21, DFT-20's inputs, float8 and int4 ----
gn = [init("scale", w(4)), init("bias", w(4))]
case("groupnorm21", [node("GroupNormalization", ["x", "scale", "bias"], ["y"], "gn", num_groups=2,
                          epsilon=1e-5)],
     [("x", F, [1, 4, 2, 2])], ["y"], gn, opset=21)
dft = [init("dft_length", np.array(8, np.int64)), init("axis", np.array(1, np.int64))]
case("dft21", [node("DFT", ["x", "dft_length", "axis"], ["y"], "dft", onesided=0)],
     [("x", F, [1, 8, 1])], ["y"], dft, opset=21)
case("cast_float8_21", [node("Cast", ["x"], ["q"], "to_f8", to=FLOAT8E4M3FN),
                        node("Cast", ["q"], ["y"], "from_f8", to=F)],
     [("x", F, [2, 3])], ["y"], opset=21)
# int4: two values a byte, low nibble first: [1, -2, 3, -4].
x4 = raw_tensor("x4", INT4, [4], [(1 & 15) | ((-2 & 15) << 4), (3 & 15) | ((-4 & 15) << 4)])
case("dequantize_int4_21", [node("DequantizeLinear", ["x4", "s"], ["y"], "dq"),
                            node("Add", ["y", "x"], ["z"], "add")],
     [("x", F, [4])], ["z"], [x4, init("s", np.array(0.5, np.float32))], opset=21)
case("groupnorm21_no_groups", [node("GroupNormalization", ["x", "scale", "bias"], ["y"], "gn")],
     [("x", F, [1, 4, 2, 2])], ["y"], gn, opset=21, rule="missing_attribute", node="gn")
case("dft21_axis_int32", [node("DFT", ["x", "dft_length", "axis"], ["y"], "dft")],
     [("x", F, [1, 8, 1])], ["y"],
     [dft[0], init("axis", np.array(1, np.int32))], opset=21, rule="input_type", node="dft")

# ---- ai.onnx, opset 23: RMSNormalization, Attention, RotaryEmbedding, int4 Cast ----
case("rmsnorm23", [node("RMSNormalization", ["x", "scale"], ["y"], "rms", axis=-1, epsilon=1e-5)],
     [("x", F, [2, 3, 4])], ["y"], [init("scale", w(4))], opset=23)
case("attention23", [node("Attention", ["q", "k", "v"], ["y"], "attn", is_causal=1)],
     [("q", F, [1, 2, 3, 4]), ("k", F, [1, 2, 3, 4]), ("v", F, [1, 2, 3, 4])], ["y"], opset=23)
case("attention23_3d", [node("Attention", ["q", "k", "v"], ["y"], "attn", q_num_heads=2,
                             kv_num_heads=2)],
     [("q", F, [1, 3, 8]), ("k", F, [1, 3, 8]), ("v", F, [1, 3, 8])], ["y"], opset=23)
rope = [init("cos", w(8, 2)), init("sin", w(8, 2)), init("pos", np.array([[0, 1, 2]], np.int64))]
case("rotary23", [node("RotaryEmbedding", ["x", "cos", "sin", "pos"], ["y"], "rope")],
     [("x", F, [1, 2, 3, 4])], ["y"], rope, opset=23)
case("reduce23", [node("ReduceMean", ["x", "axes"], ["m"], "mean"),
                  node("ReduceSum", ["x", "axes"], ["s"], "sum")],
     [("x", F, [2, 3, 4])], ["m", "s"], [axes1], opset=23)
case("cast_int4_23", [node("Cast", ["x"], ["q"], "to_i4", to=INT4),
                      node("Cast", ["q"], ["y"], "from_i4", to=F),
                      node("Cast", ["x"], ["e"], "to_e5", to=FLOAT8E5M2),
                      node("Cast", ["e"], ["z"], "from_e5", to=F)],
     [("x", F, [2, 3])], ["y", "z"], opset=23)
case("attention23_two_inputs", [node("Attention", ["q", "k"], ["y"], "attn")],
     [("q", F, [1, 2, 3, 4]), ("k", F, [1, 2, 3, 4])], ["y"], opset=23, rule="input_count",
     node="attn")
case("attention23_contrib_attribute", [node("Attention", ["q", "k", "v"], ["y"], "attn", num_heads=2)],
     [("q", F, [1, 2, 3, 4]), ("k", F, [1, 2, 3, 4]), ("v", F, [1, 2, 3, 4])], ["y"], opset=23,
     rule="unknown_attribute", node="attn")
case("rmsnorm23_int_epsilon", [node("RMSNormalization", ["x", "scale"], ["y"], "rms", epsilon=1)],
     [("x", F, [2, 3, 4])], ["y"], [init("scale", w(4))], opset=23, rule="attribute_type",
     node="rms")

# ---- com.microsoft (ONNX Runtime's contrib operators) ----
K, N, BLK = 16, 4, 16
nbits = [init("B", rng.integers(0, 256, (N, K // BLK, BLK // 2), dtype=np.uint8)),
         init("scales", np.full(N * (K // BLK), 0.1, np.float32))]
case("matmulnbits", [node("MatMulNBits", ["a", "B", "scales"], ["y"], "mmnb", ms=True, K=K, N=N,
                          bits=4, block_size=BLK)],
     [("a", F, [2, K])], ["y"], nbits, ms=True)
case("matmulnbits_no_K", [node("MatMulNBits", ["a", "B", "scales"], ["y"], "mmnb", ms=True, N=N,
                               bits=4, block_size=BLK)],
     [("a", F, [2, K])], ["y"], nbits, ms=True, rule="missing_attribute", node="mmnb")
gqa = [init("seqlens_k", np.array([2], np.int32)), init("total_seq", np.array(3, np.int32))]
# ONNX Runtime's CPU kernel wants a head size that is a multiple of 8.
case("gqa", [node("GroupQueryAttention", ["q", "k", "v", "", "", "seqlens_k", "total_seq"],
                  ["y", "present_k", "present_v"], "gqa", ms=True, num_heads=2, kv_num_heads=1)],
     [("q", F, [1, 3, 16]), ("k", F, [1, 3, 8]), ("v", F, [1, 3, 8])],
     ["y", "present_k", "present_v"], gqa, ms=True)
case("gqa_no_kv_heads", [node("GroupQueryAttention", ["q", "k", "v", "", "", "seqlens_k", "total_seq"],
                              ["y", "present_k", "present_v"], "gqa", ms=True, num_heads=2)],
     [("q", F, [1, 3, 8]), ("k", F, [1, 3, 4]), ("v", F, [1, 3, 4])],
     ["y", "present_k", "present_v"], gqa, ms=True, rule="missing_attribute", node="gqa")
case("mha", [node("MultiHeadAttention", ["q", "k", "v"], ["y"], "mha", ms=True, num_heads=2)],
     [("q", F, [1, 3, 8]), ("k", F, [1, 3, 8]), ("v", F, [1, 3, 8])], ["y"], ms=True)
ln = [init("gamma", w(4)), init("beta", w(4))]
case("skip_layernorm", [node("SkipLayerNormalization", ["x", "skip", "gamma", "beta"], ["y"], "sln",
                             ms=True, epsilon=1e-5)],
     [("x", F, [1, 3, 4]), ("skip", F, [1, 3, 4])], ["y"], ln, ms=True)
case("skip_layernorm_two_inputs", [node("SkipLayerNormalization", ["x", "skip"], ["y"], "sln",
                                        ms=True)],
     [("x", F, [1, 3, 4]), ("skip", F, [1, 3, 4])], ["y"], ms=True, rule="input_count", node="sln")
case("skip_simplified_layernorm", [node("SkipSimplifiedLayerNormalization", ["x", "skip", "gamma"],
                                        ["y"], "ssln", ms=True, epsilon=1e-5)],
     [("x", F, [1, 3, 4]), ("skip", F, [1, 3, 4])], ["y"], ln[:1], ms=True)
msrope = [init("pos", np.array([[0, 1, 2]], np.int64)), init("cos", w(8, 2)), init("sin", w(8, 2))]
case("rotary_contrib", [node("RotaryEmbedding", ["x", "pos", "cos", "sin"], ["y"], "rope", ms=True,
                             num_heads=2)],
     [("x", F, [1, 3, 8])], ["y"], msrope, ms=True)
case("rotary_contrib_no_positions", [node("RotaryEmbedding", ["x", "", "cos", "sin"], ["y"], "rope",
                                          ms=True, num_heads=2)],
     [("x", F, [1, 3, 8])], ["y"], msrope[1:], ms=True, rule="missing_input", node="rope")
case("fused_matmul", [node("FusedMatMul", ["a", "b"], ["y"], "fmm", ms=True, alpha=0.5, transB=1)],
     [("a", F, [2, 3]), ("b", F, [4, 3])], ["y"], ms=True)
case("fused_matmul_mixed_types", [node("FusedMatMul", ["a", "b"], ["y"], "fmm", ms=True)],
     [("a", F, [2, 3]), ("b", D, [3, 4])], ["y"], ms=True, rule="input_type", node="fmm")
case("quick_gelu", [node("QuickGelu", ["x"], ["y"], "qg", ms=True, alpha=1.702)],
     [("x", F, [2, 3])], ["y"], ms=True)
case("quick_gelu_int32", [node("QuickGelu", ["x"], ["y"], "qg", ms=True)],
     [("x", I32, [2, 3])], ["y"], ms=True, rule="input_type", node="qg")
case("bias_gelu", [node("BiasGelu", ["x", "b"], ["y"], "bg", ms=True)],
     [("x", F, [2, 4])], ["y"], [init("b", w(4))], ms=True)
case("bias_gelu_three_inputs", [node("BiasGelu", ["x", "b", "b"], ["y"], "bg", ms=True)],
     [("x", F, [2, 4])], ["y"], [init("b", w(4))], ms=True, rule="input_count", node="bg")
att = [init("weights", w(4, 12)), init("abias", w(12))]
case("attention_contrib", [node("Attention", ["x", "weights", "abias"], ["y"], "attn", ms=True,
                                num_heads=2)],
     [("x", F, [1, 3, 4])], ["y"], att, ms=True)
# The opset-23 operator's attribute on the contrib one: two operators, one name.
case("attention_contrib_onnx_attribute", [node("Attention", ["x", "weights", "abias"], ["y"], "attn",
                                               ms=True, num_heads=2, q_num_heads=2)],
     [("x", F, [1, 3, 4])], ["y"], att, ms=True, rule="unknown_attribute", node="attn")
qatt = [init("qw", rng.integers(0, 256, (4, 12), dtype=np.uint8)), init("qb", w(12)),
        init("in_scale", np.array(0.05, np.float32)), init("w_scale", np.array(0.02, np.float32))]
case("qattention", [node("QAttention", ["x", "qw", "qb", "in_scale", "w_scale"], ["y"], "qattn",
                         ms=True, num_heads=2)],
     [("x", U8, [1, 3, 4])], ["y"], qatt, ms=True)
dq = [init("qB", rng.integers(-100, 100, (4, 3), dtype=np.int8)),
      init("b_scale", np.array([0.02], np.float32))]
case("dynamic_quantize_matmul", [node("DynamicQuantizeMatMul", ["a", "qB", "b_scale"], ["y"], "dqmm",
                                      ms=True)],
     [("a", F, [2, 4])], ["y"], dq, ms=True)
E, H, I = 2, 4, 8  # experts, hidden, inter: fc1 [E, I, H/2] and fc2 [E, H, I/2] as packed 4-bit
qmoe = [init("fc1_w", rng.integers(0, 256, (E, I, H // 2), dtype=np.uint8)),
        init("fc1_s", np.full((E, I), 0.05, np.float32)),
        init("fc2_w", rng.integers(0, 256, (E, H, I // 2), dtype=np.uint8)),
        init("fc2_s", np.full((E, H), 0.05, np.float32))]
case("qmoe", [node("QMoE", ["x", "router", "fc1_w", "fc1_s", "", "fc2_w", "fc2_s"], ["y"], "qmoe",
                   ms=True, k=1, expert_weight_bits=4, activation_type="relu")],
     [("x", F, [3, H]), ("router", F, [3, E])], ["y"], qmoe, ms=True)

with open(os.path.join(OUT, "cases.json"), "w") as f:
    json.dump(cases, f, indent=1)
print(len(cases), "cases")
