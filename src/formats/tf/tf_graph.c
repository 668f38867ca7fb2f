/* tf_graph.c - a GraphDef's (or a function body's) nodes into the index:
 * NodeDefs, their attrs and tensors, op signatures, then each graph's
 * outputs, names and types once its nodes are in (tf.h tells the mapping). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "tf_walk.h"
#include "tensorflow/attr_value.pb-c.h"
#include "tensorflow/function.pb-c.h"
#include "tensorflow/graph.pb-c.h"
#include "tensorflow/node_def.pb-c.h"
#include "tensorflow/op_def.pb-c.h"
#include "tensorflow/tensor.pb-c.h"
#include "tensorflow/tensor_shape.pb-c.h"


/* span + suffix, in the arena */
static nnav_span cat_span(nnav_tf *tf, nnav_span a, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static nnav_span cat_span(nnav_tf *tf, nnav_span a, const char *fmt, ...)
{
    char suf[96];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(suf, sizeof suf, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= sizeof suf)
        return (nnav_span){0};
    uint8_t *p = nnav_tf_alloc(tf, a.n + (size_t)k + 1);
    if (!p)
        return (nnav_span){0};
    if (a.n)
        memcpy(p, a.p, a.n);
    memcpy(p + a.n, suf, (size_t)k + 1);
    return (nnav_span){p, a.n + (uint64_t)k};
}

/* "NODE:ARG:J" in the arena. */
static nnav_span join3(nnav_tf *tf, nnav_span node, nnav_span arg, uint64_t j)
{
    char num[24];
    int k = snprintf(num, sizeof num, "%llu", (unsigned long long)j);
    uint64_t n = node.n + arg.n + 2 + (uint64_t)k;
    uint8_t *p = nnav_tf_alloc(tf, n + 1);
    if (!p)
        return (nnav_span){0};
    uint64_t o = 0;
    if (node.n)
        memcpy(p, node.p, node.n);
    o = node.n;
    p[o++] = ':';
    if (arg.n)
        memcpy(p + o, arg.p, arg.n);
    o += arg.n;
    p[o++] = ':';
    memcpy(p + o, num, (size_t)k + 1);
    return (nnav_span){p, n};
}

static int progress(tfw *w, uint64_t at)
{
    if (!w->opts || !w->opts->progress || ++w->since_progress < 65536)
        return 0;
    w->since_progress = 0;
    if (w->opts->progress(w->opts->ctx, at, w->m->map.size)) {
        nnav_err_set(w->err, 0, 0, "cancelled");
        return -1;
    }
    return 0;
}

/* ---- name tables: span -> id ---- */

/* What a probe compares: the name looked up, and how an id's name is found. */
typedef struct tab_probe {
    const tfw *w;
    tab_key key;
    nnav_span name;
} tab_probe;

static int tab_same(const void *ctx, uint32_t id)
{
    const tab_probe *p = ctx;
    return nnav_span_same(p->key(p->w, id), p->name);
}

static uint64_t tab_hash(nnav_span name) { return nnav_hash_bytes(name.p, name.n, 0x7f); }

static uint64_t tab_rehash(const void *ctx, uint32_t id)
{
    const tab_probe *p = ctx;
    return tab_hash(p->key(p->w, id));
}

int tf_tab_init(nnav_hashtab *t, uint64_t n)
{
    nnav_hashtab_free(t);
    return nnav_hashtab_init(t, n);
}

uint32_t tf_tab_find(const tfw *w, const nnav_hashtab *t, tab_key key, nnav_span name)
{
    tab_probe p = {w, key, name};
    return nnav_hashtab_find(t, tab_hash(name), tab_same, &p, NULL);
}

int tf_tab_add(const tfw *w, nnav_hashtab *t, tab_key key, nnav_span name, uint32_t id,
               uint32_t *other)
{
    tab_probe p = {w, key, name};
    uint64_t h = tab_hash(name), at = 0;
    *other = nnav_hashtab_find(t, h, tab_same, &p, &at);
    if (*other != NNAV_NONE)
        return 1;
    return nnav_hashtab_put(t, at, h, id, tab_rehash, &p) ? -1 : 0;
}

/* Node names, for the per-graph node table. */
static nnav_span node_key(const tfw *w, uint32_t id) { return w->m->nodes.v[id].name; }

/* ---- small message walks ---- */

static int walk_versions(tfw *w, nnav_span s, int64_t *producer, int64_t *min_consumer)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == VD_PRODUCER || f.num == VD_MIN_CONSUMER) {
            if (expect_wt(w, &f, NNAV_WT_VARINT, f.num == VD_PRODUCER ? "producer" : "min_consumer"))
                return err_prepend(w->err, f.num == VD_PRODUCER ? "producer" : "min_consumer");
            if (f.num == VD_PRODUCER)
                *producer = (int32_t)f.v;
            else
                *min_consumer = (int32_t)f.v;
        } else if (f.num == VD_BAD) {
            if (f.wt != NNAV_WT_VARINT && f.wt != NNAV_WT_LEN)
                return expect_wt(w, &f, NNAV_WT_VARINT, "bad_consumers"),
                       err_prepend(w->err, "bad_consumers");
        } else if (keep_unknown(w, &f, "VersionDef", NNAV_NONE)) {
            return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__version_def__descriptor) : 0;
}

/* A map entry: key (1) and value (2), both LEN (a uint32 key is a varint:
 * `key_varint` takes it). */
/* Every map entry is a message of key = 1 and value = 2 (protoc names one
 * per map field: NodeDef.AttrEntry, ...; all agree, checked below). */
#define ENTRY_KEY NNAV_TF_NODEDEF_ATTRENTRY_KEY
#define ENTRY_VALUE NNAV_TF_NODEDEF_ATTRENTRY_VALUE
_Static_assert(NNAV_TF_SIGNATUREDEF_INPUTSENTRY_KEY == ENTRY_KEY &&
                   NNAV_TF_FUNCTIONDEF_ARGATTRENTRY_KEY == ENTRY_KEY &&
                   NNAV_TF_FUNCTIONDEF_RETENTRY_VALUE == ENTRY_VALUE &&
                   NNAV_TF_METAGRAPHDEF_SIGNATUREDEFENTRY_VALUE == ENTRY_VALUE,
               "map entries share key and value numbers");

int tf_walk_entry(tfw *w, nnav_span s, nnav_span *key, nnav_span *value, uint64_t *key_varint,
                  const ProtobufCMessageDescriptor *d)
{
    nnav_wire r;
    nnav_field f;
    int k;
    *key = *value = (nnav_span){0};
    if (key_varint)
        *key_varint = 0;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == ENTRY_KEY) {
            if (expect_wt(w, &f, key_varint ? NNAV_WT_VARINT : NNAV_WT_LEN, "key"))
                return err_prepend(w->err, "key");
            if (key_varint)
                *key_varint = f.v;
            else
                *key = f.s;
        } else if (f.num == ENTRY_VALUE) {
            if (f.wt != NNAV_WT_LEN && f.wt != NNAV_WT_VARINT)
                return expect_wt(w, &f, NNAV_WT_LEN, "value"), err_prepend(w->err, "value");
            *value = f.s;
        }
    }
    return k < 0 ? wire_fail(w, &r, d) : 0;
}

/* A TensorShapeProto: dims into w->tdims; *rank -1 for an unknown rank.
 * `strict`: every size must be >= 0 (a tensor's own shape). *bad counts
 * sizes that are neither a size nor -1. */
int tf_walk_shape(tfw *w, nnav_span s, int32_t *rank, uint32_t *bad)
{
    nnav_wire r;
    nnav_field f;
    int k, unknown = 0;
    w->tdims.n = 0;
    *bad = 0;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == SH_DIM) {
            if (expect_wt(w, &f, NNAV_WT_LEN, "dim"))
                return err_prepend(w->err, "dim[%u]", w->tdims.n);
            int64_t size = 0;
            nnav_wire d;
            nnav_field g;
            int kk;
            winit(w, &d, f.s);
            while ((kk = nnav_wire_next(&d, &g, w->err)) == 1) {
                if (g.num == NNAV_TF_TENSORSHAPEPROTO_DIM_SIZE) {
                    if (expect_wt(w, &g, NNAV_WT_VARINT, "size"))
                        return err_prepend(w->err, "dim[%u].size", w->tdims.n);
                    size = (int64_t)g.v;
                } else if (g.num == NNAV_TF_TENSORSHAPEPROTO_DIM_NAME) {
                    if (expect_wt(w, &g, NNAV_WT_LEN, "name"))
                        return err_prepend(w->err, "dim[%u].name", w->tdims.n);
                } else if (keep_unknown(w, &g, "TensorShapeProto.Dim", NNAV_NONE)) {
                    return -1;
                }
            }
            if (kk < 0) {
                wire_fail(w, &d, &tensorflow__tensor_shape_proto__dim__descriptor);
                return err_prepend(w->err, "dim[%u]", w->tdims.n);
            }
            if (size < -1)
                (*bad)++;
            if (w->tdims.n >= TF_MAX_RANK) {
                nnav_err_set(w->err, f.off, 1, "a shape with more than %u dims", TF_MAX_RANK);
                return -1;
            }
            int64_t *slot = nnav_vec_push(w->tdims);
            if (!slot)
                return oom(w);
            *slot = size;
        } else if (f.num == SH_UNKNOWN_RANK) {
            if (expect_wt(w, &f, NNAV_WT_VARINT, "unknown_rank"))
                return err_prepend(w->err, "unknown_rank");
            unknown = f.v != 0;
        } else if (keep_unknown(w, &f, "TensorShapeProto", NNAV_NONE)) {
            return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &tensorflow__tensor_shape_proto__descriptor);
    *rank = unknown ? -1 : (int32_t)w->tdims.n;
    return 0;
}

/* ---- types as ONNX TypeProto bytes (see tf.h) ---- */

static size_t put_varint(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        p[n++] = b | (v ? 0x80 : 0);
    } while (v);
    return n;
}

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80)
        v >>= 7, n++;
    return n;
}

/* TypeProto{tensor_type{elem_type, shape{dim...}}}; rank < 0: no shape.
 * A dim < 0 is unknown ("?"). */
