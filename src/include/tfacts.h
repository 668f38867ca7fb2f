/* tfacts.h - what one initializer is, as every face shows it.
 *
 * `nnav tensors` and the explorer's initializer and detail panes describe a
 * tensor by the same facts: element type, shape, storage, bytes and the graph
 * value whose consumers use it. They differ for a sparse initializer, whose
 * values tensor is not the tensor the graph sees: its shape is the declared
 * dense dims (not the values' [NNZ]), its storage is "sparse (N values)", its
 * bytes are values plus indices, and its consumers are the sparse value's.
 * Each face gets these facts here and nowhere else, so they cannot disagree.
 * A weight held by a Constant node (TensorFlow: Const) is a parameter like
 * an initializer (scope.h's rule, nnav_constant_weight): its holder is that
 * node, its storage says "Constant, raw", and nnav_tfacts_constant_weights()
 * lists a graph's such weights for the faces that list initializers.
 *
 * Calling rules: `t` is a tensor id < nnav_tensor_count(m). Nothing is read
 * from the payload or from external data; bytes of external data are as
 * nnav_tensors_measure() left them (call it first where sizes matter). The
 * dims pointer aliases the model and lives as long as it.
 */
#ifndef NNAV_TFACTS_H
#define NNAV_TFACTS_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

typedef struct nnav_tfacts {
    uint32_t tensor;      /* the tensor asked about */
    uint32_t sparse;      /* the sparse initializer whose values it holds, else NNAV_NONE */
    uint32_t value;       /* the graph value it defines (its consumers), else NNAV_NONE */
    uint32_t holder;      /* the Constant (TensorFlow: Const) node whose value
                             attribute holds it, else NNAV_NONE */
    int32_t dtype;        /* ONNX TensorProto.DataType value */
    const char *stype;    /* its storage type's name when dtype does not say it (nnav_tensor.stype) */
    uint32_t ndims;
    const int64_t *dims;  /* the shape the graph sees: a sparse one's dense dims */
    uint64_t nelems;      /* product of dims; UINT64_MAX when malformed */
    uint64_t stored;      /* elements stored: nelems, or a sparse one's values
                             (UINT64_MAX when malformed) */
    uint64_t bytes;       /* dims x dtype, or the stored bytes when that is
                             unknown; a sparse one: values plus indices.
                             UINT64_MAX when unknown or overflowing */
} nnav_tfacts;

/* Fills *f for tensor t. */
void nnav_tfacts_get(const nnav_model *m, uint32_t t, nnav_tfacts *f);
/* "float32[3,4]": the element type and the shape the graph sees. */
void nnav_tfacts_shape(const nnav_tfacts *f, char *buf, size_t n);
/* "raw", "typed", "external FILE @OFFSET +LENGTH", TensorFlow's field, or
 * "sparse (3 values)"; sanitised. */
void nnav_tfacts_storage(const nnav_model *m, const nnav_tfacts *f, char *buf, size_t n);
/* The node that reads it first (its value's first consumer), NNAV_NONE when
 * none does (a graph output, an unused one, a Constant's: its node names it).
 * Its name is where the tensor is used: "/encoder/layer.0/attention/MatMul". */
uint32_t nnav_tfacts_consumer(const nnav_model *m, const nnav_tfacts *f);
/* Whether the tensor's name says no scope of its own where its consumer's
 * does: no '/' or '.' in it ("onnx::MatMul_3182", an exporter's made-up name)
 * and one in the consumer's. The faces then show it with the consumer's
 * name, which says where it belongs. */
int nnav_tfacts_unscoped(const nnav_model *m, const nnav_tfacts *f, uint32_t consumer);
/* The weights graph `graph`'s Constant (TensorFlow: Const) nodes hold, by
 * nnav_constant_weight (scope.h), that are not among the graph's initializers
 * already (TensorFlow indexes a Const's value as one): their tensor ids in
 * node order into out (room for the graph's node count; NULL only counts).
 * Returns how many; *elems (may be NULL) gets their elements, saturating. */
uint32_t nnav_tfacts_constant_weights(const nnav_model *m, uint32_t graph, uint32_t *out,
                                      uint64_t *elems);

#endif
