/* pane_tree.c - the subgraph tree: roots (main graph, training graphs,
 * functions) with every If/Loop/Scan or other graph-valued attribute body
 * nested under its owner. Moving the cursor selects the graph.
 *
 * Only the expanded part is flattened into rows, so a model with many bodies
 * costs what is open, not what exists.
 */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tree_row {
    uint32_t g;
    uint32_t depth;
} tree_row;

typedef struct tree {
    uint8_t *open;     /* per graph id */
    tree_row *rows;
    uint32_t n, cap;
    uint32_t *roots;
    uint32_t nroots;
} tree;

#define T(p) ((tree *)(p)->priv)

static int push_row(tree *t, uint32_t g, uint32_t depth)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 64;
        tree_row *r = realloc(t->rows, cap * sizeof *r);
        if (!r)
            return -1;
        t->rows = r;
        t->cap = cap;
    }
    t->rows[t->n++] = (tree_row){ g, depth };
    return 0;
}

/* Depth-first over the open graphs, with an explicit stack: bodies can nest
 * thousands deep. */
static void rebuild(ui *u, tree *t)
{
    t->n = 0;
    size_t cap = t->nroots + 64, sp = 0;
    struct frame { uint32_t g, depth; } *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return;
    for (uint32_t r = t->nroots; r-- > 0;)
        stack[sp++] = (struct frame){ t->roots[r], 0 };
    while (sp > 0) {
        struct frame f = stack[--sp];
        if (push_row(t, f.g, f.depth) != 0)
            break;
        if (!t->open[f.g])
            continue;
        uint32_t nc;
        const uint32_t *c = nnav_graph_children(u->m, f.g, &nc);
        if (sp + nc > cap) {
            size_t ncap = (sp + nc) * 2;
            struct frame *s = realloc(stack, ncap * sizeof *s);
            if (!s)
                break;
            stack = s;
            cap = ncap;
        }
        for (uint32_t i = nc; i-- > 0;)
            stack[sp++] = (struct frame){ c[i], f.depth + 1 };
    }
    free(stack);
}

static int root_rank(const nnav_graph *g)
{
    switch (g->kind) {
    case NNAV_GRAPH_MAIN: return 0;
    case NNAV_GRAPH_TRAINING_INIT: case NNAV_GRAPH_TRAINING_ALGO: return 1;
    case NNAV_GRAPH_FUNCTION: return 2;
    default: return 3;
    }
}

static int tree_open(ui *u, pane *p)
{
    tree *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    p->priv = t;
    uint32_t ng = nnav_graph_count(u->m);
    t->open = calloc(ng ? ng : 1, 1);
    t->roots = malloc((ng ? ng : 1) * sizeof *t->roots);
    if (!t->open || !t->roots)
        return -1;
    for (int rank = 0; rank <= 3; rank++)
        for (uint32_t g = 0; g < ng; g++) {
            const nnav_graph *gr = nnav_graph_get(u->m, g);
            if (gr->parent == NNAV_NONE && root_rank(gr) == rank)
                t->roots[t->nroots++] = g;
        }
    /* Small models open fully; big ones show their roots and first level. */
    for (uint32_t g = 0; g < ng; g++)
        t->open[g] = ng <= 256 || nnav_graph_get(u->m, g)->parent == NNAV_NONE;
    rebuild(u, t);
    return 0;
}

static void tree_close(ui *u, pane *p)
{
    (void)u;
    tree *t = T(p);
    if (!t)
        return;
    free(t->open);
    free(t->rows);
    free(t->roots);
    free(t);
    p->priv = NULL;
}

static uint32_t tree_lines(ui *u, pane *p)
{
    (void)u;
    return T(p)->n;
}

static uint32_t row_of(tree *t, uint32_t g)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->rows[i].g == g)
            return i;
    return NNAV_NONE;
}

void tree_reveal(ui *u, pane *p, uint32_t g)
{
    tree *t = T(p);
    if (!t || g == NNAV_NONE)
        return;
    int changed = 0;
    for (uint32_t a = nnav_graph_get(u->m, g)->parent; a != NNAV_NONE;
         a = nnav_graph_get(u->m, a)->parent)
        if (!t->open[a]) {
            t->open[a] = 1;
            changed = 1;
        }
    if (changed)
        rebuild(u, t);
    uint32_t r = row_of(t, g);
    if (r != NNAV_NONE)
        pane_set_cursor(p, r, t->n);
}

static void tree_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    draw_fmt(y, x, w, a, "%u", nnav_graph_count(u->m));
}

