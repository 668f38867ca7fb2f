/* record.c - the record writer (record.h): YAML through yamlout.h, or
 * aligned text. */
#include "record.h"
#include "report.h"

#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nnav_rw_open(nnav_rw *w, FILE *out, int form)
{
    memset(w, 0, sizeof *w);
    w->form = form;
    w->out = out;
    w->y = &w->yw;
    if (form == NNAV_RW_YAML && nnav_yw_open(w->y, out) < 0)
        return -1;
    return 0;
}

void nnav_rw_nest(nnav_rw *w, nnav_yw *outer)
{
    memset(w, 0, sizeof *w);
    w->form = NNAV_RW_YAML;
    w->y = outer;
    w->nested = 1;
}

int nnav_rw_close(nnav_rw *w)
{
    free(w->row);
    w->row = NULL;
    w->row_cap = 0;
    free(w->note);
    w->note = NULL;
    w->note_cap = 0;
    if (w->form == NNAV_RW_YAML && w->nested)
        return w->failed ? -1 : 0;
    if (w->form == NNAV_RW_YAML)
        return nnav_yw_close(w->y) < 0 || w->failed ? -1 : 0;
    return ferror(w->out) || w->failed ? -1 : 0;
}

int nnav_rw_yaml(const nnav_rw *w)
{
    return w->form == NNAV_RW_YAML;
}

int nnav_rw_shows(const nnav_rw *w)
{
    return w->form == NNAV_RW_TEXT && !w->measuring;
}

nnav_yw *nnav_rw_yw(nnav_rw *w)
{
    return w->form == NNAV_RW_YAML ? w->y : NULL;
}

/* ---- maps, keys, scalars, lists ---- */

void nnav_rw_map(nnav_rw *w, int keycol)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_map(w->y);
        return;
    }
    if (w->depth < (int)(sizeof w->keycols / sizeof *w->keycols))
        w->keycols[w->depth] = w->keycol;
    w->depth++;
    w->keycol = keycol;
    if (w->in_seq && w->seq_items++)
        fputc('\n', w->out);
}

void nnav_rw_map_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_map_end(w->y);
        return;
    }
    if (w->depth > 0 && --w->depth < (int)(sizeof w->keycols / sizeof *w->keycols))
        w->keycol = w->keycols[w->depth];
}

void nnav_rw_seq_tight(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML)
        nnav_yw_seq(w->y);
}

void nnav_rw_key(nnav_rw *w, const char *key)
{
    nnav_rw_key_as(w, key, key);
}

void nnav_rw_key_as(nnav_rw *w, const char *key, const char *label)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_key(w->y, key);
        return;
    }
    w->hide = !label;
    w->after_key = label && label[0] && !w->in_line;
    if (label && !w->in_line)
        fprintf(w->out, "%-*s", w->keycol, label);
}

static void row_put(nnav_rw *w, const char *text);
static void text_cell(nnav_rw *w, size_t col, const nnav_rw_col *c, const char *text);

/* Text: a scalar's display form, on its key's line, as a list's item, as
 * a part of a line or as an item of a list cell. */
static void text_scalar(nnav_rw *w, const char *text)
{
    w->after_key = 0;
    if (w->cell_list) {
        if (w->cell_list > 0) {
            row_put(w, w->items++ ? ", " : "");
            row_put(w, text);
        }
    } else if (w->hide) {
        w->hide = w->in_list;
    } else if (w->in_list && w->list_cut) {
        return;
    } else if (w->in_line) {
        fputs(text, w->out);
        w->line_out |= text[0] != 0;
    }
    else if (w->in_list)
        fprintf(w->out, "%s %s", w->items++ ? "," : "", text);
    else
        fprintf(w->out, " %s\n", text);
}

void nnav_rw_uint(nnav_rw *w, uint64_t v, const char *text)
{
    char b[32];
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_uint(w->y, v);
        return;
    }
    if (!text)
        snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    text_scalar(w, text ? text : b);
}

