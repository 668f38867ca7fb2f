/* cli.c - the scriptable face: info, tree, nodes, node, tensors, find,
 * shapes, cost, check, export.
 * Human tables by default, the same facts as YAML with --yaml. Every string
 * from the file goes through nnav_text_escape (tables) or nnav_yw_span (YAML). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "declutter.h"
#include "dims.h"
#include "dtype.h"
#include "nnav.h"
#include "place.h"
#include "shape.h"
#include "scope.h"
#include "summary.h"
#include "tfacts.h"
#include "yamlout.h"

enum { EXIT_USAGE = 1, EXIT_BADINPUT = 2 };

/* The exit status for an error of the core: a usage error is 1, anything
 * the file did (or that kept it from being read) is 2. */
static int exit_status(const nnav_error *e)
{
    return e->kind == NNAV_ERR_USAGE ? EXIT_USAGE : EXIT_BADINPUT;
}

typedef struct opts {
    int yaml, all, constants;
    long values; /* --values N: first N values and min/max/mean; -1 = not asked */
    const char *name;
    /* export */
    const char *inputs, *outputs, *node, *format, *out, *external;
    long depth, max_values;
    int binary;
    const char *graph, *op, *sort;
    int list_nodes, shapes; /* cost --nodes, nodes --shapes */
    int declutter;          /* --declutter: nodes, summary, export --format yaml */
    nnav_bind bind[64];     /* --dim NAME=N, names pointing into argv */
    size_t n_bind;
    const char *model;
    const char *arg; /* NAME or PATTERN */
} opts;

/* ---- small printing helpers ---- */

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* Columns a UTF-8 string (as escaped for a table) takes on a terminal: 0 for
 * a combining mark, 2 for an East Asian wide or fullwidth character or an
 * emoji, 1 otherwise. The ranges are the main blocks, not the whole of
 * Unicode's EastAsianWidth table. */
static int text_cols(const char *s)
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
static void put_padded(const char *s, int w)
{
    int pad = w - text_cols(s);
    printf("%s%*s", s, pad > 1 ? pad : 1, "");
}

/* The plural ending for a count: "1 node", "2 nodes". */
static const char *pl(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* Exact bytes with thousands separators: scripts and eyes both read it. */
static void print_bytes(uint64_t b, char *buf, size_t n)
{
    nnav_text_commas(b, buf, n);
}

static void human(uint64_t b, char *buf, size_t n)
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

static int fail_model(const char *path, const nnav_error *e)
{
    char msg[2048];
    nnav_error_format(e, path, msg, sizeof msg);
    fprintf(stderr, "nnav: %s\n", msg);
    return exit_status(e);
}

static int usage_error(const char *cmd, const char *fmt, const char *arg)
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
static int not_found(const char *cmd, const nnav_model *m, const char *what, const char *name,
                     const char *hint)
{
    char a[512], p[1024];
    nnav_text_escape_cstr(name, a, sizeof a);
    nnav_text_escape_cstr(nnav_model_facts_get(m)->path, p, sizeof p);
    fprintf(stderr, "nnav %s: %s: no %s named '%s'; %s\n", cmd, p, what, a, hint);
    return EXIT_BADINPUT;
}

/* A truncated map means what was printed may be stale: say so, status 2. */
static int finish(const nnav_model *m, int rc)
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

static const char *domain_name(nnav_span d, char *buf, size_t n)
{
    if (d.n == 0)
        return "ai.onnx";
    return esc(d, buf, n);
}

/* "Conv" or "com.microsoft:FusedConv": op qualified when not the default domain. */
static const char *op_text(nnav_span op_type, nnav_span domain, char *buf, size_t n)
{
    char op[512], dom[512];
    esc(op_type, op, sizeof op);
    if (domain.n == 0 || nnav_span_eqs(domain, "ai.onnx"))
        snprintf(buf, n, "%s", op);
    else
        snprintf(buf, n, "%s:%s", esc(domain, dom, sizeof dom), op);
    return buf;
}

static const char *op_name(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    return op_text(nnav_node_get(m, id)->op, nnav_node_domain(m, id), buf, n);
}

static const char *node_label(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    const nnav_node *nd = nnav_node_get(m, id);
    if (nd->name.n)
        return esc(nd->name, buf, n);
    snprintf(buf, n, "#%u", nnav_node_index(m, id));
    return buf;
}

/* ---- types, shapes and cost (shared by shapes, cost, check, node, nodes, info) ---- */

/* The typed view, inferred on demand with the --dim bindings. */
static nnav_shapes *shapes_of(const nnav_model *m, const opts *o)
{
    nnav_shapes_opts so = {o->bind, o->n_bind};
    nnav_shapes *s = nnav_shapes_infer(m, &so);
    if (!s)
        fprintf(stderr, "nnav: out of memory while inferring types and shapes\n");
    return s;
}

static const char *src_word(uint8_t src)
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
static void cost_text(const nnav_cost *c, const char *why, char *buf, size_t n)
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
static void yaml_count(nnav_yw *w, double v)
{
    if (v >= 0 && v < 1.8e19 && v == (double)(uint64_t)v)
        nnav_yw_uint(w, (uint64_t)v);
    else
        nnav_yw_double(w, v);
}

static void yaml_cost_keys(nnav_yw *w, const nnav_cost *c)
{
    nnav_yw_key(w, "macs"), yaml_count(w, c->macs);
    nnav_yw_key(w, "flops"), yaml_count(w, c->flops);
    nnav_yw_key(w, "params"), nnav_yw_uint(w, c->params);
    nnav_yw_key(w, "output_bytes"), yaml_count(w, c->out_bytes);
}

/* How many of a graph's nodes have partial costs: their shapes are not all known. */
static uint64_t partial_nodes(const nnav_shapes *s, const nnav_graph *gr)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < gr->node_count; i++)
        n += !nnav_shapes_node_cost(s, gr->node_first + i)->known;
    return n;
}

/* The type a value has as best known, "?" when nothing is. */
static const char *value_type(const nnav_shapes *s, uint32_t v, char *buf, size_t n)
{
    nnav_shapes_value_format(s, v, buf, n);
    if (!buf[0])
        snprintf(buf, n, "?");
    return buf;
}

/* ---- model-wide facts (shared by info's two outputs) ---- */