static nnav_span make_type(tfw *w, int32_t dtype, int32_t rank, const int64_t *dims)
{
    uint64_t shape_len = 0;
    for (int32_t i = 0; i < rank; i++) {
        uint64_t dl = dims[i] >= 0 ? 1 + varint_len((uint64_t)dims[i]) : 0;
        shape_len += 1 + varint_len(dl) + dl;
    }
    uint64_t tensor_len = (dtype ? 1 + varint_len((uint64_t)(int64_t)dtype) : 0) +
                          (rank >= 0 ? 1 + varint_len(shape_len) + shape_len : 0);
    uint64_t total = 1 + varint_len(tensor_len) + tensor_len;
    uint8_t *p = nnav_tf_alloc(w->tf, total);
    if (!p)
        return (nnav_span){0};
    size_t o = 0;
    p[o++] = 0x0a;
    o += put_varint(p + o, tensor_len);
    if (dtype) {
        p[o++] = 0x08;
        o += put_varint(p + o, (uint64_t)(int64_t)dtype);
    }
    if (rank >= 0) {
        p[o++] = 0x12;
        o += put_varint(p + o, shape_len);
        for (int32_t i = 0; i < rank; i++) {
            uint64_t dl = dims[i] >= 0 ? 1 + varint_len((uint64_t)dims[i]) : 0;
            p[o++] = 0x0a;
            o += put_varint(p + o, dl);
            if (dims[i] >= 0) {
                p[o++] = 0x08;
                o += put_varint(p + o, (uint64_t)dims[i]);
            }
        }
    }
    return (nnav_span){p, o};
}

/* A type from a TensorFlow dtype and a TensorShapeProto (or none). */
static int shape_type(tfw *w, int32_t dtype, nnav_span shape, nnav_span *out)
{
    int32_t rank = -1;
    uint32_t bad = 0;
    if (shape.p && tf_walk_shape(w, shape, &rank, &bad) < 0)
        return -1;
    /* -1 is "unknown"; anything lower is damage, shown as unknown too. */
    if (bad && nnav_tf_warn(w->m, "a shape at offset %llu has %u dims below -1 (shown as ?)",
                            (unsigned long long)off_of(w, shape), bad))
        return oom(w);
    *out = make_type(w, dtype, rank, w->tdims.v);
    return out->p ? 0 : oom(w);
}

/* ---- tensors ---- */

/* The element field TensorFlow uses for a dtype (TensorProto field number). */
static uint8_t typed_field_for(int32_t dt)
{
    switch (dt) {
    case NNAV_DT_FLOAT: return TF_T_FLOAT;
    case NNAV_DT_DOUBLE: return TF_T_DOUBLE;
    case NNAV_DT_INT32: case NNAV_DT_INT16: case NNAV_DT_INT8: case NNAV_DT_UINT8:
    case NNAV_DT_UINT16: case NNAV_DT_TF_QINT8: case NNAV_DT_TF_QUINT8: case NNAV_DT_TF_QINT16:
    case NNAV_DT_TF_QUINT16: case NNAV_DT_TF_QINT32: case NNAV_DT_TF_INT4:
    case NNAV_DT_TF_UINT4: return TF_T_INT;
    case NNAV_DT_STRING: return TF_T_STRING;
    case NNAV_DT_COMPLEX64: return TF_T_SCOMPLEX;
    case NNAV_DT_INT64: return TF_T_INT64;
    case NNAV_DT_BOOL: return TF_T_BOOL;
    case NNAV_DT_COMPLEX128: return TF_T_DCOMPLEX;
    case NNAV_DT_FLOAT16: case NNAV_DT_BFLOAT16: return TF_T_HALF;
    case NNAV_DT_TF_RESOURCE: return TF_T_RESOURCE;
    case NNAV_DT_TF_VARIANT: return TF_T_VARIANT;
    case NNAV_DT_UINT32: return TF_T_UINT32;
    case NNAV_DT_UINT64: return TF_T_UINT64;
    case NNAV_DT_FLOAT8E5M2: case NNAV_DT_FLOAT8E4M3FN: case NNAV_DT_FLOAT8E4M3FNUZ:
    case NNAV_DT_TF_FLOAT8E4M3B11FNUZ: case NNAV_DT_FLOAT8E5M2FNUZ: return TF_T_FLOAT8;
    }
    return 0;
}

static int push_dims(tfw *w, nnav_tensor *t, int32_t rank)
{
    t->dims_first = w->m->dims.n;
    for (int32_t i = 0; i < rank; i++) {
        int64_t *d = nnav_vec_push(w->m->dims);
        if (!d)
            return oom(w);
        *d = w->tdims.v[i];
    }
    t->ndims = rank > 0 ? (uint32_t)rank : 0;
    return 0;
}

/* A TensorProto: dtype, shape and where its values are; never the values. */
static int walk_tensor(tfw *w, uint32_t graph, nnav_span s, uint8_t owner, uint32_t owner_id,
                       nnav_span name, uint32_t *out_id)
{
    nnav_model *m = w->m;
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    t.graph = graph;
    t.owner = owner;
    t.owner_id = owner_id;
    t.name = name;
    t.msg = s;
    t.ext_offset = t.ext_length = -1;
    t.dims_first = m->dims.n;
    nnav_span shape = {0};
    int has_content = 0, has_shape = 0;
    uint32_t fields_seen = 0;   /* bit per *_val field */
    uint64_t typed_count = 0, typed_bytes = 0, string_bytes = 0;
    int count_known = 1;
    int64_t version = 0;
    uint32_t tid = m->tensors.n;
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case TF_T_DTYPE:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "dtype"))
                return err_prepend(w->err, "dtype");
            t.dtype = nnav_tf_dtype(f.v);
            break;
        case TF_T_SHAPE:
            if (expect_wt(w, &f, NNAV_WT_LEN, "tensor_shape"))
                return err_prepend(w->err, "tensor_shape");
            shape = f.s;
            has_shape = 1;
            break;
        case TF_T_VERSION:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "version_number"))
                return err_prepend(w->err, "version_number");
            version = (int32_t)f.v;
            break;
        case TF_T_CONTENT:
            if (expect_wt(w, &f, NNAV_WT_LEN, "tensor_content"))
                return err_prepend(w->err, "tensor_content");
            has_content = 1;
            t.data = f.s;
            break;
        case TF_T_FLOAT: case TF_T_DOUBLE: case TF_T_INT: case TF_T_STRING: case TF_T_SCOMPLEX:
        case TF_T_INT64: case TF_T_BOOL: case TF_T_DCOMPLEX: case TF_T_HALF:
        case TF_T_RESOURCE: case TF_T_VARIANT: case TF_T_UINT32: case TF_T_UINT64:
        case TF_T_FLOAT8: {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__tensor_proto__descriptor, f.num);
            const char *fname = fd ? fd->name : "value";
            int fixed = f.num == TF_T_FLOAT || f.num == TF_T_SCOMPLEX ? 4
                        : f.num == TF_T_DOUBLE || f.num == TF_T_DCOMPLEX ? 8 : 0;
            int is_len = f.num == TF_T_STRING || f.num == TF_T_RESOURCE ||
                         f.num == TF_T_VARIANT || f.num == TF_T_FLOAT8;
            uint8_t ewt = fixed == 4 ? NNAV_WT_I32 : fixed == 8 ? NNAV_WT_I64
                          : is_len ? NNAV_WT_LEN : NNAV_WT_VARINT;
            if (f.wt == NNAV_WT_LEN && !is_len) {
                if (fixed && f.s.n % (uint64_t)fixed) {
                    nnav_err_set(w->err, off_of(w, f.s), 1,
                                 "packed field holds %llu bytes, not a multiple of its %d-byte "
                                 "element", (unsigned long long)f.s.n, fixed);
                    return err_prepend(w->err, "%s", fname);
                }
                if (fixed)
                    typed_count += f.s.n / (uint64_t)fixed;
                else
                    count_known = 0; /* varints: counted only when values are read */
            } else if (f.wt != ewt) {
                expect_wt(w, &f, ewt, fname);
                return err_prepend(w->err, "%s", fname);
            } else if (f.num == TF_T_FLOAT8) {
                typed_count += f.s.n;
            } else {
                typed_count++;
                if (f.num == TF_T_STRING)
                    string_bytes += f.s.n;
            }
            if (!t.typed_field) {
                t.typed_field = (uint8_t)f.num;
                if (!has_content)
                    t.data = f.s;
            }
            fields_seen |= 1u << f.num;
            typed_bytes += f.s.n;
            break;
        }
        default:
            if (keep_unknown(w, &f, "TensorProto", tid))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &tensorflow__tensor_proto__descriptor);
    int32_t rank = 0;
    uint32_t bad = 0;
    if (has_shape) {
        if (tf_walk_shape(w, shape, &rank, &bad) < 0)
            return err_prepend(w->err, "tensor_shape");
        if (rank < 0) {
            t.warn |= NNAV_TW_BAD_DIMS; /* a tensor's shape must be known */
            rank = 0;
        }
        if (push_dims(w, &t, rank) < 0)
            return -1;
    }
    nnav_tensor_sizes(m, &t, string_bytes);
    if (has_content) {
        t.storage = NNAV_STORE_RAW;
        t.stored = t.data.n;
        if (fields_seen)
            t.warn |= NNAV_TW_MANY_FIELDS;
        if (t.nbytes != UINT64_MAX && t.dtype != NNAV_DT_STRING && t.stored != t.nbytes)
            t.warn |= NNAV_TW_SIZE_MISMATCH;
    } else if (fields_seen) {
        t.storage = NNAV_STORE_TYPED;
        t.stored = typed_bytes;
        if (fields_seen & (fields_seen - 1))
            t.warn |= NNAV_TW_MANY_FIELDS;
        /* A shorter list repeats its last value (version 0): only more values
         * than elements, or a field that does not fit the dtype, is wrong. */
        uint64_t comps = nnav_dtype_components(t.dtype);
        if (t.nelems != UINT64_MAX && count_known &&
            (typed_count > t.nelems * comps || (version != 0 && typed_count != t.nelems * comps)))
            t.warn |= NNAV_TW_SIZE_MISMATCH;
        if (nnav_dtype_valid(t.dtype) && t.typed_field != typed_field_for(t.dtype))
            t.warn |= NNAV_TW_SIZE_MISMATCH;
    } else {
        /* No values at all: every element is zero (an empty string). */
        t.storage = NNAV_STORE_TYPED;
        t.typed_field = typed_field_for(t.dtype);
        t.stored = 0;
    }
    nnav_tensor *slot = nnav_vec_push(m->tensors);
    if (!slot)
        return oom(w);
    *slot = t;
    if (out_id)
        *out_id = tid;
    return 0;
}

