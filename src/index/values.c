/* values.c - attribute values, tensor values and their text, on demand,
 * whatever the format: each format's decoding is its reader's (reader.h,
 * called through m->reader); what is here is the same for every format
 * (rendering, storage words, sparse index checks, measured sizes). Nothing
 * here runs at open. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "extdata.h"
#include "loadscan.h"
#include "model.h"
#include "sbuf.h"
#include "walk.h"
#include "wire.h"

/* ---- attributes ---- */

int nnav_attr_ints(const nnav_model *m, uint32_t a, int64_t *buf, size_t max, size_t *total,
                   nnav_error *err)
{
    return m->reader->attr_list(m, a, NNAV_AK_INT, buf, NULL, NULL, buf ? max : 0, total, err);
}

int nnav_attr_floats(const nnav_model *m, uint32_t a, double *buf, size_t max, size_t *total,
                     nnav_error *err)
{
    return m->reader->attr_list(m, a, NNAV_AK_FLOAT, NULL, buf, NULL, buf ? max : 0, total, err);
}

int nnav_attr_strings(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                      size_t *total, nnav_error *err)
{
    return m->reader->attr_list(m, a, NNAV_AK_STRING, NULL, NULL, buf, buf ? max : 0, total,
                                err);
}

int nnav_attr_types(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max, size_t *total,
                    nnav_error *err)
{
    if (!m->reader->attr_types) {
        *total = 0;
        return 0;
    }
    return m->reader->attr_types(m, a, buf, max, total, err);
}

/* The attribute's scalar of `kind`, with the wire type a value of that kind
 * has (all zeros when it holds none). */
static int attr_scalar(const nnav_model *m, uint32_t a, int kind, uint8_t wt, nnav_field *out,
                       nnav_error *err)
{
    nnav_field f;
    if (m->reader->attr_scalar(m, a, kind, &f, err) < 0)
        return -1;
    if (!f.num) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (f.wt != wt) {
        nnav_err_set(err, f.off, 1, "attribute value has wire type %u, expected %u", f.wt, wt);
        return -1;
    }
    *out = f;
    return 0;
}

int nnav_attr_float(const nnav_model *m, uint32_t a, double *out, nnav_error *err)
{
    nnav_field f;
    if (attr_scalar(m, a, NNAV_AK_FLOAT, NNAV_WT_I32, &f, err) < 0)
        return -1;
    float fl;
    uint32_t b = (uint32_t)f.v;
    memcpy(&fl, &b, 4);
    *out = fl;
    return 0;
}

int nnav_attr_int(const nnav_model *m, uint32_t a, int64_t *out, nnav_error *err)
{
    nnav_field f;
    if (attr_scalar(m, a, NNAV_AK_INT, NNAV_WT_VARINT, &f, err) < 0)
        return -1;
    *out = (int64_t)f.v;
    return 0;
}

int nnav_attr_string(const nnav_model *m, uint32_t a, nnav_span *out, nnav_error *err)
{
    nnav_field f;
    if (attr_scalar(m, a, NNAV_AK_STRING, NNAV_WT_LEN, &f, err) < 0)
        return -1;
    *out = f.wt == NNAV_WT_LEN ? f.s : (nnav_span){(const uint8_t *)"", 0};
    return 0;
}


const char *nnav_tensor_type_name(const nnav_model *m, uint32_t t)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    return tt->stype ? tt->stype : nnav_dtype_name(tt->dtype);
}

void nnav_tensor_shape_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    nnav_sb_put(&b, nnav_tensor_type_name(m, t));
    nnav_sb_put(&b, "[");
    for (uint32_t i = 0; i < tt->ndims; i++)
        nnav_sb_printf(&b, i ? ",%lld" : "%lld", (long long)m->dims.v[tt->dims_first + i]);
    nnav_sb_put(&b, "]");
}

void nnav_value_type_format(const nnav_model *m, uint32_t v, char *buf, size_t n)
{
    const nnav_value *val = &m->values.v[v];
    buf[0] = 0;
    if (val->vinfo != NNAV_NONE)
        nnav_type_format(m, m->vinfos.v[val->vinfo].type, buf, n);
    else if (val->kind == NNAV_VAL_INITIALIZER)
        nnav_tensor_shape_format(m, val->producer, buf, n);
    else if (val->kind == NNAV_VAL_SPARSE) {
        const nnav_sparse *sp = &m->sparse.v[val->producer];
        nnav_sbuf b = {buf, n, 0};
        nnav_sb_put(&b, "sparse ");
        nnav_sb_put(&b, nnav_dtype_name(m->tensors.v[sp->values].dtype));
        nnav_sb_put(&b, "[");
        for (uint32_t i = 0; i < sp->ndims; i++)
            nnav_sb_printf(&b, i ? ",%lld" : "%lld", (long long)m->dims.v[sp->dims_first + i]);
        nnav_sb_put(&b, "]");
    }
}

