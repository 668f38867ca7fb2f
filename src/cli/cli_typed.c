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

/* With --yaml, w is opened on a map whose `key` holds a sequence; with w
 * NULL the caller opens its own writer. */
static int typed_run_begin(typed_run *t, nnav_yw *w, const nnav_model *m, const opts *o,
                           const char *cmd, int want_seen, const char *key)
{
    *t = (typed_run){0};
    int rc = graph_range(m, o, cmd, &t->first, &t->end);
    if (rc)
        return rc;
    if ((want_seen && !(t->seen = calloc((size_t)nnav_value_count(m) + 1, 1))) ||
        !(t->s = shapes_of(m, o)) || (w && o->yaml && nnav_yw_open(w, stdout) < 0)) {
        nnav_shapes_free(t->s);
        free(t->seen);
        return EXIT_BADINPUT;
    }
    if (w && o->yaml) {
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
    if (w && o->yaml) {
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
 * not whole; YAML has its element type and shape besides. */
enum { S_NAME, S_TYPE, S_ELEM, S_SHAPE, S_SOURCE, S_FILE, S_WHY };
static const nnav_rw_col shapes_cols[] = {
    [S_NAME] = {"name", 36, 0, NULL, 0},
    [S_TYPE] = {"type", 30, 0, NULL, 0},
    [S_ELEM] = {"elem_type", NNAV_RW_NOTEXT, 0, NULL, 0},
    [S_SHAPE] = {"shape", NNAV_RW_NOTEXT, 0, NULL, 0},
    [S_SOURCE] = {"source", 0, 0, NULL, 0},
    [S_FILE] = {"file", 0, 0, "  ", 0},
    [S_WHY] = {"why", 0, 0, "  ", 0},
};
static const nnav_rw_table shapes_table = {
    .cols = shapes_cols, .ncols = sizeof shapes_cols / sizeof *shapes_cols, .sep = " "};

int cmd_shapes(const nnav_model *m, const opts *o)
{
    typed_run t;
    nnav_rw w;
    int rc = typed_run_begin(&t, NULL, m, o, "shapes", 1, NULL);
    if (rc)
        return rc;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return typed_run_end(&t, NULL, o, EXIT_BADINPUT);
    const nnav_shapes *s = t.s;
    uint32_t first = t.first, end = t.end;
    char path[2048], nm[1100], ty[1100], ft[1100], fs[1200], wy[4200];
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
        for (size_t i = 0; i < n; i++) {
            uint32_t v = vals[i];
            const nnav_fact *f = nnav_shapes_fact(s, v);
            uint8_t src = f ? f->src : NNAV_SRC_NONE;
            const char *why = why_text(s, f);
            count_fact(&st, s, f);
            value_type(s, v, ty, sizeof ty);
            nnav_span name = nnav_value_get(m, v)->name;
            nnav_rw_row(&w);
            nnav_rw_cell_span(&w, S_NAME, name, w.form == NNAV_RW_TEXT ? esc(name, nm, sizeof nm) : NULL);
            nnav_rw_cell_cstr(&w, S_TYPE, ty, NULL);
            if (f && f->dtype)
                nnav_rw_cell_cstr(&w, S_ELEM, nnav_dtype_name(f->dtype), NULL);
            else
                nnav_rw_cell_null(&w, S_ELEM, NULL);
            cell_fact_shape(&w, S_SHAPE, s, f);
            nnav_rw_cell_cstr(&w, S_SOURCE, src_word(src), src == NNAV_SRC_DISAGREE ? "DISAGREE" : NULL);
            if (src == NNAV_SRC_DISAGREE) {
                ft[0] = 0;
                nnav_value_type_format(m, v, ft, sizeof ft);
                snprintf(fs, sizeof fs, "file says %s", ft[0] ? ft : "?");
                nnav_rw_cell_cstr(&w, S_FILE, ft, fs);
            }
            if (why) {
                snprintf(wy, sizeof wy, "(%s)", why);
                nnav_rw_cell_cstr(&w, S_WHY, why, wy);
            }
            nnav_rw_row_end(&w);
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
    return typed_run_end(&t, NULL, o, rc);
}

int cmd_cost(const nnav_model *m, const opts *o)
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
        nnav_op_count *ops = nnav_op_histogram(m, gr->node_first, gr->node_count, s, &nops);
        if (!ops) {
            fprintf(stderr, "nnav cost: out of memory\n");
            rc = EXIT_BADINPUT;
            break;
        }
        uint64_t partial = nnav_report_partial_nodes(s, gr);
        nnav_graph_path(m, g, path, sizeof path);
        if (o->yaml) {
            nnav_yw_map(&w);
            nnav_yw_key(&w, "path"), nnav_yw_cstr(&w, path);
            nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, gr->node_count);
            nnav_report_cost_keys(&w, &tot);
            nnav_yw_key(&w, "own_macs"), nnav_report_yaml_count(&w, own.macs);
            nnav_yw_key(&w, "own_flops"), nnav_report_yaml_count(&w, own.flops);
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
                nnav_yw_key(&w, "macs"), bw.overflow ? nnav_yw_null(&w) : nnav_report_yaml_count(&w, bw.macs);
                nnav_yw_key(&w, "flops"), bw.overflow ? nnav_yw_null(&w) : nnav_report_yaml_count(&w, bw.flops);
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
                nnav_yw_key(&w, "macs"), nnav_report_yaml_count(&w, ops[i].macs);
                nnav_yw_key(&w, "flops"), nnav_report_yaml_count(&w, ops[i].flops);
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
                    nnav_report_cost_keys(&w, nc);
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
            printf("  %-28s %7llu %11s %11s %11s\n", nnav_report_op(ops[i].op, ops[i].domain, opb, sizeof opb),
                   (unsigned long long)ops[i].count, a, b, c);
        }
        if (o->list_nodes && gr->node_count) {
            /* The op type and name columns as wide as their widest entry. */
            int wop = 20, wnm = 28;
            for (uint32_t i = 0; i < gr->node_count; i++) {
                const nnav_node *nd = nnav_node_get(m, gr->node_first + i);
                int k = nnav_text_cols(op_name(m, gr->node_first + i, opb, sizeof opb));
                wop = k > wop ? k : wop;
                k = nd->name.n ? nnav_text_cols(esc(nd->name, nm, sizeof nm)) : 1;
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
                nnav_report_bytes(nc->out_bytes >= 1.8e19 ? UINT64_MAX : (uint64_t)nc->out_bytes, d, sizeof d);
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

/* A finding as a YAML map: where (graph, node, index in its graph,
 * op_type, domain), the schema's since_version and the opset in force, the
 * rule's word, the attribute or the argument position it is about, and
 * the detail in words. A model-level finding has nulls for the node. */
static void finding_yaml(nnav_yw *w, const nnav_model *m, const nnav_opc_finding *f)
{
    char path[2048];
    int node = f->node != NNAV_NONE;
    nnav_yw_map(w);
    if (node) {
        const nnav_node *nd = nnav_node_get(m, f->node);
        nnav_graph_path(m, nd->graph, path, sizeof path);
        nnav_yw_key(w, "graph"), nnav_yw_cstr(w, path);
        nnav_yw_key(w, "node"), nnav_yw_span(w, nd->name);
        nnav_yw_key(w, "index"), nnav_yw_uint(w, nnav_node_index(m, f->node));
        nnav_yw_key(w, "op_type"), nnav_yw_span(w, nd->op);
        nnav_yw_key(w, "domain"), nnav_yw_span(w, nnav_node_domain(m, f->node));
    } else {
        nnav_yw_key(w, "graph"), nnav_yw_null(w);
        nnav_yw_key(w, "node"), nnav_yw_null(w);
        nnav_yw_key(w, "index"), nnav_yw_null(w);
        nnav_yw_key(w, "op_type"), nnav_yw_null(w);
        nnav_yw_key(w, "domain");
        if (f->index < nnav_opset_count(m))
            nnav_yw_span(w, nnav_opset_get(m, f->index)->domain);
        else
            nnav_yw_null(w);
    }
    nnav_yw_key(w, "since_version");
    if (f->s && !nnav_op_schema_is_models(f->s))
        nnav_yw_int(w, f->s->since);
    else
        nnav_yw_null(w);
    nnav_yw_key(w, "opset");
    f->opset >= 0 ? nnav_yw_int(w, f->opset) : nnav_yw_null(w);
    nnav_yw_key(w, "rule"), nnav_yw_cstr(w, nnav_opc_rule_word(f->rule));
    nnav_yw_key(w, "attribute");
    if (attr_rule(f->rule) && f->index != NNAV_NONE)
        nnav_yw_span(w, nnav_attr_get(m, f->index)->name);
    else
        nnav_yw_null(w);
    /* Input/output rules: the argument's position (the count for a count
     * rule); opset_range: the opset_import's index. */
    nnav_yw_key(w, "position");
    if (!attr_rule(f->rule) && f->index != NNAV_NONE)
        nnav_yw_uint(w, f->index);
    else
        nnav_yw_null(w);
    nnav_yw_key(w, "detail"), nnav_yw_cstr(w, f->detail);
    nnav_yw_map_end(w);
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

/* The operator findings after today's lines: in text a line each, then
 * what was held and what was skipped, said once; in YAML the keys
 * operator_findings (a map each) and operator_check (the counts) in w's
 * open map. Returns the findings' count. */
static uint64_t operator_findings(const nnav_model *m, const nnav_opcheck *c, nnav_yw *w)
{
    char path[2048], where[2400], sk[2400];
    int tf = nnav_model_facts_get(m)->format != NNAV_FMT_ONNX;
    if (w) {
        nnav_yw_key(w, "operator_findings");
        nnav_yw_seq(w);
        for (size_t i = 0; i < c->n; i++)
            finding_yaml(w, m, &c->f[i]);
        nnav_yw_seq_end(w);
        nnav_yw_key(w, "operator_check");
        nnav_yw_map(w);
        nnav_yw_key(w, "count"), nnav_yw_uint(w, c->total);
        nnav_yw_key(w, "listed"), nnav_yw_uint(w, c->n);
        nnav_yw_key(w, "rules");
        nnav_yw_map(w);
        for (int r = 0; r < NNAV_OPC_RULES; r++)
            if (c->by_rule[r])
                nnav_yw_key(w, nnav_opc_rule_word(r)), nnav_yw_uint(w, c->by_rule[r]);
        nnav_yw_map_end(w);
        nnav_yw_key(w, "table"), nnav_yw_cstr(w, tf ? "the model's op definitions" : c->table);
        nnav_yw_key(w, "nodes"), nnav_yw_uint(w, c->nodes);
        nnav_yw_key(w, "held"), nnav_yw_uint(w, c->checked);
        nnav_yw_key(w, "function_calls"), nnav_yw_uint(w, c->calls);
        nnav_yw_key(w, "without_schema"), nnav_yw_uint(w, c->no_schemas);
        nnav_yw_key(w, "not_checked");
        nnav_yw_seq(w);
        for (size_t i = 0; i < c->n_skip; i++) {
            nnav_yw_map_flow(w);
            nnav_yw_key(w, "domain"), nnav_yw_span(w, c->skip[i].domain);
            nnav_yw_key(w, "count"), nnav_yw_uint(w, c->skip[i].count);
            nnav_yw_map_end(w);
        }
        if (c->skip_other) { /* past NNAV_OPC_DOMAINS names */
            nnav_yw_map_flow(w);
            nnav_yw_key(w, "domain"), nnav_yw_null(w);
            nnav_yw_key(w, "count"), nnav_yw_uint(w, c->skip_other);
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
        nnav_yw_key(w, "opset_notices");
        nnav_yw_seq(w);
        for (size_t i = 0; i < c->n_past; i++) {
            nnav_yw_map_flow(w);
            nnav_yw_key(w, "domain"), nnav_yw_cstr(w, c->past[i].domain);
            nnav_yw_key(w, "version"), nnav_yw_int(w, c->past[i].version);
            nnav_yw_key(w, "table_max"), nnav_yw_int(w, c->past[i].table_max);
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
        nnav_yw_map_end(w);
        return c->total;
    }
    for (size_t i = 0; i < c->n; i++) {
        const nnav_opc_finding *f = &c->f[i];
        if (f->node == NNAV_NONE) {
            printf("model  %s [%s]\n", f->detail, nnav_opc_rule_word(f->rule));
            continue;
        }
        nnav_graph_path(m, nnav_node_get(m, f->node)->graph, path, sizeof path);
        printf("%s  %s: %s [%s]\n", path, finding_node(m, f, where, sizeof where), f->detail,
               nnav_opc_rule_word(f->rule));
    }
    if (c->total > c->n)
        printf("... and %llu more operator findings (the first %llu are listed)\n",
               (unsigned long long)(c->total - c->n), (unsigned long long)c->n);
    for (size_t i = 0; i < c->n_past; i++)
        printf("opset_import %s %lld is newer than the table knows (%d, %s): nodes are held to "
               "the newest schemas known\n", c->past[i].domain, (long long)c->past[i].version,
               c->past[i].table_max, c->table);
    if (c->skipped) {
        skipped_text(c, sk, sizeof sk);
        printf("%llu node%s in domains the table does not hold %s not checked: %s\n",
               (unsigned long long)c->skipped, pl(c->skipped), c->skipped == 1 ? "was" : "were", sk);
    }
    if (c->no_schemas)
        printf("%llu node%s not checked: the model carries no op definitions (stripped_op_list)\n",
               (unsigned long long)c->no_schemas, pl(c->no_schemas));
    printf("%llu node%s checked against %s: %llu finding%s", (unsigned long long)c->checked,
           pl(c->checked), tf ? "the model's op definitions" : "the operator schemas",
           (unsigned long long)c->total, pl(c->total));
    if (!tf)
        printf(" (table: %s)", c->table);
    if (c->calls)
        printf("; %llu call%s of the model's functions", (unsigned long long)c->calls, pl(c->calls));
    printf("\n");
    return c->total;
}

/* Exit 2 when the file contradicts itself: a value whose recorded type
 * (value_info, an output's type) is not what its producer gives, a
 * TensorFlow signature tensor whose type is not its value's, or a node
 * against its operator's schema (opcheck.h). */
int cmd_check(const nnav_model *m, const opts *o)
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
    uint32_t sparse_bad = rc == 0 ? nnav_sparse_warnings(m, first, end, o->yaml ? &w : NULL, 1, stdout) : 0;
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
            op_bad = operator_findings(m, oc, o->yaml ? &w : NULL);
            nnav_opcheck_free(oc);
        }
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
    if (op_bad) {
        fprintf(stderr, "nnav check: %llu operator finding%s (a node against its operator's "
                        "schema, or the model's opset_import)\n", (unsigned long long)op_bad, pl(op_bad));
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

