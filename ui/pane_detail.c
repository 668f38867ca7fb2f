/* pane_detail.c - everything about the selected node, tensor, graph or value.
 *
 * detail_set() lays out line descriptors (type + ids); the text is made when a
 * line is drawn, so nothing but the ids is kept. Lines that lead somewhere
 * (inputs, outputs, consumers, bodies, tensors) act on Enter. While types are
 * shown (T), a node gets a cost line and each input and output a type line
 * under it saying where the type comes from; the layout is redone on T.
 *
 * A node is read against its operator's schema through the functions
 * `nnav node` uses (opref.h): the schema in force or why there is none, each
 * input and output named by the schema (X, W, B; inputs[2]), and after the
 * file's attributes the schema's others with their defaults.
 *
 * The cursor stops only where Enter acts (inputs, outputs, consumers, bodies,
 * tensors, the producer, the function called) and at the first line, the top
 * of the pane: headers, type lines and plain attributes are read, not
 * visited. Up/Down go from stop to stop, PgUp/PgDn scroll a page and take the
 * stop nearest the cursor's row, a click takes the nearest stop in view.
 */
#include "ui.h"

#include <stdlib.h>
#include <string.h>

#include "opref.h"
#include "quant.h"
#include "scope.h"
#include "sizebar.h"
#include "tfacts.h"

enum dl_type {
    DL_BLANK = 0, DL_SECTION,
    DL_NODE_HEAD, DL_NODE_NAME, DL_NODE_FUNC, DL_NODE_SCHEMA, DL_NODE_COST, DL_ATTR,
    DL_ATTR_DEFAULT, DL_ATTR_UNSET, DL_ATTR_GRAPH, DL_ATTR_TENSOR, DL_INPUT, DL_OUTPUT, DL_IO_TYPE,
    DL_T_NAME, DL_T_SHAPE, DL_T_STORE, DL_T_BYTES, DL_T_QUANT, DL_T_WARN, DL_T_VALUES, DL_T_STATS,
    DL_T_OWNER,
    DL_G_HEAD, DL_G_PATH, DL_G_OWNER, DL_G_COUNTS, DL_G_COST, DL_G_FOLDED, DL_G_TYPES, DL_G_INPUT,
    DL_G_OUTPUT,
    DL_V_HEAD, DL_V_TYPE, DL_V_PRODUCER,
    DL_CONSUMER,
    DL_CMP, DL_CMP_T, /* compare mode: a node's two sides, a tensor's difference */
    DL_CMP_OTHER,     /* compare mode: a node only the other side has */
    DL_CMP_G,         /* compare mode: a graph's differences */
};

typedef struct dline {
    uint8_t type;
    uint32_t a, b;
} dline;

enum { PREVIEW_VALUES = 8, PREVIEW_CACHE = 16 };

typedef struct preview {
    uint32_t tensor;
    char text[200];
} preview;

typedef struct detail {
    uint8_t kind;      /* place_kind of the target */
    uint32_t id;
    dline *lines;
    uint32_t n, cap;
    preview cache[PREVIEW_CACHE];
    uint32_t ncache;
    uint64_t total_nodes;  /* of a graph target with its bodies, counted once */
    nnav_cost gcost;       /* of a graph target while types are shown */
    nnav_shapes_stats gstats;
    nnav_tfacts tf;        /* of a tensor target: what `nnav tensors` says too */
    nnav_op_use use;       /* of a node target: the schema it is held to */
    nnav_node_attr_row *rows; /* of a node target: every attribute (nnav_node_attr_rows) */
    size_t nrows;
    uint32_t attr_default; /* rows of the schema's defaults the node leaves to it */
    uint32_t stats_tensor; /* stats computed for this tensor, NNAV_NONE if none */
    nnav_values stats;
    char stats_err[160];
    int width;             /* the pane's, when the lines were laid out */
} detail;

#define D(p) ((detail *)(p)->priv)

/* A detail kind past the places: a node of the other side (compare mode). */
enum { DETAIL_OTHER = 32 };

static int detail_open(ui *u, pane *p)
{
    (void)u;
    D(p)->id = NNAV_NONE;
    D(p)->stats_tensor = NNAV_NONE;
    return 0;
}

static void detail_close(ui *u, pane *p)
{
    (void)u;
    free(D(p)->lines);
    free(D(p)->rows);
}

static void add(detail *d, uint8_t type, uint32_t a, uint32_t b)
{
    if (d->n == d->cap) {
        uint32_t cap = d->cap ? d->cap * 2 : 64;
        dline *l = realloc(d->lines, cap * sizeof *l);
        if (!l)
            return;
        d->lines = l;
        d->cap = cap;
    }
    d->lines[d->n++] = (dline){ type, a, b };
}

/* Section ids for DL_SECTION's a. */
enum { SEC_ATTRS, SEC_INPUTS, SEC_OUTPUTS, SEC_CONSUMERS };

static void add_consumers(ui *u, detail *d, uint32_t v)
{
    uint32_t n = 0;
    const uint32_t *c = v != NNAV_NONE ? nnav_value_consumers(u->m, v, &n) : NULL;
    add(d, DL_SECTION, SEC_CONSUMERS, n);
    for (uint32_t i = 0; i < n; i++)
        add(d, DL_CONSUMER, c[i], v);
}

/* An input's or output's line, and its type line while types are shown. */
static void add_ref(ui *u, detail *d, uint8_t type, uint32_t ref, uint32_t i)
{
    add(d, type, ref, i);
    uint32_t v = nnav_ref_get(u->m, ref).value;
    if (typed_shapes(u) && v != NNAV_NONE)
        add(d, DL_IO_TYPE, v, 0);
}

/* A node's name is never cut while it fits NAME_LINES lines: it wraps
 * after "name " (pieces of the width less 5); a longer one shows its first
 * lines and its end on the last. */
enum { NAME_LINES = 8, NAME_INDENT = 5 };

static int name_piece_w(int width)
{
    return width - NAME_INDENT > 8 ? width - NAME_INDENT : 8;
}

/* The escaped start of a name, enough for NAME_LINES pieces; malloc'd. */
static char *name_head(nnav_span name, int pw)
{
    size_t cols = (size_t)pw * NAME_LINES + 1, cap = cols * 16 + 64;
    char *buf = malloc(cap);
    if (buf)
        draw_escape(name, cols, buf, cap);
    return buf;
}

static void add_name_lines(detail *d, uint32_t id, nnav_span name)
{
    int pieces = 1;
    char *buf = name.n ? name_head(name, name_piece_w(d->width)) : NULL;
    if (buf) {
        wchar_t one[2];
        draw_wrap_piece(buf, strlen(buf), name_piece_w(d->width), 0, draw_is_utf8(), one, 2,
                        &pieces);
        free(buf);
    }
    for (int k = 0; k < (pieces < NAME_LINES ? pieces : NAME_LINES) || k == 0; k++)
        add(d, DL_NODE_NAME, id, (uint32_t)k);
}

/* The schema's attributes a node leaves without a value or a default:
 * "(not set: dilations, strides)", or with req "(missing, required: ...)";
 * 0 when there are none. A TensorFlow OpDef's names come from the file. */
enum { UNSET_TEXT = 2048, UNSET_LINES = 8 };

static int unset_text(const detail *d, uint32_t req, char *buf, size_t n)
{
    size_t o = 0;
    int any = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < d->nrows && o + 1 < n; k++) {
        const nnav_node_attr_row *r = &d->rows[k];
        if (r->state != NNAV_NA_UNSET || !r->sa || !r->sa->required != !req)
            continue;
        int w = snprintf(buf + o, n - o, "%s", any++ ? ", " : req ? "(missing, required: "
                                                                   : "(not set: ");
        if (w < 0 || (size_t)w >= n - o)
            break;
        o += (size_t)w;
        o += nnav_text_escape_cstr(r->sa->name, buf + o, n - o);
    }
    if (any && o + 2 < n)
        snprintf(buf + o, n - o, ")");
    return any;
}

/* Columns a wrapped unset list takes: the pane's less its indent. */
static int unset_width(int width)
{
    return width - 4 > 12 ? width - 4 : 12;
}