void nnav_tensor_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    if (m->reader->storage_format && tt->storage != NNAV_STORE_EXTERNAL) {
        m->reader->storage_format(m, t, buf, n);
        return;
    }
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    switch (tt->storage) {
    case NNAV_STORE_RAW: nnav_sb_put(&b, "raw"); break;
    case NNAV_STORE_TYPED: nnav_sb_put(&b, "typed"); break;
    case NNAV_STORE_SPARSE: nnav_sb_put(&b, "sparse"); break;
    case NNAV_STORE_NONE: nnav_sb_put(&b, "none"); break;
    case NNAV_STORE_EXTERNAL: {
        int via = nnav_ext_via_of(m, t);
        nnav_sb_put(&b, via == NNAV_EXT_HF_BLOB ? "external (HF blob) "
                        : via == NNAV_EXT_LINK  ? "external (link) "
                                                : "external ");
        nnav_sb_span(&b, tt->ext_location);
        nnav_sb_printf(&b, " @%lld", (long long)(tt->ext_offset >= 0 ? tt->ext_offset : 0));
        if (tt->ext_length >= 0)
            nnav_sb_printf(&b, " +%lld", (long long)tt->ext_length);
        else
            nnav_sb_put(&b, " +rest");
        break;
    }
    }
}

/* ---- attribute rendering ---- */

/* An element type as an attribute's text names it. */
static const char *type_word(int64_t dt)
{
    if (dt == 0)
        return "invalid";
    return nnav_dtype_valid((int32_t)dt) ? nnav_dtype_name((int32_t)dt) : "unknown";
}

/* A scalar attribute: its value field as the reader gives it, rendered as
 * the attribute's type says. */
static void format_scalar(const nnav_model *m, uint32_t a, nnav_sbuf *b)
{
    uint8_t type = m->attrs.v[a].type;
    int kind = type == NNAV_ATTR_FLOAT    ? NNAV_AK_FLOAT
               : type == NNAV_ATTR_STRING ? NNAV_AK_STRING
               : type == NNAV_ATTR_TF_SHAPE ? NNAV_AK_MSG
                                            : NNAV_AK_INT;
    uint8_t wt = kind == NNAV_AK_FLOAT ? NNAV_WT_I32 : kind == NNAV_AK_INT ? NNAV_WT_VARINT
                                                                          : NNAV_WT_LEN;
    nnav_field f;
    nnav_error err;
    char num[512];
    int bad = m->reader->attr_scalar(m, a, kind, &f, &err) < 0;
    if (m->reader->attr_value_required) {
        if (bad || !f.num) {
            nnav_sb_put(b, "(malformed)");
            return;
        }
    } else if (bad || (f.num && f.wt != wt)) {
        return;
    } else if (!f.num) {
        memset(&f, 0, sizeof f);
    }
    switch (type) {
    case NNAV_ATTR_STRING:
        nnav_sb_put(b, "\"");
        if (f.num)
            nnav_sb_span(b, f.s);
        nnav_sb_put(b, "\"");
        break;
    case NNAV_ATTR_FLOAT: {
        float fl;
        uint32_t bits = (uint32_t)f.v;
        memcpy(&fl, &bits, 4);
        nnav_fmt_double(num, sizeof num, fl, 1);
        nnav_sb_put(b, num);
        break;
    }
    case NNAV_ATTR_TF_BOOL: nnav_sb_put(b, f.v ? "true" : "false"); break;
    case NNAV_ATTR_TF_TYPE: nnav_sb_put(b, type_word((int64_t)f.v)); break;
    case NNAV_ATTR_TF_SHAPE:
        m->reader->shape_format(m->map.base, f.s, num, sizeof num);
        nnav_sb_put(b, num);
        break;
    default: nnav_sb_printf(b, "%lld", (long long)(int64_t)f.v);
    }
}

