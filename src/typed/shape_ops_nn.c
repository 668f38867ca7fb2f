/* shape_ops_nn.c - the type and shape rules of the ONNX operators of neural
 * network layers: linear algebra, convolution and pooling, reductions,
 * quantisation, normalisation and losses, recurrent layers. The rules'
 * common ground is in shape_ops.c's head comment and shape_ops_int.h; their
 * table is shape_ops.c's nnav_shape_rules. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "shape_ops_int.h"

/* ---- linear algebra ---- */

/* The product of inputs ia and ib, numpy's matmul, as output 0 of type dt. */
static int matmul_of(IX, uint32_t xa, uint32_t xb, int32_t dt)
{
    if (need_rank(ix, xa) < 0 || need_rank(ix, xb) < 0)
        return typed_only(ix);
    int32_t ra = nnav_ix_rank(ix, xa), rb = nnav_ix_rank(ix, xb);
    if (ra == 0 || rb == 0)
        return nnav_ix_fail(ix, "a scalar operand");
    const nnav_dim *a = nnav_ix_dims(ix, xa), *b = nnav_ix_dims(ix, xb);
    nnav_dim A[NNAV_RANK_MAX + 1], B[NNAV_RANK_MAX + 1];
    /* Vectors are promoted to matrices, and the added axis dropped after. */
    int32_t na = ra, nb = rb;
    if (ra == 1)
        A[0] = dnum(1), A[1] = a[0], na = 2;
    else
        memcpy(A, a, (size_t)ra * sizeof *A);
    if (rb == 1)
        B[0] = b[0], B[1] = dnum(1), nb = 2;
    else
        memcpy(B, b, (size_t)rb * sizeof *B);
    nnav_dim ka = A[na - 1], kb = B[nb - 2];
    if (nnav_dim_is_num(ka) && nnav_dim_is_num(kb) && !nnav_dim_eq(ka, kb))
        return nnav_ix_conflict(ix, "inner sizes %lld and %lld differ", (long long)dval(ka),
                            (long long)dval(kb));
    int32_t batch = (na > nb ? na : nb) - 2;
    nnav_dim d[NNAV_RANK_MAX + 2];
    for (int32_t k = 0; k < batch; k++) {
        int32_t ia = k - (batch - (na - 2)), ib = k - (batch - (nb - 2));
        int bad = 0;
        d[k] = nnav_sd_broadcast(ix->S, ia >= 0 ? A[ia] : dnum(1), ib >= 0 ? B[ib] : dnum(1), &bad);
        if (bad)
            return nnav_ix_conflict(ix, "batch axes cannot be broadcast");
    }
    int32_t r = batch;
    if (ra != 1)
        d[r++] = A[na - 2];
    if (rb != 1)
        d[r++] = B[nb - 1];
    if (r > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_ix_out(ix, 0, dt, r, d);
    return 0;
}

int nnav_rule_matmul(IX)
{
    return matmul_of(ix, 0, 1, nnav_span_eqs(ix->nd->op, "MatMulInteger") ? NNAV_DT_INT32
                                                                          : nnav_ix_dtype(ix, 0));
}

/* QLinearMatMul: a, a_scale, a_zero_point, b, ...; the type is y_zero_point's. */
int nnav_rule_qlinear_matmul(IX)
{
    return matmul_of(ix, 0, 3, nnav_ix_dtype(ix, 7) ? nnav_ix_dtype(ix, 7) : nnav_ix_dtype(ix, 0));
}

int nnav_rule_gemm(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
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
    nnav_shapes *S = ix->S;
    for (int32_t i = 0; i < ns; i++) {
        if (strides[i] < 1 || dil[i] < 1 || kernel[i] < 1)
            return nnav_ix_fail(ix, "stride, dilation or kernel below 1");
        nnav_dim st = dnum(strides[i]);
        if (same) {
            out[i] = nnav_sd_cdiv(S, in[i], st);
            continue;
        }
        int64_t pb = valid ? 0 : pads[i], pe = valid ? 0 : pads[i + ns];
        /* in + pads - (dil * (kernel - 1) + 1), each step checked */
        nnav_dim span = nnav_sd_add(S, num_mul(S, dil[i], kernel[i] - 1), dnum(1));
        nnav_dim x = nnav_sd_add(S, in[i], nnav_sd_sub(S, num_add(S, pb, pe), span));
        out[i] = nnav_sd_add(S, ceil_mode ? nnav_sd_cdiv(S, x, st) : nnav_sd_div(S, x, st),
                             dnum(1));
        if (nnav_dim_is_num(out[i]) && dval(out[i]) < 1)
            return nnav_ix_fail(ix, "axis %d would have size %lld", i + 2,
                                (long long)dval(out[i]));
    }
    return 0;
}

int nnav_rule_conv(IX)
{
    uint32_t wi = nnav_span_eqs(ix->nd->op, "QLinearConv") ? 3 : 1;
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 3)
        return nnav_ix_fail(ix, "input of rank %d", r);
    int32_t ns = r - 2;
    const nnav_dim *x = nnav_ix_dims(ix, 0), *w = nnav_ix_dims(ix, wi);
    int64_t kernel[NNAV_RANK_MAX];
    int nk = nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX);
    if (nk < 0) {
        if (!w || nnav_ix_rank(ix, wi) != r)
            return typed_fail(ix, "the weight's shape is not known");
        for (int32_t i = 0; i < ns; i++) {
            if (!nnav_dim_is_num(w[i + 2]))
                return typed_fail(ix, "the kernel's size is not known");
            kernel[i] = dval(w[i + 2]);
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

int nnav_rule_conv_transpose(IX)
{
    if (need_rank(ix, 0) < 0 || need_rank(ix, 1) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0), ns = r - 2;
    if (r < 3 || nnav_ix_rank(ix, 1) != r)
        return nnav_ix_fail(ix, "input and weight ranks do not fit");
    const nnav_dim *x = nnav_ix_dims(ix, 0), *w = nnav_ix_dims(ix, 1);
    int64_t group = nnav_ix_attr_i(ix, "group", 1);
    int64_t kernel[NNAV_RANK_MAX], strides[NNAV_RANK_MAX], dil[NNAV_RANK_MAX],
        pads[2 * NNAV_RANK_MAX], opad[NNAV_RANK_MAX], oshape[NNAV_RANK_MAX];
    for (int32_t i = 0; i < ns; i++) {
        kernel[i] = nnav_dim_is_num(w[i + 2]) ? dval(w[i + 2]) : -1;
        strides[i] = dil[i] = 1, pads[i] = pads[i + ns] = opad[i] = 0;
    }
    nnav_ix_attr_ints(ix, "kernel_shape", kernel, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "strides", strides, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "dilations", dil, NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "pads", pads, 2 * NNAV_RANK_MAX);
    nnav_ix_attr_ints(ix, "output_padding", opad, NNAV_RANK_MAX);
    int nos = nnav_ix_attr_ints(ix, "output_shape", oshape, NNAV_RANK_MAX);
    int same = nnav_ix_attr_s(ix, "auto_pad", "SAME_UPPER") ||
               nnav_ix_attr_s(ix, "auto_pad", "SAME_LOWER");
    if (group < 1)
        return nnav_ix_fail(ix, "group %lld", (long long)group);
    nnav_shapes *S = ix->S;
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0];
    d[1] = nnav_sd_mul(S, w[1], dnum(group));
    for (int32_t i = 0; i < ns; i++) {
        if (nos == ns) {
            d[i + 2] = oshape[i] >= 0 ? dnum(oshape[i]) : NNAV_DIM_UNKNOWN;
            continue;
        }
        if (strides[i] < 1 || dil[i] < 1)
            return nnav_ix_fail(ix, "stride or dilation below 1");
        if (same) { /* SAME_UPPER, SAME_LOWER: the input's size times the stride */
            d[i + 2] = nnav_sd_mul(S, x[i + 2], dnum(strides[i]));
            continue;
        }
        if (kernel[i] < 1)
            return typed_fail(ix, "the kernel's size is not known");
        /* output_padding + (kernel - 1) * dilation + 1 - pads, each step checked */
        nnav_dim extra = nnav_sd_add(S, num_add(S, opad[i], 1), num_mul(S, kernel[i] - 1, dil[i]));
        extra = nnav_sd_sub(S, extra, num_add(S, pads[i], pads[i + ns]));
        d[i + 2] = nnav_sd_add(S, nnav_sd_mul(S, nnav_sd_sub(S, x[i + 2], dnum(1)),
                                              dnum(strides[i])), extra);
        if (nnav_dim_is_num(d[i + 2]) && dval(d[i + 2]) < 1)
            return nnav_ix_fail(ix, "axis %d would have size %lld", i + 2,
                                (long long)dval(d[i + 2]));
    }
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

int nnav_rule_pool(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
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

int nnav_rule_global_pool(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 2)
        return nnav_ix_fail(ix, "input of rank %d", r);
    const nnav_dim *x = nnav_ix_dims(ix, 0);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0], d[1] = x[1];
    for (int32_t i = 2; i < r; i++)
        d[i] = dnum(1);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- reductions ---- */

static int reduce_to(IX, int32_t dtype, int axes_from_input)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axes[NNAV_RANK_MAX];
    int na;
    int keep = nnav_ix_attr_i(ix, "keepdims", 1) != 0;
    if (axes_from_input) {
        if (axes_of(ix, 1, axes, &na) < 0) {
            if (!keep)
                return -1;
            /* Axes unknown but kept: the rank, and the sizes of 1. */
            nnav_dim d[NNAV_RANK_MAX];
            memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
            for (int32_t i = 0; i < r; i++)
                if (!nnav_dim_is(d[i], 1))
                    d[i] = NNAV_DIM_UNKNOWN;
            nnav_ix_out(ix, 0, dtype ? dtype : nnav_ix_dtype(ix, 0), r, d);
            return 0;
        }
    } else {
        int64_t a = nnav_ix_attr_i(ix, "axis", 0);
        axes[0] = a, na = 1;
    }
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
            d[k++] = dnum(1);
    }
    nnav_ix_out(ix, 0, dtype ? dtype : nnav_ix_dtype(ix, 0), k, d);
    return 0;
}