/* ---- op signatures ---- */

static int walk_argdef(tfw *w, nnav_span s, tf_arg *a)
{
    nnav_wire r;
    nnav_field f;
    int k;
    memset(a, 0, sizeof *a);
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case ARG_NAME: case ARG_DESC: case ARG_TYPE_ATTR: case ARG_NUMBER_ATTR:
        case ARG_TYPE_LIST_ATTR: case ARG_HANDLE: case ARG_FULL_TYPE: {
            const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
                &tensorflow__op_def__arg_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == ARG_NAME)
                a->name = f.s;
            else if (f.num == ARG_TYPE_ATTR)
                a->type_attr = f.s;
            else if (f.num == ARG_NUMBER_ATTR)
                a->number_attr = f.s;
            else if (f.num == ARG_TYPE_LIST_ATTR)
                a->type_list_attr = f.s;
            break;
        }
        case ARG_TYPE: case ARG_IS_REF:
            if (expect_wt(w, &f, NNAV_WT_VARINT, f.num == ARG_TYPE ? "type" : "is_ref"))
                return err_prepend(w->err, f.num == ARG_TYPE ? "type" : "is_ref");
            if (f.num == ARG_TYPE)
                a->dtype = nnav_tf_dtype(f.v);
            break;
        default:
            if (keep_unknown(w, &f, "OpDef.ArgDef", NNAV_NONE))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__op_def__arg_def__descriptor) : 0;
}

/* An OpDef: its name and argument lists into w->args; attr names (without
 * defaults) into refs when `attr_names` (function signatures). */
int tf_walk_opdef(tfw *w, nnav_span s, tf_op *op, nnav_function *fn)
{
    nnav_wire r;
    nnav_field f;
    int k;
    memset(op, 0, sizeof *op);
    op->msg = s;
    op->parsed = 1;
    for (int pass = 0; pass < 2; pass++) {
        uint32_t want = pass ? OP_OUTPUT : OP_INPUT;
        uint32_t first = w->args.n, idx = 0;
        winit(w, &r, s);
        while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
            if (f.num == want) {
                tf_arg a;
                if (expect_wt(w, &f, NNAV_WT_LEN, pass ? "output_arg" : "input_arg") ||
                    walk_argdef(w, f.s, &a) < 0)
                    return err_prepend(w->err, "%s[%u]", pass ? "output_arg" : "input_arg", idx);
                tf_arg *slot = nnav_vec_push(w->args);
                if (!slot)
                    return oom(w);
                *slot = a;
                idx++;
                continue;
            }
            if (pass || f.num == OP_OUTPUT)
                continue;
            switch (f.num) {
            case OP_NAME: case OP_ATTR: case OP_SUMMARY: case OP_DESC: case OP_DEPRECATION:
            case OP_CONTROL_OUT: {
                const ProtobufCFieldDescriptor *fd =
                    protobuf_c_message_descriptor_get_field(&tensorflow__op_def__descriptor, f.num);
                if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                    return err_prepend(w->err, "%s", fd->name);
                if (f.num == OP_NAME)
                    op->name = f.s;
                if (f.num == OP_ATTR) {
                    op->attr_count++;
                    nnav_span key;
                    nnav_wire a;
                    nnav_field g;
                    key = (nnav_span){0};
                    winit(w, &a, f.s);
                    int kk;
                    while ((kk = nnav_wire_next(&a, &g, w->err)) == 1)
                        if (g.num == NNAV_TF_OPDEF_ATTRDEF_NAME && g.wt == NNAV_WT_LEN)
                            key = g.s;
                    if (kk < 0) {
                        wire_fail(w, &a, &tensorflow__op_def__attr_def__descriptor);
                        return err_prepend(w->err, "attr[%u]", op->attr_count - 1);
                    }
                    if (fn) {
                        if (nnav_ref_push(w->m, key, 0))
                            return oom(w);
                        if (fn->attr_name_count++ == 0)
                            fn->attr_name_first = w->m->refs.n - 1;
                    }
                }
                break;
            }
            case OP_AGGREGATE: case OP_STATEFUL: case OP_COMMUTATIVE: case OP_UNINIT:
            case OP_DISTRIBUTED:
                if (expect_wt(w, &f, NNAV_WT_VARINT, "flag"))
                    return -1;
                break;
            default:
                if (keep_unknown(w, &f, "OpDef", NNAV_NONE))
                    return -1;
            }
        }
        if (k < 0)
            return wire_fail(w, &r, &tensorflow__op_def__descriptor);
        if (pass) {
            op->out_first = first;
            op->out_count = w->args.n - first;
        } else {
            op->in_first = first;
            op->in_count = w->args.n - first;
        }
    }
    return 0;
}

/* ---- attrs ---- */

static uint32_t fn_graph(tfw *w, nnav_span name)
{
    if (!w->fntab.slot)
        return NNAV_NONE;
    uint32_t fid = tf_tab_find(w, &w->fntab, fn_key, name);
    return fid == NNAV_NONE ? NNAV_NONE : w->m->functions.v[fid].graph;
}

/* A NameAttrList: its name (the attrs are decoded on demand). */
static int walk_namelist(tfw *w, nnav_span s, nnav_span *name)
{
    nnav_wire r;
    nnav_field f;
    int k;
    *name = (nnav_span){0};
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == NNAV_TF_NAMEATTRLIST_NAME || f.num == NNAV_TF_NAMEATTRLIST_ATTR) {
            const char *what = f.num == NNAV_TF_NAMEATTRLIST_NAME ? "name" : "attr";
            if (expect_wt(w, &f, NNAV_WT_LEN, what))
                return err_prepend(w->err, "%s", what);
            if (f.num == NNAV_TF_NAMEATTRLIST_NAME)
                *name = f.s;
        } else if (keep_unknown(w, &f, "NameAttrList", NNAV_NONE)) {
            return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__name_attr_list__descriptor) : 0;
}

/* Link a func attr to the function graphs it names: graph_first/graph_count
 * when they form one run of ids (a single function always does). */
static void link_funcs(tfw *w, nnav_attr *a, const uint32_t *gids, uint32_t n)
{
    uint32_t run = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (gids[i] == NNAV_NONE || (i && gids[i] != gids[0] + i))
            break;
        run++;
    }
    if (run == n && n) {
        a->graph_first = gids[0];
        a->graph_count = n;
    } else if (n && gids[0] != NNAV_NONE) {
        /* Not one run: Enter still reaches the first; the text names all. */
        a->graph_first = gids[0];
        a->graph_count = 1;
    }
}

/* AttrValue.ListValue's fields, s = 2 to func = 9 in a row. */
enum {
    LV_S = NNAV_TF_ATTRVALUE_LISTVALUE_S, LV_I = NNAV_TF_ATTRVALUE_LISTVALUE_I,
    LV_F = NNAV_TF_ATTRVALUE_LISTVALUE_F, LV_B = NNAV_TF_ATTRVALUE_LISTVALUE_B,
    LV_TYPE = NNAV_TF_ATTRVALUE_LISTVALUE_TYPE, LV_TENSOR = NNAV_TF_ATTRVALUE_LISTVALUE_TENSOR,
    LV_FUNC = NNAV_TF_ATTRVALUE_LISTVALUE_FUNC
};

static int walk_list(tfw *w, uint32_t graph, uint32_t aid, nnav_span s, nnav_attr *a)
{
    nnav_wire r;
    nnav_field f;
    int k, kind = 0;
    NNAV_VEC(uint32_t) gids = {0};
    uint32_t idx[LV_FUNC + 1] = {0};
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num < LV_S || f.num > LV_FUNC) {
            if (keep_unknown(w, &f, "AttrValue.ListValue", aid))
                goto fail;
            continue;
        }
        const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
            &tensorflow__attr_value__list_value__descriptor, f.num);
        uint8_t ewt = f.num == LV_F ? NNAV_WT_I32
                      : (f.num == LV_I || f.num == LV_B || f.num == LV_TYPE) ? NNAV_WT_VARINT
                                                                              : NNAV_WT_LEN;
        if (f.wt != ewt && !(f.wt == NNAV_WT_LEN && ewt != NNAV_WT_LEN)) {
            expect_wt(w, &f, ewt, fd->name);
            err_prepend(w->err, "%s[%u]", fd->name, idx[f.num]);
            goto fail;
        }
        if (f.num == LV_F && f.wt == NNAV_WT_LEN && f.s.n % 4) {
            nnav_err_set(w->err, off_of(w, f.s), 1,
                         "packed field holds %llu bytes, not a multiple of its 4-byte element",
                         (unsigned long long)f.s.n);
            err_prepend(w->err, "f");
            goto fail;
        }
        if (!kind)
            kind = (int)f.num;
        if (f.num == LV_TENSOR) {
            uint32_t tid;
            if (walk_tensor(w, graph, f.s, NNAV_TOWN_ATTRIBUTE, aid, (nnav_span){0}, &tid) < 0) {
                err_prepend(w->err, "tensor[%u]", idx[LV_TENSOR]);
                goto fail;
            }
            if (a->tensor_first == NNAV_NONE)
                a->tensor_first = tid;
            a->tensor_count++;
        } else if (f.num == LV_FUNC) {
            nnav_span name;
            if (walk_namelist(w, f.s, &name) < 0) {
                err_prepend(w->err, "func[%u]", idx[LV_FUNC]);
                goto fail;
            }
            uint32_t *g = nnav_vec_push(gids);
            if (!g) {
                oom(w);
                goto fail;
            }
            *g = fn_graph(w, name);
        }
        idx[f.num]++;
    }
    if (k < 0) {
        wire_fail(w, &r, &tensorflow__attr_value__list_value__descriptor);
        goto fail;
    }
    static const uint8_t types[10] = {
        [2] = NNAV_ATTR_STRINGS, [3] = NNAV_ATTR_INTS, [4] = NNAV_ATTR_FLOATS,
        [5] = NNAV_ATTR_TF_BOOLS, [6] = NNAV_ATTR_TF_TYPES, [7] = NNAV_ATTR_TF_SHAPES,
        [8] = NNAV_ATTR_TENSORS, [9] = NNAV_ATTR_TF_FUNCS};
    a->type = kind ? types[kind] : NNAV_ATTR_TF_LIST;
    if (gids.n)
        link_funcs(w, a, gids.v, gids.n);
    nnav_vec_free(gids);
    return 0;
