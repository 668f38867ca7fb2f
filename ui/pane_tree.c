/* pane_tree.c - the tree of graphs and scopes: roots (main graph, training
 * graphs, functions) with every If/Loop/Scan or other graph-valued attribute
 * body nested under its owner, and under each graph its scopes (the module
 * hierarchy of src/scope.h) while S shows them. Moving the cursor selects the
 * graph; onto a scope it also narrows the node list to the scope's nodes.
 *
 * Only the expanded part is flattened into rows, so a model with many bodies
 * costs what is open, not what exists. A graph's scopes are built when first
 * shown: at open only while the graphs shown hold TREE_SCOPES_AT_OPEN nodes
 * in all, so a big model opens as fast as before; a graph past that builds
 * its scopes when expanded (Right, Enter), revealed by a jump, or on S.
 * A chain of scopes with no nodes of their own and one child each
 * ("encoder" > "layers") is one row, "encoder/layers".
 */
#include "ui.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scope.h"
#include "utf8.h"

enum { TREE_SCOPES_AT_OPEN = 65536 };

typedef struct tree_row {
    uint32_t g;
    uint32_t depth;  /* the level drawn */
    uint32_t scope;  /* NNAV_NONE on a graph's row; else the row's first scope */
    uint32_t last;   /* the deepest scope of a chain drawn as one row */
    uint32_t gdepth; /* the level of the row's graph */
} tree_row;

typedef struct tree {
    uint8_t *open;     /* per graph id */
    tree_row *rows;
    uint32_t n, cap;
    uint32_t *roots;
    uint32_t nroots;
    int scopes_on;               /* S */
    uint8_t *sshow;              /* per graph: its scopes are shown while it is open */
    uint8_t *sfailed;            /* per graph: building them ran out of memory */
    nnav_scopes **sc;            /* per graph, NULL until first shown */
    const nnav_shapes **sshape;  /* the shapes each was built with */
    uint8_t **sopen;             /* per graph, per scope: expanded */
    int gfit;                    /* columns the graph rows want, 0 until measured */
    int drawn;                   /* the first screen is up: jumps reveal scopes */
    const nnav_shapes *rows_shape; /* the types the rows were laid out with */
    int sfit;                    /* columns the scope rows shown want */
} tree;

#define T(p) ((tree *)(p)->priv)

static int push_row(tree *t, tree_row row)
{
    if (t->n == t->cap) {
        uint32_t cap = t->cap ? t->cap * 2 : 64;
        tree_row *r = realloc(t->rows, cap * sizeof *r);
        if (!r)
            return -1;
        t->rows = r;
        t->cap = cap;
    }
    t->rows[t->n++] = row;
    return 0;
}

/* The scopes of graph g, built on first use, and again once types are
 * inferred (for the MACs): ids depend on the names only, so rows and what is
 * open stay valid. NULL while scopes are off, or out of memory. */
static const nnav_scopes *scopes_get(ui *u, tree *t, uint32_t g)
{
    if (!t->scopes_on || t->sfailed[g])
        return NULL;
    if (t->sc[g] && (t->sshape[g] == u->types.s || !u->types.s))
        return t->sc[g];
    nnav_scopes *sc = nnav_scopes_build(u->m, g, u->types.s);
    t->sshape[g] = u->types.s; /* a failed rebuild is not retried on every row */
    if (!sc) {
        if (!t->sc[g]) {
            t->sfailed[g] = 1;
            ui_message(u, R_ERROR, "scopes: out of memory");
        }
        return t->sc[g];
    }
    if (!t->sopen[g]) {
        uint32_t n = nnav_scopes_count(sc);
        t->sopen[g] = calloc(n ? n : 1, 1);
        if (!t->sopen[g]) {
            nnav_scopes_free(sc);
            t->sfailed[g] = 1;
            ui_message(u, R_ERROR, "scopes: out of memory");
            return NULL;
        }
        /* Open at first: the top level, and the only child of an open scope. */
        for (uint32_t i = 1; i < n; i++) {
            const nnav_scope *s = nnav_scope_get(sc, i);
            t->sopen[g][i] = s->depth == 1 ||
                             (t->sopen[g][s->parent] && nnav_scope_get(sc, s->parent)->child_count == 1);
        }
    }
    nnav_scopes_free(t->sc[g]);
    t->sc[g] = sc;
    return sc;
}

