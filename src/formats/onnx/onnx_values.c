/* onnx_values.c - ONNX attributes and tensor values, decoded on demand
 * behind the reader interface (reader.h): AttributeProto and TensorProto
 * fields walked again from the map with the bounds-checked wire reader.
 * Nothing here runs at open. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "extdata.h"
#include "onnx_fields.h"
#include "onnx_reader.h"
#include "values_acc.h"
#include "walk.h"
#include "wire.h"

/* ---- attributes ---- */

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

/* AttributeProto's field for each kind. */
int nnav_onnx_attr_list(const nnav_model *m, uint32_t a, int kind, int64_t *ints, double *dbls,
                        nnav_span *spans, size_t max, size_t *total, nnav_error *err)
{
    nnav_list_fill l = {ints, dbls, spans, max, 0, kind == NNAV_AK_FLOAT};
    int r = kind == NNAV_AK_STRING ? attr_walk(m, a, NNAV_ONNX_ATTRIBUTEPROTO_STRINGS, span_field, &l, err)
                                   : attr_walk(m, a,
                                               kind == NNAV_AK_FLOAT
                                                   ? NNAV_ONNX_ATTRIBUTEPROTO_FLOATS
                                                   : NNAV_ONNX_ATTRIBUTEPROTO_INTS,
                                               list_field, &l, err);
    *total = l.total;
    return r < 0 ? -1 : 0;
}

int nnav_onnx_attr_types(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                         size_t *total, nnav_error *err)
{
    nnav_list_fill l = {NULL, NULL, buf, max, 0, 0};
    int r = attr_walk(m, a, m->attrs.v[a].type == NNAV_ATTR_TYPE_PROTO
                          ? NNAV_ONNX_ATTRIBUTEPROTO_TP
                          : NNAV_ONNX_ATTRIBUTEPROTO_TYPE_PROTOS, span_field,
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

int nnav_onnx_attr_scalar(const nnav_model *m, uint32_t a, int kind, nnav_field *out,
                          nnav_error *err)
{
    scalar_ctx s = {.found = 0};
    uint32_t num = kind == NNAV_AK_FLOAT ? NNAV_ONNX_ATTRIBUTEPROTO_F
                   : kind == NNAV_AK_INT ? NNAV_ONNX_ATTRIBUTEPROTO_I
                                         : NNAV_ONNX_ATTRIBUTEPROTO_S;
    if (attr_walk(m, a, num, scalar_field, &s, err) < 0)
        return -1;
    if (!s.found)
        memset(out, 0, sizeof *out);
    else
        *out = s.f;
    return 0;
}

int nnav_onnx_attr_sparse(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                           size_t *ndims, nnav_span *values, nnav_span *indices,
                           size_t *total, nnav_error *err)
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
    /* The k-th sparse_tensor or sparse_tensors. */
    int num = m->attrs.v[a].type == NNAV_ATTR_SPARSE_TENSOR ? NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSOR
                                                           : NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSORS;
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
        if (f.num == NNAV_ONNX_SPARSETENSORPROTO_VALUES && f.wt == NNAV_WT_LEN)
            *values = f.s;
        else if (f.num == NNAV_ONNX_SPARSETENSORPROTO_INDICES && f.wt == NNAV_WT_LEN)
            *indices = f.s;
        else if (f.num == NNAV_ONNX_SPARSETENSORPROTO_DIMS &&
                 nnav_wire_scalars(&f, NNAV_WT_VARINT, dims_put, &df, err, m->map.base) < 0)
            return -1;
    }
    *ndims = df.n;
    return rc < 0 ? -1 : 0;
}


/* ---- tensor values ---- */

typedef struct typed_ctx {
    nnav_acc *a;
    int32_t dtype;
    uint8_t field;
} typed_ctx;

