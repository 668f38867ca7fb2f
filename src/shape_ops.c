/* shape_ops.c - the ONNX operators' type and shape rules, one function per
 * family, each reading its node through shape_int.h. A rule that cannot say
 * fails with a reason; it never guesses. Sizes computed from shapes (Shape,
 * Gather, Concat, Unsqueeze, arithmetic...) are folded, so Reshape and Expand
 * downstream get real, possibly symbolic, shapes. */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "shape_int.h"

#define IX nnav_ictx *ix

static int need_rank(IX, uint32_t i)
{
    if (!nnav_ix_present(ix, i))
        return nnav_ix_fail(ix, "input %u is missing", i);
    if (nnav_ix_rank(ix, i) < 0)
        return nnav_ix_fail(ix, "input %u has no known rank", i);
    return 0;
}

/* Axis in [0, rank): negative axes count from the end. */
static int norm_axis(IX, int64_t axis, int32_t rank, int64_t *out)
{
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        return nnav_ix_fail(ix, "axis out of range for rank %d", rank);
    *out = axis;
    return 0;
}

static int is_int_type(int32_t t)
{
    return t == NNAV_DT_INT64 || t == NNAV_DT_INT32 || t == NNAV_DT_INT16 || t == NNAV_DT_INT8 ||
           t == NNAV_DT_UINT64 || t == NNAV_DT_UINT32 || t == NNAV_DT_UINT16 ||
           t == NNAV_DT_UINT8;
}

/* ---- same shape as the first input ---- */

static int r_same(IX)
{
    if (!nnav_ix_present(ix, 0))
        return nnav_ix_fail(ix, "input 0 is missing");
    nnav_ix_out_same(ix, 0, 0);
    return 0;
}

/* Unary ops that keep folded integers meaningful. */
static int r_identity(IX)
{
    return r_same(ix);
}

static int r_neg(IX)
{
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, 0, &v);
    if (n >= 0) {
        nnav_dim o[NNAV_FOLD_MAX];
        for (int i = 0; i < n; i++)
            o[i] = nnav_sd_mul(ix->S, v[i], -1);
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0) == 0, o, (size_t)n);
        return 0;
    }
    return r_same(ix);
}

static int r_to_bool(IX)
{
    const nnav_fact *f = nnav_ix_in(ix, 0);
    if (!f)
        return nnav_ix_fail(ix, "input 0 is missing");
    nnav_ix_out(ix, 0, NNAV_DT_BOOL, f->rank, nnav_ix_dims(ix, 0));
    return 0;
}

static int r_cast(IX)
{
    int64_t to = nnav_ix_attr_i(ix, "to", 0);
    int32_t dt = to ? (int32_t)to : nnav_ix_dtype(ix, 1); /* CastLike: the second input's */
    const nnav_fact *f = nnav_ix_in(ix, 0);
    if (!f)
        return nnav_ix_fail(ix, "input 0 is missing");
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, 0, &v);
    if (n >= 0 && is_int_type(dt)) {
        nnav_ix_out_fold(ix, 0, dt, f->rank == 0, v, (size_t)n);
        return 0;
    }
    nnav_ix_out(ix, 0, dt, f->rank, nnav_ix_dims(ix, 0));
    return 0;
}

static int r_dropout(IX)
{
    nnav_ix_out_same(ix, 0, 0);
    if (nnav_ix_nout(ix) > 1)
        nnav_ix_out(ix, 1, NNAV_DT_BOOL, nnav_ix_rank(ix, 0), nnav_ix_dims(ix, 0));
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
        out[k] = 1;
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
    int na = nnav_ix_fold(ix, 0, &a), nb = nnav_ix_fold(ix, 1, &b);
    if (na < 0 || nb < 0 || (na != nb && na != 1 && nb != 1))
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
        case '=': o[i] = nnav_sd_same(x, y) ? 1 : (nnav_dim_is_num(x) && nnav_dim_is_num(y)) ? 0
                                                                                       : NNAV_DIM_UNKNOWN;
            break;
        case '>':
        case '<':
            if (!nnav_dim_is_num(x) || !nnav_dim_is_num(y))
                return 0;
            o[i] = (op == '>') == (x > y) ? x : y;
            break;
        default: return 0;
        }
    }
    int scalar = nnav_ix_rank(ix, 0) == 0 && nnav_ix_rank(ix, 1) == 0;
    nnav_ix_out_fold(ix, 0, dtype, scalar, o, (size_t)n);
    return 1;
}