static void build_node(ui *u, detail *d, uint32_t id)
{
    const nnav_node *n = nnav_node_get(u->m, id);
    add(d, DL_NODE_HEAD, id, 0);
    add_name_lines(d, id, n->name);
    if (n->function != NNAV_NONE)
        add(d, DL_NODE_FUNC, n->function, 0);
    /* Compare mode: the node on A and on B, its differing lines marked. */
    uint32_t ncmp = cmp_detail_count(u, id, d->width);
    for (uint32_t k = 0; k < ncmp; k++)
        add(d, DL_CMP, id, k);
    if (nnav_op_resolve(u->m, id, &d->use) != 0) {
        memset(&d->use, 0, sizeof d->use);
        d->use.status = NNAV_OPS_NONSTANDARD;
    }
    add(d, DL_NODE_SCHEMA, id, 0);
    if (typed_shapes(u))
        add(d, DL_NODE_COST, id, 0);
    /* Every attribute as `nnav node` lists it: the file's in file order,
     * then the schema's the file leaves out, each with its default. Out of
     * memory, the file's only, as before the schema. */
    size_t nr = nnav_node_attr_rows(u->m, id, &d->use, NULL, 0);
    nnav_node_attr_row *rows = nr ? realloc(d->rows, nr * sizeof *rows) : NULL;
    if (rows) {
        d->rows = rows;
        d->nrows = nnav_node_attr_rows(u->m, id, &d->use, rows, nr);
        if (d->nrows > nr)
            d->nrows = nr;
    }
    d->attr_default = 0;
    for (size_t k = 0; k < d->nrows; k++)
        d->attr_default += d->rows[k].state == NNAV_NA_DEFAULT;
    add(d, DL_SECTION, SEC_ATTRS, n->attr_count);
    for (uint32_t i = 0; i < n->attr_count; i++) {
        uint32_t a = n->attr_first + i;
        const nnav_attr *at = nnav_attr_get(u->m, a);
        /* The rows begin with the file's attributes, in file order. */
        uint32_t state = i < d->nrows && d->rows[i].attr == a ? d->rows[i].state : NNAV_NA_FILE;
        add(d, DL_ATTR, a, state);
        for (uint32_t g = 0; g < at->graph_count; g++)
            add(d, DL_ATTR_GRAPH, at->graph_first + g, at->type == NNAV_ATTR_GRAPHS ? g : NNAV_NONE);
        if (at->type == NNAV_ATTR_TENSORS || at->type == NNAV_ATTR_SPARSE_TENSORS)
            for (uint32_t t = 0; t < at->tensor_count; t++)
                add(d, DL_ATTR_TENSOR, at->tensor_first + t, t);
    }
    for (size_t k = 0; k < d->nrows; k++)
        if (d->rows[k].state == NNAV_NA_DEFAULT)
            add(d, DL_ATTR_DEFAULT, id, (uint32_t)k);
    /* What has neither a value nor a default, as `nnav node` says it: the
     * optional ones, then the required ones the node lacks, each list
     * wrapped at the pane's width. */
    for (uint32_t req = 0; req < 2; req++) {
        char text[UNSET_TEXT];
        if (!unset_text(d, req, text, sizeof text))
            continue;
        uint32_t pieces = text_rows(text, unset_width(d->width));
        for (uint32_t k = 0; k < pieces && k < UNSET_LINES; k++)
            add(d, DL_ATTR_UNSET, req, k);
    }
    add(d, DL_SECTION, SEC_INPUTS, n->in_count);
    for (uint32_t i = 0; i < n->in_count; i++)
        add_ref(u, d, DL_INPUT, n->in_first + i, i);
    add(d, DL_SECTION, SEC_OUTPUTS, n->out_count);
    for (uint32_t i = 0; i < n->out_count; i++)
        add_ref(u, d, DL_OUTPUT, n->out_first + i, i);
}

static void build_tensor(ui *u, detail *d, uint32_t t)
{
    const nnav_tensor *ts = nnav_tensor_get(u->m, t);
    add(d, DL_T_NAME, t, 0);
    uint32_t ncmp = cmp_tensor_detail_count(u, t); /* compare mode: what differs */
    for (uint32_t k = 0; k < ncmp; k++)
        add(d, DL_CMP_T, t, k);
    add(d, DL_T_SHAPE, t, 0);
    add(d, DL_T_STORE, t, 0);
    add(d, DL_T_BYTES, t, 0);
    add(d, DL_T_QUANT, t, 0);
    if (ts->warn)
        add(d, DL_T_WARN, t, 0);
    if (ts->owner == NNAV_TOWN_ATTRIBUTE)
        add(d, DL_T_OWNER, t, 0);
    add(d, DL_T_VALUES, t, 0);
    add(d, DL_T_STATS, t, 0);
    /* A sparse initializer's consumers are those of the value it defines. */
    nnav_tfacts_get(u->m, t, &d->tf);
    if (ts->owner != NNAV_TOWN_ATTRIBUTE)
        add_consumers(u, d, d->tf.value);
}

/* A graph input's or output's line, and its type line while types are shown. */
static void add_vinfo(ui *u, detail *d, uint8_t type, uint32_t vi, uint32_t i)
{
    add(d, type, vi, i);
    uint32_t v = nnav_vinfo_get(u->m, vi)->value;
    if (typed_shapes(u) && v != NNAV_NONE)
        add(d, DL_IO_TYPE, v, 0);
}

static void build_graph(ui *u, detail *d, uint32_t g)
{
    const nnav_graph *gr = nnav_graph_get(u->m, g);
    add(d, DL_G_HEAD, g, 0);
    uint32_t ncmp = cmp_graph_detail_count(u, g); /* compare mode: what differs */
    for (uint32_t k = 0; k < ncmp; k++)
        add(d, DL_CMP_G, g, k);
    add(d, DL_G_PATH, g, 0);
    if (gr->owner_node != NNAV_NONE && gr->kind == NNAV_GRAPH_BODY)
        add(d, DL_G_OWNER, gr->owner_node, 0);
    add(d, DL_G_COUNTS, g, 0);
    d->total_nodes = nnav_graph_total_nodes(u->m, g);
    const nnav_shapes *sh = typed_shapes(u);
    if (sh) {
        /* Both walk the graph: once per layout, never per frame. */
        nnav_shapes_graph_cost(sh, g, &d->gcost);
        if (!gr->node_count && g == 0) { /* a checkpoint: its tensors are its params */
            uint64_t all, held;
            nnav_params_by_graph(u->m, &d->gcost.params, &all, &held);
        }
        nnav_shapes_stats_get(sh, g, &d->gstats);
        add(d, DL_G_COST, g, 0);
        if (nnav_folded_norms(u->m, g)) /* the counts are the file's: said as info says it */
            add(d, DL_G_FOLDED, g, 0);
        add(d, DL_G_TYPES, g, 0);
    }
    add(d, DL_SECTION, SEC_INPUTS, gr->input_count);
    for (uint32_t i = 0; i < gr->input_count; i++)
        add_vinfo(u, d, DL_G_INPUT, gr->input_first + i, i);
    add(d, DL_SECTION, SEC_OUTPUTS, gr->output_count);
    for (uint32_t i = 0; i < gr->output_count; i++)
        add_vinfo(u, d, DL_G_OUTPUT, gr->output_first + i, i);
}

static void build_value(ui *u, detail *d, uint32_t v)
{
    add(d, DL_V_HEAD, v, 0);
    add(d, DL_V_TYPE, v, 0);
    const nnav_value *vl = nnav_value_get(u->m, v);
    if (vl->kind == NNAV_VAL_NODE || vl->kind == NNAV_VAL_INITIALIZER)
        add(d, DL_V_PRODUCER, v, 0);
    add_consumers(u, d, v);
}

void detail_refresh(ui *u, pane *p)
{
    detail *d = D(p);
    uint8_t kind = d->kind;
    uint32_t id = d->id, cur = p->cur, top = p->top;
    /* Type lines come and go with T: keep the cursor on the same line. */
    dline at = cur < d->n ? d->lines[cur] : (dline){ 0 };
    d->id = NNAV_NONE;
    if (kind == DETAIL_OTHER)
        detail_set_other(u, p, id);
    else
        detail_set(u, p, kind, id);
    for (uint32_t i = 0; cur && i < d->n; i++)
        if (d->lines[i].type == at.type && d->lines[i].a == at.a && d->lines[i].b == at.b) {
            cur = i;
            break;
        }
    p->top = top;
    pane_set_cursor(p, cur, d->n);
}

/* Empties the pane for what it is to show now: 0 when it shows that already. */
static int detail_reset(pane *p, uint8_t kind, uint32_t id)
{
    detail *d = D(p);
    if (d->kind == kind && d->id == id)
        return 0;
    d->kind = kind;
    d->id = id;
    d->n = 0;
    d->nrows = 0;
    d->attr_default = 0;
    d->ncache = 0;
    d->width = p->r.w;
    p->top = p->cur = 0;
    return 1;
}

void detail_set_other(ui *u, pane *p, uint32_t other)
{
    if (!detail_reset(p, DETAIL_OTHER, other))
        return;
    uint32_t n = cmp_other_count(u, other);
    for (uint32_t k = 0; k < n; k++)
        add(D(p), DL_CMP_OTHER, other, k);
}

