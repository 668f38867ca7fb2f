/* quant.c - what a tensor stores and the weights it stands for (quant.h). */
#include "quant.h"

#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "shape.h"

/* The parts of a GPTQ/AWQ packing, by their own names. */
enum { PK_QWEIGHT, PK_SCALES, PK_QZEROS, PK_GIDX, PK_N };
static const char *const PK_NAME[PK_N] = {"qweight", "scales", "qzeros", "g_idx"};
static const char *const PK_PART[PK_N] = {NULL, "scales", "zeros", "g_idx"};

/* Which part name `nm` ends in (".qweight" or the whole name), and the
 * length of the prefix before it (its '.' included). -1 when none. */
static int pack_part(nnav_span nm, uint64_t *prefix)
{
    for (int k = 0; k < PK_N; k++) {
        size_t l = strlen(PK_NAME[k]);
        if (nm.n < l || memcmp(nm.p + nm.n - l, PK_NAME[k], l))
            continue;
        if (nm.n == l || nm.p[nm.n - l - 1] == '.') {
            *prefix = nm.n - l;
            return k;
        }
    }
    return -1;
}

/* The initializer tensor of graph g named prefix + part, or NNAV_NONE. */
static uint32_t sibling(const nnav_model *m, uint32_t g, nnav_span nm, uint64_t prefix, int part)
{
    char buf[4096];
    size_t l = strlen(PK_NAME[part]);
    if (prefix + l >= sizeof buf)
        return NNAV_NONE;
    memcpy(buf, nm.p, (size_t)prefix);
    memcpy(buf + prefix, PK_NAME[part], l);
    uint32_t v = nnav_value_lookup(m, g, buf, (size_t)prefix + l);
    if (v == NNAV_NONE)
        return NNAV_NONE;
    const nnav_value *val = nnav_value_get(m, v);
    if (val->kind != NNAV_VAL_INITIALIZER || val->graph != g || val->producer >= nnav_tensor_count(m))
        return NNAV_NONE;
    return val->producer;
}

static int dims2(const nnav_model *m, uint32_t t, uint32_t rank, uint64_t *d)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    if (tt->ndims != rank || (tt->warn & NNAV_TW_BAD_DIMS))
        return -1;
    const int64_t *dd = nnav_dims(m, tt->dims_first);
    for (uint32_t i = 0; i < rank; i++) {
        if (dd[i] < 1 || dd[i] > ((int64_t)1 << 48))
            return -1;
        d[i] = (uint64_t)dd[i];
    }
    return 0;
}

static int int32_like(int32_t dt) { return dt == NNAV_DT_INT32 || dt == NNAV_DT_UINT32; }
static int float_like(int32_t dt)
{
    return dt == NNAV_DT_FLOAT16 || dt == NNAV_DT_BFLOAT16 || dt == NNAV_DT_FLOAT ||
           dt == NNAV_DT_DOUBLE;
}

/* The bits transformers' config.json beside the weights names
 * (quantization_config.bits, a detail the reader keeps), 0 when none. */
static uint64_t config_bits(const nnav_model *m)
{
    uint32_t i = nnav_detail_find(m, "config.quantization_config.bits");
    nnav_detail d;
    if (i == NNAV_NONE || nnav_detail_get(m, i, &d) < 0 || d.kind != NNAV_DV_TEXT || !d.s.n ||
        d.s.n > 2)
        return 0;
    uint64_t v = 0;
    for (uint64_t k = 0; k < d.s.n; k++) {
        if (d.s.p[k] < '0' || d.s.p[k] > '9')
            return 0;
        v = v * 10 + (uint64_t)(d.s.p[k] - '0');
    }
    return v;
}

