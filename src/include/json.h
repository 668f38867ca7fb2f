/* json.h - the project's one JSON reader: bounds-checked and zero-copy over
 * a span of the map, like the protobuf wire reader (wire.h).
 *
 * A value is read in one pass that checks all of it (RFC 8259: structure,
 * strings as UTF-8 with no raw control byte and only valid escapes, numbers
 * by the grammar), and is kept as the span of its bytes: a string is the
 * bytes between its quotes, decoded only when a caller asks for its text
 * (nnav_json_text); a container is walked one member at a time with an
 * iterator (nnav_json_iter) that reads its children again, so nothing is
 * allocated, ever.
 *
 * Calling rules:
 *  - Every span points into the caller's bytes; offsets are absolute in the
 *    file (base is the map's start), so every error names where it is.
 *  - Errors are data: -1 with err set to the byte offset, a message, and a
 *    path in err->path ("$", "$.shape[1]", `$.["model.embed.weight"]`).
 *  - Nesting past max_depth (0: NNAV_JSON_DEPTH) is an error, as is a number
 *    longer than NNAV_JSON_NUMLEN characters or one a double cannot hold
 *    (1e999): hostile input costs time linear in its bytes, and no memory.
 *  - Integers are exact: a number with no fraction and no exponent that
 *    fits int64 (or uint64) says so; one past 64 bits is still a number
 *    (its nearest double), and asking it for an integer is an error.
 *  - Duplicate keys are not refused here (JSON allows them); a caller for
 *    whom they matter checks its own keys.
 */
#ifndef NNAV_JSON_H
#define NNAV_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "nnav.h"

enum { NNAV_JSON_DEPTH = 128, NNAV_JSON_NUMLEN = 1024, NNAV_JSON_PATH = 200 };

enum nnav_json_kind {
    NNAV_JSON_NULL = 1, NNAV_JSON_FALSE, NNAV_JSON_TRUE, NNAV_JSON_NUMBER, NNAV_JSON_STRING,
    NNAV_JSON_ARRAY, NNAV_JSON_OBJECT,
};

/* A number's exact reading: an integer in int64, one in uint64 only
 * (> INT64_MAX), an integer past 64 bits, or a fraction / exponent. */
enum { NNAV_JNUM_INT = 1, NNAV_JNUM_UINT, NNAV_JNUM_BIG, NNAV_JNUM_REAL };

typedef struct nnav_jval {
    uint8_t kind;    /* nnav_json_kind */
    uint8_t num;     /* NUMBER: NNAV_JNUM_* */
    uint8_t escaped; /* STRING: holds a backslash escape (its text differs from its bytes) */
    int64_t i;       /* NNAV_JNUM_INT */
    uint64_t u;      /* NNAV_JNUM_UINT (and INT when >= 0) */
    double f;        /* every NUMBER: its nearest double */
    uint64_t count;  /* ARRAY, OBJECT: members */
    nnav_span s;     /* STRING: between the quotes; else the value's bytes */
    uint64_t off;    /* where the value starts in the file */
} nnav_jval;

typedef struct nnav_json {
    const uint8_t *base; /* the file's start: offsets are from here */
    uint32_t max_depth;
} nnav_json;

/* The one value that span s holds, white space around it allowed and
 * nothing else ("trailing bytes" otherwise). */
int nnav_json_parse(const nnav_json *j, nnav_span s, nnav_jval *out, nnav_error *err);

/* Walking an ARRAY or OBJECT value: init, then next until it returns 0.
 * For an object each member's key (a STRING value) goes in *key. */
typedef struct nnav_jiter {
    const nnav_json *j;
    const uint8_t *p, *end;
    uint8_t obj;
    uint32_t depth;       /* of the container walked */
    uint64_t index;       /* of the member last read */
    const struct nnav_jiter *parent; /* whose member the container is; NULL: the root */
    const char *root;     /* the root's path text ("$"), when parent is NULL */
    nnav_jval key;        /* the member last read's key (objects) */
} nnav_jiter;

/* Start walking container v; parent: the iterator v is the member last
 * read of (its path and that member's name make this one's path, written
 * only when asked for), or NULL for the root ("$"). A parent outlives the
 * iterators made from it, and reads no further member while they are
 * used. */
void nnav_json_iter(nnav_jiter *it, const nnav_json *j, const nnav_jval *v,
                    const nnav_jiter *parent);
/* 1: a member read (key too, for an object); 0: the end; -1: err set. */
int nnav_json_next(nnav_jiter *it, nnav_jval *key, nnav_jval *val, nnav_error *err);

/* The path of the member `it` last read ("$.shape[1]"; before the first,
 * the container's own), for an error of the caller's about it. */
void nnav_json_path(const nnav_jiter *it, char *buf, size_t n);

/* A STRING's text, escapes decoded, into buf (n > 0; cut to fit, always
 * NUL-terminated); returns its full length in bytes. */
size_t nnav_json_text(const nnav_jval *v, char *buf, size_t n);
/* Whether a STRING's text is exactly cstr (escapes decoded). */
int nnav_json_eq(const nnav_jval *v, const char *cstr);
/* A NUMBER as an exact int64 / uint64: 0, or -1 with err set ("not an
 * integer", "past 64 bits", "negative") naming `path`. */
int nnav_json_int(const nnav_jval *v, int64_t *out, const char *path, nnav_error *err);
int nnav_json_uint(const nnav_jval *v, uint64_t *out, const char *path, nnav_error *err);

/* A kind's word ("an object", "a string") for messages. */
const char *nnav_json_kind_name(int kind);

#endif