fail:
    nnav_vec_free(gids);
    return -1;
}

/* One attr: a map entry (key, AttrValue) of a node (node != NNAV_NONE) or of
 * a function. `init_name`: a Const's value tensor is an initializer by that
 * name (p == NULL: not a Const). */
static int walk_attr(tfw *w, uint32_t graph, uint32_t node, nnav_span entry, nnav_span init_name)
{
    nnav_model *m = w->m;
    uint32_t aid = m->attrs.n;
    nnav_span key, value;
    if (tf_walk_entry(w, entry, &key, &value, NULL, &tensorflow__attr_value__descriptor) < 0)
        return err_prepend(w->err, "attr");
    if (!nnav_vec_push(m->attrs))
        return oom(w);
    nnav_attr a;
    memset(&a, 0, sizeof a);
    a.name = key;
    a.msg = value;
    a.node = node;
    a.graph_first = a.tensor_first = NNAV_NONE;
    char kb[80];
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, value);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num < TF_AV_LIST || f.num > TF_AV_FUNC) {
            if (keep_unknown(w, &f, "AttrValue", aid))
                return -1;
            continue;
        }
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field(&tensorflow__attr_value__descriptor, f.num);
        uint8_t ewt = f.num == TF_AV_F ? NNAV_WT_I32
                      : (f.num == TF_AV_I || f.num == TF_AV_B || f.num == TF_AV_TYPE)
                          ? NNAV_WT_VARINT : NNAV_WT_LEN;
        if (expect_wt(w, &f, ewt, fd->name))
            return err_prepend(w->err, "attr[\"%s\"].%s", q(key, kb, 64), fd->name);
        /* A oneof: the last member written is the value. */
        a.tensor_first = NNAV_NONE;
        a.tensor_count = 0;
        a.graph_first = NNAV_NONE;
        a.graph_count = 0;
        a.ref_attr_name = (nnav_span){0};
        switch (f.num) {
        case TF_AV_LIST:
            if (walk_list(w, graph, aid, f.s, &a) < 0)
                return err_prepend(w->err, "attr[\"%s\"].list", q(key, kb, 64));
            break;
        case TF_AV_S: a.type = NNAV_ATTR_STRING; break;
        case TF_AV_I: a.type = NNAV_ATTR_INT; break;
        case TF_AV_F: a.type = NNAV_ATTR_FLOAT; break;
        case TF_AV_B: a.type = NNAV_ATTR_TF_BOOL; break;
        case TF_AV_TYPE: a.type = NNAV_ATTR_TF_TYPE; break;
        case TF_AV_SHAPE: a.type = NNAV_ATTR_TF_SHAPE; break;
        case TF_AV_PLACEHOLDER:
            a.type = NNAV_ATTR_TF_PLACEHOLDER;
            a.ref_attr_name = f.s;
            break;
        case TF_AV_TENSOR: {
            uint32_t tid;
            int is_init = init_name.p && nnav_span_eqs(key, "value");
            if (walk_tensor(w, graph, f.s, is_init ? NNAV_TOWN_INITIALIZER : NNAV_TOWN_ATTRIBUTE,
                            aid, is_init ? init_name : (nnav_span){0}, &tid) < 0)
                return err_prepend(w->err, "attr[\"%s\"].tensor", q(key, kb, 64));
            a.type = NNAV_ATTR_TENSOR;
            a.tensor_first = tid;
            a.tensor_count = 1;
            break;
        }
        case TF_AV_FUNC: {
            nnav_span name;
            if (walk_namelist(w, f.s, &name) < 0)
                return err_prepend(w->err, "attr[\"%s\"].func", q(key, kb, 64));
            uint32_t g = fn_graph(w, name);
            a.type = NNAV_ATTR_TF_FUNC;
            link_funcs(w, &a, &g, 1);
            break;
        }
        }
    }
    if (k < 0) {
        wire_fail(w, &r, &tensorflow__attr_value__descriptor);
        return err_prepend(w->err, "attr[\"%s\"]", q(key, kb, 64));
    }
    m->attrs.v[aid] = a;
    return 0;
}

/* ---- nodes ---- */

static int walk_node(tfw *w, uint32_t graph, nnav_span s)
{
    nnav_model *m = w->m;
    uint32_t nid = m->nodes.n;
    nnav_node n;
    memset(&n, 0, sizeof n);
    n.graph = graph;
    n.msg = s;
    n.function = NNAV_NONE;
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case ND_NAME: case ND_OP: case ND_DEVICE: case ND_INPUT: case ND_ATTR: case ND_DEBUG:
        case ND_TYPE: {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__node_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == ND_NAME)
                n.name = f.s;
            else if (f.num == ND_OP)
                n.op = f.s;
            break;
        }
        default:
            if (keep_unknown(w, &f, "NodeDef", nid))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &tensorflow__node_def__descriptor);
    /* Data inputs first, then control inputs, each in the order written. */
    n.in_first = m->refs.n;
    for (int control = 0; control < 2; control++) {
        winit(w, &r, s);
        while (nnav_wire_next(&r, &f, w->err) == 1) {
            if (f.num != ND_INPUT)
                continue;
            int is_ctl = f.s.n > 0 && f.s.p[0] == '^';
            if (is_ctl != control)
                continue;
            if (nnav_ref_push(m, f.s, is_ctl))
                return oom(w);
            n.in_count++;
        }
    }
    n.attr_first = m->attrs.n;
    int is_const = nnav_span_eqs(n.op, "Const") || nnav_span_eqs(n.op, "HostConst");
    winit(w, &r, s);
    while (nnav_wire_next(&r, &f, w->err) == 1) {
        if (f.num != ND_ATTR)
            continue;
        if (walk_attr(w, graph, nid, f.s, is_const ? n.name : (nnav_span){0}) < 0)
            return -1;
        n.attr_count++;
    }
    n.out_first = m->refs.n;
    nnav_node *slot = nnav_vec_push(m->nodes);
    if (!slot)
        return oom(w);
    *slot = n;
    return 0;
}

/* ---- names of values ---- */

typedef struct tf_name {
    nnav_span node, arg; /* arg.p == NULL: none */
    uint64_t idx;
    int has_idx;
} tf_name;

static int all_digits(const uint8_t *p, uint64_t n, uint64_t *v)
{
    if (n == 0 || n > 18)
        return 0;
    uint64_t x = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        x = x * 10 + (p[i] - '0');
    }
    *v = x;
    return 1;
}

/* "node", "node:1" (top level); "arg", "arg:1", "node:out_arg", "node:out_arg:1"
 * (function bodies). Node names cannot hold ':', so the first ':' ends one. */
static void parse_input(nnav_span s, int in_fn, tf_name *o)
{
    memset(o, 0, sizeof *o);
    o->node = s;
    const uint8_t *c1 = s.n ? memchr(s.p, ':', s.n) : NULL;
    if (!c1)
        return;
    const uint8_t *c2 = s.p + s.n;
    while (c2 > c1 && c2[-1] != ':')
        c2--;
    c2--; /* the last ':' */
    uint64_t v;
    if (!in_fn) {
        if (all_digits(c2 + 1, (uint64_t)(s.p + s.n - c2 - 1), &v)) {
            o->node = (nnav_span){s.p, (uint64_t)(c2 - s.p)};
            o->idx = v;
            o->has_idx = 1;
        }
        return;
    }
    o->node = (nnav_span){s.p, (uint64_t)(c1 - s.p)};
    if (c1 == c2) {
        if (all_digits(c1 + 1, (uint64_t)(s.p + s.n - c1 - 1), &v)) {
            o->idx = v;
            o->has_idx = 1;
        } else {
            o->arg = (nnav_span){c1 + 1, (uint64_t)(s.p + s.n - c1 - 1)};
        }
        return;
    }
    o->arg = (nnav_span){c1 + 1, (uint64_t)(c2 - c1 - 1)};
    if (all_digits(c2 + 1, (uint64_t)(s.p + s.n - c2 - 1), &v)) {
        o->idx = v;
        o->has_idx = 1;
    } else {
        o->arg = (nnav_span){c1 + 1, (uint64_t)(s.p + s.n - c1 - 1)};
    }
}

static uint32_t node_attr(const nnav_model *m, const nnav_node *nd, const char *name)
{
    for (uint32_t i = 0; i < nd->attr_count; i++)
        if (nnav_span_eqs(m->attrs.v[nd->attr_first + i].name, name))
            return nd->attr_first + i;
    return NNAV_NONE;
}

static uint32_t node_attr_span(const nnav_model *m, const nnav_node *nd, nnav_span name)
{
    for (uint32_t i = 0; i < nd->attr_count; i++)
        if (nnav_span_same(m->attrs.v[nd->attr_first + i].name, name))
            return nd->attr_first + i;
    return NNAV_NONE;
}

/* ---- one graph, once its nodes are in: outputs, names, types ---- */

