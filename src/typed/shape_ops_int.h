/* shape_ops_int.h - what the ONNX operator rules (shape_ops.c,
 * shape_ops_nn.c, shape_ops_flow.c) share: the small helpers every family
 * of rules uses (inline, so each rules file has its own copy and none is
 * exported), and the rules of the other files that shape_ops.c's table
 * (nnav_shape_rules) names. */
#ifndef NNAV_SHAPE_OPS_INT_H
#define NNAV_SHAPE_OPS_INT_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "shape_int.h"

#define IX nnav_ictx *ix

/* A number as a dim (unknown past the dim range: a number from the file
 * never becomes another kind of dim), and a numeric dim's number. */
static inline nnav_dim dnum(int64_t v)
{
    return nnav_dim_num(v);
}

static inline int64_t dval(nnav_dim d)
{
    return nnav_dim_val(d);
}

/* A size: a number >= 0. */
static inline int is_size(nnav_dim d)
{
    return nnav_dim_is_num(d) && nnav_dim_val(d) >= 0;
}

/* A size from an attribute: a negative one is not a size. */
static inline nnav_dim size_attr(int64_t v)
{
    return v >= 0 ? dnum(v) : NNAV_DIM_UNKNOWN;
}

/* Sums, differences and products of numbers from the file, checked: the
 * result as a dim, unknown on overflow (nnav_sd_* on numbers never adds a
 * symbol, and is checked the same way). */
static inline nnav_dim num_add(nnav_shapes *S, int64_t a, int64_t b)
{
    return nnav_sd_add(S, dnum(a), dnum(b));
}

static inline nnav_dim num_mul(nnav_shapes *S, int64_t a, int64_t b)
{
    return nnav_sd_mul(S, dnum(a), dnum(b));
}

static inline int need_rank(IX, uint32_t i)
{
    if (!nnav_ix_present(ix, i))
        return nnav_ix_fail(ix, "input %u is missing", i);
    if (nnav_ix_rank(ix, i) < 0)
        return nnav_ix_fail(ix, "input %u has no known rank", i);
    return 0;
}

/* Axis in [0, rank): negative axes count from the end. */
static inline int norm_axis(IX, int64_t axis, int32_t rank, int64_t *out)
{
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return nnav_ix_fail(ix, "axis out of range for rank %d", rank);
    *out = axis;
    return 0;
}

static inline int is_int_type(int32_t t)
{
    return t == NNAV_DT_INT64 || t == NNAV_DT_INT32 || t == NNAV_DT_INT16 || t == NNAV_DT_INT8 ||
           t == NNAV_DT_UINT64 || t == NNAV_DT_UINT32 || t == NNAV_DT_UINT16 ||
           t == NNAV_DT_UINT8;
}

/* ---- what is known when the shape is not ---- */

static inline int op_in(const nnav_ictx *ix, const char *const *ops)
{
    for (; *ops; ops++)
        if (nnav_span_eqs(ix->nd->op, *ops))
            return 1;
    return 0;
}

/* The element type of output o, for when its shape cannot be inferred (an
 * input's rank or a shape operand is not known): ONNX fixes it from the
 * op and its inputs' types alone. 0 when that is not known either. */
static inline int32_t out_dtype(IX, uint32_t o)
{
    static const char *const I64[] = {"Shape", "Size", "ArgMax", "ArgMin", "NonZero",
                                      "NonMaxSuppression", NULL};
    static const char *const BOOLS[] = {"Equal", "Greater", "Less", "GreaterOrEqual", "LessOrEqual",
                                        "And", "Or", "Xor", "Not", "IsNaN", "IsInf", NULL};
    static const char *const NONE[] = {"SequenceEmpty", "SequenceConstruct", "SequenceInsert",
                                       "SequenceErase", "SequenceAt", "SplitToSequence",
                                       "ConcatFromSequence", "If", "Loop", "Scan", "Constant",
                                       "ConstantOfShape", "QuantizeLinear", "DequantizeLinear", NULL};
    if (op_in(ix, NONE))
        return 0;
    if (op_in(ix, I64) || (o > 0 && (nnav_span_eqs(ix->nd->op, "TopK") ||
                                     nnav_span_eqs(ix->nd->op, "Unique") ||
                                     nnav_span_eqs(ix->nd->op, "MaxPool"))))
        return NNAV_DT_INT64;
    if (op_in(ix, BOOLS))
        return NNAV_DT_BOOL;
    if (nnav_span_eqs(ix->nd->op, "Where"))
        return nnav_ix_dtype(ix, 1);
    if (nnav_span_eqs(ix->nd->op, "EyeLike"))
        return (int32_t)nnav_ix_attr_i(ix, "dtype", nnav_ix_dtype(ix, 0));
    if (nnav_span_eqs(ix->nd->op, "Multinomial"))
        return (int32_t)nnav_ix_attr_i(ix, "dtype", NNAV_DT_INT32);
    if (nnav_span_eqs(ix->nd->op, "TfIdfVectorizer"))
        return NNAV_DT_FLOAT;
    if (nnav_span_eqs(ix->nd->op, "OneHot"))
        return nnav_ix_dtype(ix, 2);
    if (nnav_span_eqs(ix->nd->op, "QLinearMatMul") || nnav_span_eqs(ix->nd->op, "QLinearConv"))
        return nnav_ix_dtype(ix, 7);
    if (nnav_span_eqs(ix->nd->op, "MatMulInteger") || nnav_span_eqs(ix->nd->op, "ConvInteger"))
        return NNAV_DT_INT32;
    if (nnav_span_eqs(ix->nd->op, "LayerNormalization") && o > 0)
        return (int32_t)nnav_ix_attr_i(ix, "stash_type", NNAV_DT_FLOAT);
    if (nnav_span_eqs(ix->nd->op, "Concat"))
        for (uint32_t i = 0; i < nnav_ix_nin(ix); i++)
            if (nnav_ix_dtype(ix, i))
                return nnav_ix_dtype(ix, i);
    return nnav_ix_dtype(ix, 0);
}

