/* infer.c - ranks of values, for the types of a cut-out model's new inputs
 * and outputs.
 *
 * A standalone ONNX model must declare each graph input's and output's
 * element type and shape; exporters rarely record intermediate value types.
 * Full shape inference is an operator library of its own; a rank is enough
 * for a valid declaration (axes of unknown size), and the rank of most
 * operators' outputs follows from their inputs' by simple rules. One forward
 * pass over the graph in node order (which is topological order). */
#include <stdlib.h>
#include <string.h>

#include "model.h"

static int op_in(const nnav_model *m, uint32_t node, const char *const *list)
{
    for (; *list; list++)
        if (nnav_span_eqs(m->nodes.v[node].op, *list)) {
            nnav_span d = nnav_node_domain(m, node);
            return d.n == 0 || nnav_span_eqs(d, "ai.onnx");
        }
    return 0;
}

static const char *const SAME[] = {
    "Relu", "LeakyRelu", "Elu", "Selu", "Celu", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish",
    "Softplus", "Softsign", "Exp", "Log", "Sqrt", "Neg", "Abs", "Reciprocal", "Floor", "Ceil",
    "Round", "Sign", "Erf", "Not", "IsNaN", "IsInf", "Gelu", "Mish", "Sin", "Cos", "Tan", "Asin",
    "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Identity", "Cast", "CastLike",
    "Clip", "Dropout", "BatchNormalization", "LRN", "Softmax", "LogSoftmax", "Hardmax",
    "InstanceNormalization", "LayerNormalization", "GroupNormalization", "MeanVarianceNormalization",
    "Conv", "ConvTranspose", "ConvInteger", "QLinearConv", "MaxPool", "AveragePool", "LpPool",
    "GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "MaxRoiPool", "Pad", "Resize", "Upsample",
    "Concat", "Split", "Slice", "Transpose", "Tile", "DepthToSpace", "SpaceToDepth", "CumSum",
    "Trilu", "TopK", "QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "Shrink",
    "ThresholdedRelu", "ReverseSequence", "LpNormalization", "ScatterElements",
    "ScatterND", "Scatter", "GatherElements", NULL};
