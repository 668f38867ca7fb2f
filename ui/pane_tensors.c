/* pane_tensors.c - initializer sizes of the selected graph, ncdu style:
 * size, share of the total, a bar, name, dtype[shape] and storage. Sorted by
 * size (largest first) or by name; the cursor's tensor fills the detail pane
 * with its consumers. A column says each one's bits per weight (when they
 * are not all one width: a quantised model), and a packed
 * weight's row its logical type (quant.h: "int4 (GPTQ, group 128)"). The tree's
 * cursor on a scope of a store of tensors narrows the rows to the scope's
 * tensors. Each row's facts come from tfacts.h, as `nnav tensors`
 * gets them: a sparse initializer shows its dense shape and its values plus
 * indices as bytes; a weight a Constant node holds is listed and counted
 * too, its storage "Constant, raw", its detail naming the node.
 */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "quant.h"
#include "sizebar.h"
#include "tfacts.h"

enum { SORT_SIZE = 0, SORT_NAME, SORT_DIFF /* compare mode only */ };

typedef struct tensors {
    uint32_t graph;
    nnav_tfacts *order; /* the rows' facts, in display order */
    uint32_t n;
    int sort;
    uint64_t total, max;
    char scope[160];    /* the scope the rows are narrowed to (escaped), "" the whole graph */
    int bpw_col;        /* the graph's weights are not all of one width: a bpw column */
    uint64_t cut;       /* a scope's rows: the bytes of key path all their names share,
                           not drawn ("qweight" for "model.layers.0.q_proj.qweight") */
} tensors;

#define TS(p) ((tensors *)(p)->priv)

static int tensors_open(ui *u, pane *p)
{
    (void)u;
    TS(p)->graph = NNAV_NONE;
    return 0;
}

static void tensors_close(ui *u, pane *p)
{
    (void)u;
    free(TS(p)->order);
}

/* qsort has no context argument; sorting happens on the UI thread only. */
static const nnav_model *sort_model;

static int cmp_name(const void *a, const void *b)
{
    const nnav_tfacts *fa = a, *fb = b;
    const nnav_tensor *x = nnav_tensor_get(sort_model, fa->tensor);
    const nnav_tensor *y = nnav_tensor_get(sort_model, fb->tensor);
    size_t n = x->name.n < y->name.n ? (size_t)x->name.n : (size_t)y->name.n;
    int c = n ? memcmp(x->name.p, y->name.p, n) : 0;
    if (c)
        return c;
    if (x->name.n != y->name.n)
        return x->name.n < y->name.n ? -1 : 1;
    return fa->tensor < fb->tensor ? -1 : 1;
}

static int cmp_size(const void *a, const void *b)
{
    uint64_t x = ((const nnav_tfacts *)a)->bytes, y = ((const nnav_tfacts *)b)->bytes;
    if (x == UINT64_MAX)
        x = 0;
    if (y == UINT64_MAX)
        y = 0;
    if (x != y)
        return x > y ? -1 : 1;
    return cmp_name(a, b);
}

/* Compare mode's order: a tensor only on one side or retyped or reshaped
 * first, then the largest absolute difference, then the most elements
 * differing; the same ones last, by name. */
static const ui *sort_ui;

static int diff_rank(const nnav_diff_tensor *e)
{
    if (!e)
        return 3;
    if (e->what & (NNAV_DIFF_ADDED | NNAV_DIFF_REMOVED | NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE))
        return 0;
    return e->what & NNAV_DIFF_VALUES ? 1 : 2;
}

static int cmp_diff(const void *a, const void *b)
{
    const nnav_diff_tensor *x = cmp_tensor_entry(sort_ui, ((const nnav_tfacts *)a)->tensor);
    const nnav_diff_tensor *y = cmp_tensor_entry(sort_ui, ((const nnav_tfacts *)b)->tensor);
    int rx = diff_rank(x), ry = diff_rank(y);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    if (rx == 1) {
        if (x->max_abs != y->max_abs)
            return x->max_abs > y->max_abs ? -1 : 1;
        if (x->ndiff != y->ndiff)
            return x->ndiff > y->ndiff ? -1 : 1;
    }
    return cmp_name(a, b);
}

