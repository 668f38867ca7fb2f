/* cli.c - the scriptable face: info, tree, nodes, node, tensors, find.
 * Human tables by default, the same facts as YAML with --yaml. Every string
 * from the file goes through nnav_text_escape (tables) or nnav_yw_span (YAML). */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnav.h"
#include "yamlout.h"

enum { EXIT_USAGE = 1, EXIT_BADINPUT = 2 };

typedef struct opts {
    int yaml, all, constants;
    long values; /* --values N: first N values and min/max/mean; -1 = not asked */
    const char *name;
    /* export */
    const char *inputs, *outputs, *node, *format, *out, *external;
    long depth, max_values;
    int binary;
    const char *graph, *op, *sort;
    const char *model;
    const char *arg; /* NAME or PATTERN */
} opts;

/* ---- small printing helpers ---- */

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

static void print_bytes(uint64_t b, char *buf, size_t n)
{
    /* Exact bytes with thousands separators: scripts and eyes both read it. */
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%llu", (unsigned long long)b);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
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
    return e->status ? e->status : EXIT_BADINPUT;
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

/* ---- model-wide facts (shared by info's two outputs) ---- */

typedef struct op_count {
    nnav_span op, domain; /* of the first node of this op */
    uint64_t count;
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

/* Op-type histogram over every graph, keyed by (domain, op). The table and
 * the list grow with the distinct ops, not the nodes: a million nodes of a
 * few ops would otherwise pay 32 bytes a node for the peak of `info`. */
static op_count *op_histogram(const nnav_model *m, size_t *count)
{
    uint32_t nn = nnav_node_count(m);
    size_t cap = 64, n = 0, ops_cap = 32;
    uint32_t *tab = malloc(cap * sizeof *tab);
    op_count *ops = malloc(ops_cap * sizeof *ops);
    if (!tab || !ops) {
        free(tab), free(ops);
        return NULL;
    }
    memset(tab, 0xff, cap * sizeof *tab);
    for (uint32_t i = 0; i < nn; i++) {
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
        if (tab[s] != UINT32_MAX) {
            ops[tab[s]].count++;
            continue;
        }
        if (n == ops_cap) {
            op_count *no = realloc(ops, 2 * ops_cap * sizeof *ops);
            if (!no)
                goto oom;
            ops = no, ops_cap *= 2;
        }
        tab[s] = (uint32_t)n;
        ops[n].op = op;
        ops[n].domain = domain;
        ops[n].count = 1;
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
    }
    free(tab);
    qsort(ops, n, sizeof *ops, op_cmp);
    *count = n;
    return ops;
oom:
    free(tab);
    free(ops);
    return NULL;
}

typedef struct totals {
    uint32_t subgraphs, init_main, sparse_main, inputs_main, outputs_main;
    uint32_t init_all;
    uint64_t nodes_main, nodes_all, init_bytes, params, const_bytes;
    uint32_t undefined, warnings;
} totals;

static void compute_totals(const nnav_model *m, totals *t)
{
    memset(t, 0, sizeof *t);
    const nnav_graph *g0 = nnav_graph_get(m, 0);
    t->nodes_main = g0->node_count;
    t->nodes_all = nnav_node_count(m);
    t->init_main = g0->init_count;
    t->sparse_main = g0->sparse_count;
    t->inputs_main = g0->input_count;
    t->outputs_main = g0->output_count;
    for (uint32_t g = 0; g < nnav_graph_count(m); g++)
        if (nnav_graph_get(m, g)->kind == NNAV_GRAPH_BODY)
            t->subgraphs++;
    for (uint32_t i = 0; i < nnav_tensor_count(m); i++) {
        const nnav_tensor *tt = nnav_tensor_get(m, i);
        if (tt->warn)
            t->warnings++;
        uint64_t b = tt->nbytes != UINT64_MAX ? tt->nbytes : 0;
        if (tt->owner == NNAV_TOWN_INITIALIZER || tt->owner == NNAV_TOWN_SPARSE_VALUES) {
            t->init_all += tt->owner == NNAV_TOWN_INITIALIZER;
            t->init_bytes += b;
            if (tt->nelems != UINT64_MAX)
                t->params += tt->nelems;
        } else if (tt->owner == NNAV_TOWN_ATTRIBUTE) {
            t->const_bytes += b;
        }
    }
    for (uint32_t v = 0; v < nnav_value_count(m); v++)
        if (nnav_value_get(m, v)->kind == NNAV_VAL_UNDEFINED)
            t->undefined++;
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

static void print_tf_info(const nnav_model *m)
{
    char a[1100], b[1100], t[512];
    for (uint32_t i = 0; i < nnav_metagraph_count(m) && nnav_metagraph_count(m) > 1; i++) {
        const nnav_metagraph *mg = nnav_metagraph_get(m, i);
        nnav_graph_path(m, mg->graph, t, sizeof t);
        printf("%-14s %s  tags", i ? "" : "meta_graphs", t);
        for (uint32_t k = 0; k < mg->tag_count; k++)
            printf("%s %s", k ? "," : "", esc(nnav_tag_get(m, mg->tag_first + k), a, sizeof a));
        printf(", %u functions, %u signatures\n", mg->function_count, mg->sig_count);
    }
    if (nnav_metagraph_count(m))
        printf("%-14s %u\n", "signatures", nnav_signature_count(m));
    for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
        const nnav_signature *sg = nnav_signature_get(m, i);
        printf("  %s", esc(sg->key, a, sizeof a));
        if (sg->method.n)
            printf(" (%s)", esc(sg->method, a, sizeof a));
        if (nnav_metagraph_count(m) > 1) {
            nnav_graph_path(m, nnav_metagraph_get(m, sg->metagraph)->graph, t, sizeof t);
            printf(" in %s", t);
        }
        printf("\n");
        for (int side = 0; side < 2; side++) {
            uint32_t f = side ? sg->out_first : sg->in_first;
            uint32_t n = side ? sg->out_count : sg->in_count;
            for (uint32_t k = f; k < f + n; k++) {
                const nnav_sig_tensor *st = nnav_sig_tensor_get(m, k);
                nnav_sig_tensor_format(m, k, t, sizeof t);
                printf("    %-6s %-20s %-28s %s\n", side ? "output" : "input",
                       esc(st->key, a, sizeof a), esc(st->name, b, sizeof b), t);
            }
        }
    }
    for (uint32_t i = 0; i < nnav_warning_count(m); i++)
        printf("%-14s %s\n", "warning", nnav_warning_get(m, i));
}

static int cmd_info(const nnav_model *m, const opts *o)
{
    const nnav_model_facts *f = nnav_model_facts_get(m);
    totals t;
    size_t nops = 0;
    compute_totals(m, &t);
    op_count *ops = op_histogram(m, &nops);
    char a[4096], b[1024];
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
        nnav_yw_key(&w, "initializers"), nnav_yw_uint(&w, t.init_main);
        nnav_yw_key(&w, "initializers_all_graphs"), nnav_yw_uint(&w, t.init_all);
        nnav_yw_key(&w, "sparse_initializers"), nnav_yw_uint(&w, t.sparse_main);
        nnav_yw_key(&w, "inputs"), nnav_yw_uint(&w, t.inputs_main);
        nnav_yw_key(&w, "outputs"), nnav_yw_uint(&w, t.outputs_main);
        nnav_yw_key(&w, "undefined_values"), nnav_yw_uint(&w, t.undefined);
        nnav_yw_key(&w, "tensor_warnings"), nnav_yw_uint(&w, t.warnings);
        nnav_yw_map_end(&w);
        nnav_yw_key(&w, "initializer_bytes"), nnav_yw_uint(&w, t.init_bytes);
        nnav_yw_key(&w, "parameters"), nnav_yw_uint(&w, t.params);
        nnav_yw_key(&w, "constant_bytes"), nnav_yw_uint(&w, t.const_bytes);
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
        yaml_tf_info(&w, m);
        nnav_yw_map_end(&w);
        free(ops);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    nnav_text_escape_cstr(f->path, a, sizeof a);
    print_bytes(f->file_size, b, sizeof b);
    printf("%-14s %s (%s bytes)\n", "file", a, b);
    printf("%-14s %s (%s)\n", "format", nnav_format_name(f->format), f->format_reason);
    int onnx = f->format == NNAV_FMT_ONNX; /* IR and opsets are ONNX's notions */
    if (f->ir_version >= 0)
        printf("%-14s %lld\n", "ir_version", (long long)f->ir_version);
    else if (onnx)
        printf("%-14s (absent)\n", "ir_version");
    printf("%-14s %s", "producer", esc(f->producer_name, a, sizeof a));
    printf(" %s\n", esc(f->producer_version, a, sizeof a));
    if (f->domain.n)
        printf("%-14s %s\n", "domain", esc(f->domain, a, sizeof a));
    if (f->model_version >= 0)
        printf("%-14s %lld\n", "model_version", (long long)f->model_version);
    if (f->doc_string.n)
        printf("%-14s %s\n", "doc_string", esc(f->doc_string, a, 200));
    if (onnx || nnav_opset_count(m)) {
        printf("%-14s", "opset_import");
        for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
            const nnav_opset *op = nnav_opset_get(m, i);
            printf("%s %s %lld", i ? "," : "", domain_name(op->domain, a, sizeof a),
                   (long long)op->version);
        }
        printf("\n");
    }
    for (uint32_t i = 0; i < nnav_metadata_count(m); i++) {
        const nnav_kv *kv = nnav_metadata_get(m, i);
        printf("%-14s %s = ", i ? "" : "metadata", esc(kv->key, a, sizeof a));
        printf("%s\n", esc(kv->value, a, 300));
    }
    printf("%-14s %s\n", "graph", f->graph_name.n ? esc(f->graph_name, a, sizeof a) : "(unnamed)");
    printf("%-14s %llu in the main graph, %llu in all graphs\n", "nodes",
           (unsigned long long)t.nodes_main, (unsigned long long)t.nodes_all);
    printf("%-14s %u\n", "subgraphs", t.subgraphs);
    printf("%-14s %u\n", "functions", nnav_function_count(m));
    if (nnav_training_count(m))
        printf("%-14s %u\n", "training_info", nnav_training_count(m));
    printf("%-14s %u in the main graph", "initializers", t.init_main);
    if (t.sparse_main)
        printf(" (+%u sparse)", t.sparse_main);
    if (t.init_all != t.init_main)
        printf(", %u in all graphs", t.init_all);
    printf("\n");
    printf("%-14s %u\n", "inputs", t.inputs_main);
    printf("%-14s %u\n", "outputs", t.outputs_main);
    print_bytes(t.init_bytes, a, sizeof a);
    human(t.init_bytes, b, sizeof b);
    printf("%-14s %s bytes (%s)", "weights", a, b);
    print_bytes(t.params, a, sizeof a);
    printf(", %s parameters\n", a);
    if (t.const_bytes) {
        print_bytes(t.const_bytes, a, sizeof a);
        printf("%-14s %s bytes in attribute tensors (Constant nodes)\n", "constants", a);
    }
    if (t.undefined)
        printf("%-14s %u value names used but never defined\n", "warning", t.undefined);
    if (t.warnings)
        printf("%-14s %u tensors whose stored data does not match dims x dtype (see tensors)\n",
               "warning", t.warnings);
    print_tf_info(m);
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        printf("%-14s %s field %u (wire type %u, %llu bytes) at offset %llu\n",
               i ? "" : "unknown", u->where, u->number, u->wire_type,
               (unsigned long long)u->span.n, (unsigned long long)u->offset);
    }
    printf("%-14s", "ops");
    size_t col = 15;
    for (size_t i = 0; i < nops; i++) {
        char nm[600];
        int k = snprintf(nm, sizeof nm, "%s %llu", op_text(ops[i].op, ops[i].domain, a, sizeof a),
                         (unsigned long long)ops[i].count);
        if (col + (size_t)k + 2 > 100 && col > 15) {
            printf(",\n%-14s", "");
            col = 15;
        } else if (i) {
            printf(",");
            col++;
        }
        printf(" %s", nm);
        col += (size_t)k + 1;
    }
    printf("\n");
    free(ops);
    return 0;
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
        printf("%*s%s  [%s]  %u nodes", indent, "", path, own, gr->node_count);
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
    *g = nnav_graph_by_path(m, o->graph);
    if (*g == NNAV_NONE)
        return usage_error(cmd, "no graph at path '%s' (see 'nnav tree MODEL' for the paths)",
                           o->graph);
    return 0;
}

