/* cli_meta.c - nnav meta MODEL [KEY]: a model's own metadata.
 *
 * Two sources, one list: the index's metadata_props (key-value strings the
 * model carries) and the reader's details (nnav.h's nnav_detail: a weights
 * file's key-value pairs, its header facts, a checkpoint's entries).
 * Without KEY every key, values shortened as `info` shows them; with KEY
 * one value whole (report.h's nnav_detail_write_one): the text is the value
 * and nothing else, so that it pipes. An unknown KEY is bad input (2),
 * naming the closest keys. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnav.h"
#include "record.h"
#include "report.h"

#define PROPS "metadata_props"

/* metadata_props as info states them: YAML a list of {key, value}; text a
 * heading, then "  KEY  VALUE" a line, the value cut at 300 bytes. */
enum { MP_KEY, MP_VALUE };
static const nnav_rw_col props_cols[] = {
    [MP_KEY] = {"key", 30, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 40, NULL},
    [MP_VALUE] = {"value", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table props_table = {
    .cols = props_cols, .ncols = sizeof props_cols / sizeof *props_cols, .sep = " ",
    .indent = "  "};

static void write_props(nnav_rw *w, const nnav_model *m)
{
    uint32_t n = nnav_metadata_count(m);
    char a[600], b[1400], head[64];
    if (!n)
        return;
    snprintf(head, sizeof head, "%s (%u key%s)\n", PROPS, n, pl(n));
    nnav_rw_text(w, head);
    for (int pass = 0; pass < nnav_rw_table_passes(w); pass++) {
        nnav_rw_table_begin(w, PROPS, &props_table);
        for (uint32_t i = 0; i < n; i++) {
            const nnav_kv *kv = nnav_metadata_get(m, i);
            nnav_rw_row(w);
            nnav_rw_cell_span(w, MP_KEY, kv->key, esc(kv->key, a, sizeof a));
            nnav_rw_cell_span(w, MP_VALUE, kv->value, esc(kv->value, b, 300));
            nnav_rw_row_end(w);
        }
        nnav_rw_table_end(w);
    }
}

/* The metadata_props entry named KEY (or metadata_props.KEY), or NNAV_NONE. */
static uint32_t find_prop(const nnav_model *m, const char *key)
{
    size_t n = strlen(key), pn = strlen(PROPS);
    for (int dotted = 0; dotted < 2; dotted++) {
        const char *k = key;
        size_t kn = n;
        if (dotted) {
            if (n <= pn + 1 || memcmp(key, PROPS, pn) || key[pn] != '.')
                break;
            k += pn + 1;
            kn -= pn + 1;
        }
        for (uint32_t i = 0; i < nnav_metadata_count(m); i++)
            if (nnav_span_eq(nnav_metadata_get(m, i)->key, k, kn))
                return i;
    }
    return NNAV_NONE;
}

/* "no key 'K'; did you mean 'A' or 'B'?" among every key both sources
 * hold, status 2. */
static int unknown_key(const nnav_model *m, const char *key)
{
    uint32_t nd = nnav_detail_count(m), np = nnav_metadata_count(m);
    uint64_t total = (uint64_t)nd + np;
    char **names = calloc(total ? total : 1, sizeof *names);
    size_t nn = 0;
    for (uint32_t i = 0; names && i < nd + np; i++) {
        nnav_detail d;
        nnav_span k;
        if (i < nd) {
            if (nnav_detail_get(m, i, &d) < 0)
                continue;
            k = d.key;
        } else {
            k = nnav_metadata_get(m, i - nd)->key;
        }
        char buf[600];
        nnav_text_escape(k.p, k.n > 256 ? 256 : (size_t)k.n, buf, sizeof buf);
        if ((names[nn] = strdup(buf)))
            nn++;
    }
    const char *best[3];
    size_t nb = names ? nnav_suggest(key, (const char *const *)names, nn, best, 3) : 0;
    char hint[2200], k[600], p[1024];
    size_t l = 0;
    hint[0] = 0;
    for (size_t i = 0; i < nb && l < sizeof hint; i++)
        l += (size_t)snprintf(hint + l, sizeof hint - l, "%s'%s'",
                              !i ? "; did you mean " : i + 1 == nb ? " or " : ", ", best[i]);
    if (nb && l < sizeof hint)
        snprintf(hint + l, sizeof hint - l, "?");
    else if (!nb)
        snprintf(hint, sizeof hint, total ? "; 'nnav meta MODEL' lists the keys"
                                          : "; the model holds no metadata");
    nnav_text_escape_cstr(key, k, sizeof k);
    nnav_text_escape_cstr(nnav_model_facts_get(m)->path, p, sizeof p);
    fprintf(stderr, "nnav meta: %s: no key '%s'%s\n", p, k, hint);
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    return EXIT_BADINPUT;
}

int cmd_meta(const nnav_model *m, const opts *o)
{
    nnav_rw w;
    nnav_error err;
    int rc = 0;
    if (!o->arg) {
        if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
            return EXIT_BADINPUT;
        nnav_rw_map(&w, 0);
        write_props(&w, m);
        nnav_details_write(&w, m);
        nnav_rw_map_end(&w);
        if (!nnav_metadata_count(m) && !nnav_detail_count(m))
            nnav_rw_text(&w, "no metadata\n");
        return nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    uint32_t d = nnav_detail_find(m, o->arg), p = NNAV_NONE;
    if (d == NNAV_NONE && (p = find_prop(m, o->arg)) == NNAV_NONE)
        return unknown_key(m, o->arg);
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return EXIT_BADINPUT;
    if (d != NNAV_NONE) {
        if (nnav_detail_write_one(&w, m, d, &err) < 0) {
            char msg[2048];
            nnav_error_format(&err, nnav_model_facts_get(m)->path, msg, sizeof msg);
            fprintf(stderr, "nnav meta: %s\n", msg);
            rc = EXIT_BADINPUT;
        }
    } else {
        const nnav_kv *kv = nnav_metadata_get(m, p);
        nnav_detail one = {.section = PROPS, .key = kv->key, .kind = NNAV_DV_TEXT, .s = kv->value};
        nnav_detail_write_single(&w, &one);
    }
    if (nnav_rw_close(&w) < 0)
        rc = EXIT_BADINPUT;
    return rc;
}