int nnav_rule_reduce(IX)
{
    if (reduce_to(ix, 0, 1) < 0)
        return -1;
    /* The product or sum of a folded vector (a shape's element count). */
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, 0, &v);
    int prod = nnav_span_eqs(ix->nd->op, "ReduceProd"), sum = nnav_span_eqs(ix->nd->op, "ReduceSum");
    if (n < 0 || nnav_ix_rank(ix, 0) != 1 || !(prod || sum))
        return 0;
    int64_t axes[NNAV_RANK_MAX];
    int na;
    if (axes_of(ix, 1, axes, &na) < 0 || na > 1 || (na == 1 && axes[0] != 0 && axes[0] != -1))
        return 0;
    if (na <= 0 && nnav_ix_attr_i(ix, "noop_with_empty_axes", 0))
        return 0;
    nnav_dim r = dnum(prod ? 1 : 0);
    for (int i = 0; i < n; i++)
        r = prod ? nnav_sd_mul(ix->S, r, v[i]) : nnav_sd_add(ix->S, r, v[i]);
    if (!fold_fits(nnav_ix_dtype(ix, 0), &r, 1))
        return 0; /* past what the floating type holds exactly */
    nnav_ix_out_fold(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_attr_i(ix, "keepdims", 1) == 0, &r, 1);
    return 0;
}