static void refs_text(const nnav_model *m, uint32_t first, uint32_t count, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count && o + 8 < n; i++) {
        char nm[512];
        const nnav_ref r = nnav_ref_get(m, first + i);
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
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0)
            return EXIT_BADINPUT;
        nnav_yw_seq(&w);
    }
    char opb[1100], nm[1100], ins[8192], outs[8192];
    for (uint32_t i = 0; i < gr->node_count; i++) {
        uint32_t id = gr->node_first + i;
        const nnav_node *nd = nnav_node_get(m, id);
        op_name(m, id, opb, sizeof opb);
        if (o->op) {
            /* --op matches the op type, or the domain-qualified form. */
            if (strcmp(opb, o->op) != 0 && !nnav_span_eqs(nd->op, o->op))
                continue;
        }
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
            nnav_yw_key(&w, "output");
            nnav_yw_seq_flow(&w);
            for (uint32_t k = 0; k < nd->out_count; k++)
                nnav_yw_span(&w, nnav_ref_get(m, nd->out_first + k).name);
            nnav_yw_seq_end(&w);
            nnav_yw_map_end(&w);
            continue;
        }
        refs_text(m, nd->in_first, nd->in_count, ins, sizeof ins);
        refs_text(m, nd->out_first, nd->out_count, outs, sizeof outs);
        printf("%6u  %-20s %-28s %s -> %s\n", i, opb,
               nd->name.n ? esc(nd->name, nm, sizeof nm) : "-", ins, outs);
    }
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
        nnav_yw_seq_flow(w);
        for (uint32_t i = 0; i < at->tensor_count; i++) {
            nnav_tensor_shape_format(m, at->tensor_first + i, p, sizeof p);
            nnav_yw_cstr(w, p);
        }
        nnav_yw_seq_end(w);
        return;
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
            return usage_error("node", "no node named '%s' in that graph", name);
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
        return usage_error("node", "no node named '%s' (try 'nnav find')", name);
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

