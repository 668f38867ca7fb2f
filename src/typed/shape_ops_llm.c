/* shape_ops_llm.c - the type and shape rules of the operators transformer
 * exports use: ONNX's newer ones (Attention, RotaryEmbedding and
 * RMSNormalization of opset 23, Col2Im of 18, AffineGrid of 20), and ONNX
 * Runtime's contrib
 * operators of the com.microsoft domain (quantised and fused products,
 * attentions with their KV caches, fused norms), whose table,
 * nnav_shape_rules_ms, is asked for that domain's nodes only: its Attention
 * and RotaryEmbedding are not ONNX's. The shapes follow each operator's
 * definition (onnx's docs/Operators.md, ONNX Runtime's
 * docs/ContribOperators.md); where a definition leaves a size to the data
 * (a KV cache shared with its past, a total length given as a tensor), the
 * size is what a folded input says, else unknown. The ONNX rules' table is
 * shape_ops.c's nnav_shape_rules. */
#include <stdint.h>
#include <string.h>

#include "dtype.h"
#include "shape_ops_int.h"

/* Input i's dims copied into d, which holds NNAV_RANK_MAX (the engine may
 * move its store when an output is set): its rank, -1 when absent or of
 * unknown rank. */
static int32_t dims_in(IX, uint32_t i, nnav_dim *d)
{
    int32_t r = nnav_ix_present(ix, i) ? nnav_ix_rank(ix, i) : -1;
    if (r > 0)
        memcpy(d, nnav_ix_dims(ix, i), (size_t)r * sizeof *d);
    return r;
}

/* A head count from attribute name: > 0, else 0 (absent, or not a count). */
static int64_t heads_attr(IX, const char *name)
{
    int64_t h = nnav_ix_attr_i(ix, name, 0);
    return h > 0 && h <= NNAV_DIM_MAX ? h : 0;
}

/* The larger of two sizes where it is sure (numbers, or a difference of
 * sure sign), else unknown. */
static nnav_dim dim_max(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (nnav_dim_is_unknown(a) || nnav_dim_is_unknown(b))
        return NNAV_DIM_UNKNOWN;
    if (nnav_dim_is_num(a) && nnav_dim_is_num(b))
        return dval(a) >= dval(b) ? a : b;
    int s = nnav_sd_sign(S, nnav_sd_sub(S, a, b));
    return s > 0 ? a : s < 0 ? b : NNAV_DIM_UNKNOWN;
}

/* Output 0 of input 0's type and shape, no folded value (an activation or
 * a norm of numbers is not those numbers). */
int nnav_rule_same_shape(IX)
{
    if (!nnav_ix_present(ix, 0))
        return nnav_ix_fail(ix, "input 0 is missing");
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), nnav_ix_rank(ix, 0), nnav_ix_dims(ix, 0));
    return 0;
}

/* ---- ONNX ---- */

/* Attention (opset 23): Q, K, V, attn_mask, past_key, past_value ->
 * Y, present_key, present_value, qk_matmul_output. 4-D inputs are
 * [batch, heads, seq, head_size]; 3-D ones [batch, seq, heads * head_size],
 * the heads then from q_num_heads and kv_num_heads. The present caches are
 * the past ones with this step's K and V appended along the sequence. */
