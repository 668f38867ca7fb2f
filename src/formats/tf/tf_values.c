/* tf_values.c - TensorFlow attrs and tensor values, decoded on demand.
 *
 * values.c hands TensorFlow models over to these functions. Nothing here runs
 * at open except the small attr readers the indexer uses to count outputs.
 * Each call re-walks one AttrValue or TensorProto from the map with the
 * bounds-checked wire reader. A TensorProto whose value list is shorter than
 * its element count repeats the last value (one value = a "splat"): the
 * repeats are accounted for arithmetically, never materialised, so a splat
 * of a billion elements costs the same as one of four. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dims.h"
#include "dtype.h"
#include "sbuf.h"
#include "tf.h"
#include "tf_fields.h"
#include "values_acc.h"
#include "walk.h"
#include "wire.h"
#include "tensorflow/tensor.pb-c.h"

/* ---- attrs ---- */

int nnav_tf_attr_scalar(const nnav_model *m, uint32_t a, int want, nnav_field *out,
                        nnav_error *err)
{
    nnav_wire r;
    nnav_field f;
    int k, found = 0;
    memset(err, 0, sizeof *err);
    nnav_wire_init(&r, m->map.base, m->attrs.v[a].msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1)
        if (f.num == (uint32_t)want) {
            *out = f; /* the last one written wins */
            found = 1;
        }
    if (k < 0)
        return -1;
    return found;
}


int nnav_tf_attr_list(const nnav_model *m, uint32_t a, int field, int64_t *ints, double *dbls,
                      nnav_span *spans, size_t max, size_t *total, nnav_error *err)
{
    nnav_list_fill l = {ints, dbls, spans, max, 0, field == TF_AV_F};
    int is_len = field == TF_AV_S || field == TF_AV_SHAPE || field == TF_AV_TENSOR ||
                 field == NNAV_TF_ATTRVALUE_LISTVALUE_FUNC;
    nnav_wire r, in;
    nnav_field f, g;
    int k;
    memset(err, 0, sizeof *err);
    *total = 0;
    nnav_wire_init(&r, m->map.base, m->attrs.v[a].msg);
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num != TF_AV_LIST || f.wt != NNAV_WT_LEN)
            continue;
        nnav_wire_init(&in, m->map.base, f.s);
        int kk;
        while ((kk = nnav_wire_next(&in, &g, err)) == 1) {
            if (g.num != (uint32_t)field)
                continue;
            if (is_len) {
                if (g.wt != NNAV_WT_LEN) {
                    nnav_err_set(err, g.off, 1, "list item has wire type %u, expected 2", g.wt);
                    return -1;
                }
                if (l.spans && l.total < l.max)
                    l.spans[l.total] = g.s;
                l.total++;
                continue;
            }
            if (nnav_wire_scalars(&g, field == TF_AV_F ? NNAV_WT_I32 : NNAV_WT_VARINT, nnav_list_put,
                                  &l, err, m->map.base) != 0)
                return -1;
        }
        if (kk < 0)
            return -1;
    }
    *total = l.total;
    return k < 0 ? -1 : 0;
}

/* The reader's attribute operations: AttrValue s 2, i 3, f 4; bool 5 and
 * type 6 read as ints, a type as an nnav element type. */
int nnav_tf_op_attr_scalar(const nnav_model *m, uint32_t a, int kind, nnav_field *out,
                           nnav_error *err)
{
    uint8_t t = m->attrs.v[a].type;
    int num = kind == NNAV_AK_FLOAT ? TF_AV_F
              : kind == NNAV_AK_INT ? (t == NNAV_ATTR_TF_BOOL ? TF_AV_B
                                       : t == NNAV_ATTR_TF_TYPE ? TF_AV_TYPE : TF_AV_I)
              : kind == NNAV_AK_MSG ? (t == NNAV_ATTR_TF_FUNC ? TF_AV_FUNC : TF_AV_SHAPE)
                                    : TF_AV_S;
    nnav_field f;
    int r = nnav_tf_attr_scalar(m, a, num, &f, err);
    if (r < 0)
        return -1;
    if (!r) {
        memset(out, 0, sizeof *out);
        return 0;
    }
    if (num == TF_AV_TYPE)
        f.v = (uint64_t)(int64_t)nnav_tf_dtype(f.v);
    *out = f;
    return 0;
}