void nnav_rw_int(nnav_rw *w, int64_t v, const char *text)
{
    char b[32];
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_int(w->y, v);
        return;
    }
    if (!text)
        snprintf(b, sizeof b, "%lld", (long long)v);
    text_scalar(w, text ? text : b);
}

void nnav_rw_cstr(nnav_rw *w, const char *s, const char *text)
{
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_cstr(w->y, s);
        return;
    }
    text_scalar(w, text ? text : s);
}

void nnav_rw_span(nnav_rw *w, nnav_span s, const char *text)
{
    char b[4096];
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_span(w->y, s);
        return;
    }
    if (!text)
        nnav_text_escape(s.p, s.n, b, sizeof b);
    text_scalar(w, text ? text : b);
}

void nnav_rw_bool(nnav_rw *w, int v, const char *text)
{
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_bool(w->y, v);
        return;
    }
    text_scalar(w, text ? text : v ? "true" : "false");
}

void nnav_rw_count(nnav_rw *w, double v, const char *text)
{
    char b[64];
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_report_yaml_count(w->y, v);
        return;
    }
    if (!text)
        snprintf(b, sizeof b, "%.17g", v);
    text_scalar(w, text ? text : b);
}

void nnav_rw_double(nnav_rw *w, double v, const char *text)
{
    char b[64];
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_double(w->y, v);
        return;
    }
    if (!text)
        snprintf(b, sizeof b, "%.17g", v);
    text_scalar(w, text ? text : b);
}

void nnav_rw_null(nnav_rw *w, const char *text)
{
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list >= 0)
            nnav_yw_null(w->y);
    } else
        text_scalar(w, text ? text : "null");
}

void nnav_rw_list(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_seq_flow(w->y);
        return;
    }
    w->in_list = 1;
    w->items = 0;
}

void nnav_rw_list_as(nnav_rw *w, const char *text)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_seq_flow(w->y);
        return;
    }
    text_scalar(w, text);
    w->in_list = 1;
    w->items = 0;
    w->list_cut = 1;
    w->list_as = 1;
}

void nnav_rw_list_cut(nnav_rw *w, const char *text)
{
    if (w->form == NNAV_RW_YAML || !w->in_list)
        return;
    if (!w->hide && !w->list_cut)
        fputs(text, w->out);
    w->list_cut = 1;
}

void nnav_rw_list_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_seq_end(w->y);
        return;
    }
    w->in_list = 0;
    w->list_cut = 0;
    if (w->list_as) {
        w->list_as = 0;
        return;
    }
    if (w->hide)
        w->hide = 0;
    else
        fputc('\n', w->out);
}

void nnav_rw_seq(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML)
        nnav_yw_seq(w->y);
    w->in_seq = 1;
    w->seq_items = 0;
}

void nnav_rw_seq_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML)
        nnav_yw_seq_end(w->y);
    w->in_seq = 0;
}

void nnav_rw_line(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_map_flow(w->y);
        return;
    }
    if (w->after_key && !w->hide)
        fputc(' ', w->out);
    w->after_key = 0;
    w->in_line = 1;
}

void nnav_rw_line_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_map_end(w->y);
        return;
    }
    w->in_line = 0;
    fputc('\n', w->out);
}

void nnav_rw_sentence(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML)
        return;
    w->in_line = 1;
    w->line_out = 0;
}

void nnav_rw_sentence_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML)
        return;
    w->in_line = 0;
    w->hide = 0;
    if (w->line_out)
        fputc('\n', w->out);
    w->line_out = 0;
}

void nnav_rw_text(nnav_rw *w, const char *s)
{
    if (w->form == NNAV_RW_TEXT)
        fputs(s, w->out);
}

/* ---- tables ---- */

