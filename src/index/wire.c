#include "wire.h"

#include <stdio.h>
#include <string.h>

void nnav_wire_init(nnav_wire *w, const uint8_t *base, nnav_span s)
{
    w->p = s.p;
    w->end = s.p ? s.p + s.n : NULL;
    w->base = base;
    w->file_end = NULL;
    w->num = 0;
}

static const char *end_word(const nnav_wire *w)
{
    return w->file_end && w->end == w->file_end ? "the file" : "its message";
}

int nnav_wire_varint(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int i = 0; i < 10; i++) {
        if (p >= end)
            return -1;
        uint8_t b = *p++;
        /* The tenth byte may only carry the top bit of a 64-bit value. */
        if (i == 9 && b > 1)
            return -2;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            *pp = p;
            *out = v;
            return 0;
        }
    }
    return -2;
}

static int fail(nnav_error *err, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#include <stdarg.h>
static int fail(nnav_error *err, uint64_t off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->offset = off;
    err->has_offset = 1;
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

int nnav_wire_next(nnav_wire *w, nnav_field *f, nnav_error *err)
{
    w->num = 0;
    if (w->p >= w->end)
        return 0;
    uint64_t off = (uint64_t)(w->p - w->base);
    const uint8_t *p = w->p;
    uint64_t tag;
    int r = nnav_wire_varint(&p, w->end, &tag);
    if (r == -1)
        return fail(err, off, "field tag cut short by the end of %s", end_word(w));
    if (r == -2)
        return fail(err, off, "field tag is a varint longer than 10 bytes");
    uint64_t num = tag >> 3;
    f->wt = (uint8_t)(tag & 7);
    f->off = off;
    if (num == 0)
        return fail(err, off, "field number 0 is not valid");
    if (num > 536870911u)
        return fail(err, off, "field number %llu is out of range", (unsigned long long)num);
    f->num = (uint32_t)num;
    w->num = f->num;
    const uint8_t *vstart = p;
    switch (f->wt) {
    case NNAV_WT_VARINT:
        r = nnav_wire_varint(&p, w->end, &f->v);
        if (r == -1)
            return fail(err, (uint64_t)(vstart - w->base),
                        "varint of field %u cut short by the end of %s", f->num, end_word(w));
        if (r == -2)
            return fail(err, (uint64_t)(vstart - w->base),
                        "varint of field %u is longer than 10 bytes", f->num);
        break;
    case NNAV_WT_I64:
    case NNAV_WT_I32: {
        unsigned sz = f->wt == NNAV_WT_I64 ? 8 : 4;
        if ((uint64_t)(w->end - p) < sz)
            return fail(err, (uint64_t)(vstart - w->base),
                        "%u-byte value of field %u runs past the end of %s", sz, f->num,
                        end_word(w));
        f->v = 0;
        for (unsigned i = 0; i < sz; i++)
            f->v |= (uint64_t)p[i] << (8 * i);
        p += sz;
        break;
    }
    case NNAV_WT_LEN: {
        uint64_t len;
        r = nnav_wire_varint(&p, w->end, &len);
        if (r == -1)
            return fail(err, (uint64_t)(vstart - w->base),
                        "length of field %u cut short by the end of %s", f->num, end_word(w));
        if (r == -2)
            return fail(err, (uint64_t)(vstart - w->base),
                        "length of field %u is a varint longer than 10 bytes", f->num);
        uint64_t room = (uint64_t)(w->end - p);
        if (len > room)
            return fail(err, (uint64_t)(vstart - w->base),
                        "length %llu (field %u) runs past the end of %s (%llu bytes left, "
                        "ends at offset %llu)",
                        (unsigned long long)len, f->num, end_word(w), (unsigned long long)room,
                        (unsigned long long)(w->end - w->base));
        f->s.p = p;
        f->s.n = len;
        p += len;
        w->p = p;
        return 1;
    }
    case NNAV_WT_SGROUP:
    case NNAV_WT_EGROUP:
        return fail(err, off, "field %u uses group wire type %u, which no model format uses",
                    f->num, f->wt);
    default:
        return fail(err, off, "field %u has invalid wire type %u", f->num, f->wt);
    }
    f->s.p = vstart;
    f->s.n = (uint64_t)(p - vstart);
    w->p = p;
    return 1;
}

int nnav_packed_next(nnav_packed *pk, uint64_t *out)
{
    if (pk->p >= pk->end)
        return 0;
    if (pk->wt == NNAV_WT_VARINT)
        return nnav_wire_varint(&pk->p, pk->end, out) == 0 ? 1 : -1;
    unsigned sz = pk->wt == NNAV_WT_I64 ? 8 : 4;
    if ((uint64_t)(pk->end - pk->p) < sz)
        return -1;
    uint64_t v = 0;
    for (unsigned i = 0; i < sz; i++)
        v |= (uint64_t)pk->p[i] << (8 * i);
    pk->p += sz;
    *out = v;
    return 1;
}

int nnav_wire_scalars(const nnav_field *f, uint8_t elem_wt, nnav_scalar_fn fn, void *ctx,
                      nnav_error *err, const uint8_t *base)
{
    if (f->wt == elem_wt)
        return fn(ctx, f->v);
    if (f->wt != NNAV_WT_LEN)
        return fail(err, f->off, "field %u has wire type %u where %u or a packed list was expected",
                    f->num, f->wt, elem_wt);
    if (elem_wt != NNAV_WT_VARINT) {
        unsigned sz = elem_wt == NNAV_WT_I64 ? 8 : 4;
        if (f->s.n % sz)
            return fail(err, (uint64_t)(f->s.p - base),
                        "packed field %u holds %llu bytes, not a multiple of its %u-byte element",
                        f->num, (unsigned long long)f->s.n, sz);
    }
    nnav_packed pk = {f->s.p, f->s.p + f->s.n, elem_wt};
    uint64_t v;
    int r;
    while ((r = nnav_packed_next(&pk, &v)) == 1)
        if (fn(ctx, v) != 0)
            return -1;
    if (r < 0)
        return fail(err, (uint64_t)(pk.p - base), "packed field %u holds a malformed varint",
                    f->num);
    return 0;
}