/* The packing whose qweight is tensor qw (quant.h's rules), into *q. */
static int store_pack(const nnav_model *m, uint32_t qw, nnav_tquant *q)
{
    const nnav_tensor *tt = nnav_tensor_get(m, qw);
    uint64_t prefix, a[2], s[2], z[2] = {0, 0}, gi = 0;
    if (pack_part(tt->name, &prefix) != PK_QWEIGHT || !int32_like(tt->dtype) || dims2(m, qw, 2, a))
        return -1;
    uint32_t sc = sibling(m, tt->graph, tt->name, prefix, PK_SCALES);
    uint32_t qz = sibling(m, tt->graph, tt->name, prefix, PK_QZEROS);
    uint32_t gx = sibling(m, tt->graph, tt->name, prefix, PK_GIDX);
    if (sc == NNAV_NONE || !float_like(nnav_tensor_get(m, sc)->dtype) || dims2(m, sc, 2, s))
        return -1;
    if (qz != NNAV_NONE && (!int32_like(nnav_tensor_get(m, qz)->dtype) || dims2(m, qz, 2, z)))
        return -1;
    if (gx != NNAV_NONE) {
        if (!int32_like(nnav_tensor_get(m, gx)->dtype) || dims2(m, gx, 1, &gi))
            return -1;
    }
    uint64_t G = s[0], N = s[1], K, bits;
    if (qz != NNAV_NONE && z[0] != G)
        return -1;
    if (a[1] == N) { /* GPTQ: packed along K */
        if (qz != NNAV_NONE && (z[1] * 32) % N == 0)
            bits = z[1] * 32 / N;
        else if (gx != NNAV_NONE && (a[0] * 32) % gi == 0)
            bits = a[0] * 32 / gi;
        else if (!(bits = config_bits(m))) /* neither: the config may say */
            return -1;
        if (bits == 0 || (a[0] * 32) % bits)
            return -1;
        K = a[0] * 32 / bits;
        q->scheme = "GPTQ";
    } else { /* AWQ: packed along N */
        if ((a[1] * 32) % N)
            return -1;
        bits = a[1] * 32 / N;
        K = a[0];
        if (qz != NNAV_NONE && z[1] != a[1])
            return -1;
        q->scheme = "AWQ";
    }
    if ((bits != 2 && bits != 3 && bits != 4 && bits != 8) || K % G ||
        (gx != NNAV_NONE && gi != K) || (qz != NNAV_NONE && (N * bits) % 32))
        return -1;
    q->kind = NNAV_Q_PACKED;
    q->bits = (uint8_t)bits;
    q->group = K / G;
    q->weight = qw;
    q->k = K, q->n = N;
    if (__builtin_mul_overflow(K, N, &q->logical)) /* a hostile scales' shape */
        return -1;
    return 0;
}

static int64_t node_attr_int(const nnav_model *m, uint32_t n, const char *name, int64_t dflt)
{
    const nnav_node *nd = nnav_node_get(m, n);
    for (uint32_t a = 0; a < nd->attr_count; a++) {
        const nnav_attr *at = nnav_attr_get(m, nd->attr_first + a);
        int64_t v;
        nnav_error e;
        if (nnav_span_eqs(at->name, name) && !at->ref_attr_name.n &&
            nnav_attr_int(m, nd->attr_first + a, &v, &e) == 0)
            return v;
    }
    return dflt;
}

/* The initializer tensor input `slot` of node n reads, or NNAV_NONE. */
static uint32_t input_tensor(const nnav_model *m, uint32_t n, uint32_t slot)
{
    const nnav_node *nd = nnav_node_get(m, n);
    if (slot >= nd->in_count)
        return NNAV_NONE;
    uint32_t v = nnav_ref_get(m, nd->in_first + slot).value;
    if (v == NNAV_NONE)
        return NNAV_NONE;
    const nnav_value *val = nnav_value_get(m, v);
    return val->kind == NNAV_VAL_INITIALIZER && val->producer < nnav_tensor_count(m) ? val->producer
                                                                                     : NNAV_NONE;
}

/* A graph's packed weight by the node reading tensor t's value: 0 when one
 * says, into *q. */
static int graph_pack(const nnav_model *m, uint32_t t, nnav_tquant *q)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    if (tt->owner != NNAV_TOWN_INITIALIZER || tt->graph >= nnav_graph_count(m))
        return -1;
    uint32_t v = nnav_value_lookup(m, tt->graph, (const char *)tt->name.p, (size_t)tt->name.n);
    if (v == NNAV_NONE || nnav_value_get(m, v)->producer != t ||
        nnav_value_get(m, v)->kind != NNAV_VAL_INITIALIZER)
        return -1;
    uint32_t nc;
    const uint32_t *cons = nnav_value_consumers(m, v, &nc);
    for (uint32_t i = 0; i < nc && i < 64; i++) {
        uint32_t n = cons[i];
        const nnav_node *nd = nnav_node_get(m, n);
        int mnb = nnav_span_eqs(nd->op, "MatMulNBits");
        int dql = nnav_span_eqs(nd->op, "DequantizeLinear");
        if (!mnb && !dql)
            continue;
        nnav_span dom = nnav_node_domain(m, n);
        if (mnb ? !nnav_span_eqs(dom, "com.microsoft") : dom.n && !nnav_span_eqs(dom, "ai.onnx"))
            continue;
        for (uint32_t s = 0; s < nd->in_count; s++) {
            if (nnav_ref_get(m, nd->in_first + s).value != v)
                continue;
            if (mnb) {
                int64_t k, nn;
                uint32_t b = input_tensor(m, n, 1);
                if (b == NNAV_NONE || nnav_matmulnbits_kn(m, n, &k, &nn) < 0 || s > 4 || s == 0)
                    break;
                int64_t bits = node_attr_int(m, n, "bits", 4);
                int64_t bs = node_attr_int(m, n, "block_size", 0);
                q->scheme = "MatMulNBits";
                q->bits = bits > 0 && bits <= 8 ? (uint8_t)bits : 0;
                q->group = bs > 0 ? (uint64_t)bs : 0;
                q->k = (uint64_t)k, q->n = (uint64_t)nn;
                q->weight = b;
                if (s == 1) {
                    q->kind = NNAV_Q_PACKED;
                    if (__builtin_mul_overflow((uint64_t)k, (uint64_t)nn, &q->logical))
                        break; /* K x N past 2^64: not this node's packing */
                } else {
                    static const char *const part[] = {NULL, NULL, "scales", "zero points", "g_idx"};
                    q->kind = NNAV_Q_DATA;
                    q->part = part[s];
                }
                return 0;
            }
            /* DequantizeLinear: x, x_scale, x_zero_point. */
            uint32_t x = input_tensor(m, n, 0);
            if (x == NNAV_NONE || s > 2)
                break;
            int64_t bs = node_attr_int(m, n, "block_size", 0);
            q->scheme = "QDQ";
            q->bits = (uint8_t)nnav_dtype_bits(nnav_tensor_get(m, x)->dtype);
            q->group = bs > 0 ? (uint64_t)bs : 0;
            q->weight = x;
            if (s == 0) {
                q->kind = NNAV_Q_PACKED;
                q->logical = tt->nelems;
            } else {
                q->kind = NNAV_Q_DATA;
                q->part = s == 1 ? "scale" : "zero point";
            }
            return 0;
        }
    }
    return -1;
}

