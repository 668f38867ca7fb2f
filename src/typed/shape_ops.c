/* shape_ops.c - the ONNX operators' type and shape rules, one function per
 * family, each reading its node through shape_int.h. A rule that cannot say
 * fails with a reason; it never guesses. When only a rank or a shape operand
 * is missing it still gives the element types (as ONNX does), with the
 * reason. Sizes computed from shapes (Shape, Gather, Concat, Unsqueeze,
 * Slice, arithmetic, Range...) are folded, so Reshape, Expand, Resize and
 * ConstantOfShape downstream get real, possibly symbolic, shapes. Symbolic
 * sizes are taken to be at least as large as the offsets a model cuts from
 * them (x[1:] on seq is seq-1); where the answer depends on which of two
 * sizes is smaller, the size is unknown.
 *
 * The rules of neural network layers are in shape_ops_nn.c, those of ops
 * that run bodies or carry sequences in shape_ops_flow.c, the helpers they
 * all share in shape_ops_int.h; this file holds the others and the table of
 * them all, nnav_shape_rules. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "shape_ops_int.h"

/* ---- same shape as the first input ---- */

/* Same shape; a folded value is kept only through the ops that leave whole
 * numbers as they are (Identity, Floor, Ceil, Round), and worked out for
 * Abs and Relu where the sign is sure (nnav_sd_sign). Any other op's result
 * (Sign, Clip, Exp...) is not the input's value. */
static int r_same(IX)
{
    if (!nnav_ix_present(ix, 0))
        return nnav_ix_fail(ix, "input 0 is missing");
    nnav_ix_out_same(ix, 0, 0);
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, 0, &v);
    static const char *const keep[] = {"Identity", "Floor", "Ceil", "Round", NULL};
    if (n < 0 || op_in(ix, keep))
        return 0;
    static const char *const pos[] = {"Abs", "Relu", NULL};
    if (op_in(ix, pos)) {
        nnav_dim o[NNAV_FOLD_MAX];
        int relu = nnav_span_eqs(ix->nd->op, "Relu");
        for (int i = 0; i < n; i++) {
            int sg = nnav_sd_sign(ix->S, v[i]);
            o[i] = sg > 0 ? v[i]
                   : sg < 0 ? (relu ? dnum(0) : nnav_sd_mul(ix->S, v[i], dnum(-1)))
                            : NNAV_DIM_UNKNOWN;
        }
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0) == 0, o, (size_t)n);
        return 0;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0), nnav_ix_dims(ix, 0));
    return 0;
}

/* Unary ops that keep folded integers meaningful (Identity: r_same keeps
 * them as they are). */
static int r_neg(IX)
{
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, 0, &v);
    if (n >= 0) {
        nnav_dim o[NNAV_FOLD_MAX];
        for (int i = 0; i < n; i++)
            o[i] = nnav_sd_mul(ix->S, v[i], dnum(-1));
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0) == 0, o, (size_t)n);
        return 0;
    }
    return r_same(ix);
}

static int r_to_bool(IX)
{
    return out_as_input(ix, NNAV_DT_BOOL);
}

static int r_cast(IX)
{
    int64_t to = nnav_ix_attr_i(ix, "to", 0);
    int32_t dt = to ? (int32_t)to : nnav_ix_dtype(ix, 1); /* CastLike: the second input's */
    const nnav_fact *f = nnav_ix_in(ix, 0);
    if (!f)
        return nnav_ix_fail(ix, "input 0 is missing");
    const nnav_dim *v;
    nnav_dim buf[NNAV_FOLD_MAX];
    int n = fold_in(ix, 0, &v, buf);
    /* Whole numbers cast to an integer type, or to a floating one that
     * holds them exactly, are the same numbers. */
    if (n >= 0 && (is_int_type(dt) || (float_exact(dt) && fold_fits(dt, v, (size_t)n)))) {
        nnav_ix_out_fold(ix, 0, dt, f->rank == 0, v, (size_t)n);
        return 0;
    }
    return out_as_input(ix, dt);
}

static int r_dropout(IX)
{
    nnav_ix_out_same(ix, 0, 0);
    /* The mask is boolean from opset 10; before, of the input's type. */
    int64_t op = nnav_ix_opset(ix);
    int32_t mt = op > 0 && op < 10 ? nnav_ix_dtype(ix, 0) : NNAV_DT_BOOL;
    if (nnav_ix_nout(ix) > 1)
        nnav_ix_out(ix, 1, mt, nnav_ix_rank(ix, 0), nnav_ix_dims(ix, 0));
    return 0;
}

static int r_batchnorm(IX)
{
    nnav_ix_out_same(ix, 0, 0);
    /* Training mode: running mean and var, shaped as the scale. */
    for (uint32_t o = 1; o < nnav_ix_nout(ix) && o < 3; o++)
        nnav_ix_out_same(ix, o, 3);
    return 0;
}

/* ---- broadcasting ---- */

static int broadcast_shape(IX, uint32_t first, uint32_t count, nnav_dim *out, int32_t *rank)
{
    int32_t r = 0;
    for (uint32_t i = first; i < first + count; i++) {
        if (need_rank(ix, i) < 0)
            return -1;
        if (nnav_ix_rank(ix, i) > r)
            r = nnav_ix_rank(ix, i);
    }
    if (r > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    for (int32_t k = 0; k < r; k++)
        out[k] = dnum(1);
    for (uint32_t i = first; i < first + count; i++) {
        int32_t ri = nnav_ix_rank(ix, i);
        const nnav_dim *d = nnav_ix_dims(ix, i);
        for (int32_t k = 0; k < ri; k++) {
            int bad = 0;
            int32_t at = r - ri + k;
            out[at] = nnav_sd_broadcast(ix->S, out[at], d[k], &bad);
            if (bad)
                return nnav_ix_fail(ix, "inputs cannot be broadcast together (axis %d)", at);
        }
    }
    *rank = r;
    return 0;
}

/* Folded elementwise arithmetic on small integer vectors (and scalars). */
static int fold_binary(IX, char op, int32_t dtype)
{
    const nnav_dim *a, *b;
    nnav_dim abuf[NNAV_FOLD_MAX], bbuf[NNAV_FOLD_MAX];
    int na = fold_in(ix, 0, &a, abuf), nb = fold_in(ix, 1, &b, bbuf);
    if (na < 0 || nb < 0 || (na != nb && na != 1 && nb != 1))
        return 0;
    /* floating division is not floor division: not folded */
    if (op == '/' && !is_int_type(dtype))
        return 0;
    int n = na > nb ? na : nb;
    nnav_dim o[NNAV_FOLD_MAX];
    for (int i = 0; i < n; i++) {
        nnav_dim x = a[na == 1 ? 0 : i], y = b[nb == 1 ? 0 : i];
        switch (op) {
        case '+': o[i] = nnav_sd_add(ix->S, x, y); break;
        case '-': o[i] = nnav_sd_sub(ix->S, x, y); break;
        case '*': o[i] = nnav_sd_mul(ix->S, x, y); break;
        case '/': o[i] = nnav_sd_div(ix->S, x, y); break;
        case '=':
            /* A symbolic size is never negative: it is not the -1 a
             * Where(Equal(shape, -1), ...) looks for. */
            o[i] = nnav_sd_same(x, y) ? dnum(1)
                   : (nnav_dim_is_num(x) && nnav_dim_is_num(y)) ||
                           (nnav_dim_is_sym(x) && nnav_dim_is_num(y) && dval(y) < 0) ||
                           (nnav_dim_is_sym(y) && nnav_dim_is_num(x) && dval(x) < 0)
                       ? dnum(0)
                       : NNAV_DIM_UNKNOWN;
            break;
        case '>':
        case '<':
            if (!nnav_dim_is_num(x) || !nnav_dim_is_num(y))
                return 0;
            o[i] = (op == '>') == (dval(x) > dval(y)) ? x : y;
            break;
        default: return 0;
        }
    }
    if (!fold_fits(dtype, o, (size_t)n))
        return 0;
    int scalar = nnav_ix_rank(ix, 0) == 0 && nnav_ix_rank(ix, 1) == 0;
    nnav_ix_out_fold(ix, 0, dtype, scalar, o, (size_t)n);
    return 1;
}

static int r_broadcast_as(IX, int32_t dtype, char fold_op)
{
    nnav_dim d[NNAV_RANK_MAX];
    int32_t r = 0;
    uint32_t n = nnav_ix_nin(ix);
    if (n == 0)
        return nnav_ix_fail(ix, "no inputs");
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 7 && nnav_ix_attr_i(ix, "broadcast", 0)) {
        /* Before opset 7, B is laid along A from `axis`, not from the end:
         * the result has A's shape. */
        const nnav_fact *a = nnav_ix_in(ix, 0);
        if (!a)
            return nnav_ix_fail(ix, "input 0 is missing");
        nnav_ix_out(ix, 0, dtype ? dtype : a->dtype, a->rank, nnav_ix_dims(ix, 0));
        return 0;
    }
    if (broadcast_shape(ix, 0, n, d, &r) < 0)
        return rank_missing(ix) ? typed_only(ix) : -1;
    if (!dtype)
        dtype = nnav_ix_dtype(ix, 0);
    if (fold_op && n == 2 && r <= 1 && fold_binary(ix, fold_op, dtype))
        return 0;
    nnav_ix_out(ix, 0, dtype, r, d);
    return 0;
}

static int r_add(IX) { return r_broadcast_as(ix, 0, '+'); }
static int r_sub(IX) { return r_broadcast_as(ix, 0, '-'); }
static int r_mul(IX) { return r_broadcast_as(ix, 0, '*'); }
static int r_div(IX) { return r_broadcast_as(ix, 0, is_int_type(nnav_ix_dtype(ix, 0)) ? '/' : 0); }
static int r_max(IX) { return r_broadcast_as(ix, 0, '>'); }
static int r_min(IX) { return r_broadcast_as(ix, 0, '<'); }
static int r_bcast(IX) { return r_broadcast_as(ix, 0, 0); }
static int r_equal(IX) { return r_broadcast_as(ix, NNAV_DT_BOOL, '='); }
static int r_compare(IX) { return r_broadcast_as(ix, NNAV_DT_BOOL, 0); }

