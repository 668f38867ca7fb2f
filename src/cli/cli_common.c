/* cli_common.c - what the command files share: printing helpers, errors and exit
 * statuses, model-wide counts, picking a graph or a node. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnav.h"
#include "place.h"
#include "shape.h"
#include "yamlout.h"

/* The exit status for an error of the core: a usage error is 1, anything
 * the file did (or that kept it from being read) is 2. */
int exit_status(const nnav_error *e)
{
    return e->kind == NNAV_ERR_USAGE ? EXIT_USAGE : EXIT_BADINPUT;
}

/* ---- small printing helpers ---- */

const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* Columns a UTF-8 string (as escaped for a table) takes on a terminal: 0 for
 * a combining mark, 2 for an East Asian wide or fullwidth character or an
 * emoji, 1 otherwise. The ranges are the main blocks, not the whole of
 * Unicode's EastAsianWidth table. */
int text_cols(const char *s)
{
    static const uint32_t marks[][2] = {{0x300, 0x36f}, {0x483, 0x489}, {0x591, 0x5bd},
        {0x610, 0x61a}, {0x64b, 0x65f}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x20d0, 0x20ff},
        {0xfe20, 0xfe2f}};
    static const uint32_t wide[][2] = {{0x1100, 0x115f}, {0x2e80, 0x303e}, {0x3041, 0x33ff},
        {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xa000, 0xa4cf}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
        {0xfe30, 0xfe4f}, {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x1f300, 0x1f64f},
        {0x1f900, 0x1f9ff}, {0x20000, 0x2fffd}, {0x30000, 0x3fffd}};
    int cols = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        uint32_t c = *p++;
        int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : 0;
        if (more)
            c &= 0x3fu >> more;
        for (; more && (*p & 0xc0) == 0x80; more--)
            c = c << 6 | (*p++ & 0x3fu);
        int w = 1;
        for (size_t i = 0; i < sizeof marks / sizeof *marks && c >= 0x300; i++)
            if (c >= marks[i][0] && c <= marks[i][1])
                w = 0;
        for (size_t i = 0; i < sizeof wide / sizeof *wide && c >= 0x1100; i++)
            if (c >= wide[i][0] && c <= wide[i][1])
                w = 2;
        cols += w;
    }
    return cols;
}

/* s, then spaces up to w display columns (at least one). */
void put_padded(const char *s, int w)
{
    int pad = w - text_cols(s);
    printf("%s%*s", s, pad > 1 ? pad : 1, "");
}

/* The plural ending for a count: "1 node", "2 nodes". */
const char *pl(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* Exact bytes with thousands separators: scripts and eyes both read it. */
void print_bytes(uint64_t b, char *buf, size_t n)
{
    nnav_text_commas(b, buf, n);
}

void human(uint64_t b, char *buf, size_t n)
{
    const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int i = 0;
    while (v >= 1024 && i < 4)
        v /= 1024, i++;
    if (i == 0)
        snprintf(buf, n, "%llu B", (unsigned long long)b);
    else
        snprintf(buf, n, "%.1f %s", v, u[i]);
}

int fail_model(const char *path, const nnav_error *e)
{
    char msg[2048];
    nnav_error_format(e, path, msg, sizeof msg);
    fprintf(stderr, "nnav: %s\n", msg);
    return exit_status(e);
}

int usage_error(const char *cmd, const char *fmt, const char *arg)
{
    char a[512] = "";
    if (arg)
        nnav_text_escape_cstr(arg, a, sizeof a);
    fprintf(stderr, "nnav%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\nTry 'nnav %s%s--help'.\n", cmd ? cmd : "", cmd ? " " : "");
    return EXIT_USAGE;
}

/* A name the model does not have: the command line was well formed, the
 * model is not what the user thought, so this is bad input (status 2), not
 * a usage error; it names the model and where to look instead. */
int not_found(const char *cmd, const nnav_model *m, const char *what, const char *name,
                     const char *hint)
{
    char a[512], p[1024];
    nnav_text_escape_cstr(name, a, sizeof a);
    nnav_text_escape_cstr(nnav_model_facts_get(m)->path, p, sizeof p);
    fprintf(stderr, "nnav %s: %s: no %s named '%s'; %s\n", cmd, p, what, a, hint);
    return EXIT_BADINPUT;
}

/* A truncated map means what was printed may be stale: say so, status 2. */
int finish(const nnav_model *m, int rc)
{
    if (nnav_model_truncated(m)) {
        char p[1024];
        nnav_text_escape_cstr(nnav_model_facts_get(m)->path, p, sizeof p);
        fprintf(stderr, "nnav: %s: the file shrank while it was being read; output may be "
                        "incomplete\n", p);
        return EXIT_BADINPUT;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "nnav: error writing output\n");
        return EXIT_BADINPUT;
    }
    return rc;
}