static int cmd_node(const nnav_model *m, const opts *o)
{
    uint32_t id;
    int rc = find_node(m, o, &id);
    if (rc)
        return rc;
    const nnav_node *nd = nnav_node_get(m, id);
    char a[8192], b[2048], c[2048], path[2048];
    nnav_graph_path(m, nd->graph, path, sizeof path);
    if (o->yaml) {
        nnav_yw w;
        if (nnav_yw_open(&w, stdout) < 0)
            return EXIT_BADINPUT;
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
                    if (!side) {
                        nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, kind_word(v->kind));
                        if (v->kind == NNAV_VAL_NODE) {
                            nnav_yw_key(&w, "producer");
                            nnav_yw_span(&w, nnav_node_get(m, v->producer)->name);
                        }
                        if (v->graph != nd->graph) {
                            nnav_graph_path(m, v->graph, c, sizeof c);
                            nnav_yw_key(&w, "scope"), nnav_yw_cstr(&w, c);
                        }
                    } else {
                        uint32_t nc;
                        const uint32_t *cons = nnav_value_consumers(m, r.value, &nc);
                        nnav_yw_key(&w, "consumers");
                        nnav_yw_seq_flow(&w);
                        for (uint32_t k = 0; k < nc; k++)
                            nnav_yw_cstr(&w, node_label(m, cons[k], c, sizeof c));
                        nnav_yw_seq_end(&w);
                        nnav_yw_key(&w, "graph_output"), nnav_yw_bool(&w, v->is_output);
                    }
                }
                nnav_yw_map_end(&w);
            }
            nnav_yw_seq_end(&w);
        }
        nnav_yw_map_end(&w);
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
        nnav_value_type_format(m, r.value, c, sizeof c);
        printf("  [%u] %-28s %-24s from %s\n", i, esc(r.name, a, sizeof a), c[0] ? c : "?", b);
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
        nnav_value_type_format(m, r.value, c, sizeof c);
        printf("  [%u] %-28s %-24s to ", i, esc(r.name, a, sizeof a), c[0] ? c : "?");
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
        printf("\n");
    }
    return 0;
}

