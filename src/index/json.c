/* json.c - the bounds-checked, zero-copy JSON reader (json.h).
 *
 * One recursive descent checks a value whole; its depth is bounded, so the
 * stack is too. An error's path is built on unwind: each level that a fault
 * passes through puts its member's name in front of err->path, and only then
 * (never on the way down) is any path text written. */
#define _GNU_SOURCE /* strtod_l: numbers read in the C locale, whatever the user's */
#include "json.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "utf8.h"

static int jerr(const nnav_json *j, nnav_error *err, const uint8_t *at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int jerr(const nnav_json *j, nnav_error *err, const uint8_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->offset = (uint64_t)(at - j->base);
    err->has_offset = 1;
    err->kind = NNAV_ERR_INPUT;
    err->path[0] = 0;
    return -1;
}

/* Put `comp` in front of err->path (cut when the path would not fit). */
static void path_front(nnav_error *err, const char *comp)
{
    size_t c = strlen(comp), n = strlen(err->path);
    if (c + n + 1 > sizeof err->path) {
        if (c + 4 >= sizeof err->path)
            return;
        n = sizeof err->path - c - 4;
        memcpy(err->path + n, "...", 4);
    }
    memmove(err->path + c, err->path, n + 1);
    memcpy(err->path, comp, c);
}

static int ident(const uint8_t *p, uint64_t n)
{
    if (n == 0 || n > 64 || !((p[0] >= 'a' && p[0] <= 'z') || (p[0] >= 'A' && p[0] <= 'Z') ||
                              p[0] == '_'))
        return 0;
    for (uint64_t i = 1; i < n; i++)
        if (!((p[i] >= 'a' && p[i] <= 'z') || (p[i] >= 'A' && p[i] <= 'Z') ||
              (p[i] >= '0' && p[i] <= '9') || p[i] == '_'))
            return 0;
    return 1;
}

/* A member's path component: ".name", `.["odd name"]` (its bytes escaped,
 * cut at 80), or "[k]". */
static void component(const nnav_jval *key, uint64_t index, char *buf, size_t n)
{
    if (!key) {
        snprintf(buf, n, "[%llu]", (unsigned long long)index);
        return;
    }
    if (!key->escaped && ident(key->s.p, key->s.n)) {
        snprintf(buf, n, ".%.*s", (int)key->s.n, (const char *)key->s.p);
        return;
    }
    char t[96], e[400];
    size_t k = nnav_json_text(key, t, sizeof t);
    nnav_text_escape((const uint8_t *)t, k < sizeof t ? k : sizeof t - 1, e, sizeof e);
    snprintf(buf, n, ".[\"%s%s\"]", e, k >= 80 ? "..." : "");
}

static const uint8_t *skip_ws(const uint8_t *p, const uint8_t *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *what_at(const uint8_t *p, const uint8_t *end, char *buf, size_t n)
{
    if (p >= end)
        return "the end of the text";
    if (*p >= 0x21 && *p < 0x7f)
        snprintf(buf, n, "'%c'", *p);
    else
        snprintf(buf, n, "byte 0x%02x", *p);
    return buf;
}

static int hex4(const uint8_t *p, const uint8_t *end, uint32_t *out)
{
    uint32_t v = 0;
    if (end - p < 4)
        return -1;
    for (int k = 0; k < 4; k++) {
        uint8_t c = p[k];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= c - '0';
        else if (c >= 'a' && c <= 'f')
            v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            v |= c - 'A' + 10;
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* *pp at the opening quote. */
static int parse_string(const nnav_json *j, const uint8_t **pp, const uint8_t *end, nnav_jval *v,
                        nnav_error *err)
{
    const uint8_t *open = *pp, *p = open + 1;
    v->kind = NNAV_JSON_STRING;
    v->escaped = 0;
    v->off = (uint64_t)(open - j->base);
    while (p < end && *p != '"') {
        uint8_t c = *p;
        if (c < 0x20)
            return jerr(j, err, p, "a raw control byte 0x%02x in a string (write it as \\u%04x)",
                        c, c);
        if (c == '\\') {
            v->escaped = 1;
            if (end - p < 2)
                return jerr(j, err, p, "a string cut short by the end of the text");
            uint8_t e = p[1];
            if (e == 'u') {
                uint32_t cp, lo;
                if (hex4(p + 2, end, &cp) < 0)
                    return jerr(j, err, p, "\\u not followed by four hex digits");
                p += 6;
                if (cp >= 0xdc00 && cp <= 0xdfff)
                    return jerr(j, err, p - 6, "a lone low surrogate \\u%04x", cp);
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, end, &lo) < 0 ||
                        lo < 0xdc00 || lo > 0xdfff)
                        return jerr(j, err, p - 6, "a high surrogate \\u%04x with no low "
                                                   "surrogate after it", cp);
                    p += 6;
                }
                continue;
            }
            if (!strchr("\"\\/bfnrt", e) || e == 0)
                return jerr(j, err, p, "an invalid escape \\%c in a string",
                            e >= 0x21 && e < 0x7f ? e : '?');
            p += 2;
            continue;
        }
        if (c < 0x80) {
            p++;
            continue;
        }
        uint32_t cp;
        int k = nnav_utf8_decode(p, (size_t)(end - p < 4 ? end - p : 4), &cp);
        if (!k)
            return jerr(j, err, p, "a string holds bytes that are not UTF-8 (0x%02x)", c);
        p += k;
    }
    if (p >= end)
        return jerr(j, err, open, "a string with no closing quote");
    v->s = (nnav_span){open + 1, (uint64_t)(p - open - 1)};
    *pp = p + 1;
    return 0;
}

static locale_t c_locale(void)
{
    static locale_t loc;
    if (!loc)
        loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
    return loc;
}

static int parse_number(const nnav_json *j, const uint8_t **pp, const uint8_t *end, nnav_jval *v,
                        nnav_error *err)
{
    const uint8_t *s = *pp, *p = s;
    int neg = 0, real = 0, big = 0;
    uint64_t mag = 0;
    v->kind = NNAV_JSON_NUMBER;
    v->off = (uint64_t)(s - j->base);
    if (*p == '-')
        neg = 1, p++;
    if (p >= end || *p < '0' || *p > '9')
        return jerr(j, err, s, "a number with no digit after its sign");
    if (*p == '0' && p + 1 < end && p[1] >= '0' && p[1] <= '9')
        return jerr(j, err, s, "a number with a leading zero");
    for (; p < end && *p >= '0' && *p <= '9'; p++) {
        unsigned d = *p - '0';
        if (mag > (UINT64_MAX - d) / 10)
            big = 1;
        else
            mag = mag * 10 + d;
    }
    if (p < end && *p == '.') {
        real = 1, p++;
        if (p >= end || *p < '0' || *p > '9')
            return jerr(j, err, p, "a number with no digit after its decimal point");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        real = 1, p++;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p >= end || *p < '0' || *p > '9')
            return jerr(j, err, p, "a number with no digit in its exponent");
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    size_t len = (size_t)(p - s);
    if (len > NNAV_JSON_NUMLEN)
        return jerr(j, err, s, "a number of %zu characters (at most %d are read)", len,
                    NNAV_JSON_NUMLEN);
    char buf[NNAV_JSON_NUMLEN + 1];
    if (real || big) {
        memcpy(buf, s, len);
        buf[len] = 0;
    }
    locale_t loc = real || big ? c_locale() : (locale_t)0;
    /* an integer of 64 bits: its double is the conversion's (correctly
     * rounded); else the C library's reading of the text (glibc's is too) */
    v->f = real || big ? (loc ? strtod_l(buf, NULL, loc) : strtod(buf, NULL))
                       : neg ? -(double)mag : (double)mag;
    if (isinf(v->f))
        return jerr(j, err, s, "the number %.40s%s is past the range of a double", buf,
                    len > 40 ? "..." : "");
    v->i = 0, v->u = 0;
    if (real) {
        v->num = NNAV_JNUM_REAL;
    } else if (big || (neg && mag > (uint64_t)INT64_MAX + 1)) {
        v->num = NNAV_JNUM_BIG;
    } else if (neg) {
        v->num = NNAV_JNUM_INT;
        v->i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else if (mag > (uint64_t)INT64_MAX) {
        v->num = NNAV_JNUM_UINT;
        v->u = mag;
    } else {
        v->num = NNAV_JNUM_INT;
        v->i = (int64_t)mag;
        v->u = mag;
    }
    *pp = p;
    return 0;
}

static int parse_value(const nnav_json *j, const uint8_t **pp, const uint8_t *end, uint32_t depth,
                       nnav_jval *v, nnav_error *err);

/* A container from its opening bracket: every member checked, counted. */
static int parse_container(const nnav_json *j, const uint8_t **pp, const uint8_t *end,
                           uint32_t depth, nnav_jval *v, nnav_error *err)
{
    const uint8_t *open = *pp, *p = open + 1;
    int obj = *open == '{';
    uint8_t close = obj ? '}' : ']';
    char w[32];
    v->kind = obj ? NNAV_JSON_OBJECT : NNAV_JSON_ARRAY;
    v->off = (uint64_t)(open - j->base);
    v->count = 0;
    uint32_t max = j->max_depth ? j->max_depth : NNAV_JSON_DEPTH;
    if (depth >= max)
        return jerr(j, err, open, "nesting deeper than %u levels", max);
    p = skip_ws(p, end);
    if (p < end && *p == close) {
        v->s = (nnav_span){open, (uint64_t)(p + 1 - open)};
        *pp = p + 1;
        return 0;
    }
    for (;;) {
        nnav_jval key, val;
        int has_key = 0;
        if (obj) {
            if (p >= end || *p != '"')
                return jerr(j, err, p, "expected a member's key (a string) in an object, found %s",
                            what_at(p, end, w, sizeof w));
            if (parse_string(j, &p, end, &key, err) < 0)
                return -1;
            has_key = 1;
            p = skip_ws(p, end);
            if (p >= end || *p != ':')
                return jerr(j, err, p, "expected ':' after a key, found %s",
                            what_at(p, end, w, sizeof w));
            p = skip_ws(p + 1, end);
        }
        if (parse_value(j, &p, end, depth + 1, &val, err) < 0) {
            char c[500];
            component(has_key ? &key : NULL, v->count, c, sizeof c);
            path_front(err, c);
            return -1;
        }
        v->count++;
        p = skip_ws(p, end);
        if (p < end && *p == close)
            break;
        if (p >= end || *p != ',')
            return jerr(j, err, p, "expected ',' or '%c' after %s member, found %s", close,
                        obj ? "an object" : "an array", what_at(p, end, w, sizeof w));
        p = skip_ws(p + 1, end);
    }
    v->s = (nnav_span){open, (uint64_t)(p + 1 - open)};
    *pp = p + 1;
    return 0;
}

static int literal(const nnav_json *j, const uint8_t **pp, const uint8_t *end, const char *word,
                   uint8_t kind, nnav_jval *v, nnav_error *err)
{
    size_t k = strlen(word);
    if ((size_t)(end - *pp) < k || memcmp(*pp, word, k))
        return jerr(j, err, *pp, "not a JSON value (did you mean %s?)", word);
    v->kind = kind;
    v->off = (uint64_t)(*pp - j->base);
    v->s = (nnav_span){*pp, k};
    *pp += k;
    return 0;
}

static int parse_value(const nnav_json *j, const uint8_t **pp, const uint8_t *end, uint32_t depth,
                       nnav_jval *v, nnav_error *err)
{
    const uint8_t *p = *pp;
    char w[32];
    memset(v, 0, sizeof *v);
    if (p >= end)
        return jerr(j, err, p, "expected a value, found the end of the text");
    switch (*p) {
    case '{':
    case '[': return parse_container(j, pp, end, depth, v, err);
    case '"': return parse_string(j, pp, end, v, err);
    case 't': return literal(j, pp, end, "true", NNAV_JSON_TRUE, v, err);
    case 'f': return literal(j, pp, end, "false", NNAV_JSON_FALSE, v, err);
    case 'n': return literal(j, pp, end, "null", NNAV_JSON_NULL, v, err);
    default:
        if (*p == '-' || (*p >= '0' && *p <= '9')) {
            if (parse_number(j, pp, end, v, err) < 0)
                return -1;
            v->s = (nnav_span){p, (uint64_t)(*pp - p)};
            return 0;
        }
        return jerr(j, err, p, "expected a value, found %s", what_at(p, end, w, sizeof w));
    }
}

int nnav_json_parse(const nnav_json *j, nnav_span s, nnav_jval *out, nnav_error *err)
{
    const uint8_t *end = s.p + s.n;
    const uint8_t *p = skip_ws(s.p, end);
    if (parse_value(j, &p, end, 0, out, err) < 0) {
        path_front(err, "$");
        return -1;
    }
    p = skip_ws(p, end);
    if (p < end) {
        jerr(j, err, p, "%llu trailing bytes after the JSON value",
             (unsigned long long)(end - p));
        path_front(err, "$");
        return -1;
    }
    return 0;
}

/* ---- walking a container ---- */

void nnav_json_iter(nnav_jiter *it, const nnav_json *j, const nnav_jval *v,
                    const nnav_jiter *parent)
{
    memset(it, 0, sizeof *it);
    it->j = j;
    it->obj = v->kind == NNAV_JSON_OBJECT;
    if (v->kind == NNAV_JSON_OBJECT || v->kind == NNAV_JSON_ARRAY) {
        it->p = v->s.p + 1;
        it->end = v->s.p + v->s.n - 1; /* the closing bracket */
    } else {
        it->p = it->end = v->s.p; /* not a container: no members */
    }
    it->index = UINT64_MAX;
    it->parent = parent;
    it->root = "$";
    it->depth = parent ? parent->depth + 1 : 0;
}

void nnav_json_path(const nnav_jiter *it, char *buf, size_t n)
{
    char c[500];
    if (!n)
        return;
    if (it->parent)
        nnav_json_path(it->parent, buf, n);
    else
        snprintf(buf, n, "%s", it->root);
    if (it->index == UINT64_MAX)
        return;
    component(it->obj ? &it->key : NULL, it->index, c, sizeof c);
    size_t k = strlen(buf);
    snprintf(buf + k, n - k, "%s", c);
}

int nnav_json_next(nnav_jiter *it, nnav_jval *key, nnav_jval *val, nnav_error *err)
{
    const nnav_json *j = it->j;
    const uint8_t *p = skip_ws(it->p, it->end);
    char w[32];
    if (p >= it->end)
        return 0;
    if (it->index != UINT64_MAX) {
        if (*p != ',')
            return jerr(j, err, p, "expected ',' between members, found %s",
                        what_at(p, it->end, w, sizeof w));
        p = skip_ws(p + 1, it->end);
    }
    it->index = it->index == UINT64_MAX ? 0 : it->index + 1;
    memset(&it->key, 0, sizeof it->key);
    if (it->obj) {
        if (p >= it->end || *p != '"')
            return jerr(j, err, p, "expected a member's key (a string) in an object");
        if (parse_string(j, &p, it->end, &it->key, err) < 0)
            return -1;
        p = skip_ws(p, it->end);
        if (p >= it->end || *p != ':')
            return jerr(j, err, p, "expected ':' after a key");
        p = skip_ws(p + 1, it->end);
        if (key)
            *key = it->key;
    }
    if (parse_value(j, &p, it->end, it->depth + 1, val, err) < 0) {
        char c[NNAV_JSON_PATH + 500];
        nnav_json_path(it, c, sizeof c);
        path_front(err, c);
        return -1;
    }
    it->p = p;
    return 1;
}

/* ---- text and numbers ---- */

static size_t put_utf8(uint32_t cp, uint8_t *o)
{
    if (cp < 0x80)
        return o[0] = (uint8_t)cp, 1;
    if (cp < 0x800)
        return o[0] = (uint8_t)(0xc0 | cp >> 6), o[1] = (uint8_t)(0x80 | (cp & 0x3f)), 2;
    if (cp < 0x10000)
        return o[0] = (uint8_t)(0xe0 | cp >> 12), o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)),
               o[2] = (uint8_t)(0x80 | (cp & 0x3f)), 3;
    o[0] = (uint8_t)(0xf0 | cp >> 18), o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f)), o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* Decode a checked string's bytes; fn(ctx, bytes, n) for each run. */