const char *domain_name(nnav_span d, char *buf, size_t n)
{
    if (d.n == 0)
        return "ai.onnx";
    return esc(d, buf, n);
}

/* "Conv" or "com.microsoft:FusedConv": op qualified when not the default domain. */
const char *op_text(nnav_span op_type, nnav_span domain, char *buf, size_t n)
{
    char op[512], dom[512];
    esc(op_type, op, sizeof op);
    if (domain.n == 0 || nnav_span_eqs(domain, "ai.onnx"))
        snprintf(buf, n, "%s", op);
    else
        snprintf(buf, n, "%s:%s", esc(domain, dom, sizeof dom), op);
    return buf;
}

const char *op_name(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    return op_text(nnav_node_get(m, id)->op, nnav_node_domain(m, id), buf, n);
}

const char *node_label(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    const nnav_node *nd = nnav_node_get(m, id);
    if (nd->name.n)
        return esc(nd->name, buf, n);
    snprintf(buf, n, "#%u", nnav_node_index(m, id));
    return buf;
}

/* ---- types, shapes and cost (shared by shapes, cost, check, node, nodes, info) ---- */

/* The typed view, inferred on demand with the --dim bindings. */
nnav_shapes *shapes_of(const nnav_model *m, const opts *o)
{
    nnav_shapes_opts so = {o->bind, o->n_bind};
    nnav_shapes *s = nnav_shapes_infer(m, &so);
    if (!s)
        fprintf(stderr, "nnav: out of memory while inferring types and shapes\n");
    return s;
}

const char *src_word(uint8_t src)
{
    switch (src) {
    case NNAV_SRC_FILE: return "file";
    case NNAV_SRC_INFERRED: return "inferred";
    case NNAV_SRC_AGREE: return "agree";
    case NNAV_SRC_DISAGREE: return "disagree";
    }
    return "unknown";
}

/* "4.09 G MACs, 8.21 G FLOPs, 25.6 M params, 109.6 MiB out", then why a
 * partial figure is partial: `why`, or missing shapes when NULL. */
void cost_text(const nnav_cost *c, const char *why, char *buf, size_t n)
{
    char a[32], b[32], p[32], o[32];
    nnav_text_si(c->macs, a, sizeof a);
    nnav_text_si(c->flops, b, sizeof b);
    nnav_text_si((double)c->params, p, sizeof p);
    human(c->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)c->out_bytes, o, sizeof o);
    snprintf(buf, n, "%s MACs, %s FLOPs, %s params, %s out%s%s%s", a, b, p, o,
             c->known ? "" : " (partial: ", c->known ? "" : why ? why : "shapes missing",
             c->known ? "" : ")");
}

/* Exact counts in YAML: an integer when the double holds one, else the double. */
void yaml_count(nnav_yw *w, double v)
{
    if (v >= 0 && v < 1.8e19 && v == (double)(uint64_t)v)
        nnav_yw_uint(w, (uint64_t)v);
    else
        nnav_yw_double(w, v);
}