static int r_where(IX)
{
    nnav_dim d[NNAV_RANK_MAX];
    int32_t r = 0;
    if (broadcast_shape(ix, 0, 3, d, &r) < 0)
        return rank_missing(ix) ? typed_only(ix) : -1;
    const nnav_dim *c, *x, *y;
    int nc = nnav_ix_fold(ix, 0, &c), nx = nnav_ix_fold(ix, 1, &x), ny = nnav_ix_fold(ix, 2, &y);
    if (r <= 1 && nc > 0 && nx > 0 && ny > 0) {
        int n = nc > nx ? nc : nx;
        n = ny > n ? ny : n;
        nnav_dim o[NNAV_FOLD_MAX];
        int ok = (nc == n || nc == 1) && (nx == n || nx == 1) && (ny == n || ny == 1);
        for (int i = 0; ok && i < n; i++) {
            nnav_dim ci = c[nc == 1 ? 0 : i];
            if (!nnav_dim_is_num(ci))
                ok = 0;
            else
                o[i] = dval(ci) ? x[nx == 1 ? 0 : i] : y[ny == 1 ? 0 : i];
        }
        if (ok) {
            nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 1), r == 0, o, (size_t)n);
            return 0;
        }
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 1), r, d);
    return 0;
}

/* ---- shapes as data ---- */

static int r_shape(IX)
{
    if (need_rank(ix, 0) < 0) {
        /* a vector whatever the input; its length is the rank */
        nnav_dim len = NNAV_DIM_UNKNOWN;
        nnav_ix_out(ix, 0, NNAV_DT_INT64, 1, &len);
        return nnav_ix_present(ix, 0) ? 0 : -1;
    }
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t start = nnav_ix_attr_i(ix, "start", 0), end = nnav_ix_attr_i(ix, "end", r);
    if (start < 0)
        start += r;
    if (end < 0)
        end += r;
    start = start < 0 ? 0 : start > r ? r : start;
    end = end < 0 ? 0 : end > r ? r : end;
    if (end < start)
        end = start;
    nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 0, nnav_ix_dims(ix, 0) + start, (size_t)(end - start));
    return 0;
}

static int r_size(IX)
{
    if (need_rank(ix, 0) < 0) {
        nnav_ix_out(ix, 0, NNAV_DT_INT64, 0, NULL); /* a scalar whatever the input */
        return nnav_ix_present(ix, 0) ? 0 : -1;
    }
    nnav_dim p = dnum(1);
    const nnav_dim *d = nnav_ix_dims(ix, 0);
    for (int32_t i = 0; i < nnav_ix_rank(ix, 0); i++)
        p = nnav_sd_mul(ix->S, p, d[i]);
    nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 1, &p, 1);
    return 0;
}

static uint32_t attr_tensor(IX, const char *name)
{
    uint32_t a = nnav_ix_attr(ix, name);
    if (a == NNAV_NONE)
        return NNAV_NONE;
    const nnav_attr *at = &ix->m->attrs.v[a];
    return at->type == NNAV_ATTR_TENSOR && at->tensor_count ? at->tensor_first : NNAV_NONE;
}

/* A tensor's fact, folded when it is a small integer vector or scalar. */
static int out_tensor(IX, uint32_t o, uint32_t t)
{
    const nnav_model *m = ix->m;
    const nnav_tensor *tt = &m->tensors.v[t];
    if (tt->ndims > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_dim d[NNAV_RANK_MAX];
    for (uint32_t i = 0; i < tt->ndims; i++)
        d[i] = m->dims.v[tt->dims_first + i] >= 0 ? dnum(m->dims.v[tt->dims_first + i])
                                                  : NNAV_DIM_UNKNOWN;
    if (is_int_type(tt->dtype) && tt->ndims <= 1 && tt->nelems <= NNAV_FOLD_MAX && !tt->warn) {
        double buf[NNAV_FOLD_MAX];
        nnav_values vals = {0};
        vals.v = buf;
        nnav_error e;
        int ok = nnav_tensor_values(m, t, NNAV_FOLD_MAX, 0, &vals, &e) == 0 &&
                 vals.count == tt->nelems;
        /* Only numbers a double holds exactly, as for initializers
         * (fold_tensor): INT64_MAX, "to the end", read as 2^63 and kept as
         * 2^62, is not the value; Slice reads such a constant itself
         * (list_operand), clamped. */
        for (size_t i = 0; ok && i < vals.count; i++)
            ok = foldable(buf[i]) && fabs(buf[i]) <= 9.0e15;
        if (ok) {
            nnav_dim f[NNAV_FOLD_MAX];
            for (size_t i = 0; i < vals.count; i++)
                f[i] = dim_of_double(buf[i]);
            nnav_ix_out_fold(ix, o, tt->dtype, tt->ndims == 0, f, vals.count);
            return 0;
        }
    }
    nnav_ix_out(ix, o, tt->dtype, (int32_t)tt->ndims, d);
    return 0;
}

static int r_constant(IX)
{
    uint32_t t = attr_tensor(ix, "value");
    if (t != NNAV_NONE)
        return out_tensor(ix, 0, t);
    int64_t ints[NNAV_FOLD_MAX];
    nnav_dim one;
    if (nnav_ix_attr_has(ix, "value_int")) {
        nnav_dim v = dnum(nnav_ix_attr_i(ix, "value_int", 0));
        nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 1, &v, 1);
        return 0;
    }
    if (nnav_ix_attr_has(ix, "value_ints")) {
        int n = nnav_ix_attr_ints(ix, "value_ints", ints, NNAV_FOLD_MAX);
        if (n >= 0) {
            nnav_dim v[NNAV_FOLD_MAX];
            for (int i = 0; i < n; i++)
                v[i] = dnum(ints[i]);
            nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 0, v, (size_t)n);
        } else {
            size_t total = 0;
            nnav_error e;
            nnav_attr_ints(ix->m, nnav_ix_attr(ix, "value_ints"), NULL, 0, &total, &e);
            nnav_dim len = total <= (uint64_t)NNAV_DIM_MAX ? dnum((int64_t)total) : NNAV_DIM_UNKNOWN;
            nnav_ix_out(ix, 0, NNAV_DT_INT64, 1, &len);
        }
        return 0;
    }
    static const struct { const char *name; int32_t dt; int list; } K[] = {
        {"value_float", NNAV_DT_FLOAT, 0}, {"value_floats", NNAV_DT_FLOAT, 1},
        {"value_string", NNAV_DT_STRING, 0}, {"value_strings", NNAV_DT_STRING, 1}};
    for (size_t k = 0; k < sizeof K / sizeof *K; k++) {
        uint32_t a = nnav_ix_attr(ix, K[k].name);
        if (a == NNAV_NONE)
            continue;
        if (!K[k].list) {
            nnav_ix_out(ix, 0, K[k].dt, 0, NULL);
            return 0;
        }
        size_t total = 0;
        nnav_error e;
        if (K[k].dt == NNAV_DT_FLOAT)
            nnav_attr_floats(ix->m, a, NULL, 0, &total, &e);
        else {
            /* A buffer, not NULL: without one the walker reads the strings' bytes as numbers. */
            nnav_span first;
            nnav_attr_strings(ix->m, a, &first, 1, &total, &e);
        }
        one = total <= (uint64_t)NNAV_DIM_MAX ? dnum((int64_t)total) : NNAV_DIM_UNKNOWN;
        nnav_ix_out(ix, 0, K[k].dt, 1, &one);
        return 0;
    }
    return nnav_ix_fail(ix, "no value attribute it can read");
}

static int r_constant_of_shape(IX)
{
    const nnav_dim *s;
    int n = nnav_ix_fold(ix, 0, &s);
    int32_t dt = NNAV_DT_FLOAT;
    uint32_t t = attr_tensor(ix, "value");
    double fill = 0;
    if (t != NNAV_NONE) {
        dt = ix->m->tensors.v[t].dtype;
        nnav_values vals = {0};
        vals.v = &fill;
        nnav_error e;
        if (nnav_tensor_values(ix->m, t, 1, 0, &vals, &e) < 0 || vals.count != 1)
            fill = NAN;
    }
    if (n < 0) {
        /* The rank is the shape operand's length even when its values are unknown. */
        const nnav_dim *len = nnav_ix_dims(ix, 0);
        if (nnav_ix_rank(ix, 0) == 1 && is_size(len[0]) && dval(len[0]) <= NNAV_RANK_MAX)
            return out_rank_only(ix, dt, (int32_t)dval(len[0]));
        nnav_ix_fail(ix, "its shape operand is not known");
        nnav_ix_out(ix, 0, dt, -1, NULL);
        return 0;
    }
    if (n > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    for (int i = 0; i < n; i++)
        if (nnav_dim_is_num(s[i]) && dval(s[i]) < 0)
            return nnav_ix_fail(ix, "negative size in its shape operand");
    /* A small integer fill folds (an int vector of ones, of -1s...). */
    if (n <= 1 && is_int_type(dt) && fabs(fill) <= 9.0e15 && fill == floor(fill)) {
        int64_t cnt = n == 0 ? 1 : is_size(s[0]) ? dval(s[0]) : -1;
        if (cnt >= 0 && cnt <= NNAV_FOLD_MAX) {
            nnav_dim o[NNAV_FOLD_MAX];
            for (int64_t i = 0; i < cnt; i++)
                o[i] = dnum((int64_t)fill);
            nnav_ix_out_fold(ix, 0, dt, n == 0, o, (size_t)cnt);
            return 0;
        }
    }
    nnav_ix_out(ix, 0, dt, n, s);
    return 0;
}

/* The length of a 1-D operand whose values are not known, or -1. */
static int operand_len(IX, uint32_t i)
{
    const nnav_dim *d = nnav_ix_dims(ix, i);
    if (!d || nnav_ix_rank(ix, i) != 1 || !is_size(d[0]) || dval(d[0]) > NNAV_RANK_MAX)
        return -1;
    return (int)dval(d[0]);
}

static int shape_operand(IX, uint32_t i, nnav_dim *d, int32_t *n)
{
    const nnav_dim *s;
    int k = nnav_ix_fold(ix, i, &s);
    if (k < 0)
        return nnav_ix_fail(ix, "its shape operand (input %u) is not known", i);
    if (k > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    memcpy(d, s, (size_t)k * sizeof *d);
    *n = k;
    return 0;
}

/* Output 0: input 0's type with shape d (rank r), and its folded values
 * carried over while the rank stays at most 1. */
static int out_reshaped(IX, int32_t r, const nnav_dim *d, int scalar)
{
    const nnav_dim *v;
    int nv = nnav_ix_fold(ix, 0, &v);
    if (nv >= 0 && r <= 1)
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), scalar, v, (size_t)nv);
    else
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_reshape(IX)
{
    nnav_dim d[NNAV_RANK_MAX];
    int32_t n = 0;
    int64_t attr[NNAV_RANK_MAX];
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 5) { /* the shape was an attribute */
        n = nnav_ix_attr_ints(ix, "shape", attr, NNAV_RANK_MAX);
        if (n < 0)
            return nnav_ix_fail(ix, "no shape attribute");
        for (int32_t i = 0; i < n; i++)
            d[i] = dnum(attr[i]);
    } else if (shape_operand(ix, 1, d, &n) < 0) {
        /* Values unknown, length known: the rank. */
        n = operand_len(ix, 1);
        return n < 0 ? typed_only(ix) : out_rank_only(ix, nnav_ix_dtype(ix, 0), n);
    }
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    int allowzero = (int)nnav_ix_attr_i(ix, "allowzero", 0);
    int infer = -1;
    for (int32_t i = 0; i < n; i++) {
        if (nnav_dim_is(d[i], 0) && !allowzero) {
            if (i >= r)
                return nnav_ix_fail(ix, "0 copies axis %d, beyond the input's rank", i);
            d[i] = in[i];
        } else if (nnav_dim_is(d[i], -1)) {
            if (infer >= 0)
                return nnav_ix_fail(ix, "more than one -1");
            infer = i;
        } else if (nnav_dim_is_num(d[i]) && dval(d[i]) < 0) {
            return nnav_ix_fail(ix, "size %lld in its shape operand", (long long)dval(d[i]));
        }
    }
    if (infer >= 0) {
        d[infer] = NNAV_DIM_UNKNOWN;
        if (r >= 0) {
            nnav_dim total = dnum(1), known = dnum(1);
            for (int32_t i = 0; i < r; i++)
                total = nnav_sd_mul(ix->S, total, in[i]);
            for (int32_t i = 0; i < n; i++)
                if (i != infer)
                    known = nnav_sd_mul(ix->S, known, d[i]);
            if (is_size(total) && is_size(known) && dval(known) && dval(total) % dval(known))
                return nnav_ix_fail(ix, "%lld elements do not divide by %lld",
                                    (long long)dval(total), (long long)dval(known));
            d[infer] = nnav_sd_div(ix->S, total, known);
        }
    } else if (r >= 0) {
        /* Every size given: the counts must match, or the file is wrong. */
        nnav_dim total = dnum(1), out = dnum(1);
        for (int32_t i = 0; i < r; i++)
            total = nnav_sd_mul(ix->S, total, in[i]);
        for (int32_t i = 0; i < n; i++)
            out = nnav_sd_mul(ix->S, out, d[i]);
        if (nnav_dim_is_num(total) && nnav_dim_is_num(out) && !nnav_dim_eq(total, out))
            return nnav_ix_fail(ix, "%lld elements reshaped to %lld", (long long)dval(total),
                                (long long)dval(out));
    }
    return out_reshaped(ix, n, d, n == 0);
}

