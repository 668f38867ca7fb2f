#include "sbuf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nnav_sb_put(nnav_sbuf *b, const char *s)
{
    size_t k = strlen(s);
    if (b->n == 0)
        return;
    if (b->o + k >= b->n)
        k = b->n > b->o + 1 ? b->n - b->o - 1 : 0;
    memcpy(b->p + b->o, s, k);
    b->o += k;
    b->p[b->o] = 0;
}

void nnav_sb_printf(nnav_sbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    nnav_sb_put(b, tmp);
}

void nnav_sb_span(nnav_sbuf *b, nnav_span s)
{
    char tmp[1024];
    nnav_text_escape(s.p, (size_t)s.n, tmp, sizeof tmp);
    nnav_sb_put(b, tmp);
}

void nnav_fmt_double(char *buf, size_t n, double v, int is_float)
{
    if (isnan(v)) {
        snprintf(buf, n, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
        return;
    }
    for (int prec = is_float ? 6 : 15; prec <= 17; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if (is_float ? (float)strtod(buf, NULL) == (float)v : strtod(buf, NULL) == v)
            return;
    }
}
