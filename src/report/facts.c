/* facts.c - text and YAML forms of facts that more than one report shows
 * (report.h): byte sizes, op names, the op-type histogram, costs, sparse
 * initializers' problems. */
#include "report.h"

#include "record.h"

#include "hashtab.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

void nnav_report_bytes(uint64_t b, char *buf, size_t n)
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

const char *nnav_report_domain(nnav_span d, char *buf, size_t n)
{
    if (d.n == 0)
        return "ai.onnx";
    return esc(d, buf, n);
}

/* "Conv" or "com.microsoft:FusedConv": op qualified when not the default domain. */
const char *nnav_report_op(nnav_span op_type, nnav_span domain, char *buf, size_t n)
{
    char op[512], dom[512];
    esc(op_type, op, sizeof op);
    if (domain.n == 0 || nnav_span_eqs(domain, "ai.onnx"))
        snprintf(buf, n, "%s", op);
    else
        snprintf(buf, n, "%s:%s", esc(domain, dom, sizeof dom), op);
    return buf;
}


/* Exact counts in YAML: an integer when the double holds one, else the double. */
void nnav_report_yaml_count(nnav_yw *w, double v)
{
    if (v >= 0 && v < 1.8e19 && v == (double)(uint64_t)v)
        nnav_yw_uint(w, (uint64_t)v);
    else
        nnav_yw_double(w, v);
}

/* How many of a graph's nodes have partial costs: their shapes are not all known. */
uint64_t nnav_report_partial_nodes(const nnav_shapes *s, const nnav_graph *gr)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < gr->node_count; i++)
        n += !nnav_shapes_node_cost(s, gr->node_first + i)->known;
    return n;
}

int nnav_report_negative(const nnav_shapes *s, char *dim, size_t dn, char *buf, size_t n)
{
    uint32_t v;
    uint64_t k = nnav_shapes_negative(s, &v);
    if (dn)
        dim[0] = 0;
    if (n)
        buf[0] = 0;
    if (!k)
        return 0;
    char name[256], ty[1024], nm[128];
    int64_t x = 0;
    const nnav_model *m = nnav_shapes_model(s);
    nnav_span vn = nnav_value_get(m, v)->name;
    nnav_text_escape(vn.p, (size_t)vn.n, name, sizeof name);
    nnav_shapes_value_format(s, v, ty, sizeof ty);
    if (nnav_shapes_suggest(s, nm, sizeof nm, &x)) {
        snprintf(dim, dn, "%s=%lld", nm, (long long)x);
        snprintf(buf, n, "%llu value%s with a negative size at the assumed dims, first %s %s: "
                 "%s (unset) must be larger; --dim %s gives none", (unsigned long long)k,
                 k == 1 ? "" : "s", name, ty, nm, dim);
    } else {
        snprintf(buf, n, "%llu value%s with a negative size at the assumed dims, first %s %s: "
                 "set the dims it names with --dim", (unsigned long long)k, k == 1 ? "" : "s",
                 name, ty);
    }
    return 1;
}

static int op_cmp(const void *a, const void *b)
{
    const nnav_op_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    uint64_t n = x->op.n < y->op.n ? x->op.n : y->op.n;
    int c = n ? memcmp(x->op.p, y->op.p, n) : 0;
    return c ? c : (x->op.n > y->op.n) - (x->op.n < y->op.n);
}

