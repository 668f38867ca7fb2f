/* loadscan.c - what loading a model with its framework's loader would run
 * (loadscan.h), as `nnav info`, the explorer's model details and `nnav
 * scan` print it: the table and the verdict, in the reader's words, each
 * fact stated once, through the record writer (record.h). */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "loadscan.h"
#include "record.h"

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* The globals a pickle references: text "OFFSET MODULE.NAME ALLOWED ON
 * LOAD" under headings; YAML the module and name apart, where it is
 * called and what the call would run. */
enum { G_MODULE, G_NAME, G_OFFSET, G_ALLOWED, G_ENTRY, G_BY, G_CALL, G_ONLOAD };
static const nnav_rw_col global_cols[] = {
    [G_MODULE] = {"module", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_NAME] = {"name", 44, 0, NULL, 0, "global"},
    [G_OFFSET] = {"offset", 10, 0, NULL, 0, "offset"},
    [G_ALLOWED] = {"allowed", 8, 0, NULL, 0, "allowed"},
    [G_ENTRY] = {"entry", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_BY] = {"called_by", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_CALL] = {"call", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_ONLOAD] = {NULL, 0, 0, NULL, 0, "on load"},
};
static const uint8_t global_text[] = {G_OFFSET, G_NAME, G_ALLOWED, G_ONLOAD};
static const nnav_rw_table global_table = {
    .cols = global_cols, .ncols = sizeof global_cols / sizeof *global_cols, .sep = " ",
    .flow = 1, .text_order = global_text, .ntext = sizeof global_text};

void nnav_load_scan_write(nnav_rw *w, const nnav_load_scan *s, const char *indent)
{
    char line[1600], e[1200], a[200], b[200], nm[420];
    const nnav_load_words *W = s->words;
    e[0] = 0;
    if (s->failed)
        nnav_error_format(&s->err, "", e, sizeof e);
    const char *fault = e[0] == ':' ? e + 2 : e;
    nnav_rw_key_as(w, W->units_key, NULL), nnav_rw_uint(w, s->units, NULL);
    nnav_rw_key_as(w, "would_run", NULL), nnav_rw_uint(w, s->would_run, NULL);
    nnav_rw_key_as(w, W->lenient_key, NULL), nnav_rw_bool(w, s->lenient, NULL);
    nnav_rw_key_as(w, "complete", NULL), nnav_rw_bool(w, !s->failed, NULL);
    if (s->failed) { /* in text after the globals */
        nnav_rw_key_as(w, "fault", NULL), nnav_rw_cstr(w, fault, NULL);
        nnav_rw_key_as(w, "fault_offset", NULL), nnav_rw_uint(w, s->err.offset, NULL);
    }
    nnav_rw_table t = global_table;
    t.indent = indent;
    nnav_rw_table_begin(w, "globals", &t);
    nnav_rw_table_head(w);
    for (uint32_t i = 0; i < s->count; i++) {
        const nnav_load_ref *g = &s->g[i];
        snprintf(nm, sizeof nm, "%s.%s", esc(g->module, a, sizeof a), esc(g->name, b, sizeof b));
        if (g->call && !g->allowed)
            snprintf(line, sizeof line, "WOULD RUN %s (%s @%llu in %s)", g->call,
                     W->op_name(g->op), (unsigned long long)g->call_offset,
                     g->entry ? g->entry : "?");
        else if (g->op)
            snprintf(line, sizeof line, "builds data (%s @%llu)", W->op_name(g->op),
                     (unsigned long long)g->call_offset);
        else
            snprintf(line, sizeof line, "%s", g->allowed ? "-" : "referenced, not called");
        nnav_rw_row(w);
        nnav_rw_cell_span(w, G_MODULE, g->module, NULL);
        nnav_rw_cell_span(w, G_NAME, g->name, nm);
        nnav_rw_cell_uint(w, G_OFFSET, g->offset, NULL);
        nnav_rw_cell_bool(w, G_ALLOWED, g->allowed, g->allowed ? "yes" : "NO");
        nnav_rw_cell_cstr(w, G_ENTRY, g->entry ? g->entry : "", NULL);
        if (g->op)
            nnav_rw_cell_cstr(w, G_BY, W->op_name(g->op), NULL);
        else
            nnav_rw_cell_null(w, G_BY, NULL);
        if (g->call)
            nnav_rw_cell_cstr(w, G_CALL, g->call, NULL);
        else
            nnav_rw_cell_null(w, G_CALL, NULL);
        nnav_rw_cell_null(w, G_ONLOAD, line);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    /* The verdict, in words (YAML's would_run, complete and fault above). */
    if (s->failed) {
        snprintf(line, sizeof line, "%sthe %s stopped at a fault, past which nothing is known: %s\n",
                 indent, W->unit, fault);
        nnav_rw_text(w, line);
    }
    if (s->would_run) {
        snprintf(line, sizeof line, "%sDANGER: loading this file with %s would run %u call%s "
                 "outside %s:\n", indent, W->loader, s->would_run, s->would_run == 1 ? "" : "s",
                 W->allowlist);
        nnav_rw_text(w, line);
        for (uint32_t i = 0; i < s->count; i++) {
            if (s->g[i].op && !s->g[i].allowed) {
                snprintf(line, sizeof line, "%s  %s\n", indent, s->g[i].call ? s->g[i].call : "?");
                nnav_rw_text(w, line);
            }
        }
        snprintf(line, sizeof line, "%snnav ran none of them.\n", indent);
        nnav_rw_text(w, line);
    } else if (!s->failed) {
        snprintf(line, sizeof line, "%sclean: every call is in %s%s (nothing else would run on "
                 "load)\n", indent, W->allowlist, s->lenient ? W->lenient_why : "");
        nnav_rw_text(w, line);
    }
}

void nnav_load_info_write(nnav_rw *w, const nnav_model *m)
{
    const nnav_load_scan *s = nnav_model_load_scan(m);
    if (!s)
        return;
    char line[700];
    snprintf(line, sizeof line, "\n%-14s %u global%s referenced%s\n", s->words->unit, s->count,
             s->count == 1 ? "" : "s", s->would_run ? " -- DANGER: loading this file would run code" : "");
    nnav_rw_text(w, line);
    nnav_rw_key_as(w, s->words->unit, NULL);
    nnav_rw_map(w, 0);
    nnav_load_scan_write(w, s, "  ");
    nnav_rw_map_end(w);
}