typedef struct op_count {
    nnav_span op, domain; /* of the first node of this op */
    uint64_t count;
    double macs, flops;    /* with costs: sums over the op's nodes */
    uint64_t params;
} op_count;

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
static op_count *op_histogram(const nnav_model *m, uint32_t first, uint32_t nn,
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

typedef struct totals {
    uint32_t subgraphs, init_main, sparse_main, inputs_main, outputs_main;
    uint32_t init_all, sparse_all;
    /* weights: initializers' and sparse initializers' stored bytes and
     * elements (every element but strings'), in the main graph and
     * in every graph (bodies, functions, training graphs) */
    uint64_t nodes_main, nodes_all, init_bytes, elems, init_bytes_main, elems_main, const_bytes;
    uint32_t undefined, warnings;
    uint32_t bad_dims, data_warnings; /* tensors whose dims are malformed; with other warnings */
} totals;

static void compute_totals(const nnav_model *m, totals *t)
{
    memset(t, 0, sizeof *t);
    const nnav_graph *g0 = nnav_graph_get(m, 0);
    t->nodes_main = g0->node_count;
    t->nodes_all = nnav_node_count(m);
    t->init_main = g0->init_count;
    t->sparse_main = g0->sparse_count;
    t->sparse_all = nnav_sparse_count(m);
    t->inputs_main = g0->input_count;
    t->outputs_main = g0->output_count;
    for (uint32_t g = 0; g < nnav_graph_count(m); g++)
        if (nnav_graph_get(m, g)->kind == NNAV_GRAPH_BODY)
            t->subgraphs++;
    for (uint32_t i = 0; i < nnav_tensor_count(m); i++) {
        const nnav_tensor *tt = nnav_tensor_get(m, i);
        if (tt->warn)
            t->warnings++;
        if (tt->warn & NNAV_TW_BAD_DIMS)
            t->bad_dims++;
        if (tt->warn & ~(uint32_t)NNAV_TW_BAD_DIMS)
            t->data_warnings++;
        uint64_t b = nnav_tensor_present_bytes(m, i); /* what is stored, not what dims say */
        if (b == UINT64_MAX)
            b = 0;
        if (tt->owner == NNAV_TOWN_INITIALIZER || tt->owner == NNAV_TOWN_SPARSE_VALUES) {
            t->init_all += tt->owner == NNAV_TOWN_INITIALIZER;
            t->init_bytes += b;
            t->init_bytes_main += tt->graph == 0 ? b : 0;
            if (tt->nelems != UINT64_MAX && tt->dtype != NNAV_DT_STRING) { /* text is no parameter */
                uint64_t ne = tt->nelems, nm = tt->graph == 0 ? ne : 0; /* dims' product: saturate */
                t->elems = ne > UINT64_MAX - t->elems ? UINT64_MAX : t->elems + ne;
                t->elems_main = nm > UINT64_MAX - t->elems_main ? UINT64_MAX : t->elems_main + nm;
            }
        } else if (tt->owner == NNAV_TOWN_ATTRIBUTE) {
            t->const_bytes += b;
        }
    }
    for (uint32_t v = 0; v < nnav_value_count(m); v++)
        if (nnav_value_get(m, v)->kind == NNAV_VAL_UNDEFINED)
            t->undefined++;
}

/* Sparse initializers of graphs [first, end) whose indices are wrong
 * (negative, out of range, out of order, repeated, miscounted): a line each
 * (info's "warning" rows, or check's "PATH  NAME: why"), or a
 * sparse_warnings list in YAML. Reads the indices: only info and check ask.
 * Returns how many. */
static uint32_t sparse_warnings(const nnav_model *m, uint32_t first, uint32_t end, nnav_yw *w,
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

static const char *graph_kind_name(uint8_t k)
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

/* ---- info ---- */

/* TensorFlow: meta graphs, signatures (a model's inputs and outputs), and
 * warnings found at open. Nothing for ONNX but an empty warnings list. */
static void yaml_tf_info(nnav_yw *w, const nnav_model *m)
{
    char t[512];
    if (nnav_metagraph_count(m)) {
        nnav_yw_key(w, "meta_graphs");
        nnav_yw_seq(w);
        for (uint32_t i = 0; i < nnav_metagraph_count(m); i++) {
            const nnav_metagraph *mg = nnav_metagraph_get(m, i);
            nnav_yw_map(w);
            nnav_graph_path(m, mg->graph, t, sizeof t);
            nnav_yw_key(w, "graph"), nnav_yw_cstr(w, t);
            nnav_yw_key(w, "tags");
            nnav_yw_seq_flow(w);
            for (uint32_t k = 0; k < mg->tag_count; k++)
                nnav_yw_span(w, nnav_tag_get(m, mg->tag_first + k));
            nnav_yw_seq_end(w);
            nnav_yw_key(w, "tensorflow_version"), nnav_yw_span(w, mg->tf_version);
            nnav_yw_key(w, "functions"), nnav_yw_uint(w, mg->function_count);
            nnav_yw_key(w, "signature_count"), nnav_yw_uint(w, mg->sig_count);
            nnav_yw_key(w, "collections"), nnav_yw_uint(w, mg->collection_count);
            nnav_yw_key(w, "assets"), nnav_yw_uint(w, mg->asset_count);
            nnav_yw_key(w, "stripped_ops"), nnav_yw_uint(w, mg->op_count);
            nnav_yw_key(w, "saver"), nnav_yw_bool(w, mg->has_saver);
            nnav_yw_key(w, "object_graph_bytes"), nnav_yw_uint(w, mg->object_graph_bytes);
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
        nnav_yw_key(w, "signatures");
        nnav_yw_seq(w);
        for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
            const nnav_signature *sg = nnav_signature_get(m, i);
            nnav_yw_map(w);
            nnav_yw_key(w, "key"), nnav_yw_span(w, sg->key);
            nnav_yw_key(w, "method"), nnav_yw_span(w, sg->method);
            nnav_graph_path(m, nnav_metagraph_get(m, sg->metagraph)->graph, t, sizeof t);
            nnav_yw_key(w, "graph"), nnav_yw_cstr(w, t);
            for (int side = 0; side < 2; side++) {
                uint32_t f = side ? sg->out_first : sg->in_first;
                uint32_t n = side ? sg->out_count : sg->in_count;
                nnav_yw_key(w, side ? "outputs" : "inputs");
                nnav_yw_seq(w);
                for (uint32_t k = f; k < f + n; k++) {
                    const nnav_sig_tensor *st = nnav_sig_tensor_get(m, k);
                    nnav_yw_map_flow(w);
                    nnav_yw_key(w, "key"), nnav_yw_span(w, st->key);
                    nnav_yw_key(w, "name"), nnav_yw_span(w, st->name);
                    nnav_sig_tensor_format(m, k, t, sizeof t);
                    nnav_yw_key(w, "type"), nnav_yw_cstr(w, t);
                    nnav_yw_map_end(w);
                }
                nnav_yw_seq_end(w);
            }
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
    }
    nnav_yw_key(w, "warnings");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < nnav_warning_count(m); i++)
        nnav_yw_cstr(w, nnav_warning_get(m, i));
    nnav_yw_seq_end(w);
}

static void print_tf_info(const nnav_model *m, FILE *out)
{
    char a[1100], b[1100], t[512];
    for (uint32_t i = 0; i < nnav_metagraph_count(m) && nnav_metagraph_count(m) > 1; i++) {
        const nnav_metagraph *mg = nnav_metagraph_get(m, i);
        nnav_graph_path(m, mg->graph, t, sizeof t);
        fprintf(out, "%-14s %s  tags", i ? "" : "meta_graphs", t);
        for (uint32_t k = 0; k < mg->tag_count; k++)
            fprintf(out, "%s %s", k ? "," : "", esc(nnav_tag_get(m, mg->tag_first + k), a, sizeof a));
        fprintf(out, ", %u function%s, %u signature%s\n", mg->function_count, pl(mg->function_count),
               mg->sig_count, pl(mg->sig_count));
    }
    if (nnav_metagraph_count(m))
        fprintf(out, "%-14s %u\n", "signatures", nnav_signature_count(m));
    for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
        const nnav_signature *sg = nnav_signature_get(m, i);
        fprintf(out, "  %s", esc(sg->key, a, sizeof a));
        if (sg->method.n)
            fprintf(out, " (%s)", esc(sg->method, a, sizeof a));
        if (nnav_metagraph_count(m) > 1) {
            nnav_graph_path(m, nnav_metagraph_get(m, sg->metagraph)->graph, t, sizeof t);
            fprintf(out, " in %s", t);
        }
        fprintf(out, "\n");
        for (int side = 0; side < 2; side++) {
            uint32_t f = side ? sg->out_first : sg->in_first;
            uint32_t n = side ? sg->out_count : sg->in_count;
            for (uint32_t k = f; k < f + n; k++) {
                const nnav_sig_tensor *st = nnav_sig_tensor_get(m, k);
                nnav_sig_tensor_format(m, k, t, sizeof t);
                fprintf(out, "    %-6s %-20s %-28s %s\n", side ? "output" : "input",
                       esc(st->key, a, sizeof a), esc(st->name, b, sizeof b), t);
            }
        }
    }
    for (uint32_t i = 0; i < nnav_warning_count(m); i++)
        fprintf(out, "%-14s %s\n", "warning", nnav_warning_get(m, i));
}

/* info's facts: YAML on stdout with --yaml, else text into out. */
static int info_write(const nnav_model *m, const opts *o, FILE *out)
{
    const nnav_model_facts *f = nnav_model_facts_get(m);
    totals t;
    size_t nops = 0;
    nnav_tensors_measure(m); /* external data as stored, not as dims say */
    compute_totals(m, &t);
    op_count *ops = op_histogram(m, 0, nnav_node_count(m), NULL, &nops);
    char a[4096], b[1024];
    /* The whole model's cost: the main graph with what its bodies and
     * function calls run (shape.h's whole-cost rules). */
    int eager = nnav_node_count(m) <= NNAV_SHAPES_EAGER_MAX;
    nnav_shapes *s = eager ? shapes_of(m, o) : NULL;
    nnav_cost cost = {0};
    uint64_t partial = 0;
    char assumed[1024] = "";
    nnav_whole whole = {0};
    int have_cost = s != NULL;
    if (s) {
        nnav_shapes_whole_cost(s, 0, &cost, &whole);
        if (o->yaml)
            nnav_shapes_assumed(s, assumed, sizeof assumed);
        else
            nnav_shapes_assumed_short(s, assumed, sizeof assumed);
        partial = partial_nodes(s, nnav_graph_get(m, 0));
        nnav_shapes_free(s);
    }
    if (o->yaml) {
        nnav_yw w;
        if (nnav_yw_open(&w, stdout) < 0) {
            free(ops);
            return EXIT_BADINPUT;
        }
        nnav_yw_map(&w);
        nnav_yw_key(&w, "file"), nnav_yw_cstr(&w, f->path);
        nnav_yw_key(&w, "file_size"), nnav_yw_uint(&w, f->file_size);
        nnav_yw_key(&w, "format"), nnav_yw_cstr(&w, nnav_format_name(f->format));
        nnav_yw_key(&w, "format_reason"), nnav_yw_cstr(&w, f->format_reason);
        nnav_yw_key(&w, "ir_version");
        f->ir_version >= 0 ? nnav_yw_int(&w, f->ir_version) : nnav_yw_null(&w);
        nnav_yw_key(&w, "producer_name"), nnav_yw_span(&w, f->producer_name);
        nnav_yw_key(&w, "producer_version"), nnav_yw_span(&w, f->producer_version);
        nnav_yw_key(&w, "domain"), nnav_yw_span(&w, f->domain);
        nnav_yw_key(&w, "model_version");
        f->model_version >= 0 ? nnav_yw_int(&w, f->model_version) : nnav_yw_null(&w);
        nnav_yw_key(&w, "doc_string"), nnav_yw_span(&w, f->doc_string);
        nnav_yw_key(&w, "opset_import");
        nnav_yw_seq(&w);
        for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
            const nnav_opset *op = nnav_opset_get(m, i);
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "domain"), nnav_yw_span(&w, op->domain);
            nnav_yw_key(&w, "version"), nnav_yw_int(&w, op->version);
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "metadata_props");
        nnav_yw_seq(&w);
        for (uint32_t i = 0; i < nnav_metadata_count(m); i++) {
            const nnav_kv *kv = nnav_metadata_get(m, i);
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "key"), nnav_yw_span(&w, kv->key);
            nnav_yw_key(&w, "value"), nnav_yw_span(&w, kv->value);
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "graph_name"), nnav_yw_span(&w, f->graph_name);
        nnav_yw_key(&w, "counts");
        nnav_yw_map(&w);
        nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, t.nodes_main);
        nnav_yw_key(&w, "nodes_all_graphs"), nnav_yw_uint(&w, t.nodes_all);
        nnav_yw_key(&w, "graphs"), nnav_yw_uint(&w, nnav_graph_count(m));
        nnav_yw_key(&w, "subgraphs"), nnav_yw_uint(&w, t.subgraphs);
        nnav_yw_key(&w, "functions"), nnav_yw_uint(&w, nnav_function_count(m));
        nnav_yw_key(&w, "training_info"), nnav_yw_uint(&w, nnav_training_count(m));
        nnav_yw_key(&w, "initializers_main_graph"), nnav_yw_uint(&w, t.init_main);
        nnav_yw_key(&w, "initializers_all_graphs"), nnav_yw_uint(&w, t.init_all);
        nnav_yw_key(&w, "sparse_initializers_main_graph"), nnav_yw_uint(&w, t.sparse_main);
        nnav_yw_key(&w, "sparse_initializers_all_graphs"), nnav_yw_uint(&w, t.sparse_all);
        nnav_yw_key(&w, "inputs"), nnav_yw_uint(&w, t.inputs_main);
        nnav_yw_key(&w, "outputs"), nnav_yw_uint(&w, t.outputs_main);
        nnav_yw_key(&w, "undefined_values"), nnav_yw_uint(&w, t.undefined);
        nnav_yw_key(&w, "tensor_warnings"), nnav_yw_uint(&w, t.warnings);
        nnav_yw_map_end(&w);
        nnav_yw_key(&w, "initializer_bytes_main_graph"), nnav_yw_uint(&w, t.init_bytes_main);
        nnav_yw_key(&w, "initializer_bytes_all_graphs"), nnav_yw_uint(&w, t.init_bytes);
        nnav_yw_key(&w, "initializer_elements_main_graph"), nnav_yw_uint(&w, t.elems_main);
        nnav_yw_key(&w, "initializer_elements_all_graphs"), nnav_yw_uint(&w, t.elems);
        uint64_t pm, pa, ph;
        nnav_params_by_graph(m, &pm, &pa, &ph);
        nnav_yw_key(&w, "parameters_main_graph"), nnav_yw_uint(&w, pm);
        nnav_yw_key(&w, "parameters_all_graphs"), nnav_yw_uint(&w, pa);
        nnav_yw_key(&w, "parameters_in_constants"), nnav_yw_uint(&w, ph);
        uint64_t mg_names, mg_bytes;
        nnav_scopes_merged(m, 0, &mg_names, &mg_bytes);
        nnav_yw_key(&w, "merged_parameter_names"), nnav_yw_uint(&w, mg_names);
        nnav_yw_key(&w, "merged_bytes_saved"), nnav_yw_uint(&w, mg_bytes);
        nnav_yw_key(&w, "constant_bytes"), nnav_yw_uint(&w, t.const_bytes);
        if (have_cost) {
            nnav_yw_key(&w, "compute");
            nnav_yw_map_flow(&w);
            yaml_cost_keys(&w, &cost);
            nnav_yw_key(&w, "partial_nodes"), nnav_yw_uint(&w, partial);
            nnav_yw_key(&w, "per_iteration"), nnav_yw_bool(&w, whole.per_iter);
            nnav_yw_key(&w, "overflow"), nnav_yw_bool(&w, whole.overflow);
            nnav_yw_key(&w, "assumed");
            assumed[0] ? nnav_yw_cstr(&w, assumed) : nnav_yw_null(&w);
            nnav_yw_map_end(&w);
        }
        nnav_yw_key(&w, "op_types");
        nnav_yw_seq(&w);
        for (size_t i = 0; i < nops; i++) {
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, ops[i].op);
            nnav_yw_key(&w, "domain"), nnav_yw_span(&w, ops[i].domain);
            nnav_yw_key(&w, "count"), nnav_yw_uint(&w, ops[i].count);
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "unknown_fields");
        nnav_yw_seq(&w);
        for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
            const nnav_unknown *u = nnav_unknown_get(m, i);
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "message"), nnav_yw_cstr(&w, u->where);
            nnav_yw_key(&w, "number"), nnav_yw_uint(&w, u->number);
            nnav_yw_key(&w, "wire_type"), nnav_yw_uint(&w, u->wire_type);
            nnav_yw_key(&w, "offset"), nnav_yw_uint(&w, u->offset);
            nnav_yw_key(&w, "length"), nnav_yw_uint(&w, u->span.n);
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        sparse_warnings(m, 0, nnav_graph_count(m), &w, 0, stdout);
        yaml_tf_info(&w, m);
        nnav_yw_map_end(&w);
        free(ops);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    nnav_text_escape_cstr(f->path, a, sizeof a);
    print_bytes(f->file_size, b, sizeof b);
    fprintf(out, "%-14s %s (%s bytes)\n", "file", a, b);
    fprintf(out, "%-14s %s (%s)\n", "format", nnav_format_name(f->format), f->format_reason);
    int onnx = f->format == NNAV_FMT_ONNX; /* IR and opsets are ONNX's notions */
    if (f->ir_version >= 0)
        fprintf(out, "%-14s %lld\n", "ir_version", (long long)f->ir_version);
    else if (onnx)
        fprintf(out, "%-14s (absent)\n", "ir_version");
    fprintf(out, "%-14s %s", "producer", esc(f->producer_name, a, sizeof a));
    fprintf(out, " %s\n", esc(f->producer_version, a, sizeof a));
    if (f->domain.n)
        fprintf(out, "%-14s %s\n", "domain", esc(f->domain, a, sizeof a));
    if (f->model_version >= 0)
        fprintf(out, "%-14s %lld\n", "model_version", (long long)f->model_version);
    if (f->doc_string.n)
        fprintf(out, "%-14s %s\n", "doc_string", esc(f->doc_string, a, 200));
    if (onnx || nnav_opset_count(m)) {
        fprintf(out, "%-14s", "opset_import");
        for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
            const nnav_opset *op = nnav_opset_get(m, i);
            fprintf(out, "%s %s %lld", i ? "," : "", domain_name(op->domain, a, sizeof a),
                   (long long)op->version);
        }
        fprintf(out, "\n");
    }
    for (uint32_t i = 0; i < nnav_metadata_count(m); i++) {
        const nnav_kv *kv = nnav_metadata_get(m, i);
        fprintf(out, "%-14s %s = ", i ? "" : "metadata", esc(kv->key, a, sizeof a));
        fprintf(out, "%s\n", esc(kv->value, a, 300));
    }
    fprintf(out, "%-14s %s\n", "graph", f->graph_name.n ? esc(f->graph_name, a, sizeof a) : "(unnamed)");
    fprintf(out, "%-14s %llu in the main graph, %llu in all graphs\n", "nodes",
           (unsigned long long)t.nodes_main, (unsigned long long)t.nodes_all);
    fprintf(out, "%-14s %u\n", "subgraphs", t.subgraphs);
    fprintf(out, "%-14s %u\n", "functions", nnav_function_count(m));
    if (nnav_training_count(m))
        fprintf(out, "%-14s %u\n", "training_info", nnav_training_count(m));
    /* Main graph and all graphs side by side, always: a figure never leaves
     * the reader to guess which it counts. */
    fprintf(out, "%-14s %u in the main graph", "initializers", t.init_main);
    if (t.sparse_main)
        fprintf(out, " (+%u sparse)", t.sparse_main);
    fprintf(out, ", %u in all graphs", t.init_all);
    if (t.sparse_all)
        fprintf(out, " (+%u sparse)", t.sparse_all);
    fprintf(out, "\n");
    fprintf(out, "%-14s %u\n", "inputs", t.inputs_main);
    fprintf(out, "%-14s %u\n", "outputs", t.outputs_main);
    print_bytes(t.init_bytes_main, a, sizeof a);
    human(t.init_bytes_main, b, sizeof b);
    fprintf(out, "%-14s %s bytes (%s) in the main graph", "weights", a, b);
    print_bytes(t.init_bytes, a, sizeof a);
    human(t.init_bytes, b, sizeof b);
    fprintf(out, ", %s bytes (%s) in all graphs\n", a, b);
    /* Parameters as the framework counts them (scope.h's rule: weights, not
     * shapes or indices, Constant-held ones too), then every initializer
     * element, which is what the file holds. */
    uint64_t pm, pa, ph;
    nnav_params_by_graph(m, &pm, &pa, &ph);
    print_bytes(pm, a, sizeof a);
    fprintf(out, "%-14s %s in the main graph", "parameters", a);
    print_bytes(pa, a, sizeof a);
    fprintf(out, ", %s in all graphs", a);
    if (ph) {
        print_bytes(ph, a, sizeof a);
        fprintf(out, " (%s held by Constant nodes)", a);
    }
    fprintf(out, "\n");
    print_bytes(t.elems_main, a, sizeof a);
    fprintf(out, "%-14s %s initializer elements in the main graph", "elements", a);
    print_bytes(t.elems, a, sizeof a);
    fprintf(out, ", %s in all graphs\n", a);
    uint64_t mg_names, mg_bytes; /* equal initializers merged, their names kept by Identity nodes */
    nnav_scopes_merged(m, 0, &mg_names, &mg_bytes);
    if (mg_names) {
        print_bytes(mg_bytes, a, sizeof a);
        human(mg_bytes, b, sizeof b);
        fprintf(out, "%-14s %llu parameter name%s kept as an Identity of an equal initializer: "
                "the merge saves %s bytes (%s)\n", "merged", (unsigned long long)mg_names,
                mg_names == 1 ? "" : "s", a, b);
    }
    if (have_cost) {
        char mac[32], par[32];
        nnav_text_si(cost.macs, mac, sizeof mac);
        nnav_text_si((double)cost.params, par, sizeof par);
        if (whole.overflow)
            snprintf(mac, sizeof mac, "over 9.2 E");
        fprintf(out, "%-14s %s MACs, %s params in the whole model", "compute", mac, par);
        if (whole.per_iter)
            fprintf(out, " (a loop of unknown trip count counted once: per iteration)");
        if (partial)
            fprintf(out, " (partial: %llu %s shapes)", (unsigned long long)partial,
                   partial == 1 ? "node lacks" : "nodes lack");
        else if (!whole.known)
            fprintf(out, " (partial: %s)",
                    whole.cut ? nnav_whole_why(&whole) : "shapes in a body are missing");
        if (assumed[0])
            fprintf(out, "; assumed %s", assumed);
        fprintf(out, "\n");
    } else if (!eager) {
        fprintf(out, "%-14s not computed for over %u nodes, so that info stays instant: "
               "'nnav cost' computes it\n", "compute", NNAV_SHAPES_EAGER_MAX);
    }
    if (t.const_bytes) {
        print_bytes(t.const_bytes, a, sizeof a);
        fprintf(out, "%-14s %s bytes in attribute tensors (Constant nodes)\n", "constants", a);
    }
    if (t.undefined)
        fprintf(out, "%-14s %u value name%s used but never defined\n", "warning", t.undefined,
               pl(t.undefined));
    if (t.data_warnings)
        fprintf(out, "%-14s %u tensor%s whose stored data does not match dims x dtype (see tensors)\n",
               "warning", t.data_warnings, pl(t.data_warnings));
    /* Malformed dims are named for what they are: a negative dimension, an
     * overflowing product. The first few by name, then how many more. */
    for (uint32_t i = 0, shown = 0; i < nnav_tensor_count(m) && t.bad_dims; i++) {
        char why[256];
        if (!(nnav_tensor_get(m, i)->warn & NNAV_TW_BAD_DIMS) ||
            !nnav_tensor_dims_problem(m, i, why, sizeof why))
            continue;
        if (shown++ == 5) {
            fprintf(out, "%-14s and %u more tensor%s with malformed dims (see tensors)\n", "warning",
                   t.bad_dims - 5, pl(t.bad_dims - 5));
            break;
        }
        fprintf(out, "%-14s tensor \"%s\": %s\n", "warning", esc(nnav_tensor_get(m, i)->name, a, 300),
               why);
    }
    sparse_warnings(m, 0, nnav_graph_count(m), NULL, 0, out);
    print_tf_info(m, out);
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        fprintf(out, "%-14s %s field %u (wire type %u, %llu bytes) at offset %llu\n",
               i ? "" : "unknown", u->where, u->number, u->wire_type,
               (unsigned long long)u->span.n, (unsigned long long)u->offset);
    }
    fprintf(out, "%-14s", "ops");
    size_t col = 15;
    for (size_t i = 0; i < nops; i++) {
        char nm[600];
        int k = snprintf(nm, sizeof nm, "%s %llu", op_text(ops[i].op, ops[i].domain, a, sizeof a),
                         (unsigned long long)ops[i].count);
        if (col + (size_t)k + 2 > 100 && col > 15) {
            fprintf(out, ",\n%-14s", "");
            col = 15;
        } else if (i) {
            fprintf(out, ",");
            col++;
        }
        fprintf(out, " %s", nm);
        col += (size_t)k + 1;
    }
    fprintf(out, "\n");
    free(ops);
    return 0;
}

static int cmd_info(const nnav_model *m, const opts *o)
{
    return info_write(m, o, stdout);
}

