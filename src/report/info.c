/* info.c - what `nnav info` prints and the explorer's model details (i)
 * show: format, producer, opsets, metadata, counts, weights, parameters, the
 * whole model's compute, warnings, signatures in their groups,
 * unknown fields and the op-type histogram; as text or as YAML (report.h). */
#include "report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dims.h"
#include "dtype.h"
#include "nnav.h"
#include "quant.h"
#include "scope.h"
#include "shape.h"
#include "record.h"
#include "tfacts.h"
#include "yamlout.h"

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* The plural ending for a count: "1 node", "2 nodes". */
static const char *pl(uint64_t n)
{
    return n == 1 ? "" : "s";
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

/* info's tables. A label column shows the section's word on its first
 * row ("metadata", "meta_graphs"), text only. */
enum { MD_LABEL, MD_KEY, MD_VALUE };
static const nnav_rw_col meta_cols[] = {
    [MD_LABEL] = {NULL, 14, 0, NULL, 0, NULL},
    [MD_KEY] = {"key", 0, 0, NULL, 0, NULL},
    [MD_VALUE] = {"value", 0, 0, " = ", 0, NULL},
};
static const nnav_rw_table meta_table = {
    .cols = meta_cols, .ncols = sizeof meta_cols / sizeof *meta_cols, .sep = " ", .flow = 1};

enum { OS_DOMAIN, OS_VERSION };
static const nnav_rw_col opset_cols[] = {
    [OS_DOMAIN] = {"domain", 0, 0, NULL, 0, NULL},
    [OS_VERSION] = {"version", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table opset_table = {
    .cols = opset_cols, .ncols = sizeof opset_cols / sizeof *opset_cols, .sep = " ", .flow = 1};

enum { OT_OP, OT_DOMAIN, OT_COUNT };
static const nnav_rw_col optype_cols[] = {
    [OT_OP] = {"op_type", 0, 0, NULL, 0, NULL},
    [OT_DOMAIN] = {"domain", 0, 0, NULL, 0, NULL},
    [OT_COUNT] = {"count", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table optype_table = {
    .cols = optype_cols, .ncols = sizeof optype_cols / sizeof *optype_cols, .sep = " ", .flow = 1};

enum { UF_MESSAGE, UF_NUMBER, UF_WIRE, UF_OFFSET, UF_LENGTH };
static const nnav_rw_col unknown_cols[] = {
    [UF_MESSAGE] = {"message", 0, 0, NULL, 0, NULL},
    [UF_NUMBER] = {"number", 0, 0, NULL, 0, NULL},
    [UF_WIRE] = {"wire_type", 0, 0, NULL, 0, NULL},
    [UF_OFFSET] = {"offset", 0, 0, NULL, 0, NULL},
    [UF_LENGTH] = {"length", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table unknown_table = {
    .cols = unknown_cols, .ncols = sizeof unknown_cols / sizeof *unknown_cols, .sep = " ",
    .flow = 1};

/* The groups of signatures ("meta graphs"): in text a line each
 * when there are several, "meta_graphs    /  tags serve, 1 function, 2
 * signatures": the graph, the tags, then the group's facts of the format's
 * own, each a column (YAML) and those with a text form in the line. */
enum { MG_LABEL, MG_GRAPH, MG_TAGS, MG_FACTS, MG_MAX = 24 };

/* A signature's tensors: "    input  KEY NAME TYPE". */
enum { ST_SIDE, ST_KEY, ST_NAME, ST_TYPE };
static const nnav_rw_col sigt_cols[] = {
    [ST_SIDE] = {NULL, 6, 0, NULL, 0, NULL},
    [ST_KEY] = {"key", 20, 0, NULL, 0, NULL},
    [ST_NAME] = {"name", 28, 0, NULL, 0, NULL},
    [ST_TYPE] = {"type", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table sigt_table = {
    .cols = sigt_cols, .ncols = sizeof sigt_cols / sizeof *sigt_cols, .sep = " ", .flow = 1,
    .indent = "    "};

/* The signatures (a model's inputs and outputs) in their groups, and the
 * warnings found at open (every format: an empty list for most). */
static void sig_info(nnav_rw *w, const nnav_model *m)
{
    char a[1100], b[1100], t[512], line[1400];
    uint32_t nmg = nnav_sig_group_count(m);
    if (nmg) {
        /* The columns: the group's facts are the first group's (every
         * group has the same). */
        const char *word = nnav_sig_group_word(m);
        char groups[64];
        snprintf(groups, sizeof groups, "%ss", word ? word : "group"); /* "meta_graphs" */
        nnav_rw_col cols[MG_MAX] = {
            [MG_LABEL] = {NULL, 14, 0, NULL, 0, NULL},
            [MG_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
            [MG_TAGS] = {"tags", 0, 0, "  ", 0, NULL},
        };
        size_t nf = 0;
        nnav_sig_fact sf;
        while (MG_FACTS + nf < MG_MAX && nnav_sig_group_fact(m, 0, (uint32_t)nf, &sf) == 1) {
            cols[MG_FACTS + nf] = (nnav_rw_col){sf.key, sf.text[0] ? 0 : NNAV_RW_NOTEXT, 0,
                                                sf.text[0] ? ", " : NULL, 0, NULL};
            nf++;
        }
        nnav_rw_table mg_table = {.cols = cols, .ncols = MG_FACTS + nf, .sep = " "};
        nnav_rw_table_begin(w, groups, &mg_table);
        if (nmg < 2)
            nnav_rw_table_hide_text(w);
        for (uint32_t i = 0; i < nmg; i++) {
            const nnav_sig_group *mg = nnav_sig_group_get(m, i);
            nnav_rw_row(w);
            nnav_rw_cell_null(w, MG_LABEL, i ? "" : groups);
            nnav_graph_path(m, mg->graph, t, sizeof t);
            nnav_rw_cell_cstr(w, MG_GRAPH, t, NULL);
            size_t l = (size_t)snprintf(line, sizeof line, "tags");
            for (uint32_t k = 0; k < mg->tag_count && l < sizeof line; k++)
                l += (size_t)snprintf(line + l, sizeof line - l, "%s %s", k ? "," : "",
                                      esc(nnav_sig_tag_get(m, mg->tag_first + k), a, sizeof a));
            nnav_rw_cell_list(w, MG_TAGS, line);
            for (uint32_t k = 0; k < mg->tag_count; k++)
                nnav_rw_span(w, nnav_sig_tag_get(m, mg->tag_first + k), NULL);
            nnav_rw_cell_list_end(w);
            for (size_t k = 0; k < nf && nnav_sig_group_fact(m, i, (uint32_t)k, &sf) == 1; k++) {
                const char *tx = sf.text[0] ? sf.text : NULL;
                if (sf.kind == NNAV_DV_TEXT)
                    nnav_rw_cell_span(w, MG_FACTS + k, sf.s, tx);
                else if (sf.kind == NNAV_DV_BOOL)
                    nnav_rw_cell_bool(w, MG_FACTS + k, (int)sf.i, tx);
                else
                    nnav_rw_cell_uint(w, MG_FACTS + k, sf.u, tx);
            }
            nnav_rw_row_end(w);
        }
        nnav_rw_table_end(w);
        snprintf(line, sizeof line, "%-14s %u\n", "signatures", nnav_signature_count(m));
        nnav_rw_text(w, line);
        /* Each signature a line, "  KEY (METHOD) in PATH", its tensors under it. */
        nnav_rw_key_as(w, "signatures", NULL);
        nnav_rw_seq_tight(w);
        for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
            const nnav_signature *sg = nnav_signature_get(m, i);
            nnav_rw_map(w, 0);
            nnav_rw_sentence(w);
            snprintf(line, sizeof line, "  %s", esc(sg->key, a, sizeof a));
            nnav_rw_key(w, "key"), nnav_rw_span(w, sg->key, line);
            snprintf(line, sizeof line, " (%s)", esc(sg->method, a, sizeof a));
            nnav_rw_key(w, "method"), nnav_rw_span(w, sg->method, sg->method.n ? line : "");
            nnav_graph_path(m, nnav_sig_group_get(m, sg->group)->graph, t, sizeof t);
            snprintf(line, sizeof line, " in %s", t);
            nnav_rw_key(w, "graph"), nnav_rw_cstr(w, t, nmg > 1 ? line : "");
            nnav_rw_sentence_end(w);
            for (int side = 0; side < 2; side++) {
                uint32_t f = side ? sg->out_first : sg->in_first;
                uint32_t n = side ? sg->out_count : sg->in_count;
                nnav_rw_table_begin(w, side ? "outputs" : "inputs", &sigt_table);
                for (uint32_t k = f; k < f + n; k++) {
                    const nnav_sig_tensor *st = nnav_sig_tensor_get(m, k);
                    nnav_sig_tensor_format(m, k, t, sizeof t);
                    nnav_rw_row(w);
                    nnav_rw_cell_null(w, ST_SIDE, side ? "output" : "input");
                    nnav_rw_cell_span(w, ST_KEY, st->key, esc(st->key, a, sizeof a));
                    nnav_rw_cell_span(w, ST_NAME, st->name, esc(st->name, b, sizeof b));
                    nnav_rw_cell_cstr(w, ST_TYPE, t, NULL);
                    nnav_rw_row_end(w);
                }
                nnav_rw_table_end(w);
            }
            nnav_rw_map_end(w);
        }
        nnav_rw_seq_end(w);
    }
    /* The warnings: YAML a block list of strings, text a line each. */
    nnav_yw *y = nnav_rw_yw(w);
    if (y) {
        nnav_yw_key(y, "warnings");
        nnav_yw_seq(y);
    }
    for (uint32_t i = 0; i < nnav_warning_count(m); i++) {
        if (y) {
            nnav_yw_cstr(y, nnav_warning_get(m, i));
            continue;
        }
        snprintf(line, sizeof line, "%-14s %s\n", "warning", nnav_warning_get(m, i));
        nnav_rw_text(w, line);
    }
    if (y)
        nnav_yw_seq_end(y);
}

/* The model's facts, as `nnav info` prints them and the explorer's i
 * shows them: one pass in YAML's order; where the text groups a fact
 * elsewhere (the op histogram last, the warnings together) its keys are
 * YAML's only there and the text says it in its place. */
static int info_write(const nnav_model *m, nnav_rw *w, FILE *out, int verbose)
{
    const nnav_model_facts *f = nnav_model_facts_get(m);
    int yaml = nnav_rw_yaml(w);
    totals t;
    size_t nops = 0;
    nnav_tensors_measure(m); /* external data as stored, not as dims say */
    compute_totals(m, &t);
    nnav_op_count *ops = nnav_op_histogram(m, 0, nnav_node_count(m), NULL, &nops);
    char a[4096], b[1024], c[1024], line[6000];
    /* The whole model's cost: the main graph with what its bodies and
     * function calls run (shape.h's whole-cost rules). */
    int eager = nnav_node_count(m) <= NNAV_SHAPES_EAGER_MAX;
    nnav_shapes_opts so = {0};
    nnav_shapes *s = eager ? nnav_shapes_infer(m, &so) : NULL;
    nnav_cost cost = {0};
    uint64_t partial = 0;
    char assumed[1024] = "";
    nnav_whole whole = {0};
    int have_cost = s != NULL, negative = 0;
    char negdim[160] = "", negtext[2048] = "";
    if (s) {
        nnav_shapes_whole_cost(s, 0, &cost, &whole);
        if (yaml)
            nnav_shapes_assumed(s, assumed, sizeof assumed);
        else
            nnav_shapes_assumed_short(s, assumed, sizeof assumed);
        partial = nnav_report_partial_nodes(s, nnav_graph_get(m, 0));
        negative = nnav_report_negative(s, negdim, sizeof negdim, negtext, sizeof negtext);
        nnav_shapes_free(s);
    }
    int onnx = (f->traits & NNAV_TRAIT_OPSETS) != 0; /* IR and opsets are the format's notions */
    /* A store of tensors (a checkpoint, a weights file) has no graph: its
     * text leaves out what it cannot have (nodes, inputs, compute, ops;
     * YAML keeps every key). */
    int store = f->tensor_store, text = w->form != NNAV_RW_YAML;
    nnav_rw_map(w, 14);
    nnav_text_escape_cstr(f->path, a, sizeof a);
    nnav_text_commas(f->file_size, b, sizeof b);
    snprintf(line, sizeof line, "%s (%s bytes)", a, b);
    nnav_rw_key(w, "file"), nnav_rw_cstr(w, f->path, line);
    nnav_rw_key_as(w, "file_size", NULL), nnav_rw_uint(w, f->file_size, NULL);
    /* Why this reading: the sniffing's reasoning, for those who ask. */
    snprintf(line, sizeof line, "%s (%s)", f->format_name, f->format_reason);
    nnav_rw_key(w, "format"), nnav_rw_cstr(w, f->format_name, verbose ? line : NULL);
    nnav_rw_key_as(w, "format_reason", NULL), nnav_rw_cstr(w, f->format_reason, NULL);
    nnav_rw_key_as(w, "ir_version", f->ir_version >= 0 || onnx ? "ir_version" : NULL);
    f->ir_version >= 0 ? nnav_rw_int(w, f->ir_version, NULL) : nnav_rw_null(w, "(absent)");
    esc(f->producer_name, a, sizeof a);
    esc(f->producer_version, b, sizeof b);
    snprintf(line, sizeof line, "%s %s", a, b);
    nnav_rw_key_as(w, "producer_name", store && !f->producer_name.n ? NULL : "producer");
    nnav_rw_span(w, f->producer_name, line);
    nnav_rw_key_as(w, "producer_version", NULL), nnav_rw_span(w, f->producer_version, NULL);
    nnav_rw_key_as(w, "domain", f->domain.n ? "domain" : NULL), nnav_rw_span(w, f->domain, NULL);
    nnav_rw_key_as(w, "model_version", f->model_version >= 0 ? "model_version" : NULL);
    f->model_version >= 0 ? nnav_rw_int(w, f->model_version, NULL) : nnav_rw_null(w, NULL);
    nnav_rw_key_as(w, "doc_string", f->doc_string.n ? "doc_string" : NULL);
    nnav_rw_span(w, f->doc_string, esc(f->doc_string, a, 200));
    /* "opset_import   ai.onnx 17, ai.onnx.ml 3" */
    if (onnx || nnav_opset_count(m)) {
        size_t l = (size_t)snprintf(line, sizeof line, "%-14s", "opset_import");
        for (uint32_t i = 0; i < nnav_opset_count(m) && l < sizeof line; i++) {
            const nnav_opset *op = nnav_opset_get(m, i);
            l += (size_t)snprintf(line + l, sizeof line - l, "%s %s %lld", i ? "," : "",
                                  nnav_report_domain(op->domain, a, sizeof a), (long long)op->version);
        }
        if (l < sizeof line - 1)
            line[l] = '\n', line[l + 1] = 0;
        nnav_rw_text(w, line);
    }
    nnav_rw_table_begin(w, "opset_import", &opset_table);
    nnav_rw_table_hide_text(w);
    for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
        const nnav_opset *op = nnav_opset_get(m, i);
        nnav_rw_row(w);
        nnav_rw_cell_span(w, OS_DOMAIN, op->domain, NULL);
        nnav_rw_cell_int(w, OS_VERSION, op->version, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_rw_table_begin(w, "metadata_props", &meta_table);
    for (uint32_t i = 0; i < nnav_metadata_count(m); i++) {
        const nnav_kv *kv = nnav_metadata_get(m, i);
        nnav_rw_row(w);
        nnav_rw_cell_null(w, MD_LABEL, i ? "" : "metadata");
        nnav_rw_cell_span(w, MD_KEY, kv->key, esc(kv->key, a, sizeof a));
        nnav_rw_cell_span(w, MD_VALUE, kv->value, esc(kv->value, b, 300));
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_rw_key_as(w, "graph_name", store ? NULL : "graph");
    nnav_rw_span(w, f->graph_name, f->graph_name.n ? NULL : "(unnamed)");
    nnav_rw_key_as(w, "counts", NULL);
    nnav_rw_map(w, 14);
    snprintf(line, sizeof line, "%llu in the main graph, %llu in all graphs",
             (unsigned long long)t.nodes_main, (unsigned long long)t.nodes_all);
    nnav_rw_key_as(w, "nodes", store ? NULL : "nodes"), nnav_rw_uint(w, t.nodes_main, line);
    nnav_rw_key_as(w, "nodes_all_graphs", NULL), nnav_rw_uint(w, t.nodes_all, NULL);
    nnav_rw_key_as(w, "graphs", NULL), nnav_rw_uint(w, nnav_graph_count(m), NULL);
    nnav_rw_key_as(w, "subgraphs", store ? NULL : "subgraphs"), nnav_rw_uint(w, t.subgraphs, NULL);
    nnav_rw_key_as(w, "functions", store ? NULL : "functions");
    nnav_rw_uint(w, nnav_function_count(m), NULL);
    nnav_rw_key_as(w, "training_info", nnav_training_count(m) ? "training_info" : NULL);
    nnav_rw_uint(w, nnav_training_count(m), NULL);
    /* Main graph and all graphs side by side, always: a figure never leaves
     * the reader to guess which it counts. */
    snprintf(a, sizeof a, " (+%u sparse)", t.sparse_main);
    snprintf(b, sizeof b, " (+%u sparse)", t.sparse_all);
    snprintf(line, sizeof line, "%u in the main graph%s, %u in all graphs%s", t.init_main,
             t.sparse_main ? a : "", t.init_all, t.sparse_all ? b : "");
    if (store)
        snprintf(line, sizeof line, "%u", t.init_main);
    nnav_rw_key_as(w, "initializers_main_graph", store ? "tensors" : "initializers");
    nnav_rw_uint(w, t.init_main, line);
    nnav_rw_key_as(w, "initializers_all_graphs", NULL), nnav_rw_uint(w, t.init_all, NULL);
    nnav_rw_key_as(w, "sparse_initializers_main_graph", NULL), nnav_rw_uint(w, t.sparse_main, NULL);
    nnav_rw_key_as(w, "sparse_initializers_all_graphs", NULL), nnav_rw_uint(w, t.sparse_all, NULL);
    nnav_rw_key_as(w, "inputs", store ? NULL : "inputs"), nnav_rw_uint(w, t.inputs_main, NULL);
    nnav_rw_key_as(w, "outputs", store ? NULL : "outputs"), nnav_rw_uint(w, t.outputs_main, NULL);
    /* In text among the warnings below. */
    nnav_rw_key_as(w, "undefined_values", NULL), nnav_rw_uint(w, t.undefined, NULL);
    nnav_rw_key_as(w, "tensor_warnings", NULL), nnav_rw_uint(w, t.warnings, NULL);
    nnav_rw_map_end(w);
    nnav_text_commas(t.init_bytes_main, a, sizeof a);
    nnav_report_bytes(t.init_bytes_main, b, sizeof b);
    size_t l = (size_t)snprintf(line, sizeof line, "%s bytes (%s) in the main graph", a, b);
    nnav_text_commas(t.init_bytes, a, sizeof a);
    nnav_report_bytes(t.init_bytes, b, sizeof b);
    snprintf(line + l, sizeof line - l, ", %s bytes (%s) in all graphs", a, b);
    if (store)
        snprintf(line, sizeof line, "%s bytes (%s)", a, b);
    nnav_rw_key_as(w, "initializer_bytes_main_graph", "weights"), nnav_rw_uint(w, t.init_bytes_main, line);
    nnav_rw_key_as(w, "initializer_bytes_all_graphs", NULL), nnav_rw_uint(w, t.init_bytes, NULL);
    nnav_rw_key_as(w, "initializer_elements_main_graph", NULL), nnav_rw_uint(w, t.elems_main, NULL);
    nnav_rw_key_as(w, "initializer_elements_all_graphs", NULL), nnav_rw_uint(w, t.elems, NULL);
    /* Parameters as the framework counts them (scope.h's rule: weights, not
     * shapes or indices, Constant-held ones too), then every initializer
     * element, which is what the file holds. */
    uint64_t pm, pa, ph;
    nnav_params_by_graph(m, &pm, &pa, &ph);
    nnav_text_commas(pm, a, sizeof a);
    nnav_text_commas(pa, b, sizeof b);
    nnav_text_commas(ph, c, sizeof c);
    l = (size_t)snprintf(line, sizeof line, "%s in the main graph, %s in all graphs", a, b);
    if (store)
        l = (size_t)snprintf(line, sizeof line, "%s", a);
    if (ph)
        snprintf(line + l, sizeof line - l, " (%s held by Constant nodes)", c);
    nnav_rw_key_as(w, "parameters_main_graph", "parameters"), nnav_rw_uint(w, pm, line);
    nnav_rw_key_as(w, "parameters_all_graphs", NULL), nnav_rw_uint(w, pa, NULL);
    nnav_rw_key_as(w, "parameters_in_constants", NULL), nnav_rw_uint(w, ph, NULL);
    /* Beside them: buffers (BatchNorm statistics) and weight-typed
     * constants that are neither (scope.h), and a folded BatchNorm. */
    nnav_weights wt;
    nnav_model_weights(m, &wt);
    nnav_text_commas(wt.buffers, a, sizeof a);
    snprintf(line, sizeof line, "%s elements in %llu tensor%s (running statistics: buffers, not parameters)",
             a, (unsigned long long)wt.buffer_names, wt.buffer_names == 1 ? "" : "s");
    nnav_rw_key_as(w, "buffers", wt.buffers ? "buffers" : NULL), nnav_rw_uint(w, wt.buffers, line);
    nnav_text_commas(wt.consts, a, sizeof a);
    snprintf(line, sizeof line, "%s elements in %llu weight-typed tensor%s that are neither (initial states, scales, bounds)",
             a, (unsigned long long)wt.const_names, wt.const_names == 1 ? "" : "s");
    nnav_rw_key_as(w, "constant_weights", wt.consts ? "not params" : NULL), nnav_rw_uint(w, wt.consts, line);
    /* The mean bits per weight: the weights' bytes (with a packed weight's
     * scales and zero points, quant.h) over the weights they hold. */
    double bpw = nnav_bpw(wt.bytes, wt.stored);
    nnav_text_commas(wt.bytes, a, sizeof a);
    nnav_text_commas(wt.stored, b, sizeof b);
    snprintf(line, sizeof line, "%.2f bpw (%s bytes for %s weights)", bpw, a, b);
    nnav_rw_key_as(w, "bits_per_weight", bpw >= 0 ? "bits/weight" : NULL);
    bpw >= 0 ? nnav_rw_double(w, bpw, line) : nnav_rw_null(w, NULL);
    nnav_rw_key_as(w, "weight_bytes", NULL), nnav_rw_uint(w, wt.bytes, NULL);
    nnav_rw_key_as(w, "stored_weights", NULL), nnav_rw_uint(w, wt.stored, NULL);
    uint32_t folded = nnav_folded_norms(m, 0);
    nnav_folded_norms_text(folded, line, sizeof line);
    nnav_rw_key_as(w, "folded_norms", folded ? "folded" : NULL), nnav_rw_uint(w, folded, line);
    nnav_text_commas(t.elems_main, a, sizeof a);
    nnav_text_commas(t.elems, b, sizeof b);
    snprintf(line, sizeof line, "%-14s %s initializer elements in the main graph, %s in all graphs\n",
             "elements", a, b);
    if (store)
        snprintf(line, sizeof line, "%-14s %s in all tensors\n", "elements", b);
    nnav_rw_text(w, line);
    uint64_t mg_names, mg_bytes; /* equal initializers merged, their names kept by Identity nodes */
    nnav_scopes_merged(m, 0, &mg_names, &mg_bytes);
    nnav_text_commas(mg_bytes, a, sizeof a);
    nnav_report_bytes(mg_bytes, b, sizeof b);
    snprintf(line, sizeof line, "%llu parameter name%s kept as an Identity of an equal initializer: "
             "the merge saves %s bytes (%s)", (unsigned long long)mg_names, mg_names == 1 ? "" : "s", a, b);
    nnav_rw_key_as(w, "merged_parameter_names", mg_names ? "merged" : NULL), nnav_rw_uint(w, mg_names, line);
    nnav_rw_key_as(w, "merged_bytes_saved", NULL), nnav_rw_uint(w, mg_bytes, NULL);
    nnav_rw_key_as(w, "constant_bytes", NULL), nnav_rw_uint(w, t.const_bytes, NULL); /* text: after compute */
    if (store && text) {
        /* no compute to speak of */
    } else if (have_cost) {
        /* "4.09 G MACs, 25.6 M params in the whole model (...); assumed N=1" */
        char mac[32], par[32];
        nnav_text_si(cost.macs, mac, sizeof mac);
        nnav_text_si((double)cost.params, par, sizeof par);
        if (whole.overflow)
            snprintf(mac, sizeof mac, "over 9.2 E");
        l = (size_t)snprintf(line, sizeof line, "%s params in the whole model%s", par,
                             whole.per_iter ? " (a loop of unknown trip count counted once: per iteration)" : "");
        if (partial)
            l += (size_t)snprintf(line + l, sizeof line - l, " (partial: %llu %s shapes)",
                                  (unsigned long long)partial, partial == 1 ? "node lacks" : "nodes lack");
        else if (!whole.known)
            l += (size_t)snprintf(line + l, sizeof line - l, " (partial: %s)",
                                  whole.cut ? nnav_whole_why(&whole) : "shapes in a body are missing");
        if (assumed[0] && l < sizeof line)
            snprintf(line + l, sizeof line - l, "; assumed %s", assumed);
        snprintf(a, sizeof a, "%s MACs, ", mac);
        nnav_rw_key(w, "compute");
        nnav_rw_line(w);
        nnav_rw_key(w, "macs"), nnav_rw_count(w, cost.macs, a);
        nnav_rw_key_as(w, "flops", NULL), nnav_rw_count(w, cost.flops, NULL);
        nnav_rw_key(w, "params"), nnav_rw_uint(w, cost.params, line);
        nnav_rw_key_as(w, "output_bytes", NULL), nnav_rw_count(w, cost.out_bytes, NULL);
        nnav_rw_key_as(w, "partial_nodes", NULL), nnav_rw_uint(w, partial, NULL);
        nnav_rw_key_as(w, "per_iteration", NULL), nnav_rw_bool(w, whole.per_iter, NULL);
        nnav_rw_key_as(w, "overflow", NULL), nnav_rw_bool(w, whole.overflow, NULL);
        nnav_rw_key_as(w, "assumed", NULL);
        assumed[0] ? nnav_rw_cstr(w, assumed, NULL) : nnav_rw_null(w, NULL);
        nnav_rw_key_as(w, "negative_shapes", NULL), nnav_rw_bool(w, negative, NULL);
        nnav_rw_key_as(w, "suggested_dim", NULL);
        negdim[0] ? nnav_rw_cstr(w, negdim, NULL) : nnav_rw_null(w, NULL);
        nnav_rw_line_end(w);
        if (negative) {
            snprintf(line, sizeof line, "%-14s %s\n", "", negtext);
            nnav_rw_text(w, line);
        }
    } else if (!eager) {
        snprintf(line, sizeof line, "%-14s not computed for over %u nodes, so that info stays "
                 "instant: 'nnav cost' computes it\n", "compute", NNAV_SHAPES_EAGER_MAX);
        nnav_rw_text(w, line);
    } else {
        /* The CLI said this on stderr; written here, both faces say it. */
        snprintf(line, sizeof line, "%-14s not computed: out of memory while inferring types and "
                 "shapes\n", "compute");
        nnav_rw_text(w, line);
    }
    if (t.const_bytes) {
        nnav_text_commas(t.const_bytes, a, sizeof a);
        snprintf(line, sizeof line, "%-14s %s bytes in attribute tensors (Constant nodes)\n", "constants", a);
        nnav_rw_text(w, line);
    }
    if (t.undefined) {
        snprintf(line, sizeof line, "%-14s %u value name%s used but never defined\n", "warning",
                 t.undefined, pl(t.undefined));
        nnav_rw_text(w, line);
    }
    if (t.data_warnings) {
        snprintf(line, sizeof line, "%-14s %u tensor%s whose stored data does not match dims x dtype "
                 "(see tensors)\n", "warning", t.data_warnings, pl(t.data_warnings));
        nnav_rw_text(w, line);
    }
    /* Malformed dims are named for what they are: a negative dimension, an
     * overflowing product. The first few by name, then how many more. */
    for (uint32_t i = 0, shown = 0; i < nnav_tensor_count(m) && t.bad_dims; i++) {
        char why[256];
        if (!(nnav_tensor_get(m, i)->warn & NNAV_TW_BAD_DIMS) ||
            !nnav_tensor_dims_problem(m, i, why, sizeof why))
            continue;
        if (shown++ == 5) {
            snprintf(line, sizeof line, "%-14s and %u more tensor%s with malformed dims (see tensors)\n",
                     "warning", t.bad_dims - 5, pl(t.bad_dims - 5));
            nnav_rw_text(w, line);
            break;
        }
        snprintf(line, sizeof line, "%-14s tensor \"%s\": %s\n", "warning",
                 esc(nnav_tensor_get(m, i)->name, a, 300), why);
        nnav_rw_text(w, line);
    }
    /* The op histogram and the unknown fields: YAML's here, the text's
     * last (below). */
    nnav_rw_table_begin(w, "op_types", &optype_table);
    nnav_rw_table_hide_text(w);
    for (size_t i = 0; i < nops; i++) {
        nnav_rw_row(w);
        nnav_rw_cell_span(w, OT_OP, ops[i].op, NULL);
        nnav_rw_cell_span(w, OT_DOMAIN, ops[i].domain, NULL);
        nnav_rw_cell_uint(w, OT_COUNT, ops[i].count, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_rw_table_begin(w, "unknown_fields", &unknown_table);
    nnav_rw_table_hide_text(w);
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        nnav_rw_row(w);
        nnav_rw_cell_cstr(w, UF_MESSAGE, u->where, NULL);
        nnav_rw_cell_uint(w, UF_NUMBER, u->number, NULL);
        nnav_rw_cell_uint(w, UF_WIRE, u->wire_type, NULL);
        nnav_rw_cell_uint(w, UF_OFFSET, u->offset, NULL);
        nnav_rw_cell_uint(w, UF_LENGTH, u->span.n, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_sparse_warnings(m, 0, nnav_graph_count(m), w, 0);
    sig_info(w, m);
    nnav_details_write(w, m); /* the format's own facts */
    /* The text's own place for the unknown fields and the ops. */
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        snprintf(line, sizeof line, "%-14s %s field %u (wire type %u, %llu bytes) at offset %llu\n",
                 i ? "" : "unknown", u->where, u->number, u->wire_type,
                 (unsigned long long)u->span.n, (unsigned long long)u->offset);
        nnav_rw_text(w, line);
    }
    /* "ops            Conv 53, Relu 49, ..." wrapped before 100 columns. */
    if (!(store && text && !nops)) {
        size_t col = 15;
        snprintf(line, sizeof line, "%-14s", "ops");
        nnav_rw_text(w, line);
        for (size_t i = 0; i < nops; i++) {
            char nm[600];
            int k = snprintf(nm, sizeof nm, "%s %llu", nnav_report_op(ops[i].op, ops[i].domain, a, sizeof a),
                             (unsigned long long)ops[i].count);
            if (col + (size_t)k + 2 > 100 && col > 15) {
                snprintf(line, sizeof line, ",\n%-14s", "");
                nnav_rw_text(w, line);
                col = 15;
            } else if (i) {
                nnav_rw_text(w, ",");
                col++;
            }
            snprintf(line, sizeof line, " %s", nm);
            nnav_rw_text(w, line);
            col += (size_t)k + 1;
        }
        nnav_rw_text(w, "\n");
    }
    free(ops);
    nnav_load_info_write(w, m); /* what loading it would run, where its loader can run code */
    nnav_rw_map_end(w);
    return 0;
}

int nnav_info_write(const nnav_model *m, int flags, FILE *out)
{
    nnav_rw w;
    if (nnav_rw_open(&w, out, flags & NNAV_INFO_YAML ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return -1;
    info_write(m, &w, out, (flags & NNAV_INFO_VERBOSE) != 0);
    return nnav_rw_close(&w) < 0 || ferror(out) ? -1 : 0;
}
