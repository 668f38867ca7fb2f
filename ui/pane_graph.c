/* pane_graph.c - the graph view: a drawing of one node's neighbourhood.
 *
 * gview.c decides the layers (producers above, consumers below, wide fans
 * folded into "+N more"); this file feeds it from the model and draws boxes
 * and edges with box-drawing characters, scrolled so the cursor box stays in
 * sight. Each box is three rows: op type in the top border, the name inside,
 * the output's type in the bottom border (as inferred while types are shown).
 * The boxes are all as wide as the widest text any of them holds, up to the
 * pane's width; a type still wider is wrapped, its start on a row of its own
 * above the bottom border (every box then four rows; a third row's worth is
 * cut, marked by an ellipsis).
 */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "exporter.h"
#include "gview.h"

enum { BOX_H = 3, GAP_X = 2, GAP_Y = 2, DEPTH_MAX = 8 };

typedef struct gpane {
    gv_layout g;
    uint32_t centre;  /* node id, NNAV_NONE when empty */
    uint32_t graph;
    size_t cursor;
    int depth;
    int box_w, box_h, built_w;
    int vx, vy;       /* canvas position of the body's top-left cell */
    int recentre;     /* scroll to the centre box on the next draw */
} gpane;

#define GP(p) ((gpane *)(p)->priv)

/* ---- the model as a gv_source ---- */

typedef struct src_ctx {
    const nnav_model *m;
    uint32_t graph;
    const nnav_declutter *d; /* D: hidden nodes are skipped, edges walk through them */
} src_ctx;

/* D: a consumer that is a hidden Identity stands for the first shown node
 * down its chain (a chain is at most the graph's nodes long); other hidden
 * consumers (folded arithmetic) are left out. */
static uint32_t shown_consumer(const src_ctx *s, uint32_t node)
{
    uint32_t guard = nnav_graph_get(s->m, s->graph)->node_count;
    while (node != NNAV_NONE && nnav_declutter_hidden(s->d, node) && guard--) {
        const nnav_node *n = nnav_node_get(s->m, node);
        if (nnav_declutter_why(s->d, node) != NNAV_DECL_RENAME || !n->out_count)
            return NNAV_NONE;
        uint32_t v = nnav_ref_get(s->m, n->out_first).value, k = 0;
        const uint32_t *c = v != NNAV_NONE ? nnav_value_consumers(s->m, v, &k) : NULL;
        node = k ? c[0] : NNAV_NONE;
    }
    return node != NNAV_NONE && nnav_declutter_hidden(s->d, node) ? NNAV_NONE : node;
}

static uint64_t src_count(void *ctx, uint32_t node, int up)
{
    src_ctx *s = ctx;
    const nnav_node *n = nnav_node_get(s->m, node);
    if (up)
        return n->in_count;
    uint64_t c = 0;
    for (uint32_t o = 0; o < n->out_count; o++) {
        uint32_t v = nnav_ref_get(s->m, n->out_first + o).value, k = 0;
        if (v != NNAV_NONE)
            nnav_value_consumers(s->m, v, &k);
        c += k;
    }
    return c;
}

static int src_get(void *ctx, uint32_t node, int up, uint64_t i, uint32_t *id)
{
    src_ctx *s = ctx;
    const nnav_node *n = nnav_node_get(s->m, node);
    if (up) {
        uint32_t v = nnav_ref_get(s->m, n->in_first + (uint32_t)i).value;
        if (v == NNAV_NONE)
            return GV_NONE;
        if (s->d) { /* through hidden Identity nodes; a folded value is no box */
            uint32_t pn = nnav_declutter_producer(s->d, v);
            if (pn != NNAV_NONE && nnav_declutter_hidden(s->d, pn))
                return GV_NONE;
            v = nnav_declutter_source(s->d, v);
        }
        const nnav_value *val = nnav_value_get(s->m, v);
        if (val->kind == NNAV_VAL_NODE && nnav_node_get(s->m, val->producer)->graph == s->graph) {
            *id = val->producer;
            return GV_NODE;
        }
        /* Weights would crowd the picture; graph inputs and outer values show. */
        if (val->kind == NNAV_VAL_INITIALIZER || val->kind == NNAV_VAL_SPARSE)
            return GV_NONE;
        *id = v;
        return GV_INPUT;
    }
    for (uint32_t o = 0; o < n->out_count; o++) {
        uint32_t v = nnav_ref_get(s->m, n->out_first + o).value, k = 0;
        if (v == NNAV_NONE)
            continue;
        const uint32_t *c = nnav_value_consumers(s->m, v, &k);
        if (i < k) {
            if (nnav_node_get(s->m, c[i])->graph != s->graph)
                return GV_NONE;
            *id = s->d ? shown_consumer(s, c[i]) : c[i];
            return *id == NNAV_NONE ? GV_NONE : GV_NODE;
        }
        i -= k;
    }
    return GV_NONE;
}