int nnav_rule_attention(IX)
{
    nnav_dim q[NNAV_RANK_MAX], k[NNAV_RANK_MAX], v[NNAV_RANK_MAX], p[NNAV_RANK_MAX];
    int32_t rq = dims_in(ix, 0, q), rk = dims_in(ix, 1, k), rv = dims_in(ix, 2, v);
    if (rq < 0 || rk < 0 || rv < 0) {
        /* the types still: Y and qk_matmul_output Q's, the caches K's and V's */
        nnav_ix_fail(ix, "Q, K or V is missing or of unknown rank");
        const uint32_t of[4] = {0, 1, 2, 0};
        int any = 0;
        for (uint32_t o = 0; o < 4; o++)
            if (nnav_ix_dtype(ix, of[o]))
                nnav_ix_out(ix, o, nnav_ix_dtype(ix, of[o]), -1, NULL), any = 1;
        return any ? 0 : -1;
    }
    if (rq != rk || rq != rv || (rq != 3 && rq != 4))
        return nnav_ix_fail(ix, "Q, K and V of ranks %d, %d, %d (3 or 4, all alike)", rq, rk, rv);
    nnav_shapes *S = ix->S;
    nnav_dim qh, sq, dh, kvh, skv, dv;
    if (rq == 4) {
        qh = q[1], sq = q[2], dh = q[3], kvh = k[1], skv = k[2], dv = v[3];
    } else {
        int64_t nq = heads_attr(ix, "q_num_heads"), nkv = heads_attr(ix, "kv_num_heads");
        if (!nq || !nkv)
            return nnav_ix_fail(ix, "3-D inputs need q_num_heads and kv_num_heads");
        qh = dnum(nq), kvh = dnum(nkv), sq = q[1], skv = k[1];
        dh = nnav_sd_div(S, k[2], kvh);
        dv = nnav_sd_div(S, v[2], kvh);
    }
    nnav_dim total = skv;
    if (nnav_ix_present(ix, 4)) {
        if (dims_in(ix, 4, p) != 4)
            total = NNAV_DIM_UNKNOWN;
        else
            total = nnav_sd_add(S, p[2], skv);
    }
    nnav_dim y[4] = {q[0], qh, sq, dv};
    if (rq == 3)
        y[1] = sq, y[2] = nnav_sd_mul(S, qh, dv);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), rq, y);
    nnav_dim pk[4] = {q[0], kvh, total, dh}, pv[4] = {q[0], kvh, total, dv};
    nnav_ix_out(ix, 1, nnav_ix_dtype(ix, 1), 4, pk);
    nnav_ix_out(ix, 2, nnav_ix_dtype(ix, 2), 4, pv);
    nnav_dim qk[4] = {q[0], qh, sq, total};
    nnav_ix_out(ix, 3, nnav_ix_dtype(ix, 0), 4, qk);
    return 0;
}

/* Col2Im (opset 18): input [N, C * prod(block_shape), L], image_shape,
 * block_shape -> [N, C, image_shape...]. */
int nnav_rule_col2im(IX)
{
    nnav_dim x[NNAV_RANK_MAX];
    int32_t r = dims_in(ix, 0, x);
    if (r < 0)
        return typed_fail(ix, "input has no known rank");
    if (r != 3)
        return nnav_ix_fail(ix, "input of rank %d (3: N, C * block elements, blocks)", r);
    int64_t img[NNAV_RANK_MAX - 2], blk[NNAV_RANK_MAX - 2];
    int ni = nnav_ix_ints(ix, 1, img, NNAV_RANK_MAX - 2);
    int nb = nnav_ix_ints(ix, 2, blk, NNAV_RANK_MAX - 2);
    if (ni < 0) {
        /* The image's rank from image_shape's length, if known. */
        nnav_dim d1[NNAV_RANK_MAX];
        if (dims_in(ix, 1, d1) == 1 && nnav_dim_is_num(d1[0]) && dval(d1[0]) >= 1 &&
            dval(d1[0]) <= NNAV_RANK_MAX - 2) {
            nnav_ix_fail(ix, "its image_shape is not known");
            return out_rank_only(ix, nnav_ix_dtype(ix, 0), 2 + (int32_t)dval(d1[0]));
        }
        return typed_fail(ix, "its image_shape is not known");
    }
    if (ni < 1 || (nb >= 0 && nb != ni))
        return nnav_ix_fail(ix, "image_shape of %d and block_shape of %d entries", ni, nb);
    nnav_dim d[NNAV_RANK_MAX];
    d[0] = x[0];
    d[1] = NNAV_DIM_UNKNOWN;
    if (nb > 0) {
        nnav_dim prod = dnum(1);
        for (int i = 0; i < nb; i++)
            prod = blk[i] > 0 ? nnav_sd_mul(ix->S, prod, dnum(blk[i])) : NNAV_DIM_UNKNOWN;
        if (nnav_dim_is_num(prod) && dval(prod) > 0)
            d[1] = nnav_sd_div(ix->S, x[1], prod);
    }
    for (int i = 0; i < ni; i++)
        d[2 + i] = size_attr(img[i]);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 2 + ni, d);
    return 0;
}

/* AffineGrid (opset 20): theta [N, 2, 3] and size [N, C, H, W] -> the grid
 * [N, H, W, 2]; in 3-D theta [N, 3, 4], size [N, C, D, H, W] -> [N, D, H,
 * W, 3]. */
