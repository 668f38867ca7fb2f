/* wire.h - a bounds-checked protobuf wire reader over a byte span.
 *
 * It never reads outside [start, end). It reports one field at a time; the
 * indexers decide what a field means. Offsets are absolute in the file (base
 * is the map's start), so every error can name where it happened. */
#ifndef NNAV_WIRE_H
#define NNAV_WIRE_H

#include <stdint.h>
#include "nnav.h"

enum { NNAV_WT_VARINT = 0, NNAV_WT_I64 = 1, NNAV_WT_LEN = 2, NNAV_WT_SGROUP = 3,
       NNAV_WT_EGROUP = 4, NNAV_WT_I32 = 5 };

typedef struct nnav_wire {
    const uint8_t *p, *end;
    const uint8_t *base;     /* start of the file, for offsets */
    const uint8_t *file_end; /* when set, errors at end == file_end say "end of the file" */
    uint32_t num;            /* number of the field being read (0 before its tag) */
} nnav_wire;

typedef struct nnav_field {
    uint32_t num;
    uint8_t wt;
    uint64_t v;     /* VARINT value, or I32/I64 bits */
    nnav_span s;    /* LEN payload, or the raw bytes of any value */
    uint64_t off;   /* offset of the tag */
} nnav_field;

void nnav_wire_init(nnav_wire *w, const uint8_t *base, nnav_span s);
/* 1: a field was read; 0: end of span; -1: malformed (err->msg, err->offset set). */
int nnav_wire_next(nnav_wire *w, nnav_field *f, nnav_error *err);
/* Read a varint at *p (< end). 0 ok, -1 truncated, -2 longer than 10 bytes. */
int nnav_wire_varint(const uint8_t **p, const uint8_t *end, uint64_t *out);

/* Packed repeated scalars: iterate a LEN payload of varints / fixed values. */
typedef struct nnav_packed {
    const uint8_t *p, *end;
    uint8_t wt; /* element wire type: VARINT, I32 or I64 */
} nnav_packed;
/* 1 value read, 0 end, -1 malformed (a fixed-size payload whose length is not a
 * multiple of its element, or a bad varint). */
int nnav_packed_next(nnav_packed *pk, uint64_t *out);

/* A field's scalar as a value of a repeated field, packed or not: calls fn per value. */
typedef int (*nnav_scalar_fn)(void *ctx, uint64_t v);
int nnav_wire_scalars(const nnav_field *f, uint8_t elem_wt, nnav_scalar_fn fn, void *ctx,
                      nnav_error *err, const uint8_t *base);

#endif
