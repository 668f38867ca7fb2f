/* values.c - decoding on demand: attribute values, types, tensor values.
 *
 * Nothing here runs at open. Each function re-walks one small message from the
 * map (an AttributeProto, a TensorProto) with the bounds-checked wire reader;
 * TypeProto, which can hold neither a payload nor a graph, goes through
 * protobuf-c after its nesting depth is checked by our own walker. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "extdata.h"
#include "model.h"
#include "sbuf.h"
#include "onnx.pb-c.h"
#include "tf.h"
#include "walk.h"
#include "wire.h"

#define TYPE_MAX_DEPTH 32

/* ---- attributes ---- */

typedef int (*attr_field_fn)(void *ctx, const nnav_field *f, const uint8_t *base,
                             nnav_error *err);

static int attr_walk(const nnav_model *m, uint32_t a, uint32_t want, attr_field_fn fn,
                     void *ctx, nnav_error *err)
{
    nnav_wire r;
    nnav_field f;
    int k;
    nnav_wire_init(&r, m->map.base, m->attrs.v[a].msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1)
        if (f.num == want && fn(ctx, &f, m->map.base, err) != 0)
            return -1;
    return k;
}


/* Repeated ints or floats, packed or not. */
static int list_field(void *c, const nnav_field *f, const uint8_t *base, nnav_error *err)
{
    nnav_list_fill *l = c;
    return nnav_wire_scalars(f, l->is_float ? NNAV_WT_I32 : NNAV_WT_VARINT, nnav_list_put, l, err,
                             base);
}

/* Repeated bytes or messages: one entry per field, whatever its bytes hold
 * (an empty string too), whether or not the caller asked for the spans. */
static int span_field(void *c, const nnav_field *f, const uint8_t *base, nnav_error *err)
{
    nnav_list_fill *l = c;
    (void)base;
    if (f->wt != NNAV_WT_LEN)
        return nnav_err_set(err, f->off, 1, "string list entry has wire type %u", f->wt), -1;
    if (l->spans && l->total < l->max)
        l->spans[l->total] = f->s;
    l->total++;
    return 0;
}

/* TensorFlow attrs (tf_values.c): ints also serve list(bool) and list(type),
 * types as nnav element types, as nnav_attr_int does for bool and type. */
static int tf_list(const nnav_model *m, uint32_t a, char kind, int64_t *ints, double *dbls,
                   nnav_span *sp, size_t max, size_t *total, nnav_error *err)
{
    uint8_t t = m->attrs.v[a].type;
    int field = kind == 'f' ? 4 : kind == 's' ? 2
                : t == NNAV_ATTR_TF_BOOLS ? 5 : t == NNAV_ATTR_TF_TYPES ? 6 : 3;
    int r = nnav_tf_attr_list(m, a, field, ints, dbls, sp, max, total, err);
    if (r == 0 && field == 6)
        for (size_t i = 0; i < *total && i < max; i++)
            ints[i] = nnav_tf_dtype((uint64_t)ints[i]);
    return r;
}

int nnav_attr_ints(const nnav_model *m, uint32_t a, int64_t *buf, size_t max, size_t *total,
                   nnav_error *err)
{
    if (m->tf)
        return tf_list(m, a, 'i', buf, NULL, NULL, buf ? max : 0, total, err);
    nnav_list_fill l = {buf, NULL, NULL, max, 0, 0};
    int r = attr_walk(m, a, 8, list_field, &l, err);
    *total = l.total;
    return r < 0 ? -1 : 0;
}

int nnav_attr_floats(const nnav_model *m, uint32_t a, double *buf, size_t max, size_t *total,
                     nnav_error *err)
{
    if (m->tf)
        return tf_list(m, a, 'f', NULL, buf, NULL, buf ? max : 0, total, err);
    nnav_list_fill l = {NULL, buf, NULL, max, 0, 1};
    int r = attr_walk(m, a, 7, list_field, &l, err);
    *total = l.total;
    return r < 0 ? -1 : 0;
}

int nnav_attr_strings(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                      size_t *total, nnav_error *err)
{
    if (m->tf)
        return tf_list(m, a, 's', NULL, NULL, buf, buf ? max : 0, total, err);
    nnav_list_fill l = {NULL, NULL, buf, max, 0, 0};
    int r = attr_walk(m, a, 9, span_field, &l, err);
    *total = l.total;
    return r < 0 ? -1 : 0;
}