static int r_broadcast_as(IX, int32_t dtype, char fold_op)
{
    nnav_dim d[NNAV_RANK_MAX];
    int32_t r;
    uint32_t n = nnav_ix_nin(ix);
    if (n == 0)
        return nnav_ix_fail(ix, "no inputs");
    if (broadcast_shape(ix, 0, n, d, &r) < 0)
        return -1;
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
    int32_t r;
    if (broadcast_shape(ix, 0, 3, d, &r) < 0)
        return -1;
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
                o[i] = ci ? x[nx == 1 ? 0 : i] : y[ny == 1 ? 0 : i];
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
    if (need_rank(ix, 0) < 0)
        return -1;
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
    if (need_rank(ix, 0) < 0)
        return -1;
    nnav_dim p = 1;
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
        d[i] = m->dims.v[tt->dims_first + i] >= 0 ? m->dims.v[tt->dims_first + i] : NNAV_DIM_UNKNOWN;
    if (is_int_type(tt->dtype) && tt->ndims <= 1 && tt->nelems <= NNAV_FOLD_MAX && !tt->warn) {
        double buf[NNAV_FOLD_MAX];
        nnav_values vals = {0};
        vals.v = buf;
        nnav_error e;
        if (nnav_tensor_values(m, t, NNAV_FOLD_MAX, 0, &vals, &e) == 0 && vals.count == tt->nelems) {
            nnav_dim f[NNAV_FOLD_MAX];
            for (size_t i = 0; i < vals.count; i++)
                f[i] = (nnav_dim)buf[i];
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
    nnav_dim one = 1;
    if (nnav_ix_attr_has(ix, "value_int")) {
        nnav_dim v = nnav_ix_attr_i(ix, "value_int", 0);
        nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 1, &v, 1);
        return 0;
    }
    if (nnav_ix_attr_has(ix, "value_ints")) {
        int n = nnav_ix_attr_ints(ix, "value_ints", ints, NNAV_FOLD_MAX);
        if (n >= 0) {
            nnav_ix_out_fold(ix, 0, NNAV_DT_INT64, 0, ints, (size_t)n);
        } else {
            size_t total = 0;
            nnav_error e;
            nnav_attr_ints(ix->m, nnav_ix_attr(ix, "value_ints"), NULL, 0, &total, &e);
            nnav_dim len = (nnav_dim)total;
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
        else
            nnav_attr_strings(ix->m, a, NULL, 0, &total, &e);
        one = (nnav_dim)total;
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
        if (nnav_ix_rank(ix, 0) == 1 && nnav_dim_is_num(len[0]) && len[0] <= NNAV_RANK_MAX) {
            nnav_dim d[NNAV_RANK_MAX];
            for (int64_t i = 0; i < len[0]; i++)
                d[i] = NNAV_DIM_UNKNOWN;
            nnav_ix_out(ix, 0, dt, (int32_t)len[0], d);
            return 0;
        }
        return nnav_ix_fail(ix, "its shape operand is not known");
    }
    if (n > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    for (int i = 0; i < n; i++)
        if (nnav_dim_is_num(s[i]) && s[i] < 0)
            return nnav_ix_fail(ix, "negative size in its shape operand");
    /* A small integer fill folds (an int vector of ones, of -1s...). */
    if (n <= 1 && is_int_type(dt) && isfinite(fill) && fill == floor(fill)) {
        nnav_dim cnt = n == 0 ? 1 : s[0];
        if (nnav_dim_is_num(cnt) && cnt <= NNAV_FOLD_MAX) {
            nnav_dim o[NNAV_FOLD_MAX];
            for (nnav_dim i = 0; i < cnt; i++)
                o[i] = (nnav_dim)fill;
            nnav_ix_out_fold(ix, 0, dt, n == 0, o, (size_t)cnt);
            return 0;
        }
    }
    nnav_ix_out(ix, 0, dt, n, s);
    return 0;
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

static int r_reshape(IX)
{
    nnav_dim d[NNAV_RANK_MAX];
    int32_t n;
    if (shape_operand(ix, 1, d, &n) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    int allowzero = (int)nnav_ix_attr_i(ix, "allowzero", 0);
    int infer = -1;
    for (int32_t i = 0; i < n; i++) {
        if (d[i] == 0 && !allowzero) {
            if (i >= r)
                return nnav_ix_fail(ix, "0 copies axis %d, beyond the input's rank", i);
            d[i] = in[i];
        } else if (d[i] == -1) {
            if (infer >= 0)
                return nnav_ix_fail(ix, "more than one -1");
            infer = i;
        } else if (nnav_dim_is_num(d[i]) && d[i] < 0) {
            return nnav_ix_fail(ix, "size %lld in its shape operand", (long long)d[i]);
        }
    }
    if (infer >= 0) {
        d[infer] = NNAV_DIM_UNKNOWN;
        if (r >= 0) {
            nnav_dim total = 1, known = 1;
            for (int32_t i = 0; i < r; i++)
                total = nnav_sd_mul(ix->S, total, in[i]);
            for (int32_t i = 0; i < n; i++)
                if (i != infer)
                    known = nnav_sd_mul(ix->S, known, d[i]);
            d[infer] = nnav_sd_div(ix->S, total, known);
        }
    }
    const nnav_dim *v;
    int nv = nnav_ix_fold(ix, 0, &v);
    if (nv >= 0 && n <= 1) {
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), n == 0, v, (size_t)nv);
        return 0;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), n, d);
    return 0;
}

static int r_flatten(IX)
{
    if (need_rank(ix, 0) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = nnav_ix_attr_i(ix, "axis", 1);
    if (axis < 0)
        axis += r;
    if (axis < 0 || axis > r)
        return nnav_ix_fail(ix, "axis out of range");
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[2] = {1, 1};
    for (int32_t i = 0; i < r; i++)
        d[i >= axis] = nnav_sd_mul(ix->S, d[i >= axis], in[i]);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 2, d);
    return 0;
}

/* Axes from the attribute (older opsets) or the second input. */
static int axes_of(IX, uint32_t input, int64_t *axes, int *n)
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

static int r_unsqueeze(IX)
{
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (need_rank(ix, 0) < 0 || axes_of(ix, 1, axes, &na) < 0)
        return -1;
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
    const nnav_dim *in = nnav_ix_dims(ix, 0), *v;
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0, k = 0; i < out; i++)
        d[i] = at[i] ? 1 : in[k++];
    int nv = nnav_ix_fold(ix, 0, &v);
    if (nv >= 0 && out <= 1) {
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), 0, v, (size_t)nv);
        return 0;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), out, d);
    return 0;
}

