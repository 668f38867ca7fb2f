/* record.h - one set of calls, two forms: a command states its facts once
 * and the record writer renders them as YAML (through yamlout.h) or as
 * aligned text for a terminal.
 *
 * Contract:
 *  - A fact is a value for machines and, optionally, a display form for
 *    eyes: YAML writes the value exactly (an integer, the file's bytes of a
 *    name); text shows the display form ("1,728", "#3" for an unnamed node),
 *    or the value itself when none is given: a span escaped for a terminal,
 *    a C string as it is (the core's own words and paths, already safe).
 *  - Maps: in YAML a mapping; in text one line a key, "KEY  VALUE" with the
 *    key padded to the column nnav_rw_map was given. Lists are YAML flow
 *    sequences; in text, their items joined by ", " on the key's line.
 *  - Tables: rows of cells under column descriptions (nnav_rw_col). In YAML
 *    a sequence of maps, a cell its column's key; in text a line a row, the
 *    cells padded to their column's width (in display columns: wide and
 *    combining characters counted as a terminal shows them) and separated
 *    by the table's separator. A column says in which forms it shows: a
 *    column without a key is text only, one with NNAV_RW_NOTEXT YAML only.
 *    Cells come in column order; a cell not given is absent from that row.
 *    The text may show the columns in an order of its own (text_order),
 *    a column its own separator before it (sep), a number padded on the
 *    left (NNAV_RW_RIGHT); a cell may hold a list (nnav_rw_cell_list).
 *  - A measured column (NNAV_RW_MEASURE) is as wide as its widest cell: in
 *    text the rows are stated twice, the first time only measured (see
 *    nnav_rw_table_passes), so nothing is kept per row.
 *    A row's text is kept whole however long (its buffer grows).
 *  - Nothing is printed to stderr. nnav_rw_close returns -1 when the output
 *    could not be written (or YAML ran out of memory). */
#ifndef NNAV_RECORD_H
#define NNAV_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nnav.h"
#include "yamlout.h"

enum { NNAV_RW_TEXT, NNAV_RW_YAML };

/* A column's text width that keeps the column out of the text form. */
#define NNAV_RW_NOTEXT (-1)
enum {
    NNAV_RW_MEASURE = 1,    /* as wide as the widest cell, at least `width` */
    NNAV_RW_SKIP_EMPTY = 2, /* text: an empty cell and its separator are left out */
    NNAV_RW_RIGHT = 4,      /* text: padded on the left (numbers) */
    NNAV_RW_CAP = 8,        /* with MEASURE: a cell wider than `most` widens the column to `most` */
};

typedef struct nnav_rw_col {
    const char *key; /* YAML key; NULL: text only */
    int width;       /* text: least width in display columns; NNAV_RW_NOTEXT: YAML only */
    unsigned flags;
    const char *sep; /* text: before this cell; NULL: the table's separator */
    int most;        /* NNAV_RW_MEASURE: a wider cell pushes its own row only; 0: no limit */
    const char *head; /* text: the column's heading (nnav_rw_table_head); NULL: none */
} nnav_rw_col;

typedef struct nnav_rw_table {
    const nnav_rw_col *cols;
    size_t ncols;
    const char *sep; /* text: between two cells of a row */
    int flow;        /* YAML: each row a flow map ({kind: op, ...}) */
    /* text: the columns' order on a line, by index (ntext of them); NULL:
     * the columns' own order (which is YAML's) */
    const uint8_t *text_order;
    size_t ntext;
    const char *indent; /* text: before each line of the table; NULL: nothing */
} nnav_rw_table;