static void sort(ui *u, tensors *s)
{
    sort_model = u->m;
    sort_ui = u;
    if (s->n > 1)
        qsort(s->order, s->n, sizeof *s->order,
              s->sort == SORT_DIFF ? cmp_diff : s->sort == SORT_SIZE ? cmp_size : cmp_name);
}

static void totals(tensors *s)
{
    s->total = s->max = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t b = s->order[i].bytes;
        if (b == UINT64_MAX)
            continue;
        s->total += b;
        if (b > s->max)
            s->max = b;
    }
}

void tensors_set_graph(ui *u, pane *p, uint32_t g)
{
    tensors *s = TS(p);
    if (s->graph == g)
        return;
    s->graph = g;
    s->scope[0] = '\0';
    s->n = 0;
    s->total = s->max = 0;
    p->top = p->cur = 0;
    free(s->order);
    s->order = NULL;
    if (g == NNAV_NONE)
        return;
    const nnav_graph *gr = nnav_graph_get(u->m, g);
    /* Initializers, sparse ones, and the weights Constant nodes hold. */
    uint32_t nc = nnav_tfacts_constant_weights(u->m, g, NULL, NULL);
    uint32_t *cw = malloc(((size_t)nc + 1) * sizeof *cw);
    s->order = malloc(((size_t)gr->init_count + gr->sparse_count + nc + 1) * sizeof *s->order);
    if (!s->order || !cw) {
        free(cw);
        return;
    }
    for (uint32_t i = 0; i < gr->init_count; i++)
        nnav_tfacts_get(u->m, gr->init_first + i, &s->order[s->n++]);
    for (uint32_t i = 0; i < gr->sparse_count; i++) {
        const nnav_sparse *sp = nnav_sparse_get(u->m, gr->sparse_first + i);
        if (sp->values != NNAV_NONE)
            nnav_tfacts_get(u->m, sp->values, &s->order[s->n++]);
    }
    nc = nnav_tfacts_constant_weights(u->m, g, cw, NULL);
    for (uint32_t i = 0; i < nc; i++)
        nnav_tfacts_get(u->m, cw[i], &s->order[s->n++]);
    free(cw);
    totals(s);
    /* The bpw column where widths differ (a quantised model), not 32.00
     * on every row of a float32 one. */
    s->bpw_col = 0;
    double first = -2;
    for (uint32_t i = 0; i < s->n && !s->bpw_col; i++) {
        double b = nnav_tensor_bpw(u->m, s->order[i].tensor);
        if (b < 0)
            continue;
        if (first < -1)
            first = b;
        s->bpw_col = b != first;
    }
    sort(u, s);
}

void tensors_set_scope(ui *u, pane *p, uint32_t g, const uint32_t *vals, uint32_t n,
                       const uint8_t *path, size_t pathlen)
{
    tensors *s = TS(p);
    if (!vals) {
        if (s->scope[0]) { /* the whole graph again */
            s->graph = NNAV_NONE;
            s->scope[0] = '\0';
            tensors_set_graph(u, p, g);
        }
        return;
    }
    nnav_tfacts *order = malloc(((size_t)n + 1) * sizeof *order);
    if (!order) {
        ui_message(u, R_ERROR, "scope: out of memory; every initializer is shown");
        return;
    }
    free(s->order);
    s->order = order;
    s->graph = g;
    s->n = 0;
    p->top = p->cur = 0;
    for (uint32_t i = 0; i < n; i++) {
        const nnav_value *v = nnav_value_get(u->m, vals[i]);
        if (v->kind == NNAV_VAL_INITIALIZER && v->producer < nnav_tensor_count(u->m))
            nnav_tfacts_get(u->m, v->producer, &s->order[s->n++]);
    }
    /* The names' shared key path, up to its last '.' or '/'. */
    s->cut = 0;
    if (s->n) {
        nnav_span a = nnav_tensor_get(u->m, s->order[0].tensor)->name;
        uint64_t k = a.n;
        for (uint32_t i = 1; i < s->n && k; i++) {
            nnav_span b = nnav_tensor_get(u->m, s->order[i].tensor)->name;
            uint64_t j = 0;
            while (j < k && j < b.n && a.p[j] == b.p[j])
                j++;
            k = j;
        }
        while (k > 0 && a.p[k - 1] != '.' && a.p[k - 1] != '/')
            k--;
        s->cut = k;
    }
    draw_escape((nnav_span){ path, pathlen }, 120, s->scope, sizeof s->scope);
    if (!s->scope[0])
        snprintf(s->scope, sizeof s->scope, "/");
    totals(s);
    sort(u, s);
}