static int r_squeeze(IX)
{
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (need_rank(ix, 0) < 0 || axes_of(ix, 1, axes, &na) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    const nnav_dim *in = nnav_ix_dims(ix, 0), *v;
    uint8_t drop[NNAV_RANK_MAX] = {0};
    if (na < 0) {
        for (int32_t i = 0; i < r; i++) {
            if (!nnav_dim_is_num(in[i]))
                return nnav_ix_fail(ix, "no axes, and axis %d's size is not known", i);
            drop[i] = in[i] == 1;
        }
    }
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        if (nnav_dim_is_num(in[a]) && in[a] != 1)
            return nnav_ix_fail(ix, "axis %lld has size %lld, not 1", (long long)a, (long long)in[a]);
        drop[a] = 1;
    }
    nnav_dim d[NNAV_RANK_MAX];
    int32_t out = 0;
    for (int32_t i = 0; i < r; i++)
        if (!drop[i])
            d[out++] = in[i];
    int nv = nnav_ix_fold(ix, 0, &v);
    if (nv >= 0 && out <= 1) {
        nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), out == 0, v, (size_t)nv);
        return 0;
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), out, d);
    return 0;
}

static int r_transpose(IX)
{
    if (need_rank(ix, 0) < 0)
        return -1;
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
        return nnav_ix_fail(ix, "no input has a known rank");
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    /* Small integer vectors concatenate as data too. */
    if (r == 1) {
        nnav_dim o[NNAV_FOLD_MAX];
        size_t k = 0;
        int ok = 1;
        for (uint32_t i = 0; i < n && ok; i++) {
            const nnav_dim *v;
            int nv = nnav_ix_fold(ix, i, &v);
            if (nv < 0 || k + (size_t)nv > NNAV_FOLD_MAX)
                ok = 0;
            else
                memcpy(o + k, v, (size_t)nv * sizeof *o), k += (size_t)nv;
        }
        if (ok) {
            nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), 0, o, k);
            return 0;
        }
    }
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t k = 0; k < r; k++)
        d[k] = k == axis ? 0 : NNAV_DIM_UNKNOWN;
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
            else if (d[k] == NNAV_DIM_UNKNOWN || (!nnav_dim_is_num(d[k]) && nnav_dim_is_num(in[k])))
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
        return -1;
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
                int64_t k = iv[i] < 0 ? iv[i] + nd : iv[i];
                if (k < 0 || k >= nd)
                    return nnav_ix_fail(ix, "index %lld out of range", (long long)iv[i]);
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
    int32_t n;
    if (need_rank(ix, 0) < 0 || shape_operand(ix, 1, s, &n) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0), out = r > n ? r : n;
    const nnav_dim *in = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t k = 0; k < out; k++) {
        nnav_dim a = k - (out - r) >= 0 ? in[k - (out - r)] : 1;
        nnav_dim b = k - (out - n) >= 0 ? s[k - (out - n)] : 1;
        int bad = 0;
        d[k] = nnav_sd_broadcast(ix->S, a, b, &bad);
        if (bad)
            return nnav_ix_fail(ix, "shape cannot be broadcast to (axis %d)", k);
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), out, d);
    return 0;
}

