/* opcheck.h - every node held to its operator's schema (opschema.h), as
 * onnx.checker holds it; the findings as data, for a face to print.
 *
 * Calling rules:
 *  - nnav_opcheck_run() walks the nodes of graphs [first, end) once, in id
 *    order, and resolves each with nnav_op_resolve(). It prints nothing.
 *  - What is held against the schema in force, and how onnx.checker (onnx
 *    1.12, check_model(full_check=True)) does the same:
 *      the operator: unknown in a standard domain, not yet existing at the
 *        opset in force, deprecated there (ONNX only: a TensorFlow OpDef's
 *        deprecation depends on the graph's producer version), or its
 *        domain not imported where the node is (any ONNX domain:
 *        onnx.checker requires the import of com.microsoft as of ai.onnx;
 *        "" is also satisfied by an import of "ai.onnx", never the other
 *        way round);
 *      attributes: unknown to the schema (names starting "__" are internal
 *        to onnx, "_" to TensorFlow: not checked), given twice, of another
 *        type than the schema's (an ONNX attribute without its type field in
 *        a file of IR version 2 or later is one: onnx.checker requires it;
 *        one with ref_attr_name is held by its declared type only), missing
 *        while required;
 *      arguments: the count of inputs and outputs as written (an omitted
 *        optional "" counts, as onnx.checker counts it; TensorFlow control
 *        inputs do not, nor are a NodeDef's outputs, which it does not
 *        list) outside [min, max]; "" where the formal is single;
 *        an input whose type is known (the typed view s: what the file says
 *        or what inference gives, never where the two disagree) outside its
 *        formal's type constraint, or a type parameter bound to two types
 *        in one node (ONNX only: TensorFlow binds types through attrs);
 *      the model: an opset_import of a standard domain whose version is
 *        below 1 (a finding) or past the table (a notice: nodes are held to
 *        the newest schema the table has, as onnx.checker does);
 *      a function's own nodes: where the function and the model import the
 *        node's domain at different versions, the schema in force must be
 *        the same at both (onnx.checker's check_opset_compatibility);
 *      the graph (ONNX only, as onnx.checker's check_graph and
 *        check_function hold it): each name is written once (ssa: a node
 *        output naming a graph input, an initializer, an earlier output or a
 *        value an enclosing graph shows at the body's node; a graph input,
 *        or a function's output, listed twice); each node input is a value defined before it
 *        (topological_order: written by a later node, the node itself, or an
 *        enclosing graph's node after the body's; undefined_input: defined
 *        nowhere it could be seen, such as inside another body); an
 *        initializer's name once among the initializers and sparse ones,
 *        and not empty (duplicate_initializer); at IR version 3 or below each initializer
 *        also a graph input (initializer_not_input). A body sees its
 *        enclosing graphs' inputs, initializers and the outputs of the nodes
 *        before the one holding it; its own inputs and initializers may hide
 *        those (its node outputs may not). Training graphs, and functions
 *        below IR version 8, are not held to these (onnx.checker does not
 *        check them); an omitted optional "" is no name;
 *      a main-graph node whose inputs' known shapes contradict its operator
 *        (input_shape: nnav_shapes_conflict, MatMul's inner sizes): only in
 *        the main graph, as onnx 1.12's full_check rejects only there (its
 *        inference of bodies and functions does not fail).
 *    Nodes of com.microsoft are held to ONNX Runtime's contrib schemas the
 *    table holds, by the same rules (onnx.checker does not check them; ONNX
 *    Runtime, which checks them when it loads a model, is the oracle).
 *    Nodes of the other domains are counted by domain, not checked;
 *    calls of the model's functions are counted (their bodies are graphs
 *    of their own, checked against the function's opset_import).
 *  - A sparse initializer is a tensor (IR.md; onnxruntime densifies it):
 *    onnx.checker's inference calls it sparse_tensor(T) and rejects it where
 *    an operator takes tensor(T); nnav does not.
 *  - At most NNAV_OPC_KEEP findings are kept, in the order of the walk (an
 *    ONNX model's graphs depth first, as onnx.checker walks them: a node's
 *    inputs, the node, its bodies, its outputs); all are
 *    counted. Detail strings are escaped text (names from the file went
 *    through nnav_text_escape), safe for a terminal and as a YAML string.
 *  - Cost: a binary search per node and per attribute, a look at each
 *    attribute's fields; no tensor payload is read. The graph rules walk
 *    the graphs depth first with one hash table of names for the whole
 *    model, each name's definitions stacked as the bodies nest: a probe per
 *    input and output, however deep the bodies.
 */
#ifndef NNAV_OPCHECK_H
#define NNAV_OPCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"
#include "opschema.h"

struct nnav_shapes;

