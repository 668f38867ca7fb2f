/* rules_onnx.c - the ONNX operator table (opset_rules.h): its op names, its
 * ops with bodies, its cost classes. The shape rules themselves are the
 * shape_ops*.c files' nnav_shape_rules, looked up by the engine. */
#include <stddef.h>

#include "opset_rules.h"

static const char *const NO_FLOPS[] = {
    "Reshape", "Shape", "Size", "Flatten", "Squeeze", "Unsqueeze", "Identity", "Constant",
    "ConstantOfShape", "Transpose", "Concat", "Split", "Slice", "Gather", "GatherElements",
    "GatherND", "Expand", "Tile", "Pad", "Cast", "CastLike", "Dropout", "If", "Loop", "Scan",
    "DepthToSpace", "SpaceToDepth", "Range", "NonZero", "ScatterND", "ScatterElements",
    "SequenceEmpty", "SequenceInsert", "SequenceAt", "SequenceConstruct", "SplitToSequence",
    "ConcatFromSequence", "EyeLike", "OneHot", "Compress", "Trilu", "ReverseSequence", NULL};

uint8_t nnav_onnx_cost_class(nnav_span op)
{
    static const struct { const char *op; uint8_t cls; } K[] = {
        {"Conv", COST_CONV}, {"ConvInteger", COST_CONV}, {"DeformConv", COST_CONV},
        {"QLinearConv", COST_QCONV},
        {"ConvTranspose", COST_CONVT}, {"MatMul", COST_MATMUL}, {"MatMulInteger", COST_MATMUL},
        {"QLinearMatMul", COST_MATMUL}, {"Gemm", COST_GEMM}, {"RNN", COST_RNN},
        {"GRU", COST_GRU}, {"LSTM", COST_LSTM}, {"BatchNormalization", COST_TF_BN},
        {"Attention", COST_ATTN}};
    for (size_t i = 0; i < sizeof K / sizeof *K; i++)
        if (nnav_span_eqs(op, K[i].op))
            return K[i].cls;
    for (const char *const *p = NO_FLOPS; *p; p++)
        if (nnav_span_eqs(op, *p))
            return COST_NONE;
    return COST_ELEM;
}

/* ONNX Runtime's contrib ops: the products and attentions have their
 * classes; the norms, activations and rotary embeddings cost what ONNX's
 * LayerNormalization and Gelu do (one operation per element, no MACs). */
uint8_t nnav_ms_cost_class(nnav_span op)
{
    static const struct { const char *op; uint8_t cls; } K[] = {
        {"MatMulNBits", COST_NBITS}, {"FusedMatMul", COST_FUSED_MATMUL},
        {"DynamicQuantizeMatMul", COST_MATMUL}, {"MultiHeadAttention", COST_MHA},
        {"GroupQueryAttention", COST_GQA}, {"Attention", COST_MS_ATTN},
        {"QAttention", COST_MS_ATTN}, {"QMoE", COST_QMOE}};
    for (size_t i = 0; i < sizeof K / sizeof *K; i++)
        if (nnav_span_eqs(op, K[i].op))
            return K[i].cls;
    return COST_ELEM;
}

/* In the default domain: none written, or "ai.onnx". */
static int onnx_is_op(const nnav_model *m, uint32_t n, const char *op)
{
    if (!nnav_span_eqs(nnav_node_get(m, n)->op, op))
        return 0;
    nnav_span d = nnav_node_domain(m, n);
    return d.n == 0 || nnav_span_eqs(d, "ai.onnx");
}

static nnav_body_kind onnx_body_kind(nnav_span op)
{
    if (nnav_span_eqs(op, "If"))
        return NNAV_BODY_IF;
    if (nnav_span_eqs(op, "Loop"))
        return NNAV_BODY_LOOP;
    if (nnav_span_eqs(op, "Scan"))
        return NNAV_BODY_SCAN;
    if (nnav_span_eqs(op, "SequenceMap"))
        return NNAV_BODY_EACH;
    return NNAV_BODY_OTHER;
}

const nnav_opset_rules nnav_rules_onnx = {
    .constant_op = "Constant",
    .identity_op = "Identity",
    .noop_op = NULL,
    .const_as_initializer = 0,
    .control_mark = 0,
    .node_scope_meta = 1,
    .is_op = onnx_is_op,
    .body_kind = onnx_body_kind,
    .rule = NULL,
    .cost_class = nnav_onnx_cost_class,
};