/* The deepest scope of the row starting at s: a scope with no nodes of its
 * own and one child (the next id, in preorder) goes on into the child. */
static uint32_t chain_end(const nnav_scopes *sc, uint32_t s)
{
    const nnav_scope *x = nnav_scope_get(sc, s);
    while (x->node_count == 0 && x->child_count == 1)
        x = nnav_scope_get(sc, ++s);
    return s;
}

static int graph_has_kids(ui *u, tree *t, uint32_t g)
{
    if (nnav_graph_get(u->m, g)->child_count)
        return 1;
    if (!t->scopes_on || t->sfailed[g])
        return 0;
    return !t->sc[g] || nnav_scope_get(t->sc[g], 0)->child_count > 0;
}

static int row_indent(const tree_row *r)
{
    int gi = (int)(r->gdepth > 8 ? 8 : r->gdepth) * 2;
    if (r->scope == NNAV_NONE)
        return gi;
    uint32_t below = r->depth - r->gdepth - 1; /* one column a scope level */
    return gi + 2 + (int)(below > 8 ? 8 : below);
}

/* A scope row's text: its name (a chain's names joined by '/'), the mark of
 * identical siblings (or of the same shapes in other types), and its
 * figures: nodes, params, MACs ("" when none); a model of no nodes (a store
 * of tensors) has params and the mean bits per weight instead.
 * All escaped. */
typedef struct scope_text {
    char name[400], mark[200], nodes[16], params[24], macs[24];
} scope_text;

static void scope_row_text(ui *u, tree *t, const tree_row *r, scope_text *o)
{
    const nnav_scopes *sc = t->sc[r->g];
    size_t k = 0;
    o->name[0] = o->mark[0] = o->params[0] = o->macs[0] = '\0';
    for (uint32_t s = r->scope; s <= r->last && k + 1 < sizeof o->name; s++) {
        if (s != r->scope)
            o->name[k++] = '/';
        k += draw_escape(nnav_scope_get(sc, s)->name, 120, o->name + k, sizeof o->name - k);
    }
    o->name[k < sizeof o->name ? k : sizeof o->name - 1] = '\0';
    const nnav_scope *x = nnav_scope_get(sc, r->scope);
    int utf8 = strcmp(draw_glyph(G_TO), "->") != 0;
    uint32_t like = x->same_as != NNAV_NONE ? x->same_as : x->shape_as;
    if (like != NNAV_NONE) {
        /* "=0" on encoder_layer_5: the first's name past what they share;
         * "≈0" on a block of the same shapes in other types (blk.3 in
         * Q6_K beside Q4_K blocks). */
        nnav_span a = x->name, b = nnav_scope_get(sc, like)->name;
        size_t k0 = 0;
        while (k0 < a.n && k0 < b.n && a.p[k0] == b.p[k0])
            k0++;
        while (k0 > 0 && nnav_utf8_cont(b.p[k0 - 1])) /* not inside a character */
            k0--;
        if (k0 == b.n)
            k0 = 0;
        char first[160];
        draw_escape((nnav_span){ b.p + k0, b.n - k0 }, 60, first, sizeof first);
        snprintf(o->mark, sizeof o->mark, "%s%s",
                 x->same_as != NNAV_NONE ? "=" : utf8 ? "\u2248" : "~", first);
    } else if (x->repeats > 1) {
        snprintf(o->mark, sizeof o->mark, "%s%u", utf8 ? "\u00d7" : "x", x->repeats);
    }
    const nnav_scope *y = nnav_scope_get(sc, r->last);
    int store = nnav_node_count(u->m) == 0; /* tensors, no nodes: their bits per weight */
    if (store)
        o->nodes[0] = '\0';
    else
        snprintf(o->nodes, sizeof o->nodes, "%u", y->nodes_total);
    char num[24];
    if (y->params)
        snprintf(o->params, sizeof o->params, "%sp", typed_count((double)y->params, 1, num, sizeof num));
    if (store && y->stored && y->bytes != UINT64_MAX)
        snprintf(o->macs, sizeof o->macs, "%.2fbpw", (double)y->bytes * 8 / (double)y->stored);
    else if (y->macs > 0 && typed_shapes(u))
        snprintf(o->macs, sizeof o->macs, "%sMAC", typed_count(y->macs, 1, num, sizeof num));
}

