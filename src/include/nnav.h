/* nnav.h - the public face of the core: a lazy, zero-copy index of a model file.
 *
 * The core knows nothing of terminals. Both faces (the CLI in src/cli/ and the
 * ncurses explorer in ui/) read a model only through this header.
 *
 * Calling rules, in one place:
 *  - nnav_model_open() maps the file read-only and indexes structure only. It
 *    never reads a tensor payload byte. Everything it returns lives until
 *    nnav_model_close(); nothing returned is freed by the caller.
 *  - Every name is an nnav_span into the map: bytes from the file, not
 *    NUL-terminated, not sanitised. Put them through nnav_text_escape() (or
 *    nnav_text_cstr()) before they reach a terminal or stderr.
 *  - Ids are dense uint32 indices into model-wide arrays; NNAV_NONE means "none".
 *  - Attribute values, types and tensor values are decoded on demand by the
 *    nnav_attr_*, nnav_type_* and nnav_tensor_* functions.
 */
#ifndef NNAV_H
#define NNAV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NNAV_NONE UINT32_MAX

typedef struct nnav_span {
    const uint8_t *p;
    uint64_t n;
} nnav_span;

/* Errors as data: what, where in the file, and the field path. */
typedef struct nnav_error {
    char msg[512];
    char path[512];   /* e.g. graph.node[12].attribute[3].t.dims */
    uint64_t offset;  /* byte offset in the file */
    int has_offset;
    int kind;         /* nnav_err_kind: whose fault it is (a face maps it to an exit status) */
} nnav_error;

/* What kind of failure an error is. The core says which; each face decides
 * what that means to its user (the CLI: exit status 1 or 2). */
typedef enum nnav_err_kind {
    NNAV_ERR_UNSET = 0, /* not said: treated as bad input */
    NNAV_ERR_USAGE,     /* the request is wrong: an option, a name in several graphs */
    NNAV_ERR_INPUT,     /* the file is wrong, or cannot be read */
} nnav_err_kind;

/* "FILE: PATH: MSG at offset N", sanitised, cut between whole characters. */
void nnav_error_format(const nnav_error *e, const char *file, char *buf, size_t n);

typedef enum nnav_format {
    NNAV_FMT_ONNX = 0,
    NNAV_FMT_TF_SAVEDMODEL,
    NNAV_FMT_TF_METAGRAPH,
    NNAV_FMT_TF_GRAPHDEF,
    NNAV_FMT_PYTORCH,       /* torch.save's zip checkpoint (loadscan.h: what loading it runs) */
    NNAV_FMT_OTHER,         /* a reader that knows its own files (reader.h's sniff):
                               facts.format_name says which */
} nnav_format;
const char *nnav_format_name(nnav_format f);
/* The one list of what nnav reads, from its table of readers, for every
 * refusal and the help: each reader's name and what it reads, "NAME (WHAT),
 * ... and NAME (WHAT)", in the table's order. */
void nnav_readable_formats(char *buf, size_t n);

/* A folder's model files (its own, and those of its folders one level down;
 * a folder that is one model is one file), by name: what a folder that is no
 * one model holds. The name is relative to the folder, kind its reader's
 * name. How many (up to 256), *out malloc'd (free()), NULL when none. */
typedef struct nnav_folder_entry {
    char name[256];
    const char *kind;
    uint64_t size;
} nnav_folder_entry;
size_t nnav_folder_models(const char *path, nnav_folder_entry **out);
/* 0 when path is a folder that is no one model (opening it would list its
 * model files), else 1 (a file, or a folder a reader opens). */
int nnav_folder_is_one(const char *path);
/* "1.2 MB": bytes in powers of 1000, one decimal. */
void nnav_size_text(uint64_t bytes, char *buf, size_t n);

typedef enum nnav_graph_kind {
    NNAV_GRAPH_MAIN = 0,
    NNAV_GRAPH_BODY,          /* a GRAPH or GRAPHS attribute of a node */
    NNAV_GRAPH_FUNCTION,      /* a model-local function body */
    NNAV_GRAPH_TRAINING_INIT, /* TrainingInfoProto.initialization */
    NNAV_GRAPH_TRAINING_ALGO, /* TrainingInfoProto.algorithm */
} nnav_graph_kind;

typedef struct nnav_graph {
    nnav_span name;
    uint8_t kind;          /* nnav_graph_kind */
    uint32_t parent;       /* enclosing graph for scoping, NNAV_NONE at a root */
    uint32_t owner_node;   /* node whose attribute holds this body */
    uint32_t owner_attr;   /* that attribute */
    uint32_t list_index;   /* position in a GRAPHS list, NNAV_NONE for GRAPH */
    uint32_t function;     /* function id for a function body */
    uint32_t training;     /* training_info index for training graphs */
    uint32_t depth;        /* 0 at roots */
    uint32_t node_first, node_count;
    uint32_t input_first, input_count;   /* into value infos */
    uint32_t output_first, output_count; /* into value infos */
    uint32_t vi_first, vi_count;         /* value_info entries */
    uint32_t init_first, init_count;     /* initializer tensors */
    uint32_t sparse_first, sparse_count; /* sparse initializers */
    uint32_t child_first, child_count;   /* into nnav_graph_children() */
    uint64_t offset;                     /* where the GraphProto starts */
} nnav_graph;

/* A node's domain and its position in its graph are not kept here (a million
 * nodes would pay for them): nnav_node_domain() and nnav_node_index(). */
typedef struct nnav_node {
    nnav_span name, op;
    uint32_t graph;
    uint32_t in_first, in_count;   /* into refs */
    uint32_t out_first, out_count; /* into refs */
    uint32_t attr_first, attr_count;
    uint32_t function;     /* the local function this op calls, or NNAV_NONE */
    nnav_span msg;         /* the NodeProto (or NodeDef) bytes */
} nnav_node;

/* One name in a node's input or output list. */
typedef struct nnav_ref {
    nnav_span name;
    uint32_t value; /* NNAV_NONE for "" (omitted optional) */
    /* TensorFlow control edge: an input "^N" (no data, only order), or N's
     * control output "^N" that such inputs name; always after the data refs. */
    uint8_t control;
} nnav_ref;

