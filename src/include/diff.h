/* diff.h - two models compared: what changed from A to B, as data.
 *
 * Both faces print these facts: `nnav diff A B` (text and YAML) and the
 * explorer's compare mode. The core decides what matches what; a face only
 * walks the result.
 *
 * Contract:
 *  - Sides: 0 is A (the old), 1 is B (the new). Ids are each model's own
 *    (graph, node, value, attribute and tensor ids of nnav.h).
 *  - Graphs match by place: the main graphs, functions by domain and name,
 *    a body by its owner node's match, the attribute's name and the list
 *    index; training graphs by their index.
 *  - Nodes, within a pair of matched graphs: first by name where names agree
 *    and the operator (domain and op) is the same; then by structure,
 *    spreading from what is matched (a matched node's producers and
 *    consumers slot by slot, graph outputs and inputs) to nodes of the same
 *    operator; then, for what is left, along the file's order, operator by
 *    operator. A node left over with the name of a left-over node of another
 *    operator is the same node with its op changed. Linear in the nodes
 *    (hash tables; no all-pairs search). A matched pair whose names differ is
 *    "renamed".
 *  - Values follow their producers: graph inputs by name, then position;
 *    node outputs by the matched node and slot; initializers as below.
 *    A node's input is "the same" when the value it reads on A matches the
 *    value it reads on B (both "" counts as the same).
 *  - Initializers (dense tensors of the graph, TensorFlow variables and
 *    Const values held as graph tensors): by name; then by the matched
 *    consumer's input slot; then by identical bytes (dtype, dims, payload).
 *    Their values are compared over the map, chunk by chunk, memcmp first,
 *    element by element only where a chunk differs; nothing is copied.
 *  - Attributes of a matched pair: by name; values compared by their bytes
 *    (a GRAPH or GRAPHS attribute is not: its bodies are compared as graphs).
 *  - A store of named tensors on either side (facts.tensor_store: a
 *    checkpoint, a weights file), of any format against any: only the two
 *    main graphs' initializers are compared (totals.weights_only), none of
 *    nodes, inputs or other graphs, and model facts only between two files
 *    of one format; two formats are no difference. Tensors pair by name; then by the canonical spelling of
 *    tnames.h (transformers' and llama.cpp's names of one weight, "model."
 *    or "module." added or dropped), "renamed"; then, values asked for, by
 *    identical bytes, and a matrix by its transpose element for element
 *    (TRANSPOSED: an exporter's MatMul weight, "onnx::MatMul_57").
 *  - A tensor pair's records (name, storage type, dims) are compared for
 *    every pair first, then the values of the pairs that can be compared,
 *    in the order A's payloads lie in its file: two large files are read
 *    once, front to back. Values of two storage types of one shape are
 *    compared as numbers: fixed widths (bf16 against float32) element by
 *    element over the map; otherwise (a block-quantised type dequantised)
 *    through the reader's values, up to 4,194,304 elements, past that
 *    "unread", saying why. Bytes a reader keeps otherwise than as plain
 *    little-endian values (the first 64 disagree with its values) are
 *    compared through its values too.
 *  - Everything returned lives until nnav_diff_free(). Both models must
 *    stay open as long.
 */
#ifndef NNAV_DIFF_H
#define NNAV_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

typedef struct nnav_diff nnav_diff;

typedef struct nnav_diff_opts {
    int no_values;    /* compare structure only: initializers by dtype and dims */
    double tolerance; /* elements whose absolute difference is at most this are equal */
    int declutter;    /* both sides decluttered (declutter.h): hidden nodes are matched (what
                         the shown ones read through them pairs) but neither compared nor
                         listed; an input is the value behind hidden Identity nodes */
} nnav_diff_opts;

/* What differs, as bits (0: the same). */
enum {
    NNAV_DIFF_ADDED = 1u << 0,    /* only on B */
    NNAV_DIFF_REMOVED = 1u << 1,  /* only on A */
    NNAV_DIFF_RENAMED = 1u << 2,  /* matched, under another name */
    NNAV_DIFF_OP = 1u << 3,       /* node: op or domain */
    NNAV_DIFF_ATTRS = 1u << 4,    /* node: an attribute added, removed or changed */
    NNAV_DIFF_INPUTS = 1u << 5,   /* node: inputs rewired (count or a slot) */
    NNAV_DIFF_OUTPUTS = 1u << 6,  /* node: output count; graph: its outputs */
    NNAV_DIFF_DTYPE = 1u << 7,    /* tensor or graph input/output: element type */
    NNAV_DIFF_SHAPE = 1u << 8,    /* tensor dims, or a graph input/output's shape */
    NNAV_DIFF_VALUES = 1u << 9,   /* tensor: some element differs (beyond the tolerance) */
    NNAV_DIFF_UNREAD = 1u << 10,  /* tensor: values could not be compared (why in note) */
    NNAV_DIFF_TYPE = 1u << 11,    /* graph input/output: its type otherwise (not a tensor...) */
    NNAV_DIFF_TRANSPOSED = 1u << 12, /* tensor: B holds A's matrix transposed, element for
                                        element (an exporter's MatMul weight) */
};
/* The change words, in bit order: "added", "removed", "renamed", "op",
 * "attributes", "inputs", "outputs", "dtype", "shape", "values", "unread",
 * "type", "transposed". NULL for a bit past the last. */