static int scope_row_width(ui *u, tree *t, const tree_row *r)
{
    scope_text o;
    scope_row_text(u, t, r, &o);
    int w = row_indent(r) + draw_width(draw_glyph(G_OPEN)) + 1 + draw_width(o.name);
    if (o.mark[0])
        w += 1 + draw_width(o.mark);
    if (o.nodes[0])
        w += 1 + draw_width(o.nodes);
    if (o.params[0])
        w += 1 + draw_width(o.params);
    if (o.macs[0])
        w += 1 + draw_width(o.macs);
    return w;
}

struct frame {
    uint32_t g, depth, scope, gdepth;
};

/* Depth-first over the open graphs and scopes, with an explicit stack:
 * bodies can nest thousands deep. Returns 1 when the scope rows now want
 * another width (the caller lays the panes out again). */
static int rebuild(ui *u, tree *t)
{
    int sfit = 0;
    t->n = 0;
    size_t cap = t->nroots + 64, sp = 0;
    struct frame *stack = malloc(cap * sizeof *stack);
    if (!stack)
        return 0;
    for (uint32_t r = t->nroots; r-- > 0;)
        stack[sp++] = (struct frame){ t->roots[r], 0, NNAV_NONE, 0 };
    while (sp > 0) {
        struct frame f = stack[--sp];
        const nnav_scopes *sc = NULL;
        const uint32_t *bodies = NULL;
        uint32_t nb = 0, from = 0, end = 0;
        if (f.scope == NNAV_NONE) {
            if (push_row(t, (tree_row){ f.g, f.depth, NNAV_NONE, NNAV_NONE, f.gdepth }) != 0)
                break;
            if (!t->open[f.g])
                continue;
            bodies = nnav_graph_children(u->m, f.g, &nb);
            if (t->sshow[f.g] && (sc = scopes_get(u, t, f.g)) != NULL) {
                from = 1;
                end = nnav_scopes_count(sc);
            }
        } else {
            sc = t->sc[f.g];
            uint32_t last = chain_end(sc, f.scope);
            tree_row row = { f.g, f.depth, f.scope, last, f.gdepth };
            if (push_row(t, row) != 0)
                break;
            int w = scope_row_width(u, t, &row) + (u->cmp ? 2 : 0); /* compare: marks */
            sfit = w > sfit ? w : sfit;
            if (!t->sopen[f.g][last])
                continue;
            from = last + 1;
            end = last + nnav_scope_get(sc, last)->subtree;
        }
        uint32_t nk = 0;
        for (uint32_t c = from; c < end; c += nnav_scope_get(sc, c)->subtree)
            nk++;
        if (sp + nb + nk > cap) {
            size_t ncap = (sp + nb + nk) * 2;
            struct frame *s = realloc(stack, ncap * sizeof *s);
            if (!s)
                break;
            stack = s;
            cap = ncap;
        }
        /* Bodies below the scopes; each list pushed last first. */
        for (uint32_t i = nb; i-- > 0;)
            stack[sp++] = (struct frame){ bodies[i], f.depth + 1, NNAV_NONE, f.depth + 1 };
        uint32_t k = nk;
        for (uint32_t c = from; c < end; c += nnav_scope_get(sc, c)->subtree)
            stack[sp + --k] = (struct frame){ f.g, f.depth + 1, c, f.gdepth };
        sp += nk;
    }
    free(stack);
    int changed = sfit != t->sfit;
    t->sfit = sfit;
    return changed;
}