typedef enum nnav_value_kind {
    NNAV_VAL_UNDEFINED = 0, /* used but defined nowhere in scope: flagged */
    NNAV_VAL_INPUT,         /* graph (or function) input */
    NNAV_VAL_INITIALIZER,
    NNAV_VAL_SPARSE,        /* sparse initializer */
    NNAV_VAL_NODE,          /* output of a node */
} nnav_value_kind;

typedef struct nnav_value {
    nnav_span name;
    uint32_t graph;     /* the graph that defines it (or uses it, if undefined) */
    uint8_t kind;       /* nnav_value_kind */
    uint8_t is_input;   /* also listed as a graph input */
    uint8_t is_output;  /* listed as a graph output */
    uint32_t producer;  /* node, tensor, sparse or value-info id, by kind */
    uint32_t vinfo;     /* a value info giving its type, or NNAV_NONE */
    uint32_t cons_first, cons_count; /* into nnav_value_consumers() */
} nnav_value;

typedef struct nnav_vinfo {
    nnav_span name;
    nnav_span type;   /* the type in its reader's encoding, opaque: read it
                         with nnav_type_decode(); p == NULL when absent */
    uint32_t graph;
    uint32_t value;
} nnav_vinfo;

typedef enum nnav_attr_type {
    NNAV_ATTR_UNDEFINED = 0, NNAV_ATTR_FLOAT, NNAV_ATTR_INT, NNAV_ATTR_STRING,
    NNAV_ATTR_TENSOR, NNAV_ATTR_GRAPH, NNAV_ATTR_FLOATS, NNAV_ATTR_INTS,
    NNAV_ATTR_STRINGS, NNAV_ATTR_TENSORS, NNAV_ATTR_GRAPHS, NNAV_ATTR_SPARSE_TENSOR,
    NNAV_ATTR_SPARSE_TENSORS, NNAV_ATTR_TYPE_PROTO, NNAV_ATTR_TYPE_PROTOS,
    /* TensorFlow AttrValue kinds ONNX lacks (s, i, f, tensor and their lists
     * use the ONNX kinds above). A func attr naming a library function links
     * to its graph through graph_first/graph_count. */
    NNAV_ATTR_TF_BOOL, NNAV_ATTR_TF_TYPE, NNAV_ATTR_TF_SHAPE, NNAV_ATTR_TF_FUNC,
    NNAV_ATTR_TF_PLACEHOLDER, NNAV_ATTR_TF_BOOLS, NNAV_ATTR_TF_TYPES, NNAV_ATTR_TF_SHAPES,
    NNAV_ATTR_TF_FUNCS, NNAV_ATTR_TF_LIST, /* an empty list: its item type is not on the wire */
} nnav_attr_type;
const char *nnav_attr_type_name(int t);

typedef struct nnav_attr {
    nnav_span name;
    nnav_span ref_attr_name; /* inside functions: value comes from the caller */
    nnav_span msg;           /* the AttributeProto bytes */
    uint8_t type;            /* nnav_attr_type; inferred from the fields when absent */
    uint32_t node;
    uint32_t graph_first, graph_count;   /* bodies held, as graph ids (consecutive) */
    uint32_t tensor_first, tensor_count; /* tensors held (t / tensors) */
} nnav_attr;

typedef enum nnav_storage {
    NNAV_STORE_NONE = 0, NNAV_STORE_RAW, NNAV_STORE_TYPED, NNAV_STORE_EXTERNAL,
    NNAV_STORE_SPARSE,
} nnav_storage;

enum nnav_tensor_owner {
    NNAV_TOWN_INITIALIZER = 0, NNAV_TOWN_SPARSE_VALUES, NNAV_TOWN_SPARSE_INDICES,
    NNAV_TOWN_ATTRIBUTE,
};

/* Warnings on a tensor, found at open without reading the payload. */
enum {
    NNAV_TW_SIZE_MISMATCH = 1u << 0, /* stored bytes differ from dims x dtype */
    NNAV_TW_BAD_DIMS = 1u << 1,      /* negative dim or product overflow */
    NNAV_TW_BAD_DTYPE = 1u << 2,
    NNAV_TW_BAD_EXTERNAL = 1u << 3,  /* external_data keys malformed or unsafe */
    NNAV_TW_MANY_FIELDS = 1u << 4,   /* values in more than one data field */
    NNAV_TW_WRONG_FIELD = 1u << 5,   /* values in a field not meant for the dtype
                                        (int64 numbers in double_data...) */
};

/* What a tensor is to its module, where the file says: a PyTorch module
 * pickled whole keeps its parameters and buffers apart (_parameters,
 * _buffers); a TorchScript archive's constants (CONSTANTS.cN) are neither.
 * Every other tensor is NNAV_TROLE_UNSAID. */
enum nnav_tensor_role {
    NNAV_TROLE_UNSAID = 0, NNAV_TROLE_PARAMETER, NNAV_TROLE_BUFFER, NNAV_TROLE_CONSTANT,
};

/* How an external tensor's data file is reached from the model's folder. */
typedef enum nnav_ext_via {
    NNAV_EXT_UNSEEN = 0, /* not looked at yet */
    NNAV_EXT_PLAIN,      /* a file beside the model (or refused, or missing) */
    NNAV_EXT_HF_BLOB,    /* a link into the blobs/ of the model's Hugging Face cache repository */
    NNAV_EXT_LINK,       /* through a symbolic link followed on --follow-links */
} nnav_ext_via;

