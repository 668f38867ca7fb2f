/* details.c - a format's own facts (nnav.h's nnav_detail) as `nnav info`
 * and the explorer's `i` show them, and one whole value as `nnav meta`
 * prints it: each stated once, through the record writer (record.h). */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record.h"

enum { SHOWN_TEXT = 60, SHOWN_ITEMS = 16 };

static const char *esc_span(const nnav_detail *d, nnav_span s, char *buf, size_t n)
{
    if (d->own || (d->s_safe && s.p == d->s.p && s.n == d->s.n))
        snprintf(buf, n, "%.*s", (int)(s.n < n ? s.n : n - 1), (const char *)s.p);
    else
        nnav_text_escape(s.p, s.n > 4096 ? 4096 : (size_t)s.n, buf, n);
    return buf;
}

/* One scalar as the writer states it: YAML exact, text its display. */
static void scalar(nnav_rw *w, const nnav_detail *d)
{
    char t[96];
    switch (d->kind) {
    case NNAV_DV_TEXT: {
        char b[600];
        nnav_rw_span(w, d->s, nnav_rw_shows(w) ? esc_span(d, d->s, b, sizeof b) : NULL);
        break;
    }
    case NNAV_DV_INT: nnav_rw_int(w, d->i, NULL); break;
    case NNAV_DV_UINT: nnav_rw_uint(w, d->u, NULL); break;
    case NNAV_DV_FLOAT:
        snprintf(t, sizeof t, "%.9g", d->f);
        nnav_rw_double(w, d->f, t);
        break;
    case NNAV_DV_BOOL: nnav_rw_bool(w, d->i != 0, NULL); break;
    default: nnav_rw_null(w, NULL); break;
    }
}

/* An item's words for a text line: a string quoted, a number as it is. */
static size_t item_words(const nnav_detail *d, char *buf, size_t n)
{
    char b[200];
    switch (d->kind) {
    case NNAV_DV_TEXT: return (size_t)snprintf(buf, n, "'%s'", esc_span(d, d->s, b, sizeof b));
    case NNAV_DV_INT: return (size_t)snprintf(buf, n, "%lld", (long long)d->i);
    case NNAV_DV_UINT: return (size_t)snprintf(buf, n, "%llu", (unsigned long long)d->u);
    case NNAV_DV_FLOAT: return (size_t)snprintf(buf, n, "%.9g", d->f);
    case NNAV_DV_BOOL: return (size_t)snprintf(buf, n, "%s", d->i ? "true" : "false");
    case NNAV_DV_ARRAY:
        return (size_t)snprintf(buf, n, "[%llu %s]", (unsigned long long)d->count,
                                d->elem ? d->elem : "items");
    default: return (size_t)snprintf(buf, n, "null");
    }
}

/* An ARRAY: YAML {type, count, items: the first SHOWN_ITEMS}; text "[a,
 * b, ... (N string)]" cut before about 70 columns. */
static void array(nnav_rw *w, const nnav_model *m, uint32_t i, const nnav_detail *d)
{
    char line[200], it[160];
    size_t l = 0;
    int cut = 0;
    line[l++] = '[';
    line[l] = 0;
    uint64_t shown = d->count < SHOWN_ITEMS ? d->count : SHOWN_ITEMS;
    nnav_detail items[SHOWN_ITEMS];
    uint64_t got = 0;
    for (; got < shown; got++) {
        nnav_error e;
        if (nnav_detail_item(m, i, got, &items[got], &e) < 0)
            break;
        size_t k = item_words(&items[got], it, sizeof it);
        if (!cut && l + k + 2 < 70) {
            l += (size_t)snprintf(line + l, sizeof line - l, "%s%s", got ? ", " : "", it);
        } else {
            cut = 1;
        }
    }
    if (cut || got < d->count)
        l += (size_t)snprintf(line + l, sizeof line - l, "%s... (%llu %s)", got ? ", " : "",
                              (unsigned long long)d->count, d->elem ? d->elem : "items");
    snprintf(line + l, sizeof line - l, "]");
    nnav_rw_line(w);
    nnav_rw_key_as(w, "type", ""), nnav_rw_cstr(w, d->elem ? d->elem : "", "");
    nnav_rw_key_as(w, "count", ""), nnav_rw_uint(w, d->count, "");
    nnav_rw_key_as(w, "items", "");
    nnav_rw_list_as(w, line);
    for (uint64_t k = 0; k < got; k++)
        if (items[k].kind == NNAV_DV_ARRAY)
            nnav_rw_cstr(w, items[k].elem ? items[k].elem : "array", NULL);
        else
            scalar(w, &items[k]);
    nnav_rw_list_end(w);
    nnav_rw_line_end(w);
}