void detail_set(ui *u, pane *p, uint8_t kind, uint32_t id)
{
    if (!detail_reset(p, kind, id) || id == NNAV_NONE)
        return;
    detail *d = D(p);
    switch (kind) {
    case PLACE_NODE: build_node(u, d, id); break;
    case PLACE_TENSOR: build_tensor(u, d, id); break;
    case PLACE_GRAPH: build_graph(u, d, id); break;
    case PLACE_VALUE: build_value(u, d, id); break;
    default: break;
    }
}

/* "{1, 2, 3, ...} of N" for the first few values, cached while shown. */
static const char *preview_text(ui *u, detail *d, uint32_t t)
{
    for (uint32_t i = 0; i < d->ncache; i++)
        if (d->cache[i].tensor == t)
            return d->cache[i].text;
    preview *pv = &d->cache[d->ncache < PREVIEW_CACHE ? d->ncache++ : PREVIEW_CACHE - 1];
    pv->tensor = t;
    pv->text[0] = '\0';
    double v[PREVIEW_VALUES];
    int64_t iv[PREVIEW_VALUES];
    nnav_span s[PREVIEW_VALUES];
    nnav_values vals = { .v = v, .s = s, .i = iv };
    nnav_error err;
    memset(&err, 0, sizeof err);
    /* A file changed on disk no longer holds what the index says is there. */
    if (nnav_model_changed(u->m, NULL, 0)) {
        snprintf(pv->text, sizeof pv->text, "(not read: the file changed on disk)");
        return pv->text;
    }
    if (nnav_tensor_values(u->m, t, PREVIEW_VALUES, 0, &vals, &err) != 0) {
        snprintf(pv->text, sizeof pv->text, "(unreadable: %.120s)", err.msg);
        return pv->text;
    }
    int is_string = nnav_tensor_get(u->m, t)->dtype == 8;
    size_t o = 0;
    o += (size_t)snprintf(pv->text + o, sizeof pv->text - o, "{");
    for (size_t i = 0; i < vals.count && o < sizeof pv->text - 1; i++) {
        char one[64];
        if (is_string) {
            one[0] = '"';
            size_t k = nnav_text_escape(s[i].p, s[i].n > 24 ? 24 : (size_t)s[i].n, one + 1,
                                        sizeof one - 3);
            one[k + 1] = '"';
            one[k + 2] = '\0';
        } else if (vals.is_int) { /* exactly: an int64's last digits matter */
            nnav_values_format(&vals, 0, i, one, sizeof one);
        } else {
            snprintf(one, sizeof one, "%.6g", v[i]);
        }
        o += (size_t)snprintf(pv->text + o, sizeof pv->text - o, "%s%s", i ? ", " : "", one);
    }
    if (o < sizeof pv->text - 1)
        snprintf(pv->text + o, sizeof pv->text - o, "%s}", vals.total > vals.count ? ", ..." : "");
    return pv->text;
}

/* min and max as shown: an integer type's exactly, any other to 6 figures. */
static void stats_text(const nnav_values *v, char lo[64], char hi[64])
{
    if (v->is_int) {
        nnav_values_format(v, 1, 0, lo, 64);
        nnav_values_format(v, 2, 0, hi, 64);
    } else {
        snprintf(lo, 64, "%.6g", v->min);
        snprintf(hi, 64, "%.6g", v->max);
    }
}

void detail_stats(ui *u, pane *p)
{
    detail *d = D(p);
    uint32_t t = NNAV_NONE;
    if (d->kind == PLACE_TENSOR)
        t = d->id;
    else if (p->cur < d->n && d->lines[p->cur].type == DL_ATTR_TENSOR)
        t = d->lines[p->cur].a;
    else if (p->cur < d->n && d->lines[p->cur].type == DL_ATTR) {
        const nnav_attr *at = nnav_attr_get(u->m, d->lines[p->cur].a);
        if (at->tensor_count)
            t = at->tensor_first;
    }
    if (t == NNAV_NONE) {
        ui_message(u, R_ERROR, "min/max/mean: select a tensor first");
        return;
    }
    memset(&d->stats, 0, sizeof d->stats);
    d->stats_err[0] = '\0';
    ui_status_now(u, "computing min/max/mean...");
    double first[1];
    d->stats.v = first;
    nnav_error err;
    memset(&err, 0, sizeof err);
    if (nnav_tensor_values(u->m, t, 0, 1, &d->stats, &err) != 0)
        snprintf(d->stats_err, sizeof d->stats_err, "%.150s", err.msg);
    d->stats.v = NULL;
    d->stats_tensor = t;
    if (d->stats_err[0])
        ui_message(u, R_ERROR, "min/max/mean: %s", d->stats_err);
    else if (d->stats.stats_refused)
        ui_message(u, 0, "no statistics: a view whose elements repeat far past its storage's");
    else if (!d->stats.has_stats)
        ui_message(u, 0, "no statistics for this element type");
    else {
        char lo[64], hi[64];
        stats_text(&d->stats, lo, hi);
        ui_message(u, 0, "min %s  max %s  mean %.6g", lo, hi, d->stats.mean);
    }
}

uint32_t detail_node(pane *p)
{
    return D(p)->kind == PLACE_NODE ? D(p)->id : NNAV_NONE;
}

static uint32_t detail_lines(ui *u, pane *p)
{
    (void)u;
    return D(p)->n;
}

static const char *section_name(uint32_t s)
{
    switch (s) {
    case SEC_ATTRS: return "Attributes";
    case SEC_INPUTS: return "Inputs";
    case SEC_OUTPUTS: return "Outputs";
    default: return "Consumers";
    }
}

static const char *value_kind_name(uint8_t k)
{
    switch (k) {
    case NNAV_VAL_INPUT: return "graph input";
    case NNAV_VAL_INITIALIZER: return "initializer";
    case NNAV_VAL_SPARSE: return "sparse initializer";
    case NNAV_VAL_NODE: return "node output";
    default: return "undefined in scope";
    }
}

static const char *graph_kind_name(uint8_t k)
{
    switch (k) {
    case NNAV_GRAPH_MAIN: return "main graph";
    case NNAV_GRAPH_BODY: return "body";
    case NNAV_GRAPH_FUNCTION: return "function";
    case NNAV_GRAPH_TRAINING_INIT: return "training initialization";
    default: return "training algorithm";
    }
}

/* "<- Relu relu1" or "<- initializer" etc: where a value comes from. */
static int draw_source(ui *u, uint32_t v, int y, int x, int w, attr_t sel)
{
    const nnav_value *vl = nnav_value_get(u->m, v);
    int c = draw_fmt(y, x, w, sel, "%s ", draw_glyph(G_FROM));
    if (vl->kind == NNAV_VAL_NODE)
        c += ui_draw_node_label(u, vl->producer, y, x + c, w - c, sel | draw_attr(R_LINK));
    else
        c += draw_text(y, x + c, w - c, value_kind_name(vl->kind),
                       sel | draw_attr(vl->kind == NNAV_VAL_UNDEFINED ? R_ERROR : R_LINK));
    if (vl->graph != u->graph && vl->kind != NNAV_VAL_UNDEFINED) {
        c += draw_text(y, x + c, w - c, " in ", sel | draw_attr(R_DIM));
        c += ui_draw_graph_label(u, vl->graph, y, x + c, w - c, sel | draw_attr(R_DIM));
    }
    return c;
}

static int draw_type(ui *u, uint32_t v, int y, int x, int w, attr_t sel)
{
    char t[160];
    t[0] = '\0';
    nnav_value_type_format(u->m, v, t, sizeof t);
    if (!t[0])
        return 0;
    return draw_fmt(y, x, w, sel | draw_attr(R_DIM), "  %s", t);
}

static int draw_consumers_brief(ui *u, uint32_t v, int y, int x, int w, attr_t sel)
{
    uint32_t n;
    const uint32_t *c = nnav_value_consumers(u->m, v, &n);
    int col = draw_fmt(y, x, w, sel, "%s ", draw_glyph(G_TO));
    const nnav_value *vl = nnav_value_get(u->m, v);
    if (n == 0)
        return col + draw_text(y, x + col, w - col, vl->is_output ? "graph output" : "unused",
                               sel | draw_attr(R_DIM));
    col += ui_draw_node_label(u, c[0], y, x + col, w - col, sel | draw_attr(R_LINK));
    if (n > 1)
        col += draw_fmt(y, x + col, w - col, sel | draw_attr(R_DIM), " (+%u more)", n - 1);
    if (vl->is_output)
        col += draw_text(y, x + col, w - col, ", graph output", sel | draw_attr(R_DIM));
    return col;
}

