/* dims.c - the reason a tensor's dims are malformed (see dims.h). */
#include "dims.h"

#include <stdio.h>

#include "dtype.h"

int nnav_tensor_dims_problem(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    const int64_t *d = nnav_dims(m, tt->dims_first);
    if (n)
        buf[0] = 0;
    uint64_t ne = 1;
    int over = -1;
    for (uint32_t i = 0; i < tt->ndims; i++) {
        if (d[i] < 0) {
            snprintf(buf, n, "negative dimension %lld at dims[%u]", (long long)d[i], i);
            return 1;
        }
        if (over < 0 && __builtin_mul_overflow(ne, (uint64_t)d[i], &ne))
            over = (int)i;
    }
    if (over >= 0) {
        snprintf(buf, n, "dims overflow: their product passes 2^64 elements at dims[%d]", over);
        return 1;
    }
    uint64_t bytes;
    if (tt->dtype != NNAV_DT_STRING && nnav_dtype_bits(tt->dtype) &&
        nnav_dtype_raw_bytes(tt->dtype, ne, &bytes) != 0) {
        snprintf(buf, n, "dims overflow: %llu elements of %s take 2^64 bytes or more",
                 (unsigned long long)ne, nnav_dtype_name(tt->dtype));
        return 1;
    }
    if (tt->warn & NNAV_TW_BAD_DIMS) {
        snprintf(buf, n, "the shape is not known (its rank is unknown)");
        return 1;
    }
    return 0;
}