/* The rules; nnav_opc_rule_word() gives each its fixed word. */
typedef enum nnav_opc_rule {
    NNAV_OPC_UNKNOWN_OPERATOR = 0, /* "unknown_operator" */
    NNAV_OPC_NOT_YET,              /* "not_yet" */
    NNAV_OPC_NO_OPSET,             /* "no_opset" */
    NNAV_OPC_DEPRECATED,           /* "deprecated" */
    NNAV_OPC_UNKNOWN_ATTRIBUTE,    /* "unknown_attribute" */
    NNAV_OPC_DUPLICATE_ATTRIBUTE,  /* "duplicate_attribute" */
    NNAV_OPC_ATTRIBUTE_TYPE,       /* "attribute_type" */
    NNAV_OPC_MISSING_ATTRIBUTE,    /* "missing_attribute" */
    NNAV_OPC_INPUT_COUNT,          /* "input_count" */
    NNAV_OPC_OUTPUT_COUNT,         /* "output_count" */
    NNAV_OPC_MISSING_INPUT,        /* "missing_input": "" for a single formal */
    NNAV_OPC_MISSING_OUTPUT,       /* "missing_output" */
    NNAV_OPC_INPUT_TYPE,           /* "input_type" */
    NNAV_OPC_OPSET_RANGE,          /* "opset_range" (model level) */
    NNAV_OPC_FUNCTION_OPSET,       /* "function_opset": a function's body node whose
                                      schema differs at the function's version of
                                      its domain and the model's */
    NNAV_OPC_SSA,                  /* "ssa": a name written twice */
    NNAV_OPC_ORDER,                /* "topological_order": an input written later */
    NNAV_OPC_UNDEFINED,            /* "undefined_input": an input written nowhere in view */
    NNAV_OPC_DUPLICATE_INIT,       /* "duplicate_initializer" */
    NNAV_OPC_INIT_NOT_INPUT,       /* "initializer_not_input" (IR version <= 3) */
    NNAV_OPC_INPUT_SHAPE,          /* "input_shape": the inputs' shapes contradict the
                                      operator (main graph) */
    NNAV_OPC_RULES
} nnav_opc_rule;
const char *nnav_opc_rule_word(int rule);

typedef struct nnav_opc_finding {
    uint32_t node;            /* node id; NNAV_NONE for a graph- or model-level finding */
    uint32_t graph;           /* the node's graph, or the graph of a graph-level
                                 finding (an initializer, a graph input); NNAV_NONE
                                 for a model-level one */
    nnav_span value;          /* graph rules: the name they are about (file bytes) */
    uint8_t rule;             /* nnav_opc_rule */
    const nnav_op_schema *s;  /* the schema in force (NOT_YET: the operator's
                                 first version); NULL when there is none */
    const char *domain;       /* canonical domain, or NULL (nonstandard / tf) */
    int64_t opset;            /* the domain's version in force; -1 none */
    /* Attribute rules: the attribute's id (nnav_attr_get) or, for
     * missing_attribute, NNAV_NONE; input/output rules (ssa,
     * topological_order, undefined_input too): the position in the node's
     * list; a graph input listed twice: its position among the inputs; an
     * initializer rule: the initializer's position (a sparse one's among
     * the sparse); opset_range: the opset_import's index; else NNAV_NONE. */
    uint32_t index;
    char detail[240];         /* "attribute 'group' is STRING, the schema says INT" */
} nnav_opc_finding;

#define NNAV_OPC_KEEP 10000u
#define NNAV_OPC_DOMAINS 16u /* non-standard domains counted by name; others together */
#define NNAV_OPC_PAST 8       /* >= the table's domains (nnav_op_domain_count) */

typedef struct nnav_opc_skip {
    nnav_span domain; /* from the file */
    uint64_t count;
} nnav_opc_skip;

/* An opset_import newer than the table: nodes held to the newest known. */
typedef struct nnav_opc_notice {
    const char *domain;  /* canonical */
    int64_t version;
    int32_t table_max;
} nnav_opc_notice;

typedef struct nnav_opcheck {
    const nnav_opc_finding *f; /* kept findings, n of them */
    size_t n;
    uint64_t total;            /* findings, kept or not */
    uint64_t by_rule[NNAV_OPC_RULES];
    uint64_t nodes;            /* nodes walked */
    uint64_t checked;          /* held to the table's rules: every node but those
                                  counted in calls, skipped and no_schemas (an
                                  unknown operator is checked, and a finding) */
    uint64_t calls;            /* calls of the model's functions */
    uint64_t skipped;          /* in non-standard domains */
    const nnav_opc_skip *skip; /* by domain, in order of first meeting */
    size_t n_skip;
    uint64_t skip_other;       /* in domains past NNAV_OPC_DOMAINS */
    uint64_t no_schemas;       /* TensorFlow nodes with no OpDef to hold them to */
    nnav_opc_notice past[NNAV_OPC_PAST]; /* one per domain of the table at most */
    size_t n_past;
    const char *table;         /* nnav_op_table_origin() */
} nnav_opcheck;

/* Check the nodes of graphs [first, end) (end <= nnav_graph_count(m)) and
 * the model's opset_import. s (may be NULL: no type rule) is the typed view
 * of m. NULL only when out of memory. */
nnav_opcheck *nnav_opcheck_run(const nnav_model *m, const struct nnav_shapes *s, uint32_t first,
                               uint32_t end);
void nnav_opcheck_free(nnav_opcheck *c);

#endif
