/* rules_tf.c - the TensorFlow operator table (opset_rules.h): its op names,
 * its ops with bodies, its cost classes and its shape rules. Most TensorFlow
 * ops that shape inference knows are ONNX ops under another name; their
 * ONNX rule is used. */
#include <string.h>

#include "opset_rules.h"
#include "shape_int.h"

/* The cost class of a TensorFlow op. Ops met in ONNX too (Relu, Add...) by
 * their ONNX class. */
static uint8_t tf_cost_class(nnav_span op)
{
    static const struct { const char *op; uint8_t cls; } K[] = {
        {"Conv2D", COST_TF_CONV}, {"Conv3D", COST_TF_CONV},
        {"DepthwiseConv2dNative", COST_TF_DWCONV}, {"MatMul", COST_TF_MATMUL},
        {"BatchMatMul", COST_TF_BMM}, {"BatchMatMulV2", COST_TF_BMM},
        {"BatchMatMulV3", COST_TF_BMM}, {"FusedBatchNorm", COST_TF_BN},
        {"FusedBatchNormV2", COST_TF_BN}, {"FusedBatchNormV3", COST_TF_BN},
        {"BiasAdd", COST_TF_BIAS}, {"Const", COST_NONE}, {"Placeholder", COST_NONE},
        {"NoOp", COST_NONE}, {"VarHandleOp", COST_NONE}, {"ReadVariableOp", COST_NONE}};
    for (size_t i = 0; i < sizeof K / sizeof *K; i++)
        if (nnav_span_eqs(op, K[i].op))
            return K[i].cls;
    return nnav_onnx_cost_class(op);
}

/* TensorFlow: ops whose shape rule is an ONNX op's, attribute names aside. */
static const char *const TF_AS_ONNX[][2] = {
    {"Identity", "Identity"}, {"StopGradient", "Identity"}, {"Snapshot", "Identity"},
    {"Relu", "Relu"}, {"Relu6", "Relu"}, {"Elu", "Relu"}, {"Selu", "Relu"}, {"Tanh", "Tanh"},
    {"Sigmoid", "Sigmoid"}, {"Softplus", "Relu"}, {"Exp", "Exp"}, {"Log", "Log"},
    {"Sqrt", "Sqrt"}, {"Rsqrt", "Sqrt"}, {"Square", "Sqrt"}, {"Neg", "Neg"}, {"Abs", "Abs"},
    {"Softmax", "Softmax"}, {"LogSoftmax", "Softmax"}, {"Add", "Add"}, {"AddV2", "Add"},
    {"BiasAdd", "Add"}, {"Sub", "Sub"}, {"Mul", "Mul"}, {"RealDiv", "Div"},
    {"Maximum", "Max"}, {"Minimum", "Min"}, {"Pow", "Pow"}, {"SquaredDifference", "Pow"},
    {"Equal", "Equal"}, {"Greater", "Greater"}, {"Less", "Less"},
};

/* The tensor a TensorFlow Const holds: its dims, folded when small. */
static int tf_const(nnav_ictx *ix)
{
    uint32_t a = nnav_ix_attr(ix, "value");
    if (a == NNAV_NONE || ix->m->attrs.v[a].type != NNAV_ATTR_TENSOR || !ix->m->attrs.v[a].tensor_count)
        return nnav_ix_fail(ix, "no value tensor");
    const nnav_tensor *t = &ix->m->tensors.v[ix->m->attrs.v[a].tensor_first];
    if (t->ndims > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_dim d[NNAV_RANK_MAX];
    for (uint32_t i = 0; i < t->ndims; i++)
        d[i] = ix->m->dims.v[t->dims_first + i] >= 0
                   ? nnav_dim_num(ix->m->dims.v[t->dims_first + i]) : NNAV_DIM_UNKNOWN;
    nnav_ix_out(ix, 0, t->dtype, (int32_t)t->ndims, d);
    return 0;
}

static int tf_matmul(nnav_ictx *ix)
{
    const nnav_dim *a = nnav_ix_dims(ix, 0), *b = nnav_ix_dims(ix, 1);
    if (!a || !b || nnav_ix_rank(ix, 0) != 2 || nnav_ix_rank(ix, 1) != 2)
        return nnav_ix_fail(ix, "operands are not matrices of known rank");
    nnav_dim d[2] = {a[nnav_ix_attr_i(ix, "transpose_a", 0) ? 1 : 0],
                     b[nnav_ix_attr_i(ix, "transpose_b", 0) ? 0 : 1]};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 2, d);
    return 0;
}