/* A schema of the ONNX table is in force (not a TensorFlow OpDef, whose
 * lists bind by attributes and whose attributes the runtime adds to). */
static int onnx_schema(const detail *d)
{
    return d->use.status == NNAV_OPS_FOUND && d->use.s && d->use.s->domain &&
           !nnav_op_schema_is_models(d->use.s);
}

/* The schema in force, as `nnav node` says it ("schema Conv v11 (ai.onnx,
 * opset 13 in force)"), or why there is none ("no schema (...)"); a
 * deprecated operator, an opset past the table and a node that breaks its
 * domain (no such operator, not yet, not imported) stand out. */
static void draw_schema_line(ui *u, detail *d, uint32_t node, int y, int x, int w, attr_t sel)
{
    const nnav_op_use *use = &d->use;
    attr_t dim = sel | draw_attr(R_DIM), err = sel | draw_attr(R_ERROR);
    char buf[600];
    nnav_node_schema_line(u->m, node, use, buf, sizeof buf);
    int c;
    switch (use->status) {
    case NNAV_OPS_FOUND: {
        int dep = use->s && use->s->deprecated;
        c = draw_text(y, x, w, "schema ", dim);
        if (dep) { /* first, where a narrow pane does not cut it */
            static const char tail[] = ", deprecated";
            size_t k = strlen(buf), t = sizeof tail - 1;
            if (k >= t && strcmp(buf + k - t, tail) == 0)
                buf[k - t] = '\0';
            c += draw_text(y, x + c, w - c, "deprecated ", err | A_BOLD);
        }
        c += draw_text(y, x + c, w - c, buf, dep || use->past_table ? err : sel);
        char keys[32];
        keys_list(REQ_OP_REF, keys, sizeof keys);
        draw_fmt(y, x + c, w - c, dim, "  %s: reference", keys);
        return;
    }
    case NNAV_OPS_UNKNOWN: case NNAV_OPS_NOT_YET: case NNAV_OPS_NO_OPSET:
        draw_fmt(y, x, w, err, "no schema (%s)", buf);
        return;
    default:
        draw_fmt(y, x, w, dim, "no schema (%s)", buf);
        return;
    }
}

/* One of the schema's attributes the node leaves to its default: drawn dim,
 * "auto_pad = "NOTSET"  (default)". */
static void draw_default_line(ui *u, detail *d, uint32_t k, int y, int x, int w, attr_t sel)
{
    if (k >= d->nrows || !d->rows[k].sa)
        return;
    const nnav_node_attr_row *r = &d->rows[k];
    attr_t dim = sel | draw_attr(R_DIM);
    char name[256];
    nnav_text_escape_cstr(r->sa->name, name, sizeof name);
    int c = draw_text(y, x, w, "  ", sel);
    c += draw_text(y, x + c, w - c, name, dim);
    char buf[512];
    nnav_node_attr_row_value(u->m, r, 32, buf, sizeof buf);
    c += draw_text(y, x + c, w - c, " = ", dim);
    /* The default keeps room for its mark: a long list is cut first. */
    int mw = draw_width("  (default)"), vw = w - c - mw;
    c += draw_text(y, x + c, vw > 4 ? vw : w - c, buf, dim);
    draw_text(y, x + c, w - c, "  (default)", dim);
}

/* What the schema says of a file's attribute it does not take as written:
 * unknown to it, or (ONNX) of another type; NULL when all is well. */
static const char *attr_note(ui *u, const nnav_attr *at, uint32_t state, char *buf, size_t n)
{
    detail *d = D(&u->pane[PANE_DETAIL]);
    if (d->kind != PLACE_NODE || d->id != at->node)
        return NULL;
    if (state == NNAV_NA_UNKNOWN && d->use.s) { /* as `nnav node` says it */
        char op[64];
        draw_escape(nnav_node_get(u->m, at->node)->op, 24, op, sizeof op);
        if (d->use.s->since > 0)
            snprintf(buf, n, "  (unknown to %s v%d)", op, (int)d->use.s->since);
        else
            snprintf(buf, n, "  (unknown to %s)", op);
        return buf;
    }
    if (!onnx_schema(d) || at->ref_attr_name.n)
        return NULL;
    const nnav_op_attr *sa = nnav_op_attr_find(d->use.s, at->name);
    if (sa && sa->type != NNAV_ATTR_UNDEFINED && at->type != sa->type) {
        snprintf(buf, n, "  (the schema wants %s)", nnav_attr_type_name(sa->type));
        return buf;
    }
    return NULL;
}

static int draw_attr_value(ui *u, uint32_t a, int y, int x, int w, attr_t sel);

/* "X: " - the schema's name for a node's input or output at position i
 * ("inputs[2]: " within a variadic list), as `nnav node` names it; past
 * what an ONNX schema takes, flagged. */
static int draw_formal(const nnav_model *m, detail *d, int output, uint32_t i, int y, int x, int w, attr_t sel)
{
    if (d->kind != PLACE_NODE || d->use.status != NNAV_OPS_FOUND || !d->use.s)
        return 0;
    char buf[160];
    nnav_node_formal(m, d->id, &d->use, output, i, buf, sizeof buf);
    if (!buf[0])
        return onnx_schema(d) ? draw_text(y, x, w, "(past the schema's) ", sel | draw_attr(R_ERROR))
                              : 0;
    int c = draw_text(y, x, w, buf, sel | draw_attr(R_OP));
    return c + draw_text(y, x + c, w - c, ": ", sel | draw_attr(R_DIM));
}

static void draw_attr_line(ui *u, uint32_t a, uint32_t state, int y, int x, int w, attr_t sel)
{
    const nnav_attr *at = nnav_attr_get(u->m, a);
    char nb[128];
    const char *note = attr_note(u, at, state, nb, sizeof nb);
    int c = draw_text(y, x, w, "  ", sel);
    c += draw_span(y, x + c, w - c, at->name, sel | draw_attr(note ? R_ERROR : R_OP));
    if (!note) {
        draw_attr_value(u, a, y, x + c, w - c, sel);
        return;
    }
    /* The note keeps its room at the end; the value takes what is left. */
    int nw = draw_width(note), vw = w - c - nw;
    if (vw < 8)
        vw = w - c;
    c += draw_attr_value(u, a, y, x + c, vw, sel);
    draw_text(y, x + c, w - c, note, sel | draw_attr(R_ERROR));
}

/* " = VALUE" of a file's attribute. */
static int draw_attr_value(ui *u, uint32_t a, int y, int x, int w, attr_t sel)
{
    const nnav_attr *at = nnav_attr_get(u->m, a);
    int c = draw_text(y, x, w, " = ", sel);
    if (at->ref_attr_name.n) {
        c += draw_text(y, x + c, w - c, "@", sel | draw_attr(R_LINK));
        return c + draw_span(y, x + c, w - c, at->ref_attr_name, sel | draw_attr(R_LINK));
    }
    switch (at->type) {
    case NNAV_ATTR_GRAPH:
    case NNAV_ATTR_GRAPHS:
        return c + draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "%u graph%s",
                            at->graph_count, at->graph_count == 1 ? "" : "s");
    case NNAV_ATTR_TENSOR:
    case NNAV_ATTR_SPARSE_TENSOR:
        if (at->tensor_count) {
            char shape[160];
            nnav_tensor_shape_format(u->m, at->tensor_first, shape, sizeof shape);
            c += draw_text(y, x + c, w - c, shape, sel | draw_attr(R_LINK));
            c += draw_text(y, x + c, w - c, " ", sel);
            detail *d = D(&u->pane[PANE_DETAIL]);
            return c + draw_text(y, x + c, w - c, preview_text(u, d, at->tensor_first), sel);
        }
        break;
    case NNAV_ATTR_TENSORS:
        return c + draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "%u tensors",
                            at->tensor_count);
    default:
        break;
    }
    char buf[1024];
    nnav_attr_format(u->m, a, 32, buf, sizeof buf);
    return c + draw_text(y, x + c, w - c, buf, sel);
}

