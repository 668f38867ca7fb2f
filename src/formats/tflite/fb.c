/* fb.c - the FlatBuffers reader; see fb.h. */
#include "fb.h"

#include <string.h>

#include "model.h"

#define fb_err nnav_err_at /* bad input at an offset and a field path */

static uint64_t rd(const uint8_t *p, unsigned size)
{
    uint64_t v = 0;
    for (unsigned k = size; k-- > 0;)
        v = v << 8 | p[k];
    return v;
}

/* n bytes at pos lie inside the buffer. */
static int inside(const nnav_fb *b, uint64_t pos, uint64_t n)
{
    return pos <= b->n && n <= b->n - pos;
}

/* The table at pos, checked: aligned, its vtable inside, even, at least
 * the 4 bytes of its sizes, its own size at least its vtable offset. */
/* `at`: where the offset that led to it sits (inside the buffer), which an
 * error names when the table itself is not inside. */
static int table_at(const nnav_fb *b, uint64_t pos, uint64_t at, uint32_t depth, nnav_fbt *out,
                    const char *path, nnav_error *err)
{
    if (depth > NNAV_FB_DEPTH)
        return fb_err(err, at, path, "tables nested more than %d deep", NNAV_FB_DEPTH);
    if (!inside(b, pos, 4))
        return fb_err(err, at, path, "a table at %llu lies past the end of the buffer (%llu "
                                     "bytes)", (unsigned long long)pos, (unsigned long long)b->n);
    if (pos % 4)
        return fb_err(err, pos, path, "a table at %llu is not 4-byte aligned",
                      (unsigned long long)pos);
    int64_t so = (int32_t)(uint32_t)rd(b->p + pos, 4);
    int64_t vt = (int64_t)pos - so;
    if (vt < 0 || (uint64_t)vt > b->n || vt % 2)
        return fb_err(err, pos, path, "the table's vtable offset %lld leads to %lld, %s",
                      (long long)so, (long long)vt,
                      vt % 2 ? "not 2-byte aligned" : "outside the buffer");
    if (!inside(b, (uint64_t)vt, 4))
        return fb_err(err, (uint64_t)vt, path, "the table's vtable at %lld runs past the end of "
                                               "the buffer", (long long)vt);
    uint16_t vs = (uint16_t)rd(b->p + vt, 2), ts = (uint16_t)rd(b->p + vt + 2, 2);
    if (vs < 4 || vs % 2)
        return fb_err(err, (uint64_t)vt, path, "the vtable's size %u is %s", vs,
                      vs < 4 ? "below its own 4 bytes" : "odd");
    if (!inside(b, (uint64_t)vt, vs))
        return fb_err(err, (uint64_t)vt, path, "the vtable's %u bytes run past the end of the "
                                               "buffer", vs);
    if (ts < 4 || !inside(b, pos, ts))
        return fb_err(err, pos, path, "the table's size %u %s", ts,
                      ts < 4 ? "is below its vtable offset's 4 bytes"
                             : "runs past the end of the buffer");
    out->pos = pos;
    out->vt = (uint64_t)vt;
    out->vtsize = vs;
    out->tsize = ts;
    out->depth = depth;
    return 0;
}

int nnav_fb_root(const nnav_fb *b, nnav_fbt *root, char ident[5], nnav_error *err)
{
    if (ident) {
        memset(ident, 0, 5);
        if (b->n >= 8)
            memcpy(ident, b->p + 4, 4);
    }
    if (b->n < 8)
        return fb_err(err, 0, "", "%llu bytes: shorter than a flatbuffer's root offset and one "
                                  "table", (unsigned long long)b->n);
    uint64_t r = rd(b->p, 4);
    if (r == 0)
        return fb_err(err, 0, "", "the root offset is 0");
    return table_at(b, r, 0, 0, root, "", err);
}

/* Field f's offset in the table, 0 when absent. */
static uint16_t field_off(const nnav_fb *b, const nnav_fbt *t, unsigned f)
{
    uint64_t at = 4 + 2 * (uint64_t)f;
    if (at + 2 > t->vtsize)
        return 0;
    return (uint16_t)rd(b->p + t->vt + at, 2);
}

int nnav_fb_has(const nnav_fb *b, const nnav_fbt *t, unsigned f)
{
    return field_off(b, t, f) != 0;
}

/* Where field f's `size` bytes are: 1 absent, 0 with *pos, -1 with err. */
static int field_pos(const nnav_fb *b, const nnav_fbt *t, unsigned f, unsigned size,
                     uint64_t *pos, const char *path, nnav_error *err)
{
    uint16_t o = field_off(b, t, f);
    if (!o)
        return 1;
    if ((uint64_t)o + size > t->tsize)
        return fb_err(err, t->pos, path, "the field's %u bytes at %u pass the table's size "
                                             "%u", size, o, t->tsize);
    *pos = t->pos + o;
    if (*pos % size)
        return fb_err(err, *pos, path, "a %u-byte field at %llu is not aligned to %u", size,
                      (unsigned long long)*pos, size);
    return 0;
}

int nnav_fb_scalar(const nnav_fb *b, const nnav_fbt *t, unsigned f, unsigned size,
                   uint64_t dflt, uint64_t *out, const char *path, nnav_error *err)
{
    uint64_t pos;
    int r = field_pos(b, t, f, size, &pos, path, err);
    *out = r == 0 ? rd(b->p + pos, size) : dflt;
    return r < 0 ? -1 : 0;
}

