/* nav.c - places, jumps and the history; labels shared by the panes.
 *
 * A place is "this node / tensor / graph / value, seen from this pane". Going
 * to a place sets the graph, moves the right pane's cursor and fills the
 * detail; jumping does the same and remembers where we were.
 */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

place ui_place_node(ui *u, uint32_t node)
{
    return (place){ .kind = PLACE_NODE, .pane = PANE_NODES,
                    .graph = nnav_node_get(u->m, node)->graph, .id = node };
}

place ui_place_tensor(ui *u, uint32_t t)
{
    return (place){ .kind = PLACE_TENSOR, .pane = PANE_TENSORS,
                    .graph = nnav_tensor_get(u->m, t)->graph, .id = t };
}

place ui_place_graph(ui *u, uint32_t g)
{
    (void)u;
    return (place){ .kind = PLACE_GRAPH, .pane = PANE_NODES, .graph = g, .id = g };
}

place ui_place_value(ui *u, uint32_t v)
{
    const nnav_value *val = nnav_value_get(u->m, v);
    if (val->kind == NNAV_VAL_NODE && val->producer != NNAV_NONE)
        return ui_place_node(u, val->producer);
    if (val->kind == NNAV_VAL_INITIALIZER && val->producer != NNAV_NONE)
        return ui_place_tensor(u, val->producer);
    return (place){ .kind = PLACE_VALUE, .pane = PANE_DETAIL, .graph = val->graph, .id = v };
}

void ui_set_graph(ui *u, uint32_t g)
{
    if (g == NNAV_NONE || g == u->graph)
        return;
    u->graph = g;
    nodes_set_graph(u, &u->pane[PANE_NODES], g);
    tensors_set_graph(u, &u->pane[PANE_TENSORS], g);
    tree_reveal(u, &u->pane[PANE_TREE], g);
    if (u->graph_view)
        graph_centre(u, &u->pane[PANE_GRAPH], nodes_current(u, &u->pane[PANE_NODES]));
}

place ui_here(ui *u)
{
    place p = { .kind = PLACE_GRAPH, .pane = PANE_NODES, .graph = u->graph, .id = u->graph };
    pane *fp = ui_pane(u, u->focus);
    if (fp->ops->here && fp->ops->here(u, fp, &p))
        p.pane = (uint8_t)u->focus;
    p.line = u->focus == PANE_DETAIL ? u->pane[PANE_DETAIL].cur : 0;
    return p;
}

void ui_go(ui *u, place p)
{
    switch (p.kind) {
    case PLACE_GRAPH:
        ui_set_graph(u, p.id);
        tree_reveal(u, &u->pane[PANE_TREE], p.id);
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_GRAPH, p.id);
        break;
    case PLACE_NODE:
        ui_set_graph(u, p.graph);
        nodes_reveal(u, &u->pane[PANE_NODES], p.id);
        tree_reveal_node(u, &u->pane[PANE_TREE], p.id);
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_NODE, p.id);
        if (u->graph_view)
            graph_centre(u, &u->pane[PANE_GRAPH], p.id);
        break;
    case PLACE_TENSOR:
        ui_set_graph(u, p.graph);
        tensors_reveal(u, &u->pane[PANE_TENSORS], p.id);
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_TENSOR, p.id);
        break;
    case PLACE_VALUE:
        ui_set_graph(u, p.graph);
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_VALUE, p.id);
        break;
    default:
        return;
    }
    if (p.pane < PANE_COUNT)
        u->focus = p.pane;
    if (p.pane == PANE_DETAIL) {
        pane *d = &u->pane[PANE_DETAIL];
        pane_set_cursor(d, p.line, d->ops->lines(u, d));
    }
}

void ui_jump(ui *u, place p)
{
    place here = ui_here(u);
    ui_go(u, p);
    history_jump(&u->hist, here, ui_here(u));
}

void ui_back(ui *u)
{
    place p;
    if (history_back(&u->hist, ui_here(u), &p))
        ui_go(u, p);
    else
        ui_message(u, 0, "at the start of the history");
}

void ui_forward(ui *u)
{
    place p;
    if (history_forward(&u->hist, ui_here(u), &p))
        ui_go(u, p);
    else
        ui_message(u, 0, "at the end of the history");
}

void ui_menu_open(ui *u, const char *title, const uint32_t *nodes, uint32_t n)
{
    ui_menu_close(u);
    if (n == 0) {
        ui_message(u, 0, "%s: none", title);
        return;
    }
    u->menu.nodes = malloc((n ? n : 1) * sizeof *nodes);
    if (!u->menu.nodes)
        return;
    memcpy(u->menu.nodes, nodes, n * sizeof *nodes);
    u->menu.n = n;
    u->menu.cur = u->menu.top = 0;
    snprintf(u->menu.title, sizeof u->menu.title, "%s", title);
    u->menu.on = 1;
}

void ui_menu_close(ui *u)
{
    free(u->menu.nodes);
    memset(&u->menu, 0, sizeof u->menu);
}