void nnav_rw_table_begin(nnav_rw *w, const char *key, const nnav_rw_table *t)
{
    w->t = t;
    w->t_hidden = 0;
    if (t->ncols > sizeof w->widths / sizeof *w->widths) {
        w->failed = 1;
        w->t = NULL;
        return;
    }
    for (size_t i = 0; i < t->ncols; i++)
        w->widths[i] = t->cols[i].width;
    if (w->form == NNAV_RW_YAML) {
        if (key)
            nnav_yw_key(w->y, key);
        nnav_yw_seq(w->y);
    }
}

void nnav_rw_table_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML && w->t)
        nnav_yw_seq_end(w->y);
    w->t = NULL;
    w->measuring = 0;
    w->t_hidden = 0;
}

void nnav_rw_table_least(nnav_rw *w, size_t col, int width)
{
    if (w->t && col < w->t->ncols && width > w->widths[col])
        w->widths[col] = width;
}

void nnav_rw_row_hide_text(nnav_rw *w)
{
    w->row_hidden = 1;
}

void nnav_rw_table_hide_text(nnav_rw *w)
{
    w->t_hidden = 1;
}

int nnav_rw_table_passes(const nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML || !w->t)
        return 1;
    for (size_t i = 0; i < w->t->ncols; i++)
        if (w->t->cols[i].flags & NNAV_RW_MEASURE)
            return 2;
    return 1;
}

void nnav_rw_table_pass(nnav_rw *w, int pass)
{
    w->measuring = pass == 0 && nnav_rw_table_passes(w) == 2;
}

void nnav_rw_row(nnav_rw *w)
{
    if (!w->t)
        return;
    w->next_col = 0;
    w->row_len = 0;
    w->row_hidden = 0;
    w->note_len = 0;
    for (size_t i = 0; i < w->t->ncols; i++)
        w->cell[i] = -1;
    if (w->form == NNAV_RW_YAML)
        w->t->flow ? nnav_yw_map_flow(w->y) : nnav_yw_map(w->y);
}

/* Text: the row's cells in the text's order, each padded to its column's
 * width before the separator that follows it; nothing after the last. */
/* n spaces, without a format string (a row writes many). */
static void spaces(FILE *f, int n)
{
    static const char sp[] = "                                ";
    for (; n > 0; n -= (int)sizeof sp - 1)
        fwrite(sp, 1, n < (int)sizeof sp - 1 ? (size_t)n : sizeof sp - 1, f);
}

static void text_row(nnav_rw *w)
{
    const nnav_rw_table *t = w->t;
    int printed = 0, pad = 0;
    size_t n = t->text_order ? t->ntext : t->ncols;
    if (t->indent)
        fputs(t->indent, w->out);
    for (size_t k = 0; k < n; k++) {
        size_t col = t->text_order ? t->text_order[k] : k;
        if (col >= t->ncols || w->cell[col] < 0)
            continue;
        const char *text = w->row + w->cell[col];
        if ((t->cols[col].flags & NNAV_RW_SKIP_EMPTY) && !text[0])
            continue;
        if (printed++) {
            spaces(w->out, pad);
            fputs(t->cols[col].sep ? t->cols[col].sep : t->sep, w->out);
        }
        /* A cell as wide as its column needs no counting of its columns. */
        int cols = w->widths[col] > 0 ? nnav_text_cols(text) : 0;
        pad = w->widths[col] > cols ? w->widths[col] - cols : 0;
        if (t->cols[col].flags & NNAV_RW_RIGHT) {
            spaces(w->out, pad);
            pad = 0;
        }
        fputs(text, w->out);
    }
    fputc('\n', w->out);
}

void nnav_rw_row_end(nnav_rw *w)
{
    if (!w->t)
        return;
    if (w->form == NNAV_RW_YAML) {
        nnav_yw_map_end(w->y);
        return;
    }
    if (!w->measuring && !w->t_hidden && !w->row_hidden) {
        text_row(w);
        if (w->note_len)
            fwrite(w->note, 1, w->note_len, w->out);
    }
    w->note_len = 0;
}

