/* cli_typed.c - the typed view's commands: nnav shapes, cost, check, summary. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "declutter.h"
#include "nnav.h"
#include "opcheck.h"
#include "record.h"
#include "scope.h"
#include "shape.h"
#include "summary.h"
#include "yamlout.h"

/* ---- shapes, cost, check ---- */


/* One run of shapes, cost or check: the graphs asked for, the typed view,
 * and a byte per value for graph_values() (shapes and check). */
typedef struct typed_run {
    uint32_t first, end;
    nnav_shapes *s;
    uint8_t *seen;
} typed_run;

/* The graphs asked for, the typed view and (want_seen) the byte per
 * value: 0, or the exit status after saying why. */
static int typed_run_begin(typed_run *t, const nnav_model *m, const opts *o, const char *cmd,
                           int want_seen)
{
    *t = (typed_run){0};
    int rc = graph_range(m, o, cmd, &t->first, &t->end);
    if (rc)
        return rc;
    if ((want_seen && !(t->seen = calloc((size_t)nnav_value_count(m) + 1, 1))) ||
        !(t->s = shapes_of(m, o))) {
        nnav_shapes_free(t->s);
        free(t->seen);
        return EXIT_BADINPUT;
    }
    return 0;
}

/* Frees the run; returns rc. */
static int typed_run_end(typed_run *t, int rc)
{
    nnav_shapes_free(t->s);
    free(t->seen);
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

/* A value's shape as a list cell: a number, a symbol's name, null for an
 * unknown dim; null without a rank (or for a value that is no tensor). */
static void cell_fact_shape(nnav_rw *w, size_t col, const nnav_shapes *s, const nnav_fact *f)
{
    char d[512];
    if (!f || f->rank < 0 || f->not_tensor) {
        nnav_rw_cell_null(w, col, NULL);
        return;
    }
    const nnav_dim *dims = nnav_shapes_dims(s, f->dims);
    nnav_rw_cell_list(w, col, NULL);
    for (int32_t i = 0; i < f->rank; i++) {
        if (nnav_dim_is_num(dims[i])) {
            nnav_rw_int(w, nnav_dim_val(dims[i]), NULL);
        } else if (nnav_dim_is_sym(dims[i])) {
            nnav_dim_format(s, dims[i], d, sizeof d);
            nnav_rw_cstr(w, d, NULL);
        } else {
            nnav_rw_null(w, NULL);
        }
    }
    nnav_rw_cell_list_end(w);
}

/* The counts of a graph's values, one line: in YAML a flow map, in text a
 * sentence ("N values: A typed, ..."). */
static void rw_summary(nnav_rw *w, const nnav_shapes_stats *st)
{
    static const struct {
        const char *key, *fmt;
    } parts[] = {{"values", NULL}, {"typed", " %llu typed,"},
                 {"shaped", " %llu with a rank,"}, {"full", " %llu fully shaped;"},
                 {"file", " %llu from the file only,"}, {"inferred", " %llu inferred,"},
                 {"agree", " %llu agree,"}, {"disagree", " %llu DISAGREE,"},
                 {"unknown", " %llu unknown"}};
    const uint64_t v[] = {st->values, st->typed, st->shaped, st->full, st->file,
                          st->inferred, st->agree, st->disagree, st->unknown};
    char b[64];
    nnav_rw_key_as(w, "summary", "");
    nnav_rw_line(w);
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        if (parts[i].fmt)
            snprintf(b, sizeof b, parts[i].fmt, (unsigned long long)v[i]);
        else
            snprintf(b, sizeof b, "%llu value%s:", (unsigned long long)v[i], pl(v[i]));
        nnav_rw_key(w, parts[i].key);
        nnav_rw_uint(w, v[i], b);
    }
    nnav_rw_line_end(w);
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

/* A value a row: in text its name, type and source (DISAGREE in capitals)
 * in columns, what the file says when they disagree and why the type is
 * not whole; YAML has its element type and shape besides. The name column
 * is as wide as the graph's longest name, at least 36 columns, at most
 * SHAPES_NAME_CAP (a longer name cut in its middle, "abc…xyz"); the type
 * column as wide as the longest type, at least 30: one over 64 pushes its
 * own row only. */
enum { SHAPES_NAME_CAP = 48 };
enum { S_NAME, S_TYPE, S_ELEM, S_SHAPE, S_SOURCE, S_FILE, S_WHY };
static const nnav_rw_col shapes_cols[] = {
    [S_NAME] = {"name", 36, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, SHAPES_NAME_CAP, NULL},
    [S_TYPE] = {"type", 30, NNAV_RW_MEASURE, NULL, 64, NULL},
    [S_ELEM] = {"elem_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [S_SHAPE] = {"shape", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [S_SOURCE] = {"source", 0, 0, NULL, 0, NULL},
    [S_FILE] = {"file", 0, 0, "  ", 0, NULL},
    [S_WHY] = {"why", 0, 0, "  ", 0, NULL},
};
static const nnav_rw_table shapes_table = {
    .cols = shapes_cols, .ncols = sizeof shapes_cols / sizeof *shapes_cols, .sep = " "};

int cmd_shapes(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_rw w;
    int rc = typed_run_begin(&t, m, o, "shapes", 1);
    if (rc)
        return rc;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return typed_run_end(&t, EXIT_BADINPUT);
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    char path[2048], nm[1100], cut[1100], ty[1100], ft[1100], fs[1200], wy[4200];
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "graphs", "");
    nnav_rw_seq(&w);
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
        nnav_rw_map(&w, 0);
        /* In text a graph's heading when there are several. */
        nnav_rw_key_as(&w, "path", end - first > 1 ? "graph" : NULL);
        nnav_rw_cstr(&w, path, NULL);
        nnav_rw_table_begin(&w, "values", &shapes_table);
        int passes = nnav_rw_table_passes(&w);
        for (int pass = 0; pass < passes; pass++) {
            nnav_rw_table_pass(&w, pass);
            for (size_t i = 0; i < n; i++) {
                uint32_t v = vals[i];
                const nnav_fact *f = nnav_shapes_fact(s, v);
                uint8_t src = f ? f->src : NNAV_SRC_NONE;
                const char *why = why_text(s, f);
                if (pass == passes - 1)
                    count_fact(&st, s, f);
                value_type(s, v, ty, sizeof ty);
                nnav_span name = nnav_value_get(m, v)->name;
                nnav_rw_row(&w);
                const char *shown = NULL; /* text: the name, cut past the cap */
                if (w.form == NNAV_RW_TEXT)
                    shown = nnav_text_elide_mid(esc(name, nm, sizeof nm), SHAPES_NAME_CAP, cut,
                                                sizeof cut);
                nnav_rw_cell_span(&w, S_NAME, name, shown);
                nnav_rw_cell_cstr(&w, S_TYPE, ty, NULL);
                if (f && f->dtype)
                    nnav_rw_cell_cstr(&w, S_ELEM, nnav_dtype_name(f->dtype), NULL);
                else
                    nnav_rw_cell_null(&w, S_ELEM, NULL);
                cell_fact_shape(&w, S_SHAPE, s, f);
                nnav_rw_cell_cstr(&w, S_SOURCE, src_word(src),
                                  src == NNAV_SRC_DISAGREE ? "DISAGREE" : NULL);
                if (src == NNAV_SRC_DISAGREE && !f->conflict) {
                    ft[0] = 0;
                    nnav_value_type_format(m, v, ft, sizeof ft);
                    snprintf(fs, sizeof fs, "file says %s", ft[0] ? ft : "?");
                    nnav_rw_cell_cstr(&w, S_FILE, ft, fs);
                }
                /* A producer whose inputs contradict its operator: why,
                 * whatever the file says. */
                if (f && f->conflict && f->why != NNAV_NONE)
                    why = nnav_shapes_why(s, f->why);
                if (why) {
                    snprintf(wy, sizeof wy, "(%s)", why);
                    nnav_rw_cell_cstr(&w, S_WHY, why, wy);
                }
                nnav_rw_row_end(&w);
            }
        }
        nnav_rw_table_end(&w);
        free(vals);
        rw_summary(&w, &st);
        nnav_rw_map_end(&w);
    }
    nnav_rw_seq_end(&w);
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0 && rc == 0)
        rc = EXIT_BADINPUT;
    return typed_run_end(&t, rc);
}

