/* shape.h - the typed model view: element type and shape for every value,
 * inferred from the file's own facts through the operators, and the cost of
 * each node.
 *
 * Calling rules:
 *  - Nothing here runs at open. nnav_shapes_infer() walks every graph once,
 *    in node order (topological order), on demand; its cost grows with nodes
 *    and dims, never with weight bytes (only small integer tensors, up to
 *    NNAV_FOLD_MAX elements, are read, to fold shape computations).
 *  - Results live until nnav_shapes_free(); the model must outlive them.
 *  - A dimension is an nnav_dim: a number, unknown, or a symbolic
 *    dimension (nnav_dim_is_sym) rendered by nnav_dim_format(): "batch",
 *    "seq*4", "(h-3)/2+1". Its kind cannot be forged by an integer: the
 *    only way from an int64_t to a dim is nnav_dim_num(), which gives
 *    unknown outside [-NNAV_DIM_MAX, NNAV_DIM_MAX]; symbolic dims are made
 *    by the engine alone, and a symbolic dim is looked up in its table only
 *    after a bounds check.
 *  - Symbolic dimensions also carry a number, evaluated with each named
 *    dimension bound to a value (nnav_shapes_opts.bind, 1 by default), so
 *    that costs have numbers; the output says which bindings were assumed.
 *  - Bodies are inferred where they are used: If/Loop/Scan bodies at their
 *    node (Loop and Scan again until their states settle, at most 5 times),
 *    a function's body once per distinct input facts (later calls with the
 *    same facts reuse its outputs). All the work is bounded by a budget
 *    proportional to the model's nodes, inputs, outputs and values; past it,
 *    the values left are unknown with the reason "inference budget
 *    exhausted", and inference ends in time linear in the model.
 */
#ifndef NNAV_SHAPE_H
#define NNAV_SHAPE_H

#include "nnav.h"

/* A dim is a number (a size is >= 0; folded shape operands such as a
 * Reshape's -1 may be negative), a symbolic dim (nnav_dim_is_sym), or
 * unknown. A struct, so that no integer becomes a dim by assignment: the
 * encoding (enc_) is private to shape.c; everyone else goes through the
 * functions below. Numbers are those of magnitude at most NNAV_DIM_MAX
 * (2^62): every sum or difference of two of them fits in an int64_t, and a
 * result past the range is unknown, never another kind of dim. */
typedef struct nnav_dim {
    int64_t enc_; /* private: a number, INT64_MIN unknown, below -2^62 a symbol */
} nnav_dim;
#define NNAV_DIM_MAX ((int64_t)1 << 62)
/* The dim of number v; unknown when |v| > NNAV_DIM_MAX. */
static inline nnav_dim nnav_dim_num(int64_t v)
{
    nnav_dim d = {v >= -NNAV_DIM_MAX && v <= NNAV_DIM_MAX ? v : INT64_MIN};
    return d;
}
static inline nnav_dim nnav_dim_unknown(void)
{
    nnav_dim d = {INT64_MIN};
    return d;
}
#define NNAV_DIM_UNKNOWN nnav_dim_unknown()
static inline int nnav_dim_is_num(nnav_dim d) { return d.enc_ >= -NNAV_DIM_MAX && d.enc_ <= NNAV_DIM_MAX; }
static inline int nnav_dim_is_unknown(nnav_dim d) { return d.enc_ == INT64_MIN; }
static inline int nnav_dim_is_sym(nnav_dim d) { return d.enc_ != INT64_MIN && d.enc_ < -NNAV_DIM_MAX; }
/* The number of a numeric dim; 0 for any other (test nnav_dim_is_num first). */
static inline int64_t nnav_dim_val(nnav_dim d) { return nnav_dim_is_num(d) ? d.enc_ : 0; }
/* 1 when d is the number v. */
static inline int nnav_dim_is(nnav_dim d, int64_t v) { return nnav_dim_is_num(d) && d.enc_ == v; }
/* 1 when a and b are the same dim: the same number, the same symbolic
 * expression (symbols are interned), or both unknown. */