typedef struct nnav_rw {
    int form;
    FILE *out;
    nnav_yw yw;           /* YAML: the writer's own document */
    nnav_yw *y;           /* YAML: where it writes (yw, or a document it was nested in) */
    int nested;           /* YAML: in another writer's document (nnav_rw_nest) */
    int keycol;           /* text: a map's key column */
    int keycols[8], depth; /* text: the enclosing maps' key columns */
    int in_list, items;   /* text: a list on the current key's line, its items so far */
    int list_cut;         /* text: the open list shows no more items */
    int list_as;          /* text: the open list was shown as a scalar (nnav_rw_list_as) */
    int hide;             /* text: the current key's value is not shown */
    int in_line;          /* text: in a line (nnav_rw_line) or a sentence */
    int line_out;         /* text: a sentence has shown something */
    int after_key;        /* text: a key's label was just written */
    int t_hidden;         /* text: the open table is not shown */
    int in_seq, seq_items; /* text: in a sequence of maps, its maps so far */
    int cell_list;        /* text: the column whose list cell is open, + 1 */
    size_t cell_start;    /* text: where that cell starts in row */
    /* text tables */
    const nnav_rw_table *t;
    int measuring;        /* the first of two passes: widths only */
    int widths[24];       /* the columns' widths in this table */
    size_t next_col;      /* the next cell's column */
    int cell[24];         /* text: where each column's cell is in row, -1 when absent */
    char *row;            /* text: this row's cells, each NUL-terminated (grown, freed at close) */
    size_t row_len, row_cap;
    int cell_ok;          /* text: the open cell has its place in row */
    int row_hidden;       /* text: the open row is not shown (nor measured) */
    char *note;           /* text: lines to write under the open row (grown, freed at close) */
    size_t note_len, note_cap;
    int failed;
} nnav_rw;

/* Opens a writer of the form on out. Returns 0, or -1 (YAML: no memory). */
int nnav_rw_open(nnav_rw *w, FILE *out, int form);
/* A YAML writer into the open map or sequence of a document another
 * writes (info's, into which a reader's section goes): nothing opened,
 * and nnav_rw_close leaves the document open. */
void nnav_rw_nest(nnav_rw *w, nnav_yw *outer);
/* Ends the output: 0, or -1 when anything could not be written. */
int nnav_rw_close(nnav_rw *w);
int nnav_rw_yaml(const nnav_rw *w); /* 1 when writing YAML */
/* 1 when a display form given now can be shown (text, not a measuring
 * pass): a caller may skip formatting what would be dropped. A measured
 * column's display is needed on the measuring pass too. */
int nnav_rw_shows(const nnav_rw *w);
/* The YAML writer when writing YAML, else NULL: for a YAML-only fact the
 * core writes itself (declutter's folded inputs), inside an open row. */
nnav_yw *nnav_rw_yw(nnav_rw *w);

/* ---- maps, keys, scalars, lists ---- */
/* A map; in text its keys' labels padded to keycol, the enclosing map's
 * column back at nnav_rw_map_end. */
void nnav_rw_map(nnav_rw *w, int keycol);
void nnav_rw_map_end(nnav_rw *w);
void nnav_rw_key(nnav_rw *w, const char *key);
/* A key whose text form is label instead: "" shows no key (the value
 * still shows); NULL keeps the whole entry, a scalar or a list, out of the
 * text. */
void nnav_rw_key_as(nnav_rw *w, const char *key, const char *label);
void nnav_rw_uint(nnav_rw *w, uint64_t v, const char *text);
void nnav_rw_int(nnav_rw *w, int64_t v, const char *text);
void nnav_rw_cstr(nnav_rw *w, const char *s, const char *text);
void nnav_rw_span(nnav_rw *w, nnav_span s, const char *text);
void nnav_rw_null(nnav_rw *w, const char *text); /* text: "null" without a form */
void nnav_rw_double(nnav_rw *w, double v, const char *text); /* YAML as nnav_yw_double */
void nnav_rw_list(nnav_rw *w);
void nnav_rw_list_end(nnav_rw *w);
/* Text: the open list's shown items end here, text written after them
 * (", ... (300 in all)"); the items that follow are YAML's only. */
void nnav_rw_list_cut(nnav_rw *w, const char *text);
/* A list whose text is text, shown where a scalar's would be (its items
 * are YAML's only); ended by nnav_rw_list_end. */
void nnav_rw_list_as(nnav_rw *w, const char *text);
/* A sequence of maps: YAML a block sequence; in text, nothing of its own
 * but an empty line between two of its maps. */
void nnav_rw_seq(nnav_rw *w);
void nnav_rw_seq_end(nnav_rw *w);
/* A sequence of maps whose text is its maps one after another, with no
 * empty line between them; ended by nnav_rw_seq_end. */