/* Ints also serve list(bool) and list(type), types as nnav element types,
 * as the scalars do; NNAV_AK_MSG lists shapes or functions (NameAttrList). */
int nnav_tf_op_attr_list(const nnav_model *m, uint32_t a, int kind, int64_t *ints, double *dbls,
                         nnav_span *spans, size_t max, size_t *total, nnav_error *err)
{
    uint8_t t = m->attrs.v[a].type;
    int field = kind == NNAV_AK_FLOAT ? TF_AV_F : kind == NNAV_AK_STRING ? TF_AV_S
                : kind == NNAV_AK_MSG ? (t == NNAV_ATTR_TF_FUNCS ? NNAV_TF_ATTRVALUE_LISTVALUE_FUNC
                                                                 : TF_AV_SHAPE)
                : t == NNAV_ATTR_TF_BOOLS ? TF_AV_B : t == NNAV_ATTR_TF_TYPES ? TF_AV_TYPE
                                                                     : TF_AV_I;
    int r = nnav_tf_attr_list(m, a, field, ints, dbls, spans, max, total, err);
    if (r == 0 && field == TF_AV_TYPE)
        for (size_t i = 0; i < *total && i < max; i++)
            ints[i] = nnav_tf_dtype((uint64_t)ints[i]);
    return r;
}

/* NodeDef.device, the last one written. */
nnav_span nnav_tf_node_device(const nnav_model *m, uint32_t node)
{
    nnav_span dev = {0};
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_wire_init(&r, m->map.base, m->nodes.v[node].msg);
    while (nnav_wire_next(&r, &f, &e) == 1)
        if (f.num == NNAV_TF_NODEDEF_DEVICE && f.wt == NNAV_WT_LEN)
            dev = f.s;
    return dev;
}

/* ---- text ---- */


void nnav_tf_shape_format(const uint8_t *base, nnav_span shape, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    nnav_wire r, d;
    nnav_field f, g;
    nnav_error e;
    int k, unknown = 0, first = 1;
    if (n)
        buf[0] = 0;
    nnav_sb_put(&b, "[");
    nnav_wire_init(&r, base, shape);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num == NNAV_TF_TENSORSHAPEPROTO_UNKNOWN_RANK && f.wt == NNAV_WT_VARINT && f.v)
            unknown = 1;
        if (f.num != NNAV_TF_TENSORSHAPEPROTO_DIM || f.wt != NNAV_WT_LEN)
            continue;
        int64_t size = 0;
        nnav_span name = {0};
        nnav_wire_init(&d, base, f.s);
        while (nnav_wire_next(&d, &g, &e) == 1) {
            if (g.num == NNAV_TF_TENSORSHAPEPROTO_DIM_SIZE && g.wt == NNAV_WT_VARINT)
                size = (int64_t)g.v;
            else if (g.num == NNAV_TF_TENSORSHAPEPROTO_DIM_NAME && g.wt == NNAV_WT_LEN)
                name = g.s;
        }
        nnav_sb_put(&b, first ? "" : ",");
        first = 0;
        if (size >= 0)
            nnav_sb_printf(&b, "%lld", (long long)size);
        else if (name.n)
            nnav_sb_span(&b, name);
        else
            nnav_sb_put(&b, "?");
    }
    if (k < 0) {
        b.o = 0;
        nnav_sb_put(&b, "(malformed shape)");
        return;
    }
    if (unknown) {
        b.o = 0;
        if (n)
            buf[0] = 0;
        nnav_sb_put(&b, "[...]");
        return;
    }
    nnav_sb_put(&b, "]");
}

/* A NameAttrList: its name (the last written) and how many attrs it binds. */
void nnav_tf_func_ref(const nnav_model *m, nnav_span msg, nnav_span *name, uint32_t *nattrs)
{
    nnav_wire r;
    nnav_field g;
    nnav_error err;
    name->p = NULL;
    name->n = 0;
    *nattrs = 0;
    nnav_wire_init(&r, m->map.base, msg);
    while (nnav_wire_next(&r, &g, &err) == 1) {
        if (g.num == NNAV_TF_NAMEATTRLIST_NAME && g.wt == NNAV_WT_LEN)
            *name = g.s;
        else if (g.num == NNAV_TF_NAMEATTRLIST_ATTR)
            (*nattrs)++;
    }
}