void ui_pick_consumers(ui *u, uint32_t value)
{
    uint32_t n;
    const uint32_t *c = nnav_value_consumers(u->m, value, &n);
    const nnav_value *v = nnav_value_get(u->m, value);
    if (n == 0) {
        ui_message(u, 0, "no consumers%s", v->is_output ? ": a graph output" : "");
        return;
    }
    if (n == 1) {
        ui_jump(u, ui_place_node(u, c[0]));
        return;
    }
    char name[100], title[160];
    draw_escape(v->name, 60, name, sizeof name);
    snprintf(title, sizeof title, "%u consumers of %s", n, name);
    ui_menu_open(u, title, c, n);
}

/* ---- labels ---- */

int ui_draw_node_label(ui *u, uint32_t node, int y, int x, int w, attr_t a)
{
    const nnav_node *n = nnav_node_get(u->m, node);
    int c = draw_span(y, x, w, n->op, a | draw_attr(R_OP));
    c += draw_text(y, x + c, w - c, " ", a);
    if (n->name.n)
        c += draw_span_tail(y, x + c, w - c, n->name, a);
    else
        c += draw_fmt(y, x + c, w - c, a, "#%u", nnav_node_index(u->m, node));
    return c;
}

size_t ui_graph_label(ui *u, uint32_t g, char *buf, size_t n)
{
    const nnav_graph *gr = nnav_graph_get(u->m, g);
    size_t c = 0;
    if (n == 0)
        return 0;
    buf[0] = '\0';
#define PUT_SPAN(s) (c += c < n ? nnav_text_escape((s).p, (size_t)(s).n, buf + c, n - c) : 0)
#define PUT(...) (c += c < n ? (size_t)snprintf(buf + c, n - c, __VA_ARGS__) : 0)
    switch (gr->kind) {
    case NNAV_GRAPH_MAIN:
        PUT("main");
        break;
    case NNAV_GRAPH_FUNCTION:
        PUT("@");
        if (gr->function != NNAV_NONE)
            PUT_SPAN(nnav_function_get(u->m, gr->function)->name);
        break;
    case NNAV_GRAPH_TRAINING_INIT:
        PUT("training-init[%u]", gr->training);
        break;
    case NNAV_GRAPH_TRAINING_ALGO:
        PUT("training-algo[%u]", gr->training);
        break;
    default:
        if (gr->owner_node != NNAV_NONE) {
            const nnav_node *nd = nnav_node_get(u->m, gr->owner_node);
            if (nd->name.n)
                PUT_SPAN(nd->name);
            else
                PUT("#%u", nnav_node_index(u->m, gr->owner_node));
        }
        if (gr->owner_attr != NNAV_NONE) {
            PUT(".");
            PUT_SPAN(nnav_attr_get(u->m, gr->owner_attr)->name);
        }
        if (gr->list_index != NNAV_NONE)
            PUT("[%u]", gr->list_index);
        break;
    }
#undef PUT
#undef PUT_SPAN
    return c < n ? c : n - 1;
}

int ui_draw_graph_label(ui *u, uint32_t g, int y, int x, int w, attr_t a)
{
    char label[600];
    ui_graph_label(u, g, label, sizeof label);
    return draw_text(y, x, w, label, a);
}

int ui_draw_breadcrumbs(ui *u, uint32_t g, int y, int x, int w, attr_t a)
{
    enum { MAXC = 32 };
    uint32_t chain[MAXC];
    int n = 0, more = 0;
    for (uint32_t at = g; at != NNAV_NONE; at = nnav_graph_get(u->m, at)->parent) {
        if (n == MAXC) {
            more = 1;
            break;
        }
        chain[n++] = at;
    }
    /* Measure with drawing switched off, then keep the tail that fits. */
    int widths[MAXC], total = 0, sep = draw_width(draw_glyph(G_CRUMB));
    draw_clip(0, 0, 0, 0);
    for (int i = 0; i < n; i++) {
        widths[i] = ui_draw_graph_label(u, chain[i], y, x, 1 << 14, a);
        total += widths[i] + (i ? sep : 0);
    }
    draw_clip_screen();
    int first = n - 1; /* chain is leaf-first: start from the root */
    int ell = draw_width(draw_glyph(G_ELLIPSIS)) + sep;
    while (first > 0 && total + (more || first < n - 1 ? ell : 0) > w) {
        total -= widths[first] + sep;
        first--;
    }
    int c = 0;
    if (more || first < n - 1) {
        c += draw_text(y, x, w, draw_glyph(G_ELLIPSIS), a);
        c += draw_text(y, x + c, w - c, draw_glyph(G_CRUMB), a);
    }
    for (int i = first; i >= 0; i--) {
        c += ui_draw_graph_label(u, chain[i], y, x + c, w - c, a | (i == 0 ? A_BOLD : 0));
        if (i)
            c += draw_text(y, x + c, w - c, draw_glyph(G_CRUMB), a);
    }
    return c;
}
