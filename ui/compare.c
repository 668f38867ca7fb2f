/* compare.c - the explorer's compare mode (compare.h): marks, the header,
 * ]c / [c and the two-sided detail, all read from the nnav_diff (diff.h).
 * Names from the files go through nnav_text_escape; the diff's own text
 * (the summary) has any control byte replaced before it is drawn.
 */
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

static const compare *cmp_of(const ui *u)
{
    return u ? u->cmp : NULL;
}

char cmp_mark_of(unsigned what)
{
    return what ? nnav_diff_mark(what) : ' ';
}

static attr_t mark_attr(char mark)
{
    return mark == '+' ? draw_attr(R_ADDED) : mark == '-' ? draw_attr(R_REMOVED)
           : mark == '~' ? draw_attr(R_CHANGED) : 0;
}

int cmp_draw_mark(char mark, int y, int x, int w, attr_t sel)
{
    char s[2] = { mark ? mark : ' ', '\0' };
    if (s[0] != '+' && s[0] != '-' && s[0] != '~')
        s[0] = ' ';
    return draw_text(y, x, w, s, sel | mark_attr(s[0]));
}

/* ---- set-up ---- */

static int graph_marks(compare *c, int side)
{
    const nnav_model *m = c->m[side];
    uint32_t ng = nnav_graph_count(m);
    uint8_t *g = malloc((size_t)ng + 1);
    if (!g)
        return -1;
    memset(g, ' ', (size_t)ng + 1);
    size_t n = nnav_diff_graph_count(c->d);
    for (size_t i = 0; i < n; i++) {
        const nnav_diff_graph *e = nnav_diff_graph_get(c->d, i);
        uint32_t id = side ? e->b : e->a;
        if (!e || id == NNAV_NONE || id >= ng)
            continue;
        if (e->what & (NNAV_DIFF_ADDED | NNAV_DIFF_REMOVED))
            g[id] = (uint8_t)cmp_mark_of(e->what);
        else if (e->what || e->node_count || e->io_count || e->tensor_count)
            g[id] = '~';
    }
    /* A difference inside a body marks every graph around it. A walk up
     * stops at a graph already marked: its own walk marks (or marked) the
     * rest, so each graph is marked once. */
    for (uint32_t id = 0; id < ng; id++) {
        if (g[id] == ' ')
            continue;
        uint32_t at = nnav_graph_get(m, id)->parent;
        for (uint32_t hops = 0; at != NNAV_NONE && at < ng && hops < ng && g[at] == ' '; hops++) {
            g[at] = '~';
            at = nnav_graph_get(m, at)->parent;
        }
    }
    free(c->gmark[side]);
    c->gmark[side] = g;
    return 0;
}

/* Where each node of the other side that the side shown lacks goes: before
 * the counterpart of the first node after it (on the other side) that has
 * one, as the unified order of diff.h places removed nodes. One backward
 * walk per graph. */
static int anchors(compare *c)
{
    int o = !c->side;
    const nnav_model *om = c->m[o];
    uint32_t n = nnav_node_count(om);
    free(c->anchor);
    c->anchor = malloc(((size_t)n + 1) * sizeof *c->anchor);
    if (!c->anchor)
        return -1;
    memset(c->anchor, 0xff, ((size_t)n + 1) * sizeof *c->anchor);
    size_t ng = nnav_diff_graph_count(c->d);
    for (size_t i = 0; i < ng; i++) {
        const nnav_diff_graph *e = nnav_diff_graph_get(c->d, i);
        uint32_t og = o ? e->b : e->a, sg = o ? e->a : e->b;
        if (og == NNAV_NONE || sg == NNAV_NONE || og >= nnav_graph_count(om))
            continue;
        if (!(o ? e->added : e->removed))
            continue;
        const nnav_graph *g = nnav_graph_get(om, og);
        uint32_t at = CMP_AT_END;
        for (uint32_t k = g->node_count; k-- > 0;) {
            uint32_t id = g->node_first + k;
            uint32_t peer = nnav_diff_node_peer(c->d, o, id);
            if (peer != NNAV_NONE)
                at = peer;
            else if (id < n)
                c->anchor[id] = at;
        }
    }
    return 0;
}

