/* values_acc.h - the tensor value accumulator every reader's decoder feeds:
 * the first `want` values into out (v, and i exactly for integer types),
 * and with stats the count, NaNs, min, max and mean of the rest.
 *
 * Calling rules: start with nnav_acc_init (it resets out), put each element
 * in order (nnav_acc_put for a floating value, nnav_acc_put_int for an
 * integer element exactly, nnav_acc_put_num for a double that holds an
 * integer type's value; nnav_acc_repeat for a value repeated, in O(1) past
 * the values kept), stop once nnav_acc_done, end with nnav_acc_end.
 * Elements past `limit` are ignored: a file may store more than its dims
 * call for. The puts are inline: they run once an element. */
#ifndef NNAV_VALUES_ACC_H
#define NNAV_VALUES_ACC_H

#include <math.h>
#include <string.h>

#include "nnav.h"

typedef struct nnav_acc {
    nnav_values *out;
    size_t want;
    int stats;
    uint64_t limit; /* components dims x dtype call for: stored extras are not values */
    uint64_t seen;
    double sum;
    uint64_t finite;
    __int128 isum;  /* integer types: the exact sum, for the mean */
    long double ibig; /* what isum could not hold (a repeat of billions) */
} nnav_acc;

static inline void nnav_acc_put(nnav_acc *a, double v)
{
    if (a->seen >= a->limit)
        return;
    if (a->out->count < a->want && a->out->v)
        a->out->v[a->out->count++] = v;
    a->seen++;
    if (!a->stats)
        return;
    if (isnan(v)) {
        a->out->nan_count++;
        return;
    }
    if (a->finite == 0 || v < a->out->min)
        a->out->min = v;
    if (a->finite == 0 || v > a->out->max)
        a->out->max = v;
    a->sum += v;
    a->finite++;
}

/* An element of an integer type, exactly: the bits of a uint64 when
 * out->is_unsigned, else the number. v and min/max get it as a double too. */
static inline void nnav_acc_put_int(nnav_acc *a, int64_t v)
{
    nnav_values *o = a->out;
    int u = o->is_unsigned;
    double d = u ? (double)(uint64_t)v : (double)v;
    if (a->seen >= a->limit)
        return;
    if (o->count < a->want) {
        if (o->i)
            o->i[o->count] = v;
        if (o->v)
            o->v[o->count] = d;
        o->count++;
    }
    a->seen++;
    if (!a->stats)
        return;
    if (a->finite == 0 || (u ? (uint64_t)v < (uint64_t)o->imin : v < o->imin))
        o->imin = v, o->min = d;
    if (a->finite == 0 || (u ? (uint64_t)v > (uint64_t)o->imax : v > o->imax))
        o->imax = v, o->max = d;
    a->isum += u ? (__int128)(uint64_t)v : (__int128)v;
    a->finite++;
}

static inline int nnav_dtype_is_int(int32_t dt)
{
    switch (dt) {
    case NNAV_DT_UINT8: case NNAV_DT_INT8: case NNAV_DT_UINT16: case NNAV_DT_INT16:
    case NNAV_DT_INT32: case NNAV_DT_INT64: case NNAV_DT_BOOL: case NNAV_DT_UINT32:
    case NNAV_DT_UINT64: case NNAV_DT_UINT4: case NNAV_DT_INT4: case NNAV_DT_UINT2:
    case NNAV_DT_INT2:
        return 1;
    }
    return 0;
}

/* A value decoded as a double: exact for every integer type narrower than
 * 64 bits, so it goes to the integer side as it is. */
static inline void nnav_acc_put_num(nnav_acc *a, double v)
{
    if (a->out->is_int && !isnan(v))
        nnav_acc_put_int(a, (int64_t)v);
    else
        nnav_acc_put(a, v);
}

static inline int nnav_acc_done(const nnav_acc *a)
{
    return a->seen >= a->limit || (!a->stats && a->out->count >= a->want);
}


/* out reset for a tensor of dtype and element count nelems (UINT64_MAX:
 * unknown); a counts the components dims x dtype call for. */
static inline void nnav_acc_init(nnav_acc *a, nnav_values *out, int32_t dtype, uint64_t nelems,
                                 size_t want, int stats, unsigned comps)
{
    out->count = 0;
    out->has_stats = 0;
    out->min = out->max = out->mean = 0;
    out->nan_count = 0;
    out->total = nelems == UINT64_MAX ? 0 : nelems;
    out->is_int = nnav_dtype_is_int(dtype);
    out->is_unsigned = dtype == NNAV_DT_UINT64;
    out->imin = out->imax = 0;
    out->stats_refused = 0;
    *a = (nnav_acc){.out = out,
                    .want = want,
                    .stats = stats && dtype != NNAV_DT_STRING,
                    .limit = nelems == UINT64_MAX ? 0 : nelems * comps};
}

/* The statistics into out, once every element is in. */
static inline void nnav_acc_end(const nnav_acc *a)
{
    nnav_values *out = a->out;
    if (!a->stats)
        return;
    out->has_stats = a->finite > 0;
    out->mean = a->finite ? a->sum / (double)a->finite : 0;
    if (out->is_int && a->finite) /* the exact sum, rounded once more */
        out->mean = (double)(((long double)a->isum + a->ibig) / (long double)a->finite);
}

/* `times` more elements of one value, as nnav_acc_put (exact 0) or
 * nnav_acc_put_int (exact 1, iv its bits) would take them one by one: those
 * still to be kept one by one, the rest counted at once. A repeat is how a
 * TensorFlow TensorProto shorter than its element count reads (its last value
 * fills the rest), so a splat of a billion costs what one of four does. */
static inline void nnav_acc_repeat(nnav_acc *a, double v, int64_t iv, int exact, uint64_t times)
{
    nnav_values *o = a->out;
    while (times && a->seen < a->limit && o->count < a->want && o->v) {
        if (exact)
            nnav_acc_put_int(a, iv);
        else
            nnav_acc_put(a, v);
        times--;
    }
    if (times > a->limit - a->seen)
        times = a->limit - a->seen;
    if (!times)
        return;
    a->seen += times;
    if (!a->stats)
        return;
    if (exact) {
        int u = o->is_unsigned;
        double d = u ? (double)(uint64_t)iv : (double)iv;
        if (a->finite == 0 || (u ? (uint64_t)iv < (uint64_t)o->imin : iv < o->imin))
            o->imin = iv, o->min = d;
        if (a->finite == 0 || (u ? (uint64_t)iv > (uint64_t)o->imax : iv > o->imax))
            o->imax = iv, o->max = d;
        __int128 x = u ? (__int128)(uint64_t)iv : (__int128)iv, prod, sum;
        if (__builtin_mul_overflow(x, (__int128)times, &prod) ||
            __builtin_add_overflow(a->isum, prod, &sum))
            a->ibig += (long double)x * (long double)times;
        else
            a->isum = sum;
        a->finite += times;
        return;
    }
    if (isnan(v)) {
        o->nan_count += times;
        return;
    }
    if (a->finite == 0 || v < o->min)
        o->min = v;
    if (a->finite == 0 || v > o->max)
        o->max = v;
    a->sum += v * (double)times;
    a->finite += times;
}

/* Little-endian raw bytes (raw_data, an external file, a checkpoint shard)
 * of tensor t's dtype, up to its element count or the end of data. */
int nnav_acc_raw(const nnav_tensor *t, nnav_span data, nnav_acc *a);

#endif