/* Rows changed: rebuild them, and lay the panes out again when the tree
 * wants another width. */
static void rows_changed(ui *u, tree *t)
{
    if (rebuild(u, t))
        ui_relayout(u);
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
    tree *t = T(p);
    uint32_t ng = nnav_graph_count(u->m), na = ng ? ng : 1;
    t->open = calloc(na, 1);
    t->roots = malloc(na * sizeof *t->roots);
    t->sshow = calloc(na, 1);
    t->sfailed = calloc(na, 1);
    t->sc = calloc(na, sizeof *t->sc);
    t->sshape = calloc(na, sizeof *t->sshape);
    t->sopen = calloc(na, sizeof *t->sopen);
    if (!t->open || !t->roots || !t->sshow || !t->sfailed || !t->sc || !t->sshape || !t->sopen)
        return -1;
    for (int rank = 0; rank <= 3; rank++)
        for (uint32_t g = 0; g < ng; g++) {
            const nnav_graph *gr = nnav_graph_get(u->m, g);
            if (gr->parent == NNAV_NONE && root_rank(gr) == rank)
                t->roots[t->nroots++] = g;
        }
    /* Small models open fully; big ones show their roots and first level.
     * Scopes show at once only while the graphs open hold few nodes in all. */
    uint64_t budget = TREE_SCOPES_AT_OPEN;
    for (uint32_t g = 0; g < ng; g++) {
        const nnav_graph *gr = nnav_graph_get(u->m, g);
        t->open[g] = ng <= 256 || gr->parent == NNAV_NONE;
        if (t->open[g] && gr->node_count <= budget) {
            t->sshow[g] = 1;
            budget -= gr->node_count;
        }
    }
    t->scopes_on = 1;
    rebuild(u, t);
    return 0;
}

static void tree_close(ui *u, pane *p)
{
    tree *t = T(p);
    if (!t)
        return;
    uint32_t ng = nnav_graph_count(u->m);
    for (uint32_t g = 0; t->sc && t->sopen && g < ng; g++) {
        nnav_scopes_free(t->sc[g]);
        free(t->sopen[g]);
    }
    free(t->open);
    free(t->rows);
    free(t->roots);
    free(t->sshow);
    free(t->sfailed);
    free(t->sc);
    free(t->sshape);
    free(t->sopen);
}

static uint32_t tree_lines(ui *u, pane *p)
{
    (void)u;
    return T(p)->n;
}

/* The row of graph g itself. */
static uint32_t row_of(tree *t, uint32_t g)
{
    for (uint32_t i = 0; i < t->n; i++)
        if (t->rows[i].g == g && t->rows[i].scope == NNAV_NONE)
            return i;
    return NNAV_NONE;
}

/* The row showing scope s of graph g (a chain's row shows each of its scopes). */
static uint32_t row_of_scope(tree *t, uint32_t g, uint32_t s)
{
    for (uint32_t i = 0; i < t->n; i++) {
        const tree_row *r = &t->rows[i];
        if (r->g == g && r->scope != NNAV_NONE && r->scope <= s && s <= r->last)
            return i;
    }
    return NNAV_NONE;
}

void tree_reveal(ui *u, pane *p, uint32_t g)
{
    tree *t = T(p);
    if (!t || g == NNAV_NONE)
        return;
    int changed = 0;
    if (t->scopes_on && t->rows_shape != u->types.s) { /* types inferred at open */
        t->rows_shape = u->types.s;
        changed = 1;
    }
    for (uint32_t a = nnav_graph_get(u->m, g)->parent; a != NNAV_NONE;
         a = nnav_graph_get(u->m, a)->parent)
        if (!t->open[a]) {
            t->open[a] = 1;
            changed = 1;
        }
    if (changed)
        rows_changed(u, t);
    uint32_t r = row_of(t, g);
    if (r != NNAV_NONE)
        pane_set_cursor(p, r, t->n);
}