/* ---- linear algebra ---- */

static int r_matmul(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return -1;
    int32_t ra = nnav_ix_rank(ix, 0), rb = nnav_ix_rank(ix, 1);
    if (ra == 0 || rb == 0)
        return nnav_ix_fail(ix, "a scalar operand");
    const nnav_dim *a = nnav_ix_dims(ix, 0), *b = nnav_ix_dims(ix, 1);
    nnav_dim A[NNAV_RANK_MAX + 1], B[NNAV_RANK_MAX + 1];
    /* Vectors are promoted to matrices, and the added axis dropped after. */
    int32_t na = ra, nb = rb;
    if (ra == 1)
        A[0] = 1, A[1] = a[0], na = 2;
    else
        memcpy(A, a, (size_t)ra * sizeof *A);
    if (rb == 1)
        B[0] = b[0], B[1] = 1, nb = 2;
    else
        memcpy(B, b, (size_t)rb * sizeof *B);
    nnav_dim ka = A[na - 1], kb = B[nb - 2];
    if (nnav_dim_is_num(ka) && nnav_dim_is_num(kb) && ka != kb)
        return nnav_ix_fail(ix, "inner sizes %lld and %lld differ", (long long)ka, (long long)kb);
    int32_t batch = (na > nb ? na : nb) - 2;
    nnav_dim d[NNAV_RANK_MAX + 2];
    for (int32_t k = 0; k < batch; k++) {
        int32_t ia = k - (batch - (na - 2)), ib = k - (batch - (nb - 2));
        int bad = 0;
        d[k] = nnav_sd_broadcast(ix->S, ia >= 0 ? A[ia] : 1, ib >= 0 ? B[ib] : 1, &bad);
        if (bad)
            return nnav_ix_fail(ix, "batch axes cannot be broadcast");
    }
    int32_t r = batch;
    if (ra != 1)
        d[r++] = A[na - 2];
    if (rb != 1)
        d[r++] = B[nb - 1];
    if (r > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    int32_t dt = nnav_ix_dtype(ix, 0);
    if (nnav_span_eqs(ix->nd->op, "MatMulInteger"))
        dt = NNAV_DT_INT32;
    nnav_ix_out(ix, 0, dt, r, d);
    return 0;
}

static int r_gemm(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return -1;
    if (nnav_ix_rank(ix, 0) != 2 || nnav_ix_rank(ix, 1) != 2)
        return nnav_ix_fail(ix, "operands are not matrices");
    const nnav_dim *a = nnav_ix_dims(ix, 0), *b = nnav_ix_dims(ix, 1);
    int ta = nnav_ix_attr_i(ix, "transA", 0) != 0, tb = nnav_ix_attr_i(ix, "transB", 0) != 0;
    nnav_dim d[2] = {a[ta ? 1 : 0], b[tb ? 0 : 1]};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 2, d);
    return 0;
}

