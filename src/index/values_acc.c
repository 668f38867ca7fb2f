/* values_acc.c - decoding raw little-endian tensor bytes into the value
 * accumulator (values_acc.h), whatever format stored them. */
#include "dtype.h"
#include "values_acc.h"

int nnav_acc_raw(const nnav_tensor *t, nnav_span data, nnav_acc *a)
{
    unsigned comps = nnav_dtype_components(t->dtype);
    uint64_t n = t->nelems == UINT64_MAX ? 0 : t->nelems * comps;
    int wide = t->dtype == NNAV_DT_INT64 || t->dtype == NNAV_DT_UINT64;
    for (uint64_t i = 0; i < n && !nnav_acc_done(a); i++) {
        if (wide) { /* 64-bit integers exactly, never through a double */
            if (i >= data.n / 8)
                break;
            uint64_t u = 0;
            for (unsigned k = 8; k-- > 0;)
                u = u << 8 | data.p[i * 8 + k];
            nnav_acc_put_int(a, (int64_t)u);
            continue;
        }
        double v;
        if (nnav_dtype_decode_raw(t->dtype, data.p, data.n, i, &v) != 0)
            break; /* stored bytes end early: the size warning already says so */
        nnav_acc_put_num(a, v);
    }
    return 0;
}

