/* opset_rules.h - what the typed view knows of one format's operators, in
 * one table per format (rules_onnx.c, rules_tf.c), chosen once from the
 * model's public format (nnav_model_facts_get). The typed view and export
 * ask this table, never the reader that indexed the model: a format's op
 * names, how its ops with bodies run, its shape rules and cost classes
 * live in its rules file and nowhere else. */
#ifndef NNAV_OPSET_RULES_H
#define NNAV_OPSET_RULES_H

#include <stdint.h>

#include "nnav.h"

struct nnav_ictx; /* shape_int.h */

/* How an op with bodies runs them (whole-model cost, wcost.c). */
typedef enum nnav_body_kind {
    NNAV_BODY_OTHER = 0, /* each body once: a call, an op of another domain */
    NNAV_BODY_IF,        /* then_branch or else_branch: the dearer counts */
    NNAV_BODY_LOOP,      /* body x trip count (input 0), ONNX Loop */
    NNAV_BODY_SCAN,      /* body x scanned length, ONNX Scan */
    NNAV_BODY_EACH,      /* body per iteration, the count not known */
} nnav_body_kind;

/* Classes of the per-node cost (shape.c, cost_node): how a node's MACs and
 * FLOPs follow from its facts. */
enum { COST_ELEM = 0, COST_NONE, COST_CONV, COST_CONVT, COST_QCONV, COST_MATMUL, COST_GEMM,
       COST_RNN, COST_GRU, COST_LSTM, /* ONNX recurrent ops: 1, 3, 4 gates */
       COST_TF_CONV, COST_TF_DWCONV, COST_TF_MATMUL, COST_TF_BMM, COST_TF_BN, COST_TF_BIAS,
       /* attention: ONNX's Attention (23), ONNX Runtime's MultiHeadAttention,
        * GroupQueryAttention, Attention and QAttention (with their QKV
        * projection) */
       COST_ATTN, COST_MHA, COST_GQA, COST_MS_ATTN,
       /* ONNX Runtime's matrix products: FusedMatMul (transposes), MatMulNBits
        * (K and N from its attributes), QMoE (k experts per token) */
       COST_FUSED_MATMUL, COST_NBITS, COST_QMOE };

/* The part a stored weight plays where a node reads it (scope.h): a
 * parameter the framework learns, a buffer it keeps beside them (running
 * statistics), or a constant that is neither (an RNN's initial state, the
 * scales of a Resize). */
enum { NNAV_WROLE_PARAM = 0, NNAV_WROLE_BUFFER, NNAV_WROLE_CONST,
       /* Input 0 only: the node passes it on, in another type, shape or
        * order, as its first output (Identity, Cast, Reshape, Expand...):
        * what it is comes from that output's readers. */
       NNAV_WROLE_PASS };

typedef struct nnav_opset_rules {
    const char *constant_op; /* holds its tensor in attribute "value" */
    const char *identity_op; /* forwards its one input under a new name */
    const char *noop_op;     /* orders, computes nothing; NULL: the format has none */
    /* A constant's tensor is indexed as an initializer too (named by its
     * attribute): its node's output counts, the tensor once. */
    int const_as_initializer;
    char control_mark;   /* first byte of a control output's name; 0: none */
    int node_scope_meta; /* nodes may carry scope metadata (name_scopes) */
    /* Node n is the format's op `op` (in the default domain, where the
     * format has domains). */
    int (*is_op)(const nnav_model *m, uint32_t n, const char *op);
    nnav_body_kind (*body_kind)(nnav_span op);
    /* A node's shape rule; NULL: the ONNX-domain rules by op type
     * (shape_ops*.c), looked up by the engine. */
    int (*rule)(struct nnav_ictx *ix);
    uint8_t (*cost_class)(nnav_span op); /* a COST_* */
    /* The NNAV_WROLE_* of what node n reads at input `slot`. */
    uint8_t (*input_role)(const nnav_model *m, uint32_t n, uint32_t slot);
    /* Node n of graph g holds a normalisation the exporter folded into it
     * (a Conv whose weights the exporter computed); `kept` says whether
     * graph g names its other weights by module path, the sign that the
     * exporter kept what it did not fold. NULL: the format's exporters
     * leave no such sign. */
    int (*folded_norm)(const nnav_model *m, uint32_t n, int kept);
    /* The parameters node n's input `slot` stands for when that is not the
     * elements stored (a packed quantised weight: its logical K x N); 0
     * when they are the stored ones. NULL: always. */
    uint64_t (*logical_elems)(const nnav_model *m, uint32_t n, uint32_t slot);
    int (*names_kept)(const nnav_model *m, uint32_t g);
} nnav_opset_rules;

extern const nnav_opset_rules nnav_rules_onnx, nnav_rules_tf;

/* The table of m's format. Inline: the typed view asks it per node. */
static inline const nnav_opset_rules *nnav_opset_rules_of(const nnav_model *m)
{
    return nnav_model_facts_get(m)->op_family == NNAV_OPS_TENSORFLOW ? &nnav_rules_tf
                                                                     : &nnav_rules_onnx;
}

/* Node n is the format's op `op` (NULL: the format has none). The op name
 * is compared here first, so the table's is_op (which also checks the
 * domain) is called only for nodes that may match. */
static inline int nnav_opset_is(const nnav_opset_rules *R, const nnav_model *m, uint32_t n,
                                nnav_span node_op, const char *op)
{
    return op && nnav_span_eqs(node_op, op) && R->is_op(m, n, op);
}

/* The cost class of an ONNX op (also that of ops other formats share). */
uint8_t nnav_onnx_cost_class(nnav_span op);
/* The cost class of a com.microsoft op (ONNX Runtime's contrib ops). */
uint8_t nnav_ms_cost_class(nnav_span op);

#endif