int nnav_attr_types(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max, size_t *total,
                    nnav_error *err)
{
    if (m->tf) { /* TensorFlow attrs hold no TypeProto */
        *total = 0;
        return 0;
    }
    nnav_list_fill l = {NULL, NULL, buf, max, 0, 0};
    int r = attr_walk(m, a, m->attrs.v[a].type == NNAV_ATTR_TYPE_PROTO ? 14 : 15, span_field,
                      &l, err);
    *total = l.total;
    return r < 0 ? -1 : 0;
}

typedef struct scalar_ctx {
    nnav_field f;
    int found;
} scalar_ctx;

static int scalar_field(void *c, const nnav_field *f, const uint8_t *base, nnav_error *err)
{
    scalar_ctx *s = c;
    s->f = *f; /* the last occurrence wins, as protobuf says */
    s->found = 1;
    return 0;
}

static int attr_scalar(const nnav_model *m, uint32_t a, uint32_t num, uint8_t wt, nnav_field *out,
                       nnav_error *err)
{
    scalar_ctx s = {.found = 0};
    if (m->tf) {
        /* AttrValue: s 2, i 3, f 4; bool 5 and type 6 read as ints. */
        uint8_t t = m->attrs.v[a].type;
        num = num == 2 ? 4 : num == 3 ? (t == NNAV_ATTR_TF_BOOL ? 5 : t == NNAV_ATTR_TF_TYPE ? 6 : 3)
                                      : 2;
        int r = nnav_tf_attr_scalar(m, a, (int)num, &s.f, err);
        if (r < 0)
            return -1;
        s.found = r;
        if (r && num == 6)
            s.f.v = (uint64_t)(int64_t)nnav_tf_dtype(s.f.v);
        if (!s.found) {
            memset(out, 0, sizeof *out);
            return 0;
        }
        if (s.f.wt != wt) {
            nnav_err_set(err, s.f.off, 1, "attribute value has wire type %u, expected %u", s.f.wt, wt);
            return -1;
        }
        *out = s.f;
        return 0;
    }
    if (attr_walk(m, a, num, scalar_field, &s, err) < 0)
        return -1;
    if (!s.found) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (s.f.wt != wt) {
        nnav_err_set(err, s.f.off, 1, "attribute value has wire type %u, expected %u", s.f.wt, wt);
        return -1;
    }
    *out = s.f;
    return 0;
}

int nnav_attr_float(const nnav_model *m, uint32_t a, double *out, nnav_error *err)
{
    nnav_field f;
    if (attr_scalar(m, a, 2, NNAV_WT_I32, &f, err) < 0)
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
    if (attr_scalar(m, a, 3, NNAV_WT_VARINT, &f, err) < 0)
        return -1;
    *out = (int64_t)f.v;
    return 0;
}

int nnav_attr_string(const nnav_model *m, uint32_t a, nnav_span *out, nnav_error *err)
{
    nnav_field f;
    if (attr_scalar(m, a, 4, NNAV_WT_LEN, &f, err) < 0)
        return -1;
    *out = f.wt == NNAV_WT_LEN ? f.s : (nnav_span){(const uint8_t *)"", 0};
    return 0;
}

/* ---- text building ---- */


/* ---- types ---- */

/* Nesting depth of a message, walking LEN fields the descriptor says are
 * messages. protobuf-c's unpack has no depth limit; this is ours. */
static int depth_ok(const uint8_t *base, nnav_span s, const ProtobufCMessageDescriptor *d,
                    int depth)
{
    if (depth > TYPE_MAX_DEPTH)
        return 0;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    nnav_wire_init(&r, base, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(d, f.num);
        if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE && f.wt == NNAV_WT_LEN &&
            !depth_ok(base, f.s, fd->descriptor, depth + 1))
            return 0;
    }
    return k == 0;
}

static void shape_fmt(nnav_sbuf *b, const Onnx__TensorShapeProto *sh)
{
    if (!sh) {
        nnav_sb_put(b, "[...]");
        return;
    }
    nnav_sb_put(b, "[");
    for (size_t i = 0; i < sh->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
        if (i)
            nnav_sb_put(b, ",");
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            nnav_sb_printf(b, "%lld", (long long)d->dim_value);
        else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                 d->dim_param)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)d->dim_param, strlen(d->dim_param)});
        else
            nnav_sb_put(b, "?");
    }
    nnav_sb_put(b, "]");
}