int nnav_cli_info_text(const nnav_model *m, FILE *out)
{
    opts o;
    memset(&o, 0, sizeof o);
    return info_write(m, &o, out) == 0 && fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

/* ---- tree ---- */

static void owner_text(const nnav_model *m, uint32_t g, char *buf, size_t n)
{
    const nnav_graph *gr = nnav_graph_get(m, g);
    char a[512], b[512], c[512];
    if (gr->kind == NNAV_GRAPH_BODY && gr->owner_node == NNAV_NONE) {
        snprintf(buf, n, "default of function attribute %s",
                 esc(nnav_attr_get(m, gr->owner_attr)->name, c, sizeof c));
    } else if (gr->kind == NNAV_GRAPH_BODY) {
        const nnav_attr *at = nnav_attr_get(m, gr->owner_attr);
        snprintf(buf, n, "%s %s.%s", op_name(m, gr->owner_node, a, sizeof a), node_label(m, gr->owner_node, b, sizeof b),
                 esc(at->name, c, sizeof c));
    } else if (gr->kind == NNAV_GRAPH_FUNCTION) {
        const nnav_function *f = nnav_function_get(m, gr->function);
        snprintf(buf, n, "function %s:%s", domain_name(f->domain, a, sizeof a),
                 esc(f->name, b, sizeof b));
    } else {
        snprintf(buf, n, "%s", graph_kind_name(gr->kind));
    }
}

static int cmd_tree(const nnav_model *m, const opts *o)
{
    uint32_t ng = nnav_graph_count(m);
    /* Depth-first order for display: children follow their parent. Iterative. */
    uint32_t *order = malloc(sizeof *order * (ng + 1));
    uint32_t *stack = malloc(sizeof *stack * (ng + 1));
    if (!order || !stack) {
        free(order);
        free(stack);
        fprintf(stderr, "nnav: out of memory\n");
        return EXIT_BADINPUT;
    }
    uint32_t no = 0;
    for (uint32_t root = 0; root < ng; root++) {
        if (nnav_graph_get(m, root)->parent != NNAV_NONE)
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        while (sp) {
            uint32_t g = stack[--sp];
            order[no++] = g;
            uint32_t nc;
            const uint32_t *ch = nnav_graph_children(m, g, &nc);
            for (uint32_t i = nc; i-- > 0;)
                stack[sp++] = ch[i];
        }
    }
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0)
            return EXIT_BADINPUT;
        nnav_yw_seq(&w);
    }
    char path[4096], own[2048], nm[1024];
    for (uint32_t i = 0; i < no; i++) {
        uint32_t g = order[i];
        const nnav_graph *gr = nnav_graph_get(m, g);
        nnav_graph_path(m, g, path, sizeof path);
        owner_text(m, g, own, sizeof own);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "path"), nnav_yw_cstr(&w, path);
            nnav_yw_key(&w, "kind"), nnav_yw_cstr(&w, graph_kind_name(gr->kind));
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, gr->name);
            nnav_yw_key(&w, "depth"), nnav_yw_uint(&w, gr->depth);
            if (gr->kind == NNAV_GRAPH_BODY) {
                if (gr->owner_node != NNAV_NONE) {
                    const nnav_node *nd = nnav_node_get(m, gr->owner_node);
                    nnav_yw_key(&w, "owner_node"), nnav_yw_span(&w, nd->name);
                    nnav_yw_key(&w, "owner_index"), nnav_yw_uint(&w, nnav_node_index(m, gr->owner_node));
                    nnav_yw_key(&w, "owner_op_type"), nnav_yw_span(&w, nd->op);
                }
                nnav_yw_key(&w, "attribute"), nnav_yw_span(&w, nnav_attr_get(m, gr->owner_attr)->name);
                if (gr->list_index != NNAV_NONE)
                    nnav_yw_key(&w, "list_index"), nnav_yw_uint(&w, gr->list_index);
            } else if (gr->kind == NNAV_GRAPH_FUNCTION) {
                const nnav_function *f = nnav_function_get(m, gr->function);
                nnav_yw_key(&w, "function_domain"), nnav_yw_span(&w, f->domain);
                nnav_yw_key(&w, "function_name"), nnav_yw_span(&w, f->name);
                if (f->overload.n)
                    nnav_yw_key(&w, "overload"), nnav_yw_span(&w, f->overload);
            }
            nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, gr->node_count);
            nnav_yw_key(&w, "nodes_below"), nnav_yw_uint(&w, nnav_graph_total_nodes(m, g));
            nnav_yw_map_end(&w);
            continue;
        }
        unsigned indent = gr->depth * 2 > 40 ? 40 : gr->depth * 2;
        printf("%*s%s  [%s]  %u node%s", indent, "", path, own, gr->node_count,
               pl(gr->node_count));
        uint64_t below = nnav_graph_total_nodes(m, g);
        if (below != gr->node_count)
            printf(" (%llu with bodies)", (unsigned long long)below);
        if (gr->name.n)
            printf("  \"%s\"", esc(gr->name, nm, sizeof nm));
        printf("\n");
    }
    free(order);
    free(stack);
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    return 0;
}

/* ---- graph selection ---- */

static int pick_graph(const nnav_model *m, const opts *o, const char *cmd, uint32_t *g)
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

/* With a decluttered view (d), an input a hidden node folds to a constant
 * shows that value instead of its name: "[1,197,16,64] (folded)". */
static void refs_text(const nnav_model *m, const nnav_declutter *d, uint32_t first,
                      uint32_t count, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count && o + 8 < n; i++) {
        char nm[512];
        const nnav_ref r = nnav_ref_get(m, first + i);
        esc(r.name, nm, sizeof nm);
        if (d && r.value != NNAV_NONE && !r.control)
            nnav_declutter_input_text(d, r.value, nm, sizeof nm);
        if (!nm[0])
            esc(r.name, nm, sizeof nm);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", r.name.n ? nm : "\"\"");
    }
}

/* ---- nodes ---- */


static int cmd_nodes(const nnav_model *m, const opts *o)
{
    uint32_t g;
    int rc = pick_graph(m, o, "nodes", &g);
    if (rc)
        return rc;
    const nnav_graph *gr = nnav_graph_get(m, g);
    nnav_shapes *s = NULL;
    if ((o->shapes || o->declutter) && !(s = shapes_of(m, o)))
        return EXIT_BADINPUT;
    /* --declutter: the view without constants, renames and folded shape
     * arithmetic (declutter.h); indices stay the file's. */
    nnav_declutter *d = NULL;
    if (o->declutter && !(d = nnav_declutter_build(m, g, s))) {
        fprintf(stderr, "nnav: out of memory while decluttering\n");
        nnav_shapes_free(s);
        return EXIT_BADINPUT;
    }
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0) {
            if (s)
                nnav_shapes_free(s);
            nnav_declutter_free(d);
            return EXIT_BADINPUT;
        }
        nnav_yw_seq(&w);
    }
    char opb[1100], nm[1100], ins[8192], outs[8192], ty[1100];
    /* Text: the op and name columns are as wide as the widest shown (at
     * least 20 and 28, at most 40 and 96 display columns: a longer one
     * pushes its own row only, so one hostile name cannot pad every row). */
    int wop = 20, wname = 28;
    for (uint32_t i = 0; !o->yaml && i < gr->node_count; i++) {
        uint32_t id = gr->node_first + i;
        const nnav_node *nd = nnav_node_get(m, id);
        op_name(m, id, opb, sizeof opb);
        if ((o->op && strcmp(opb, o->op) != 0 && !nnav_span_eqs(nd->op, o->op)) ||
            (d && nnav_declutter_hidden(d, id)))
            continue;
        int c = text_cols(opb);
        wop = c > wop && c <= 40 ? c : wop;
        c = nd->name.n ? text_cols(esc(nd->name, nm, sizeof nm)) : 1;
        wname = c > wname && c <= 96 ? c : wname;
    }
    for (uint32_t i = 0; i < gr->node_count; i++) {
        uint32_t id = gr->node_first + i;
        const nnav_node *nd = nnav_node_get(m, id);
        op_name(m, id, opb, sizeof opb);
        if (o->op) {
            /* --op matches the op type, or the domain-qualified form. */
            if (strcmp(opb, o->op) != 0 && !nnav_span_eqs(nd->op, o->op))
                continue;
        }
        if (d && nnav_declutter_hidden(d, id))
            continue;
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "index"), nnav_yw_uint(&w, i);
            nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nd->op);
            nnav_yw_key(&w, "domain"), nnav_yw_span(&w, nnav_node_domain(m, id));
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, nd->name);
            nnav_yw_key(&w, "input");
            nnav_yw_seq_flow(&w);
            for (uint32_t k = 0; k < nd->in_count; k++)
                nnav_yw_span(&w, nnav_ref_get(m, nd->in_first + k).name);
            nnav_yw_seq_end(&w);
            if (d)
                nnav_declutter_yaml_folded(&w, m, d, s, nd);
            nnav_yw_key(&w, "output");
            nnav_yw_seq_flow(&w);
            for (uint32_t k = 0; k < nd->out_count; k++)
                nnav_yw_span(&w, nnav_ref_get(m, nd->out_first + k).name);
            nnav_yw_seq_end(&w);
            if (o->shapes) {
                nnav_yw_key(&w, "output_types");
                nnav_yw_seq_flow(&w);
                for (uint32_t k = 0; k < nd->out_count; k++) {
                    const nnav_ref r = nnav_ref_get(m, nd->out_first + k);
                    if (r.value == NNAV_NONE)
                        nnav_yw_null(&w);
                    else
                        nnav_yw_cstr(&w, value_type(s, r.value, ty, sizeof ty));
                }
                nnav_yw_seq_end(&w);
            }
            nnav_yw_map_end(&w);
            continue;
        }
        refs_text(m, d, nd->in_first, nd->in_count, ins, sizeof ins);
        refs_text(m, NULL, nd->out_first, nd->out_count, outs, sizeof outs);
        printf("%6u  ", i);
        put_padded(opb, wop + 1);
        put_padded(nd->name.n ? esc(nd->name, nm, sizeof nm) : "-", wname + 1);
        printf("%s -> %s", ins, outs);
        /* --shapes: the outputs' types after a colon, in output order. */
        for (uint32_t k = 0; o->shapes && k < nd->out_count; k++) {
            const nnav_ref r = nnav_ref_get(m, nd->out_first + k);
            if (r.control)
                continue;
            printf("%s%s", k ? ", " : "  : ",
                   r.value == NNAV_NONE ? "-" : value_type(s, r.value, ty, sizeof ty));
        }
        printf("\n");
    }
    nnav_declutter_free(d);
    if (s)
        nnav_shapes_free(s);
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    return 0;
}

/* ---- node ---- */

/* Where a value comes from, in words. */
static void source_text(const nnav_model *m, uint32_t v, uint32_t from_graph, char *buf, size_t n)
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

static const char *kind_word(uint8_t k)
{
    switch (k) {
    case NNAV_VAL_INPUT: return "input";
    case NNAV_VAL_INITIALIZER: return "initializer";
    case NNAV_VAL_SPARSE: return "sparse_initializer";
    case NNAV_VAL_NODE: return "node";
    }
    return "undefined";
}

static void yaml_attr_value(nnav_yw *w, const nnav_model *m, uint32_t a)
{
    const nnav_attr *at = nnav_attr_get(m, a);
    nnav_error err;
    char p[2048];
    switch (at->type) {
    case NNAV_ATTR_TF_BOOL: {
        int64_t v = 0;
        nnav_attr_int(m, a, &v, &err);
        nnav_yw_bool(w, v != 0);
        return;
    }
    case NNAV_ATTR_TF_TYPE: {
        int64_t v = 0;
        nnav_attr_int(m, a, &v, &err);
        nnav_yw_cstr(w, nnav_dtype_name((int32_t)v));
        return;
    }
    case NNAV_ATTR_TF_BOOLS: case NNAV_ATTR_TF_TYPES: {
        size_t total = 0;
        nnav_attr_ints(m, a, NULL, 0, &total, &err);
        int64_t *v = calloc(total + 1, sizeof *v);
        nnav_yw_seq_flow(w);
        size_t cap = total;
        if (v && nnav_attr_ints(m, a, v, cap, &total, &err) == 0)
            for (size_t i = 0; i < total && i < cap; i++)
                at->type == NNAV_ATTR_TF_BOOLS ? nnav_yw_bool(w, v[i] != 0)
                                               : nnav_yw_cstr(w, nnav_dtype_name((int32_t)v[i]));
        nnav_yw_seq_end(w);
        free(v);
        return;
    }
    case NNAV_ATTR_FLOAT: {
        double v = 0;
        nnav_attr_float(m, a, &v, &err);
        nnav_yw_double(w, v);
        return;
    }
    case NNAV_ATTR_INT: {
        int64_t v = 0;
        nnav_attr_int(m, a, &v, &err);
        nnav_yw_int(w, v);
        return;
    }
    case NNAV_ATTR_STRING: {
        nnav_span s = {0};
        nnav_attr_string(m, a, &s, &err);
        nnav_yw_span(w, s);
        return;
    }
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_STRINGS: {
        size_t total = 0;
        /* Count first, then fetch all: lists are small next to payloads. */
        if (at->type == NNAV_ATTR_INTS)
            nnav_attr_ints(m, a, NULL, 0, &total, &err);
        else if (at->type == NNAV_ATTR_FLOATS)
            nnav_attr_floats(m, a, NULL, 0, &total, &err);
        else
            nnav_attr_strings(m, a, NULL, 0, &total, &err);
        nnav_yw_seq_flow(w);
        if (at->type == NNAV_ATTR_INTS) {
            int64_t *v = calloc(total + 1, sizeof *v);
            size_t cap = total;
            if (v && nnav_attr_ints(m, a, v, cap, &total, &err) == 0)
                for (size_t i = 0; i < total && i < cap; i++)
                    nnav_yw_int(w, v[i]);
            free(v);
        } else if (at->type == NNAV_ATTR_FLOATS) {
            double *v = calloc(total + 1, sizeof *v);
            size_t cap = total;
            if (v && nnav_attr_floats(m, a, v, cap, &total, &err) == 0)
                for (size_t i = 0; i < total && i < cap; i++)
                    nnav_yw_double(w, v[i]);
            free(v);
        } else {
            nnav_span *v = calloc(total + 1, sizeof *v);
            size_t cap = total;
            if (v && nnav_attr_strings(m, a, v, cap, &total, &err) == 0)
                for (size_t i = 0; i < total && i < cap; i++)
                    nnav_yw_span(w, v[i]);
            free(v);
        }
        nnav_yw_seq_end(w);
        return;
    }
    case NNAV_ATTR_GRAPH: case NNAV_ATTR_GRAPHS:
        nnav_yw_seq_flow(w);
        for (uint32_t i = 0; i < at->graph_count; i++) {
            nnav_graph_path(m, at->graph_first + i, p, sizeof p);
            nnav_yw_cstr(w, p);
        }
        nnav_yw_seq_end(w);
        return;
    case NNAV_ATTR_TENSOR: case NNAV_ATTR_TENSORS:
        /* As the table shows them: type and the first values (16 here). */
        if (at->type == NNAV_ATTR_TENSORS || !at->tensor_count)
            nnav_yw_seq(w);
        for (uint32_t i = 0; i < at->tensor_count; i++)
            nnav_yw_tensor_brief(w, m, at->tensor_first + i, 16);
        if (at->type == NNAV_ATTR_TENSORS || !at->tensor_count)
            nnav_yw_seq_end(w);
        return;
    case NNAV_ATTR_SPARSE_TENSOR: case NNAV_ATTR_SPARSE_TENSORS: {
        size_t total = 0, nd;
        int64_t d[1];
        nnav_span vs, is;
        if (nnav_model_facts_get(m)->format != NNAV_FMT_ONNX) {
            nnav_attr_format(m, a, 16, p, sizeof p);
            nnav_yw_cstr(w, p);
            return;
        }
        nnav_attr_sparse(m, a, 0, d, 0, &nd, &vs, &is, &total, &err);
        if (at->type == NNAV_ATTR_SPARSE_TENSORS || total != 1)
            nnav_yw_seq(w);
        for (size_t i = 0; i < total; i++)
            nnav_yw_attr_sparse(w, m, a, i, 16);
        if (at->type == NNAV_ATTR_SPARSE_TENSORS || total != 1)
            nnav_yw_seq_end(w);
        return;
    }
    case NNAV_ATTR_TYPE_PROTO: case NNAV_ATTR_TYPE_PROTOS: {
        size_t total = 0;
        nnav_attr_types(m, a, NULL, 0, &total, &err);
        nnav_span *ts = calloc(total + 1, sizeof *ts);
        size_t cap = total;
        if (!ts || nnav_attr_types(m, a, ts, cap, &total, &err) < 0)
            total = 0;
        if (at->type == NNAV_ATTR_TYPE_PROTOS)
            nnav_yw_seq_flow(w);
        for (size_t i = 0; i < total && i < cap; i++) {
            nnav_type_format(ts[i], p, sizeof p);
            nnav_yw_cstr(w, p);
            if (at->type == NNAV_ATTR_TYPE_PROTO)
                break;
        }
        if (at->type == NNAV_ATTR_TYPE_PROTOS)
            nnav_yw_seq_end(w);
        else if (!total || !cap)
            nnav_yw_null(w);
        free(ts);
        return;
    }
    default:
        nnav_attr_format(m, a, 16, p, sizeof p);
        nnav_yw_cstr(w, p);
    }
}

