/* tui.h - the ncurses explorer, as src/main.c sees it. */
#ifndef NNAV_UI_TUI_H
#define NNAV_UI_TUI_H

#include "diff.h"

/* Opens the model at path (showing progress for a long open), runs the
 * explorer until the user quits, restores the terminal, and returns the exit
 * status: 0, or 2 when the model cannot be opened (the error is printed to
 * stderr with the terminal in its normal state). follow_links: as
 * nnav_open_opts.follow_links (the user's --follow-links). */
int nnav_tui_run(const char *path, int follow_links);

/* Compare mode (`nnav A B`, `nnav diff A B` on a terminal): opens both
 * models (progress shown as for one), compares them (nnav_diff_run with o,
 * or the defaults when o is NULL), and runs the explorer on B with the
 * differences marked; X shows the other side. Returns as diff(1) does: 0 no
 * differences, 1 differences, 2 trouble (a model that cannot be opened, two
 * formats, out of memory; the message printed to stderr with the terminal
 * in its normal state); 128 + N on signal N. */
int nnav_tui_compare(const char *a, const char *b, const nnav_diff_opts *o, int follow_links);

#endif