void nnav_details_write(nnav_rw *w, const nnav_model *m)
{
    uint32_t n = nnav_detail_count(m);
    char line[700], key[600];
    for (uint32_t i = 0; i < n;) {
        nnav_detail d;
        if (nnav_detail_get(m, i, &d) < 0)
            break;
        const char *sec = d.section;
        uint32_t j = i, shown = 0;
        snprintf(line, sizeof line, "\n%s\n", d.title ? d.title : sec);
        nnav_rw_text(w, line);
        /* Text: the heading above, then its keys as lines of the map,
         * their values aligned. */
        if (nnav_rw_yaml(w))
            nnav_rw_key(w, sec);
        nnav_rw_map(w, 32);
        for (; j < n; j++) {
            if (nnav_detail_get(m, j, &d) < 0 || strcmp(d.section, sec))
                break;
            /* YAML's key: the file's bytes; text's: escaped, after an indent. */
            char yk[300];
            size_t kn = d.key.n < sizeof yk - 1 ? (size_t)d.key.n : sizeof yk - 1;
            memcpy(yk, d.key.p, kn);
            yk[kn] = 0;
            if (memchr(yk, 0, kn))
                nnav_text_escape(d.key.p, d.key.n, yk, sizeof yk);
            if (nnav_rw_yaml(w)) {
                nnav_rw_key(w, yk);
            } else {
                if (shown++ >= SHOWN_TEXT) {
                    nnav_rw_key_as(w, yk, NULL);
                    d.kind == NNAV_DV_ARRAY ? nnav_rw_null(w, NULL) : scalar(w, &d);
                    continue;
                }
                char kb[560];
                snprintf(key, sizeof key, "  %s", esc_span(&d, d.key, kb, sizeof kb));
                nnav_rw_key_as(w, yk, key);
            }
            if (d.kind == NNAV_DV_ARRAY)
                array(w, m, j, &d);
            else
                scalar(w, &d);
        }
        nnav_rw_map_end(w);
        if (shown > SHOWN_TEXT) {
            snprintf(line, sizeof line, "  ... %u more (all: --yaml; one whole: nnav meta FILE KEY)\n",
                     shown - SHOWN_TEXT);
            nnav_rw_text(w, line);
        }
        i = j;
    }
}

/* A span whole, for a terminal: escaped a piece at a time, each piece
 * ending before a byte that is not ASCII-after-ASCII, so that no UTF-8
 * sequence (or a character and its marks) is cut. */
static void text_whole(nnav_rw *w, const nnav_detail *d, nnav_span s)
{
    enum { PIECE = 4096 };
    char buf[PIECE * 12 + 16];
    uint64_t at = 0;
    while (at < s.n) {
        uint64_t n = s.n - at < PIECE ? s.n - at : PIECE;
        if (at + n < s.n) {
            uint64_t k = n;
            while (k > 1 && !(s.p[at + k - 1] < 0x80 && s.p[at + k] < 0x80))
                k--;
            if (k > 1)
                n = k;
        }
        if (d->own || d->s_safe) {
            snprintf(buf, sizeof buf, "%.*s", (int)n, (const char *)s.p + at);
        } else {
            nnav_text_escape(s.p + at, (size_t)n, buf, sizeof buf);
        }
        nnav_rw_text(w, buf);
        at += n;
    }
}

/* One value whole in text: a string escaped, every byte of it; a number
 * exactly (a double's shortest text that reads back). */
static void text_value(nnav_rw *w, const nnav_detail *d)
{
    char b[64];
    if (d->kind == NNAV_DV_TEXT) {
        text_whole(w, d, d->s);
    } else if (d->kind == NNAV_DV_FLOAT) {
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(b, sizeof b, "%.*g", prec, d->f);
            if (strtod(b, NULL) == d->f)
                break;
        }
        nnav_rw_text(w, b);
    } else {
        item_words(d, b, sizeof b);
        nnav_rw_text(w, b);
    }
    nnav_rw_text(w, "\n");
}

void nnav_detail_write_single(nnav_rw *w, const nnav_detail *d)
{
    if (!nnav_rw_yaml(w)) {
        text_value(w, d);
        return;
    }
    nnav_rw_map(w, 8);
    nnav_rw_key(w, "section"), nnav_rw_cstr(w, d->section, NULL);
    nnav_rw_key(w, "key"), nnav_rw_span(w, d->key, NULL);
    nnav_rw_key(w, "value");
    scalar(w, d);
    nnav_rw_map_end(w);
}

int nnav_detail_write_one(nnav_rw *w, const nnav_model *m, uint32_t i, nnav_error *err)
{
    nnav_detail d;
    if (nnav_detail_get(m, i, &d) < 0) {
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "no such detail");
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    if (d.kind != NNAV_DV_ARRAY) {
        nnav_detail_write_single(w, &d);
        return 0;
    }
    if (!nnav_rw_yaml(w)) {
        /* Text: the items one a line, so that a pipe (wc -l, grep) sees
         * the value and nothing else. */
        for (uint64_t k = 0; k < d.count; k++) {
            nnav_detail it;
            if (nnav_detail_item(m, i, k, &it, err) < 0)
                return -1;
            text_value(w, &it);
        }
        return 0;
    }
    nnav_rw_map(w, 8);
    nnav_rw_key(w, "section"), nnav_rw_cstr(w, d.section, NULL);
    nnav_rw_key(w, "key"), nnav_rw_span(w, d.key, NULL);
    nnav_rw_key(w, "type"), nnav_rw_cstr(w, d.elem ? d.elem : "", NULL);
    nnav_rw_key(w, "count"), nnav_rw_uint(w, d.count, NULL);
    nnav_rw_key(w, "items");
    nnav_rw_list(w);
    int rc = 0;
    for (uint64_t k = 0; k < d.count; k++) {
        nnav_detail it;
        if (nnav_detail_item(m, i, k, &it, err) < 0) {
            rc = -1;
            break;
        }
        if (it.kind == NNAV_DV_ARRAY)
            nnav_rw_cstr(w, it.elem ? it.elem : "array", NULL);
        else
            scalar(w, &it);
    }
    nnav_rw_list_end(w);
    nnav_rw_map_end(w);
    return rc;
}