static int gp_open(ui *u, pane *p)
{
    (void)u;
    GP(p)->centre = NNAV_NONE;
    GP(p)->depth = 2;
    return 0;
}

static void gp_close(ui *u, pane *p)
{
    (void)u;
    gv_free(&GP(p)->g);
}

static int body_w(pane *p)
{
    return p->r.w;
}

/* The columns an item's texts take (op or kind, name, type), the widest. */
static int item_text_w(ui *u, const gv_item *it, int *type_w)
{
    char b[1024], t[128];
    int w = 0, c;
    *type_w = 0;
    t[0] = 0;
    if (it->kind == GV_NODE) {
        const nnav_node *n = nnav_node_get(u->m, it->id);
        draw_escape(n->op, 200, b, sizeof b);
        w = draw_width(b) + 1; /* and the mark's corner */
        if (n->name.n) {
            draw_escape(nodes_relative_name(u, n->name), 200, b, sizeof b);
            c = draw_width(b);
        } else {
            c = snprintf(b, sizeof b, "#%u", nnav_node_index(u->m, it->id));
        }
        w = c > w ? c : w;
        if (n->out_count)
            typed_value_text(u, nnav_ref_get(u->m, n->out_first).value, t, sizeof t);
    } else if (it->kind == GV_INPUT) {
        const nnav_value *v = nnav_value_get(u->m, it->id);
        draw_escape(v->name, 200, b, sizeof b);
        w = draw_width(b);
        w = w > 11 ? w : 11; /* "outer value" */
        typed_value_text(u, it->id, t, sizeof t);
    } else {
        w = snprintf(b, sizeof b, "+%llu more+", (unsigned long long)it->more);
    }
    *type_w = draw_width(t);
    return w > *type_w ? w : *type_w;
}

/* The boxes' width for the pane's w columns: the default for the width,
 * or wider to hold the widest text, never wider than w; *h gets the rows
 * a box takes (four when a type is wrapped). */
static int boxes_w(ui *u, const gpane *s, int w, int *h)
{
    int bw = w >= 120 ? 26 : w >= 80 ? 22 : 18, tw = 0;
    for (size_t i = 0; i < s->g.nitems; i++) {
        int t, c = item_text_w(u, &s->g.items[i], &t) + 2;
        bw = c > bw ? c : bw;
        tw = t > tw ? t : tw;
    }
    bw += bw & 1; /* even, as the defaults: a layer then centres on a whole column */
    if (bw > w)
        bw = w > 8 ? w : 8;
    *h = tw > bw - 2 ? BOX_H + 1 : BOX_H;
    return bw;
}

static void build(ui *u, pane *p, uint32_t keep_kind, uint32_t keep_id)
{
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE)
        return;
    int w = body_w(p);
    s->box_w = w >= 120 ? 26 : w >= 80 ? 22 : 18;
    s->box_h = BOX_H;
    src_ctx ctx = { u->m, s->graph, decl_view(u, s->graph) };
    gv_source src = { &ctx, src_count, src_get };
    /* Laid out at the default width, then again as many a layer as boxes
     * sized to their text fit (the widths need the items first). */
    for (int pass = 0; pass < 2; pass++) {
        int fit = (w + GAP_X) / (s->box_w + GAP_X);
        if (fit < 3)
            fit = 3;
        if (gv_build(&s->g, &src, s->centre, s->depth, fit) != 0) {
            ui_message(u, R_ERROR, "graph view: out of memory");
            gv_free(&s->g);
            s->centre = NNAV_NONE;
            return;
        }
        /* The second pass holds no more items than the first: its boxes
         * are no wider, so as many fit. */
        int bw = boxes_w(u, s, w, &s->box_h), same = bw == s->box_w;
        s->box_w = bw;
        if (same)
            break;
    }
    gv_place(&s->g, s->box_w, s->box_h, GAP_X, GAP_Y);
    s->built_w = w;
    s->cursor = s->g.centre;
    if (keep_kind != GV_NONE) {
        size_t k = gv_find(&s->g, (uint8_t)keep_kind, keep_id);
        if (k != (size_t)-1)
            s->cursor = k;
    }
}