static size_t decode(const nnav_jval *v, char *buf, size_t n)
{
    const uint8_t *p = v->s.p, *end = v->s.p + v->s.n;
    size_t o = 0;
    while (p < end) {
        uint8_t tmp[4];
        size_t k;
        const uint8_t *src = tmp;
        if (*p != '\\') {
            const uint8_t *q = p;
            while (q < end && *q != '\\')
                q++;
            src = p, k = (size_t)(q - p), p = q;
        } else if (end - p >= 6 && p[1] == 'u') {
            uint32_t cp = 0, lo;
            hex4(p + 2, end, &cp);
            p += 6;
            if (cp >= 0xd800 && cp <= 0xdbff && end - p >= 6 && hex4(p + 2, end, &lo) == 0) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                p += 6;
            }
            k = put_utf8(cp, tmp);
        } else if (end - p >= 2) {
            static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
            const char *f = strchr(from, p[1]);
            tmp[0] = f && p[1] ? (uint8_t)to[f - from] : p[1];
            k = 1, p += 2;
        } else {
            break;
        }
        if (buf && o < n) {
            size_t c = k < n - o ? k : n - o;
            memcpy(buf + o, src, c);
        }
        o += k;
    }
    return o;
}

size_t nnav_json_text(const nnav_jval *v, char *buf, size_t n)
{
    if (v->kind != NNAV_JSON_STRING) {
        if (n)
            buf[0] = 0;
        return 0;
    }
    size_t len = decode(v, buf, n ? n - 1 : 0);
    if (n)
        buf[len < n - 1 ? len : n - 1] = 0;
    return len;
}