static int r_flatten(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = nnav_ix_attr_i(ix, "axis", 1);
    if (axis < 0)
        axis += r;
    if (axis < 0 || axis > r)
        return nnav_ix_fail(ix, "axis out of range");
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[2] = {dnum(1), dnum(1)};
    for (int32_t i = 0; i < r; i++)
        d[i >= axis] = nnav_sd_mul(ix->S, d[i >= axis], in[i]);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 2, d);
    return 0;
}

static int r_unsqueeze(IX)
{
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (axes_of(ix, 1, axes, &na) < 0) {
        /* Where the new axes go is not known; how many is, when the axes
         * operand's length is. */
        int n = operand_len(ix, 1);
        int32_t out = nnav_ix_rank(ix, 0) + n;
        if (n < 0 || out > NNAV_RANK_MAX)
            return typed_only(ix);
        return out_rank_only(ix, nnav_ix_dtype(ix, 0), out);
    }
    if (na < 0)
        return nnav_ix_fail(ix, "no axes");
    int32_t r = nnav_ix_rank(ix, 0), out = r + na;
    if (out > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    uint8_t at[NNAV_RANK_MAX] = {0};
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], out, &a) < 0)
            return -1;
        if (at[a])
            return nnav_ix_fail(ix, "axis %lld given twice", (long long)axes[i]);
        at[a] = 1;
    }
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0, k = 0; i < out; i++)
        d[i] = at[i] ? dnum(1) : in[k++];
    return out_reshaped(ix, out, d, 0);
}

static int r_squeeze(IX)
{
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (need_rank(ix, 0) < 0 || axes_of(ix, 1, axes, &na) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    uint8_t drop[NNAV_RANK_MAX] = {0};
    if (na < 0) {
        for (int32_t i = 0; i < r; i++) {
            if (!nnav_dim_is_num(in[i]))
                return typed_fail(ix, "no axes, and axis %d's size is not known", i);
            drop[i] = nnav_dim_is(in[i], 1);
        }
    }
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        if (nnav_dim_is_num(in[a]) && !nnav_dim_is(in[a], 1))
            return nnav_ix_fail(ix, "axis %lld has size %lld, not 1", (long long)a,
                                (long long)dval(in[a]));
        drop[a] = 1;
    }
    nnav_dim d[NNAV_RANK_MAX];
    int32_t out = 0;
    for (int32_t i = 0; i < r; i++)
        if (!drop[i])
            d[out++] = in[i];
    return out_reshaped(ix, out, d, out == 0);
}

static int r_transpose(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t perm[NNAV_RANK_MAX];
    int np = nnav_ix_attr_ints(ix, "perm", perm, NNAV_RANK_MAX);
    if (np < 0) {
        for (int32_t i = 0; i < r; i++)
            perm[i] = r - 1 - i;
        np = r;
    }
    if (np != r)
        return nnav_ix_fail(ix, "perm has %d entries for rank %d", np, r);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    uint8_t seen[NNAV_RANK_MAX] = {0};
    for (int32_t i = 0; i < r; i++) {
        if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
            return nnav_ix_fail(ix, "perm is not a permutation");
        seen[perm[i]] = 1;
        d[i] = in[perm[i]];
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_concat(IX)
{
    uint32_t n = nnav_ix_nin(ix);
    int32_t r = -1;
    for (uint32_t i = 0; i < n; i++)
        if (nnav_ix_rank(ix, i) >= 0)
            r = nnav_ix_rank(ix, i);
    if (r < 0)
        return typed_fail(ix, "no input has a known rank");
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    /* Small integer vectors concatenate as data too; an input not folded
     * but of known length gives unknown elements ([N, 8, ?, ?]: Resize
     * sizes whose computed part does not fold), if another one folds. */
    if (r == 1) {
        nnav_dim o[NNAV_FOLD_MAX];
        size_t k = 0;
        int ok = 1, folded = 0;
        for (uint32_t i = 0; i < n && ok; i++) {
            const nnav_dim *v;
            nnav_dim buf[NNAV_FOLD_MAX];
            int nv = fold_in(ix, i, &v, buf);
            const nnav_dim *di = nnav_ix_dims(ix, i);
            if (nv < 0 && nnav_ix_rank(ix, i) == 1 && nnav_dim_is_num(di[0]) && dval(di[0]) >= 0 &&
                dval(di[0]) <= NNAV_FOLD_MAX) {
                nv = (int)dval(di[0]);
                for (int j = 0; j < nv; j++)
                    buf[j] = NNAV_DIM_UNKNOWN;
                v = buf;
            } else if (nv >= 0)
                folded = 1;
            if (nv < 0 || k + (size_t)nv > NNAV_FOLD_MAX)
                ok = 0;
            else
                memcpy(o + k, v, (size_t)nv * sizeof *o), k += (size_t)nv;
        }
        if (ok && folded && fold_fits(nnav_ix_dtype(ix, 0), o, k)) {
            nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), 0, o, k);
            return 0;
        }
    }
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t k = 0; k < r; k++)
        d[k] = k == axis ? dnum(0) : NNAV_DIM_UNKNOWN;
    int32_t dt = 0;
    for (uint32_t i = 0; i < n; i++) {
        const nnav_dim *in = nnav_ix_dims(ix, i);
        if (!dt)
            dt = nnav_ix_dtype(ix, i);
        if (!in) {
            d[axis] = NNAV_DIM_UNKNOWN;
            continue;
        }
        if (nnav_ix_rank(ix, i) != r)
            return nnav_ix_fail(ix, "inputs of different ranks");
        for (int32_t k = 0; k < r; k++) {
            if (k == axis)
                d[k] = nnav_sd_add(ix->S, d[k], in[k]);
            else if (nnav_dim_is_unknown(d[k]) || (!nnav_dim_is_num(d[k]) && nnav_dim_is_num(in[k])))
                d[k] = in[k];
        }
    }
    nnav_ix_out(ix, 0, dt, r, d);
    return 0;
}

/* Gather: data[:axis] + indices' shape + data[axis+1:]. */
static int r_gather(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0), q = nnav_ix_rank(ix, 1);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    const nnav_dim *dv, *iv;
    int nd = nnav_ix_fold(ix, 0, &dv), ni = nnav_ix_fold(ix, 1, &iv);
    if (r == 1 && nd >= 0 && ni >= 0 && q <= 1) {
        nnav_dim o[NNAV_FOLD_MAX];
        int ok = 1;
        for (int i = 0; i < ni && ok; i++) {
            if (!nnav_dim_is_num(iv[i]))
                ok = 0;
            else {
                int64_t k = dval(iv[i]) < 0 ? dval(iv[i]) + nd : dval(iv[i]);
                if (k < 0 || k >= nd)
                    return nnav_ix_fail(ix, "index %lld out of range", (long long)dval(iv[i]));
                o[i] = dv[k];
            }
        }
        if (ok) {
            nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), q == 0, o, (size_t)ni);
            return 0;
        }
    }
    if (r + q - 1 > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    const nnav_dim *d = nnav_ix_dims(ix, 0), *id = nnav_ix_dims(ix, 1);
    nnav_dim o[NNAV_RANK_MAX];
    int32_t k = 0;
    for (int32_t i = 0; i < axis; i++)
        o[k++] = d[i];
    for (int32_t i = 0; i < q; i++)
        o[k++] = id[i];
    for (int32_t i = (int32_t)axis + 1; i < r; i++)
        o[k++] = d[i];
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), k, o);
    return 0;
}

static int r_expand(IX)
{
    nnav_dim s[NNAV_RANK_MAX];
    int32_t n = 0;
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (shape_operand(ix, 1, s, &n) < 0) {
        /* Values unknown, length known: the rank, and the input's sizes
         * other than 1, which nothing can broadcast away. */
        n = operand_len(ix, 1);
        if (n < 0)
            return typed_only(ix);
        for (int32_t k = 0; k < n; k++)
            s[k] = NNAV_DIM_UNKNOWN;
    }
    int32_t r = nnav_ix_rank(ix, 0), out = r > n ? r : n;
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t k = 0; k < out; k++) {
        nnav_dim a = k - (out - r) >= 0 ? in[k - (out - r)] : dnum(1);
        nnav_dim b = k - (out - n) >= 0 ? s[k - (out - n)] : dnum(1);
        int bad = 0;
        d[k] = nnav_sd_broadcast(ix->S, a, b, &bad);
        if (bad)
            return nnav_ix_fail(ix, "shape cannot be broadcast to (axis %d)", k);
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), out, d);
    return 0;
}