static inline int nnav_dim_eq(nnav_dim a, nnav_dim b) { return a.enc_ == b.enc_; }
#define NNAV_FOLD_MAX 64

/* Where a value's type comes from. */
typedef enum nnav_fact_src {
    NNAV_SRC_NONE = 0,  /* unknown */
    NNAV_SRC_FILE,      /* only the file says it (an input, an initializer, value_info) */
    NNAV_SRC_INFERRED,  /* inferred; the file says nothing */
    NNAV_SRC_AGREE,     /* inferred, and the file says the same */
    NNAV_SRC_DISAGREE,  /* inferred, and the file says otherwise */
} nnav_fact_src;

enum { NNAV_NT_SEQ = 1, NNAV_NT_SEQ_EMPTY = 2, NNAV_NT_OTHER = 3 };

typedef struct nnav_fact {
    int32_t dtype;      /* element type, 0 unknown */
    int32_t rank;       /* -1 unknown */
    uint32_t dims;      /* rank dims from here, into nnav_shapes_dims() */
    uint32_t fold;      /* folded small integer value (rank 0 or 1), or NNAV_NONE */
    uint32_t fold_n;
    uint8_t src;        /* nnav_fact_src */
    uint8_t control;    /* a TensorFlow control output "^N": order only, no data */
    uint8_t not_tensor; /* 0 a tensor; NNAV_NT_SEQ: a sequence whose elements have
                           dtype/rank/dims; NNAV_NT_SEQ_EMPTY: one with no element
                           yet; NNAV_NT_OTHER: a map or optional (the file's type) */
    uint8_t conflict;   /* its producer's inputs contradict the operator (MatMul's inner
                           sizes differ: onnx's shape inference rejects the node): src is
                           NNAV_SRC_DISAGREE, why says how, the type is the file's if any */
    uint32_t why;       /* reason id when unknown or partly unknown, NNAV_NONE if none */
} nnav_fact;

typedef struct nnav_cost {
    double macs;        /* multiply-accumulates (Conv, ConvTranspose, MatMul, Gemm, Einsum...) */
    double flops;       /* 2 per MAC, plus elementwise and reduction work */
    uint64_t params;    /* elements of the parameters it reads (scope.h) */
    uint64_t buffers;   /* elements of the buffers it reads (BatchNorm statistics) */
    double out_bytes;   /* bytes of its outputs */
    uint8_t known;      /* 0: shapes missing, the figures are partial */
    uint8_t symbolic;   /* a symbolic dim was taken at its bound value */
} nnav_cost;

typedef struct nnav_bind {
    const char *name;   /* a dim_param as the file spells it */
    int64_t value;
} nnav_bind;

typedef struct nnav_shapes_opts {
    const nnav_bind *bind; /* values for named dims in costs; others count as 1 */
    size_t n_bind;
} nnav_shapes_opts;

typedef struct nnav_shapes nnav_shapes;

/* Up to this many nodes, `info` and the explorer's first screen include
 * the typed view; past it they stay instant and inference waits to be
 * asked for (`nnav cost`, the explorer's T). One linear pass, but a
 * million nodes take about 0.15 s and 60 MB. */
#define NNAV_SHAPES_EAGER_MAX 200000u

/* ONNX Runtime's MatMulNBits multiplies by a K x N weight that its input B
 * holds packed (uint8 blocks of `bits`-bit numbers, not K * N elements):
 * for node, a com.microsoft MatMulNBits, K and N from its attributes, 0;
 * -1 for any other node or when either is missing or not a size. For
 * counting its logical parameters, K * N. */
int nnav_matmulnbits_kn(const nnav_model *m, uint32_t node, int64_t *k, int64_t *n);

/* Infer every graph of the model. NULL only when out of memory. */
nnav_shapes *nnav_shapes_infer(const nnav_model *m, const nnav_shapes_opts *o);
void nnav_shapes_free(nnav_shapes *s);