static int find_node(const nnav_model *m, const opts *o, uint32_t *out)
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

/* A node's input or output as typed: the source word and the type as best
 * known. Where the file has a type that inference confirms or cannot check,
 * the file's own words for it (which may say the type is malformed); the
 * inferred type where the file has none or disagrees. *file gets the file's
 * type on a disagreement. */
static void typed_cols(const nnav_model *m, const nnav_shapes *s, uint32_t v, char *buf,
                       size_t n, char *file, size_t fn)
{
    char ty[1100], ft[1100];
    const nnav_fact *f = s ? nnav_shapes_fact(s, v) : NULL;
    uint8_t src = f ? f->src : NNAV_SRC_NONE;
    nnav_value_type_format(m, v, ft, sizeof ft);
    file[0] = 0;
    if (ft[0] && (src == NNAV_SRC_FILE || src == NNAV_SRC_AGREE))
        snprintf(ty, sizeof ty, "%s", ft);
    else if (s && f && (f->dtype || f->rank >= 0))
        value_type(s, v, ty, sizeof ty);
    else
        snprintf(ty, sizeof ty, "%s", ft[0] ? ft : "?");
    if (src == NNAV_SRC_DISAGREE)
        snprintf(file, fn, "%s", ft[0] ? ft : "?");
    snprintf(buf, n, "%-9s %-24s", src == NNAV_SRC_DISAGREE ? "DISAGREE" : src_word(src), ty);
}

static int cmd_node(const nnav_model *m, const opts *o)
{
    uint32_t id;
    int rc = find_node(m, o, &id);
    if (rc)
        return rc;
    const nnav_node *nd = nnav_node_get(m, id);
    char a[8192], b[2048], c[2048], path[2048], ft[1100];
    nnav_graph_path(m, nd->graph, path, sizeof path);
    /* Without memory for the typed view, the node is still shown as the file has it. */
    nnav_shapes *s = shapes_of(m, o);
    const nnav_cost *cost = s ? nnav_shapes_node_cost(s, id) : NULL;
    if (o->yaml) {
        nnav_yw w;
        if (nnav_yw_open(&w, stdout) < 0) {
            if (s)
                nnav_shapes_free(s);
            return EXIT_BADINPUT;
        }
        nnav_yw_map(&w);
        nnav_yw_key(&w, "name"), nnav_yw_span(&w, nd->name);
        nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nd->op);
        nnav_yw_key(&w, "domain"), nnav_yw_span(&w, nnav_node_domain(m, id));
        if (nnav_model_facts_get(m)->format != NNAV_FMT_ONNX)
            nnav_yw_key(&w, "device"), nnav_yw_span(&w, nnav_node_device(m, id));
        nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, path);
        nnav_yw_key(&w, "index"), nnav_yw_uint(&w, nnav_node_index(m, id));
        if (nd->function != NNAV_NONE) {
            nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, b, sizeof b);
            nnav_yw_key(&w, "function"), nnav_yw_cstr(&w, b);
        }
        nnav_yw_key(&w, "attribute");
        nnav_yw_seq(&w);
        for (uint32_t i = 0; i < nd->attr_count; i++) {
            uint32_t aid = nd->attr_first + i;
            const nnav_attr *at = nnav_attr_get(m, aid);
            nnav_yw_map(&w);
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, at->name);
            nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, nnav_attr_type_name(at->type));
            if (at->ref_attr_name.n) {
                nnav_yw_key(&w, "ref_attr_name"), nnav_yw_span(&w, at->ref_attr_name);
            } else {
                nnav_yw_key(&w, "value");
                yaml_attr_value(&w, m, aid);
            }
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        for (int side = 0; side < 2; side++) {
            uint32_t first = side ? nd->out_first : nd->in_first;
            uint32_t count = side ? nd->out_count : nd->in_count;
            nnav_yw_key(&w, side ? "output" : "input");
            nnav_yw_seq(&w);
            for (uint32_t i = 0; i < count; i++) {
                const nnav_ref r = nnav_ref_get(m, first + i);
                nnav_yw_map(&w);
                nnav_yw_key(&w, "name"), nnav_yw_span(&w, r.name);
                if (r.control)
                    nnav_yw_key(&w, "control"), nnav_yw_bool(&w, 1);
                if (r.value != NNAV_NONE) {
                    const nnav_value *v = nnav_value_get(m, r.value);
                    nnav_value_type_format(m, r.value, b, sizeof b);
                    nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, b);
                    if (s) {
                        const nnav_fact *f = nnav_shapes_fact(s, r.value);
                        nnav_yw_key(&w, "inferred_type");
                        nnav_yw_cstr(&w, value_type(s, r.value, c, sizeof c));
                        nnav_yw_key(&w, "type_source");
                        nnav_yw_cstr(&w, src_word(f ? f->src : NNAV_SRC_NONE));
                    }
                    if (!side) {
                        nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, kind_word(v->kind));
                        if (v->kind == NNAV_VAL_NODE) {
                            /* Raw, and by index (within its graph) too: an
                             * unnamed producer has only that. */
                            nnav_yw_key(&w, "producer");
                            nnav_yw_span(&w, nnav_node_get(m, v->producer)->name);
                            nnav_yw_key(&w, "producer_index");
                            nnav_yw_uint(&w, nnav_node_index(m, v->producer));
                        }
                        if (v->graph != nd->graph) {
                            nnav_graph_path(m, v->graph, c, sizeof c);
                            nnav_yw_key(&w, "scope"), nnav_yw_cstr(&w, c);
                        }
                    } else {
                        uint32_t nc;
                        const uint32_t *cons = nnav_value_consumers(m, r.value, &nc);
                        /* Raw names like name and producer, and their
                         * indices (within each one's graph) in the same order. */
                        nnav_yw_key(&w, "consumers");
                        nnav_yw_seq_flow(&w);
                        for (uint32_t k = 0; k < nc; k++)
                            nnav_yw_span(&w, nnav_node_get(m, cons[k])->name);
                        nnav_yw_seq_end(&w);
                        nnav_yw_key(&w, "consumer_index");
                        nnav_yw_seq_flow(&w);
                        for (uint32_t k = 0; k < nc; k++)
                            nnav_yw_uint(&w, nnav_node_index(m, cons[k]));
                        nnav_yw_seq_end(&w);
                        nnav_yw_key(&w, "graph_output"), nnav_yw_bool(&w, v->is_output);
                    }
                }
                nnav_yw_map_end(&w);
            }
            nnav_yw_seq_end(&w);
        }
        if (cost) {
            nnav_yw_key(&w, "cost");
            nnav_yw_map_flow(&w);
            yaml_cost_keys(&w, cost);
            nnav_yw_key(&w, "known"), nnav_yw_bool(&w, cost->known);
            nnav_yw_map_end(&w);
        }
        nnav_yw_map_end(&w);
        if (s)
            nnav_shapes_free(s);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    printf("%-10s %s\n", "node", node_label(m, id, a, sizeof a));
    printf("%-10s %s\n", "op_type", esc(nd->op, a, sizeof a));
    if (nnav_model_facts_get(m)->format == NNAV_FMT_ONNX)
        printf("%-10s %s\n", "domain", domain_name(nnav_node_domain(m, id), a, sizeof a));
    else if (nnav_node_device(m, id).n)
        printf("%-10s %s\n", "device", esc(nnav_node_device(m, id), a, sizeof a));
    else
        printf("%-10s %s\n", "device", "(any)");
    printf("%-10s %s (index %u)\n", "graph", path, nnav_node_index(m, id));
    if (nd->function != NNAV_NONE) {
        nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, b, sizeof b);
        printf("%-10s calls local function %s\n", "function", b);
    }
    printf("attributes (%u):\n", nd->attr_count);
    for (uint32_t i = 0; i < nd->attr_count; i++) {
        uint32_t aid = nd->attr_first + i;
        const nnav_attr *at = nnav_attr_get(m, aid);
        nnav_attr_format(m, aid, 16, a, sizeof a);
        printf("  %-20s %-8s %s\n", esc(at->name, b, sizeof b), nnav_attr_type_name(at->type), a);
    }
    printf("inputs (%u):\n", nd->in_count);
    for (uint32_t i = 0; i < nd->in_count; i++) {
        const nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        if (r.value == NNAV_NONE) {
            printf("  [%u] \"\" (omitted optional input)\n", i);
            continue;
        }
        source_text(m, r.value, nd->graph, b, sizeof b);
        typed_cols(m, s, r.value, c, sizeof c, ft, sizeof ft);
        printf("  [%u] %-28s %s from %s", i, esc(r.name, a, sizeof a), c, b);
        if (ft[0])
            printf("; the file says %s", ft);
        printf("\n");
    }
    printf("outputs (%u):\n", nd->out_count);
    for (uint32_t i = 0; i < nd->out_count; i++) {
        const nnav_ref r = nnav_ref_get(m, nd->out_first + i);
        if (r.value == NNAV_NONE) {
            printf("  [%u] \"\" (unused optional output)\n", i);
            continue;
        }
        const nnav_value *v = nnav_value_get(m, r.value);
        uint32_t nc;
        const uint32_t *cons = nnav_value_consumers(m, r.value, &nc);
        typed_cols(m, s, r.value, c, sizeof c, ft, sizeof ft);
        printf("  [%u] %-28s %s to ", i, esc(r.name, a, sizeof a), c);
        if (nc == 0 && !v->is_output)
            printf("(no consumers)");
        for (uint32_t k = 0; k < nc && k < 32; k++) {
            const nnav_node *cn = nnav_node_get(m, cons[k]);
            printf("%s%s (%s)", k ? ", " : "", node_label(m, cons[k], a, sizeof a),
                   op_name(m, cons[k], b, sizeof b));
            if (cn->graph != nd->graph) {
                nnav_graph_path(m, cn->graph, c, sizeof c);
                printf(" in %s", c);
            }
        }
        if (nc > 32)
            printf(", ... (%u in all)", nc);
        if (v->is_output)
            printf("%sgraph output", nc ? ", " : "");
        if (ft[0])
            printf("; the file says %s", ft);
        printf("\n");
    }
    if (cost) {
        cost_text(cost, NULL, a, sizeof a);
        printf("%-10s %s\n", "cost", a);
    }
    if (s)
        nnav_shapes_free(s);
    return 0;
}

/* ---- tensors ---- */

/* One row: the tensor's facts as the explorer shows them too (tfacts.h). */
typedef nnav_tfacts trow;

static const nnav_model *sort_model;

static int trow_size(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return (x->tensor > y->tensor) - (x->tensor < y->tensor);
}

static int trow_name(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    nnav_span p = nnav_tensor_get(sort_model, x->tensor)->name;
    nnav_span q = nnav_tensor_get(sort_model, y->tensor)->name;
    uint64_t n = p.n < q.n ? p.n : q.n;
    int c = n ? memcmp(p.p, q.p, n) : 0;
    if (c)
        return c;
    if (p.n != q.n)
        return p.n < q.n ? -1 : 1;
    return (x->tensor > y->tensor) - (x->tensor < y->tensor);
}

static void warn_text(uint32_t w, char *buf, size_t n)
{
    buf[0] = 0;
    if (w & NNAV_TW_SIZE_MISMATCH)
        strncat(buf, " stored-size-differs-from-dims", n - strlen(buf) - 1);
    if (w & NNAV_TW_BAD_DIMS)
        strncat(buf, " bad-dims", n - strlen(buf) - 1);
    if (w & NNAV_TW_BAD_DTYPE)
        strncat(buf, " unknown-dtype", n - strlen(buf) - 1);
    if (w & NNAV_TW_BAD_EXTERNAL)
        strncat(buf, " unsafe-or-malformed-external-data", n - strlen(buf) - 1);
    if (w & NNAV_TW_MANY_FIELDS)
        strncat(buf, " data-in-several-fields", n - strlen(buf) - 1);
    if (w & NNAV_TW_WRONG_FIELD)
        strncat(buf, " data-in-the-wrong-field-for-its-type", n - strlen(buf) - 1);
}

/* Values on request: the first n and min/max/mean over all elements. Reads the
 * payload (and opens external data) only here. */
static int tensor_values(const nnav_model *m, uint32_t t, long n, nnav_yw *w)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    size_t want = (size_t)n;
    double *v = calloc(want + 1, sizeof *v);
    int64_t *iv = calloc(want + 1, sizeof *iv);
    nnav_span *sv = calloc(want + 1, sizeof *sv);
    nnav_values vals = {.v = v, .s = sv, .i = iv};
    nnav_error err;
    char buf[1100], why[256], num[3][64];
    int rc = 0;
    if (!nnav_tensor_dims_problem(m, t, why, sizeof why))
        snprintf(why, sizeof why, "the dims are malformed");
    if (!v || !sv || !iv) {
        free(v);
        free(iv);
        free(sv);
        return -1;
    }
    if (nnav_tensor_values(m, t, want, 1, &vals, &err) < 0) {
        char msg[2048];
        nnav_error_format(&err, nnav_model_facts_get(m)->path, msg, sizeof msg);
        fprintf(stderr, "nnav tensors: %s\n", msg);
        rc = -1;
        if (w)
            nnav_yw_key(w, "values_error"), nnav_yw_cstr(w, err.msg);
        else
            printf("    values: (%s)\n", err.msg);
    } else if (w) {
        nnav_yw_key(w, "values");
        nnav_yw_seq_flow(w);
        /* Integer types as integers, exactly (a uint64 unsigned). */
        for (size_t i = 0; i < vals.count; i++)
            tt->dtype == 8       ? nnav_yw_span(w, sv[i])
            : !vals.is_int       ? nnav_yw_double(w, v[i])
            : vals.is_unsigned   ? nnav_yw_uint(w, (uint64_t)iv[i])
                                 : nnav_yw_int(w, iv[i]);
        nnav_yw_seq_end(w);
        if (vals.has_stats && vals.is_int) {
            nnav_yw_key(w, "min");
            vals.is_unsigned ? nnav_yw_uint(w, (uint64_t)vals.imin) : nnav_yw_int(w, vals.imin);
            nnav_yw_key(w, "max");
            vals.is_unsigned ? nnav_yw_uint(w, (uint64_t)vals.imax) : nnav_yw_int(w, vals.imax);
            nnav_yw_key(w, "mean"), nnav_yw_double(w, vals.mean);
        } else if (vals.has_stats) {
            nnav_yw_key(w, "min"), nnav_yw_double(w, vals.min);
            nnav_yw_key(w, "max"), nnav_yw_double(w, vals.max);
            nnav_yw_key(w, "mean"), nnav_yw_double(w, vals.mean);
        }
        if (vals.nan_count)
            nnav_yw_key(w, "nan_count"), nnav_yw_uint(w, vals.nan_count);
    } else {
        printf("    values:");
        if (vals.count == 0)
            printf(" none%s%s%s", tt->nelems == UINT64_MAX ? " (" : vals.total ? " stored" :
                   " (no elements)", tt->nelems == UINT64_MAX ? why : "",
                   tt->nelems == UINT64_MAX ? ")" : "");
        for (size_t i = 0; i < vals.count; i++) {
            if (tt->dtype == 8)
                printf("%s \"%s\"", i ? "," : "", esc(sv[i], buf, sizeof buf));
            else if (vals.is_int) /* exactly, not through a double */
                printf("%s %s", i ? "," : "", (nnav_values_format(&vals, 0, i, num[0], 64), num[0]));
            else
                printf("%s %.9g", i ? "," : "", v[i]);
        }
        if (vals.total > vals.count)
            printf("%s (%llu in all)", vals.count ? ", ..." : "", (unsigned long long)vals.total);
        printf("\n");
        if (vals.has_stats && vals.is_int) {
            nnav_values_format(&vals, 1, 0, num[0], sizeof num[0]);
            nnav_values_format(&vals, 2, 0, num[1], sizeof num[1]);
            nnav_values_format(&vals, 3, 0, num[2], sizeof num[2]);
            printf("    min %s  max %s  mean %s\n", num[0], num[1], num[2]);
        } else if (vals.has_stats)
            printf("    min %.9g  max %.9g  mean %.9g\n", vals.min, vals.max, vals.mean);
        if (vals.nan_count)
            printf("    %llu NaN\n", (unsigned long long)vals.nan_count);
    }
    free(v);
    free(iv);
    free(sv);
    return rc;
}