/* ---- slicing, splitting, tiling, padding ---- */

/* Ends at or past this mean "to the end" (exporters write INT64_MAX, INT32_MAX
 * or similar), at or below its negative "before the first". */
#define END_BIG ((int64_t)INT32_MAX)

/* Length of data[s:e:k] along an axis of size d. Numbers follow the ONNX
 * clamping exactly. With a symbolic d, starts and ends counted from the end
 * and ends that run to the end stay symbolic (the axis is taken to be at
 * least as long as the offsets); anything else is unknown. */
static nnav_dim slice_len(nnav_shapes *S, nnav_dim d, nnav_dim s, nnav_dim e, int64_t k)
{
    if (k == 0 || k < -NNAV_DIM_MAX || k > NNAV_DIM_MAX)
        return NNAV_DIM_UNKNOWN;
    if (nnav_dim_is_num(d) && nnav_dim_is_num(s) && nnav_dim_is_num(e)) {
        /* all three within the dim range: no sum or difference overflows */
        int64_t n = dval(d), a = dval(s), b = dval(e);
        if (a < 0)
            a += n;
        if (b < 0)
            b += n;
        if (k > 0) {
            a = a < 0 ? 0 : a > n ? n : a;
            b = b < 0 ? 0 : b > n ? n : b;
            return dnum(b > a ? (b - a) / k + ((b - a) % k != 0) : 0);
        }
        a = a < 0 ? 0 : a > n - 1 ? n - 1 : a;
        b = b < -1 ? -1 : b > n - 1 ? n - 1 : b;
        return dnum(a > b ? (a - b) / -k + ((a - b) % -k != 0) : 0);
    }
    if (nnav_dim_is_unknown(d) || nnav_dim_is_unknown(e) || !nnav_dim_is_num(s))
        return NNAV_DIM_UNKNOWN;
    int64_t sv = dval(s), ev = dval(e);
    nnav_dim from, to;
    if (k > 0) {
        from = sv >= 0 ? s : sv <= -END_BIG ? dnum(0) : nnav_sd_add(S, d, s);
        if (nnav_dim_eq(e, d))
            to = d;
        else if ((nnav_dim_is_num(e) && ev >= 0 && ev < END_BIG) || nnav_dim_is_sym(e))
            to = nnav_sd_min(S, e, d); /* an end from a Shape, x[:10] on seq... */
        else
            to = ev >= END_BIG ? d : ev <= -END_BIG ? dnum(0) : nnav_sd_add(S, d, e);
        return nnav_sd_cdiv(S, nnav_sd_sub(S, to, from), dnum(k));
    }
    if (!nnav_dim_is_num(e) || (sv >= 0 && sv < END_BIG) || (ev >= 0 && ev < END_BIG))
        return NNAV_DIM_UNKNOWN;
    from = sv >= END_BIG ? nnav_sd_sub(S, d, dnum(1)) : nnav_sd_add(S, d, s);
    to = ev <= -END_BIG ? dnum(-1) : nnav_sd_add(S, d, e);
    return nnav_sd_cdiv(S, nnav_sd_sub(S, from, to), dnum(-k));
}

/* A list operand (attribute before `attr_until`, else input `in`) as dims:
 * count, -1 when not known, -2 when absent. */
static int list_operand(IX, const char *attr, int64_t attr_until, uint32_t in, nnav_dim *out)
{
    int64_t buf[NNAV_RANK_MAX];
    int64_t op = nnav_ix_opset(ix);
    if ((op > 0 && op < attr_until) || (op == 0 && nnav_ix_attr_has(ix, attr))) {
        int n = nnav_ix_attr_ints(ix, attr, buf, NNAV_RANK_MAX);
        if (n < 0)
            return nnav_ix_attr_has(ix, attr) ? -1 : -2;
        for (int i = 0; i < n; i++)
            out[i] = dim_clamped(buf[i]);
        return n;
    }
    if (!nnav_ix_present(ix, in))
        return -2;
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, in, &v);
    if (n > NNAV_RANK_MAX)
        return -1;
    if (n >= 0) {
        memcpy(out, v, (size_t)n * sizeof *out);
        return n;
    }
    /* Not folded: a constant may hold INT64_MAX ("to the end"), which the
     * folding leaves out; read it as numbers, clamped. */
    double f[NNAV_RANK_MAX];
    n = nnav_ix_floats(ix, in, f, NNAV_RANK_MAX);
    for (int i = 0; i < n; i++) {
        if (f[i] != floor(f[i]))
            return -1;
        out[i] = dim_of_double(f[i]);
    }
    return n < 0 ? -1 : n;
}

/* The axes attribute, or else every axis of a rank-r input: their count. */
static int attr_axes(IX, int32_t r, int64_t *axes)
{
    int na = nnav_ix_attr_ints(ix, "axes", axes, NNAV_RANK_MAX);
    if (na >= 0)
        return na;
    for (int32_t i = 0; i < r; i++)
        axes[i] = i;
    return r;
}

/* Rank known, sizes not: output 0 of input 0's type and dims with the
 * listed axes (all when axes is NULL) unknown. */
static int out_axes_unknown(IX, const int64_t *axes, int na)
{
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 0)
        return typed_fail(ix, "input 0 has no known rank");
    if (!axes)
        return out_rank_only(ix, nnav_ix_dtype(ix, 0), r);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        d[a] = NNAV_DIM_UNKNOWN;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_slice(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    nnav_dim st[NNAV_RANK_MAX], en[NNAV_RANK_MAX], ax[NNAV_RANK_MAX], sp[NNAV_RANK_MAX];
    int ns = list_operand(ix, "starts", 10, 1, st), ne = list_operand(ix, "ends", 10, 2, en);
    int na = list_operand(ix, "axes", 10, 3, ax), nk = list_operand(ix, "steps", 10, 4, sp);
    int64_t axes[NNAV_RANK_MAX];
    if (na == -1)
        return out_axes_unknown(ix, NULL, 0);
    int count = ns >= 0 ? ns : ne >= 0 ? ne : nnav_ix_opset(ix) >= 10 ? operand_len(ix, 1) : -1;
    if (na >= 0)
        count = na;
    if (count < 0 || count > r)
        return out_axes_unknown(ix, NULL, 0);
    for (int i = 0; i < count; i++) {
        if (na >= 0 && !nnav_dim_is_num(ax[i]))
            return out_axes_unknown(ix, NULL, 0);
        axes[i] = na >= 0 ? dval(ax[i]) : i;
    }
    if (ns < 0 || ne < 0 || nk == -1)
        return out_axes_unknown(ix, axes, count);
    if (ns != count || ne != count || (nk >= 0 && nk != count))
        return nnav_ix_fail(ix, "starts, ends, axes and steps differ in length");
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, in, (size_t)r * sizeof *d);
    uint8_t seen[NNAV_RANK_MAX] = {0};
    /* axis 0 of a folded vector: start, end, step (0: not known) */
    nnav_dim fs = dnum(0), fe = dnum(NNAV_DIM_MAX);
    int64_t fk = 1;
    for (int i = 0; i < count; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        if (seen[a]++)
            return nnav_ix_fail(ix, "axis %lld given twice", (long long)a);
        nnav_dim k = nk >= 0 ? sp[i] : dnum(1);
        if (!nnav_dim_is_num(k))
            d[a] = NNAV_DIM_UNKNOWN;
        else if (dval(k) == 0)
            return nnav_ix_fail(ix, "a step of 0");
        else
            d[a] = slice_len(ix->S, in[a], st[i], en[i], dval(k));
        fs = st[i], fe = en[i];
        fk = nnav_dim_is_num(k) ? dval(k) : 0;
    }
    /* A folded vector is sliced as data. */
    const nnav_dim *v;
    int nv = nnav_ix_fold(ix, 0, &v);
    nnav_dim cnt = nv >= 0 && nnav_dim_is_num(fs) && nnav_dim_is_num(fe) && fk
                       ? slice_len(ix->S, dnum(nv), fs, fe, fk) : NNAV_DIM_UNKNOWN;
    if (r == 1 && count <= 1 && is_size(cnt) && dval(cnt) <= nv) {
        nnav_dim o[NNAV_FOLD_MAX];
        int64_t s = dval(fs) < 0 ? dval(fs) + nv : dval(fs);
        if (fk > 0)
            s = s < 0 ? 0 : s > nv ? nv : s;
        else
            s = s < 0 ? 0 : s > nv - 1 ? nv - 1 : s;
        /* slice_len counted cnt steps of fk from s inside the vector */
        for (int64_t i = 0; i < dval(cnt); i++)
            o[i] = v[s + i * fk];
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), 0, o, (size_t)dval(cnt));
        return 0;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_split(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    uint32_t nout = nnav_ix_nout(ix);
    if (nout == 0 || nout > NNAV_FOLD_MAX)
        return nnav_ix_fail(ix, "%u outputs", nout);
    nnav_dim sz[NNAV_FOLD_MAX];
    int ns = nnav_ix_attr_has(ix, "split") ? -1 : -2;
    if (ns == -1) {
        int64_t b[NNAV_FOLD_MAX];
        ns = nnav_ix_attr_ints(ix, "split", b, NNAV_FOLD_MAX);
        for (int i = 0; i < ns; i++)
            sz[i] = dnum(b[i]);
    } else if (nnav_ix_present(ix, 1)) {
        ns = fold_copy(ix, 1, sz, NNAV_FOLD_MAX);
    }
    /* Copies: every output written may move the dims store. */
    nnav_dim in[NNAV_RANK_MAX], fv[NNAV_FOLD_MAX];
    memcpy(in, nnav_ix_dims(ix, 0), (size_t)r * sizeof *in);
    nnav_dim dd = in[axis];
    if (ns == -1) {
        for (uint32_t o = 0; o < nout; o++)
            sz[o] = NNAV_DIM_UNKNOWN;
    } else if (ns >= 0) {
        if ((uint32_t)ns != nout)
            return nnav_ix_fail(ix, "split has %d entries for %u outputs", ns, nout);
    } else {
        /* Equal parts; from opset 18 num_outputs allows a shorter last one. */
        int64_t parts = nnav_ix_attr_i(ix, "num_outputs", nout);
        if (parts != (int64_t)nout)
            return nnav_ix_fail(ix, "num_outputs %lld for %u outputs", (long long)parts, nout);
        nnav_dim q = nnav_sd_div(ix->S, dd, dnum(parts));
        int exact = nnav_sd_same(nnav_sd_mul(ix->S, q, dnum(parts)), dd);
        nnav_dim c = nnav_sd_cdiv(ix->S, dd, dnum(parts));
        for (uint32_t o = 0; o < nout; o++)
            sz[o] = exact ? q : nnav_dim_is_num(dd) && o + 1 < nout ? c : NNAV_DIM_UNKNOWN;
        if (!exact && nnav_dim_is_num(dd)) {
            if (!nnav_ix_attr_has(ix, "num_outputs"))
                return nnav_ix_fail(ix, "size %lld does not split in %u equal parts",
                                    (long long)dval(dd), nout);
            sz[nout - 1] = nnav_sd_sub(ix->S, dd, nnav_sd_mul(ix->S, c, dnum((int64_t)nout - 1)));
            if (!is_size(sz[nout - 1]))
                return nnav_ix_fail(ix, "size %lld does not split in %u parts",
                                    (long long)dval(dd), nout);
        }
    }
    int nv = fold_copy(ix, 0, fv, NNAV_FOLD_MAX);
    int64_t at = 0;
    for (uint32_t o = 0; o < nout; o++) {
        if (r == 1 && nv >= 0 && at >= 0 && is_size(sz[o]) && dval(sz[o]) <= nv - at) {
            nnav_ix_out_fold(ix, o, nnav_ix_dtype(ix, 0), 0, fv + at, (size_t)dval(sz[o]));
            at += dval(sz[o]);
            continue;
        }
        at = -1;
        nnav_dim d[NNAV_RANK_MAX];
        memcpy(d, in, (size_t)r * sizeof *d);
        d[axis] = sz[o];
        nnav_ix_out(ix, o, nnav_ix_dtype(ix, 0), r, d);
    }
    return 0;
}