void yaml_cost_keys(nnav_yw *w, const nnav_cost *c)
{
    nnav_yw_key(w, "macs"), yaml_count(w, c->macs);
    nnav_yw_key(w, "flops"), yaml_count(w, c->flops);
    nnav_yw_key(w, "params"), nnav_yw_uint(w, c->params);
    nnav_yw_key(w, "output_bytes"), yaml_count(w, c->out_bytes);
}

/* How many of a graph's nodes have partial costs: their shapes are not all known. */
uint64_t partial_nodes(const nnav_shapes *s, const nnav_graph *gr)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < gr->node_count; i++)
        n += !nnav_shapes_node_cost(s, gr->node_first + i)->known;
    return n;
}

/* The type a value has as best known, "?" when nothing is. */
const char *value_type(const nnav_shapes *s, uint32_t v, char *buf, size_t n)
{
    nnav_shapes_value_format(s, v, buf, n);
    if (!buf[0])
        snprintf(buf, n, "?");
    return buf;
}

/* ---- model-wide facts (info, cost, check) ---- */

static int op_cmp(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    uint64_t n = x->op.n < y->op.n ? x->op.n : y->op.n;
    int c = n ? memcmp(x->op.p, y->op.p, n) : 0;
    return c ? c : (x->op.n > y->op.n) - (x->op.n < y->op.n);
}

/* Costs read best heaviest first; ties (ops without MACs) by FLOPs, then count. */
static int op_cost_cmp(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->macs != y->macs)
        return x->macs < y->macs ? 1 : -1;
    if (x->flops != y->flops)
        return x->flops < y->flops ? 1 : -1;
    return op_cmp(a, b);
}

static uint64_t op_key_hash(nnav_span op, nnav_span domain)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t k = 0; k < op.n; k++)
        h = (h ^ op.p[k]) * 1099511628211ull;
    h ^= 0xff;
    for (uint64_t k = 0; k < domain.n; k++)
        h = (h ^ domain.p[k]) * 1099511628211ull;
    return h;
}

/* Op-type histogram over nodes [first, first + nn), keyed by (domain, op).
 * With shapes, each op also sums its nodes' costs and the list is sorted by
 * MACs; without, by count. The table and the list grow with the distinct
 * ops, not the nodes: a million nodes of a few ops would otherwise pay 32
 * bytes a node for the peak of `info`. */
op_count *op_histogram(const nnav_model *m, uint32_t first, uint32_t nn,
                              const nnav_shapes *sh, size_t *count)
{
    size_t cap = 64, n = 0, ops_cap = 32;
    uint32_t *tab = malloc(cap * sizeof *tab);
    op_count *ops = malloc(ops_cap * sizeof *ops);
    if (!tab || !ops) {
        free(tab), free(ops);
        return NULL;
    }
    memset(tab, 0xff, cap * sizeof *tab);
    for (uint32_t i = first; i < first + nn; i++) {
        nnav_span op = nnav_node_get(m, i)->op, domain = nnav_node_domain(m, i);
        size_t s = (size_t)(op_key_hash(op, domain) & (cap - 1));
        for (;;) {
            if (tab[s] == UINT32_MAX)
                break;
            const op_count *o = &ops[tab[s]];
            if (nnav_span_same(o->op, op) && nnav_span_same(o->domain, domain))
                break;
            s = (s + 1) & (cap - 1);
        }
        if (tab[s] == UINT32_MAX) {
            if (n == ops_cap) {
                op_count *no = realloc(ops, 2 * ops_cap * sizeof *ops);
                if (!no)
                    goto oom;
                ops = no, ops_cap *= 2;
            }
            tab[s] = (uint32_t)n;
            memset(&ops[n], 0, sizeof *ops);
            ops[n].op = op;
            ops[n].domain = domain;
            n++;
            if (n * 2 > cap) { /* keep the table at most half full */
                uint32_t *nt = malloc(2 * cap * sizeof *nt);
                if (!nt)
                    goto oom;
                memset(nt, 0xff, 2 * cap * sizeof *nt);
                cap *= 2;
                for (size_t j = 0; j < n; j++) {
                    size_t t = (size_t)(op_key_hash(ops[j].op, ops[j].domain) & (cap - 1));
                    while (nt[t] != UINT32_MAX)
                        t = (t + 1) & (cap - 1);
                    nt[t] = (uint32_t)j;
                }
                free(tab);
                tab = nt;
            }
            s = SIZE_MAX; /* found below by index */
        }
        op_count *oc = s == SIZE_MAX ? &ops[n - 1] : &ops[tab[s]];
        oc->count++;
        if (sh) {
            const nnav_cost *c = nnav_shapes_node_cost(sh, i);
            oc->macs += c->macs;
            oc->flops += c->flops;
            oc->params += c->params;
        }
    }
    free(tab);
    qsort(ops, n, sizeof *ops, sh ? op_cost_cmp : op_cmp);
    *count = n;
    return ops;
oom:
    free(tab);
    free(ops);
    return NULL;
}