/* Costs read best heaviest first; ties (ops without MACs) by FLOPs, then count. */
static int op_cost_cmp(const void *a, const void *b)
{
    const nnav_op_count *x = a, *y = b;
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

/* An op in the histogram's table: ops[id] holds the key when its op and
 * domain are these. */
typedef struct op_probe {
    const nnav_op_count *ops;
    nnav_span op, domain;
} op_probe;

static int op_same(const void *ctx, uint32_t id)
{
    const op_probe *k = ctx;
    return nnav_span_same(k->ops[id].op, k->op) && nnav_span_same(k->ops[id].domain, k->domain);
}

static uint64_t op_rehash(const void *ctx, uint32_t id)
{
    const nnav_op_count *ops = ctx;
    return op_key_hash(ops[id].op, ops[id].domain);
}

/* Op-type histogram over nodes [first, first + nn), keyed by (domain, op).
 * With shapes, each op also sums its nodes' costs and the list is sorted by
 * MACs; without, by count. The table and the list grow with the distinct
 * ops, not the nodes: a million nodes of a few ops would otherwise pay 32
 * bytes a node for the peak of `info`. ops[] keeps first-seen order until
 * the sort (qsort's order of equal keys depends on it). */
nnav_op_count *nnav_op_histogram(const nnav_model *m, uint32_t first, uint32_t nn,
                              const nnav_shapes *sh, size_t *count)
{
    size_t n = 0, ops_cap = 32;
    nnav_hashtab tab = {0};
    nnav_op_count *ops = malloc(ops_cap * sizeof *ops);
    if (!ops)
        return NULL;
    for (uint32_t i = first; i < first + nn; i++) {
        op_probe k = {ops, nnav_node_get(m, i)->op, nnav_node_domain(m, i)};
        uint64_t h = op_key_hash(k.op, k.domain), at = 0;
        uint32_t id = nnav_hashtab_find(&tab, h, op_same, &k, &at);
        if (id == NNAV_HASHTAB_NONE) {
            if (n == ops_cap) {
                nnav_op_count *no = realloc(ops, 2 * ops_cap * sizeof *ops);
                if (!no)
                    goto oom;
                ops = no, ops_cap *= 2;
            }
            id = (uint32_t)n;
            memset(&ops[n], 0, sizeof *ops);
            ops[n].op = k.op;
            ops[n].domain = k.domain;
            n++;
            if (nnav_hashtab_put(&tab, at, h, id, op_rehash, ops) != 0)
                goto oom;
        }
        nnav_op_count *oc = &ops[id];
        oc->count++;
        if (sh) {
            const nnav_cost *c = nnav_shapes_node_cost(sh, i);
            oc->macs += c->macs;
            oc->flops += c->flops;
            oc->params += c->params;
        }
    }
    nnav_hashtab_free(&tab);
    qsort(ops, n, sizeof *ops, sh ? op_cost_cmp : op_cmp);
    *count = n;
    return ops;
oom:
    nnav_hashtab_free(&tab);
    free(ops);
    return NULL;
}

/* Sparse initializers whose indices are wrong: YAML a map each (graph,
 * name, problem); text info's "warning" rows or check's lines. */
enum { SW_LABEL, SW_GRAPH, SW_NAME, SW_PROBLEM };
static const nnav_rw_col sw_info_cols[] = {
    [SW_LABEL] = {NULL, 14, 0, NULL, 0, NULL},
    [SW_GRAPH] = {"graph", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [SW_NAME] = {"name", 0, 0, NULL, 0, NULL},
    [SW_PROBLEM] = {"problem", 0, 0, ": ", 0, NULL},
};
static const nnav_rw_col sw_check_cols[] = {
    [SW_LABEL] = {NULL, NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [SW_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
    [SW_NAME] = {"name", 0, 0, "  ", 0, NULL},
    [SW_PROBLEM] = {"problem", 0, 0, ": ", 0, NULL},
};
static const nnav_rw_table sw_tables[2] = {
    {.cols = sw_info_cols, .ncols = 4, .sep = " "},
    {.cols = sw_check_cols, .ncols = 4, .sep = " "},
};

uint32_t nnav_sparse_warnings(const nnav_model *m, uint32_t first, uint32_t end, nnav_rw *w,
                              int check)
{
    uint32_t bad = 0;
    char why[1024], nm[600], path[1024], text[2400];
    nnav_rw_table_begin(w, "sparse_warnings", &sw_tables[check != 0]);
    for (uint32_t i = 0; i < nnav_sparse_count(m); i++) {
        const nnav_sparse *sp = nnav_sparse_get(m, i);
        if (sp->graph < first || sp->graph >= end || !nnav_sparse_check(m, i, why, sizeof why))
            continue;
        bad++;
        nnav_span name = sp->values != NNAV_NONE ? nnav_tensor_get(m, sp->values)->name
                                                 : (nnav_span){(const uint8_t *)"", 0};
        nnav_graph_path(m, sp->graph, path, sizeof path);
        esc(name, nm, sizeof nm);
        if (check)
            snprintf(text, sizeof text, "sparse initializer %s", nm);
        else
            snprintf(text, sizeof text, "sparse initializer \"%s\" in %s", nm, path);
        nnav_rw_row(w);
        nnav_rw_cell_null(w, SW_LABEL, "warning");
        nnav_rw_cell_cstr(w, SW_GRAPH, path, NULL);
        nnav_rw_cell_span(w, SW_NAME, name, text);
        nnav_rw_cell_cstr(w, SW_PROBLEM, why, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    return bad;
}