static void type_fmt(nnav_sbuf *b, const Onnx__TypeProto *t, int depth)
{
    if (!t || depth > TYPE_MAX_DEPTH) {
        nnav_sb_put(b, "?");
        return;
    }
    switch (t->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
        nnav_sb_put(b, nnav_dtype_name(t->tensor_type->has_elem_type ? t->tensor_type->elem_type : 0));
        shape_fmt(b, t->tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
        nnav_sb_put(b, "sparse ");
        nnav_sb_put(b, nnav_dtype_name(t->sparse_tensor_type->has_elem_type
                                      ? t->sparse_tensor_type->elem_type : 0));
        shape_fmt(b, t->sparse_tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
        nnav_sb_put(b, "seq(");
        type_fmt(b, t->sequence_type->elem_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
        nnav_sb_put(b, "optional(");
        type_fmt(b, t->optional_type->elem_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
        nnav_sb_put(b, "map(");
        nnav_sb_put(b, nnav_dtype_name(t->map_type->has_key_type ? t->map_type->key_type : 0));
        nnav_sb_put(b, ",");
        type_fmt(b, t->map_type->value_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPAQUE_TYPE:
        nnav_sb_put(b, "opaque(");
        if (t->opaque_type->domain)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)t->opaque_type->domain,
                                   strlen(t->opaque_type->domain)});
        nnav_sb_put(b, ":");
        if (t->opaque_type->name)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)t->opaque_type->name,
                                   strlen(t->opaque_type->name)});
        nnav_sb_put(b, ")");
        break;
    default:
        nnav_sb_put(b, "?");
    }
}

static void type_format_base(const uint8_t *base, nnav_span type, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    if (!type.p || n == 0)
        return;
    if (!depth_ok(base, type, &onnx__type_proto__descriptor, 0)) {
        nnav_sb_put(&b, "(malformed or too deeply nested type)");
        return;
    }
    Onnx__TypeProto *t = onnx__type_proto__unpack(NULL, (size_t)type.n, type.p);
    if (!t) {
        nnav_sb_put(&b, "(malformed type)");
        return;
    }
    type_fmt(&b, t, 0);
    onnx__type_proto__free_unpacked(t, NULL);
}

void nnav_type_format(nnav_span type, char *buf, size_t n)
{
    type_format_base(type.p, type, buf, n);
}

