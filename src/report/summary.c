/* summary.c - `nnav summary` (see summary.h). */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "quant.h"
#include "record.h"
#include "report.h"
#include "scope.h"
#include "utf8.h"
#include "yamlout.h"

/* The class's last dotted part: "torch.nn.modules.linear.Linear" is Linear. */
static nnav_span short_class(nnav_span c)
{
    uint64_t i = c.n;
    while (i > 0 && c.p[i - 1] != '.')
        i--;
    return i < c.n ? (nnav_span){c.p + i, c.n - i} : c;
}

/* What the model is called, for the root's row: the class a reader names
 * for the root module (config.json's architectures[0], a PyTorch module's
 * class), else the graph's name, else the file's base name. *from says
 * which ("class", "graph", "file"); "" and NULL when none. Escaped. */
static void root_name(const nnav_model *m, uint32_t graph, const nnav_scopes *t, char *buf,
                      size_t n, const char **from)
{
    const nnav_scope *root = nnav_scope_get(t, 0);
    const nnav_graph *g = nnav_graph_get(m, graph);
    const char *path = nnav_model_facts_get(m)->path;
    buf[0] = 0, *from = NULL;
    if (root->cls.n) {
        nnav_span c = short_class(root->cls);
        nnav_text_escape(c.p, c.n, buf, n), *from = "class";
    } else if (g && g->name.n) {
        nnav_text_escape(g->name.p, g->name.n, buf, n), *from = "graph";
    } else if (path && path[0]) {
        size_t e = strlen(path), b;
        while (e > 1 && path[e - 1] == '/') /* a folder given as "dir/" */
            e--;
        b = e;
        while (b > 0 && path[b - 1] != '/')
            b--;
        nnav_text_escape((const uint8_t *)path + b, e - b, buf, n), *from = "file";
    }
}

/* What a scope is: its class, else its own nodes' op types (first two and
 * how many more), "-" when it has no nodes of its own. */
static void what_text(const nnav_model *m, const nnav_scopes *t, const nnav_declutter *d,
                      const nnav_scope *sc, char *buf, size_t n)
{
    if (sc->cls.n) {
        nnav_span c = short_class(sc->cls);
        nnav_text_escape(c.p, c.n, buf, n);
        return;
    }
    if (!sc->node_count) {
        snprintf(buf, n, "-");
        return;
    }
    const uint32_t *nodes = nnav_scope_nodes(t) + sc->node_first;
    nnav_span seen[2] = {{0}};
    uint32_t ns = 0, more = 0;
    for (uint32_t i = 0; i < sc->node_count; i++) {
        if (d && nnav_declutter_hidden(d, nodes[i]))
            continue;
        nnav_span op = nnav_node_get(m, nodes[i])->op;
        uint32_t k = 0;
        while (k < ns && !nnav_span_same(seen[k], op))
            k++;
        if (k < ns)
            continue;
        if (ns < 2)
            seen[ns++] = op;
        else
            more++;
    }
    if (!ns) { /* every own node hidden by --declutter */
        snprintf(buf, n, "-");
        return;
    }
    /* "more" counts nodes past two distinct ops, not distinct ops: say nodes. */
    char a[200], b[200];
    nnav_text_escape(seen[0].p, seen[0].n, a, sizeof a);
    if (ns == 1)
        snprintf(buf, n, "%s", a);
    else if (!more)
        snprintf(buf, n, "%s,%s", a, (nnav_text_escape(seen[1].p, seen[1].n, b, sizeof b), b));
    else
        snprintf(buf, n, "%s,%s,…", a, (nnav_text_escape(seen[1].p, seen[1].n, b, sizeof b), b));
}

static void out_text(const nnav_shapes *s, const nnav_scopes *t, const nnav_scope *sc, char *buf,
                     size_t n)
{
    if (!sc->out_count) {
        snprintf(buf, n, "-");
        return;
    }
    char ty[400];
    nnav_shapes_value_format(s, nnav_scope_values(t)[sc->out_first], ty, sizeof ty);
    if (sc->out_count > 1)
        snprintf(buf, n, "%s +%u", ty[0] ? ty : "?", sc->out_count - 1);
    else
        snprintf(buf, n, "%s", ty[0] ? ty : "?");
}