void graph_centre(ui *u, pane *p, uint32_t node)
{
    gpane *s = GP(p);
    if (node != NNAV_NONE && s->centre == node && s->g.nitems)
        return;
    s->centre = node;
    gv_free(&s->g);
    if (node == NNAV_NONE)
        return;
    s->graph = nnav_node_get(u->m, node)->graph;
    build(u, p, GV_NONE, 0);
    s->recentre = 1;
}

uint32_t graph_cursor_node(ui *u, pane *p)
{
    (void)u;
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE || s->cursor >= s->g.nitems)
        return NNAV_NONE;
    const gv_item *it = &s->g.items[s->cursor];
    return it->kind == GV_NODE ? it->id : NNAV_NONE;
}

static uint32_t gp_lines(ui *u, pane *p)
{
    (void)u;
    (void)p;
    return 0;
}

static void gp_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    gpane *s = GP(p);
    int c = draw_fmt(y, x, w, a, "depth %d  ", s->depth);
    if (s->centre != NNAV_NONE)
        ui_draw_node_label(u, s->centre, y, x + c, w - c, a);
}

/* ---- drawing ---- */

static void box_row(int y, int x, int w, enum glyph l, enum glyph r, attr_t a)
{
    draw_text(y, x, 1, draw_glyph(l), a);
    for (int i = 1; i < w - 1; i++)
        draw_text(y, x + i, 1, draw_glyph(G_H), a);
    draw_text(y, x + w - 1, 1, draw_glyph(r), a);
}

/* A box's type in its bottom border; one wider than the box, when the
 * boxes have the row for it, wrapped: its start on the row above. */
static void box_type(const gpane *s, const char *t, int bottom, int x, int inner, attr_t a)
{
    if (!t[0])
        return;
    int pieces = 1;
    wchar_t wc[8];
    draw_wrap_piece(t, strlen(t), inner, 0, draw_is_utf8(), wc, 8, &pieces);
    if (pieces < 2 || s->box_h <= BOX_H) {
        draw_text(bottom, x, inner, t, a);
        return;
    }
    draw_text_piece(bottom - 1, x, inner, 0, t, a);
    draw_text_piece(bottom, x, inner, 1, t, a);
    if (pieces > 2) /* a third row's worth is cut: say so */
        draw_text(bottom, x + inner - 1, 1, draw_glyph(G_ELLIPSIS), a);
}

static void draw_box(ui *u, gpane *s, size_t i, int y, int x)
{
    const gv_item *it = &s->g.items[i];
    int w = s->box_w, inner = w - 2;
    int is_cur = i == s->cursor, is_centre = i == s->g.centre;
    attr_t frame = draw_attr(is_centre ? R_BOX_CENTRE : R_BOX) | (is_cur ? A_BOLD : 0);
    attr_t text = is_cur ? draw_attr(R_CURSOR) : 0;
    int bottom = y + s->box_h - 1;
    box_row(y, x, w, G_TL, G_TR, frame);
    for (int r = y + 1; r < bottom; r++) {
        draw_text(r, x, 1, draw_glyph(G_V), frame);
        draw_fill(r, x + 1, inner, r == y + 1 ? text : 0);
        draw_text(r, x + w - 1, 1, draw_glyph(G_V), frame);
    }
    box_row(bottom, x, w, G_BL, G_BR, frame);
    switch (it->kind) {
    case GV_NODE: {
        const nnav_node *n = nnav_node_get(u->m, it->id);
        draw_span(y, x + 1, inner, n->op, frame | draw_attr(R_OP) | A_BOLD);
        if (marks_has(&u->marks, it->id)) /* in the top border's right corner */
            draw_text(y, x + w - 2, 1, draw_glyph(G_MARK), draw_attr(R_LINK) | A_BOLD);
        if (n->name.n)
            draw_span_tail(y + 1, x + 1, inner, nodes_relative_name(u, n->name), text);
        else
            draw_fmt(y + 1, x + 1, inner, text, "#%u", nnav_node_index(u->m, it->id));
        if (n->out_count) {
            uint32_t v = nnav_ref_get(u->m, n->out_first).value;
            char t[128];
            typed_value_text(u, v, t, sizeof t);
            box_type(s, t, bottom, x + 1, inner, frame | draw_attr(R_DIM));
        }
        break;
    }
    case GV_INPUT: {
        const nnav_value *v = nnav_value_get(u->m, it->id);
        draw_text(y, x + 1, inner, v->kind == NNAV_VAL_INPUT ? "input" : "outer value",
                  frame | draw_attr(R_LINK));
        draw_span_tail(y + 1, x + 1, inner, v->name, text);
        char t[128];
        typed_value_text(u, it->id, t, sizeof t);
        box_type(s, t, bottom, x + 1, inner, frame | draw_attr(R_DIM));
        break;
    }
    default:
        draw_fmt(y + 1, x + 1, inner, text | A_BOLD, "+%llu more%s",
                 (unsigned long long)it->more, s->g.inexact ? "+" : "");
        break;
    }
}