/* Ops that produce no data output, for graphs that carry no op list. */
static int no_output_op(nnav_span op)
{
    static const char *ops[] = {"NoOp", "Assert", "AssignVariableOp", "AssignAddVariableOp",
                                "AssignSubVariableOp", "SaveV2", "Save", "SaveSlices",
                                "MergeV2Checkpoints", "ControlTrigger", "DestroyResourceOp",
                                "PrintV2", "InitializeTableV2", "InitializeTableFromTextFileV2"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (nnav_span_eqs(op, ops[i]))
            return 1;
    return 0;
}

static int refd_cmp(const void *a, const void *b)
{
    const tf_refd *x = a, *y = b;
    if (x->node != y->node)
        return x->node < y->node ? -1 : 1;
    uint64_t n = x->arg.n < y->arg.n ? x->arg.n : y->arg.n;
    int c = n ? memcmp(x->arg.p, y->arg.p, n) : 0;
    if (c)
        return c;
    if (x->arg.n != y->arg.n)
        return x->arg.n < y->arg.n ? -1 : 1;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static int add_vi(tfw *w, nnav_span name, nnav_span type)
{
    tf_vi *v = nnav_vec_push(w->vis);
    if (!v)
        return oom(w);
    v->name = name;
    v->type = type;
    return 0;
}

/* An int attr's value (-1 absent or not an int); a list attr's length. */
static int64_t attr_int(tfw *w, uint32_t a)
{
    nnav_field f;
    nnav_error e;
    if (a == NNAV_NONE || nnav_tf_attr_scalar(w->m, a, TF_AV_I, &f, &e) != 1)
        return -1;
    return (int64_t)f.v;
}

static int32_t attr_type(tfw *w, uint32_t a)
{
    nnav_field f;
    nnav_error e;
    if (a == NNAV_NONE || nnav_tf_attr_scalar(w->m, a, TF_AV_TYPE, &f, &e) != 1)
        return 0;
    int32_t dt = nnav_tf_dtype(f.v);
    return dt < 0 && !nnav_dtype_valid(dt) ? 0 : dt;
}

/* Inside an AttrValue's bytes: the scalar member `field` (1 found, 0 not). */
static int av_scalar(const uint8_t *base, nnav_span av, int field, uint64_t *v)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int found = 0;
    nnav_wire_init(&r, base, av);
    while (nnav_wire_next(&r, &f, &e) == 1)
        if (f.num == (uint32_t)field && f.wt == NNAV_WT_VARINT)
            *v = f.v, found = 1;
    return found;
}

/* Inside an AttrValue's bytes: item `index` of list member `field` (LEN items:
 * shapes, tensors, funcs, strings). */
static int av_list_item(const uint8_t *base, nnav_span av, int field, uint64_t index,
                        nnav_span *out)
{
    nnav_wire r, l;
    nnav_field f, g;
    nnav_error e;
    uint64_t i = 0;
    nnav_wire_init(&r, base, av);
    while (nnav_wire_next(&r, &f, &e) == 1) {
        if (f.num != TF_AV_LIST || f.wt != NNAV_WT_LEN)
            continue;
        nnav_wire_init(&l, base, f.s);
        while (nnav_wire_next(&l, &g, &e) == 1)
            if (g.num == (uint32_t)field && g.wt == NNAV_WT_LEN && i++ == index) {
                *out = g.s;
                return 1;
            }
    }
    return 0;
}

/* The default an OpDef gives attr `name` (its AttrValue bytes). */
static int op_default(tfw *w, const tf_op *op, nnav_span name, nnav_span *av)
{
    nnav_wire r, a;
    nnav_field f, g;
    nnav_error e;
    winit(w, &r, op->msg);
    while (nnav_wire_next(&r, &f, &e) == 1) {
        if (f.num != OP_ATTR || f.wt != NNAV_WT_LEN)
            continue;
        nnav_span key = {0}, def = {0};
        winit(w, &a, f.s);
        while (nnav_wire_next(&a, &g, &e) == 1) {
            if (g.num == NNAV_TF_OPDEF_ATTRDEF_NAME && g.wt == NNAV_WT_LEN)
                key = g.s;
            else if (g.num == NNAV_TF_OPDEF_ATTRDEF_DEFAULT_VALUE && g.wt == NNAV_WT_LEN)
                def = g.s;
        }
        if (nnav_span_same(key, name) && def.p) {
            *av = def;
            return 1;
        }
    }
    return 0;
}

/* Resolve a data input as written to the value name the index uses.
 * `fx` is set in function bodies. */
static nnav_span canonical(tfw *w, uint32_t gid, nnav_span s, const tf_fnextra *fx)
{
    nnav_model *m = w->m;
    tf_name nm;
    parse_input(s, fx != NULL, &nm);
    if (fx) {
        const tf_op *sig = &w->fsig.v[fx->fid];
        for (uint32_t i = 0; i < sig->in_count; i++)
            if (nnav_span_same(w->args.v[sig->in_first + i].name, nm.node) && !nm.arg.p)
                return nm.idx == 0 ? w->args.v[sig->in_first + i].name : s;
    }
    uint32_t nid = tf_tab_find(w, &w->nodetab, node_key, nm.node);
    if (nid == NNAV_NONE) {
        if (!fx && !nm.has_idx)
            return cat_span(w->tf, s, ":0");
        return s;
    }
    const nnav_node *nd = &m->nodes.v[nid];
    uint32_t data_outs = nd->out_count;
    if (data_outs && nnav_ref_control(m, nd->out_first + data_outs - 1))
        data_outs--;
    if (!fx || !nm.arg.p) {
        if (nm.idx < data_outs)
            return nnav_ref_name(m, nd->out_first + nm.idx);
        return fx ? s : cat_span(w->tf, nm.node, ":%llu", (unsigned long long)nm.idx);
    }
    /* node:arg[:k]: the output of that name. */
    nnav_span want = nm.has_idx ? s : cat_span(w->tf, s, ":0");
    for (uint32_t o = 0; o < data_outs; o++)
        if (nnav_span_same(nnav_ref_name(m, nd->out_first + o), want))
            return nnav_ref_name(m, nd->out_first + o);
    return want;
}

/* The kind an attr has, in OpDef's words ("int", "list(type)"...). */
static const char *kind_word(uint8_t t)
{
    switch (t) {
    case NNAV_ATTR_STRING: return "string";
    case NNAV_ATTR_INT: return "int";
    case NNAV_ATTR_FLOAT: return "float";
    case NNAV_ATTR_TENSOR: return "tensor";
    case NNAV_ATTR_TF_BOOL: return "bool";
    case NNAV_ATTR_TF_TYPE: return "type";
    case NNAV_ATTR_TF_SHAPE: return "shape";
    case NNAV_ATTR_TF_FUNC: return "func";
    case NNAV_ATTR_STRINGS: return "list(string)";
    case NNAV_ATTR_INTS: return "list(int)";
    case NNAV_ATTR_FLOATS: return "list(float)";
    case NNAV_ATTR_TENSORS: return "list(tensor)";
    case NNAV_ATTR_TF_BOOLS: return "list(bool)";
    case NNAV_ATTR_TF_TYPES: return "list(type)";
    case NNAV_ATTR_TF_SHAPES: return "list(shape)";
    case NNAV_ATTR_TF_FUNCS: return "list(func)";
    }
    return NULL; /* placeholder, empty list, no value: fits anything */
}

/* Attrs whose kind the op (or, without an op list, TensorFlow's usage)
 * fixes: one of another kind is named in a warning. */
static int check_attr_kinds(tfw *w, const nnav_node *nd, const tf_op *op)
{
    static const struct { const char *name, *kind; } known[] = {
        {"f", "func"}, {"then_branch", "func"}, {"else_branch", "func"}, {"cond", "func"},
        {"body", "func"}, {"branches", "list(func)"}, {"_output_shapes", "list(shape)"},
        {"dtype", "type"}, {"Tin", "list(type)"}, {"Tout", "list(type)"}};
    nnav_model *m = w->m;
    char nb[80], ob[80], ab[80];
    for (uint32_t i = 0; i < nd->attr_count; i++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + i];
        const char *have = kind_word(at->type), *want = NULL;
        char wbuf[64];
        if (!have)
            continue;
        if (op) {
            nnav_wire r, a;
            nnav_field f, g;
            nnav_error e;
            winit(w, &r, op->msg);
            while (!want && nnav_wire_next(&r, &f, &e) == 1) {
                if (f.num != OP_ATTR || f.wt != NNAV_WT_LEN)
                    continue;
                nnav_span key = {0}, type = {0};
                winit(w, &a, f.s);
                while (nnav_wire_next(&a, &g, &e) == 1) {
                    if (g.num == NNAV_TF_OPDEF_ATTRDEF_NAME && g.wt == NNAV_WT_LEN)
                        key = g.s;
                    else if (g.num == NNAV_TF_OPDEF_ATTRDEF_TYPE && g.wt == NNAV_WT_LEN)
                        type = g.s;
                }
                if (nnav_span_same(key, at->name) && type.n && type.n < sizeof wbuf) {
                    memcpy(wbuf, type.p, type.n);
                    wbuf[type.n] = 0;
                    want = wbuf;
                }
            }
        }
        int is_const = nnav_span_eqs(nd->op, "Const") || nnav_span_eqs(nd->op, "HostConst");
        if (!want && is_const && nnav_span_eqs(at->name, "value"))
            want = "tensor";
        for (size_t k = 0; !want && k < sizeof known / sizeof *known; k++)
            if (!op || known[k].name[0] == '_') /* framework attrs: in no op list */
                if (nnav_span_eqs(at->name, known[k].name))
                    want = known[k].kind;
        /* "list(type)" with a minimum of 0 may be written as an empty list. */
        if (!want || !strcmp(want, have) || (!strncmp(want, "list(", 5) && at->type == NNAV_ATTR_TF_LIST))
            continue;
        if (nnav_tf_warn(m, "node \"%s\" (%s): attr \"%s\" is %s, the op wants %s",
                         q(nd->name, nb, 64), q(nd->op, ob, 64), q(at->name, ab, 64), have, want))
            return oom(w);
    }
    return 0;
}

/* The type TensorFlow gives the output of a Placeholder, PlaceholderV2 or
 * PlaceholderWithDefault: its `dtype` attr and its `shape` attr (absent: the
 * op's default, unknown rank). Placeholder's legacy rule (its shape function
 * in TensorFlow's array_ops.cc): in a graph whose versions.producer is 21 or
 * less, a shape with no dims means unknown, not a scalar. Returns 0 with
 * *type set, 1 when nd is none of these ops, -1 on error (w->err). */
static int placeholder_type(tfw *w, const nnav_node *nd, nnav_span *type)
{
    int v1 = nnav_span_eqs(nd->op, "Placeholder");
    if (!v1 && !nnav_span_eqs(nd->op, "PlaceholderV2") &&
        !nnav_span_eqs(nd->op, "PlaceholderWithDefault"))
        return 1;
    nnav_model *m = w->m;
    uint32_t sa = node_attr(m, nd, "shape");
    nnav_span sh = {0};
    if (sa != NNAV_NONE && m->attrs.v[sa].type == NNAV_ATTR_TF_SHAPE) {
        nnav_field f;
        nnav_error e;
        if (nnav_tf_attr_scalar(m, sa, TF_AV_SHAPE, &f, &e) == 1)
            sh = f.s;
    }
    if (v1 && sh.p && w->producer <= 21) {
        int32_t rank;
        uint32_t bad;
        if (tf_walk_shape(w, sh, &rank, &bad) < 0)
            return -1;
        if (rank <= 0)
            sh = (nnav_span){0};
    }
    return shape_type(w, attr_type(w, node_attr(m, nd, "dtype")), sh, type);
}