/* The target of the u32 offset at pos: strictly forward, inside. */
static int follow(const nnav_fb *b, uint64_t pos, uint64_t *to, const char *path,
                  nnav_error *err)
{
    uint64_t o = rd(b->p + pos, 4);
    if (o == 0)
        return fb_err(err, pos, path, "an offset of 0 (it would point at itself)");
    *to = pos + o;
    if (*to >= b->n)
        return fb_err(err, pos, path, "the offset %llu leads to %llu, past the end of the buffer "
                                      "(%llu bytes)", (unsigned long long)o,
                      (unsigned long long)*to, (unsigned long long)b->n);
    return 0;
}

int nnav_fb_table(const nnav_fb *b, const nnav_fbt *t, unsigned f, nnav_fbt *out,
                  const char *path, nnav_error *err)
{
    uint64_t pos, to;
    int r = field_pos(b, t, f, 4, &pos, path, err);
    if (r)
        return r;
    if (follow(b, pos, &to, path, err) < 0)
        return -1;
    return table_at(b, to, pos, t->depth + 1, out, path, err);
}

/* A vector at pos of elem-byte elements. */
static int vector_at(const nnav_fb *b, uint64_t pos, unsigned elem, uint32_t depth,
                     nnav_fbv *out, const char *path, nnav_error *err)
{
    if (pos % 4)
        return fb_err(err, pos, path, "a vector at %llu is not 4-byte aligned",
                      (unsigned long long)pos);
    if (!inside(b, pos, 4))
        return fb_err(err, pos, path, "a vector's length at %llu lies past the end of the "
                                      "buffer", (unsigned long long)pos);
    uint64_t n = rd(b->p + pos, 4);
    if (!inside(b, pos + 4, n * elem)) /* n < 2^32, elem <= 8: no overflow */
        return fb_err(err, pos, path, "a vector of %llu elements of %u bytes runs past the end "
                                      "of the buffer (%llu bytes after its length)",
                      (unsigned long long)n, elem, (unsigned long long)(b->n - pos - 4));
    out->pos = pos + 4;
    out->count = (uint32_t)n;
    out->depth = depth;
    return 0;
}

int nnav_fb_vector(const nnav_fb *b, const nnav_fbt *t, unsigned f, unsigned elem,
                   nnav_fbv *out, const char *path, nnav_error *err)
{
    uint64_t pos, to;
    memset(out, 0, sizeof *out);
    int r = field_pos(b, t, f, 4, &pos, path, err);
    if (r)
        return r;
    if (follow(b, pos, &to, path, err) < 0)
        return -1;
    if (vector_at(b, to, elem, t->depth, out, path, err) < 0)
        return -1;
    if (elem > 1 && out->pos % elem)
        return fb_err(err, out->pos, path, "a vector of %u-byte elements at %llu is not aligned "
                                           "to %u", elem, (unsigned long long)out->pos, elem);
    return 0;
}

/* The string at pos: a byte vector with a NUL after it. */
static int string_at(const nnav_fb *b, uint64_t pos, nnav_span *out, const char *path,
                     nnav_error *err)
{
    nnav_fbv v;
    if (vector_at(b, pos, 1, 0, &v, path, err) < 0)
        return -1;
    if (!inside(b, v.pos, (uint64_t)v.count + 1) || b->p[v.pos + v.count] != 0)
        return fb_err(err, pos, path, "a string of %u bytes has no NUL after it", v.count);
    *out = (nnav_span){b->p + v.pos, v.count};
    return 0;
}

int nnav_fb_string(const nnav_fb *b, const nnav_fbt *t, unsigned f, nnav_span *out,
                   const char *path, nnav_error *err)
{
    uint64_t pos, to;
    *out = (nnav_span){(const uint8_t *)"", 0};
    int r = field_pos(b, t, f, 4, &pos, path, err);
    if (r)
        return r;
    if (follow(b, pos, &to, path, err) < 0)
        return -1;
    return string_at(b, to, out, path, err);
}

int nnav_fb_vec_table(const nnav_fb *b, const nnav_fbv *v, uint32_t i, nnav_fbt *out,
                      const char *path, nnav_error *err)
{
    uint64_t to, pos = v->pos + 4 * (uint64_t)i;
    if (i >= v->count)
        return fb_err(err, v->pos - 4, path, "element %u of a vector of %u", i, v->count);
    if (follow(b, pos, &to, path, err) < 0)
        return -1;
    return table_at(b, to, pos, v->depth + 1, out, path, err);
}

int nnav_fb_vec_string(const nnav_fb *b, const nnav_fbv *v, uint32_t i, nnav_span *out,
                       const char *path, nnav_error *err)
{
    uint64_t to, pos = v->pos + 4 * (uint64_t)i;
    if (i >= v->count)
        return fb_err(err, v->pos - 4, path, "element %u of a vector of %u", i, v->count);
    if (follow(b, pos, &to, path, err) < 0)
        return -1;
    return string_at(b, to, out, path, err);
}

uint64_t nnav_fb_vec_scalar(const nnav_fb *b, const nnav_fbv *v, uint32_t i, unsigned elem)
{
    return i < v->count ? rd(b->p + v->pos + (uint64_t)i * elem, elem) : 0;
}