static int typed_put(void *c, uint64_t v)
{
    typed_ctx *t = c;
    if (nnav_acc_done(t->a))
        return 1;
    if (t->field == NNAV_ONNX_TENSORPROTO_INT32_DATA) { /* sub-byte types pack several per entry */
        unsigned per = nnav_dtype_per_word(t->dtype);
        for (unsigned i = 0; i < per && !nnav_acc_done(t->a); i++)
            nnav_acc_put_num(t->a, nnav_dtype_from_int32_word(t->dtype, v, i));
        return 0;
    }
    if (t->a->out->is_int && (t->field == NNAV_ONNX_TENSORPROTO_INT64_DATA ||
                              t->field == NNAV_ONNX_TENSORPROTO_UINT64_DATA)) {
        /* int64_data, uint64_data: exact, never through a double. A uint32
         * entry is cut to 32 bits, as int32_data's are to their type (numpy's
         * astype does the same). */
        nnav_acc_put_int(t->a, t->field == NNAV_ONNX_TENSORPROTO_UINT64_DATA && t->dtype == NNAV_DT_UINT32
                                   ? (int64_t)(uint32_t)v
                                                                        : (int64_t)v);
        return 0;
    }
    double d;
    if (t->field == NNAV_ONNX_TENSORPROTO_FLOAT_DATA) {
        float f;
        uint32_t b = (uint32_t)v;
        memcpy(&f, &b, 4);
        d = f;
    } else if (t->field == NNAV_ONNX_TENSORPROTO_DOUBLE_DATA) {
        memcpy(&d, &v, 8);
    } else if (t->field == NNAV_ONNX_TENSORPROTO_INT64_DATA) {
        d = (double)(int64_t)v;
    } else {
        /* uint64_data: a uint32 tensor's entry is cut to 32 bits, as
         * int32_data's are to their type (numpy's astype does the same). */
        d = t->dtype == NNAV_DT_UINT32 ? (double)(uint32_t)v : (double)v;
    }
    nnav_acc_put(t->a, d);
    return 0;
}

static int values_typed(const nnav_model *m, const nnav_tensor *t, nnav_acc *a, nnav_error *err)
{
    nnav_wire r;
    nnav_field f;
    int k;
    typed_ctx tc = {a, t->dtype, t->typed_field};
    uint8_t ewt = t->typed_field == NNAV_ONNX_TENSORPROTO_FLOAT_DATA    ? NNAV_WT_I32
                  : t->typed_field == NNAV_ONNX_TENSORPROTO_DOUBLE_DATA ? NNAV_WT_I64
                                                                        : NNAV_WT_VARINT;
    nnav_wire_init(&r, m->map.base, t->msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num != t->typed_field)
            continue;
        if (t->typed_field == NNAV_ONNX_TENSORPROTO_STRING_DATA) {
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
        if (nnav_acc_done(a))
            break;
    }
    return k < 0 ? -1 : 0;
}

static const char *typed_field_name(uint8_t f)
{
    switch (f) {
    case NNAV_ONNX_TENSORPROTO_FLOAT_DATA: return "float_data";
    case NNAV_ONNX_TENSORPROTO_INT32_DATA: return "int32_data";
    case NNAV_ONNX_TENSORPROTO_STRING_DATA: return "string_data";
    case NNAV_ONNX_TENSORPROTO_INT64_DATA: return "int64_data";
    case NNAV_ONNX_TENSORPROTO_DOUBLE_DATA: return "double_data";
    case NNAV_ONNX_TENSORPROTO_UINT64_DATA: return "uint64_data";
    default: return "no data field";
    }
}

static const char *typed_field_holds(uint8_t f)
{
    switch (f) {
    case NNAV_ONNX_TENSORPROTO_FLOAT_DATA: return "float32 and complex64";
    case NNAV_ONNX_TENSORPROTO_INT32_DATA: return "int32 and the narrower types";
    case NNAV_ONNX_TENSORPROTO_STRING_DATA: return "strings";
    case NNAV_ONNX_TENSORPROTO_INT64_DATA: return "int64";
    case NNAV_ONNX_TENSORPROTO_DOUBLE_DATA: return "float64 and complex128";
    case NNAV_ONNX_TENSORPROTO_UINT64_DATA: return "uint32 and uint64";
    default: return "nothing";
    }
}