int nnav_rule_affine_grid(IX)
{
    int64_t sz[5];
    int n = nnav_ix_ints(ix, 1, sz, 5);
    if (n < 0) {
        nnav_dim d1[NNAV_RANK_MAX];
        if (dims_in(ix, 1, d1) == 1 && (nnav_dim_is(d1[0], 4) || nnav_dim_is(d1[0], 5))) {
            nnav_ix_fail(ix, "its size is not known");
            return out_rank_only(ix, nnav_ix_dtype(ix, 0), (int32_t)dval(d1[0]));
        }
        return typed_fail(ix, "its size is not known");
    }
    if (n != 4 && n != 5)
        return nnav_ix_fail(ix, "size of %d entries (4 or 5)", n);
    nnav_dim d[5];
    for (int i = 0; i < n - 2; i++)
        d[1 + i] = size_attr(sz[2 + i]);
    d[0] = size_attr(sz[0]);
    d[n - 1] = dnum(n - 2);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), n, d);
    return 0;
}

/* ---- com.microsoft: products ---- */

/* MatMulNBits: A [..., K] times the K x N weight packed in B -> [..., N],
 * of A's type; K and N are attributes (nnav_matmulnbits_kn). */
static int r_matmul_nbits(IX)
{
    nnav_dim a[NNAV_RANK_MAX];
    int32_t r = dims_in(ix, 0, a);
    if (r < 0)
        return typed_fail(ix, "A has no known rank");
    if (r < 1)
        return nnav_ix_fail(ix, "A is a scalar");
    int64_t K = nnav_ix_attr_i(ix, "K", -1), N = nnav_ix_attr_i(ix, "N", -1);
    if (K < 1 || N < 1)
        return nnav_ix_fail(ix, "attributes K and N missing or not sizes");
    if (nnav_dim_is_num(a[r - 1]) && dval(a[r - 1]) != K)
        return nnav_ix_fail(ix, "A's last dim %lld is not K = %lld", (long long)dval(a[r - 1]),
                            (long long)K);
    a[r - 1] = size_attr(N);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, a);
    return 0;
}

/* FusedMatMul: MatMul of A and B each optionally transposed (transA,
 * transB: the last two axes) and batch-transposed (transBatchA,
 * transBatchB: axis 0 moved to just before the last), times alpha. */
static int32_t fused_operand(IX, uint32_t i, const char *tb, const char *t, nnav_dim *d)
{
    int32_t r = dims_in(ix, i, d);
    if (r < 0)
        return -1;
    if (r < 2 && (nnav_ix_attr_i(ix, tb, 0) || nnav_ix_attr_i(ix, t, 0)))
        return -2;
    if (r >= 3 && nnav_ix_attr_i(ix, tb, 0)) {
        nnav_dim first = d[0];
        memmove(d, d + 1, (size_t)(r - 2) * sizeof *d);
        d[r - 2] = first;
    }
    if (r >= 2 && nnav_ix_attr_i(ix, t, 0)) {
        nnav_dim x = d[r - 1];
        d[r - 1] = d[r - 2], d[r - 2] = x;
    }
    return r;
}

static int r_fused_matmul(IX)
{
    nnav_dim a[NNAV_RANK_MAX + 1], b[NNAV_RANK_MAX + 1];
    int32_t ra = fused_operand(ix, 0, "transBatchA", "transA", a);
    int32_t rb = fused_operand(ix, 1, "transBatchB", "transB", b);
    if (ra == -1 || rb == -1)
        return typed_fail(ix, "A or B has no known rank");
    if (ra < 1 || rb < 1)
        return nnav_ix_fail(ix, "a scalar operand, or a vector transposed");
    /* numpy's matmul: vectors promoted, the added axis dropped after */
    int32_t na = ra, nb = rb;
    if (ra == 1)
        a[1] = a[0], a[0] = dnum(1), na = 2;
    if (rb == 1)
        b[1] = dnum(1), nb = 2;
    if (nnav_dim_is_num(a[na - 1]) && nnav_dim_is_num(b[nb - 2]) &&
        !nnav_dim_eq(a[na - 1], b[nb - 2]))
        return nnav_ix_fail(ix, "inner sizes %lld and %lld differ", (long long)dval(a[na - 1]),
                            (long long)dval(b[nb - 2]));
    int32_t batch = (na > nb ? na : nb) - 2;
    nnav_dim d[NNAV_RANK_MAX + 2];
    for (int32_t k = 0; k < batch; k++) {
        int32_t ia = k - (batch - (na - 2)), ib = k - (batch - (nb - 2));
        int bad = 0;
        d[k] = nnav_sd_broadcast(ix->S, ia >= 0 ? a[ia] : dnum(1), ib >= 0 ? b[ib] : dnum(1), &bad);
        if (bad)
            return nnav_ix_fail(ix, "batch axes cannot be broadcast");
    }
    int32_t r = batch;
    if (ra != 1)
        d[r++] = a[na - 2];
    if (rb != 1)
        d[r++] = b[nb - 1];
    if (r > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), r, d);
    return 0;
}

