/* dims.h - what is wrong with a tensor's dims, in words: a negative
 * dimension, a product of dims that overflows, or no shape at all, instead
 * of the one flag (NNAV_TW_BAD_DIMS) the index keeps. */
#ifndef NNAV_DIMS_H
#define NNAV_DIMS_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

/* 0 when tensor t's dims are sound (buf gets ""). 1 when they are not, with
 * the reason in buf (NUL-terminated, cut to n): "negative dimension -5 at dims[0]",
 * "dims overflow: their product passes 2^64 elements at dims[2]", "dims
 * overflow: N elements of float32 take 2^64 bytes or more", or, for a
 * tensor flagged NNAV_TW_BAD_DIMS for no reason in its dims, "the shape is
 * not known (its rank is unknown)". */
int nnav_tensor_dims_problem(const nnav_model *m, uint32_t t, char *buf, size_t n);

#endif