void tensors_reveal(ui *u, pane *p, uint32_t t)
{
    tensors *s = TS(p);
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < s->n; i++)
            if (s->order[i].tensor == t) {
                pane_set_cursor(p, i, s->n);
                return;
            }
        if (!s->scope[0] || s->graph == NNAV_NONE)
            return;
        tensors_set_scope(u, p, s->graph, NULL, 0, NULL, 0); /* not in the scope: all of them */
    }
}

static uint32_t tensors_lines(ui *u, pane *p)
{
    (void)u;
    return TS(p)->n;
}

static void tensors_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    tensors *s = TS(p);
    char hb[32];
    draw_fmt(y, x, w, a, "%u%s%s  total %s  by %s", s->n, s->scope[0] ? " in " : "", s->scope,
             sizebar_human(s->total, hb, sizeof hb),
             s->sort == SORT_DIFF ? "difference" : s->sort == SORT_SIZE ? "size" : "name");
}

static void tensors_draw_line(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected)
{
    tensors *s = TS(p);
    const nnav_tfacts *f = &s->order[line];
    const nnav_tensor *t = nnav_tensor_get(u->m, f->tensor);
    attr_t sel = selected ? draw_attr(selected) : 0;
    uint64_t b = f->bytes;
    char hb[32], pc[16], bar[128];
    int barw = w >= 70 ? 12 : w >= 45 ? 8 : 5;
    int c = 0;
    if (u->cmp) { /* compare mode: the mark; sorted by difference, its figures */
        const nnav_diff_tensor *e = cmp_tensor_entry(u, f->tensor);
        c += cmp_draw_mark(cmp_mark_of(e ? e->what : 0), y, x, w, sel);
        c += draw_text(y, x + c, w - c, " ", sel);
        if (s->sort == SORT_DIFF) {
            if (e && (e->what & NNAV_DIFF_VALUES))
                c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_CHANGED), "%9llu %-9.3g ",
                              (unsigned long long)e->ndiff, e->max_abs);
            else
                c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "%9s %-9s ", "-", "-");
        }
    }
    /* Under 50 columns (the pane up to 100 columns of screen) the share
     * and the bar give way so that a name and its shape both fit. */
    int narrow = w < 50 && !u->cmp;
    c += draw_fmt(y, x + c, w - c, sel, "%9s ", sizebar_human(b, hb, sizeof hb));
    if (!narrow) {
        c += draw_fmt(y, x + c, w - c, sel, "%6s ", sizebar_percent(b, s->total, pc, sizeof pc));
        c += draw_text(y, x + c, w - c, draw_is_utf8() ? "\u2595" : "[", sel | draw_attr(R_DIM));
        c += draw_text(y, x + c, w - c,
                       sizebar_render(b, s->max, (unsigned)barw, draw_is_utf8(), bar, sizeof bar),
                       sel | draw_attr(R_BAR));
        c += draw_text(y, x + c, w - c, draw_is_utf8() ? "\u258f" : "]", sel | draw_attr(R_DIM));
    }
    /* Its bits per weight (quant.h), a column of its own: "-" for none. */
    if (s->bpw_col && !u->cmp && w >= 60) { /* compare mode: its figures instead */
        double bpw = nnav_tensor_bpw(u->m, f->tensor);
        if (bpw >= 0)
            c += draw_fmt(y, x + c, w - c, sel, "%6.2f ", bpw);
        else
            c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "%6s ", "-");
    } else {
        c += draw_text(y, x + c, w - c, " ", sel);
    }
    nnav_span nm = t->name;
    if (s->scope[0] && s->cut < nm.n)
        nm.p += s->cut, nm.n -= s->cut;
    char shape[160];
    nnav_tfacts_shape(f, shape, sizeof shape);
    /* A name of no scope of its own ("onnx::MatMul_3182") after the node
     * reading it, which says where it is used (tfacts.h):
     * "…/attention/MatMul ← onnx::MatMul_3182", the node's path cut at its
     * start to 24 columns at most, and only in the room the whole name and
     * its shape leave (they come first). */
    uint32_t cn = nnav_tfacts_consumer(u->m, f);
    int spare = w - c - 4 - draw_width(shape) - (nm.n > 4096 ? 4096 : (int)nm.n);
    if (spare >= 12 && nnav_tfacts_unscoped(u->m, f, cn)) {
        int cw = spare - 3 < 24 ? spare - 3 : 24;
        c += draw_span_tail(y, x + c, cw, nnav_node_get(u->m, cn)->name, sel | draw_attr(R_DIM));
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), " %s ", draw_glyph(G_FROM));
    }
    /* The name cut in its middle where it would push the shape out: the
     * shape keeps its columns while the name has 8 or more. */
    int namew = w - c - 2 - draw_width(shape);
    c += draw_span_mid(y, x + c, namew >= 8 ? namew : w - c, nm, sel);
    if (c + 4 < w) {
        char store[160], qt[160];
        nnav_tquant q;
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %s", shape);
        if (nnav_tensor_quant(u->m, f->tensor, &q) == 0 && q.kind != NNAV_Q_PLAIN && c + 4 < w) {
            nnav_tensor_qtype(u->m, f->tensor, qt, sizeof qt);
            c += draw_fmt(y, x + c, w - c, sel, "  %s", qt);
        }
        if ((t->storage == NNAV_STORE_EXTERNAL || f->sparse != NNAV_NONE ||
             f->holder != NNAV_NONE) && c + 4 < w) {
            nnav_tfacts_storage(u->m, f, store, sizeof store);
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %s", store);
        }
    }
}