/* Sparse initializers of graphs [first, end) whose indices are wrong
 * (negative, out of range, out of order, repeated, miscounted): a line each
 * (info's "warning" rows, or check's "PATH  NAME: why"), or a
 * sparse_warnings list in YAML. Reads the indices: only info and check ask.
 * Returns how many. */
uint32_t sparse_warnings(const nnav_model *m, uint32_t first, uint32_t end, nnav_yw *w,
                                int check, FILE *out)
{
    uint32_t bad = 0;
    char why[1024], nm[600], path[1024];
    if (w) {
        nnav_yw_key(w, "sparse_warnings");
        nnav_yw_seq(w);
    }
    for (uint32_t i = 0; i < nnav_sparse_count(m); i++) {
        const nnav_sparse *sp = nnav_sparse_get(m, i);
        if (sp->graph < first || sp->graph >= end || !nnav_sparse_check(m, i, why, sizeof why))
            continue;
        bad++;
        nnav_span name = sp->values != NNAV_NONE ? nnav_tensor_get(m, sp->values)->name
                                                 : (nnav_span){(const uint8_t *)"", 0};
        nnav_graph_path(m, sp->graph, path, sizeof path);
        if (w) {
            nnav_yw_map(w);
            nnav_yw_key(w, "graph"), nnav_yw_cstr(w, path);
            nnav_yw_key(w, "name"), nnav_yw_span(w, name);
            nnav_yw_key(w, "problem"), nnav_yw_cstr(w, why);
            nnav_yw_map_end(w);
        } else if (check) {
            fprintf(out, "%s  sparse initializer %s: %s\n", path, esc(name, nm, sizeof nm), why);
        } else {
            fprintf(out, "%-14s sparse initializer \"%s\" in %s: %s\n", "warning", esc(name, nm, sizeof nm),
                   path, why);
        }
    }
    if (w)
        nnav_yw_seq_end(w);
    return bad;
}

const char *graph_kind_name(uint8_t k)
{
    switch (k) {
    case NNAV_GRAPH_MAIN: return "main";
    case NNAV_GRAPH_BODY: return "body";
    case NNAV_GRAPH_FUNCTION: return "function";
    case NNAV_GRAPH_TRAINING_INIT: return "training-initialization";
    case NNAV_GRAPH_TRAINING_ALGO: return "training-algorithm";
    }
    return "?";
}

/* ---- graph selection ---- */

int pick_graph(const nnav_model *m, const opts *o, const char *cmd, uint32_t *g)
{
    *g = 0;
    if (!o->graph)
        return 0;
    /* The spellings the explorer's `:` takes for a graph (place.h). */
    nnav_place_ref r;
    nnav_error e;
    if (nnav_place_resolve(m, 0, o->graph, NNAV_PLACE_GRAPHS, &r, &e) < 0) {
        *g = NNAV_NONE;
        fprintf(stderr, "nnav %s: %s\nSee 'nnav tree MODEL' for the paths.\n", cmd, e.msg);
        return EXIT_USAGE;
    }
    *g = r.id;
    return 0;
}


