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
    return not_found_near(cmd, m, what, name, 0, hint);
}

int not_found_near(const char *cmd, const nnav_model *m, const char *what, const char *name,
                   int near, const char *hint)
{
    char a[512], p[1024], close[1100] = "";
    nnav_text_escape_cstr(name, a, sizeof a);
    nnav_text_escape_cstr(nnav_model_facts_get(m)->path, p, sizeof p);
    if (near) {
        /* The closest names of that kind anywhere in the model. */
        nnav_near s;
        nnav_near_init(&s, name);
        if (near == NEAR_NODES)
            for (uint32_t i = 0; i < nnav_node_count(m); i++)
                nnav_near_offer(&s, nnav_node_get(m, i)->name);
        else
            for (uint32_t i = 0; i < nnav_tensor_count(m); i++)
                nnav_near_offer(&s, nnav_tensor_get(m, i)->name);
        nnav_near_text(&s, close, sizeof close);
    }
    fprintf(stderr, "nnav %s: %s: no %s named '%s'%s; %s\n", cmd, p, what, a, close, hint);
    return EXIT_BADINPUT;
}

/* A truncated map means what was printed may be stale: say so, status 2. */
int finish(const nnav_model *m, int rc)
{
    if (m && nnav_model_truncated(m)) {
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

const char *op_name(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    return nnav_report_op(nnav_node_get(m, id)->op, nnav_node_domain(m, id), buf, n);
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
    nnav_report_bytes(c->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)c->out_bytes, o, sizeof o);
    char bu[48] = "";
    if (c->buffers) {
        nnav_text_si((double)c->buffers, bu, sizeof bu - 10);
        strcat(bu, " buffers, ");
    }
    snprintf(buf, n, "%s MACs, %s FLOPs, %s params, %s%s out%s%s%s", a, b, p, bu, o,
             c->known ? "" : " (partial: ", c->known ? "" : why ? why : "shapes missing",
             c->known ? "" : ")");
}

/* The cost keys (macs, flops, params, buffers, output_bytes) whose text is cost_text's
 * line, a piece each; over, when not NULL, is the text instead of them all
 * (a figure past what can be counted). */
void rw_cost(nnav_rw *w, const nnav_cost *c, const char *why, const char *over)
{
    char a[48], b[48], p[48], bu[48], o[600];
    nnav_text_si(c->macs, a, sizeof a);
    nnav_text_si(c->flops, b, sizeof b);
    nnav_text_si((double)c->params, p, sizeof p);
    nnav_text_si((double)c->buffers, bu, sizeof bu);
    nnav_report_bytes(c->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)c->out_bytes, o, sizeof o);
    size_t k = strlen(a), l = strlen(b), q = strlen(p), r = strlen(o), t = strlen(bu);
    snprintf(a + k, sizeof a - k, " MACs, ");
    snprintf(b + l, sizeof b - l, " FLOPs, ");
    snprintf(p + q, sizeof p - q, " params, ");
    snprintf(bu + t, sizeof bu - t, " buffers, ");
    snprintf(o + r, sizeof o - r, " out%s%s%s", c->known ? "" : " (partial: ",
             c->known ? "" : why ? why : "shapes missing", c->known ? "" : ")");
    nnav_rw_key(w, "macs"), nnav_rw_count(w, c->macs, over ? over : a);
    nnav_rw_key_as(w, "flops", over ? NULL : ""), nnav_rw_count(w, c->flops, b);
    nnav_rw_key_as(w, "params", over ? NULL : ""), nnav_rw_uint(w, c->params, p);
    /* Buffers (BatchNorm statistics, scope.h) in text only where there are. */
    nnav_rw_key_as(w, "buffers", over || !c->buffers ? NULL : ""), nnav_rw_uint(w, c->buffers, bu);
    nnav_rw_key_as(w, "output_bytes", over ? NULL : ""), nnav_rw_count(w, c->out_bytes, o);
}

/* The type a value has as best known, "?" when nothing is. */
const char *value_type(const nnav_shapes *s, uint32_t v, char *buf, size_t n)
{
    nnav_shapes_value_format(s, v, buf, n);
    if (!buf[0])
        snprintf(buf, n, "?");
    return buf;
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
            return not_found_near("node", m, "node in that graph", name, NEAR_NODES,
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
        return not_found_near("node", m, "node", name, NEAR_NODES,
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