static void name_text(const nnav_scope *sc, char *buf, size_t n)
{
    nnav_text_escape(sc->name.p, sc->name.n, buf, n);
}

/* The run of siblings from c identical to c (to what c is identical to,
 * when it is a later one of them): how many, and its last. */
static uint32_t run_of(const nnav_scopes *t, uint32_t c, uint32_t *last)
{
    const nnav_scope *sc = nnav_scope_get(t, c);
    uint32_t end = sc->parent + nnav_scope_get(t, sc->parent)->subtree, k = 1;
    uint32_t rep = sc->same_as != NNAV_NONE ? sc->same_as : c;
    *last = c;
    for (uint32_t x = c + sc->subtree; x < end; x += nnav_scope_get(t, x)->subtree) {
        if (nnav_scope_get(t, x)->same_as != rep)
            break;
        *last = x, k++;
    }
    return k;
}

/* A tensor store's scope: its tensors' storage types, the most bytes
 * first, a packed weight's data counted with it (quant.h), as list items
 * (YAML: every one; text: the first two and how many more). Each tensor's
 * type is looked up once (tyindex), then a scope's are a pass over its
 * subtree's tensors. */
enum { TY_NAMES = 255, TY_NONE = 0xffff };
typedef struct tyindex {
    uint16_t *tid;          /* by tensor: its type's index, TY_NONE when not a weight's */
    char (*name)[64];       /* the distinct types, TY_NAMES at most (then "other") */
    uint32_t n;
} tyindex;

static int tyindex_build(const nnav_model *m, tyindex *x)
{
    uint32_t nt = nnav_tensor_count(m);
    x->n = 0;
    x->tid = malloc(((size_t)nt + 1) * sizeof *x->tid);
    x->name = malloc((TY_NAMES + 1) * sizeof *x->name);
    if (!x->tid || !x->name)
        return -1;
    for (uint32_t t = 0; t < nt; t++) {
        nnav_tquant q;
        x->tid[t] = TY_NONE;
        if (nnav_tensor_quant(m, t, &q) < 0 || q.kind == NNAV_Q_DATA ||
            (q.kind == NNAV_Q_PLAIN && !nnav_tensor_is_weight(m, t)))
            continue; /* a packed weight's data, a buffer, a step count */
        char nm[64];
        nnav_tensor_qtype(m, t, nm, sizeof nm);
        uint32_t k = 0;
        while (k < x->n && strcmp(x->name[k], nm))
            k++;
        if (k == x->n) {
            if (x->n == TY_NAMES)
                k = TY_NAMES, snprintf(x->name[k], sizeof x->name[0], "other");
            else
                snprintf(x->name[x->n++], sizeof x->name[0], "%s", nm);
        }
        x->tid[t] = (uint16_t)k;
    }
    return 0;
}

typedef struct tytally {
    uint16_t id[8];
    uint64_t bytes[8];
    uint32_t n, more;
} tytally;

static void types_of(const nnav_model *m, const nnav_scopes *t, const tyindex *x, uint32_t id,
                     tytally *ty)
{
    uint32_t nt;
    const uint32_t *tv = nnav_scope_tensors(t, id, &nt);
    ty->n = ty->more = 0;
    for (uint32_t i = 0; x->tid && i < nt; i++) {
        uint32_t tn = nnav_value_get(m, tv[i])->producer;
        if (tn >= nnav_tensor_count(m) || x->tid[tn] == TY_NONE)
            continue;
        uint16_t want = x->tid[tn];
        uint64_t b = nnav_tensor_get(m, tn)->nbytes;
        uint32_t k = 0;
        while (k < ty->n && ty->id[k] != want)
            k++;
        if (k == ty->n) {
            if (ty->n == 8) {
                ty->more++; /* (a ninth type seen again counts again: "+N" is a floor) */
                continue;
            }
            ty->id[ty->n] = want;
            ty->bytes[ty->n++] = 0;
        }
        ty->bytes[k] = b == UINT64_MAX || ty->bytes[k] > UINT64_MAX - b ? UINT64_MAX : ty->bytes[k] + b;
    }
    for (uint32_t a = 1; a < ty->n; a++) /* most bytes first: a few items, insertion */
        for (uint32_t b = a; b > 0 && ty->bytes[b] > ty->bytes[b - 1]; b--) {
            uint16_t ti = ty->id[b];
            uint64_t tb = ty->bytes[b];
            ty->id[b] = ty->id[b - 1], ty->id[b - 1] = ti;
            ty->bytes[b] = ty->bytes[b - 1], ty->bytes[b - 1] = tb;
        }
}