/* A list of scalars (or of shapes): "[a, b, ... (N in all)]". */
static void format_list(const nnav_model *m, uint32_t a, size_t cap, nnav_sbuf *b)
{
    uint8_t type = m->attrs.v[a].type;
    int kind = type == NNAV_ATTR_FLOATS    ? NNAV_AK_FLOAT
               : type == NNAV_ATTR_STRINGS ? NNAV_AK_STRING
               : type == NNAV_ATTR_TF_SHAPES ? NNAV_AK_MSG
                                             : NNAV_AK_INT;
    nnav_error err;
    char num[256];
    size_t total = 0;
    int64_t *iv = calloc(cap, sizeof *iv);
    double *dv = calloc(cap, sizeof *dv);
    nnav_span *sv = calloc(cap, sizeof *sv);
    if (!iv || !dv || !sv ||
        m->reader->attr_list(m, a, kind, iv, dv, sv, cap, &total, &err) != 0) {
        nnav_sb_put(b, "(malformed list)");
    } else {
        nnav_sb_put(b, "[");
        for (size_t i = 0; i < total && i < cap; i++) {
            if (i)
                nnav_sb_put(b, ", ");
            switch (type) {
            case NNAV_ATTR_FLOATS:
                nnav_fmt_double(num, sizeof num, dv[i], 1);
                nnav_sb_put(b, num);
                break;
            case NNAV_ATTR_STRINGS:
                nnav_sb_put(b, "\"");
                nnav_sb_span(b, sv[i]);
                nnav_sb_put(b, "\"");
                break;
            case NNAV_ATTR_TF_BOOLS: nnav_sb_put(b, iv[i] ? "true" : "false"); break;
            case NNAV_ATTR_TF_TYPES: nnav_sb_put(b, type_word(iv[i])); break;
            case NNAV_ATTR_TF_SHAPES:
                m->reader->shape_format(m->map.base, sv[i], num, sizeof num);
                nnav_sb_put(b, num);
                break;
            default: nnav_sb_printf(b, "%lld", (long long)iv[i]);
            }
        }
        if (total > cap)
            nnav_sb_printf(b, ", ... (%zu in all)", total);
        nnav_sb_put(b, "]");
    }
    free(iv);
    free(dv);
    free(sv);
}

/* Function references: each the library's graph it names (with its path
 * and size) or the bare name, and how many attrs it binds. */
static void format_funcs(const nnav_model *m, uint32_t a, size_t cap, nnav_sbuf *b)
{
    const nnav_attr *at = &m->attrs.v[a];
    nnav_span names[64];
    size_t total = 0;
    nnav_error err;
    int one = at->type == NNAV_ATTR_TF_FUNC;
    if (one) {
        nnav_field f;
        if (m->reader->attr_scalar(m, a, NNAV_AK_MSG, &f, &err) < 0 || !f.num) {
            nnav_sb_put(b, "(malformed)");
            return;
        }
        names[0] = f.s;
        total = 1;
    } else if (m->reader->attr_list(m, a, NNAV_AK_MSG, NULL, NULL, names, 64, &total, &err) !=
               0) {
        nnav_sb_put(b, "(malformed list)");
        return;
    }
    if (!one)
        nnav_sb_put(b, "[");
    for (size_t i = 0; i < total && i < 64; i++) {
        if (i)
            nnav_sb_put(b, ", ");
        if (i >= cap) {
            nnav_sb_printf(b, "... (%zu in all)", total);
            break;
        }
        nnav_span name;
        uint32_t nattr;
        m->reader->func_ref(m, names[i], &name, &nattr);
        uint32_t gid = NNAV_NONE;
        for (uint32_t k = 0; k < at->graph_count && gid == NNAV_NONE; k++) {
            const nnav_graph *gr = &m->graphs.v[at->graph_first + k];
            if (gr->function != NNAV_NONE &&
                nnav_span_same(m->functions.v[gr->function].name, name))
                gid = at->graph_first + k;
        }
        if (gid != NNAV_NONE) {
            char p[1024];
            nnav_graph_path(m, gid, p, sizeof p);
            nnav_sb_printf(b, "%s (%u nodes)", p, m->graphs.v[gid].node_count);
        } else {
            nnav_sb_span(b, name);
            nnav_sb_put(b, " (not in the library)");
        }
        if (nattr)
            nnav_sb_printf(b, " {%u attrs}", nattr);
    }
    if (!one)
        nnav_sb_put(b, "]");
}

/* Tensors: each its type and first values, as the reader's conventions say
 * (attr_tensors_listed). */
static void format_tensors(const nnav_model *m, uint32_t a, size_t max_items, nnav_sbuf *b)
{
    const nnav_attr *at = &m->attrs.v[a];
    int listed = m->reader->attr_tensors_listed;
    size_t cap = listed ? (max_items ? max_items : 1) : (max_items ? max_items : SIZE_MAX);
    nnav_error err;
    char num[64];
    if (listed && at->type == NNAV_ATTR_TENSORS)
        nnav_sb_put(b, "[");
    for (uint32_t i = 0; i < at->tensor_count; i++) {
        char sh[256];
        uint32_t t = at->tensor_first + i;
        if (i)
            nnav_sb_put(b, ", ");
        if (i >= cap) {
            nnav_sb_printf(b, "... (%u in all)", at->tensor_count);
            break;
        }
        nnav_tensor_shape_format(m, t, sh, sizeof sh);
        nnav_sb_put(b, sh);
        /* First values: a constant's few numbers are what users look for. */
        int is_str = m->tensors.v[t].dtype == NNAV_DT_STRING;
        if (listed && is_str)
            continue;
        double v[4];
        int64_t iv[4];
        nnav_span sv[4];
        nnav_values vals = {.v = v, .i = listed ? NULL : iv, .s = listed ? NULL : sv};
        if (nnav_tensor_values(m, t, 4, 0, &vals, &err) != 0 || !vals.count)
            continue;
        nnav_sb_put(b, " {");
        for (size_t j = 0; j < vals.count; j++) {
            nnav_sb_put(b, j ? ", " : "");
            if (is_str) {
                nnav_sb_put(b, "\"");
                nnav_sb_span(b, sv[j]);
                nnav_sb_put(b, "\"");
                continue;
            }
            if (listed)
                nnav_fmt_double(num, sizeof num, v[j], 0);
            else
                nnav_values_format(&vals, 0, j, num, sizeof num);
            nnav_sb_put(b, num);
        }
        nnav_sb_put(b, vals.total > vals.count ? ", ...}" : "}");
    }
    if (listed && at->type == NNAV_ATTR_TENSORS)
        nnav_sb_put(b, "]");
}

