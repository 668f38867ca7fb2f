/* opref.h - operator knowledge as both faces show it: the reference of an
 * operator (`nnav op NAME`, the explorer's reference view) and a node read
 * against its schema (`nnav node`, the explorer's detail pane), written
 * once over opschema.h.
 *
 * Calling rules:
 *  - Nothing here prints to stderr or exits; a face decides what a failure
 *    means. Text from the file (op names, attribute names, domains) is
 *    escaped for a terminal (nnav_text_escape) wherever a function returns
 *    or writes text; YAML goes through yamlout.h and keeps the exact bytes.
 *  - The table's strings are the ONNX package's own words, already safe.
 *  - Structs point into the table (process lifetime) or the model (its
 *    lifetime); nothing is allocated but what a function says it returns.
 */
#ifndef NNAV_OPREF_H
#define NNAV_OPREF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnav.h"
#include "opschema.h"
#include "yamlout.h"

/* ---- the reference of one operator ---- */

#define NNAV_OPREF_MAX_HISTORY 64

typedef struct nnav_opref {
    const char *domain;           /* canonical ("ai.onnx"), or "tf" */
    const nnav_op_schema *s;      /* the version shown */
    const nnav_op_schema *hist[NNAV_OPREF_MAX_HISTORY]; /* every version, oldest first */
    size_t n_hist;
    int64_t opset;     /* the opset s is in force at; -1: none asked (s is the newest) */
    int32_t model_since; /* the version a model uses (its opset's schema in force); 0: none */
    int64_t model_opset; /* that model's opset of the domain; -1: no model or not imported */
} nnav_opref;

enum {
    NNAV_OPREF_OK = 0,
    NNAV_OPREF_NO_DOMAIN = -1, /* the domain is none the table holds */
    NNAV_OPREF_NO_OP = -2,     /* the domain has no operator of that name */
    NNAV_OPREF_NOT_YET = -3,   /* the operator exists only from a version newer than
                                  opset: r->s is its first version, r->hist is filled */
};

/* The reference of op `name` in `domain` ("" or NULL: ai.onnx; any name
 * nnav_op_domain_canon knows) at `opset` (< 0: the newest version). With m
 * (may be NULL), model_opset/model_since say what m's opset_import of that
 * domain resolves to. Returns NNAV_OPREF_OK or a negative NNAV_OPREF_*. */
int nnav_opref_find(const char *domain, nnav_span name, int64_t opset, const nnav_model *m,
                    nnav_opref *r);

/* The reference of op `name` among the op definitions model m carries (a
 * TensorFlow SavedModel's OpDefs, nnav_model_op_schemas): the one version
 * there is, as the explorer's reference shows a node's. Returns
 * NNAV_OPREF_OK, or NNAV_OPREF_NO_OP when m carries none of that name. */
int nnav_opref_model_op(const nnav_model *m, nnav_span name, nnav_opref *r);

/* The reference of a node's operator, at the version in force for it
 * (nnav_op_resolve): ONNX from the table with history, a TensorFlow op
 * from the model's OpDefs (one version). Returns NNAV_OPREF_OK, or the
 * nnav_op_status (> 0) saying why there is none (NONSTANDARD, FUNCTION,
 * UNKNOWN, NO_OPSET, NO_SCHEMAS); NOT_YET fills r like NNAV_OPREF_NOT_YET
 * and returns NNAV_OPS_NOT_YET. -1 for a node out of range. */
int nnav_opref_for_node(const nnav_model *m, uint32_t node, nnav_opref *r);

/* Write the reference: text aligned like `nnav info` ("op         Conv",
 * signature, attributes, type constraints, history), or with yaml one YAML
 * document (nnav op --yaml). Returns 0, or -1 when out could not be written
 * (or YAML ran out of memory). Text is not flushed. */
int nnav_opref_write(const nnav_opref *r, int yaml, FILE *out);