/* ---- tensors ---- */

typedef struct trow {
    uint32_t t;
    uint32_t sparse; /* sparse id, or NNAV_NONE */
    uint64_t bytes;
} trow;

static const nnav_model *sort_model;

static int trow_size(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return (x->t > y->t) - (x->t < y->t);
}

static int trow_name(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    nnav_span p = nnav_tensor_get(sort_model, x->t)->name, q = nnav_tensor_get(sort_model, y->t)->name;
    uint64_t n = p.n < q.n ? p.n : q.n;
    int c = n ? memcmp(p.p, q.p, n) : 0;
    if (c)
        return c;
    if (p.n != q.n)
        return p.n < q.n ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
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
}

/* Values on request: the first n and min/max/mean over all elements. Reads the
 * payload (and opens external data) only here. */
static int tensor_values(const nnav_model *m, uint32_t t, long n, nnav_yw *w)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    size_t want = (size_t)n;
    double *v = calloc(want + 1, sizeof *v);
    nnav_span *sv = calloc(want + 1, sizeof *sv);
    nnav_values vals = {.v = v, .s = sv};
    nnav_error err;
    char buf[1100];
    int rc = 0;
    if (!v || !sv) {
        free(v);
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
        for (size_t i = 0; i < vals.count; i++)
            tt->dtype == 8 ? nnav_yw_span(w, sv[i]) : nnav_yw_double(w, v[i]);
        nnav_yw_seq_end(w);
        if (vals.has_stats) {
            nnav_yw_key(w, "min"), nnav_yw_double(w, vals.min);
            nnav_yw_key(w, "max"), nnav_yw_double(w, vals.max);
            nnav_yw_key(w, "mean"), nnav_yw_double(w, vals.mean);
        }
        if (vals.nan_count)
            nnav_yw_key(w, "nan_count"), nnav_yw_uint(w, vals.nan_count);
    } else {
        printf("    values:");
        if (vals.count == 0)
            printf(" none%s", tt->nelems == UINT64_MAX ? " (the dims are malformed)"
                              : vals.total ? " stored" : " (no elements)");
        for (size_t i = 0; i < vals.count; i++) {
            if (tt->dtype == 8)
                printf("%s \"%s\"", i ? "," : "", esc(sv[i], buf, sizeof buf));
            else
                printf("%s %.9g", i ? "," : "", v[i]);
        }
        if (vals.total > vals.count)
            printf("%s (%llu in all)", vals.count ? ", ..." : "", (unsigned long long)vals.total);
        printf("\n");
        if (vals.has_stats)
            printf("    min %.9g  max %.9g  mean %.9g\n", vals.min, vals.max, vals.mean);
        if (vals.nan_count)
            printf("    %llu NaN\n", (unsigned long long)vals.nan_count);
    }
    free(v);
    free(sv);
    return rc;
}