/* "(NODE.ATTR)" for a tensor an attribute holds (NODE as node_label shows
 * it: the escaped name, or #INDEX when it has none), "" for any other: how
 * the table names an unnamed one, and what --name accepts for it. */
static const char *held_label(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    char ab[512], an[256];
    buf[0] = 0;
    if (tt->owner != NNAV_TOWN_ATTRIBUTE)
        return buf;
    const nnav_attr *at = nnav_attr_get(m, tt->owner_id);
    if (at->node != NNAV_NONE)
        snprintf(buf, n, "(%s.%s)", node_label(m, at->node, ab, sizeof ab),
                 esc(at->name, an, sizeof an));
    return buf;
}

static int cmd_tensors(const nnav_model *m, const opts *o)
{
    uint32_t g = 0;
    int rc;
    char hl[2048];
    if (o->sort && strcmp(o->sort, "size") && strcmp(o->sort, "name"))
        return usage_error("tensors", "--sort takes size or name, not '%s'", o->sort);
    if ((rc = pick_graph(m, o, "tensors", &g)) != 0)
        return rc;
    nnav_tensors_measure(m); /* external data as stored, not as dims say */
    uint32_t nt = nnav_tensor_count(m);
    trow *rows = malloc(sizeof *rows * (nt + 1));
    size_t nr = 0;
    if (!rows)
        return EXIT_BADINPUT;
    for (uint32_t i = 0; i < nt; i++) {
        const nnav_tensor *t = nnav_tensor_get(m, i);
        if (!o->all && t->graph != g)
            continue;
        if (t->owner == NNAV_TOWN_SPARSE_INDICES)
            continue;
        /* The shown "(NODE.ATTR)" names an attribute's tensor, --constants or not. */
        int shown = o->name && !strcmp(held_label(m, i, hl, sizeof hl), o->name);
        if (t->owner == NNAV_TOWN_ATTRIBUTE && !o->constants && !shown)
            continue;
        if (o->name && !nnav_span_eqs(t->name, o->name) && !shown)
            continue;
        /* A sparse one: its dense shape, its values plus indices as bytes. */
        nnav_tfacts_get(m, i, &rows[nr++]);
    }
    sort_model = m;
    if (o->sort && !strcmp(o->sort, "size"))
        qsort(rows, nr, sizeof *rows, trow_size);
    else if (o->sort)
        qsort(rows, nr, sizeof *rows, trow_name);
    uint64_t total = 0, params = 0;
    int vrc = 0;
    if (o->name && nr == 0) {
        free(rows);
        return not_found("tensors", m, "initializer", o->name,
                         "--all looks in every graph, --constants at Constant nodes too, "
                         "'nnav find MODEL NAME' everywhere");
    }
    for (size_t i = 0; i < nr; i++) {
        total += rows[i].bytes == UINT64_MAX ? 0 : rows[i].bytes;
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].tensor);
        /* Parameters as info and summary count them: weights, not shapes,
         * indices or strings. */
        uint64_t ne = nnav_tensor_is_weight(m, rows[i].tensor) ? t->nelems : 0;
        params = ne > UINT64_MAX - params ? UINT64_MAX : params + ne;
    }
    char nm[2048], sh[1024], st[2048], by[64], wt[256], gp[2048];
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0) {
            free(rows);
            return EXIT_BADINPUT;
        }
        nnav_yw_map(&w);
        nnav_yw_key(&w, "tensors");
        nnav_yw_seq(&w);
    }
    for (size_t i = 0; i < nr; i++) {
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].tensor);
        nnav_tfacts_shape(&rows[i], sh, sizeof sh);
        nnav_tfacts_storage(m, &rows[i], st, sizeof st);
        warn_text(t->warn, wt, sizeof wt);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, t->name);
            nnav_yw_key(&w, "data_type"), nnav_yw_cstr(&w, nnav_dtype_name(t->dtype));
            nnav_yw_key(&w, "dims");
            nnav_yw_seq_flow(&w);
            for (uint32_t d = 0; d < rows[i].ndims; d++)
                nnav_yw_int(&w, rows[i].dims[d]);
            nnav_yw_seq_end(&w);
            nnav_yw_key(&w, "storage"), nnav_yw_cstr(&w, st);
            nnav_yw_key(&w, "bytes");
            rows[i].bytes == UINT64_MAX ? nnav_yw_null(&w) : nnav_yw_uint(&w, rows[i].bytes);
            if (o->all) {
                nnav_graph_path(m, t->graph, gp, sizeof gp);
                nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, gp);
            }
            if (t->owner == NNAV_TOWN_ATTRIBUTE) {
                /* Where it is held: the node's raw name and its index (an
                 * unnamed node has only the index), the attribute's name. */
                const nnav_attr *at = nnav_attr_get(m, t->owner_id);
                nnav_yw_key(&w, "constant"), nnav_yw_bool(&w, 1);
                if (at->node != NNAV_NONE) {
                    nnav_yw_key(&w, "node"), nnav_yw_span(&w, nnav_node_get(m, at->node)->name);
                    nnav_yw_key(&w, "node_index"), nnav_yw_uint(&w, nnav_node_index(m, at->node));
                    nnav_yw_key(&w, "attribute"), nnav_yw_span(&w, at->name);
                    nnav_yw_key(&w, "shown_as"), nnav_yw_cstr(&w, held_label(m, rows[i].tensor, hl, sizeof hl));
                }
            }
            if (wt[0])
                nnav_yw_key(&w, "warnings"), nnav_yw_cstr(&w, wt + 1);
            if (o->values >= 0 && tensor_values(m, rows[i].tensor, o->values, &w) < 0)
                vrc = EXIT_BADINPUT;
            nnav_yw_map_end(&w);
            continue;
        }
        if (rows[i].bytes == UINT64_MAX)
            snprintf(by, sizeof by, "?");
        else
            print_bytes(rows[i].bytes, by, sizeof by);
        esc(t->name, nm, sizeof nm);
        if (!t->name.n && held_label(m, rows[i].tensor, hl, sizeof hl)[0])
            snprintf(nm, sizeof nm, "%s", hl);
        printf("%-36s %-24s %12s  %s", nm, sh, by, st);
        if (o->all) {
            nnav_graph_path(m, t->graph, gp, sizeof gp);
            printf("  %s", gp);
        }
        if (wt[0])
            printf("  WARNING:%s", wt);
        printf("\n");
        if (o->values >= 0 && tensor_values(m, rows[i].tensor, o->values, NULL) < 0)
            vrc = EXIT_BADINPUT;
    }
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "count"), nnav_yw_uint(&w, nr);
        nnav_yw_key(&w, "total_bytes"), nnav_yw_uint(&w, total);
        nnav_yw_key(&w, "parameters"), nnav_yw_uint(&w, params);
        nnav_yw_map_end(&w);
        free(rows);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : vrc;
    }
    print_bytes(total, by, sizeof by);
    human(total, sh, sizeof sh);
    print_bytes(params, st, sizeof st);
    printf("%zu tensor%s, %s byte%s (%s), %s parameter%s\n", nr, pl(nr), by, pl(total), sh, st,
           pl(params));
    /* Weights a Constant node holds are parameters too (summary, info and
     * the explorer's pane count them): say where they are. */
    uint64_t ce = 0, ke = 0;
    uint32_t cn = 0;
    for (uint32_t gi = o->all ? 0 : g; !o->constants && !o->name && gi < nnav_graph_count(m) &&
                                       (o->all || gi == g); gi++) {
        cn += nnav_tfacts_constant_weights(m, gi, NULL, &ke);
        ce = ke > UINT64_MAX - ce ? UINT64_MAX : ce + ke;
    }
    if (cn) {
        print_bytes(ce, st, sizeof st);
        printf("%u weight%s held by %s (%s parameter%s): --constants lists %s\n", cn, pl(cn),
               cn == 1 ? "a Constant node" : "Constant nodes", st, pl(ce), cn == 1 ? "it" : "them");
    }
    free(rows);
    return vrc;
}

/* ---- shapes, cost, check ---- */

/* One graph (--graph, default /) or every graph (--all): ids [*first, *end). */
static int graph_range(const nnav_model *m, const opts *o, const char *cmd, uint32_t *first,
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

/* One run of shapes, cost or check: the graphs asked for, the typed view,
 * and a byte per value for graph_values() (shapes and check). */
typedef struct typed_run {
    uint32_t first, end;
    nnav_shapes *s;
    uint8_t *seen;
} typed_run;

/* With --yaml, w is opened on a map whose `key` holds a sequence. */
static int typed_run_begin(typed_run *t, nnav_yw *w, const nnav_model *m, const opts *o,
                           const char *cmd, int want_seen, const char *key)
{
    *t = (typed_run){0};
    int rc = graph_range(m, o, cmd, &t->first, &t->end);
    if (rc)
        return rc;
    if ((want_seen && !(t->seen = calloc((size_t)nnav_value_count(m) + 1, 1))) ||
        !(t->s = shapes_of(m, o)) || (o->yaml && nnav_yw_open(w, stdout) < 0)) {
        nnav_shapes_free(t->s);
        free(t->seen);
        return EXIT_BADINPUT;
    }
    if (o->yaml) {
        nnav_yw_map(w);
        nnav_yw_key(w, key);
        nnav_yw_seq(w);
    }
    return 0;
}

/* Frees the run and, with --yaml, ends the document after the caller's
 * closing keys: rc, or EXIT_BADINPUT when it could not be written. */
static int typed_run_end(typed_run *t, nnav_yw *w, const opts *o, int rc)
{
    nnav_shapes_free(t->s);
    free(t->seen);
    if (o->yaml) {
        nnav_yw_map_end(w);
        if (nnav_yw_close(w) < 0 && rc == 0)
            rc = EXIT_BADINPUT;
    }
    return rc;
}

static void add_value(const nnav_model *m, uint32_t g, uint32_t id, uint8_t *seen, uint32_t *v,
                      size_t *n)
{
    if (id == NNAV_NONE || seen[id] || nnav_value_get(m, id)->graph != g ||
        nnav_value_get(m, id)->kind == NNAV_VAL_UNDEFINED)
        return;
    seen[id] = 1;
    v[(*n)++] = id;
}

static uint32_t init_value(const nnav_model *m, uint32_t g, uint32_t t)
{
    nnav_span nm = nnav_tensor_get(m, t)->name;
    uint32_t id = nnav_value_lookup(m, g, (const char *)nm.p, (size_t)nm.n);
    if (id == NNAV_NONE)
        return NNAV_NONE;
    uint8_t k = nnav_value_get(m, id)->kind;
    return k == NNAV_VAL_INITIALIZER || k == NNAV_VAL_SPARSE ? id : NNAV_NONE;
}

/* The values a graph defines, in the order a reader meets them: its inputs,
 * its initializers (dense, then sparse), then each node's outputs in node
 * order. seen (a byte per value, all zero) keeps an initializer that is also
 * an input, or an output two nodes name, to one line; it is left zeroed. */
static uint32_t *graph_values(const nnav_model *m, uint32_t g, uint8_t *seen, size_t *count)
{
    const nnav_graph *gr = nnav_graph_get(m, g);
    size_t cap = (size_t)gr->input_count + gr->init_count + gr->sparse_count + 1, n = 0;
    for (uint32_t i = 0; i < gr->node_count; i++)
        cap += nnav_node_get(m, gr->node_first + i)->out_count;
    uint32_t *v = malloc(cap * sizeof *v);
    if (!v)
        return NULL;
    for (uint32_t i = 0; i < gr->input_count; i++)
        add_value(m, g, nnav_vinfo_get(m, gr->input_first + i)->value, seen, v, &n);
    for (uint32_t i = 0; i < gr->init_count; i++)
        add_value(m, g, init_value(m, g, gr->init_first + i), seen, v, &n);
    for (uint32_t i = 0; i < gr->sparse_count; i++) {
        uint32_t t = nnav_sparse_get(m, gr->sparse_first + i)->values;
        if (t != NNAV_NONE)
            add_value(m, g, init_value(m, g, t), seen, v, &n);
    }
    for (uint32_t i = 0; i < gr->node_count; i++) {
        const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
        for (uint32_t k = 0; k < nd->out_count; k++) {
            const nnav_ref r = nnav_ref_get(m, nd->out_first + k);
            if (!r.control)
                add_value(m, g, r.value, seen, v, &n);
        }
    }
    for (size_t i = 0; i < n; i++)
        seen[v[i]] = 0;
    *count = n;
    return v;
}

/* Counts over the values listed, by the same rules as their lines. */
static void count_fact(nnav_shapes_stats *st, const nnav_shapes *s, const nnav_fact *f)
{
    st->values++;
    if (!f)
        return;
    st->typed += f->dtype != 0;
    if (f->rank >= 0 && !f->not_tensor) {
        const nnav_dim *d = nnav_shapes_dims(s, f->dims);
        int full = 1;
        for (int32_t i = 0; i < f->rank; i++)
            full &= !nnav_dim_is_unknown(d[i]);
        st->shaped++;
        st->full += full;
    }
    switch (f->src) {
    case NNAV_SRC_FILE: st->file++; break;
    case NNAV_SRC_INFERRED: st->inferred++; break;
    case NNAV_SRC_AGREE: st->agree++; break;
    case NNAV_SRC_DISAGREE: st->disagree++; break;
    default: st->unknown++;
    }
}

static void yaml_fact_shape(nnav_yw *w, const nnav_shapes *s, const nnav_fact *f)
{
    char d[512];
    nnav_yw_key(w, "shape");
    if (!f || f->rank < 0 || f->not_tensor) {
        nnav_yw_null(w);
        return;
    }
    const nnav_dim *dims = nnav_shapes_dims(s, f->dims);
    nnav_yw_seq_flow(w);
    for (int32_t i = 0; i < f->rank; i++) {
        if (nnav_dim_is_num(dims[i])) {
            nnav_yw_int(w, nnav_dim_val(dims[i]));
        } else if (nnav_dim_is_sym(dims[i])) {
            nnav_dim_format(s, dims[i], d, sizeof d);
            nnav_yw_cstr(w, d);
        } else {
            nnav_yw_null(w);
        }
    }
    nnav_yw_seq_end(w);
}

static void yaml_summary(nnav_yw *w, const nnav_shapes_stats *st)
{
    nnav_yw_key(w, "summary");
    nnav_yw_map_flow(w);
    nnav_yw_key(w, "values"), nnav_yw_uint(w, st->values);
    nnav_yw_key(w, "typed"), nnav_yw_uint(w, st->typed);
    nnav_yw_key(w, "shaped"), nnav_yw_uint(w, st->shaped);
    nnav_yw_key(w, "full"), nnav_yw_uint(w, st->full);
    nnav_yw_key(w, "file"), nnav_yw_uint(w, st->file);
    nnav_yw_key(w, "inferred"), nnav_yw_uint(w, st->inferred);
    nnav_yw_key(w, "agree"), nnav_yw_uint(w, st->agree);
    nnav_yw_key(w, "disagree"), nnav_yw_uint(w, st->disagree);
    nnav_yw_key(w, "unknown"), nnav_yw_uint(w, st->unknown);
    nnav_yw_map_end(w);
}

/* Why a value's type is (partly) unknown; the engine escaped the names it
 * quotes. Nothing when the type is whole: a file type that inference could
 * not confirm says so by its source already. */
static const char *why_text(const nnav_shapes *s, const nnav_fact *f)
{
    if (!f || f->why == NNAV_NONE)
        return NULL;
    int whole = f->src != NNAV_SRC_NONE && (f->not_tensor || (f->dtype && f->rank >= 0));
    if (whole && !f->not_tensor) {
        const nnav_dim *d = nnav_shapes_dims(s, f->dims);
        for (int32_t i = 0; i < f->rank; i++)
            whole &= !nnav_dim_is_unknown(d[i]);
    }
    const char *why = nnav_shapes_why(s, f->why);
    return !whole && why && why[0] ? why : NULL;
}

static int cmd_shapes(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_yw w;
    int rc = typed_run_begin(&t, &w, m, o, "shapes", 1, "graphs");
    if (rc)
        return rc;
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    char path[2048], nm[1100], ty[1100], ft[1100];
    for (uint32_t g = first; g < end && rc == 0; g++) {
        size_t n;
        uint32_t *vals = graph_values(m, g, t.seen, &n);
        if (!vals) {
            fprintf(stderr, "nnav shapes: out of memory\n");
            rc = EXIT_BADINPUT;
            break;
        }
        nnav_shapes_stats st = {0};
        nnav_graph_path(m, g, path, sizeof path);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "path"), nnav_yw_cstr(&w, path);
            nnav_yw_key(&w, "values");
            nnav_yw_seq(&w);
        } else if (end - first > 1) {
            printf("%sgraph %s\n", g == first ? "" : "\n", path);
        }
        for (size_t i = 0; i < n; i++) {
            uint32_t v = vals[i];
            const nnav_fact *f = nnav_shapes_fact(s, v);
            uint8_t src = f ? f->src : NNAV_SRC_NONE;
            const char *why = why_text(s, f);
            count_fact(&st, s, f);
            value_type(s, v, ty, sizeof ty);
            ft[0] = 0;
            if (src == NNAV_SRC_DISAGREE)
                nnav_value_type_format(m, v, ft, sizeof ft);
            if (o->yaml) {
                nnav_yw_map(&w);
                nnav_yw_key(&w, "name"), nnav_yw_span(&w, nnav_value_get(m, v)->name);
                nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, ty);
                nnav_yw_key(&w, "elem_type");
                f && f->dtype ? nnav_yw_cstr(&w, nnav_dtype_name(f->dtype)) : nnav_yw_null(&w);
                yaml_fact_shape(&w, s, f);
                nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, src_word(src));
                if (src == NNAV_SRC_DISAGREE)
                    nnav_yw_key(&w, "file"), nnav_yw_cstr(&w, ft);
                if (why)
                    nnav_yw_key(&w, "why"), nnav_yw_cstr(&w, why);
                nnav_yw_map_end(&w);
                continue;
            }
            esc(nnav_value_get(m, v)->name, nm, sizeof nm);
            printf("%-36s %-30s %s", nm, ty, src == NNAV_SRC_DISAGREE ? "DISAGREE" : src_word(src));
            if (src == NNAV_SRC_DISAGREE)
                printf("  file says %s", ft[0] ? ft : "?");
            if (why)
                printf("  (%s)", why);
            printf("\n");
        }
        free(vals);
        if (o->yaml) {
            nnav_yw_seq_end(&w);
            yaml_summary(&w, &st);
            nnav_yw_map_end(&w);
            continue;
        }
        printf("%llu value%s: %llu typed, %llu with a rank, %llu fully shaped; %llu from the file "
               "only, %llu inferred, %llu agree, %llu DISAGREE, %llu unknown\n",
               (unsigned long long)st.values, pl(st.values), (unsigned long long)st.typed,
               (unsigned long long)st.shaped, (unsigned long long)st.full,
               (unsigned long long)st.file, (unsigned long long)st.inferred,
               (unsigned long long)st.agree, (unsigned long long)st.disagree,
               (unsigned long long)st.unknown);
    }
    if (o->yaml)
        nnav_yw_seq_end(&w);
    return typed_run_end(&t, &w, o, rc);
}