typedef struct nnav_tensor {
    nnav_span name;
    int32_t dtype;          /* ONNX TensorProto.DataType value */
    uint32_t ndims;
    uint32_t dims_first;    /* into nnav_dims() */
    uint8_t storage;        /* nnav_storage */
    uint8_t owner;          /* nnav_tensor_owner */
    uint8_t typed_field;    /* TensorProto field number for NNAV_STORE_TYPED */
    uint8_t ext_via;        /* nnav_ext_via: how the data file was reached, once looked at */
    uint32_t warn;          /* NNAV_TW_* */
    uint32_t graph;
    uint32_t owner_id;      /* attribute id or sparse id, by owner */
    uint8_t role;           /* nnav_tensor_role */
    uint64_t nelems;        /* product of dims (UINT64_MAX on overflow) */
    uint64_t nbytes;        /* bytes dims x dtype call for (UINT64_MAX if unknown) */
    uint64_t stored;        /* bytes stored (raw/external length; typed: field bytes) */
    nnav_span data;         /* raw_data or the first typed field's bytes */
    nnav_span ext_location; /* external_data location */
    int64_t ext_offset, ext_length; /* -1 when absent */
    nnav_span msg;          /* the TensorProto bytes */
    /* Its storage type when the element type does not say it (dtype
     * NNAV_DT_QBLOCKS: weights quantised in blocks, "q4_K"), static text of
     * the reader's; NULL: nnav_dtype_name(dtype). nnav_tensor_type_name()
     * gives either. Its bits per weight are nbytes x 8 / nelems. */
    const char *stype;
} nnav_tensor;

typedef struct nnav_sparse {
    uint32_t values, indices; /* tensor ids */
    uint32_t ndims, dims_first;
    uint32_t graph;
    uint64_t nbytes_dense;
} nnav_sparse;

typedef struct nnav_function {
    nnav_span name, domain, overload;
    uint32_t graph;
    uint32_t attr_name_first, attr_name_count; /* attribute names without default, into refs */
    uint32_t attr_first, attr_count;           /* attribute_proto defaults, into attrs */
    uint32_t opset_first, opset_count;
    nnav_span msg;
} nnav_function;

typedef struct nnav_kv { nnav_span key, value; } nnav_kv;
typedef struct nnav_opset { nnav_span domain; int64_t version; } nnav_opset;

/* A field the schema does not know, kept as it was. */
typedef struct nnav_unknown {
    const char *where;   /* message type, e.g. "ModelProto" */
    uint32_t owner;      /* id of the owning object (graph/node/tensor), or NNAV_NONE */
    uint32_t number;
    uint8_t wire_type;
    nnav_span span;      /* the value's bytes */
    uint64_t offset;     /* of the tag */
} nnav_unknown;

typedef struct nnav_model nnav_model;

typedef struct nnav_model_facts {
    nnav_format format;
    const char *format_name;   /* "ONNX", "TensorFlow SavedModel": the reading's name */
    const char *format_reason; /* why this reading was chosen */
    int64_t ir_version;        /* -1 when absent */
    nnav_span producer_name, producer_version, domain, doc_string, graph_name;
    int64_t model_version;     /* -1 when absent */
    uint64_t file_size;
    const char *path;          /* as given to nnav_model_open */
    int tensor_store;          /* a store of named tensors (a checkpoint, a weights file):
                                  one graph of initializers and no nodes, whose dotted
                                  key paths are the model's scopes */
    const char *reader_name;   /* the reader that read it ("TensorFlow" for all three of
                                  its files): models of one reader compare (diff) */
    unsigned traits;           /* NNAV_TRAIT_*: the format's notions, as its reader says */
    int op_family;             /* nnav_op_family: whose operators the nodes name */
} nnav_model_facts;

/* What a format has, said by its reader, so that a face asks the model and
 * never its format. */
enum {
    /* Operators come by domain and version from the model's opset imports,
     * under an IR version: info shows an absent IR version as absent, checks
     * hold each node to the imports, a node names its operator's domain. */
    NNAV_TRAIT_OPSETS = 1u << 0,
    /* A node says where it is placed (a device), not a domain. */
    NNAV_TRAIT_DEVICES = 1u << 1,
    /* The file's messages are ONNX's own: a selection is written as an ONNX
     * model from them (nnav_export_file's NNAV_EXPORT_ONNX). */
    NNAV_TRAIT_ONNX_MESSAGES = 1u << 2,
    /* Operators are held to the op definitions the model's reader gives
     * (the file's own, or its format's), not to the operator schema table. */
    NNAV_TRAIT_OWN_OP_DEFS = 1u << 3,
};

/* The operator vocabulary of a model's nodes, whose rules (shapes, cost,
 * weight roles) the typed view applies. A model with no nodes is ONNX's. */
typedef enum nnav_op_family { NNAV_OPS_ONNX = 0, NNAV_OPS_TENSORFLOW } nnav_op_family;

/* ---- opening ---- */
typedef struct nnav_open_opts {
    uint32_t max_depth;  /* graph nesting bound; 0 = default (NNAV_MAX_DEPTH) */
    /* Progress callback for long opens; may be NULL. Return nonzero to cancel. */
    int (*progress)(void *ctx, uint64_t done, uint64_t total);
    void *ctx;
    int force;           /* 0: decide the format by content; 1 + an nnav_format: read as that */
    /* External data: 0 follows no symbolic link on a data file's way but the
     * Hugging Face cache's own (a snapshot's file linked into the blobs/ of
     * the same cache repository); 1 follows any, and accepts a data file with
     * several hard links (the user's --follow-links). */
    int follow_links;
} nnav_open_opts;
#define NNAV_MAX_DEPTH 20000u

int nnav_model_open(const char *path, const nnav_open_opts *opts, nnav_model **out,
                    nnav_error *err);
void nnav_model_close(nnav_model *m);

/* Nonzero when the mapped file shrank while open: what is shown may be stale. */
int nnav_model_truncated(const nnav_model *m);
/* Whether the file on disk is still the one opened: 0 when it is; 1 when it
 * changed since (removed or renamed, another file under its name, or its
 * size, modification time or inode status time differ), why in buf (may be
 * NULL). Written in place, its bytes no longer match the index: a front end
 * asks before it reads the file again (values, export). One stat() call. */
int nnav_model_changed(const nnav_model *m, char *why, size_t n);

const nnav_model_facts *nnav_model_facts_get(const nnav_model *m);

