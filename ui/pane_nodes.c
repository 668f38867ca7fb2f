/* pane_nodes.c - the nodes of the selected graph: index, op type, name, the
 * first output's type (while types are shown), inputs -> outputs. Rows are
 * drawn from the index on demand, so a graph of a million nodes costs only the
 * rows on screen. An op-type filter keeps a list of the matching node ids (one
 * pass when the filter is set).
 */
#include "ui.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "exporter.h"

typedef struct nodes {
    uint32_t graph;
    uint32_t *match;    /* node ids passing the filter, NULL when none is set */
    uint32_t nmatch;
    char filter[64];
    /* The scope in view (the tree's cursor on a scope): its nodes in graph
     * order, the base the filters run over; NULL for the whole graph. */
    uint32_t *scope;
    uint32_t nscope;
    char spath[512];    /* its path, components joined by '/' (raw bytes) */
    size_t spath_n;
    char snote[96];     /* its figures for the title, escaped */
} nodes;

#define N(p) ((nodes *)(p)->priv)

static int nodes_open(ui *u, pane *p)
{
    (void)u;
    N(p)->graph = NNAV_NONE;
    return 0;
}

static void nodes_close(ui *u, pane *p)
{
    (void)u;
    free(N(p)->match);
    free(N(p)->scope);
}

/* The rows before the filters: the scope in view, or the whole graph. */
static uint32_t base_count(ui *u, nodes *s)
{
    return s->scope ? s->nscope : nnav_graph_get(u->m, s->graph)->node_count;
}

static uint32_t base_at(ui *u, nodes *s, uint32_t i)
{
    return s->scope ? s->scope[i] : nnav_graph_get(u->m, s->graph)->node_first + i;
}

static uint32_t nodes_lines(ui *u, pane *p)
{
    nodes *s = N(p);
    if (s->graph == NNAV_NONE)
        return 0;
    return s->match ? s->nmatch : base_count(u, s);
}

static uint32_t node_at(ui *u, nodes *s, uint32_t line)
{
    return s->match ? s->match[line] : base_at(u, s, line);
}

/* Compare mode: a row of a node only the other side has. */
static int is_other(const ui *u, uint32_t id)
{
    return u->cmp && (id & CMP_OTHER_BIT);
}

uint32_t nodes_current(ui *u, pane *p)
{
    nodes *s = N(p);
    if (p->cur >= nodes_lines(u, p))
        return NNAV_NONE;
    uint32_t id = node_at(u, s, p->cur);
    return is_other(u, id) ? NNAV_NONE : id;
}

uint32_t nodes_current_other(ui *u, pane *p)
{
    nodes *s = N(p);
    if (p->cur >= nodes_lines(u, p))
        return NNAV_NONE;
    uint32_t id = node_at(u, s, p->cur);
    return is_other(u, id) ? id & ~CMP_OTHER_BIT : NNAV_NONE;
}

const char *nodes_filter_text(pane *p)
{
    return N(p)->filter;
}

/* Row visibility: a node shows when it is in the base (the scope in view or
 * the graph) and passes every filter that is set; each filter is one test
 * here, so they compose. */
static int any_filter(ui *u, nodes *s)
{
    return s->filter[0] != '\0' || decl_view(u, s->graph);
}

static int row_visible(ui *u, nodes *s, uint32_t id)
{
    const nnav_declutter *dc = decl_view(u, s->graph);
    if (dc && nnav_declutter_hidden(dc, id)) /* D: clutter hidden */
        return 0;
    if (s->filter[0]) { /* f: the op type, case-insensitive */
        const nnav_node *n = nnav_node_get(u->m, id);
        size_t len = strlen(s->filter);
        if (n->op.n != len)
            return 0;
        for (size_t k = 0; k < len; k++)
            if (tolower(n->op.p[k]) != tolower((unsigned char)s->filter[k]))
                return 0;
    }
    return 1;
}

/* Lists the base's rows passing the filters (one pass); no list when no
 * filter is set. */
