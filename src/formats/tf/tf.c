/* tf.c - TensorFlow SavedModel, MetaGraphDef and GraphDef -> index.
 *
 * Structure only, as for ONNX: the file is walked with the bounds-checked wire
 * reader, names stay spans into the map, tensor payloads are located and never
 * read. How TensorFlow's graphs, names and types map onto the index is told in
 * tf.h. Graphs never nest here (a function is a root and calls are links by
 * id), so nothing recurses on the file's structure: the only nested walks are
 * over fixed schema levels (SavedModel > MetaGraphDef > GraphDef > NodeDef >
 * AttrValue > ListValue > TensorProto > TensorShapeProto).
 *
 * Errors name the byte offset and the field path (meta_graphs[0].graph_def.
 * node[3].attr["value"].tensor.dtype), built as the error returns. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dtype.h"
#include "tf.h"
#include "walk.h"
#include "wire.h"
#include "tensorflow/attr_value.pb-c.h"
#include "tensorflow/function.pb-c.h"
#include "tensorflow/graph.pb-c.h"
#include "tensorflow/meta_graph.pb-c.h"
#include "tensorflow/node_def.pb-c.h"
#include "tensorflow/op_def.pb-c.h"
#include "tensorflow/saved_model.pb-c.h"
#include "tensorflow/tensor.pb-c.h"
#include "tensorflow/tensor_shape.pb-c.h"

/* Field numbers, from ../shared/formats/tensorflow-fields.md. */
enum { SM_VERSION = 1, SM_META = 2 };
enum { MG_INFO = 1, MG_GRAPH = 2, MG_SAVER = 3, MG_COLLECTION = 4, MG_SIGNATURE = 5,
       MG_ASSET = 6, MG_OBJECTS = 7 };
enum { MI_VERSION = 1, MI_OPS = 2, MI_ANY = 3, MI_TAGS = 4, MI_TF_VERSION = 5, MI_TF_GIT = 6,
       MI_STRIPPED = 7, MI_ALIASES = 8 };
enum { GD_NODE = 1, GD_LIBRARY = 2, GD_VERSION = 3, GD_VERSIONS = 4 };
enum { LIB_FUNCTION = 1, LIB_GRADIENT = 2, LIB_REGISTERED = 3 };
enum { FD_SIGNATURE = 1, FD_NODE = 3, FD_RET = 4, FD_ATTR = 5, FD_CONTROL_RET = 6,
       FD_ARG_ATTR = 7, FD_RESOURCE_ID = 8 };
enum { ND_NAME = 1, ND_OP = 2, ND_INPUT = 3, ND_DEVICE = 4, ND_ATTR = 5, ND_DEBUG = 6,
       ND_TYPE = 7 };
enum { OP_NAME = 1, OP_INPUT = 2, OP_OUTPUT = 3, OP_ATTR = 4, OP_SUMMARY = 5, OP_DESC = 6,
       OP_DEPRECATION = 8, OP_AGGREGATE = 16, OP_STATEFUL = 17, OP_COMMUTATIVE = 18,
       OP_UNINIT = 19, OP_CONTROL_OUT = 20, OP_DISTRIBUTED = 21 };
enum { ARG_NAME = 1, ARG_DESC = 2, ARG_TYPE = 3, ARG_TYPE_ATTR = 4, ARG_NUMBER_ATTR = 5,
       ARG_TYPE_LIST_ATTR = 6, ARG_HANDLE = 7, ARG_IS_REF = 16, ARG_FULL_TYPE = 17 };
enum { SIG_INPUTS = 1, SIG_OUTPUTS = 2, SIG_METHOD = 3, SIG_DEFAULTS = 4 };
enum { TI_NAME = 1, TI_DTYPE = 2, TI_SHAPE = 3, TI_COO = 4, TI_COMPOSITE = 5 };
enum { SH_DIM = 2, SH_UNKNOWN_RANK = 3 };
enum { VD_PRODUCER = 1, VD_MIN_CONSUMER = 2, VD_BAD = 3 };

/* Bounds on counts that come from attrs (an arg's number_attr, a shape's
 * rank): beyond them the file is taken as malformed, not as a request to
 * allocate that much. */
#define TF_MAX_OUTPUTS 65536u
#define TF_MAX_RANK 1024u

/* ---- the arena ---- */

struct tf_chunk {
    tf_chunk *next;
    size_t used, cap;
    _Alignas(16) uint8_t data[];
};

