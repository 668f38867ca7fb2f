/* layout.h - where the panes go, from the terminal size alone (no curses).
 *
 * Row 0 is the header, the last row the status line. Between them, two bands:
 * the subgraph tree and the node list (or the graph view) on top, detail and
 * initializers below. Every pane keeps a title row; sizes grow with the
 * terminal. The graph view takes a taller top band, since boxes need rows.
 */
#ifndef NNAV_UI_LAYOUT_H
#define NNAV_UI_LAYOUT_H

#include "panes.h"

typedef struct rect { int y, x, h, w; } rect;

typedef struct ui_layout {
    rect header, status;
    rect pane[PANE_COUNT]; /* title row included */
    int sep_top_x, sep_bottom_x; /* columns of the vertical separators */
    int too_small;
    int zoom; /* 1 + the pane zoomed to fill the screen; 0 when none */
    int tree_wide; /* computed for the tree holding the focus (see layout_compute_fit) */
} ui_layout;

#define LAYOUT_MIN_LINES 12
#define LAYOUT_MIN_COLS 40

void layout_compute(int lines, int cols, int graph_view, ui_layout *out);
/* The same, with the tree pane as wide as its content asks (tree_want
 * columns, its longest row), from 14 columns (the title row) up to a
 * quarter of the width; the node list gets the rest. tree_want 0: a quarter, as above.
 * tree_wide (the tree holds the focus): up to two fifths of the width and
 * 64 columns, so scope rows keep their params and MACs while one browses
 * them; the node list takes the room back when the focus leaves. */
void layout_compute_fit(int lines, int cols, int graph_view, int tree_want, int tree_wide,
                        ui_layout *out);
/* For a model of no graph (a store of tensors: no node to list): the
 * node list gets no room (a zero-sized rect, never hit nor focused); the
 * tree of scopes takes the left column from top to bottom, the
 * initializers the right column's top, the detail its bottom. */
void layout_compute_store(int lines, int cols, int tree_want, int tree_wide, ui_layout *out);
/* Zooms pane `id` (a computed layout): it takes every row between the
 * header and the status line and every column; the other panes and the
 * separators get no room (zero-sized rects, never hit). */
void layout_zoom(ui_layout *l, int id);
/* The pane containing screen cell (y, x), or -1. */
int layout_hit(const ui_layout *l, int y, int x);

#endif