/* ---- tensor values ---- */

typedef struct typed_ctx {
    nnav_acc *a;
    int32_t dtype;
    uint8_t field;
    uint64_t limit;   /* components the tensor holds */
    double last[2];   /* last element (complex: both parts) */
    int64_t ilast;    /* the last element's bits, for 64-bit integers */
    unsigned comps, pos;
} typed_ctx;

static double typed_decode(const typed_ctx *t, uint64_t v)
{
    switch (t->field) {
    case TF_T_FLOAT: case TF_T_SCOMPLEX: {
        float f;
        uint32_t b = (uint32_t)v;
        memcpy(&f, &b, 4);
        return f;
    }
    case TF_T_DOUBLE: case TF_T_DCOMPLEX: {
        double d;
        memcpy(&d, &v, 8);
        return d;
    }
    case TF_T_INT64: return (double)(int64_t)v;
    case TF_T_UINT64: return (double)v;
    case TF_T_UINT32: return (double)(uint32_t)v;
    case TF_T_BOOL: return v != 0;
    case TF_T_HALF:
        return t->dtype == NNAV_DT_BFLOAT16 ? nnav_bf16_to_double((uint16_t)v)
                                            : nnav_half_to_double((uint16_t)v);
    case TF_T_INT: {
        /* int_val holds the value itself, cut to the element's width. */
        double d;
        uint8_t bytes[8];
        for (int i = 0; i < 8; i++)
            bytes[i] = (uint8_t)(v >> (8 * i));
        if (nnav_dtype_decode_raw(t->dtype, bytes, 8, 0, &d) == 0)
            return d;
        return (double)(int32_t)v;
    }
    }
    return NAN;
}

static int typed_put(void *c, uint64_t v)
{
    typed_ctx *t = c;
    if (nnav_acc_done(t->a) || t->a->seen >= t->limit)
        return 1;
    double d = typed_decode(t, v);
    t->last[t->pos] = d;
    t->ilast = (int64_t)v; /* int64_val, uint64_val: the varint is the value */
    t->pos = (t->pos + 1) % t->comps;
    if (t->a->out->is_int)
        nnav_acc_put_int(t->a, t->ilast);
    else
        nnav_acc_put(t->a, d);
    return 0;
}

/* ---- string variables ---- */

void nnav_tf_values_free(nnav_tf *tf)
{
    for (uint32_t i = 0; i < TF_STRMAPS; i++) {
        nnav_tensor_bytes_release(tf->strmaps[i].cookie);
        tf->strmaps[i].cookie = NULL;
    }
}