/* The outputs of one node: from its function's or its op's signature when
 * known, else from `_output_shapes` and from what other nodes read of it.
 * A Placeholder's output has the type of its attrs (placeholder_type). */
static int node_outputs(tfw *w, uint32_t nid, uint32_t local, const tf_fnextra *fx)
{
    nnav_model *m = w->m;
    nnav_node *nd = &m->nodes.v[nid];
    const tf_nodeinfo *inf = &w->info.v[local];
    const tf_op *op = NULL;
    char nb[80], ob[80];
    if (w->fntab.slot) {
        uint32_t fid = tf_tab_find(w, &w->fntab, fn_key, nd->op);
        if (fid != NNAV_NONE) {
            op = &w->fsig.v[fid];
            nd->function = fid;
        }
    }
    if (!op && w->optab.slot) {
        uint32_t oid = tf_tab_find(w, &w->optab, op_key, nd->op);
        if (oid != NNAV_NONE)
            op = &w->ops.v[oid];
    }
    if (check_attr_kinds(w, nd, op) < 0)
        return -1;
    /* Output shapes, when the writer added them. */
    uint32_t shapes_attr = node_attr(m, nd, "_output_shapes");
    size_t nshapes = 0;
    nnav_span *shapes = NULL;
    if (shapes_attr != NNAV_NONE) {
        const nnav_attr *sa = &m->attrs.v[shapes_attr];
        nnav_error e;
        if (sa->type != NNAV_ATTR_TF_SHAPES && sa->type != NNAV_ATTR_TF_LIST) {
            /* named by check_attr_kinds; its shapes are not used */
        } else if (nnav_tf_attr_list(m, shapes_attr, TF_AV_SHAPE, NULL, NULL, NULL, 0, &nshapes,
                                     &e) == 0 && nshapes) {
            if (nshapes > TF_MAX_OUTPUTS)
                nshapes = TF_MAX_OUTPUTS;
            shapes = malloc(nshapes * sizeof *shapes);
            if (!shapes)
                return oom(w);
            nnav_tf_attr_list(m, shapes_attr, TF_AV_SHAPE, NULL, NULL, shapes, nshapes, &nshapes,
                              &e);
        }
    }
    nd->out_first = m->refs.n;
    nd->out_count = 0;
    int rc = -1;
    uint64_t flat = 0;
    nnav_span ph_type = {0};
    int ph = placeholder_type(w, nd, &ph_type);
    if (ph < 0) {
        err_prepend(w->err, "attr[\"shape\"].shape");
        goto out;
    }
    /* One output: its ref, and a value info when its type is known. */
#define OUTPUT(NAME, DTYPE)                                                                      \
    do {                                                                                         \
        nnav_span nm_ = (NAME);                                                                  \
        if (!nm_.p || nnav_ref_push(m, nm_, 0))                                                  \
            goto oom_out;                                                                        \
        nd->out_count++;                                                                         \
        nnav_span sh_ = flat < nshapes ? shapes[flat] : (nnav_span){0};                          \
        if (ph == 0 && flat == 0) {                                                              \
            if (add_vi(w, nm_, ph_type) < 0)                                                     \
                goto out;                                                                        \
        } else if ((DTYPE) || sh_.p) {                                                           \
            nnav_span ty_;                                                                       \
            if (shape_type(w, (DTYPE), sh_, &ty_) < 0) {                                         \
                err_prepend(w->err, "attr[\"_output_shapes\"].list.shape[%llu]",                 \
                            (unsigned long long)flat);                                           \
                goto out;                                                                        \
            }                                                                                    \
            if (add_vi(w, nm_, ty_) < 0)                                                         \
                goto out;                                                                        \
        }                                                                                        \
        flat++;                                                                                  \
    } while (0)
    if (op) {
        uint64_t total = 0;
        for (uint32_t i = 0; i < op->out_count; i++) {
            const tf_arg *arg = &w->args.v[op->out_first + i];
            int64_t count = 1;
            uint32_t list_attr = NNAV_NONE;
            if (arg->number_attr.n) {
                uint32_t na = node_attr_span(m, nd, arg->number_attr);
                nnav_span def;
                uint64_t v;
                count = attr_int(w, na);
                /* Dropped because it equals the default (stripped_default_attrs). */
                if (na == NNAV_NONE && op_default(w, op, arg->number_attr, &def) &&
                    av_scalar(w->base, def, TF_AV_I, &v))
                    count = (int64_t)v;
            } else if (arg->type_list_attr.n) {
                list_attr = node_attr_span(m, nd, arg->type_list_attr);
                size_t len = 0;
                nnav_error e;
                count = list_attr != NNAV_NONE &&
                                nnav_tf_attr_list(m, list_attr, TF_AV_TYPE, NULL, NULL, NULL, 0,
                                                  &len, &e) == 0
                            ? (int64_t)len : -1;
            }
            if (count < 0 || (uint64_t)count > TF_MAX_OUTPUTS - total) {
                char ab[80];
                if (nnav_tf_warn(m, "node \"%s\" (%s): output %s has no usable count (attr "
                                    "\"%s\" missing, not an int list, negative or over %u)",
                                 q(nd->name, nb, 64), q(nd->op, ob, 64), q(arg->name, ab, 64),
                                 q(arg->number_attr.n ? arg->number_attr : arg->type_list_attr,
                                   ab, 64), TF_MAX_OUTPUTS))
                    goto oom_out;
                count = 1;
            }
            int64_t tl[64];
            size_t tln = 0;
            if (list_attr != NNAV_NONE) {
                nnav_error e;
                nnav_tf_attr_list(m, list_attr, TF_AV_TYPE, tl, NULL, NULL, 64, &tln, &e);
            }
            int32_t dt = arg->dtype;
            if (!dt && arg->type_attr.n) {
                uint32_t ta = node_attr_span(m, nd, arg->type_attr);
                nnav_span def;
                uint64_t v;
                dt = attr_type(w, ta);
                if (ta == NNAV_NONE && op_default(w, op, arg->type_attr, &def) &&
                    av_scalar(w->base, def, TF_AV_TYPE, &v)) {
                    dt = nnav_tf_dtype(v);
                    if (dt < 0 && !nnav_dtype_valid(dt))
                        dt = 0;
                }
            }
            for (int64_t j = 0; j < count; j++) {
                int32_t d = dt;
                if (list_attr != NNAV_NONE && (size_t)j < tln && (size_t)j < 64) {
                    d = nnav_tf_dtype((uint64_t)tl[j]);
                    if (d < 0 && !nnav_dtype_valid(d))
                        d = 0;
                }
                nnav_span name = fx ? join3(w->tf, nd->name, arg->name, (uint64_t)j)
                                    : cat_span(w->tf, nd->name, ":%llu",
                                               (unsigned long long)total);
                OUTPUT(name, d);
                total++;
            }
        }
    } else if (!fx) {
        /* Top level, no signature: at least what is read or shaped. */
        uint64_t count = no_output_op(nd->op) ? 0 : 1;
        if (inf->max_ref >= 0 && (uint64_t)inf->max_ref + 1 > count)
            count = (uint64_t)inf->max_ref + 1;
        if (nshapes > count)
            count = nshapes;
        if (count > TF_MAX_OUTPUTS)
            count = TF_MAX_OUTPUTS;
        int32_t dt = 0;
        if (count == 1) {
            dt = attr_type(w, node_attr(m, nd, "dtype"));
            if (!dt)
                dt = attr_type(w, node_attr(m, nd, "T"));
        }
        for (uint64_t j = 0; j < count; j++)
            OUTPUT(cat_span(w->tf, nd->name, ":%llu", (unsigned long long)j), dt);
    } else {
        /* Function body, no signature: the outputs other nodes name. */
        int32_t dt = inf->ref_count == 1 ? attr_type(w, node_attr(m, nd, "T")) : 0;
        for (uint32_t j = 0; j < inf->ref_count; j++) {
            const tf_refd *rd = &w->refd.v[inf->ref_first + j];
            OUTPUT(join3(w->tf, nd->name, rd->arg, rd->idx), dt);
        }
    }
    if (inf->ctl.p) {
        if (nnav_ref_push(m, inf->ctl, 1))
            goto oom_out;
        nd->out_count++;
    }
#undef OUTPUT
    rc = 0;
    goto out;
oom_out:
    oom(w);
out:
    free(shapes);
    return rc;
}

/* Record that node `nid` (of the graph at node_first) has output ARG:idx (or
 * flat output idx) read by someone. */
static int note_ref(tfw *w, uint32_t node_first, nnav_span written, int in_fn)
{
    tf_name nm;
    parse_input(written, in_fn, &nm);
    uint32_t nid = tf_tab_find(w, &w->nodetab, node_key, nm.node);
    if (nid == NNAV_NONE)
        return 0;
    tf_nodeinfo *inf = &w->info.v[nid - node_first];
    if (!in_fn || !nm.arg.p) {
        if (nm.idx < TF_MAX_OUTPUTS && (int64_t)nm.idx > inf->max_ref)
            inf->max_ref = (int64_t)nm.idx;
        return 0;
    }
    tf_refd *rd = nnav_vec_push(w->refd);
    if (!rd)
        return oom(w);
    rd->node = nid - node_first;
    rd->arg = nm.arg;
    rd->idx = nm.idx;
    return 0;
}

/* The shape a function's input i is declared with: its arg_attr's
 * `_output_shapes`, else the function's `_input_shapes`. */