static int cmd_tensors(const nnav_model *m, const opts *o)
{
    uint32_t g = 0;
    int rc;
    if (o->sort && strcmp(o->sort, "size") && strcmp(o->sort, "name"))
        return usage_error("tensors", "--sort takes size or name, not '%s'", o->sort);
    if ((rc = pick_graph(m, o, "tensors", &g)) != 0)
        return rc;
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
        if (t->owner == NNAV_TOWN_ATTRIBUTE && !o->constants)
            continue;
        if (o->name && !nnav_span_eqs(t->name, o->name))
            continue;
        trow r = {i, t->owner == NNAV_TOWN_SPARSE_VALUES ? t->owner_id : NNAV_NONE, 0};
        if (r.sparse != NNAV_NONE) {
            const nnav_sparse *sp = nnav_sparse_get(m, r.sparse);
            /* What the sparse form holds: values plus indices, as dims x dtype. */
            r.bytes = t->nbytes != UINT64_MAX ? t->nbytes : t->stored;
            if (sp->indices != NNAV_NONE) {
                const nnav_tensor *ix = nnav_tensor_get(m, sp->indices);
                r.bytes += ix->nbytes != UINT64_MAX ? ix->nbytes : ix->stored;
            }
        } else {
            r.bytes = t->nbytes != UINT64_MAX ? t->nbytes : t->stored;
        }
        rows[nr++] = r;
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
        return usage_error("tensors", "no initializer named '%s' (try --all or --constants)",
                           o->name);
    }
    for (size_t i = 0; i < nr; i++) {
        total += rows[i].bytes == UINT64_MAX ? 0 : rows[i].bytes;
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].t);
        params += t->nelems == UINT64_MAX ? 0 : t->nelems;
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
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].t);
        if (rows[i].sparse != NNAV_NONE) {
            const nnav_sparse *sp = nnav_sparse_get(m, rows[i].sparse);
            size_t k = (size_t)snprintf(sh, sizeof sh, "%s[", nnav_dtype_name(t->dtype));
            for (uint32_t d = 0; d < sp->ndims && k < sizeof sh - 24; d++)
                k += (size_t)snprintf(sh + k, sizeof sh - k, d ? ",%lld" : "%lld",
                                      (long long)nnav_dims(m, sp->dims_first)[d]);
            snprintf(sh + k, sizeof sh - k, "]");
            snprintf(st, sizeof st, "sparse (%llu values)",
                     (unsigned long long)(t->nelems == UINT64_MAX ? 0 : t->nelems));
        } else {
            nnav_tensor_shape_format(m, rows[i].t, sh, sizeof sh);
            nnav_tensor_storage_format(m, rows[i].t, st, sizeof st);
        }
        warn_text(t->warn, wt, sizeof wt);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, t->name);
            nnav_yw_key(&w, "data_type"), nnav_yw_cstr(&w, nnav_dtype_name(t->dtype));
            nnav_yw_key(&w, "dims");
            nnav_yw_seq_flow(&w);
            if (rows[i].sparse != NNAV_NONE) {
                const nnav_sparse *sp = nnav_sparse_get(m, rows[i].sparse);
                for (uint32_t d = 0; d < sp->ndims; d++)
                    nnav_yw_int(&w, nnav_dims(m, sp->dims_first)[d]);
            } else {
                for (uint32_t d = 0; d < t->ndims; d++)
                    nnav_yw_int(&w, nnav_dims(m, t->dims_first)[d]);
            }
            nnav_yw_seq_end(&w);
            nnav_yw_key(&w, "storage"), nnav_yw_cstr(&w, st);
            nnav_yw_key(&w, "bytes");
            rows[i].bytes == UINT64_MAX ? nnav_yw_null(&w) : nnav_yw_uint(&w, rows[i].bytes);
            if (o->all) {
                nnav_graph_path(m, t->graph, gp, sizeof gp);
                nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, gp);
            }
            if (t->owner == NNAV_TOWN_ATTRIBUTE)
                nnav_yw_key(&w, "constant"), nnav_yw_bool(&w, 1);
            if (wt[0])
                nnav_yw_key(&w, "warnings"), nnav_yw_cstr(&w, wt + 1);
            if (o->values >= 0 && tensor_values(m, rows[i].t, o->values, &w) < 0)
                vrc = EXIT_BADINPUT;
            nnav_yw_map_end(&w);
            continue;
        }
        if (rows[i].bytes == UINT64_MAX)
            snprintf(by, sizeof by, "?");
        else
            print_bytes(rows[i].bytes, by, sizeof by);
        esc(t->name, nm, sizeof nm);
        if (t->owner == NNAV_TOWN_ATTRIBUTE && !t->name.n) {
            const nnav_attr *at = nnav_attr_get(m, t->owner_id);
            char ab[512];
            if (at->node != NNAV_NONE)
                snprintf(nm, sizeof nm, "(%s.%s)", node_label(m, at->node, ab, sizeof ab),
                         esc(at->name, st, 256));
        }
        printf("%-36s %-24s %12s  %s", nm, sh, by, st);
        if (o->all) {
            nnav_graph_path(m, t->graph, gp, sizeof gp);
            printf("  %s", gp);
        }
        if (wt[0])
            printf("  WARNING:%s", wt);
        printf("\n");
        if (o->values >= 0 && tensor_values(m, rows[i].t, o->values, NULL) < 0)
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
    printf("%zu tensors, %s bytes (%s), %s parameters\n", nr, by, sh, st);
    free(rows);
    return vrc;
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
        printf("%-12s %-40s %-24s %s\n", hit_kind(h[i].kind), nm, extra, path);
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