static int str_fail(nnav_error *err, const nnav_tensor *tt, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int str_fail(nnav_error *err, const nnav_tensor *tt, uint64_t at, const char *fmt, ...)
{
    char msg[300], loc[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nnav_text_escape(tt->ext_location.p, tt->ext_location.n, loc, sizeof loc);
    /* The offset is in the data shard, not in the model file: said in words. */
    nnav_err_set(err, 0, 0, "%s at byte %llu of %s", msg,
                 (unsigned long long)((uint64_t)tt->ext_offset + at), loc);
    return -1;
}

/* A DT_STRING tensor in a tensor bundle's data shard, as TensorFlow writes it:
 * the length of each element as a varint, then a masked CRC-32C of those
 * lengths (each taken as a little-endian uint32, or uint64 past 2^32-1), then
 * the bytes of every element, one after another. The lengths are all read and
 * their checksum checked; the first `want` strings are spans into the shard. */
static int bundle_strings(const nnav_model *m, uint32_t t, size_t want, nnav_values *out,
                          nnav_error *err)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    nnav_tf *tf = nnav_tf_state(m);
    nnav_span data;
    void *cookie;
    if (nnav_tensor_bytes(m, t, &data, &cookie, err) < 0)
        return -1;
    /* Kept mapped for the spans; the oldest of the kept mappings goes. */
    tf_strmap *slot = &tf->strmaps[tf->strmap_next];
    tf->strmap_next = (tf->strmap_next + 1) % TF_STRMAPS;
    nnav_tensor_bytes_release(slot->cookie);
    slot->cookie = cookie;
    uint64_t n = tt->nelems;
    out->total = n;
    /* Every element takes at least its length byte. */
    if (n > data.n)
        return str_fail(err, tt, 0, "%llu strings cannot be held in the %llu bytes stored",
                        (unsigned long long)n, (unsigned long long)data.n);
    const uint8_t *p = data.p, *end = data.p + data.n;
    uint64_t bytes = 0;
    uint32_t crc = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len;
        uint64_t at = (uint64_t)(p - data.p);
        if (nnav_wire_varint(&p, end, &len) != 0)
            return str_fail(err, tt, at, "string %llu's length is malformed or cut short",
                            (unsigned long long)i);
        uint8_t le[8];
        for (int k = 0; k < 8; k++)
            le[k] = (uint8_t)(len >> (8 * k));
        crc = nnav_tf_crc32c(crc, le, len <= 0xffffffffu ? 4 : 8);
        if (len > data.n || __builtin_add_overflow(bytes, len, &bytes) || bytes > data.n)
            return str_fail(err, tt, at, "the strings' lengths add up to more than the %llu "
                                         "bytes stored", (unsigned long long)data.n);
    }
    uint64_t at = (uint64_t)(p - data.p);
    if (end - p < 4)
        return str_fail(err, tt, at, "the strings' lengths are not followed by their checksum");
    uint32_t stored = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                      (uint32_t)p[3] << 24;
    if (stored != nnav_tf_crc_mask(crc))
        return str_fail(err, tt, at, "the strings' lengths do not match their checksum "
                                     "(0x%08x stored, 0x%08x computed): the data is damaged",
                        stored, nnav_tf_crc_mask(crc));
    p += 4;
    if (bytes > (uint64_t)(end - p))
        return str_fail(err, tt, at + 4, "the strings need %llu bytes, %llu are stored",
                        (unsigned long long)bytes, (unsigned long long)(end - p));
    /* The lengths again, for the strings asked for. */
    const uint8_t *q = data.p, *s = p;
    for (uint64_t i = 0; i < n && out->count < want; i++) {
        uint64_t len;
        nnav_wire_varint(&q, end, &len); /* read once already */
        if (out->s)
            out->s[out->count] = (nnav_span){s, len};
        out->count++;
        s += len;
    }
    if (nnav_tensor_bytes_shrank(cookie, err))
        return -1;
    return 0;
}