static int refilter(ui *u, nodes *s)
{
    free(s->match);
    s->match = NULL;
    s->nmatch = 0;
    if (s->graph == NNAV_NONE)
        return 0;
    /* Compare mode, the whole graph unfiltered: the other side's nodes this
     * side lacks are rows too, each before the node it is placed at. */
    uint32_t *oid = NULL, *oat = NULL, no = 0;
    if (u->cmp && !s->scope && !s->filter[0])
        no = cmp_other_rows(u, s->graph, &oid, &oat);
    if (!any_filter(u, s) && !no)
        return 0;
    uint32_t nb = base_count(u, s);
    s->match = malloc(((size_t)nb + no + 1) * sizeof *s->match);
    if (!s->match) {
        free(oid);
        free(oat);
        return -1;
    }
    uint32_t j = 0;
    for (uint32_t i = 0; i < nb; i++) {
        uint32_t id = base_at(u, s, i);
        while (j < no && oat[j] == id)
            s->match[s->nmatch++] = CMP_OTHER_BIT | oid[j++];
        if (row_visible(u, s, id))
            s->match[s->nmatch++] = id;
    }
    while (j < no)
        s->match[s->nmatch++] = CMP_OTHER_BIT | oid[j++];
    free(oid);
    free(oat);
    return 0;
}

void nodes_reveal_other(ui *u, pane *p, uint32_t other)
{
    nodes *s = N(p);
    for (uint32_t i = 0; s->match && i < s->nmatch; i++)
        if (s->match[i] == (CMP_OTHER_BIT | other)) {
            pane_set_cursor(p, i, s->nmatch);
            return;
        }
}

static void clear_filter(nodes *s)
{
    free(s->match);
    s->match = NULL;
    s->nmatch = 0;
    s->filter[0] = '\0';
}

static void clear_scope(nodes *s)
{
    free(s->scope);
    s->scope = NULL;
    s->nscope = 0;
    s->spath_n = 0;
}

void nodes_set_graph(ui *u, pane *p, uint32_t g)
{
    nodes *s = N(p);
    if (s->graph == g)
        return;
    clear_filter(s);
    clear_scope(s);
    s->graph = g;
    refilter(u, s); /* the decluttered view (D) stays on in the new graph */
    p->top = p->cur = 0;
}

static void nodes_select(ui *u, pane *p);

void nodes_declutter_changed(ui *u, pane *p)
{
    nodes *s = N(p);
    uint32_t keep = nodes_current(u, p);
    refilter(u, s);
    p->top = p->cur = 0;
    const nnav_declutter *dc = decl_view(u, s->graph);
    if (keep != NNAV_NONE && dc && nnav_declutter_hidden(dc, keep)) {
        /* The cursor's node hid: the nearest shown one after it. */
        for (uint32_t i = 0; i < nodes_lines(u, p); i++)
            if (!is_other(u, node_at(u, s, i)) && node_at(u, s, i) >= keep) {
                pane_set_cursor(p, i, nodes_lines(u, p));
                break;
            }
    } else if (keep != NNAV_NONE) {
        nodes_reveal(u, p, keep);
    }
    nodes_select(u, p);
}

/* The line of `node` among the base's rows, NNAV_NONE when not there. */
static uint32_t base_line(ui *u, nodes *s, uint32_t node)
{
    if (!s->scope) {
        const nnav_graph *g = nnav_graph_get(u->m, s->graph);
        return node - g->node_first < g->node_count ? node - g->node_first : NNAV_NONE;
    }
    uint32_t lo = 0, hi = s->nscope; /* sorted: binary search */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->scope[mid] < node)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nscope && s->scope[lo] == node ? lo : NNAV_NONE;
}

void nodes_reveal(ui *u, pane *p, uint32_t node)
{
    nodes *s = N(p);
    const nnav_node *n = nnav_node_get(u->m, node);
    nodes_set_graph(u, p, n->graph);
    if (s->scope && base_line(u, s, node) == NNAV_NONE) {
        clear_scope(s); /* the target must be visible: the whole graph */
        refilter(u, s);
    }
    uint32_t line = NNAV_NONE;
    if (s->match) {
        for (uint32_t i = 0; i < s->nmatch; i++)
            if (s->match[i] == node)
                line = i;
        if (line == NNAV_NONE)
            clear_filter(s); /* the target must be visible */
    }
    if (!s->match)
        line = base_line(u, s, node);
    pane_set_cursor(p, line, nodes_lines(u, p));
}

