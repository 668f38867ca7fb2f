/* info.c - what `nnav info` prints and the explorer's model details (i)
 * show: format, producer, opsets, metadata, counts, weights, parameters, the
 * whole model's compute, warnings, TensorFlow meta graphs and signatures,
 * unknown fields and the op-type histogram; as text or as YAML (report.h). */
#include "report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dims.h"
#include "dtype.h"
#include "nnav.h"
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

int nnav_info_write(const nnav_model *m, int yaml, FILE *out)
{
    const nnav_model_facts *f = nnav_model_facts_get(m);
    totals t;
    size_t nops = 0;
    nnav_tensors_measure(m); /* external data as stored, not as dims say */
    compute_totals(m, &t);
    nnav_op_count *ops = nnav_op_histogram(m, 0, nnav_node_count(m), NULL, &nops);
    char a[4096], b[1024];
    /* The whole model's cost: the main graph with what its bodies and
     * function calls run (shape.h's whole-cost rules). */
    int eager = nnav_node_count(m) <= NNAV_SHAPES_EAGER_MAX;
    nnav_shapes_opts so = {0};
    nnav_shapes *s = eager ? nnav_shapes_infer(m, &so) : NULL;
    nnav_cost cost = {0};
    uint64_t partial = 0;
    char assumed[1024] = "";
    nnav_whole whole = {0};
    int have_cost = s != NULL;
    if (s) {
        nnav_shapes_whole_cost(s, 0, &cost, &whole);
        if (yaml)
            nnav_shapes_assumed(s, assumed, sizeof assumed);
        else
            nnav_shapes_assumed_short(s, assumed, sizeof assumed);
        partial = nnav_report_partial_nodes(s, nnav_graph_get(m, 0));
        nnav_shapes_free(s);
    }
    if (yaml) {
        nnav_yw w;
        if (nnav_yw_open(&w, out) < 0) {
            free(ops);
            return -1;
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
            nnav_report_cost_keys(&w, &cost);
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
        nnav_sparse_warnings(m, 0, nnav_graph_count(m), &w, 0, out);
        yaml_tf_info(&w, m);
        nnav_rw pw; /* the checkpoint's section, written once for both forms */
        nnav_rw_nest(&pw, &w);
        nnav_pt_info_write(&pw, m);
        nnav_rw_close(&pw);
        nnav_yw_map_end(&w);
        free(ops);
        return nnav_yw_close(&w) < 0 ? -1 : 0;
    }
    nnav_text_escape_cstr(f->path, a, sizeof a);
    nnav_text_commas(f->file_size, b, sizeof b);
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
            fprintf(out, "%s %s %lld", i ? "," : "", nnav_report_domain(op->domain, a, sizeof a),
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
    nnav_text_commas(t.init_bytes_main, a, sizeof a);
    nnav_report_bytes(t.init_bytes_main, b, sizeof b);
    fprintf(out, "%-14s %s bytes (%s) in the main graph", "weights", a, b);
    nnav_text_commas(t.init_bytes, a, sizeof a);
    nnav_report_bytes(t.init_bytes, b, sizeof b);
    fprintf(out, ", %s bytes (%s) in all graphs\n", a, b);
    /* Parameters as the framework counts them (scope.h's rule: weights, not
     * shapes or indices, Constant-held ones too), then every initializer
     * element, which is what the file holds. */
    uint64_t pm, pa, ph;
    nnav_params_by_graph(m, &pm, &pa, &ph);
    nnav_text_commas(pm, a, sizeof a);
    fprintf(out, "%-14s %s in the main graph", "parameters", a);
    nnav_text_commas(pa, a, sizeof a);
    fprintf(out, ", %s in all graphs", a);
    if (ph) {
        nnav_text_commas(ph, a, sizeof a);
        fprintf(out, " (%s held by Constant nodes)", a);
    }
    fprintf(out, "\n");
    nnav_text_commas(t.elems_main, a, sizeof a);
    fprintf(out, "%-14s %s initializer elements in the main graph", "elements", a);
    nnav_text_commas(t.elems, a, sizeof a);
    fprintf(out, ", %s in all graphs\n", a);
    uint64_t mg_names, mg_bytes; /* equal initializers merged, their names kept by Identity nodes */
    nnav_scopes_merged(m, 0, &mg_names, &mg_bytes);
    if (mg_names) {
        nnav_text_commas(mg_bytes, a, sizeof a);
        nnav_report_bytes(mg_bytes, b, sizeof b);
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
    } else {
        /* The CLI said this on stderr; written here, both faces say it. */
        fprintf(out, "%-14s not computed: out of memory while inferring types and shapes\n",
                "compute");
    }
    if (t.const_bytes) {
        nnav_text_commas(t.const_bytes, a, sizeof a);
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
    nnav_sparse_warnings(m, 0, nnav_graph_count(m), NULL, 0, out);
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
        int k = snprintf(nm, sizeof nm, "%s %llu", nnav_report_op(ops[i].op, ops[i].domain, a, sizeof a),
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
    /* A PyTorch checkpoint's entries and what loading it would run. */
    nnav_rw pw;
    nnav_rw_open(&pw, out, NNAV_RW_TEXT);
    nnav_pt_info_write(&pw, m);
    return nnav_rw_close(&pw) < 0 || ferror(out) ? -1 : 0;
}