static int r_tile(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 6)
        return nnav_ix_fail(ix, "Tile before opset 6 is not inferred");
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *rep;
    int n = nnav_ix_fold(ix, 1, &rep);
    if (n < 0)
        return out_axes_unknown(ix, NULL, 0);
    if (n != r)
        return nnav_ix_fail(ix, "repeats has %d entries for rank %d", n, r);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0; i < r; i++)
        d[i] = nnav_dim_is_num(rep[i]) && dval(rep[i]) < 0 ? NNAV_DIM_UNKNOWN
                                                           : nnav_sd_mul(ix->S, in[i], rep[i]);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_pad(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    nnav_dim p[2 * NNAV_RANK_MAX], ax[NNAV_RANK_MAX];
    int np;
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 11) {
        int64_t b[2 * NNAV_RANK_MAX];
        np = nnav_ix_attr_ints(ix, nnav_ix_attr_has(ix, "pads") ? "pads" : "paddings", b,
                               2 * NNAV_RANK_MAX);
        for (int i = 0; i < np; i++)
            p[i] = dnum(b[i]);
    } else {
        np = fold_copy(ix, 1, p, 2 * NNAV_RANK_MAX);
    }
    int64_t axes[NNAV_RANK_MAX];
    int na = r;
    for (int32_t i = 0; i < r; i++)
        axes[i] = i;
    if (nnav_ix_present(ix, 3)) {
        na = list_operand(ix, "", 0, 3, ax);
        if (na < 0)
            return out_axes_unknown(ix, NULL, 0);
        for (int i = 0; i < na; i++) {
            if (!nnav_dim_is_num(ax[i]))
                return out_axes_unknown(ix, NULL, 0);
            axes[i] = dval(ax[i]);
        }
    }
    if (np < 0)
        return out_axes_unknown(ix, axes, na);
    if (np != 2 * na)
        return nnav_ix_fail(ix, "pads has %d entries for %d axes", np, na);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, in, (size_t)r * sizeof *d);
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        d[a] = nnav_sd_add(ix->S, nnav_sd_add(ix->S, in[a], p[i]), p[i + na]);
        if (nnav_dim_is_num(d[a]) && dval(d[a]) < 0)
            return nnav_ix_fail(ix, "axis %lld would have size %lld", (long long)a,
                                (long long)dval(d[a]));
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- resizing ---- */

/* d times a scale: numbers as ONNX does it (float product, floor); a symbolic
 * size only by a whole factor or its inverse. */
static nnav_dim scale_dim(nnav_shapes *S, nnav_dim d, double s)
{
    if (s == 1)
        return d;
    /* NaN, a negative, or a scale no float holds (converting it would be
     * undefined) */
    if (!(s >= 0 && s <= 3.0e38))
        return NNAV_DIM_UNKNOWN;
    if (nnav_dim_is_num(d)) {
        float p = (float)dval(d) * (float)s;
        return p >= 0 && p < 9.0e15 ? dnum((int64_t)floorf(p)) : NNAV_DIM_UNKNOWN;
    }
    if (!nnav_dim_is_sym(d) || !(s > 0))
        return NNAV_DIM_UNKNOWN;
    if (s == floor(s) && s < 65536)
        return nnav_sd_mul(S, d, dnum((int64_t)s));
    double inv = 1 / s;
    if (inv == floor(inv) && inv < 65536)
        return nnav_sd_div(S, d, dnum((int64_t)inv));
    return NNAV_DIM_UNKNOWN;
}

static int r_resize(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t op = nnav_ix_opset(ix);
    int up = nnav_span_eqs(ix->nd->op, "Upsample");
    double sc[NNAV_RANK_MAX];
    nnav_dim sizes[NNAV_RANK_MAX];
    int nsc = -2, nsz = -2;
    if (up && op > 0 && op < 9)
        nsc = nnav_ix_attr_floats(ix, "scales", sc, NNAV_RANK_MAX);
    else if (up || (op > 0 && op < 11))
        nsc = nnav_ix_present(ix, 1) ? nnav_ix_floats(ix, 1, sc, NNAV_RANK_MAX) : -2;
    else {
        if (nnav_ix_present(ix, 3)) {
            nsz = list_operand(ix, "", 0, 3, sizes);
            if (nsz == -1 && operand_len(ix, 3) == 0)
                nsz = 0;
        }
        if (nnav_ix_present(ix, 2)) {
            nsc = nnav_ix_floats(ix, 2, sc, NNAV_RANK_MAX);
            if (nsc == -1 && operand_len(ix, 2) == 0)
                nsc = 0;
            /* computed scales (Concat of [1,1] and a Cast): their fold */
            const nnav_dim *v;
            int nv = nsc == -1 ? nnav_ix_fold(ix, 2, &v) : -1;
            for (int i = 0; i < nv && i < NNAV_RANK_MAX; i++) {
                if (!nnav_dim_is_num(v[i]))
                    break;
                sc[i] = (double)dval(v[i]);
                if (i == nv - 1)
                    nsc = nv;
            }
        }
    }
    int64_t axes[NNAV_RANK_MAX];
    int na = attr_axes(ix, r, axes);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, in, (size_t)r * sizeof *d);
    int stretch = !nnav_ix_attr_has(ix, "keep_aspect_ratio_policy") ||
                  nnav_ix_attr_s(ix, "keep_aspect_ratio_policy", "stretch");
    int have = nsz > 0 ? nsz : nsc > 0 ? nsc : -1;
    if (have < 0)
        return out_axes_unknown(ix, axes, na);
    if (have != na)
        return nnav_ix_fail(ix, "%d scales or sizes for %d axes", have, na);
    /* not_larger / not_smaller (opset 18): one scale for every axis, the
     * smallest / largest of sizes / input, and each size round(scale *
     * input), half up; known when the sizes and those input dims are
     * numbers (past 2^31 a double's product may round otherwise: unknown) */
    double keep = stretch ? 0 : nnav_ix_attr_s(ix, "keep_aspect_ratio_policy", "not_larger") ? -1
                                                                                             : 1;
    double ks = NAN;
    for (int i = 0; keep && nsz > 0 && i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        if (!nnav_dim_is_num(sizes[i]) || !nnav_dim_is_num(in[a]) || dval(in[a]) <= 0 ||
            dval(in[a]) > INT32_MAX || dval(sizes[i]) < 0 || dval(sizes[i]) > INT32_MAX) {
            ks = NAN;
            break;
        }
        double q = (double)dval(sizes[i]) / (double)dval(in[a]);
        ks = i == 0 || (keep < 0 ? q < ks : q > ks) ? q : ks;
    }
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        if (nsz > 0 && stretch)
            d[a] = sizes[i];
        else if (nsz > 0)
            d[a] = isnan(ks) ? NNAV_DIM_UNKNOWN : dnum((int64_t)floor(ks * (double)dval(in[a]) + 0.5));
        else
            d[a] = scale_dim(ix->S, in[a], sc[i]);
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- generators ---- */

/* A scalar operand as a dim (folded), or as a number (a float constant). */
static int scalar_of(IX, uint32_t i, nnav_dim *d, double *f)
{
    const nnav_dim *v;
    if (nnav_ix_fold(ix, i, &v) == 1) {
        *d = v[0];
        *f = nnav_dim_is_num(v[0]) ? (double)dval(v[0]) : NAN;
        return 0;
    }
    double b[1];
    if (nnav_ix_floats(ix, i, b, 1) == 1) {
        *f = b[0];
        /* a NaN fails the first test: only a whole number in range is cast */
        *d = b[0] == floor(b[0]) && fabs(b[0]) < 9.0e15 ? dnum((int64_t)b[0]) : NNAV_DIM_UNKNOWN;
        return 0;
    }
    return -1;
}

static int r_range(IX)
{
    int32_t dt = nnav_ix_dtype(ix, 0) ? nnav_ix_dtype(ix, 0) : nnav_ix_dtype(ix, 1);
    nnav_dim s = NNAV_DIM_UNKNOWN, l = NNAV_DIM_UNKNOWN, k = NNAV_DIM_UNKNOWN;
    double fs = 0, fl = 0, fk = 0;
    nnav_dim len = NNAV_DIM_UNKNOWN;
    int ks = scalar_of(ix, 0, &s, &fs), kl = scalar_of(ix, 1, &l, &fl), kk = scalar_of(ix, 2, &k, &fk);
    if (ks == 0 && kl == 0 && kk == 0 && isfinite(fs) && isfinite(fl) && isfinite(fk)) {
        if (fk == 0)
            return nnav_ix_fail(ix, "a delta of 0");
        /* finite operands, but their difference may not be: n is NaN or
         * infinite then, and both tests below fail */
        double n = ceil((fl - fs) / fk);
        len = n < 0 ? dnum(0) : n < 9.0e15 ? dnum((int64_t)n) : NNAV_DIM_UNKNOWN;
        if (is_int_type(dt) && nnav_dim_is_num(len) && dval(len) <= NNAV_FOLD_MAX &&
            nnav_dim_is_num(s) && nnav_dim_is_num(k)) {
            nnav_dim o[NNAV_FOLD_MAX];
            int ok = 1;
            for (int64_t i = 0; i < dval(len) && ok; i++) {
                int64_t t;
                ok = !__builtin_mul_overflow(i, dval(k), &t) &&
                     !__builtin_add_overflow(t, dval(s), &t);
                o[i] = dnum(t);
                ok = ok && nnav_dim_is_num(o[i]);
            }
            if (ok) {
                nnav_ix_out_fold(ix, 0, dt, 0, o, (size_t)dval(len));
                return 0;
            }
        }
    } else if (ks == 0 && kl == 0 && kk == 0 && nnav_dim_is_num(k) && dval(k) != 0 &&
               !nnav_dim_is_unknown(s) && !nnav_dim_is_unknown(l)) {
        /* range(0, seq) is seq long */
        len = dval(k) > 0 ? nnav_sd_cdiv(ix->S, nnav_sd_sub(ix->S, l, s), k)
                          : nnav_sd_cdiv(ix->S, nnav_sd_sub(ix->S, s, l), dnum(-dval(k)));
    }
    nnav_ix_out(ix, 0, dt, 1, &len);
    return 0;
}