void *nnav_tf_alloc(nnav_tf *tf, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    tf_chunk *c = tf->arena;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 - sizeof *c ? n : 65536 - sizeof *c;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = tf->arena;
        tf->arena = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

nnav_span nnav_tf_printf(nnav_tf *tf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        return (nnav_span){0};
    char *p = nnav_tf_alloc(tf, (size_t)k + 1);
    if (!p)
        return (nnav_span){0};
    va_start(ap, fmt);
    vsnprintf(p, (size_t)k + 1, fmt, ap);
    va_end(ap);
    return (nnav_span){(const uint8_t *)p, (uint64_t)k};
}

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

int nnav_tf_warn(nnav_model *m, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    /* A hostile file could ask for millions: the first thousand say enough. */
    if (nnav_tf_state(m)->warnings.n > 1000)
        return 0;
    if (nnav_tf_state(m)->warnings.n == 1000)
        snprintf(buf, sizeof buf, "... more warnings not shown");
    else {
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
    }
    char **slot = nnav_vec_push(nnav_tf_state(m)->warnings);
    if (!slot || !(*slot = strdup(buf))) {
        if (slot)
            nnav_tf_state(m)->warnings.n--;
        return -1;
    }
    return 0;
}

void nnav_tf_free(nnav_tf *tf)
{
    if (!tf)
        return;
    nnav_tf_values_free(tf);
    for (tf_chunk *c = tf->arena, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    for (uint32_t i = 0; i < tf->warnings.n; i++)
        free(tf->warnings.v[i]);
    nnav_vec_free(tf->warnings);
    nnav_vec_free(tf->metas);
    nnav_vec_free(tf->tags);
    nnav_vec_free(tf->sigs);
    nnav_vec_free(tf->sig_tensors);
    free(tf);
}

/* ---- element types ---- */

int32_t nnav_tf_dtype(uint64_t v)
{
    /* TensorFlow DataType -> nnav element type; *_REF is its base type. */
    static const int32_t map[34] = {
        [1] = NNAV_DT_FLOAT, [2] = NNAV_DT_DOUBLE, [3] = NNAV_DT_INT32, [4] = NNAV_DT_UINT8,
        [5] = NNAV_DT_INT16, [6] = NNAV_DT_INT8, [7] = NNAV_DT_STRING, [8] = NNAV_DT_COMPLEX64,
        [9] = NNAV_DT_INT64, [10] = NNAV_DT_BOOL, [11] = NNAV_DT_TF_QINT8,
        [12] = NNAV_DT_TF_QUINT8, [13] = NNAV_DT_TF_QINT32, [14] = NNAV_DT_BFLOAT16,
        [15] = NNAV_DT_TF_QINT16, [16] = NNAV_DT_TF_QUINT16, [17] = NNAV_DT_UINT16,
        [18] = NNAV_DT_COMPLEX128, [19] = NNAV_DT_FLOAT16, [20] = NNAV_DT_TF_RESOURCE,
        [21] = NNAV_DT_TF_VARIANT, [22] = NNAV_DT_UINT32, [23] = NNAV_DT_UINT64,
        [24] = NNAV_DT_FLOAT8E5M2, [25] = NNAV_DT_FLOAT8E4M3FN,
        [26] = NNAV_DT_FLOAT8E4M3FNUZ, [27] = NNAV_DT_TF_FLOAT8E4M3B11FNUZ,
        [28] = NNAV_DT_FLOAT8E5M2FNUZ, [29] = NNAV_DT_TF_INT4, [30] = NNAV_DT_TF_UINT4,
        [31] = NNAV_DT_TF_INT2, [32] = NNAV_DT_TF_UINT2, [33] = NNAV_DT_TF_FLOAT4E2M1FN,
    };
    if (v > 100 && v < 134)
        v -= 100;
    if (v == 0)
        return NNAV_DT_UNDEFINED;
    return v < 34 ? map[v] : -1;
}

/* ---- the walker ---- */

/* An op's (or a function's) argument list, parsed once from its OpDef. */
typedef struct tf_arg {
    nnav_span name, type_attr, number_attr, type_list_attr;
    int32_t dtype; /* nnav element type, 0 when given by an attr */
} tf_arg;

typedef struct tf_op {
    nnav_span name, msg;
    uint32_t in_first, in_count, out_first, out_count; /* into args */
    uint32_t attr_count;
    int parsed;
} tf_op;

typedef struct tf_tab {
    uint32_t *slot;
    uint64_t mask;
} tf_tab;

/* What the walk of one MetaGraphDef (or a bare GraphDef) collects first. */
typedef struct tf_meta {
    nnav_span info, graph, saver, objects, library;
    NNAV_VEC(nnav_span) sigs;     /* signature_def map entries */
    NNAV_VEC(nnav_span) fns;      /* library functions */
    uint32_t collections, assets;
    uint32_t fn_first;            /* first function id */
    char origin[64];              /* "meta_graphs[0]." for error paths */
} tf_meta;

/* Per-node facts gathered while a graph is linked. */
typedef struct tf_nodeinfo {
    nnav_span ctl;        /* "^NAME" as written by a control input naming this node */
    int64_t max_ref;      /* highest flat output index referenced, -1 none */
    uint32_t ref_first;   /* function bodies: referenced outputs, into refd */
    uint32_t ref_count;
    uint32_t vi_first;    /* its outputs' entries in vis: [vi_first, next node's) */
} tf_nodeinfo;

typedef struct tf_refd { uint32_t node; nnav_span arg; uint64_t idx; } tf_refd;

typedef struct pending_tensor { uint32_t attr; nnav_span s; } pending_tensor;

typedef struct tf_vi { nnav_span name; nnav_span type; } tf_vi;

typedef struct tfw {
    nnav_model *m;
    nnav_tf *tf;
    const uint8_t *base;
    nnav_error *err;
    const nnav_open_opts *opts;
    uint64_t since_progress;
    NNAV_VEC(tf_op) ops;           /* stripped_op_list of the current meta graph */
    NNAV_VEC(tf_op) fsig;          /* each function's signature, by function id */
    NNAV_VEC(tf_arg) args;
    tf_tab optab, fntab;
    NNAV_VEC(pending_tensor) pending;
    NNAV_VEC(tf_nodeinfo) info;
    NNAV_VEC(tf_refd) refd;
    NNAV_VEC(tf_vi) vis;           /* value infos of the graph being linked */
    NNAV_VEC(int64_t) tdims;       /* scratch shape */
    tf_tab nodetab;
    uint32_t cur_meta;
    int64_t producer;              /* the GraphDef's versions.producer (0 when absent) */
    char origin[160];              /* field path of the graph being walked */
} tfw;

#define err_prepend nnav_err_prepend

static int oom(tfw *w) { return nnav_err_oom(w->err); }

static int expect_wt(tfw *w, const nnav_field *f, uint8_t wt, const char *name)
{
    return nnav_walk_expect(w->err, f, wt, name);
}

static int keep_unknown(tfw *w, const nnav_field *f, const char *where, uint32_t owner)
{
    return nnav_walk_unknown(w->m, w->err, f, where, owner);
}

static void winit(tfw *w, nnav_wire *r, nnav_span s) { nnav_walk_init(w->m, r, s); }

static int wire_fail(tfw *w, const nnav_wire *r, const ProtobufCMessageDescriptor *d)
{
    return nnav_walk_fail(w->err, r, d);
}

static uint64_t off_of(tfw *w, nnav_span s)
{
    return s.p ? (uint64_t)(s.p - w->base) : 0;
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

/* Text of a span for an error message or a warning: escaped and cut. */
static const char *q(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* ---- name tables: span -> id ---- */

typedef nnav_span (*tab_key)(const tfw *w, uint32_t id);

static int tab_init(tf_tab *t, uint64_t n)
{
    uint64_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    free(t->slot);
    t->slot = malloc(cap * sizeof *t->slot);
    if (!t->slot)
        return -1;
    memset(t->slot, 0xff, cap * sizeof *t->slot);
    t->mask = cap - 1;
    return 0;
}

static uint32_t tab_find(const tfw *w, const tf_tab *t, tab_key key, nnav_span name,
                         uint64_t *free_slot)
{
    uint64_t i = nnav_hash_bytes(name.p, name.n, 0x7f) & t->mask;
    for (;; i = (i + 1) & t->mask) {
        uint32_t id = t->slot[i];
        if (id == NNAV_NONE) {
            if (free_slot)
                *free_slot = i;
            return NNAV_NONE;
        }
        if (nnav_span_same(key(w, id), name))
            return id;
    }
}

static nnav_span op_key(const tfw *w, uint32_t id) { return w->ops.v[id].name; }
static nnav_span fn_key(const tfw *w, uint32_t id) { return w->m->functions.v[id].name; }
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
            if (expect_wt(w, &f, NNAV_WT_VARINT, f.num == 1 ? "producer" : "min_consumer"))
                return err_prepend(w->err, f.num == 1 ? "producer" : "min_consumer");
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
static int walk_entry(tfw *w, nnav_span s, nnav_span *key, nnav_span *value, uint64_t *key_varint,
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
        if (f.num == 1) {
            if (expect_wt(w, &f, key_varint ? NNAV_WT_VARINT : NNAV_WT_LEN, "key"))
                return err_prepend(w->err, "key");
            if (key_varint)
                *key_varint = f.v;
            else
                *key = f.s;
        } else if (f.num == 2) {
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
static int walk_shape(tfw *w, nnav_span s, int32_t *rank, uint32_t *bad)
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
                if (g.num == 1) {
                    if (expect_wt(w, &g, NNAV_WT_VARINT, "size"))
                        return err_prepend(w->err, "dim[%u].size", w->tdims.n);
                    size = (int64_t)g.v;
                } else if (g.num == 2) {
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
    if (shape.p && walk_shape(w, shape, &rank, &bad) < 0)
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

/* Element count, with sign and overflow checks; UINT64_MAX when not known. */
static uint64_t count_elems(const nnav_model *m, const nnav_tensor *t, uint32_t *warn)
{
    uint64_t ne = 1;
    for (uint32_t i = 0; i < t->ndims; i++) {
        int64_t d = m->dims.v[t->dims_first + i];
        if (d < 0 || __builtin_mul_overflow(ne, (uint64_t)d, &ne)) {
            *warn |= NNAV_TW_BAD_DIMS;
            return UINT64_MAX;
        }
    }
    return ne;
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
        if (walk_shape(w, shape, &rank, &bad) < 0)
            return err_prepend(w->err, "tensor_shape");
        if (rank < 0) {
            t.warn |= NNAV_TW_BAD_DIMS; /* a tensor's shape must be known */
            rank = 0;
        }
        if (push_dims(w, &t, rank) < 0)
            return -1;
    }
    t.nelems = count_elems(m, &t, &t.warn);
    if (!nnav_dtype_valid(t.dtype))
        t.warn |= NNAV_TW_BAD_DTYPE;
    t.nbytes = UINT64_MAX;
    if (t.dtype == NNAV_DT_STRING)
        t.nbytes = string_bytes;
    else if (t.nelems != UINT64_MAX && nnav_dtype_raw_bytes(t.dtype, t.nelems, &t.nbytes) != 0)
        t.nbytes = UINT64_MAX;
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
static int walk_opdef(tfw *w, nnav_span s, tf_op *op, nnav_function *fn)
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
                        if (g.num == 1 && g.wt == NNAV_WT_LEN)
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
    uint32_t fid = tab_find(w, &w->fntab, fn_key, name, NULL);
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
        if (f.num == 1 || f.num == 2) {
            if (expect_wt(w, &f, NNAV_WT_LEN, f.num == 1 ? "name" : "attr"))
                return err_prepend(w->err, f.num == 1 ? "name" : "attr");
            if (f.num == 1)
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

static int walk_list(tfw *w, uint32_t graph, uint32_t aid, nnav_span s, nnav_attr *a)
{
    nnav_wire r;
    nnav_field f;
    int k, kind = 0;
    NNAV_VEC(uint32_t) gids = {0};
    uint32_t idx[10] = {0};
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num < 2 || f.num > 9) {
            if (keep_unknown(w, &f, "AttrValue.ListValue", aid))
                goto fail;
            continue;
        }
        const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
            &tensorflow__attr_value__list_value__descriptor, f.num);
        uint8_t ewt = f.num == 4 ? NNAV_WT_I32 : (f.num == 3 || f.num == 5 || f.num == 6)
                                                     ? NNAV_WT_VARINT : NNAV_WT_LEN;
        if (f.wt != ewt && !(f.wt == NNAV_WT_LEN && ewt != NNAV_WT_LEN)) {
            expect_wt(w, &f, ewt, fd->name);
            err_prepend(w->err, "%s[%u]", fd->name, idx[f.num]);
            goto fail;
        }
        if (f.num == 4 && f.wt == NNAV_WT_LEN && f.s.n % 4) {
            nnav_err_set(w->err, off_of(w, f.s), 1,
                         "packed field holds %llu bytes, not a multiple of its 4-byte element",
                         (unsigned long long)f.s.n);
            err_prepend(w->err, "f");
            goto fail;
        }
        if (!kind)
            kind = (int)f.num;
        if (f.num == 8) {
            uint32_t tid;
            if (walk_tensor(w, graph, f.s, NNAV_TOWN_ATTRIBUTE, aid, (nnav_span){0}, &tid) < 0) {
                err_prepend(w->err, "tensor[%u]", idx[8]);
                goto fail;
            }
            if (a->tensor_first == NNAV_NONE)
                a->tensor_first = tid;
            a->tensor_count++;
        } else if (f.num == 9) {
            nnav_span name;
            if (walk_namelist(w, f.s, &name) < 0) {
                err_prepend(w->err, "func[%u]", idx[9]);
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
    if (walk_entry(w, entry, &key, &value, NULL, &tensorflow__attr_value__descriptor) < 0)
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
        if (f.num < 1 || f.num > 10) {
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

typedef struct tf_fnextra {
    uint32_t fid;
    NNAV_VEC(nnav_kv) ret;        /* output arg -> body tensor */
    NNAV_VEC(nnav_span) arg_attr; /* ArgAttrs by input index (p NULL: none) */
    nnav_span input_shapes;       /* the function's "_input_shapes" AttrValue */
} tf_fnextra;

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
            if (g.num == 1 && g.wt == NNAV_WT_LEN)
                key = g.s;
            else if (g.num == 3 && g.wt == NNAV_WT_LEN)
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
    uint32_t nid = tab_find(w, &w->nodetab, node_key, nm.node, NULL);
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
                    if (g.num == 1 && g.wt == NNAV_WT_LEN)
                        key = g.s;
                    else if (g.num == 2 && g.wt == NNAV_WT_LEN)
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
        if (walk_shape(w, sh, &rank, &bad) < 0)
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
        uint32_t fid = tab_find(w, &w->fntab, fn_key, nd->op, NULL);
        if (fid != NNAV_NONE) {
            op = &w->fsig.v[fid];
            nd->function = fid;
        }
    }
    if (!op && w->optab.slot) {
        uint32_t oid = tab_find(w, &w->optab, op_key, nd->op, NULL);
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
    uint32_t nid = tab_find(w, &w->nodetab, node_key, nm.node, NULL);
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
            if (f.num != 1 || f.wt != NNAV_WT_LEN)
                continue;
            nnav_span key, value;
            if (walk_entry(w, f.s, &key, &value, NULL, &tensorflow__attr_value__descriptor) == 0 &&
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
    uint32_t nid = tab_find(w, &w->nodetab, node_key, nm.node, NULL);
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
    const nnav_metagraph *mg = &w->tf->metas.v[meta];
    uint32_t first = m->vinfos.n;
    for (uint32_t s = mg->sig_first; s < mg->sig_first + mg->sig_count; s++) {
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
static int link_graph(tfw *w, uint32_t gid, const tf_fnextra *fx, uint32_t meta)
{
    nnav_model *m = w->m;
    uint32_t nf = m->graphs.v[gid].node_first, nc = m->graphs.v[gid].node_count;
    char nb[80];
    if (tab_init(&w->nodetab, (uint64_t)nc + 1))
        return oom(w);
    for (uint32_t i = 0; i < nc; i++) {
        const nnav_node *nd = &m->nodes.v[nf + i];
        if (!nd->name.n)
            continue;
        uint64_t slot;
        uint32_t other = tab_find(w, &w->nodetab, node_key, nd->name, &slot);
        if (other != NNAV_NONE) {
            nnav_err_set(w->err, off_of(w, nd->msg), 1,
                         "duplicate node name \"%s\" (node[%u] has it too): inputs naming it "
                         "would be ambiguous", q(nd->name, nb, 64), other - nf);
            return err_prepend(w->err, "%s[%u].name", fx ? "node_def" : "node", i);
        }
        w->nodetab.slot[slot] = nf + i;
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
                uint32_t t = tab_find(w, &w->nodetab, node_key, target, NULL);
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
    } else if (meta != NNAV_NONE && w->tf->metas.v[meta].sig_count) {
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

static int new_graph(tfw *w, uint8_t kind, nnav_span s, uint32_t *id)
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
static int order_tensors(tfw *w, uint32_t gid, uint32_t tfirst, uint32_t afirst)
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
static int walk_nodes(tfw *w, uint32_t gid, nnav_span s, uint32_t field)
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
static int walk_function(tfw *w, uint32_t fid)
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
            break; /* read before, and by walk_nodes */
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
                walk_entry(w, f.s, &key, &value, NULL, &tensorflow__function_def__ret_entry__descriptor) < 0) {
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
                walk_entry(w, f.s, &key, &value, &idx, &tensorflow__function_def__arg_attr_entry__descriptor) < 0) {
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
    if (walk_nodes(w, gid, s, FD_NODE) < 0 || order_tensors(w, gid, tfirst, afirst) < 0 ||
        link_graph(w, gid, &fx, NNAV_NONE) < 0)
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
                walk_entry(w, f.s, &a, &b, NULL, f.num == LIB_GRADIENT
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
static int walk_graphdef_top(tfw *w, uint32_t gid, nnav_span s, tf_meta *mt, int64_t *producer,
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
static int walk_tensorinfo(tfw *w, nnav_span key, nnav_span s, nnav_sig_tensor *st)
{
    nnav_wire r;
    nnav_field f;
    int k;
    nnav_span shape = {0};
    memset(st, 0, sizeof *st);
    st->key = key;
    st->value = NNAV_NONE;
    st->rank = -1;
    st->dims_first = w->m->dims.n;
    st->off = off_of(w, s);
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case TI_NAME: case TI_SHAPE: case TI_COO: case TI_COMPOSITE: {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__tensor_info__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == TI_SHAPE)
                shape = f.s, st->shape_off = f.off;
            else
                st->encoding = (uint8_t)f.num;
            if (f.num == TI_NAME)
                st->name = f.s, st->name_off = f.off;
            if (f.num == TI_COO) {
                nnav_span vals = {0}, other;
                if (walk_entry(w, f.s, &vals, &other, NULL, &tensorflow__tensor_info__coo_sparse__descriptor) < 0)
                    return err_prepend(w->err, "coo_sparse");
                st->name = vals;
            }
            break;
        }
        case TI_DTYPE:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "dtype"))
                return err_prepend(w->err, "dtype");
            st->dtype = nnav_tf_dtype(f.v);
            st->dtype_off = f.off;
            if (st->dtype < 0 && !nnav_dtype_valid(st->dtype))
                st->dtype = -1;
            break;
        default:
            if (keep_unknown(w, &f, "TensorInfo", NNAV_NONE))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &tensorflow__tensor_info__descriptor);
    if (shape.p) {
        int32_t rank;
        uint32_t bad;
        if (walk_shape(w, shape, &rank, &bad) < 0)
            return err_prepend(w->err, "tensor_shape");
        st->rank = rank;
        st->dims_first = w->m->dims.n;
        for (int32_t i = 0; i < rank; i++) {
            int64_t *d = nnav_vec_push(w->m->dims);
            if (!d)
                return oom(w);
            *d = w->tdims.v[i] < -1 ? -1 : w->tdims.v[i];
        }
        if (bad) {
            char kb[80];
            if (nnav_tf_warn(w->m, "signature tensor \"%s\": %u dims below -1 (shown as ?)",
                             q(key, kb, 64), bad))
                return oom(w);
        }
    } else if (st->encoding != TI_COMPOSITE) {
        /* No tensor_shape reads as an empty TensorShapeProto, as TensorFlow
         * reads it (TensorShape(proto), saved_model_cli's "()"): no dims and
         * unknown_rank false, a scalar. A composite tensor's shape is in its
         * type spec instead. */
        st->rank = 0;
    }
    if (st->dtype < 0) {
        char kb[80];
        if (nnav_tf_warn(w->m, "signature tensor \"%s\": unknown dtype", q(key, kb, 64)))
            return oom(w);
        st->dtype = 0;
    }
    return 0;
}

static int walk_signature(tfw *w, uint32_t meta, nnav_span entry)
{
    nnav_tf *tf = w->tf;
    nnav_span key, def;
    if (walk_entry(w, entry, &key, &def, NULL, &tensorflow__signature_def__descriptor) < 0)
        return -1;
    nnav_signature sg;
    memset(&sg, 0, sizeof sg);
    sg.key = key;
    sg.metagraph = meta;
    char kb[80];
    for (int side = 0; side < 2; side++) {
        uint32_t want = side ? SIG_OUTPUTS : SIG_INPUTS, first = tf->sig_tensors.n, idx = 0;
        nnav_wire r;
        nnav_field f;
        int k;
        winit(w, &r, def);
        while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
            if (f.num == want) {
                nnav_span tkey, info;
                nnav_sig_tensor st;
                if (expect_wt(w, &f, NNAV_WT_LEN, side ? "outputs" : "inputs") ||
                    walk_entry(w, f.s, &tkey, &info, NULL, &tensorflow__tensor_info__descriptor) < 0 ||
                    walk_tensorinfo(w, tkey, info, &st) < 0)
                    return err_prepend(w->err, "signature_def[\"%s\"].%s[%u]", q(key, kb, 64),
                                       side ? "outputs" : "inputs", idx);
                nnav_sig_tensor *slot = nnav_vec_push(tf->sig_tensors);
                if (!slot)
                    return oom(w);
                *slot = st;
                idx++;
                continue;
            }
            if (side)
                continue;
            if (f.num == SIG_METHOD || f.num == SIG_DEFAULTS) {
                if (expect_wt(w, &f, NNAV_WT_LEN, f.num == SIG_METHOD ? "method_name" : "defaults"))
                    return err_prepend(w->err, "signature_def[\"%s\"]", q(key, kb, 64));
                if (f.num == SIG_METHOD)
                    sg.method = f.s;
            } else if (f.num != SIG_INPUTS && f.num != SIG_OUTPUTS &&
                       keep_unknown(w, &f, "SignatureDef", NNAV_NONE)) {
                return -1;
            }
        }
        if (k < 0) {
            wire_fail(w, &r, &tensorflow__signature_def__descriptor);
            return err_prepend(w->err, "signature_def[\"%s\"]", q(key, kb, 64));
        }
        if (side) {
            sg.out_first = first;
            sg.out_count = tf->sig_tensors.n - first;
        } else {
            sg.in_first = first;
            sg.in_count = tf->sig_tensors.n - first;
        }
    }
    nnav_signature *slot = nnav_vec_push(tf->sigs);
    if (!slot)
        return oom(w);
    *slot = sg;
    return 0;
}

static int walk_metainfo(tfw *w, nnav_span s, nnav_metagraph *mg)
{
    nnav_wire r;
    nnav_field f;
    int k;
    mg->tag_first = w->tf->tags.n;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case MI_VERSION: case MI_OPS: case MI_ANY: case MI_TAGS: case MI_TF_VERSION:
        case MI_TF_GIT: case MI_ALIASES: {
            const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
                &tensorflow__meta_graph_def__meta_info_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == MI_VERSION)
                mg->meta_graph_version = f.s;
            else if (f.num == MI_TF_VERSION)
                mg->tf_version = f.s;
            else if (f.num == MI_TF_GIT)
                mg->tf_git_version = f.s;
            else if (f.num == MI_TAGS) {
                nnav_span *t = nnav_vec_push(w->tf->tags);
                if (!t)
                    return oom(w);
                *t = f.s;
                mg->tag_count++;
            } else if (f.num == MI_OPS) {
                nnav_wire o;
                nnav_field g;
                int kk;
                winit(w, &o, f.s);
                while ((kk = nnav_wire_next(&o, &g, w->err)) == 1) {
                    if (g.num != 1) {
                        if (keep_unknown(w, &g, "OpList", NNAV_NONE))
                            return -1;
                        continue;
                    }
                    tf_op *op = nnav_vec_push(w->ops);
                    if (!op)
                        return oom(w);
                    if (expect_wt(w, &g, NNAV_WT_LEN, "op") || walk_opdef(w, g.s, op, NULL) < 0)
                        return err_prepend(w->err, "stripped_op_list.op[%u]", w->ops.n - 1);
                    mg->op_count++;
                }
                if (kk < 0) {
                    wire_fail(w, &o, &tensorflow__op_list__descriptor);
                    return err_prepend(w->err, "stripped_op_list");
                }
            }
            break;
        }
        case MI_STRIPPED:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "stripped_default_attrs"))
                return err_prepend(w->err, "stripped_default_attrs");
            break;
        default:
            if (keep_unknown(w, &f, "MetaGraphDef.MetaInfoDef", NNAV_NONE))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__meta_graph_def__meta_info_def__descriptor) : 0;
}

/* A MetaGraphDef's top-level fields; the graph itself is walked later. */
static int walk_meta_top(tfw *w, nnav_span s, tf_meta *mt, nnav_metagraph *mg)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num >= MG_INFO && f.num <= MG_OBJECTS) {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__meta_graph_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
        }
        switch (f.num) {
        case MG_INFO: mt->info = f.s; break;
        case MG_GRAPH: mt->graph = f.s; break;
        case MG_SAVER: mt->saver = f.s; mg->has_saver = 1; break;
        case MG_OBJECTS: mt->objects = f.s; mg->object_graph_bytes = f.s.n; break;
        case MG_COLLECTION: mg->collection_count++; break;
        case MG_ASSET: mg->asset_count++; break;
        case MG_SIGNATURE: {
            nnav_span *sp = nnav_vec_push(mt->sigs);
            if (!sp)
                return oom(w);
            *sp = f.s;
            break;
        }
        default:
            if (keep_unknown(w, &f, "MetaGraphDef", NNAV_NONE))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__meta_graph_def__descriptor) : 0;
}

/* The signature of each library function (its name is needed before any body
 * is walked: calls are resolved by name), and a graph for each. */
static int add_functions(tfw *w, tf_meta *mt, uint32_t meta)
{
    nnav_model *m = w->m;
    mt->fn_first = m->functions.n;
    for (uint32_t i = 0; i < mt->fns.n; i++) {
        nnav_span sig = {0};
        nnav_wire r;
        nnav_field f;
        int k;
        winit(w, &r, mt->fns.v[i]);
        while ((k = nnav_wire_next(&r, &f, w->err)) == 1)
            if (f.num == FD_SIGNATURE) {
                if (expect_wt(w, &f, NNAV_WT_LEN, "signature"))
                    return err_prepend(w->err, "library.function[%u].signature", i);
                sig = f.s;
            }
        if (k < 0) {
            wire_fail(w, &r, &tensorflow__function_def__descriptor);
            return err_prepend(w->err, "library.function[%u]", i);
        }
        nnav_function *fn = nnav_vec_push(m->functions);
        tf_op *op = nnav_vec_push(w->fsig);
        if (!fn || !op)
            return oom(w);
        fn->msg = mt->fns.v[i];
        fn->attr_name_first = fn->attr_first = fn->opset_first = NNAV_NONE;
        /* The domain keeps functions of different MetaGraphs apart in paths. */
        fn->domain = meta == 0 || meta == NNAV_NONE
                         ? (nnav_span){(const uint8_t *)"tensorflow", 10}
                         : nnav_tf_printf(w->tf, "tensorflow~meta[%u]", meta);
        memset(op, 0, sizeof *op);
        if (sig.p && walk_opdef(w, sig, op, fn) < 0)
            return err_prepend(w->err, "library.function[%u].signature", i);
        fn->name = op->name;
        uint32_t gid;
        if (new_graph(w, NNAV_GRAPH_FUNCTION, mt->fns.v[i], &gid) < 0)
            return -1;
        fn->graph = gid;
        m->graphs.v[gid].function = m->functions.n - 1;
        m->graphs.v[gid].name = op->name;
        if (!op->name.n && nnav_tf_warn(m, "library function [%u] has no name: nothing can call it", i))
            return oom(w);
    }
    /* Calls resolve by name within this library. */
    if (tab_init(&w->fntab, mt->fns.n + 1))
        return oom(w);
    for (uint32_t i = mt->fn_first; i < m->functions.n; i++) {
        uint64_t slot;
        char nb[80];
        if (tab_find(w, &w->fntab, fn_key, m->functions.v[i].name, &slot) != NNAV_NONE) {
            if (nnav_tf_warn(m, "library function \"%s\" is defined twice; calls go to the first",
                             q(m->functions.v[i].name, nb, 64)))
                return oom(w);
            continue;
        }
        w->fntab.slot[slot] = i;
    }
    return 0;
}

static int op_table(tfw *w)
{
    if (tab_init(&w->optab, w->ops.n + 1))
        return oom(w);
    for (uint32_t i = 0; i < w->ops.n; i++) {
        uint64_t slot;
        if (tab_find(w, &w->optab, op_key, w->ops.v[i].name, &slot) == NNAV_NONE)
            w->optab.slot[slot] = i;
    }
    return 0;
}

/* Functions that reach themselves through calls: not an error for an index
 * (links are ids), but worth a warning. Iterative depth-first search over
 * the call links, colours per function. */
static int check_recursion(tfw *w)
{
    nnav_model *m = w->m;
    uint32_t nf = m->functions.n;
    if (!nf)
        return 0;
    uint8_t *colour = calloc(nf, 1);
    uint32_t *stack = malloc((size_t)nf * 2 * sizeof *stack);
    if (!colour || !stack) {
        free(colour);
        free(stack);
        return oom(w);
    }
    int rc = 0;
    for (uint32_t root = 0; root < nf && rc == 0; root++) {
        if (colour[root])
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        stack[sp++] = 0; /* next node of its body to look at */
        colour[root] = 1;
        while (sp && rc == 0) {
            uint32_t fid = stack[sp - 2], pos = stack[sp - 1];
            const nnav_graph *g = &m->graphs.v[m->functions.v[fid].graph];
            uint32_t next = NNAV_NONE;
            while (pos < g->node_count && next == NNAV_NONE) {
                const nnav_node *nd = &m->nodes.v[g->node_first + pos++];
                if (nd->function != NNAV_NONE)
                    next = nd->function;
                for (uint32_t a = 0; a < nd->attr_count && next == NNAV_NONE; a++) {
                    const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
                    for (uint32_t k = 0; k < at->graph_count; k++) {
                        uint32_t callee = m->graphs.v[at->graph_first + k].function;
                        if (callee != NNAV_NONE && colour[callee] != 2) {
                            next = callee;
                            break;
                        }
                    }
                }
                if (next != NNAV_NONE && colour[next] == 2)
                    next = NNAV_NONE;
            }
            stack[sp - 1] = pos;
            if (next == NNAV_NONE) {
                colour[fid] = 2;
                sp -= 2;
            } else if (colour[next] == 1) {
                char a[80], b[80];
                if (nnav_tf_warn(m, "function \"%s\" calls itself%s%s%s (recursion: shown as links, "
                                    "never expanded)",
                                 q(m->functions.v[next].name, a, 64), next == fid ? "" : " through \"",
                                 next == fid ? "" : q(m->functions.v[fid].name, b, 64),
                                 next == fid ? "" : "\""))
                    rc = oom(w);
                /* Stop following this edge; the cycle is reported once. */
            } else {
                colour[next] = 1;
                stack[sp++] = next;
                stack[sp++] = 0;
            }
        }
    }
    free(colour);
    free(stack);
    return rc;
}

/* ---- the whole file ---- */

static int add_kv(tfw *w, nnav_span key, nnav_span value)
{
    if (!value.n)
        return 0;
    nnav_kv *kv = nnav_vec_push(w->m->metadata);
    if (!kv)
        return oom(w);
    kv->key = key;
    kv->value = value;
    return key.p && value.p ? 0 : oom(w);
}

#define SPAN(lit) ((nnav_span){(const uint8_t *)(lit), sizeof(lit) - 1})

static nnav_span meta_key(tfw *w, uint32_t meta, uint32_t nmeta, const char *key)
{
    if (nmeta <= 1)
        return (nnav_span){(const uint8_t *)key, strlen(key)};
    return nnav_tf_printf(w->tf, "meta[%u].%s", meta, key);
}

static int meta_facts(tfw *w, uint32_t i, uint32_t nmeta, int64_t producer, int64_t min_consumer)
{
    nnav_tf *tf = w->tf;
    nnav_model *m = w->m;
    if (i < tf->metas.n) {
        const nnav_metagraph *mg = &tf->metas.v[i];
        if (add_kv(w, meta_key(w, i, nmeta, "tags"), m->graphs.v[mg->graph].name) ||
            add_kv(w, meta_key(w, i, nmeta, "tensorflow_version"), mg->tf_version) ||
            add_kv(w, meta_key(w, i, nmeta, "tensorflow_git_version"), mg->tf_git_version) ||
            add_kv(w, meta_key(w, i, nmeta, "meta_graph_version"), mg->meta_graph_version))
            return -1;
    }
    if (producer >= 0 &&
        add_kv(w, meta_key(w, i, nmeta, "graph_def_version"),
               nnav_tf_printf(tf, "%lld", (long long)producer)))
        return -1;
    if (min_consumer > 0 &&
        add_kv(w, meta_key(w, i, nmeta, "graph_def_min_consumer"),
               nnav_tf_printf(tf, "%lld", (long long)min_consumer)))
        return -1;
    return 0;
}

/* The tags of a meta graph joined by ",": its graph's name. */
static nnav_span joined_tags(tfw *w, const nnav_metagraph *mg)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < mg->tag_count; t++)
        n += w->tf->tags.v[mg->tag_first + t].n + 1;
    if (!n)
        return (nnav_span){0};
    uint8_t *p = nnav_tf_alloc(w->tf, n);
    if (!p)
        return (nnav_span){0};
    uint64_t o = 0;
    for (uint32_t t = 0; t < mg->tag_count; t++) {
        nnav_span s = w->tf->tags.v[mg->tag_first + t];
        if (t)
            p[o++] = ',';
        if (s.n)
            memcpy(p + o, s.p, s.n);
        o += s.n;
    }
    return (nnav_span){p, o};
}

int nnav_tf_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    nnav_tf *tf = calloc(1, sizeof *tf);
    if (!tf) {
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    m->rd = tf;
    tfw w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.tf = tf;
    w.base = m->map.base;
    w.err = err;
    w.opts = o;
    NNAV_VEC(tf_meta) metas = {0};
    nnav_span file = {m->map.base, m->map.size};
    int rc = -1;
    int64_t schema = -1;
    nnav_wire r;
    nnav_field f;
    int k;
    m->facts.producer_name = SPAN("TensorFlow");
    if (m->facts.format == NNAV_FMT_TF_SAVEDMODEL) {
        winit(&w, &r, file);
        while ((k = nnav_wire_next(&r, &f, err)) == 1) {
            if (f.num == SM_VERSION) {
                if (expect_wt(&w, &f, NNAV_WT_VARINT, "saved_model_schema_version")) {
                    err_prepend(err, "saved_model_schema_version");
                    goto out;
                }
                schema = (int64_t)f.v;
            } else if (f.num == SM_META) {
                if (expect_wt(&w, &f, NNAV_WT_LEN, "meta_graphs")) {
                    err_prepend(err, "meta_graphs[%u]", metas.n);
                    goto out;
                }
                tf_meta *mt = nnav_vec_push(metas);
                if (!mt) {
                    oom(&w);
                    goto out;
                }
                snprintf(mt->origin, sizeof mt->origin, "meta_graphs[%u]", metas.n - 1);
                mt->graph = f.s; /* the MetaGraphDef, until its top is read */
            } else if (keep_unknown(&w, &f, "SavedModel", NNAV_NONE)) {
                goto out;
            }
        }
        if (k < 0) {
            wire_fail(&w, &r, &tensorflow__saved_model__descriptor);
            goto out;
        }
        if (metas.n == 0) {
            nnav_err_set(err, 0, 1, "a SavedModel with no MetaGraphDef: nothing to show");
            goto out;
        }
    } else {
        tf_meta *mt = nnav_vec_push(metas);
        if (!mt) {
            oom(&w);
            goto out;
        }
        mt->graph = file;
    }
    int is_graphdef = m->facts.format == NNAV_FMT_TF_GRAPHDEF;
    /* Meta graphs' own fields, then one root graph each (ids 0..n-1). */
    for (uint32_t i = 0; i < metas.n && !is_graphdef; i++) {
        tf_meta *mt = &metas.v[i];
        nnav_span whole = mt->graph;
        nnav_metagraph *mg = nnav_vec_push(tf->metas);
        if (!mg) {
            oom(&w);
            goto out;
        }
        mt->graph = (nnav_span){0};
        if (walk_meta_top(&w, whole, mt, mg) < 0) {
            if (mt->origin[0])
                err_prepend(err, "%s", mt->origin);
            goto out;
        }
        mg->graph = i;
    }
    for (uint32_t i = 0; i < metas.n; i++) {
        uint32_t gid;
        if (new_graph(&w, NNAV_GRAPH_MAIN, metas.v[i].graph, &gid) < 0)
            goto out;
    }
    for (uint32_t i = 0; i < metas.n; i++) {
        tf_meta *mt = &metas.v[i];
        const char *dot = mt->origin[0] ? "." : "";
        nnav_metagraph *mg = is_graphdef ? NULL : &tf->metas.v[i];
        int64_t producer = -1, min_consumer = -1;
        w.ops.n = 0;
        w.cur_meta = i;
        free(w.optab.slot);
        w.optab.slot = NULL;
        if (mg) {
            if (mt->info.p && walk_metainfo(&w, mt->info, mg) < 0) {
                err_prepend(err, "%s%smeta_info_def", mt->origin, dot);
                goto out;
            }
            m->graphs.v[i].name = joined_tags(&w, mg);
            if (w.ops.n && op_table(&w) < 0)
                goto out;
            mg->sig_first = tf->sigs.n;
            for (uint32_t s = 0; s < mt->sigs.n; s++)
                if (walk_signature(&w, i, mt->sigs.v[s]) < 0) {
                    err_prepend(err, "%s%ssignature_def[%u]", mt->origin, dot, s);
                    goto out;
                }
            mg->sig_count = tf->sigs.n - mg->sig_first;
        }
        const char *gname = is_graphdef ? "" : "graph_def";
        const char *gdot = is_graphdef ? "" : ".";
        if (mt->graph.p && walk_graphdef_top(&w, i, mt->graph, mt, &producer, &min_consumer) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        w.producer = producer < 0 ? 0 : producer; /* an absent versions reads as 0 */
        if (add_functions(&w, mt, mg ? i : NNAV_NONE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        if (mg) {
            mg->function_first = mt->fn_first;
            mg->function_count = m->functions.n - mt->fn_first;
        }
        uint32_t tfirst = m->tensors.n, afirst = m->attrs.n;
        m->graphs.v[i].node_first = m->nodes.n;
        m->graphs.v[i].init_first = tfirst;
        if (mt->graph.p && walk_nodes(&w, i, mt->graph, GD_NODE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        if (i == 0 && m->facts.format == NNAV_FMT_TF_SAVEDMODEL &&
            nnav_tf_bundle_read(m, i, err) < 0)
            goto out;
        if (order_tensors(&w, i, tfirst, afirst) < 0 ||
            link_graph(&w, i, NULL, mg ? i : NNAV_NONE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        for (uint32_t fid = mt->fn_first; fid < m->functions.n; fid++)
            if (walk_function(&w, fid) < 0) {
                err_prepend(err, "%s%s%s%slibrary.function[%u]", mt->origin, dot, gname, gdot,
                            fid - mt->fn_first);
                goto out;
            }
        if (meta_facts(&w, i, metas.n, producer, min_consumer) < 0)
            goto out;
    }
    if (check_recursion(&w) < 0)
        goto out;
    if (schema >= 0 &&
        add_kv(&w, SPAN("saved_model_schema_version"), nnav_tf_printf(tf, "%lld", (long long)schema)))
        goto out;
    if (tf->metas.n)
        m->facts.producer_version = tf->metas.v[0].tf_version;
    m->facts.graph_name = m->graphs.v[0].name;
    rc = 0;
out:
    for (uint32_t i = 0; i < metas.n; i++) {
        nnav_vec_free(metas.v[i].sigs);
        nnav_vec_free(metas.v[i].fns);
    }
    nnav_vec_free(metas);
    nnav_vec_free(w.ops);
    nnav_vec_free(w.fsig);
    nnav_vec_free(w.args);
    nnav_vec_free(w.pending);
    nnav_vec_free(w.info);
    nnav_vec_free(w.refd);
    nnav_vec_free(w.vis);
    nnav_vec_free(w.tdims);
    free(w.optab.slot);
    free(w.fntab.slot);
    free(w.nodetab.slot);
    return rc;
}

/* ---- accessors ---- */

uint32_t nnav_warning_count(const nnav_model *m)
{
    const nnav_tf *tf = nnav_tf_state(m);
    return tf ? tf->warnings.n : 0;
}
const char *nnav_warning_get(const nnav_model *m, uint32_t i) { return nnav_tf_state(m)->warnings.v[i]; }
uint32_t nnav_metagraph_count(const nnav_model *m)
{
    const nnav_tf *tf = nnav_tf_state(m);
    return tf ? tf->metas.n : 0;
}
const nnav_metagraph *nnav_metagraph_get(const nnav_model *m, uint32_t i)
{
    return &nnav_tf_state(m)->metas.v[i];
}
nnav_span nnav_tag_get(const nnav_model *m, uint32_t i) { return nnav_tf_state(m)->tags.v[i]; }
uint32_t nnav_signature_count(const nnav_model *m)
{
    const nnav_tf *tf = nnav_tf_state(m);
    return tf ? tf->sigs.n : 0;
}
const nnav_signature *nnav_signature_get(const nnav_model *m, uint32_t i)
{
    return &nnav_tf_state(m)->sigs.v[i];
}

const nnav_sig_tensor *nnav_sig_tensor_get(const nnav_model *m, uint32_t i)
{
    nnav_tf *tf = nnav_tf_state(m);
    /* Values exist once the model is linked: resolve on first use. */
    if (!tf->sigs_linked) {
        for (uint32_t s = 0; s < tf->sigs.n; s++) {
            const nnav_signature *sg = &tf->sigs.v[s];
            uint32_t g = tf->metas.v[sg->metagraph].graph;
            for (int side = 0; side < 2; side++) {
                uint32_t f = side ? sg->out_first : sg->in_first;
                uint32_t n = side ? sg->out_count : sg->in_count;
                for (uint32_t t = f; t < f + n; t++) {
                    nnav_sig_tensor *st = &tf->sig_tensors.v[t];
                    st->value = nnav_value_lookup(m, g, (const char *)st->name.p, st->name.n);
                    if (st->value == NNAV_NONE && st->name.n &&
                        !memchr(st->name.p, ':', st->name.n)) {
                        /* "x" means "x:0" */
                        char buf[4096];
                        if (st->name.n + 3 <= sizeof buf) {
                            memcpy(buf, st->name.p, st->name.n);
                            memcpy(buf + st->name.n, ":0", 2);
                            st->value = nnav_value_lookup(m, g, buf, st->name.n + 2);
                        }
                    }
                }
            }
        }
        tf->sigs_linked = 1;
    }
    return &tf->sig_tensors.v[i];
}

void nnav_sig_tensor_format(const nnav_model *m, uint32_t i, char *buf, size_t n)
{
    const nnav_sig_tensor *st = &nnav_tf_state(m)->sig_tensors.v[i];
    size_t o = 0;
    if (!n)
        return;
    buf[0] = 0;
#define PUT(...)                                                                 \
    do {                                                                         \
        if (o < n) {                                                             \
            int k_ = snprintf(buf + o, n - o, __VA_ARGS__);                      \
            o += k_ > 0 ? (size_t)k_ : 0;                                        \
        }                                                                        \
    } while (0)
    PUT("%s", st->dtype ? nnav_dtype_name(st->dtype) : "?");
    if (st->rank < 0) {
        PUT("[...]");
    } else {
        PUT("[");
        for (int32_t d = 0; d < st->rank; d++) {
            int64_t v = m->dims.v[st->dims_first + d];
            if (v < 0)
                PUT(d ? ",?" : "?");
            else
                PUT(d ? ",%lld" : "%lld", (long long)v);
        }
        PUT("]");
    }
    if (st->encoding == TI_COO)
        PUT(" (sparse)");
    else if (st->encoding == TI_COMPOSITE)
        PUT(" (composite)");
#undef PUT
}

/* ---- the reader ---- */

static void tf_free(nnav_model *m)
{
    nnav_tf_free(m->rd);
    m->rd = NULL;
}

const nnav_reader nnav_reader_tf = {
    .name = "TensorFlow",
    .formats = 1u << NNAV_FMT_TF_SAVEDMODEL | 1u << NNAV_FMT_TF_METAGRAPH |
               1u << NNAV_FMT_TF_GRAPHDEF,
    .index = nnav_tf_index,
    .free = tf_free,
    .attr_scalar = nnav_tf_op_attr_scalar,
    .attr_list = nnav_tf_op_attr_list,
    .attr_format = nnav_tf_attr_format,
    .tensor_values = nnav_tf_op_tensor_values,
    .storage_format = nnav_tf_tensor_storage_format,
    .typed_repeats = 1,
    .node_device = nnav_tf_node_device,
};