int nnav_tf_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                          nnav_values *out, nnav_error *err)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    memset(err, 0, sizeof *err);
    out->count = 0;
    out->has_stats = 0;
    out->min = out->max = out->mean = 0;
    out->nan_count = 0;
    out->total = tt->nelems == UINT64_MAX ? 0 : tt->nelems;
    /* A Const's TensorProto is in the map: say where; a variable's entry is
     * not (it came out of the index table), and the caller names the tensor. */
    uintptr_t mp = (uintptr_t)tt->msg.p, base = (uintptr_t)m->map.base;
    int in_map = mp && mp >= base && mp - base < m->map.size;
    uint64_t where = in_map ? (uint64_t)(mp - base) : 0;
    if (!nnav_dtype_valid(tt->dtype)) {
        nnav_err_set(err, where, in_map, "tensor has an unknown dtype");
        return -1;
    }
    if (tt->nelems == UINT64_MAX) {
        char why[256];
        if (!nnav_tensor_dims_problem(m, t, why, sizeof why))
            snprintf(why, sizeof why, "negative or overflowing dims");
        nnav_err_set(err, where, in_map, "tensor has a malformed shape: %s", why);
        return -1;
    }
    unsigned comps = nnav_dtype_components(tt->dtype);
    nnav_acc a;
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats, comps);
    /* 64-bit integers never pass through a double (the rest, narrower, are
     * exact in one: nnav_tf_op_tensor_values gives those as integers). */
    int i64 = tt->dtype == NNAV_DT_INT64 || tt->dtype == NNAV_DT_UINT64;
    out->is_int = i64;
    if (tt->dtype == NNAV_DT_STRING && tt->storage == NNAV_STORE_EXTERNAL)
        return bundle_strings(m, t, want, out, err);
    if (!nnav_dtype_bits(tt->dtype) && tt->storage != NNAV_STORE_TYPED) {
        /* Strings, resources and variants in raw or checkpoint form have no
         * fixed-size elements to show: nothing is decoded, nothing claimed. */
        out->total = 0;
        return 0;
    }
    uint64_t limit = tt->nelems * comps;
    if (tt->storage == NNAV_STORE_RAW || tt->storage == NNAV_STORE_EXTERNAL) {
        nnav_span data = tt->data;
        void *cookie = NULL;
        if (tt->storage == NNAV_STORE_EXTERNAL && nnav_tensor_bytes(m, t, &data, &cookie, err) < 0)
            return -1;
        if (nnav_dtype_bits(tt->dtype))
            for (uint64_t i = 0; i < limit && !nnav_acc_done(&a); i++) {
                double v;
                if (nnav_dtype_decode_raw(tt->dtype, data.p, data.n, i, &v) != 0)
                    break; /* stored bytes end early: the size warning says so */
                uint64_t bits = 0;
                for (unsigned k = 0; i64 && k < 8; k++) /* little-endian, as TF writes */
                    bits |= (uint64_t)data.p[i * 8 + k] << (8 * k);
                if (i64)
                    nnav_acc_put_int(&a, (int64_t)bits);
                else
                    nnav_acc_put(&a, v);
            }
        int gone = nnav_tensor_bytes_shrank(cookie, err);
        nnav_tensor_bytes_release(cookie);
        if (gone)
            return -1;
    } else if (tt->storage == NNAV_STORE_TYPED && tt->typed_field == TF_T_STRING) {
        nnav_wire r;
        nnav_field f;
        int k;
        nnav_span last = {(const uint8_t *)"", 0};
        uint64_t seen = 0;
        nnav_wire_init(&r, m->map.base, tt->msg);
        while ((k = nnav_wire_next(&r, &f, err)) == 1 && out->count < want && seen < limit) {
            if (f.num != TF_T_STRING || f.wt != NNAV_WT_LEN)
                continue;
            if (out->s)
                out->s[out->count] = f.s;
            out->count++;
            seen++;
            last = f.s;
        }
        if (k < 0)
            return -1;
        /* A shorter list repeats its last string, as numbers do. */
        while (out->count < want && seen < limit) {
            if (out->s)
                out->s[out->count] = last;
            out->count++;
            seen++;
        }
    } else if (tt->storage == NNAV_STORE_TYPED && tt->typed_field &&
               tt->typed_field != TF_T_RESOURCE && tt->typed_field != TF_T_VARIANT) {
        typed_ctx tc = {&a, tt->dtype, tt->typed_field, limit, {0, 0}, 0, comps, 0};
        uint8_t ewt = tt->typed_field == TF_T_FLOAT || tt->typed_field == TF_T_SCOMPLEX
                          ? NNAV_WT_I32
                      : tt->typed_field == TF_T_DOUBLE || tt->typed_field == TF_T_DCOMPLEX
                          ? NNAV_WT_I64 : NNAV_WT_VARINT;
        nnav_wire r;
        nnav_field f;
        int k;
        nnav_wire_init(&r, m->map.base, tt->msg);
        while ((k = nnav_wire_next(&r, &f, err)) == 1 && !nnav_acc_done(&a) && a.seen < limit) {
            if (f.num != tt->typed_field)
                continue;
            if (f.num == TF_T_FLOAT8) {
                for (uint64_t i = 0; i < f.s.n && !nnav_acc_done(&a) && a.seen < limit; i++) {
                    double d;
                    nnav_dtype_decode_raw(tt->dtype, f.s.p + i, 1, 0, &d);
                    tc.last[0] = d;
                    nnav_acc_put(&a, d);
                }
                continue;
            }
            if (nnav_wire_scalars(&f, ewt, typed_put, &tc, err, m->map.base) < 0 && err->msg[0])
                return -1;
        }
        if (k < 0)
            return -1;
        /* Fewer values than elements: the last repeats (none written: zero). */
        if (a.seen < limit && (a.stats || out->count < want)) {
            if (comps == 1 || a.seen == 0) {
                nnav_acc_repeat(&a, a.seen ? tc.last[0] : 0.0, a.seen ? tc.ilast : 0, i64,
                                limit - a.seen);
            } else {
                while (a.seen < limit && out->count < want)
                    nnav_acc_put(&a, tc.last[a.seen % 2]);
                if (a.seen < limit && a.stats) {
                    /* The rest alternate real, imaginary from where we are. */
                    uint64_t rest = limit - a.seen;
                    unsigned at = (unsigned)(a.seen % 2);
                    nnav_acc_repeat(&a, tc.last[at], 0, 0, (rest + 1) / 2);
                    nnav_acc_repeat(&a, tc.last[1 - at], 0, 0, rest / 2);
                }
            }
        }
    }
    if (nnav_map_truncated(&m->map)) {
        nnav_err_set(err, 0, 0, "the model file shrank while its values were read");
        return -1;
    }
    nnav_acc_end(&a);
    return 0;
}

