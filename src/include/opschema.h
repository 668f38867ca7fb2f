/* opschema.h - operator schemas: what each operator of a standard domain
 * takes, gives and accepts, in every version, and which version a node is
 * held to.
 *
 * Two sources, one shape:
 *  - ONNX: a table compiled in (src/typed/opschema_onnx.c), generated from
 *    the ONNX Python package's schema registry (onnx.defs) by
 *    proto/gen_opschema.py and committed, so the build needs no Python.
 *    It holds the domains ai.onnx, ai.onnx.ml and ai.onnx.preview.training,
 *    every operator in every version; facts only, no documentation prose.
 *  - TensorFlow: the OpDefs a SavedModel or MetaGraphDef carries
 *    (meta_info_def.stripped_op_list), converted at open by the reader into
 *    the same structs and held by the model (nnav_model_op_schemas).
 *
 * Calling rules:
 *  - Every struct here is read-only. The ONNX table lives for the process;
 *    a model's TensorFlow schemas live as long as the model.
 *  - Strings are NUL-terminated; they come from the table or were copied
 *    (checked, bounded) from the file at open.
 *  - Resolution (nnav_op_resolve) is what onnx.checker does: the version in
 *    force for a node's domain comes from the opset_import of the function
 *    whose body holds the node, else the model's (a body of If/Loop/Scan
 *    inherits its graph's); the schema in force is the newest whose
 *    since_version is <= that version. A version newer than the table knows
 *    resolves to the newest the table has (op_use.past_table says so).
 *  - Nothing here reads a tensor payload; cost is a binary search per node.
 */
#ifndef NNAV_OPSCHEMA_H
#define NNAV_OPSCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

/* How a formal input or output takes its arguments. */
enum { NNAV_OPF_SINGLE = 0, NNAV_OPF_OPTIONAL = 1, NNAV_OPF_VARIADIC = 2 };

typedef struct nnav_op_formal {
    const char *name;    /* "X", "W", "B", "inputs" */
    const char *type;    /* a type parameter ("T") or a type ("tensor(int64)") */
    uint8_t option;      /* NNAV_OPF_* */
    uint8_t homogeneous; /* variadic: every argument of the same type */
} nnav_op_formal;

/* A default value. kind is the nnav_attr_type of the value held:
 * NNAV_ATTR_INT (i), NNAV_ATTR_FLOAT (f), NNAV_ATTR_STRING (s),
 * NNAV_ATTR_INTS (ints), NNAV_ATTR_FLOATS (floats), NNAV_ATTR_STRINGS
 * (strings), each list of count items; any other kind (a TensorFlow type,
 * shape, bool...) is shown as `text`, already rendered. */
typedef struct nnav_op_default {
    uint8_t kind;
    uint32_t count;
    int64_t i;
    double f;
    const char *s;
    const int64_t *ints;
    const double *floats;
    const char *const *strings;
    const char *text;
} nnav_op_default;

typedef struct nnav_op_attr {
    const char *name;
    uint8_t type;        /* nnav_attr_type (ONNX AttributeType numbering; the
                            TensorFlow kinds for an OpDef) */
    uint8_t required;
    uint8_t has_default;
    nnav_op_default def;
} nnav_op_attr;

/* A type parameter and the types it may stand for ("tensor(float)",
 * "seq(tensor(int64))", "optional(tensor(bool))"...). */
typedef struct nnav_op_tc {
    const char *param;
    const char *const *allowed;
    uint32_t n_allowed;
} nnav_op_tc;

#define NNAV_OP_UNBOUNDED INT32_MAX /* max_in / max_out of a variadic list */

typedef struct nnav_op_schema {
    const char *domain;  /* "ai.onnx" (never ""), "ai.onnx.ml", ...; a
                            TensorFlow OpDef: "tf" */
    const char *name;
    int32_t since;       /* since_version; a TensorFlow OpDef: 0 */
    uint8_t deprecated;
    int32_t min_in, max_in, min_out, max_out;
    const nnav_op_formal *in, *out;
    uint32_t n_in, n_out;
    const nnav_op_attr *attrs;  /* sorted by name */
    uint32_t n_attrs;
    const nnav_op_tc *tcs;
    uint32_t n_tcs;
} nnav_op_schema;

/* The domain of a model's own op definitions (a TensorFlow OpDef), and
 * whether a schema is one: no table version, no history. */
#define NNAV_OP_DOMAIN_MODEL "tf"
static inline int nnav_op_schema_is_models(const nnav_op_schema *s)
{
    return s && s->domain && s->domain[0] == 't' && s->domain[1] == 'f' && !s->domain[2];
}

/* ---- the ONNX table ---- */

