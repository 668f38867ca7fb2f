/* sbuf.h - bounded text building for the one-line renderings of attribute
 * values, types and shapes (values.c, tf_values.c). Never overflows, always
 * NUL-terminated; names from the file go in through the sanitiser. */
#ifndef NNAV_SBUF_H
#define NNAV_SBUF_H

#include <stddef.h>

#include "nnav.h"

typedef struct nnav_sbuf {
    char *p;
    size_t n, o;
} nnav_sbuf;

void nnav_sb_put(nnav_sbuf *b, const char *s);
void nnav_sb_printf(nnav_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Bytes from the file, escaped for a terminal. */
void nnav_sb_span(nnav_sbuf *b, nnav_span s);
/* Shortest text that reads back as the same float (is_float) or double. */
void nnav_fmt_double(char *buf, size_t n, double v, int is_float);

#endif