static const char *const BROADCAST[] = {
    "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Where", "Equal", "Greater",
    "Less", "GreaterOrEqual", "LessOrEqual", "And", "Or", "Xor", "PRelu", "BitShift", "Mod",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", NULL};
static const char *const REDUCE[] = {
    "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
    "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare", NULL};

/* Number of elements of a constant 1-D value (an initializer or a Constant
 * node's tensor), or -1. */
static int64_t const_len(const nnav_model *m, uint32_t v)
{
    if (v == NNAV_NONE)
        return -1;
    const nnav_value *val = &m->values.v[v];
    const nnav_tensor *t = NULL;
    if (val->kind == NNAV_VAL_INITIALIZER)
        t = &m->tensors.v[val->producer];
    else if (val->kind == NNAV_VAL_NODE) {
        const nnav_node *nd = &m->nodes.v[val->producer];
        if (nnav_span_eqs(nd->op, "Constant"))
            for (uint32_t a = 0; a < nd->attr_count; a++) {
                const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
                if (at->type == NNAV_ATTR_TENSOR && at->tensor_count)
                    t = &m->tensors.v[at->tensor_first];
                if (at->type == NNAV_ATTR_INTS) {
                    size_t total = 0;
                    nnav_error e;
                    if (nnav_attr_ints(m, nd->attr_first + a, NULL, 0, &total, &e) == 0)
                        return (int64_t)total;
                }
            }
    }
    if (!t || t->ndims != 1)
        return t && t->ndims == 0 ? 1 : -1;
    return m->dims.v[t->dims_first];
}

static uint32_t attr_named(const nnav_model *m, const nnav_node *nd, const char *name)
{
    for (uint32_t a = 0; a < nd->attr_count; a++)
        if (nnav_span_eqs(m->attrs.v[nd->attr_first + a].name, name))
            return nd->attr_first + a;
    return NNAV_NONE;
}

static int64_t attr_int_or(const nnav_model *m, const nnav_node *nd, const char *name, int64_t dflt)
{
    uint32_t a = attr_named(m, nd, name);
    int64_t v;
    nnav_error e;
    return a != NNAV_NONE && nnav_attr_int(m, a, &v, &e) == 0 ? v : dflt;
}

static int64_t attr_list_len(const nnav_model *m, const nnav_node *nd, const char *name)
{
    uint32_t a = attr_named(m, nd, name);
    size_t total = 0;
    nnav_error e;
    return a != NNAV_NONE && nnav_attr_ints(m, a, NULL, 0, &total, &e) == 0 ? (int64_t)total : -1;
}

/* The rank a value is known to have before any node is looked at. */
static int32_t known_rank(const nnav_model *m, uint32_t v)
{
    const nnav_value *val = &m->values.v[v];
    if (val->vinfo != NNAV_NONE) {
        int32_t et;
        int hs;
        size_t rank;
        int64_t d[1];
        if (nnav_type_tensor(m->vinfos.v[val->vinfo].type, &et, &hs, &rank, d, NULL, 0) == 1 && hs)
            return (int32_t)rank;
    }
    if (val->kind == NNAV_VAL_INITIALIZER)
        return (int32_t)m->tensors.v[val->producer].ndims;
    if (val->kind == NNAV_VAL_SPARSE)
        return (int32_t)m->sparse.v[val->producer].ndims;
    return -1;
}

int32_t *nnav_infer_ranks(const nnav_model *m, uint32_t graph)
{
    int32_t *r = malloc(((size_t)m->values.n + 1) * sizeof *r);
    if (!r)
        return NULL;
    for (uint32_t v = 0; v < m->values.n; v++)
        r[v] = known_rank(m, v);
    const nnav_graph *g = &m->graphs.v[graph];
    for (uint32_t n = g->node_first; n < g->node_first + g->node_count; n++) {
        const nnav_node *nd = &m->nodes.v[n];
        int32_t in[4] = {-1, -1, -1, -1}, maxr = -1;
        int all_known = nd->in_count > 0;
        for (uint32_t i = 0; i < nd->in_count; i++) {
            uint32_t v = m->refs.v[nd->in_first + i].value;
            int32_t ri = v == NNAV_NONE ? -1 : r[v];
            if (i < 4)
                in[i] = ri;
            if (v != NNAV_NONE && ri < 0)
                all_known = 0;
            if (ri > maxr)
                maxr = ri;
        }
        int32_t out = -1;
        if (op_in(m, n, SAME)) {
            out = in[0];
        } else if (op_in(m, n, BROADCAST)) {
            out = all_known ? maxr : -1;
        } else if (op_in(m, n, (const char *const[]){"Gemm", "Flatten", "NonZero", "EyeLike", NULL})) {
            out = 2;
        } else if (op_in(m, n, (const char *const[]){"Shape", "Range", NULL})) {
            out = 1;
        } else if (op_in(m, n, (const char *const[]){"Size", NULL})) {
            out = 0;
        } else if (op_in(m, n, (const char *const[]){"MatMul", "MatMulInteger", "QLinearMatMul", NULL})) {
            int32_t a = in[0], b = nd->in_count > 1 ? in[1] : -1;
            if (op_in(m, n, (const char *const[]){"QLinearMatMul", NULL}))
                b = nd->in_count > 3 ? in[3] : -1;
            if (a >= 0 && b >= 0)
                out = a == 1 && b == 1 ? 0 : a == 1 ? b - 1 : b == 1 ? a - 1 : (a > b ? a : b);
        } else if (op_in(m, n, (const char *const[]){"Reshape", "ConstantOfShape", "Expand", NULL})) {
            uint32_t sv = NNAV_NONE;
            if (nnav_span_eqs(nd->op, "ConstantOfShape") && nd->in_count > 0)
                sv = m->refs.v[nd->in_first].value;
            else if (nd->in_count > 1)
                sv = m->refs.v[nd->in_first + 1].value;
            int64_t len = const_len(m, sv);
            if (len >= 0)
                out = (int32_t)len;
            if (nnav_span_eqs(nd->op, "Expand") && out >= 0 && in[0] > out)
                out = in[0];
            if (nnav_span_eqs(nd->op, "Reshape") && len < 0)
                out = -1;
        } else if (op_in(m, n, (const char *const[]){"Squeeze", "Unsqueeze", NULL})) {
            int64_t k = attr_list_len(m, nd, "axes");
            if (k < 0 && nd->in_count > 1)
                k = const_len(m, m->refs.v[nd->in_first + 1].value);
            int sq = nnav_span_eqs(nd->op, "Squeeze");
            if (in[0] >= 0 && k >= 0)
                out = sq ? in[0] - (int32_t)k : in[0] + (int32_t)k;
        } else if (op_in(m, n, REDUCE) || op_in(m, n, (const char *const[]){"ArgMax", "ArgMin", NULL})) {
            if (attr_int_or(m, nd, "keepdims", 1)) {
                out = in[0];
            } else if (nnav_span_eqs(nd->op, "ArgMax") || nnav_span_eqs(nd->op, "ArgMin")) {
                out = in[0] >= 1 ? in[0] - 1 : -1;
            } else {
                int64_t k = attr_list_len(m, nd, "axes");
                if (k < 0 && nd->in_count > 1)
                    k = const_len(m, m->refs.v[nd->in_first + 1].value);
                if (k < 0 && nd->in_count <= 1)
                    out = 0;
                else if (in[0] >= 0 && k >= 0)
                    out = in[0] - (int32_t)k;
            }
        } else if (op_in(m, n, (const char *const[]){"Gather", NULL})) {
            if (in[0] >= 0 && in[1] >= 0)
                out = in[0] + in[1] - 1;
        } else if (op_in(m, n, (const char *const[]){"OneHot", NULL})) {
            out = in[0] >= 0 ? in[0] + 1 : -1;
        } else if (op_in(m, n, (const char *const[]){"Constant", NULL})) {
            for (uint32_t a = 0; a < nd->attr_count; a++) {
                const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
                if (at->type == NNAV_ATTR_TENSOR && at->tensor_count)
                    out = (int32_t)m->tensors.v[at->tensor_first].ndims;
                else if (at->type == NNAV_ATTR_FLOAT || at->type == NNAV_ATTR_INT ||
                         at->type == NNAV_ATTR_STRING)
                    out = 0;
                else if (at->type == NNAV_ATTR_FLOATS || at->type == NNAV_ATTR_INTS ||
                         at->type == NNAV_ATTR_STRINGS)
                    out = 1;
            }
        }
        if (out < 0 && !(nd->out_count > 0))
            continue;
        for (uint32_t o = 0; o < nd->out_count; o++) {
            uint32_t v = m->refs.v[nd->out_first + o].value;
            if (v == NNAV_NONE || r[v] >= 0)
                continue;
            int32_t ro = out;
            /* Secondary outputs with ranks of their own. */
            if (o > 0 && nnav_span_eqs(nd->op, "BatchNormalization"))
                ro = 1;
            if (o > 0 && nnav_span_eqs(nd->op, "Dropout"))
                ro = in[0];
            if (o > 0 && nnav_span_eqs(nd->op, "DynamicQuantizeLinear"))
                ro = 0;
            r[v] = ro;
        }
    }
    return r;
}