static void types_text(const tyindex *x, const tytally *ty, char *buf, size_t n)
{
    if (!ty->n) {
        snprintf(buf, n, "-");
        return;
    }
    uint32_t rest = ty->n - (ty->n > 2 ? 2 : ty->n) + ty->more;
    size_t o = (size_t)snprintf(buf, n, "%s", x->name[ty->id[0]]);
    if (ty->n > 1 && o < n)
        o += (size_t)snprintf(buf + o, n - o, ",%s", x->name[ty->id[1]]);
    if (rest && o < n)
        snprintf(buf + o, n - o, ",+%u", rest);
}

/* Nodes of a scope's subtree the decluttered view hides. */
static uint32_t hidden_in(const nnav_scopes *t, const nnav_declutter *d, const nnav_scope *sc)
{
    uint32_t h = 0;
    const uint32_t *nodes = nnav_scope_nodes(t) + sc->node_first;
    for (uint32_t i = 0; d && i < sc->nodes_total; i++)
        h += nnav_declutter_hidden(d, nodes[i]) != 0;
    return h;
}

static void yaml_values(nnav_yw *w, const nnav_model *m, const nnav_shapes *s, const uint32_t *v,
                        uint32_t n)
{
    char ty[600];
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < n; i++) {
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "name"), nnav_yw_span(w, nnav_value_get(m, v[i])->name);
        nnav_shapes_value_format(s, v[i], ty, sizeof ty);
        nnav_yw_key(w, "type"), ty[0] ? nnav_yw_cstr(w, ty) : nnav_yw_null(w);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
}

/* A scope's path as a cell: -1 when out of memory for a long one. */
static int cell_path(nnav_rw *w, size_t col, const nnav_scopes *t, uint32_t id)
{
    uint8_t small[512];
    size_t len = nnav_scope_path(t, id, small, sizeof small);
    if (len <= sizeof small) {
        nnav_rw_cell_span(w, col, (nnav_span){small, len}, "");
        return 0;
    }
    uint8_t *big = malloc(len);
    if (!big)
        return -1;
    nnav_scope_path(t, id, big, len);
    nnav_rw_cell_span(w, col, (nnav_span){big, len}, "");
    free(big);
    return 0;
}

/* A scope a row. YAML: every scope down to the depth, its path, counts,
 * the scope it is identical to and its inputs and outputs. Text: the
 * name indented by level (a folded run "first … last  ×k identical"),
 * what it is, its first output's type, parameters and MACs; the name,
 * class/op and output columns as wide as their widest shown cell, up to a
 * cap (a wild name overflows its column). */
enum { C_PATH, C_NAME, C_DEPTH, C_CLASS, C_TYPES, C_OUT, C_NODES, C_OWN, C_DECL, C_CHILDREN,
       C_PARAMS, C_PNAMES, C_BUFFERS, C_BYTES, C_BPW, C_MACS, C_FLOPS, C_SAME, C_SHAPE, C_REPEATS };
