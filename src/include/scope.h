/* scope.h - the module hierarchy of a graph: a tree of scopes derived from
 * node names or the exporter's node metadata, with each scope's nodes,
 * parameters, cost, boundary values, and the sibling scopes it repeats.
 *
 * Calling rules:
 *  - nnav_scopes_build() makes the tree of one graph in one pass over its
 *    nodes, their refs and their values, on demand (nothing runs at open).
 *    Work and memory are linear in the graph: every node sits at most
 *    NNAV_SCOPE_DEPTH_MAX levels deep (deeper name components are not
 *    scopes), so each node, edge and value visits at most that many scopes.
 *    Names are spans into the map: nothing is copied.
 *  - The result lives until nnav_scopes_free(); the model (and the shapes
 *    given, which may be NULL: then no MACs, FLOPs or output shapes) must
 *    outlive it. Read-only afterwards; safe to share between readers.
 *  - Scope 0 is the root (the graph itself, empty name). Ids are in depth-
 *    first preorder, children in the order their first node appears, so a
 *    scope's subtree is the ids [id, id + subtree), and its nodes are one
 *    range of nnav_scope_nodes(): its own nodes first (in graph order),
 *    then each child's subtree in turn.
 *
 * Where a node's scope comes from, first that applies:
 *  1. ONNX node metadata "pkg.torch.onnx.name_scopes" (torch.onnx's dynamo
 *     exporter): the repr of a list of cumulative module paths, '' first
 *     (the root), the node's own name last: ['', 'encoder', 'encoder.layers',
 *     'encoder.layers.0', 'matmul']. Each entry between is a scope, named by
 *     what it adds to its parent's path ("layers", "0"); the aligned
 *     "pkg.torch.onnx.class_hierarchy" gives each scope its class.
 *  2. The node name as a path: PyTorch's TorchScript exporter writes
 *     "/encoder/layers/encoder_layer_5/ln_1/LayerNormalization", TensorFlow
 *     "model/conv2d_1/Conv2D". Everything before the last '/' is the scope
 *     path; empty components are skipped ("/a//b/Op" is a/b); the last
 *     component is the node itself.
 *  3. Otherwise the root: a graph with no usable names is one flat scope.
 *
 * Parameters are counted as the framework counted them. A parameter is a
 * value that holds weights: an initializer (dense or sparse) or a Constant
 * (TensorFlow: Const) node's tensor with more than one element, of an
 * element type weights have (not int32/int64/uint32/uint64, bool or string:
 * those are shapes, indices and buffers), or the output of an Identity of a
 * parameter. Exporters merge equal initializers and keep each original name
 * as such an Identity; each name counts on its own, once, and a parameter
 * consumed only by those Identity nodes does not count itself (its names
 * do). So the counts equal PyTorch's sum(p.numel()) over the module. A
 * parameter counts in the deepest scope holding all of its consumers (the
 * root when it has none, or is a graph output), looking through the nodes
 * that only pass it on converted or reshaped (Cast, Reshape, Expand,
 * Transpose...: the format's NNAV_WROLE_PASS, opset_rules.h): a weight is
 * booked where it is used.
 *
 * What a weight is comes from the inputs that read it (the format's
 * input_role, opset_rules.h): a parameter unless every node reading it
 * reads it as something else, namely a buffer (BatchNormalization's running
 * mean and variance, TensorFlow's moving statistics: torch's and Keras's
 * non-trainable buffers) or a constant that is neither (an RNN's initial
 * state, which torch makes at run time, Resize scales, Pad and Clip
 * bounds, a quantised weight's scales and zero points). Buffers are counted
 * beside parameters; constants in neither. A packed weight counts what it
 * stands for (ONNX Runtime's MatMulNBits: K x N, not the bytes stored).
 *
 * Identical siblings: each scope whose parent has more than one child gets
 * a 64-bit structural hash of its subtree's nodes in scope order: op type,
 * domain, attribute bytes (a tensor of more than NNAV_FOLD_MAX elements by
 * type and dims only; a body by its node count), each input as an index
 * into the subtree (producer position, output slot), a parameter's type and
 * dims, or the order in which an outside value first enters, and each
 * output's inferred type. Names never enter it. Siblings of equal hash are
 * then compared token by token (attribute bytes by memcmp), so a collision
 * never groups two scopes: same_as is exact, not probable. Then, among
 * siblings not all identical, the same again with every element and
 * storage type left out of the stream: a scope matching an earlier sibling
 * so, and identical to none, has shape_as (llama.cpp's Q4_K_M puts some
 * blocks' tensors in Q6_K).
 */