void tree_reveal_node(ui *u, pane *p, uint32_t node)
{
    tree *t = T(p);
    /* Not for the place shown at start: that would build a big graph's
     * scopes before the first screen. */
    if (!t || !t->scopes_on || !t->drawn || node == NNAV_NONE)
        return;
    uint32_t g = nnav_node_get(u->m, node)->graph;
    tree_reveal(u, p, g);
    t->open[g] = 1;
    t->sshow[g] = 1;
    const nnav_scopes *sc = scopes_get(u, t, g);
    uint32_t s = sc ? nnav_scope_of_node(sc, node) : NNAV_NONE;
    if (s != NNAV_NONE)
        for (uint32_t a = nnav_scope_get(sc, s)->parent; a != NNAV_NONE && a != 0;
             a = nnav_scope_get(sc, a)->parent)
            t->sopen[g][a] = 1;
    rows_changed(u, t);
    uint32_t r = s != NNAV_NONE && s != 0 ? row_of_scope(t, g, s) : row_of(t, g);
    if (r != NNAV_NONE)
        pane_set_cursor(p, r, t->n);
}

void tree_toggle_scopes(ui *u, pane *p)
{
    tree *t = T(p);
    if (!t)
        return;
    uint32_t g = p->cur < t->n ? t->rows[p->cur].g : u->graph;
    t->scopes_on = !t->scopes_on;
    if (t->scopes_on && g != NNAV_NONE) {
        t->open[g] = 1;
        t->sshow[g] = 1;
    }
    rows_changed(u, t);
    uint32_t r = row_of(t, g);
    if (r != NNAV_NONE)
        pane_set_cursor(p, r, t->n);
    /* The list shows the whole graph again; the tree's cursor is on it. */
    nodes_set_scope(u, &u->pane[PANE_NODES], u->graph, NULL, 0, NULL, 0, NULL);
    if (t->scopes_on) {
        const nnav_scopes *sc = g != NNAV_NONE ? scopes_get(u, t, g) : NULL;
        uint32_t n = sc ? nnav_scopes_count(sc) - 1 : 0;
        ui_message(u, 0, "scopes shown: %u in this graph; the cursor on one narrows the node list (S: the graphs only)", n);
    } else {
        ui_message(u, 0, "graphs only: the node list shows whole graphs (S: scopes again)");
    }
}

static void tree_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    tree *t = T(p);
    if (t->scopes_on && t->rows_shape != u->types.s) {
        /* Types were inferred (T) since the scopes were built: their MACs.
         * The panes are being drawn: the width waits for the next layout. */
        t->rows_shape = u->types.s;
        rebuild(u, t);
    }
    draw_fmt(y, x, w, a, "%u", nnav_graph_count(u->m));
}

static void draw_scope_row(ui *u, tree *t, const tree_row *r, int y, int x, int w, attr_t sel)
{
    scope_text o;
    scope_row_text(u, t, r, &o);
    const nnav_scope *y_last = nnav_scope_get(t->sc[r->g], r->last);
    int c = row_indent(r);
    if (c > w / 2)
        c = w / 2;
    enum glyph gl = y_last->child_count == 0 ? G_LEAF : t->sopen[r->g][r->last] ? G_OPEN : G_CLOSED;
    c += draw_text(y, x + c, w - c, draw_glyph(gl), sel);
    c += draw_text(y, x + c, w - c, " ", sel);
    c += draw_text(y, x + c, w - c, o.name, sel);
    if (o.mark[0] && c < w)
        c += draw_fmt(y, x + c, w - c, sel | (strchr("=~\xe2", o.mark[0]) ? draw_attr(R_DIM) : A_BOLD),
                      " %s", o.mark);
    /* The figures while each fits whole: the name never gives way to them. */
    const char *fig[3] = { o.nodes, o.params, o.macs };
    for (int i = 0; i < 3; i++) {
        int fw = 1 + draw_width(fig[i]);
        if (!fig[i][0] || fw > w - c)
            continue;
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), " %s", fig[i]);
    }
}