const nnav_fact *nnav_shapes_fact(const nnav_shapes *s, uint32_t value);
const nnav_dim *nnav_shapes_dims(const nnav_shapes *s, uint32_t first);
/* What the file says of a value (value_info, input, initializer), decoded
 * the same way; 0 when it says nothing. */
int nnav_shapes_file_fact(const nnav_shapes *s, uint32_t value, nnav_fact *out,
                          nnav_dim *dims, size_t max);

/* "batch", "seq*4", "?" */
size_t nnav_dim_format(const nnav_shapes *s, nnav_dim d, char *buf, size_t n);
/* A dim's number for costs (named dims at their bound value). -1 if unknown. */
int64_t nnav_dim_eval(const nnav_shapes *s, nnav_dim d);
/* "float32[batch,3,224,224]", "int64[?]" (unknown dim), "float32[...]"
 * (unknown rank), "?" (nothing known); "" for none. */
void nnav_fact_format(const nnav_shapes *s, const nnav_fact *f, char *buf, size_t n);
/* The value's type as best known: inferred, else the file's. */
void nnav_shapes_value_format(const nnav_shapes *s, uint32_t value, char *buf, size_t n);
/* Why a value's type is (partly) unknown: "op Foo (node "x") is not inferred". */
const char *nnav_shapes_why(const nnav_shapes *s, uint32_t why);
/* Why node's inputs contradict its operator ("inner sizes 3 and 5 differ"),
 * in any inference of it (a body's node, inferred again, counts once); NULL
 * when they never did. Its outputs' facts have conflict set. */
const char *nnav_shapes_conflict(const nnav_shapes *s, uint32_t node);

/* The folded value of a small integer value, as dims; 0 when none. */
size_t nnav_shapes_folded(const nnav_shapes *s, uint32_t value, const nnav_dim **vals);

/* Units of work spent (about one per input, output, dim or folded value a
 * rule looked at, counting bodies each time they were inferred), and
 * whether the budget ran out. */
uint64_t nnav_shapes_work(const nnav_shapes *s, int *exhausted);

/* Never NULL: past the last node, a cost of nothing, not known. */
const nnav_cost *nnav_shapes_node_cost(const nnav_shapes *s, uint32_t node);
/* Sum over a graph's nodes (not its bodies: their trip counts are unknown). */
void nnav_shapes_graph_cost(const nnav_shapes *s, uint32_t graph, nnav_cost *out);
/* Named dims that costs took at a bound (or default 1) value, "batch=1, seq=1". */
void nnav_shapes_assumed(const nnav_shapes *s, char *buf, size_t n);
/* The same, summarised for one line: named dims that stand for a batch or a
 * sequence by name, then how many others (exporters' generated names such
 * as "unk__123" or "Addoutput_dim_0") took 1: "batch=1 and 37 generated
 * dims = 1". "" when none. */
void nnav_shapes_assumed_short(const nnav_shapes *s, char *buf, size_t n);
/* Bindings "NAME=N[,NAME=N...]" (spaces around each allowed; a name as
 * the file spells it, up to its last '='; N from 0 to 2^40) cut in place
 * in text, which must outlive them, into out (n of max used: a name given
 * again takes the new value): 0, or -1 with why ("NAME=N ... not 'x'"). */
int nnav_bind_parse(char *text, nnav_bind *out, size_t max, size_t *n, char *why, size_t wn);
/* Named dims no binding gave a value (each counted as 1): how many, and
 * the first four by name in buf, "batch, sequence and 3 more". */
uint32_t nnav_shapes_unset(const nnav_shapes *s, char *buf, size_t n);
/* Values whose shape, at the bound dims, has a size below zero (a named
 * dim taken at 1 where the model needs more: a Conv over sequence=1): how
 * many; the first one's id in *value (NNAV_NONE when none). Linear. */