static int cmd_export(const nnav_model *m, const opts *o)
{
    nnav_selection sel;
    nnav_error err;
    int rc;
    uint32_t g = 0;
    nnav_export_opts eo = {NNAV_EXPORT_YAML, 16, o->binary, 0};
    if (o->format && strcmp(o->format, "yaml") && strcmp(o->format, "onnx"))
        return usage_error("export", "--format takes yaml or onnx, not '%s'", o->format);
    if (o->format && !strcmp(o->format, "onnx"))
        eo.format = NNAV_EXPORT_ONNX;
    if (o->max_values >= 0)
        eo.max_values = (uint64_t)o->max_values;
    if (o->external && strcmp(o->external, "inline") && strcmp(o->external, "keep"))
        return usage_error("export", "--external takes inline or keep, not '%s'", o->external);
    eo.keep_external = o->external && !strcmp(o->external, "keep");
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
        return err.status ? err.status : EXIT_BADINPUT;
    }
    uint64_t bytes = 0;
    if (o->out)
        rc = nnav_export_file(m, &sel, &eo, o->out, &bytes, &err);
    else
        rc = nnav_export_stream(m, &sel, &eo, stdout, &err);
    if (rc < 0) {
        char msg[2048];
        nnav_error_format(&err, o->out ? o->out : nnav_model_facts_get(m)->path, msg, sizeof msg);
        fprintf(stderr, "nnav export: %s\n", msg);
        nnav_selection_free(&sel);
        return err.status ? err.status : EXIT_BADINPUT;
    }
    if (o->out) {
        char p[2048], b[64];
        nnav_text_escape_cstr(o->out, p, sizeof p);
        print_bytes(bytes, b, sizeof b);
        fprintf(stderr, "nnav export: wrote %s (%s bytes, %zu nodes)\n", p, b, sel.n_nodes);
    }
    nnav_selection_free(&sel);
    return 0;
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
     "bytes, op-type histogram.", "  --yaml           the same facts as YAML\n"},
    {"tree", cmd_tree, "", "Every graph (main, If/Loop/Scan bodies, functions) with its path, "
     "owner and node count.", "  --yaml           the same facts as YAML\n"},
    {"nodes", cmd_nodes, "", "The nodes of one graph: index, op type, name, inputs -> outputs.",
     "  --graph PATH     the graph to list (default /; see 'nnav tree')\n"
     "  --op TYPE        only nodes of this op type (Conv, or DOMAIN:TYPE)\n"
     "  --yaml           the same facts as YAML\n"},
    {"node", cmd_node, " NAME", "One node: op and domain, every attribute, each input's source "
     "and type, each output's consumers. NAME may be #INDEX.",
     "  --graph PATH     look in this graph only\n"
     "  --yaml           the same facts as YAML\n"},
    {"tensors", cmd_tensors, "", "Initializers: name, dtype, shape, storage, bytes; totals.",
     "  --graph PATH     the graph whose initializers to list (default /)\n"
     "  --all            initializers of every graph\n"
     "  --constants      also tensors held in attributes (Constant nodes)\n"
     "  --sort size|name order by size (largest first) or name; default file order\n"
     "  --name NAME      only the tensor of this name\n"
     "  --values N       also the first N values and min/max/mean (reads the data)\n"
     "  --yaml           the same facts as YAML\n"},
    {"export", cmd_export, "", "Write a graph, the region between value names, or a node's "
     "neighbourhood as YAML (to stdout) or as a new ONNX model.",
     "  --graph PATH       the graph to export (default /), or to take a region from\n"
     "  --inputs A,B       region: start from these values...\n"
     "  --outputs C,D      ...and compute these (every node needed is taken)\n"
     "  --node NAME        a node and its neighbours...\n"
     "  --depth N          ...N steps up and down (default 1)\n"
     "  --format yaml|onnx output format (default yaml)\n"
     "  -o, --output FILE  write FILE (safely: temporary file, then rename)\n"
     "  --max-values N     YAML: write values of tensors of at most N elements (default 16)\n"
     "  --binary           YAML: also raw bytes as !!binary base64\n"
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
    fprintf(f, "\nMODEL is an ONNX file, a TensorFlow SavedModel folder, or a TensorFlow .pb\n"
               "(SavedModel, MetaGraphDef or GraphDef; told apart by content).\n"
               "Exit status: 0 ok, 1 usage error, 2 bad input.\n"
               "'nnav COMMAND --help' shows a command's options; see also nnav(1).\n"
               "  -h, --help       this help\n"
               "  -V, --version    print the version\n");
}