/* The one text renderer, for every format: built on the accessors and, for
 * what they cannot give, the reader's decoders (reader.h). */
void nnav_attr_format(const nnav_model *m, uint32_t a, size_t max_items, char *buf, size_t n)
{
    const nnav_attr *at = &m->attrs.v[a];
    nnav_sbuf b = {buf, n, 0};
    nnav_error err;
    char num[64];
    if (n)
        buf[0] = 0;
    if (at->ref_attr_name.n) {
        nnav_sb_put(&b, "-> caller's ");
        nnav_sb_span(&b, at->ref_attr_name);
        return;
    }
    switch (at->type) {
    case NNAV_ATTR_FLOAT: case NNAV_ATTR_INT: case NNAV_ATTR_STRING: case NNAV_ATTR_TF_BOOL:
    case NNAV_ATTR_TF_TYPE: case NNAV_ATTR_TF_SHAPE:
        format_scalar(m, a, &b);
        break;
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_STRINGS: case NNAV_ATTR_TF_BOOLS:
    case NNAV_ATTR_TF_TYPES: case NNAV_ATTR_TF_SHAPES:
        format_list(m, a, max_items ? max_items : 1, &b);
        break;
    case NNAV_ATTR_TF_FUNC: case NNAV_ATTR_TF_FUNCS:
        format_funcs(m, a, max_items ? max_items : 1, &b);
        break;
    case NNAV_ATTR_TF_LIST:
        nnav_sb_put(&b, "[]");
        break;
    case NNAV_ATTR_TENSOR: case NNAV_ATTR_TENSORS:
        format_tensors(m, a, max_items, &b);
        break;
    case NNAV_ATTR_GRAPH: case NNAV_ATTR_GRAPHS:
        for (uint32_t i = 0; i < at->graph_count; i++) {
            char p[1024];
            nnav_graph_path(m, at->graph_first + i, p, sizeof p);
            nnav_sb_put(&b, i ? ", graph " : "graph ");
            nnav_sb_put(&b, p);
            nnav_sb_printf(&b, " (%u nodes)", m->graphs.v[at->graph_first + i].node_count);
        }
        break;
    case NNAV_ATTR_TYPE_PROTO: case NNAV_ATTR_TYPE_PROTOS: {
        nnav_span ts[8];
        size_t total = 0;
        if (nnav_attr_types(m, a, ts, 8, &total, &err) == 0) {
            for (size_t i = 0; i < total && i < 8; i++) {
                char t[256];
                nnav_type_format(m, ts[i], t, sizeof t);
                nnav_sb_put(&b, i ? ", " : "");
                nnav_sb_put(&b, t);
            }
        }
        break;
    }
    case NNAV_ATTR_SPARSE_TENSOR: case NNAV_ATTR_SPARSE_TENSORS: {
        /* As a sparse initializer is shown: the dense type and dims, then
         * the first indices and values. */
        size_t total = 1, cap = max_items ? max_items : 1;
        for (size_t k = 0; k < total; k++) {
            int64_t dims[16];
            size_t nd;
            nnav_span part[2];
            if (nnav_attr_sparse(m, a, k, dims, 16, &nd, &part[0], &part[1], &total, &err) < 0) {
                nnav_sb_put(&b, "(malformed sparse tensor)");
                break;
            }
            if (k >= total)
                break;
            if (k)
                nnav_sb_put(&b, ", ");
            if (k >= cap) {
                nnav_sb_printf(&b, "... (%zu in all)", total);
                break;
            }
            int32_t vt = 0;
            int64_t d2[16];
            size_t n2;
            double v[4];
            int64_t iv[4];
            nnav_span sv[4];
            nnav_values vals = {.v = v, .i = iv, .s = sv};
            if (part[0].p)
                nnav_tensorproto_values(m, part[0], &vt, d2, 16, &n2, 0, &vals, &err);
            nnav_sb_printf(&b, "sparse %s[", nnav_dtype_name(vt));
            for (size_t i = 0; i < nd && i < 16; i++)
                nnav_sb_printf(&b, i ? ",%lld" : "%lld", (long long)dims[i]);
            nnav_sb_put(&b, nd > 16 ? ",...]" : "]");
            for (int pi = 1; pi >= 0; pi--) {
                int32_t dt = 0;
                nnav_sb_put(&b, pi ? " indices {" : " values {");
                if (!part[pi].p ||
                    nnav_tensorproto_values(m, part[pi], &dt, d2, 16, &n2, 4, &vals, &err) < 0) {
                    nnav_sb_put(&b, part[pi].p ? "unreadable}" : "none}");
                    continue;
                }
                for (size_t j = 0; j < vals.count; j++) {
                    nnav_sb_put(&b, j ? ", " : "");
                    if (dt == NNAV_DT_STRING) {
                        nnav_sb_put(&b, "\"");
                        nnav_sb_span(&b, sv[j]);
                        nnav_sb_put(&b, "\"");
                    } else {
                        nnav_values_format(&vals, 0, j, num, sizeof num);
                        nnav_sb_put(&b, num);
                    }
                }
                nnav_sb_put(&b, vals.total > vals.count ? ", ...}" : "}");
            }
        }
        break;
    }
    default:
        nnav_sb_put(&b, "(no value)");
    }
}