static nnav_span input_shape(tfw *w, const tf_fnextra *fx, uint32_t i)
{
    nnav_span sh = {0};
    if (i < fx->arg_attr.n && fx->arg_attr.v[i].p) {
        nnav_wire r;
        nnav_field f;
        nnav_error e;
        winit(w, &r, fx->arg_attr.v[i]);
        while (nnav_wire_next(&r, &f, &e) == 1) {
            if (f.num != NNAV_TF_FUNCTIONDEF_ARGATTRS_ATTR || f.wt != NNAV_WT_LEN)
                continue;
            nnav_span key, value;
            if (tf_walk_entry(w, f.s, &key, &value, NULL, &tensorflow__attr_value__descriptor) == 0 &&
                nnav_span_eqs(key, "_output_shapes") && av_list_item(w->base, value, TF_AV_SHAPE, 0, &sh))
                return sh;
        }
        memset(w->err, 0, sizeof *w->err);
    }
    if (fx->input_shapes.p)
        av_list_item(w->base, fx->input_shapes, TF_AV_SHAPE, i, &sh);
    return sh;
}

static int push_vinfo(tfw *w, uint32_t gid, nnav_span name, nnav_span type)
{
    nnav_vinfo *v = nnav_vec_push(w->m->vinfos);
    if (!v)
        return oom(w);
    v->name = name;
    v->type = type;
    v->graph = gid;
    v->value = NNAV_NONE;
    return 0;
}

static int vinfo_listed(const nnav_model *m, uint32_t first, nnav_span name)
{
    if (m->vinfos.n - first > 4096)
        return 0; /* so many: keep them all rather than compare each pair */
    for (uint32_t i = first; i < m->vinfos.n; i++)
        if (nnav_span_same(m->vinfos.v[i].name, name))
            return 1;
    return 0;
}

/* 1 when a type made by make_type has an element type. */
static int type_has_dtype(nnav_span t)
{
    uint64_t o = 1;
    while (o < t.n && (t.p[o] & 0x80))
        o++;
    return t.n > o + 1 && t.p[0] == 0x0a && t.p[o + 1] == 0x08;
}

/* The type the graph gives the tensor `name` ("node:i", canonical; in a
 * function body, in_fn: "node:arg:i") among the
 * nodes [nf, nf + nc) being linked: what its producer's outputs recorded
 * (op signature, attrs, _output_shapes) when that has an element type; an
 * empty span when the graph says nothing of it. */
static nnav_span graph_type(tfw *w, uint32_t nf, uint32_t nc, nnav_span name, int in_fn)
{
    tf_name nm;
    parse_input(name, in_fn, &nm);
    uint32_t nid = tf_tab_find(w, &w->nodetab, node_key, nm.node);
    if (nid == NNAV_NONE || nid - nf >= nc)
        return (nnav_span){0};
    uint32_t l = nid - nf, end = l + 1 < nc ? w->info.v[l + 1].vi_first : w->vis.n;
    for (uint32_t i = w->info.v[l].vi_first; i < end && i < w->vis.n; i++)
        if (nnav_span_same(w->vis.v[i].name, name) && type_has_dtype(w->vis.v[i].type))
            return w->vis.v[i].type;
    return (nnav_span){0};
}

/* The value infos a signature gives a meta graph's graph: its inputs (side 0)
 * or outputs (side 1), once per tensor. Each has the type the graph gives
 * the tensor (a Placeholder's attrs are its value's type; a signature that
 * disagrees is a finding of `nnav check`), the signature's where the graph
 * gives none. */
static int signature_vinfos(tfw *w, uint32_t gid, uint32_t meta, int side)
{
    nnav_model *m = w->m;
    const tf_metagraph *mg = &w->tf->metas.v[meta];
    uint32_t first = m->vinfos.n;
    for (uint32_t s = mg->g.sig_first; s < mg->g.sig_first + mg->g.sig_count; s++) {
        const nnav_signature *sg = &w->tf->sigs.v[s];
        uint32_t f = side ? sg->out_first : sg->in_first, n = side ? sg->out_count : sg->in_count;
        for (uint32_t i = f; i < f + n; i++) {
            const nnav_sig_tensor *st = &w->tf->sig_tensors.v[i];
            /* A name with no ":index" is an op to run (the init op), not a tensor. */
            if (!st->name.n || (side && !memchr(st->name.p, ':', st->name.n)))
                continue;
            nnav_span name = canonical(w, gid, st->name, NULL);
            if (!name.p)
                return oom(w);
            if (vinfo_listed(m, first, name))
                continue;
            nnav_span type = graph_type(w, m->graphs.v[gid].node_first, m->graphs.v[gid].node_count,
                                        name, 0);
            if (!type.p)
                type = make_type(w, st->dtype, st->rank, m->dims.v + st->dims_first);
            if (!type.p || push_vinfo(w, gid, name, type) < 0)
                return oom(w);
        }
    }
    return 0;
}

/* Everything that needs all of a graph's nodes: the node-name table, each
 * node's outputs, inputs rewritten to value names, and the graph's inputs,
 * outputs and value infos. `fx` for a function body, `meta` for a meta
 * graph's graph (NNAV_NONE for a bare GraphDef or a function). */
int tf_link_graph(tfw *w, uint32_t gid, const tf_fnextra *fx, uint32_t meta)
{
    nnav_model *m = w->m;
    uint32_t nf = m->graphs.v[gid].node_first, nc = m->graphs.v[gid].node_count;
    char nb[80];
    if (tf_tab_init(&w->nodetab, (uint64_t)nc + 1))
        return oom(w);
    for (uint32_t i = 0; i < nc; i++) {
        const nnav_node *nd = &m->nodes.v[nf + i];
        if (!nd->name.n)
            continue;
        uint32_t other;
        int had = tf_tab_add(w, &w->nodetab, node_key, nd->name, nf + i, &other);
        if (had < 0)
            return oom(w);
        if (had) {
            nnav_err_set(w->err, off_of(w, nd->msg), 1,
                         "duplicate node name \"%s\" (node[%u] has it too): inputs naming it "
                         "would be ambiguous", q(nd->name, nb, 64), other - nf);
            return err_prepend(w->err, "%s[%u].name", fx ? "node_def" : "node", i);
        }
    }
    if (nnav_vec_reserve(w->info, nc + 1))
        return oom(w);
    w->info.n = nc;
    for (uint32_t i = 0; i < nc; i++)
        w->info.v[i] = (tf_nodeinfo){{0}, -1, 0, 0, 0};
    w->refd.n = 0;
    w->vis.n = 0;
    /* Who reads what: control targets and referenced outputs. */
    for (uint32_t i = 0; i < nc; i++) {
        const nnav_node *nd = &m->nodes.v[nf + i];
        for (uint32_t k = 0; k < nd->in_count; k++) {
            nnav_span name = nnav_ref_name(m, nd->in_first + k);
            if (nnav_ref_control(m, nd->in_first + k)) {
                nnav_span target = {name.p + 1, name.n - 1};
                uint32_t t = tf_tab_find(w, &w->nodetab, node_key, target);
                if (t != NNAV_NONE && !w->info.v[t - nf].ctl.p)
                    w->info.v[t - nf].ctl = name;
            } else if (note_ref(w, nf, name, fx != NULL) < 0) {
                return -1;
            }
        }
    }
    if (fx)
        for (uint32_t i = 0; i < fx->ret.n; i++)
            if (note_ref(w, nf, fx->ret.v[i].value, 1) < 0)
                return -1;
    if (w->refd.n) {
        qsort(w->refd.v, w->refd.n, sizeof *w->refd.v, refd_cmp);
        uint32_t o = 0;
        for (uint32_t i = 0; i < w->refd.n; i++)
            if (!o || refd_cmp(&w->refd.v[o - 1], &w->refd.v[i]) != 0)
                w->refd.v[o++] = w->refd.v[i];
        w->refd.n = o;
        for (uint32_t i = 0; i < o; i++) {
            tf_nodeinfo *inf = &w->info.v[w->refd.v[i].node];
            if (inf->ref_count++ == 0)
                inf->ref_first = i;
        }
    }
    for (uint32_t i = 0; i < nc; i++) {
        w->info.v[i].vi_first = w->vis.n;
        if (node_outputs(w, nf + i, i, fx) < 0)
            return err_prepend(w->err, "%s[%u]", fx ? "node_def" : "node", i);
        if (progress(w, off_of(w, m->nodes.v[nf + i].msg)))
            return -1;
    }
    /* Inputs as the values they name. */
    for (uint32_t i = 0; i < nc; i++) {
        const nnav_node *nd = &m->nodes.v[nf + i];
        for (uint32_t k = 0; k < nd->in_count; k++) {
            nnav_span name = nnav_ref_name(m, nd->in_first + k);
            if (nnav_ref_control(m, nd->in_first + k) || !name.n)
                continue;
            nnav_span c = canonical(w, gid, name, fx);
            if (!c.p || nnav_ref_set_name(m, nd->in_first + k, c))
                return oom(w);
        }
    }
    /* Inputs, outputs, then value infos, each one run. */
    nnav_graph *g = &m->graphs.v[gid];
    g->input_first = m->vinfos.n;
    if (fx) {
        const tf_op *sig = &w->fsig.v[fx->fid];
        for (uint32_t i = 0; i < sig->in_count; i++) {
            const tf_arg *a = &w->args.v[sig->in_first + i];
            nnav_span type;
            if (shape_type(w, a->dtype, input_shape(w, fx, i), &type) < 0 ||
                push_vinfo(w, gid, a->name, type) < 0)
                return err_prepend(w->err, "signature.input_arg[%u]", i);
        }
    } else if (meta != NNAV_NONE && w->tf->metas.v[meta].g.sig_count) {
        if (signature_vinfos(w, gid, meta, 0) < 0)
            return -1;
    } else {
        /* No signatures: the placeholders are what a caller feeds. */
        for (uint32_t i = 0; i < nc; i++) {
            const nnav_node *nd = &m->nodes.v[nf + i];
            if (!nnav_span_eqs(nd->op, "Placeholder") && !nnav_span_eqs(nd->op, "PlaceholderV2"))
                continue;
            if (!nd->out_count || nnav_ref_control(m, nd->out_first))
                continue;
            nnav_span type;
            if (placeholder_type(w, nd, &type) < 0)
                return err_prepend(w->err, "node[%u].attr[\"shape\"].shape", i);
            if (push_vinfo(w, gid, nnav_ref_name(m, nd->out_first), type) < 0)
                return -1;
        }
    }
    g = &m->graphs.v[gid];
    g->input_count = m->vinfos.n - g->input_first;
    g->output_first = m->vinfos.n;
    if (fx) {
        const tf_op *sig = &w->fsig.v[fx->fid];
        for (uint32_t i = 0; i < sig->out_count; i++) {
            const tf_arg *a = &w->args.v[sig->out_first + i];
            nnav_span name = a->name;
            for (uint32_t k = 0; k < fx->ret.n; k++)
                if (nnav_span_same(fx->ret.v[k].key, a->name))
                    name = canonical(w, gid, fx->ret.v[k].value, fx);
            /* The node's output type (its _output_shapes), as for a
             * signature; the output_arg's dtype where it gives none. */
            nnav_span type = name.p ? graph_type(w, nf, nc, name, 1) : (nnav_span){0};
            if (!type.p)
                type = make_type(w, a->dtype, -1, NULL);
            if (!name.p || !type.p || push_vinfo(w, gid, name, type) < 0)
                return oom(w);
        }
    } else if (meta != NNAV_NONE && signature_vinfos(w, gid, meta, 1) < 0) {
        return -1;
    }
    g = &m->graphs.v[gid];
    g->output_count = m->vinfos.n - g->output_first;
    g->vi_first = m->vinfos.n;
    for (uint32_t i = 0; i < w->vis.n; i++)
        if (push_vinfo(w, gid, w->vis.v[i].name, w->vis.v[i].type) < 0)
            return -1;
    g = &m->graphs.v[gid];
    g->vi_count = m->vinfos.n - g->vi_first;
    return 0;
}

