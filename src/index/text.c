/* text.c - the one sanitiser every string from a file passes through before it
 * reaches a terminal, stderr or a table. */
#include <stdio.h>
#include <string.h>

#include "nnav.h"
#include "unicode_marks.h"
#include "utf8.h"

/* Code points that must not reach a terminal even though they are valid UTF-8:
 * C1 controls, line/paragraph separators, every format character (bidi
 * embeddings, overrides, isolates and marks, zero-width spaces and joiners,
 * the BOM, invisible operators, tags: a name holding one looks like a name
 * without it, or shifts the columns after it), and the Hangul fillers, which
 * are letters that draw nothing. */
static int in_table(const uint32_t (*t)[2], size_t n, uint32_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < t[mid][0])
            hi = mid;
        else if (c > t[mid][1])
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

static int cp_unsafe(uint32_t c)
{
    if (c < 0xa0)
        return c >= 0x80;
    return c == 0x2028 || c == 0x2029 || c == 0x115f || c == 0x1160 || c == 0x3164 ||
           c == 0xffa0 || in_table(uc_format, sizeof uc_format / sizeof *uc_format, c);
}

/* A nonspacing or enclosing mark: drawn on the character before it. */
static int cp_mark(uint32_t c)
{
    return c >= 0x300 && in_table(uc_marks, sizeof uc_marks / sizeof *uc_marks, c);
}

/* East Asian wide and fullwidth characters and the emoji blocks: two
 * columns, as terminals draw them. */
static const uint32_t uc_wide[][2] = {
    {0x1100, 0x115f}, {0x2e80, 0x303e}, {0x3041, 0x33ff}, {0x3400, 0x4dbf},
    {0x4e00, 0x9fff}, {0xa000, 0xa4cf}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
    {0xfe30, 0xfe4f}, {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x1f300, 0x1f64f},
    {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd},
};

int nnav_text_cols(const char *s)
{
    int cols = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t c = 0;
        int k = nnav_utf8_decode((const uint8_t *)s + i, len - i, &c);
        i += k ? (size_t)k : 1;
        if (!k)
            cols++;
        else if (!cp_mark(c))
            cols += c >= 0x1100 && in_table(uc_wide, sizeof uc_wide / sizeof *uc_wide, c) ? 2 : 1;
    }
    return cols;
}

/* The columns of the character at s[i] (one for a byte that is not UTF-8)
 * and, in *k, its bytes. */
static int char_cols(const char *s, size_t len, size_t i, size_t *k)
{
    uint32_t c = 0;
    int d = nnav_utf8_decode((const uint8_t *)s + i, len - i, &c);
    *k = d ? (size_t)d : 1;
    if (!d)
        return 1;
    if (cp_mark(c))
        return 0;
    return c >= 0x1100 && in_table(uc_wide, sizeof uc_wide / sizeof *uc_wide, c) ? 2 : 1;
}

const char *nnav_text_elide_mid(const char *s, int cols, char *buf, size_t n)
{
    size_t len = strlen(s), i = 0, o = 0, k;
    if (!n)
        return s;
    if (cols < 3 || nnav_text_cols(s) <= cols) {
        snprintf(buf, n, "%s", s);
        return buf;
    }
    int half = (cols - 1) / 2, used = 0; /* the start's share, the rest the end's */
    for (int c; i < len && used + (c = char_cols(s, len, i, &k)) <= half; i += k)
        used += c;
    /* The end: the first character after the start from which the rest
     * fits (never a mark: it would sit on the ellipsis). */
    int rest = nnav_text_cols(s + i), tail_cols = cols - 1 - used;
    size_t from = i;
    for (int c; from < len; from += k, rest -= c)
        if ((c = char_cols(s, len, from, &k)) > 0 && rest <= tail_cols)
            break;
    if (i + 4 + (len - from) > n) { /* buf too small: as much of s as fits */
        snprintf(buf, n, "%s", s);
        return buf;
    }
    memcpy(buf, s, i);
    o = i;
    memcpy(buf + o, "\xe2\x80\xa6", 3); /* … */
    o += 3;
    memcpy(buf + o, s + from, len - from);
    buf[o + len - from] = 0;
    return buf;
}

/* Marks kept on one character: an accent, or two (Vietnamese, a keycap);
 * past that a pile of them (Zalgo) is escaped. */
#define MARKS_KEPT 2

/* keep_backslash: for text nnav composed itself (error messages), whose
 * names from the file were escaped when they were put in: doubling their
 * backslashes again would show "\\x1B" for an escape already shown as "\x1B".
 * Everything a terminal could act on is still escaped. */
