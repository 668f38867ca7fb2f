/* tf_walk.h - the TensorFlow reader's walk of a file at open, shared by
 * tf.c (the whole file, arena, accessors), tf_graph.c (GraphDefs, nodes,
 * attrs, tensors, op signatures, linking one graph) and tf_meta.c
 * (MetaGraphDef, its meta info and signatures, the function library). */
#ifndef NNAV_TF_WALK_H
#define NNAV_TF_WALK_H

#include "tf.h"
#include "walk.h"
#include "wire.h"

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

static inline int oom(tfw *w) { return nnav_err_oom(w->err); }

static inline int expect_wt(tfw *w, const nnav_field *f, uint8_t wt, const char *name)
{
    return nnav_walk_expect(w->err, f, wt, name);
}

static inline int keep_unknown(tfw *w, const nnav_field *f, const char *where, uint32_t owner)
{
    return nnav_walk_unknown(w->m, w->err, f, where, owner);
}

static inline void winit(tfw *w, nnav_wire *r, nnav_span s) { nnav_walk_init(w->m, r, s); }

static inline int wire_fail(tfw *w, const nnav_wire *r, const ProtobufCMessageDescriptor *d)
{
    return nnav_walk_fail(w->err, r, d);
}

static inline uint64_t off_of(tfw *w, nnav_span s)
{
    return s.p ? (uint64_t)(s.p - w->base) : 0;
}

/* Text of a span for an error message or a warning: escaped and cut. */
static inline const char *q(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

typedef nnav_span (*tab_key)(const tfw *w, uint32_t id);

static inline nnav_span op_key(const tfw *w, uint32_t id) { return w->ops.v[id].name; }
static inline nnav_span fn_key(const tfw *w, uint32_t id) { return w->m->functions.v[id].name; }

/* A function body's extra facts, for linking it (tf_graph.c). */
typedef struct tf_fnextra {
    uint32_t fid;
    NNAV_VEC(nnav_kv) ret;        /* output arg -> body tensor */
    NNAV_VEC(nnav_span) arg_attr; /* ArgAttrs by input index (p NULL: none) */
    nnav_span input_shapes;       /* the function's "_input_shapes" AttrValue */
} tf_fnextra;

/* tf_graph.c */
int tf_link_graph(tfw *w, uint32_t gid, const tf_fnextra *fx, uint32_t meta);
int tf_new_graph(tfw *w, uint8_t kind, nnav_span s, uint32_t *id);
int tf_order_tensors(tfw *w, uint32_t gid, uint32_t tfirst, uint32_t afirst);
uint32_t tf_tab_find(const tfw *w, const tf_tab *t, tab_key key, nnav_span name,
                     uint64_t *free_slot);
int tf_tab_init(tf_tab *t, uint64_t n);
int tf_walk_entry(tfw *w, nnav_span s, nnav_span *key, nnav_span *value, uint64_t *key_varint,
                  const ProtobufCMessageDescriptor *d);
int tf_walk_function(tfw *w, uint32_t fid);
int tf_walk_graphdef_top(tfw *w, uint32_t gid, nnav_span s, tf_meta *mt, int64_t *producer,
                         int64_t *min_consumer);
int tf_walk_nodes(tfw *w, uint32_t gid, nnav_span s, uint32_t field);
int tf_walk_opdef(tfw *w, nnav_span s, tf_op *op, nnav_function *fn);
int tf_walk_shape(tfw *w, nnav_span s, int32_t *rank, uint32_t *bad);
/* tf_meta.c */
int tf_add_functions(tfw *w, tf_meta *mt, uint32_t meta);
int tf_check_recursion(tfw *w);
int tf_op_table(tfw *w);
int tf_walk_meta_top(tfw *w, nnav_span s, tf_meta *mt, nnav_metagraph *mg);
int tf_walk_metainfo(tfw *w, nnav_span s, nnav_metagraph *mg);
int tf_walk_signature(tfw *w, uint32_t meta, nnav_span entry);

#endif