static void tree_draw_line(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected)
{
    tree *t = T(p);
    const tree_row *r = &t->rows[line];
    attr_t sel = selected ? draw_attr(selected) : 0;
    t->drawn = 1;
    if (u->cmp) { /* compare mode: a graph's mark in a column of its own, first */
        cmp_draw_mark(r->scope == NNAV_NONE ? cmp_graph_mark(u, r->g) : ' ', y, x, w, sel);
        x += 2;
        w -= 2;
    }
    if (r->scope != NNAV_NONE) {
        draw_scope_row(u, t, r, y, x, w, sel);
        return;
    }
    const nnav_graph *g = nnav_graph_get(u->m, r->g);
    int indent = row_indent(r);
    if (indent > w / 2)
        indent = w / 2;
    int c = indent;
    enum glyph gl = !graph_has_kids(u, t, r->g) ? G_LEAF : t->open[r->g] ? G_OPEN : G_CLOSED;
    c += draw_text(y, x + c, w - c, draw_glyph(gl), sel);
    c += draw_text(y, x + c, w - c, " ", sel);
    c += ui_draw_graph_label(u, r->g, y, x + c, w - c, sel);
    draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), " %u", g->node_count);
}

/* The tree's cursor chose a row: its graph, and on a scope the node list
 * narrowed to the scope's nodes (on a graph, the whole graph). */
static void tree_select(ui *u, pane *p)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return;
    tree_row r = t->rows[p->cur];
    ui_set_graph(u, r.g); /* moves the tree's cursor to the graph's row */
    uint32_t line = r.scope == NNAV_NONE ? row_of(t, r.g) : row_of_scope(t, r.g, r.scope);
    if (line != NNAV_NONE)
        pane_set_cursor(p, line, t->n);
    pane *np = &u->pane[PANE_NODES];
    if (r.scope == NNAV_NONE || !t->sc[r.g]) {
        nodes_set_scope(u, np, r.g, NULL, 0, NULL, 0, NULL);
        tensors_set_scope(u, &u->pane[PANE_TENSORS], r.g, NULL, 0, NULL, 0);
    } else {
        const nnav_scopes *sc = t->sc[r.g];
        const nnav_scope *s = nnav_scope_get(sc, r.last);
        uint8_t path[512];
        size_t k = nnav_scope_path(sc, r.last, path, sizeof path);
        char note[96] = "", num[2][24];
        int used = 0;
        if (s->params)
            used = snprintf(note, sizeof note, "%s params",
                            typed_count((double)s->params, 0, num[0], sizeof num[0]));
        if (s->macs > 0 && typed_shapes(u))
            snprintf(note + used, sizeof note - (size_t)used, "%s%s MACs", used ? "  " : "",
                     typed_count(s->macs, 0, num[1], sizeof num[1]));
        if (nodes_set_scope(u, np, r.g, nnav_scope_nodes(sc) + s->node_first, s->nodes_total,
                            path, k, note) != 0)
            ui_message(u, R_ERROR, "scope: out of memory; the whole graph is shown");
        /* A store of tensors: the initializers are the scope's own. */
        uint32_t nt;
        const uint32_t *tv = nnav_scope_tensors(sc, r.last, &nt);
        if (tv)
            tensors_set_scope(u, &u->pane[PANE_TENSORS], r.g, tv, nt, path,
                              k < sizeof path ? k : sizeof path);
    }
    if (u->graph_view)
        graph_centre(u, &u->pane[PANE_GRAPH], nodes_current(u, np));
    detail_set(u, &u->pane[PANE_DETAIL], PLACE_GRAPH, r.g);
}