/* A call through a func attr: the function's body with the caller's facts. */
static int tf_call(nnav_ictx *ix)
{
    const nnav_fact *seed[256];
    size_t n = nnav_ix_nin(ix);
    if (n > sizeof seed / sizeof *seed)
        return nnav_ix_fail(ix, "over 256 inputs");
    for (size_t i = 0; i < n; i++)
        seed[i] = nnav_ix_in(ix, (uint32_t)i);
    uint32_t a = nnav_ix_attr(ix, "f");
    const nnav_attr *at = a == NNAV_NONE ? NULL : &ix->m->attrs.v[a];
    if (!at || (at->type != NNAV_ATTR_GRAPH && at->type != NNAV_ATTR_TF_FUNC) || at->graph_count != 1)
        return nnav_ix_fail(ix, "its function could not be inferred");
    uint32_t nout = 0;
    const nnav_fact *out = nnav_ix_call(ix, at->graph_first, seed, n, &nout);
    if (!out)
        return -1;
    /* nnav_ix_out adds to the dims, never to the memo: out stays valid */
    for (uint32_t o = 0; o < ix->nd->out_count && o < nout; o++)
        if (!nnav_ref_control(ix->m, ix->nd->out_first + o))
            nnav_ix_out(ix, o, out[o].dtype, out[o].rank,
                        out[o].rank >= 0 ? nnav_shapes_dims(ix->S, out[o].dims) : NULL);
    return 0;
}

static int tf_rule(nnav_ictx *ix)
{
    const nnav_node *nd = ix->nd;
    if (nnav_span_eqs(nd->op, "Const"))
        return tf_const(ix);
    if (nnav_span_eqs(nd->op, "MatMul"))
        return tf_matmul(ix);
    if (nnav_span_eqs(nd->op, "PartitionedCall") || nnav_span_eqs(nd->op, "StatefulPartitionedCall"))
        return tf_call(ix);
    for (size_t i = 0; i < sizeof TF_AS_ONNX / sizeof *TF_AS_ONNX; i++)
        if (nnav_span_eqs(nd->op, TF_AS_ONNX[i][0])) {
            const nnav_rule *r = nnav_ix_onnx_rule(ix, TF_AS_ONNX[i][1]);
            if (r)
                return r->fn(ix);
        }
    return nnav_ix_fail(ix, "no rule for this TensorFlow op; the file's _output_shapes are used");
}

/* TensorFlow has no domains: an op is its name. */
static int tf_is_op(const nnav_model *m, uint32_t n, const char *op)
{
    return nnav_span_eqs(nnav_node_get(m, n)->op, op);
}

static nnav_body_kind tf_body_kind(nnav_span op)
{
    if (nnav_span_eqs(op, "If") || nnav_span_eqs(op, "StatelessIf"))
        return NNAV_BODY_IF;
    if (nnav_span_eqs(op, "While") || nnav_span_eqs(op, "StatelessWhile"))
        return NNAV_BODY_EACH;
    return NNAV_BODY_OTHER;
}

/* A fused batch norm's mean and variance (inputs 3 and 4) are Keras's
 * non-trainable moving statistics: buffers, not parameters. Input 0 of a
 * node that only converts or reshapes is passed on (opset_rules.h). */
static uint8_t tf_input_role(const nnav_model *m, uint32_t n, uint32_t slot)
{
    nnav_span op = nnav_node_get(m, n)->op;
    static const char *const PASS[] = {"Identity", "Cast", "Reshape", "Transpose", "ExpandDims",
                                        "Squeeze", "Tile", "BroadcastTo", "Slice", "StridedSlice"};
    if (slot == 0)
        for (size_t i = 0; i < sizeof PASS / sizeof *PASS; i++)
            if (nnav_span_eqs(op, PASS[i]))
                return NNAV_WROLE_PASS;
    if ((slot == 3 || slot == 4) &&
        (nnav_span_eqs(op, "FusedBatchNorm") || nnav_span_eqs(op, "FusedBatchNormV2") ||
         nnav_span_eqs(op, "FusedBatchNormV3")))
        return NNAV_WROLE_BUFFER;
    return NNAV_WROLE_PARAM;
}

const nnav_opset_rules nnav_rules_tf = {
    .constant_op = "Const",
    .identity_op = "Identity",
    .noop_op = "NoOp",
    .const_as_initializer = 1,
    .control_mark = '^',
    .node_scope_meta = 0,
    .is_op = tf_is_op,
    .body_kind = tf_body_kind,
    .rule = tf_rule,
    .cost_class = tf_cost_class,
    .input_role = tf_input_role,
};