#ifndef NNAV_SCOPE_H
#define NNAV_SCOPE_H

#include "nnav.h"
#include "shape.h"

#define NNAV_SCOPE_DEPTH_MAX 32u

typedef struct nnav_scope {
    nnav_span name;       /* this level's component ("encoder_layer_5"); empty at the root */
    nnav_span cls;        /* class from node metadata, or empty */
    uint32_t parent;      /* NNAV_NONE at the root */
    uint32_t depth;       /* 0 at the root */
    uint32_t subtree;     /* scopes in its subtree, itself included */
    uint32_t child_count; /* its children are the scopes below it at depth + 1 */
    uint32_t node_first;  /* into nnav_scope_nodes() */
    uint32_t node_count;  /* its own nodes */
    uint32_t nodes_total; /* nodes of its subtree */
    uint64_t params;      /* parameter elements of its subtree, by the rule above */
    uint64_t param_names; /* parameters (names) counted in its subtree */
    uint64_t buffers;     /* buffer elements of its subtree (BatchNorm statistics) */
    uint64_t bytes;       /* bytes its subtree's weights store: parameters, buffers and
                             the quantisation data beside them (scales, zero points:
                             quant.h), each tensor once */
    uint64_t stored;      /* the weights those bytes hold: parameters' and buffers' elements
                             (a packed weight's logical count), each tensor once, its
                             other names (an Identity's) not again; the mean bits per
                             weight are bytes x 8 / stored */
    double macs, flops;   /* sums of nnav_shapes_node_cost over its subtree */
    uint32_t in_first, in_count;   /* values entering it (not parameters), into nnav_scope_values() */
    uint32_t out_first, out_count; /* values it makes that are used outside it, or graph outputs */
    uint32_t same_as;     /* the earliest sibling it is identical to, or NNAV_NONE */
    uint32_t repeats;     /* on a scope with same_as == NONE: siblings identical to it, itself included */
    uint32_t shape_as;    /* the earliest sibling it matches but for its tensors' types
                             (blocks quantised Q4_K in one layer, Q6_K in the next),
                             when it is not identical to it; NNAV_NONE when none */
    uint64_t hash;        /* structural hash (0 when not computed: the only child) */
} nnav_scope;

typedef struct nnav_scopes nnav_scopes;

/* A PyTorch checkpoint (a graph of tensors and no nodes): each tensor's key
 * path is its scope path, components split at '.' ("model.layer1.0.conv1.
 * weight" is scopes model/layer1/0/conv1, empty components skipped, the
 * last component the tensor's own name), scopes in the order their first
 * tensor appears. A state_dict does not say which tensor is a parameter and
 * which a buffer: those whose own name is running_mean, running_var or
 * num_batches_tracked (BatchNorm's buffers) are buffers, not counted in
 * params (their elements: nnav_scopes_buffers()); every other tensor of a
 * weight type counts in its own scope, so a module's params equal torch's
 * sum(p.numel() for p in module.parameters()) for state_dicts of standard
 * layers (another module's float buffer, e.g. a registered mask, counts).
 * The identical-sibling hash is then of the subtree's tensors: scope
 * position, own name, element type and dims. */
uint64_t nnav_scopes_buffers(const nnav_scopes *t);

/* The tree of graph `graph`. NULL when out of memory (or no such graph). */
nnav_scopes *nnav_scopes_build(const nnav_model *m, uint32_t graph, const nnav_shapes *s);
void nnav_scopes_free(nnav_scopes *t);

uint32_t nnav_scopes_count(const nnav_scopes *t);
const nnav_scope *nnav_scope_get(const nnav_scopes *t, uint32_t id);
/* Node ids in scope order; a scope's are [node_first, node_first + nodes_total). */
const uint32_t *nnav_scope_nodes(const nnav_scopes *t);
/* The scope holding a node of the graph (its own nodes), NNAV_NONE for another graph's. */
uint32_t nnav_scope_of_node(const nnav_scopes *t, uint32_t node);
/* A tensor store's (scope.h's checkpoint): the value ids of the tensors in
 * scope id's subtree, its own first, then each child's in turn, *n of them;
 * NULL (and *n 0) for a graph with nodes. */