static void tensors_select(ui *u, pane *p)
{
    tensors *s = TS(p);
    if (p->cur < s->n)
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_TENSOR, s->order[p->cur].tensor);
}

static int tensors_request(ui *u, pane *p, enum request r)
{
    tensors *s = TS(p);
    switch (r) {
    case REQ_SORT: {
        uint32_t keep = p->cur < s->n ? s->order[p->cur].tensor : NNAV_NONE;
        /* Compare mode adds a third order: size, name, difference. */
        s->sort = s->sort == SORT_SIZE ? SORT_NAME
                  : s->sort == SORT_NAME && u->cmp ? SORT_DIFF : SORT_SIZE;
        sort(u, s);
        p->top = p->cur = 0;
        if (keep != NNAV_NONE)
            tensors_reveal(u, p, keep);
        if (s->sort == SORT_DIFF)
            ui_message(u, 0, "initializers sorted by difference: elements differing, "
                             "largest |B-A|");
        else
            ui_message(u, 0, "initializers sorted by %s", s->sort == SORT_SIZE ? "size" : "name");
        return 1;
    }
    case REQ_STATS:
        tensors_select(u, p);
        detail_stats(u, &u->pane[PANE_DETAIL]);
        return 1;
    case REQ_ENTER:
        ui_set_focus(u, PANE_DETAIL);
        return 1;
    default:
        return 0;
    }
}

static int tensors_yank(ui *u, pane *p, nnav_span *out, char *buf, size_t n)
{
    tensors *s = TS(p);
    if (p->cur >= s->n)
        return 0;
    *out = nnav_tensor_get(u->m, s->order[p->cur].tensor)->name;
    return 1;
}

static int tensors_here(ui *u, pane *p, place *out)
{
    tensors *s = TS(p);
    if (p->cur >= s->n)
        return 0;
    *out = ui_place_tensor(u, s->order[p->cur].tensor);
    return 1;
}

const pane_ops pane_tensors_ops = {
    .size = sizeof(tensors),
    .open = tensors_open,
    .close = tensors_close,
    .title = tensors_title,
    .lines = tensors_lines,
    .draw_line = tensors_draw_line,
    .request = tensors_request,
    .select = tensors_select,
    .yank = tensors_yank,
    .here = tensors_here,
};