/* Where a value comes from, in words. */
void source_text(const nnav_model *m, uint32_t v, uint32_t from_graph, char *buf, size_t n)
{
    const nnav_value *val = nnav_value_get(m, v);
    char a[1100], b[600], path[2048] = "";
    if (val->graph != from_graph) {
        char p[2000];
        nnav_graph_path(m, val->graph, p, sizeof p);
        snprintf(path, sizeof path, " in %s", p);
    }
    switch (val->kind) {
    case NNAV_VAL_INPUT: snprintf(buf, n, "graph input%s", path); break;
    case NNAV_VAL_INITIALIZER: snprintf(buf, n, "initializer%s", path); break;
    case NNAV_VAL_SPARSE: snprintf(buf, n, "sparse initializer%s", path); break;
    case NNAV_VAL_NODE:
        snprintf(buf, n, "node %s (%s)%s", node_label(m, val->producer, a, sizeof a),
                 op_name(m, val->producer, b, sizeof b), path);
        break;
    default: snprintf(buf, n, "UNDEFINED: no input, initializer or node output has this name");
    }
}

const char *kind_word(uint8_t k)
{
    switch (k) {
    case NNAV_VAL_INPUT: return "input";
    case NNAV_VAL_INITIALIZER: return "initializer";
    case NNAV_VAL_SPARSE: return "sparse_initializer";
    case NNAV_VAL_NODE: return "node";
    }
    return "undefined";
}

int find_node(const nnav_model *m, const opts *o, uint32_t *out)
{
    uint32_t g = NNAV_NONE;
    int rc;
    const char *name = o->arg;
    if (o->graph && (rc = pick_graph(m, o, "node", &g)) != 0)
        return rc;
    /* "#12" names a node by index within its graph. */
    if (name[0] == '#' && name[1]) {
        char *end;
        unsigned long idx = strtoul(name + 1, &end, 10);
        uint32_t gg = g == NNAV_NONE ? 0 : g;
        if (!*end && idx < nnav_graph_get(m, gg)->node_count) {
            *out = nnav_graph_get(m, gg)->node_first + (uint32_t)idx;
            return 0;
        }
    }
    if (g != NNAV_NONE) {
        *out = nnav_node_by_name(m, g, name, strlen(name));
        if (*out == NNAV_NONE)
            return not_found("node", m, "node in that graph", name,
                             "'nnav find MODEL NAME' searches every graph");
        return 0;
    }
    uint32_t found = NNAV_NONE, hits = 0;
    for (uint32_t gg = 0; gg < nnav_graph_count(m); gg++) {
        uint32_t id = nnav_node_by_name(m, gg, name, strlen(name));
        if (id != NNAV_NONE) {
            if (hits == 0)
                found = id;
            hits++;
        }
    }
    if (hits == 0)
        return not_found("node", m, "node", name,
                         "'nnav find MODEL NAME' searches names by substring");
    if (hits > 1) {
        char p[2048];
        fprintf(stderr, "nnav node: %u graphs have a node of that name; choose one with --graph:\n",
                hits);
        for (uint32_t gg = 0; gg < nnav_graph_count(m); gg++)
            if (nnav_node_by_name(m, gg, name, strlen(name)) != NNAV_NONE) {
                nnav_graph_path(m, gg, p, sizeof p);
                fprintf(stderr, "  %s\n", p);
            }
        return EXIT_USAGE;
    }
    *out = found;
    return 0;
}

/* One graph (--graph, default /) or every graph (--all): ids [*first, *end). */
int graph_range(const nnav_model *m, const opts *o, const char *cmd, uint32_t *first,
                       uint32_t *end)
{
    uint32_t g;
    int rc;
    if (o->all && o->graph)
        return usage_error(cmd, "--graph and --all exclude each other%s", NULL);
    if (o->all) {
        *first = 0;
        *end = nnav_graph_count(m);
        return 0;
    }
    if ((rc = pick_graph(m, o, cmd, &g)) != 0)
        return rc;
    *first = g;
    *end = g + 1;
    return 0;
}