/* ---- tensor values ---- */

int nnav_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                       nnav_values *out, nnav_error *err)
{
    return m->reader->tensor_values(m, t, want, stats, out, err);
}

/* ---- tensors the index does not hold (inside sparse attributes) ---- */

int nnav_tensorproto_values(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
                            size_t max, size_t *ndims, size_t want, nnav_values *out,
                            nnav_error *err)
{
    if (!m->reader->part_values) {
        memset(err, 0, sizeof *err);
        nnav_err_set(err, 0, 0, "%s models hold no such tensor", m->reader->name);
        return -1;
    }
    return m->reader->part_values(m, msg, dtype, dims, max, ndims, want, out, err);
}

int nnav_attr_sparse(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                     size_t *ndims, nnav_span *values, nnav_span *indices, size_t *total,
                     nnav_error *err)
{
    if (!m->reader->attr_sparse) {
        *ndims = 0;
        values->p = indices->p = NULL;
        values->n = indices->n = 0;
        *total = 0;
        return 0;
    }
    return m->reader->attr_sparse(m, a, k, dims, max, ndims, values, indices, total, err);
}

void nnav_values_format(const nnav_values *v, int which, size_t j, char *buf, size_t n)
{
    double d = which == 1 ? v->min : which == 2 ? v->max : which == 3 ? v->mean
               : v->v ? v->v[j] : NAN;
    int64_t i;
    if (!v->is_int || which == 3) {
        nnav_fmt_double(buf, n, d, 0);
        return;
    }
    if (which == 1 || which == 2)
        i = which == 1 ? v->imin : v->imax;
    else if (v->i)
        i = v->i[j];
    else if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
        i = (int64_t)d; /* no exact copy was asked for: the double's value */
    else {
        nnav_fmt_double(buf, n, d, 0);
        return;
    }
    if (v->is_unsigned)
        snprintf(buf, n, "%llu", (unsigned long long)(uint64_t)i);
    else
        snprintf(buf, n, "%lld", (long long)i);
}

int nnav_tensor_bytes(const nnav_model *m, uint32_t t, nnav_span *out, void **cookie,
                      nnav_error *err)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    *cookie = NULL;
    if (tt->storage == NNAV_STORE_RAW) {
        *out = tt->data;
        return 0;
    }
    if (tt->storage != NNAV_STORE_EXTERNAL) {
        nnav_err_set(err, 0, 0, "tensor has no raw bytes (storage is typed fields)");
        return -1;
    }
    return nnav_ext_map(m, t, out, cookie, err);
}

void nnav_tensor_bytes_release(void *cookie)
{
    nnav_ext_release(cookie);
}

int nnav_tensor_bytes_shrank(const void *cookie, nnav_error *err)
{
    return nnav_ext_shrank(cookie, err);
}

/* ---- what is really stored ---- */