/* Where the table came from: "onnx 1.12.0" (the package the script read). */
const char *nnav_op_table_origin(void);
/* All schemas, sorted by domain, name, since_version. */
size_t nnav_op_table_count(void);
const nnav_op_schema *nnav_op_table_at(size_t i);
/* The canonical name of a domain the table holds: "" and "ai.onnx" give
 * "ai.onnx"; "ai.onnx.ml"; "ai.onnx.preview.training"; NULL for any other. */
const char *nnav_op_domain_canon(nnav_span domain);
/* The newest opset version of a canonical domain the table knows (the
 * highest since_version of any of its operators); 0 for an unknown domain. */
int32_t nnav_op_table_max(const char *domain);
/* The schema of op `name` in canonical `domain` in force at opset `version`:
 * the newest with since <= version; NULL when there is none. */
const nnav_op_schema *nnav_op_lookup(const char *domain, nnav_span name, int64_t version);
/* Every version of op `name` in `domain`, oldest first; returns how many
 * there are (writes at most max). */
size_t nnav_op_history(const char *domain, nnav_span name, const nnav_op_schema **out, size_t max);

/* ---- a node held to its schema ---- */

typedef enum nnav_op_status {
    NNAV_OPS_FOUND = 0,    /* s is the schema in force */
    NNAV_OPS_NONSTANDARD,  /* the node's domain is none the table holds */
    NNAV_OPS_FUNCTION,     /* the op calls a function of the model (or, in
                              TensorFlow, of its library): its body is its
                              definition */
    NNAV_OPS_UNKNOWN,      /* a standard domain holds no operator of that name */
    NNAV_OPS_NOT_YET,      /* the operator exists only from a version newer
                              than the one in force (s: its first version) */
    NNAV_OPS_NO_OPSET,     /* the node's domain is not imported where it is */
    NNAV_OPS_NO_SCHEMAS,   /* the model carries no op definitions (a
                              TensorFlow GraphDef without stripped_op_list) */
} nnav_op_status;

typedef struct nnav_op_use {
    const nnav_op_schema *s; /* NULL unless FOUND or NOT_YET */
    nnav_op_status status;
    const char *domain;      /* canonical domain, or NULL when nonstandard */
    int64_t opset;           /* the version of the domain in force; -1 none */
    int32_t table_max;       /* the newest version the table knows of it */
    uint8_t past_table;      /* opset > table_max: s is the newest known */
} nnav_op_use;

/* Hold node `node` (< nnav_node_count(m)) to its schema. Returns 0, or -1
 * for a node id out of range. */
int nnav_op_resolve(const nnav_model *m, uint32_t node, nnav_op_use *out);

/* The schema name of a node's input (or output) at position i: the
 * formal's name ("X"), or for the variadic last formal its name and the
 * position within it ("inputs[2]"); "" when i is past what the schema
 * takes. Returns buf. */
const char *nnav_op_arg_name(const nnav_op_schema *s, int output, uint32_t i, char *buf, size_t n);
/* The same for node `node` of model m held to s: a TensorFlow OpDef's list
 * arguments may sit anywhere in its signature and take as many inputs as
 * the node's count attribute says ("values[2]", then "axis"); an ONNX
 * schema's names are nnav_op_arg_name's. */
const char *nnav_op_node_arg_name(const nnav_model *m, uint32_t node, const nnav_op_schema *s,
                                  int output, uint32_t i, char *buf, size_t n);
/* The formal that position i binds to, or NULL past the schema's. */
const nnav_op_formal *nnav_op_arg_formal(const nnav_op_schema *s, int output, uint32_t i);
/* Attribute `name` of a schema (binary search), or NULL. */
const nnav_op_attr *nnav_op_attr_find(const nnav_op_schema *s, nnav_span name);
/* The node's attribute of that name, or NNAV_NONE. */
uint32_t nnav_op_node_attr(const nnav_model *m, uint32_t node, const char *name);
/* A default rendered as the file's values are (nnav_attr_format):
 * "NOTSET", "1", "0.0001", "[1, 1]", "[Tanh, Tanh]". */
void nnav_op_default_format(const nnav_op_default *d, char *buf, size_t n);
/* The type parameter's constraint, or NULL (a formal of a fixed type). */
const nnav_op_tc *nnav_op_tc_find(const nnav_op_schema *s, const char *param);
/* The ONNX type string of a tensor element type: "tensor(float)"; NULL
 * for an element type with none. */
const char *nnav_op_tensor_type_str(int32_t dtype);

/* ---- a model's own schemas (TensorFlow OpDefs) ---- */

/* The op definitions the model carries (TensorFlow stripped_op_list), sorted
 * by name; *count 0 when it carries none. */
const nnav_op_schema *nnav_model_op_schemas(const nnav_model *m, uint32_t *count);

#endif