const char *nnav_diff_word(unsigned bit);
/* A mark for a list: '+' added, '-' removed, '~' any other difference, ' ' same. */
char nnav_diff_mark(unsigned what);

/* Compares a with b. 0 and *out set, or -1 with err (kind NNAV_ERR_USAGE when
 * the two are of different formats, NNAV_ERR_INPUT for a value that cannot
 * be read where reading it is needed; out of memory too). */
int nnav_diff_run(const nnav_model *a, const nnav_model *b, const nnav_diff_opts *o,
                  nnav_diff **out, nnav_error *err);
void nnav_diff_free(nnav_diff *d);
const nnav_model *nnav_diff_model(const nnav_diff *d, int side);
/* Nonzero when anything at all differs (the facts, a graph, a node, a tensor). */
int nnav_diff_any(const nnav_diff *d);

/* ---- model facts that differ: IR version, opsets (one fact per domain),
 * producer, domain, model version, doc string, metadata (one per key), TF
 * meta graphs (tags, signatures) ---- */
typedef struct nnav_diff_fact {
    const char *key;   /* "ir_version", "opset ai.onnx", "metadata KEY"...: sanitised */
    const char *a, *b; /* the two values as text, sanitised; NULL on the side lacking it */
} nnav_diff_fact;
size_t nnav_diff_fact_count(const nnav_diff *d);
const nnav_diff_fact *nnav_diff_fact_get(const nnav_diff *d, size_t i);

/* ---- graphs: every graph of either side, matched ones once ---- */
typedef struct nnav_diff_graph {
    uint32_t a, b;   /* graph ids, NNAV_NONE on the side lacking it */
    unsigned what;   /* ADDED, REMOVED; else 0 (its parts say what differs) */
    /* Its differences: into nnav_diff_node_get / _io_get / _tensor_get. */
    uint32_t node_first, node_count;
    uint32_t io_first, io_count;
    uint32_t tensor_first, tensor_count;
    /* Counts of its nodes by outcome (a graph on one side: all added or removed). */
    uint32_t same, added, removed, renamed, changed;
} nnav_diff_graph;
size_t nnav_diff_graph_count(const nnav_diff *d);
const nnav_diff_graph *nnav_diff_graph_get(const nnav_diff *d, size_t i);
/* The entry of side's graph g, or NNAV_NONE. */
uint32_t nnav_diff_graph_of(const nnav_diff *d, int side, uint32_t g);

/* ---- nodes that differ, per graph in a unified order: B's order, with a
 * removed node placed before the first node that follows it on A ---- */
typedef struct nnav_diff_node {
    uint32_t a, b;      /* node ids, NNAV_NONE on the side lacking it */
    uint32_t graph;     /* its nnav_diff_graph entry */
    unsigned what;      /* NNAV_DIFF_* bits, never 0 here */
    uint32_t attr_first, attr_count; /* changed attributes, into nnav_diff_attr_get */
} nnav_diff_node;
size_t nnav_diff_node_count(const nnav_diff *d);
const nnav_diff_node *nnav_diff_node_get(const nnav_diff *d, size_t i);
/* For any node of either side: its counterpart on the other side (NNAV_NONE
 * when added or removed), what differs (0: the same), and its entry in the
 * list above (NNAV_NONE when the same). */
uint32_t nnav_diff_node_peer(const nnav_diff *d, int side, uint32_t node);
unsigned nnav_diff_node_what(const nnav_diff *d, int side, uint32_t node);
uint32_t nnav_diff_node_entry(const nnav_diff *d, int side, uint32_t node);
/* A value's counterpart (graph inputs, node outputs, initializers), or NNAV_NONE. */
uint32_t nnav_diff_value_peer(const nnav_diff *d, int side, uint32_t value);
/* Whether input slot i of a matched pair's nodes reads matching values
 * (1), or not (0: rewired, or a slot one side lacks). */
