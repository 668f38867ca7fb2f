#!/usr/bin/env python3
"""op_sweep.py OUTDIR: one model per operator of onnx's schema registry, each
node of it the operator with one thing pushed to an edge.

    python3 op_sweep.py OUTDIR [OP...]

For every operator of the default and ai.onnx.ml domains (its newest schema,
at opset 17 / ai.onnx.ml 3), and the newer ones NEWER describes (ONNX's of
opsets 18-23 that nnav has rules for, ONNX Runtime's com.microsoft contrib
operators), a model whose nodes are that operator with:
  - its inputs from a float tensor of known shape, of symbolic shape and of
    unknown shape (and int64/bool/string inputs where only those fit);
  - each INT attribute at each edge integer, each INTS attribute as lists of
    1, 2 and 4 edge integers, each FLOAT attribute at nan and +-inf;
  - each input that takes int64 fed by an initializer of 1 and of 4 edge
    integers (so folding and shape operands see them);
  - each optional input omitted ("") with the later ones present, no inputs
    at all, and more inputs than the schema allows.
The edge integers: INT64_MIN and MAX, +-2^62, the range nnav once used for
symbolic dims (INT64_MIN+1 up to +2^32, and inside it), 2^31, 2^32, 0, -1.
tests/cli/op_sweep.sh runs every command on every model. Models are written
with onnx.helper and are not meant to pass onnx.checker: they are what a
hostile file may say.
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

I64MIN, I64MAX = -(2 ** 63), 2 ** 63 - 1
EDGE = [I64MIN, I64MAX, 2 ** 62, -(2 ** 62), I64MIN + 1, I64MIN + 5, I64MIN + 2 ** 32,
        2 ** 31, 2 ** 32, 0, -1, 3]
FEDGE = [float("nan"), float("inf"), float("-inf")]

# Graph inputs every node may read.
INPUTS = [
    helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 3, 8, 8]),
    helper.make_tensor_value_info("S", TensorProto.FLOAT, ["N", "C", "H", "W"]),
    helper.make_tensor_value_info("U", TensorProto.FLOAT, None),
    helper.make_tensor_value_info("I", TensorProto.INT64, [4]),
    helper.make_tensor_value_info("IS", TensorProto.INT64, []),
    helper.make_tensor_value_info("B", TensorProto.BOOL, [1, 3, 8, 8]),
    helper.make_tensor_value_info("T", TensorProto.STRING, [2, 3]),
    helper.make_tensor_value_info("Q", TensorProto.UINT8, [1, 3, 8, 8]),
    # rank 3, for the NEWER operators of [batch, sequence, hidden]
    helper.make_tensor_value_info("X3", TensorProto.FLOAT, [2, 5, 24]),
    helper.make_tensor_value_info("S3", TensorProto.FLOAT, ["N", "L", "D"]),
]


def source(schema, param, shape_src):
    """The graph input a formal parameter reads, by the types it allows."""
    allowed = set()
    ts = param.typeStr
    found = False
    for tc in schema.type_constraints:
        if tc.type_param_str == ts:
            allowed = set(tc.allowed_type_strs)
            found = True
    if not found:
        allowed = {ts}
    if any("float" in a for a in allowed):
        return shape_src
    if "tensor(int64)" in allowed:
        return "I"
    if "tensor(uint8)" in allowed:
        return "Q"
    if "tensor(bool)" in allowed:
        return "B"
    if "tensor(string)" in allowed:
        return "T"
    return shape_src


def int64_ok(schema, param):
    ts = param.typeStr
    for tc in schema.type_constraints:
        if tc.type_param_str == ts:
            return "tensor(int64)" in tc.allowed_type_strs
    return ts == "tensor(int64)"


def n_inputs(schema):
    n = len(schema.inputs)
    last = schema.inputs[-1] if n else None
    if last is not None and last.option == onnx.defs.OpSchema.FormalParameterOption.Variadic:
        n += 1
    return n


def n_outputs(schema):
    n = len(schema.outputs)
    return max(1, min(n, 4))


def body():
    """A small body for GRAPH attributes: two inputs, Identity to one output."""
    return helper.make_graph(
        [helper.make_node("Identity", ["b_in"], ["b_out"])], "body",
        [helper.make_tensor_value_info("b_iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("b_in", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("b_cond", TensorProto.BOOL, []),
         helper.make_tensor_value_info("b_out", TensorProto.FLOAT, None)])


def base_attrs(schema):
    """Attributes the node needs to be read at all (GRAPH ones, required ones)."""
    out = {}
    A = onnx.defs.OpSchema.AttrType
    for name, a in schema.attributes.items():
        if a.type == A.GRAPH:
            out[name] = body()
        elif a.type == A.GRAPHS:
            out[name] = [body()]
        elif a.required:
            if a.type == A.INT:
                out[name] = 1
            elif a.type == A.INTS:
                out[name] = [1, 1]
            elif a.type == A.FLOAT:
                out[name] = 1.0
            elif a.type == A.FLOATS:
                out[name] = [1.0]
            elif a.type == A.STRING:
                out[name] = "a"
            elif a.type == A.STRINGS:
                out[name] = ["a"]
            elif a.type == A.TENSOR:
                out[name] = helper.make_tensor("t", TensorProto.FLOAT, [1], [1.0])
    return out


def model_for(schema):
    nodes, inits = [], []
    k = [0]
    nin = n_inputs(schema)
    nout = n_outputs(schema)
    base = base_attrs(schema)

    def add(ins, attrs):
        k[0] += 1
        outs = ["o%d_%d" % (k[0], j) for j in range(nout)]
        a = dict(base)
        a.update(attrs)
        nodes.append(helper.make_node(schema.name, ins, outs, name="n%d" % k[0],
                                      domain=schema.domain or None, **a))

    def ins_from(src):
        return [source(schema, p, src) for p in schema.inputs][:nin] + \
            ([source(schema, schema.inputs[-1], src)] if nin > len(schema.inputs) else [])

    known, sym = getattr(schema, "sources", ("X", "S"))
    for src in ("X", "S", "U") + ((known, sym) if known != "X" else ()):
        add(ins_from(src), {})
    X = ins_from(known)
    S = ins_from(sym)
    add([], {})
    add(X + X[-1:] * 3, {})
    # Omitted optional inputs.
    for i, p in enumerate(schema.inputs):
        if p.option == onnx.defs.OpSchema.FormalParameterOption.Optional or i == 0:
            for base_ins in (X, S):
                ins = list(base_ins)
                if i < len(ins):
                    ins[i] = ""
                    add(ins, {})
    A = onnx.defs.OpSchema.AttrType
    for name, a in sorted(schema.attributes.items()):
        for base_ins in (X, S):
            if a.type == A.INT:
                for v in EDGE:
                    add(base_ins, {name: v})
            elif a.type == A.INTS:
                for v in EDGE:
                    for n in (1, 2, 4):
                        add(base_ins, {name: [v] * n})
                    add(base_ins, {name: [1, v, 1, v]})
            elif a.type == A.FLOAT:
                for v in FEDGE:
                    add(base_ins, {name: v})
            elif a.type == A.FLOATS:
                for v in FEDGE:
                    add(base_ins, {name: [v, v, v, v]})
    # int64 operands fed by initializers of edge values.
    for i, p in enumerate(schema.inputs[:nin]):
        if not int64_ok(schema, p):
            continue
        for v in EDGE:
            for n in (1, 4):
                iname = "c%d_%d_%d" % (i, EDGE.index(v), n)
                if not any(t.name == iname for t in inits):
                    inits.append(helper.make_tensor(iname, TensorProto.INT64, [n], [v] * n))
                for base_ins in (X, S):
                    ins = list(base_ins)
                    ins[i] = iname
                    add(ins, {})
    g = helper.make_graph(nodes, "sweep_" + schema.name, INPUTS, [], initializer=inits)
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)]
    if schema.domain not in ("", "ai.onnx.ml"):
        opsets.append(helper.make_opsetid(schema.domain, schema.since_version))
    m = helper.make_model(g, opset_imports=opsets, producer_name="op_sweep")
    m.ir_version = 8
    return m


# Operators onnx 1.12 does not know, described here as far as the sweep needs
# (inputs by kind: f float, i int64, u uint8, s string, "?" optional; attributes by
# type, "!" required): ONNX's of opsets 18 to 23 that nnav has rules for, and
# ONNX Runtime's com.microsoft contrib operators (docs/ContribOperators.md).
NEWER = [
    ("", "Attention", "Q:f K:f V:f attn_mask:f? past_key:f? past_value:f?", 4,
     "is_causal:i kv_num_heads:i q_num_heads:i qk_matmul_output_mode:i softmax_precision:i "
     "scale:f softcap:f"),
    ("", "RotaryEmbedding", "X:f cos_cache:f sin_cache:f position_ids:i?", 1,
     "interleaved:i num_heads:i rotary_embedding_dim:i"),
    ("", "RMSNormalization", "X:f scale:f", 1, "axis:i stash_type:i epsilon:f"),
    ("", "Col2Im", "input:f image_shape:i block_shape:i", 1, "dilations:is pads:is strides:is"),
    ("", "DeformConv", "X:f W:f offset:f B:f? mask:f?", 1,
     "dilations:is group:i kernel_shape:is offset_group:i pads:is strides:is"),
    ("", "AffineGrid", "theta:f size:i", 1, "align_corners:i"),
    ("", "StringConcat", "X:s Y:s", 1, ""),
    ("", "RegexFullMatch", "X:s", 1, ""),
    ("", "StringSplit", "X:s", 2, "maxsplit:i"),
    ("com.microsoft", "MatMulNBits", "A:f B:u scales:f zero_points:u? g_idx:i? bias:f?", 1,
     "K:i! N:i! bits:i block_size:i! accuracy_level:i"),
    ("com.microsoft", "FusedMatMul", "A:f B:f", 1,
     "transA:i transB:i transBatchA:i transBatchB:i alpha:f"),
    ("com.microsoft", "DynamicQuantizeMatMul", "A:f B:u b_scale:f b_zero_point:u? bias:f?", 1, ""),
    ("com.microsoft", "QMoE", "input:f router_probs:f fc1_experts_weights:u fc1_scales:f "
     "fc1_experts_bias:f? fc2_experts_weights:u fc2_scales:f fc2_experts_bias:f? "
     "fc3_experts_weights:u? fc3_scales:f? fc3_experts_bias:f?", 1,
     "k:i expert_weight_bits:i swiglu_fusion:i normalize_routing_weights:i"),
    ("com.microsoft", "GroupQueryAttention", "query:f key:f? value:f? past_key:f? past_value:f? "
     "seqlens_k:i total_sequence_length:i cos_cache:f? sin_cache:f?", 3,
     "num_heads:i! kv_num_heads:i! do_rotary:i local_window_size:i"),
    ("com.microsoft", "MultiHeadAttention", "query:f key:f? value:f? bias:f? key_padding_mask:i? "
     "attention_bias:f? past_key:f? past_value:f?", 3, "num_heads:i! unidirectional:i"),
    ("com.microsoft", "SkipLayerNormalization", "input:f skip:f gamma:f beta:f? bias:f?", 4,
     "epsilon:f"),
    ("com.microsoft", "SkipSimplifiedLayerNormalization", "input:f skip:f gamma:f bias:f?", 4,
     "epsilon:f"),
    ("com.microsoft", "RotaryEmbedding", "input:f position_ids:i cos_cache:f sin_cache:f", 1,
     "num_heads:i interleaved:i rotary_embedding_dim:i is_packed_batching:i"),
    ("com.microsoft", "QuickGelu", "X:f", 1, "alpha:f"),
    ("com.microsoft", "BiasGelu", "A:f B:f", 1, ""),
    ("com.microsoft", "FastGelu", "X:f bias:f?", 1, ""),
    ("com.microsoft", "Gelu", "X:f", 1, ""),
    ("", "SimplifiedLayerNormalization", "X:f scale:f", 2, "axis:i stash_type:i epsilon:f"),
    ("com.microsoft", "Attention", "input:f weights:f bias:f? mask_index:i? past:f? "
     "attention_bias:f? past_sequence_length:i?", 2,
     "num_heads:i! unidirectional:i past_present_share_buffer:i qkv_hidden_sizes:is"),
    ("com.microsoft", "QAttention", "input:u weight:u bias:f input_scale:f weight_scale:f "
     "mask_index:i? input_zero_point:u? weight_zero_point:u? past:f?", 2,
     "num_heads:i! unidirectional:i"),
]


def newer_schema(domain, name, inputs, nout, attrs):
    """An object with what model_for reads of an onnx OpSchema."""
    from types import SimpleNamespace as NS
    P = onnx.defs.OpSchema.FormalParameterOption
    A = onnx.defs.OpSchema.AttrType
    kinds = {"f": "tensor(float)", "i": "tensor(int64)", "u": "tensor(uint8)",
             "s": "tensor(string)"}
    ins = [NS(name=p.split(":")[0], typeStr=kinds[p.split(":")[1][0]],
              option=P.Optional if p.endswith("?") else P.Single) for p in inputs.split()]
    types = {"i": A.INT, "is": A.INTS, "f": A.FLOAT}
    at = {}
    for x in attrs.split():
        n, t = x.split(":")
        at[n] = NS(type=types[t.rstrip("!")], required=t.endswith("!"))
    # [batch, sequence, hidden] inputs for the attention and norm ops, besides
    # the rank-4 ones every operator gets
    rank3 = name not in ("Col2Im", "RMSNormalization", "FusedMatMul", "BiasGelu", "QuickGelu",
                         "DeformConv", "AffineGrid", "FastGelu", "Gelu", "StringConcat",
                         "RegexFullMatch", "StringSplit") \
        and not (domain == "" and name in ("Attention", "RotaryEmbedding"))
    return NS(name=name, domain=domain, since_version=1, inputs=ins,
              outputs=[NS(name="o%d" % i) for i in range(nout)], type_constraints=[],
              attributes=at, sources=("X3", "S3") if rank3 else ("X", "S"))


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 1
    out = argv[1]
    only = set(argv[2:])
    os.makedirs(out, exist_ok=True)
    n = 0
    for schema in sorted(onnx.defs.get_all_schemas(), key=lambda s: (s.domain, s.name)):
        if schema.domain not in ("", "ai.onnx.ml"):
            continue
        if only and schema.name not in only:
            continue
        m = model_for(schema)
        name = (schema.domain.replace(".", "_") + "_" if schema.domain else "") + schema.name
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
        n += 1
    known = {(x.domain, x.name) for x in onnx.defs.get_all_schemas()}
    for spec in NEWER:
        if (spec[0], spec[1]) in known or (only and spec[1] not in only):
            continue
        m = model_for(newer_schema(*spec))
        name = (spec[0].replace(".", "_") + "_" if spec[0] else "") + spec[1]
        with open(os.path.join(out, name + ".onnx"), "wb") as f:
            f.write(m.SerializeToString())
        n += 1
    print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