uint32_t nnav_opset_count(const nnav_model *m);
const nnav_opset *nnav_opset_get(const nnav_model *m, uint32_t i);
uint32_t nnav_metadata_count(const nnav_model *m);
const nnav_kv *nnav_metadata_get(const nnav_model *m, uint32_t i);

uint32_t nnav_graph_count(const nnav_model *m);
const nnav_graph *nnav_graph_get(const nnav_model *m, uint32_t id);
/* Child graph ids of a graph (bodies of its nodes' attributes), in node order. */
const uint32_t *nnav_graph_children(const nnav_model *m, uint32_t id, uint32_t *count);
/* The graph path (see man page): "/", "/NODE/ATTR", "/NODE/ATTR[i]/...", "@FUNC". */
size_t nnav_graph_path(const nnav_model *m, uint32_t id, char *buf, size_t n);
uint32_t nnav_graph_by_path(const nnav_model *m, const char *path);
/* All nodes in the graph and every graph below it. */
uint64_t nnav_graph_total_nodes(const nnav_model *m, uint32_t id);

uint32_t nnav_node_count(const nnav_model *m);
const nnav_node *nnav_node_get(const nnav_model *m, uint32_t id);
/* By value: the index keeps refs in a smaller form and builds this one. */
nnav_ref nnav_ref_get(const nnav_model *m, uint32_t id);
/* TensorFlow: the node's requested placement, read from its NodeDef when
 * asked (kept out of the node record: a million ONNX nodes would pay for it). */
nnav_span nnav_node_device(const nnav_model *m, uint32_t node);
/* The class of the module at a dotted key path ("layer1.0.conv1"; "" the
 * root), where the file says it: a PyTorch module saved whole or a
 * TorchScript archive ("Conv2d", the class's own name, bytes from the file).
 * An empty span when the file does not say (a state_dict, any other format). */
nnav_span nnav_module_class(const nnav_model *m, nnav_span path);
/* The modules the file names, whether they hold tensors or not (a ReLU):
 * the i-th one's dotted key path in the file's order ("" the root), its
 * class in *cls; an empty span with p NULL past the last (and always, for a
 * format that names none). */
nnav_span nnav_module_at(const nnav_model *m, uint32_t i, nnav_span *cls);
/* The tensor that tensor t is only another name of: one object under two
 * key paths in a PyTorch checkpoint (tied weights, such as a decoder's
 * weight that is the embedding's), the first met; NNAV_NONE when t is the
 * first or only one, or the format has no such thing. An alias holds no
 * parameters of its own (torch's parameters() yields the object once). */
uint32_t nnav_tensor_alias(const nnav_model *m, uint32_t t);
/* ---- a format's own facts ----
 * What a reader knows of a model that the neutral index has no field for (a
 * weights file's key-value metadata, a checkpoint's entries besides its
 * tensors, a config.json beside the weights), in the file's order, each
 * a key under a section. `info` shows them (YAML: each section a map under
 * its key; text: the section's title, then a line a detail), the explorer's
 * `i` with it, and `nnav meta FILE KEY` one whole value.
 *
 * Calling rules: i < nnav_detail_count(m). A reader gives a section's
 * details one after another, and no key twice in one section. Spans are
 * bytes from the file (escape them before a terminal) unless `own` says
 * they are the reader's own words. An ARRAY detail's items are read one at
 * a time with nnav_detail_item (never all at open). */
enum {
    NNAV_DV_TEXT = 1, /* s: a string */
    NNAV_DV_INT,      /* i */
    NNAV_DV_UINT,     /* u */
    NNAV_DV_FLOAT,    /* f */
    NNAV_DV_BOOL,     /* i: 0 or 1 */
    NNAV_DV_ARRAY,    /* count items of type `elem` ("string", "int32", "array") */
    NNAV_DV_NULL,
};
typedef struct nnav_detail {
    const char *section; /* its YAML key ("metadata", "config"), static text, never NULL */
    const char *title;   /* the section's heading in text ("metadata (42 keys)"), static or
                            the reader's; NULL: the section itself */
    nnav_span key;
    uint8_t kind;        /* NNAV_DV_* */
    uint8_t own;         /* key and s are the reader's words (safe), not the file's bytes */
    uint8_t s_safe;      /* s alone is: text the reader made safe (a value as Python prints it) */
    nnav_span s;
    int64_t i;
    uint64_t u;
    double f;
    uint64_t count;      /* ARRAY: its items */
    const char *elem;    /* ARRAY: what each item is, static text */
    uint64_t offset;     /* where its value is in the file */
} nnav_detail;

uint32_t nnav_detail_count(const nnav_model *m);
/* 0, or -1 past the end. */
int nnav_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out);
/* Item k of ARRAY detail i, as a detail of its own (key empty): 0, or -1
 * with err set (past its end, a fault in the file). */
int nnav_detail_item(const nnav_model *m, uint32_t i, uint64_t k, nnav_detail *out,
                     nnav_error *err);
/* The detail whose section.key (or key alone) is `name`; NNAV_NONE when none. */
uint32_t nnav_detail_find(const nnav_model *m, const char *name);

/* Position within its graph: id - graph's node_first (a graph's nodes are
 * consecutive ids). */
uint32_t nnav_node_index(const nnav_model *m, uint32_t node);
/* The operator's domain ("" for the default; always "" for TensorFlow), read
 * from the NodeProto when asked. Nodes that name none answer at once. */
nnav_span nnav_node_domain(const nnav_model *m, uint32_t node);
/* Node in graph g by name; NNAV_NONE when none. Hash lookup. */
uint32_t nnav_node_by_name(const nnav_model *m, uint32_t graph, const char *name, size_t len);

uint32_t nnav_value_count(const nnav_model *m);
const nnav_value *nnav_value_get(const nnav_model *m, uint32_t id);
const uint32_t *nnav_value_consumers(const nnav_model *m, uint32_t id, uint32_t *count);
/* Resolve a name as a node in graph g would see it (scoping through parents). */
uint32_t nnav_value_lookup(const nnav_model *m, uint32_t graph, const char *name, size_t len);