static const nnav_rw_col scope_cols[] = {
    [C_PATH] = {"path", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_NAME] = {"name", 5, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 72, "scope"},
    [C_DEPTH] = {"depth", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_CLASS] = {"class", 8, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 28, "class/op"},
    [C_TYPES] = {"types", NNAV_RW_NOTEXT, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 40, "type"}, /* text: a store's */
    [C_OUT] = {NULL, 6, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 36, "output"},
    [C_NODES] = {"nodes", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_OWN] = {"own_nodes", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_DECL] = {"decluttered", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_CHILDREN] = {"children", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_PARAMS] = {"params", 15, NNAV_RW_RIGHT, NULL, 0, "params"},
    [C_PNAMES] = {"param_names", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_BUFFERS] = {"buffers", 11, NNAV_RW_RIGHT, NULL, 0, "buffers"}, /* text: when there are any */
    [C_BYTES] = {"bytes", 10, NNAV_RW_RIGHT, NULL, 0, "bytes"},
    [C_BPW] = {"bpw", 6, NNAV_RW_RIGHT, NULL, 0, "bpw"},
    [C_MACS] = {"macs", 9, NNAV_RW_RIGHT, NULL, 0, "MACs"},
    [C_FLOPS] = {"flops", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_SAME] = {"identical_to", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_SHAPE] = {"same_shape_as", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_REPEATS] = {"repeats", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
};
#define SCOPE_NCOLS (sizeof scope_cols / sizeof *scope_cols)

static int scope_row(nnav_rw *w, const nnav_model *m, const nnav_shapes *s, const nnav_scopes *t,
                     const nnav_declutter *d, const tyindex *tyx, uint32_t i, uint32_t k,
                     uint32_t last, int hidden, const char *gpath, const char *rname)
{
    char name[2100], nm2[700], nm3[700], what[600], ty[600], pa[40], bu[40], ma[40], by[40], bp[40];
    char tys[300];
    const nnav_scope *sc = nnav_scope_get(t, i);
    size_t o = (size_t)snprintf(name, sizeof name, "%*s", (int)(2 * sc->depth), "");
    if (!i) {
        snprintf(name + o, sizeof name - o, "%s", gpath);
    } else {
        name_text(sc, name + o, sizeof name - o);
        nm3[0] = 0;
        if (sc->same_as != NNAV_NONE && (sc->params || sc->child_count))
            name_text(nnav_scope_get(t, sc->same_as), nm3, sizeof nm3);
        o = strlen(name);
        if (k > 1) {
            name_text(nnav_scope_get(t, last), nm2, sizeof nm2);
            o += (size_t)snprintf(name + o, sizeof name - o, " … %s  ×%u identical", nm2, k);
        }
        if (nm3[0] && o < sizeof name) /* "layer1.2  same as layer1.0" */
            snprintf(name + o, sizeof name - o, "%s same as %s", k > 1 ? "," : " ", nm3);
        else if (sc->shape_as != NNAV_NONE && (sc->params || sc->child_count) && o < sizeof name) {
            name_text(nnav_scope_get(t, sc->shape_as), nm2, sizeof nm2);
            snprintf(name + o, sizeof name - o, "  same shape as %s, different types", nm2);
        }
    }
    tytally tl;
    types_of(m, t, tyx, i, &tl);
    types_text(tyx, &tl, tys, sizeof tys);
    uint64_t wts = sc->stored;
    if (!i && rname[0]) /* the root: what the model is called, not its ops */
        snprintf(what, sizeof what, "%s", rname);
    else
        what_text(m, t, d, sc, what, sizeof what);
    out_text(s, t, sc, ty, sizeof ty);
    if (nnav_rw_shows(w)) { /* the figures' words: not measured */
        nnav_text_commas(sc->params, pa, sizeof pa);
        nnav_text_commas(sc->buffers, bu, sizeof bu);
        nnav_text_si(sc->macs, ma, sizeof ma);
        nnav_report_bytes(sc->bytes, by, sizeof by);
        double b = nnav_bpw(sc->bytes, wts);
        b < 0 ? snprintf(bp, sizeof bp, "-") : snprintf(bp, sizeof bp, "%.2f", b);
    }
    int rc = 0;
    nnav_rw_row(w);
    if (hidden)
        nnav_rw_row_hide_text(w);
    if (nnav_rw_yaml(w)) /* the path is YAML's only, and may need memory */
        rc = cell_path(w, C_PATH, t, i);
    nnav_rw_cell_span(w, C_NAME, sc->name, name);
    nnav_rw_cell_uint(w, C_DEPTH, sc->depth, NULL);
    if (sc->cls.n)
        nnav_rw_cell_span(w, C_CLASS, sc->cls, what);
    else
        nnav_rw_cell_null(w, C_CLASS, what);
    if (nnav_scope_tensors(t, i, &(uint32_t){0})) {
        nnav_rw_cell_list(w, C_TYPES, tys);
        for (uint32_t k2 = 0; k2 < tl.n; k2++)
            nnav_rw_cstr(w, tyx->name[tl.id[k2]], NULL);
        nnav_rw_cell_list_end(w);
    } else {
        nnav_rw_cell_null(w, C_TYPES, "-");
    }
    nnav_rw_cell_null(w, C_OUT, ty);
    nnav_rw_cell_uint(w, C_NODES, sc->nodes_total, NULL);
    nnav_rw_cell_uint(w, C_OWN, sc->node_count, NULL);
    if (d)
        nnav_rw_cell_uint(w, C_DECL, hidden_in(t, d, sc), NULL);
    nnav_rw_cell_uint(w, C_CHILDREN, sc->child_count, NULL);
    nnav_rw_cell_uint(w, C_PARAMS, sc->params, pa);
    nnav_rw_cell_uint(w, C_PNAMES, sc->param_names, NULL);
    nnav_rw_cell_uint(w, C_BUFFERS, sc->buffers, bu);
    nnav_rw_cell_uint(w, C_BYTES, sc->bytes, by);
    double bw = nnav_bpw(sc->bytes, wts);
    if (bw < 0)
        nnav_rw_cell_null(w, C_BPW, bp);
    else
        nnav_rw_cell_double(w, C_BPW, bw, bp);
    nnav_rw_cell_count(w, C_MACS, sc->macs, ma);
    nnav_rw_cell_count(w, C_FLOPS, sc->flops, NULL);
    if (sc->same_as != NNAV_NONE && rc == 0 && nnav_rw_yaml(w))
        rc = cell_path(w, C_SAME, t, sc->same_as);
    else
        nnav_rw_cell_null(w, C_SAME, NULL);
    if (sc->shape_as != NNAV_NONE && rc == 0 && nnav_rw_yaml(w))
        rc = cell_path(w, C_SHAPE, t, sc->shape_as);
    else
        nnav_rw_cell_null(w, C_SHAPE, NULL);
    nnav_rw_cell_uint(w, C_REPEATS, sc->same_as == NNAV_NONE ? sc->repeats : 0, NULL);
    nnav_yw *y = nnav_rw_yw(w); /* lists of maps: written by hand, YAML only */
    if (y) {
        nnav_yw_key(y, "inputs");
        yaml_values(y, m, s, nnav_scope_values(t) + sc->in_first, sc->in_count);
        nnav_yw_key(y, "outputs");
        yaml_values(y, m, s, nnav_scope_values(t) + sc->out_first, sc->out_count);
    }
    nnav_rw_row_end(w);
    return rc;
}

/* The totals (YAML before the scopes, text a line after them) and the
 * scopes in preorder down to depth. In text, a run of identical siblings
 * is its first's row and subtree; its other members are YAML's only. */
static int write_summary(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                         const nnav_scopes *t, const nnav_declutter *d, const nnav_whole *wh,
                         long depth, int yaml, FILE *out)
{
    nnav_rw w;
    char gpath[2048], line[2048];
    if (nnav_rw_open(&w, out, yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return -1;
    nnav_graph_path(m, graph, gpath, sizeof gpath);
    const nnav_scope *root = nnav_scope_get(t, 0);
    uint32_t ns = nnav_scopes_count(t);
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "graph", NULL), nnav_rw_cstr(&w, gpath, NULL);
    /* What the root's row calls the model, and where the name is from. */
    char rname[600];
    const char *rfrom;
    root_name(m, graph, t, rname, sizeof rname, &rfrom);
    nnav_rw_key_as(&w, "model", NULL);
    rfrom ? nnav_rw_cstr(&w, rname, NULL) : nnav_rw_null(&w, NULL);
    nnav_rw_key_as(&w, "model_from", NULL);
    rfrom ? nnav_rw_cstr(&w, rfrom, NULL) : nnav_rw_null(&w, NULL);
    nnav_rw_key_as(&w, "nodes", NULL), nnav_rw_uint(&w, root->nodes_total, NULL);
    if (d)
        nnav_rw_key_as(&w, "decluttered", NULL), nnav_rw_uint(&w, nnav_declutter_hidden_count(d), NULL);
    nnav_rw_key_as(&w, "params", NULL), nnav_rw_uint(&w, root->params, NULL);
    nnav_rw_key_as(&w, "param_names", NULL), nnav_rw_uint(&w, root->param_names, NULL);
    nnav_rw_key_as(&w, "buffer_elements", NULL), nnav_rw_uint(&w, nnav_scopes_buffers(t), NULL);
    double rbpw = nnav_bpw(root->bytes, root->stored);
    nnav_rw_key_as(&w, "bytes", NULL), nnav_rw_uint(&w, root->bytes, NULL);
    nnav_rw_key_as(&w, "bpw", NULL);
    rbpw < 0 ? nnav_rw_null(&w, NULL) : nnav_rw_double(&w, rbpw, NULL);
    uint32_t folded = nnav_folded_norms(m, graph);
    nnav_rw_key_as(&w, "folded_norms", NULL), nnav_rw_uint(&w, folded, NULL);
    nnav_rw_key_as(&w, "macs", NULL);
    wh->overflow ? nnav_rw_null(&w, NULL) : nnav_rw_count(&w, root->macs, NULL);
    nnav_rw_key_as(&w, "flops", NULL);
    wh->overflow ? nnav_rw_null(&w, NULL) : nnav_rw_count(&w, root->flops, NULL);
    nnav_rw_key_as(&w, "known", NULL), nnav_rw_bool(&w, wh->known && !wh->overflow, NULL);
    nnav_rw_key_as(&w, "per_iteration", NULL), nnav_rw_bool(&w, wh->per_iter, NULL);
    nnav_rw_key_as(&w, "overflow", NULL), nnav_rw_bool(&w, wh->overflow, NULL);
    int rc = 0;
    /* The buffers column in text only where there are buffers. */
    nnav_rw_col cols[SCOPE_NCOLS];
    memcpy(cols, scope_cols, sizeof cols);
    if (!nnav_scopes_buffers(t))
        cols[C_BUFFERS].width = NNAV_RW_NOTEXT;
    /* A store of tensors (no nodes): each scope's types instead of its
     * outputs and MACs, which it has none of. */
    int store = nnav_scope_tensors(t, 0, &(uint32_t){0}) != NULL;
    tyindex tyx = {0};
    if (store && tyindex_build(m, &tyx) < 0)
        rc = -1;
    /* A graph's bytes and bpw columns where its weights' widths differ
     * (a quantised model); a graph of float32 weights says 32.00 on every
     * row, which the total line says once. */
    int vary = 0;
    for (uint32_t i = 1; i < ns && !store && !vary; i++) {
        const nnav_scope *x = nnav_scope_get(t, i);
        double b = nnav_bpw(x->bytes, x->stored);
        vary = b >= 0 && (rbpw < 0 || b - rbpw > 0.005 || rbpw - b > 0.005);
    }
    if (!store && !vary)
        cols[C_BYTES].width = cols[C_BPW].width = NNAV_RW_NOTEXT;
    if (store) {
        uint32_t with_cls = 0;
        for (uint32_t i = 0; i < ns && !with_cls; i++)
            with_cls = nnav_scope_get(t, i)->cls.n != 0;
        if (!with_cls) /* a state_dict, a weights file: no module says its class */
            cols[C_CLASS].width = NNAV_RW_NOTEXT;
        cols[C_TYPES].width = 4;
        cols[C_OUT].width = NNAV_RW_NOTEXT;
        cols[C_MACS].width = NNAV_RW_NOTEXT;
    }
    const nnav_rw_table scope_table = {.cols = cols, .ncols = SCOPE_NCOLS, .sep = "  "};
    nnav_rw_table_begin(&w, "scopes", &scope_table);
    nnav_rw_table_least(&w, C_NAME, (int)strlen(gpath));
    for (int pass = 0; pass < nnav_rw_table_passes(&w) && rc == 0; pass++) {
        nnav_rw_table_pass(&w, pass);
        nnav_rw_table_head(&w);
        /* The folded runs around i: the members after a run's first (and
         * their subtrees) are hidden in text, [start, end) each. */
        struct { uint32_t start, end; } fold[NNAV_SCOPE_DEPTH_MAX + 2];
        uint32_t nf = 0;
        for (uint32_t i = 0; i < ns && rc == 0; i++) {
            const nnav_scope *sc = nnav_scope_get(t, i);
            if (depth >= 0 && sc->depth > (uint64_t)depth)
                continue;
            while (nf && i >= fold[nf - 1].end)
                nf--;
            int hidden = nf && i >= fold[nf - 1].start;
            /* A repeat of an earlier sibling not next to it is said to be
             * one (and folds with the repeats after it) when it holds
             * something: weights or scopes, not a lone ReLU. */
            int notable = sc->same_as == NNAV_NONE || sc->params || sc->child_count;
            uint32_t last = i, k = i && !hidden && notable ? run_of(t, i, &last) : 1;
            rc = scope_row(&w, m, s, t, d, &tyx, i, k, last, hidden, gpath, rname);
            /* A row identical to one shown before it: its subtree too. */
            int again = i && !hidden && sc->same_as != NNAV_NONE && notable;
            if ((k > 1 || again) && nf < sizeof fold / sizeof *fold) {
                fold[nf].start = again ? i + 1 : i + sc->subtree;
                fold[nf++].end = last + nnav_scope_get(t, last)->subtree;
            }
        }
    }
    nnav_rw_table_end(&w);
    free(tyx.tid), free(tyx.name);
    nnav_rw_map_end(&w);
    /* "total: N nodes in S scopes, P params (K names), A MACs, B FLOPs" */
    char p[40], a[40], b[40], nn[40], nsc[40], dc[64] = "", bu[120] = "", fo[300] = "", rb[40];
    char wb[120];
    nnav_text_commas(root->params, p, sizeof p);
    nnav_report_bytes(root->bytes, rb, sizeof rb);
    if (rbpw < 0)
        snprintf(wb, sizeof wb, "%s of weights", rb);
    else
        snprintf(wb, sizeof wb, "%s of weights, %.2f bpw", rb, rbpw);
    nnav_text_si(root->macs, a, sizeof a);
    nnav_text_si(root->flops, b, sizeof b);
    nnav_text_commas(root->nodes_total, nn, sizeof nn);
    nnav_text_commas(ns, nsc, sizeof nsc);
    if (d) {
        char h[40];
        nnav_text_commas(nnav_declutter_hidden_count(d), h, sizeof h);
        snprintf(dc, sizeof dc, ", %s decluttered,", h);
    }
    if (wh->overflow)
        snprintf(a, sizeof a, "over 9.2 E"), snprintf(b, sizeof b, "over 9.2 E");
    if (nnav_scopes_buffers(t)) { /* BatchNorm statistics (scope.h) */
        char e[40];
        nnav_text_commas(nnav_scopes_buffers(t), e, sizeof e);
        snprintf(bu, sizeof bu, ", %s buffer elements not counted (module buffers)", e);
    }
    if (folded)
        snprintf(fo, sizeof fo, "%s\n", nnav_folded_norms_text(folded, line, sizeof line));
    snprintf(line, sizeof line, "total: %s node%s%s in %s scope%s, %s param%s (%llu name%s), %s, %s MACs, "
             "%s FLOPs%s%s%s%s%s\n%s", nn, root->nodes_total == 1 ? "" : "s", dc, nsc, ns == 1 ? "" : "s",
             p, root->params == 1 ? "" : "s", (unsigned long long)root->param_names,
             root->param_names == 1 ? "" : "s", wb, a, b, bu,
             wh->per_iter ? " (a loop of unknown trip count counted once: per iteration)" : "",
             wh->known ? "" : " (partial: ", wh->known ? "" : s ? nnav_whole_why(wh) : "no shapes",
             wh->known ? "" : ")", fo);
    if (rc == 0)
        nnav_rw_text(&w, line);
    return nnav_rw_close(&w) < 0 || rc ? -1 : 0;
}

int nnav_summary_write(const nnav_model *m, uint32_t graph, const nnav_shapes *s, int yaml,
                       long depth, FILE *out)
{
    return nnav_summary_write_view(m, graph, s, NULL, yaml, depth, out);
}

int nnav_summary_write_view(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                            const nnav_declutter *d, int yaml, long depth, FILE *out)
{
    nnav_scopes *t = nnav_scopes_build(m, graph, s);
    if (!t) {
        fprintf(stderr, "nnav summary: out of memory\n");
        return 2;
    }
    /* Whether the totals are whole: partial, per iteration or past 2^63. */
    nnav_whole wh = {0};
    nnav_wcost *wc = s ? nnav_wcost_new(s) : NULL;
    if (wc)
        wh = *nnav_wcost_graph(wc, graph);
    nnav_wcost_free(wc);
    int rc = write_summary(m, graph, s, t, d, &wh, depth, yaml, out);
    nnav_scopes_free(t);
    if (rc) {
        fprintf(stderr, "nnav summary: out of memory or the output could not be written\n");
        return 2;
    }
    return 0;
}
