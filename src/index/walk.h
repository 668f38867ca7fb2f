/* walk.h - what every reader (onnx.c, tf.c) does while walking its messages:
 * build the error's field path, keep unknown fields, name the field a wire
 * error happened in. One copy, so the ONNX and TensorFlow readers report
 * faults the same way. */
#ifndef NNAV_WALK_H
#define NNAV_WALK_H

#include <protobuf-c/protobuf-c.h>

#include "model.h"
#include "wire.h"

/* Put "comp." in front of the error's field path ("comp" alone when the
 * path starts with an index); keeps the head of an over-long path. -1. */
int nnav_err_prepend(nnav_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int nnav_err_oom(nnav_error *err);
/* The field has wire type wt, or err says which it has. 0 or -1. */
int nnav_walk_expect(nnav_error *err, const nnav_field *f, uint8_t wt, const char *name);
/* Keep a field the schema does not know: shown by its number, never dropped. */
int nnav_walk_unknown(nnav_model *m, nnav_error *err, const nnav_field *f, const char *where,
                      uint32_t owner);
/* A reader over span s of m's map, whose errors at the map's end say "file". */
void nnav_walk_init(const nnav_model *m, nnav_wire *r, nnav_span s);
/* After a wire error in a message of type d: name the field being read. -1. */
int nnav_walk_fail(nnav_error *err, const nnav_wire *r, const ProtobufCMessageDescriptor *d);

/* Filling a caller's list from repeated or packed scalars (attribute ints and
 * floats, in ONNX and TensorFlow alike): up to max values kept, all counted. */
typedef struct nnav_list_fill {
    int64_t *ints;
    double *dbls;
    nnav_span *spans;
    size_t max, total;
    int is_float; /* values are float32 bit patterns */
} nnav_list_fill;
/* An nnav_scalar_fn for nnav_wire_scalars; ctx is an nnav_list_fill. */
int nnav_list_put(void *ctx, uint64_t v);

#endif