static void draw_tensor_head(ui *u, detail *d, const dline *l, int y, int x, int w, attr_t sel)
{
    uint32_t t = l->a;
    const nnav_tensor *ts = nnav_tensor_get(u->m, t);
    char buf[256], hb[32];
    int c;
    switch (l->type) {
    case DL_T_NAME:
        c = draw_text(y, x, w, "tensor ", sel | draw_attr(R_SECTION));
        draw_span_tail(y, x + c, w - c, ts->name, sel | A_BOLD);
        break;
    case DL_T_SHAPE:
        nnav_tfacts_shape(&d->tf, buf, sizeof buf);
        c = draw_fmt(y, x, w, sel, "  type     %s", buf);
        if (d->tf.nelems != UINT64_MAX)
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  (%llu elements)",
                     (unsigned long long)d->tf.nelems);
        break;
    case DL_T_STORE:
        nnav_tfacts_storage(u->m, &d->tf, buf, sizeof buf);
        draw_fmt(y, x, w, sel, "  storage  %s", buf);
        break;
    case DL_T_BYTES:
        if (d->tf.bytes == UINT64_MAX)
            draw_text(y, x, w, "  bytes    ? (dims x dtype unknown)", sel);
        else
            draw_fmt(y, x, w, sel, "  bytes    %s (%llu)%s", sizebar_human(d->tf.bytes, hb, sizeof hb),
                     (unsigned long long)d->tf.bytes,
                     d->tf.sparse != NNAV_NONE ? "  values and indices" : "");
        break;
    case DL_T_QUANT: { /* what it stores (quant.h): its type, bits per weight, logical weight */
        nnav_tquant q;
        char qt[160], num[40];
        nnav_tensor_qtype(u->m, t, qt, sizeof qt);
        c = draw_fmt(y, x, w, sel, "  quant    %s", qt);
        double bpw = nnav_tensor_bpw(u->m, t);
        if (bpw >= 0)
            c += draw_fmt(y, x + c, w - c, sel, "  %.2f bpw", bpw);
        if (nnav_tensor_quant(u->m, t, &q) == 0 && q.kind == NNAV_Q_PACKED && q.k) {
            nnav_text_commas(q.logical, num, sizeof num);
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %llu x %llu = %s weights",
                     (unsigned long long)q.k, (unsigned long long)q.n, num);
        } else if (q.kind == NNAV_Q_DATA) {
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  of ");
            draw_span_tail(y, x + c + 4, w - c - 4, nnav_tensor_get(u->m, q.weight)->name,
                           sel | draw_attr(R_DIM));
        }
        break;
    }
    case DL_T_WARN:
        draw_fmt(y, x, w, sel | draw_attr(R_ERROR), "  warning %s%s%s%s%s",
                 ts->warn & NNAV_TW_SIZE_MISMATCH ? " size-mismatch" : "",
                 ts->warn & NNAV_TW_BAD_DIMS ? " bad-dims" : "",
                 ts->warn & NNAV_TW_BAD_DTYPE ? " bad-dtype" : "",
                 ts->warn & NNAV_TW_BAD_EXTERNAL ? " bad-external" : "",
                 ts->warn & NNAV_TW_MANY_FIELDS ? " many-fields" : "");
        break;
    case DL_T_OWNER: {
        const nnav_attr *at = nnav_attr_get(u->m, ts->owner_id);
        c = draw_text(y, x, w, "  held by ", sel);
        c += ui_draw_node_label(u, at->node, y, x + c, w - c, sel | draw_attr(R_LINK));
        c += draw_text(y, x + c, w - c, " .", sel);
        draw_span(y, x + c, w - c, at->name, sel);
        break;
    }
    case DL_T_VALUES:
        c = draw_text(y, x, w, d->tf.sparse != NNAV_NONE ? "  stored   " : "  values   ", sel);
        draw_text(y, x + c, w - c, preview_text(u, d, t), sel);
        break;
    case DL_T_STATS:
        if (d->stats_tensor == t && d->stats_err[0])
            draw_fmt(y, x, w, sel | draw_attr(R_ERROR), "  stats    %s", d->stats_err);
        else if (d->stats_tensor == t && d->stats.has_stats) {
            char lo[64], hi[64];
            stats_text(&d->stats, lo, hi);
            draw_fmt(y, x, w, sel, "  stats    min %s  max %s  mean %.6g%s", lo, hi,
                     d->stats.mean, d->stats.nan_count ? "  (NaNs)" : "");
        }
        else if (d->stats_tensor == t)
            draw_text(y, x, w, "  stats    not available for this type", sel | draw_attr(R_DIM));
        else
            draw_text(y, x, w, "  stats    press m for min/max/mean", sel | draw_attr(R_DIM));
        break;
    default:
        break;
    }
}

/* "type float32[1,64,56,56]  inferred": the type as best known and where it
 * comes from; a disagreement names the file's type, an unknown the reason. */
static void draw_value_type(ui *u, uint32_t v, int indent, int y, int x, int w, attr_t sel)
{
    const nnav_shapes *sh = typed_shapes(u);
    const nnav_fact *f = sh ? nnav_shapes_fact(sh, v) : NULL;
    if (!f)
        return;
    char t[200];
    nnav_shapes_value_format(sh, v, t, sizeof t);
    int c = draw_fmt(y, x, w, sel | draw_attr(R_DIM), "%*stype ", indent, "");
    c += draw_text(y, x + c, w - c, t[0] ? t : "?", sel | typed_attr(sh, v));
    attr_t dim = sel | draw_attr(R_DIM);
    switch (f->src) {
    case NNAV_SRC_FILE:
        c += draw_text(y, x + c, w - c, "  from the file", dim);
        break;
    case NNAV_SRC_INFERRED:
        c += draw_text(y, x + c, w - c, "  inferred", dim);
        break;
    case NNAV_SRC_AGREE:
        c += draw_text(y, x + c, w - c, "  inferred, the file agrees", dim);
        break;
    case NNAV_SRC_DISAGREE: {
        char ft[200];
        ft[0] = '\0';
        if (f->conflict) { /* no type fits: why follows */
            c += draw_text(y, x + c, w - c, "  DISAGREE", sel | draw_attr(R_ERROR) | A_BOLD);
            break;
        }
        nnav_value_type_format(u->m, v, ft, sizeof ft);
        c += draw_text(y, x + c, w - c, "  inferred, DISAGREE", sel | draw_attr(R_ERROR) | A_BOLD);
        c += draw_text(y, x + c, w - c, ": the file says ", sel | draw_attr(R_ERROR));
        c += draw_text(y, x + c, w - c, ft[0] ? ft : "?", sel | draw_attr(R_ERROR));
        break;
    }
    default:
        c += draw_text(y, x + c, w - c, "  unknown", sel | draw_attr(R_ERROR));
        break;
    }
    if (f->why != NNAV_NONE) {
        const char *why = nnav_shapes_why(sh, f->why);
        if (why && *why) {
            c += draw_text(y, x + c, w - c,
                           f->src == NNAV_SRC_NONE ? ": " : f->conflict ? "  (" : "  (partly: ", dim);
            c += draw_text(y, x + c, w - c, why, dim);
            if (f->src != NNAV_SRC_NONE)
                draw_text(y, x + c, w - c, ")", dim);
        }
    }
}

/* "  (assumed batch=1)": named dims the cost took at a value. */
static void draw_assumed(const nnav_shapes *sh, int y, int x, int w, attr_t sel)
{
    char a[200];
    a[0] = '\0';
    nnav_shapes_assumed(sh, a, sizeof a);
    if (!a[0])
        return;
    int c = draw_text(y, x, w, "  (assumed ", sel | draw_attr(R_DIM));
    c += draw_text(y, x + c, w - c, a, sel | draw_attr(R_DIM));
    draw_text(y, x + c, w - c, ")", sel | draw_attr(R_DIM));
}

/* "cost 4.09 G MACs ...", a note, and the named dims the cost took at a value. */
static void draw_cost(const nnav_shapes *sh, const nnav_cost *cost, const char *note, int y, int x,
                      int w, attr_t sel)
{
    char t[200];
    int c = draw_text(y, x, w, "cost ", sel | draw_attr(R_DIM));
    c += draw_text(y, x + c, w - c, typed_cost_text(cost, TYPED_FULL, t, sizeof t), sel);
    c += draw_text(y, x + c, w - c, note, sel | draw_attr(R_DIM));
    if (cost->symbolic)
        draw_assumed(sh, y, x + c, w - c, sel);
}