static int r_topk(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", -1), r, &axis) < 0)
        return -1;
    nnav_dim k;
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 10)
        k = nnav_ix_attr_i(ix, "k", -1) >= 0 ? dnum(nnav_ix_attr_i(ix, "k", -1)) : NNAV_DIM_UNKNOWN;
    else
        k = fold_one(ix, 1);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    if (nnav_dim_is_num(k) && nnav_dim_is_num(d[axis]) && dval(k) > dval(d[axis]))
        return nnav_ix_fail(ix, "k %lld over the axis' size %lld", (long long)dval(k),
                            (long long)dval(d[axis]));
    d[axis] = nnav_dim_is_num(k) && dval(k) < 0 ? NNAV_DIM_UNKNOWN : k;
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    nnav_ix_out(ix, 1, NNAV_DT_INT64, r, d);
    return 0;
}

static int r_onehot(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t q = nnav_ix_rank(ix, 0);
    if (q + 1 > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", -1), q + 1, &axis) < 0)
        return -1;
    nnav_dim depth = NNAV_DIM_UNKNOWN;
    double f;
    if (scalar_of(ix, 1, &depth, &f) < 0)
        depth = NNAV_DIM_UNKNOWN;
    if (nnav_dim_is_num(depth) && dval(depth) < 1)
        return nnav_ix_fail(ix, "depth %lld", (long long)dval(depth));
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0, k = 0; i <= q; i++)
        d[i] = i == axis ? depth : in[k++];
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 2), q + 1, d);
    return 0;
}

static int r_eyelike(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (nnav_ix_rank(ix, 0) != 2)
        return nnav_ix_fail(ix, "input of rank %d", nnav_ix_rank(ix, 0));
    int32_t dt = (int32_t)nnav_ix_attr_i(ix, "dtype", nnav_ix_dtype(ix, 0));
    nnav_ix_out(ix, 0, dt, 2, nnav_ix_dims(ix, 0));
    return 0;
}

/* RandomNormal, RandomUniform: the shape attribute. */
static int r_random(IX)
{
    int64_t s[NNAV_RANK_MAX];
    int n = nnav_ix_attr_ints(ix, "shape", s, NNAV_RANK_MAX);
    if (n < 0)
        return nnav_ix_fail(ix, "no shape attribute");
    nnav_dim d[NNAV_RANK_MAX];
    for (int i = 0; i < n; i++)
        d[i] = s[i] >= 0 ? dnum(s[i]) : NNAV_DIM_UNKNOWN;
    nnav_ix_out(ix, 0, (int32_t)nnav_ix_attr_i(ix, "dtype", NNAV_DT_FLOAT), n, d);
    return 0;
}

/* RandomNormalLike, RandomUniformLike, Bernoulli: the input's shape. */
static int r_random_like(IX)
{
    return out_as_input(ix, (int32_t)nnav_ix_attr_i(ix, "dtype", nnav_ix_dtype(ix, 0)));
}

static int r_multinomial(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (nnav_ix_rank(ix, 0) != 2)
        return nnav_ix_fail(ix, "input of rank %d", nnav_ix_rank(ix, 0));
    nnav_dim d[2] = {nnav_ix_dims(ix, 0)[0], size_attr(nnav_ix_attr_i(ix, "sample_size", 1))};
    nnav_ix_out(ix, 0, (int32_t)nnav_ix_attr_i(ix, "dtype", NNAV_DT_INT32), 2, d);
    return 0;
}

/* HannWindow, HammingWindow, BlackmanWindow: a vector of `size`. */
static int r_window(IX)
{
    nnav_dim n = fold_one(ix, 0);
    nnav_ix_out(ix, 0, (int32_t)nnav_ix_attr_i(ix, "output_datatype", NNAV_DT_FLOAT), 1, &n);
    return 0;
}

static int r_mel_weight(IX)
{
    /* dft_length/2+1 rows, num_mel_bins columns */
    nnav_dim rows = nnav_sd_add(ix->S, nnav_sd_div(ix->S, fold_one(ix, 1), dnum(2)), dnum(1));
    nnav_dim d[2] = {rows, fold_one(ix, 0)};
    nnav_ix_out(ix, 0, (int32_t)nnav_ix_attr_i(ix, "output_datatype", NNAV_DT_FLOAT), 2, d);
    return 0;
}

/* ---- rearranging and selecting ---- */

static int r_depth_space(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (nnav_ix_rank(ix, 0) != 4)
        return nnav_ix_fail(ix, "input of rank %d", nnav_ix_rank(ix, 0));
    int64_t b = nnav_ix_attr_i(ix, "blocksize", 0);
    if (b < 1 || b > 65536)
        return nnav_ix_fail(ix, "blocksize %lld", (long long)b);
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_dim d[4] = {x[0], x[1], x[2], x[3]};
    nnav_dim bd = dnum(b), bb = dnum(b * b); /* b <= 65536: b * b fits */
    if (nnav_span_eqs(ix->nd->op, "DepthToSpace")) {
        d[1] = nnav_sd_div(ix->S, x[1], bb);
        d[2] = nnav_sd_mul(ix->S, x[2], bd), d[3] = nnav_sd_mul(ix->S, x[3], bd);
    } else {
        d[1] = nnav_sd_mul(ix->S, x[1], bb);
        d[2] = nnav_sd_div(ix->S, x[2], bd), d[3] = nnav_sd_div(ix->S, x[3], bd);
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 4, d);
    return 0;
}

/* NonZero: one row per axis, one column per element that is not zero. */
static int r_nonzero(IX)
{
    nnav_dim d[2] = {nnav_ix_rank(ix, 0) >= 0 ? dnum(nnav_ix_rank(ix, 0)) : NNAV_DIM_UNKNOWN,
                     NNAV_DIM_UNKNOWN};
    nnav_ix_out(ix, 0, NNAV_DT_INT64, 2, d);
    return 0;
}

/* GatherElements: the indices' shape, the data's type. */
static int r_gather_elements(IX)
{
    if (need_rank(ix, 1) < 0)
        return typed_only(ix);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 1), nnav_ix_dims(ix, 1));
    return 0;
}

static int r_gather_nd(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0), q = nnav_ix_rank(ix, 1);
    int64_t b = nnav_ix_attr_i(ix, "batch_dims", 0);
    const nnav_dim *x = nnav_ix_dims(ix, 0), *id = nnav_ix_dims(ix, 1);
    if (q < 1 || b < 0 || b >= q || b >= r)
        return nnav_ix_fail(ix, "batch_dims %lld for ranks %d and %d", (long long)b, r, q);
    if (!nnav_dim_is_num(id[q - 1]))
        return nnav_ix_fail(ix, "the indices' last axis has no known size");
    int64_t last = dval(id[q - 1]); /* b < q <= 32: b + last does not overflow */
    if (last < 0 || last > r || b + last > r)
        return nnav_ix_fail(ix, "indices of depth %lld into rank %d", (long long)last, r);
    int32_t out = q - 1 + r - (int32_t)(b + last);
    if (out > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_dim d[NNAV_RANK_MAX];
    int32_t k = 0;
    for (int32_t i = 0; i < q - 1; i++)
        d[k++] = id[i];
    for (int32_t i = (int32_t)(b + last); i < r; i++)
        d[k++] = x[i];
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), k, d);
    return 0;
}

/* Compress: how many are kept depends on the condition's values, known
 * when it is a constant (only its first `size of the axis` entries count). */
static int r_compress(IX)
{
    double c[NNAV_FOLD_MAX];
    int nc = nnav_ix_floats(ix, 1, c, NNAV_FOLD_MAX);
    int has_axis = nnav_ix_attr_has(ix, "axis");
    nnav_dim kept = NNAV_DIM_UNKNOWN, limit = NNAV_DIM_UNKNOWN;
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    int64_t a = 0;
    if (x && has_axis && norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), nnav_ix_rank(ix, 0), &a) < 0)
        return -1;
    if (x && !has_axis) { /* the input flattened */
        limit = dnum(1);
        for (int32_t i = 0; i < nnav_ix_rank(ix, 0); i++)
            limit = nnav_sd_mul(ix->S, limit, x[i]);
    } else if (x) {
        limit = x[a];
    }
    if (nc >= 0 && nnav_dim_is_num(limit)) {
        int64_t n = 0;
        for (int i = 0; i < nc && i < dval(limit); i++)
            n += c[i] != 0;
        kept = dnum(n);
    }
    if (!has_axis) {
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 1, &kept);
        return 0;
    }
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, x, (size_t)nnav_ix_rank(ix, 0) * sizeof *d);
    d[a] = kept;
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0), d);
    return 0;
}

static int r_nms(IX)
{
    nnav_dim d[2] = {NNAV_DIM_UNKNOWN, dnum(3)};
    nnav_ix_out(ix, 0, NNAV_DT_INT64, 2, d);
    return 0;
}

static int r_unique(IX)
{
    nnav_dim n = NNAV_DIM_UNKNOWN;
    if (!nnav_ix_attr_has(ix, "axis")) {
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 1, &n);
    } else {
        if (need_rank(ix, 0) < 0)
            return typed_only(ix);
        int64_t a = nnav_ix_attr_i(ix, "axis", 0);
        if (out_axes_unknown(ix, &a, 1) < 0)
            return -1;
    }
    for (uint32_t o = 1; o < nnav_ix_nout(ix) && o < 4; o++)
        nnav_ix_out(ix, o, NNAV_DT_INT64, 1, &n);
    return 0;
}

static int r_det(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 2)
        return nnav_ix_fail(ix, "input of rank %d", r);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r - 2, nnav_ix_dims(ix, 0));
    return 0;
}