static size_t escape(const uint8_t *p, size_t len, char *buf, size_t n, int keep_backslash)
{
    size_t o = 0;
    /* Marks shown on the last character written raw; -1 when there is none
     * to sit on (the start, or just after an escape): a mark then would
     * land on whatever the terminal drew before, or on the escape. */
    int marks = -1;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < len;) {
        char tmp[16];
        size_t tl;
        uint32_t cp = 0;
        int k = nnav_utf8_decode(p + i, len - i, &cp);
        if (k == 0) {
            tl = (size_t)snprintf(tmp, sizeof tmp, "\\x%02X", p[i]);
            k = 1;
        } else if (k == 1 && cp == '\\' && !keep_backslash) {
            memcpy(tmp, "\\\\", 2), tl = 2;
        } else if (k == 1 && (cp < 0x20 || cp == 0x7f)) {
            if (cp == '\n')
                memcpy(tmp, "\\n", 2), tl = 2;
            else if (cp == '\t')
                memcpy(tmp, "\\t", 2), tl = 2;
            else if (cp == '\r')
                memcpy(tmp, "\\r", 2), tl = 2;
            else
                tl = (size_t)snprintf(tmp, sizeof tmp, "\\x%02X", cp);
        } else if (cp_unsafe(cp) || (cp_mark(cp) && (marks < 0 || marks >= MARKS_KEPT))) {
            tl = (size_t)snprintf(tmp, sizeof tmp, "\\u{%04X}", cp);
        } else {
            memcpy(tmp, p + i, (size_t)k);
            tl = (size_t)k;
        }
        if (o + tl + 1 > n) {
            /* Cut on a whole escape or character, never in the middle of one. */
            if (n >= 4 && o + 4 <= n) {
                /* leave room for "..." when possible */
            }
            break;
        }
        memcpy(buf + o, tmp, tl);
        o += tl;
        i += (size_t)k;
        if (tmp[0] == '\\' && tl > 1)
            marks = -1;
        else if (cp_mark(cp))
            marks++;
        else
            marks = 0;
    }
    buf[o] = 0;
    return o;
}

size_t nnav_text_escape(const uint8_t *p, size_t len, char *buf, size_t n)
{
    return escape(p, len, buf, n, 0);
}

size_t nnav_text_escape_cstr(const char *s, char *buf, size_t n)
{
    return nnav_text_escape((const uint8_t *)s, strlen(s), buf, n);
}

int nnav_span_eq(nnav_span s, const char *c, size_t len)
{
    return s.n == len && (len == 0 || memcmp(s.p, c, len) == 0);
}

int nnav_span_same(nnav_span a, nnav_span b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

int nnav_span_eqs(nnav_span s, const char *cstr)
{
    return nnav_span_eq(s, cstr, strlen(cstr));
}

/* Copy src into buf (n > 0), cutting only between whole UTF-8 characters. */
static void copy_whole(const char *src, char *buf, size_t n)
{
    size_t len = strlen(src);
    if (len < n) {
        memcpy(buf, src, len + 1);
        return;
    }
    size_t k = n - 1;
    /* Back off to the start of the character that would be cut. */
    while (k > 0 && nnav_utf8_cont((unsigned char)src[k]))
        k--;
    memcpy(buf, src, k);
    buf[k] = 0;
}

void nnav_error_format(const nnav_error *e, const char *file, char *buf, size_t n)
{
    char f[1024], msg[1100], path[1100], all[3400];
    if (n == 0)
        return;
    nnav_text_escape_cstr(file ? file : "", f, sizeof f);
    /* Messages quote names from the file, escaped when they were put in; they
     * pass the sanitiser again all the same, backslashes left as they are. */
    escape((const uint8_t *)e->msg, strlen(e->msg), msg, sizeof msg, 1);
    escape((const uint8_t *)e->path, strlen(e->path), path, sizeof path, 1);
    if (e->has_offset && path[0])
        snprintf(all, sizeof all, "%s: %s: %s at offset %llu", f, path, msg,
                 (unsigned long long)e->offset);
    else if (e->has_offset)
        snprintf(all, sizeof all, "%s: %s at offset %llu", f, msg, (unsigned long long)e->offset);
    else if (path[0])
        snprintf(all, sizeof all, "%s: %s: %s", f, path, msg);
    else
        snprintf(all, sizeof all, "%s: %s", f, msg);
    copy_whole(all, buf, n);
}

void nnav_text_si(double v, char *buf, size_t n)
{
    const char *u[] = {"", " k", " M", " G", " T", " P", " E"};
    int i = 0;
    while (v >= 999.5 && i < 6)
        v /= 1000, i++;
    if (i == 0)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.*f%s", v >= 99.95 ? 0 : v >= 9.995 ? 1 : 2, v, u[i]);
}

void nnav_text_commas(uint64_t v, char *buf, size_t n)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    if (n)
        buf[o] = 0;
}