/* ---- convolution and pooling ---- */

/* Spatial output sizes from the input's, for Conv and the pools. */
static int spatial(IX, const nnav_dim *in, int32_t ns, const int64_t *kernel, nnav_dim *out,
                   int ceil_mode)
{
    int64_t strides[NNAV_RANK_MAX], dil[NNAV_RANK_MAX], pads[2 * NNAV_RANK_MAX];
    for (int32_t i = 0; i < ns; i++)
        strides[i] = dil[i] = 1, pads[i] = pads[i + ns] = 0;
    int n = nnav_ix_attr_ints(ix, "strides", strides, NNAV_RANK_MAX);
    if (n >= 0 && n != ns)
        return nnav_ix_fail(ix, "strides has %d entries for %d spatial axes", n, ns);
    n = nnav_ix_attr_ints(ix, "dilations", dil, NNAV_RANK_MAX);
    if (n >= 0 && n != ns)
        return nnav_ix_fail(ix, "dilations has %d entries for %d spatial axes", n, ns);
    n = nnav_ix_attr_ints(ix, "pads", pads, 2 * NNAV_RANK_MAX);
    if (n >= 0 && n != 2 * ns)
        return nnav_ix_fail(ix, "pads has %d entries for %d spatial axes", n, ns);
    int same = nnav_ix_attr_s(ix, "auto_pad", "SAME_UPPER") ||
               nnav_ix_attr_s(ix, "auto_pad", "SAME_LOWER");
    int valid = nnav_ix_attr_s(ix, "auto_pad", "VALID");
    for (int32_t i = 0; i < ns; i++) {
        if (strides[i] < 1 || dil[i] < 1 || kernel[i] < 1)
            return nnav_ix_fail(ix, "stride, dilation or kernel below 1");
        if (same) {
            out[i] = nnav_sd_cdiv(ix->S, in[i], strides[i]);
            continue;
        }
        int64_t pb = valid ? 0 : pads[i], pe = valid ? 0 : pads[i + ns];
        int64_t span = dil[i] * (kernel[i] - 1) + 1;
        nnav_dim x = nnav_sd_add(ix->S, in[i], pb + pe - span);
        out[i] = nnav_sd_add(ix->S, ceil_mode ? nnav_sd_cdiv(ix->S, x, strides[i])
                                              : nnav_sd_div(ix->S, x, strides[i]), 1);
        if (nnav_dim_is_num(out[i]) && out[i] < 1)
            return nnav_ix_fail(ix, "axis %d would have size %lld", i + 2, (long long)out[i]);
    }
    return 0;
}

static int r_conv(IX)
{
    uint32_t wi = nnav_span_eqs(ix->nd->op, "QLinearConv") ? 3 : 1;
    if (need_rank(ix, 0) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 3)
        return nnav_ix_fail(ix, "input of rank %d", r);
    int32_t ns = r - 2;
    const nnav_dim *x = nnav_ix_dims(ix, 0), *w = nnav_ix_dims(ix, wi);
    int64_t kernel[NNAV_RANK_MAX];
    int nk = nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX);
    if (nk < 0) {
        if (!w || nnav_ix_rank(ix, wi) != r)
            return nnav_ix_fail(ix, "the weight's shape is not known");
        for (int32_t i = 0; i < ns; i++) {
            if (!nnav_dim_is_num(w[i + 2]))
                return nnav_ix_fail(ix, "the kernel's size is not known");
            kernel[i] = w[i + 2];
        }
    } else if (nk != ns) {
        return nnav_ix_fail(ix, "kernel_shape has %d entries for %d spatial axes", nk, ns);
    }
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0];
    d[1] = w && nnav_ix_rank(ix, wi) == r ? w[0] : NNAV_DIM_UNKNOWN;
    if (spatial(ix, x + 2, ns, kernel, d + 2, 0) < 0)
        return -1;
    int32_t dt = nnav_ix_dtype(ix, 0);
    if (nnav_span_eqs(ix->nd->op, "ConvInteger"))
        dt = NNAV_DT_INT32;
    if (nnav_span_eqs(ix->nd->op, "QLinearConv"))
        dt = nnav_ix_dtype(ix, 7) ? nnav_ix_dtype(ix, 7) : nnav_ix_dtype(ix, 0);
    nnav_ix_out(ix, 0, dt, r, d);
    return 0;
}