static int r_center_crop_pad(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *s;
    int n = nnav_ix_fold(ix, 1, &s);
    int64_t axes[NNAV_RANK_MAX];
    int na = attr_axes(ix, r, axes);
    if (n < 0)
        return out_axes_unknown(ix, axes, na);
    if (n != na)
        return nnav_ix_fail(ix, "shape has %d entries for %d axes", n, na);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        d[a] = s[i];
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- signal ---- */

static int r_dft(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = 1;
    if (nnav_ix_opset(ix) >= 20) {
        int64_t a[1];
        axis = -2;
        if (nnav_ix_present(ix, 2) && nnav_ix_ints(ix, 2, a, 1) != 1)
            return out_axes_unknown(ix, NULL, 0);
        if (nnav_ix_present(ix, 2))
            axis = a[0];
    } else {
        axis = nnav_ix_attr_i(ix, "axis", 1);
    }
    if (r < 2 || norm_axis(ix, axis, r, &axis) < 0 || axis == r - 1)
        return nnav_ix_fail(ix, "axis out of range");
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    if (nnav_ix_present(ix, 1))
        d[axis] = fold_one(ix, 1);
    if (nnav_ix_attr_i(ix, "onesided", 0))
        d[axis] = nnav_sd_add(ix->S, nnav_sd_div(ix->S, d[axis], dnum(2)), dnum(1));
    d[r - 1] = dnum(2);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* StringSplit (opset 20): Y the substrings, X's shape and one axis more, as
 * long as the most splits of any element (the data's); Z their counts,
 * int64 of X's shape. */
static int r_string_split(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r >= NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    d[r] = NNAV_DIM_UNKNOWN;
    nnav_ix_out(ix, 0, NNAV_DT_STRING, r + 1, d);
    nnav_ix_out(ix, 1, NNAV_DT_INT64, r, d);
    return 0;
}

/* ---- vision extras ---- */

static int r_roialign(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    const nnav_dim *x = nnav_ix_dims(ix, 0), *rois = nnav_ix_dims(ix, 1);
    if (nnav_ix_rank(ix, 0) != 4 || nnav_ix_rank(ix, 1) != 2)
        return nnav_ix_fail(ix, "input or rois of the wrong rank");
    nnav_dim d[4] = {rois[0], x[1], size_attr(nnav_ix_attr_i(ix, "output_height", 1)),
                     size_attr(nnav_ix_attr_i(ix, "output_width", 1))};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 4, d);
    return 0;
}

static int r_grid_sample(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 3 || nnav_ix_rank(ix, 1) != r)
        return nnav_ix_fail(ix, "input and grid ranks do not fit");
    const nnav_dim *x = nnav_ix_dims(ix, 0), *g = nnav_ix_dims(ix, 1);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0], d[1] = x[1];
    for (int32_t i = 2; i < r; i++)
        d[i] = g[i - 1];
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_max_unpool(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0), ns = r - 2;
    if (r < 3)
        return nnav_ix_fail(ix, "input of rank %d", r);
    nnav_dim s[NNAV_RANK_MAX];
    int32_t n = 0;
    if (nnav_ix_present(ix, 2)) {
        if (shape_operand(ix, 2, s, &n) < 0)
            return out_axes_unknown(ix, NULL, 0);
        if (n != r)
            return nnav_ix_fail(ix, "output_shape has %d entries for rank %d", n, r);
        for (int32_t i = 0; i < r; i++)
            if (nnav_dim_is_num(s[i]) && dval(s[i]) < 0)
                s[i] = NNAV_DIM_UNKNOWN;
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, s);
        return 0;
    }
    int64_t kernel[NNAV_RANK_MAX], strides[NNAV_RANK_MAX], pads[2 * NNAV_RANK_MAX];
    if (nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX) != ns)
        return nnav_ix_fail(ix, "kernel_shape missing or of the wrong length");
    for (int32_t i = 0; i < ns; i++)
        strides[i] = 1, pads[i] = pads[i + ns] = 0;
    nnav_ix_attr_ints(ix, "strides", strides, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "pads", pads, 2 * NNAV_RANK_MAX);
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_shapes *S = ix->S;
    s[0] = x[0], s[1] = x[1];
    for (int32_t i = 0; i < ns; i++) {
        if (strides[i] < 1 || kernel[i] < 1)
            return nnav_ix_fail(ix, "stride or kernel below 1");
        /* (x - 1) * stride + kernel - pads, each step checked */
        nnav_dim k = nnav_sd_sub(S, dnum(kernel[i]), num_add(S, pads[i], pads[i + ns]));
        s[i + 2] = nnav_sd_add(S, nnav_sd_mul(S, nnav_sd_sub(S, x[i + 2], dnum(1)),
                                              dnum(strides[i])), k);
        if (nnav_dim_is_num(s[i + 2]) && dval(s[i + 2]) < 1)
            return nnav_ix_fail(ix, "axis %d would have size %lld", i + 2,
                                (long long)dval(s[i + 2]));
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, s);
    return 0;
}

/* ---- Einsum ---- */

/* One byte of the equation for a reason: any byte of the file can stand
 * there, and reasons reach the terminal. */
static const char *esc_byte(char c, char *buf)
{
    nnav_text_escape((const uint8_t *)&c, 1, buf, 8);
    return buf;
}

static int r_einsum(IX)
{
    uint32_t a = nnav_ix_attr(ix, "equation");
    nnav_span eq;
    nnav_error e;
    char eb[8];
    if (a == NNAV_NONE || nnav_attr_string(ix->m, a, &eq, &e) < 0)
        return nnav_ix_fail(ix, "no equation");
    char buf[256];
    size_t n = 0;
    for (uint64_t i = 0; i < eq.n; i++)
        if (eq.p[i] != ' ') {
            if (n + 1 >= sizeof buf)
                return nnav_ix_fail(ix, "equation too long");
            buf[n++] = (char)eq.p[i];
        }
    buf[n] = 0;
    char *arrow = strstr(buf, "->");
    if (arrow)
        *arrow = 0;
    nnav_dim letter[128];
    int count[128] = {0};
    for (int i = 0; i < 128; i++)
        letter[i] = NNAV_DIM_UNKNOWN;
    nnav_dim ell[NNAV_RANK_MAX];
    int32_t nell = 0;
    uint32_t k = 0;
    for (char *t = buf;; k++) {
        char *end = strchr(t, ',');
        if (end)
            *end = 0;
        if (need_rank(ix, k) < 0)
            return typed_only(ix);
        int32_t r = nnav_ix_rank(ix, k);
        const nnav_dim *d = nnav_ix_dims(ix, k);
        int32_t letters = 0, has_ell = strstr(t, "...") != NULL;
        /* One ellipsis a term: a second would take the same axes again,
         * past the input's rank. */
        if (has_ell && strstr(strstr(t, "...") + 3, "..."))
            return nnav_ix_fail(ix, "term %u has more than one ellipsis", k);
        for (char *c = t; *c; c++)
            if (*c != '.') {
                if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
                    return nnav_ix_fail(ix, "equation has '%s'", esc_byte(*c, eb));
                letters++;
            }
        int32_t ne = has_ell ? r - letters : 0;
        if (ne < 0 || (!has_ell && letters != r))
            return nnav_ix_fail(ix, "term %u does not fit input rank %d", k, r);
        int32_t at = 0;
        for (char *c = t; *c;) {
            if (c[0] == '.' && c[1] == '.' && c[2] == '.') {
                /* ellipsis axes broadcast across inputs, right-aligned */
                int32_t out = ne > nell ? ne : nell;
                nnav_dim m[NNAV_RANK_MAX];
                for (int32_t j = 0; j < out; j++) {
                    int32_t ia = j - (out - nell), ib = j - (out - ne);
                    int bad = 0;
                    m[j] = nnav_sd_broadcast(ix->S, ia >= 0 ? ell[ia] : dnum(1),
                                             ib >= 0 ? d[at + ib] : dnum(1), &bad);
                    if (bad)
                        return nnav_ix_fail(ix, "ellipsis axes cannot be broadcast");
                }
                memcpy(ell, m, (size_t)out * sizeof *ell);
                nell = out, at += ne, c += 3;
                continue;
            }
            if (*c == '.')
                return nnav_ix_fail(ix, "a lone '.' in the equation");
            int l = (unsigned char)*c;
            count[l]++;
            if (nnav_dim_is_unknown(letter[l]) ||
                (!nnav_dim_is_num(letter[l]) && nnav_dim_is_num(d[at])) || nnav_dim_is(letter[l], 1))
                letter[l] = d[at];
            at++, c++;
        }
        if (!end)
            break;
        t = end + 1;
    }
    if (k + 1 != nnav_ix_nin(ix))
        return nnav_ix_fail(ix, "%u terms for %u inputs", k + 1, nnav_ix_nin(ix));
    nnav_dim d[NNAV_RANK_MAX];
    int32_t r = 0;
    if (arrow) {
        for (char *c = arrow + 2; *c;) {
            if (c[0] == '.' && c[1] == '.' && c[2] == '.') {
                if (r + nell > NNAV_RANK_MAX)
                    return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
                memcpy(d + r, ell, (size_t)nell * sizeof *d);
                r += nell, c += 3;
                continue;
            }
            int l = (unsigned char)*c;
            if (l >= 128 || !count[l] || r >= NNAV_RANK_MAX)
                return nnav_ix_fail(ix, "output letter '%s' is in no input", esc_byte(*c, eb));
            d[r++] = letter[l];
            c++;
        }
    } else {
        /* Implicit output: the ellipsis, then the letters seen once, in order. */
        memcpy(d, ell, (size_t)nell * sizeof *d);
        r = nell;
        for (int l = 'A'; l <= 'z'; l++)
            if (count[l] == 1 && r < NNAV_RANK_MAX)
                d[r++] = letter[l];
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* OptionalHasElement: a boolean scalar whatever the input. */
static int r_has_element(IX)
{
    nnav_ix_out(ix, 0, NNAV_DT_BOOL, 0, NULL);
    return 0;
}

/* TfIdfVectorizer: one count per n-gram index, per row of a 2-D input. */
static int r_tfidf(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 1 || r > 2)
        return nnav_ix_fail(ix, "input of rank %d", r);
    uint32_t a = nnav_ix_attr(ix, "ngram_indexes");
    int64_t buf[256];
    size_t total = 0;
    nnav_error e;
    if (a == NNAV_NONE || nnav_attr_ints(ix->m, a, buf, 256, &total, &e) < 0 || total > 256)
        return nnav_ix_fail(ix, "ngram_indexes missing or over 256 entries");
    int64_t mx = -1;
    for (size_t i = 0; i < total; i++)
        mx = buf[i] > mx ? buf[i] : mx;
    if (mx >= INT32_MAX)
        return nnav_ix_fail(ix, "an n-gram index of %lld", (long long)mx);
    nnav_dim d[2] = {nnav_ix_dims(ix, 0)[0], dnum(mx + 1)};
    if (r == 1)
        d[0] = dnum(mx + 1);
    nnav_ix_out(ix, 0, NNAV_DT_FLOAT, r, d);
    return 0;
}

static int r_max_roi_pool(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    int64_t ps[2];
    if (nnav_ix_attr_ints(ix, "pooled_shape", ps, 2) != 2)
        return nnav_ix_fail(ix, "pooled_shape missing or not of 2 entries");
    const nnav_dim *x = nnav_ix_dims(ix, 0), *rois = nnav_ix_dims(ix, 1);
    if (nnav_ix_rank(ix, 0) != 4 || nnav_ix_rank(ix, 1) != 2)
        return nnav_ix_fail(ix, "input or rois of the wrong rank");
    nnav_dim d[4] = {rois[0], x[1], size_attr(ps[0]), size_attr(ps[1])};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 4, d);
    return 0;
}