/* cost's tables. What each body adds (YAML every such node; text its
 * operator, name and how, under the graph's own cost, when they add). */
enum { B_INDEX, B_NAME, B_OP, B_MACS, B_FLOPS, B_HOW };
static const nnav_rw_col bodies_cols[] = {
    [B_INDEX] = {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [B_NAME] = {"name", 0, 0, NULL, 0, NULL},
    [B_OP] = {"op_type", 0, 0, NULL, 0, NULL},
    [B_MACS] = {"macs", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [B_FLOPS] = {"flops", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [B_HOW] = {"how", 0, 0, ": ", 0, NULL},
};
static const uint8_t bodies_text[] = {B_OP, B_NAME, B_HOW};
static const nnav_rw_table bodies_table = {
    .cols = bodies_cols, .ncols = sizeof bodies_cols / sizeof *bodies_cols, .sep = " ",
    .flow = 1, .text_order = bodies_text, .ntext = sizeof bodies_text, .indent = "    "};

/* The operators' histogram. */
enum { O_OP, O_DOMAIN, O_COUNT, O_MACS, O_FLOPS, O_PARAMS };
static const nnav_rw_col ops_cols[] = {
    [O_OP] = {"op_type", 28, 0, NULL, 0, "op type"},
    [O_DOMAIN] = {"domain", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [O_COUNT] = {"count", 7, NNAV_RW_RIGHT, NULL, 0, "count"},
    [O_MACS] = {"macs", 11, NNAV_RW_RIGHT, NULL, 0, "MACs"},
    [O_FLOPS] = {"flops", 11, NNAV_RW_RIGHT, NULL, 0, "FLOPs"},
    [O_PARAMS] = {"params", 11, NNAV_RW_RIGHT, NULL, 0, "params"},
};
static const nnav_rw_table ops_table = {
    .cols = ops_cols, .ncols = sizeof ops_cols / sizeof *ops_cols, .sep = " ", .flow = 1,
    .indent = "  "};

/* --nodes: each node's cost, the operator and name columns as wide as
 * their widest entry. */
enum { N_INDEX, N_NAME, N_OP, N_MACS, N_FLOPS, N_PARAMS, N_OUT, N_KNOWN };
static const nnav_rw_col nodes_cols[] = {
    [N_INDEX] = {"index", 6, NNAV_RW_RIGHT, NULL, 0, "index"},
    [N_NAME] = {"name", 28, NNAV_RW_MEASURE, " ", 0, "name"},
    [N_OP] = {"op_type", 20, NNAV_RW_MEASURE, "  ", 0, "op type"},
    [N_MACS] = {"macs", 11, NNAV_RW_RIGHT, " ", 0, "MACs"},
    [N_FLOPS] = {"flops", 11, NNAV_RW_RIGHT, " ", 0, "FLOPs"},
    [N_PARAMS] = {"params", 11, NNAV_RW_RIGHT, " ", 0, "params"},
    [N_OUT] = {"output_bytes", 11, NNAV_RW_RIGHT, " ", 0, "out"},
    [N_KNOWN] = {"known", 0, NNAV_RW_SKIP_EMPTY, "  ", 0, NULL},
};
static const uint8_t nodes_text[] = {N_INDEX, N_OP, N_NAME, N_MACS, N_FLOPS, N_PARAMS, N_OUT, N_KNOWN};
static const nnav_rw_table nodes_table = {
    .cols = nodes_cols, .ncols = sizeof nodes_cols / sizeof *nodes_cols, .sep = " ", .flow = 1,
    .text_order = nodes_text, .ntext = sizeof nodes_text, .indent = "  "};

int cmd_cost(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_rw w;
    int rc = typed_run_begin(&t, m, o, "cost", 0);
    if (rc)
        return rc;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return typed_run_end(&t, EXIT_BADINPUT);
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    char path[2048], a[64], b[64], c[64], d[64], opb[1100], nm[1100], line[3200];
    char assumed[2048], shortened[2048], how[1024];
    nnav_shapes_assumed(s, assumed, sizeof assumed);
    nnav_shapes_assumed_short(s, shortened, sizeof shortened);
    nnav_wcost *wc = nnav_wcost_new(s); /* the whole cost: each graph with its bodies */
    if (!wc) {
        fprintf(stderr, "nnav cost: out of memory\n");
        rc = EXIT_BADINPUT;
    }
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "graphs", "");
    nnav_rw_seq(&w);
    for (uint32_t g = first; g < end && rc == 0; g++) {
        const nnav_graph *gr = nnav_graph_get(m, g);
        nnav_cost tot, own;
        size_t nops = 0;
        nnav_shapes_graph_cost(s, g, &own);
        const nnav_whole *wh = nnav_wcost_graph(wc, g);
        nnav_whole_to_cost(wh, &tot);
        tot.params = own.params, tot.buffers = own.buffers;
        if (g == 0) {
            nnav_weights wt;
            nnav_model_weights(m, &wt);
            tot.params = wt.params, tot.buffers = wt.buffers;
        }
        nnav_op_count *ops = nnav_op_histogram(m, gr->node_first, gr->node_count, s, &nops);
        if (!ops) {
            fprintf(stderr, "nnav cost: out of memory\n");
            rc = EXIT_BADINPUT;
            break;
        }
        uint64_t partial = nnav_report_partial_nodes(s, gr);
        nnav_graph_path(m, g, path, sizeof path);
        nnav_rw_map(&w, 0);
        /* "graph /: 11 nodes, 0 MACs, ... out (a loop ... per iteration)" */
        nnav_rw_sentence(&w);
        snprintf(line, sizeof line, "graph %s: ", path);
        nnav_rw_key(&w, "path"), nnav_rw_cstr(&w, path, line);
        snprintf(line, sizeof line, "%u node%s, ", gr->node_count, pl(gr->node_count));
        nnav_rw_key(&w, "nodes"), nnav_rw_uint(&w, gr->node_count, line);
        rw_cost(&w, &tot, wh->cut ? nnav_whole_why(wh) : NULL,
                wh->overflow ? "MACs and FLOPs past 2^63: too many to count" : NULL);
        nnav_rw_key_as(&w, "own_macs", NULL), nnav_rw_count(&w, own.macs, NULL);
        nnav_rw_key_as(&w, "own_flops", NULL), nnav_rw_count(&w, own.flops, NULL);
        nnav_rw_key(&w, "per_iteration");
        nnav_rw_bool(&w, wh->per_iter,
                     wh->per_iter ? " (a loop of unknown trip count counted once: per iteration)" : "");
        nnav_rw_key_as(&w, "overflow", NULL), nnav_rw_bool(&w, wh->overflow, NULL);
        nnav_rw_sentence_end(&w);
        /* What its bodies add, node by node (its own nodes in the tables);
         * in text only where they add. */
        nnav_rw_table_begin(&w, "bodies", &bodies_table);
        if (tot.macs != own.macs || tot.flops != own.flops || wh->overflow) {
            cost_text(&own, NULL, line, sizeof line);
            snprintf(opb, sizeof opb, "  its own nodes: %s; with what its bodies run:\n", line);
            nnav_rw_text(&w, opb);
        } else {
            nnav_rw_table_hide_text(&w);
        }
        for (uint32_t i = 0; i < gr->node_count; i++) {
            nnav_whole bw;
            if (!nnav_wcost_node(wc, gr->node_first + i, &bw, how, sizeof how))
                continue;
            const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
            nnav_rw_row(&w);
            nnav_rw_cell_uint(&w, B_INDEX, i, NULL);
            nnav_rw_cell_span(&w, B_NAME, nd->name, nd->name.n ? esc(nd->name, nm, sizeof nm) : "-");
            nnav_rw_cell_span(&w, B_OP, nd->op, op_name(m, gr->node_first + i, opb, sizeof opb));
            if (bw.overflow) {
                nnav_rw_cell_null(&w, B_MACS, NULL);
                nnav_rw_cell_null(&w, B_FLOPS, NULL);
            } else {
                nnav_rw_cell_count(&w, B_MACS, bw.macs, NULL);
                nnav_rw_cell_count(&w, B_FLOPS, bw.flops, NULL);
            }
            nnav_rw_cell_cstr(&w, B_HOW, how, NULL);
            nnav_rw_row_end(&w);
        }
        nnav_rw_table_end(&w);
        nnav_rw_sentence(&w);
        snprintf(line, sizeof line, "  %llu of %u node%s %s partial costs: their shapes are not all known",
                 (unsigned long long)partial, gr->node_count, pl(gr->node_count),
                 partial == 1 ? "has" : "have");
        nnav_rw_key_as(&w, "partial_nodes", partial ? "" : NULL), nnav_rw_uint(&w, partial, line);
        nnav_rw_sentence_end(&w);
        nnav_rw_table_begin(&w, "ops", &ops_table);
        if (nops)
            nnav_rw_table_head(&w);
        for (size_t i = 0; i < nops; i++) {
            nnav_text_si(ops[i].macs, a, sizeof a);
            nnav_text_si(ops[i].flops, b, sizeof b);
            nnav_text_si((double)ops[i].params, c, sizeof c);
            nnav_rw_row(&w);
            nnav_rw_cell_span(&w, O_OP, ops[i].op, nnav_report_op(ops[i].op, ops[i].domain, opb, sizeof opb));
            nnav_rw_cell_span(&w, O_DOMAIN, ops[i].domain, NULL);
            nnav_rw_cell_uint(&w, O_COUNT, ops[i].count, NULL);
            nnav_rw_cell_count(&w, O_MACS, ops[i].macs, a);
            nnav_rw_cell_count(&w, O_FLOPS, ops[i].flops, b);
            nnav_rw_cell_uint(&w, O_PARAMS, ops[i].params, c);
            nnav_rw_row_end(&w);
        }
        nnav_rw_table_end(&w);
        free(ops);
        if (o->list_nodes) {
            nnav_rw_table_begin(&w, "node_costs", &nodes_table);
            for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
                nnav_rw_table_pass(&w, pass);
                if (gr->node_count)
                    nnav_rw_table_head(&w);
                for (uint32_t i = 0; i < gr->node_count; i++) {
                    const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                    const nnav_cost *nc = nnav_shapes_node_cost(s, gr->node_first + i);
                    if (nnav_rw_shows(&w)) { /* the figures' words: not measured */
                        nnav_text_si(nc->macs, a, sizeof a);
                        nnav_text_si(nc->flops, b, sizeof b);
                        nnav_text_si((double)nc->params, c, sizeof c);
                        nnav_report_bytes(nc->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)nc->out_bytes,
                                          d, sizeof d);
                    }
                    nnav_rw_row(&w);
                    nnav_rw_cell_uint(&w, N_INDEX, i, NULL);
                    nnav_rw_cell_span(&w, N_NAME, nd->name, nd->name.n ? esc(nd->name, nm, sizeof nm) : "-");
                    nnav_rw_cell_span(&w, N_OP, nd->op, op_name(m, gr->node_first + i, opb, sizeof opb));
                    nnav_rw_cell_count(&w, N_MACS, nc->macs, a);
                    nnav_rw_cell_count(&w, N_FLOPS, nc->flops, b);
                    nnav_rw_cell_uint(&w, N_PARAMS, nc->params, c);
                    nnav_rw_cell_count(&w, N_OUT, nc->out_bytes, d);
                    nnav_rw_cell_bool(&w, N_KNOWN, nc->known, nc->known ? "" : "partial");
                    nnav_rw_row_end(&w);
                }
            }
            nnav_rw_table_end(&w);
        }
        nnav_rw_map_end(&w);
    }
    nnav_wcost_free(wc);
    nnav_rw_seq_end(&w);
    /* The named dims the figures assumed; in text shortened, after the
     * graphs. Names in it were escaped by the engine. */
    nnav_rw_sentence(&w);
    snprintf(line, sizeof line, "assumed (named dims in costs; --dim NAME=N sets them): %s", shortened);
    nnav_rw_key_as(&w, "assumed", shortened[0] && rc == 0 ? "" : NULL);
    assumed[0] ? nnav_rw_cstr(&w, assumed, line) : nnav_rw_null(&w, line);
    nnav_rw_sentence_end(&w);
    /* The named dims no --dim gave a value: said plainly, with the cure. */
    char unset[300];
    int nu = rc == 0 && nnav_shapes_unset(s, unset, sizeof unset) > 0;
    nnav_rw_sentence(&w);
    snprintf(line, sizeof line, "dims %s unset: counted as 1; set them with --dim NAME=N", unset);
    nnav_rw_key_as(&w, "unset_dims", nu ? "" : NULL);
    nu ? nnav_rw_cstr(&w, unset, line) : nnav_rw_null(&w, NULL);
    nnav_rw_sentence_end(&w);
    /* A default that made a shape negative: which, and a dim that works. */
    char dim[160], neg[2048], negl[2100];
    int negative = nnav_report_negative(s, dim, sizeof dim, neg, sizeof neg);
    nnav_rw_key_as(&w, "negative_shapes", NULL), nnav_rw_bool(&w, negative, NULL);
    nnav_rw_key_as(&w, "suggested_dim", NULL);
    dim[0] ? nnav_rw_cstr(&w, dim, NULL) : nnav_rw_null(&w, NULL);
    if (negative && rc == 0) {
        snprintf(negl, sizeof negl, "%s\n", neg);
        nnav_rw_text(&w, negl);
    }
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0 && rc == 0)
        rc = EXIT_BADINPUT;
    return typed_run_end(&t, rc);
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
    if (st->encoding != NNAV_SIG_DENSE || st->rank < 0 || f->rank < 0)
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

/* A signature tensor that contradicts the graph: a row each, in text the
 * graph's path and the error's line ("FILE: FIELD: what at offset N"). */
enum { G_GRAPH, G_SIG, G_SIDE, G_KEY, G_TENSOR, G_STYPE, G_GTYPE, G_NODE, G_INDEX, G_OP,
       G_WHAT, G_OFFSET, G_FIELD, G_LINE };
static const nnav_rw_col sig_cols[] = {
    [G_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
    [G_SIG] = {"signature", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_SIDE] = {"side", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_KEY] = {"key", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_TENSOR] = {"tensor", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_STYPE] = {"signature_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_GTYPE] = {"graph_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_NODE] = {"node", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_INDEX] = {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_OP] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_WHAT] = {"what", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_OFFSET] = {"offset", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_FIELD] = {"field", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [G_LINE] = {NULL, 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table sig_table = {
    .cols = sig_cols, .ncols = sizeof sig_cols / sizeof *sig_cols, .sep = "  "};

/* TensorFlow: each signature tensor of the meta graphs whose graph is in
 * [first, end) against the type the graph gives its value (a Placeholder's
 * attrs; what inference confirms): the table signature_disagreements.
 * Counts the tensors checked into *checked; returns the contradictions. */
static uint64_t signature_findings(const nnav_model *m, const nnav_shapes *s, const opts *o,
                                   uint32_t first, uint32_t end, nnav_rw *w, uint64_t *checked)
{
    uint64_t bad = 0;
    char path[2048], st_ty[256], g_ty[1100], kb[300], tb[300], sb[300], nb[600], ob[200];
    char msg[3000], line[4200];
    *checked = 0;
    nnav_rw_table_begin(w, "signature_disagreements", &sig_table);
    for (uint32_t i = 0; i < nnav_signature_count(m); i++) {
        const nnav_signature *sg = nnav_signature_get(m, i);
        uint32_t g = nnav_sig_group_get(m, sg->group)->graph;
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
                int why = !nd && st->encoding == NNAV_SIG_DENSE ? 4 : sig_contradiction(m, s, st, f);
                if (!why)
                    continue;
                bad++;
                nnav_sig_tensor_format(m, k, st_ty, sizeof st_ty);
                value_type(s, st->value, g_ty, sizeof g_ty);
                /* Where: the name field for a missing tensor, the dtype field
                 * when the element types differ, else tensor_shape; the
                 * TensorInfo when that field is absent. */
                uint64_t off = why == 4 ? st->name_off : (why & 1) ? st->dtype_off : st->shape_off;
                int part = why == 4 ? NNAV_SIGF_NAME : (why & 1) ? NNAV_SIGF_DTYPE : NNAV_SIGF_SHAPE;
                if (!off)
                    off = st->off, part = NNAV_SIGF_TENSOR;
                char fp[1200];
                esc(sg->key, kb, sizeof kb);
                esc(st->key, tb, sizeof tb);
                nnav_sig_tensor_field(m, i, k, part, fp, sizeof fp);
                esc(st->name, sb, sizeof sb);
                if (nd) {
                    esc(nd->name, nb, sizeof nb);
                    esc(nd->op, ob, sizeof ob);
                }
                nnav_graph_path(m, g, path, sizeof path);
                /* The text: the error's line, as a reader's error is written. */
                nnav_error e = {0};
                if (why == 4)
                    snprintf(msg, sizeof msg, "signature \"%s\" %s \"%s\" names %s, a tensor of no "
                             "node of the graph", kb, side ? "output" : "input", tb, sb);
                else
                    snprintf(msg, sizeof msg, "signature \"%s\" %s \"%s\" (%s) says %s%s%s%s, the graph "
                             "gives %s%s%s%s%s%s", kb, side ? "output" : "input", tb, sb, st_ty,
                             st->shape_note ? " (" : "", st->shape_note ? st->shape_note : "",
                             st->shape_note ? ")" : "",
                             g_ty, nd ? " (node \"" : "", nd ? nb : "", nd ? "\", " : "",
                             nd ? ob : "", nd ? ")" : "");
                snprintf(e.msg, sizeof e.msg, "%s", msg);
                snprintf(e.path, sizeof e.path, "%s", fp);
                e.offset = off;
                e.has_offset = 1;
                nnav_error_format(&e, o->model, line, sizeof line);
                nnav_rw_row(w);
                nnav_rw_cell_cstr(w, G_GRAPH, path, NULL);
                nnav_rw_cell_span(w, G_SIG, sg->key, NULL);
                nnav_rw_cell_cstr(w, G_SIDE, side ? "output" : "input", NULL);
                nnav_rw_cell_span(w, G_KEY, st->key, NULL);
                nnav_rw_cell_span(w, G_TENSOR, st->name, NULL);
                nnav_rw_cell_cstr(w, G_STYPE, st_ty, NULL);
                if (why != 4)
                    nnav_rw_cell_cstr(w, G_GTYPE, g_ty, NULL);
                if (nd) {
                    nnav_rw_cell_span(w, G_NODE, nd->name, NULL);
                    nnav_rw_cell_uint(w, G_INDEX, nnav_node_index(m, nid), NULL);
                    nnav_rw_cell_span(w, G_OP, nd->op, NULL);
                }
                nnav_rw_cell_cstr(w, G_WHAT, why == 4   ? "missing"
                                             : why == 3 ? "dtype and shape"
                                             : why == 1 ? "dtype"
                                                        : "shape", NULL);
                nnav_rw_cell_uint(w, G_OFFSET, off, NULL);
                nnav_rw_cell_cstr(w, G_FIELD, fp, NULL);
                nnav_rw_cell_null(w, G_LINE, line);
                nnav_rw_row_end(w);
            }
        }
    }
    nnav_rw_table_end(w);
    return bad;
}

/* ---- check: operators against their schemas (opcheck.h) ---- */

/* A finding's node as text: "node 'conv1' (#3, Conv v11)"; an unnamed
 * node by its index; the version is the schema's in force (none for an
 * operator not yet existing, or an OpDef). */
static const char *finding_node(const nnav_model *m, const nnav_opc_finding *f, char *buf, size_t n)
{
    char nm[1100], op[1100], ver[48] = "";
    const nnav_node *nd = nnav_node_get(m, f->node);
    op_name(m, f->node, op, sizeof op);
    if (f->s && f->s->since > 0 && !nnav_op_schema_is_models(f->s) && f->rule != NNAV_OPC_NOT_YET)
        snprintf(ver, sizeof ver, " v%d", f->s->since);
    if (nd->name.n)
        snprintf(buf, n, "node '%s' (#%u, %s%s)", esc(nd->name, nm, sizeof nm),
                 nnav_node_index(m, f->node), op, ver);
    else
        snprintf(buf, n, "node #%u (%s%s)", nnav_node_index(m, f->node), op, ver);
    return buf;
}

static int attr_rule(int rule)
{
    return rule == NNAV_OPC_UNKNOWN_ATTRIBUTE || rule == NNAV_OPC_DUPLICATE_ATTRIBUTE ||
           rule == NNAV_OPC_ATTRIBUTE_TYPE;
}

/* A finding a row: where (graph, node, index in its graph, op_type,
 * domain), the schema's since_version and the opset in force, the rule's
 * word, the attribute or the argument position it is about, and the
 * detail in words. A model-level finding has nulls for the node. In text
 * "PATH  node 'conv1' (#3, Conv v11): detail [rule]", or "model  detail
 * [rule]". */
enum { F_GRAPH, F_NODE, F_INDEX, F_OP, F_DOMAIN, F_SINCE, F_OPSET, F_RULE, F_ATTR, F_POS, F_VALUE,
       F_DETAIL };
static const nnav_rw_col finding_cols[] = {
    [F_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
    [F_NODE] = {"node", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_INDEX] = {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_OP] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_DOMAIN] = {"domain", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_SINCE] = {"since_version", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_OPSET] = {"opset", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_RULE] = {"rule", 0, 0, " ", 0, NULL},
    [F_ATTR] = {"attribute", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_POS] = {"position", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_VALUE] = {"value", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_DETAIL] = {"detail", 0, 0, "  ", 0, NULL},
};
static const uint8_t finding_text[] = {F_GRAPH, F_DETAIL, F_RULE};
static const nnav_rw_table finding_table = {
    .cols = finding_cols, .ncols = sizeof finding_cols / sizeof *finding_cols, .sep = "  ",
    .text_order = finding_text, .ntext = sizeof finding_text};

static void finding_row(nnav_rw *w, const nnav_model *m, const nnav_opc_finding *f)
{
    char path[2048], where[2400], txt[2400 + sizeof f->detail], rule[64];
    int node = f->node != NNAV_NONE;
    nnav_rw_row(w);
    if (node) {
        const nnav_node *nd = nnav_node_get(m, f->node);
        nnav_graph_path(m, nd->graph, path, sizeof path);
        nnav_rw_cell_cstr(w, F_GRAPH, path, NULL);
        nnav_rw_cell_span(w, F_NODE, nd->name, NULL);
        nnav_rw_cell_uint(w, F_INDEX, nnav_node_index(m, f->node), NULL);
        nnav_rw_cell_span(w, F_OP, nd->op, NULL);
        nnav_rw_cell_span(w, F_DOMAIN, nnav_node_domain(m, f->node), NULL);
    } else if (f->graph != NNAV_NONE) { /* an initializer, a graph input */
        nnav_graph_path(m, f->graph, path, sizeof path);
        nnav_rw_cell_cstr(w, F_GRAPH, path, NULL);
        nnav_rw_cell_null(w, F_NODE, NULL);
        nnav_rw_cell_null(w, F_INDEX, NULL);
        nnav_rw_cell_null(w, F_OP, NULL);
        nnav_rw_cell_null(w, F_DOMAIN, NULL);
    } else {
        nnav_rw_cell_null(w, F_GRAPH, "model");
        nnav_rw_cell_null(w, F_NODE, NULL);
        nnav_rw_cell_null(w, F_INDEX, NULL);
        nnav_rw_cell_null(w, F_OP, NULL);
        if (f->index < nnav_opset_count(m))
            nnav_rw_cell_span(w, F_DOMAIN, nnav_opset_get(m, f->index)->domain, NULL);
        else
            nnav_rw_cell_null(w, F_DOMAIN, NULL);
    }
    if (f->s && !nnav_op_schema_is_models(f->s))
        nnav_rw_cell_int(w, F_SINCE, f->s->since, NULL);
    else
        nnav_rw_cell_null(w, F_SINCE, NULL);
    if (f->opset >= 0)
        nnav_rw_cell_int(w, F_OPSET, f->opset, NULL);
    else
        nnav_rw_cell_null(w, F_OPSET, NULL);
    snprintf(rule, sizeof rule, "[%s]", nnav_opc_rule_word(f->rule));
    nnav_rw_cell_cstr(w, F_RULE, nnav_opc_rule_word(f->rule), rule);
    if (attr_rule(f->rule) && f->index != NNAV_NONE)
        nnav_rw_cell_span(w, F_ATTR, nnav_attr_get(m, f->index)->name, NULL);
    else
        nnav_rw_cell_null(w, F_ATTR, NULL);
    /* Input/output rules: the argument's position (the count for a count
     * rule); opset_range: the opset_import's index; an initializer or
     * graph input rule: its position. The graph rules name the value. */
    if (!attr_rule(f->rule) && f->index != NNAV_NONE)
        nnav_rw_cell_uint(w, F_POS, f->index, NULL);
    else
        nnav_rw_cell_null(w, F_POS, NULL);
    if (f->value.p)
        nnav_rw_cell_span(w, F_VALUE, f->value, NULL);
    else
        nnav_rw_cell_null(w, F_VALUE, NULL);
    if (node)
        snprintf(txt, sizeof txt, "%s: %s", finding_node(m, f, where, sizeof where), f->detail);
    else
        snprintf(txt, sizeof txt, "%s", f->detail);
    nnav_rw_cell_cstr(w, F_DETAIL, f->detail, txt);
    nnav_rw_row_end(w);
}

/* Nodes of non-standard domains, counted by domain: "com.microsoft (12),
 * my.ops (3)", and how many in further domains. */
static void skipped_text(const nnav_opcheck *c, char *buf, size_t n)
{
    size_t o = 0;
    char d[300];
    buf[0] = 0;
    for (size_t i = 0; i < c->n_skip && o + 1 < n; i++) {
        int k = snprintf(buf + o, n - o, "%s%s (%llu)", i ? ", " : "", esc(c->skip[i].domain, d, sizeof d),
                         (unsigned long long)c->skip[i].count);
        o += k > 0 ? (size_t)k : 0;
    }
    if (c->skip_other && o + 1 < n)
        snprintf(buf + o, n - o, ", %llu in other domains", (unsigned long long)c->skip_other);
}

/* The tables of operator_check: the domains not checked, and the
 * opset_imports newer than the table (in text, lines of their own). */
enum { K_DOMAIN, K_COUNT };
static const nnav_rw_col skip_cols[] = {
    [K_DOMAIN] = {"domain", 0, 0, NULL, 0, NULL},
    [K_COUNT] = {"count", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table skip_table = {
    .cols = skip_cols, .ncols = sizeof skip_cols / sizeof *skip_cols, .sep = " ", .flow = 1};
enum { P_DOMAIN, P_VERSION, P_MAX };
static const nnav_rw_col past_cols[] = {
    [P_DOMAIN] = {"domain", 0, 0, NULL, 0, NULL},
    [P_VERSION] = {"version", 0, 0, NULL, 0, NULL},
    [P_MAX] = {"table_max", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table past_table = {
    .cols = past_cols, .ncols = sizeof past_cols / sizeof *past_cols, .sep = " ", .flow = 1};

/* The operator findings after today's lines: the table operator_findings
 * and the map operator_check (the counts) in w's open map. In text the
 * findings a line each, then what was held and what was skipped, said in
 * sentences. Returns the findings' count. */
static uint64_t operator_findings(const nnav_model *m, const nnav_opcheck *c, nnav_rw *w)
{
    char line[3200], sk[2400];
    int tf = (nnav_model_facts_get(m)->traits & NNAV_TRAIT_OWN_OP_DEFS) != 0; /* the model's own */
    nnav_rw_table_begin(w, "operator_findings", &finding_table);
    for (size_t i = 0; i < c->n; i++)
        finding_row(w, m, &c->f[i]);
    nnav_rw_table_end(w);
    nnav_rw_key_as(w, "operator_check", "");
    nnav_rw_map(w, 0);
    nnav_rw_sentence(w);
    snprintf(line, sizeof line, "... and %llu more operator findings (the first %llu are listed)",
             (unsigned long long)(c->total - c->n), (unsigned long long)c->n);
    nnav_rw_key_as(w, "count", NULL), nnav_rw_uint(w, c->total, NULL);
    nnav_rw_key_as(w, "listed", c->total > c->n ? "" : NULL), nnav_rw_uint(w, c->n, line);
    nnav_rw_key_as(w, "rules", NULL);
    nnav_rw_map(w, 0);
    for (int r = 0; r < NNAV_OPC_RULES; r++)
        if (c->by_rule[r])
            nnav_rw_key_as(w, nnav_opc_rule_word(r), NULL), nnav_rw_uint(w, c->by_rule[r], NULL);
    nnav_rw_map_end(w);
    nnav_rw_sentence_end(w);
    /* The notices come before the counts in text, after them in YAML. */
    for (size_t i = 0; i < c->n_past; i++) {
        snprintf(line, sizeof line, "opset_import %s %lld is newer than the table knows (%d, %s): "
                 "nodes are held to the newest schemas known\n", c->past[i].domain,
                 (long long)c->past[i].version, c->past[i].table_max, c->table);
        nnav_rw_text(w, line);
    }
    if (c->skipped) {
        skipped_text(c, sk, sizeof sk);
        snprintf(line, sizeof line, "%llu node%s in domains the table does not hold %s not checked: %s\n",
                 (unsigned long long)c->skipped, pl(c->skipped), c->skipped == 1 ? "was" : "were", sk);
        nnav_rw_text(w, line);
    }
    if (c->no_schemas) {
        snprintf(line, sizeof line, "%llu node%s not checked: the model carries no op definitions "
                 "(stripped_op_list)\n", (unsigned long long)c->no_schemas, pl(c->no_schemas));
        nnav_rw_text(w, line);
    }
    /* "N nodes checked against the operator schemas: K findings (table:
     * ...); C calls of the model's functions" */
    nnav_rw_sentence(w);
    nnav_rw_key_as(w, "table", NULL), nnav_rw_cstr(w, tf ? "the model's op definitions" : c->table, NULL);
    nnav_rw_key_as(w, "nodes", NULL), nnav_rw_uint(w, c->nodes, NULL);
    snprintf(line, sizeof line, "%llu node%s checked against %s: %llu finding%s%s%s%s",
             (unsigned long long)c->checked, pl(c->checked),
             tf ? "the model's op definitions" : "the operator schemas",
             (unsigned long long)c->total, pl(c->total), tf ? "" : " (table: ", tf ? "" : c->table,
             tf ? "" : ")");
    nnav_rw_key(w, "held"), nnav_rw_uint(w, c->checked, line);
    snprintf(line, sizeof line, "; %llu call%s of the model's functions", (unsigned long long)c->calls,
             pl(c->calls));
    nnav_rw_key(w, "function_calls"), nnav_rw_uint(w, c->calls, c->calls ? line : "");
    nnav_rw_key_as(w, "without_schema", NULL), nnav_rw_uint(w, c->no_schemas, NULL);
    nnav_rw_sentence_end(w);
    nnav_rw_table_begin(w, "not_checked", &skip_table);
    nnav_rw_table_hide_text(w);
    for (size_t i = 0; i < c->n_skip; i++) {
        nnav_rw_row(w);
        nnav_rw_cell_span(w, K_DOMAIN, c->skip[i].domain, NULL);
        nnav_rw_cell_uint(w, K_COUNT, c->skip[i].count, NULL);
        nnav_rw_row_end(w);
    }
    if (c->skip_other) { /* past NNAV_OPC_DOMAINS names */
        nnav_rw_row(w);
        nnav_rw_cell_null(w, K_DOMAIN, NULL);
        nnav_rw_cell_uint(w, K_COUNT, c->skip_other, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_rw_table_begin(w, "opset_notices", &past_table);
    nnav_rw_table_hide_text(w);
    for (size_t i = 0; i < c->n_past; i++) {
        nnav_rw_row(w);
        nnav_rw_cell_cstr(w, P_DOMAIN, c->past[i].domain, NULL);
        nnav_rw_cell_int(w, P_VERSION, c->past[i].version, NULL);
        nnav_rw_cell_int(w, P_MAX, c->past[i].table_max, NULL);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
    nnav_rw_map_end(w);
    return c->total;
}

/* A value whose type in the file is not what its producer gives: in text
 * "PATH  NAME: the file says T, inferred U, from WHERE". */
enum { D_GRAPH, D_NAME, D_FILE, D_INFERRED, D_NODE, D_INDEX, D_OP, D_SOURCE, D_FROM };
static const nnav_rw_col disagree_cols[] = {
    [D_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
    [D_NAME] = {"name", 0, 0, NULL, 0, NULL},
    [D_FILE] = {"file", 0, 0, ": ", 0, NULL},
    [D_INFERRED] = {"inferred", 0, 0, ", ", 0, NULL},
    [D_NODE] = {"node", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [D_INDEX] = {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [D_OP] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [D_SOURCE] = {"source", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [D_FROM] = {NULL, 0, 0, ", ", 0, NULL},
};
static const nnav_rw_table disagree_table = {
    .cols = disagree_cols, .ncols = sizeof disagree_cols / sizeof *disagree_cols, .sep = "  "};

/* Exit 2 when the file contradicts itself: a value whose recorded type
 * (value_info, an output's type) is not what its producer gives, a
 * TensorFlow signature tensor whose type is not its value's, or a node
 * against its operator's schema (opcheck.h). */
int cmd_check(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_rw w;
    int rc = typed_run_begin(&t, m, o, "check", 1);
    if (rc)
        return rc;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return typed_run_end(&t, EXIT_BADINPUT);
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    uint64_t checked = 0, agree = 0, bad = 0;
    char path[2048], nm[1100], ty[1100], ft[1100], from[2400], tx[2500], line[512];
    nnav_rw_map(&w, 0);
    nnav_rw_table_begin(&w, "disagreements", &disagree_table);
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
            /* A producer whose inputs contradict its operator is an
             * operator finding (input_shape), not the file's contradiction. */
            if (!f || f->src != NNAV_SRC_DISAGREE || f->conflict)
                continue;
            bad++;
            const nnav_value *v = nnav_value_get(m, vals[i]);
            value_type(s, vals[i], ty, sizeof ty);
            nnav_value_type_format(m, vals[i], ft, sizeof ft);
            nnav_rw_row(&w);
            nnav_rw_cell_cstr(&w, D_GRAPH, path, NULL);
            nnav_rw_cell_span(&w, D_NAME, v->name, esc(v->name, nm, sizeof nm));
            snprintf(tx, sizeof tx, "the file says %s", ft[0] ? ft : "?");
            nnav_rw_cell_cstr(&w, D_FILE, ft, tx);
            snprintf(tx, sizeof tx, "inferred %s", ty);
            nnav_rw_cell_cstr(&w, D_INFERRED, ty, tx);
            if (v->kind == NNAV_VAL_NODE) {
                const nnav_node *nd = nnav_node_get(m, v->producer);
                nnav_rw_cell_span(&w, D_NODE, nd->name, NULL);
                nnav_rw_cell_uint(&w, D_INDEX, nnav_node_index(m, v->producer), NULL);
                nnav_rw_cell_span(&w, D_OP, nd->op, NULL);
            } else {
                nnav_rw_cell_cstr(&w, D_SOURCE, kind_word(v->kind), NULL);
            }
            source_text(m, vals[i], g, from, sizeof from);
            snprintf(tx, sizeof tx, "from %s", from);
            nnav_rw_cell_null(&w, D_FROM, tx);
            nnav_rw_row_end(&w);
        }
        free(vals);
    }
    nnav_rw_table_end(&w);
    /* The counts: in text a sentence after the sparse and signature lines. */
    nnav_rw_key_as(&w, "count", NULL), nnav_rw_uint(&w, bad, NULL);
    nnav_rw_key_as(&w, "checked", NULL), nnav_rw_uint(&w, checked, NULL);
    nnav_rw_key_as(&w, "agree", NULL), nnav_rw_uint(&w, agree, NULL);
    uint32_t sparse_bad = rc == 0 ? nnav_sparse_warnings(m, first, end, &w, 1) : 0;
    uint64_t sig_checked = 0, sig_bad = 0;
    if (rc == 0 && nnav_signature_count(m))
        sig_bad = signature_findings(m, s, o, first, end, &w, &sig_checked);
    if (rc == 0) {
        snprintf(tx, sizeof tx, "%llu value%s checked: %llu where the file's type agrees with the "
                 "inferred one, %llu where it disagrees\n", (unsigned long long)checked, pl(checked),
                 (unsigned long long)agree, (unsigned long long)bad);
        nnav_rw_text(&w, tx);
    }
    if (rc == 0 && nnav_signature_count(m)) {
        nnav_rw_sentence(&w);
        snprintf(line, sizeof line, "%llu signature tensor%s checked against the graph: %llu contradict%s it",
                 (unsigned long long)sig_checked, pl(sig_checked), (unsigned long long)sig_bad,
                 sig_bad == 1 ? "s" : "");
        nnav_rw_key_as(&w, "signature_disagreement_count", NULL), nnav_rw_uint(&w, sig_bad, NULL);
        nnav_rw_key(&w, "signature_tensors_checked"), nnav_rw_uint(&w, sig_checked, line);
        nnav_rw_sentence_end(&w);
    }
    /* Operators against their schemas: the graphs asked for, or without
     * --graph every graph (bodies and functions too, as onnx.checker). */
    uint64_t op_bad = 0;
    if (rc == 0) {
        nnav_opcheck *oc = nnav_opcheck_run(m, s, o->graph || o->all ? first : 0,
                                            o->graph || o->all ? end : nnav_graph_count(m));
        if (!oc) {
            fprintf(stderr, "nnav check: out of memory\n");
            rc = EXIT_BADINPUT;
        } else {
            op_bad = operator_findings(m, oc, &w);
            nnav_opcheck_free(oc);
        }
    }
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0 && rc == 0)
        rc = EXIT_BADINPUT;
    rc = typed_run_end(&t, rc);
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
    if (op_bad) {
        fprintf(stderr, "nnav check: %llu operator finding%s (a node against its operator's "
                        "schema or the graph's rules, an initializer, or the model's opset_import)\n",
                (unsigned long long)op_bad, pl(op_bad));
        rc = EXIT_BADINPUT;
    }
    return rc;
}

/* ---- summary (src/summary.c) ---- */

int cmd_summary(const nnav_model *m, const opts *o)
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