void nnav_rw_row_note(nnav_rw *w, const char *text)
{
    size_t len = strlen(text);
    if (w->form == NNAV_RW_YAML || !w->t || w->measuring)
        return;
    if (w->note_len + len > w->note_cap) {
        size_t cap = w->note_cap ? w->note_cap : 256;
        while (cap < w->note_len + len && cap <= SIZE_MAX / 2)
            cap *= 2;
        char *p = cap >= w->note_len + len ? realloc(w->note, cap) : NULL;
        if (!p) {
            w->failed = 1;
            return;
        }
        w->note = p;
        w->note_cap = cap;
    }
    memcpy(w->note + w->note_len, text, len);
    w->note_len += len;
}

static void cell_open(nnav_rw *w, size_t col);
static void row_put(nnav_rw *w, const char *text);

void nnav_rw_table_head(nnav_rw *w)
{
    const nnav_rw_table *t = w->t;
    if (!t || w->form == NNAV_RW_YAML || w->measuring || w->t_hidden)
        return;
    w->row_len = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        w->cell[i] = -1;
        if (!t->cols[i].head || t->cols[i].width == NNAV_RW_NOTEXT)
            continue;
        cell_open(w, i);
        row_put(w, t->cols[i].head);
        if (w->cell_ok)
            w->row_len++; /* past the heading's NUL */
        w->cell_ok = 0;
    }
    text_row(w);
}

/* The column of the next cell, or NULL when col is out of order or range. */
static const nnav_rw_col *cell_col(nnav_rw *w, size_t col)
{
    if (!w->t || col >= w->t->ncols || col < w->next_col) {
        w->failed = 1;
        return NULL;
    }
    w->next_col = col + 1;
    return &w->t->cols[col];
}

/* Text: room for need bytes in the row's buffer, grown as a row needs. */
static int row_room(nnav_rw *w, size_t need)
{
    if (need <= w->row_cap)
        return 1;
    size_t cap = w->row_cap ? w->row_cap : 1024;
    while (cap < need && cap <= INT_MAX / 2)
        cap *= 2;
    char *p = cap >= need ? realloc(w->row, cap) : NULL;
    if (!p)
        return 0;
    w->row = p;
    w->row_cap = cap;
    return 1;
}

/* Text: a cell is put into the row's buffer between cell_open and
 * cell_close, which measures it (and drops it) on a measuring pass. A cell
 * that finds no memory is absent, and close says so. */
static void cell_open(nnav_rw *w, size_t col)
{
    w->cell_ok = row_room(w, w->row_len + 1);
    if (!w->cell_ok) {
        w->failed = 1;
        return;
    }
    w->row[w->row_len] = 0;
    w->cell[col] = (int)w->row_len;
    w->cell_start = w->row_len;
}

/* Appends text to the open cell; the NUL after it always has room. */
static void row_put(nnav_rw *w, const char *text)
{
    size_t len = strlen(text);
    if (!w->cell_ok)
        return;
    if (!row_room(w, w->row_len + len + 1)) {
        w->failed = 1;
        return;
    }
    memcpy(w->row + w->row_len, text, len);
    w->row_len += len;
    w->row[w->row_len] = 0;
}

static void cell_close(nnav_rw *w, size_t col, const nnav_rw_col *c)
{
    if (!w->cell_ok)
        return;
    w->cell_ok = 0;
    w->row_len++; /* past the cell's NUL */
    if (!w->measuring)
        return;
    int cols = nnav_text_cols(w->row + w->cell_start);
    if ((c->flags & NNAV_RW_CAP) && c->most && cols > c->most)
        cols = c->most;
    if ((c->flags & NNAV_RW_MEASURE) && cols > w->widths[col] && !w->row_hidden &&
        (!c->most || cols <= c->most))
        w->widths[col] = cols;
    w->row_len = w->cell_start;
    w->cell[col] = -1;
}