static void draw_edges(gpane *s, int oy, int ox, int canvas_w)
{
    unsigned char *bus = calloc((size_t)canvas_w + 1, 1);
    if (!bus)
        return;
    attr_t a = draw_attr(R_BOX);
    for (int l = -s->g.up; l < s->g.down; l++) {
        memset(bus, 0, (size_t)canvas_w + 1);
        int row = -1;
        for (size_t e = 0; e < s->g.nedges; e++) {
            const gv_item *from = &s->g.items[s->g.edges[e].from];
            const gv_item *to = &s->g.items[s->g.edges[e].to];
            if (from->layer != l)
                continue;
            int fx = from->col + s->box_w / 2, tx = to->col + s->box_w / 2;
            row = from->row + s->box_h;
            bus[fx] |= J_UP;
            bus[tx] |= J_DOWN;
            for (int c = fx < tx ? fx : tx; c < (fx < tx ? tx : fx); c++) {
                bus[c] |= J_RIGHT;
                bus[c + 1] |= J_LEFT;
            }
            draw_text(oy + row + 1, ox + tx, 1, draw_glyph(G_ARROW_DOWN), a);
        }
        if (row < 0)
            continue;
        for (int c = 0; c < canvas_w; c++)
            if (bus[c])
                draw_text(oy + row, ox + c, 1, draw_junction(bus[c]), a);
    }
    free(bus);
}

static void keep_in_view(gpane *s, int h, int w)
{
    const gv_item *c = &s->g.items[s->cursor];
    if (s->recentre) {
        s->vx = c->col + s->box_w / 2 - w / 2;
        s->vy = c->row + s->box_h / 2 - h / 2;
        if (s->g.width <= w)
            s->vx = (s->g.width - w) / 2;
        if (s->g.height <= h)
            s->vy = (s->g.height - h) / 2;
        s->recentre = 0;
    }
    if (c->col < s->vx)
        s->vx = c->col;
    if (c->col + s->box_w > s->vx + w)
        s->vx = c->col + s->box_w - w;
    if (c->row < s->vy)
        s->vy = c->row;
    if (c->row + s->box_h > s->vy + h)
        s->vy = c->row + s->box_h - h;
}

static void gp_draw(ui *u, pane *p, int y, int x, int h, int w)
{
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE) {
        draw_text(y, x + 1, w - 1, "No node selected: pick one in the node list, then v.",
                  draw_attr(R_DIM));
        return;
    }
    int bh, bw = boxes_w(u, s, w, &bh); /* the types shown may have changed */
    if (s->built_w != w || bw != s->box_w || bh != s->box_h) {
        const gv_item *c = &s->g.items[s->cursor];
        build(u, p, c->kind, c->id);
        s->recentre = 1;
    }
    if (!s->g.nitems)
        return;
    keep_in_view(s, h, w);
    int oy = y - s->vy, ox = x - s->vx;
    draw_clip(y, x, h, w);
    draw_edges(s, oy, ox, s->g.width);
    for (size_t i = 0; i < s->g.nitems; i++)
        draw_box(u, s, i, oy + s->g.items[i].row, ox + s->g.items[i].col);
    draw_clip_screen();
}

/* ---- requests ---- */

static void gp_select(ui *u, pane *p)
{
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE || s->cursor >= s->g.nitems)
        return;
    const gv_item *it = &s->g.items[s->cursor];
    if (it->kind == GV_NODE) {
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_NODE, it->id);
        nodes_reveal(u, &u->pane[PANE_NODES], it->id);
    } else if (it->kind == GV_INPUT) {
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_VALUE, it->id);
    }
}

/* Enter on "+N more": the whole list, to pick from. */
static void open_more(ui *u, gpane *s)
{
    const gv_item *more = &s->g.items[s->cursor];
    int up = more->layer < 0;
    size_t owner = (size_t)-1;
    for (size_t e = 0; e < s->g.nedges && owner == (size_t)-1; e++) {
        if (!up && s->g.edges[e].to == s->cursor)
            owner = s->g.edges[e].from;
        if (up && s->g.edges[e].from == s->cursor)
            owner = s->g.edges[e].to;
    }
    if (owner == (size_t)-1 || s->g.items[owner].kind != GV_NODE)
        return;
    src_ctx ctx = { u->m, s->graph, decl_view(u, s->graph) };
    uint32_t node = s->g.items[owner].id;
    uint64_t n = src_count(&ctx, node, up);
    if (n > 1000000)
        n = 1000000;
    uint32_t *ids = malloc((size_t)(n ? n : 1) * sizeof *ids), k = 0;
    if (!ids)
        return;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t id;
        if (src_get(&ctx, node, up, i, &id) == GV_NODE)
            ids[k++] = id;
    }
    ui_menu_open(u, up ? "producers" : "consumers", ids, k);
    free(ids);
}