int cmp_prepare(compare *c)
{
    if (graph_marks(c, 0) != 0 || graph_marks(c, 1) != 0 || anchors(c) != 0)
        return -1;
    const nnav_model *m = c->m[c->side];
    size_t nn = nnav_diff_node_count(c->d), nt = nnav_diff_tensor_count(c->d);
    free(c->keys);
    c->nkeys = 0;
    c->keys = malloc((nn + nt + 1) * sizeof *c->keys);
    if (!c->keys)
        return -1;
    const nnav_model *om = c->m[!c->side];
    for (size_t i = 0; i < nn; i++) {
        const nnav_diff_node *e = nnav_diff_node_get(c->d, i);
        uint32_t id = c->side ? e->b : e->a, oid = c->side ? e->a : e->b;
        if (id != NNAV_NONE && id < nnav_node_count(m)) {
            c->keys[c->nkeys++] = (cmp_key){ nnav_node_get(m, id)->graph, 0, id, CMP_SUB_SELF };
            continue;
        }
        /* Only on the other side: its row, before the node it is placed at. */
        if (oid == NNAV_NONE || oid >= nnav_node_count(om) || oid & CMP_OTHER_BIT ||
            c->anchor[oid] == NNAV_NONE)
            continue;
        const nnav_diff_graph *g = nnav_diff_graph_get(c->d, e->graph);
        uint32_t sg = g ? (c->side ? g->b : g->a) : NNAV_NONE;
        if (sg != NNAV_NONE)
            c->keys[c->nkeys++] = (cmp_key){ sg, 0, c->anchor[oid], oid };
    }
    for (size_t i = 0; i < nt; i++) {
        const nnav_diff_tensor *e = nnav_diff_tensor_get(c->d, i);
        uint32_t id = c->side ? e->b : e->a;
        if (id == NNAV_NONE || id >= nnav_tensor_count(m))
            continue;
        c->keys[c->nkeys++] = (cmp_key){ nnav_tensor_get(m, id)->graph, 1, id, 0 };
    }
    cmp_keys_sort(c->keys, c->nkeys);
    size_t k = 0; /* one key per difference: a repeat would be visited twice */
    for (size_t i = 0; i < c->nkeys; i++)
        if (!k || cmp_key_cmp(&c->keys[k - 1], &c->keys[i]) != 0)
            c->keys[k++] = c->keys[i];
    c->nkeys = k;
    /* The summary is the core's escaped text; a control byte would still
     * never reach the terminal. */
    char raw[sizeof c->summary];
    nnav_diff_summary(c->d, raw, sizeof raw);
    size_t o = 0;
    for (const char *s = raw; *s && o + 1 < sizeof c->summary; s++)
        c->summary[o++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    c->summary[o] = '\0';
    return 0;
}

void cmp_release(compare *c)
{
    free(c->gmark[0]);
    free(c->gmark[1]);
    free(c->keys);
    free(c->anchor);
    c->anchor = NULL;
    c->gmark[0] = c->gmark[1] = NULL;
    c->keys = NULL;
    c->nkeys = 0;
}

/* ---- what differs ---- */

unsigned cmp_node_what(const ui *u, uint32_t node)
{
    const compare *c = cmp_of(u);
    return c ? nnav_diff_node_what(c->d, c->side, node) : 0;
}

const nnav_diff_tensor *cmp_tensor_entry(const ui *u, uint32_t t)
{
    const compare *c = cmp_of(u);
    if (!c)
        return NULL;
    uint32_t e = nnav_diff_tensor_entry(c->d, c->side, t);
    return e == NNAV_NONE ? NULL : nnav_diff_tensor_get(c->d, e);
}

unsigned cmp_tensor_what(const ui *u, uint32_t t)
{
    const nnav_diff_tensor *e = cmp_tensor_entry(u, t);
    return e ? e->what : 0;
}

char cmp_graph_mark(const ui *u, uint32_t g)
{
    const compare *c = cmp_of(u);
    if (!c || !c->gmark[c->side] || g >= nnav_graph_count(c->m[c->side]))
        return ' ';
    return (char)c->gmark[c->side][g];
}

const nnav_model *cmp_other_model(const ui *u)
{
    const compare *c = cmp_of(u);
    return c ? c->m[!c->side] : NULL;
}

unsigned cmp_other_what(const ui *u, uint32_t other_node)
{
    const compare *c = cmp_of(u);
    return c ? nnav_diff_node_what(c->d, !c->side, other_node) : 0;
}

uint32_t cmp_other_graph(const ui *u, uint32_t g)
{
    const compare *c = cmp_of(u);
    if (!c || g == NNAV_NONE)
        return NNAV_NONE;
    uint32_t e = nnav_diff_graph_of(c->d, c->side, g);
    const nnav_diff_graph *dg = e != NNAV_NONE ? nnav_diff_graph_get(c->d, e) : NULL;
    return dg ? (c->side ? dg->a : dg->b) : NNAV_NONE;
}

typedef struct other_row {
    uint32_t id, at, line;
} other_row;

static int cmp_row(const void *a, const void *b)
{
    const other_row *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

uint32_t cmp_other_rows(ui *u, uint32_t g, uint32_t **ids, uint32_t **at)
{
    compare *c = u->cmp;
    *ids = *at = NULL;
    if (!c || !c->anchor || g == NNAV_NONE)
        return 0;
    uint32_t e = nnav_diff_graph_of(c->d, c->side, g);
    const nnav_diff_graph *dg = e != NNAV_NONE ? nnav_diff_graph_get(c->d, e) : NULL;
    int o = !c->side;
    uint32_t og = dg ? (o ? dg->b : dg->a) : NNAV_NONE;
    if (og == NNAV_NONE || !(o ? dg->added : dg->removed))
        return 0;
    const nnav_model *om = c->m[o];
    const nnav_graph *ogr = nnav_graph_get(om, og), *sgr = nnav_graph_get(u->m, g);
    if (nnav_node_count(om) & CMP_OTHER_BIT)
        return 0; /* ids would not fit beside the bit */
    uint32_t n = 0;
    for (uint32_t k = 0; k < ogr->node_count; k++)
        n += c->anchor[ogr->node_first + k] != NNAV_NONE;
    if (!n)
        return 0;
    other_row *r = malloc((size_t)n * sizeof *r);
    *ids = malloc((size_t)n * sizeof **ids);
    *at = malloc((size_t)n * sizeof **at);
    if (!r || !*ids || !*at) {
        free(r);
        free(*ids);
        free(*at);
        *ids = *at = NULL;
        return 0;
    }
    uint32_t j = 0;
    for (uint32_t k = 0; k < ogr->node_count && j < n; k++) {
        uint32_t id = ogr->node_first + k, a = c->anchor[id];
        if (a == NNAV_NONE)
            continue;
        uint32_t line = a == CMP_AT_END || a - sgr->node_first >= sgr->node_count
                            ? sgr->node_count : a - sgr->node_first;
        r[j++] = (other_row){ id, a, line };
    }
    qsort(r, j, sizeof *r, cmp_row);
    for (uint32_t k = 0; k < j; k++) {
        (*ids)[k] = r[k].id;
        (*at)[k] = r[k].line < sgr->node_count ? r[k].at : CMP_AT_END;
    }
    free(r);
    return j;
}

size_t cmp_what_text(unsigned what, char *buf, size_t n)
{
    size_t o = 0;
    if (n)
        buf[0] = '\0';
    for (unsigned bit = 0; bit < 32 && o + 1 < n; bit++) {
        if (!(what & (1u << bit)))
            continue;
        const char *w = nnav_diff_word(bit); /* by bit index */
        if (!w)
            continue;
        int k = snprintf(buf + o, n - o, "%s%s", o ? ", " : "", w);
        if (k < 0)
            break;
        o += (size_t)k;
    }
    return o < n ? o : n ? n - 1 : 0;
}

/* ---- ]c / [c ---- */

static void name_of(const nnav_model *m, int kind, uint32_t id, char *buf, size_t n)
{
    nnav_span s = kind ? nnav_tensor_get(m, id)->name : nnav_node_get(m, id)->name;
    draw_escape(s, 60, buf, n);
    if (!s.n)
        snprintf(buf, n, "#%u", kind ? id : nnav_node_index(m, id));
}

void cmp_jump(ui *u, int dir)
{
    compare *c = u->cmp;
    if (!c)
        return;
    if (!c->nkeys) {
        ui_message(u, 0, "no differences%s", nnav_diff_any(c->d)
                   ? " in the nodes and initializers (the header sums up the rest)"
                   : ": the two models are the same");
        return;
    }
    pane *np = &u->pane[PANE_NODES];
    cmp_key cur = { u->graph == NNAV_NONE ? 0 : u->graph, 0, 0, 0 };
    uint32_t other = nodes_current_other(u, np);
    place here = ui_here(u);
    if (u->focus == PANE_TENSORS && here.kind == PLACE_TENSOR)
        cur = (cmp_key){ nnav_tensor_get(u->m, here.id)->graph, 1, here.id, 0 };
    else if (u->focus == PANE_NODES && other != NNAV_NONE && c->anchor &&
             c->anchor[other] != NNAV_NONE)
        cur = (cmp_key){ u->graph, 0, c->anchor[other], other };
    else if (here.kind == PLACE_NODE)
        cur = (cmp_key){ nnav_node_get(u->m, here.id)->graph, 0, here.id, CMP_SUB_SELF };
    else if (nodes_current(u, np) != NNAV_NONE)
        cur = (cmp_key){ u->graph, 0, nodes_current(u, np), CMP_SUB_SELF };
    int wrapped = 0;
    size_t i = cmp_walk(c->keys, c->nkeys, cur, dir, &wrapped);
    if (i >= c->nkeys)
        return;
    cmp_key k = c->keys[i];
    unsigned what;
    char name[200], words[160];
    if (k.kind == 0 && k.sub != CMP_SUB_SELF) {
        /* A row of the other side's node: its graph here, the row selected. */
        if (u->graph_view)
            ui_message(u, 0, "v: leave the graph view to see the row");
        ui_jump(u, ui_place_graph(u, k.graph));
        nodes_reveal_other(u, np, k.sub);
        ui_set_focus(u, PANE_NODES);
        what = cmp_other_what(u, k.sub);
        name_of(c->m[!c->side], 0, k.sub, name, sizeof name);
    } else if (k.kind == 0) {
        ui_jump(u, ui_place_node(u, k.id));
        ui_set_focus(u, PANE_NODES);
        what = cmp_node_what(u, k.id);
        name_of(u->m, 0, k.id, name, sizeof name);
    } else {
        ui_jump(u, ui_place_tensor(u, k.id));
        ui_set_focus(u, PANE_TENSORS);
        what = cmp_tensor_what(u, k.id);
        name_of(u->m, 1, k.id, name, sizeof name);
    }
    cmp_what_text(what, words, sizeof words);
    ui_message(u, 0, "%sdifference %zu of %zu: %c %s %s (%s)",
               wrapped ? (dir > 0 ? "past the last, from the first: "
                                  : "before the first, from the last: ") : "",
               i + 1, c->nkeys, cmp_mark_of(what), k.kind ? "initializer" : "node", name, words);
}

/* ---- the header ---- */

void cmp_draw_header(ui *u, int y, int w, attr_t a)
{
    const compare *c = u->cmp;
    char shown[300], other[300];
    ui_base_name(c->path[c->side], shown, sizeof shown);
    ui_base_name(c->path[!c->side], other, sizeof other);
    int col = draw_fmt(y, 0, w, a, " nnav compare  ");
    col += draw_fmt(y, col, w - col, a | A_BOLD, "showing %s (%s) %s", c->side ? "B" : "A",
                    c->side ? "new" : "old", shown);
    col += draw_fmt(y, col, w - col, a, "  vs %s %s  X:swap  ", c->side ? "A" : "B", other);
    draw_text(y, col, w - col, c->summary, a);
}

/* ---- the detail's two sides ---- */

enum { IT_STATUS, IT_COLS, IT_OP, IT_NAME, IT_ATTR, IT_IN, IT_OUT, IT_MORE };

typedef struct cmp_item {
    uint8_t kind, changed;
    uint32_t a, b; /* ids or slots on A and B, by kind */
} cmp_item;

enum { ITEMS_MAX = 400, LIST_ALL = 64 };

static struct {
    const ui *u;
    const nnav_model *m;
    uint32_t node;
    int side;
    int other; /* node is the other side's (a row CMP_OTHER_BIT): one side only */
    cmp_item it[ITEMS_MAX];
    uint32_t n;
} cache;

static void push(uint8_t kind, uint32_t a, uint32_t b, int changed)
{
    if (cache.n + 1 >= ITEMS_MAX) {
        cache.it[ITEMS_MAX - 1] = (cmp_item){ IT_MORE, 1, 0, 0 };
        cache.n = ITEMS_MAX;
        return;
    }
    cache.it[cache.n++] = (cmp_item){ kind, (uint8_t)(changed != 0), a, b };
}

static int attr_changed(const nnav_diff *d, const nnav_diff_node *e, uint32_t a, uint32_t b)
{
    for (uint32_t k = 0; k < e->attr_count; k++) {
        const nnav_diff_attr *x = nnav_diff_attr_get(d, e->attr_first + k);
        if (x && ((a != NNAV_NONE && x->a == a) || (b != NNAV_NONE && x->b == b)))
            return 1;
    }
    return 0;
}

/* The other side's node alone: what it is, op, name, attributes, inputs,
 * outputs (lists cut at ITEMS_MAX). */
static void build_other(ui *u, uint32_t node)
{
    compare *c = u->cmp;
    const nnav_model *om = c->m[!c->side];
    const nnav_node *n = nnav_node_get(om, node);
    push(IT_STATUS, 0, 0, 1);
    push(IT_OP, 0, 0, 0);
    push(IT_NAME, 0, 0, 0);
    for (uint32_t i = 0; i < n->attr_count && cache.n < ITEMS_MAX; i++)
        push(IT_ATTR, n->attr_first + i, n->attr_first + i, 0);
    for (uint32_t i = 0; i < n->in_count && cache.n < ITEMS_MAX; i++)
        push(IT_IN, i, i, 0);
    for (uint32_t i = 0; i < n->out_count && cache.n < ITEMS_MAX; i++)
        push(IT_OUT, i, i, 0);
}

static void build_items(ui *u, uint32_t node, int other)
{
    compare *c = u->cmp;
    if (cache.u == u && cache.m == u->m && cache.node == node && cache.side == c->side &&
        cache.other == other)
        return;
    cache.u = u;
    cache.m = u->m;
    cache.node = node;
    cache.side = c->side;
    cache.other = other;
    cache.n = 0;
    if (other) {
        build_other(u, node);
        return;
    }
    unsigned what = nnav_diff_node_what(c->d, c->side, node);
    uint32_t ent = nnav_diff_node_entry(c->d, c->side, node);
    const nnav_diff_node *e = ent != NNAV_NONE ? nnav_diff_node_get(c->d, ent) : NULL;
    push(IT_STATUS, 0, 0, what != 0);
    if (!what || !e || e->a == NNAV_NONE || e->b == NNAV_NONE)
        return;
    const nnav_model *A = c->m[0], *B = c->m[1];
    const nnav_node *na = nnav_node_get(A, e->a), *nb = nnav_node_get(B, e->b);
    push(IT_COLS, 0, 0, 0);
    push(IT_OP, 0, 0, what & NNAV_DIFF_OP);
    push(IT_NAME, 0, 0, what & NNAV_DIFF_RENAMED);
    /* Attributes: A's in its order with B's of the same name, then B's
     * others; a node with many lists only the changed pairs. */
    if ((uint64_t)na->attr_count + nb->attr_count <= 2 * LIST_ALL) {
        for (uint32_t i = 0; i < na->attr_count; i++) {
            uint32_t a = na->attr_first + i, b = NNAV_NONE;
            nnav_span an = nnav_attr_get(A, a)->name;
            for (uint32_t j = 0; j < nb->attr_count && b == NNAV_NONE; j++) {
                nnav_span bn = nnav_attr_get(B, nb->attr_first + j)->name;
                if (bn.n == an.n && (!an.n || !memcmp(an.p, bn.p, an.n)))
                    b = nb->attr_first + j;
            }
            push(IT_ATTR, a, b, b == NNAV_NONE || attr_changed(c->d, e, a, b));
        }
        for (uint32_t j = 0; j < nb->attr_count; j++) {
            uint32_t b = nb->attr_first + j;
            nnav_span bn = nnav_attr_get(B, b)->name;
            int found = 0;
            for (uint32_t i = 0; i < na->attr_count && !found; i++) {
                nnav_span an = nnav_attr_get(A, na->attr_first + i)->name;
                found = bn.n == an.n && (!an.n || !memcmp(an.p, bn.p, an.n));
            }
            if (!found)
                push(IT_ATTR, NNAV_NONE, b, 1);
        }
    } else {
        for (uint32_t k = 0; k < e->attr_count; k++) {
            const nnav_diff_attr *x = nnav_diff_attr_get(c->d, e->attr_first + k);
            if (x)
                push(IT_ATTR, x->a, x->b, 1);
        }
    }
    uint32_t nin = na->in_count > nb->in_count ? na->in_count : nb->in_count;
    for (uint32_t i = 0; i < nin; i++) {
        int ch = !nnav_diff_input_same(c->d, e, i);
        if (nin <= LIST_ALL || ch)
            push(IT_IN, i, i, ch);
    }
    uint32_t nout = na->out_count > nb->out_count ? na->out_count : nb->out_count;
    for (uint32_t i = 0; i < nout; i++) {
        int ch = i >= na->out_count || i >= nb->out_count;
        if (nout <= LIST_ALL || ch)
            push(IT_OUT, i, i, ch);
    }
}

static int wide(int width)
{
    return width >= 64;
}

/* Rows an item takes: one side by side; two (A, then B) when narrow. */
static uint32_t item_rows(const cmp_item *it, int width)
{
    return it->kind == IT_STATUS || it->kind == IT_MORE || wide(width) ? 1 : 2;
}

uint32_t cmp_detail_count(ui *u, uint32_t node, int width)
{
    if (!u->cmp || node == NNAV_NONE)
        return 0;
    build_items(u, node, 0);
    uint32_t rows = 0;
    for (uint32_t i = 0; i < cache.n; i++)
        if (!(cache.it[i].kind == IT_COLS && !wide(width)))
            rows += item_rows(&cache.it[i], width);
    return rows;
}

static void ref_text(const nnav_model *m, const nnav_node *n, int out, uint32_t i, char *buf,
                     size_t len)
{
    uint32_t count = out ? n->out_count : n->in_count;
    if (i >= count) {
        snprintf(buf, len, "(none)");
        return;
    }
    nnav_ref r = nnav_ref_get(m, (out ? n->out_first : n->in_first) + i);
    if (!r.name.n)
        snprintf(buf, len, "(omitted)");
    else
        draw_escape(r.name, 200, buf, len);
}

/* The text of an item on one side. */
static void side_text(ui *u, const cmp_item *it, int side, char *buf, size_t n)
{
    compare *c = u->cmp;
    const nnav_model *m = c->m[side];
    uint32_t id = cache.node;
    if (!cache.other) {
        uint32_t ent = nnav_diff_node_entry(c->d, c->side, cache.node);
        const nnav_diff_node *e = nnav_diff_node_get(c->d, ent);
        if (!e)
            return;
        id = side ? e->b : e->a;
    }
    buf[0] = '\0';
    if (id == NNAV_NONE)
        return;
    const nnav_node *nd = nnav_node_get(m, id);
    switch (it->kind) {
    case IT_OP: {
        char dom[120] = "", op[120];
        nnav_span d = nnav_node_domain(m, id);
        if (d.n) {
            draw_escape(d, 40, dom, sizeof dom - 1);
            strcat(dom, ":");
        }
        draw_escape(nd->op, 60, op, sizeof op);
        snprintf(buf, n, "%s%s", dom, op);
        break;
    }
    case IT_NAME:
        if (nd->name.n)
            draw_escape(nd->name, 200, buf, n);
        else
            snprintf(buf, n, "(none)");
        break;
    case IT_ATTR: {
        uint32_t a = side ? it->b : it->a;
        if (a == NNAV_NONE) {
            snprintf(buf, n, "(absent)");
            break;
        }
        char name[120], val[300];
        draw_escape(nnav_attr_get(m, a)->name, 40, name, sizeof name);
        nnav_attr_format(m, a, 8, val, sizeof val);
        snprintf(buf, n, "%s = %s", name, val);
        break;
    }
    case IT_IN:
    case IT_OUT:
        ref_text(m, nd, it->kind == IT_OUT, it->a, buf, n);
        break;
    default:
        break;
    }
}

static const char *item_label(const cmp_item *it, char *buf, size_t n)
{
    switch (it->kind) {
    case IT_OP: return "op";
    case IT_NAME: return "name";
    case IT_ATTR: return "attr";
    case IT_IN: snprintf(buf, n, "in %u", it->a); return buf;
    case IT_OUT: snprintf(buf, n, "out %u", it->a); return buf;
    default: return "";
    }
}

static void draw_status_row(ui *u, uint32_t node, int y, int x, int w, attr_t sel)
{
    compare *c = u->cmp;
    unsigned what = nnav_diff_node_what(c->d, c->side, node);
    char words[200];
    cmp_what_text(what, words, sizeof words);
    int col = draw_text(y, x, w, "compare ", sel | draw_attr(R_SECTION));
    if (!what) {
        /* A store of tensors on one side: nodes were never compared. */
        draw_text(y, x + col, w - col,
                  nnav_diff_totals_get(c->d)->weights_only
                      ? "not compared: the other side is a store of tensors"
                      : "= the same on A and B",
                  sel | draw_attr(R_DIM));
        return;
    }
    col += cmp_draw_mark(cmp_mark_of(what), y, x + col, w - col, sel);
    col += draw_text(y, x + col, w - col, " ", sel);
    if (what & NNAV_DIFF_ADDED)
        draw_text(y, x + col, w - col, "added: only on B (the new)", sel | draw_attr(R_ADDED));
    else if (what & NNAV_DIFF_REMOVED)
        draw_text(y, x + col, w - col, "removed: only on A (the old)", sel | draw_attr(R_REMOVED));
    else
        draw_text(y, x + col, w - col, words, sel | draw_attr(R_CHANGED));
}

uint32_t cmp_other_count(ui *u, uint32_t other_node)
{
    if (!u->cmp || other_node >= nnav_node_count(u->cmp->m[!u->cmp->side]))
        return 0;
    build_items(u, other_node, 1);
    return cache.n;
}

void cmp_other_draw(ui *u, uint32_t other_node, uint32_t k, int y, int x, int w, attr_t sel)
{
    compare *c = u->cmp;
    if (!c || other_node >= nnav_node_count(c->m[!c->side]))
        return;
    build_items(u, other_node, 1);
    if (k >= cache.n)
        return;
    const cmp_item *it = &cache.it[k];
    unsigned what = nnav_diff_node_what(c->d, !c->side, other_node);
    if (it->kind == IT_STATUS) {
        int col = draw_text(y, x, w, "compare ", sel | draw_attr(R_SECTION));
        col += cmp_draw_mark(cmp_mark_of(what), y, x + col, w - col, sel);
        draw_text(y, x + col, w - col, c->side ? " removed: only on A (the old); X shows it there"
                                               : " added: only on B (the new); X shows it there",
                  sel | mark_attr(cmp_mark_of(what)));
        return;
    }
    if (it->kind == IT_MORE) {
        draw_text(y, x, w, "  ... more not listed here", sel | draw_attr(R_DIM));
        return;
    }
    char lb[16], tb[600];
    const char *label = item_label(it, lb, sizeof lb);
    int col = draw_text(y, x, w, "  ", sel);
    col += draw_text(y, x + col, w - col, label, sel | draw_attr(R_DIM));
    col = col < 8 ? 8 : col + 1;
    side_text(u, it, !c->side, tb, sizeof tb);
    draw_text(y, x + col, w - col, tb, sel | mark_attr(cmp_mark_of(what)));
}

void cmp_detail_draw(ui *u, uint32_t node, uint32_t k, int width, int y, int x, int w, attr_t sel)
{
    if (!u->cmp)
        return;
    build_items(u, node, 0);
    uint32_t row = 0;
    for (uint32_t i = 0; i < cache.n; i++) {
        const cmp_item *it = &cache.it[i];
        if (it->kind == IT_COLS && !wide(width))
            continue;
        uint32_t r = item_rows(it, width);
        if (k >= row + r) {
            row += r;
            continue;
        }
        uint32_t sub = k - row;
        if (it->kind == IT_STATUS) {
            draw_status_row(u, node, y, x, w, sel);
            return;
        }
        if (it->kind == IT_MORE) {
            draw_text(y, x, w, "  ... more not listed here", sel | draw_attr(R_DIM));
            return;
        }
        attr_t ca = it->changed ? draw_attr(R_CHANGED) : 0;
        char lb[16];
        const char *label = item_label(it, lb, sizeof lb);
        enum { LABEL_W = 8 };
        if (it->kind == IT_COLS) {
            int half = (w - LABEL_W - 3) / 2;
            draw_text(y, x + LABEL_W, half, "A (old)", sel | draw_attr(R_DIM) | A_BOLD);
            draw_text(y, x + LABEL_W + half, 3, " | ", sel | draw_attr(R_DIM));
            draw_text(y, x + LABEL_W + half + 3, w - LABEL_W - half - 3, "B (new)",
                      sel | draw_attr(R_DIM) | A_BOLD);
            return;
        }
        /* The first column tells a changed row in monochrome too. */
        int col = draw_text(y, x, w, it->changed ? "~ " : "  ", sel | ca);
        char tb[600];
        if (wide(width)) {
            draw_text(y, x + col, LABEL_W - col, label, sel | draw_attr(R_DIM));
            int half = (w - LABEL_W - 3) / 2;
            side_text(u, it, 0, tb, sizeof tb);
            draw_text(y, x + LABEL_W, half - 1, tb, sel | ca);
            draw_text(y, x + LABEL_W + half, 3, " | ", sel | draw_attr(R_DIM));
            side_text(u, it, 1, tb, sizeof tb);
            draw_text(y, x + LABEL_W + half + 3, w - LABEL_W - half - 3, tb, sel | ca);
        } else {
            if (sub == 0)
                draw_text(y, x + col, LABEL_W - col, label, sel | draw_attr(R_DIM));
            int c2 = LABEL_W;
            c2 += draw_text(y, x + c2, w - c2, sub ? "B: " : "A: ", sel | draw_attr(R_DIM));
            side_text(u, it, (int)sub, tb, sizeof tb);
            draw_text(y, x + c2, w - c2, tb, sel | ca);
        }
        return;
    }
}

uint32_t cmp_tensor_detail_count(ui *u, uint32_t t)
{
    if (!u->cmp)
        return 0;
    const nnav_diff_tensor *e = cmp_tensor_entry(u, t);
    return e && (e->what & (NNAV_DIFF_VALUES | NNAV_DIFF_UNREAD)) ? 2 : 1;
}

void cmp_tensor_detail_draw(ui *u, uint32_t t, uint32_t k, int y, int x, int w, attr_t sel)
{
    const nnav_diff_tensor *e = cmp_tensor_entry(u, t);
    if (k == 0) {
        int col = draw_text(y, x, w, "compare ", sel | draw_attr(R_SECTION));
        if (!e) {
            draw_text(y, x + col, w - col, "= the same on A and B", sel | draw_attr(R_DIM));
            return;
        }
        char words[200];
        cmp_what_text(e->what, words, sizeof words);
        col += cmp_draw_mark(cmp_mark_of(e->what), y, x + col, w - col, sel);
        col += draw_text(y, x + col, w - col, " ", sel);
        const char *side = e->what & NNAV_DIFF_ADDED ? "added: only on B (the new)"
                           : e->what & NNAV_DIFF_REMOVED ? "removed: only on A (the old)" : words;
        draw_text(y, x + col, w - col, side, sel | mark_attr(cmp_mark_of(e->what)));
        return;
    }
    if (e && (e->what & NNAV_DIFF_UNREAD)) {
        char note[300];
        snprintf(note, sizeof note, "  values not compared: %s", e->note ? e->note : "?");
        for (char *q = note; *q; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                *q = '?';
        draw_text(y, x, w, note, sel | draw_attr(R_ERROR));
        return;
    }
    if (!e)
        return;
    const nnav_tensor *ts = nnav_tensor_get(u->m, t);
    char rel[48] = "";
    if (e->max_rel >= 0)
        snprintf(rel, sizeof rel, ", largest relative %g", e->max_rel);
    draw_fmt(y, x, w, sel | draw_attr(R_CHANGED),
             "  %llu of %llu differ, largest |B-A| %g at [%llu] (A %g, B %g)%s",
             (unsigned long long)e->ndiff, (unsigned long long)ts->nelems, e->max_abs,
             (unsigned long long)e->at_abs, e->a_at_abs, e->b_at_abs, rel);
}

/* ---- a graph's differences ---- */

static const nnav_diff_graph *graph_entry(const ui *u, uint32_t g, uint32_t *idx)
{
    const compare *c = cmp_of(u);
    uint32_t e = c && g != NNAV_NONE ? nnav_diff_graph_of(c->d, c->side, g) : NNAV_NONE;
    *idx = e;
    return e != NNAV_NONE ? nnav_diff_graph_get(c->d, e) : NULL;
}

static int is_main(const ui *u, uint32_t g)
{
    return g < nnav_graph_count(u->m) && nnav_graph_get(u->m, g)->kind == NNAV_GRAPH_MAIN &&
           nnav_graph_get(u->m, g)->parent == NNAV_NONE;
}

enum { GROWS_MAX = 200 };

uint32_t cmp_graph_detail_count(ui *u, uint32_t g)
{
    uint32_t idx;
    const nnav_diff_graph *e = graph_entry(u, g, &idx);
    if (!u->cmp)
        return 0;
    uint32_t n = 1;
    if (e)
        n += e->io_count < GROWS_MAX ? e->io_count : GROWS_MAX;
    if (is_main(u, g)) {
        size_t f = nnav_diff_fact_count(u->cmp->d);
        n += f < GROWS_MAX ? (uint32_t)f : GROWS_MAX;
    }
    return n;
}

static void clean(char *t)
{
    for (; *t; t++)
        if ((unsigned char)*t < 0x20 || *t == 0x7f)
            *t = '?';
}

void cmp_graph_detail_draw(ui *u, uint32_t g, uint32_t k, int y, int x, int w, attr_t sel)
{
    compare *c = u->cmp;
    uint32_t idx;
    const nnav_diff_graph *e = graph_entry(u, g, &idx);
    if (!c)
        return;
    if (k == 0) {
        int col = draw_text(y, x, w, "compare ", sel | draw_attr(R_SECTION));
        if (!e) {
            draw_text(y, x + col, w - col, "no counterpart", sel | draw_attr(R_DIM));
            return;
        }
        if (e->what & (NNAV_DIFF_ADDED | NNAV_DIFF_REMOVED)) {
            col += cmp_draw_mark(cmp_mark_of(e->what), y, x + col, w - col, sel);
            draw_text(y, x + col, w - col, e->what & NNAV_DIFF_ADDED ? " added: only on B"
                                                                    : " removed: only on A",
                      sel | mark_attr(cmp_mark_of(e->what)));
            return;
        }
        draw_fmt(y, x + col, w - col, sel, "nodes: %u the same, +%u, -%u, %u renamed, %u changed",
                 e->same, e->added, e->removed, e->renamed, e->changed);
        return;
    }
    k--;
    uint32_t nio = e ? (e->io_count < GROWS_MAX ? e->io_count : GROWS_MAX) : 0;
    char line[1400];
    if (k < nio) {
        const nnav_diff_io *io = nnav_diff_io_get(c->d, e->io_first + k);
        if (!io)
            return;
        char words[160], ta[300] = "(none)", tb[300] = "(none)", name[200] = "";
        cmp_what_text(io->what, words, sizeof words);
        uint32_t v = c->side ? io->b : io->a;
        if (v == NNAV_NONE)
            v = c->side ? io->a : io->b;
        const nnav_model *vm = (c->side ? io->b : io->a) != NNAV_NONE ? c->m[c->side] : c->m[!c->side];
        if (v != NNAV_NONE && v < nnav_value_count(vm))
            draw_escape(nnav_value_get(vm, v)->name, 60, name, sizeof name);
        if (io->a != NNAV_NONE && io->a < nnav_value_count(c->m[0]))
            nnav_value_type_format(c->m[0], io->a, ta, sizeof ta);
        if (io->b != NNAV_NONE && io->b < nnav_value_count(c->m[1]))
            nnav_value_type_format(c->m[1], io->b, tb, sizeof tb);
        snprintf(line, sizeof line, " %s %s: %s (A %s, B %s)", io->output ? "output" : "input",
                 name, words, ta[0] ? ta : "?", tb[0] ? tb : "?");
        int col = cmp_draw_mark(cmp_mark_of(io->what), y, x, w, sel);
        draw_text(y, x + col, w - col, line, sel | draw_attr(R_CHANGED));
        return;
    }
    k -= nio;
    const nnav_diff_fact *f = nnav_diff_fact_get(c->d, k);
    if (!f)
        return;
    snprintf(line, sizeof line, " %s: %s -> %s", f->key ? f->key : "?", f->a ? f->a : "(none)",
             f->b ? f->b : "(none)");
    clean(line);
    int col = cmp_draw_mark('~', y, x, w, sel);
    draw_text(y, x + col, w - col, line, sel | draw_attr(R_CHANGED));
}