static int r_conv_transpose(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0), ns = r - 2;
    if (r < 3 || nnav_ix_rank(ix, 1) != r)
        return nnav_ix_fail(ix, "input and weight ranks do not fit");
    const nnav_dim *x = nnav_ix_dims(ix, 0), *w = nnav_ix_dims(ix, 1);
    int64_t group = nnav_ix_attr_i(ix, "group", 1);
    int64_t kernel[NNAV_RANK_MAX], strides[NNAV_RANK_MAX], dil[NNAV_RANK_MAX],
        pads[2 * NNAV_RANK_MAX], opad[NNAV_RANK_MAX], oshape[NNAV_RANK_MAX];
    for (int32_t i = 0; i < ns; i++) {
        kernel[i] = nnav_dim_is_num(w[i + 2]) ? w[i + 2] : -1;
        strides[i] = dil[i] = 1, pads[i] = pads[i + ns] = opad[i] = 0;
    }
    nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "strides", strides, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "dilations", dil, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "pads", pads, 2 * NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "output_padding", opad, NNAV_RANK_MAX);
    int nos = nnav_ix_attr_ints(ix, "output_shape", oshape, NNAV_RANK_MAX);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0];
    d[1] = nnav_sd_mul(ix->S, w[1], group);
    for (int32_t i = 0; i < ns; i++) {
        if (nos == ns) {
            d[i + 2] = oshape[i];
            continue;
        }
        if (kernel[i] < 1)
            return nnav_ix_fail(ix, "the kernel's size is not known");
        int64_t extra = opad[i] + (kernel[i] - 1) * dil[i] + 1 - pads[i] - pads[i + ns];
        d[i + 2] = nnav_sd_add(ix->S, nnav_sd_mul(ix->S, nnav_sd_sub(ix->S, x[i + 2], 1), strides[i]),
                               extra);
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

static int r_pool(IX)
{
    if (need_rank(ix, 0) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0), ns = r - 2;
    if (r < 3)
        return nnav_ix_fail(ix, "input of rank %d", r);
    int64_t kernel[NNAV_RANK_MAX];
    if (nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX) != ns)
        return nnav_ix_fail(ix, "kernel_shape missing or of the wrong length");
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0], d[1] = x[1];
    if (spatial(ix, x + 2, ns, kernel, d + 2, (int)nnav_ix_attr_i(ix, "ceil_mode", 0)) < 0)
        return -1;
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    if (nnav_ix_nout(ix) > 1)
        nnav_ix_out(ix, 1, NNAV_DT_INT64, r, d);
    return 0;
}

static int r_global_pool(IX)
{
    if (need_rank(ix, 0) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 2)
        return nnav_ix_fail(ix, "input of rank %d", r);
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0], d[1] = x[1];
    for (int32_t i = 2; i < r; i++)
        d[i] = 1;
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- reductions ---- */

static int reduce_to(IX, int32_t dtype, int axes_from_input)
{
    if (need_rank(ix, 0) < 0)
        return -1;
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (axes_from_input) {
        if (axes_of(ix, 1, axes, &na) < 0)
            return -1;
    } else {
        int64_t a = nnav_ix_attr_i(ix, "axis", 0);
        axes[0] = a, na = 1;
    }
    int keep = nnav_ix_attr_i(ix, "keepdims", 1) != 0;
    uint8_t red[NNAV_RANK_MAX] = {0};
    if (na <= 0) { /* no axes: all of them, unless told to do nothing */
        if (nnav_ix_attr_i(ix, "noop_with_empty_axes", 0)) {
            nnav_ix_out_same(ix, 0, 0);
            return 0;
        }
        for (int32_t i = 0; i < r; i++)
            red[i] = 1;
    }
    for (int i = 0; i < na; i++) {
        int64_t a = 0;
        if (norm_axis(ix, axes[i], r, &a) < 0)
            return -1;
        red[a] = 1;
    }
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    int32_t k = 0;
    for (int32_t i = 0; i < r; i++) {
        if (!red[i])
            d[k++] = x[i];
        else if (keep)
            d[k++] = 1;
    }
    nnav_ix_out(ix, 0, dtype ? dtype : nnav_ix_dtype(ix, 0), k, d);
    return 0;
}