static int gp_request(ui *u, pane *p, enum request r)
{
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE || !s->g.nitems)
        return r == REQ_ENTER;
    size_t before = s->cursor;
    switch (r) {
    case REQ_MOVE_UP: s->cursor = gv_move(&s->g, s->cursor, 'u'); break;
    case REQ_MOVE_DOWN: s->cursor = gv_move(&s->g, s->cursor, 'd'); break;
    case REQ_MOVE_LEFT: s->cursor = gv_move(&s->g, s->cursor, 'l'); break;
    case REQ_MOVE_RIGHT: s->cursor = gv_move(&s->g, s->cursor, 'r'); break;
    case REQ_MOVE_FIRST:
        s->cursor = s->g.centre;
        s->recentre = 1;
        break;
    case REQ_PAGE_UP: case REQ_HALF_UP: s->vy -= p->r.h / 2; return 1;
    case REQ_PAGE_DOWN: case REQ_HALF_DOWN: s->vy += p->r.h / 2; return 1;
    case REQ_MOVE_LAST: return 1;
    case REQ_DEPTH_MORE:
    case REQ_DEPTH_LESS: {
        int d = s->depth + (r == REQ_DEPTH_MORE ? 1 : -1);
        if (d < 1 || d > DEPTH_MAX) {
            ui_message(u, 0, "depth stays between 1 and %d", DEPTH_MAX);
            return 1;
        }
        s->depth = d;
        const gv_item *c = &s->g.items[s->cursor];
        build(u, p, c->kind, c->id);
        s->recentre = 1;
        ui_message(u, 0, "graph view depth %d", d);
        return 1;
    }
    case REQ_MARK: {
        const gv_item *c = &s->g.items[s->cursor];
        if (c->kind == GV_NODE)
            exporter_mark(u, c->id);
        else
            ui_message(u, 0, "only nodes can be marked");
        return 1;
    }
    case REQ_ENTER: {
        const gv_item *c = &s->g.items[s->cursor];
        if (c->kind == GV_NODE)
            ui_jump(u, ui_place_node(u, c->id));
        else if (c->kind == GV_INPUT)
            ui_jump(u, ui_place_value(u, c->id));
        else
            open_more(u, s);
        return 1;
    }
    default:
        return 0;
    }
    if (s->cursor != before)
        gp_select(u, p);
    return 1;
}

static int gp_yank(ui *u, pane *p, nnav_span *out, char *buf, size_t n)
{
    gpane *s = GP(p);
    if (s->centre == NNAV_NONE || s->cursor >= s->g.nitems)
        return 0;
    const gv_item *it = &s->g.items[s->cursor];
    if (it->kind == GV_NODE)
        *out = nnav_node_get(u->m, it->id)->name;
    else if (it->kind == GV_INPUT)
        *out = nnav_value_get(u->m, it->id)->name;
    else
        return 0;
    return 1;
}

static int gp_here(ui *u, pane *p, place *out)
{
    /* The view is "at" its centre: moving the cursor is browsing, not going. */
    uint32_t n = GP(p)->centre;
    if (n == NNAV_NONE)
        return 0;
    *out = ui_place_node(u, n);
    out->pane = PANE_NODES;
    return 1;
}

static void gp_click(ui *u, pane *p, int row, int col)
{
    gpane *s = GP(p);
    int cy = row + s->vy, cx = col + s->vx;
    for (size_t i = 0; i < s->g.nitems; i++) {
        const gv_item *it = &s->g.items[i];
        if (cy >= it->row && cy < it->row + s->box_h && cx >= it->col && cx < it->col + s->box_w) {
            s->cursor = i;
            gp_select(u, p);
            return;
        }
    }
}

const pane_ops pane_graph_ops = {
    .size = sizeof(gpane),
    .open = gp_open,
    .close = gp_close,
    .title = gp_title,
    .lines = gp_lines,
    .draw = gp_draw,
    .request = gp_request,
    .select = gp_select,
    .yank = gp_yank,
    .here = gp_here,
    .click = gp_click,
};
