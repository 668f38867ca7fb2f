/* typeproto.h - ONNX TypeProto bytes to an nnav_type (nnav.h).
 *
 * The ONNX reader keeps the file's TypeProto bytes as its type encoding, and
 * the TensorFlow reader writes small TypeProto messages (dtype + shape) of
 * its own; both decode them here, for the index (reader.h's `type`). Read
 * with the project's wire reader, bounded: a message nested deeper than the
 * bound gives NNAV_TYPE_DEEP and bytes that do not read NNAV_TYPE_BROKEN,
 * never deeper recursion. */
#ifndef NNAV_TYPEPROTO_H
#define NNAV_TYPEPROTO_H

#include "nnav.h"

/* Decode the TypeProto `type` into *t, keeping the axes from `first` on;
 * nnav_type_axes()'s contract and result (m is not used: it may be NULL).
 * The reading is protobuf-c's, which gave a type's text before (typeproto.c
 * says it field by field); where protobuf-c would refuse the bytes though
 * they read (a known field of the wrong wire type, say), status is
 * MALFORMED and the rest is read. */
int nnav_typeproto_decode(const nnav_model *m, nnav_span type, uint64_t first, nnav_type *t);

#endif