void nnav_tensor_shape_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    nnav_sb_put(&b, nnav_dtype_name(tt->dtype));
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
        nnav_type_format(m->vinfos.v[val->vinfo].type, buf, n);
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
    if (m->tf && tt->storage != NNAV_STORE_EXTERNAL) {
        nnav_tf_tensor_storage_format(m, t, buf, n);
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

void nnav_attr_format(const nnav_model *m, uint32_t a, size_t max_items, char *buf, size_t n)
{
    if (m->tf) {
        nnav_tf_attr_format(m, a, max_items, buf, n);
        return;
    }
    const nnav_attr *at = &m->attrs.v[a];
    nnav_sbuf b = {buf, n, 0};
    nnav_error err;
    char num[64];
    buf[0] = 0;
    if (at->ref_attr_name.n) {
        nnav_sb_put(&b, "-> caller's ");
        nnav_sb_span(&b, at->ref_attr_name);
        return;
    }
    switch (at->type) {
    case NNAV_ATTR_FLOAT: {
        double v;
        if (nnav_attr_float(m, a, &v, &err) == 0) {
            nnav_fmt_double(num, sizeof num, v, 1);
            nnav_sb_put(&b, num);
        }
        break;
    }
    case NNAV_ATTR_INT: {
        int64_t v;
        if (nnav_attr_int(m, a, &v, &err) == 0)
            nnav_sb_printf(&b, "%lld", (long long)v);
        break;
    }
    case NNAV_ATTR_STRING: {
        nnav_span s;
        if (nnav_attr_string(m, a, &s, &err) == 0) {
            nnav_sb_put(&b, "\"");
            nnav_sb_span(&b, s);
            nnav_sb_put(&b, "\"");
        }
        break;
    }
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_STRINGS: {
        size_t cap = max_items ? max_items : 1, total = 0;
        int64_t *iv = calloc(cap, sizeof *iv);
        double *dv = calloc(cap, sizeof *dv);
        nnav_span *sv = calloc(cap, sizeof *sv);
        int r = -1;
        if (iv && dv && sv)
            r = at->type == NNAV_ATTR_INTS     ? nnav_attr_ints(m, a, iv, cap, &total, &err)
                : at->type == NNAV_ATTR_FLOATS ? nnav_attr_floats(m, a, dv, cap, &total, &err)
                                               : nnav_attr_strings(m, a, sv, cap, &total, &err);
        if (r == 0) {
            nnav_sb_put(&b, "[");
            for (size_t i = 0; i < total && i < cap; i++) {
                if (i)
                    nnav_sb_put(&b, ", ");
                if (at->type == NNAV_ATTR_INTS) {
                    nnav_sb_printf(&b, "%lld", (long long)iv[i]);
                } else if (at->type == NNAV_ATTR_FLOATS) {
                    nnav_fmt_double(num, sizeof num, dv[i], 1);
                    nnav_sb_put(&b, num);
                } else {
                    nnav_sb_put(&b, "\"");
                    nnav_sb_span(&b, sv[i]);
                    nnav_sb_put(&b, "\"");
                }
            }
            if (total > cap)
                nnav_sb_printf(&b, ", ... (%zu in all)", total);
            nnav_sb_put(&b, "]");
        } else {
            nnav_sb_put(&b, "(malformed list)");
        }
        free(iv);
        free(dv);
        free(sv);
        break;
    }
    case NNAV_ATTR_TENSOR: case NNAV_ATTR_TENSORS:
        for (uint32_t i = 0; i < at->tensor_count; i++) {
            char sh[256];
            if (i)
                nnav_sb_put(&b, ", ");
            if (i >= max_items && max_items) {
                nnav_sb_printf(&b, "... (%u in all)", at->tensor_count);
                break;
            }
            nnav_tensor_shape_format(m, at->tensor_first + i, sh, sizeof sh);
            nnav_sb_put(&b, sh);
            /* First values: a constant's few numbers are what users look for. */
            double v[4];
            int64_t iv[4];
            nnav_span sv[4];
            nnav_values vals = {.v = v, .i = iv, .s = sv};
            if (nnav_tensor_values(m, at->tensor_first + i, 4, 0, &vals, &err) == 0 &&
                vals.count) {
                int is_str = m->tensors.v[at->tensor_first + i].dtype == NNAV_DT_STRING;
                nnav_sb_put(&b, " {");
                for (size_t j = 0; j < vals.count; j++) {
                    nnav_sb_put(&b, j ? ", " : "");
                    if (is_str) {
                        nnav_sb_put(&b, "\"");
                        nnav_sb_span(&b, sv[j]);
                        nnav_sb_put(&b, "\"");
                        continue;
                    }
                    nnav_values_format(&vals, 0, j, num, sizeof num);
                    nnav_sb_put(&b, num);
                }
                nnav_sb_put(&b, vals.total > vals.count ? ", ...}" : "}");
            }
        }
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
                type_format_base(m->map.base, ts[i], t, sizeof t);
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

typedef struct acc {
    nnav_values *out;
    size_t want;
    int stats;
    uint64_t limit; /* components dims x dtype call for: stored extras are not values */
    uint64_t seen;
    double sum;
    uint64_t finite;
    __int128 isum;  /* integer types: the exact sum, for the mean */
} acc;

static void acc_put(acc *a, double v)
{
    if (a->seen >= a->limit)
        return;
    if (a->out->count < a->want && a->out->v)
        a->out->v[a->out->count++] = v;
    a->seen++;
    if (!a->stats)
        return;
    if (isnan(v)) {
        a->out->nan_count++;
        return;
    }
    if (a->finite == 0 || v < a->out->min)
        a->out->min = v;
    if (a->finite == 0 || v > a->out->max)
        a->out->max = v;
    a->sum += v;
    a->finite++;
}

/* An element of an integer type, exactly: the bits of a uint64 when
 * out->is_unsigned, else the number. v and min/max get it as a double too. */
static void acc_put_int(acc *a, int64_t v)
{
    nnav_values *o = a->out;
    int u = o->is_unsigned;
    double d = u ? (double)(uint64_t)v : (double)v;
    if (a->seen >= a->limit)
        return;
    if (o->count < a->want) {
        if (o->i)
            o->i[o->count] = v;
        if (o->v)
            o->v[o->count] = d;
        o->count++;
    }
    a->seen++;
    if (!a->stats)
        return;
    if (a->finite == 0 || (u ? (uint64_t)v < (uint64_t)o->imin : v < o->imin))
        o->imin = v, o->min = d;
    if (a->finite == 0 || (u ? (uint64_t)v > (uint64_t)o->imax : v > o->imax))
        o->imax = v, o->max = d;
    a->isum += u ? (__int128)(uint64_t)v : (__int128)v;
    a->finite++;
}

static int dtype_is_int(int32_t dt)
{
    switch (dt) {
    case NNAV_DT_UINT8: case NNAV_DT_INT8: case NNAV_DT_UINT16: case NNAV_DT_INT16:
    case NNAV_DT_INT32: case NNAV_DT_INT64: case NNAV_DT_BOOL: case NNAV_DT_UINT32:
    case NNAV_DT_UINT64: case NNAV_DT_UINT4: case NNAV_DT_INT4: case NNAV_DT_UINT2:
    case NNAV_DT_INT2:
        return 1;
    }
    return 0;
}

/* A value decoded as a double: exact for every integer type narrower than
 * 64 bits, so it goes to the integer side as it is. */
static void acc_put_num(acc *a, double v)
{
    if (a->out->is_int && !isnan(v))
        acc_put_int(a, (int64_t)v);
    else
        acc_put(a, v);
}

static int acc_done(const acc *a)
{
    return a->seen >= a->limit || (!a->stats && a->out->count >= a->want);
}

typedef struct typed_ctx {
    acc *a;
    int32_t dtype;
    uint8_t field;
} typed_ctx;

static int typed_put(void *c, uint64_t v)
{
    typed_ctx *t = c;
    if (acc_done(t->a))
        return 1;
    if (t->field == 5) { /* int32_data: sub-byte types pack several per entry */
        unsigned per = nnav_dtype_per_word(t->dtype);
        for (unsigned i = 0; i < per && !acc_done(t->a); i++)
            acc_put_num(t->a, nnav_dtype_from_int32_word(t->dtype, v, i));
        return 0;
    }
    if (t->a->out->is_int && (t->field == 7 || t->field == 11)) {
        /* int64_data, uint64_data: exact, never through a double. A uint32
         * entry is cut to 32 bits, as int32_data's are to their type (numpy's
         * astype does the same). */
        acc_put_int(t->a, t->field == 11 && t->dtype == NNAV_DT_UINT32 ? (int64_t)(uint32_t)v
                                                                        : (int64_t)v);
        return 0;
    }
    double d;
    if (t->field == 4) {
        float f;
        uint32_t b = (uint32_t)v;
        memcpy(&f, &b, 4);
        d = f;
    } else if (t->field == 10) {
        memcpy(&d, &v, 8);
    } else if (t->field == 7) {
        d = (double)(int64_t)v;
    } else {
        /* uint64_data: a uint32 tensor's entry is cut to 32 bits, as
         * int32_data's are to their type (numpy's astype does the same). */
        d = t->dtype == NNAV_DT_UINT32 ? (double)(uint32_t)v : (double)v;
    }
    acc_put(t->a, d);
    return 0;
}

static int values_typed(const nnav_model *m, const nnav_tensor *t, acc *a, nnav_error *err)
{
    nnav_wire r;
    nnav_field f;
    int k;
    typed_ctx tc = {a, t->dtype, t->typed_field};
    uint8_t ewt = t->typed_field == 4 ? NNAV_WT_I32
                  : t->typed_field == 10 ? NNAV_WT_I64 : NNAV_WT_VARINT;
    nnav_wire_init(&r, m->map.base, t->msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num != t->typed_field)
            continue;
        if (t->typed_field == 6) {
            if (a->seen >= a->limit)
                break;
            if (a->out->s && a->out->count < a->want)
                a->out->s[a->out->count] = f.s;
            if (a->out->count < a->want)
                a->out->count++;
            a->seen++;
            continue;
        }
        int rc = nnav_wire_scalars(&f, ewt, typed_put, &tc, err, m->map.base);
        if (rc < 0 && err->msg[0])
            return -1;
        if (acc_done(a))
            break;
    }
    return k < 0 ? -1 : 0;
}

static const char *typed_field_name(uint8_t f)
{
    switch (f) {
    case 4: return "float_data";
    case 5: return "int32_data";
    case 6: return "string_data";
    case 7: return "int64_data";
    case 10: return "double_data";
    case 11: return "uint64_data";
    default: return "no data field";
    }
}

static const char *typed_field_holds(uint8_t f)
{
    switch (f) {
    case 4: return "float32 and complex64";
    case 5: return "int32 and the narrower types";
    case 6: return "strings";
    case 7: return "int64";
    case 10: return "float64 and complex128";
    case 11: return "uint32 and uint64";
    default: return "nothing";
    }
}

static int values_raw(const nnav_tensor *t, nnav_span data, acc *a, nnav_error *err)
{
    unsigned comps = nnav_dtype_components(t->dtype);
    uint64_t n = t->nelems == UINT64_MAX ? 0 : t->nelems * comps;
    int wide = t->dtype == NNAV_DT_INT64 || t->dtype == NNAV_DT_UINT64;
    for (uint64_t i = 0; i < n && !acc_done(a); i++) {
        if (wide) { /* 64-bit integers exactly, never through a double */
            if (i >= data.n / 8)
                break;
            uint64_t u = 0;
            for (unsigned k = 8; k-- > 0;)
                u = u << 8 | data.p[i * 8 + k];
            acc_put_int(a, (int64_t)u);
            continue;
        }
        double v;
        if (nnav_dtype_decode_raw(t->dtype, data.p, data.n, i, &v) != 0)
            break; /* stored bytes end early: the size warning already says so */
        acc_put_num(a, v);
    }
    return 0;
}

static int values_of(const nnav_model *m, uint32_t t, const nnav_tensor *tt, size_t want,
                     int stats, nnav_values *out, nnav_error *err);

int nnav_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                       nnav_values *out, nnav_error *err)
{
    if (m->tf) {
        /* TensorFlow's decoder gives int64 and uint64 exactly (is_int set);
         * its narrower integer types come as doubles, exact in one, and are
         * given as integers from them. */
        out->is_int = out->is_unsigned = 0;
        int rc = nnav_tf_tensor_values(m, t, want, stats, out, err);
        int32_t dt = m->tensors.v[t].dtype;
        if (rc == 0 && !out->is_int && (dtype_is_int(dt) || dt == NNAV_DT_TF_QINT8 || dt == NNAV_DT_TF_QUINT8 ||
                        dt == NNAV_DT_TF_QINT16 || dt == NNAV_DT_TF_QUINT16 ||
                        dt == NNAV_DT_TF_QINT32 || dt == NNAV_DT_TF_INT4 ||
                        dt == NNAV_DT_TF_UINT4 || dt == NNAV_DT_TF_INT2 || dt == NNAV_DT_TF_UINT2)) {
            const double lim = 9223372036854775808.0;
            int ok = !(out->has_stats && !(out->min >= -lim && out->max < lim));
            for (size_t j = 0; ok && out->v && j < out->count; j++)
                ok = out->v[j] >= -lim && out->v[j] < lim;
            if (ok && out->v) {
                out->is_int = 1;
                for (size_t j = 0; out->i && j < out->count; j++)
                    out->i[j] = (int64_t)out->v[j];
                out->imin = out->has_stats ? (int64_t)out->min : 0;
                out->imax = out->has_stats ? (int64_t)out->max : 0;
            }
        }
        return rc;
    }
    return values_of(m, t, &m->tensors.v[t], want, stats, out, err);
}

/* The values of tensor tt: t is its id, or NNAV_NONE for one that is not in
 * the index (inside a sparse attribute), whose external data is not read. */
static int values_of(const nnav_model *m, uint32_t t, const nnav_tensor *tt, size_t want,
                     int stats, nnav_values *out, nnav_error *err)
{
    memset(err, 0, sizeof *err);
    out->count = 0;
    out->has_stats = 0;
    out->min = out->max = out->mean = 0;
    out->nan_count = 0;
    out->total = tt->nelems == UINT64_MAX ? 0 : tt->nelems;
    out->is_int = dtype_is_int(tt->dtype);
    out->is_unsigned = tt->dtype == NNAV_DT_UINT64;
    out->imin = out->imax = 0;
    if (!nnav_dtype_valid(tt->dtype)) {
        nnav_err_set(err, (uint64_t)(tt->msg.p - m->map.base), 1,
                     "tensor has unknown data_type %d", tt->dtype);
        return -1;
    }
    if (tt->storage == NNAV_STORE_TYPED && (tt->warn & NNAV_TW_WRONG_FIELD)) {
        /* Taken as they are, a double_data NaN would pass for an int64 value
         * (and become undefined behaviour wherever it is cast to one). */
        int want_field = nnav_dtype_typed_field(tt->dtype);
        nnav_err_set(err, (uint64_t)(tt->msg.p - m->map.base), 1,
                     "%s tensor with its data in %s (the field for %s), not in %s: its values "
                     "are not read",
                     nnav_dtype_name(tt->dtype), typed_field_name(tt->typed_field),
                     typed_field_holds(tt->typed_field), typed_field_name((uint8_t)want_field));
        return -1;
    }
    acc a = {out, want, stats && tt->dtype != NNAV_DT_STRING,
             tt->nelems == UINT64_MAX ? 0 : tt->nelems * nnav_dtype_components(tt->dtype), 0, 0, 0,
             0};
    int rc = 0;
    if (tt->storage == NNAV_STORE_RAW) {
        rc = values_raw(tt, tt->data, &a, err);
    } else if (tt->storage == NNAV_STORE_TYPED) {
        rc = values_typed(m, tt, &a, err);
    } else if (tt->storage == NNAV_STORE_EXTERNAL) {
        nnav_span data;
        void *cookie;
        if (t == NNAV_NONE) {
            nnav_err_set(err, (uint64_t)(tt->msg.p - m->map.base), 1,
                         "external data inside an attribute is not read");
            return -1;
        }
        if (nnav_tensor_bytes(m, t, &data, &cookie, err) < 0)
            return -1;
        rc = values_raw(tt, data, &a, err);
        if (rc == 0 && nnav_ext_shrank(cookie, err))
            rc = -1;
        nnav_tensor_bytes_release(cookie);
    }
    if (rc < 0)
        return -1;
    if (nnav_map_truncated(&m->map)) {
        nnav_err_set(err, 0, 0, "the model file shrank while its values were read");
        return -1;
    }
    if (a.stats) {
        out->has_stats = a.finite > 0;
        out->mean = a.finite ? a.sum / (double)a.finite : 0;
        if (out->is_int && a.finite) /* the exact sum, rounded once more */
            out->mean = (double)((long double)a.isum / (long double)a.finite);
    }
    return 0;
}

/* ---- tensors the index does not hold (inside sparse attributes) ---- */

typedef struct dims_fill {
    int64_t *dims;
    size_t max, n;
} dims_fill;

static int dims_put(void *c, uint64_t v)
{
    dims_fill *d = c;
    if (d->n < d->max)
        d->dims[d->n] = (int64_t)v;
    d->n++;
    return 0;
}

int nnav_tensorproto_values(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
                            size_t max, size_t *ndims, size_t want, nnav_values *out,
                            nnav_error *err)
{
    nnav_tensor tt;
    nnav_wire r;
    nnav_field f;
    int k;
    dims_fill df = {dims, max, 0};
    memset(&tt, 0, sizeof tt);
    memset(err, 0, sizeof *err);
    tt.msg = msg;
    nnav_wire_init(&r, m->map.base, msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num == 1 && nnav_wire_scalars(&f, NNAV_WT_VARINT, dims_put, &df, err, m->map.base) < 0)
            return -1;
        if (f.num == 2 && f.wt == NNAV_WT_VARINT)
            tt.dtype = (int32_t)f.v;
        else if (f.num == 9 && f.wt == NNAV_WT_LEN)
            tt.storage = NNAV_STORE_RAW, tt.data = f.s;
        else if (f.num == 14 && f.wt == NNAV_WT_VARINT && f.v == 1)
            tt.storage = NNAV_STORE_EXTERNAL;
        else if ((f.num == 4 || f.num == 5 || f.num == 6 || f.num == 7 || f.num == 10 ||
                  f.num == 11) && !tt.storage)
            tt.storage = NNAV_STORE_TYPED, tt.typed_field = (uint8_t)f.num;
    }
    if (k < 0)
        return -1;
    *dtype = tt.dtype;
    *ndims = df.n;
    uint64_t ne = 1;
    for (size_t i = 0; i < df.n && i < max; i++)
        if (dims[i] < 0 || __builtin_mul_overflow(ne, (uint64_t)dims[i], &ne)) {
            ne = UINT64_MAX;
            break;
        }
    tt.nelems = df.n > max ? UINT64_MAX : ne;
    if (tt.storage == NNAV_STORE_TYPED && tt.typed_field != nnav_dtype_typed_field(tt.dtype))
        tt.warn |= NNAV_TW_WRONG_FIELD;
    if (tt.nelems == UINT64_MAX) {
        nnav_err_set(err, (uint64_t)(msg.p - m->map.base), 1, "tensor has negative or overflowing dims");
        return -1;
    }
    return values_of(m, NNAV_NONE, &tt, want, 0, out, err);
}