uint32_t nnav_vinfo_count(const nnav_model *m);
const nnav_vinfo *nnav_vinfo_get(const nnav_model *m, uint32_t id);

uint32_t nnav_attr_count(const nnav_model *m);
const nnav_attr *nnav_attr_get(const nnav_model *m, uint32_t id);

uint32_t nnav_tensor_count(const nnav_model *m);
const nnav_tensor *nnav_tensor_get(const nnav_model *m, uint32_t id);
const int64_t *nnav_dims(const nnav_model *m, uint32_t first);

uint32_t nnav_sparse_count(const nnav_model *m);
const nnav_sparse *nnav_sparse_get(const nnav_model *m, uint32_t id);

uint32_t nnav_function_count(const nnav_model *m);
const nnav_function *nnav_function_get(const nnav_model *m, uint32_t id);

uint32_t nnav_training_count(const nnav_model *m);

uint32_t nnav_unknown_count(const nnav_model *m);
const nnav_unknown *nnav_unknown_get(const nnav_model *m, uint32_t id);

/* Problems found at open that do not stop reading (a function that calls
 * itself, an attr of the wrong kind, a duplicate signature tensor...), as
 * text. Names inside are already escaped. */
uint32_t nnav_warning_count(const nnav_model *m);
const char *nnav_warning_get(const nnav_model *m, uint32_t i);

/* ---- signatures: a model's entry points ----
 * How the file says the model is to be called, where it says (none for most
 * formats): each signature a key ("serving_default"), a method, and its
 * inputs and outputs, each a key of the signature's own naming a value of a
 * graph. Signatures come in groups, each a root graph with its tags; the
 * format names a group (nnav_sig_group_word: TensorFlow's "meta_graph") and
 * gives each group facts of its own (nnav_sig_group_fact). */
typedef struct nnav_sig_group {
    uint32_t graph;                  /* the group's graph: a root graph */
    uint32_t tag_first, tag_count;   /* into nnav_sig_tag_get() */
    uint32_t sig_first, sig_count;   /* into nnav_signature_get() */
} nnav_sig_group;

typedef struct nnav_signature {
    nnav_span key, method;           /* "serving_default", "tensorflow/serving/predict" */
    uint32_t group;                  /* its nnav_sig_group */
    uint32_t in_first, in_count, out_first, out_count; /* into nnav_sig_tensor_get() */
} nnav_signature;

/* How a signature tensor names its value. */
enum { NNAV_SIG_DENSE = 1, NNAV_SIG_SPARSE = 4, NNAV_SIG_COMPOSITE = 5 };

typedef struct nnav_sig_tensor {
    nnav_span key;       /* the signature's name for it */
    nnav_span name;      /* the graph's value, as the file names it (a sparse one: its values) */
    int32_t dtype;       /* nnav element type */
    int32_t rank;        /* -1: unknown rank */
    uint32_t dims_first; /* into nnav_dims(); -1 = unknown size */
    uint32_t value;      /* the value it names in its group's graph, or NNAV_NONE */
    uint8_t encoding;    /* NNAV_SIG_* */
    uint64_t off;        /* byte offset of its description in the file */
    uint64_t name_off;   /* of its name field, dtype field, shape field: 0 when absent */
    uint64_t dtype_off;
    uint64_t shape_off;
    const char *shape_note; /* how the reader read a shape the file leaves out ("no
                               tensor_shape: a scalar to ..."), static text; NULL: none */
} nnav_sig_tensor;

/* A group's fact of the format's own (the TensorFlow version that wrote
 * it, its function count...), in the reader's words. */
typedef struct nnav_sig_fact {
    const char *key;     /* its YAML key, static text */
    uint8_t kind;        /* NNAV_DV_TEXT (s: bytes from the file), NNAV_DV_UINT (u), NNAV_DV_BOOL (i) */
    nnav_span s;
    uint64_t u;
    int64_t i;
    char text[64];       /* how the text form shows it ("2 functions"); "": YAML only */
} nnav_sig_fact;

uint32_t nnav_sig_group_count(const nnav_model *m);
const nnav_sig_group *nnav_sig_group_get(const nnav_model *m, uint32_t i);
/* What the format calls a group, singular ("meta_graph"); NULL: it has none. */
const char *nnav_sig_group_word(const nnav_model *m);
/* Fact k of group g: 1 with *out, 0 past the last. Every group of a model
 * has the same facts in the same order. */
int nnav_sig_group_fact(const nnav_model *m, uint32_t g, uint32_t k, nnav_sig_fact *out);
nnav_span nnav_sig_tag_get(const nnav_model *m, uint32_t i);
uint32_t nnav_signature_count(const nnav_model *m);
const nnav_signature *nnav_signature_get(const nnav_model *m, uint32_t i);
const nnav_sig_tensor *nnav_sig_tensor_get(const nnav_model *m, uint32_t i);
/* "float32[?,1]" for a signature tensor ("... (sparse)", "... (composite)"). */
void nnav_sig_tensor_format(const nnav_model *m, uint32_t i, char *buf, size_t n);
/* Where tensor k of signature s is in the file, as an error's field path
 * names it: the tensor's description, or its name, element type or shape
 * field ("meta_graphs[0].signature_def[\"KEY\"].inputs[\"x\"].dtype"),
 * escaped; "" when the format cannot say. */
enum { NNAV_SIGF_TENSOR, NNAV_SIGF_NAME, NNAV_SIGF_DTYPE, NNAV_SIGF_SHAPE };
void nnav_sig_tensor_field(const nnav_model *m, uint32_t s, uint32_t k, int part, char *buf,
                           size_t n);

/* ---- on-demand decoding ---- */

/* Attribute scalars and lists. Return 0 on success, -1 with err set. */
int nnav_attr_float(const nnav_model *m, uint32_t a, double *out, nnav_error *err);
int nnav_attr_int(const nnav_model *m, uint32_t a, int64_t *out, nnav_error *err);
int nnav_attr_string(const nnav_model *m, uint32_t a, nnav_span *out, nnav_error *err);
/* Lists: fill up to max items, *total gets the full count. */
int nnav_attr_ints(const nnav_model *m, uint32_t a, int64_t *buf, size_t max, size_t *total,
                   nnav_error *err);