static int cmd_cost(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_yw w;
    int rc = typed_run_begin(&t, &w, m, o, "cost", 0, "graphs");
    if (rc)
        return rc;
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    char path[2048], a[64], b[64], c[64], d[64], opb[1100], nm[1100], line[512];
    char assumed[2048], how[1024];
    if (o->yaml)
        nnav_shapes_assumed(s, assumed, sizeof assumed);
    else
        nnav_shapes_assumed_short(s, assumed, sizeof assumed);
    nnav_wcost *wc = nnav_wcost_new(s); /* the whole cost: each graph with its bodies */
    if (!wc) {
        fprintf(stderr, "nnav cost: out of memory\n");
        rc = EXIT_BADINPUT;
    }
    for (uint32_t g = first; g < end && rc == 0; g++) {
        const nnav_graph *gr = nnav_graph_get(m, g);
        nnav_cost tot, own;
        size_t nops = 0;
        nnav_shapes_graph_cost(s, g, &own);
        const nnav_whole *wh = nnav_wcost_graph(wc, g);
        nnav_whole_to_cost(wh, &tot);
        tot.params = own.params;
        if (g == 0)
            nnav_model_params(m, &tot.params, NULL);
        op_count *ops = op_histogram(m, gr->node_first, gr->node_count, s, &nops);
        if (!ops) {
            fprintf(stderr, "nnav cost: out of memory\n");
            rc = EXIT_BADINPUT;
            break;
        }
        uint64_t partial = partial_nodes(s, gr);
        nnav_graph_path(m, g, path, sizeof path);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "path"), nnav_yw_cstr(&w, path);
            nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, gr->node_count);
            yaml_cost_keys(&w, &tot);
            nnav_yw_key(&w, "own_macs"), yaml_count(&w, own.macs);
            nnav_yw_key(&w, "own_flops"), yaml_count(&w, own.flops);
            nnav_yw_key(&w, "per_iteration"), nnav_yw_bool(&w, wh->per_iter);
            nnav_yw_key(&w, "overflow"), nnav_yw_bool(&w, wh->overflow);
            nnav_yw_key(&w, "bodies");
            nnav_yw_seq(&w);
            for (uint32_t i = 0; i < gr->node_count; i++) {
                nnav_whole bw;
                if (!nnav_wcost_node(wc, gr->node_first + i, &bw, how, sizeof how))
                    continue;
                nnav_yw_map_flow(&w);
                nnav_yw_key(&w, "index"), nnav_yw_uint(&w, i);
                nnav_yw_key(&w, "name"), nnav_yw_span(&w, nnav_node_get(m, gr->node_first + i)->name);
                nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nnav_node_get(m, gr->node_first + i)->op);
                nnav_yw_key(&w, "macs"), bw.overflow ? nnav_yw_null(&w) : yaml_count(&w, bw.macs);
                nnav_yw_key(&w, "flops"), bw.overflow ? nnav_yw_null(&w) : yaml_count(&w, bw.flops);
                nnav_yw_key(&w, "how"), nnav_yw_cstr(&w, how);
                nnav_yw_map_end(&w);
            }
            nnav_yw_seq_end(&w);
            nnav_yw_key(&w, "partial_nodes"), nnav_yw_uint(&w, partial);
            nnav_yw_key(&w, "ops");
            nnav_yw_seq(&w);
            for (size_t i = 0; i < nops; i++) {
                nnav_yw_map_flow(&w);
                nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, ops[i].op);
                nnav_yw_key(&w, "domain"), nnav_yw_span(&w, ops[i].domain);
                nnav_yw_key(&w, "count"), nnav_yw_uint(&w, ops[i].count);
                nnav_yw_key(&w, "macs"), yaml_count(&w, ops[i].macs);
                nnav_yw_key(&w, "flops"), yaml_count(&w, ops[i].flops);
                nnav_yw_key(&w, "params"), nnav_yw_uint(&w, ops[i].params);
                nnav_yw_map_end(&w);
            }
            nnav_yw_seq_end(&w);
            if (o->list_nodes) {
                nnav_yw_key(&w, "node_costs");
                nnav_yw_seq(&w);
                for (uint32_t i = 0; i < gr->node_count; i++) {
                    const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                    const nnav_cost *nc = nnav_shapes_node_cost(s, gr->node_first + i);
                    nnav_yw_map_flow(&w);
                    nnav_yw_key(&w, "index"), nnav_yw_uint(&w, i);
                    nnav_yw_key(&w, "name"), nnav_yw_span(&w, nd->name);
                    nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nd->op);
                    yaml_cost_keys(&w, nc);
                    nnav_yw_key(&w, "known"), nnav_yw_bool(&w, nc->known);
                    nnav_yw_map_end(&w);
                }
                nnav_yw_seq_end(&w);
            }
            nnav_yw_map_end(&w);
            free(ops);
            continue;
        }
        cost_text(&tot, wh->cut ? nnav_whole_why(wh) : NULL, line, sizeof line);
        if (wh->overflow)
            snprintf(line, sizeof line, "MACs and FLOPs past 2^63: too many to count");
        printf("%sgraph %s: %u node%s, %s%s\n", g == first ? "" : "\n", path, gr->node_count,
               pl(gr->node_count), line,
               wh->per_iter ? " (a loop of unknown trip count counted once: per iteration)" : "");
        if (tot.macs != own.macs || tot.flops != own.flops || wh->overflow) {
            /* What its bodies add, node by node; its own nodes in the table. */
            cost_text(&own, NULL, line, sizeof line);
            printf("  its own nodes: %s; with what its bodies run:\n", line);
            for (uint32_t i = 0; i < gr->node_count; i++) {
                nnav_whole bw;
                if (!nnav_wcost_node(wc, gr->node_first + i, &bw, how, sizeof how))
                    continue;
                const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                printf("    %s %s: %s\n", op_name(m, gr->node_first + i, opb, sizeof opb),
                       nd->name.n ? esc(nd->name, nm, sizeof nm) : "-", how);
            }
        }
        if (partial)
            printf("  %llu of %u node%s %s partial costs: their shapes are not all known\n",
                   (unsigned long long)partial, gr->node_count, pl(gr->node_count),
                   partial == 1 ? "has" : "have");
        if (nops)
            printf("  %-28s %7s %11s %11s %11s\n", "op type", "count", "MACs", "FLOPs", "params");
        for (size_t i = 0; i < nops; i++) {
            nnav_text_si(ops[i].macs, a, sizeof a);
            nnav_text_si(ops[i].flops, b, sizeof b);
            nnav_text_si((double)ops[i].params, c, sizeof c);
            printf("  %-28s %7llu %11s %11s %11s\n", op_text(ops[i].op, ops[i].domain, opb, sizeof opb),
                   (unsigned long long)ops[i].count, a, b, c);
        }
        if (o->list_nodes && gr->node_count) {
            /* The op type and name columns as wide as their widest entry. */
            int wop = 20, wnm = 28;
            for (uint32_t i = 0; i < gr->node_count; i++) {
                const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                int k = text_cols(op_name(m, gr->node_first + i, opb, sizeof opb));
                wop = k > wop ? k : wop;
                k = nd->name.n ? text_cols(esc(nd->name, nm, sizeof nm)) : 1;
                wnm = k > wnm ? k : wnm;
            }
            printf("  %6s  ", "index");
            put_padded("op type", wop + 1);
            put_padded("name", wnm + 1);
            printf("%11s %11s %11s %11s\n", "MACs", "FLOPs", "params", "out");
            for (uint32_t i = 0; i < gr->node_count; i++) {
                const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                const nnav_cost *nc = nnav_shapes_node_cost(s, gr->node_first + i);
                nnav_text_si(nc->macs, a, sizeof a);
                nnav_text_si(nc->flops, b, sizeof b);
                nnav_text_si((double)nc->params, c, sizeof c);
                human(nc->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)nc->out_bytes, d, sizeof d);
                printf("  %6u  ", i);
                put_padded(op_name(m, gr->node_first + i, opb, sizeof opb), wop + 1);
                put_padded(nd->name.n ? esc(nd->name, nm, sizeof nm) : "-", wnm + 1);
                printf("%11s %11s %11s %11s%s\n", a, b, c, d, nc->known ? "" : "  partial");
            }
        }
        free(ops);
    }
    nnav_wcost_free(wc);
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "assumed");
        assumed[0] ? nnav_yw_cstr(&w, assumed) : nnav_yw_null(&w);
    } else if (assumed[0] && rc == 0) {
        /* Names in it were escaped by the engine. */
        printf("assumed (named dims in costs; --dim NAME=N sets them): %s\n", assumed);
    }
    return typed_run_end(&t, &w, o, rc);
}

/* How a TensorFlow signature tensor contradicts the value it names (fact f):
 * bit 1 the element types (both known, different), bit 2 the shapes (ranks
 * both known and different, or an axis both give as a number, differently).
 * A sparse or composite signature tensor's shape is not the value's. */
static int sig_contradiction(const nnav_model *m, const nnav_shapes *s, const nnav_sig_tensor *st,
                             const nnav_fact *f)
{
    int r = 0;
    if (!f || f->control || f->not_tensor)
        return 0;
    if (st->dtype && f->dtype && st->dtype != f->dtype)
        r |= 1;
    if (st->encoding != 1 || st->rank < 0 || f->rank < 0)
        return r;
    if (st->rank != f->rank)
        return r | 2;
    const int64_t *sd = nnav_dims(m, st->dims_first);
    const nnav_dim *fd = nnav_shapes_dims(s, f->dims);
    for (int32_t i = 0; i < st->rank; i++)
        if (sd[i] >= 0 && nnav_dim_is_num(fd[i]) && nnav_dim_val(fd[i]) != sd[i])
            return r | 2;
    return r;
}

/* TensorFlow: each signature tensor of the meta graphs whose graph is in
 * [first, end) against the type the graph gives its value (a Placeholder's
 * attrs; what inference confirms). A line per contradiction ("FILE: FIELD:
 * what at offset N"), or a signature_disagreements list in YAML. Counts the
 * tensors checked into *checked; returns the contradictions. */