int nnav_diff_input_same(const nnav_diff *d, const nnav_diff_node *n, uint32_t i);

typedef struct nnav_diff_attr {
    uint32_t a, b; /* attribute ids, NNAV_NONE on the side lacking it */
} nnav_diff_attr;
size_t nnav_diff_attr_count(const nnav_diff *d);
const nnav_diff_attr *nnav_diff_attr_get(const nnav_diff *d, size_t i);

/* ---- graph inputs and outputs that differ ---- */
typedef struct nnav_diff_io {
    uint32_t a, b;   /* value ids, NNAV_NONE on the side lacking it */
    uint32_t graph;  /* its nnav_diff_graph entry */
    uint8_t output;  /* 0: a graph input, 1: a graph output */
    unsigned what;   /* ADDED, REMOVED, RENAMED, DTYPE, SHAPE, TYPE */
} nnav_diff_io;
size_t nnav_diff_io_count(const nnav_diff *d);
const nnav_diff_io *nnav_diff_io_get(const nnav_diff *d, size_t i);

/* ---- initializers that differ, per graph in B's order then removed ones ---- */
typedef struct nnav_diff_tensor {
    uint32_t a, b;      /* tensor ids, NNAV_NONE on the side lacking it */
    uint32_t graph;     /* its nnav_diff_graph entry */
    unsigned what;      /* ADDED, REMOVED, RENAMED, DTYPE, SHAPE, VALUES, UNREAD, TRANSPOSED */
    /* With VALUES: how many elements differ, the largest absolute difference
     * |b - a| and the flat index of its element, the largest relative one
     * |b - a| / |a| (over elements where a != 0; -1 when there are none) and
     * its element. */
    uint64_t ndiff;
    double max_abs, max_rel;
    uint64_t at_abs, at_rel;
    double a_at_abs, b_at_abs; /* the two values at at_abs */
    const char *note;   /* with UNREAD: why, sanitised; else NULL */
    /* The element type is a float of 32 bits or fewer: the values and the
     * differences above are float32 numbers (|b - a| as float32 computes
     * it), best shown as the shortest text that reads back as that float. */
    int narrow;
} nnav_diff_tensor;
size_t nnav_diff_tensor_count(const nnav_diff *d);
const nnav_diff_tensor *nnav_diff_tensor_get(const nnav_diff *d, size_t i);
/* For any tensor of either side: its counterpart, what differs, its entry. */
uint32_t nnav_diff_tensor_peer(const nnav_diff *d, int side, uint32_t t);
uint32_t nnav_diff_tensor_entry(const nnav_diff *d, int side, uint32_t t);

/* ---- the summary: one row per operator with a difference, by op name ---- */
typedef struct nnav_diff_opsum {
    nnav_span domain, op;   /* B's spelling where B has the node, else A's */
    uint32_t added, removed, renamed, changed;
    unsigned changed_what;  /* the bits of the changed ones, OR-ed */
} nnav_diff_opsum;
size_t nnav_diff_opsum_count(const nnav_diff *d);
const nnav_diff_opsum *nnav_diff_opsum_get(const nnav_diff *d, size_t i);

/* Totals over all graphs. */
typedef struct nnav_diff_totals {
    uint64_t nodes_a, nodes_b;
    uint64_t same, added, removed, renamed, changed; /* nodes; renamed: only renamed */
    uint64_t graphs_added, graphs_removed;
    uint64_t io_changed;
    uint64_t tensors_added, tensors_removed, tensors_renamed, tensors_changed;
    uint64_t bytes_compared;  /* payload bytes compared on each side */
    int weights_only;         /* a store of named tensors on either side: only the main
                                 graphs' initializers were compared (by name, the common
                                 renames, bytes); no node, input or other graph */
    uint32_t facts;
} nnav_diff_totals;
const nnav_diff_totals *nnav_diff_totals_get(const nnav_diff *d);

/* The summary in one line, what both faces put first: the operators' rows
 * ("+20 BatchNormalization, -1 Relu, 2 Gemm renamed, 20 Conv changed
 * (inputs)"), then "N initializers changed (values)" / added / removed /
 * renamed, "N graph inputs/outputs changed", "N graphs added", "N model facts
 * changed"; "no differences" when there are none. Cut between whole items
 * with ", ..." when buf is too small. Returns the length written. */
size_t nnav_diff_summary(const nnav_diff *d, char *buf, size_t n);

#endif
