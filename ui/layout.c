/* layout.c - pane geometry. */
#include "layout.h"

#include <string.h>

enum { TREE_MIN = 14 }; /* the title row, "Graphs  N", and a short label */

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

void layout_compute_fit(int lines, int cols, int graph_view, int tree_want, int tree_wide,
                        ui_layout *out)
{
    memset(out, 0, sizeof *out);
    out->tree_wide = tree_wide;
    out->header = (rect){ 0, 0, 1, cols };
    out->status = (rect){ lines - 1, 0, 1, cols };
    if (lines < LAYOUT_MIN_LINES || cols < LAYOUT_MIN_COLS) {
        out->too_small = 1;
        return;
    }
    int body = lines - 2;
    /* The list panes get the top half; the graph view two thirds. */
    int top = graph_view ? body * 2 / 3 : (body + 1) / 2;
    top = clamp(top, 4, body - 4);
    int bottom = body - top;
    /* A quarter at most: one graph's "main 11" needs a dozen columns, and
     * the node list beside it uses every column it gets. */
    int tree_w = clamp(cols / 4, 18, 48);
    if (tree_wide && tree_want > tree_w)
        tree_w = clamp(tree_want, tree_w, clamp(cols * 2 / 5, tree_w, 64));
    if (tree_want > 0)
        tree_w = clamp(tree_want, TREE_MIN, tree_w);
    int detail_w = cols * 55 / 100;

    out->pane[PANE_TREE] = (rect){ 1, 0, top, tree_w };
    out->pane[PANE_NODES] = (rect){ 1, tree_w + 1, top, cols - tree_w - 1 };
    out->pane[PANE_DETAIL] = (rect){ 1 + top, 0, bottom, detail_w };
    out->pane[PANE_TENSORS] = (rect){ 1 + top, detail_w + 1, bottom, cols - detail_w - 1 };
    out->sep_top_x = tree_w;
    out->sep_bottom_x = detail_w;
}

void layout_compute_store(int lines, int cols, int tree_want, int tree_wide, ui_layout *out)
{
    layout_compute_fit(lines, cols, 0, tree_want, tree_wide, out);
    if (out->too_small)
        return;
    int body = lines - 2, tree_w = out->pane[PANE_TREE].w;
    int top = clamp(body * 55 / 100, 4, body - 4);
    out->pane[PANE_TREE] = (rect){ 1, 0, body, tree_w };
    out->pane[PANE_NODES] = (rect){ 1, 0, 0, 0 };
    out->pane[PANE_TENSORS] = (rect){ 1, tree_w + 1, top, cols - tree_w - 1 };
    out->pane[PANE_DETAIL] = (rect){ 1 + top, tree_w + 1, body - top, cols - tree_w - 1 };
    out->sep_top_x = tree_w;
    out->sep_bottom_x = -1; /* the one separator runs the whole height */
}

void layout_compute(int lines, int cols, int graph_view, ui_layout *out)
{
    layout_compute_fit(lines, cols, graph_view, 0, 0, out);
}

void layout_zoom(ui_layout *l, int id)
{
    if (l->too_small || id < 0 || id >= PANE_COUNT)
        return;
    int top = l->header.y + l->header.h, cols = l->header.w;
    for (int i = 0; i < PANE_COUNT; i++)
        l->pane[i] = (rect){ top, 0, 0, 0 };
    l->pane[id] = (rect){ top, 0, l->status.y - top, cols };
    l->sep_top_x = l->sep_bottom_x = -1;
    l->zoom = id + 1;
}

int layout_hit(const ui_layout *l, int y, int x)
{
    if (l->too_small)
        return -1;
    for (int i = 0; i < PANE_COUNT; i++) {
        const rect *r = &l->pane[i];
        if (y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w)
            return i;
    }
    return -1;
}
