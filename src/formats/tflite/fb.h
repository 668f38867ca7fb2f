/* fb.h - a FlatBuffers reader of the project's own, bounds-checked and
 * zero-copy like the wire reader (wire.h): for TensorFlow Lite's files.
 *
 * A flatbuffer is a little-endian u32 offset to the root table (the file
 * identifier, if any, in bytes 4..8). A table starts with an i32 back to
 * its vtable: u16 vtable size, u16 table size, then a u16 per field, its
 * offset in the table (0: absent, the default applies). A table's field that
 * holds a table, vector or string is a u32 offset forward from where it
 * sits; a vector is a u32 count and its elements; a string a vector of
 * bytes with a NUL after it; a union a u8 type field beside an offset.
 *
 * Everything is checked where it is read, before any byte of it is used:
 *  - an offset, vtable, field, vector or string inside the buffer, its
 *    length and element count times element size without overflow;
 *  - a vtable of at least 4 bytes, even, and a field within it; a field's
 *    bytes within the table's size;
 *  - alignment: tables, vectors and u32 offsets to 4, a scalar to its size;
 *  - offsets strictly forward (a u32 added to where it sits, never 0), so
 *    no chain of offsets loops, and nesting bounded by NNAV_FB_DEPTH.
 * A breach is an error naming its byte offset and the field path the
 * caller gives ("subgraphs[0].operators[12].inputs").
 *
 * Calling rules: a nnav_fbt is a table already checked (its vtable and
 * size); fields are looked up by their index in the schema (0, 1, ...). */
#ifndef NNAV_FB_H
#define NNAV_FB_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

enum { NNAV_FB_DEPTH = 64 };

typedef struct nnav_fb {
    const uint8_t *p; /* the flatbuffer's first byte (offsets are from here) */
    uint64_t n;
} nnav_fb;

typedef struct nnav_fbt {
    uint64_t pos;      /* the table, in the buffer */
    uint64_t vt;       /* its vtable */
    uint16_t vtsize, tsize;
    uint32_t depth;
} nnav_fbt;

typedef struct nnav_fbv {
    uint64_t pos;   /* the first element */
    uint32_t count;
    uint32_t depth; /* of the table holding it */
} nnav_fbv;

/* The root table; *ident gets bytes 4..8 when the buffer has 8 or more. */
int nnav_fb_root(const nnav_fb *b, nnav_fbt *root, char ident[5], nnav_error *err);
/* Whether field f is present. */
int nnav_fb_has(const nnav_fb *b, const nnav_fbt *t, unsigned f);
/* A scalar field of `size` bytes (1, 2, 4, 8), its bits little-endian into
 * *out (dflt when absent): 0, or -1 with err. */
int nnav_fb_scalar(const nnav_fb *b, const nnav_fbt *t, unsigned f, unsigned size,
                   uint64_t dflt, uint64_t *out, const char *path, nnav_error *err);
/* A table field: 0 with *out, 1 when absent, -1 with err. */
int nnav_fb_table(const nnav_fb *b, const nnav_fbt *t, unsigned f, nnav_fbt *out,
                  const char *path, nnav_error *err);
/* A vector field of elements of elem bytes (a vector of tables or strings:
 * 4, their offsets): 0 with *out, 1 when absent (count 0), -1 with err. */
int nnav_fb_vector(const nnav_fb *b, const nnav_fbt *t, unsigned f, unsigned elem,
                   nnav_fbv *out, const char *path, nnav_error *err);
/* A string field: 0 with *out (its bytes, the NUL after them checked), 1
 * when absent (empty), -1 with err. */
int nnav_fb_string(const nnav_fb *b, const nnav_fbt *t, unsigned f, nnav_span *out,
                   const char *path, nnav_error *err);
/* Element i (< v->count) of a vector of tables, of strings, or its scalar
 * bits (elem bytes, as the vector was read with). */
int nnav_fb_vec_table(const nnav_fb *b, const nnav_fbv *v, uint32_t i, nnav_fbt *out,
                      const char *path, nnav_error *err);
int nnav_fb_vec_string(const nnav_fb *b, const nnav_fbv *v, uint32_t i, nnav_span *out,
                       const char *path, nnav_error *err);
uint64_t nnav_fb_vec_scalar(const nnav_fb *b, const nnav_fbv *v, uint32_t i, unsigned elem);

#endif