uint64_t nnav_shapes_negative(const nnav_shapes *s, uint32_t *value);
/* Up to this many nodes nnav_shapes_suggest tries bindings. */
#define NNAV_SUGGEST_MAX 20000u
/* A value for a named dim the caller did not bind, one that occurs in the
 * first negative shape, that leaves no shape negative: the least power of
 * two from 2 to 65536, the other bindings as given. Infers the model again
 * per try (at most 16 per such dim), so only for models of at most
 * NNAV_SUGGEST_MAX nodes. 1 with the dim's name in name (n bytes) and the
 * value, else 0. */
int nnav_shapes_suggest(const nnav_shapes *s, char *name, size_t n, int64_t *value);
/* The model the shapes were inferred for. */
const nnav_model *nnav_shapes_model(const nnav_shapes *s);

/* ---- the whole model's cost (wcost.c) ----
 * A graph's cost with everything it runs: an If its dearer branch, a Loop
 * its body times the trip count (a constant or folded M; else once, "per
 * iteration"), a Scan its body times the scanned length, a function call
 * (ONNX local function, TensorFlow PartitionedCall) its body, a TensorFlow
 * If its dearer branch and While its body per iteration. Each graph is
 * summed once and remembered, so a body called from many places costs one
 * pass; nesting past NNAV_WCOST_DEPTH and a function calling itself make
 * the figure partial; a product past 2^63 is unknown (overflow), never a
 * wrapped number. Body costs are those of the last inference of the body
 * (nnav_shapes_infer). */
#define NNAV_WCOST_DEPTH 64
typedef struct nnav_whole {
    double macs, flops, out_bytes;
    uint8_t known;     /* 0: shapes missing (or nesting too deep), figures are partial */
    uint8_t symbolic;  /* a symbolic dim was taken at its bound value */
    uint8_t per_iter;  /* a body whose trip count is unknown was counted once */
    uint8_t overflow;  /* past 2^63: the figures are unknown */
    uint8_t cut;       /* why a body was left out (so known is 0): NNAV_WCOST_DEEP, _RECURSIVE */
} nnav_whole;
#define NNAV_WCOST_DEEP 1u      /* nesting past NNAV_WCOST_DEPTH */
#define NNAV_WCOST_RECURSIVE 2u /* a function that calls itself */
typedef struct nnav_wcost nnav_wcost;
nnav_wcost *nnav_wcost_new(const nnav_shapes *s); /* NULL when out of memory */
void nnav_wcost_free(nnav_wcost *w);
/* Graph g with its bodies. Never NULL (an unknown graph: nothing, known). */
const nnav_whole *nnav_wcost_graph(nnav_wcost *w, uint32_t graph);
/* What a node's bodies add, in *out, and how they were counted in `how`
 * (escaped text: "then 1.20 M MACs, else 3.40 M MACs: the dearer",
 * "body 5.00 M MACs x 10 trips"). 0 when the node has no body. */
int nnav_wcost_node(nnav_wcost *w, uint32_t node, nnav_whole *out, char *how, size_t n);
/* Why the figures are partial, for "(partial: ...)": the cut when one was
 * made, else "shapes missing"; "" when they are not. */
const char *nnav_whole_why(const nnav_whole *h);
/* The figures as an nnav_cost (params 0: see nnav_model_params in scope.h;
 * known 0 when partial or overflowed). */
void nnav_whole_to_cost(const nnav_whole *h, nnav_cost *c);
/* The one-call form: graph g's whole cost (a new nnav_wcost made and freed:
 * linear in the model's graphs), params those of the whole model by the
 * rule of scope.h for the main graph (0), else the initializers and
 * Constant-held weights the graph's own nodes read; h (may be NULL) gets
 * the flags. Out of memory: the graph's own nodes, partial. */
void nnav_shapes_whole_cost(const nnav_shapes *s, uint32_t graph, nnav_cost *out, nnav_whole *h);

/* Counts over all values, for summaries. */
typedef struct nnav_shapes_stats {
    uint64_t values, typed, shaped, full, file, inferred, agree, disagree, unknown;
    uint64_t ops_unknown; /* nodes whose op has no rule */
} nnav_shapes_stats;
void nnav_shapes_stats_get(const nnav_shapes *s, uint32_t graph, nnav_shapes_stats *st);

#endif