int nnav_tensor_quant(const nnav_model *m, uint32_t t, nnav_tquant *q)
{
    if (t >= nnav_tensor_count(m))
        return -1;
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    memset(q, 0, sizeof *q);
    q->weight = t;
    if (nnav_model_facts_get(m)->tensor_store) {
        uint64_t prefix;
        int part = pack_part(tt->name, &prefix);
        if (part == PK_QWEIGHT && store_pack(m, t, q) == 0)
            return 0;
        if (part > PK_QWEIGHT) {
            uint32_t qw = sibling(m, tt->graph, tt->name, prefix, PK_QWEIGHT);
            if (qw != NNAV_NONE && store_pack(m, qw, q) == 0) {
                q->kind = NNAV_Q_DATA;
                q->part = PK_PART[part];
                q->logical = 0;
                return 0;
            }
        }
        memset(q, 0, sizeof *q);
        q->weight = t;
    } else if (graph_pack(m, t, q) == 0) {
        return 0;
    } else {
        memset(q, 0, sizeof *q);
        q->weight = t;
    }
    q->kind = NNAV_Q_PLAIN;
    q->logical = tt->nelems;
    return 0;
}

void nnav_tensor_qtype(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    nnav_tquant q;
    if (nnav_tensor_quant(m, t, &q) < 0) {
        snprintf(buf, n, "?");
        return;
    }
    const char *own = nnav_tensor_type_name(m, t);
    char grp[48] = "";
    if (q.kind == NNAV_Q_PLAIN) {
        snprintf(buf, n, "%s", own);
    } else if (q.kind == NNAV_Q_DATA) {
        snprintf(buf, n, "%s (%s %s)", own, q.scheme, q.part);
    } else if (!strcmp(q.scheme, "QDQ")) {
        if (q.group)
            snprintf(grp, sizeof grp, ", block %llu", (unsigned long long)q.group);
        snprintf(buf, n, "%s (QDQ%s)", own, grp);
    } else {
        int mnb = !strcmp(q.scheme, "MatMulNBits");
        if (q.group && (mnb || q.group != q.k))
            snprintf(grp, sizeof grp, ", %s %llu", mnb ? "block" : "group", (unsigned long long)q.group);
        else if (!mnb)
            snprintf(grp, sizeof grp, ", per channel");
        if (q.bits)
            snprintf(buf, n, "int%u (%s%s)", q.bits, q.scheme, grp);
        else
            snprintf(buf, n, "%s (%s%s)", own, q.scheme, grp);
    }
}

double nnav_bpw(uint64_t bytes, uint64_t weights)
{
    if (!weights || weights == UINT64_MAX || bytes == UINT64_MAX)
        return -1;
    return (double)bytes * 8.0 / (double)weights;
}

void nnav_bpw_text(uint64_t bytes, uint64_t weights, char *buf, size_t n)
{
    double b = nnav_bpw(bytes, weights);
    if (b < 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.2f bpw", b);
}

double nnav_tensor_bpw(const nnav_model *m, uint32_t t)
{
    nnav_tquant q;
    if (nnav_tensor_quant(m, t, &q) < 0 || q.kind == NNAV_Q_DATA)
        return -1;
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    switch (q.kind == NNAV_Q_PLAIN ? tt->dtype : NNAV_DT_FLOAT) {
    case NNAV_DT_UNDEFINED: case NNAV_DT_STRING: case NNAV_DT_BOOL: case NNAV_DT_INT32:
    case NNAV_DT_INT64: case NNAV_DT_UINT32: case NNAV_DT_UINT64:
        return -1; /* shapes, indices, flags, text: no weights (scope.h's rule) */
    }
    if (q.kind == NNAV_Q_PLAIN && tt->dtype != NNAV_DT_QBLOCKS && nnav_dtype_bits(tt->dtype))
        return nnav_dtype_bits(tt->dtype);
    return nnav_bpw(tt->nbytes, q.logical);
}
