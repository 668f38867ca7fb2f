/* tf_walk.h - the TensorFlow reader's walk of a file at open, shared by
 * tf.c (the whole file, arena, accessors), tf_graph.c (GraphDefs, nodes,
 * attrs, tensors, op signatures, linking one graph) and tf_meta.c
 * (MetaGraphDef, its meta info and signatures, the function library). */
#ifndef NNAV_TF_WALK_H
#define NNAV_TF_WALK_H

#include "hashtab.h"
#include "opschema.h"
#include "tf.h"
#include "tf_fields.h"
#include "walk.h"
#include "wire.h"

/* Short names for the field numbers generated from proto/tensorflow
 * (tf_fields.h, which tests check against protoc-c's descriptors). */
enum {
    SM_VERSION = NNAV_TF_SAVEDMODEL_SAVED_MODEL_SCHEMA_VERSION,
    SM_META = NNAV_TF_SAVEDMODEL_META_GRAPHS,
};
enum {
    MG_INFO = NNAV_TF_METAGRAPHDEF_META_INFO_DEF,
    MG_GRAPH = NNAV_TF_METAGRAPHDEF_GRAPH_DEF,
    MG_SAVER = NNAV_TF_METAGRAPHDEF_SAVER_DEF,
    MG_COLLECTION = NNAV_TF_METAGRAPHDEF_COLLECTION_DEF,
    MG_SIGNATURE = NNAV_TF_METAGRAPHDEF_SIGNATURE_DEF,
    MG_ASSET = NNAV_TF_METAGRAPHDEF_ASSET_FILE_DEF,
    MG_OBJECTS = NNAV_TF_METAGRAPHDEF_OBJECT_GRAPH_DEF,
};
enum {
    MI_VERSION = NNAV_TF_METAGRAPHDEF_METAINFODEF_META_GRAPH_VERSION,
    MI_OPS = NNAV_TF_METAGRAPHDEF_METAINFODEF_STRIPPED_OP_LIST,
    MI_ANY = NNAV_TF_METAGRAPHDEF_METAINFODEF_ANY_INFO,
    MI_TAGS = NNAV_TF_METAGRAPHDEF_METAINFODEF_TAGS,
    MI_TF_VERSION = NNAV_TF_METAGRAPHDEF_METAINFODEF_TENSORFLOW_VERSION,
    MI_TF_GIT = NNAV_TF_METAGRAPHDEF_METAINFODEF_TENSORFLOW_GIT_VERSION,
    MI_STRIPPED = NNAV_TF_METAGRAPHDEF_METAINFODEF_STRIPPED_DEFAULT_ATTRS,
    MI_ALIASES = NNAV_TF_METAGRAPHDEF_METAINFODEF_FUNCTION_ALIASES,
};
enum {
    GD_NODE = NNAV_TF_GRAPHDEF_NODE,
    GD_LIBRARY = NNAV_TF_GRAPHDEF_LIBRARY,
    GD_VERSION = NNAV_TF_GRAPHDEF_VERSION,
    GD_VERSIONS = NNAV_TF_GRAPHDEF_VERSIONS,
};
enum {
    LIB_FUNCTION = NNAV_TF_FUNCTIONDEFLIBRARY_FUNCTION,
    LIB_GRADIENT = NNAV_TF_FUNCTIONDEFLIBRARY_GRADIENT,
    LIB_REGISTERED = NNAV_TF_FUNCTIONDEFLIBRARY_REGISTERED_GRADIENTS,
};
enum {
    FD_SIGNATURE = NNAV_TF_FUNCTIONDEF_SIGNATURE,
    FD_NODE = NNAV_TF_FUNCTIONDEF_NODE_DEF,
    FD_RET = NNAV_TF_FUNCTIONDEF_RET,
    FD_ATTR = NNAV_TF_FUNCTIONDEF_ATTR,
    FD_CONTROL_RET = NNAV_TF_FUNCTIONDEF_CONTROL_RET,
    FD_ARG_ATTR = NNAV_TF_FUNCTIONDEF_ARG_ATTR,
    FD_RESOURCE_ID = NNAV_TF_FUNCTIONDEF_RESOURCE_ARG_UNIQUE_ID,
};
enum {
    ND_NAME = NNAV_TF_NODEDEF_NAME,
    ND_OP = NNAV_TF_NODEDEF_OP,
    ND_INPUT = NNAV_TF_NODEDEF_INPUT,
    ND_DEVICE = NNAV_TF_NODEDEF_DEVICE,
    ND_ATTR = NNAV_TF_NODEDEF_ATTR,
    ND_DEBUG = NNAV_TF_NODEDEF_EXPERIMENTAL_DEBUG_INFO,
    ND_TYPE = NNAV_TF_NODEDEF_EXPERIMENTAL_TYPE,
};
enum {
    OP_NAME = NNAV_TF_OPDEF_NAME,
    OP_INPUT = NNAV_TF_OPDEF_INPUT_ARG,
    OP_OUTPUT = NNAV_TF_OPDEF_OUTPUT_ARG,
    OP_ATTR = NNAV_TF_OPDEF_ATTR,
    OP_SUMMARY = NNAV_TF_OPDEF_SUMMARY,
    OP_DESC = NNAV_TF_OPDEF_DESCRIPTION,
    OP_DEPRECATION = NNAV_TF_OPDEF_DEPRECATION,
    OP_AGGREGATE = NNAV_TF_OPDEF_IS_AGGREGATE,
    OP_STATEFUL = NNAV_TF_OPDEF_IS_STATEFUL,
    OP_COMMUTATIVE = NNAV_TF_OPDEF_IS_COMMUTATIVE,
    OP_UNINIT = NNAV_TF_OPDEF_ALLOWS_UNINITIALIZED_INPUT,
    OP_CONTROL_OUT = NNAV_TF_OPDEF_CONTROL_OUTPUT,
    OP_DISTRIBUTED = NNAV_TF_OPDEF_IS_DISTRIBUTED_COMMUNICATION,
};
enum {
    ARG_NAME = NNAV_TF_OPDEF_ARGDEF_NAME,
    ARG_DESC = NNAV_TF_OPDEF_ARGDEF_DESCRIPTION,
    ARG_TYPE = NNAV_TF_OPDEF_ARGDEF_TYPE,
    ARG_TYPE_ATTR = NNAV_TF_OPDEF_ARGDEF_TYPE_ATTR,
    ARG_NUMBER_ATTR = NNAV_TF_OPDEF_ARGDEF_NUMBER_ATTR,
    ARG_TYPE_LIST_ATTR = NNAV_TF_OPDEF_ARGDEF_TYPE_LIST_ATTR,
    ARG_HANDLE = NNAV_TF_OPDEF_ARGDEF_HANDLE_DATA,
    ARG_IS_REF = NNAV_TF_OPDEF_ARGDEF_IS_REF,
    ARG_FULL_TYPE = NNAV_TF_OPDEF_ARGDEF_EXPERIMENTAL_FULL_TYPE,
};
enum {
    SIG_INPUTS = NNAV_TF_SIGNATUREDEF_INPUTS,
    SIG_OUTPUTS = NNAV_TF_SIGNATUREDEF_OUTPUTS,
    SIG_METHOD = NNAV_TF_SIGNATUREDEF_METHOD_NAME,
    SIG_DEFAULTS = NNAV_TF_SIGNATUREDEF_DEFAULTS,
};
enum {
    TI_NAME = NNAV_TF_TENSORINFO_NAME,
    TI_DTYPE = NNAV_TF_TENSORINFO_DTYPE,
    TI_SHAPE = NNAV_TF_TENSORINFO_TENSOR_SHAPE,
    TI_COO = NNAV_TF_TENSORINFO_COO_SPARSE,
    TI_COMPOSITE = NNAV_TF_TENSORINFO_COMPOSITE_TENSOR,
};
enum {
    SH_DIM = NNAV_TF_TENSORSHAPEPROTO_DIM,
    SH_UNKNOWN_RANK = NNAV_TF_TENSORSHAPEPROTO_UNKNOWN_RANK,
};
enum {
    VD_PRODUCER = NNAV_TF_VERSIONDEF_PRODUCER,
    VD_MIN_CONSUMER = NNAV_TF_VERSIONDEF_MIN_CONSUMER,
    VD_BAD = NNAV_TF_VERSIONDEF_BAD_CONSUMERS,
};

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
    uint32_t pos; /* stripped_op_list: index in the list as written */
    int parsed;
} tf_op;

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