int nnav_json_eq(const nnav_jval *v, const char *cstr)
{
    size_t k = strlen(cstr);
    if (v->kind != NNAV_JSON_STRING)
        return 0;
    if (!v->escaped)
        return v->s.n == k && !memcmp(v->s.p, cstr, k);
    if (v->s.n < k)
        return 0;
    char buf[256];
    if (k >= sizeof buf)
        return 0; /* no caller compares so long a word */
    return nnav_json_text(v, buf, sizeof buf) == k && !memcmp(buf, cstr, k);
}

static int num_err(const nnav_jval *v, const char *path, nnav_error *err, const char *why)
{
    memset(err, 0, sizeof *err);
    snprintf(err->msg, sizeof err->msg, "%s %s", v->kind == NNAV_JSON_NUMBER ? "a number" :
             nnav_json_kind_name(v->kind), why);
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    err->offset = v->off;
    err->has_offset = 1;
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

int nnav_json_int(const nnav_jval *v, int64_t *out, const char *path, nnav_error *err)
{
    if (v->kind != NNAV_JSON_NUMBER)
        return num_err(v, path, err, "where an integer belongs");
    switch (v->num) {
    case NNAV_JNUM_INT: *out = v->i; return 0;
    case NNAV_JNUM_REAL: return num_err(v, path, err, "with a fraction or exponent, where an "
                                                      "integer belongs");
    default: return num_err(v, path, err, "past the range of a 64-bit signed integer");
    }
}

int nnav_json_uint(const nnav_jval *v, uint64_t *out, const char *path, nnav_error *err)
{
    if (v->kind != NNAV_JSON_NUMBER)
        return num_err(v, path, err, "where an integer belongs");
    switch (v->num) {
    case NNAV_JNUM_INT:
        if (v->i < 0)
            return num_err(v, path, err, "below 0, where a count or offset belongs");
        *out = (uint64_t)v->i;
        return 0;
    case NNAV_JNUM_UINT: *out = v->u; return 0;
    case NNAV_JNUM_REAL: return num_err(v, path, err, "with a fraction or exponent, where an "
                                                      "integer belongs");
    default: return num_err(v, path, err, "past 64 bits");
    }
}

const char *nnav_json_kind_name(int kind)
{
    switch (kind) {
    case NNAV_JSON_NULL: return "null";
    case NNAV_JSON_FALSE:
    case NNAV_JSON_TRUE: return "a boolean";
    case NNAV_JSON_NUMBER: return "a number";
    case NNAV_JSON_STRING: return "a string";
    case NNAV_JSON_ARRAY: return "an array";
    case NNAV_JSON_OBJECT: return "an object";
    default: return "nothing";
    }
}