/* ---- com.microsoft: attention ---- */

/* Attention and QAttention: input [B, S, in] times the merged QKV weights
 * [in, hidden + hidden + v_hidden] (qkv_hidden_sizes; else thirds), then
 * attention over num_heads -> [B, S, v_hidden], and the cache present
 * [2, B, heads, past + S, head_size] (the past's own shape when
 * past_present_share_buffer). QAttention's result is of the bias's type. */
static int ms_attention(IX, uint32_t w_in, uint32_t past_in, int32_t dt)
{
    nnav_dim x[NNAV_RANK_MAX], w[NNAV_RANK_MAX], p[NNAV_RANK_MAX];
    int32_t rx = dims_in(ix, 0, x), rw = dims_in(ix, w_in, w);
    if (rx < 0) {
        nnav_ix_fail(ix, "input has no known rank");
        if (dt)
            nnav_ix_out(ix, 0, dt, -1, NULL);
        return dt ? 0 : -1;
    }
    if (rx != 3)
        return nnav_ix_fail(ix, "input of rank %d (3: batch, sequence, hidden)", rx);
    int64_t heads = heads_attr(ix, "num_heads");
    if (!heads)
        return nnav_ix_fail(ix, "num_heads missing or not a count");
    nnav_shapes *S = ix->S;
    int64_t qkv[3];
    nnav_dim hidden = NNAV_DIM_UNKNOWN, vh = NNAV_DIM_UNKNOWN;
    if (nnav_ix_attr_ints(ix, "qkv_hidden_sizes", qkv, 3) == 3) {
        hidden = size_attr(qkv[0]), vh = size_attr(qkv[2]);
    } else if (rw == 2) {
        hidden = vh = nnav_sd_div(S, w[1], dnum(3));
    } else {
        nnav_dim b[NNAV_RANK_MAX];
        if (dims_in(ix, 2, b) == 1)
            hidden = vh = nnav_sd_div(S, b[0], dnum(3));
    }
    nnav_dim y[3] = {x[0], x[1], vh};
    nnav_ix_out(ix, 0, dt, 3, y);
    nnav_dim head = nnav_sd_div(S, hidden, dnum(heads));
    nnav_dim total = x[1];
    int32_t rp = nnav_ix_present(ix, past_in) ? dims_in(ix, past_in, p) : 0;
    if (rp == 5 && nnav_ix_attr_i(ix, "past_present_share_buffer", 0))
        total = p[3];
    else if (rp == 5)
        total = nnav_sd_add(S, p[3], x[1]);
    else if (rp != 0)
        total = NNAV_DIM_UNKNOWN;
    nnav_dim pr[5] = {dnum(2), x[0], dnum(heads), total, head};
    nnav_ix_out(ix, 1, dt, 5, pr);
    return 0;
}

static int r_ms_attention(IX)
{
    return ms_attention(ix, 1, 4, nnav_ix_dtype(ix, 0));
}

/* QAttention: input, weight, bias, input_scale, weight_scale, mask_index,
 * input_zero_point, weight_zero_point, past. */
static int r_qattention(IX)
{
    int32_t dt = nnav_ix_dtype(ix, 2) ? nnav_ix_dtype(ix, 2) : nnav_ix_dtype(ix, 3);
    return ms_attention(ix, 1, 8, dt);
}

/* MultiHeadAttention: query, key, value, bias, key_padding_mask,
 * attention_bias, past_key, past_value, ... -> output [B, S, v_hidden],
 * present_key [B, heads, past + L, head_size], present_value [B, heads,
 * past + L, v_head_size]. The query is [B, S, hidden] or packed QKV [B, S,
 * heads, 3, head_size] (no key); the key [B, L, hidden], packed KV [B, L,
 * heads, 2, head_size] (no value), or already [B, heads, L, head_size]
 * (cross attention: the present is that key). */