static int r_reduce(IX)
{
    return reduce_to(ix, 0, 1);
}

static int r_argmax(IX)
{
    return reduce_to(ix, NNAV_DT_INT64, 0);
}

/* ---- control flow ---- */

/* Two branches' facts merged: what both say. */
static nnav_fact merge2(IX, const nnav_fact *a, const nnav_fact *b)
{
    if (!a || !b)
        return nnav_ix_make(ix, 0, -1, NULL);
    int32_t dt = a->dtype == b->dtype ? a->dtype : 0;
    if (a->rank < 0 || a->rank != b->rank)
        return nnav_ix_make(ix, dt, -1, NULL);
    nnav_dim d[NNAV_RANK_MAX];
    const nnav_dim *da = nnav_shapes_dims(ix->S, a->dims), *db = nnav_shapes_dims(ix->S, b->dims);
    for (int32_t i = 0; i < a->rank; i++)
        d[i] = da[i] == db[i] ? da[i] : NNAV_DIM_UNKNOWN;
    return nnav_ix_make(ix, dt, a->rank, d);
}

static void out_fact(IX, uint32_t o, const nnav_fact *f)
{
    if (f)
        nnav_ix_out(ix, o, f->dtype, f->rank, f->rank >= 0 ? nnav_shapes_dims(ix->S, f->dims) : NULL);
}

static int r_if(IX)
{
    uint32_t gt = nnav_ix_body(ix, "then_branch", NULL, 0);
    uint32_t ge = nnav_ix_body(ix, "else_branch", NULL, 0);
    if (gt == NNAV_NONE || ge == NNAV_NONE)
        return nnav_ix_fail(ix, "a branch could not be inferred");
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        nnav_fact f = merge2(ix, nnav_ix_body_out(ix, gt, o, NULL), nnav_ix_body_out(ix, ge, o, NULL));
        out_fact(ix, o, &f);
    }
    return 0;
}

static int r_loop(IX)
{
    uint32_t nin = nnav_ix_nin(ix), ncarried = nin > 2 ? nin - 2 : 0;
    const nnav_fact *seed[2 + 64];
    if (ncarried > 64)
        return nnav_ix_fail(ix, "over 64 loop-carried values");
    nnav_fact it = nnav_ix_make(ix, NNAV_DT_INT64, 0, NULL);
    nnav_fact cond = nnav_ix_make(ix, NNAV_DT_BOOL, 0, NULL);
    seed[0] = &it, seed[1] = &cond;
    for (uint32_t i = 0; i < ncarried; i++)
        seed[2 + i] = nnav_ix_in(ix, 2 + i);
    uint32_t g = nnav_ix_body(ix, "body", seed, 2 + ncarried);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    uint32_t nbody;
    nnav_ix_body_out(ix, g, 0, &nbody);
    /* Carried values: what holds on entry and after every iteration. */
    for (uint32_t k = 0; k < ncarried; k++) {
        nnav_fact f = merge2(ix, nnav_ix_in(ix, 2 + k), nnav_ix_body_out(ix, g, 1 + k, NULL));
        out_fact(ix, k, &f);
    }
    /* Scan outputs: one slice per iteration, stacked on a new first axis. */
    const nnav_dim *trip;
    int nt = nnav_ix_fold(ix, 0, &trip);
    nnav_dim count = nt == 1 && !nnav_ix_present(ix, 1) ? trip[0] : NNAV_DIM_UNKNOWN;
    for (uint32_t k = ncarried; k < nnav_ix_nout(ix); k++) {
        const nnav_fact *f = nnav_ix_body_out(ix, g, 1 + k, NULL);
        if (!f || f->rank < 0 || f->rank >= NNAV_RANK_MAX) {
            if (f)
                nnav_ix_out(ix, k, f->dtype, -1, NULL);
            continue;
        }
        nnav_dim d[NNAV_RANK_MAX];
        d[0] = count;
        memcpy(d + 1, nnav_shapes_dims(ix->S, f->dims), (size_t)f->rank * sizeof *d);
        nnav_ix_out(ix, k, f->dtype, f->rank + 1, d);
    }
    return 0;
}

