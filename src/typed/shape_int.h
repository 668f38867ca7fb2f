/* shape_int.h - what the operator rules (shape_ops*.c, rules_tf.c) see of the inference
 * engine (shape.c): one node at a time, its inputs' facts, its attributes,
 * and setters for its outputs. Dims are built with the nnav_sd_* arithmetic
 * so that symbolic sizes stay symbolic ("seq*4", "(h-3)/2+1"). */
#ifndef NNAV_SHAPE_INT_H
#define NNAV_SHAPE_INT_H

#include "model.h"
#include "shape.h"

#define NNAV_RANK_MAX 32

typedef struct nnav_ictx {
    nnav_shapes *S;
    const nnav_model *m;
    const nnav_node *nd;
    uint32_t node;
    int depth;          /* body nesting of this inference run */
    uint32_t caller;    /* inside a function body: the calling node, else NNAV_NONE */
    uint32_t nin;       /* inputs but trailing TensorFlow control inputs (nnav_ix_nin) */
    char why[200];      /* set by nnav_ix_fail */
    uint8_t conflict;   /* set by nnav_ix_conflict */
} nnav_ictx;

/* A rule fills the node's outputs; returns 0, or -1 through nnav_ix_fail(). */
typedef int (*nnav_rule_fn)(nnav_ictx *ix);
typedef struct nnav_rule {
    const char *op;
    nnav_rule_fn fn;
} nnav_rule;
/* The ONNX-domain rules (shape_ops*.c), terminated by {NULL, NULL}. */
extern const nnav_rule nnav_shape_rules[];
/* The ONNX-domain rule of op, or NULL (another format's op that is an ONNX
 * op under another name runs it). */
const nnav_rule *nnav_ix_onnx_rule(const nnav_ictx *ix, const char *op);
/* The rule of a com.microsoft op (ONNX Runtime's contrib operators,
 * shape_ops_llm.c's table), or NULL: the engine asks it for nodes of that
 * domain, whose ops may share a name with ONNX's (Attention,
 * RotaryEmbedding) and not its inputs. */
const nnav_rule *nnav_ms_rule(nnav_span op);

/* ---- dims ---- */
nnav_dim nnav_sd_add(nnav_shapes *S, nnav_dim a, nnav_dim b);
nnav_dim nnav_sd_sub(nnav_shapes *S, nnav_dim a, nnav_dim b);
nnav_dim nnav_sd_mul(nnav_shapes *S, nnav_dim a, nnav_dim b);
nnav_dim nnav_sd_div(nnav_shapes *S, nnav_dim a, nnav_dim b);  /* floor */
nnav_dim nnav_sd_cdiv(nnav_shapes *S, nnav_dim a, nnav_dim b); /* ceiling */
/* The smaller of two sizes, symbolic as "min(seq,512)" when not known. */
nnav_dim nnav_sd_min(nnav_shapes *S, nnav_dim a, nnav_dim b);
/* 1 when a and b are surely the same size, 0 otherwise (unknown counts as not). */
int nnav_sd_same(nnav_dim a, nnav_dim b);
/* The sign of a dim, where it is sure: 1 when >= 0 (a size, or a named
 * dim times a positive number plus a non-negative one), -1 when <= 0
 * ("-N", a negative number), 0 when not known. */
int nnav_sd_sign(const nnav_shapes *S, nnav_dim d);
/* Numpy broadcasting of one axis; -1 (with *bad set) when two sizes clash. */
nnav_dim nnav_sd_broadcast(nnav_shapes *S, nnav_dim a, nnav_dim b, int *bad);