int nnav_cli_is_command(const char *s)
{
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(s, commands[i].name))
            return 1;
    return 0;
}

int nnav_cli_run(int argc, char **argv)
{
    const command *cmd = NULL;
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
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    opts o = {0};
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
            printf("Usage: nnav %s MODEL%s [OPTIONS]\n%s\n\nOptions:\n%s", cmd->name, cmd->args,
                   cmd->help, cmd->options);
            return 0;
        case ':': return usage_error(cmd->name, "option '%s' needs a value", argv[optind - 1]);
        default: return usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        }
    }
    /* Options that do not apply to this command are usage errors, not ignored. */
    int takes_graph = cmd->run == cmd_nodes || cmd->run == cmd_node || cmd->run == cmd_tensors ||
                      cmd->run == cmd_export;
    if ((o.inputs || o.outputs || o.node || o.format || o.out || o.external || o.binary ||
         o.depth >= 0 || o.max_values >= 0) && cmd->run != cmd_export)
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    if ((o.graph && !takes_graph) || (o.op && cmd->run != cmd_nodes) ||
        ((o.sort || o.all || o.constants || o.name || o.values >= 0) && cmd->run != cmd_tensors))
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    int want = cmd->args[0] ? 2 : 1;
    if (argc - optind != want)
        return usage_error(cmd->name, argc - optind < want ? "missing argument%s" :
                                                             "too many arguments%s", NULL);
    o.model = argv[optind];
    o.arg = want == 2 ? argv[optind + 1] : NULL;
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(o.model, NULL, &m, &err) < 0)
        return fail_model(o.model, &err);
    int rc = cmd->run(m, &o);
    rc = finish(m, rc);
    nnav_model_close(m);
    return rc;
}
