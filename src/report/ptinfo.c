/* ptinfo.c - what a PyTorch checkpoint adds to `nnav info` and the
 * explorer's model details (its entries besides the tensors, a TorchScript
 * archive's code files, what loading it would run), and the table and
 * verdict `nnav scan` prints: each fact stated once, through the record
 * writer (record.h). */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "ptscan.h"
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

void nnav_pt_scan_write(nnav_rw *w, const nnav_pt_scan *s, const char *indent)
{
    char line[1600], e[1200], a[200], b[200], nm[420];
    e[0] = 0;
    if (s->failed)
        nnav_error_format(&s->err, "", e, sizeof e);
    const char *fault = e[0] == ':' ? e + 2 : e;
    nnav_rw_key_as(w, "pickles", NULL), nnav_rw_uint(w, s->pickles, NULL);
    nnav_rw_key_as(w, "would_run", NULL), nnav_rw_uint(w, s->would_run, NULL);
    nnav_rw_key_as(w, "torchscript", NULL), nnav_rw_bool(w, s->torchscript, NULL);
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
        const nnav_pt_global *g = &s->g[i];
        snprintf(nm, sizeof nm, "%s.%s", esc(g->module, a, sizeof a), esc(g->name, b, sizeof b));
        if (g->call && !g->allowed)
            snprintf(line, sizeof line, "WOULD RUN %s (%s @%llu in %s)", g->call,
                     nnav_pt_call_op_name(g->op), (unsigned long long)g->call_offset,
                     g->entry ? g->entry : "?");
        else if (g->op)
            snprintf(line, sizeof line, "builds data (%s @%llu)", nnav_pt_call_op_name(g->op),
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
            nnav_rw_cell_cstr(w, G_BY, nnav_pt_call_op_name(g->op), NULL);
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
        snprintf(line, sizeof line, "%sthe pickle stopped at a fault, past which nothing is known: %s\n",
                 indent, fault);
        nnav_rw_text(w, line);
    }
    if (s->would_run) {
        snprintf(line, sizeof line, "%sDANGER: loading this file with torch.load (without "
                 "weights_only=True) or pickle would run %u call%s outside torch's weights_only "
                 "allowlist:\n", indent, s->would_run, s->would_run == 1 ? "" : "s");
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
        snprintf(line, sizeof line, "%sclean: every call is in torch's weights_only allowlist%s "
                 "(nothing else would run on load)\n", indent,
                 s->torchscript ? " or one torch.jit.load's unpickler makes itself (a TorchScript "
                                  "archive)" : "");
        nnav_rw_text(w, line);
    }
}

/* A checkpoint's entries besides the tensors (text: the first 40). */
enum { E_KEY, E_VALUE };
static const nnav_rw_col entry_cols[] = {
    [E_KEY] = {"key", 30, 0, NULL, 0, NULL},
    [E_VALUE] = {"value", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table entry_table = {
    .cols = entry_cols, .ncols = sizeof entry_cols / sizeof *entry_cols, .sep = " ", .flow = 1,
    .indent = "  "};

/* A TorchScript archive's code files (text: the first 40). */
enum { F_NAME, F_BYTES, F_STORED };
static const nnav_rw_col file_cols[] = {
    [F_NAME] = {"name", 50, 0, NULL, 0, NULL},
    [F_BYTES] = {"bytes", 0, 0, NULL, 0, NULL},
    [F_STORED] = {"stored", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
};
static const nnav_rw_table file_table = {
    .cols = file_cols, .ncols = sizeof file_cols / sizeof *file_cols, .sep = " ", .flow = 1,
    .indent = "  "};

void nnav_pt_info_write(nnav_rw *w, const nnav_model *m)
{
    const nnav_pt_scan *s = nnav_model_pt_scan(m);
    if (!s)
        return;
    char line[700], e[600], b[64];
    uint32_t nd = nnav_pt_data_count(m);
    if (nd) {
        snprintf(line, sizeof line, "\ncheckpoint     %u entr%s besides the tensors\n", nd,
                 nd == 1 ? "y" : "ies");
        nnav_rw_text(w, line);
    }
    nnav_rw_table_begin(w, "checkpoint_entries", &entry_table);
    for (uint32_t i = 0; i < nd; i++) {
        const char *v = NULL, *k = nnav_pt_data_get(m, i, &v);
        if (!k)
            break;
        nnav_rw_row(w);
        if (i >= 40)
            nnav_rw_row_hide_text(w);
        nnav_text_escape_cstr(k, e, sizeof e);
        nnav_rw_cell_cstr(w, E_KEY, k, e);
        nnav_rw_cell_cstr(w, E_VALUE, v ? v : "", NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    if (nd > 40) {
        snprintf(line, sizeof line, "  ... %u more\n", nd - 40);
        nnav_rw_text(w, line);
    }
    uint32_t nc = nnav_pt_code_count(m);
    if (nc) {
        snprintf(line, sizeof line, "\ncode           %u TorchScript file%s (listed; nnav compiles and "
                 "runs none)\n", nc, nc == 1 ? "" : "s");
        nnav_rw_text(w, line);
    }
    nnav_rw_table_begin(w, "code_files", &file_table);
    for (uint32_t i = 0; i < nc; i++) {
        uint64_t bytes;
        int stored;
        nnav_span nm = nnav_pt_code_get(m, i, &bytes, &stored);
        nnav_text_commas(bytes, b, sizeof b);
        snprintf(line, sizeof line, "%s bytes%s", b, stored ? "" : " (compressed)");
        nnav_rw_row(w);
        if (i >= 40)
            nnav_rw_row_hide_text(w);
        nnav_rw_cell_span(w, F_NAME, nm, NULL);
        nnav_rw_cell_uint(w, F_BYTES, bytes, line);
        nnav_rw_cell_bool(w, F_STORED, stored, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    if (nc > 40) {
        snprintf(line, sizeof line, "  ... %u more\n", nc - 40);
        nnav_rw_text(w, line);
    }
    snprintf(line, sizeof line, "\npickle         %u global%s referenced%s\n", s->count,
             s->count == 1 ? "" : "s", s->would_run ? " -- DANGER: loading this file would run code" : "");
    nnav_rw_text(w, line);
    nnav_rw_key_as(w, "pickle", NULL);
    nnav_rw_map(w, 0);
    nnav_pt_scan_write(w, s, "  ");
    nnav_rw_map_end(w);
}