static int r_scan(IX)
{
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 9)
        return nnav_ix_fail(ix, "Scan before opset 9 is not inferred");
    int64_t nscan = nnav_ix_attr_i(ix, "num_scan_inputs", -1);
    uint32_t nin = nnav_ix_nin(ix);
    if (nscan < 0 || (uint64_t)nscan > nin || nin > 64)
        return nnav_ix_fail(ix, "num_scan_inputs missing or out of range");
    uint32_t nstate = nin - (uint32_t)nscan;
    int64_t in_axes[64] = {0}, out_axes[64] = {0};
    nnav_ix_attr_ints(ix, "scan_input_axes", in_axes, 64);
    nnav_ix_attr_ints(ix, "scan_output_axes", out_axes, 64);
    nnav_fact slices[64];
    const nnav_fact *seed[64];
    nnav_dim len = NNAV_DIM_UNKNOWN;
    for (uint32_t i = 0; i < nin; i++) {
        seed[i] = nnav_ix_in(ix, i);
        if (i < nstate)
            continue;
        const nnav_fact *f = seed[i];
        if (!f || f->rank < 1)
            continue;
        int64_t ax = in_axes[i - nstate];
        if (ax < 0)
            ax += f->rank;
        if (ax < 0 || ax >= f->rank)
            return nnav_ix_fail(ix, "scan_input_axes out of range");
        const nnav_dim *d = nnav_shapes_dims(ix->S, f->dims);
        nnav_dim s[NNAV_RANK_MAX];
        int32_t k = 0;
        for (int32_t j = 0; j < f->rank; j++)
            if (j != ax)
                s[k++] = d[j];
        if (len == NNAV_DIM_UNKNOWN)
            len = d[ax];
        slices[i] = nnav_ix_make(ix, f->dtype, k, s);
        seed[i] = &slices[i];
    }
    uint32_t g = nnav_ix_body(ix, "body", seed, nin);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        const nnav_fact *f = nnav_ix_body_out(ix, g, o, NULL);
        if (o < nstate || !f || f->rank < 0 || f->rank >= NNAV_RANK_MAX) {
            if (f && o < nstate) {
                nnav_fact mf = merge2(ix, nnav_ix_in(ix, o), f);
                out_fact(ix, o, &mf);
            } else if (f) {
                nnav_ix_out(ix, o, f->dtype, -1, NULL);
            }
            continue;
        }
        int64_t ax = o - nstate < 64 ? out_axes[o - nstate] : 0;
        if (ax < 0)
            ax += f->rank + 1;
        if (ax < 0 || ax > f->rank)
            return nnav_ix_fail(ix, "scan_output_axes out of range");
        const nnav_dim *d = nnav_shapes_dims(ix->S, f->dims);
        nnav_dim s[NNAV_RANK_MAX];
        for (int32_t j = 0, k = 0; j <= f->rank; j++)
            s[j] = j == ax ? len : d[k++];
        nnav_ix_out(ix, o, f->dtype, f->rank + 1, s);
    }
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
    {"Scatter", r_same}, {"StringNormalizer", r_same}, {"BitwiseNot", r_same},
    {"Identity", r_identity}, {"Neg", r_neg}, {"Not", r_to_bool}, {"IsNaN", r_to_bool},
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
    {"MatMul", r_matmul}, {"MatMulInteger", r_matmul}, {"Gemm", r_gemm}, {"Conv", r_conv},
    {"ConvInteger", r_conv}, {"QLinearConv", r_conv}, {"ConvTranspose", r_conv_transpose},
    {"MaxPool", r_pool}, {"AveragePool", r_pool}, {"LpPool", r_pool},
    {"GlobalAveragePool", r_global_pool}, {"GlobalMaxPool", r_global_pool},
    {"GlobalLpPool", r_global_pool},
    /* reductions */
    {"ReduceSum", r_reduce}, {"ReduceMean", r_reduce}, {"ReduceMax", r_reduce},
    {"ReduceMin", r_reduce}, {"ReduceProd", r_reduce}, {"ReduceL1", r_reduce},
    {"ReduceL2", r_reduce}, {"ReduceLogSum", r_reduce}, {"ReduceLogSumExp", r_reduce},
    {"ReduceSumSquare", r_reduce}, {"ArgMax", r_argmax}, {"ArgMin", r_argmax},
    /* control flow */
    {"If", r_if}, {"Loop", r_loop}, {"Scan", r_scan},
    {NULL, NULL},
};
