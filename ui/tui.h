/* tui.h - the ncurses explorer, as src/main.c sees it. */
#ifndef NNAV_UI_TUI_H
#define NNAV_UI_TUI_H

#include "diff.h"

#include "shape.h"

/* The explorer's options (`nnav [OPTIONS] MODEL`). */
typedef struct nnav_tui_opts {
    int follow_links;      /* as nnav_open_opts.follow_links (--follow-links) */
    int no_declutter;      /* --no-declutter: open showing every node, as the file has them */
    const nnav_bind *bind; /* --dim NAME=N: the named dims' values for shapes and costs */
    size_t n_bind;
} nnav_tui_opts;

/* Opens the model at path (showing progress for a long open), runs the
 * explorer until the user quits, restores the terminal, and returns the exit
 * status: 0, or 2 when the model cannot be opened (the error is printed to
 * stderr with the terminal in its normal state). o may be NULL (the
 * defaults). */
int nnav_tui_run(const char *path, const nnav_tui_opts *o);

/* Compare mode (`nnav A B`, `nnav diff A B` on a terminal): opens both
 * models (progress shown as for one), compares them (nnav_diff_run with o,
 * or the defaults when o is NULL), and runs the explorer on B with the
 * differences marked; X shows the other side. Returns as diff(1) does: 0 no
 * differences, 1 differences, 2 trouble (a model that cannot be opened, two
 * formats, out of memory; the message printed to stderr with the terminal
 * in its normal state); 128 + N on signal N. */
int nnav_tui_compare(const char *a, const char *b, const nnav_diff_opts *o, int follow_links);

#endif