/* The values of tensor tt: t is its id, or NNAV_NONE for one that is not in
 * the index (inside a sparse attribute), whose external data is not read. */
static int values_of(const nnav_model *m, uint32_t t, const nnav_tensor *tt, size_t want,
                     int stats, nnav_values *out, nnav_error *err)
{
    nnav_acc a;
    memset(err, 0, sizeof *err);
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats,
                  nnav_dtype_components(tt->dtype));
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
    int rc = 0;
    if (tt->storage == NNAV_STORE_RAW) {
        rc = nnav_acc_raw(tt, tt->data, &a);
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
        rc = nnav_acc_raw(tt, data, &a);
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
    nnav_acc_end(&a);
    return 0;
}

int nnav_onnx_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                            nnav_values *out, nnav_error *err)
{
    return values_of(m, t, &m->tensors.v[t], want, stats, out, err);
}

/* ---- tensors the index does not hold (inside sparse attributes) ---- */

int nnav_onnx_part_values(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
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
        if (f.num == NNAV_ONNX_TENSORPROTO_DIMS &&
            nnav_wire_scalars(&f, NNAV_WT_VARINT, dims_put, &df, err, m->map.base) < 0)
            return -1;
        if (f.num == NNAV_ONNX_TENSORPROTO_DATA_TYPE && f.wt == NNAV_WT_VARINT)
            tt.dtype = (int32_t)f.v;
        else if (f.num == NNAV_ONNX_TENSORPROTO_RAW_DATA && f.wt == NNAV_WT_LEN)
            tt.storage = NNAV_STORE_RAW, tt.data = f.s;
        else if (f.num == NNAV_ONNX_TENSORPROTO_DATA_LOCATION && f.wt == NNAV_WT_VARINT &&
                 f.v == 1 /* EXTERNAL */)
            tt.storage = NNAV_STORE_EXTERNAL;
        else if ((f.num == NNAV_ONNX_TENSORPROTO_FLOAT_DATA ||
                  f.num == NNAV_ONNX_TENSORPROTO_INT32_DATA ||
                  f.num == NNAV_ONNX_TENSORPROTO_STRING_DATA ||
                  f.num == NNAV_ONNX_TENSORPROTO_INT64_DATA ||
                  f.num == NNAV_ONNX_TENSORPROTO_DOUBLE_DATA ||
                  f.num == NNAV_ONNX_TENSORPROTO_UINT64_DATA) && !tt.storage)
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

/* ---- the elements of an integer tensor in typed fields ---- */

typedef struct ints_stop {
    int (*fn)(void *ctx, uint64_t v);
    void *ctx;
    int stopped;
} ints_stop;

static int ints_step(void *c, uint64_t v)
{
    ints_stop *s = c;
    if (s->stopped)
        return 1;
    if (s->fn(s->ctx, v))
        s->stopped = 1;
    return s->stopped;
}

int nnav_onnx_typed_ints(const nnav_model *m, uint32_t t, int (*fn)(void *ctx, uint64_t v),
                         void *ctx, nnav_error *err)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    if (tt->warn & NNAV_TW_WRONG_FIELD) {
        nnav_err_set(err, 0, 0, "they are in %s, not in %s", typed_field_name(tt->typed_field),
                     typed_field_name((uint8_t)nnav_dtype_typed_field(tt->dtype)));
        return -1;
    }
    ints_stop st = {fn, ctx, 0};
    nnav_wire r;
    nnav_field f;
    int k = 0;
    nnav_wire_init(&r, m->map.base, tt->msg);
    while (!st.stopped && (k = nnav_wire_next(&r, &f, err)) == 1)
        if (f.num == tt->typed_field &&
            nnav_wire_scalars(&f, NNAV_WT_VARINT, ints_step, &st, err, m->map.base) < 0 &&
            err->msg[0])
            return -1;
    return !st.stopped && k < 0 ? -1 : 0;
}