const uint32_t *nnav_scope_tensors(const nnav_scopes *t, uint32_t id, uint32_t *n);
/* Value ids; a scope's inputs are [in_first, +in_count), outputs [out_first, +out_count). */
const uint32_t *nnav_scope_values(const nnav_scopes *t);
/* The path of the scope from the root, components joined by '/' (raw bytes
 * from the file: escape before printing). Writes at most n bytes, returns
 * the full length. */
size_t nnav_scope_path(const nnav_scopes *t, uint32_t id, uint8_t *buf, size_t n);

/* Merged initializers in graph `graph`: how many parameter names share a
 * tensor with another counted name (an Identity of it, see above), and the
 * bytes the file saves by not holding each as its own initializer. Linear;
 * zeros when out of memory. */
void nnav_scopes_merged(const nnav_model *m, uint32_t graph, uint64_t *names, uint64_t *bytes);

/* The weight tensor a Constant (TensorFlow: Const) node holds by the rule
 * above, or NNAV_NONE (another op, a scalar, shapes or indices). */
uint32_t nnav_constant_weight(const nnav_model *m, uint32_t node);

/* The weight tensor value v holds by the rule above (an initializer or a
 * sparse initializer's values of a weight type, or a Constant-held weight:
 * v is the node's first output), or NNAV_NONE (a trip count, a shape, an
 * index, a string). Not the Identity forwarding: that is per graph. */
uint32_t nnav_value_weight(const nnav_model *m, uint32_t v);

/* Whether tensor t holds weights by the rule above (an initializer's or a
 * sparse initializer's values of a weight type, or the tensor of a Constant
 * node that holds a weight); shapes, indices, strings and scalars of a
 * Constant are not, nor a checkpoint's module buffers and TorchScript
 * constants (they are no parameters). */
int nnav_tensor_is_weight(const nnav_model *m, uint32_t t);

/* Parameters by the rule above, each value once in the graph that defines
 * it: of the main graph's own values, of every graph (bodies, functions,
 * training graphs), and how many of every graph's a Constant node holds.
 * Linear; zeros when out of memory. */
void nnav_params_by_graph(const nnav_model *m, uint64_t *main, uint64_t *all, uint64_t *held);

/* Parameters of the whole model by the rule above: the main graph and every
 * graph below it (bodies at any depth) and every local function, each value
 * counted once in the graph that defines it. One pass over values, nodes and
 * graphs; zeros when out of memory. names may be NULL. */
void nnav_model_params(const nnav_model *m, uint64_t *elems, uint64_t *names);

/* The whole model's weights by the rules above, as nnav_model_params counts
 * them: parameters, buffers (a checkpoint's by their names), and constants
 * of a weight type that are neither; elements and names of each. */
typedef struct nnav_weights {
    uint64_t params, param_names;
    uint64_t buffers, buffer_names;
    uint64_t consts, const_names;
    /* The bytes of all these, each tensor once, and of a packed weight's
     * quantisation data (quant.h), and the weights they hold (as
     * nnav_scope.stored): bytes x 8 / stored is the model's mean bits per
     * weight. */
    uint64_t bytes, stored;
} nnav_weights;
void nnav_model_weights(const nnav_model *m, nnav_weights *w);

/* The weight tensor node n reads at input `slot` (its value v), looking
 * back through the nodes that pass it on (Identity, Cast, Reshape...: at
 * most 8), and
 * *role what it is there: an NNAV_WROLE_* of opset_rules.h (0 a parameter,
 * 1 a buffer, 2 a constant), *elems the parameters it stands for there
 * (the stored elements, or a packed weight's logical count: MatMulNBits'
 * K x N). NNAV_NONE when it reads no weight, and when n
 * itself is such a node: a forwarded weight is its reader's. */
/* Layers of graph `graph` into which the exporter folded a normalisation
 * (a BatchNorm into the Conv before it: torch.onnx's eval-mode export),
 * by the format's signs of it; 0 when none or the format leaves none. One
 * pass over the graph's values and nodes. The sentence that says so, once,
 * the same in every face, into buf. */
uint32_t nnav_folded_norms(const nnav_model *m, uint32_t graph);
const char *nnav_folded_norms_text(uint32_t n, char *buf, size_t size);

/* By tensor id: 0 when it holds no weight, else 1 + what it is by the rule
 * above (1 a parameter, 2 a buffer, 3 a constant), the strongest part any
 * of its names plays. One pass; free() it; NULL when out of memory. */
uint8_t *nnav_tensor_roles(const nnav_model *m);

uint32_t nnav_read_weight(const nnav_model *m, uint32_t n, uint32_t slot, uint32_t v, int *role,
                          uint64_t *elems);

#endif
