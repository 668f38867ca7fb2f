#include "walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void nnav_err_set(nnav_error *err, uint64_t off, int has_off, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->offset = off;
    err->has_offset = has_off;
    err->kind = NNAV_ERR_INPUT;
}

int nnav_err_at(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
{
    va_list ap;
    memset(err, 0, sizeof *err);
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    err->offset = off;
    err->has_offset = 1;
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

int nnav_err_prepend(nnav_error *err, const char *fmt, ...)
{
    char comp[sizeof err->path], old[sizeof err->path], joined[sizeof comp + sizeof old + 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(comp, sizeof comp, fmt, ap);
    va_end(ap);
    memcpy(old, err->path, sizeof old);
    if (old[0] && comp[0])
        snprintf(joined, sizeof joined, "%s%s%s", comp, old[0] == '[' ? "" : ".", old);
    else
        snprintf(joined, sizeof joined, "%s%s", comp, old);
    /* Keep the head of an over-long path: it says where the trouble starts. */
    memcpy(err->path, joined, sizeof err->path - 1);
    err->path[sizeof err->path - 1] = 0;
    return -1;
}

int nnav_err_oom(nnav_error *err)
{
    nnav_err_set(err, 0, 0, "out of memory while indexing");
    return -1;
}

int nnav_walk_expect(nnav_error *err, const nnav_field *f, uint8_t wt, const char *name)
{
    if (f->wt == wt)
        return 0;
    nnav_err_set(err, f->off, 1, "field %u (%s) has wire type %u, expected %u", f->num, name,
                 f->wt, wt);
    return -1;
}

int nnav_walk_unknown(nnav_model *m, nnav_error *err, const nnav_field *f, const char *where,
                      uint32_t owner)
{
    nnav_unknown *u = nnav_vec_push(m->unknown);
    if (!u)
        return nnav_err_oom(err);
    u->where = where;
    u->owner = owner;
    u->number = f->num;
    u->wire_type = f->wt;
    u->span = f->s;
    u->offset = f->off;
    return 0;
}

void nnav_walk_init(const nnav_model *m, nnav_wire *r, nnav_span s)
{
    nnav_wire_init(r, m->map.base, s);
    r->file_end = m->map.base + m->map.size;
}

int nnav_walk_fail(nnav_error *err, const nnav_wire *r, const ProtobufCMessageDescriptor *d)
{
    const ProtobufCFieldDescriptor *fd =
        r->num ? protobuf_c_message_descriptor_get_field(d, r->num) : NULL;
    if (fd)
        nnav_err_prepend(err, "%s", fd->name);
    return -1;
}

int nnav_list_put(void *ctx, uint64_t v)
{
    nnav_list_fill *l = ctx;
    if (l->total < l->max) {
        if (l->ints)
            l->ints[l->total] = (int64_t)v;
        if (l->dbls) {
            float fl;
            uint32_t b = (uint32_t)v;
            memcpy(&fl, &b, 4);
            l->dbls[l->total] = l->is_float ? (double)fl : (double)(int64_t)v;
        }
    }
    l->total++;
    return 0;
}