static int r_mha(IX)
{
    nnav_dim q[NNAV_RANK_MAX], k[NNAV_RANK_MAX], v[NNAV_RANK_MAX], p[NNAV_RANK_MAX];
    int32_t rq = dims_in(ix, 0, q), rk = dims_in(ix, 1, k), rv = dims_in(ix, 2, v);
    if (rq < 0 || (nnav_ix_present(ix, 1) && rk < 0) || (nnav_ix_present(ix, 2) && rv < 0))
        return typed_fail(ix, "query, key or value of unknown rank");
    int64_t nh = heads_attr(ix, "num_heads");
    if (!nh)
        return nnav_ix_fail(ix, "num_heads missing or not a count");
    nnav_shapes *S = ix->S;
    nnav_dim heads = dnum(nh), L, hd, vhd;
    if (rq == 5) { /* packed QKV */
        L = q[1], hd = vhd = q[4];
    } else if (rq != 3) {
        return nnav_ix_fail(ix, "query of rank %d (3, or 5 packed)", rq);
    } else if (rk == 5) { /* packed KV */
        L = k[1], hd = vhd = k[4];
    } else if (rk == 4) { /* BNSH */
        L = k[2], hd = k[3];
        vhd = rv == 4 ? v[3] : NNAV_DIM_UNKNOWN;
    } else if (rk == 3) {
        L = k[1], hd = nnav_sd_div(S, q[2], heads);
        vhd = rv == 3 ? nnav_sd_div(S, v[2], heads) : NNAV_DIM_UNKNOWN;
    } else {
        return nnav_ix_fail(ix, "key missing or of rank %d (3, 4 or 5 packed)", rk);
    }
    nnav_dim y[3] = {q[0], q[1], nnav_sd_mul(S, heads, vhd)};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 3, y);
    nnav_dim total = L;
    if (nnav_ix_present(ix, 6))
        total = dims_in(ix, 6, p) == 4 ? nnav_sd_add(S, p[2], L) : NNAV_DIM_UNKNOWN;
    nnav_dim pk[4] = {q[0], heads, total, hd}, pv[4] = {q[0], heads, total, vhd};
    nnav_ix_out(ix, 1, nnav_ix_dtype(ix, 0), 4, pk);
    nnav_ix_out(ix, 2, nnav_ix_dtype(ix, 0), 4, pv);
    return 0;
}

/* GroupQueryAttention: query [B, S, heads * head_size] (or packed QKV [B, S,
 * (heads + 2 * kv_heads) * head_size] without key and value), key, value,
 * past_key, past_value [B, kv_heads, past, head_size], seqlens_k,
 * total_sequence_length, ... -> output [B, S, heads * head_size], and the
 * caches present_key, present_value [B, kv_heads, P, head_size] where P is
 * the larger of total_sequence_length and the past's length (a buffer
 * shared with the past keeps its length), known when those are; output_qk
 * (qk_output) [B, heads, S, total_sequence_length]. */
static int r_gqa(IX)
{
    nnav_dim q[NNAV_RANK_MAX], p[NNAV_RANK_MAX];
    int32_t rq = dims_in(ix, 0, q);
    if (rq < 0)
        return typed_fail(ix, "query has no known rank");
    if (rq != 3)
        return nnav_ix_fail(ix, "query of rank %d (3: batch, sequence, hidden)", rq);
    int64_t nh = heads_attr(ix, "num_heads"), nkv = heads_attr(ix, "kv_num_heads");
    if (!nh || !nkv)
        return nnav_ix_fail(ix, "num_heads or kv_num_heads missing or not a count");
    nnav_shapes *S = ix->S;
    int packed = !nnav_ix_present(ix, 1);
    nnav_dim groups = packed ? nnav_sd_add(S, dnum(nh), num_mul(S, 2, nkv)) : dnum(nh);
    nnav_dim hd = nnav_sd_div(S, q[2], groups);
    nnav_dim y[3] = {q[0], q[1], packed ? nnav_sd_mul(S, dnum(nh), hd) : q[2]};
    nnav_ix_out(ix, 0, nnav_ix_dtype(ix, 0), 3, y);
    nnav_dim total = fold_one(ix, 6), seq = total;
    int32_t cache = nnav_ix_dtype(ix, 0);
    if (nnav_ix_present(ix, 3)) {
        cache = nnav_ix_dtype(ix, 3);
        seq = dims_in(ix, 3, p) == 4 ? dim_max(S, total, p[2]) : NNAV_DIM_UNKNOWN;
    }
    nnav_dim pk[4] = {q[0], dnum(nkv), seq, hd};
    nnav_ix_out(ix, 1, cache, 4, pk);
    nnav_ix_out(ix, 2, nnav_ix_present(ix, 4) ? nnav_ix_dtype(ix, 4) : cache, 4, pk);
    nnav_dim qk[4] = {q[0], dnum(nh), q[1], total};
    nnav_ix_out(ix, 3, nnav_ix_dtype(ix, 0), 4, qk);
    return 0;
}