int nnav_attr_floats(const nnav_model *m, uint32_t a, double *buf, size_t max, size_t *total,
                     nnav_error *err);
int nnav_attr_strings(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                      size_t *total, nnav_error *err);
/* The k-th SparseTensorProto a SPARSE_TENSOR(S) attribute holds (these are
 * read when asked, not indexed): its dense dims (up to max kept, *ndims gets
 * the count) and its values and indices TensorProto bytes, for
 * nnav_tensorproto_values(); *total gets how many the attribute holds. */
int nnav_attr_sparse(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                     size_t *ndims, nnav_span *values, nnav_span *indices, size_t *total,
                     nnav_error *err);
/* The types a TYPE_PROTO(S) attribute holds, each in its reader's encoding
 * (like nnav_vinfo.type): read one with nnav_type_decode(). */
int nnav_attr_types(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max, size_t *total,
                    nnav_error *err);
/* A one-line human rendering of the value, sanitised; lists cut after max_items. */
void nnav_attr_format(const nnav_model *m, uint32_t a, size_t max_items, char *buf, size_t n);

/* ---- types ----
 * A value's type, decoded by the format's reader from the bytes it keeps
 * (nnav_vinfo.type, an item of nnav_attr_types()): a leaf (a tensor, a
 * sparse tensor, an opaque type or a type with nothing set) inside up to
 * NNAV_TYPE_NEST_MAX containers (sequence, optional, map), outermost first.
 * Every container holds one type, so a type is that list and its leaf:
 * map(int64,seq(float32[N])) is outer {MAP, SEQUENCE}, key[0] int64, leaf
 * TENSOR. Names (symbols, opaque names) are spans into the map, unescaped. */
#define NNAV_TYPE_NEST_MAX 16 /* deeper nesting reads as NNAV_TYPE_BROKEN */
#define NNAV_TYPE_DIMS_MAX 64 /* axes kept; rank counts them all */

typedef enum nnav_type_kind {
    NNAV_TYPE_ABSENT = 0,  /* no type given */
    NNAV_TYPE_UNSET,       /* a type with no kind set ("?") */
    NNAV_TYPE_TENSOR,
    NNAV_TYPE_SPARSE_TENSOR,
    NNAV_TYPE_OPAQUE,
    NNAV_TYPE_SEQUENCE,    /* containers: only in outer[] */
    NNAV_TYPE_MAP,
    NNAV_TYPE_OPTIONAL,
} nnav_type_kind;

typedef enum nnav_type_status {
    NNAV_TYPE_OK = 0,
    /* Fields of the wrong wire type were left out; the rest is read. The
     * text says "(malformed type)". */
    NNAV_TYPE_MALFORMED,
    /* Nested past the bound (a hostile file): the containers down to the
     * bound are read, what lies deeper is not (the leaf reads UNSET). The
     * text says "(malformed or too deeply nested type)". */
    NNAV_TYPE_DEEP,
    /* Bytes that do not read: what was read before is kept, but no caller
     * should trust it. The text says as DEEP's does. */
    NNAV_TYPE_BROKEN,
} nnav_type_status;

typedef enum nnav_axis_kind {
    NNAV_AXIS_UNKNOWN = 0, /* "?" */
    NNAV_AXIS_SIZE,        /* dims[i] is the size (as written: it may be negative) */
    NNAV_AXIS_SYMBOL,      /* syms[i] names it (possibly ""); dims[i] is -1 */
} nnav_axis_kind;

typedef struct nnav_type {
    uint8_t status;                  /* nnav_type_status */
    uint8_t leaf;                    /* nnav_type_kind: ABSENT, UNSET, TENSOR, SPARSE_TENSOR, OPAQUE */
    uint8_t nest;                    /* containers around the leaf */
    uint8_t outer[NNAV_TYPE_NEST_MAX]; /* SEQUENCE, MAP or OPTIONAL, outermost first */
    int32_t key[NNAV_TYPE_NEST_MAX]; /* a MAP's key element type (0: not given) */
    /* (Sparse) tensor leaf: */
    int32_t elem;                    /* element type (0: not given) */
    int64_t rank;                    /* axes, -1 when no shape is given */
    /* Axes axis0 .. axis0 + NNAV_TYPE_DIMS_MAX - 1 (those below rank), at
     * [i - axis0]; axis0 is 0 but after nnav_type_axes(). */
    uint64_t axis0;
    uint8_t axis[NNAV_TYPE_DIMS_MAX]; /* nnav_axis_kind */
    int64_t dims[NNAV_TYPE_DIMS_MAX]; /* size, or -1 for a symbol or unknown */
    nnav_span syms[NNAV_TYPE_DIMS_MAX]; /* the symbol, p NULL when none */
    /* Opaque leaf: */
    nnav_span domain, name;
} nnav_type;

/* Decode `type` (nnav_vinfo.type or an nnav_attr_types() item of m) into *t,
 * through m's reader. Returns 1 for a (sparse) tensor type outside any
 * container, 0 for any other type (ABSENT when type.p is NULL), -1 when
 * the bytes are broken (status NNAV_TYPE_BROKEN). Nesting is bounded: no
 * recursion past NNAV_TYPE_NEST_MAX containers whatever the file says. */
int nnav_type_decode(const nnav_model *m, nnav_span type, nnav_type *t);
/* The same, keeping the axes from `first` on (t->axis0 = first): how a
 * caller reads a shape of more than NNAV_TYPE_DIMS_MAX axes, a window at a
 * time. */
int nnav_type_axes(const nnav_model *m, nnav_span type, uint64_t first, nnav_type *t);
/* A decoded type rendered as "float32[1,3,?,N]", "seq(int64[?])",
 * "map(string,float32[...])" (no shape given), "sparse float32[4]",
 * "opaque(DOMAIN:NAME)", "?" for a type with nothing set, "" for an absent
 * one; names escaped (nnav_text_escape), each up to its first NUL. Only the
 * axes t holds are shown: more read ",..." (nnav_type_format shows all). */