static void detail_draw_line(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected)
{
    detail *d = D(p);
    const dline *l = &d->lines[line];
    attr_t sel = selected ? draw_attr(selected) : 0;
    int c = 0;
    switch (l->type) {
    case DL_CMP:
        cmp_detail_draw(u, l->a, l->b, d->width, y, x, w, sel);
        break;
    case DL_CMP_T:
        cmp_tensor_detail_draw(u, l->a, l->b, y, x, w, sel);
        break;
    case DL_CMP_OTHER:
        cmp_other_draw(u, l->a, l->b, y, x, w, sel);
        break;
    case DL_CMP_G:
        cmp_graph_detail_draw(u, l->a, l->b, y, x, w, sel);
        break;
    case DL_SECTION:
        if (l->a == SEC_ATTRS && d->attr_default) /* as `nnav node` counts them */
            draw_fmt(y, x, w, sel | draw_attr(R_SECTION), "%s (%u set, %u by default)",
                     section_name(l->a), l->b, d->attr_default);
        else
            draw_fmt(y, x, w, sel | draw_attr(R_SECTION), "%s (%u)", section_name(l->a), l->b);
        break;
    case DL_ATTR_UNSET: {
        char text[UNSET_TEXT];
        if (!unset_text(d, l->a, text, sizeof text))
            break;
        /* Piece l->b of the list wrapped at the width it was laid out for. */
        const char *t = text;
        size_t next = 0, k = 0;
        for (uint32_t i = 0; *t; i++) {
            k = text_wrap(t, unset_width(d->width), &next);
            if (i == l->b)
                break;
            t += next;
            k = 0;
        }
        char piece[UNSET_TEXT];
        memcpy(piece, t, k);
        piece[k] = '\0';
        c = draw_text(y, x, w, l->b ? "    " : "  ", sel);
        draw_text(y, x + c, w - c, piece, sel | draw_attr(l->a ? R_ERROR : R_DIM));
        break;
    }
    case DL_NODE_SCHEMA:
        draw_schema_line(u, d, l->a, y, x, w, sel);
        break;
    case DL_ATTR_DEFAULT:
        draw_default_line(u, d, l->b, y, x, w, sel);
        break;
    case DL_NODE_HEAD: {
        const nnav_node *n = nnav_node_get(u->m, l->a);
        c = draw_span(y, x, w, n->op, sel | draw_attr(R_OP) | A_BOLD);
        c += draw_text(y, x + c, w - c, "  ", sel);
        if (nnav_model_facts_get(u->m)->traits & NNAV_TRAIT_DEVICES) {
            /* Nodes placed on devices name no domain; their placement tells. */
            nnav_span dev = nnav_node_device(u->m, l->a);
            if (dev.n) {
                c += draw_text(y, x + c, w - c, "on ", sel | draw_attr(R_DIM));
                c += draw_span(y, x + c, w - c, dev, sel | draw_attr(R_DIM));
            }
        } else if (nnav_node_domain(u->m, l->a).n) {
            c += draw_span(y, x + c, w - c, nnav_node_domain(u->m, l->a), sel | draw_attr(R_DIM));
        } else {
            c += draw_text(y, x + c, w - c, "ai.onnx", sel | draw_attr(R_DIM));
        }
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  #%u in ", nnav_node_index(u->m, l->a));
        ui_draw_graph_label(u, n->graph, y, x + c, w - c, sel | draw_attr(R_DIM));
        break;
    }
    case DL_NODE_NAME: {
        const nnav_node *n = nnav_node_get(u->m, l->a);
        if (l->b == 0)
            draw_text(y, x, w, "name ", sel | draw_attr(R_DIM));
        c = NAME_INDENT;
        if (!n->name.n) {
            draw_text(y, x + c, w - c, "(none)", sel | draw_attr(R_DIM));
            break;
        }
        int pw = name_piece_w(w), pieces = 0;
        char *buf = name_head(n->name, pw);
        if (!buf)
            break;
        wchar_t one[2];
        draw_wrap_piece(buf, strlen(buf), pw, 0, draw_is_utf8(), one, 2, &pieces);
        if (l->b + 1 == NAME_LINES && pieces > NAME_LINES) /* too long: its end */
            draw_span_tail(y, x + c, w - c, n->name, sel | A_BOLD);
        else
            draw_text_piece(y, x + c, w - c, (int)l->b, buf, sel | A_BOLD);
        free(buf);
        break;
    }
    case DL_NODE_FUNC: {
        const nnav_function *f = nnav_function_get(u->m, l->a);
        c = draw_text(y, x, w, "calls function @", sel | draw_attr(R_LINK));
        draw_span(y, x + c, w - c, f->name, sel | draw_attr(R_LINK));
        break;
    }
    case DL_ATTR:
        draw_attr_line(u, l->a, l->b, y, x, w, sel);
        break;
    case DL_ATTR_GRAPH: {
        const nnav_graph *g = nnav_graph_get(u->m, l->a);
        c = draw_fmt(y, x, w, sel, "    %s ", draw_glyph(G_TO));
        if (l->b != NNAV_NONE)
            c += draw_fmt(y, x + c, w - c, sel, "[%u] ", l->b);
        c += ui_draw_graph_label(u, l->a, y, x + c, w - c, sel | draw_attr(R_LINK));
        draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %u nodes", g->node_count);
        break;
    }
    case DL_ATTR_TENSOR: {
        char shape[160];
        nnav_tensor_shape_format(u->m, l->a, shape, sizeof shape);
        c = draw_fmt(y, x, w, sel, "    [%u] ", l->b);
        c += draw_text(y, x + c, w - c, shape, sel | draw_attr(R_LINK));
        c += draw_text(y, x + c, w - c, " ", sel);
        draw_text(y, x + c, w - c, preview_text(u, d, l->a), sel);
        break;
    }
    case DL_INPUT:
    case DL_OUTPUT: {
        const nnav_ref r = nnav_ref_get(u->m, l->a);
        c = draw_fmt(y, x, w, sel | draw_attr(R_DIM), "  %u ", l->b);
        if (!r.control)
            c += draw_formal(u->m, d, l->type == DL_OUTPUT, l->b, y, x + c, w - c, sel);
        if (r.name.n == 0) {
            draw_text(y, x + c, w - c, "(omitted)", sel | draw_attr(R_DIM));
            break;
        }
        c += draw_span_tail(y, x + c, w - c, r.name, sel);
        c += draw_text(y, x + c, w - c, " ", sel);
        if (r.value == NNAV_NONE)
            break;
        const nnav_declutter *dc = l->type == DL_INPUT ? decl_view(u, u->graph) : NULL;
        char folded[300] = "";
        if (dc && nnav_node_get(u->m, d->id)->graph == nnav_declutter_graph(dc))
            nnav_declutter_input_text(dc, r.value, folded, sizeof folded);
        if (folded[0]) { /* D: the value a hidden producer stands for */
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_LINK), "= %s", folded);
            break;
        }
        if (l->type == DL_INPUT) /* D: the real producer, through hidden Identity nodes */
            c += draw_source(u, dc ? nnav_declutter_source(dc, r.value) : r.value, y, x + c,
                             w - c, sel);
        else
            c += draw_consumers_brief(u, r.value, y, x + c, w - c, sel);
        if (!typed_shapes(u))
            draw_type(u, r.value, y, x + c, w - c, sel);
        break;
    }
    case DL_IO_TYPE:
        draw_value_type(u, l->a, 6, y, x, w, sel);
        break;
    case DL_NODE_COST:
    case DL_G_COST: {
        const nnav_shapes *sh = typed_shapes(u);
        int node = l->type == DL_NODE_COST;
        if (sh)
            draw_cost(sh, node ? nnav_shapes_node_cost(sh, l->a) : &d->gcost,
                      node ? NULL : "  (bodies not counted)", y, x, w, sel);
        break;
    }
    case DL_G_FOLDED: {
        char t[300];
        draw_text(y, x, w, nnav_folded_norms_text(nnav_folded_norms(u->m, l->a), t, sizeof t),
                  sel | draw_attr(R_DIM));
        break;
    }
    case DL_G_TYPES: {
        const nnav_shapes_stats *st = &d->gstats;
        c = draw_text(y, x, w, "types ", sel | draw_attr(R_DIM));
        c += draw_fmt(y, x + c, w - c, sel, "%llu/%llu values typed, %llu fully shaped",
                      (unsigned long long)st->typed, (unsigned long long)st->values,
                      (unsigned long long)st->full);
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM),
                      "  file %llu  inferred %llu  agree %llu  ",
                      (unsigned long long)st->file, (unsigned long long)st->inferred,
                      (unsigned long long)st->agree);
        c += draw_fmt(y, x + c, w - c, sel | (st->disagree ? draw_attr(R_ERROR) : draw_attr(R_DIM)),
                      "disagree %llu", (unsigned long long)st->disagree);
        draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  unknown %llu  ops without a rule %llu",
                 (unsigned long long)st->unknown, (unsigned long long)st->ops_unknown);
        break;
    }
    case DL_G_HEAD: {
        const nnav_graph *g = nnav_graph_get(u->m, l->a);
        c = draw_text(y, x, w, "graph ", sel | draw_attr(R_SECTION));
        c += ui_draw_graph_label(u, l->a, y, x + c, w - c, sel | A_BOLD);
        draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %s", graph_kind_name(g->kind));
        break;
    }
    case DL_G_PATH: {
        char path[1024];
        size_t k = nnav_graph_path(u->m, l->a, path, sizeof path);
        c = draw_text(y, x, w, "path ", sel | draw_attr(R_DIM));
        draw_span(y, x + c, w - c, (nnav_span){ (const uint8_t *)path, k < sizeof path ? k : sizeof path - 1 }, sel);
        break;
    }
    case DL_G_OWNER:
        c = draw_text(y, x, w, "owner ", sel | draw_attr(R_DIM));
        ui_draw_node_label(u, l->a, y, x + c, w - c, sel | draw_attr(R_LINK));
        break;
    case DL_G_COUNTS: {
        const nnav_graph *g = nnav_graph_get(u->m, l->a);
        draw_fmt(y, x, w, sel, "nodes %u (with bodies %llu)  initializers %u  bodies %u",
                 g->node_count, (unsigned long long)d->total_nodes,
                 g->init_count, g->child_count);
        break;
    }
    case DL_G_INPUT:
    case DL_G_OUTPUT: {
        const nnav_vinfo *vi = nnav_vinfo_get(u->m, l->a);
        c = draw_fmt(y, x, w, sel | draw_attr(R_DIM), "  %u ", l->b);
        c += draw_span_tail(y, x + c, w - c, vi->name, sel);
        c += draw_text(y, x + c, w - c, " ", sel);
        if (vi->value != NNAV_NONE) {
            if (l->type == DL_G_INPUT)
                c += draw_consumers_brief(u, vi->value, y, x + c, w - c, sel);
            else
                c += draw_source(u, vi->value, y, x + c, w - c, sel);
        }
        if (vi->type.p && !(typed_shapes(u) && vi->value != NNAV_NONE)) {
            char t[160];
            nnav_type_format(u->m, vi->type, t, sizeof t);
            draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %s", t);
        }
        break;
    }
    case DL_V_HEAD: {
        const nnav_value *v = nnav_value_get(u->m, l->a);
        c = draw_text(y, x, w, "value ", sel | draw_attr(R_SECTION));
        c += draw_span_tail(y, x + c, w - c, v->name, sel | A_BOLD);
        c += draw_fmt(y, x + c, w - c, sel | draw_attr(R_DIM), "  %s%s in ",
                      value_kind_name(v->kind), v->is_output ? ", graph output" : "");
        ui_draw_graph_label(u, v->graph, y, x + c, w - c, sel | draw_attr(R_DIM));
        break;
    }
    case DL_V_TYPE: {
        if (typed_shapes(u)) {
            draw_value_type(u, l->a, 2, y, x, w, sel);
            break;
        }
        char t[160];
        t[0] = '\0';
        nnav_value_type_format(u->m, l->a, t, sizeof t);
        draw_fmt(y, x, w, sel, "  type %s", t[0] ? t : "unknown");
        break;
    }
    case DL_V_PRODUCER:
        c = draw_text(y, x, w, "  ", sel);
        draw_source(u, l->a, y, x + c, w - c, sel);
        break;
    case DL_CONSUMER:
        c = draw_fmt(y, x, w, sel, "  %s ", draw_glyph(G_TO));
        ui_draw_node_label(u, l->a, y, x + c, w - c, sel | draw_attr(R_LINK));
        break;
    default:
        draw_tensor_head(u, d, l, y, x, w, sel);
        break;
    }
}