/* ---- com.microsoft: norms ---- */

/* SkipLayerNormalization (input, skip, gamma, beta, bias) and
 * SkipSimplifiedLayerNormalization (input, skip, gamma, bias): output and
 * input_skip_bias_sum (output 3) of the input's shape; mean and
 * inv_std_var (outputs 1 and 2), float, one per row: the last axis 1. */
static int r_skip_norm(IX)
{
    nnav_dim x[NNAV_RANK_MAX];
    int32_t r = dims_in(ix, 0, x);
    int32_t dt = nnav_ix_dtype(ix, 0);
    if (r < 0) {
        nnav_ix_fail(ix, "input has no known rank");
        if (!dt)
            return -1;
        for (uint32_t o = 0; o < 4; o++)
            nnav_ix_out(ix, o, o == 1 || o == 2 ? NNAV_DT_FLOAT : dt, -1, NULL);
        return 0;
    }
    if (r < 1)
        return nnav_ix_fail(ix, "input is a scalar");
    nnav_ix_out(ix, 0, dt, r, x);
    nnav_ix_out(ix, 3, dt, r, x);
    x[r - 1] = dnum(1);
    nnav_ix_out(ix, 1, NNAV_DT_FLOAT, r, x);
    nnav_ix_out(ix, 2, NNAV_DT_FLOAT, r, x);
    return 0;
}

/* The com.microsoft rules, in no order (the engine caches each lookup). */
static const nnav_rule RULES_MS[] = {
    {"MatMulNBits", r_matmul_nbits},
    {"FusedMatMul", r_fused_matmul},
    {"DynamicQuantizeMatMul", nnav_rule_matmul},
    {"QMoE", nnav_rule_same_shape},
    {"GroupQueryAttention", r_gqa},
    {"MultiHeadAttention", r_mha},
    {"Attention", r_ms_attention},
    {"QAttention", r_qattention},
    {"SkipLayerNormalization", r_skip_norm},
    {"SkipSimplifiedLayerNormalization", r_skip_norm},
    {"RotaryEmbedding", nnav_rule_same_shape},
    {"QuickGelu", nnav_rule_same_shape},
    {"BiasGelu", nnav_rule_same_shape},
    {"FastGelu", nnav_rule_same_shape},
    {"Gelu", nnav_rule_same_shape},
    {NULL, NULL},
};

const nnav_rule *nnav_ms_rule(nnav_span op)
{
    for (const nnav_rule *r = RULES_MS; r->op; r++)
        if (nnav_span_eqs(op, r->op))
            return r;
    return NULL;
}

int nnav_matmulnbits_kn(const nnav_model *m, uint32_t node, int64_t *k, int64_t *n)
{
    if (node >= m->nodes.n)
        return -1;
    const nnav_node *nd = &m->nodes.v[node];
    if (!nnav_span_eqs(nd->op, "MatMulNBits") ||
        !nnav_span_eqs(nnav_node_domain(m, node), "com.microsoft"))
        return -1;
    int64_t kn[2] = {-1, -1};
    for (uint32_t a = 0; a < nd->attr_count; a++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
        int which = nnav_span_eqs(at->name, "K") ? 0 : nnav_span_eqs(at->name, "N") ? 1 : -1;
        int64_t v;
        nnav_error e;
        if (which >= 0 && !at->ref_attr_name.n && nnav_attr_int(m, nd->attr_first + a, &v, &e) == 0)
            kn[which] = v;
    }
    if (kn[0] < 1 || kn[1] < 1 || kn[0] > NNAV_DIM_MAX || kn[1] > NNAV_DIM_MAX)
        return -1;
    *k = kn[0], *n = kn[1];
    return 0;
}