static void tree_draw_line(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected)
{
    tree *t = T(p);
    const tree_row *r = &t->rows[line];
    const nnav_graph *g = nnav_graph_get(u->m, r->g);
    attr_t sel = selected ? draw_attr(selected) : 0;
    int indent = (int)(r->depth > 8 ? 8 : r->depth) * 2;
    if (indent > w / 2)
        indent = w / 2;
    int c = indent;
    enum glyph gl = g->child_count == 0 ? G_LEAF : t->open[r->g] ? G_OPEN : G_CLOSED;
    c += draw_text(y, x + c, w - c, draw_glyph(gl), sel);
    c += draw_text(y, x + c, w - c, " ", sel);
    c += ui_draw_graph_label(u, r->g, y, x + c, w - c, sel);
    draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), " %u", g->node_count);
}

static void tree_select(ui *u, pane *p)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return;
    uint32_t g = t->rows[p->cur].g;
    ui_set_graph(u, g);
    detail_set(u, &u->pane[PANE_DETAIL], PLACE_GRAPH, g);
}

static void toggle(ui *u, pane *p, int want)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return;
    uint32_t g = t->rows[p->cur].g;
    if (nnav_graph_get(u->m, g)->child_count == 0)
        return;
    t->open[g] = want < 0 ? !t->open[g] : want;
    rebuild(u, t);
    pane_set_cursor(p, row_of(t, g), t->n);
}

static int tree_request(ui *u, pane *p, enum request r)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return 0;
    uint32_t g = t->rows[p->cur].g;
    const nnav_graph *gr = nnav_graph_get(u->m, g);
    switch (r) {
    case REQ_ENTER:
        toggle(u, p, -1);
        return 1;
    case REQ_MOVE_RIGHT:
        if (gr->child_count && !t->open[g])
            toggle(u, p, 1);
        else if (gr->child_count && p->cur + 1 < t->n) {
            pane_set_cursor(p, p->cur + 1, t->n);
            tree_select(u, p);
        }
        return 1;
    case REQ_MOVE_LEFT:
        if (gr->child_count && t->open[g]) {
            toggle(u, p, 0);
        } else if (gr->parent != NNAV_NONE) {
            uint32_t row = row_of(t, gr->parent);
            if (row != NNAV_NONE) {
                pane_set_cursor(p, row, t->n);
                tree_select(u, p);
            }
        }
        return 1;
    default:
        return 0;
    }
}

static int tree_yank(ui *u, pane *p, nnav_span *out, char *buf, size_t n)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return 0;
    size_t k = nnav_graph_path(u->m, t->rows[p->cur].g, buf, n);
    *out = (nnav_span){ (const uint8_t *)buf, k < n ? k : n - 1 };
    return 1;
}

static int tree_here(ui *u, pane *p, place *out)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return 0;
    *out = ui_place_graph(u, t->rows[p->cur].g);
    return 1;
}

static void tree_click(ui *u, pane *p, int row, int col)
{
    tree *t = T(p);
    uint32_t line = p->top + (uint32_t)row;
    if (line >= t->n)
        return;
    int indent = (int)(t->rows[line].depth > 8 ? 8 : t->rows[line].depth) * 2;
    pane_set_cursor(p, line, t->n);
    if (col >= indent && col <= indent + 1)
        toggle(u, p, -1);
    tree_select(u, p);
}

int tree_fit_width(ui *u)
{
    if (!u->m)
        return 0;
    char label[300], num[16];
    uint32_t ng = nnav_graph_count(u->m);
    /* The title: " Graphs  N". */
    int want = 1 + draw_width("Graphs") + 2 + snprintf(num, sizeof num, "%u", ng);
    /* Every row as it would be drawn with all bodies open: indent (depth,
     * counted to 8 as tree_draw_line does), glyph, label, node count. */
    for (uint32_t g = 0; g < ng; g++) {
        const nnav_graph *gr = nnav_graph_get(u->m, g);
        int depth = 0;
        for (uint32_t at = gr->parent; at != NNAV_NONE && depth < 8;
             at = nnav_graph_get(u->m, at)->parent)
            depth++;
        ui_graph_label(u, g, label, sizeof label);
        int w = depth * 2 + draw_width(draw_glyph(G_OPEN)) + 1 + draw_width(label) + 1 +
                snprintf(num, sizeof num, "%u", gr->node_count);
        if (w > want)
            want = w;
    }
    return want + 1; /* a blank column before the separator */
}

const pane_ops pane_tree_ops = {
    .name = "Graphs",
    .open = tree_open,
    .close = tree_close,
    .title = tree_title,
    .lines = tree_lines,
    .draw_line = tree_draw_line,
    .request = tree_request,
    .select = tree_select,
    .yank = tree_yank,
    .here = tree_here,
    .click = tree_click,
};