/* Text: measure the cell, or keep it for the end of the row. */
static void text_cell(nnav_rw *w, size_t col, const nnav_rw_col *c, const char *text)
{
    /* A measuring pass keeps nothing of a column it does not measure. */
    if (c->width == NNAV_RW_NOTEXT || (w->measuring && !(c->flags & NNAV_RW_MEASURE)))
        return;
    cell_open(w, col);
    row_put(w, text);
    cell_close(w, col, c);
}

void nnav_rw_cell_uint(nnav_rw *w, size_t col, uint64_t v, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_uint(w->y, v);
        return;
    }
    if (c->width == NNAV_RW_NOTEXT)
        return;
    char b[32];
    if (!text)
        snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    text_cell(w, col, c, text ? text : b);
}

void nnav_rw_cell_cstr(nnav_rw *w, size_t col, const char *s, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_cstr(w->y, s);
        return;
    }
    text_cell(w, col, c, text ? text : s);
}

void nnav_rw_cell_span(nnav_rw *w, size_t col, nnav_span s, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_span(w->y, s);
        return;
    }
    if (c->width == NNAV_RW_NOTEXT)
        return;
    char b[4096];
    if (!text)
        nnav_text_escape(s.p, s.n, b, sizeof b);
    text_cell(w, col, c, text ? text : b);
}

void nnav_rw_cell_int(nnav_rw *w, size_t col, int64_t v, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_int(w->y, v);
        return;
    }
    if (c->width == NNAV_RW_NOTEXT)
        return;
    char b[32];
    if (!text)
        snprintf(b, sizeof b, "%lld", (long long)v);
    text_cell(w, col, c, text ? text : b);
}

void nnav_rw_cell_double(nnav_rw *w, size_t col, double v, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_double(w->y, v);
        return;
    }
    if (c->width == NNAV_RW_NOTEXT)
        return;
    char b[64];
    if (!text)
        snprintf(b, sizeof b, "%.17g", v);
    text_cell(w, col, c, text ? text : b);
}

void nnav_rw_cell_bool(nnav_rw *w, size_t col, int v, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_bool(w->y, v);
        return;
    }
    text_cell(w, col, c, text ? text : v ? "true" : "false");
}

void nnav_rw_cell_count(nnav_rw *w, size_t col, double v, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_report_yaml_count(w->y, v);
        return;
    }
    if (c->width == NNAV_RW_NOTEXT)
        return;
    char b[64];
    if (!text)
        snprintf(b, sizeof b, "%.17g", v);
    text_cell(w, col, c, text ? text : b);
}

void nnav_rw_cell_null(nnav_rw *w, size_t col, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_null(w->y);
        return;
    }
    if (text)
        text_cell(w, col, c, text);
}

void nnav_rw_cell_list(nnav_rw *w, size_t col, const char *text)
{
    const nnav_rw_col *c = cell_col(w, col);
    if (!c)
        return;
    if (w->form == NNAV_RW_YAML) {
        w->cell_list = c->key ? (int)col + 1 : -1; /* a text-only column: items unwritten */
        if (c->key)
            nnav_yw_key(w->y, c->key), nnav_yw_seq_flow(w->y);
        return;
    }
    w->items = 0;
    w->cell_list = c->width == NNAV_RW_NOTEXT || text ? -1 : (int)col + 1;
    if (w->cell_list > 0)
        cell_open(w, col);
    else if (c->width != NNAV_RW_NOTEXT)
        text_cell(w, col, c, text);
}

void nnav_rw_cell_list_end(nnav_rw *w)
{
    if (w->form == NNAV_RW_YAML) {
        if (w->cell_list > 0)
            nnav_yw_seq_end(w->y);
        w->cell_list = 0;
        return;
    }
    if (w->cell_list > 0) {
        size_t col = (size_t)w->cell_list - 1;
        cell_close(w, col, &w->t->cols[col]);
    }
    w->cell_list = 0;
}