/* An OpDef converted to a schema (tf_opdefs.c), with where it was read. */
typedef struct tf_opdef {
    nnav_op_schema s;
    const char **counts; /* each formal's count attr (model.h op_count_attrs) */
    uint32_t meta, pos;  /* meta graph, index in its stripped_op_list */
    nnav_span msg;      /* the OpDef's bytes */
} tf_opdef;

typedef struct tfw {
    nnav_model *m;
    nnav_tf *tf;
    const uint8_t *base;
    nnav_error *err;
    const nnav_open_opts *opts;
    uint64_t since_progress;
    NNAV_VEC(tf_op) ops;           /* stripped_op_list of the current meta graph */
    NNAV_VEC(tf_opdef) opdefs;     /* every meta graph's OpDefs as schemas */
    NNAV_VEC(tf_op) fsig;          /* each function's signature, by function id */
    NNAV_VEC(tf_arg) args;
    nnav_hashtab optab, fntab;
    NNAV_VEC(pending_tensor) pending;
    NNAV_VEC(tf_nodeinfo) info;
    NNAV_VEC(tf_refd) refd;
    NNAV_VEC(tf_vi) vis;           /* value infos of the graph being linked */
    NNAV_VEC(int64_t) tdims;       /* scratch shape */
    nnav_hashtab nodetab;
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
/* Name tables (span -> id, the one hash table): init frees what t held;
 * find gives NNAV_NONE when absent; add stores id unless the name is there
 * already (1, *other its id; the first stays), -1 out of memory. */
uint32_t tf_tab_find(const tfw *w, const nnav_hashtab *t, tab_key key, nnav_span name);
int tf_tab_add(const tfw *w, nnav_hashtab *t, tab_key key, nnav_span name, uint32_t id,
               uint32_t *other);
int tf_tab_init(nnav_hashtab *t, uint64_t n);
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
int tf_walk_meta_top(tfw *w, nnav_span s, tf_meta *mt, tf_metagraph *mg);
int tf_walk_metainfo(tfw *w, nnav_span s, tf_metagraph *mg);
int tf_walk_signature(tfw *w, uint32_t meta, nnav_span entry);
/* tf_opdefs.c: the current meta graph's OpDefs (w->ops) as schemas, each
 * one TensorFlow would refuse left out with a warning; then, once every
 * meta graph is read, all of them sorted by name (the first of a name kept)
 * handed to the model. -1 only when out of memory. */
int tf_opdefs_add(tfw *w);
/* The field path of a meta graph's stripped_op_list, for warnings. */
void tf_opdefs_where(const tfw *w, uint32_t meta, char *buf, size_t n);
int tf_opdefs_finish(tfw *w);

#endif
