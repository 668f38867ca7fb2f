/* tensor_check.c - a tensor's element and byte counts from its dims and
 * dtype, with the same warnings whatever the format read it. */
#include "dtype.h"
#include "model.h"

void nnav_tensor_sizes(const nnav_model *m, nnav_tensor *t, uint64_t string_bytes)
{
    uint64_t ne = 1;
    for (uint32_t i = 0; i < t->ndims; i++) {
        int64_t d = m->dims.v[t->dims_first + i];
        if (d < 0 || __builtin_mul_overflow(ne, (uint64_t)d, &ne)) {
            t->warn |= NNAV_TW_BAD_DIMS;
            ne = UINT64_MAX;
            break;
        }
    }
    t->nelems = ne;
    if (!nnav_dtype_valid(t->dtype))
        t->warn |= NNAV_TW_BAD_DTYPE;
    t->nbytes = UINT64_MAX;
    if (t->dtype == NNAV_DT_STRING)
        t->nbytes = string_bytes;
    else if (ne != UINT64_MAX && nnav_dtype_raw_bytes(t->dtype, ne, &t->nbytes) != 0) {
        t->nbytes = UINT64_MAX;
        /* A count that fits but whose bytes do not (float32[2^62]): the dims
         * are as impossible as an overflowing product, and say so. */
        if (nnav_dtype_bits(t->dtype))
            t->warn |= NNAV_TW_BAD_DIMS;
    }
}
