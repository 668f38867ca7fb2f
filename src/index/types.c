/* types.c - the index's types, whatever the format: each reader keeps a
 * type in its own encoding (nnav_vinfo.type) and decodes it into an
 * nnav_type (reader.h's `type`); this file asks it and renders the result. */
#include <string.h>

#include "dtype.h"
#include "model.h"
#include "sbuf.h"

int nnav_type_axes(const nnav_model *m, nnav_span type, uint64_t first, nnav_type *t)
{
    if (!type.p || !m->reader->type) {
        t->status = NNAV_TYPE_OK;
        t->leaf = NNAV_TYPE_ABSENT;
        t->nest = 0;
        t->elem = 0;
        t->rank = -1;
        t->axis0 = first;
        t->domain = t->name = (nnav_span){0};
        return 0;
    }
    return m->reader->type(m, type, first, t);
}

int nnav_type_decode(const nnav_model *m, nnav_span type, nnav_type *t)
{
    return nnav_type_axes(m, type, 0, t);
}

/* A name as protobuf-c gave it to the text before: up to its first NUL. */
static void put_name(nnav_sbuf *b, nnav_span s)
{
    const uint8_t *z = s.p ? memchr(s.p, 0, (size_t)s.n) : NULL;
    nnav_sb_span(b, (nnav_span){s.p, z ? (uint64_t)(z - s.p) : s.n});
}

/* Where the axes past t's window come from: the model and the encoded type
 * (nnav_type_format), or nowhere (nnav_type_text: ",..."). */
typedef struct more_axes {
    const nnav_model *m;
    nnav_span type;
} more_axes;

static void axes_text(nnav_sbuf *b, const nnav_type *t, const more_axes *more)
{
    nnav_type w; /* the next window, read when the text reaches it */
    const nnav_type *at = t;
    for (int64_t i = 0; i < t->rank; i++) {
        if (i)
            nnav_sb_put(b, ",");
        uint64_t k = (uint64_t)i - at->axis0;
        if (k >= NNAV_TYPE_DIMS_MAX) {
            /* A full buffer shows no more: no window is read for it. */
            if (!more || b->o + 1 >= b->n) {
                nnav_sb_put(b, "...");
                break;
            }
            nnav_type_axes(more->m, more->type, (uint64_t)i, &w);
            at = &w;
            k = 0;
        }
        if (at->axis[k] == NNAV_AXIS_SIZE)
            nnav_sb_printf(b, "%lld", (long long)at->dims[k]);
        else if (at->axis[k] == NNAV_AXIS_SYMBOL)
            put_name(b, at->syms[k]);
        else
            nnav_sb_put(b, "?");
    }
}

static void leaf_text(nnav_sbuf *b, const nnav_type *t, const more_axes *more)
{
    switch (t->leaf) {
    case NNAV_TYPE_SPARSE_TENSOR:
        nnav_sb_put(b, "sparse ");
        /* fall through */
    case NNAV_TYPE_TENSOR:
        nnav_sb_put(b, nnav_dtype_name(t->elem));
        if (t->rank < 0) {
            nnav_sb_put(b, "[...]");
            return;
        }
        nnav_sb_put(b, "[");
        axes_text(b, t, more);
        nnav_sb_put(b, "]");
        return;
    case NNAV_TYPE_OPAQUE:
        nnav_sb_put(b, "opaque(");
        put_name(b, t->domain);
        nnav_sb_put(b, ":");
        put_name(b, t->name);
        nnav_sb_put(b, ")");
        return;
    default:
        nnav_sb_put(b, "?");
    }
}

static void type_text(const nnav_type *t, const more_axes *more, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n == 0)
        return;
    buf[0] = 0;
    if (t->leaf == NNAV_TYPE_ABSENT)
        return;
    if (t->status == NNAV_TYPE_BROKEN || t->status == NNAV_TYPE_DEEP) {
        nnav_sb_put(&b, "(malformed or too deeply nested type)");
        return;
    }
    if (t->status == NNAV_TYPE_MALFORMED) {
        nnav_sb_put(&b, "(malformed type)");
        return;
    }
    for (unsigned i = 0; i < t->nest && i < NNAV_TYPE_NEST_MAX; i++) {
        if (t->outer[i] == NNAV_TYPE_SEQUENCE)
            nnav_sb_put(&b, "seq(");
        else if (t->outer[i] == NNAV_TYPE_OPTIONAL)
            nnav_sb_put(&b, "optional(");
        else {
            nnav_sb_put(&b, "map(");
            nnav_sb_put(&b, nnav_dtype_name(t->key[i]));
            nnav_sb_put(&b, ",");
        }
    }
    leaf_text(&b, t, more);
    for (unsigned i = 0; i < t->nest && i < NNAV_TYPE_NEST_MAX; i++)
        nnav_sb_put(&b, ")");
}

void nnav_type_text(const nnav_type *t, char *buf, size_t n)
{
    type_text(t, NULL, buf, n);
}

void nnav_type_format(const nnav_model *m, nnav_span type, char *buf, size_t n)
{
    nnav_type t;
    more_axes more = {m, type};
    nnav_type_decode(m, type, &t);
    type_text(&t, &more, buf, n);
}