void nnav_rw_seq_tight(nnav_rw *w);
/* A line of prose whose parts are facts: YAML a flow map; in text the
 * keys are not shown, each scalar's display form is written as it is (the
 * caller's words and punctuation around the number) and the line ends at
 * nnav_rw_line_end. As the value of a key with a label, it starts one
 * space after the label, as a scalar does. */
void nnav_rw_line(nnav_rw *w);
void nnav_rw_line_end(nnav_rw *w);
/* A sentence: the next keys of the open map are, in YAML, keys of that
 * map like any other; in text their display forms make one line of prose
 * (as nnav_rw_line's), ended by a newline when anything was shown. A key
 * given no label (nnav_rw_key_as) is YAML only. */
void nnav_rw_sentence(nnav_rw *w);
void nnav_rw_sentence_end(nnav_rw *w);
/* Words for eyes only: text writes s as it is; YAML nothing. For what the
 * text says about facts YAML gives as keys of their own (a heading, a
 * line that sums up what follows). */
void nnav_rw_text(nnav_rw *w, const char *s);
void nnav_rw_bool(nnav_rw *w, int v, const char *text); /* text: "true"/"false" without a form */
/* A count held in a double (MACs): YAML an integer when the double holds
 * one exactly, else the double; text shows text, or the number. */
void nnav_rw_count(nnav_rw *w, double v, const char *text);

/* ---- tables ---- */
/* Starts a table: with key, under that key of the open map (YAML); a
 * top-level sequence without. At most 24 columns. */
void nnav_rw_table_begin(nnav_rw *w, const char *key, const nnav_rw_table *t);
void nnav_rw_table_end(nnav_rw *w);
/* Text: the column is at least width wide in this table (a width known
 * only when the table starts). */
void nnav_rw_table_least(nnav_rw *w, size_t col, int width);
/* Text: the open row is not shown, nor measured (a row YAML lists that
 * the text folds into another). */
void nnav_rw_row_hide_text(nnav_rw *w);
/* Text: lines written under the open row's line when it ends (its
 * values, say), as they are; YAML nothing: the facts they tell are the
 * row's cells. */
void nnav_rw_row_note(nnav_rw *w, const char *text);
/* Text: the open table shows nothing (its rows are YAML's only). */
void nnav_rw_table_hide_text(nnav_rw *w);
/* Text: a line of the columns' headings, aligned as a row is (on the pass
 * that writes); YAML nothing. Between nnav_rw_table_pass and the rows. */
void nnav_rw_table_head(nnav_rw *w);
/* How many times to state the rows: 2 for text with a measured column
 * (the first only measures), else 1. Before each, nnav_rw_table_pass. */
int nnav_rw_table_passes(const nnav_rw *w);
void nnav_rw_table_pass(nnav_rw *w, int pass);
void nnav_rw_row(nnav_rw *w);
void nnav_rw_row_end(nnav_rw *w);
/* Cells: the next column's value and display form (NULL: the value). col
 * is the column's index; columns between the last cell and col are absent. */
void nnav_rw_cell_uint(nnav_rw *w, size_t col, uint64_t v, const char *text);
void nnav_rw_cell_cstr(nnav_rw *w, size_t col, const char *s, const char *text);
void nnav_rw_cell_span(nnav_rw *w, size_t col, nnav_span s, const char *text);
void nnav_rw_cell_int(nnav_rw *w, size_t col, int64_t v, const char *text);
void nnav_rw_cell_double(nnav_rw *w, size_t col, double v, const char *text);
void nnav_rw_cell_bool(nnav_rw *w, size_t col, int v, const char *text);
void nnav_rw_cell_count(nnav_rw *w, size_t col, double v, const char *text); /* as nnav_rw_count */
/* A null cell: YAML null; text shows text, or nothing (absent) when NULL. */
void nnav_rw_cell_null(nnav_rw *w, size_t col, const char *text);
/* A list-valued cell: between these, the items as scalars (nnav_rw_int,
 * nnav_rw_cstr, nnav_rw_null, ...). YAML a flow sequence under the column's
 * key; text shows text, or (NULL) the items' display forms joined by ", ". */
void nnav_rw_cell_list(nnav_rw *w, size_t col, const char *text);
void nnav_rw_cell_list_end(nnav_rw *w);

#endif