int nnav_attr_sparse(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                     size_t *ndims, nnav_span *values, nnav_span *indices, size_t *total,
                     nnav_error *err)
{
    nnav_span sp[1] = {{0}};
    nnav_list_fill l = {NULL, NULL, sp, 1, 0, 0};
    size_t seen = 0;
    nnav_wire r;
    nnav_field f;
    int rc;
    *ndims = 0;
    values->p = indices->p = NULL;
    values->n = indices->n = 0;
    *total = 0;
    if (m->tf)
        return 0;
    /* The k-th of field 22 (sparse_tensor) or 23 (sparse_tensors). */
    int num = m->attrs.v[a].type == NNAV_ATTR_SPARSE_TENSOR ? 22 : 23;
    nnav_wire_init(&r, m->map.base, m->attrs.v[a].msg);
    while ((rc = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num != (uint32_t)num)
            continue;
        if (span_field(&l, &f, m->map.base, err) < 0)
            return -1;
        if (seen++ == k)
            sp[0] = f.s;
    }
    if (rc < 0)
        return -1;
    *total = seen;
    if (k >= seen)
        return 0;
    dims_fill df = {dims, max, 0};
    nnav_wire_init(&r, m->map.base, sp[0]);
    while ((rc = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num == 1 && f.wt == NNAV_WT_LEN)
            *values = f.s;
        else if (f.num == 2 && f.wt == NNAV_WT_LEN)
            *indices = f.s;
        else if (f.num == 3 &&
                 nnav_wire_scalars(&f, NNAV_WT_VARINT, dims_put, &df, err, m->map.base) < 0)
            return -1;
    }
    *ndims = df.n;
    return rc < 0 ? -1 : 0;
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
    if (tt->storage == NNAV_STORE_TYPED && (m->tf || !(tt->warn & NNAV_TW_SIZE_MISMATCH)))
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
    return x->fn(x->ctx, x->dtype == NNAV_DT_INT32 ? (int64_t)(int32_t)(uint32_t)v : (int64_t)v);
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
    if (tt->storage != NNAV_STORE_TYPED)
        return 0;
    if (tt->warn & NNAV_TW_WRONG_FIELD) {
        nnav_err_set(err, 0, 0, "they are in %s, not in %s", typed_field_name(tt->typed_field),
                     typed_field_name((uint8_t)nnav_dtype_typed_field(tt->dtype)));
        return -1;
    }
    nnav_wire r;
    nnav_field f;
    int k = 0;
    nnav_wire_init(&r, m->map.base, tt->msg);
    while (x.left && (k = nnav_wire_next(&r, &f, err)) == 1)
        if (f.num == tt->typed_field &&
            nnav_wire_scalars(&f, NNAV_WT_VARINT, ints_put, &x, err, m->map.base) < 0 &&
            err->msg[0])
            return -1;
    return x.left && k < 0 ? -1 : 0;
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

/* ---- structured types ---- */

int nnav_type_tensor(nnav_span type, int32_t *elem_type, int *has_shape, size_t *rank,
                     int64_t *dims, nnav_span *params, size_t max)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    nnav_span tt = {0}, shape = {0};
    *elem_type = 0;
    *has_shape = 0;
    *rank = 0;
    if (!type.p)
        return 0;
    nnav_wire_init(&r, type.p, type);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1)
        if ((f.num == 1 || f.num == 8) && f.wt == NNAV_WT_LEN)
            tt = f.s;
        else if ((f.num == 4 || f.num == 5 || f.num == 7 || f.num == 9) && !tt.p)
            return 0;
    if (k < 0)
        return -1;
    if (!tt.p)
        return 0;
    nnav_wire_init(&r, type.p, tt);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num == 1 && f.wt == NNAV_WT_VARINT)
            *elem_type = (int32_t)f.v;
        else if (f.num == 2 && f.wt == NNAV_WT_LEN)
            shape = f.s, *has_shape = 1;
    }
    if (k < 0)
        return -1;
    if (!shape.p)
        return 1;
    nnav_wire_init(&r, type.p, shape);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num != 1 || f.wt != NNAV_WT_LEN)
            continue;
        nnav_wire d;
        nnav_field g;
        int64_t v = -1;
        nnav_span pm = {0};
        nnav_wire_init(&d, type.p, f.s);
        while ((k = nnav_wire_next(&d, &g, &e)) == 1) {
            if (g.num == 1 && g.wt == NNAV_WT_VARINT)
                v = (int64_t)g.v, pm = (nnav_span){0};
            else if (g.num == 2 && g.wt == NNAV_WT_LEN)
                pm = g.s, v = -1;
        }
        if (k < 0)
            return -1;
        if (*rank < max) {
            dims[*rank] = v;
            if (params)
                params[*rank] = pm;
        }
        (*rank)++;
    }
    return k < 0 ? -1 : 1;
}

nnav_span nnav_node_device(const nnav_model *m, uint32_t node)
{
    nnav_span dev = {0};
    if (m->facts.format == NNAV_FMT_ONNX)
        return dev;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_wire_init(&r, m->map.base, m->nodes.v[node].msg);
    while (nnav_wire_next(&r, &f, &e) == 1)
        if (f.num == 4 && f.wt == NNAV_WT_LEN) /* NodeDef.device */
            dev = f.s;
    return dev;
}