/* ---- graphs ---- */

int tf_new_graph(tfw *w, uint8_t kind, nnav_span s, uint32_t *id)
{
    nnav_model *m = w->m;
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!g || !gs)
        return oom(w);
    g->kind = kind;
    g->parent = NNAV_NONE;
    g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->offset = off_of(w, s);
    *gs = s;
    *id = m->graphs.n - 1;
    return 0;
}

/* Initializers (Const values, variables) first among a graph's tensors,
 * attribute tensors after, as the index wants one run of initializers. */
int tf_order_tensors(tfw *w, uint32_t gid, uint32_t tfirst, uint32_t afirst)
{
    nnav_model *m = w->m;
    uint32_t n = m->tensors.n - tfirst, ninit = 0, mixed = 0;
    for (uint32_t i = 0; i < n; i++) {
        int init = m->tensors.v[tfirst + i].owner == NNAV_TOWN_INITIALIZER;
        if (init && ninit != i)
            mixed = 1;
        ninit += init;
    }
    m->graphs.v[gid].init_first = tfirst;
    m->graphs.v[gid].init_count = ninit;
    if (!mixed)
        return 0;
    nnav_tensor *tmp = malloc((size_t)n * sizeof *tmp);
    uint32_t *map = malloc((size_t)n * sizeof *map);
    if (!tmp || !map) {
        free(tmp);
        free(map);
        return oom(w);
    }
    uint32_t a = 0, b = ninit;
    for (uint32_t i = 0; i < n; i++) {
        int init = m->tensors.v[tfirst + i].owner == NNAV_TOWN_INITIALIZER;
        uint32_t to = init ? a++ : b++;
        tmp[to] = m->tensors.v[tfirst + i];
        map[i] = tfirst + to;
    }
    memcpy(m->tensors.v + tfirst, tmp, (size_t)n * sizeof *tmp);
    for (uint32_t i = afirst; i < m->attrs.n; i++) {
        nnav_attr *at = &m->attrs.v[i];
        if (at->tensor_first != NNAV_NONE && at->tensor_first >= tfirst)
            at->tensor_first = map[at->tensor_first - tfirst];
    }
    free(tmp);
    free(map);
    return 0;
}

/* The nodes of a GraphDef (field 1) or a FunctionDef body (field 3). */
int tf_walk_nodes(tfw *w, uint32_t gid, nnav_span s, uint32_t field)
{
    nnav_model *m = w->m;
    nnav_wire r;
    nnav_field f;
    int k;
    uint32_t idx = 0;
    m->graphs.v[gid].node_first = m->nodes.n;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num != field)
            continue;
        if (expect_wt(w, &f, NNAV_WT_LEN, field == GD_NODE ? "node" : "node_def") ||
            walk_node(w, gid, f.s) < 0)
            return err_prepend(w->err, "%s[%u]", field == GD_NODE ? "node" : "node_def", idx);
        idx++;
        if (progress(w, off_of(w, f.s)))
            return -1;
    }
    if (k < 0)
        return wire_fail(w, &r, field == GD_NODE ? &tensorflow__graph_def__descriptor
                                                 : &tensorflow__function_def__descriptor);
    m->graphs.v[gid].node_count = idx;
    return 0;
}

/* A FunctionDef's body and its extras; the signature was read earlier. */
int tf_walk_function(tfw *w, uint32_t fid)
{
    nnav_model *m = w->m;
    uint32_t gid = m->functions.v[fid].graph;
    nnav_span s = m->functions.v[fid].msg;
    tf_fnextra fx;
    memset(&fx, 0, sizeof fx);
    fx.fid = fid;
    uint32_t tfirst = m->tensors.n, afirst = m->attrs.n;
    uint32_t nattr = 0, nret = 0, nargattr = 0, in_count = w->fsig.v[fid].in_count;
    int rc = -1;
    nnav_wire r;
    nnav_field f;
    int k;
    m->functions.v[fid].attr_first = m->attrs.n;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case FD_SIGNATURE: case FD_NODE:
            break; /* read before, and by tf_walk_nodes */
        case FD_ATTR:
            if (expect_wt(w, &f, NNAV_WT_LEN, "attr") ||
                walk_attr(w, gid, NNAV_NONE, f.s, (nnav_span){0}) < 0) {
                err_prepend(w->err, "attr[%u]", nattr);
                goto out;
            }
            if (nnav_span_eqs(m->attrs.v[m->attrs.n - 1].name, "_input_shapes"))
                fx.input_shapes = m->attrs.v[m->attrs.n - 1].msg;
            nattr++;
            break;
        case FD_RET: case FD_CONTROL_RET: {
            nnav_span key, value;
            const char *nm = f.num == FD_RET ? "ret" : "control_ret";
            if (expect_wt(w, &f, NNAV_WT_LEN, nm) ||
                tf_walk_entry(w, f.s, &key, &value, NULL, &tensorflow__function_def__ret_entry__descriptor) < 0) {
                err_prepend(w->err, "%s", nm);
                goto out;
            }
            if (f.num == FD_RET) {
                nnav_kv *kv = nnav_vec_push(fx.ret);
                if (!kv) {
                    oom(w);
                    goto out;
                }
                kv->key = key;
                kv->value = value;
                nret++;
            }
            break;
        }
        case FD_ARG_ATTR: case FD_RESOURCE_ID: {
            nnav_span key, value;
            uint64_t idx;
            const char *nm = f.num == FD_ARG_ATTR ? "arg_attr" : "resource_arg_unique_id";
            if (expect_wt(w, &f, NNAV_WT_LEN, nm) ||
                tf_walk_entry(w, f.s, &key, &value, &idx, &tensorflow__function_def__arg_attr_entry__descriptor) < 0) {
                err_prepend(w->err, "%s", nm);
                goto out;
            }
            if (f.num == FD_ARG_ATTR && idx < in_count) {
                while (fx.arg_attr.n <= idx) {
                    nnav_span *sp = nnav_vec_push(fx.arg_attr);
                    if (!sp) {
                        oom(w);
                        goto out;
                    }
                }
                fx.arg_attr.v[idx] = value;
                nargattr++;
            }
            break;
        }
        default:
            if (keep_unknown(w, &f, "FunctionDef", gid))
                goto out;
        }
    }
    if (k < 0) {
        wire_fail(w, &r, &tensorflow__function_def__descriptor);
        goto out;
    }
    m->functions.v[fid].attr_count = nattr;
    if (tf_walk_nodes(w, gid, s, FD_NODE) < 0 || tf_order_tensors(w, gid, tfirst, afirst) < 0 ||
        tf_link_graph(w, gid, &fx, NNAV_NONE) < 0)
        goto out;
    rc = 0;
out:
    nnav_vec_free(fx.ret);
    nnav_vec_free(fx.arg_attr);
    return rc;
}

static int walk_library(tfw *w, nnav_span s, tf_meta *mt)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == LIB_FUNCTION) {
            if (expect_wt(w, &f, NNAV_WT_LEN, "function"))
                return err_prepend(w->err, "function[%u]", mt->fns.n);
            nnav_span *sp = nnav_vec_push(mt->fns);
            if (!sp)
                return oom(w);
            *sp = f.s;
        } else if (f.num == LIB_GRADIENT || f.num == LIB_REGISTERED) {
            nnav_span a, b;
            if (expect_wt(w, &f, NNAV_WT_LEN, f.num == LIB_GRADIENT ? "gradient" : "registered_gradients") ||
                tf_walk_entry(w, f.s, &a, &b, NULL, f.num == LIB_GRADIENT
                                                     ? &tensorflow__gradient_def__descriptor
                                                     : &tensorflow__registered_gradient__descriptor) < 0)
                return err_prepend(w->err, f.num == LIB_GRADIENT ? "gradient" : "registered_gradients");
        } else if (keep_unknown(w, &f, "FunctionDefLibrary", NNAV_NONE)) {
            return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__function_def_library__descriptor) : 0;
}

/* A GraphDef's fields other than its nodes: library, versions, and what the
 * schema does not know (debug_info, field 5, is one: shown by number). */
int tf_walk_graphdef_top(tfw *w, uint32_t gid, nnav_span s, tf_meta *mt, int64_t *producer,
                         int64_t *min_consumer)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case GD_NODE:
            if (expect_wt(w, &f, NNAV_WT_LEN, "node"))
                return err_prepend(w->err, "node");
            break;
        case GD_LIBRARY:
            if (expect_wt(w, &f, NNAV_WT_LEN, "library") || walk_library(w, f.s, mt) < 0)
                return err_prepend(w->err, "library");
            break;
        case GD_VERSION:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "version"))
                return err_prepend(w->err, "version");
            break;
        case GD_VERSIONS:
            if (expect_wt(w, &f, NNAV_WT_LEN, "versions") ||
                walk_versions(w, f.s, producer, min_consumer) < 0)
                return err_prepend(w->err, "versions");
            break;
        default:
            if (keep_unknown(w, &f, "GraphDef", gid))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__graph_def__descriptor) : 0;
}

/* A TensorInfo of a signature. */