static void toggle(ui *u, pane *p, int want)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return;
    tree_row r = t->rows[p->cur];
    if (r.scope == NNAV_NONE) {
        if (!graph_has_kids(u, t, r.g))
            return;
        t->open[r.g] = want < 0 ? !t->open[r.g] : want;
        if (t->open[r.g])
            t->sshow[r.g] = 1;
        rows_changed(u, t);
        pane_set_cursor(p, row_of(t, r.g), t->n);
        return;
    }
    if (nnav_scope_get(t->sc[r.g], r.last)->child_count == 0)
        return;
    uint8_t *o = &t->sopen[r.g][r.last];
    *o = want < 0 ? !*o : (uint8_t)want;
    rows_changed(u, t);
    pane_set_cursor(p, row_of_scope(t, r.g, r.scope), t->n);
}

static int tree_request(ui *u, pane *p, enum request req)
{
    tree *t = T(p);
    if (p->cur >= t->n)
        return 0;
    tree_row r = t->rows[p->cur];
    int kids, open;
    if (r.scope == NNAV_NONE) {
        kids = graph_has_kids(u, t, r.g);
        open = t->open[r.g];
    } else {
        kids = nnav_scope_get(t->sc[r.g], r.last)->child_count > 0;
        open = t->sopen[r.g][r.last];
    }
    switch (req) {
    case REQ_ENTER:
        if (r.scope != NNAV_NONE && !kids) {
            ui_set_focus(u, PANE_NODES); /* a leaf scope: on to its nodes */
            return 1;
        }
        toggle(u, p, -1);
        return 1;
    case REQ_MOVE_RIGHT:
        if (kids && !open) {
            toggle(u, p, 1);
        } else if (r.scope == NNAV_NONE && t->scopes_on && !t->sshow[r.g]) {
            t->sshow[r.g] = 1; /* a big graph's scopes, asked for */
            rows_changed(u, t);
            pane_set_cursor(p, row_of(t, r.g), t->n);
        } else if (kids && p->cur + 1 < t->n) {
            pane_set_cursor(p, p->cur + 1, t->n);
            tree_select(u, p);
        }
        return 1;
    case REQ_MOVE_LEFT:
        if (kids && open) {
            toggle(u, p, 0);
            return 1;
        }
        uint32_t row = NNAV_NONE;
        if (r.scope != NNAV_NONE) {
            uint32_t par = nnav_scope_get(t->sc[r.g], r.scope)->parent;
            row = par == 0 || par == NNAV_NONE ? row_of(t, r.g) : row_of_scope(t, r.g, par);
        } else if (nnav_graph_get(u->m, r.g)->parent != NNAV_NONE) {
            row = row_of(t, nnav_graph_get(u->m, r.g)->parent);
        }
        if (row != NNAV_NONE) {
            pane_set_cursor(p, row, t->n);
            tree_select(u, p);
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
    const tree_row *r = &t->rows[p->cur];
    size_t k = r->scope == NNAV_NONE
                   ? nnav_graph_path(u->m, r->g, buf, n)
                   : nnav_scope_path(t->sc[r->g], r->last, (uint8_t *)buf, n);
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
    int indent = row_indent(&t->rows[line]) + (u->cmp ? 2 : 0); /* compare: marks */
    pane_set_cursor(p, line, t->n);
    if (col >= indent && col <= indent + 1)
        toggle(u, p, -1);
    tree_select(u, p);
}

int tree_fit_width(ui *u)
{
    if (!u->m)
        return 0;
    tree *t = T(&u->pane[PANE_TREE]);
    int markw = u->cmp ? 2 : 0; /* compare mode's mark column */
    if (t && t->gfit)
        return (t->gfit + markw > t->sfit ? t->gfit + markw : t->sfit) + 1;
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
    if (!t)
        return want + markw + 1;
    t->gfit = want; /* measured once: the graphs do not change */
    /* The scope rows shown as well; a blank column before the separator. */
    return (want + markw > t->sfit ? want + markw : t->sfit) + 1;
}

const pane_ops pane_tree_ops = {
    .size = sizeof(tree),
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
