/* declutter.h - the decluttered view of a graph: which nodes are clutter
 * (constants, renames, shape arithmetic that folds to a constant), the value
 * each hidden producer stands for on its consumer, and the real producer an
 * input comes from once the clutter between is walked through.
 *
 * It is a view: nothing in the model changes, and every other listing stays
 * exact. A front end asks for it when the user does (--declutter, D).
 *
 * Calling rules:
 *  - nnav_declutter_build() classifies the nodes of one graph in one pass in
 *    node order, looking at each node's refs and each output's consumers
 *    once: linear in the graph. It reads no tensor payload (folded values
 *    come from the shape inference, which read them already).
 *  - The shapes given may be NULL: then only Constant and Identity nodes
 *    (TensorFlow: Const, Identity, NoOp) are hidden, nothing folds.
 *  - The result lives until nnav_declutter_free(); the model and the shapes
 *    must outlive it. Read-only afterwards.
 *
 * Which nodes are hidden. A node is clutter when it is
 *  - a constant: ONNX Constant, TensorFlow Const;
 *  - a rename: Identity (ONNX or TensorFlow), or TensorFlow's NoOp (order only);
 *  - folded: it holds no body, and every data output has a folded value
 *    (nnav_shapes_folded) whose elements are all numbers: Shape of a known
 *    shape, and the Gather, Unsqueeze, Concat, Cast... computed from it.
 * A clutter node is hidden unless one of its outputs is a graph output or is
 * read by a node of another graph (a body reading it from outside): those
 * need their producer shown. A Shape of a dynamic input (its value holds a
 * symbolic or unknown dim) does not fold, so it and what it feeds stay.
 *
 * What a hidden producer stands for on its consumer (nnav_declutter_input):
 * the folded value ("[1,197,16,64] (folded)"), the Constant's tensor, or,
 * through an Identity, the value the Identity renames.
 */
#ifndef NNAV_DECLUTTER_H
#define NNAV_DECLUTTER_H

#include "nnav.h"
#include "shape.h"
#include "yamlout.h"

typedef struct nnav_declutter nnav_declutter;

/* Why a node is hidden (NNAV_DECL_SHOWN: it is not). */
enum nnav_decl_why {
    NNAV_DECL_SHOWN = 0,
    NNAV_DECL_CONSTANT, /* Constant / Const */
    NNAV_DECL_RENAME,   /* Identity / NoOp */
    NNAV_DECL_FOLDED,   /* its outputs fold to constants */
};

/* How an input reads in the decluttered view. */
enum nnav_decl_input {
    NNAV_DECL_IN_PLAIN = 0, /* as in the file: its real producer is shown (or an input,
                               an initializer, nothing) */
    NNAV_DECL_IN_FOLDED,    /* a folded constant: nnav_shapes_folded() has its value */
    NNAV_DECL_IN_CONSTANT,  /* a hidden Constant's tensor too big (or not integer) to fold */
};

/* The view of graph `graph`. NULL when out of memory or no such graph. */
nnav_declutter *nnav_declutter_build(const nnav_model *m, uint32_t graph, const nnav_shapes *s);
void nnav_declutter_free(nnav_declutter *d);

uint32_t nnav_declutter_graph(const nnav_declutter *d);
/* Nodes of the graph in the view, and hidden. visible + hidden = node_count. */
uint32_t nnav_declutter_visible(const nnav_declutter *d);
uint32_t nnav_declutter_hidden_count(const nnav_declutter *d);
/* enum nnav_decl_why of a node; NNAV_DECL_SHOWN for a node of another graph. */
int nnav_declutter_why(const nnav_declutter *d, uint32_t node);
static inline int nnav_declutter_hidden(const nnav_declutter *d, uint32_t node)
{
    return nnav_declutter_why(d, node) != NNAV_DECL_SHOWN;
}
/* The value an input really reads: through hidden Identity nodes to the
 * value they rename (the same value when there is none). */
uint32_t nnav_declutter_source(const nnav_declutter *d, uint32_t value);
/* The real producer of a value: the node making its source (above), or
 * NNAV_NONE when the source is an input, an initializer or undefined. The
 * node may itself be hidden (a Constant, a folded node): then the input
 * reads as nnav_declutter_input() says. */
uint32_t nnav_declutter_producer(const nnav_declutter *d, uint32_t value);
/* enum nnav_decl_input for a value read by a node of the graph. */
int nnav_declutter_input(const nnav_declutter *d, uint32_t value);
/* The text a folded or constant input shows: "[1,197,16,64] (folded)",
 * "7 (folded)", "float32[768] (constant)". "" for a plain input. Text from
 * numbers and the engine's type rendering (escaped). */
void nnav_declutter_input_text(const nnav_declutter *d, uint32_t value, char *buf, size_t n);

/* --declutter in YAML (nodes --yaml, export): the "folded" list of node nd,
 * one item per input: null (read as in the file), the folded value (an int,
 * or a list of ints), or a hidden Constant's type ("float32[768]
 * (constant)"); written only when some input is folded or constant. */
void nnav_declutter_yaml_folded(nnav_yw *w, const nnav_model *m, const nnav_declutter *d,
                                const nnav_shapes *s, const nnav_node *nd);

#endif