int nnav_rule_argmax(IX)
{
    return reduce_to(ix, NNAV_DT_INT64, 0);
}

/* ---- quantisation ---- */

int nnav_rule_quantize(IX)
{
    int32_t dt = nnav_ix_dtype(ix, 2);
    if (!dt)
        dt = (int32_t)nnav_ix_attr_i(ix, "output_dtype", 0);
    if (!dt && !nnav_ix_present(ix, 2))
        dt = NNAV_DT_UINT8;
    return out_as_input(ix, dt);
}

int nnav_rule_dequantize(IX)
{
    /* From opset 19 the result has the scale's type; float before; from
     * 25 output_dtype may name another. */
    int32_t dt = NNAV_DT_FLOAT;
    if (nnav_ix_opset(ix) >= 19 || nnav_ix_opset(ix) == 0)
        dt = nnav_ix_dtype(ix, 1);
    int64_t od = nnav_ix_attr_i(ix, "output_dtype", 0);
    if (od > 0 && od <= INT32_MAX)
        dt = (int32_t)od;
    return out_as_input(ix, dt);
}

int nnav_rule_dyn_quantize(IX)
{
    if (out_as_input(ix, NNAV_DT_UINT8) < 0)
        return -1;
    nnav_ix_out(ix, 1, NNAV_DT_FLOAT, 0, NULL);
    nnav_ix_out(ix, 2, NNAV_DT_UINT8, 0, NULL);
    return 0;
}