void nnav_tensors_measure(const nnav_model *m)
{
    /* The index is the model's own; what is measured is kept in it (as the
     * other caches built on first use are). */
    nnav_model *mm = (nnav_model *)m;
    /* Exports write one data file for all their tensors, a checkpoint a few
     * shards: the last few files measured are remembered, so each is walked
     * to about once however its tensors interleave. */
    enum { SEEN = 16 };
    struct { nnav_span loc; uint64_t size; int ok, via; } seen[SEEN];
    unsigned nseen = 0, next = 0;
    for (uint32_t i = 0; i < mm->tensors.n; i++) {
        nnav_tensor *t = &mm->tensors.v[i];
        if (t->storage != NNAV_STORE_EXTERNAL)
            continue;
        if (t->warn & NNAV_TW_BAD_EXTERNAL) { /* refused when read: nothing there */
            t->stored = 0;
            continue;
        }
        unsigned k = 0;
        while (k < nseen && !nnav_span_same(seen[k].loc, t->ext_location))
            k++;
        if (k == nseen) {
            /* The whole file, as nnav_ext_map would open it. */
            nnav_tensor whole = *t;
            nnav_error e;
            whole.ext_offset = 0;
            whole.ext_length = -1;
            k = next;
            seen[k].loc = t->ext_location;
            seen[k].size = 0;
            seen[k].via = NNAV_EXT_PLAIN;
            seen[k].ok = nnav_ext_avail(m, &whole, &seen[k].size, &seen[k].via, &e) == 0;
            next = (next + 1) % SEEN;
            if (nseen < SEEN)
                nseen++;
        }
        t->ext_via = (uint8_t)(seen[k].ok ? seen[k].via : NNAV_EXT_PLAIN);
        uint64_t off = t->ext_offset >= 0 ? (uint64_t)t->ext_offset : 0;
        uint64_t rest = seen[k].ok && off < seen[k].size ? seen[k].size - off : 0;
        t->stored = t->ext_length >= 0 && (uint64_t)t->ext_length < rest ? (uint64_t)t->ext_length
                                                                         : rest;
        if (seen[k].ok && t->nbytes != UINT64_MAX && t->dtype != NNAV_DT_STRING &&
            t->stored < t->nbytes)
            t->warn |= NNAV_TW_SIZE_MISMATCH;
    }
}

uint64_t nnav_tensor_present_bytes(const nnav_model *m, uint32_t t)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    if (tt->nbytes == UINT64_MAX)
        return UINT64_MAX;
    /* Varint fields hold fewer bytes than their values take (and TensorFlow's
     * typed fields repeat their last value): what dims x dtype say is what
     * is there. Elsewhere stored bytes are the payload's own bytes. */
    if (tt->storage == NNAV_STORE_TYPED && (m->reader->typed_repeats || !(tt->warn & NNAV_TW_SIZE_MISMATCH)))
        return tt->nbytes;
    return tt->stored < tt->nbytes ? tt->stored : tt->nbytes;
}

/* ---- sparse indices ---- */

typedef int (*int_fn)(void *ctx, int64_t v);

typedef struct ints_ctx {
    int_fn fn;
    void *ctx;
    uint64_t left;
    int32_t dtype;
} ints_ctx;

static int ints_put(void *c, uint64_t v)
{
    ints_ctx *x = c;
    if (!x->left)
        return 1;
    x->left--;
    int r = x->fn(x->ctx, x->dtype == NNAV_DT_INT32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v);
    return r ? r : x->left == 0; /* the last element: the reader stops here */
}

/* Every element of an int64 (or int32) tensor, exactly (not through a
 * double), in order, as many as are stored up to its element count. */
static int tensor_ints(const nnav_model *m, uint32_t t, int_fn fn, void *ctx, nnav_error *err)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    unsigned size = tt->dtype == NNAV_DT_INT64 ? 8 : tt->dtype == NNAV_DT_INT32 ? 4 : 0;
    ints_ctx x = {fn, ctx, tt->nelems == UINT64_MAX ? 0 : tt->nelems, tt->dtype};
    memset(err, 0, sizeof *err);
    if (!size) {
        nnav_err_set(err, 0, 0, "they are %s, not int64", nnav_dtype_name(tt->dtype));
        return -1;
    }
    if (tt->storage == NNAV_STORE_RAW || tt->storage == NNAV_STORE_EXTERNAL) {
        nnav_span d;
        void *cookie = NULL;
        if (nnav_tensor_bytes(m, t, &d, &cookie, err) < 0)
            return -1;
        for (uint64_t i = 0; i < d.n / size && x.left; i++) {
            uint64_t v = 0;
            for (unsigned k = size; k-- > 0;)
                v = v << 8 | d.p[i * size + k];
            if (ints_put(&x, v))
                break;
        }
        int rc = nnav_ext_shrank(cookie, err) ? -1 : 0;
        nnav_tensor_bytes_release(cookie);
        return rc;
    }
    if (tt->storage != NNAV_STORE_TYPED || !m->reader->typed_ints)
        return 0;
    return m->reader->typed_ints(m, t, ints_put, &x, err);
}

/* The first index of one kind of fault and how many there are. */
typedef struct fault {
    uint64_t count, at;
    char what[96];
} fault;