int nodes_filter(ui *u, pane *p, const char *op)
{
    nodes *s = N(p);
    uint32_t keep = nodes_current(u, p);
    clear_filter(s);
    if (!op || !*op || s->graph == NNAV_NONE) {
        refilter(u, s); /* the decluttered view (D) stays */
        if (keep != NNAV_NONE)
            nodes_reveal(u, p, keep);
        return 0;
    }
    snprintf(s->filter, sizeof s->filter, "%s", op);
    if (refilter(u, s) != 0)
        return -1;
    p->top = p->cur = 0;
    return (int)s->nmatch;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

int nodes_set_scope(ui *u, pane *p, uint32_t g, const uint32_t *ids, uint32_t n,
                    const uint8_t *path, size_t pathlen, const char *note)
{
    nodes *s = N(p);
    nodes_set_graph(u, p, g);
    uint32_t keep = nodes_current(u, p);
    clear_scope(s);
    if (ids) {
        s->scope = malloc((n ? n : 1) * sizeof *s->scope);
        if (!s->scope) {
            refilter(u, s);
            return -1;
        }
        memcpy(s->scope, ids, n * sizeof *ids);
        qsort(s->scope, n, sizeof *s->scope, cmp_u32);
        s->nscope = n;
        if (pathlen < sizeof s->spath) { /* a longer path is not cut from names */
            memcpy(s->spath, path, pathlen);
            s->spath_n = pathlen;
        }
        snprintf(s->snote, sizeof s->snote, "%s", note ? note : "");
    }
    int rc = refilter(u, s);
    /* The node under the cursor stays there when the new rows hold it. */
    uint32_t line = NNAV_NONE;
    if (keep != NNAV_NONE) {
        if (s->match) {
            for (uint32_t i = 0; i < s->nmatch && line == NNAV_NONE; i++)
                if (s->match[i] == keep)
                    line = i;
        } else {
            line = base_line(u, s, keep);
        }
    }
    p->top = 0;
    p->cur = 0;
    if (line != NNAV_NONE)
        pane_set_cursor(p, line, nodes_lines(u, p));
    return rc;
}

nnav_span nodes_relative_name(ui *u, nnav_span name)
{
    nodes *s = N(&u->pane[PANE_NODES]);
    if (!s || !s->scope || !s->spath_n)
        return name;
    const uint8_t *q = (const uint8_t *)s->spath;
    size_t i = 0, j = 0;
    /* Each component of the path in turn, empty name components skipped as
     * the scope tree skips them ("/a//b/Op" is in a/b). */
    while (j < s->spath_n) {
        while (i < name.n && name.p[i] == '/')
            i++;
        size_t k = j;
        while (k < s->spath_n && q[k] != '/')
            k++;
        size_t len = k - j;
        if (name.n - i <= len || memcmp(name.p + i, q + j, len) != 0 || name.p[i + len] != '/')
            return name;
        i += len;
        j = k < s->spath_n ? k + 1 : k;
    }
    while (i < name.n && name.p[i] == '/')
        i++;
    return i < name.n ? (nnav_span){ name.p + i, name.n - i } : name;
}

static void nodes_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    nodes *s = N(p);
    if (s->graph == NNAV_NONE)
        return;
    int c = ui_draw_graph_label(u, s->graph, y, x, w, a);
    /* The selected node's index, numbered as its row is (from 0); a filter
     * adds the place among the rows shown. */
    uint32_t n = nodes_lines(u, p), cur = nodes_current(u, p);
    uint32_t all = nnav_graph_get(u->m, s->graph)->node_count;
    if (cur != NNAV_NONE)
        c += draw_fmt(y, x + c, w - c, a, "  #%u of %u", nnav_node_index(u->m, cur), all);
    else
        c += draw_fmt(y, x + c, w - c, a, "  %u", all);
    if (s->scope && s->spath_n) {
        /* The path gives way (keeping its end) to the scope's figures. */
        char note[160];
        snprintf(note, sizeof note, "  %u node%s%s%s", s->nscope, s->nscope == 1 ? "" : "s",
                 s->snote[0] ? "  " : "", s->snote);
        int room = w - c - 5 - draw_width(note);
        c += draw_text(y, x + c, w - c, "  in ", a);
        c += draw_span_tail(y, x + c, room < 12 ? 12 : room,
                            (nnav_span){ (const uint8_t *)s->spath, s->spath_n }, a);
        c += draw_text(y, x + c, w - c, note, a);
    }
    if (s->filter[0])
        c += draw_fmt(y, x + c, w - c, a, "  op:%s %u/%u", s->filter, n ? p->cur + 1 : 0, n);
    if (u->marks.count && u->marks.graph == s->graph)
        draw_fmt(y, x + c, w - c, a, "  %s%u marked", draw_glyph(G_MARK), u->marks.count);
}