/* ---- inputs ---- */
uint32_t nnav_ix_nin(const nnav_ictx *ix);
uint32_t nnav_ix_nout(const nnav_ictx *ix);
/* The fact of input i; NULL when the input is absent or omitted (""). */
const nnav_fact *nnav_ix_in(const nnav_ictx *ix, uint32_t i);
int nnav_ix_present(const nnav_ictx *ix, uint32_t i);
int32_t nnav_ix_rank(const nnav_ictx *ix, uint32_t i);   /* -1 unknown */
int32_t nnav_ix_dtype(const nnav_ictx *ix, uint32_t i);  /* 0 unknown */
const nnav_dim *nnav_ix_dims(const nnav_ictx *ix, uint32_t i); /* NULL if rank unknown */
/* Folded integer value of input i: count, or -1 when not known. */
int nnav_ix_fold(const nnav_ictx *ix, uint32_t i, const nnav_dim **vals);
/* Same, but every element must be a known number: count or -1. */
int nnav_ix_ints(const nnav_ictx *ix, uint32_t i, int64_t *buf, size_t max);
/* Constant floating values of input i (an initializer or a Constant node's
 * tensor, at most max elements): count or -1. */
int nnav_ix_floats(const nnav_ictx *ix, uint32_t i, double *buf, size_t max);

/* ---- attributes ---- */
uint32_t nnav_ix_attr(const nnav_ictx *ix, const char *name); /* attr id or NNAV_NONE */
int64_t nnav_ix_attr_i(const nnav_ictx *ix, const char *name, int64_t dflt);
/* Count, or -1 when absent (or refers to a caller's attribute). */
int nnav_ix_attr_ints(const nnav_ictx *ix, const char *name, int64_t *buf, size_t max);
int nnav_ix_attr_floats(const nnav_ictx *ix, const char *name, double *buf, size_t max);
int nnav_ix_attr_s(const nnav_ictx *ix, const char *name, const char *eq); /* string equals */
int nnav_ix_attr_has(const nnav_ictx *ix, const char *name);
/* The opset version of the node's domain in its model or function, or 0. */
int64_t nnav_ix_opset(const nnav_ictx *ix);

/* ---- outputs ---- */
void nnav_ix_out(nnav_ictx *ix, uint32_t o, int32_t dtype, int32_t rank, const nnav_dim *dims);
void nnav_ix_out_same(nnav_ictx *ix, uint32_t o, uint32_t i); /* copy input i's fact */
void nnav_ix_out_fold(nnav_ictx *ix, uint32_t o, int32_t dtype, int scalar, const nnav_dim *v,
                      size_t n);
/* Sequences: output o is a sequence of elements like `elem` (NULL: none
 * yet, of element type dtype); nnav_ix_seq() reads input i's element fact
 * into *elem and returns 1 for a sequence (2: no element yet), 0 if not one. */
void nnav_ix_out_seq(nnav_ictx *ix, uint32_t o, const nnav_fact *elem, int32_t dtype);
int nnav_ix_seq(const nnav_ictx *ix, uint32_t i, nnav_fact *elem);
int nnav_ix_fail(nnav_ictx *ix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* nnav_ix_fail for inputs whose known facts contradict the operator (not
 * facts that are missing): the node is rejected as onnx's shape inference
 * rejects it. Its outputs read DISAGREE with this reason, and `check` makes
 * it a finding (nnav_shapes_conflict). Names in the reason must be escaped. */
int nnav_ix_conflict(nnav_ictx *ix, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- bodies ---- */
/* Infer the graph held by attribute `name` (list index k for GRAPHS), its
 * inputs seeded from `in` (n facts, NULL entries unknown). Returns the graph
 * id or NNAV_NONE. Its outputs' facts: nnav_ix_body_out(). */
uint32_t nnav_ix_body(nnav_ictx *ix, const char *name, const nnav_fact *const *in, size_t n);
const nnav_fact *nnav_ix_body_out(const nnav_ictx *ix, uint32_t graph, uint32_t k,
                                  uint32_t *count);
/* Infer graph (a function body) with its inputs seeded from seed (n
 * facts, NULL entries unknown), memoised per distinct seeds: its outputs'
 * facts (count in *nout; valid until the next call), or NULL with the
 * reason set as by nnav_ix_fail. */
const nnav_fact *nnav_ix_call(nnav_ictx *ix, uint32_t graph, const nnav_fact *const *seed,
                              size_t n, uint32_t *nout);
/* A fact built by a rule (for seeding bodies). */
nnav_fact nnav_ix_make(nnav_ictx *ix, int32_t dtype, int32_t rank, const nnav_dim *dims);

#endif