static uint64_t signature_findings(const nnav_model *m, const nnav_shapes *s, const opts *o,
                                   uint32_t first, uint32_t end, nnav_yw *w, uint64_t *checked)
{
    uint64_t bad = 0;
    char path[2048], st_ty[256], g_ty[1100], kb[300], tb[300], sb[300], nb[600], ob[200];
    char msg[3000], line[4200];
    *checked = 0;
    if (w) {
        nnav_yw_key(w, "signature_disagreements");
        nnav_yw_seq(w);
    }
    for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
        const nnav_signature *sg = nnav_signature_get(m, i);
        uint32_t g = nnav_metagraph_get(m, sg->metagraph)->graph;
        if (g < first || g >= end)
            continue;
        for (int side = 0; side < 2; side++) {
            uint32_t f0 = side ? sg->out_first : sg->in_first;
            uint32_t n = side ? sg->out_count : sg->in_count;
            for (uint32_t k = f0; k < f0 + n; k++) {
                const nnav_sig_tensor *st = nnav_sig_tensor_get(m, k);
                if (st->value == NNAV_NONE)
                    continue;
                (*checked)++;
                /* The node named before ":i" (a fed Placeholder's value is
                 * the graph's input, not listed as its node's); a dense
                 * tensor of no node is a finding of its own (bit 4). */
                const uint8_t *colon = memchr(st->name.p, ':', st->name.n);
                uint32_t nid = nnav_node_by_name(m, g, (const char *)st->name.p,
                                                 colon ? (size_t)(colon - st->name.p) : st->name.n);
                const nnav_node *nd = nid != NNAV_NONE ? nnav_node_get(m, nid) : NULL;
                const nnav_fact *f = nnav_shapes_fact(s, st->value);
                int why = !nd && st->encoding == 1 ? 4 : sig_contradiction(m, s, st, f);
                if (!why)
                    continue;
                bad++;
                nnav_sig_tensor_format(m, k, st_ty, sizeof st_ty);
                value_type(s, st->value, g_ty, sizeof g_ty);
                /* Where: the name field for a missing tensor, the dtype field
                 * when the element types differ, else tensor_shape; the
                 * TensorInfo when that field is absent. */
                uint64_t off = why == 4 ? st->name_off : (why & 1) ? st->dtype_off : st->shape_off;
                const char *field = why == 4 ? ".name" : (why & 1) ? ".dtype" : ".tensor_shape";
                if (!off)
                    off = st->off, field = "";
                char fp[1200];
                esc(sg->key, kb, sizeof kb);
                esc(st->key, tb, sizeof tb);
                if (nnav_model_facts_get(m)->format == NNAV_FMT_TF_SAVEDMODEL)
                    snprintf(fp, sizeof fp, "meta_graphs[%u].", sg->metagraph);
                else
                    fp[0] = 0;
                size_t fl = strlen(fp);
                snprintf(fp + fl, sizeof fp - fl, "signature_def[\"%s\"].%s[\"%s\"]%s", kb,
                         side ? "outputs" : "inputs", tb, field);
                esc(st->name, sb, sizeof sb);
                if (nd) {
                    esc(nd->name, nb, sizeof nb);
                    esc(nd->op, ob, sizeof ob);
                }
                nnav_graph_path(m, g, path, sizeof path);
                if (w) {
                    nnav_yw_map(w);
                    nnav_yw_key(w, "graph"), nnav_yw_cstr(w, path);
                    nnav_yw_key(w, "signature"), nnav_yw_span(w, sg->key);
                    nnav_yw_key(w, "side"), nnav_yw_cstr(w, side ? "output" : "input");
                    nnav_yw_key(w, "key"), nnav_yw_span(w, st->key);
                    nnav_yw_key(w, "tensor"), nnav_yw_span(w, st->name);
                    nnav_yw_key(w, "signature_type"), nnav_yw_cstr(w, st_ty);
                    if (why != 4)
                        nnav_yw_key(w, "graph_type"), nnav_yw_cstr(w, g_ty);
                    if (nd) {
                        nnav_yw_key(w, "node"), nnav_yw_span(w, nd->name);
                        nnav_yw_key(w, "index"), nnav_yw_uint(w, nnav_node_index(m, nid));
                        nnav_yw_key(w, "op_type"), nnav_yw_span(w, nd->op);
                    }
                    nnav_yw_key(w, "what");
                    nnav_yw_cstr(w, why == 4   ? "missing"
                                    : why == 3 ? "dtype and shape"
                                    : why == 1 ? "dtype"
                                               : "shape");
                    nnav_yw_key(w, "offset"), nnav_yw_uint(w, off);
                    nnav_yw_key(w, "field"), nnav_yw_cstr(w, fp);
                    nnav_yw_map_end(w);
                    continue;
                }
                nnav_error e = {0};
                if (why == 4)
                    snprintf(msg, sizeof msg, "signature \"%s\" %s \"%s\" names %s, a tensor of no "
                             "node of the graph", kb, side ? "output" : "input", tb, sb);
                else
                    snprintf(msg, sizeof msg, "signature \"%s\" %s \"%s\" (%s) says %s%s, the graph "
                             "gives %s%s%s%s%s%s", kb, side ? "output" : "input", tb, sb, st_ty,
                             st->rank == 0 && !st->shape_off && st->encoding == 1
                                 ? " (no tensor_shape: a scalar to TensorFlow)" : "",
                             g_ty, nd ? " (node \"" : "", nd ? nb : "", nd ? "\", " : "",
                             nd ? ob : "", nd ? ")" : "");
                snprintf(e.msg, sizeof e.msg, "%s", msg);
                snprintf(e.path, sizeof e.path, "%s", fp);
                e.offset = off;
                e.has_offset = 1;
                nnav_error_format(&e, o->model, line, sizeof line);
                printf("%s  %s\n", path, line);
            }
        }
    }
    if (w)
        nnav_yw_seq_end(w);
    return bad;
}

/* Exit 2 when the file contradicts itself: a value whose recorded type
 * (value_info, an output's type) is not what its producer gives, or a
 * TensorFlow signature tensor whose type is not its value's. */
static int cmd_check(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_yw w;
    int rc = typed_run_begin(&t, &w, m, o, "check", 1, "disagreements");
    if (rc)
        return rc;
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    uint64_t checked = 0, agree = 0, bad = 0;
    char path[2048], nm[1100], ty[1100], ft[1100], from[2400];
    for (uint32_t g = first; g < end && rc == 0; g++) {
        size_t n;
        uint32_t *vals = graph_values(m, g, t.seen, &n);
        if (!vals) {
            fprintf(stderr, "nnav check: out of memory\n");
            rc = EXIT_BADINPUT;
            break;
        }
        nnav_graph_path(m, g, path, sizeof path);
        for (size_t i = 0; i < n; i++) {
            const nnav_fact *f = nnav_shapes_fact(s, vals[i]);
            checked++;
            agree += f && f->src == NNAV_SRC_AGREE;
            if (!f || f->src != NNAV_SRC_DISAGREE)
                continue;
            bad++;
            const nnav_value *v = nnav_value_get(m, vals[i]);
            value_type(s, vals[i], ty, sizeof ty);
            nnav_value_type_format(m, vals[i], ft, sizeof ft);
            if (o->yaml) {
                nnav_yw_map(&w);
                nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, path);
                nnav_yw_key(&w, "name"), nnav_yw_span(&w, v->name);
                nnav_yw_key(&w, "file"), nnav_yw_cstr(&w, ft);
                nnav_yw_key(&w, "inferred"), nnav_yw_cstr(&w, ty);
                if (v->kind == NNAV_VAL_NODE) {
                    const nnav_node *nd = nnav_node_get(m, v->producer);
                    nnav_yw_key(&w, "node"), nnav_yw_span(&w, nd->name);
                    nnav_yw_key(&w, "index"), nnav_yw_uint(&w, nnav_node_index(m, v->producer));
                    nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nd->op);
                } else {
                    nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, kind_word(v->kind));
                }
                nnav_yw_map_end(&w);
                continue;
            }
            source_text(m, vals[i], g, from, sizeof from);
            printf("%s  %s: the file says %s, inferred %s, from %s\n", path,
                   esc(v->name, nm, sizeof nm), ft[0] ? ft : "?", ty, from);
        }
        free(vals);
    }
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        nnav_yw_key(&w, "count"), nnav_yw_uint(&w, bad);
        nnav_yw_key(&w, "checked"), nnav_yw_uint(&w, checked);
        nnav_yw_key(&w, "agree"), nnav_yw_uint(&w, agree);
    }
    uint32_t sparse_bad = rc == 0 ? sparse_warnings(m, first, end, o->yaml ? &w : NULL, 1, stdout) : 0;
    uint64_t sig_checked = 0, sig_bad = 0;
    if (rc == 0 && nnav_signature_count(m)) {
        sig_bad = signature_findings(m, s, o, first, end, o->yaml ? &w : NULL, &sig_checked);
        if (o->yaml) {
            nnav_yw_key(&w, "signature_disagreement_count"), nnav_yw_uint(&w, sig_bad);
            nnav_yw_key(&w, "signature_tensors_checked"), nnav_yw_uint(&w, sig_checked);
        }
    }
    if (!o->yaml && rc == 0) {
        printf("%llu value%s checked: %llu where the file's type agrees with the inferred one, "
               "%llu where it disagrees\n", (unsigned long long)checked, pl(checked),
               (unsigned long long)agree,
               (unsigned long long)bad);
        if (nnav_signature_count(m))
            printf("%llu signature tensor%s checked against the graph: %llu contradict%s it\n",
                   (unsigned long long)sig_checked, pl(sig_checked), (unsigned long long)sig_bad,
                   sig_bad == 1 ? "s" : "");
    }
    rc = typed_run_end(&t, &w, o, rc);
    if (rc == 0 && bad) {
        fprintf(stderr, "nnav check: %llu value%s whose type in the file contradicts what its "
                        "producer gives\n", (unsigned long long)bad, bad == 1 ? "" : "s");
        rc = EXIT_BADINPUT;
    }
    if (sig_bad) {
        fprintf(stderr, "nnav check: %llu signature tensor%s contradicting the graph (a type "
                        "other than its value's, a Placeholder's attrs, or no such tensor)\n",
                (unsigned long long)sig_bad, pl(sig_bad));
        rc = EXIT_BADINPUT;
    }
    if (sparse_bad) {
        fprintf(stderr, "nnav check: %u sparse initializer%s whose indices contradict %s dims\n",
                sparse_bad, sparse_bad == 1 ? "" : "s", sparse_bad == 1 ? "its" : "their");
        rc = EXIT_BADINPUT;
    }
    return rc;
}

/* ---- find ---- */

static const char *hit_kind(uint8_t k)
{
    switch (k) {
    case NNAV_HIT_NODE_NAME: return "node";
    case NNAV_HIT_OP: return "op";
    case NNAV_HIT_VALUE: return "value";
    case NNAV_HIT_INITIALIZER: return "initializer";
    }
    return "?";
}

static int cmd_find(const nnav_model *m, const opts *o)
{
    nnav_search *s = nnav_search_new(m, o->arg);
    if (!s)
        return EXIT_BADINPUT;
    while (nnav_search_step(s, 1u << 20) == 0)
        ;
    size_t n;
    const nnav_hit *h = nnav_search_hits(s, &n);
    char nm[2048], extra[2048], path[2048];
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0) {
            nnav_search_free(s);
            return EXIT_BADINPUT;
        }
        nnav_yw_seq(&w);
    }
    /* Tables take two passes: the first measures the name and detail columns
     * (in display columns), the second prints them padded to the widest. */
    int wname = 40, wextra = 24;
    for (int pass = o->yaml; pass < 2; pass++)
    for (size_t i = 0; i < n; i++) {
        nnav_span name;
        nnav_graph_path(m, h[i].graph, path, sizeof path);
        extra[0] = 0;
        if (h[i].kind == NNAV_HIT_NODE_NAME || h[i].kind == NNAV_HIT_OP) {
            const nnav_node *nd = nnav_node_get(m, h[i].id);
            name = nd->name;
            op_name(m, h[i].id, extra, sizeof extra);
        } else if (h[i].kind == NNAV_HIT_VALUE) {
            name = nnav_value_get(m, h[i].id)->name;
            snprintf(extra, sizeof extra, "%s", kind_word(nnav_value_get(m, h[i].id)->kind));
        } else {
            name = nnav_tensor_get(m, h[i].id)->name;
            nnav_tensor_shape_format(m, h[i].id, extra, sizeof extra);
        }
        if (o->yaml) {
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "kind"), nnav_yw_cstr(&w, hit_kind(h[i].kind));
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, name);
            if (h[i].kind == NNAV_HIT_NODE_NAME || h[i].kind == NNAV_HIT_OP) {
                nnav_yw_key(&w, "index"), nnav_yw_uint(&w, nnav_node_index(m, h[i].id));
                nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nnav_node_get(m, h[i].id)->op);
            }
            nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, path);
            nnav_yw_map_end(&w);
            continue;
        }
        if (h[i].kind <= NNAV_HIT_OP && !name.n)
            snprintf(nm, sizeof nm, "#%u", nnav_node_index(m, h[i].id));
        else
            esc(name, nm, sizeof nm);
        if (pass == 0) {
            wname = text_cols(nm) > wname ? text_cols(nm) : wname;
            wextra = text_cols(extra) > wextra ? text_cols(extra) : wextra;
            continue;
        }
        printf("%-12s ", hit_kind(h[i].kind));
        put_padded(nm, wname + 1);
        put_padded(extra, wextra + 1);
        printf("%s\n", path);
    }
    nnav_search_free(s);
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    if (n == 0)
        fprintf(stderr, "nnav find: no matches\n");
    return 0;
}

/* ---- export ---- */

/* "a,b,c" -> a list of names (pointers into one copy). */
typedef struct name_list {
    char **v;
    char *copy;
    size_t n;
} name_list;

static int split_list(const char *s, name_list *l)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    l->n = 0;
    l->v = calloc(cap, sizeof *l->v);
    l->copy = strdup(s);
    if (!l->v || !l->copy)
        return -1;
    for (char *tok = l->copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        if (*tok)
            l->v[l->n++] = tok;
    }
    return 0;
}

static void free_list(name_list *l)
{
    free(l->v);
    free(l->copy);
}

/* The format a file name asks for by its extension (any case): .onnx, or
 * .yaml/.yml; -1 for any other name. */
static int format_of_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return -1;
    if (!strcasecmp(dot, ".onnx"))
        return NNAV_EXPORT_ONNX;
    if (!strcasecmp(dot, ".yaml") || !strcasecmp(dot, ".yml"))
        return NNAV_EXPORT_YAML;
    return -1;
}

static int cmd_export(const nnav_model *m, const opts *o)
{
    nnav_selection sel;
    nnav_error err;
    int rc;
    uint32_t g = 0;
    nnav_export_opts eo = {NNAV_EXPORT_YAML, 16, o->binary, 0, NULL, 0};
    if (o->format && strcmp(o->format, "yaml") && strcmp(o->format, "onnx"))
        return usage_error("export", "--format takes yaml or onnx, not '%s'", o->format);
    /* The output file's extension names its format; --format, when given,
     * must agree with it (a .onnx file holding YAML is worse than an error). */
    int by_name = o->out ? format_of_name(o->out) : -1;
    int asked = !o->format ? -1 : strcmp(o->format, "onnx") ? NNAV_EXPORT_YAML : NNAV_EXPORT_ONNX;
    if (asked >= 0 && by_name >= 0 && asked != by_name)
        return usage_error("export", by_name == NNAV_EXPORT_ONNX ?
                           "--format yaml contradicts the .onnx name of '%s' (drop --format, "
                           "or name a .yaml file)" : "--format onnx contradicts the .yaml name "
                           "of '%s' (drop --format, or name a .onnx file)", o->out);
    eo.format = asked >= 0 ? asked : by_name >= 0 ? by_name : NNAV_EXPORT_YAML;
    if (o->max_values >= 0)
        eo.max_values = (uint64_t)o->max_values;
    if (o->external && strcmp(o->external, "inline") && strcmp(o->external, "keep"))
        return usage_error("export", "--external takes inline or keep, not '%s'", o->external);
    eo.keep_external = o->external && !strcmp(o->external, "keep");
    eo.declutter = o->declutter;
    if (o->declutter && eo.format == NNAV_EXPORT_ONNX)
        return usage_error("export", "--declutter is a view for YAML export: an ONNX file "
                           "keeps every node%s", NULL);
    if (eo.format == NNAV_EXPORT_ONNX && !o->out)
        return usage_error("export", "ONNX output needs -o FILE%s", NULL);
    if ((o->inputs || o->outputs) && o->node)
        return usage_error("export", "choose one selection: --inputs/--outputs or --node%s", NULL);
    if (o->graph && (rc = pick_graph(m, o, "export", &g)) != 0)
        return rc;
    if (o->node) {
        opts q = *o;
        uint32_t id;
        q.arg = o->node;
        if ((rc = find_node(m, &q, &id)) != 0)
            return rc;
        rc = nnav_select_neighbours(m, id, o->depth >= 0 ? (uint32_t)o->depth : 1, &sel, &err);
    } else if (o->inputs || o->outputs) {
        name_list il = {0}, ol = {0};
        if ((o->inputs && split_list(o->inputs, &il) < 0) ||
            (o->outputs && split_list(o->outputs, &ol) < 0)) {
            free_list(&il);
            free_list(&ol);
            fprintf(stderr, "nnav export: out of memory\n");
            return EXIT_BADINPUT;
        }
        rc = nnav_select_region(m, g, (const char *const *)il.v, il.n, (const char *const *)ol.v,
                                ol.n, &sel, &err);
        free_list(&il);
        free_list(&ol);
    } else {
        rc = nnav_select_graph(m, g, &sel, &err);
    }
    if (rc < 0) {
        char msg[2048];
        nnav_error_format(&err, nnav_model_facts_get(m)->path, msg, sizeof msg);
        fprintf(stderr, "nnav export: %s\n", msg);
        return exit_status(&err);
    }
    uint64_t bytes = 0;
    if (o->out)
        rc = nnav_export_file(m, &sel, &eo, o->out, &bytes, &err);
    else
        rc = nnav_export_stream(m, &sel, &eo, stdout, &err);
    if (rc < 0) {
        char msg[2048];
        /* An error with a field path or an offset is the model's (a tensor
         * refused, data cut short); others are about the output file. */
        int of_model = !o->out || err.path[0] || err.has_offset;
        nnav_error_format(&err, of_model ? nnav_model_facts_get(m)->path : o->out, msg, sizeof msg);
        fprintf(stderr, "nnav export: %s\n", msg);
        nnav_selection_free(&sel);
        return exit_status(&err);
    }
    if (o->out) {
        char p[2048], b[64];
        nnav_text_escape_cstr(o->out, p, sizeof p);
        print_bytes(bytes, b, sizeof b);
        fprintf(stderr, "nnav export: wrote %s to %s (%s byte%s, %zu node%s)\n",
                eo.format == NNAV_EXPORT_ONNX ? "ONNX" : "YAML", p, b, pl(bytes), sel.n_nodes,
                pl(sel.n_nodes));
    }
    nnav_selection_free(&sel);
    return 0;
}

