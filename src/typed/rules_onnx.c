/* rules_onnx.c - the ONNX operator table (opset_rules.h): its op names, its
 * ops with bodies, its cost classes. The shape rules themselves are the
 * shape_ops*.c files' nnav_shape_rules, looked up by the engine. */
#include <stddef.h>
#include <string.h>

#include "model.h"
#include "opset_rules.h"
#include "shape.h"

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

/* MatMulNBits' B is its K x N weight packed into bits-wide blocks: the
 * parameters are K x N (its attributes), not the bytes stored. 0 (the
 * stored elements) when K or N is missing or not positive, or K x N
 * overflows. */
static uint64_t onnx_logical_elems(const nnav_model *m, uint32_t n, uint32_t slot)
{
    int64_t k, nn;
    uint64_t r;
    if (slot != 1 || nnav_matmulnbits_kn(m, n, &k, &nn) < 0 ||
        __builtin_mul_overflow((uint64_t)k, (uint64_t)nn, &r))
        return 0;
    return r;
}

/* Inputs that hold no learned parameter, as torch.onnx writes them:
 * BatchNormalization's running mean and variance (torch's buffers), a
 * recurrent op's sequence lengths and initial states (zeros torch makes at
 * run time), and the roi, scales and sizes, pads, bounds of the ops that
 * take them as inputs. A weight passed on by a node that only converts or
 * reshapes it (input 0 of Identity, Cast, Reshape, Expand...) is what that
 * node's readers make of it: torch expands an RNN's zero initial state to
 * the batch (and slices it per layer) before the RNN reads it. */
static uint8_t onnx_input_role(const nnav_model *m, uint32_t n, uint32_t slot)
{
    /* One table, looked up by the op's length first (asked for every input
     * of every node): mask has the slots of role; PASS is input 0's. */
#define R_(op, role, mask) {op, sizeof op - 1, role, mask}
    static const struct { const char *op; uint32_t len; uint8_t role; uint8_t mask; } K[] = {
        R_("BatchNormalization", NNAV_WROLE_BUFFER, 1u << 3 | 1u << 4),
        R_("RNN", NNAV_WROLE_CONST, 1u << 4 | 1u << 5),
        R_("GRU", NNAV_WROLE_CONST, 1u << 4 | 1u << 5),
        R_("LSTM", NNAV_WROLE_CONST, 1u << 4 | 1u << 5 | 1u << 6),
        R_("Resize", NNAV_WROLE_CONST, 1u << 1 | 1u << 2 | 1u << 3),
        R_("Upsample", NNAV_WROLE_CONST, 1u << 1),
        R_("Pad", NNAV_WROLE_CONST, 1u << 1 | 1u << 2 | 1u << 3),
        R_("Clip", NNAV_WROLE_CONST, 1u << 1 | 1u << 2),
        R_("Identity", NNAV_WROLE_PASS, 1u), R_("Cast", NNAV_WROLE_PASS, 1u),
        R_("Reshape", NNAV_WROLE_PASS, 1u), R_("Expand", NNAV_WROLE_PASS, 1u),
        R_("Transpose", NNAV_WROLE_PASS, 1u), R_("Unsqueeze", NNAV_WROLE_PASS, 1u),
        R_("Squeeze", NNAV_WROLE_PASS, 1u), R_("Flatten", NNAV_WROLE_PASS, 1u),
        R_("Tile", NNAV_WROLE_PASS, 1u), R_("Slice", NNAV_WROLE_PASS, 1u),
        /* ONNX Runtime's 4-bit matmul: B packed, then scales, zero points
         * and g_idx (quantisation's constants), then the bias. */
        R_("MatMulNBits", NNAV_WROLE_CONST, 1u << 2 | 1u << 3 | 1u << 4),
        /* A QDQ pair's weight is its int8 (int4, float8) x; its scale and
         * zero point are quantisation's constants, as MatMulNBits' are. */
        R_("DequantizeLinear", NNAV_WROLE_CONST, 1u << 1 | 1u << 2),
    };
#undef R_
    if (slot >= 8)
        return NNAV_WROLE_PARAM;
    nnav_span op = nnav_node_get(m, n)->op;
    for (size_t i = 0; i < sizeof K / sizeof *K; i++) {
        if (op.n != K[i].len || !(K[i].mask >> slot & 1u) || memcmp(op.p, K[i].op, K[i].len))
            continue;
        nnav_span d = nnav_node_domain(m, n);
        int contrib = K[i].op[0] == 'M'; /* MatMulNBits is com.microsoft's */
        if (contrib ? nnav_span_eqs(d, "com.microsoft") : d.n == 0 || nnav_span_eqs(d, "ai.onnx"))
            return K[i].role;
        return NNAV_WROLE_PARAM;
    }
    return NNAV_WROLE_PARAM;
}

/* torch.onnx names an initializer it made itself "onnx::<Op>_<n>", and one
 * that is a module's parameter by its path ("layer1.0.conv1.weight"). When
 * it folds a BatchNorm into the Conv before it (an eval-mode export, its
 * default) the Conv's weight and its new bias are made (the bias may then
 * be merged with an equal one of any name), so a Conv with a bias whose
 * weight was made, in a graph that keeps the other parameters' names, held
 * a BatchNorm. */
static int made_by_exporter(const nnav_model *m, uint32_t v)
{
    /* Through the Identity nodes of merged equal initializers. */
    for (int k = 0; k < 8 && v < m->values.n && m->values.v[v].kind == NNAV_VAL_NODE; k++) {
        uint32_t p = m->values.v[v].producer;
        if (p >= m->nodes.n || !m->nodes.v[p].in_count || !onnx_is_op(m, p, "Identity"))
            return 0;
        v = m->refs.v[m->nodes.v[p].in_first].value;
    }
    if (v >= m->values.n || m->values.v[v].kind != NNAV_VAL_INITIALIZER)
        return 0;
    nnav_span nm = m->values.v[v].name;
    return nm.n > 6 && memcmp(nm.p, "onnx::", 6) == 0;
}

static int onnx_names_kept(const nnav_model *m, uint32_t g)
{
    for (uint32_t v = 0; v < m->values.n; v++) {
        const nnav_value *val = &m->values.v[v];
        if (val->graph != g || val->kind != NNAV_VAL_INITIALIZER)
            continue;
        nnav_span nm = val->name;
        if ((nm.n > 7 && memcmp(nm.p + nm.n - 7, ".weight", 7) == 0) ||
            (nm.n > 5 && memcmp(nm.p + nm.n - 5, ".bias", 5) == 0))
            return 1;
    }
    return 0;
}

static int onnx_folded_norm(const nnav_model *m, uint32_t n, int kept)
{
    const nnav_node *nd = &m->nodes.v[n];
    return kept && nd->in_count >= 3 && onnx_is_op(m, n, "Conv") &&
           made_by_exporter(m, m->refs.v[nd->in_first + 1].value) &&
           m->refs.v[nd->in_first + 2].value != NNAV_NONE;
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
    .input_role = onnx_input_role,
    .folded_norm = onnx_folded_norm,
    .names_kept = onnx_names_kept,
    .logical_elems = onnx_logical_elems,
};
