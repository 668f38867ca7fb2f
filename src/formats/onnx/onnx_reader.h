/* onnx_reader.h - the ONNX reader's private pieces, shared by onnx.c
 * (ModelProto -> index, at open) and onnx_values.c (attributes and tensor
 * values, on demand). The rest of the core knows the reader only as
 * nnav_reader_onnx (readers.h); these implement its operations (reader.h
 * gives each one's contract). */
#ifndef NNAV_ONNX_READER_H
#define NNAV_ONNX_READER_H

#include "model.h"

int nnav_onnx_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err);
/* The domain a NodeProto names (the last one written, as protobuf reads it). */
nnav_span nnav_onnx_node_domain(const nnav_model *m, uint32_t node);

int nnav_onnx_attr_scalar(const nnav_model *m, uint32_t a, int kind, nnav_field *out,
                          nnav_error *err);
int nnav_onnx_attr_list(const nnav_model *m, uint32_t a, int kind, int64_t *ints, double *dbls,
                        nnav_span *spans, size_t max, size_t *total, nnav_error *err);
int nnav_onnx_attr_types(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                         size_t *total, nnav_error *err);
int nnav_onnx_attr_sparse(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                          size_t *ndims, nnav_span *values, nnav_span *indices, size_t *total,
                          nnav_error *err);
int nnav_onnx_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                            nnav_values *out, nnav_error *err);
int nnav_onnx_part_values(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
                          size_t max, size_t *ndims, size_t want, nnav_values *out,
                          nnav_error *err);
int nnav_onnx_typed_ints(const nnav_model *m, uint32_t t, int (*fn)(void *ctx, uint64_t v),
                         void *ctx, nnav_error *err);

#endif