static int digits(uint32_t v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* The widest op type and node name in a graph, measured once per graph on
 * its first 65,536 nodes (a bigger graph's later rows are cut to fit). */
static struct {
    const nnav_model *m;
    uint32_t graph;
    int op, name;
} widest = { NULL, NNAV_NONE, 0, 0 };

/* The columns of a row `room` columns wide after the index: the op type
 * its widest (2 to 20 columns); the name the rest up to its widest, leaving
 * the type (when *typew, its preferred width, is not 0) at least 16; the
 * type what the name leaves, up to *typew. */
static void column_widths(ui *u, uint32_t graph, int room, int *typew, int *opw, int *namew)
{
    if (widest.m != u->m || widest.graph != graph) {
        const nnav_graph *g = nnav_graph_get(u->m, graph);
        uint32_t k = g->node_count < 65536 ? g->node_count : 65536;
        uint64_t op = 2, name = 1;
        for (uint32_t i = 0; i < k; i++) {
            const nnav_node *n = nnav_node_get(u->m, g->node_first + i);
            op = n->op.n > op ? n->op.n : op;
            name = n->name.n > name ? n->name.n : name;
        }
        /* Compare mode: the other side's rows share the columns. */
        uint32_t og = cmp_other_graph(u, graph);
        const nnav_model *om = cmp_other_model(u);
        if (og != NNAV_NONE) {
            const nnav_graph *o = nnav_graph_get(om, og);
            uint32_t ko = o->node_count < 65536 ? o->node_count : 65536;
            for (uint32_t i = 0; i < ko; i++) {
                const nnav_node *n = nnav_node_get(om, o->node_first + i);
                op = n->op.n > op ? n->op.n : op;
                name = n->name.n > name ? n->name.n : name;
            }
        }
        widest.m = u->m;
        widest.graph = graph;
        widest.op = op > 20 ? 20 : (int)op;
        widest.name = name > 4096 ? 4096 : (int)name;
    }
    *opw = widest.op;
    int rest = room - *opw - 1, tmin = *typew < 16 ? *typew : 16;
    int most = rest - (*typew ? tmin + 1 : 0);
    *namew = widest.name < most ? widest.name : most;
    if (*namew < 8)
        *namew = 8;
    if (*typew) {
        int t = rest - *namew - 1;
        *typew = t < tmin ? tmin : t > *typew ? *typew : t;
    }
}

/* Compare mode: a row of a node only the other side has, from that side's
 * model: its mark, no index (it has none here), op, name, inputs -> outputs. */
static void draw_other_line(ui *u, nodes *s, uint32_t other, int y, int x, int w, int selected)
{
    const nnav_model *om = cmp_other_model(u);
    const nnav_node *n = nnav_node_get(om, other);
    const nnav_graph *g = nnav_graph_get(u->m, s->graph);
    attr_t sel = selected ? draw_attr(selected) : 0;
    char mk = cmp_mark_of(cmp_other_what(u, other));
    attr_t ma = mk == '-' ? draw_attr(R_REMOVED) : draw_attr(R_ADDED);
    cmp_draw_mark(mk, y, x, w, sel);
    draw_text(y, x + 1, w - 1, " ", sel);
    x += 2;
    w -= 2;
    int iw = digits(g->node_count ? g->node_count - 1 : 0);
    int opw, namew, typew = 0;
    column_widths(u, s->graph, w - iw - 1, &typew, &opw, &namew);
    int c = draw_fmt(y, x, w, sel | draw_attr(R_DIM), "%*s ", iw, "-");
    draw_span(y, x + c, opw < w - c ? opw : w - c, n->op, sel | ma);
    c += opw + 1;
    if (c >= w)
        return;
    if (n->name.n)
        draw_span_tail(y, x + c, namew < w - c ? namew : w - c, n->name, sel | ma);
    else
        draw_text(y, x + c, w - c, "-", sel | draw_attr(R_DIM));
    c += namew + 1;
    if (typed_shapes(u)) { /* the type column of the rows around it, left empty */
        int tw = w >= 120 ? 30 : w >= 56 ? 22 : w >= 44 ? 16 : 0, onw;
        column_widths(u, s->graph, w - iw - 1, &tw, &opw, &onw);
        c += tw ? tw + 1 : 0;
    }
    attr_t dim = sel | draw_attr(R_DIM);
    c += draw_text(y, x + c, w - c, mk == '-' ? "(only on A) " : "(only on B) ", dim);
    for (uint32_t i = 0; i < n->in_count && c < w; i++) {
        if (i)
            c += draw_text(y, x + c, w - c, ",", dim);
        c += draw_span(y, x + c, w - c, nnav_ref_get(om, n->in_first + i).name, dim);
    }
    c += draw_fmt(y, x + c, w - c, dim, " %s ", draw_glyph(G_TO));
    for (uint32_t i = 0; i < n->out_count && c < w; i++) {
        if (i)
            c += draw_text(y, x + c, w - c, ",", dim);
        c += draw_span(y, x + c, w - c, nnav_ref_get(om, n->out_first + i).name, dim);
    }
}

static void nodes_draw_line(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected)
{
    nodes *s = N(p);
    uint32_t id = node_at(u, s, line);
    if (is_other(u, id)) {
        draw_other_line(u, s, id & ~CMP_OTHER_BIT, y, x, w, selected);
        return;
    }
    const nnav_node *n = nnav_node_get(u->m, id);
    const nnav_graph *g = nnav_graph_get(u->m, s->graph);
    attr_t sel = selected ? draw_attr(selected) : 0;
    int iw = digits(g->node_count ? g->node_count - 1 : 0);
    /* Op types as wide as they need (to a cap), names the rest up to the
     * widest; what is still too long keeps its end (draw_span_tail). */
    int opw, namew, typew = typed_shapes(u) ? (w >= 120 ? 30 : w >= 56 ? 22 : w >= 44 ? 16 : 0) : 0;
    if (u->cmp) { /* compare mode: +, - or ~ in a column of its own, first */
        cmp_draw_mark(cmp_mark_of(cmp_node_what(u, id)), y, x, w, sel);
        draw_text(y, x + 1, w - 1, " ", sel);
        x += 2;
        w -= 2;
    }
    column_widths(u, s->graph, w - iw - 1, &typew, &opw, &namew);
    /* A mark takes the blank after the index, so marking never shifts a row. */
    int marked = marks_has(&u->marks, id);
    attr_t mark = marked ? A_BOLD : 0;
    int c = draw_fmt(y, x, w, sel | draw_attr(R_DIM), "%*u", iw, nnav_node_index(u->m, id));
    c += draw_text(y, x + c, w - c, marked ? draw_glyph(G_MARK) : " ",
                   sel | (marked ? draw_attr(R_LINK) | A_BOLD : 0));
    draw_span(y, x + c, opw < w - c ? opw : w - c, n->op, sel | draw_attr(R_OP) | mark);
    c += opw + 1;
    if (c >= w)
        return;
    if (n->name.n)
        draw_span_tail(y, x + c, namew < w - c ? namew : w - c, nodes_relative_name(u, n->name),
                       sel | mark);
    else
        draw_text(y, x + c, w - c, "-", sel | draw_attr(R_DIM));
    c += namew + 1;
    const nnav_shapes *sh = typed_shapes(u);
    if (sh && typew && c < w) {
        /* The first output's type as best known: what most rows need to show. */
        uint32_t ov = n->out_count ? nnav_ref_get(u->m, n->out_first).value : NNAV_NONE;
        if (ov != NNAV_NONE) {
            char t[160];
            nnav_shapes_value_format(sh, ov, t, sizeof t);
            draw_text(y, x + c, typew < w - c ? typew : w - c, t[0] ? t : "?",
                       sel | typed_attr(sh, ov));
        } else {
            draw_text(y, x + c, w - c, "-", sel | draw_attr(R_DIM));
        }
        c += typew + 1;
    }
    attr_t dim = sel | draw_attr(R_DIM);
    const nnav_declutter *dc = decl_view(u, s->graph);
    for (uint32_t i = 0; i < n->in_count && c < w; i++) {
        if (i)
            c += draw_text(y, x + c, w - c, ",", dim);
        nnav_ref r = nnav_ref_get(u->m, n->in_first + i);
        char fv[160] = "";
        if (dc && r.value != NNAV_NONE && !r.control) /* D: a folded input as its value */
            nnav_declutter_input_text(dc, r.value, fv, sizeof fv);
        if (fv[0])
            c += draw_text(y, x + c, w - c, fv, dim);
        else
            c += draw_span(y, x + c, w - c, nodes_relative_name(u, r.name), dim);
    }
    c += draw_fmt(y, x + c, w - c, dim, " %s ", draw_glyph(G_TO));
    for (uint32_t i = 0; i < n->out_count && c < w; i++) {
        if (i)
            c += draw_text(y, x + c, w - c, ",", dim);
        c += draw_span(y, x + c, w - c, nodes_relative_name(u, nnav_ref_get(u->m, n->out_first + i).name), dim);
    }
}

static void nodes_select(ui *u, pane *p)
{
    uint32_t id = nodes_current(u, p), other = nodes_current_other(u, p);
    if (other != NNAV_NONE)
        detail_set_other(u, &u->pane[PANE_DETAIL], other);
    else if (id != NNAV_NONE)
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_NODE, id);
    else if (N(p)->graph != NNAV_NONE)
        detail_set(u, &u->pane[PANE_DETAIL], PLACE_GRAPH, N(p)->graph);
}

/* Space marks the node and steps down, so a run of nodes is a run of Spaces. */
static void nodes_mark(ui *u, pane *p)
{
    uint32_t id = nodes_current(u, p);
    if (id == NNAV_NONE || !exporter_mark(u, id))
        return;
    uint32_t lines = nodes_lines(u, p);
    if (p->cur + 1 < lines) {
        pane_set_cursor(p, p->cur + 1, lines);
        nodes_select(u, p);
    }
}

/* Enter on a node with a body goes into the first body; otherwise to its detail. */
static int nodes_request(ui *u, pane *p, enum request r)
{
    if (r == REQ_MARK) {
        nodes_mark(u, p);
        return 1;
    }
    if (r != REQ_ENTER)
        return 0;
    uint32_t id = nodes_current(u, p);
    if (id == NNAV_NONE)
        return 1;
    const nnav_node *n = nnav_node_get(u->m, id);
    for (uint32_t a = 0; a < n->attr_count; a++) {
        const nnav_attr *at = nnav_attr_get(u->m, n->attr_first + a);
        if (at->graph_count) {
            ui_jump(u, ui_place_graph(u, at->graph_first));
            ui_set_focus(u, PANE_NODES);
            return 1;
        }
    }
    if (n->function != NNAV_NONE) {
        ui_jump(u, ui_place_graph(u, nnav_function_get(u->m, n->function)->graph));
        ui_set_focus(u, PANE_NODES);
        return 1;
    }
    ui_set_focus(u, PANE_DETAIL);
    return 1;
}

static int nodes_yank(ui *u, pane *p, nnav_span *out, char *buf, size_t n)
{
    uint32_t id = nodes_current(u, p);
    if (id == NNAV_NONE)
        return 0;
    *out = nnav_node_get(u->m, id)->name;
    return 1;
}

static int nodes_here(ui *u, pane *p, place *out)
{
    uint32_t id = nodes_current(u, p);
    if (id != NNAV_NONE)
        *out = ui_place_node(u, id);
    else if (N(p)->graph != NNAV_NONE)
        *out = ui_place_graph(u, N(p)->graph);
    else
        return 0;
    out->pane = PANE_NODES;
    return 1;
}

const pane_ops pane_nodes_ops = {
    .size = sizeof(nodes),
    .open = nodes_open,
    .close = nodes_close,
    .title = nodes_title,
    .lines = nodes_lines,
    .draw_line = nodes_draw_line,
    .request = nodes_request,
    .select = nodes_select,
    .yank = nodes_yank,
    .here = nodes_here,
};