/* ---- summary (src/summary.c) ---- */

static int cmd_summary(const nnav_model *m, const opts *o)
{
    uint32_t g;
    int rc = pick_graph(m, o, "summary", &g);
    if (rc)
        return rc;
    nnav_shapes *s = shapes_of(m, o);
    if (!s)
        return EXIT_BADINPUT;
    nnav_declutter *d = NULL;
    if (o->declutter && !(d = nnav_declutter_build(m, g, s))) {
        fprintf(stderr, "nnav: out of memory while decluttering\n");
        nnav_shapes_free(s);
        return EXIT_BADINPUT;
    }
    rc = nnav_summary_write_view(m, g, s, d, o->yaml, o->depth, stdout);
    nnav_declutter_free(d);
    nnav_shapes_free(s);
    return rc;
}

/* ---- dispatch ---- */

typedef struct command {
    const char *name;
    int (*run)(const nnav_model *, const opts *);
    const char *args;   /* after MODEL */
    const char *help;
    const char *options;
} command;

static const command commands[] = {
    {"info", cmd_info, "", "Model facts: format (and why), IR, producer, opsets, metadata, "
     "TensorFlow signatures, counts, weight "
     "bytes, MACs and params of the whole model, op-type histogram.", "  --yaml           the same facts as YAML\n"},
    {"tree", cmd_tree, "", "Every graph (main, If/Loop/Scan bodies, functions) with its path, "
     "owner and node count.", "  --yaml           the same facts as YAML\n"},
    {"nodes", cmd_nodes, "", "The nodes of one graph: index, op type, name, inputs -> outputs.",
     "  --graph PATH     the graph to list (default /; see 'nnav tree')\n"
     "  --op TYPE        only nodes of this op type (Conv, or DOMAIN:TYPE)\n"
     "  --shapes         also each output's type, inferred (see 'nnav shapes')\n"
     "  --declutter      leave out Constant and Identity nodes and shape arithmetic that\n"
     "                   folds to a constant; its value shows on the input it feeds\n"
     "  --yaml           the same facts as YAML\n"},
    {"node", cmd_node, " NAME", "One node: op and domain, every attribute, each input's source "
     "and type, each output's consumers, its cost. NAME may be #INDEX.",
     "  --graph PATH     look in this graph only\n"
     "  --dim NAME=N     take the named dimension NAME as N in the cost (repeatable)\n"
     "  --yaml           the same facts as YAML\n"},
    {"tensors", cmd_tensors, "", "Initializers: name, dtype, shape, storage, bytes; totals.",
     "  --graph PATH     the graph whose initializers to list (default /)\n"
     "  --all            initializers of every graph\n"
     "  --constants      also tensors held in attributes (Constant nodes)\n"
     "  --sort size|name order by size (largest first) or name; default file order\n"
     "  --name NAME      only the tensor of this name\n"
     "  --values N       also the first N values and min/max/mean (reads the data)\n"
     "  --yaml           the same facts as YAML\n"},
    {"shapes", cmd_shapes, "", "Every value of a graph with its element type and shape, "
     "inferred through the operators and checked against the file: inputs, initializers, then "
     "node outputs; where each type comes from, and why one is unknown.",
     "  --graph PATH     the graph to list (default /)\n"
     "  --all            every graph: bodies and functions too\n"
     "  --dim NAME=N     take the named dimension NAME as N (repeatable)\n"
     "  --yaml           the same facts as YAML\n"},
    {"cost", cmd_cost, "", "MACs, FLOPs, parameters and output bytes of a graph, in all and by op "
     "type (heaviest first), from the inferred shapes.",
     "  --graph PATH     the graph to cost (default /)\n"
     "  --all            every graph, each on its own (bodies are not multiplied by trip counts)\n"
     "  --nodes          also one line per node\n"
     "  --dim NAME=N     take the named dimension NAME as N in costs (default 1; repeatable)\n"
     "  --yaml           the same facts as YAML, with exact numbers\n"},
    {"summary", cmd_summary, "", "The module hierarchy of a graph, from node names (PyTorch, "
     "TensorFlow) or the exporter's node metadata: each scope's class or ops, output type, "
     "parameters (as the framework counts them) and MACs; identical sibling layers folded.",
     "  --graph PATH     the graph to summarise (default /)\n"
     "  --depth N        scopes down to N levels below the graph (default all)\n"
     "  --declutter      ops of the decluttered view (see nodes --declutter); counts\n"
     "                   say how many nodes it hides; params and MACs stay exact\n"
     "  --dim NAME=N     take the named dimension NAME as N in costs (default 1; repeatable)\n"
     "  --yaml           every scope as YAML, each repeat naming the scope it is identical to\n"},
    {"check", cmd_check, "", "Values whose type in the file contradicts what their producer gives, "
     "and TensorFlow signature tensors whose type contradicts the graph's; exit status 2 when "
     "there is any.",
     "  --graph PATH     the graph to check (default /)\n"
     "  --all            every graph\n"
     "  --yaml           the same facts as YAML\n"},
    {"export", cmd_export, "", "Write a graph, the region between value names, or a node's "
     "neighbourhood as YAML (to stdout) or as a new ONNX model.",
     "  --graph PATH       the graph to export (default /), or to take a region from\n"
     "  --inputs A,B       region: start from these values...\n"
     "  --outputs C,D      ...and compute these (every node needed is taken)\n"
     "  --node NAME        a node and its neighbours...\n"
     "  --depth N          ...N steps up and down (default 1)\n"
     "  --format yaml|onnx output format; by default the one -o FILE's extension names\n"
     "                     (.onnx, .yaml or .yml), else yaml; a contradiction is an error\n"
     "  -o, --output FILE  write FILE (safely: temporary file, then rename)\n"
     "  --max-values N     YAML: write values of tensors of at most N elements (default 16)\n"
     "  --binary           YAML: also raw bytes as !!binary base64\n"
     "  --declutter        YAML: leave out the nodes nodes --declutter hides; a node's\n"
     "                     folded inputs' values in its 'folded' list\n"
     "  --external inline|keep  ONNX: external data inline (default) or in FILE.data\n"},
    {"find", cmd_find, " PATTERN", "Case-insensitive substring search over node names, op types, "
     "value and initializer names in all graphs; 'op:Conv' matches an op type exactly.",
     "  --yaml           the same facts as YAML\n"},
};

void nnav_cli_usage(FILE *f)
{
    fprintf(f, "Usage: nnav MODEL                 open the interactive explorer\n"
               "       nnav COMMAND MODEL [ARGS]  print facts about a model\n\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s MODEL%s", commands[i].name, commands[i].args);
        fprintf(f, "  %-22s %s\n", head, commands[i].help);
    }
    fprintf(f, "  %-22s %s\n", "help [COMMAND]", "This help, or a command's options.");
    fprintf(f, "\nMODEL is an ONNX file, a TensorFlow SavedModel folder, or a TensorFlow .pb\n"
               "(SavedModel, MetaGraphDef or GraphDef; told apart by content).\n"
               "Exit status: 0 ok, 1 usage error, 2 bad input (a file that cannot be read,\n"
               "a node or initializer name the model does not have; for check: a file whose\n"
               "recorded types contradict its operators).\n"
               "'nnav help COMMAND' (or 'nnav COMMAND --help') shows a command's options;\n"
               "see also nnav(1).\n"
               "  -h, --help       this help\n"
               "  -V, --version    print the version\n"
               "  --follow-links   (before MODEL or COMMAND) follow every symbolic link to\n"
               "                   external data, not only a Hugging Face cache's own\n");
}

/* nnav help [COMMAND]: the same as nnav --help and nnav COMMAND --help. */
static int help_command(int argc, char **argv)
{
    if (argc == 2) {
        nnav_cli_usage(stdout);
        return 0;
    }
    if (argc > 3)
        return usage_error(NULL, "help takes at most one command name%s", NULL);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[2], commands[i].name)) {
            char *args[] = {argv[0], argv[2], "--help", NULL};
            return nnav_cli_run(3, args);
        }
    return usage_error(NULL, "help: no command named '%s'", argv[2]);
}

int nnav_cli_is_command(const char *s)
{
    if (!strcmp(s, "help"))
        return 1;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(s, commands[i].name))
            return 1;
    return 0;
}

int nnav_cli_run(int argc, char **argv)
{
    const command *cmd = NULL;
    if (!strcmp(argv[1], "help"))
        return help_command(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            cmd = &commands[i];
    if (!cmd)
        return usage_error(NULL, "unknown command '%s'", argv[1]);
    static const struct option lo[] = {
        {"yaml", no_argument, 0, 'y'},       {"graph", required_argument, 0, 'g'},
        {"op", required_argument, 0, 'P'},   {"sort", required_argument, 0, 's'},
        {"all", no_argument, 0, 'a'},        {"constants", no_argument, 0, 'c'},
        {"values", required_argument, 0, 'v'}, {"name", required_argument, 0, 'n'},
        {"inputs", required_argument, 0, 'I'}, {"outputs", required_argument, 0, 'O'},
        {"node", required_argument, 0, 'N'},   {"depth", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'w'},
        {"max-values", required_argument, 0, 'M'}, {"binary", no_argument, 0, 'b'},
        {"external", required_argument, 0, 'E'},
        {"nodes", no_argument, 0, 'L'},      {"shapes", no_argument, 0, 'S'},
        {"dim", required_argument, 0, 'D'},  {"follow-links", no_argument, 0, 'F'},
        {"declutter", no_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    opts o = {0};
    int follow_links = 0; /* --follow-links: external data through any symbolic link */
    o.values = -1;
    o.depth = -1;
    o.max_values = -1;
    int c;
    char *end;
    optind = 2;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'y': o.yaml = 1; break;
        case 'g': o.graph = optarg; break;
        case 'P': o.op = optarg; break;
        case 's': o.sort = optarg; break;
        case 'a': o.all = 1; break;
        case 'c': o.constants = 1; break;
        case 'n': o.name = optarg; break;
        case 'I': o.inputs = optarg; break;
        case 'O': o.outputs = optarg; break;
        case 'N': o.node = optarg; break;
        case 'f': o.format = optarg; break;
        case 'w': case 'o': o.out = optarg; break;
        case 'E': o.external = optarg; break;
        case 'b': o.binary = 1; break;
        case 'L': o.list_nodes = 1; break;
        case 'S': o.shapes = 1; break;
        case 'F': follow_links = 1; break;
        case 'K': o.declutter = 1; break;
        case 'D': {
            /* NAME=N: the name as the file spells it (up to the last '='). */
            const char *eq = strrchr(optarg, '=');
            long long v = eq ? strtoll(eq + 1, &end, 10) : -1;
            if (!eq || eq == optarg || !eq[1] || *end || v < 0 || v > (1ll << 40))
                return usage_error(cmd->name, "--dim takes NAME=N with N from 0 to 2^40, not '%s'",
                                   optarg);
            if (o.n_bind == sizeof o.bind / sizeof *o.bind)
                return usage_error(cmd->name, "at most 64 --dim options%s", NULL);
            /* argv outlives the run: cut the name in place. */
            optarg[eq - optarg] = 0;
            o.bind[o.n_bind++] = (nnav_bind){optarg, v};
            break;
        }
        case 'd': case 'M': {
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 0 || v > 100000000)
                return usage_error(cmd->name, "a count from 0 to 100000000 was expected, not '%s'",
                                   optarg);
            if (c == 'd')
                o.depth = v;
            else
                o.max_values = v;
            break;
        }
        case 'v':
            o.values = strtol(optarg, &end, 10);
            if (*end || end == optarg || o.values < 0 || o.values > 1000000)
                return usage_error(cmd->name, "--values takes a count from 0 to 1000000, not '%s'",
                                   optarg);
            break;
        case 'h':
            printf("Usage: nnav %s MODEL%s [OPTIONS]\n%s\n\nOptions:\n%s"
                   "  --follow-links   follow any symbolic link to external data (default: only\n"
                   "                   a Hugging Face cache snapshot's link to its own blobs/)\n",
                   cmd->name, cmd->args, cmd->help, cmd->options);
            return 0;
        case ':': return usage_error(cmd->name, "option '%s' needs a value", argv[optind - 1]);
        default: return usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        }
    }
    /* Options that do not apply to this command are usage errors, not ignored. */
    int typed = cmd->run == cmd_shapes || cmd->run == cmd_cost || cmd->run == cmd_check;
    int takes_graph = cmd->run == cmd_nodes || cmd->run == cmd_node || cmd->run == cmd_tensors ||
                      cmd->run == cmd_export || cmd->run == cmd_summary || typed;
    if ((o.inputs || o.outputs || o.node || o.format || o.out || o.external || o.binary ||
         (o.depth >= 0 && cmd->run != cmd_summary) || o.max_values >= 0) && cmd->run != cmd_export)
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    if ((o.graph && !takes_graph) || (o.op && cmd->run != cmd_nodes) ||
        (o.all && cmd->run != cmd_tensors && !typed) ||
        ((o.sort || o.constants || o.name || o.values >= 0) && cmd->run != cmd_tensors) ||
        (o.list_nodes && cmd->run != cmd_cost) || (o.shapes && cmd->run != cmd_nodes) ||
        (o.declutter && cmd->run != cmd_nodes && cmd->run != cmd_summary &&
         cmd->run != cmd_export) ||
        (o.n_bind && cmd->run != cmd_shapes && cmd->run != cmd_cost && cmd->run != cmd_node &&
         cmd->run != cmd_summary))
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    int want = cmd->args[0] ? 2 : 1;
    if (argc - optind != want)
        return usage_error(cmd->name, argc - optind < want ? "missing argument%s" :
                                                             "too many arguments%s", NULL);
    o.model = argv[optind];
    o.arg = want == 2 ? argv[optind + 1] : NULL;
    nnav_model *m;
    nnav_error err;
    nnav_open_opts oo = {.follow_links = follow_links};
    if (nnav_model_open(o.model, &oo, &m, &err) < 0)
        return fail_model(o.model, &err);
    int rc = cmd->run(m, &o);
    if (nnav_model_links_refused(m))
        fprintf(stderr, "nnav %s: a data file was refused for a symbolic link on its way; "
                        "'nnav --follow-links %s ...' follows links\n", cmd->name, cmd->name);
    rc = finish(m, rc);
    nnav_model_close(m);
    return rc;
}