static void detail_title(ui *u, pane *p, int y, int x, int w, attr_t a)
{
    detail *d = D(p);
    static const char *what[] = { "", "graph", "node", "tensor", "value" };
    if (d->id != NNAV_NONE && d->kind < 5)
        draw_text(y, x, w, what[d->kind], a);
    else if (d->id != NNAV_NONE && d->kind == DETAIL_OTHER && u->cmp)
        draw_text(y, x, w, u->cmp->side ? "node only on A" : "node only on B", a);
}

/* ---- the cursor: stops where Enter acts ---- */

/* Enter does something on this line (detail_request's cases). */
static int actionable(ui *u, const dline *l)
{
    switch (l->type) {
    case DL_INPUT: case DL_OUTPUT: case DL_G_INPUT: case DL_G_OUTPUT: case DL_V_PRODUCER:
    case DL_ATTR_GRAPH: case DL_ATTR_TENSOR: case DL_NODE_FUNC: case DL_CONSUMER:
    case DL_G_OWNER: case DL_T_OWNER:
        return 1;
    case DL_ATTR: {
        const nnav_attr *at = nnav_attr_get(u->m, l->a);
        return at->graph_count || at->tensor_count;
    }
    default:
        return 0;
    }
}

/* A line the cursor may rest on: one that acts, or the first (the top). */
static int is_stop(ui *u, const detail *d, uint32_t i)
{
    return i == 0 || (i < d->n && actionable(u, &d->lines[i]));
}

/* The stop nearest line i among [lo, hi), below on a tie; NNAV_NONE if none. */
static uint32_t nearest_stop(ui *u, const detail *d, uint32_t i, uint32_t lo, uint32_t hi)
{
    for (uint32_t k = 0; k < hi - lo; k++) {
        if (i + k >= lo && i + k < hi && is_stop(u, d, i + k))
            return i + k;
        if (k <= i && i - k >= lo && i - k < hi && is_stop(u, d, i - k))
            return i - k;
    }
    return NNAV_NONE;
}

/* The cursor on line to; a type line just below it shown too. */
static void put_cursor(ui *u, pane *p, uint32_t to)
{
    detail *d = D(p);
    pane_set_cursor(p, to, d->n);
    uint32_t rows = (uint32_t)pane_body_rows(p);
    if (to + 1 < d->n && d->lines[to + 1].type == DL_IO_TYPE && to + 1 >= p->top + rows &&
        to > p->top)
        p->top++;
    if (p->ops->select)
        p->ops->select(u, p);
}

static void detail_move(ui *u, pane *p, enum request r)
{
    detail *d = D(p);
    if (d->n == 0)
        return;
    uint32_t cur = p->cur < d->n ? p->cur : 0, rows = (uint32_t)pane_body_rows(p), to = cur;
    switch (r) {
    case REQ_MOVE_DOWN:
        for (to = cur + 1; to < d->n && !is_stop(u, d, to); to++)
            ;
        if (to < d->n) {
            put_cursor(u, p, to);
        } else if (p->top + rows < d->n && cur > p->top) {
            p->top++; /* no stop below: the rest of the pane scrolls into view */
        }
        return;
    case REQ_MOVE_UP:
        if (cur == 0)
            return;
        for (to = cur - 1; to > 0 && !is_stop(u, d, to); to--)
            ;
        put_cursor(u, p, to);
        return;
    case REQ_MOVE_FIRST:
        p->top = 0;
        put_cursor(u, p, 0);
        return;
    case REQ_MOVE_LAST:
        for (to = d->n - 1; to > 0 && !is_stop(u, d, to); to--)
            ;
        put_cursor(u, p, to);
        if (d->n > rows && to >= d->n - rows)
            p->top = d->n - rows; /* the end of the pane in view */
        return;
    case REQ_PAGE_DOWN: case REQ_PAGE_UP: case REQ_HALF_DOWN: case REQ_HALF_UP: {
        /* Like less: the view moves a page, the cursor keeps its row, on the
         * stop nearest it in the new view (on that row when none is in view). */
        uint32_t step = r == REQ_PAGE_DOWN || r == REQ_PAGE_UP ? rows : rows / 2 ? rows / 2 : 1;
        int down = r == REQ_PAGE_DOWN || r == REQ_HALF_DOWN;
        uint32_t maxtop = d->n > rows ? d->n - rows : 0, row = cur >= p->top ? cur - p->top : 0;
        uint32_t top = down ? (p->top + step < maxtop ? p->top + step : maxtop)
                            : (p->top > step ? p->top - step : 0);
        if (top == p->top) { /* at the end already: to the last or first stop */
            detail_move(u, p, down ? REQ_MOVE_LAST : REQ_MOVE_FIRST);
            return;
        }
        uint32_t end = top + rows < d->n ? top + rows : d->n;
        to = top + row < end ? top + row : end - 1;
        uint32_t s = nearest_stop(u, d, to, top, end);
        p->top = top;
        put_cursor(u, p, s != NNAV_NONE ? s : to);
        return;
    }
    default:
        return;
    }
}

static void detail_click(ui *u, pane *p, int row, int col)
{
    detail *d = D(p);
    (void)col;
    uint32_t line = p->top + (uint32_t)row, rows = (uint32_t)pane_body_rows(p);
    if (row < 0 || line >= d->n)
        return;
    /* A type line belongs to the input or output above it. */
    if (d->lines[line].type == DL_IO_TYPE && line > 0)
        line--;
    uint32_t end = p->top + rows < d->n ? p->top + rows : d->n;
    uint32_t s = nearest_stop(u, d, line, p->top < line ? p->top : line, end);
    put_cursor(u, p, s != NNAV_NONE ? s : line);
}