typedef struct sparse_ctx {
    const int64_t *dims;
    uint32_t rank;
    int coords;         /* indices are [NNZ, rank] rows of coordinates */
    uint64_t dense;     /* elements the dims describe; UINT64_MAX: unknown */
    uint64_t pos;       /* elements read */
    uint64_t lin;       /* the row's linear index so far */
    int row_bad, lin_ok, have_prev;
    uint64_t prev;
    char row[64];       /* the row's coordinates as text, for a message */
    fault neg, out, down, dup;
} sparse_ctx;

static void fault_note(fault *f, uint64_t at, const char *what)
{
    if (!f->count++) {
        f->at = at;
        snprintf(f->what, sizeof f->what, "%s", what);
    }
}

/* A sound linear index: in ascending order after the one before. */
static void sparse_order(sparse_ctx *c, uint64_t lin, uint64_t at, const char *shown)
{
    if (c->have_prev && lin < c->prev)
        fault_note(&c->down, at, shown);
    else if (c->have_prev && lin == c->prev) {
        fault_note(&c->dup, at, shown);
    }
    c->prev = lin;
    c->have_prev = 1;
}

static int sparse_put(void *ctx, int64_t v)
{
    sparse_ctx *c = ctx;
    uint64_t at = c->pos++;
    char shown[64];
    if (!c->coords) {
        snprintf(shown, sizeof shown, "%lld", (long long)v);
        if (v < 0)
            fault_note(&c->neg, at, shown);
        else if (c->dense != UINT64_MAX && (uint64_t)v >= c->dense)
            fault_note(&c->out, at, shown);
        else
            sparse_order(c, (uint64_t)v, at, shown);
        return 0;
    }
    uint32_t j = (uint32_t)(at % c->rank);
    uint64_t rowno = at / c->rank;
    if (j == 0) {
        c->lin = 0;
        c->row_bad = 0;
        c->lin_ok = 1;
        c->row[0] = 0;
    }
    size_t l = strlen(c->row);
    if (l + 24 < sizeof c->row)
        snprintf(c->row + l, sizeof c->row - l, "%s%lld", j ? "," : "", (long long)v);
    else if (l + 4 < sizeof c->row && c->row[l - 1] != '.')
        snprintf(c->row + l, sizeof c->row - l, ",...");
    if (v < 0)
        c->row_bad |= 1;
    else if ((uint64_t)v >= (uint64_t)c->dims[j])
        c->row_bad |= 2;
    else if (__builtin_mul_overflow(c->lin, (uint64_t)c->dims[j], &c->lin) ||
             __builtin_add_overflow(c->lin, (uint64_t)v, &c->lin))
        c->lin_ok = 0;
    if (j + 1 < c->rank)
        return 0;
    snprintf(shown, sizeof shown, "(%s)", c->row);
    if (c->row_bad & 1)
        fault_note(&c->neg, rowno, shown);
    else if (c->row_bad & 2)
        fault_note(&c->out, rowno, shown);
    else if (c->lin_ok)
        sparse_order(c, c->lin, rowno, shown);
    return 0;
}

static void sparse_dims_text(const int64_t *dims, uint32_t rank, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    nnav_sb_put(&b, "[");
    for (uint32_t i = 0; i < rank; i++)
        nnav_sb_printf(&b, i ? ",%lld" : "%lld", (long long)dims[i]);
    nnav_sb_put(&b, "]");
}