/* The rule cannot give shapes for want of a fact (its reason is already in
 * ix->why): the outputs get their element types, and the reason stays with
 * them. -1 when not even the types are known. */
static inline int typed_only(IX)
{
    int any = 0;
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        int32_t dt = out_dtype(ix, o);
        if (dt) {
            nnav_ix_out(ix, o, dt, -1, NULL);
            any = 1;
        }
    }
    return any ? 0 : -1;
}

/* typed_only() with the reason set here. */
static inline int typed_fail(IX, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline int typed_fail(IX, const char *fmt, ...)
{
    char buf[sizeof ix->why];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    nnav_ix_fail(ix, "%s", buf);
    return typed_only(ix);
}

/* An input is present but its rank is not known. */
static inline int rank_missing(IX)
{
    for (uint32_t i = 0; i < nnav_ix_nin(ix); i++)
        if (nnav_ix_present(ix, i) && nnav_ix_rank(ix, i) < 0)
            return 1;
    return 0;
}

/* Output 0: input 0's shape, of element type dt. */
static inline int out_as_input(IX, int32_t dt)
{
    const nnav_fact *f = nnav_ix_in(ix, 0);
    if (!f)
        return nnav_ix_fail(ix, "input 0 is missing");
    nnav_ix_out(ix, 0, dt, f->rank, nnav_ix_dims(ix, 0));
    return 0;
}

/* Output 0 of rank r, its sizes unknown. */
static inline int out_rank_only(IX, int32_t dt, int32_t r)
{
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0; i < r; i++)
        d[i] = NNAV_DIM_UNKNOWN;
    nnav_ix_out(ix, 0, dt, r, d);
    return 0;
}

/* Input i folded to one value (a scalar or a 1-vector), else unknown. */
static inline nnav_dim fold_one(IX, uint32_t i)
{
    const nnav_dim *v;
    return nnav_ix_fold(ix, i, &v) == 1 ? v[0] : NNAV_DIM_UNKNOWN;
}

/* Input i's folded values copied into out: their count, -1 when they are
 * not folded or more than max. */
static inline int fold_copy(IX, uint32_t i, nnav_dim *out, int max)
{
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, i, &v);
    if (n < 0 || n > max)
        return -1;
    memcpy(out, v, (size_t)n * sizeof *out);
    return n;
}

/* A bound (Slice's starts and ends, where INT64_MAX and its like mean "to
 * the end") as a dim: clamped to the dim range, which is still past any
 * axis. */
static inline nnav_dim dim_clamped(int64_t x)
{
    return dnum(x > NNAV_DIM_MAX ? NNAV_DIM_MAX : x < -NNAV_DIM_MAX ? -NNAV_DIM_MAX : x);
}

/* A constant's number as a dim, clamped the same way (the double of
 * INT64_MAX does not fit back in an int64_t). A NaN is unknown: casting it
 * (or an infinity, or anything past int64_t) would be undefined. */
static inline nnav_dim dim_of_double(double x)
{
    if (isnan(x))
        return NNAV_DIM_UNKNOWN;
    return x >= 4.0e18 ? dnum(NNAV_DIM_MAX) : x <= -4.0e18 ? dnum(-NNAV_DIM_MAX)
                                                          : dnum((int64_t)x);
}

/* A value read from an integer tensor that folding may take: a whole
 * number an int64 can hold (INT64_MAX reads as 2^63, the double nearest).
 * A NaN, an infinity or 1e300 (data in a float field of an int64 tensor)
 * is not foldable. */
static inline int foldable(double x)
{
    return x >= -9223372036854775808.0 && x <= 9223372036854775808.0 && x == floor(x);
}

/* ---- folded floating values ----
 * A fold of a floating type holds whole numbers only, each exactly what the
 * tensor holds: made by a Cast of integers, by sums and products of whole
 * numbers, or read from a floating constant whose every element is a whole
 * number (Paddle's exports compute Resize sizes as Cast(Cast(h, float) *
 * 2.0, int64)). A symbolic element is a size, taken to be below the type's
 * exact range. Anything else (0.5, a quotient) is not folded. */