/* STFT: [batch, frames, bins, 2], frames from the signal length, the frame
 * step and the frame length (the window's, or the frame_length input). */
static int r_stft(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    if (nnav_ix_rank(ix, 0) != 3)
        return nnav_ix_fail(ix, "signal of rank %d", nnav_ix_rank(ix, 0));
    const nnav_dim *x = nnav_ix_dims(ix, 0), *v;
    nnav_dim step = fold_one(ix, 1), len = NNAV_DIM_UNKNOWN;
    if (nnav_ix_present(ix, 3) && nnav_ix_fold(ix, 3, &v) == 1)
        len = v[0];
    else if (nnav_ix_present(ix, 2) && nnav_ix_rank(ix, 2) == 1)
        len = nnav_ix_dims(ix, 2)[0];
    nnav_dim frames = NNAV_DIM_UNKNOWN;
    if (nnav_dim_is_num(step) && dval(step) > 0 && !nnav_dim_is_unknown(len))
        frames = nnav_sd_add(ix->S, nnav_sd_div(ix->S, nnav_sd_sub(ix->S, x[1], len), step),
                             dnum(1));
    nnav_dim bins = len;
    if (nnav_ix_attr_i(ix, "onesided", 1))
        bins = nnav_sd_add(ix->S, nnav_sd_div(ix->S, len, dnum(2)), dnum(1));
    nnav_dim d[4] = {x[0], frames, bins, dnum(2)};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 4, d);
    return 0;
}

const nnav_rule nnav_shape_rules[] = {
    /* same shape and type as the first input */
    {"Relu", r_same}, {"LeakyRelu", r_same}, {"Elu", r_same}, {"Selu", r_same},
    {"Celu", r_same}, {"Sigmoid", r_same}, {"Tanh", r_same}, {"HardSigmoid", r_same},
    {"HardSwish", r_same}, {"Softplus", r_same}, {"Softsign", r_same}, {"Exp", r_same},
    {"Log", r_same}, {"Sqrt", r_same}, {"Abs", r_same}, {"Reciprocal", r_same},
    {"Floor", r_same}, {"Ceil", r_same}, {"Round", r_same}, {"Sign", r_same}, {"Erf", r_same},
    {"Gelu", r_same}, {"Mish", r_same}, {"Sin", r_same}, {"Cos", r_same}, {"Tan", r_same},
    {"Asin", r_same}, {"Acos", r_same}, {"Atan", r_same}, {"Sinh", r_same}, {"Cosh", r_same},
    {"Asinh", r_same}, {"Acosh", r_same}, {"Atanh", r_same}, {"Clip", r_same},
    {"Softmax", r_same}, {"LogSoftmax", r_same}, {"Hardmax", r_same}, {"LRN", r_same},
    {"InstanceNormalization", r_same}, {"GroupNormalization", r_same},
    {"MeanVarianceNormalization", r_same}, {"LpNormalization", r_same}, {"Shrink", r_same},
    {"ThresholdedRelu", r_same}, {"CumSum", r_same}, {"Trilu", r_same},
    {"ReverseSequence", r_same}, {"ScatterElements", r_same}, {"ScatterND", r_same},
    {"Scatter", r_same}, {"BitwiseNot", r_same},
    {"Identity", r_same}, {"Neg", r_neg}, {"Not", r_to_bool}, {"IsNaN", r_to_bool},
    {"IsInf", r_to_bool}, {"Cast", r_cast}, {"CastLike", r_cast}, {"Dropout", r_dropout},
    {"BatchNormalization", r_batchnorm},
    /* broadcasting */
    {"Add", r_add}, {"Sub", r_sub}, {"Mul", r_mul}, {"Div", r_div}, {"Max", r_max},
    {"Min", r_min}, {"Pow", r_bcast}, {"Sum", r_bcast}, {"Mean", r_bcast}, {"Mod", r_bcast},
    {"BitShift", r_bcast}, {"PRelu", r_bcast}, {"BitwiseAnd", r_bcast},
    {"BitwiseOr", r_bcast}, {"BitwiseXor", r_bcast}, {"And", r_compare}, {"Or", r_compare},
    {"Xor", r_compare}, {"Equal", r_equal}, {"Greater", r_compare}, {"Less", r_compare},
    {"GreaterOrEqual", r_compare}, {"LessOrEqual", r_compare}, {"Where", r_where},
    /* shapes as data, and reshaping */
    {"Shape", r_shape}, {"Size", r_size}, {"Constant", r_constant},
    {"ConstantOfShape", r_constant_of_shape}, {"Reshape", r_reshape}, {"Flatten", r_flatten},
    {"Unsqueeze", r_unsqueeze}, {"Squeeze", r_squeeze}, {"Transpose", r_transpose},
    {"Concat", r_concat}, {"Gather", r_gather}, {"Expand", r_expand},
    /* linear algebra, convolution, pooling */
    {"MatMul", nnav_rule_matmul}, {"MatMulInteger", nnav_rule_matmul}, {"Gemm", nnav_rule_gemm}, {"Conv", nnav_rule_conv},
    {"ConvInteger", nnav_rule_conv}, {"QLinearConv", nnav_rule_conv}, {"ConvTranspose", nnav_rule_conv_transpose},
    {"MaxPool", nnav_rule_pool}, {"AveragePool", nnav_rule_pool}, {"LpPool", nnav_rule_pool},
    {"GlobalAveragePool", nnav_rule_global_pool}, {"GlobalMaxPool", nnav_rule_global_pool},
    {"GlobalLpPool", nnav_rule_global_pool},
    /* reductions */
    {"ReduceSum", nnav_rule_reduce}, {"ReduceMean", nnav_rule_reduce}, {"ReduceMax", nnav_rule_reduce},
    {"ReduceMin", nnav_rule_reduce}, {"ReduceProd", nnav_rule_reduce}, {"ReduceL1", nnav_rule_reduce},
    {"ReduceL2", nnav_rule_reduce}, {"ReduceLogSum", nnav_rule_reduce}, {"ReduceLogSumExp", nnav_rule_reduce},
    {"ReduceSumSquare", nnav_rule_reduce}, {"ArgMax", nnav_rule_argmax}, {"ArgMin", nnav_rule_argmax},
    /* control flow */
    {"If", nnav_rule_if}, {"Loop", nnav_rule_loop}, {"Scan", nnav_rule_scan},
    /* slicing, splitting, tiling, padding, resizing */
    {"Slice", r_slice}, {"Split", r_split}, {"Tile", r_tile}, {"Pad", r_pad},
    {"Resize", r_resize}, {"Upsample", r_resize}, {"DepthToSpace", r_depth_space},
    {"SpaceToDepth", r_depth_space}, {"CenterCropPad", r_center_crop_pad},
    /* selecting */
    {"TopK", r_topk}, {"NonZero", r_nonzero}, {"GatherElements", r_gather_elements},
    {"GatherND", r_gather_nd}, {"Compress", r_compress}, {"NonMaxSuppression", r_nms},
    {"Unique", r_unique},
    /* generators */
    {"Range", r_range}, {"OneHot", r_onehot}, {"EyeLike", r_eyelike},
    {"RandomNormal", r_random}, {"RandomUniform", r_random},
    {"RandomNormalLike", r_random_like}, {"RandomUniformLike", r_random_like},
    {"Bernoulli", r_random_like}, {"Multinomial", r_multinomial}, {"HannWindow", r_window},
    {"HammingWindow", r_window}, {"BlackmanWindow", r_window},
    {"MelWeightMatrix", r_mel_weight}, {"DFT", r_dft},
    /* quantisation */
    {"QuantizeLinear", nnav_rule_quantize}, {"DequantizeLinear", nnav_rule_dequantize},
    {"DynamicQuantizeLinear", nnav_rule_dyn_quantize}, {"QLinearMatMul", nnav_rule_qlinear_matmul},
    /* normalisation, losses, text */
    {"LayerNormalization", nnav_rule_layernorm}, {"SoftmaxCrossEntropyLoss", nnav_rule_loss},
    /* not ONNX's: ONNX Runtime registers it in the default domain (Y and
     * inv_std_var, shaped as LayerNormalization's Y and mean) */
    {"SimplifiedLayerNormalization", nnav_rule_layernorm},
    {"NegativeLogLikelihoodLoss", nnav_rule_loss}, {"StringNormalizer", nnav_rule_string_normalizer},
    /* linear algebra, recurrent, vision */
    {"Einsum", r_einsum}, {"Det", r_det}, {"RNN", nnav_rule_rnn}, {"GRU", nnav_rule_rnn}, {"LSTM", nnav_rule_rnn},
    {"RoiAlign", r_roialign}, {"GridSample", r_grid_sample}, {"MaxUnpool", r_max_unpool},
    /* sequences */
    {"SequenceEmpty", nnav_rule_seq_empty}, {"SequenceConstruct", nnav_rule_seq_construct},
    {"SequenceInsert", nnav_rule_seq_insert}, {"SequenceErase", nnav_rule_seq_erase},
    {"SequenceAt", nnav_rule_seq_at}, {"SequenceLength", nnav_rule_seq_length},
    {"SplitToSequence", nnav_rule_split_to_seq}, {"ConcatFromSequence", nnav_rule_concat_from_seq},
    {"OptionalHasElement", r_has_element}, {"TfIdfVectorizer", r_tfidf},
    {"MaxRoiPool", r_max_roi_pool}, {"STFT", r_stft}, {"SequenceMap", nnav_rule_sequence_map},
    /* opsets 18 to 23: attention, rotary embedding, RMS norm, Col2Im, AffineGrid,
     * DeformConv (a Conv's shape: X, W, then its offsets), text */
    {"Attention", nnav_rule_attention}, {"RotaryEmbedding", nnav_rule_same_shape},
    {"RMSNormalization", nnav_rule_same_shape}, {"Col2Im", nnav_rule_col2im},
    {"AffineGrid", nnav_rule_affine_grid}, {"DeformConv", nnav_rule_conv},
    {"StringConcat", r_bcast}, {"RegexFullMatch", r_to_bool}, {"StringSplit", r_string_split},
    {NULL, NULL},
};