int nnav_sparse_check(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    const nnav_sparse *sp = &m->sparse.v[id];
    nnav_sbuf b = {buf, n, 0};
    char dt[512];
    buf[0] = 0;
    if (sp->values == NNAV_NONE || sp->indices == NNAV_NONE) {
        nnav_sb_put(&b, sp->values == NNAV_NONE ? "it has no values" : "it has no indices");
        return 1;
    }
    const nnav_tensor *vt = &m->tensors.v[sp->values], *it = &m->tensors.v[sp->indices];
    const int64_t *dims = &m->dims.v[sp->dims_first], *idims = &m->dims.v[it->dims_first];
    sparse_ctx c = {.dims = dims, .rank = sp->ndims, .dense = 1};
    for (uint32_t i = 0; i < sp->ndims; i++)
        if (dims[i] < 0 || __builtin_mul_overflow(c.dense, (uint64_t)dims[i], &c.dense)) {
            c.dense = UINT64_MAX;
            break;
        }
    sparse_dims_text(dims, sp->ndims, dt, sizeof dt);
    uint64_t nnz = vt->ndims == 1 && vt->nelems != UINT64_MAX ? vt->nelems : UINT64_MAX;
    if (vt->ndims != 1) {
        nnav_sb_put(&b, "its values are not a 1-D list");
        return 1;
    }
    if (it->nelems == UINT64_MAX || (it->ndims != 1 && it->ndims != 2)) {
        nnav_sb_put(&b, "its indices are shaped neither [NNZ] nor [NNZ, rank]");
        return 1;
    }
    c.coords = it->ndims == 2;
    if (c.coords && (idims[1] != (int64_t)sp->ndims || sp->ndims == 0)) {
        nnav_sb_printf(&b, "its indices have %lld coordinates a row for the %u dims of %s",
                       (long long)idims[1], sp->ndims, dt);
        return 1;
    }
    if ((uint64_t)idims[0] != nnz) {
        nnav_sb_printf(&b, "%lld indices for %llu values", (long long)idims[0],
                       (unsigned long long)nnz);
        return 1;
    }
    for (uint32_t i = 0; c.coords && i < sp->ndims; i++)
        if (dims[i] < 0) {
            nnav_sb_printf(&b, "its dims %s are negative", dt);
            return 1;
        }
    nnav_error e;
    if (tensor_ints(m, sp->indices, sparse_put, &c, &e) < 0) {
        nnav_sb_put(&b, "its indices cannot be read: ");
        nnav_sb_put(&b, e.msg);
        return 1;
    }
    if (c.pos < it->nelems) {
        nnav_sb_printf(&b, "%llu of its %llu index numbers are stored",
                       (unsigned long long)c.pos, (unsigned long long)it->nelems);
        return 1;
    }
    const char *unit = c.coords ? "row" : "position";
    struct { const fault *f; const char *how; } kinds[] = {
        {&c.neg, "is negative"},
        {&c.out, "lies outside"},
        {&c.down, "is below the one before (indices must ascend)"},
        {&c.dup, "repeats the one before"},
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        const fault *f = kinds[k].f;
        if (!f->count)
            continue;
        nnav_sb_put(&b, bad++ ? "; " : "");
        nnav_sb_printf(&b, "index %s at %s %llu ", f->what, unit, (unsigned long long)f->at);
        if (k == 1)
            nnav_sb_printf(&b, "lies outside %s", dt);
        else
            nnav_sb_put(&b, kinds[k].how);
        if (f->count > 1)
            nnav_sb_printf(&b, " (%llu such)", (unsigned long long)f->count);
    }
    return bad != 0;
}

nnav_span nnav_node_device(const nnav_model *m, uint32_t node)
{
    return m->reader->node_device ? m->reader->node_device(m, node) : (nnav_span){0};
}

nnav_span nnav_module_class(const nnav_model *m, nnav_span path)
{
    return m->reader->module_class ? m->reader->module_class(m, path) : (nnav_span){0};
}

uint32_t nnav_tensor_alias(const nnav_model *m, uint32_t t)
{
    return m->reader->tensor_alias && t < m->tensors.n ? m->reader->tensor_alias(m, t)
                                                       : NNAV_NONE;
}

nnav_span nnav_module_at(const nnav_model *m, uint32_t i, nnav_span *cls)
{
    *cls = (nnav_span){0};
    return m->reader->module_at ? m->reader->module_at(m, i, cls) : (nnav_span){0};
}

const nnav_load_scan *nnav_model_load_scan(const nnav_model *m)
{
    return m->reader->load_scan ? m->reader->load_scan(m) : NULL;
}

void nnav_load_scan_free(nnav_load_scan *s)
{
    if (s && s->release)
        s->release(s);
}

uint32_t nnav_detail_count(const nnav_model *m)
{
    return m->reader->detail_count ? m->reader->detail_count(m) : 0;
}

int nnav_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out)
{
    memset(out, 0, sizeof *out);
    if (i >= nnav_detail_count(m) || m->reader->detail_get(m, i, out) < 0)
        return -1;
    return 0;
}

int nnav_detail_item(const nnav_model *m, uint32_t i, uint64_t k, nnav_detail *out,
                     nnav_error *err)
{
    memset(out, 0, sizeof *out);
    memset(err, 0, sizeof *err);
    nnav_detail d;
    if (nnav_detail_get(m, i, &d) < 0 || d.kind != NNAV_DV_ARRAY || !m->reader->detail_item) {
        nnav_err_set(err, 0, 0, "not a list of values");
        return -1;
    }
    if (k >= d.count) {
        nnav_err_set(err, d.offset, 1, "item %llu of a list of %llu", (unsigned long long)k,
                     (unsigned long long)d.count);
        return -1;
    }
    return m->reader->detail_item(m, i, k, out, err);
}

uint32_t nnav_detail_find(const nnav_model *m, const char *name)
{
    size_t n = strlen(name);
    uint32_t c = nnav_detail_count(m), hit = NNAV_NONE;
    for (uint32_t i = 0; i < c; i++) {
        nnav_detail d;
        if (nnav_detail_get(m, i, &d) < 0)
            continue;
        size_t sn = strlen(d.section);
        if (nnav_span_eq(d.key, name, n))
            return i;
        if (hit == NNAV_NONE && n > sn + 1 && !memcmp(name, d.section, sn) && name[sn] == '.' &&
            nnav_span_eq(d.key, name + sn + 1, n - sn - 1))
            hit = i;
    }
    return hit;
}