/* The magnitude up to which a floating type holds every integer exactly; 0
 * for a type that is not floating. */
static inline int64_t float_exact(int32_t t)
{
    switch (t) {
    case NNAV_DT_FLOAT: return (int64_t)1 << 24;
    case NNAV_DT_DOUBLE: return (int64_t)1 << 53;
    case NNAV_DT_FLOAT16: return 2048;
    case NNAV_DT_BFLOAT16: return 256;
    }
    return 0;
}

/* 1 when a fold of element type t holds each of v exactly: always for an
 * integer type (the caller's business), for a floating one each number
 * within float_exact(t). */
static inline int fold_fits(int32_t t, const nnav_dim *v, size_t n)
{
    int64_t ex = float_exact(t);
    for (size_t i = 0; ex && i < n; i++)
        if (nnav_dim_is_num(v[i]) && (dval(v[i]) > ex || dval(v[i]) < -ex))
            return 0;
    return 1;
}

/* Input i's folded value; or, for a floating constant of rank 0 or 1 whose
 * every element is a whole number its type holds exactly, those numbers
 * (in buf). Count, or -1. */
static inline int fold_in(IX, uint32_t i, const nnav_dim **v, nnav_dim *buf)
{
    int n = nnav_ix_fold(ix, i, v);
    if (n >= 0)
        return n;
    int64_t ex = float_exact(nnav_ix_dtype(ix, i));
    if (!ex || nnav_ix_rank(ix, i) > 1)
        return -1;
    double f[NNAV_FOLD_MAX];
    n = nnav_ix_floats(ix, i, f, NNAV_FOLD_MAX);
    for (int k = 0; k < n; k++) {
        /* written so that a NaN fails too */
        if (!(f[k] >= (double)-ex && f[k] <= (double)ex) || f[k] != floor(f[k]))
            return -1;
        buf[k] = dnum((int64_t)f[k]);
    }
    *v = buf;
    return n;
}

/* Axes from the attribute (older opsets) or the second input. */
static inline int axes_of(IX, uint32_t input, int64_t *axes, int *n)
{
    *n = nnav_ix_attr_ints(ix, "axes", axes, NNAV_RANK_MAX);
    if (*n >= 0)
        return 0;
    if (!nnav_ix_present(ix, input)) {
        *n = -1; /* none given */
        return 0;
    }
    *n = nnav_ix_ints(ix, input, axes, NNAV_RANK_MAX);
    if (*n < 0)
        return nnav_ix_fail(ix, "its axes (input %u) are not known", input);
    return 0;
}

/* ---- the rules of shape_ops_nn.c ---- */
int nnav_rule_matmul(nnav_ictx *ix);
int nnav_rule_qlinear_matmul(nnav_ictx *ix);
int nnav_rule_gemm(nnav_ictx *ix);
int nnav_rule_conv(nnav_ictx *ix);
int nnav_rule_conv_transpose(nnav_ictx *ix);
int nnav_rule_pool(nnav_ictx *ix);
int nnav_rule_global_pool(nnav_ictx *ix);
int nnav_rule_reduce(nnav_ictx *ix);
int nnav_rule_argmax(nnav_ictx *ix);
int nnav_rule_quantize(nnav_ictx *ix);
int nnav_rule_dequantize(nnav_ictx *ix);
int nnav_rule_dyn_quantize(nnav_ictx *ix);
int nnav_rule_layernorm(nnav_ictx *ix);
int nnav_rule_loss(nnav_ictx *ix);
int nnav_rule_string_normalizer(nnav_ictx *ix);
int nnav_rule_rnn(nnav_ictx *ix);

/* ---- the ONNX rules of shape_ops_llm.c ---- */
int nnav_rule_attention(nnav_ictx *ix);
int nnav_rule_col2im(nnav_ictx *ix);
int nnav_rule_affine_grid(nnav_ictx *ix);
/* input 0's type and shape, no folded value (RMSNormalization, RotaryEmbedding) */
int nnav_rule_same_shape(nnav_ictx *ix);

/* ---- the rules of shape_ops_flow.c ---- */
int nnav_rule_if(nnav_ictx *ix);
int nnav_rule_loop(nnav_ictx *ix);
int nnav_rule_scan(nnav_ictx *ix);
int nnav_rule_sequence_map(nnav_ictx *ix);
int nnav_rule_seq_empty(nnav_ictx *ix);
int nnav_rule_seq_construct(nnav_ictx *ix);
int nnav_rule_seq_insert(nnav_ictx *ix);
int nnav_rule_seq_erase(nnav_ictx *ix);
int nnav_rule_seq_at(nnav_ictx *ix);
int nnav_rule_seq_length(nnav_ictx *ix);
int nnav_rule_split_to_seq(nnav_ictx *ix);
int nnav_rule_concat_from_seq(nnav_ictx *ix);

#endif