void nnav_type_text(const nnav_type *t, char *buf, size_t n);
/* `type` (as nnav_type_decode takes it) as nnav_type_text renders it, every
 * axis shown as far as buf holds; "" when absent. */
void nnav_type_format(const nnav_model *m, nnav_span type, char *buf, size_t n);
/* The type of a value as far as known (value info or initializer dims), "" if unknown. */
void nnav_value_type_format(const nnav_model *m, uint32_t v, char *buf, size_t n);

/* ---- element types ---- */
const char *nnav_dtype_name(int32_t dtype);     /* "float32", "bfloat16", "int4"... */
const char *nnav_dtype_onnx_name(int32_t dtype); /* "FLOAT", "BFLOAT16"... */
/* Storage bits per element (0 for string/undefined/unknown). */
unsigned nnav_dtype_bits(int32_t dtype);
int nnav_dtype_valid(int32_t dtype);
/* Tensor t's storage type: its stype, else its dtype's name. */
const char *nnav_tensor_type_name(const nnav_model *m, uint32_t t);
/* "float32[64,3,7,7]" (a block-quantised one "q4_K[4096,4096]") into buf. */
void nnav_tensor_shape_format(const nnav_model *m, uint32_t t, char *buf, size_t n);
/* "raw", "typed", "external FILE @OFFSET +LENGTH", "sparse", sanitised; an
 * external file reached through a link says how: "external (HF blob) FILE ..."
 * or "external (link) FILE ..." (the file is looked at once, then remembered). */
void nnav_tensor_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n);

/* Values on demand: the first `want` values as doubles (strings as spans),
 * and min/max/mean over all elements when stats is set. */
typedef struct nnav_values {
    size_t count;        /* values filled */
    uint64_t total;      /* elements in the tensor */
    double *v;           /* caller-provided, `want` long */
    nnav_span *s;        /* for STRING tensors, caller-provided, may be NULL */
    int has_stats;
    double min, max, mean;
    uint64_t nan_count;
    /* Integer element types (int2..int64, uint2..uint64, bool) are also given
     * exactly, never through a double: is_int is set, i (caller-provided,
     * `want` long, may be NULL) gets the values and imin/imax the extremes.
     * With is_unsigned (uint64) they hold the uint64 bits: cast before use.
     * v, min and max are then the same numbers rounded to a double. */
    int64_t *i;
    int is_int, is_unsigned;
    int64_t imin, imax;
    /* Stats were asked for and not computed: a view whose elements repeat
     * (overlapping strides) far past the elements its storage holds, whose
     * stats would cost its logical count. */
    int stats_refused;
} nnav_values;
int nnav_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                       nnav_values *out, nnav_error *err);
/* One number of a nnav_values as text: element j (which 0; j < count), min
 * (which 1), max (which 2) or mean (which 3). An integer type's exactly
 * ("-9223372036854775808", a uint64 unsigned); any other, and the mean, as
 * the shortest "%g" that reads back as the same double (-0, 1e-310, inf). */
void nnav_values_format(const nnav_values *v, int which, size_t j, char *buf, size_t n);
/* A TensorProto given by its bytes, one the index does not hold (such as
 * nnav_attr_sparse() gives): its element type, dims (up to max kept, *ndims
 * the count) and first `want` values as nnav_tensor_values() gives them (no
 * stats; external data is not read). */
int nnav_tensorproto_values(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
                            size_t max, size_t *ndims, size_t want, nnav_values *out,
                            nnav_error *err);
/* The payload bytes (raw/external) for export; external data is mapped safely.
 * *release must be called with the returned cookie. */
int nnav_tensor_bytes(const nnav_model *m, uint32_t t, nnav_span *out, void **cookie,
                      nnav_error *err);
void nnav_tensor_bytes_release(void *cookie);
/* Before release, after the bytes were used: nonzero (err set, naming the
 * data file and the tensor) when the external data file lost part of the
 * range since it was mapped, so what was read there is zeros, not the file's.
 * 0 for a NULL cookie (raw bytes live in the model's own map). */
int nnav_tensor_bytes_shrank(const void *cookie, nnav_error *err);

/* Looks at the external data files (each opened safely and measured, not
 * read or mapped; nnav_model_open opens none): afterwards each external
 * tensor's `stored` is the bytes its file really holds for it (0 when the file
 * is refused or missing), and one holding fewer than dims x dtype call for is
 * flagged NNAV_TW_SIZE_MISMATCH, as raw data cut short is at open. For
 * commands that report sizes (info, tensors); safe to call again. */
void nnav_tensors_measure(const nnav_model *m);
/* Nonzero once reading values or exporting refused a data file because a
 * symbolic link on its way was not followed (follow_links off): the CLI then
 * names --follow-links once, whatever each refusal said. */
int nnav_model_links_refused(const nnav_model *m);
/* The payload bytes a tensor really has: dims x dtype, or fewer where its
 * storage holds fewer (raw data cut short; external data as measured).
 * UINT64_MAX when dims x dtype is unknown. */
uint64_t nnav_tensor_present_bytes(const nnav_model *m, uint32_t t);
/* A sparse tensor's indices against its dims and values, read now in one
 * pass (linear in their size; nothing reads them at open): negative, out of
 * range, out of ascending order, repeated, or shaped or counted wrong.
 * 0 when sound; 1 with what is wrong (escaped text, the first of each kind
 * and how many) in buf. */
int nnav_sparse_check(const nnav_model *m, uint32_t sp, char *buf, size_t n);

/* ---- text ---- */
/* Escape bytes from the file for a terminal: printable UTF-8 kept; control
 * characters, C1 controls, invalid UTF-8 and every invisible formatting
 * character (bidi controls, zero-width spaces and joiners, the BOM, tags)
 * escaped as \xNN or \u{NNNN}; combining marks kept up to two on a character,
 * escaped from the third on and where there is no character to sit on (at
 * the start, after an escape); backslash doubled. Always NUL-terminates;
 * returns the length written. */