/* The names of ops in canonical `domain` (NULL: every standard domain) that
 * are close to `name`: the same name in another case, a shared
 * case-insensitive prefix of at least 4 bytes (or all of a shorter name), or
 * a name containing it; each name once, at most max, best first. Returns how
 * many were written to out (table strings). */
size_t nnav_opref_suggest(const char *domain, nnav_span name, const char **out, size_t max);

/* ---- a node read against its schema ---- */

/* The status line of a node's schema, the value after "schema" in
 * `nnav node` and the detail pane, escaped:
 *   "Conv v11 (ai.onnx, opset 13 in force)"
 *   "Upsample v10 (ai.onnx, opset 10 in force), deprecated"
 *   "LSTM v14 (ai.onnx, opset 21 in force; the table knows up to 17)"
 *   "not in the table: domain com.microsoft"
 *   "calls local function /functions/0"
 *   "no operator Foo in ai.onnx (opset 13 in force)"
 *   "Gelu exists from ai.onnx v20 (opset 13 in force)"
 *   "domain ai.onnx.ml not imported"
 *   "the model carries no op definitions"
 *   "Conv2D (TensorFlow op definition of the model)"
 * u is the node's nnav_op_resolve. Returns buf. */
const char *nnav_node_schema_line(const nnav_model *m, uint32_t node, const nnav_op_use *u,
                                  char *buf, size_t n);

/* The schema's name for input (output when output) i of a node: "X",
 * "inputs[2]"; "" when no schema is in force or i is past what it takes.
 * Returns buf. */
const char *nnav_node_formal(const nnav_model *m, uint32_t node, const nnav_op_use *u, int output,
                             uint32_t i, char *buf, size_t n);

/* One row of a node's complete attribute list. */
enum {
    NNAV_NA_FILE = 0,  /* the file sets it, and the schema knows it (sa) or no
                          schema is in force (sa NULL) */
    NNAV_NA_UNKNOWN,   /* the file sets it; the schema in force has no such attribute */
    NNAV_NA_DEFAULT,   /* the file leaves it out; the schema's default applies */
    NNAV_NA_UNSET,     /* the file leaves it out; no default (sa->required: the
                          node breaks the schema) */
};
typedef struct nnav_node_attr_row {
    uint8_t state;           /* NNAV_NA_* */
    uint32_t attr;           /* FILE, UNKNOWN: the file's attribute id; else NNAV_NONE */
    const nnav_op_attr *sa;  /* the schema's attribute, or NULL */
} nnav_node_attr_row;

/* Every attribute of a node: the file's attributes in file order (FILE or
 * UNKNOWN), then the schema's attributes the node does not set, in the
 * schema's (name) order (DEFAULT or UNSET). The file's order comes first so
 * that a consumer indexing the file's attributes still finds them where
 * they were. Without a schema in force, the file's attributes only. Writes
 * at most max rows; returns how many there are (at most the node's
 * attr_count + the schema's n_attrs). */
size_t nnav_node_attr_rows(const nnav_model *m, uint32_t node, const nnav_op_use *u,
                           nnav_node_attr_row *out, size_t max);

/* A row's value as text: the file's (nnav_attr_format, max_items) or the
 * default (nnav_op_default_format); "" for UNSET. Returns buf. */
const char *nnav_node_attr_row_value(const nnav_model *m, const nnav_node_attr_row *r,
                                     size_t max_items, char *buf, size_t n);

/* YAML: the node's `schema` map (status, domain, op, since_version,
 * deprecated, opset, past_table; unknown_attributes and unset attributes as
 * name lists) into the open map, after the key `schema`. */
void nnav_node_schema_yaml(nnav_yw *w, const nnav_model *m, uint32_t node, const nnav_op_use *u);

/* A schema default as a YAML value: an integer, a float, a string, a flow
 * list of them; a rendered `text` as a string. */
void nnav_op_default_yaml(nnav_yw *w, const nnav_op_default *d);

/* The word of a status in YAML: "found", "nonstandard", "function",
 * "unknown", "not_yet", "no_opset", "no_schemas". */
const char *nnav_op_status_word(nnav_op_status st);

#endif
