/* model.h - the model index's private layout, shared by the readers
 * (src/formats/, through reader.h) and the neutral index (src/index/).
 * Nothing outside the core sees it.
 *
 * A type is kept in its reader's own encoding (nnav_vinfo.type, a span) and
 * read only through the reader's `type` operation (reader.h), which decodes
 * it into the public nnav_type (nnav_type_decode, types.c): the index names
 * no format's type message. */
#ifndef NNAV_MODEL_H
#define NNAV_MODEL_H

#include "hashtab.h"
#include "map.h"
#include "nnav.h"
#include "reader.h"
#include "util.h"

/* A node's input or output name as the index keeps it: 16 bytes, where the
 * public nnav_ref takes 24 (nnav_ref_get builds one). Two refs a node made
 * the 8 bytes matter on million-node graphs. A name of 4 GiB or more (only a
 * crafted file holds one) has n == UINT32_MAX and its length in long_refs;
 * TensorFlow's control flags are one bit a ref in ref_ctl. Read and write
 * them through the nnav_ref_* helpers below. */
typedef struct nnav_cref {
    const uint8_t *p;
    uint32_t n;
    uint32_t value; /* NNAV_NONE for "" (omitted optional) */
} nnav_cref;

typedef struct nnav_long_ref {
    uint32_t id;
    uint64_t n;
} nnav_long_ref;

struct nnav_model {
    nnav_map map;
    char *path;      /* as given */
    char *dir;       /* folder holding the model: external data resolves inside it */
    int follow_links;  /* nnav_open_opts.follow_links */
    int links_refused; /* a data file was refused for a link not followed (extdata.c) */
    nnav_model_facts facts;
    char format_reason[256];

    NNAV_VEC(nnav_graph) graphs;
    NNAV_VEC(nnav_span) gspan;     /* each graph's message bytes, same ids */
    NNAV_VEC(nnav_span) main_parts; /* further occurrences of ModelProto.graph, merged */
    NNAV_VEC(nnav_node) nodes;
    NNAV_VEC(nnav_cref) refs;
    NNAV_VEC(nnav_long_ref) long_refs; /* by id, ascending */
    NNAV_VEC(uint8_t) ref_ctl;         /* bit per ref: a TensorFlow control edge */
    NNAV_VEC(uint8_t) node_dom;        /* bit per node: its NodeProto names a domain */
    NNAV_VEC(nnav_value) values;
    NNAV_VEC(uint32_t) consumers;
    NNAV_VEC(nnav_vinfo) vinfos;
    NNAV_VEC(nnav_attr) attrs;
    NNAV_VEC(nnav_tensor) tensors;
    NNAV_VEC(int64_t) dims;
    NNAV_VEC(nnav_sparse) sparse;
    NNAV_VEC(nnav_function) functions;
    NNAV_VEC(nnav_opset) opsets;   /* model's first, then each function's */
    NNAV_VEC(nnav_kv) metadata;
    NNAV_VEC(nnav_unknown) unknown;
    NNAV_VEC(uint32_t) children;   /* child graph ids, grouped by parent */
    uint32_t model_opset_count;
    uint32_t training_count;
    uint32_t config_count;         /* DeviceConfigurationProto entries */

    nnav_hashtab value_tab; /* (graph, name) -> value id */
    nnav_hashtab node_tab; /* (graph, name) -> node id, first of that name */
    char **paths;        /* short graph path strings, kept once written */
    uint64_t *path_len;  /* every graph's path length, built on first use */
    uint32_t *path_top;  /* ancestor whose path text fills any buffer (index.c) */
    uint32_t *path_cd;   /* bodies on the way to the root */
    uint8_t *fn_ambig;   /* function names that several functions share */
    uint64_t *total_nodes; /* nodes in each graph and below, built on first use */
    int totals_failed;
    /* The operator schemas the file carries (TensorFlow OpDefs, opschema.h),
     * sorted by name; the reader fills them at open, in memory it frees at
     * close. NULL and 0 when the file carries none (opdefs.c). */
    const struct nnav_op_schema *op_schemas;
    uint32_t op_schema_count;
    /* Beside each of op_schemas: for every formal, in then out, the attr
     * that counts its tensors (TensorFlow number_attr or type_list_attr),
     * NULL for a formal of one tensor. */
    const char *const *const *op_count_attrs;
    const nnav_reader *reader; /* the format's reader (reader.h) */
    void *rd;                  /* its private state, NULL when it keeps none */
};

/* Append a ref (value NNAV_NONE); -1 when out of memory. */
int nnav_ref_push(nnav_model *m, nnav_span name, int control);
int nnav_ref_set_name(nnav_model *m, uint32_t id, nnav_span name);
nnav_span nnav_ref_long_name(const nnav_model *m, uint32_t id);

static inline nnav_span nnav_ref_name(const nnav_model *m, uint32_t id)
{
    const nnav_cref *r = &m->refs.v[id];
    return r->n != UINT32_MAX ? (nnav_span){r->p, r->n} : nnav_ref_long_name(m, id);
}

static inline int nnav_ref_control(const nnav_model *m, uint32_t id)
{
    return (id >> 3) < m->ref_ctl.n && (m->ref_ctl.v[id >> 3] >> (id & 7) & 1);
}

/* Bad input at byte off, at field path (NULL: none), err cleared first:
 * -1, so that a reader can `return nnav_err_at(...)`. */
int nnav_err_at(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Set err from printf-style arguments. */
void nnav_err_set(nnav_error *err, uint64_t off, int has_off, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Tensor t's element count (nelems) and byte count (nbytes) from its dims
 * (ndims at dims_first) and dtype, the same check for every format:
 * NNAV_TW_BAD_DIMS for a negative dim, an overflowing element count or a
 * byte count past 64 bits, NNAV_TW_BAD_DTYPE for an unknown dtype; either
 * count is UINT64_MAX when it is not known. A string tensor's byte count is
 * string_bytes (the reader's sum of its strings, or UINT64_MAX). */
void nnav_tensor_sizes(const nnav_model *m, nnav_tensor *t, uint64_t string_bytes);

/* Index-wide passes shared by every reader: value resolution by scope,
 * consumer lists, name tables. Called once the structure is walked. */
int nnav_index_link(nnav_model *m, nnav_error *err);


#endif