size_t nnav_text_escape(const uint8_t *p, size_t len, char *buf, size_t n);
/* Same for a NUL-terminated string (e.g. a path given on the command line). */
size_t nnav_text_escape_cstr(const char *s, char *buf, size_t n);
/* The terminal columns escaped text takes: a nonspacing or enclosing mark
 * none, an East Asian wide character or emoji two, any other character one
 * (a byte that is not valid UTF-8, which escaped text never holds, one). */
int nnav_text_cols(const char *s);
/* Escaped text s in at most cols terminal columns: itself when it fits,
 * else its start and its end with an ellipsis between ("encoder.l\u2026proj_weight",
 * the end given the odd column). Returns buf: s copied (cut short to fit)
 * when buf is too small for the cut form, or when cols is under 3. */
const char *nnav_text_elide_mid(const char *s, int cols, char *buf, size_t n);
/* 4.09 G, 25.6 M, 812 k, 96: three significant figures, decimal units, as
 * cost and summary print MACs and counts. */
void nnav_text_si(double v, char *buf, size_t n);
/* 1,271,370: exact, with thousands separators (scripts and eyes both read
 * it). Cut short, still terminated, when buf is too small. */
void nnav_text_commas(uint64_t v, char *buf, size_t n);
int nnav_span_eq(nnav_span s, const char *c, size_t len);
int nnav_span_eqs(nnav_span s, const char *cstr);
/* Same length and bytes; safe for empty spans with p == NULL. */
int nnav_span_same(nnav_span a, nnav_span b);

/* ---- search (shared by `find` and the TUI's `/`) ---- */
typedef enum nnav_hit_kind {
    NNAV_HIT_NODE_NAME = 0, NNAV_HIT_OP, NNAV_HIT_VALUE, NNAV_HIT_INITIALIZER,
} nnav_hit_kind;
typedef struct nnav_hit {
    uint8_t kind;
    uint32_t id;    /* node id (NODE_NAME, OP), value id (VALUE), tensor id (INITIALIZER) */
    uint32_t graph;
} nnav_hit;
typedef struct nnav_search nnav_search;
/* Pattern: case-insensitive substring; "op:TYPE" restricts to nodes of that op
 * type (exact, case-insensitive). */
nnav_search *nnav_search_new(const nnav_model *m, const char *pattern);
/* Work through at most `budget` items; returns 1 when finished, 0 if more remain. */
int nnav_search_step(nnav_search *s, uint64_t budget);
uint64_t nnav_search_progress(const nnav_search *s, uint64_t *total);
const nnav_hit *nnav_search_hits(const nnav_search *s, size_t *count);
void nnav_search_free(nnav_search *s);

/* ---- selections and export ---- */

/* A piece of one graph to export: the nodes (global ids, in graph order), the
 * values that become the piece's inputs and outputs, and the initializers
 * (dense tensor ids and sparse ids) it needs. */
typedef struct nnav_selection {
    uint32_t graph;
    int whole;              /* a whole graph: keeps its own inputs, outputs, value_info */
    uint32_t *nodes;
    size_t n_nodes;
    uint32_t *inputs;       /* value ids */
    size_t n_inputs;
    uint32_t *outputs;      /* value ids */
    size_t n_outputs;
    uint32_t *inits;        /* tensor ids */
    size_t n_inits;
    uint32_t *sparse;       /* sparse ids */
    size_t n_sparse;
} nnav_selection;

/* A whole graph (main, any body, a function), by id. */
int nnav_select_graph(const nnav_model *m, uint32_t graph, nnav_selection *sel, nnav_error *err);
/* Every node of `graph` needed to compute `outputs` from `inputs` (value
 * names), as the ONNX tools' extraction does; initializers come along. A
 * needed value that is neither a chosen input nor computable is an error that
 * names it (status 1). */
int nnav_select_region(const nnav_model *m, uint32_t graph, const char *const *inputs,
                       size_t n_inputs, const char *const *outputs, size_t n_outputs,
                       nnav_selection *sel, nnav_error *err);
/* A node and its neighbours up to `depth` steps up (producers) and down
 * (consumers) in its graph. */
int nnav_select_neighbours(const nnav_model *m, uint32_t node, uint32_t depth,
                           nnav_selection *sel, nnav_error *err);
/* Exactly these nodes of one graph (e.g. marked in the explorer); inputs and
 * outputs are what crosses the boundary. */
int nnav_select_nodes(const nnav_model *m, const uint32_t *nodes, size_t n,
                      nnav_selection *sel, nnav_error *err);
void nnav_selection_free(nnav_selection *sel);

typedef enum nnav_export_format { NNAV_EXPORT_YAML = 0, NNAV_EXPORT_ONNX } nnav_export_format;
typedef struct nnav_export_opts {
    nnav_export_format format;
    uint64_t max_values;  /* YAML: write a tensor's values when it has at most this many
                             elements (default 16; 0 = never) */
    int binary;           /* YAML: also raw bytes as !!binary base64 (within max_values) */
    int keep_external;    /* ONNX: external data stays external, copied to OUT.data;
                             default is to inline it */
    const struct nnav_shapes *shapes; /* types already inferred for this model (the
                             explorer's), or NULL: inferred when first needed */
    int declutter;        /* YAML: the selection's graph as its decluttered view
                             (declutter.h): hidden nodes left out, each folded or
                             constant input's value in the node's "folded" list */
} nnav_export_opts;

/* Write the selection to a stream (YAML only: ONNX needs a file). */
int nnav_export_stream(const nnav_model *m, const nnav_selection *sel,
                       const nnav_export_opts *o, FILE *out, nnav_error *err);
/* Write the selection to `path` safely: refuses symlinks and the input files,
 * writes a temporary file in the same folder and renames it into place, so no
 * partial file is ever left. *bytes gets the size written. */
int nnav_export_file(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     const char *path, uint64_t *bytes, nnav_error *err);

#endif