/* ---- normalisation and losses ---- */

int nnav_rule_layernorm(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", -1), r, &axis) < 0)
        return -1;
    nnav_ix_out_same(ix, 0, 0);
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    for (int32_t i = (int32_t)axis; i < r; i++)
        d[i] = dnum(1);
    int32_t st = (int32_t)nnav_ix_attr_i(ix, "stash_type", NNAV_DT_FLOAT);
    for (uint32_t o = 1; o < nnav_ix_nout(ix) && o < 3; o++)
        nnav_ix_out(ix, o, st, r, d);
    return 0;
}

/* SoftmaxCrossEntropyLoss, NegativeLogLikelihoodLoss. */
int nnav_rule_loss(IX)
{
    if (nnav_ix_attr_s(ix, "reduction", "none")) {
        if (need_rank(ix, 1) < 0)
            return typed_only(ix);
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 1), nnav_ix_dims(ix, 1));
    } else {
        nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 0, NULL);
    }
    if (nnav_ix_nout(ix) > 1)
        nnav_ix_out_same(ix, 1, 0);
    return 0;
}

int nnav_rule_string_normalizer(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    if (r < 1 || r > 2)
        return nnav_ix_fail(ix, "input of rank %d", r);
    nnav_dim d[2];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    /* Stop words take items out: how many depends on the strings. */
    size_t total = 0;
    nnav_error e;
    nnav_span first;
    uint32_t a = nnav_ix_attr(ix, "stopwords");
    if (a != NNAV_NONE && nnav_attr_strings(ix->m, a, &first, 1, &total, &e) == 0 && total)
        d[r - 1] = NNAV_DIM_UNKNOWN;
    nnav_ix_out(ix, 0, NNAV_DT_STRING, r, d);
    return 0;
}

/* ---- recurrent ---- */

/* RNN, GRU, LSTM: Y, Y_h and (LSTM) Y_c from X, W, R and the layout. */
int nnav_rule_rnn(IX)
{
    if (!nnav_ix_present(ix, 0))
        return nnav_ix_fail(ix, "input 0 is missing");
    /* The outputs' ranks are fixed; an input of unknown shape leaves the
     * sequence and batch sizes unknown. */
    if (nnav_ix_rank(ix, 0) >= 0 && nnav_ix_rank(ix, 0) != 3)
        return nnav_ix_fail(ix, "input of rank %d", nnav_ix_rank(ix, 0));
    const nnav_dim *x = nnav_ix_dims(ix, 0), *w = nnav_ix_dims(ix, 1), *rr = nnav_ix_dims(ix, 2);
    int layout = nnav_ix_attr_i(ix, "layout", 0) != 0;
    nnav_dim seq = x ? x[layout ? 1 : 0] : NNAV_DIM_UNKNOWN, batch = x ? x[layout ? 0 : 1] : NNAV_DIM_UNKNOWN;
    nnav_dim nd = dnum(nnav_ix_attr_s(ix, "direction", "bidirectional") ? 2 : 1);
    if (w && nnav_ix_rank(ix, 1) == 3 && nnav_dim_is_num(w[0]) && !nnav_dim_eq(w[0], nd))
        return nnav_ix_fail(ix, "W has %lld directions", (long long)dval(w[0]));
    int64_t hs = nnav_ix_attr_i(ix, "hidden_size", -1);
    nnav_dim h = hs >= 0 ? dnum(hs)
                 : rr && nnav_ix_rank(ix, 2) == 3 ? rr[2] : NNAV_DIM_UNKNOWN;
    int32_t dt = nnav_ix_dtype(ix, 0);
    nnav_dim y[4], yh[3];
    if (layout) {
        y[0] = batch, y[1] = seq, y[2] = nd, y[3] = h;
        yh[0] = batch, yh[1] = nd, yh[2] = h;
    } else {
        y[0] = seq, y[1] = nd, y[2] = batch, y[3] = h;
        yh[0] = nd, yh[1] = batch, yh[2] = h;
    }
    nnav_ix_out(ix, 0, dt, 4, y);
    for (uint32_t o = 1; o < nnav_ix_nout(ix) && o < 3; o++)
        nnav_ix_out(ix, o, dt, 3, yh);
    return 0;
}