static int detail_request(ui *u, pane *p, enum request r)
{
    detail *d = D(p);
    switch (r) {
    case REQ_MOVE_UP: case REQ_MOVE_DOWN: case REQ_PAGE_UP: case REQ_PAGE_DOWN:
    case REQ_HALF_UP: case REQ_HALF_DOWN: case REQ_MOVE_FIRST: case REQ_MOVE_LAST:
        detail_move(u, p, r);
        return 1;
    default:
        break;
    }
    if (r == REQ_STATS) {
        detail_stats(u, p);
        return 1;
    }
    if (r != REQ_ENTER || p->cur >= d->n)
        return 0;
    const dline *l = &d->lines[p->cur];
    /* A type line belongs to the input or output above it. */
    if (l->type == DL_IO_TYPE && p->cur > 0)
        l--;
    switch (l->type) {
    case DL_INPUT: {
        const nnav_ref ref = nnav_ref_get(u->m, l->a);
        if (ref.value == NNAV_NONE) {
            ui_message(u, 0, "omitted optional input");
            return 1;
        }
        const nnav_value *v = nnav_value_get(u->m, ref.value);
        if (v->kind == NNAV_VAL_UNDEFINED) {
            ui_message(u, R_ERROR, "not defined in any enclosing scope");
            return 1;
        }
        uint32_t from = ref.value;
        const nnav_declutter *dc = decl_view(u, u->graph);
        if (dc && nnav_node_get(u->m, d->id)->graph == nnav_declutter_graph(dc)) {
            /* D: through hidden Identity nodes to the real producer; a
             * folded value has none to show. */
            uint32_t pn = nnav_declutter_producer(dc, from);
            if (pn != NNAV_NONE && nnav_declutter_hidden(dc, pn)) {
                char t[300];
                nnav_declutter_input_text(dc, from, t, sizeof t);
                ui_message(u, 0, "%s: made by hidden nodes; D shows them", t[0] ? t : "folded");
                return 1;
            }
            from = nnav_declutter_source(dc, from);
        }
        place to = ui_place_value(u, from);
        ui_jump(u, to);
        ui_set_focus(u, to.kind == PLACE_TENSOR ? PANE_TENSORS
                        : to.kind == PLACE_NODE ? PANE_NODES : PANE_DETAIL);
        return 1;
    }
    case DL_OUTPUT: {
        const nnav_ref ref = nnav_ref_get(u->m, l->a);
        if (ref.value != NNAV_NONE)
            ui_pick_consumers(u, ref.value);
        return 1;
    }
    case DL_G_INPUT: {
        const nnav_vinfo *vi = nnav_vinfo_get(u->m, l->a);
        if (vi->value != NNAV_NONE)
            ui_pick_consumers(u, vi->value);
        return 1;
    }
    case DL_G_OUTPUT: {
        const nnav_vinfo *vi = nnav_vinfo_get(u->m, l->a);
        if (vi->value != NNAV_NONE) {
            ui_jump(u, ui_place_value(u, vi->value));
            ui_set_focus(u, PANE_NODES);
        }
        return 1;
    }
    case DL_V_PRODUCER:
        ui_jump(u, ui_place_value(u, l->a));
        return 1;
    case DL_ATTR: {
        const nnav_attr *at = nnav_attr_get(u->m, l->a);
        if (at->graph_count) {
            ui_jump(u, ui_place_graph(u, at->graph_first));
            ui_set_focus(u, PANE_NODES);
        } else if (at->tensor_count) {
            ui_jump(u, ui_place_tensor(u, at->tensor_first));
        }
        return 1;
    }
    case DL_ATTR_GRAPH:
        ui_jump(u, ui_place_graph(u, l->a));
        ui_set_focus(u, PANE_NODES);
        return 1;
    case DL_ATTR_TENSOR:
        ui_jump(u, ui_place_tensor(u, l->a));
        return 1;
    case DL_NODE_FUNC:
        ui_jump(u, ui_place_graph(u, nnav_function_get(u->m, l->a)->graph));
        ui_set_focus(u, PANE_NODES);
        return 1;
    case DL_CONSUMER:
    case DL_G_OWNER:
        ui_jump(u, ui_place_node(u, l->a));
        ui_set_focus(u, PANE_NODES);
        return 1;
    case DL_T_OWNER: {
        const nnav_attr *at = nnav_attr_get(u->m, nnav_tensor_get(u->m, l->a)->owner_id);
        ui_jump(u, ui_place_node(u, at->node));
        ui_set_focus(u, PANE_NODES);
        return 1;
    }
    default:
        return 1;
    }
}

static int detail_yank(ui *u, pane *p, nnav_span *out, char *buf, size_t n)
{
    detail *d = D(p);
    if (p->cur >= d->n)
        return 0;
    const dline *l = &d->lines[p->cur];
    switch (l->type) {
    case DL_INPUT: case DL_OUTPUT:
        *out = nnav_ref_get(u->m, l->a).name;
        return 1;
    case DL_G_INPUT: case DL_G_OUTPUT:
        *out = nnav_vinfo_get(u->m, l->a)->name;
        return 1;
    case DL_CONSUMER: case DL_G_OWNER: case DL_NODE_HEAD: case DL_NODE_NAME: case DL_NODE_COST:
        *out = nnav_node_get(u->m, l->a)->name;
        return 1;
    case DL_ATTR:
        *out = nnav_attr_get(u->m, l->a)->name;
        return 1;
    case DL_ATTR_DEFAULT:
        if (l->b < d->nrows && d->rows[l->b].sa) {
            const char *nm = d->rows[l->b].sa->name;
            *out = (nnav_span){ (const uint8_t *)nm, strlen(nm) };
            return 1;
        }
        break;
    case DL_ATTR_TENSOR:
    case DL_T_NAME: case DL_T_SHAPE: case DL_T_STORE: case DL_T_BYTES: case DL_T_QUANT: case DL_T_VALUES:
    case DL_T_STATS: case DL_T_WARN: case DL_T_OWNER:
        *out = nnav_tensor_get(u->m, l->a)->name;
        return 1;
    case DL_V_HEAD: case DL_V_TYPE: case DL_V_PRODUCER: case DL_IO_TYPE:
        *out = nnav_value_get(u->m, l->a)->name;
        return 1;
    case DL_ATTR_GRAPH: case DL_G_HEAD: case DL_G_PATH: case DL_G_COUNTS: case DL_G_COST:
    case DL_G_FOLDED: case DL_G_TYPES: {
        size_t k = nnav_graph_path(u->m, l->a, buf, n);
        *out = (nnav_span){ (const uint8_t *)buf, k < n ? k : n - 1 };
        return 1;
    }
    default:
        break;
    }
    /* Anything else: the target's own name. */
    switch (d->kind) {
    case PLACE_NODE: *out = nnav_node_get(u->m, d->id)->name; return 1;
    case PLACE_TENSOR: *out = nnav_tensor_get(u->m, d->id)->name; return 1;
    case PLACE_VALUE: *out = nnav_value_get(u->m, d->id)->name; return 1;
    case PLACE_GRAPH: {
        size_t k = nnav_graph_path(u->m, d->id, buf, n);
        *out = (nnav_span){ (const uint8_t *)buf, k < n ? k : n - 1 };
        return 1;
    }
    default:
        return 0;
    }
}

static int detail_here(ui *u, pane *p, place *out)
{
    detail *d = D(p);
    if (d->id == NNAV_NONE)
        return 0;
    switch (d->kind) {
    case DETAIL_OTHER: /* the other side's node: its row is in the node list */
        *out = ui_place_graph(u, u->graph);
        break;
    case PLACE_NODE: *out = ui_place_node(u, d->id); break;
    case PLACE_TENSOR: *out = ui_place_tensor(u, d->id); break;
    case PLACE_GRAPH: *out = ui_place_graph(u, d->id); break;
    default:
        *out = (place){ .kind = PLACE_VALUE, .pane = PANE_DETAIL, .graph = u->graph, .id = d->id };
        break;
    }
    out->pane = PANE_DETAIL;
    return 1;
}

const pane_ops pane_detail_ops = {
    .size = sizeof(detail),
    .open = detail_open,
    .close = detail_close,
    .title = detail_title,
    .lines = detail_lines,
    .draw_line = detail_draw_line,
    .request = detail_request,
    .yank = detail_yank,
    .here = detail_here,
    .click = detail_click,
};