void nnav_tf_tensor_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    if (tt->storage == NNAV_STORE_RAW) {
        nnav_sb_put(&b, "tensor_content");
        return;
    }
    if (tt->storage == NNAV_STORE_NONE) {
        nnav_sb_put(&b, tt->owner == NNAV_TOWN_INITIALIZER && tt->ext_offset < 0 ? "sliced" : "none");
        return;
    }
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field(&tensorflow__tensor_proto__descriptor, tt->typed_field);
    if (!tt->data.p) {
        nnav_sb_put(&b, "no values (all zero)");
        return;
    }
    /* How many values are written, to say when they stand for more. */
    uint64_t count = 0;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_wire_init(&r, m->map.base, tt->msg);
    while (nnav_wire_next(&r, &f, &e) == 1) {
        if (f.num != tt->typed_field)
            continue;
        if (f.wt != NNAV_WT_LEN || f.num == TF_T_STRING || f.num == TF_T_RESOURCE ||
            f.num == TF_T_VARIANT) {
            count++;
        } else if (f.num == TF_T_FLOAT8) {
            count += f.s.n;
        } else {
            unsigned w = f.num == TF_T_FLOAT || f.num == TF_T_SCOMPLEX ? 4
                         : f.num == TF_T_DOUBLE || f.num == TF_T_DCOMPLEX ? 8 : 0;
            if (w)
                count += f.s.n / w;
            else
                for (uint64_t i = 0; i < f.s.n; i++)
                    count += (f.s.p[i] & 0x80) == 0;
        }
    }
    unsigned comps = nnav_dtype_components(tt->dtype);
    uint64_t elems = count / (comps ? comps : 1);
    nnav_sb_put(&b, fd ? fd->name : "typed");
    if (tt->nelems != UINT64_MAX && elems == 1 && tt->nelems > 1)
        nnav_sb_printf(&b, " (splat: 1 value for %llu)", (unsigned long long)tt->nelems);
    else if (tt->nelems != UINT64_MAX && elems > 1 && elems < tt->nelems)
        nnav_sb_printf(&b, " (%llu values, the last repeats to %llu)", (unsigned long long)elems,
                  (unsigned long long)tt->nelems);
}

/* The reader's tensor values: int64 and uint64 come exactly (is_int set);
 * the narrower integer types come as doubles, exact in one, and are given
 * as integers from them. */
int nnav_tf_op_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                             nnav_values *out, nnav_error *err)
{
    out->is_int = out->is_unsigned = 0;
    int rc = nnav_tf_tensor_values(m, t, want, stats, out, err);
    int32_t dt = m->tensors.v[t].dtype;
    if (rc == 0 && !out->is_int &&
        (nnav_dtype_is_int(dt) || dt == NNAV_DT_TF_QINT8 || dt == NNAV_DT_TF_QUINT8 ||
         dt == NNAV_DT_TF_QINT16 || dt == NNAV_DT_TF_QUINT16 || dt == NNAV_DT_TF_QINT32 ||
         dt == NNAV_DT_TF_INT4 || dt == NNAV_DT_TF_UINT4 || dt == NNAV_DT_TF_INT2 ||
         dt == NNAV_DT_TF_UINT2)) {
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
